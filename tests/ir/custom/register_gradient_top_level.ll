; A request directly on a function whose gradient is registered uses the registration (as for
; calls of it, and as Enzyme does), even when it has a body, here one gradlink would refuse (a
; float bit trick). Before, the body was differentiated whenever there was one: a silently
; different gradient when it could be, a refusal here.
; RUN: %gradlink ad %s | FileCheck %s

@__enzyme_register_gradient_absbits = global [3 x ptr] [ptr @absbits, ptr @aug, ptr @rev]

define double @absbits(double %x) noinline {
entry:
  %b = bitcast double %x to i64
  %c = and i64 %b, 9223372036854775807
  %r = bitcast i64 %c to double
  ret double %r
}

define ptr @aug(double %x) {
entry:
  ret ptr null
}

define double @rev(double %x, double %d, ptr %t) {
entry:
  %s = call double @llvm.copysign.f64(double %d, double %x)
  ret double %s
}

declare double @llvm.copysign.f64(double, double)

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @absbits, double %x)
  ret double %r
}

; CHECK-LABEL: define double @df(double %x)
; CHECK:       call ptr @aug(double
; CHECK:       call double @rev(double
