; __enzyme_set_fixed_point is a hint: the derivative keeps the call (inactive: its state
; pointer needs no shadow argument), every iteration is differentiated, and after the last round
; the declaration becomes an empty always-inlined definition (no undefined symbol).
; RUN: %gradlink ad %s | FileCheck %s

@u = global double 0.0

define double @f(double %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %n, %loop ]
  call void (double, i64, ptr, ...) @__enzyme_set_fixed_point(double 1.0e-12, i64 -1, ptr null, ptr @u, i64 8)
  %v = load double, ptr @u
  %m = fmul double %v, 0.5
  %s = fadd double %m, %x
  store double %s, ptr @u
  %n = add i32 %i, 1
  %c = icmp ult i32 %n, 20
  br i1 %c, label %loop, label %done
done:
  ret double %s
}

declare void @__enzyme_set_fixed_point(double, i64, ptr, ...)
declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK:       define internal void @__enzyme_set_fixed_point(double %a0, i64 %a1, ptr %a2, ...) alwaysinline {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }
; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"
; CHECK:       call void (double, i64, ptr, ...) @__enzyme_set_fixed_point(double {{.*}}, i64 -1, ptr null, ptr @u, i64 8)
; CHECK:       {{"?}}gl.rev.loop{{"?}}:
; CHECK-NOT:   __enzyme_set_fixed_point
; CHECK:       define internal ptr @"gl.tape.reserve"
