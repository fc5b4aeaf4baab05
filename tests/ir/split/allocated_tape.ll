; enzyme_allocated 32, enzyme_tape m: the tape object lives in the caller's memory m, passed to
; the augmented-forward wrapper instead of null and to the reverse wrapper as its tape.
; RUN: %gradlink ad %s | FileCheck %s

@enzyme_allocated = external global i32
@enzyme_tape = external global i32

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

define double @use(ptr %x, ptr %dx, double %s, ptr %m) {
  %al = load i32, ptr @enzyme_allocated
  %tp = load i32, ptr @enzyme_tape
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @f, i32 %al, i64 32, i32 %tp, ptr %m, ptr %x, ptr %dx, double %s)
  %ds = call double (ptr, ...) @__enzyme_reverse(ptr @f, i32 %al, i64 32, i32 %tp, ptr %m, ptr %x, ptr %dx, double %s, double 1.0)
  ret double %ds
}

; CHECK-LABEL: define double @use(
; CHECK:       %t = call ptr @"gl.augwrap.f.do_r.tape"(ptr %x, ptr %dx, double %s, ptr %m)
; CHECK-NEXT:  %ds = call double @"gl.revwrap.f.do_r"(ptr %x, ptr %dx, double %s, double {{.*}}, ptr %m)
