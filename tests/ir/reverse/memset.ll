; Reverse mode, memset of a dup pointer: the shadow is cleared in the forward sweep, and again in
; the reverse sweep (the bytes memset wrote have no derivative: their adjoint is dropped).
; RUN: %gradlink ad %s -f gl.diffe.f.do | FileCheck %s

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define void @f(ptr %p, double %x) {
entry:
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 16, i1 false)
  %q = getelementptr inbounds double, ptr %p, i64 1
  store double %x, ptr %q
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(ptr %p, ptr %dp, double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.do"(
; CHECK-SAME:  ptr %p, ptr [[DP:%"gl.shadow.[0-9]+"]], double %x)
; CHECK:       call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 16, i1 false)
; CHECK-NEXT:  call void @llvm.memset.p0.i64(ptr [[DP]], i8 0, i64 16, i1 false)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       store double {{%"gl.fadd.[0-9]+"}}, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  call void @llvm.memset.p0.i64(ptr [[DP]], i8 0, i64 16, i1 false)
; CHECK-NEXT:  br label %{{"?}}gl.exit{{"?}}
