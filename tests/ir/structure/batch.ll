; __enzyme_batch lowers to one call of the function per lane, in lane order (enzyme_vector: the
; lane's own value; enzyme_scalar: the same value), the results gathered into the call's type.
; RUN: %gradlink ad %s | FileCheck %s

@enzyme_width = external global i32
@enzyme_vector = external global i32
@enzyme_scalar = external global i32

define double @f(double %x, i32 %n) {
  %c = sitofp i32 %n to double
  %m = fmul double %x, %c
  ret double %m
}

declare { double, double } @__enzyme_batch(...)

define { double, double } @g(double %a, double %b) {
  %w = load i32, ptr @enzyme_width
  %v = load i32, ptr @enzyme_vector
  %s = load i32, ptr @enzyme_scalar
  %r = call { double, double } (...) @__enzyme_batch(ptr @f, i32 %w, i32 2, i32 %v, double %a, double %b, i32 %s, i32 7)
  ret { double, double } %r
}

; CHECK-LABEL: define { double, double } @g(double %a, double %b)
; CHECK:       [[L0:%"gl.lane.[0-9]+.0"]] = call double @f(double %a, i32 7)
; CHECK-NEXT:  [[L1:%"gl.lane.[0-9]+.1"]] = call double @f(double %b, i32 7)
; CHECK-NEXT:  [[A0:%"gl.lanes.[0-9]+.0"]] = insertvalue { double, double } poison, double [[L0]], 0
; CHECK-NEXT:  [[A1:%"gl.lanes.[0-9]+.1"]] = insertvalue { double, double } [[A0]], double [[L1]], 1
; CHECK:       ret { double, double } %r
