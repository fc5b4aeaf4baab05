; Reverse mode, bitcast double -> i64 -> double (float bits moved through an integer, as copies
; do): the adjoint flows back through both bitcasts unchanged, the i64 getting a double slot.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

define double @f(double %x) {
entry:
  %i = bitcast double %x to i64
  %d = bitcast i64 %i to double
  %m = fmul double %d, 3.0
  ret double %m
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, double %"gl.dret")
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[DD:%"gl.fmul.[0-9]+"]] = fmul double {{%"gl.g.[0-9]+"}}, {{3.000000e\+00|0x4008000000000000}}
; CHECK-NEXT:  [[A1:%"gl.a.[0-9]+"]] = load double, ptr [[ADJD:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S1:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A1]], [[DD]]
; CHECK-NEXT:  store double [[S1]], ptr [[ADJD]]
; CHECK-NEXT:  [[GD:%"gl.g.[0-9]+"]] = load double, ptr [[ADJD]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJD]]
; CHECK-NEXT:  [[A2:%"gl.a.[0-9]+"]] = load double, ptr [[ADJI:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S2:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A2]], [[GD]]
; CHECK-NEXT:  store double [[S2]], ptr [[ADJI]]
; CHECK-NEXT:  [[GI:%"gl.g.[0-9]+"]] = load double, ptr [[ADJI]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJI]]
; CHECK-NEXT:  [[A3:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S3:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A3]], [[GI]]
; CHECK-NEXT:  store double [[S3]], ptr [[ADJX]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
