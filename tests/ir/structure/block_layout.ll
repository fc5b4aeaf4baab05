; Layout of a reverse-mode derivative: gl.entry (adjoint slots), the original blocks in order
; (the forward sweep; ret becomes a branch to the reverse of its block), one gl.rev.B block per
; block, edge blocks for phis, and gl.exit, which alone returns.
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

; CHECK-LABEL: define internal { double, double } @"gl.diffe.f.oo_r"(
; CHECK-NEXT:  {{^}}gl.entry:
; CHECK:       br label %entry
; CHECK-NEXT:  {{^}}entry:
; CHECK:       br i1 %c, label %neg, label %pos
; CHECK-NEXT:  {{^}}neg:
; CHECK:       br label %join
; CHECK-NEXT:  {{^}}pos:
; CHECK:       br label %join
; CHECK-NEXT:  {{^}}join:
; CHECK-NEXT:  %r = phi double [ %a, %neg ], [ %b, %pos ]
; CHECK-NEXT:  br label %{{"?}}gl.rev.join{{"?}}
; CHECK-NEXT:  {{"?}}gl.rev.entry{{"?}}:
; CHECK-NEXT:  br label %{{"?}}gl.exit{{"?}}
; CHECK-NEXT:  {{"?}}gl.rev.neg{{"?}}:
; CHECK:       br label %{{"?}}gl.rev.entry{{"?}}
; CHECK-NEXT:  {{"?}}gl.rev.pos{{"?}}:
; CHECK:       br label %{{"?}}gl.rev.entry{{"?}}
; CHECK-NEXT:  {{"?}}gl.rev.join{{"?}}:
; CHECK:       {{"?}}gl.edge.join.0{{"?}}:
; CHECK:       {{"?}}gl.edge.join.1{{"?}}:
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NOT:   {{^}}"?[a-z.0-9]+"?:
; CHECK:       ret { double, double }
; CHECK-NEXT:  }
