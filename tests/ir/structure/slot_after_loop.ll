; A value defined in a loop and used after it (no loop holds both) is kept in a stack slot written
; at its definition and read in the reverse of the use, instead of the tape.
; RUN: %gradlink ad %s -f gl.diffe.f.oc_r | FileCheck %s

declare double @llvm.sin.f64(double)

define double @f(double %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %v = phi double [ %x, %entry ], [ %w, %loop ]
  %w = call double @llvm.sin.f64(double %v)
  %i1 = add nuw i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %s = call double @llvm.sin.f64(double %w)
  ret double %s
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x, i64 %n) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i64 %n)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.oc_r"(
; CHECK:       [[SLOT:%"gl.slot.[0-9]+"]] = alloca double
; CHECK:       %w = call double @llvm.sin.f64(double %v)
; CHECK-NEXT:  store double %w, ptr [[SLOT]]
; CHECK:       {{"?}}gl.rev.exit{{"?}}:
; CHECK:       [[W:%"gl.c.[0-9]+"]] = load double, ptr [[SLOT]]
; CHECK:       call double @llvm.cos.f64(double [[W]])
