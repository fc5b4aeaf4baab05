; A value loaded in a loop from a parameter nothing writes (readonly_params) is reloaded in the
; reverse sweep (the partial cos(v) takes the reloaded value) instead of being pushed on the tape.
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
; CHECK:       {{^}}loop:
; CHECK-NOT:   call void @"gl.{{u?}}push
; CHECK:       br i1 %c, label %loop, label %exit
; CHECK:       {{"?}}gl.rev.loop{{"?}}:
; CHECK:       [[P:%"gl.rc.[0-9]+"]] = getelementptr inbounds double, ptr %x, i64
; CHECK-NEXT:  [[V:%"gl.rc.[0-9]+"]] = load double, ptr [[P]]
; CHECK:       call double @llvm.cos.f64(double [[V]])
; CHECK-NOT:   @"gl.pop
; CHECK:       {{"?}}gl.exit{{"?}}:
