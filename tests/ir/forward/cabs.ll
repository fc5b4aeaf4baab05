; Forward mode, cabs: C99 cabs of a double complex passed as its two parts (std::abs of complex<double>): partials x / r and y / r; the tangent is the sum of dx and dy times the partials.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

declare double @cabs(double, double)

define double @f(double %x, double %y) {
entry:
  %r = call double @cabs(double %x, double %y)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, double %y, double %dy) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(double %x, double %"gf.darg.0.0", double %y, double %"gf.darg.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call double @cabs(double %x, double %y)
; CHECK-NEXT:  [[PX:%"gf.fdiv.[0-9]+"]] = fdiv double %x, %r
; CHECK-NEXT:  [[PY:%"gf.fdiv.[0-9]+"]] = fdiv double %y, %r
; CHECK-NEXT:  [[TX:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[PX]]
; CHECK-NEXT:  [[TY:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.1.0", [[PY]]
; CHECK-NEXT:  [[S:%"gf.fadd.[0-9]+"]] = fadd double [[TX]], [[TY]]
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[S]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
