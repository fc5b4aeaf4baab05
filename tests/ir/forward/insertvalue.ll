; Forward mode, insertvalue: the tangent aggregate gets the element's tangent at the same index;
; an undef aggregate operand has a zero tangent.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %a0 = insertvalue { double, double } undef, double %x, 0
  %a1 = insertvalue { double, double } %a0, double %y, 1
  %e = extractvalue { double, double } %a1, 1
  %m = fmul double %e, %x
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, double %y, double %dy) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %a0 = insertvalue { double, double } undef, double %x, 0
; CHECK-NEXT:  [[TA0:%"gf.t.[0-9]+.0"]] = insertvalue { double, double } zeroinitializer, double %"gf.darg.0.0", 0
; CHECK-NEXT:  %a1 = insertvalue { double, double } %a0, double %y, 1
; CHECK-NEXT:  [[TA1:%"gf.t.[0-9]+.0"]] = insertvalue { double, double } [[TA0]], double %"gf.darg.1.0", 1
