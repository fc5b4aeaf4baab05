; Vector forward mode, enzyme_width 2: two tangent arguments per active argument (lanes 0 and 1);
; each partial (cos x) is computed once and multiplied per lane; the lanes are returned as a
; struct.
; RUN: %gradlink ad %s | FileCheck %s

@enzyme_width = external global i32

declare double @llvm.sin.f64(double)

define double @f(double %x) {
entry:
  %s = call double @llvm.sin.f64(double %x)
  ret double %s
}

declare { double, double } @__enzyme_fwddiff(ptr, ...)

define { double, double } @df(double %x, double %dx0, double %dx1) {
  %w = load i32, ptr @enzyme_width
  %r = call { double, double } (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %w, i32 2, double %x, double %dx0, double %dx1)
  ret { double, double } %r
}

; CHECK-LABEL: define { double, double } @df(
; CHECK:       %r = call { double, double } @"gl.fwd.f.d_r_w2"(double %x, double %dx0, double %dx1)
; CHECK-LABEL: define internal { double, double } @"gl.fwd.f.d_r_w2"(double %x, double %"gf.darg.0.0", double %"gf.darg.0.1")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %s = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:  [[C:%"gf.cos.[0-9]+"]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT:  [[M0:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[C]]
; CHECK-NEXT:  [[T0:%"gf.t.[0-9]+.0"]] = fadd double [[M0]], 0x0000000000000000
; CHECK-NEXT:  [[M1:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.1", [[C]]
; CHECK-NEXT:  [[T1:%"gf.t.[0-9]+.1"]] = fadd double [[M1]], 0x0000000000000000
; CHECK-NEXT:  [[R0:%"gf.ret.[0-9]+"]] = insertvalue { double, double } poison, double [[T0]], 0
; CHECK-NEXT:  [[R1:%"gf.ret.[0-9]+"]] = insertvalue { double, double } [[R0]], double [[T1]], 1
; CHECK-NEXT:  ret { double, double } [[R1]]
; CHECK-NOT:   call double @llvm.cos.f64
