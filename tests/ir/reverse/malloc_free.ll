; Reverse mode, malloc/free of active memory: the shadow is a calloc of the same size made right
; after the malloc; the primal free is deferred, and both are freed in the reverse sweep once the
; adjoints have been read out of the shadow.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

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

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, double %"gl.dret")
; CHECK:       %p = call ptr @malloc(i64 8)
; CHECK-NEXT:  [[SH:%"gl.sh.[0-9]+"]] = call ptr @calloc(i64 1, i64 8)
; CHECK-NEXT:  store double %x, ptr %p
; CHECK-NOT:   call void @free
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; The load's adjoint is added into the shadow; the store's is read out of it (and zeroed); then
; the memory is freed.
; CHECK:       [[OLD:%"gl.m.[0-9]+"]] = load double, ptr [[SH]], align 8
; CHECK-NEXT:  [[NEW:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[OLD]], {{%"gl.g.[0-9]+"}}
; CHECK-NEXT:  store double [[NEW]], ptr [[SH]], align 8
; CHECK-NEXT:  [[M:%"gl.m.[0-9]+"]] = load double, ptr [[SH]], align 8
; CHECK-NEXT:  store double 0x0000000000000000, ptr [[SH]], align 8
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A]], [[M]]
; CHECK-NEXT:  store double [[S]], ptr [[ADJX]]
; CHECK-NEXT:  call void @free(ptr [[SH]])
; CHECK-NEXT:  call void @free(ptr %p)
; CHECK-NEXT:  br label %{{"?}}gl.exit{{"?}}
