; Forward mode, malloc/free of active memory: a calloc'ed shadow of the same size beside the
; malloc, freed beside the free.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

declare ptr @malloc(i64)
declare void @free(ptr)

define double @f(double %x) {
entry:
  %p = call ptr @malloc(i64 8)
  store double %x, ptr %p
  %a = load double, ptr %p
  %m = fmul double %a, %a
  call void @free(ptr %p)
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %p = call ptr @malloc(i64 8)
; CHECK-NEXT:  [[SH:%"gf.sh.[0-9]+.0"]] = call ptr @calloc(i64 1, i64 8)
; CHECK-NEXT:  store double %x, ptr %p
; CHECK-NEXT:  store double %"gf.darg.0.0", ptr [[SH]]
; CHECK-NEXT:  %a = load double, ptr %p
; CHECK-NEXT:  {{%"gf.t.[0-9]+.0"}} = load double, ptr [[SH]]
; CHECK:       call void @free(ptr %p)
; CHECK-NEXT:  call void @free(ptr [[SH]])
