; Forward mode, load through an enzyme_dup pointer: the tangent is loaded from the shadow memory
; at the same place.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

define double @f(ptr %p) {
entry:
  %a = load double, ptr %p
  %m = fmul double %a, %a
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(ptr %p, ptr %dp) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(
; CHECK-SAME:  ptr %p, ptr [[DP:%"gf.shadow.0.0"]])
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %a = load double, ptr %p
; CHECK-NEXT:  [[TA:%"gf.t.[0-9]+.0"]] = load double, ptr [[DP]], align 8
; CHECK-NEXT:  %m = fmul double %a, %a
; CHECK-NEXT:  [[T1:%"gf.fmul.[0-9]+"]] = fmul double [[TA]], %a
; CHECK-NEXT:  [[T2:%"gf.fmul.[0-9]+"]] = fmul double [[TA]], %a
; CHECK-NEXT:  [[S:%"gf.fadd.[0-9]+"]] = fadd double [[T1]], [[T2]]
; CHECK:       ret double
