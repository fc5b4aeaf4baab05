; Forward mode, a stack array holding an active value: a zeroed shadow alloca of the same type
; holds the tangents.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

define double @f(double %x) {
entry:
  %buf = alloca [2 x double], align 8
  %q = getelementptr inbounds [2 x double], ptr %buf, i64 0, i64 1
  store double %x, ptr %q
  %a = load double, ptr %q
  %m = fmul double %a, %x
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %buf = alloca [2 x double], align 8
; CHECK-NEXT:  [[SB:%"gf.sh.[0-9]+.0"]] = alloca [2 x double]
; CHECK-NEXT:  call void @llvm.memset.p0.i64(ptr [[SB]], i8 0, i64 {{.*}}, i1 false)
; CHECK-NEXT:  %q = getelementptr inbounds [2 x double], ptr %buf, i64 0, i64 1
; CHECK-NEXT:  [[SQ:%"gf.sh.[0-9]+.0"]] = getelementptr inbounds [2 x double], ptr [[SB]], i64 0, i64 1
; CHECK-NEXT:  store double %x, ptr %q
; CHECK-NEXT:  store double %"gf.darg.0.0", ptr [[SQ]]
; CHECK-NEXT:  %a = load double, ptr %q
; CHECK-NEXT:  {{%"gf.t.[0-9]+.0"}} = load double, ptr [[SQ]]
