; Forward mode, llvm.sin.v2f64: the tangent is dv * llvm.cos.v2f64(v), lane-wise.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)
declare <2 x double> @llvm.sin.v2f64(<2 x double>)

define double @f(<2 x double> %v) {
entry:
  %s = call <2 x double> @llvm.sin.v2f64(<2 x double> %v)
  %r = call reassoc double @llvm.vector.reduce.fadd.v2f64(double 0.0, <2 x double> %s)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(<2 x double> %v, <2 x double> %dv) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, <2 x double> %v, <2 x double> %dv)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(<2 x double> %v, <2 x double> %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %s = call <2 x double> @llvm.sin.v2f64(<2 x double> %v)
; CHECK-NEXT:  [[C:%"gf.cos.[0-9]+"]] = call <2 x double> @llvm.cos.v2f64(<2 x double> %v)
; CHECK-NEXT:  [[M:%"gf.fmul.[0-9]+"]] = fmul <2 x double> %"gf.darg.0.0", [[C]]
; CHECK-NEXT:  {{%"gf.t.[0-9]+.0"}} = fadd <2 x double> [[M]], zeroinitializer
