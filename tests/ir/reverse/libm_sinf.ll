; Reverse mode, the libm float function sinf shares sin's rule: its partial is the float
; intrinsic llvm.cos.f32, with float adjoint slots.
; RUN: %gradlink ad %s | FileCheck %s

declare float @sinf(float)

define float @f(float %x) {
entry:
  %r = call float @sinf(float %x)
  ret float %r
}

declare float @__enzyme_autodiff(ptr, ...)

define float @df(float %x) {
  %g = call float (ptr, ...) @__enzyme_autodiff(ptr @f, float %x)
  ret float %g
}

; CHECK-LABEL: define internal float @"gl.diffe.f.o_r"(float %x, float %"gl.dret")
; CHECK:       [[ADJR:%"gl.adj.[0-9]+"]] = alloca float
; CHECK-NEXT:  store float 0x8000000000000000, ptr [[ADJR]]
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load float, ptr [[ADJR]]
; CHECK-NEXT:  store float 0x8000000000000000, ptr [[ADJR]]
; CHECK-NEXT:  [[C:%"gl.cos.[0-9]+"]] = call float @llvm.cos.f32(float %x)
; CHECK-NEXT:  [[D:%"gl.fmul.[0-9]+"]] = fmul float [[G]], [[C]]
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load float, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd reassoc contract float [[A]], [[D]]
; CHECK-NEXT:  store float [[S]], ptr [[ADJX]]
; CHECK:       declare float @llvm.cos.f32(float)
