; Reverse mode, a global whose shadow the program declares (!enzyme_shadow, what gradlink's clang
; plugin writes for __attribute__((enzyme_shadow(s)))): the global is active although only read,
; its shadow is an alias of the program's @s, and it is not zeroed before the derivative (the
; program owns it). The load's adjoint accumulates into it.
; RUN: %gradlink ad %s | FileCheck %s

@s = global double 0.0
@g = global double 2.0, !enzyme_shadow !0

define double @f(double %x) {
entry:
  %v = load double, ptr @g
  %m = fmul double %v, %x
  ret double %m
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

!0 = !{ptr @s}

; CHECK-LABEL: define double @df(double %x)
; CHECK-NOT:   memset
; CHECK-NEXT:  %r = call double @"gl.diffe.f.o_r"(double %x, double 1.0)
; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[OLD:%"gl.m.[0-9]+"]] = load double, ptr @gl.shadow.g
; CHECK:       store double {{%"gl.fadd.[0-9]+"}}, ptr @gl.shadow.g
; CHECK:       @gl.shadow.g = internal alias double, ptr @s
