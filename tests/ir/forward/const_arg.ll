; Forward mode, enzyme_const before x: no tangent argument for x (signature "cd"); the tangent
; is dy * x alone.
; RUN: %gradlink ad %s | FileCheck %s

@enzyme_const = external global i32

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %y, double %dy) {
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %c, double %x, double %y, double %dy)
  ret double %r
}

; CHECK-LABEL: define double @df(
; CHECK:       %r = call double @"gl.fwd.f.cd_r"(double %x, double %y, double %dy)
; CHECK-LABEL: define internal double @"gl.fwd.f.cd_r"(double %x, double %y, double %"gf.darg.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %m = fmul double %x, %y
; CHECK-NEXT:  [[T:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.1.0", %x
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[T]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
