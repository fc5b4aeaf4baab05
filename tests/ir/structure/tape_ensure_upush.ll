; A block pushing several values makes room once (gl.tape.ensure with their total size) and then
; pushes unchecked (gl.upush); the reverse pops them in the opposite order (LIFO): the first pop
; is u, the factor of v's partial.
; RUN: %gradlink ad %s -f gl.diffe.f.dc | FileCheck %s

define void @f(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %q = getelementptr inbounds double, ptr %p, i64 1
  %u = load double, ptr %q
  %s = fmul double %v, %u
  store double %s, ptr %p
  store double %s, ptr %q
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
; CHECK:       call void @"gl.tape.ensure"(i64 16)
; CHECK-NEXT:  call void @"gl.upush.double"(double %v)
; CHECK-NEXT:  call void @"gl.upush.double"(double %u)
; CHECK-NEXT:  br i1 %c, label %loop, label %exit
; CHECK:       {{"?}}gl.rev.loop{{"?}}:
; CHECK-NEXT:  [[U:%"gl.tape.[0-9]+"]] = call double @"gl.pop.double"()
; CHECK-NEXT:  [[V:%"gl.tape.[0-9]+"]] = call double @"gl.pop.double"()
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJS:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJS]]
; CHECK-NEXT:  fmul double [[G]], [[U]]
; CHECK:       fmul double [[G]], [[V]]
