; Refused: one function registered twice with different derivatives, naming both registrations.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

@__enzyme_register_derivative_a = global [2 x ptr] [ptr @sq, ptr @t1]
@__enzyme_register_derivative_b = global [2 x ptr] [ptr @sq, ptr @t2]
define double @sq(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}
define double @t1(double %x, double %dx) {
entry:
  ret double %dx
}
define double @t2(double %x, double %dx) {
entry:
  ret double %dx
}
declare double @__enzyme_fwddiff(ptr, ...)
define double @df(double %x, double %dx) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @sq, double %x, double %dx)
  ret double %r
}

; CHECK: sq is registered twice, differently: by __enzyme_register_derivative_a and by __enzyme_register_derivative_b
