; A loop whose trip count depends on the data (while w < 100): the iteration counter kept in the
; forward sweep is pushed once at the exit and popped in the exit's reverse into the count slot.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

define double @f(double %x) {
entry:
  br label %loop
loop:
  %v = phi double [ %x, %entry ], [ %w, %loop ]
  %w = fmul double %v, %v
  %c = fcmp olt double %w, 100.0
  br i1 %c, label %loop, label %exit
exit:
  ret double %w
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(
; CHECK:       {{^}}loop:
; CHECK:       [[C0:%"gl.cnt.loop"]] = phi i64 [ 0, %entry ], [ [[C1:%"gl.cnt1.loop"]], %loop ]
; CHECK-NEXT:  [[C1]] = add i64 [[C0]], 1
; CHECK:       {{^}}exit:
; CHECK-NEXT:  call void @"gl.push.i64"(i64 [[C1]])
; CHECK:       {{"?}}gl.rev.exit{{"?}}:
; CHECK:       [[N:%"gl.count.[0-9]+"]] = call i64 @"gl.pop.i64"()
; CHECK-NEXT:  store i64 [[N]], ptr %"gl.count.loop"
; CHECK-NEXT:  br label %{{"?}}gl.rev.loop{{"?}}
