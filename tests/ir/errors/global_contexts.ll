; Refused: a context not known at link time (a function's argument, not a __enzyme_context call
; of the same function); a shadow query of a place that is not a global variable; a lane the
; width does not have; a context of two lanes in reverse mode.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
; RUN: sed 's/ptr %given, ptr @g, i32 0/ptr %ctx, ptr %addr, i32 0/' %s > %t.local.ll
; RUN: not %gradlink ad %t.local.ll 2>&1 | FileCheck %s --check-prefix=PLACE
; RUN: sed 's/ptr %given, ptr @g, i32 0/ptr %ctx, ptr @g, i32 1/' %s > %t.lane.ll
; RUN: not %gradlink ad %t.lane.ll 2>&1 | FileCheck %s --check-prefix=LANE
; RUN: sed 's/ptr %given, ptr @g, i32 0/ptr %ctx, ptr @g, i32 0/; s/context(i32 1)/context(i32 2)/' %s > %t.wide.ll
; RUN: not %gradlink ad %t.wide.ll 2>&1 | FileCheck %s --check-prefix=WIDE

@g = global double 2.0
@enzyme_context = external global i32

define double @f(double %x) {
  %s = load double, ptr @g
  %a = fmul double %s, %x
  ret double %a
}

declare ptr @__enzyme_context(i32)
declare ptr @__enzyme_shadow(...)
declare double @__enzyme_autodiff(...)

define double @caller(ptr %given, ptr %addr) {
  %ctx = call ptr @__enzyme_context(i32 1)
  %dg = call ptr (...) @__enzyme_shadow(ptr %given, ptr @g, i32 0)
  %m = load i32, ptr @enzyme_context
  %d = call double (...) @__enzyme_autodiff(ptr @f, i32 %m, ptr %ctx, double 1.5)
  ret double %d
}

; UNKNOWN: cannot differentiate caller: the context %given is not known at link time: pass the result of a __enzyme_context call made in the same function
; PLACE: cannot differentiate caller: __enzyme_shadow needs the address of a global variable (or of a place inside one) that may have a shadow, known at link time
; LANE: cannot differentiate caller: lane 1 of a shadow 1 lane(s) wide
; WIDE: cannot differentiate caller: a context of 2 lanes: reverse mode has one
