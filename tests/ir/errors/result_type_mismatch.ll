; Refused: two adjoints requested through an __enzyme_autodiff declared to return one float.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}
declare float @__enzyme_autodiff(ptr, ...)
define float @df(double %x, double %y) {
  %r = call float (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret float %r
}

; CHECK: __enzyme_autodiff returns 2 adjoint(s) of type(s) double, double, but the call is declared to return float
; CHECK-NEXT: >>> instruction: %r = call float (ptr, ...) @__enzyme_autodiff(ptr @f
