; Forward mode with enzyme_primal_return: the request gets {primal, tangent}, the forward pair
; function itself (gl.fwdpair.f) returning both.
; RUN: %gradlink ad %s | FileCheck %s

@enzyme_primal_return = external global i32

declare double @llvm.exp.f64(double)

define double @f(double %x) {
entry:
  %e = call double @llvm.exp.f64(double %x)
  ret double %e
}

declare { double, double } @__enzyme_fwddiff(ptr, ...)

define { double, double } @df(double %x, double %dx) {
  %p = load i32, ptr @enzyme_primal_return
  %r = call { double, double } (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %p, double %x, double %dx)
  ret { double, double } %r
}

; CHECK-LABEL: define { double, double } @df(
; CHECK:       %r = call { double, double } @"gl.fwdpair.f.d_r"(double %x, double %dx)
; CHECK-NEXT:  ret { double, double } %r
; CHECK-LABEL: define internal { double, double } @"gl.fwdpair.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK:       %e = call double @llvm.exp.f64(double %x)
; CHECK-NEXT:  [[M:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", %e
; CHECK-NEXT:  [[T:%"gf.t.[0-9]+.0"]] = fadd double [[M]], 0x0000000000000000
; CHECK-NEXT:  [[R0:%"gf.ret.[0-9]+"]] = insertvalue { double, double } poison, double %e, 0
; CHECK-NEXT:  [[R1:%"gf.ret.[0-9]+"]] = insertvalue { double, double } [[R0]], double [[T]], 1
; CHECK-NEXT:  ret { double, double } [[R1]]
