; Forward mode, a call of a function defined in the module: its forward derivative returns
; {primal, tangent}, split with extractvalue into the call's value and its tangent.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r -f gl.fwdpair.g.d_r | FileCheck %s

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

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  [[P:%"gf.pair.[0-9]+"]] = call { double, double } @"gl.fwdpair.g.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  %y = extractvalue { double, double } [[P]], 0
; CHECK-NEXT:  [[TY:%"gf.t.[0-9]+.0"]] = extractvalue { double, double } [[P]], 1
; CHECK-NEXT:  %z = fmul double %y, %y
; CHECK-NEXT:  {{%"gf.fmul.[0-9]+"}} = fmul double [[TY]], %y

; CHECK-LABEL: define internal { double, double } @"gl.fwdpair.g.d_r"(double %a, double %"gf.darg.0.0")
; CHECK:       %m = fmul double %s, %a
; CHECK:       [[TM:%"gf.t.[0-9]+.0"]] = fadd double
; CHECK-NEXT:  [[R0:%"gf.ret.[0-9]+"]] = insertvalue { double, double } poison, double %m, 0
; CHECK-NEXT:  [[R1:%"gf.ret.[0-9]+"]] = insertvalue { double, double } [[R0]], double [[TM]], 1
; CHECK-NEXT:  ret { double, double } [[R1]]
