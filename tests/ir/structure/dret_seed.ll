; The active return's seed: the request call passes 1.0 as the derivative's last argument
; (gl.dret), and the reverse of the returning block adds it to the returned value's adjoint first.
; RUN: %gradlink ad %s | FileCheck %s

define double @f(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-LABEL: define double @df(double %x)
; CHECK-NEXT:  %r = call double @"gl.diffe.f.o_r"(double %x, double 1.0)
; CHECK-NEXT:  ret double %r
; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, double %"gl.dret")
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJM:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A]], %"gl.dret"
; CHECK-NEXT:  store double [[S]], ptr [[ADJM]]
; CHECK-NEXT:  {{%"gl.g.[0-9]+"}} = load double, ptr [[ADJM]]
