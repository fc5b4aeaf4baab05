; Refused: a gradient registration that does not hold function, augmented forward and reverse.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

@__enzyme_register_gradient_sq = global [2 x ptr] [ptr @sq, ptr @aug]
define double @sq(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}
define ptr @aug(double %x) {
entry:
  ret ptr null
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @sq, double %x)
  ret double %r
}

; CHECK: __enzyme_register_gradient_sq must hold 3 pointers: function, augmented forward, reverse
