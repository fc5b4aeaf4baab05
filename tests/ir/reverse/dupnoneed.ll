; Reverse mode, enzyme_dupnoneed on the output pointer: the signature says "n" for it; its shadow
; is passed and the stored value's adjoint is read from (and cleared in) that shadow, as for dup.
; The primal store is kept.
; RUN: %gradlink ad %s | FileCheck %s

@enzyme_dupnoneed = external global i32

define void @h(ptr %x, ptr %out) {
entry:
  %a = load double, ptr %x
  %m = fmul double %a, %a
  store double %m, ptr %out
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

define void @df(ptr %x, ptr %dx, ptr %o, ptr %do) {
  %n = load i32, ptr @enzyme_dupnoneed
  call void (ptr, ...) @__enzyme_autodiff(ptr @h, ptr %x, ptr %dx, i32 %n, ptr %o, ptr %do)
  ret void
}

; CHECK-LABEL: define void @df(
; CHECK:       call void @"gl.diffe.h.dn"(ptr %x, ptr %dx, ptr %o, ptr %do)
; CHECK-LABEL: define internal void @"gl.diffe.h.dn"(
; CHECK-SAME:  ptr %x, ptr [[DX:%"gl.shadow.[0-9]+"]], ptr %out, ptr [[DO:%"gl.shadow.[0-9]+"]])
; CHECK:       store double %m, ptr %out
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK-NEXT:  [[M:%"gl.m.[0-9]+"]] = load double, ptr [[DO]]
; CHECK-NEXT:  store double 0x0000000000000000, ptr [[DO]]
; CHECK:       load double, ptr [[DX]]
