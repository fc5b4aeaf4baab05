; Refused: an active value stored through a pointer passed as enzyme_const, which has no shadow
; (a global variable would get one: tests/ir/reverse/global_shadow.ll).
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

@enzyme_const = external global i32

define double @f(double %x, ptr %p) {
entry:
  store double %x, ptr %p
  %m = fmul double %x, %x
  ret double %m
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x, ptr %p) {
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %c, ptr %p)
  ret double %r
}

; CHECK: cannot differentiate f: an active value is stored through %p, which has no shadow
; CHECK-NEXT: >>> instruction: store double %x, ptr %p
