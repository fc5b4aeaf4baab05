; Forward mode, an indirect call on active data: a select chain comparing the called pointer with
; every address-taken function of the call's type picks its forward pair function.
; RUN: %gradlink ad %s -f gl.fwd.f.dc_r | FileCheck %s

declare double @llvm.sin.f64(double)
declare double @llvm.cos.f64(double)

define double @s(double %x) {
entry:
  %r = call double @llvm.sin.f64(double %x)
  ret double %r
}

define double @c(double %x) {
entry:
  %r = call double @llvm.cos.f64(double %x)
  ret double %r
}

@table = global [2 x ptr] [ptr @s, ptr @c]

define double @f(double %x, i64 %k) {
entry:
  %p = getelementptr [2 x ptr], ptr @table, i64 0, i64 %k
  %fp = load ptr, ptr %p
  %y = call double %fp(double %x)
  ret double %y
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @df(double %x, double %dx, i64 %k) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, i64 %k)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.fwd.f.dc_r"(double %x, double %"gf.darg.0.0", i64 %k)
; CHECK:       %fp = load ptr, ptr %p
; CHECK-NEXT:  [[IS:%"gf.is.[0-9]+"]] = icmp eq ptr %fp, @s
; CHECK-NEXT:  [[F1:%"gf.fn.[0-9]+"]] = select i1 [[IS]], ptr @"gl.fwdpair.s.d_r", ptr @"gl.indirect.unknown.fwd.f.{{[0-9]+}}"
; CHECK-NEXT:  [[IC:%"gf.is.[0-9]+"]] = icmp eq ptr %fp, @c
; CHECK-NEXT:  [[F2:%"gf.fn.[0-9]+"]] = select i1 [[IC]], ptr @"gl.fwdpair.c.d_r", ptr [[F1]]
; CHECK-NEXT:  [[P:%"gf.pair.[0-9]+"]] = call { double, double } [[F2]](double %x, double %"gf.darg.0.0")
; CHECK-NEXT:  %y = extractvalue { double, double } [[P]], 0
; CHECK-NEXT:  [[T:%"gf.t.[0-9]+.0"]] = extractvalue { double, double } [[P]], 1
; CHECK-NEXT:  ret double [[T]]
