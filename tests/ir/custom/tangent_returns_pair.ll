; A registered tangent returning {primal, tangent}: the wrapper takes both from it (the function
; itself is not called).
; RUN: %gradlink ad %s -f gl.custom.fwd.sq.d | FileCheck %s

@__enzyme_register_derivative_sq = global [2 x ptr] [ptr @sq, ptr @fwd_sq]

define double @sq(double %x) noinline {
entry:
  %m = fmul double %x, %x
  ret double %m
}

define { double, double } @fwd_sq(double %x, double %dx) {
entry:
  %p = fmul double %x, %x
  %t = fmul double %x, 2.0
  %d = fmul double %t, %dx
  %r0 = insertvalue { double, double } poison, double %p, 0
  %r1 = insertvalue { double, double } %r0, double %d, 1
  ret { double, double } %r1
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

; CHECK-LABEL: define internal { double, double } @"gl.custom.fwd.sq.d"(double %a0, double %d0)
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call { double, double } @fwd_sq(double %a0, double %d0)
; CHECK-NEXT:  %p = extractvalue { double, double } %r, 0
; CHECK-NEXT:  %t = extractvalue { double, double } %r, 1
; CHECK-NOT:   call double @sq
; CHECK:       ret { double, double }
