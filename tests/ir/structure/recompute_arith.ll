; Cheap float arithmetic on reloadable values is recomputed in the reverse sweep: t = v * 3, with
; v reloaded from the unchanged parameter, is rebuilt (gl.rc) for cos(t) instead of being taped.
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
  %t = fmul double %v, 3.0
  %s = call double @llvm.sin.f64(double %t)
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
; CHECK-NOT:   @"gl.push
; CHECK:       {{"?}}gl.rev.loop{{"?}}:
; CHECK:       [[V:%"gl.rc.[0-9]+"]] = load double, ptr {{%"gl.rc.[0-9]+"}}
; CHECK-NEXT:  [[T:%"gl.rc.[0-9]+"]] = fmul double [[V]], {{3.000000e\+00|0x4008000000000000}}
; CHECK:       call double @llvm.cos.f64(double [[T]])
; CHECK-NOT:   @"gl.pop
; CHECK:       {{"?}}gl.exit{{"?}}:
