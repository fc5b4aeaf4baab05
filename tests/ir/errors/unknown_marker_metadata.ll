; Refused: an activity marker gradlink does not know (metadata form), naming the caller.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x, double %y) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_bogus", double %x, double %y)
  ret double %r
}

; CHECK: cannot differentiate df: unknown activity marker enzyme_bogus
; CHECK-NEXT: >>> instruction: %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_bogus"
