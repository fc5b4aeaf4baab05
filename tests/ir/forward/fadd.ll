; Forward mode, fadd: both partials are 1: the adjoint goes unchanged to x and to y; the tangent is the sum of dx and dy times the partials.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %r = fadd double %x, %y
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, double %y, double %dy) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(double %x, double %"gf.darg.0.0", double %y, double %"gf.darg.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = fadd double %x, %y
; CHECK-NEXT:  [[S:%"gf.fadd.[0-9]+"]] = fadd double %"gf.darg.0.0", %"gf.darg.1.0"
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[S]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
