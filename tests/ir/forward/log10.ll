; Forward mode, log10: d/dx log10(x) = 1 / (x * ln 10); the tangent is dx times that partial.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

declare double @llvm.log10.f64(double)

define double @f(double %x) {
entry:
  %r = call double @llvm.log10.f64(double %x)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call double @llvm.log10.f64(double %x)
; CHECK-NEXT:  [[XL:%"gf.fmul.[0-9]+"]] = fmul double %x, 0x40026BB1BBB55516
; CHECK-NEXT:  [[D:%"gf.fdiv.[0-9]+"]] = fdiv double 0x3FF0000000000000, [[XL]]
; CHECK-NEXT:  [[T:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[D]]
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[T]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
