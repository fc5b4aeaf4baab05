; Reverse mode, getelementptr on a dup pointer: the same GEP is made on the shadow in the forward
; sweep, and the adjoint of the load through it goes into that shadow element.
; RUN: %gradlink ad %s -f gl.diffe.f.d_r | FileCheck %s

define double @f(ptr %p) {
entry:
  %q = getelementptr inbounds double, ptr %p, i64 2
  %b = load double, ptr %q
  ret double %b
}

declare double @__enzyme_autodiff(ptr, ...)

define void @df(ptr %p, ptr %dp) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp)
  ret void
}

; CHECK-LABEL: define internal void @"gl.diffe.f.d_r"(
; CHECK-SAME:  ptr %p, ptr [[DP:%"gl.shadow.[0-9]+"]], double %"gl.dret")
; CHECK:       {{^}}entry:
; CHECK-NEXT:  %q = getelementptr inbounds double, ptr %p, i64 2
; CHECK-NEXT:  [[SQ:%"gl.sh.[0-9]+"]] = getelementptr inbounds double, ptr [[DP]], i64 2
; CHECK-NEXT:  %b = load double, ptr %q
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr
; CHECK:       [[OLD:%"gl.m.[0-9]+"]] = load double, ptr [[SQ]], align 8
; CHECK-NEXT:  [[NEW:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[OLD]], [[G]]
; CHECK-NEXT:  store double [[NEW]], ptr [[SQ]], align 8
