; __enzyme_inactive_global = {&last}: storing an active value into @last needs no shadow (without
; the registration it is refused); the store stays and nothing flows back from it.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

@last = global double 0.0
@__enzyme_inactive_global = global [1 x ptr] [ptr @last]

define double @f(double %x) {
entry:
  store double %x, ptr @last
  %y = fmul double %x, 3.0
  ret double %y
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, double %"gl.dret")
; CHECK:       store double %x, ptr @last
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK-NOT:   @last
; CHECK:       fmul double {{%"gl.g.[0-9]+"}}, {{3.000000e\+00|0x4008000000000000}}
; CHECK-NOT:   @last
; CHECK:       {{"?}}gl.exit{{"?}}:
