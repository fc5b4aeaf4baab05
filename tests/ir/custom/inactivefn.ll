; __enzyme_inactivefn = {count}: a call of count taking an active value is kept as it is and
; carries no derivative (no augmented forward or reverse of count).
; RUN: %gradlink ad %s | FileCheck %s

@__enzyme_inactivefn = global [1 x ptr] [ptr @count]
@total = global double 0.0

define void @count(double %v) noinline {
entry:
  %t = load double, ptr @total
  %s = fadd double %t, %v
  store double %s, ptr @total
  ret void
}

define double @f(double %x) {
entry:
  call void @count(double %x)
  %y = fmul double %x, %x
  ret double %y
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-NOT:   @"gl.aug.count
; CHECK-LABEL: define internal double @"gl.diffe.f.o_r"(double %x, double %"gl.dret")
; CHECK:       {{^}}entry:
; CHECK-NEXT:  call void @count(double %x)
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK-NOT:   @count
; CHECK-NOT:   @"gl.rev.count
; CHECK:       {{"?}}gl.exit{{"?}}:
