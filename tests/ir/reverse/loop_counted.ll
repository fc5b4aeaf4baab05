; Reverse mode, a counted loop (i from 0 by 1 while i+1 < n): the reverse of the exit computes the
; iteration count from n (at least 1) into a slot, nothing is pushed for it; the reverse header
; counts it down and leaves to the reverse of the entry when it reaches 0.
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
; CHECK:       [[CNT:%"gl.count.loop"]] = alloca i64
; CHECK:       {{^}}exit:
; CHECK-NOT:   call void @"gl.push
; CHECK:       br label %{{"?}}gl.rev.exit{{"?}}
; CHECK:       {{"?}}gl.rev.loop{{"?}}:
; CHECK:       [[REST:%"gl.rest.[0-9]+"]] = sub i64 {{%"gl.left.[0-9]+"}}, 1
; CHECK-NEXT:  store i64 [[REST]], ptr [[CNT]]
; CHECK-NEXT:  [[FIRST:%"gl.first.[0-9]+"]] = icmp eq i64 [[REST]], 0
; CHECK-NEXT:  br i1 [[FIRST]], label %[[TOENTRY:"?gl.edge.loop.[0-9]+"?]], label %[[AGAIN:"?gl.edge.loop.[0-9]+"?]]
; CHECK:       [[TOENTRY]]:
; CHECK-NEXT:  br label %{{"?}}gl.rev.entry{{"?}}
; CHECK:       [[AGAIN]]:
; CHECK:       br label %{{"?}}gl.rev.loop{{"?}}
; CHECK:       {{"?}}gl.rev.exit{{"?}}:
; CHECK:       [[SUB:%"gl.sub.[0-9]+"]] = sub i64 %n, 0
; CHECK-NEXT:  [[POS:%"gl.trips.[0-9]+"]] = icmp ugt i64 %n, 0
; CHECK-NEXT:  [[TRIPS:%"gl.sel.[0-9]+"]] = select i1 [[POS]], i64 [[SUB]], i64 1
; CHECK-NEXT:  store i64 [[TRIPS]], ptr [[CNT]]
; CHECK-NEXT:  br label %{{"?}}gl.rev.loop{{"?}}
