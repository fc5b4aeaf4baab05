; __enzyme_reverse with a tape object: the request calls a wrapper that installs the object's
; stack, runs the reverse function gl.rev.f with the seed (1.0) as the result's adjoint, frees
; the stack, restores the caller's, and frees the object when it owns it.
; RUN: %gradlink ad %s | FileCheck %s

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

; CHECK-LABEL: define double @use(
; CHECK:       %ds = call double @"gl.revwrap.f.do_r"(ptr %x, ptr %dx, double %s, double {{1.000000e\+00|1.0|0x3FF0000000000000}}, ptr %t)
; CHECK-LABEL: define internal double @"gl.revwrap.f.do_r"(ptr %a0, ptr %a1, double %a2, double %a3, ptr %obj)
; CHECK:       %t.base = load ptr, ptr %f0
; CHECK:       store ptr %t.base, ptr @"gl.tape.base"
; CHECK-NEXT:  store i64 %t.top, ptr @"gl.tape.top"
; CHECK-NEXT:  store i64 %t.cap, ptr @"gl.tape.cap"
; CHECK-NEXT:  %res = call double @"gl.rev.f.do_r"(ptr %a0, ptr %a1, double %a2, double %a3)
; CHECK-NEXT:  %used = load ptr, ptr @"gl.tape.base"
; CHECK-NEXT:  call void @free(ptr %used)
; CHECK:       %owned = load i64, ptr %f3
; CHECK-NEXT:  %mine = icmp ne i64 %owned, 0
; CHECK-NEXT:  br i1 %mine, label %release, label %done
; CHECK:       call void @free(ptr %obj)
; CHECK:       ret double %res
