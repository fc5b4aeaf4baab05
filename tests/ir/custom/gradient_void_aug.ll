; A registered gradient whose augmented forward returns void has no tape: nothing is pushed or
; popped, the reverse gets no tape argument; pointer arguments are followed by their shadows.
; RUN: %gradlink ad %s | FileCheck %s

@__enzyme_register_gradient_scale = global [3 x ptr] [ptr @scale, ptr @aug_scale, ptr @rev_scale]

define void @scale(ptr %v, double %s) noinline {
entry:
  %a = load double, ptr %v
  %m = fmul double %a, %s
  store double %m, ptr %v
  ret void
}

define void @aug_scale(ptr %v, ptr %dv, double %s) {
entry:
  call void @scale(ptr %v, double %s)
  ret void
}

define double @rev_scale(ptr %v, ptr %dv, double %s) {
entry:
  ret double 0.0
}

define double @g(double %s, ptr %buf) {
entry:
  store double 2.0, ptr %buf
  call void @scale(ptr %buf, double %s)
  %r = load double, ptr %buf
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)

define double @dg(double %s, ptr %b, ptr %db) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @g, double %s, ptr %b, ptr %db)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.diffe.g.od_r"(
; CHECK-SAME:  double %s, ptr %buf, ptr [[DB:%"gl.shadow.[0-9]+"]], double %"gl.dret")
; CHECK:       call void @"gl.custom.aug.scale"(ptr %buf, ptr [[DB]], double %s)
; CHECK:       [[DS:%"gl.radj.[0-9]+"]] = call double @"gl.custom.rev.scale"(ptr %buf, ptr [[DB]], double %s)
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJS:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  fadd reassoc contract double [[A]], [[DS]]
; CHECK-LABEL: define internal void @"gl.custom.aug.scale"(ptr %a0, ptr %s0, double %a1)
; CHECK-NEXT:  entry:
; CHECK-NEXT:  call void @aug_scale(ptr %a0, ptr %s0, double %a1)
; CHECK-NEXT:  ret void
; CHECK-LABEL: define internal double @"gl.custom.rev.scale"(ptr %a0, ptr %s0, double %a1)
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %adj = call double @rev_scale(ptr %a0, ptr %s0, double %a1)
; CHECK-NEXT:  ret double %adj
