; Forward mode, insertelement: the scalar's tangent is inserted into the vector's tangent at the
; same lane.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

define double @f(<2 x double> %v, double %s) {
entry:
  %i = insertelement <2 x double> %v, double %s, i32 1
  %e0 = extractelement <2 x double> %i, i32 0
  %e1 = extractelement <2 x double> %i, i32 1
  %r = fmul double %e0, %e1
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(<2 x double> %v, <2 x double> %dv, double %s, double %ds) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, <2 x double> %v, <2 x double> %dv, double %s, double %ds)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(<2 x double> %v, <2 x double> %"gf.darg.0.0", double %s, double %"gf.darg.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %i = insertelement <2 x double> %v, double %s, i32 1
; CHECK-NEXT:  [[TI:%"gf.t.[0-9]+.0"]] = insertelement <2 x double> %"gf.darg.0.0", double %"gf.darg.1.0", i32 1
; CHECK-NEXT:  %e0 = extractelement <2 x double> %i, i32 0
; CHECK-NEXT:  {{%"gf.t.[0-9]+.0"}} = extractelement <2 x double> [[TI]], i32 0
