; Forward mode, store to an enzyme_dup pointer: the tangent of the stored value is stored to the
; shadow memory beside the primal store.
; RUN: %gradlink ad %s -f gl.fwd.f.dd | FileCheck %s

declare double @llvm.sin.f64(double)

define void @f(ptr %x, ptr %y) {
entry:
  %a = load double, ptr %x
  %s = call double @llvm.sin.f64(double %a)
  store double %s, ptr %y
  ret void
}

declare void @__enzyme_fwddiff(ptr, ...)

define void @df(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}

; CHECK-LABEL: define internal void @"gl.fwd.f.dd"(
; CHECK-SAME:  ptr %x, ptr [[DX:%"gf.shadow.0.0"]], ptr %y, ptr [[DY:%"gf.shadow.1.0"]])
; CHECK:       [[TA:%"gf.t.[0-9]+.0"]] = load double, ptr [[DX]], align 8
; CHECK:       [[C:%"gf.cos.[0-9]+"]] = call double @llvm.cos.f64(double %a)
; CHECK-NEXT:  [[M:%"gf.fmul.[0-9]+"]] = fmul double [[TA]], [[C]]
; CHECK-NEXT:  [[TS:%"gf.t.[0-9]+.0"]] = fadd double [[M]], 0x0000000000000000
; CHECK-NEXT:  store double %s, ptr %y
; CHECK-NEXT:  store double [[TS]], ptr [[DY]], align 8
; CHECK-NEXT:  ret void
