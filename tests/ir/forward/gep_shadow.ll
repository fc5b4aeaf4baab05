; Forward mode, getelementptr on a dup pointer: the same GEP on the shadow, and the tangent is
; loaded through it.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

define double @f(ptr %p) {
entry:
  %q = getelementptr inbounds double, ptr %p, i64 2
  %b = load double, ptr %q
  ret double %b
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(ptr %p, ptr %dp) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(
; CHECK-SAME:  ptr %p, ptr [[DP:%"gf.shadow.0.0"]])
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %q = getelementptr inbounds double, ptr %p, i64 2
; CHECK-NEXT:  [[SQ:%"gf.sh.[0-9]+.0"]] = getelementptr inbounds double, ptr [[DP]], i64 2
; CHECK-NEXT:  %b = load double, ptr %q
; CHECK-NEXT:  [[T:%"gf.t.[0-9]+.0"]] = load double, ptr [[SQ]], align 8
; CHECK-NEXT:  ret double [[T]]
