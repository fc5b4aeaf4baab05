; Vector forward mode (width 2) through dup pointers and a call: one shadow pointer per lane, one
; tangent load per lane, and the callee's derivative returns {primal, lane 0, lane 1}.
; RUN: %gradlink ad %s | FileCheck %s

@enzyme_width = external global i32

define double @g(double %a) {
entry:
  %m = fmul double %a, %a
  ret double %m
}

define double @f(ptr %p) {
entry:
  %v = load double, ptr %p
  %r = call double @g(double %v)
  ret double %r
}

declare { double, double } @__enzyme_fwddiff(ptr, ...)

define { double, double } @df(ptr %p, ptr %dp0, ptr %dp1) {
  %w = load i32, ptr @enzyme_width
  %r = call { double, double } (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %w, i32 2, ptr %p, ptr %dp0, ptr %dp1)
  ret { double, double } %r
}

; CHECK-LABEL: define internal { double, double } @"gl.fwd.f.d_r_w2"(ptr %p, ptr %"gf.shadow.0.0", ptr %"gf.shadow.0.1")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %v = load double, ptr %p
; CHECK-NEXT:  [[T0:%"gf.t.[0-9]+.0"]] = load double, ptr %"gf.shadow.0.0"
; CHECK-NEXT:  [[T1:%"gf.t.[0-9]+.1"]] = load double, ptr %"gf.shadow.0.1"
; CHECK-NEXT:  [[P:%"gf.pair.[0-9]+"]] = call { double, double, double } @"gl.fwdpair.g.d_r_w2"(double %v, double [[T0]], double [[T1]])
; CHECK-NEXT:  %r = extractvalue { double, double, double } [[P]], 0
; CHECK-NEXT:  [[R0:%"gf.t.[0-9]+.0"]] = extractvalue { double, double, double } [[P]], 1
; CHECK-NEXT:  [[R1:%"gf.t.[0-9]+.1"]] = extractvalue { double, double, double } [[P]], 2
; CHECK-LABEL: define internal { double, double, double } @"gl.fwdpair.g.d_r_w2"(double %a, double %"gf.darg.0.0", double %"gf.darg.0.1")
; CHECK:       insertvalue { double, double, double } poison, double %m, 0
; CHECK:       ret { double, double, double }
