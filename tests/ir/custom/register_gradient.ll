; __enzyme_register_gradient_sq = {sq, aug_sq, rev_sq}: in reverse mode the call of sq goes
; through wrappers of the registered pair (gl.custom.aug.sq in the forward sweep, gl.custom.rev.sq
; in the reverse); sq's body is not differentiated.
; RUN: %gradlink ad %s | FileCheck %s

@__enzyme_register_gradient_sq = global [3 x ptr] [ptr @sq, ptr @aug_sq, ptr @rev_sq]
@__enzyme_register_derivative_sq = global [2 x ptr] [ptr @sq, ptr @fwd_sq]

; The body is deliberately wrong (x*x*x): the registered derivatives (of x*x) must be used.
define double @sq(double %x) noinline {
entry:
  %m = fmul double %x, %x
  %c = fmul double %m, %x
  ret double %c
}

define ptr @aug_sq(double %x) {
entry:
  ret ptr null
}

define double @rev_sq(double %x, double %d, ptr %tape) {
entry:
  %t = fmul double %x, 2.0
  %r = fmul double %t, %d
  ret double %r
}

define double @fwd_sq(double %x, double %dx) {
entry:
  %t = fmul double %x, 2.0
  %r = fmul double %t, %dx
  ret double %r
}

define double @f(double %x) {
entry:
  %y = call double @sq(double %x)
  %z = fadd double %y, %x
  ret double %z
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-NOT:   @"gl.aug.sq
; CHECK-NOT:   @"gl.rev.sq
; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(
; CHECK:       %y = call double @"gl.custom.aug.sq"(double %x)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[D:%"gl.radj.[0-9]+"]] = call double @"gl.custom.rev.sq"(double %x, double {{%"gl.g.[0-9]+"}})
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  fadd reassoc contract double [[A]], [[D]]
; CHECK-NOT:   @"gl.aug.sq
; CHECK-NOT:   @"gl.rev.sq
