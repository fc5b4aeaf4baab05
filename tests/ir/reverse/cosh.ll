; Reverse mode, cosh: d/dx cosh(x) = sinh(x); the incoming adjoint times that partial goes to x's adjoint.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

declare double @llvm.cosh.f64(double)

define double @f(double %x) {
entry:
  %r = call double @llvm.cosh.f64(double %x)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, double %"gl.dret")
; CHECK:       %r = call double @llvm.cosh.f64(double %x)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJR:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJR]]
; CHECK-NEXT:  [[D:%"gl.sinh.[0-9]+"]] = call double @llvm.sinh.f64(double %x)
; CHECK-NEXT:  [[DX:%"gl.fmul.[0-9]+"]] = fmul double [[G]], [[D]]
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SUM:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A]], [[DX]]
; CHECK-NEXT:  store double [[SUM]], ptr [[ADJX]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
