; Reverse mode, posix_memalign into a stack slot, the block filled with an active value through
; the pointer loaded back: the call becomes gradlink's allocator @"gl.posix_memalign" (its result
; the error code kept in a thread-local); the slot gets a shadow; the shadow block is made by
; the same allocator (same alignment), zeroed, stored into the slot's shadow, and freed when the
; reverse sweep reaches the allocation.
; RUN: %gradlink ad %s | FileCheck %s

declare i32 @posix_memalign(ptr, i64, i64)
declare void @free(ptr)

define double @f(double %x) {
entry:
  %slot = alloca ptr, align 8
  %e = call i32 @posix_memalign(ptr %slot, i64 64, i64 8)
  %p = load ptr, ptr %slot, align 8
  %m = fmul double %x, %x
  store double %m, ptr %p, align 8
  %v = load double, ptr %p, align 8
  call void @free(ptr %p)
  ret double %v
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"
; CHECK:       [[SSLOT:%"gl[0-9]*.sh.[0-9]+"]] = alloca ptr
; CHECK:       [[P:%"gl.pm.0"]] = call ptr @"gl.posix_memalign"(i64 64, i64 8)
; CHECK-NEXT:  [[SH:%"gl[0-9]*.sh.[0-9]+"]] = call ptr @"gl.posix_memalign"(i64 64, i64 8)
; CHECK-NEXT:  call void @llvm.memset.p0.i64(ptr [[SH]], i8 0, i64 8, i1 false)
; CHECK:       store ptr [[P]], ptr %slot
; CHECK-NEXT:  store ptr [[SH]], ptr [[SSLOT]]
; CHECK:       %e = load i32, ptr @"gl.posix_memalign.err"
; CHECK:       call void @free(ptr [[SH]])
; CHECK:       define internal ptr @"gl.posix_memalign"(i64 %align, i64 %size) {
; CHECK:         call i32 @posix_memalign(ptr {{%"pm.slot.[0-9]+"}}, i64 %align, i64 %size)
; CHECK:       @"gl.posix_memalign.err" = internal thread_local global i32 0
