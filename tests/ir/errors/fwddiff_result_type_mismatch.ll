; A forward request declared to return a type its tangents cannot become ([2 x double] for two
; lanes of enzyme_width) is refused naming __enzyme_fwddiff and its tangents.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

@enzyme_width = external global i32

define double @f(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}

declare [2 x double] @__enzyme_fwddiff(ptr, ...)

define [2 x double] @df(double %x) {
  %w = load i32, ptr @enzyme_width
  %r = call [2 x double] (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %w, i64 2, double %x, double 1.0, double 2.0)
  ret [2 x double] %r
}

; CHECK: __enzyme_fwddiff returns 2 tangent(s) of type(s) double, double, but the call is declared to return [2 x double]
