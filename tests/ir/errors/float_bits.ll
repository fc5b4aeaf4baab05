; Refused: integer arithmetic on the bits of an active float (fabs by masking the sign bit).
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

define double @f(double %x) {
entry:
  %b = bitcast double %x to i64
  %c = and i64 %b, 9223372036854775807
  %r = bitcast i64 %c to double
  ret double %r
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK: cannot differentiate f: the bits of an active float (%b) are used as an integer
; CHECK-NEXT: >>> instruction: %c = and i64 %b, 9223372036854775807
