; Refused: a registered reverse whose parameters do not follow Enzyme's convention (no differential return).
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

@__enzyme_register_gradient_sq = global [3 x ptr] [ptr @sq, ptr @aug, ptr @rev]
define double @sq(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}
define ptr @aug(double %x) {
entry:
  ret ptr null
}
define double @rev(double %x, ptr %t) {
entry:
  ret double 0.0
}
define double @f(double %x) {
entry:
  %y = call double @sq(double %x)
  ret double %y
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK: the reverse rev of sq takes 2 argument(s); expected 3
; CHECK-SAME: the differential return, then the tape
