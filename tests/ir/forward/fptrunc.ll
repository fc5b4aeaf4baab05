; Forward mode, fptrunc double -> float: the tangent is truncated the same way.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

define float @f(double %x) {
entry:
  %t = fptrunc double %x to float
  ret float %t
}

declare float @__enzyme_fwddiff(ptr, ...)

define float @df(double %x, double %dx) {
  %t = call float (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret float %t
}

; CHECK-LABEL: define internal float @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %t = fptrunc double %x to float
; CHECK-NEXT:  [[T:%"gf.t.[0-9]+.0"]] = fptrunc double %"gf.darg.0.0" to float
; CHECK-NEXT:  ret float [[T]]
