; Forward mode, copysign: partials copysign(1, x) * copysign(1, y) and 0 (y gets nothing); the tangent is the sum of dx and dy times the partials.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

declare double @llvm.copysign.f64(double, double)

define double @f(double %x, double %y) {
entry:
  %r = call double @llvm.copysign.f64(double %x, double %y)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, double %y, double %dy) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(double %x, double %"gf.darg.0.0", double %y, double %"gf.darg.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call double @llvm.copysign.f64(double %x, double %y)
; CHECK-NEXT:  [[SX:%"gf.copysign.[0-9]+"]] = call double @llvm.copysign.f64(double 0x3FF0000000000000, double %x)
; CHECK-NEXT:  [[SY:%"gf.copysign.[0-9]+"]] = call double @llvm.copysign.f64(double 0x3FF0000000000000, double %y)
; CHECK-NEXT:  [[PX:%"gf.fmul.[0-9]+"]] = fmul double [[SX]], [[SY]]
; CHECK-NEXT:  [[S:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[PX]]
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[S]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
