; Refused: an __enzyme_* entry point gradlink does not implement.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

declare double @__enzyme_todense(ptr, ...)
define double @f(double %x) {
entry:
  ret double %x
}
define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_todense(ptr @f, double %x)
  ret double %r
}

; CHECK: cannot differentiate df: unknown Enzyme entry point __enzyme_todense
