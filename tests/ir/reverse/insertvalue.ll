; Reverse mode, insertvalue: the inserted element gets the field of the aggregate adjoint
; (extractvalue), the aggregate operand gets the adjoint with that field zeroed.
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %a0 = insertvalue { double, double } undef, double %x, 0
  %a1 = insertvalue { double, double } %a0, double %y, 1
  %e = extractvalue { double, double } %a1, 1
  %m = fmul double %e, %x
  ret double %m
}

declare { double, double } @__enzyme_autodiff(ptr, ...)

define { double, double } @df(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; %a1 = insertvalue %a0, %y, 1: y's adjoint is field 1, %a0's the rest.
; CHECK-LABEL: define internal { double, double } @"gl.diffe.f.oo_r"(
; CHECK:       [[G1:%"gl.g.[0-9]+"]] = load { double, double }, ptr [[ADJA1:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store { double, double } zeroinitializer, ptr [[ADJA1]]
; CHECK-NEXT:  [[EY:%"gl.ev.[0-9]+"]] = extractvalue { double, double } [[G1]], 1
; CHECK-NEXT:  [[AY:%"gl.a.[0-9]+"]] = load double, ptr [[ADJY:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SY:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AY]], [[EY]]
; CHECK-NEXT:  store double [[SY]], ptr [[ADJY]]
; CHECK-NEXT:  [[REST:%"gl.iv.[0-9]+"]] = insertvalue { double, double } [[G1]], double {{zeroinitializer|0x0000000000000000}}, 1
; CHECK-NEXT:  load { double, double }, ptr [[ADJA0:%"gl.adj.[0-9]+"]]
; CHECK:       store { double, double } {{%"gl.agg.[0-9]+"}}, ptr [[ADJA0]]
; %a0 = insertvalue undef, %x, 0: x's adjoint is field 0.
; CHECK-NEXT:  [[G0:%"gl.g.[0-9]+"]] = load { double, double }, ptr [[ADJA0]]
; CHECK-NEXT:  store { double, double } zeroinitializer, ptr [[ADJA0]]
; CHECK-NEXT:  [[EX:%"gl.ev.[0-9]+"]] = extractvalue { double, double } [[G0]], 0
; CHECK-NEXT:  [[AX:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SX:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AX]], [[EX]]
; CHECK-NEXT:  store double [[SX]], ptr [[ADJX]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
; CHECK:       load double, ptr [[ADJY]]
