; Reverse mode, an indirect call on active data: the called pointer is compared with every
; address-taken function of the call's type; a select chain picks its augmented forward in the
; forward sweep and its reverse in the reverse sweep (any other pointer reaches a function that
; stops the program).
; RUN: %gradlink ad %s -f gl.diffe.f.oc_r | FileCheck %s

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

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x, i64 %k) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i64 %k)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.diffe.f.oc_r"(double %x, i64 %k, double %"gl.dret")
; CHECK:       %fp = load ptr, ptr %p
; CHECK-NEXT:  [[IS:%"gl.is.[0-9]+"]] = icmp eq ptr %fp, @s
; CHECK-NEXT:  [[F1:%"gl.fn.[0-9]+"]] = select i1 [[IS]], ptr @"gl.aug.s.o_r", ptr @"gl.indirect.unknown.aug.f.{{[0-9]+}}"
; CHECK-NEXT:  [[IC:%"gl.is.[0-9]+"]] = icmp eq ptr %fp, @c
; CHECK-NEXT:  [[F2:%"gl.fn.[0-9]+"]] = select i1 [[IC]], ptr @"gl.aug.c.o_r", ptr [[F1]]
; CHECK-NEXT:  %y = call double [[F2]](double %x)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[RS:%"gl.is.[0-9]+"]] = icmp eq ptr %fp, @s
; CHECK-NEXT:  [[R1:%"gl.fn.[0-9]+"]] = select i1 [[RS]], ptr @"gl.rev.s.o_r", ptr @"gl.indirect.unknown.rev.f.{{[0-9]+}}"
; CHECK-NEXT:  [[RC:%"gl.is.[0-9]+"]] = icmp eq ptr %fp, @c
; CHECK-NEXT:  [[R2:%"gl.fn.[0-9]+"]] = select i1 [[RC]], ptr @"gl.rev.c.o_r", ptr [[R1]]
; CHECK-NEXT:  [[D:%"gl.radj.[0-9]+"]] = call double [[R2]](double %x, double {{%"gl.g.[0-9]+"}})
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  fadd reassoc contract double [[A]], [[D]]
