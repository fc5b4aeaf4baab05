; Reverse mode, fmul on <2 x double>: per-lane partials as for scalars, but lanes whose adjoint is
; zero give zero (select on g == 0), so an unused lane holding inf or NaN cannot poison the sum.
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

define double @f(<2 x double> %v, <2 x double> %w) {
entry:
  %m = fmul <2 x double> %v, %w
  %e = extractelement <2 x double> %m, i32 0
  ret double %e
}

declare { <2 x double>, <2 x double> } @__enzyme_autodiff(ptr, ...)

define { <2 x double>, <2 x double> } @df(<2 x double> %v, <2 x double> %w) {
  %g = call { <2 x double>, <2 x double> } (ptr, ...) @__enzyme_autodiff(ptr @f, <2 x double> %v, <2 x double> %w)
  ret { <2 x double>, <2 x double> } %g
}

; CHECK-LABEL: define internal { <2 x double>, <2 x double> } @"gl.diffe.f.oo_r"(<2 x double> %v, <2 x double> %w, double %"gl.dret")
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load <2 x double>, ptr [[ADJM:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store <2 x double> splat (double 0x8000000000000000), ptr [[ADJM]]
; CHECK-NEXT:  [[MV:%"gl.fmul.[0-9]+"]] = fmul <2 x double> [[G]], %w
; CHECK-NEXT:  [[ZV:%"gl.cmp.[0-9]+"]] = fcmp oeq <2 x double> [[G]], zeroinitializer
; CHECK-NEXT:  [[DV:%"gl.sel.[0-9]+"]] = select <2 x i1> [[ZV]], <2 x double> zeroinitializer, <2 x double> [[MV]]
; CHECK-NEXT:  [[AV:%"gl.a.[0-9]+"]] = load <2 x double>, ptr [[ADJV:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SV:%"gl.fadd.[0-9]+"]] = fadd reassoc contract <2 x double> [[AV]], [[DV]]
; CHECK-NEXT:  store <2 x double> [[SV]], ptr [[ADJV]]
; CHECK-NEXT:  [[MW:%"gl.fmul.[0-9]+"]] = fmul <2 x double> [[G]], %v
; CHECK-NEXT:  [[ZW:%"gl.cmp.[0-9]+"]] = fcmp oeq <2 x double> [[G]], zeroinitializer
; CHECK-NEXT:  [[DW:%"gl.sel.[0-9]+"]] = select <2 x i1> [[ZW]], <2 x double> zeroinitializer, <2 x double> [[MW]]
; CHECK-NEXT:  [[AW:%"gl.a.[0-9]+"]] = load <2 x double>, ptr [[ADJW:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SW:%"gl.fadd.[0-9]+"]] = fadd reassoc contract <2 x double> [[AW]], [[DW]]
; CHECK-NEXT:  store <2 x double> [[SW]], ptr [[ADJW]]
