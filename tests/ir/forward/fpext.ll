; Forward mode, fpext float -> double: the tangent is extended the same way.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

define double @f(float %x) {
entry:
  %e = fpext float %x to double
  %m = fmul double %e, 3.0
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(float %x, float %dx) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, float %x, float %dx)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(float %x, float %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %e = fpext float %x to double
; CHECK-NEXT:  [[TE:%"gf.t.[0-9]+.0"]] = fpext float %"gf.darg.0.0" to double
; CHECK-NEXT:  %m = fmul double %e,
; CHECK-NEXT:  {{%"gf.fmul.[0-9]+"}} = fmul double [[TE]], {{3.000000e\+00|0x4008000000000000}}
