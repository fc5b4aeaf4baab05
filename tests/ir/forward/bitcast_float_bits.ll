; Forward mode, bitcast double -> i64 -> double: the tangent is bitcast along with the value.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

define double @f(double %x) {
entry:
  %i = bitcast double %x to i64
  %d = bitcast i64 %i to double
  ret double %d
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %i = bitcast double %x to i64
; CHECK-NEXT:  [[TI:%"gf.t.[0-9]+.0"]] = bitcast double %"gf.darg.0.0" to i64
; CHECK-NEXT:  %d = bitcast i64 %i to double
; CHECK-NEXT:  [[TD:%"gf.t.[0-9]+.0"]] = bitcast i64 [[TI]] to double
; CHECK-NEXT:  ret double [[TD]]
