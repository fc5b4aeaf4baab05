; Reverse mode, freeze: the adjoint passes through unchanged to the operand.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

define double @f(double %x) {
entry:
  %q = freeze double %x
  %m = fmul double %q, 3.0
  ret double %m
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, double %"gl.dret")
; CHECK:       fmul double {{%"gl.g.[0-9]+"}}, {{3.000000e\+00|0x4008000000000000}}
; CHECK-NEXT:  load double, ptr [[ADJQ:%"gl.adj.[0-9]+"]]
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJQ]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJQ]]
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A]], [[G]]
; CHECK-NEXT:  store double [[S]], ptr [[ADJX]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
