; The request's declared result type is what the program gets: a double adjoint requested through
; an __enzyme_autodiff declared to return float is truncated (fptrunc) after the call.
; RUN: %gradlink ad %s | FileCheck %s

@enzyme_const = external global i32

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}

declare float @__enzyme_autodiff(ptr, ...)

define float @df(double %x, double %y) {
  %c = load i32, ptr @enzyme_const
  %g = call float (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %c, double %y)
  ret float %g
}

; CHECK-LABEL: define float @df(double %x, double %y)
; CHECK:       [[D:%"gl.adjoints.g"]] = call double @"gl.diffe.f.oc_r"(double %x, double %y, double 1.0)
; CHECK-NEXT:  %g = fptrunc double [[D]] to float
; CHECK-NEXT:  ret float %g
; CHECK-LABEL: define internal double @"gl.diffe.f.oc_r"(
