; __enzyme_allocation_like: a registered allocator is not differentiated. The shadow of what it
; returns comes from the allocator itself, called with the same arguments, zeroed over the
; size argument's bytes (argument 1, an i32, widened); the reverse sweep frees the shadow with
; the registered deallocator, its arguments picked by "0,-1": the allocation's argument 0, then
; the pointer.
; RUN: %gradlink ad %s -f gl.diffe.f.cd_r | FileCheck %s

@.str = private unnamed_addr constant [5 x i8] c"0,-1\00"
@__enzyme_allocation_like = global [4 x ptr] [ptr @pool_alloc, ptr inttoptr (i64 1 to ptr), ptr @.str, ptr @pool_release]

declare ptr @pool_alloc(ptr, i32)
declare void @pool_release(ptr, ptr)

define double @f(ptr %pool, ptr %x) {
entry:
  %p = call ptr @pool_alloc(ptr %pool, i32 8)
  %v = load double, ptr %x
  store double %v, ptr %p
  %a = load double, ptr %p
  %m = fmul double %a, %a
  call void @pool_release(ptr %pool, ptr %p)
  ret double %m
}

declare double @__enzyme_autodiff(ptr, ...)
@enzyme_const = external global i32

define void @df(ptr %pool, ptr %x, ptr %dx) {
  %c = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %c, ptr %pool, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal void @"gl.diffe.f.cd_r"(ptr %pool, ptr %x, ptr %"gl.shadow.1", double %"gl.dret")
; CHECK:       %p = call ptr @pool_alloc(ptr %pool, i32 8)
; CHECK-NEXT:  [[SH:%"gl.sh.[0-9]+"]] = call ptr @pool_alloc(ptr %pool, i32 8)
; CHECK-NEXT:  [[N:%"gl.zext.[0-9]+"]] = zext i32 8 to i64
; CHECK-NEXT:  call void @llvm.memset.p0.i64(ptr [[SH]], i8 0, i64 [[N]], i1 false)
; The primal's release stays where the program has it.
; CHECK:       call void @pool_release(ptr %pool, ptr %p)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK-NOT:   call void @pool_release(ptr %pool, ptr %p)
; CHECK:       call void @pool_release(ptr %pool, ptr [[SH]])
; CHECK-NOT:   @free
; CHECK:       ret void
