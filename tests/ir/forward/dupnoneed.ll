; Forward mode, enzyme_dupnoneed on the output pointer: signature "n"; the tangent is stored
; through its shadow (the primal store is kept).
; RUN: %gradlink ad %s | FileCheck %s

@enzyme_dupnoneed = external global i32

define void @h(ptr %x, ptr %out) {
entry:
  %a = load double, ptr %x
  %m = fmul double %a, %a
  store double %m, ptr %out
  ret void
}

declare void @__enzyme_fwddiff(ptr, ...)

define void @df(ptr %x, ptr %dx, ptr %o, ptr %do) {
  %n = load i32, ptr @enzyme_dupnoneed
  call void (ptr, ...) @__enzyme_fwddiff(ptr @h, ptr %x, ptr %dx, i32 %n, ptr %o, ptr %do)
  ret void
}

; CHECK-LABEL: define void @df(
; CHECK:       call void @"gl.fwd.h.dn"(ptr %x, ptr %dx, ptr %o, ptr %do)
; CHECK-LABEL: define internal void @"gl.fwd.h.dn"(ptr %x, ptr %"gf.shadow.0.0", ptr %out, ptr %"gf.shadow.1.0")
; CHECK:       [[T:%"gf.t.[0-9]+.0"]] = fadd double
; CHECK-NEXT:  store double %m, ptr %out
; CHECK-NEXT:  store double [[T]], ptr %"gf.shadow.1.0"
