; Reverse mode, extractelement: the element's adjoint is inserted at the same lane of a zero
; vector and added to the vector's adjoint.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

define double @f(<2 x double> %v) {
entry:
  %e = extractelement <2 x double> %v, i32 1
  ret double %e
}

declare <2 x double> @__enzyme_autodiff(ptr, ...)

define <2 x double> @df(<2 x double> %v) {
  %g = call <2 x double> (ptr, ...) @__enzyme_autodiff(ptr @f, <2 x double> %v)
  ret <2 x double> %g
}

; CHECK-LABEL: define internal <2 x double> @"gl.diffe.f.o_r"(<2 x double> %v, double %"gl.dret")
; CHECK:       [[ADJV:%"gl.adj.[0-9]+"]] = alloca <2 x double>
; CHECK-NEXT:  store <2 x double> splat (double 0x8000000000000000), ptr [[ADJV]]
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr
; CHECK-NEXT:  store double 0x8000000000000000
; CHECK-NEXT:  [[I:%"gl.ins.[0-9]+"]] = insertelement <2 x double> zeroinitializer, double [[G]], i32 1
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load <2 x double>, ptr [[ADJV]]
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd reassoc contract <2 x double> [[A]], [[I]]
; CHECK-NEXT:  store <2 x double> [[S]], ptr [[ADJV]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load <2 x double>, ptr [[ADJV]]
; CHECK:       ret <2 x double>
