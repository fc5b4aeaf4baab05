; Refused: a request passing fewer arguments than the function takes.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK: cannot differentiate df: wrong argument count: f takes 2 argument(s), the call passes fewer
