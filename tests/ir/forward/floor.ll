; Forward mode, floor: piecewise constant, derivative 0: the tangent is +0.0 whatever dx is.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

declare double @llvm.floor.f64(double)

define double @f(double %x) {
entry:
  %r = call double @llvm.floor.f64(double %x)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call double @llvm.floor.f64(double %x)
; CHECK-NEXT:  ret double 0x0000000000000000
