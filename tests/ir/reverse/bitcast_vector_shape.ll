; Reverse mode, bitcast between float types of different shapes (<2 x float> <-> double, as ABI
; coercion of {float, float} makes): the adjoint must be bitcast back to the operand's type.
; (Before the fix the adjoint was added uncast: an invalid module, "internal error".)
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

define float @f(<2 x float> %v) {
entry:
  %d = bitcast <2 x float> %v to double
  %w = bitcast double %d to <2 x float>
  %a = extractelement <2 x float> %w, i32 0
  %b = extractelement <2 x float> %w, i32 1
  %m = fmul float %a, %b
  ret float %m
}

declare <2 x float> @__enzyme_autodiff(ptr, ...)

define <2 x float> @df(<2 x float> %v) {
  %g = call <2 x float> (ptr, ...) @__enzyme_autodiff(ptr @f, <2 x float> %v)
  ret <2 x float> %g
}

; CHECK-LABEL: define internal <2 x float> @"gl.diffe.f.o_r"(<2 x float> %v, float %"gl.dret")
; CHECK:       bitcast <2 x float> {{%"gl.g.[0-9]+"}} to double
; CHECK:       bitcast double {{%"gl.g.[0-9]+"}} to <2 x float>
; CHECK:       ret <2 x float>
