; Forward mode, freeze: the tangent is frozen beside the value.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

define double @f(double %x) {
entry:
  %q = freeze double %x
  %m = fmul double %q, 3.0
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %q = freeze double %x
; CHECK-NEXT:  [[T:%"gf.t.[0-9]+.0"]] = freeze double %"gf.darg.0.0"
; CHECK-NEXT:  %m = fmul double %q,
; CHECK-NEXT:  {{%"gf.fmul.[0-9]+"}} = fmul double [[T]], {{3.000000e\+00|0x4008000000000000}}
