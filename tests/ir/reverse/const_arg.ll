; Reverse mode, enzyme_const before x: x gets no adjoint (signature "co"), only y's adjoint
; (g * x) is computed and returned; the call passes the marker's argument without the marker.
; RUN: %gradlink ad %s | FileCheck %s

@enzyme_const = external global i32

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x, double %y) {
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %c, double %x, double %y)
  ret double %r
}

; CHECK-LABEL: define double @df(
; CHECK:       %r = call double @"gl.diffe.f.co_r"(double %x, double %y, double 1.0)
; CHECK-LABEL: define internal double @"gl.diffe.f.co_r"(double %x, double %y, double %"gl.dret")
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr
; CHECK-NEXT:  store double 0x8000000000000000
; CHECK-NEXT:  [[D:%"gl.fmul.[0-9]+"]] = fmul double [[G]], %x
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJY:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A]], [[D]]
; CHECK-NEXT:  store double [[S]], ptr [[ADJY]]
; CHECK-NEXT:  br label %{{"?}}gl.exit{{"?}}
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  [[O:%"gl.out.[0-9]+"]] = load double, ptr [[ADJY]]
; CHECK-NEXT:  [[R:%"gl.out.[0-9]+"]] = fadd double [[O]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
