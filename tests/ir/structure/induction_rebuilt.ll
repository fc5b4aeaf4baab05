; In the reverse of a counted loop the induction variable is not taped: it is rebuilt from the
; remaining iteration count as start + (count - 1) * step, and the addresses computed from it.
; RUN: %gradlink ad %s -f gl.diffe.f.dc_r | FileCheck %s

declare double @llvm.sin.f64(double)

define double @f(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %s = call double @llvm.sin.f64(double %v)
  %acc1 = fadd double %acc, %s
  %i1 = add nuw i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %acc1
}

declare double @__enzyme_autodiff(ptr, ...)

define void @df(ptr %x, ptr %dx, i64 %n) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @"gl.diffe.f.dc_r"(
; CHECK-SAME:  ptr %x, ptr [[DX:%"gl.shadow.[0-9]+"]], i64 %n, double %"gl.dret")
; CHECK:       {{"?}}gl.rev.loop{{"?}}:
; CHECK-NEXT:  [[LEFT:%"gl.left.[0-9]+"]] = load i64, ptr %"gl.count.loop"
; CHECK-NEXT:  [[K:%"gl.sub.[0-9]+"]] = sub i64 [[LEFT]], 1
; CHECK-NEXT:  [[KS:%"gl.mul.[0-9]+"]] = mul i64 [[K]], 1
; CHECK-NEXT:  [[I:%"gl.add.[0-9]+"]] = add i64 0, [[KS]]
; CHECK-DAG:   getelementptr inbounds double, ptr [[DX]], i64 [[I]]
; CHECK-DAG:   getelementptr inbounds double, ptr %x, i64 [[I]]
; CHECK-NOT:   @"gl.pop
; CHECK:       {{"?}}gl.edge.loop
