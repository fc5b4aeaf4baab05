; __enzyme_virtualreverse(f), the shadow Enzyme stores for a function pointer, is f: gradlink
; dispatches indirect calls on the primal pointer and never reads a function pointer's shadow.
; RUN: %gradlink ad %s | FileCheck %s

define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

declare ptr @__enzyme_virtualreverse(ptr)

define void @setup(ptr %slot) {
  %d = call ptr @__enzyme_virtualreverse(ptr @sq)
  store ptr %d, ptr %slot
  ret void
}

; CHECK-LABEL: define void @setup(ptr %slot)
; CHECK-NEXT:  %d = getelementptr i8, ptr @sq, i64 0
; CHECK-NEXT:  store ptr %d, ptr %slot
