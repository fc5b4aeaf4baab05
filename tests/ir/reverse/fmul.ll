; Reverse mode, fmul: the adjoint of x*y adds g*y to x's adjoint and g*x to y's.
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}

declare double @__enzyme_autodiff(ptr, ...)

define { double, double } @df(double %x, double %y) {
  %r = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %r
}

; CHECK-LABEL: define internal { double, double } @"gl.diffe.f.oo_r"(double %x, double %y, double %"gl.dret")
; CHECK:       %m = fmul double %x, %y
; CHECK:       gl.rev.entry:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJM:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJM]]
; CHECK-NEXT:  [[DX:%"gl.fmul.[0-9]+"]] = fmul double [[G]], %y
; CHECK:       fadd reassoc contract double %{{.*}}, [[DX]]
; CHECK:       [[DY:%"gl.fmul.[0-9]+"]] = fmul double [[G]], %x
; CHECK:       fadd reassoc contract double %{{.*}}, [[DY]]
; CHECK:       ret { double, double }
