; Refused: a declared shadow (!enzyme_shadow) smaller than its global; and one that is not a
; global variable (a constant) in the second RUN.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s
; RUN: sed 's/^@s = global float/@s = constant double/' %s > %t.ll
; RUN: not %gradlink ad %t.ll 2>&1 | FileCheck %s --check-prefix=CONST

@s = constant double 0.0
@g = global double 2.0, !enzyme_shadow !0

define double @f(double %x) {
entry:
  %v = load double, ptr @g
  %m = fmul double %v, %x
  ret double %m
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

!0 = !{ptr @s}

; CHECK: the shadow s declared for g is smaller than the global
; CONST: the shadow s declared for g is not a writable global variable
