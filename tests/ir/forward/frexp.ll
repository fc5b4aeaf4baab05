; Forward mode, frexp: tangent dx * (r / x), r the mantissa (exactly 2^-e).
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

declare double @frexp(double, ptr)

define double @f(double %x) {
entry:
  %e = alloca i32
  %r = call double @frexp(double %x, ptr %e)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK:       %r = call double @frexp(double %x, ptr %e)
; CHECK-NEXT:  [[Q:%"gf.fdiv.[0-9]+"]] = fdiv double %r, %x
; CHECK-NEXT:  [[T:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[Q]]
