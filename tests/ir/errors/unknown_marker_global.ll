; Refused: an activity marker gradlink does not know (a load of the global @enzyme_bogus).
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

@enzyme_bogus = external global i32
define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x, double %y) {
  %b = load i32, ptr @enzyme_bogus
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %b, double %x, double %y)
  ret double %r
}

; CHECK: cannot differentiate df: unknown activity marker enzyme_bogus
; CHECK-NEXT: >>> instruction: %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %b
