; Reverse mode, a loop-carried phi (v = phi [x, entry], [w, loop]): in the reverse header the
; phi's adjoint goes to w's adjoint on the back edge (another iteration to undo) and to x's on the
; edge from the entry (the count reached 0).
; RUN: %gradlink ad %s -f gl.diffe.f.o_r | FileCheck %s

define double @f(double %x) {
entry:
  br label %loop
loop:
  %v = phi double [ %x, %entry ], [ %w, %loop ]
  %w = fmul double %v, %v
  %c = fcmp olt double %w, 100.0
  br i1 %c, label %loop, label %exit
exit:
  ret double %w
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(
; CHECK:       {{"?}}gl.rev.loop{{"?}}:
; CHECK:       [[GW:%"gl.g.[0-9]+"]] = load double, ptr [[ADJW:%"gl.adj.[0-9]+"]]
; CHECK:       [[GV:%"gl.g.[0-9]+"]] = load double, ptr [[ADJV:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  store double 0x8000000000000000, ptr [[ADJV]]
; CHECK:       br i1 {{%"gl.first.[0-9]+"}}, label %[[TOENTRY:"?gl.edge.loop.[0-9]+"?]], label %[[BACK:"?gl.edge.loop.[0-9]+"?]]
; CHECK:       [[TOENTRY]]:
; CHECK-NEXT:  [[AX:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[SX:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AX]], [[GV]]
; CHECK-NEXT:  store double [[SX]], ptr [[ADJX]]
; CHECK-NEXT:  br label %{{"?}}gl.rev.entry{{"?}}
; CHECK:       [[BACK]]:
; CHECK-NEXT:  [[AW:%"gl.a.[0-9]+"]] = load double, ptr [[ADJW]]
; CHECK-NEXT:  [[SW:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[AW]], [[GV]]
; CHECK-NEXT:  store double [[SW]], ptr [[ADJW]]
; CHECK-NEXT:  br label %{{"?}}gl.rev.loop{{"?}}
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  load double, ptr [[ADJX]]
