; Reverse mode, llvm.sin.v2f64: the rule of sin applied lane-wise (llvm.cos.v2f64), with the
; zero-adjoint lane mask of vector partials.
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
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load <2 x double>, ptr [[ADJS:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store <2 x double> splat (double 0x8000000000000000), ptr [[ADJS]]
; CHECK-NEXT:  [[C:%"gl.cos.[0-9]+"]] = call <2 x double> @llvm.cos.v2f64(<2 x double> %v)
; CHECK-NEXT:  [[M:%"gl.fmul.[0-9]+"]] = fmul <2 x double> [[G]], [[C]]
; CHECK-NEXT:  [[Z:%"gl.cmp.[0-9]+"]] = fcmp oeq <2 x double> [[G]], zeroinitializer
; CHECK-NEXT:  [[D:%"gl.sel.[0-9]+"]] = select <2 x i1> [[Z]], <2 x double> zeroinitializer, <2 x double> [[M]]
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load <2 x double>, ptr [[ADJV:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SUM:%"gl.fadd.[0-9]+"]] = fadd reassoc contract <2 x double> [[A]], [[D]]
; CHECK-NEXT:  store <2 x double> [[SUM]], ptr [[ADJV]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load <2 x double>, ptr [[ADJV]]
