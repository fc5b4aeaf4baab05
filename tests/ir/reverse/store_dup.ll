; Reverse mode, store to an enzyme_dup pointer: the stored value's adjoint is read from the shadow
; memory, which is then zeroed (the store overwrote what was there).
; RUN: %gradlink ad %s -f gl.diffe.f.dd | FileCheck %s

declare double @llvm.sin.f64(double)

define void @f(ptr %x, ptr %y) {
entry:
  %a = load double, ptr %x
  %s = call double @llvm.sin.f64(double %a)
  store double %s, ptr %y
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

define void @df(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}

; CHECK-LABEL: define internal void @"gl.diffe.f.dd"(
; CHECK-SAME:  ptr %x, ptr [[DX:%"gl.shadow.[0-9]+"]], ptr %y, ptr [[DY:%"gl.shadow.[0-9]+"]])
; CHECK:       store double %s, ptr %y
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK-NEXT:  [[M:%"gl.m.[0-9]+"]] = load double, ptr [[DY]], align 8
; CHECK-NEXT:  store double 0x0000000000000000, ptr [[DY]], align 8
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJS:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A]], [[M]]
; CHECK-NEXT:  store double [[S]], ptr [[ADJS]]
; CHECK-NEXT:  [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJS]]
; CHECK:       call double @llvm.cos.f64(double %a)
; CHECK:       [[OLD:%"gl.m.[0-9]+"]] = load double, ptr [[DX]], align 8
; CHECK-NEXT:  [[NEW:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[OLD]], %{{.*}}
; CHECK-NEXT:  store double [[NEW]], ptr [[DX]], align 8
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  ret void
