; __enzyme_iter(n, k): the derivative's copy asks for n + k iterations; after the last round
; the declaration becomes a definition returning n (the primal's calls keep n).
; RUN: %gradlink ad %s | FileCheck %s

declare i64 @__enzyme_iter(i64, i64)
declare double @llvm.powi.f64.i32(double, i32)

define double @f(double %x) {
entry:
  %n = call i64 @__enzyme_iter(i64 3, i64 1)
  %k = trunc i64 %n to i32
  %p = call double @llvm.powi.f64.i32(double %x, i32 %k)
  ret double %p
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal i64 @__enzyme_iter(i64 %n, i64 %k) alwaysinline {
; CHECK-NEXT:  entry:
; CHECK-NEXT:  ret i64 %n
; CHECK-LABEL: define double @f(double %x)
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %n = call i64 @__enzyme_iter(i64 3, i64 1)
; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"
; CHECK:       [[N:%"gl.iter.[0-9]+"]] = add i64 3, 1
; CHECK-NEXT:  %n = call i64 @__enzyme_iter(i64 [[N]], i64 1)
