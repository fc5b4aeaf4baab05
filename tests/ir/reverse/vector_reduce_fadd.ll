; Reverse mode, llvm.vector.reduce.fadd: every lane of the vector gets the result's adjoint (a
; splat: insertelement + shufflevector with a zero mask).
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)
declare <2 x double> @llvm.sin.v2f64(<2 x double>)

define double @f(<2 x double> %v) {
entry:
  %s = call <2 x double> @llvm.sin.v2f64(<2 x double> %v)
  %r = call reassoc double @llvm.vector.reduce.fadd.v2f64(double 0.0, <2 x double> %s)
  ret double %r
}

declare <2 x double> @__enzyme_autodiff(ptr, ...)

define <2 x double> @df(<2 x double> %v) {
  %g = call <2 x double> (ptr, ...) @__enzyme_autodiff(ptr @f, <2 x double> %v)
  ret <2 x double> %g
}

; CHECK-LABEL: define internal <2 x double> @"gl.diffe.f.o_r"(<2 x double> %v, double %"gl.dret")
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJR:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJR]]
; CHECK-NEXT:  [[I:%"gl.ins.[0-9]+"]] = insertelement <2 x double> poison, double [[G]], i64 0
; CHECK-NEXT:  [[SP:%"gl.splat.[0-9]+"]] = shufflevector <2 x double> [[I]], <2 x double> poison, <2 x i32> zeroinitializer
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load <2 x double>, ptr [[ADJS:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SUM:%"gl.fadd.[0-9]+"]] = fadd reassoc contract <2 x double> [[A]], [[SP]]
; CHECK-NEXT:  store <2 x double> [[SUM]], ptr [[ADJS]]
