; Refused: an active value stored into a global, which has no shadow.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

@g = global double 0.0
define double @f(double %x) {
entry:
  store double %x, ptr @g
  %m = fmul double %x, %x
  ret double %m
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK: cannot differentiate f: an active value is stored through @g, which has no shadow
; CHECK-NEXT: >>> instruction: store double %x, ptr @g
