; Refused, reverse mode: inline assembly taking an active value.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

define double @f(double %x) {
entry:
  %y = call double asm "fsqrt $0, $1", "=x,x"(double %x)
  ret double %y
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK: cannot differentiate f: inline assembly on active data
; CHECK-NEXT: >>> instruction: %y = call double asm
