; __enzyme_augmentfwd declared to return {tape, primal}: the wrapper's shape "tape+primal" keeps
; the augmented forward's result and returns it beside the tape object.
; RUN: %gradlink ad %s | FileCheck %s

declare double @llvm.sin.f64(double)

define double @f(ptr %x, double %s) {
entry:
  %v = load double, ptr %x
  %m = fmul double %v, %s
  %r = call double @llvm.sin.f64(double %m)
  ret double %r
}

declare { ptr, double } @__enzyme_augmentfwd(ptr, ...)
declare double @__enzyme_reverse(ptr, ...)

define double @use(ptr %x, ptr %dx, double %s) {
  %a = call { ptr, double } (ptr, ...) @__enzyme_augmentfwd(ptr @f, ptr %x, ptr %dx, double %s)
  %t = extractvalue { ptr, double } %a, 0
  %ds = call double (ptr, ...) @__enzyme_reverse(ptr @f, ptr %x, ptr %dx, double %s, double 1.0, ptr %t)
  ret double %ds
}

; CHECK-LABEL: define double @use(
; CHECK-NEXT:  %a = call { ptr, double } @"gl.augwrap.f.do_r.tape+primal"(ptr %x, ptr %dx, double %s, ptr null)
; CHECK-LABEL: define internal { ptr, double } @"gl.augwrap.f.do_r.tape+primal"(ptr %a0, ptr %a1, double %a2, ptr %mem)
; CHECK:       %prim = call double @"gl.aug.f.do_r"(ptr %a0, ptr %a1, double %a2)
; CHECK:       %r0 = insertvalue { ptr, double } poison, ptr %obj, 0
; CHECK-NEXT:  %r1 = insertvalue { ptr, double } %r0, double %prim, 1
; CHECK-NEXT:  ret { ptr, double } %r1
