; Reverse mode, fpext float -> double: the double adjoint is truncated back (fptrunc) to the
; float argument's adjoint.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

define double @f(float %x) {
entry:
  %e = fpext float %x to double
  %m = fmul double %e, 3.0
  ret double %m
}

declare float @__enzyme_autodiff(ptr, ...)

define float @df(float %x) {
  %g = call float (ptr, ...) @__enzyme_autodiff(ptr @f, float %x)
  ret float %g
}

; CHECK-LABEL: define internal float @"gl.diffe.f.o_r"(float %x, double %"gl.dret")
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       fmul double {{%"gl.g.[0-9]+"}}, {{3.000000e\+00|0x4008000000000000}}
; CHECK:       [[GE:%"gl.g.[0-9]+"]] = load double, ptr [[ADJE:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJE]]
; CHECK-NEXT:  [[T:%"gl.fptrunc.[0-9]+"]] = fptrunc double [[GE]] to float
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load float, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd reassoc contract float [[A]], [[T]]
; CHECK-NEXT:  store float [[S]], ptr [[ADJX]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load float, ptr [[ADJX]]
; CHECK:       ret float
