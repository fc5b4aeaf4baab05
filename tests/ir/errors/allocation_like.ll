; Refused: an __enzyme_allocation_like registration without its deallocator's argument string
; and function stops the link rather than being ignored.
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

; CHECK: __enzyme_allocation_like must hold 4 pointers: the allocating function, the index of its size argument
