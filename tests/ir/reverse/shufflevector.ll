; Reverse mode, shufflevector: each lane of the result's adjoint goes back to the lane of the
; operand the mask took it from (mask <1, 2>: lane 0 from a[1], lane 1 from b[0]).
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

define double @f(<2 x double> %a, <2 x double> %b) {
entry:
  %sh = shufflevector <2 x double> %a, <2 x double> %b, <2 x i32> <i32 1, i32 2>
  %x0 = extractelement <2 x double> %sh, i32 0
  %x1 = extractelement <2 x double> %sh, i32 1
  %r = fmul double %x0, %x1
  ret double %r
}

declare { <2 x double>, <2 x double> } @__enzyme_autodiff(ptr, ...)

define { <2 x double>, <2 x double> } @df(<2 x double> %a, <2 x double> %b) {
  %g = call { <2 x double>, <2 x double> } (ptr, ...) @__enzyme_autodiff(ptr @f, <2 x double> %a, <2 x double> %b)
  ret { <2 x double>, <2 x double> } %g
}

; CHECK-LABEL: define internal { <2 x double>, <2 x double> } @"gl.diffe.f.oo_r"(<2 x double> %a, <2 x double> %b, double %"gl.dret")
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load <2 x double>, ptr [[ADJSH:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store <2 x double> splat (double 0x8000000000000000), ptr [[ADJSH]]
; CHECK-NEXT:  [[L0:%"gl.lane.[0-9]+"]] = extractelement <2 x double> [[G]], i64 0
; CHECK-NEXT:  [[C0:%"gl.cur.[0-9]+"]] = extractelement <2 x double> zeroinitializer, i64 1
; CHECK-NEXT:  [[S0:%"gl.fadd.[0-9]+"]] = fadd double [[C0]], [[L0]]
; CHECK-NEXT:  [[GA:%"gl.ins.[0-9]+"]] = insertelement <2 x double> zeroinitializer, double [[S0]], i64 1
; CHECK-NEXT:  [[L1:%"gl.lane.[0-9]+"]] = extractelement <2 x double> [[G]], i64 1
; CHECK-NEXT:  [[C1:%"gl.cur.[0-9]+"]] = extractelement <2 x double> zeroinitializer, i64 0
; CHECK-NEXT:  [[S1:%"gl.fadd.[0-9]+"]] = fadd double [[C1]], [[L1]]
; CHECK-NEXT:  [[GB:%"gl.ins.[0-9]+"]] = insertelement <2 x double> zeroinitializer, double [[S1]], i64 0
; CHECK-NEXT:  [[AA:%"gl.a.[0-9]+"]] = load <2 x double>, ptr [[ADJA:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SA:%"gl.fadd.[0-9]+"]] = fadd reassoc contract <2 x double> [[AA]], [[GA]]
; CHECK-NEXT:  store <2 x double> [[SA]], ptr [[ADJA]]
; CHECK-NEXT:  [[AB:%"gl.a.[0-9]+"]] = load <2 x double>, ptr [[ADJB:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SB:%"gl.fadd.[0-9]+"]] = fadd reassoc contract <2 x double> [[AB]], [[GB]]
; CHECK-NEXT:  store <2 x double> [[SB]], ptr [[ADJB]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load <2 x double>, ptr [[ADJA]]
; CHECK:       load <2 x double>, ptr [[ADJB]]
