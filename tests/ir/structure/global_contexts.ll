; Enzyme's contexts for global shadows: each __enzyme_context call site is a context made at
; link time (@gl.context.N.wW); __enzyme_shadow(ctx, &g, lane) is the address of g's shadow in
; it, the request with enzyme_context uses the context's shadows and zeroes none of them (the
; descriptor pointing to the table gets one, so the table's adjoint is reached through it), and
; __enzyme_zero_shadows(ctx) calls a function resetting them: floats zero, the descriptor's
; length kept and its pointer to the table's shadow stored back.
; RUN: %gradlink ad %s | FileCheck %s

@scale = global double 2.0
@table = global [2 x double] [double 1.0, double 3.0]
@desc = global { ptr, i64 } { ptr @table, i64 2 }
@enzyme_context = external global i32

define double @f(double %x) {
  %s = load double, ptr @scale
  %base = load ptr, ptr @desc
  %t = load double, ptr %base
  %a = fmul double %s, %x
  %b = fmul double %a, %t
  ret double %b
}

declare ptr @__enzyme_context(i32)
declare ptr @__enzyme_shadow(...)
declare void @__enzyme_zero_shadows(ptr)
declare double @__enzyme_autodiff(...)

define double @main_like(ptr %out) {
  %ctx = call ptr @__enzyme_context(i32 1)
  %ds = call ptr (...) @__enzyme_shadow(ptr %ctx, ptr @scale, i32 0)
  %dt = call ptr (...) @__enzyme_shadow(ptr %ctx, ptr getelementptr inbounds (i8, ptr @table, i64 8), i32 0)
  call void @__enzyme_zero_shadows(ptr %ctx)
  %m = load i32, ptr @enzyme_context
  %d = call double (...) @__enzyme_autodiff(ptr @f, i32 %m, ptr %ctx, double 1.5)
  store ptr %dt, ptr %out
  ret double %d
}

; CHECK-LABEL: define double @main_like(ptr %out)
; CHECK-NEXT:  %ctx = getelementptr i8, ptr @gl.context.1.w1, i64 0
; CHECK-NEXT:  %ds = getelementptr i8, ptr @gl.shadow.c1.0.scale, i64 0
; CHECK-NEXT:  %dt = getelementptr i8, ptr getelementptr inbounds (i8, ptr @gl.shadow.c1.0.table, i64 8), i64 0
; CHECK-NEXT:  call void @gl.zero_shadows.c1()
; CHECK-NOT:   memset
; CHECK:       call double @"gl.diffe.f.o_r_c1"(double 1.5
; CHECK-LABEL: define internal double @"gl.diffe.f.o_r_c1"
; CHECK:       %"gl.sh.0" = load ptr, ptr @gl.shadow.c1.0.desc
; CHECK:       store double {{.*}}, ptr %"gl.sh.0"
; CHECK:       store double {{.*}}, ptr @gl.shadow.c1.0.scale
; CHECK:       @gl.shadow.c1.0.desc = internal global { ptr, i64 } { ptr @gl.shadow.c1.0.table, i64 2 }
; CHECK-LABEL: define internal void @gl.zero_shadows.c1()
; CHECK:       call void @llvm.memset.p0.i64(ptr @gl.shadow.c1.0.desc, i8 0, i64 16, i1 false)
; CHECK-NEXT:  store ptr @gl.shadow.c1.0.table, ptr getelementptr inbounds ({ ptr, i64 }, ptr @gl.shadow.c1.0.desc, i64 0, i32 0)
; CHECK-NEXT:  store i64 2, ptr getelementptr inbounds ({ ptr, i64 }, ptr @gl.shadow.c1.0.desc, i64 0, i32 1)
; CHECK:       call void @llvm.memset.p0.i64(ptr @gl.shadow.c1.0.scale, i8 0, i64 8, i1 false)
; CHECK:       @gl.context.1.w1 = internal global [1 x i8] zeroinitializer
