; Second order, forward over reverse: __enzyme_fwddiff of a function holding an __enzyme_autodiff
; request differentiates the reverse derivative gl.diffe.f in forward mode (its seed gl.dret
; constant): the tangent of its partial cos(x) is dx * -sin(x), times the adjoint.
; RUN: %gradlink ad %s | FileCheck %s

declare double @llvm.sin.f64(double)

define double @f(double %x) {
entry:
  %s = call double @llvm.sin.f64(double %x)
  ret double %s
}

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

define double @ddf(double %x, double %dx) {
entry:
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @df, double %x, double %dx)
  ret double %r
}

; CHECK-LABEL: define double @ddf(
; CHECK:       %r = call double @"gl.fwd.df.d_r"(double %x, double %dx)
; CHECK-LABEL: define internal double @"gl.fwd.df.d_r"(double %x, double %"gf.darg.0.0")
; CHECK:       call { double, double } @"gl.fwdpair.gl.diffe.f.o_r.dc_r"(double %x, double %"gf.darg.0.0", double 1.0)
; CHECK-LABEL: define internal { double, double } @"gl.fwdpair.gl.diffe.f.o_r.dc_r"(double %x, double %"gf.darg.0.0", double %"gl.dret")
; CHECK:       [[C:%"gl.cos.[0-9]+"]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT:  [[S:%"gf.sin.[0-9]+"]] = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:  [[N:%"gf.neg.[0-9]+"]] = fneg double [[S]]
; CHECK-NEXT:  [[DC:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[N]]
; CHECK-NEXT:  [[TC:%"gf.t.[0-9]+.0"]] = fadd double [[DC]], 0x0000000000000000
; CHECK-NEXT:  [[P:%"gl.fmul.[0-9]+"]] = fmul double [[G:%"gl.g.[0-9]+"]], [[C]]
; CHECK-NEXT:  {{%"gf.fmul.[0-9]+"}} = fmul double [[TC]], [[G]]
