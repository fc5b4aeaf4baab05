; A value the reverse sweep needs that cannot be recomputed (x[i] is overwritten in place) is
; pushed on the tape before the loop block's terminator, once per iteration, and popped at the
; start of the block's reverse, where cos takes it.
; RUN: %gradlink ad %s | FileCheck %s

declare double @llvm.sin.f64(double)

define void @f(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %s = call double @llvm.sin.f64(double %v)
  store double %s, ptr %p
  %i1 = add nuw i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

define void @df(ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @"gl.diffe.f.dc"(
; CHECK:       {{^}}loop:
; CHECK:       %v = load double, ptr %p
; CHECK:       call void @"gl.push.double"(double %v)
; CHECK-NEXT:  br i1 %c, label %loop, label %exit
; CHECK:       {{"?}}gl.rev.loop{{"?}}:
; CHECK-NEXT:  [[T:%"gl.tape.[0-9]+"]] = call double @"gl.pop.double"()
; CHECK:       call double @llvm.cos.f64(double [[T]])
; The tape runtime is appended: thread-local stack, push and pop per type.
; CHECK:       @"gl.tape.base" = internal thread_local global ptr null
; CHECK:       define internal void @"gl.push.double"(double %v)
; CHECK:       call ptr @"gl.tape.reserve"(i64 8)
; CHECK:       store double %v, ptr
; CHECK:       define internal double @"gl.pop.double"()
; CHECK:       call ptr @"gl.tape.release"(i64 8)
; CHECK:       load double, ptr
