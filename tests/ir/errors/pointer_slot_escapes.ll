; Refused: an active value stored through a pointer loaded from a stack slot whose address
; escapes (here into a global): something else may write the slot, so the pointer loaded back
; cannot be given a shadow (a slot only this function's loads and stores use would get one:
; tests/ir/reverse/posix_memalign.ll). Also when the slot does not escape but holds a pointer
; without a shadow (an enzyme_const argument): the second RUN.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s
; RUN: grep -v 'store ptr %slot, ptr @g' %s > %t.ll
; RUN: not %gradlink ad %t.ll 2>&1 | FileCheck %s

@g = global ptr null

define double @f(double %x, ptr %buf) {
entry:
  %slot = alloca ptr, align 8
  store ptr %slot, ptr @g
  store ptr %buf, ptr %slot
  %p = load ptr, ptr %slot
  store double %x, ptr %p
  ret double %x
}

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x, ptr %b) {
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %c, ptr %b)
  ret double %r
}

; CHECK: cannot differentiate f: an active value is stored through %p, which has no shadow
