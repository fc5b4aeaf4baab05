; Forward mode, log: d/dx log(x) = 1 / x; the tangent is dx times that partial.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

declare double @llvm.log.f64(double)

define double @f(double %x) {
entry:
  %r = call double @llvm.log.f64(double %x)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call double @llvm.log.f64(double %x)
; CHECK-NEXT:  [[D:%"gf.fdiv.[0-9]+"]] = fdiv double 0x3FF0000000000000, %x
; CHECK-NEXT:  [[T:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[D]]
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[T]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
