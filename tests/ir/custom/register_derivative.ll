; __enzyme_register_derivative_sq = {sq, fwd_sq}: in forward mode the call of sq becomes a call
; of a wrapper returning {primal, tangent}: sq for the primal, fwd_sq(x, dx) for the tangent.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r -f gl.custom.fwd.sq.d | FileCheck %s

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

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  [[P:%"gf.pair.[0-9]+"]] = call { double, double } @"gl.custom.fwd.sq.d"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  %y = extractvalue { double, double } [[P]], 0
; CHECK-NEXT:  [[T:%"gf.t.[0-9]+.0"]] = extractvalue { double, double } [[P]], 1
; CHECK:       fadd double [[T]], %"gf.darg.0.0"
; CHECK-LABEL: define internal { double, double } @"gl.custom.fwd.sq.d"(double %a0, double %d0)
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %p = call double @sq(double %a0)
; CHECK-NEXT:  %t = call double @fwd_sq(double %a0, double %d0)
; CHECK-NEXT:  %x = insertvalue { double, double } poison, double %p, 0
; CHECK-NEXT:  %y = insertvalue { double, double } %x, double %t, 1
; CHECK-NEXT:  ret { double, double } %y
