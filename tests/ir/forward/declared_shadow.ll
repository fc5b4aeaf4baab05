; Forward mode, a global whose shadow the program declares (!enzyme_shadow): the tangent of a
; load from it is read from the program's shadow (@s, through the alias @gl.shadow.g), which
; gradlink does not zero: the program seeds it.
; RUN: %gradlink ad %s | FileCheck %s

@s = global double 0.0
@g = global double 2.0, !enzyme_shadow !0

define double @f(double %x) {
entry:
  %v = load double, ptr @g
  %m = fmul double %v, %x
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %r
}

!0 = !{ptr @s}

; CHECK-LABEL: define double @df(double %x, double %dx)
; CHECK-NOT:   memset
; CHECK-NEXT:  %r = call double @"gl.fwd.
; CHECK:       load double, ptr @gl.shadow.g
; CHECK:       @gl.shadow.g = internal alias double, ptr @s
