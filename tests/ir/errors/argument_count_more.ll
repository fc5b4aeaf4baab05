; Refused: a request passing more arguments than the function takes.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

define double @f(double %x) {
entry:
  ret double %x
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %x)
  ret double %r
}

; CHECK: cannot differentiate df: wrong argument count: f takes 1 argument(s), the call passes 1 more
