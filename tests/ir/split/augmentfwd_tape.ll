; __enzyme_augmentfwd returning the tape (ptr): the request calls a wrapper that swaps in a fresh,
; empty tape stack, runs the augmented forward gl.aug.f, moves the filled stack into a 32-byte
; object {base, top, cap, owned} (malloc'ed when no memory is given: null), restores the caller's
; stack and returns the object.
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
; CHECK-NEXT:  %t = call ptr @"gl.augwrap.f.do_r.tape"(ptr %x, ptr %dx, double %s, ptr null)
; CHECK-LABEL: define internal ptr @"gl.augwrap.f.do_r.tape"(ptr %a0, ptr %a1, double %a2, ptr %mem)
; CHECK:       %old.base = load ptr, ptr @"gl.tape.base"
; CHECK:       store ptr null, ptr @"gl.tape.base"
; CHECK-NEXT:  store i64 0, ptr @"gl.tape.top"
; CHECK-NEXT:  store i64 0, ptr @"gl.tape.cap"
; CHECK-NEXT:  call double @"gl.aug.f.do_r"(ptr %a0, ptr %a1, double %a2)
; CHECK-NEXT:  %new.base = load ptr, ptr @"gl.tape.base"
; CHECK:       store ptr %old.base, ptr @"gl.tape.base"
; CHECK:       %fresh = call ptr @malloc(i64 32)
; CHECK:       %obj = phi ptr [ %mem, %entry ], [ %fresh, %alloc ]
; CHECK:       store ptr %new.base, ptr %f0
; CHECK:       store i64 %new.top, ptr %f1
; CHECK:       store i64 %new.cap, ptr %f2
; CHECK:       store i64 %owned, ptr %f3
; CHECK-NEXT:  ret ptr %obj
