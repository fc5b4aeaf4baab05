; Reverse mode, select: the adjoint goes to the chosen operand, by a select on the same condition
; (zero for the other one).
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %c = fcmp olt double %x, %y
  %s = select i1 %c, double %x, double %y
  ret double %s
}

declare { double, double } @__enzyme_autodiff(ptr, ...)

define { double, double } @df(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @"gl.diffe.f.oo_r"(
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJS:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJS]]
; CHECK-NEXT:  [[GX:%"gl.sel.[0-9]+"]] = select i1 %c, double [[G]], double 0x0000000000000000
; CHECK-NEXT:  [[AX:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SX:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AX]], [[GX]]
; CHECK-NEXT:  store double [[SX]], ptr [[ADJX]]
; CHECK-NEXT:  [[GY:%"gl.sel.[0-9]+"]] = select i1 %c, double 0x0000000000000000, double [[G]]
; CHECK-NEXT:  [[AY:%"gl.a.[0-9]+"]] = load double, ptr [[ADJY:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SY:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AY]], [[GY]]
; CHECK-NEXT:  store double [[SY]], ptr [[ADJY]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
; CHECK:       load double, ptr [[ADJY]]
