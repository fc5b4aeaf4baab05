; Reverse mode, fmuladd: llvm.fmuladd x*y+z has partials y, x and 1 (z gets the adjoint itself).
; RUN: %gradlink ad %s -f gl.diffe.f.ooo_r | FileCheck %s

declare double @llvm.fmuladd.f64(double, double, double)

define double @f(double %x, double %y, double %z) {
entry:
  %r = call double @llvm.fmuladd.f64(double %x, double %y, double %z)
  ret double %r
}

declare { double, double, double } @__enzyme_autodiff(ptr, ...)

define { double, double, double } @df(double %x, double %y, double %z) {
  %g = call { double, double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y, double %z)
  ret { double, double, double } %g
}

; CHECK-LABEL: define internal { double, double, double } @"gl.diffe.f.ooo_r"(double %x, double %y, double %z, double %"gl.dret")
; CHECK:       %r = call double @llvm.fmuladd.f64(double %x, double %y, double %z)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJR:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJR]]
; CHECK-NEXT:  [[DX:%"gl.fmul.[0-9]+"]] = fmul double [[G]], %y
; CHECK-NEXT:  [[AX:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SUMX:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AX]], [[DX]]
; CHECK-NEXT:  store double [[SUMX]], ptr [[ADJX]]
; CHECK-NEXT:  [[DY:%"gl.fmul.[0-9]+"]] = fmul double [[G]], %x
; CHECK-NEXT:  [[AY:%"gl.a.[0-9]+"]] = load double, ptr [[ADJY:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SUMY:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AY]], [[DY]]
; CHECK-NEXT:  store double [[SUMY]], ptr [[ADJY]]
; CHECK-NEXT:  [[AZ:%"gl.a.[0-9]+"]] = load double, ptr [[ADJZ:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SUMZ:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AZ]], [[G]]
; CHECK-NEXT:  store double [[SUMZ]], ptr [[ADJZ]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
; CHECK:       load double, ptr [[ADJY]]
; CHECK:       load double, ptr [[ADJZ]]
; CHECK:       ret { double, double, double }
