; Forward mode, __enzyme_allocation_like: the registered allocator makes the shadow (same
; arguments, then zeroed over the size argument's bytes), and where the program calls the
; deallocator, it is called again for the shadow, with the shadow in the pointer's place.
; RUN: %gradlink ad %s -f gl.fwd.f.cd_r | FileCheck %s

@.str = private unnamed_addr constant [5 x i8] c"0,-1\00"
@__enzyme_allocation_like = global [4 x ptr] [ptr @pool_alloc, ptr inttoptr (i64 1 to ptr), ptr @.str, ptr @pool_release]

declare ptr @pool_alloc(ptr, i64)
declare void @pool_release(ptr, ptr)

define double @f(ptr %pool, ptr %x) {
entry:
  %p = call ptr @pool_alloc(ptr %pool, i64 8)
  %v = load double, ptr %x
  store double %v, ptr %p
  %a = load double, ptr %p
  %m = fmul double %a, %a
  call void @pool_release(ptr %pool, ptr %p)
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)
@enzyme_const = external global i32

define double @df(ptr %pool, ptr %x, ptr %dx) {
  %c = load i32, ptr @enzyme_const
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %c, ptr %pool, ptr %x, ptr %dx)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.cd_r"(ptr %pool, ptr %x, ptr %"gf.shadow.1.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %p = call ptr @pool_alloc(ptr %pool, i64 8)
; CHECK-NEXT:  [[SH:%"gf.sh.[0-9]+.0"]] = call ptr @pool_alloc(ptr %pool, i64 8)
; CHECK-NEXT:  call void @llvm.memset.p0.i64(ptr [[SH]], i8 0, i64 8, i1 false)
; CHECK:       call void @pool_release(ptr %pool, ptr %p)
; CHECK-NEXT:  call void @pool_release(ptr %pool, ptr [[SH]])
; CHECK-NOT:   @free
; CHECK:       ret
