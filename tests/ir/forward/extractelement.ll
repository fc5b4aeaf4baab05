; Forward mode, extractelement: the tangent is the same lane of the vector's tangent.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

define double @f(<2 x double> %v) {
entry:
  %e = extractelement <2 x double> %v, i32 1
  ret double %e
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(<2 x double> %v, <2 x double> %dv) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, <2 x double> %v, <2 x double> %dv)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(<2 x double> %v, <2 x double> %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %e = extractelement <2 x double> %v, i32 1
; CHECK-NEXT:  [[T:%"gf.t.[0-9]+.0"]] = extractelement <2 x double> %"gf.darg.0.0", i32 1
; CHECK-NEXT:  ret double [[T]]
