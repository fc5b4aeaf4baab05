; Forward mode, select: the tangent is a select of the operands' tangents on the same condition.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %c = fcmp olt double %x, %y
  %s = select i1 %c, double %x, double %y
  ret double %s
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, double %y, double %dy) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(
; CHECK:       %s = select i1 %c, double %x, double %y
; CHECK-NEXT:  [[T:%"gf.t.[0-9]+.0"]] = select i1 %c, double %"gf.darg.0.0", double %"gf.darg.1.0"
; CHECK-NEXT:  ret double [[T]]
