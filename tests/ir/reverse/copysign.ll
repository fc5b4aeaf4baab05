; Reverse mode, copysign: partials copysign(1, x) * copysign(1, y) and 0 (y gets nothing).
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

declare double @llvm.copysign.f64(double, double)

define double @f(double %x, double %y) {
entry:
  %r = call double @llvm.copysign.f64(double %x, double %y)
  ret double %r
}

declare { double, double } @__enzyme_autodiff(ptr, ...)

define { double, double } @df(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @"gl.diffe.f.oo_r"(double %x, double %y, double %"gl.dret")
; CHECK:       %r = call double @llvm.copysign.f64(double %x, double %y)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJR:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJR]]
; CHECK-NEXT:  [[SX:%"gl.copysign.[0-9]+"]] = call double @llvm.copysign.f64(double 0x3FF0000000000000, double %x)
; CHECK-NEXT:  [[SY:%"gl.copysign.[0-9]+"]] = call double @llvm.copysign.f64(double 0x3FF0000000000000, double %y)
; CHECK-NEXT:  [[PX:%"gl.fmul.[0-9]+"]] = fmul double [[SX]], [[SY]]
; CHECK-NEXT:  [[DX:%"gl.fmul.[0-9]+"]] = fmul double [[G]], [[PX]]
; CHECK-NEXT:  [[AX:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SUMX:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AX]], [[DX]]
; CHECK-NEXT:  store double [[SUMX]], ptr [[ADJX]]
; CHECK-NEXT:  br label %{{"?}}gl.exit{{"?}}
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
; CHECK:       ret { double, double }
