; Forward mode, frem: partials 1 and -trunc(x / y); the tangent is the sum of dx and dy times the partials.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %r = frem double %x, %y
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, double %y, double %dy) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(double %x, double %"gf.darg.0.0", double %y, double %"gf.darg.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = frem double %x, %y
; CHECK-NEXT:  [[Q:%"gf.fdiv.[0-9]+"]] = fdiv double %x, %y
; CHECK-NEXT:  [[TR:%"gf.trunc.[0-9]+"]] = call double @llvm.trunc.f64(double [[Q]])
; CHECK-NEXT:  [[PY:%"gf.neg.[0-9]+"]] = fneg double [[TR]]
; CHECK-NEXT:  [[TY:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.1.0", [[PY]]
; CHECK-NEXT:  [[S:%"gf.fadd.[0-9]+"]] = fadd double %"gf.darg.0.0", [[TY]]
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[S]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
