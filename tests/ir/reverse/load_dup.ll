; Reverse mode, load through an enzyme_dup pointer: the loaded value's adjoint is added into the
; shadow memory (load, fadd, store of the shadow), not returned.
; RUN: %gradlink ad %s -f gl.diffe.f.d_r | FileCheck %s

define double @f(ptr %p) {
entry:
  %a = load double, ptr %p
  %m = fmul double %a, 3.0
  ret double %m
}

declare double @__enzyme_autodiff(ptr, ...)

define void @df(ptr %p, ptr %dp) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp)
  ret void
}

; CHECK-LABEL: define internal void @"gl.diffe.f.d_r"(
; CHECK-SAME:  ptr %p, ptr [[DP:%"gl.shadow.[0-9]+"]], double %"gl.dret")
; CHECK:       %a = load double, ptr %p
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJM:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJM]]
; CHECK-NEXT:  [[D:%"gl.fmul.[0-9]+"]] = fmul double [[G]], {{3.000000e\+00|0x4008000000000000}}
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJA:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A]], [[D]]
; CHECK-NEXT:  store double [[S]], ptr [[ADJA]]
; CHECK-NEXT:  [[GA:%"gl.g.[0-9]+"]] = load double, ptr [[ADJA]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJA]]
; CHECK-NEXT:  [[OLD:%"gl.m.[0-9]+"]] = load double, ptr [[DP]], align 8
; CHECK-NEXT:  [[NEW:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[OLD]], [[GA]]
; CHECK-NEXT:  store double [[NEW]], ptr [[DP]], align 8
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  ret void
