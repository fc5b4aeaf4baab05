; Refused: __enzyme_function_like naming a rule that does not exist.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

@.str = private constant [8 x i8] c"log1pxx\00"
@__enzyme_function_like = global [2 x ptr] [ptr @mylog, ptr @.str]
define double @mylog(double %x) {
entry:
  ret double %x
}
declare double @__enzyme_autodiff(ptr, ...)
define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @mylog, double %x)
  ret double %r
}

; CHECK: __enzyme_function_like names an unknown rule: log1pxx
