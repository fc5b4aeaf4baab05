; Refused, reverse mode: a call of a function with no body and no derivative rule on active data.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

declare double @mystery(double)
define double @f(double %x) {
entry:
  %y = call double @mystery(double %x)
  ret double %y
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK: cannot differentiate f: no derivative rule for 'call' calling @mystery
; CHECK-NEXT: >>> instruction: %y = call double @mystery(double %x)
