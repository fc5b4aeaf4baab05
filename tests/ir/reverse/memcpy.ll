; Reverse mode, memcpy between dup pointers: the forward sweep copies the shadows too; the
; reverse sweep moves the destination's adjoints back onto the source's (a helper per element
; type, found by type analysis: here double), adding them and zeroing the destination's.
; RUN: %gradlink ad %s -f gl.diffe.f.dd -f gl.memcpy.adjoint.double | FileCheck %s

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @f(ptr %dst, ptr %src) {
entry:
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false)
  %a = load double, ptr %dst
  %m = fmul double %a, %a
  store double %m, ptr %dst
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

define void @df(ptr %d, ptr %dd, ptr %s, ptr %ds) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %d, ptr %dd, ptr %s, ptr %ds)
  ret void
}

; CHECK-LABEL: define internal void @"gl.diffe.f.dd"(
; CHECK-SAME:  ptr %dst, ptr [[DD:%"gl.shadow.[0-9]+"]], ptr %src, ptr [[DS:%"gl.shadow.[0-9]+"]])
; CHECK:       call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false)
; CHECK-NEXT:  call void @llvm.memcpy.p0.p0.i64(ptr [[DD]], ptr [[DS]], i64 16, i1 false)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       call void @"gl.memcpy.adjoint.double"(ptr [[DD]], ptr [[DS]], i64 16)
; CHECK-NEXT:  br label %{{"?}}gl.exit{{"?}}

; CHECK-LABEL: define internal void @"gl.memcpy.adjoint.double"(ptr %dst, ptr %src, i64 %n)
; CHECK:       udiv i64 %n, 8
; CHECK:       [[D:%.*]] = load double, ptr [[PD:%.*]], align 1
; CHECK-NEXT:  store double {{0.0|0x0000000000000000}}, ptr [[PD]], align 1
; CHECK-NEXT:  [[O:%.*]] = load double, ptr [[PS:%.*]], align 1
; CHECK-NEXT:  [[S:%.*]] = fadd double [[O]], [[D]]
; CHECK-NEXT:  store double [[S]], ptr [[PS]], align 1
