; Refused, forward mode: a call of a function with no body and no derivative rule on active data.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

declare double @mystery(double)
define double @f(double %x) {
entry:
  %y = call double @mystery(double %x)
  ret double %y
}
declare double @__enzyme_fwddiff(ptr, ...)
define double @df(double %x, double %dx) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %r
}

; CHECK: cannot differentiate f: function mystery has no body in the LTO unit and no derivative rule
; CHECK-NEXT: >>> instruction: %y = call double @mystery(double %x)
