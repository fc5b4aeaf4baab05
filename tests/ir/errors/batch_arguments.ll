; Refused: __enzyme_batch without enzyme_width; with a marker that is not a batch marker; with
; a lane missing; with more arguments than the function takes.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s --check-prefix=WIDTH
; RUN: sed 's/(ptr @f, double/(ptr @f, i32 %w, i32 1, i32 %dup, double/' %s > %t.marker.ll
; RUN: not %gradlink ad %t.marker.ll 2>&1 | FileCheck %s --check-prefix=MARKER
; RUN: sed 's/(ptr @f, double/(ptr @f, i32 %w, i32 2, double/' %s > %t.lanes.ll
; RUN: not %gradlink ad %t.lanes.ll 2>&1 | FileCheck %s --check-prefix=LANES
; RUN: sed 's/(ptr @f, double %a/(ptr @f, i32 %w, i32 1, double %a, double 2.0/' %s > %t.more.ll
; RUN: not %gradlink ad %t.more.ll 2>&1 | FileCheck %s --check-prefix=MORE

@enzyme_width = external global i32
@enzyme_dup = external global i32

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

declare { double, double } @__enzyme_batch(...)

define { double, double } @g(double %a) {
  %w = load i32, ptr @enzyme_width
  %dup = load i32, ptr @enzyme_dup
  %r = call { double, double } (...) @__enzyme_batch(ptr @f, double %a)
  ret { double, double } %r
}

; WIDTH: cannot differentiate g: __enzyme_batch needs enzyme_width followed by the number of lanes
; MARKER: enzyme_dup is not a batch marker
; LANES: argument 1 of f needs 2 values (one per lane)
; MORE: wrong argument count: f takes 1 argument(s), the call passes 1 more
