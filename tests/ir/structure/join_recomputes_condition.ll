; An if/else join whose two edges are chosen by one dominating conditional branch: the reverse of
; the join recomputes which edge was taken from the branch condition (select on %c), nothing is
; pushed on the tape.
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %c = fcmp olt double %x, 0.0
  br i1 %c, label %neg, label %pos
neg:
  %a = fmul double %x, %y
  br label %join
pos:
  %b = fadd double %x, %y
  br label %join
join:
  %r = phi double [ %a, %neg ], [ %b, %pos ]
  ret double %r
}

declare { double, double } @__enzyme_autodiff(ptr, ...)

define { double, double } @df(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @"gl.diffe.f.oo_r"(
; CHECK-NOT:   @"gl.push
; CHECK:       {{"?}}gl.rev.join{{"?}}:
; CHECK-NOT:   @"gl.pop
; CHECK:       [[W:%"gl.sel.[0-9]+"]] = select i1 %c, i32 0, i32 1
; CHECK-NEXT:  switch i32 [[W]], label %{{"?}}gl.edge.join.0{{"?}} [ i32 1, label %{{"?}}gl.edge.join.1{{"?}} ]
; CHECK:       {{"?}}gl.edge.join.0{{"?}}:
; CHECK:       br label %{{"?}}gl.rev.neg{{"?}}
; CHECK:       {{"?}}gl.edge.join.1{{"?}}:
; CHECK:       br label %{{"?}}gl.rev.pos{{"?}}
