; gl.exit returns the adjoints of the 'out' arguments, each normalized by adding +0.0 (a -0.0 slot
; that got no contribution becomes +0.0), packed in a struct in argument order.
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}

declare { double, double } @__enzyme_autodiff(ptr, ...)

define { double, double } @df(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @"gl.diffe.f.oo_r"(
; CHECK:       [[DX:%"gl.fmul.[0-9]+"]] = fmul double {{%"gl.g.[0-9]+"}}, %y
; CHECK-NEXT:  load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK:       [[DY:%"gl.fmul.[0-9]+"]] = fmul double {{%"gl.g.[0-9]+"}}, %x
; CHECK-NEXT:  load double, ptr [[ADJY:%"gl.adj.[0-9]+"]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  [[OX:%"gl.out.[0-9]+"]] = load double, ptr [[ADJX]]
; CHECK-NEXT:  [[NX:%"gl.out.[0-9]+"]] = fadd double [[OX]], 0x0000000000000000
; CHECK-NEXT:  [[OY:%"gl.out.[0-9]+"]] = load double, ptr [[ADJY]]
; CHECK-NEXT:  [[NY:%"gl.out.[0-9]+"]] = fadd double [[OY]], 0x0000000000000000
; CHECK-NEXT:  [[R0:%"gl.agg.[0-9]+"]] = insertvalue { double, double } poison, double [[NX]], 0
; CHECK-NEXT:  [[R1:%"gl.agg.[0-9]+"]] = insertvalue { double, double } [[R0]], double [[NY]], 1
; CHECK-NEXT:  ret { double, double } [[R1]]
