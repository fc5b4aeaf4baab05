; A recursive function called from the differentiated code gets one augmented/reverse pair that
; calls itself; each return of the augmented forward pushes its record and the id of the exit, and
; the reverse pops both in its entry and switches on the exit id to the reverse of that block.
; RUN: %gradlink ad %s -f gl.aug.p.oc_r -f gl.rev.p.oc_r | FileCheck %s

define double @p(double %x, i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %base, label %rec
base:
  ret double 1.0
rec:
  %m = sub i32 %n, 1
  %r = call double @p(double %x, i32 %m)
  %y = fmul double %r, %x
  ret double %y
}

declare double @__enzyme_autodiff(ptr, ...)

define double @dp(double %x, i32 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @p, double %x, i32 %n)
  ret double %r
}

; CHECK-LABEL: define internal double @"gl.aug.p.oc_r"(double %x, i32 %n)
; CHECK:       {{^}}base:
; CHECK:       call void @"gl.push.i32"(i32 0)
; CHECK-NEXT:  ret double
; CHECK:       {{^}}rec:
; CHECK:       %r = call double @"gl.aug.p.oc_r"(double %x, i32 %m)
; CHECK:       call void @"gl.push.double"(double
; CHECK-NEXT:  call void @"gl.push.i32"(i32 1)
; CHECK-NEXT:  ret double %y
; CHECK-LABEL: define internal double @"gl.rev.p.oc_r"(double %x, i32 %n, double %"gl.dret")
; CHECK:       [[ID:%"gl.exit.id"]] = call i32 @"gl.pop.i32"()
; CHECK-NEXT:  [[R:%"gl.rec.[0-9]+"]] = call double @"gl.pop.double"()
; CHECK-NEXT:  switch i32 [[ID]], label %{{"?}}gl.rev.base{{"?}} [ i32 1, label %{{"?}}gl.rev.rec{{"?}} ]
; CHECK:       {{"?}}gl.rev.rec{{"?}}:
; CHECK:       [[M:%"gl.rc.[0-9]+"]] = sub i32 %n, 1
; CHECK:       fmul double {{%"gl.g.[0-9]+"}}, [[R]]
; CHECK:       call double @"gl.rev.p.oc_r"(double %x, i32 [[M]], double {{%"gl.g.[0-9]+"}})
