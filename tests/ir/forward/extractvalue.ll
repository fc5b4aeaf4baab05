; Forward mode, extractvalue: the tangent is the same field of the aggregate's tangent.
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
; CHECK:       %a1 = insertvalue { double, double } %a0, double %y, 1
; CHECK-NEXT:  [[TA1:%"gf.t.[0-9]+.0"]] = insertvalue
; CHECK-NEXT:  %e = extractvalue { double, double } %a1, 1
; CHECK-NEXT:  [[TE:%"gf.t.[0-9]+.0"]] = extractvalue { double, double } [[TA1]], 1
; CHECK-NEXT:  %m = fmul double %e, %x
; CHECK-NEXT:  {{%"gf.fmul.[0-9]+"}} = fmul double [[TE]], %x
