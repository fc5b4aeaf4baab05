; Refused: a registered tangent without the tangent parameter after each argument.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

@__enzyme_register_derivative_sq = global [2 x ptr] [ptr @sq, ptr @tan]
define double @sq(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}
define double @tan(double %x) {
entry:
  ret double 0.0
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

; CHECK: the tangent tan of sq takes 1 argument(s); expected 2
