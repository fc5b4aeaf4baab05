; The wrappers of a registered gradient adapt Enzyme's convention to gradlink's tape: the
; augmented wrapper calls the user's augmented forward, computes the primal by calling sq, and
; pushes the returned tape pointer; the reverse wrapper pops it and passes it last to the user's
; reverse, after the argument and the result's adjoint.
; RUN: %gradlink ad %s -f gl.custom.aug.sq -f gl.custom.rev.sq | FileCheck %s

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

; CHECK-LABEL: define internal double @"gl.custom.aug.sq"(double %a0)
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call ptr @aug_sq(double %a0)
; CHECK-NEXT:  %p = call double @sq(double %a0)
; CHECK-NEXT:  call void @"gl.push.ptr"(ptr %r)
; CHECK-NEXT:  ret double %p
; CHECK-LABEL: define internal double @"gl.custom.rev.sq"(double %a0, double %dret)
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %tape = call ptr @"gl.pop.ptr"()
; CHECK-NEXT:  %adj = call double @rev_sq(double %a0, double %dret, ptr %tape)
; CHECK-NEXT:  ret double %adj
