; A differentiated callee is split into an augmented forward and a reverse function: the augmented
; forward computes the primal and pushes what its reverse needs (sin(a)) on the tape; the reverse
; pops it in its entry and has no forward sweep of its own.
; RUN: %gradlink ad %s -f gl.aug.g.o_r -f gl.rev.g.o_r | FileCheck %s

declare double @llvm.sin.f64(double)

define double @g(double %a) {
entry:
  %s = call double @llvm.sin.f64(double %a)
  %m = fmul double %s, %a
  ret double %m
}

define double @f(double %x) {
entry:
  %y = call double @g(double %x)
  %z = fmul double %y, %y
  ret double %z
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.aug.g.o_r"(double %a)
; CHECK:       %s = call double @llvm.sin.f64(double %a)
; CHECK:       %m = fmul double %s, %a
; CHECK:       call void @"gl.push.double"(double
; CHECK-NEXT:  ret double %m

; CHECK-LABEL: define internal double @"gl.rev.g.o_r"(double %a, double %"gl.dret")
; CHECK:       [[S:%"gl.rec.[0-9]+"]] = call double @"gl.pop.double"()
; CHECK-NEXT:  br label %{{"?}}gl.rev.entry{{"?}}
; CHECK-NOT:   call double @llvm.sin.f64
; CHECK:       fmul double {{%"gl.g.[0-9]+"}}, [[S]]
; CHECK:       call double @llvm.cos.f64(double %a)
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK:       ret double
