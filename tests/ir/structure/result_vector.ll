; Two float adjoints requested through an __enzyme_autodiff declared to return <2 x float> (how
; the x86-64 ABI returns {float, float}): the struct is repacked lane by lane.
; RUN: %gradlink ad %s | FileCheck %s

define float @f(float %x, float %y) {
entry:
  %m = fmul float %x, %y
  ret float %m
}

declare <2 x float> @__enzyme_autodiff(ptr, ...)

define <2 x float> @df(float %x, float %y) {
  %g = call <2 x float> (ptr, ...) @__enzyme_autodiff(ptr @f, float %x, float %y)
  ret <2 x float> %g
}

; CHECK-LABEL: define <2 x float> @df(float %x, float %y)
; CHECK-NEXT:  [[S:%"gl.adjoints.g"]] = call { float, float } @"gl.diffe.f.oo_r"(float %x, float %y, float 1.0)
; CHECK-NEXT:  [[E0:%"gl.el.0.g"]] = extractvalue { float, float } [[S]], 0
; CHECK-NEXT:  [[V0:%"gl.vec.0.g"]] = insertelement <2 x float> poison, float [[E0]], i64 0
; CHECK-NEXT:  [[E1:%"gl.el.1.g"]] = extractvalue { float, float } [[S]], 1
; CHECK-NEXT:  %g = insertelement <2 x float> [[V0]], float [[E1]], i64 1
; CHECK-NEXT:  ret <2 x float> %g
