; Forward mode, an integer argument converted with sitofp is inactive: no tangent argument for it
; (signature "dc"), and the converted value only scales dx.
; RUN: %gradlink ad %s -f gl.fwd.f.dc_r | FileCheck %s

define double @f(double %x, i32 %n) {
entry:
  %c = sitofp i32 %n to double
  %m = fmul double %x, %c
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, i32 %n) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, i32 %n)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dc_r"(double %x, double %"gf.darg.0.0", i32 %n)
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %c = sitofp i32 %n to double
; CHECK-NEXT:  %m = fmul double %x, %c
; CHECK-NEXT:  [[T:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", %c
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[T]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
