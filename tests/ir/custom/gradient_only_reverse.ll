; A registered gradient serves reverse mode only: a forward-mode request on a function calling sq
; (with no registered tangent) differentiates sq's body (gl.fwdpair.sq), not the registration.
; RUN: %gradlink ad %s | FileCheck %s

@__enzyme_register_gradient_sq = global [3 x ptr] [ptr @sq, ptr @aug_sq, ptr @rev_sq]

define double @sq(double %x) noinline {
entry:
  %m = fmul double %x, %x
  ret double %m
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

define double @f(double %x) {
entry:
  %y = call double @sq(double %x)
  ret double %y
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %r
}

; CHECK-NOT:   call ptr @aug_sq(
; CHECK-NOT:   call double @rev_sq(
; CHECK-NOT:   @"gl.custom
; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(
; CHECK:       call { double, double } @"gl.fwdpair.sq.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-LABEL: define internal { double, double } @"gl.fwdpair.sq.d_r"(
; CHECK:       %m = fmul double %x, %x
; CHECK-NEXT:  fmul double %"gf.darg.0.0", %x
; CHECK-NOT:   @"gl.custom
