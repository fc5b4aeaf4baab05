; Refused: __enzyme_fwddiff of a function whose result is not floating point.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

define i32 @f(double %x) {
entry:
  %i = fptosi double %x to i32
  ret i32 %i
}
declare i32 @__enzyme_fwddiff(ptr, ...)
define i32 @df(double %x, double %dx) {
  %r = call i32 (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret i32 %r
}

; CHECK: __enzyme_fwddiff of a function without a floating-point result, declared to return i32
