; __enzyme_augmentsize is the size of a tape object: the constant 32.
; RUN: %gradlink ad %s | FileCheck %s

@enzyme_dup = external global i32

declare double @llvm.sin.f64(double)

define double @f(ptr %x, double %s) {
entry:
  %v = load double, ptr %x
  %m = fmul double %v, %s
  %r = call double @llvm.sin.f64(double %m)
  ret double %r
}

declare i32 @__enzyme_augmentsize(ptr, ...)

define i32 @size() {
  %d = load i32, ptr @enzyme_dup
  %n = call i32 (ptr, ...) @__enzyme_augmentsize(ptr @f, i32 %d)
  ret i32 %n
}

; CHECK-LABEL: define i32 @size()
; CHECK:       %n = add i32 32, 0
; CHECK-NEXT:  ret i32 %n
