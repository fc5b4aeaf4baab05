; Forward mode, a loop-carried phi: a tangent phi taking dx from the entry and w's tangent from the
; back edge.
; RUN: %gradlink ad %s -f gl.fwd.f.d_r | FileCheck %s

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

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.d_r"(double %x, double %"gf.darg.0.0")
; CHECK:       {{^}}loop:
; CHECK-NEXT:  %v = phi double [ %x, %entry ], [ %w, %loop ]
; CHECK-NEXT:  [[TV:%"gf.t.[0-9]+.0"]] = phi double [ %"gf.darg.0.0", %entry ], [ [[TW:%"gf.t.[0-9]+.0"]], %loop ]
; CHECK-NEXT:  %w = fmul double %v, %v
; CHECK-NEXT:  [[A:%"gf.fmul.[0-9]+"]] = fmul double [[TV]], %v
; CHECK-NEXT:  [[B:%"gf.fmul.[0-9]+"]] = fmul double [[TV]], %v
; CHECK-NEXT:  [[S:%"gf.fadd.[0-9]+"]] = fadd double [[A]], [[B]]
; CHECK-NEXT:  [[TW]] = fadd double [[S]], 0x0000000000000000
; CHECK:       {{^}}exit:
; CHECK-NEXT:  ret double [[TW]]
