; Forward mode, fmul: the tangent of x*y is dx*y + x*dy.
; RUN: %gradlink ad %s | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, double %y, double %dy) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(
; CHECK-SAME:  double %x, double [[DX:%"gf.darg.0.0"]], double %y, double [[DY:%"gf.darg.1.0"]])
; CHECK:       %m = fmul double %x, %y
; CHECK-NEXT:  [[A:%"gf.fmul.[0-9]+"]] = fmul double [[DX]], %y
; CHECK-NEXT:  [[B:%"gf.fmul.[0-9]+"]] = fmul double [[DY]], %x
; CHECK-NEXT:  [[S:%"gf.fadd.[0-9]+"]] = fadd double [[A]], [[B]]
; CHECK:       ret double
