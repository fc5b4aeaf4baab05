; Reverse mode, a global variable written with an active value and read back: it gets a
; shadow global (zero bytes of its size), zeroed before the derivative is called; the load's
; adjoint goes into it and the store's reverse takes it out.
; RUN: %gradlink ad %s | FileCheck %s

@g = internal global double 0.0

define double @f(double %x) {
entry:
  %m = fmul double %x, %x
  store double %m, ptr @g
  %v = load double, ptr @g
  ret double %v
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-LABEL: define double @df(double %x)
; CHECK-NEXT:  call void @llvm.memset.p0.i64(ptr @gl.shadow.g, i8 0, i64 8, i1 false)
; CHECK-NEXT:  %r = call double @"gl.diffe.f.o_r"(double %x, double 1.0)
; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[OLD:%"gl.m.[0-9]+"]] = load double, ptr @gl.shadow.g
; CHECK:       store double {{%"gl.fadd.[0-9]+"}}, ptr @gl.shadow.g
; CHECK:       load double, ptr @gl.shadow.g
; CHECK-NEXT:  store double 0x0000000000000000, ptr @gl.shadow.g
; CHECK:       @gl.shadow.g = internal global [8 x i8] zeroinitializer, align 16
