; Reverse mode, fptrunc double -> float: the float adjoint is extended (fpext) to the double
; argument's adjoint.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

define float @f(double %x) {
entry:
  %t = fptrunc double %x to float
  ret float %t
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, float %"gl.dret")
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load float, ptr [[ADJT:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store float 0x8000000000000000, ptr [[ADJT]]
; CHECK-NEXT:  [[E:%"gl.fpext.[0-9]+"]] = fpext float [[G]] to double
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A]], [[E]]
; CHECK-NEXT:  store double [[S]], ptr [[ADJX]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
