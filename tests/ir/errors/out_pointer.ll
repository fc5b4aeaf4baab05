; Refused: enzyme_out on a pointer argument (only floats can be active scalars).
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

@enzyme_out = external global i32
define double @f(ptr %p) {
entry:
  %v = load double, ptr %p
  ret double %v
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(ptr %p) {
  %o = load i32, ptr @enzyme_out
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %o, ptr %p)
  ret double %r
}

; CHECK: cannot differentiate df: enzyme_out for parameter %p of type ptr: only floating point values can be active scalars
