; Forward mode, llvm.vector.reduce.fadd: the tangent is the reduction of the vector's tangent
; (start value 0, the start operand being a constant).
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
; CHECK:       [[TS:%"gf.t.[0-9]+.0"]] = fadd <2 x double> {{%"gf.fmul.[0-9]+"}}, zeroinitializer
; CHECK-NEXT:  %r = call reassoc double @llvm.vector.reduce.fadd.v2f64(
; CHECK-NEXT:  [[RED:%"gf.red.[0-9]+"]] = call double @llvm.vector.reduce.fadd.v2f64(double 0x0000000000000000, <2 x double> [[TS]])
; CHECK-NEXT:  [[T:%"gf.t.[0-9]+.0"]] = fadd double [[RED]], 0x0000000000000000
; CHECK-NEXT:  ret double [[T]]
