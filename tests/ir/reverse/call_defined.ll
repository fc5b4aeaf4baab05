; Reverse mode, a call of a function defined in the module: the forward sweep calls its
; augmented forward (gl.aug.g, the primal plus its tape), the reverse sweep calls its reverse
; (gl.rev.g) with the arguments and the result's adjoint, and adds the returned adjoint to x's.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

declare double @llvm.sin.f64(double)

define double @g(double %a) {
entry:
  %s = call double @llvm.sin.f64(double %a)
  %m = fmul double %s, %a
  ret double %m
}

define double @f(double %x) {
entry:
  %y = call double @g(double %x)
  %z = fmul double %y, %y
  ret double %z
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, double %"gl.dret")
; CHECK:       {{^}}entry:
; CHECK-NEXT:  %y = call double @"gl.aug.g.o_r"(double %x)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       fmul double {{%"gl.g.[0-9]+"}}, %y
; CHECK:       fmul double {{%"gl.g.[0-9]+"}}, %y
; CHECK:       [[GY:%"gl.g.[0-9]+"]] = load double, ptr [[ADJY:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJY]]
; CHECK-NEXT:  [[DX:%"gl.radj.[0-9]+"]] = call double @"gl.rev.g.o_r"(double %x, double [[GY]])
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A]], [[DX]]
; CHECK-NEXT:  store double [[S]], ptr [[ADJX]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
