; Refused: a registration gradlink cannot interpret (__enzyme_allocation_like) stops rather than being ignored.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

@__enzyme_allocation_like = global [4 x ptr] [ptr @myalloc, ptr null, ptr null, ptr null]
define ptr @myalloc(i64 %n) {
entry:
  ret ptr null
}
define double @f(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK: the registration __enzyme_allocation_like (__enzyme_allocation_like) is not supported by gradlink yet
