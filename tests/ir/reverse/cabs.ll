; Reverse mode, cabs: C99 cabs of a double complex passed as its two parts (std::abs of complex<double>): partials x / r and y / r.
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

declare double @cabs(double, double)

define double @f(double %x, double %y) {
entry:
  %r = call double @cabs(double %x, double %y)
  ret double %r
}

declare { double, double } @__enzyme_autodiff(ptr, ...)

define { double, double } @df(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @"gl.diffe.f.oo_r"(double %x, double %y, double %"gl.dret")
; CHECK:       %r = call double @cabs(double %x, double %y)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJR:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJR]]
; CHECK-NEXT:  [[PX:%"gl.fdiv.[0-9]+"]] = fdiv double %x, %r
; CHECK-NEXT:  [[DX:%"gl.fmul.[0-9]+"]] = fmul double [[G]], [[PX]]
; CHECK-NEXT:  [[AX:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SUMX:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AX]], [[DX]]
; CHECK-NEXT:  store double [[SUMX]], ptr [[ADJX]]
; CHECK-NEXT:  [[PY:%"gl.fdiv.[0-9]+"]] = fdiv double %y, %r
; CHECK-NEXT:  [[DY:%"gl.fmul.[0-9]+"]] = fmul double [[G]], [[PY]]
; CHECK-NEXT:  [[AY:%"gl.a.[0-9]+"]] = load double, ptr [[ADJY:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SUMY:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AY]], [[DY]]
; CHECK-NEXT:  store double [[SUMY]], ptr [[ADJY]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
; CHECK:       load double, ptr [[ADJY]]
; CHECK:       ret { double, double }
