; Reverse mode, phi at an if/else join: the phi's adjoint is moved, on the edge the forward sweep
; came along, to the adjoint of that edge's incoming value (one gl.edge block per predecessor).
; RUN: %gradlink ad %s -f gl.diffe.f.oo_r | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %c = fcmp olt double %x, 0.0
  br i1 %c, label %neg, label %pos
neg:
  %a = fmul double %x, %y
  br label %join
pos:
  %b = fadd double %x, %y
  br label %join
join:
  %r = phi double [ %a, %neg ], [ %b, %pos ]
  ret double %r
}

declare { double, double } @__enzyme_autodiff(ptr, ...)

define { double, double } @df(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; The adjoint slots of %a and %b, read where their adjoints are used:
; CHECK-LABEL: define internal { double, double } @"gl.diffe.f.oo_r"(
; CHECK:       {{"?}}gl.rev.neg{{"?}}:
; CHECK-NEXT:  {{%"gl.g.[0-9]+"}} = load double, ptr [[ADJA:%"gl.adj.[0-9]+"]]
; CHECK:       {{"?}}gl.rev.pos{{"?}}:
; CHECK-NEXT:  {{%"gl.g.[0-9]+"}} = load double, ptr [[ADJB:%"gl.adj.[0-9]+"]]
; CHECK:       {{"?}}gl.rev.join{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr [[ADJR:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJR]]
; CHECK:       switch i32 {{%"gl.[a-z]+.[0-9]+"}}, label %[[E0:"?gl.edge.join.[0-9]+"?]] [ i32 1, label %[[E1:"?gl.edge.join.[0-9]+"?]] ]
; CHECK:       [[E0]]:
; CHECK-NEXT:  [[A0:%"gl.a.[0-9]+"]] = load double, ptr [[ADJA]]
; CHECK-NEXT:  [[S0:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A0]], [[G]]
; CHECK-NEXT:  store double [[S0]], ptr [[ADJA]]
; CHECK-NEXT:  br label %{{"?}}gl.rev.neg{{"?}}
; CHECK:       [[E1]]:
; CHECK-NEXT:  [[A1:%"gl.a.[0-9]+"]] = load double, ptr [[ADJB]]
; CHECK-NEXT:  [[S1:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A1]], [[G]]
; CHECK-NEXT:  store double [[S1]], ptr [[ADJB]]
; CHECK-NEXT:  br label %{{"?}}gl.rev.pos{{"?}}
