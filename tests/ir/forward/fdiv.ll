; Forward mode, fdiv: partials 1/y and -x * (1/y) * (1/y); the tangent is the sum of dx and dy times the partials.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %r = fdiv double %x, %y
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, double %y, double %dy) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(double %x, double %"gf.darg.0.0", double %y, double %"gf.darg.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = fdiv double %x, %y
; CHECK-NEXT:  [[PX:%"gf.fdiv.[0-9]+"]] = fdiv double 0x3FF0000000000000, %y
; CHECK-NEXT:  [[N:%"gf.neg.[0-9]+"]] = fneg double %x
; CHECK-NEXT:  [[I1:%"gf.fdiv.[0-9]+"]] = fdiv double 0x3FF0000000000000, %y
; CHECK-NEXT:  [[M1:%"gf.fmul.[0-9]+"]] = fmul double [[N]], [[I1]]
; CHECK-NEXT:  [[I2:%"gf.fdiv.[0-9]+"]] = fdiv double 0x3FF0000000000000, %y
; CHECK-NEXT:  [[PY:%"gf.fmul.[0-9]+"]] = fmul double [[M1]], [[I2]]
; CHECK-NEXT:  [[TX:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[PX]]
; CHECK-NEXT:  [[TY:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.1.0", [[PY]]
; CHECK-NEXT:  [[S:%"gf.fadd.[0-9]+"]] = fadd double [[TX]], [[TY]]
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[S]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
