; Forward mode, memset of a dup pointer: the shadow (the tangents) is cleared the same way.
; RUN: %gradlink ad %s -f gl.fwd.f.dd | FileCheck %s

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define void @f(ptr %p, double %x) {
entry:
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 16, i1 false)
  %q = getelementptr inbounds double, ptr %p, i64 1
  store double %x, ptr %q
  ret void
}

declare void @__enzyme_fwddiff(ptr, ...)

define void @df(ptr %p, ptr %dp, double %x, double %dx) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, double %x, double %dx)
  ret void
}

; CHECK-LABEL: define internal void @"gl.fwd.f.dd"(ptr %p, ptr %"gf.shadow.0.0", double %x, double %"gf.darg.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 16, i1 false)
; CHECK-NEXT:  call void @llvm.memset.p0.i64(ptr %"gf.shadow.0.0", i8 0, i64 16, i1 false)
