; Forward mode, erf: d/dx erf(x) = 2/sqrt(pi) * exp(-x*x) (libm only; 2/sqrt(pi) = 0x3FF20DD750429B6D); the tangent is dx times that partial.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

declare double @erf(double)

define double @f(double %x) {
entry:
  %r = call double @erf(double %x)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call double @erf(double %x)
; CHECK-NEXT:  [[N:%"gf.neg.[0-9]+"]] = fneg double %x
; CHECK-NEXT:  [[NXX:%"gf.fmul.[0-9]+"]] = fmul double [[N]], %x
; CHECK-NEXT:  [[E:%"gf.exp.[0-9]+"]] = call double @llvm.exp.f64(double [[NXX]])
; CHECK-NEXT:  [[D:%"gf.fmul.[0-9]+"]] = fmul double 0x3FF20DD750429B6D, [[E]]
; CHECK-NEXT:  [[T:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[D]]
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[T]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
