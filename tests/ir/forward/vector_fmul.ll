; Forward mode, fmul on <2 x double>: the tangent is dv*w + dw*v lane by lane.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

define double @f(<2 x double> %v, <2 x double> %w) {
entry:
  %m = fmul <2 x double> %v, %w
  %e = extractelement <2 x double> %m, i32 0
  ret double %e
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(<2 x double> %v, <2 x double> %dv, <2 x double> %w, <2 x double> %dw) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, <2 x double> %v, <2 x double> %dv, <2 x double> %w, <2 x double> %dw)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(<2 x double> %v, <2 x double> %"gf.darg.0.0", <2 x double> %w, <2 x double> %"gf.darg.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %m = fmul <2 x double> %v, %w
; CHECK-NEXT:  [[A:%"gf.fmul.[0-9]+"]] = fmul <2 x double> %"gf.darg.0.0", %w
; CHECK-NEXT:  [[B:%"gf.fmul.[0-9]+"]] = fmul <2 x double> %"gf.darg.1.0", %v
; CHECK-NEXT:  [[S:%"gf.fadd.[0-9]+"]] = fadd <2 x double> [[A]], [[B]]
; CHECK-NEXT:  [[TM:%"gf.t.[0-9]+.0"]] = fadd <2 x double> [[S]], zeroinitializer
; CHECK-NEXT:  %e = extractelement <2 x double> %m, i32 0
; CHECK-NEXT:  [[TE:%"gf.t.[0-9]+.0"]] = extractelement <2 x double> [[TM]], i32 0
; CHECK-NEXT:  ret double [[TE]]
