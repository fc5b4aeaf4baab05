; Forward mode, maximum: llvm.maximum: partial 1 for the operand chosen, 0 for the other (%y <= %x chooses x); the tangent is the sum of dx and dy times the partials.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

declare double @llvm.maximum.f64(double, double)

define double @f(double %x, double %y) {
entry:
  %r = call double @llvm.maximum.f64(double %x, double %y)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, double %y, double %dy) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(double %x, double %"gf.darg.0.0", double %y, double %"gf.darg.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call double @llvm.maximum.f64(double %x, double %y)
; CHECK-NEXT:  [[CX:%"gf.cmp.[0-9]+"]] = fcmp ole double %y, %x
; CHECK-NEXT:  [[PX:%"gf.sel.[0-9]+"]] = select i1 [[CX]], double 0x3FF0000000000000, double 0x0000000000000000
; CHECK-NEXT:  [[CY:%"gf.cmp.[0-9]+"]] = fcmp ole double %y, %x
; CHECK-NEXT:  [[PY:%"gf.sel.[0-9]+"]] = select i1 [[CY]], double 0x0000000000000000, double 0x3FF0000000000000
; CHECK-NEXT:  [[TX:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[PX]]
; CHECK-NEXT:  [[TY:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.1.0", [[PY]]
; CHECK-NEXT:  [[S:%"gf.fadd.[0-9]+"]] = fadd double [[TX]], [[TY]]
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[S]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
