; __enzyme_function_like = {mylog1p, "log1p"}: calls of mylog1p use the built-in rule of log1p
; (1 / (1 + x)) instead of differentiating its body.
; RUN: %gradlink ad %s | FileCheck %s

@.str = private constant [6 x i8] c"log1p\00"
@__enzyme_function_like = global [2 x ptr] [ptr @mylog1p, ptr @.str]

declare double @llvm.log.f64(double)

define double @mylog1p(double %x) noinline {
entry:
  %a = fadd double %x, 1.0
  %l = call double @llvm.log.f64(double %a)
  ret double %l
}

define double @f(double %x) {
entry:
  %y = call double @mylog1p(double %x)
  ret double %y
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-NOT:   @"gl.aug.mylog1p
; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, double %"gl.dret")
; CHECK:       %y = call double @mylog1p(double %x)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr
; CHECK-NEXT:  store double 0x8000000000000000
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd double 0x3FF0000000000000, %x
; CHECK-NEXT:  [[D:%"gl.fdiv.[0-9]+"]] = fdiv double 0x3FF0000000000000, [[S]]
; CHECK-NEXT:  fmul double [[G]], [[D]]
; CHECK-NOT:   @"gl.rev.mylog1p
