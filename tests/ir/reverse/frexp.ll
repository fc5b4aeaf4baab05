; Reverse mode, frexp: the mantissa r = x * 2^-e, so d/dx = r / x (exactly 2^-e); the exponent
; written through the pointer is an integer, inactive.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

declare double @frexp(double, ptr)

define double @f(double %x) {
entry:
  %e = alloca i32
  %r = call double @frexp(double %x, ptr %e)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, double %"gl.dret")
; CHECK:       %r = call double @frexp(double %x, ptr %e)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJR:%"gl.adj.[0-9]+"]]
; CHECK:       [[Q:%"gl.fdiv.[0-9]+"]] = fdiv double %r, %x
; CHECK-NEXT:  [[DX:%"gl.fmul.[0-9]+"]] = fmul double [[G]], [[Q]]
