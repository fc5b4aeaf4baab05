; The split pair of f: gl.aug.f computes the primal and pushes what the reverse needs (v, loaded
; from x, which the caller may change before the reverse); gl.rev.f pops it in its entry, with no
; forward sweep, and recomputes v * s from it for cos.
; RUN: %gradlink ad %s -f gl.aug.f.do_r -f gl.rev.f.do_r | FileCheck %s

declare double @llvm.sin.f64(double)

define double @f(ptr %x, double %s) {
entry:
  %v = load double, ptr %x
  %m = fmul double %v, %s
  %r = call double @llvm.sin.f64(double %m)
  ret double %r
}

declare ptr @__enzyme_augmentfwd(ptr, ...)
declare double @__enzyme_reverse(ptr, ...)

define double @use(ptr %x, ptr %dx, double %s) {
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @f, ptr %x, ptr %dx, double %s)
  %ds = call double (ptr, ...) @__enzyme_reverse(ptr @f, ptr %x, ptr %dx, double %s, double 1.0, ptr %t)
  ret double %ds
}

; CHECK-LABEL: define internal double @"gl.aug.f.do_r"(ptr %x, ptr {{%"gl.shadow.[0-9]+"}}, double %s)
; CHECK:       %v = load double, ptr %x
; CHECK:       %r = call double @llvm.sin.f64(double %m)
; CHECK:       call void @"gl.push.double"(double
; CHECK-NEXT:  ret double %r
; CHECK-LABEL: define internal double @"gl.rev.f.do_r"(
; CHECK-SAME:  ptr %x, ptr [[DX:%"gl.shadow.[0-9]+"]], double %s, double %"gl.dret")
; CHECK:       [[V:%"gl.rec.[0-9]+"]] = call double @"gl.pop.double"()
; CHECK-NEXT:  br label %{{"?}}gl.rev.entry{{"?}}
; CHECK-NEXT:  {{"?}}gl.rev.entry{{"?}}:
; CHECK-NEXT:  [[M:%"gl.rc.[0-9]+"]] = fmul double [[V]], %s
; CHECK:       call double @llvm.cos.f64(double [[M]])
; CHECK:       load double, ptr [[DX]]
; CHECK:       ret double
