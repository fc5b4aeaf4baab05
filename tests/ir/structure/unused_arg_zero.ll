; An active argument the result does not depend on gets no adjoint slot: its adjoint in the
; returned struct is the constant +0.0.
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, 2.0
  ret double %m
}

declare { double, double } @__enzyme_autodiff(ptr, ...)

define { double, double } @df(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @"gl.diffe.f.oo_r"(
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  [[O:%"gl.out.[0-9]+"]] = load double, ptr {{%"gl.adj.[0-9]+"}}
; CHECK-NEXT:  [[N:%"gl.out.[0-9]+"]] = fadd double [[O]], 0x0000000000000000
; CHECK-NEXT:  [[R0:%"gl.agg.[0-9]+"]] = insertvalue { double, double } poison, double [[N]], 0
; CHECK-NEXT:  [[R1:%"gl.agg.[0-9]+"]] = insertvalue { double, double } [[R0]], double 0x0000000000000000, 1
; CHECK-NEXT:  ret { double, double } [[R1]]
