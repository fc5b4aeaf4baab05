; Forward mode, shufflevector: the tangent is the same shuffle of the operands' tangents.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

define double @f(<2 x double> %a, <2 x double> %b) {
entry:
  %sh = shufflevector <2 x double> %a, <2 x double> %b, <2 x i32> <i32 1, i32 2>
  %x0 = extractelement <2 x double> %sh, i32 0
  %x1 = extractelement <2 x double> %sh, i32 1
  %r = fmul double %x0, %x1
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(<2 x double> %a, <2 x double> %da, <2 x double> %b, <2 x double> %db) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, <2 x double> %a, <2 x double> %da, <2 x double> %b, <2 x double> %db)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(<2 x double> %a, <2 x double> %"gf.darg.0.0", <2 x double> %b, <2 x double> %"gf.darg.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %sh = shufflevector <2 x double> %a, <2 x double> %b, <2 x i32> <i32 1, i32 2>
; CHECK-NEXT:  [[T:%"gf.t.[0-9]+.0"]] = shufflevector <2 x double> %"gf.darg.0.0", <2 x double> %"gf.darg.1.0", <2 x i32> <i32 1, i32 2>
; CHECK-NEXT:  %x0 = extractelement <2 x double> %sh, i32 0
; CHECK-NEXT:  {{%"gf.t.[0-9]+.0"}} = extractelement <2 x double> [[T]], i32 0
