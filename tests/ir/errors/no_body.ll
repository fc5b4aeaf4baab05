; Refused: a request on a function without a body (and no registered derivative).
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

declare double @nobody(double)
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @nobody, double %x)
  ret double %r
}

; CHECK: cannot differentiate df: nobody has no body in the LTO unit
; CHECK-SAME: nothing to differentiate
