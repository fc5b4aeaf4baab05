; Forward mode, ldexp: the tangent is dx * exp2((double) n); the integer exponent has no tangent.
; RUN: %gradlink ad %s -f gl.fwd.f.dc_r | FileCheck %s

declare double @ldexp(double, i32)

define double @f(double %x, i32 %n) {
entry:
  %r = call double @ldexp(double %x, i32 %n)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, i32 %n) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, i32 %n)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dc_r"(double %x, double %"gf.darg.0.0", i32 %n)
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call double @ldexp(double %x, i32 %n)
; CHECK-NEXT:  [[N:%"gf.sitofp.[0-9]+"]] = sitofp i32 %n to double
; CHECK:       [[E:%"gf.exp2.[0-9]+"]] = call double @llvm.exp2.f64(double [[N]])
; CHECK-NEXT:  [[T:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", [[E]]
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[T]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
