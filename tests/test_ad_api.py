"""The Enzyme API at the IR level: metadata markers (as Rust and Fortran front ends emit them),
defaults, result conversion, and the errors that must stop the link instead of guessing."""

from __future__ import annotations

import llvmlite.binding as llvm
import pytest

from gradlink.ad.driver import ADError, differentiate
from gradlink.ir.parse import function_texts

F = """
define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  %s = call double @llvm.sin.f64(double %m)
  ret double %s
}
declare double @llvm.sin.f64(double)
"""


def _run(caller: str, extra: str = "") -> str:
    out = differentiate(F + extra + caller)
    llvm.parse_assembly(out).verify()
    return out


def test_metadata_markers() -> None:
    out = _run("""
define double @caller(double %a, double %b) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_const", double %a, metadata !"enzyme_out", double %b)
  ret double %d
}
declare double @__enzyme_autodiff(ptr, ...)
""")
    caller = function_texts(out)["@caller"]
    assert "@gl.diffe.f.co_r" in caller or '@"gl.diffe.f.co_r"' in caller


def test_defaults_make_both_floats_active_and_return_a_struct() -> None:
    out = _run("""
define { double, double } @caller(double %a, double %b) {
entry:
  %d = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %a, double %b)
  ret { double, double } %d
}
declare { double, double } @__enzyme_autodiff(ptr, ...)
""")
    assert "gl.diffe.f.oo_r" in out


def test_float_result_converted_to_declared_type() -> None:
    out = _run("""
define float @caller(double %a, double %b) {
entry:
  %d = call float (ptr, ...) @__enzyme_autodiff(ptr @f, double %a, metadata !"enzyme_const", double %b)
  ret float %d
}
declare float @__enzyme_autodiff(ptr, ...)
""")
    assert "fptrunc double" in function_texts(out)["@caller"]


@pytest.mark.parametrize("call,message", [
    ('@__enzyme_autodiff(ptr @f, metadata !"enzyme_bogus", double %a, double %b)',
     "unknown activity marker enzyme_bogus"),
    ("@__enzyme_autodiff(ptr @f, double %a)", "wrong argument count"),
    ("@__enzyme_autodiff(ptr @f, double %a, double %b, double %a)", "wrong argument count"),
    ("@__enzyme_autodiff(ptr @nobody, double %a)", "no body in the LTO unit"),
])
def test_request_errors(call: str, message: str) -> None:
    with pytest.raises(ADError, match=message):
        differentiate(F + f"""
define double @caller(double %a, double %b) {{
entry:
  %d = call double (ptr, ...) {call}
  ret double %d
}}
declare double @__enzyme_autodiff(ptr, ...)
declare double @nobody(double)
""")


COPY = """
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
"""


def test_copy_of_memory_of_unknown_type_is_an_error_with_its_source_line() -> None:
    with pytest.raises(ADError) as e:
        differentiate(COPY)
    msg = str(e.value)
    assert "cannot differentiate copy at copy.c:4" in msg
    assert "type analysis cannot tell" in msg and "llvm.memcpy" in msg


def test_float_bits_arithmetic_is_an_error() -> None:
    with pytest.raises(ADError, match="bits of an active float"):
        differentiate("""
define double @absbits(double %x) {
entry:
  %b = bitcast double %x to i64
  %c = and i64 %b, 9223372036854775807
  %r = bitcast i64 %c to double
  ret double %r
}
define double @caller(double %a) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @absbits, double %a)
  ret double %d
}
declare double @__enzyme_autodiff(ptr, ...)
""")


PICK = """
define ptr @pick(ptr %a, i64 %i) noinline {
entry:
  %p = getelementptr double, ptr %a, i64 %i
  ret ptr %p
}
define double @f(ptr %x) {
entry:
  %p = call ptr @pick(ptr %x, i64 1)
  %v = load double, ptr %p
  %r = fmul double %v, 2.0
  ret double %r
}
define void @caller(ptr %x, ptr %dx) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}
declare double @__enzyme_autodiff(ptr, ...)
"""


def test_returned_pointer_into_active_memory_comes_with_its_shadow() -> None:
    """The augmented forward of a function returning a pointer into active memory returns
    {pointer, shadow}; the caller's load adjoint goes through the shadow."""
    texts = function_texts(differentiate(PICK))
    aug = next(t for n, t in texts.items() if "gl.aug.pick" in n)
    assert aug.startswith("define internal { ptr, ptr }") or "{ptr, ptr}" in aug.splitlines()[0]
    diffe = next(t for n, t in texts.items() if "gl.diffe.f" in n)
    assert "extractvalue" in diffe


def test_returned_pointer_into_a_global_gives_the_global_a_shadow() -> None:
    """A callee returning a pointer into a writable global while the caller treats it as
    active: the global gets a shadow (Enzyme's default), which the callee returns; never a
    silent zero."""
    out = differentiate(PICK.replace("  %p = getelementptr double, ptr %a, i64 %i\n  ret ptr %p",
                                     "  %p = getelementptr double, ptr @g, i64 %i\n  ret ptr %p")
                        + "@g = global [4 x double] zeroinitializer\n")
    aug = next(t for n, t in function_texts(out).items() if "gl.aug.pick" in n)
    assert "@gl.shadow.g" in aug and "{ ptr, ptr }" in aug.splitlines()[0]


def test_returned_pointer_into_constant_memory_is_an_error_not_a_zero() -> None:
    """The same into a constant: it cannot have a shadow, so a clean error."""
    with pytest.raises(ADError, match="no shadow"):
        differentiate(PICK.replace("  %p = getelementptr double, ptr %a, i64 %i\n  ret ptr %p",
                                   "  %p = getelementptr double, ptr @g, i64 %i\n  ret ptr %p")
                      + "@g = constant [4 x double] zeroinitializer\n")
