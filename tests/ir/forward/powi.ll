; Forward mode, powi: the tangent is dx * (double) n * powi(x, n - 1); the integer n has no tangent.
; RUN: %gradlink ad %s -f gl.fwd.f.dc_r | FileCheck %s

declare double @llvm.powi.f64.i32(double, i32)

define double @f(double %x, i32 %n) {
entry:
  %r = call double @llvm.powi.f64.i32(double %x, i32 %n)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, i32 %n) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, i32 %n)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dc_r"(double %x, double %"gf.darg.0.0", i32 %n)
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call double @llvm.powi.f64.i32(double %x, i32 %n)
; CHECK-NEXT:  [[N:%"gf.sitofp.[0-9]+"]] = sitofp i32 %n to double
; CHECK-NEXT:  [[K:%"gf.sub.[0-9]+"]] = sub i32 %n, 1
; CHECK-NEXT:  [[P:%"gf.powi.[0-9]+"]] = call double @llvm.powi.f64.i32(double %x, i32 [[K]])
; CHECK-NEXT:  [[D:%"gf.fmul.[0-9]+"]] = fmul double [[N]], [[P]]
; CHECK-NEXT:  [[T:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[D]]
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[T]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
