; Reverse mode, an integer argument converted with sitofp is inactive: it is made enzyme_const by
; default (signature "oc"), the converted value is only a factor of x's partial, and nothing is
; computed or returned for it.
; RUN: %gradlink ad %s -f gl.diffe.f.oc_r | FileCheck %s

define double @f(double %x, i32 %n) {
entry:
  %c = sitofp i32 %n to double
  %m = fmul double %x, %c
  ret double %m
}

declare double @__enzyme_autodiff(ptr, ...)

define double @df(double %x, i32 %n) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %n)
  ret double %g
}

; CHECK-LABEL: define internal double @"gl.diffe.f.oc_r"(double %x, i32 %n, double %"gl.dret")
; CHECK:       {{"?}}gl.rev.entry{{"?}}:
; CHECK:       [[G:%"gl.g.[0-9]+"]] = load double, ptr
; CHECK-NEXT:  store double 0x8000000000000000
; CHECK-NEXT:  [[D:%"gl.fmul.[0-9]+"]] = fmul double [[G]], %c
; CHECK-NEXT:  [[A:%"gl.a.[0-9]+"]] = load double, ptr [[ADJX:%"gl.adj.[0-9]+"]]
; CHECK-NEXT:  [[S:%"gl.fadd.[0-9]+"]] = fadd reassoc contract double [[A]], [[D]]
; CHECK-NEXT:  store double [[S]], ptr [[ADJX]]
; CHECK-NEXT:  br label %{{"?}}gl.exit{{"?}}
; CHECK:       {{"?}}gl.exit{{"?}}:
; CHECK-NEXT:  [[O:%"gl.out.[0-9]+"]] = load double, ptr [[ADJX]]
; CHECK-NEXT:  [[R:%"gl.out.[0-9]+"]] = fadd double [[O]], 0x0000000000000000
; CHECK-NEXT:  ret double [[R]]
