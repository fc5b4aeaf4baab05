; Adjoint slots are allocas in gl.entry, each initialized to -0.0 (0x8000000000000000, the
; identity of addition); reading an adjoint (gl.g) resets its slot to -0.0.
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  %s = fadd double %m, %x
  ret double %s
}

declare { double, double } @__enzyme_autodiff(ptr, ...)

define { double, double } @df(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @"gl.diffe.f.oo_r"(
; CHECK-NEXT:  {{^}}gl.entry:
; CHECK-NEXT:  [[A0:%"gl.adj.[0-9]+"]] = alloca double
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[A0]]
; CHECK-NEXT:  [[A1:%"gl.adj.[0-9]+"]] = alloca double
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[A1]]
; CHECK-NEXT:  [[A2:%"gl.adj.[0-9]+"]] = alloca double
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[A2]]
; CHECK-NEXT:  [[A3:%"gl.adj.[0-9]+"]] = alloca double
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[A3]]
; CHECK-NEXT:  br label %entry
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G1:%"gl.g.[0-9]+"]] = load double, ptr [[S1:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[S1]]
; CHECK:       [[G2:%"gl.g.[0-9]+"]] = load double, ptr [[S2:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[S2]]
