; Reverse mode, extractvalue: the element's adjoint is put at the same index of a zero aggregate
; and added, field by field, to the aggregate's adjoint (aggregate slots start at zeroinitializer).
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %a0 = insertvalue { double, double } undef, double %x, 0
  %a1 = insertvalue { double, double } %a0, double %y, 1
  %e = extractvalue { double, double } %a1, 1
  %m = fmul double %e, %x
  ret double %m
}

declare { double, double } @__enzyme_autodiff(ptr, ...)

define { double, double } @df(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @"gl.diffe.f.oo_r"(
; CHECK:       [[ADJA1:%"gl.adj.[0-9]+"]] = alloca { double, double }
; CHECK-NEXT:  store { double, double } zeroinitializer, ptr [[ADJA1]]
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       {{%"gl.fmul.[0-9]+"}} = fmul double {{%"gl.g.[0-9]+"}}, %x
; CHECK-NEXT:  load double, ptr [[ADJE:%"gl.adj.[0-9]+"]]
; CHECK:       [[GE:%"gl.g.[0-9]+"]] = load double, ptr [[ADJE]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJE]]
; CHECK-NEXT:  [[IV:%"gl.iv.[0-9]+"]] = insertvalue { double, double } zeroinitializer, double [[GE]], 1
; CHECK-NEXT:  [[OLD:%"gl.a.[0-9]+"]] = load { double, double }, ptr [[ADJA1]]
; CHECK-NEXT:  [[O0:%"gl.ea.[0-9]+"]] = extractvalue { double, double } [[OLD]], 0
; CHECK-NEXT:  [[N0:%"gl.ec.[0-9]+"]] = extractvalue { double, double } [[IV]], 0
; CHECK-NEXT:  [[S0:%"gl.fadd.[0-9]+"]] = fadd double [[O0]], [[N0]]
; CHECK-NEXT:  [[AG0:%"gl.agg.[0-9]+"]] = insertvalue { double, double } [[OLD]], double [[S0]], 0
; CHECK-NEXT:  [[O1:%"gl.ea.[0-9]+"]] = extractvalue { double, double } [[OLD]], 1
; CHECK-NEXT:  [[N1:%"gl.ec.[0-9]+"]] = extractvalue { double, double } [[IV]], 1
; CHECK-NEXT:  [[S1:%"gl.fadd.[0-9]+"]] = fadd double [[O1]], [[N1]]
; CHECK-NEXT:  [[AG1:%"gl.agg.[0-9]+"]] = insertvalue { double, double } [[AG0]], double [[S1]], 1
; CHECK-NEXT:  store { double, double } [[AG1]], ptr [[ADJA1]]
