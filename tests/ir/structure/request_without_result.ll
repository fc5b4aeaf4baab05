; A request declared to return double whose derivative returns nothing (only dup pointers, the
; result's adjoint going into shadow memory): the call's value is defined as zero.
; RUN: %gradlink ad %s | FileCheck %s

define double @f(ptr %p) {
entry:
  %a = load double, ptr %p
  %m = fmul double %a, %a
  ret double %m
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(ptr %p, ptr %dp) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp)
  ret double %g
}

; CHECK-LABEL: define double @df(ptr %p, ptr %dp)
; CHECK-NEXT:  call void @"gl.diffe.f.d_r"(ptr %p, ptr %dp, double 1.0)
; CHECK-NEXT:  %g = fadd double 0.0, 0.0
; CHECK-NEXT:  ret double %g
; CHECK-LABEL: define internal void @"gl.diffe.f.d_r"(
