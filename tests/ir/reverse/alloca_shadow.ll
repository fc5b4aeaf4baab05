; Reverse mode, a stack array holding an active value: its shadow is an alloca of the same type,
; zeroed with memset, addressed by the same GEPs; the adjoint of the value stored into it comes
; back out of the shadow.
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

define double @f(double %x) {
entry:
  %buf = alloca [2 x double], align 8
  %q = getelementptr inbounds [2 x double], ptr %buf, i64 0, i64 1
  store double %x, ptr %q
  %a = load double, ptr %q
  %m = fmul double %a, %x
  ret double %m
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, double %"gl.dret")
; CHECK:       %buf = alloca [2 x double], align 8
; CHECK-NEXT:  [[SB:%"gl.sh.[0-9]+"]] = alloca [2 x double]
; CHECK-NEXT:  call void @llvm.memset.p0.i64(ptr [[SB]], i8 0, i64 {{.*}}, i1 false)
; CHECK-NEXT:  %q = getelementptr inbounds [2 x double], ptr %buf, i64 0, i64 1
; CHECK-NEXT:  [[SQ:%"gl.sh.[0-9]+"]] = getelementptr inbounds [2 x double], ptr [[SB]], i64 0, i64 1
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[OLD:%"gl.m.[0-9]+"]] = load double, ptr [[SQ]]
; CHECK-NEXT:  [[NEW:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[OLD]], {{%"gl.g.[0-9]+"}}
; CHECK-NEXT:  store double [[NEW]], ptr [[SQ]]
; CHECK-NEXT:  [[M:%"gl.m.[0-9]+"]] = load double, ptr [[SQ]]
; CHECK-NEXT:  store double 0x0000000000000000, ptr [[SQ]]
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  fadd reassoc contract double [[A]], [[M]]
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
