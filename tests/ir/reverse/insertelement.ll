; Reverse mode, insertelement: the inserted scalar gets that lane of the vector adjoint
; (extractelement), the vector operand gets the adjoint with that lane zeroed.
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

define double @f(<2 x double> %v, double %s) {
entry:
  %i = insertelement <2 x double> %v, double %s, i32 1
  %e0 = extractelement <2 x double> %i, i32 0
  %e1 = extractelement <2 x double> %i, i32 1
  %r = fmul double %e0, %e1
  ret double %r
}

declare { <2 x double>, double } @__enzyme_autodiff(ptr, ...)

define { <2 x double>, double } @df(<2 x double> %v, double %s) {
  %g = call { <2 x double>, double } (ptr, ...) @__enzyme_autodiff(ptr @f, <2 x double> %v, double %s)
  ret { <2 x double>, double } %g
}

; CHECK-LABEL: define internal { <2 x double>, double } @"gl.diffe.f.oo_r"(<2 x double> %v, double %s, double %"gl.dret")
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load <2 x double>, ptr [[ADJI:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store <2 x double> splat (double 0x8000000000000000), ptr [[ADJI]]
; CHECK-NEXT:  [[GV:%"gl.ins.[0-9]+"]] = insertelement <2 x double> [[G]], double 0x0000000000000000, i32 1
; CHECK-NEXT:  [[AV:%"gl.a.[0-9]+"]] = load <2 x double>, ptr [[ADJV:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SV:%"gl.fadd.[0-9]+"]] = fadd reassoc contract <2 x double> [[AV]], [[GV]]
; CHECK-NEXT:  store <2 x double> [[SV]], ptr [[ADJV]]
; CHECK-NEXT:  [[GS:%"gl.ext.[0-9]+"]] = extractelement <2 x double> [[G]], i32 1
; CHECK-NEXT:  [[AS:%"gl.a.[0-9]+"]] = load double, ptr [[ADJS:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SS:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AS]], [[GS]]
; CHECK-NEXT:  store double [[SS]], ptr [[ADJS]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load <2 x double>, ptr [[ADJV]]
; CHECK:       load double, ptr [[ADJS]]
