; Forward mode, phi at an if/else join: a tangent phi beside the phi, taking each predecessor's
; tangent of the incoming value.
; RUN: %gradlink ad %s -f gl.fwd.f.dd_r | FileCheck %s

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

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, double %y, double %dy) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dd_r"(
; CHECK:       {{^}}neg:
; CHECK:       [[TA:%"gf.t.[0-9]+.0"]] = fadd double
; CHECK-NEXT:  br label %join
; CHECK:       {{^}}pos:
; CHECK:       [[TB:%"gf.t.[0-9]+.0"]] = fadd double
; CHECK-NEXT:  br label %join
; CHECK:       {{^}}join:
; CHECK-NEXT:  %r = phi double [ %a, %neg ], [ %b, %pos ]
; CHECK-NEXT:  [[TR:%"gf.t.[0-9]+.0"]] = phi double [ [[TA]], %neg ], [ [[TB]], %pos ]
; CHECK-NEXT:  ret double [[TR]]
