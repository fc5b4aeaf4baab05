; Forward mode, the libm float function sinf shares sin's rule: dx * llvm.cos.f32(x).
; RUN: %gradlink ad %s | FileCheck %s

declare float @sinf(float)

define float @f(float %x) {
entry:
  %r = call float @sinf(float %x)
  ret float %r
}

declare float @__enzyme_fwddiff(ptr, ...)

define float @df(float %x, float %dx) {
  %t = call float (ptr, ...) @__enzyme_fwddiff(ptr @f, float %x, float %dx)
  ret float %t
}

; CHECK-LABEL: define internal float @"gl.fwd.f.d_r"(float %x, float %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call float @sinf(float %x)
; CHECK-NEXT:  [[C:%"gf.cos.[0-9]+"]] = call float @llvm.cos.f32(float %x)
; CHECK-NEXT:  [[M:%"gf.fmul.[0-9]+"]] = fmul float %"gf.darg.0.0", [[C]]
; CHECK-NEXT:  [[T:%"gf.t.[0-9]+.0"]] = fadd float [[M]], 0x0000000000000000
; CHECK-NEXT:  ret float [[T]]
; CHECK:       declare float @llvm.cos.f32(float)
