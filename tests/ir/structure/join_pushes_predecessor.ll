; A join of three predecessors (a switch): the forward sweep records which predecessor it came
; from (a phi of ids, pushed on the tape) and the reverse of the join pops it and switches on it to
; the edge blocks.
; RUN: %gradlink ad %s -f gl.diffe.f.oc_r | FileCheck %s

define double @f(double %x, i32 %k) {
entry:
  switch i32 %k, label %c0 [ i32 1, label %c1
                             i32 2, label %c2 ]
c0:
  %a = fmul double %x, 2.0
  br label %join
c1:
  %b = fmul double %x, %x
  br label %join
c2:
  %d = fadd double %x, 1.0
  br label %join
join:
  %r = phi double [ %a, %c0 ], [ %b, %c1 ], [ %d, %c2 ]
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x, i32 %k) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %k)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.oc_r"(
; CHECK:       {{^}}join:
; CHECK-NEXT:  %r = phi double [ %a, %c0 ], [ %b, %c1 ], [ %d, %c2 ]
; CHECK-NEXT:  [[ID:%"gl.from.[0-9]+"]] = phi i32 [ 0, %c0 ], [ 1, %c1 ], [ 2, %c2 ]
; CHECK-NEXT:  call void @"gl.push.i32"(i32 [[ID]])
; CHECK-NEXT:  br label %{{"?}}gl.rev.join{{"?}}
; CHECK:       {{"?}}gl.rev.join{{"?}}:
; CHECK:       [[P:%"gl.from.[0-9]+"]] = call i32 @"gl.pop.i32"()
; CHECK-NEXT:  switch i32 [[P]], label %{{"?}}gl.edge.join.0{{"?}} [ i32 1, label %{{"?}}gl.edge.join.1{{"?}} i32 2, label %{{"?}}gl.edge.join.2{{"?}} ]
; CHECK:       {{"?}}gl.edge.join.0{{"?}}:
; CHECK:       br label %{{"?}}gl.rev.c0{{"?}}
; CHECK:       {{"?}}gl.edge.join.1{{"?}}:
; CHECK:       br label %{{"?}}gl.rev.c1{{"?}}
; CHECK:       {{"?}}gl.edge.join.2{{"?}}:
; CHECK:       br label %{{"?}}gl.rev.c2{{"?}}
