; Forward mode, memcpy between dup pointers: the tangents are copied between the shadows too.
; RUN: %gradlink ad %s -f gl.fwd.f.dd | FileCheck %s

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @f(ptr %dst, ptr %src) {
entry:
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false)
  %a = load double, ptr %dst
  %m = fmul double %a, %a
  store double %m, ptr %dst
  ret void
}

declare void @__enzyme_fwddiff(ptr, ...)

define void @df(ptr %d, ptr %dd, ptr %s, ptr %ds) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %d, ptr %dd, ptr %s, ptr %ds)
  ret void
}

; CHECK-LABEL: define internal void @"gl.fwd.f.dd"(ptr %dst, ptr %"gf.shadow.0.0", ptr %src, ptr %"gf.shadow.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false)
; CHECK-NEXT:  call void @llvm.memcpy.p0.p0.i64(ptr %"gf.shadow.0.0", ptr %"gf.shadow.1.0", i64 16, i1 false)
; CHECK-NEXT:  %a = load double, ptr %dst
; CHECK-NEXT:  {{%"gf.t.[0-9]+.0"}} = load double, ptr %"gf.shadow.0.0"
