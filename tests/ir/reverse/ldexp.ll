; Reverse mode, ldexp: d/dx ldexp(x, n) = exp2((double) n); the integer exponent is inactive.
; RUN: %gradlink ad %s -f gl.diffe.f.oc_r | FileCheck %s

declare double @ldexp(double, i32)

define double @f(double %x, i32 %n) {
entry:
  %r = call double @ldexp(double %x, i32 %n)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x, i32 %n) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %n)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.oc_r"(double %x, i32 %n, double %"gl.dret")
; CHECK:       %r = call double @ldexp(double %x, i32 %n)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJR:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJR]]
; CHECK-NEXT:  [[N:%"gl.sitofp.[0-9]+"]] = sitofp i32 %n to double
; CHECK:       [[E:%"gl.exp2.[0-9]+"]] = call double @llvm.exp2.f64(double [[N]])
; CHECK-NEXT:  [[DX:%"gl.fmul.[0-9]+"]] = fmul double [[G]], [[E]]
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SUM:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A]], [[DX]]
; CHECK-NEXT:  store double [[SUM]], ptr [[ADJX]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
