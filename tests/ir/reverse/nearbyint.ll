; Reverse mode, nearbyint: piecewise constant, derivative 0: no adjoint code, x's adjoint is +0.0.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

declare double @llvm.nearbyint.f64(double)

define double @f(double %x) {
entry:
  %r = call double @llvm.nearbyint.f64(double %x)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, double %"gl.dret")
; CHECK:       %r = call double @llvm.nearbyint.f64(double %x)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK-NOT:   {{fmul|fadd|call}}
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  ret double 0x0000000000000000
