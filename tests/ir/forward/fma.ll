; Forward mode, fma: the llvm.fma intrinsic x*y+z: the tangent is dx*y + dy*x + dz.
; RUN: %gradlink ad %s -f gl.fwd.f.ddd_r | FileCheck %s

declare double @llvm.fma.f64(double, double, double)

define double @f(double %x, double %y, double %z) {
entry:
  %r = call double @llvm.fma.f64(double %x, double %y, double %z)
  ret double %r
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, double %y, double %dy, double %z, double %dz) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy, double %z, double %dz)
  ret double %t
}

; CHECK-LABEL: define internal double @"gl.fwd.f.ddd_r"(double %x, double %"gf.darg.0.0", double %y, double %"gf.darg.1.0", double %z, double %"gf.darg.2.0")
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %r = call double @llvm.fma.f64(double %x, double %y, double %z)
; CHECK-NEXT:  [[TX:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.0.0", %y
; CHECK-NEXT:  [[TY:%"gf.fmul.[0-9]+"]] = fmul double %"gf.darg.1.0", %x
; CHECK-NEXT:  [[S1:%"gf.fadd.[0-9]+"]] = fadd double [[TX]], [[TY]]
; CHECK-NEXT:  [[S2:%"gf.fadd.[0-9]+"]] = fadd double [[S1]], %"gf.darg.2.0"
; CHECK-NEXT:  [[R:%"gf.t.[0-9]+.0"]] = fadd double [[S2]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
