; Refused: a memcpy whose bytes type analysis cannot classify, with the source line from debug info.
; RUN: not %gradlink ad %s 2>&1 | FileCheck %s

define void @copy(ptr %dst, ptr %src, i64 %n) {
entry:
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %n, i1 false), !dbg !9
  ret void
}
define void @caller(ptr %a, ptr %da, ptr %b, ptr %db) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @copy, ptr %a, ptr %da, ptr %b, ptr %db, i64 64)
  ret void
}
declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
!llvm.dbg.cu = !{!1}
!llvm.module.flags = !{!10}
!1 = distinct !DICompileUnit(language: DW_LANG_C11, file: !2, emissionKind: FullDebug)
!2 = !DIFile(filename: "copy.c", directory: "/src")
!3 = distinct !DISubprogram(name: "copy", scope: !2, file: !2, line: 3, unit: !1, spFlags: DISPFlagDefinition)
!9 = !DILocation(line: 4, column: 3, scope: !3)
!10 = !{i32 2, !"Debug Info Version", i32 3}

; CHECK: cannot differentiate copy at copy.c:4: type analysis cannot tell which bytes of this copy are floating point
; CHECK-NEXT: >>> instruction: call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %n, i1 false)
