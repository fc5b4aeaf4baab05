; Forward mode, atan2: partials y / (x*x + y*y) and -x / (x*x + y*y); the tangent is the sum of dx and dy times the partials.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

declare double @llvm.atan2.f64(double, double)

define double @f(double %x, double %y) {
entry:
  %r = call double @llvm.atan2.f64(double %x, double %y)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, double %y, double %dy) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(double %x, double %"gf.darg.0.0", double %y, double %"gf.darg.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call double @llvm.atan2.f64(double %x, double %y)
; CHECK-NEXT:  [[XX:%"gf.fmul.[0-9]+"]] = fmul double %x, %x
; CHECK-NEXT:  [[YY:%"gf.fmul.[0-9]+"]] = fmul double %y, %y
; CHECK-NEXT:  [[N2:%"gf.fadd.[0-9]+"]] = fadd double [[XX]], [[YY]]
; CHECK-NEXT:  [[PX:%"gf.fdiv.[0-9]+"]] = fdiv double %y, [[N2]]
; CHECK-NEXT:  [[NX:%"gf.neg.[0-9]+"]] = fneg double %x
; CHECK-NEXT:  [[XX2:%"gf.fmul.[0-9]+"]] = fmul double %x, %x
; CHECK-NEXT:  [[YY2:%"gf.fmul.[0-9]+"]] = fmul double %y, %y
; CHECK-NEXT:  [[N3:%"gf.fadd.[0-9]+"]] = fadd double [[XX2]], [[YY2]]
; CHECK-NEXT:  [[PY:%"gf.fdiv.[0-9]+"]] = fdiv double [[NX]], [[N3]]
; CHECK-NEXT:  [[TX:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[PX]]
; CHECK-NEXT:  [[TY:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.1.0", [[PY]]
; CHECK-NEXT:  [[S:%"gf.fadd.[0-9]+"]] = fadd double [[TX]], [[TY]]
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[S]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
