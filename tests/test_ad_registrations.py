"""Registrations as Enzyme reads them, and registrations the compiler bypassed before the link.

A registered function R that the compile before the link (clang -O2 -flto) inlined into its
caller is ordinary code in that caller: differentiating it would silently use R's body instead of
the registered derivative. gradlink finds such copies exactly with -g and, without debug
info, refuses every function of R's translation unit that it would differentiate, with the
ways out. The other tests: Enzyme's arity conventions (an augmented forward returning nothing
has no tape and its reverse takes none; a scalar tape; a tangent of a void function with pointer
arguments, with a constant argument at the call), registrations found by the key anywhere in
the global's name, and registrations gradlink cannot interpret stopping the link."""

from __future__ import annotations

import math
from pathlib import Path

from toolchain import compile_c, link, sh

HEAD = r"""
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
"""

# A registration whose derivative differs from the body's (log1p's rule for 2a), so a bypassed
# registration would show as 2 instead of 1/(1+a).
LIKE = HEAD + r"""
NOINLINE double like(double a) { return 2 * a; }
void *__enzyme_function_like[2] = {(void *)like, (void *)"log1p"};
double test(double a) { return like(a) * 3; }
int main(void) { printf("%.17g\n", __enzyme_autodiff((void *)test, 2.0)); return 0; }
"""


def build(tmp: Path, src: str, *flags: str, name: str = "p") -> tuple[int, str, Path]:
    (tmp / f"{name}.c").write_text(src)
    obj = compile_c(tmp / f"{name}.c", tmp / f"{name}.o", "-O2", "-flto", *flags)
    exe = tmp / name
    res = link([obj, "-lm"], exe)
    return res.returncode, res.stderr, exe


def test_inlined_registration_without_debug_info_is_refused(tmp_path: Path) -> None:
    code, err, exe = build(tmp_path, LIKE.replace("NOINLINE", ""))
    assert code != 0 and not exe.exists() and "Traceback" not in err
    assert "cannot differentiate test: like has a registered derivative (__enzyme_function_like)" \
        in err
    assert "__attribute__((noinline))" in err and "-g" in err


def test_inlined_registration_with_debug_info_names_the_line(tmp_path: Path) -> None:
    code, err, exe = build(tmp_path, LIKE.replace("NOINLINE", ""), "-g")
    assert code != 0 and not exe.exists()
    assert "the compiler inlined like into it at " in err and "p.c:10 before the link" in err


def test_noinline_registration_is_used(tmp_path: Path) -> None:
    code, err, exe = build(tmp_path, LIKE.replace("NOINLINE", "__attribute__((noinline))"))
    assert code == 0, err
    assert math.isclose(float(sh([exe]).check().stdout), 3 / (1 + 2.0), rel_tol=1e-14)


def test_debug_info_tells_a_translation_unit_mate_holds_no_copy(tmp_path: Path) -> None:
    """helper sits beside the registered function but never called it: without -g it is
    refused (nobody can tell), with -g it differentiates and the registration is used."""
    src = HEAD + r"""
double like(double a) { return 2 * a; }
void *__enzyme_function_like[2] = {(void *)like, (void *)"log1p"};
__attribute__((noinline)) double helper(double a) { return a * a; }
"""
    main = HEAD + r"""
double like(double a), helper(double a);
double test(double a) { return like(a) + helper(a); }
int main(void) { printf("%.17g\n", __enzyme_autodiff((void *)test, 2.0)); return 0; }
"""
    (tmp_path / "lib.c").write_text(src)
    (tmp_path / "main.c").write_text(main)
    for flags, ok in (((), False), (("-g",), True)):
        lib = compile_c(tmp_path / "lib.c", tmp_path / "lib.o", "-O2", "-flto", *flags)
        obj = compile_c(tmp_path / "main.c", tmp_path / "main.o", "-O2", "-flto")
        res = link([obj, lib, "-lm"], tmp_path / "m")
        if not ok:
            assert res.returncode != 0 and "cannot differentiate helper: like has a registered" \
                in res.stderr
            continue
        assert res.returncode == 0, res.stderr
        got = float(sh([tmp_path / "m"]).check().stdout)
        assert math.isclose(got, 1 / 3.0 + 4.0, rel_tol=1e-14)


def test_registration_in_another_translation_unit_needs_nothing(tmp_path: Path) -> None:
    """The library case: the registered function and its registration in one file, the
    differentiated code in another; no inlining before the link can cross files."""
    (tmp_path / "lib.c").write_text(HEAD + r"""
double like(double a) { return 2 * a; }
void *__enzyme_function_like[2] = {(void *)like, (void *)"log1p"};
""")
    (tmp_path / "main.c").write_text(HEAD + r"""
double like(double a);
double test(double a) { return like(a) * like(a); }
int main(void) { printf("%.17g\n", __enzyme_autodiff((void *)test, 2.0)); return 0; }
""")
    objs = [compile_c(tmp_path / f"{n}.c", tmp_path / f"{n}.o", "-O2", "-flto") for n in ("lib", "main")]
    link([*objs, "-lm"], tmp_path / "m").check()
    got = float(sh([tmp_path / "m"]).check().stdout)
    assert math.isclose(got, 2 * (2 * 2.0) / (1 + 2.0), rel_tol=1e-14)   # 2 like(a) like'(a)


def test_augmented_forward_without_tape(tmp_path: Path) -> None:
    """Enzyme's convention: an augmented forward returning void has no tape, and the reverse
    then takes the arguments and the differential return only."""
    code, err, exe = build(tmp_path, HEAD + r"""
__attribute__((noinline)) float cube(float x) { return x * x * x; }
void aug_cube(float x) { (void)x; }
float rev_cube(float x, float dret) { return 3 * x * x * dret + 1000; }   /* tells it apart */
void *__enzyme_register_gradient_cube[3] = {(void *)cube, (void *)aug_cube, (void *)rev_cube};
double f(double x) { return (double)cube((float)x) * 2; }
int main(void) { printf("%.17g\n", __enzyme_autodiff((void *)f, 1.5)); return 0; }
""")
    assert code == 0, err
    assert math.isclose(float(sh([exe]).check().stdout), 3 * 1.5 * 1.5 * 2 + 1000, rel_tol=1e-6)


def test_scalar_tape(tmp_path: Path) -> None:
    code, err, exe = build(tmp_path, HEAD + r"""
__attribute__((noinline)) double sq(double x) { return x * x; }
double aug_sq(double x) { return 2 * x; }                  /* the tape: the partial */
double rev_sq(double x, double dret, double partial) { (void)x; return partial * dret; }
void *__enzyme_register_gradient_sq[3] = {(void *)sq, (void *)aug_sq, (void *)rev_sq};
double f(double x) { double s = 0; for (int i = 1; i <= 3; i++) s += sq(x * i); return s; }
int main(void) { printf("%.17g\n", __enzyme_autodiff((void *)f, 0.7)); return 0; }
""")
    assert code == 0, err
    assert math.isclose(float(sh([exe]).check().stdout), 2 * 0.7 * (1 + 4 + 9), rel_tol=1e-14)


def test_tangent_of_a_void_function_with_pointers(tmp_path: Path) -> None:
    """Enzyme's forward-mode example shape: a void function of pointers whose tangent takes
    each argument followed by its shadow or tangent and returns nothing; at the second call a
    float argument is constant, and the tangent gets 0 for it."""
    code, err, exe = build(tmp_path, HEAD + r"""
__attribute__((noinline)) void scaled_(const double *src, double k, double *dest) { *dest = *src * *src * k; }
int calls = 0;
void dscaled_(const double *src, const double *d_src, double k, double dk, const double *dest,
              double *d_dest) {
  (void)dest; calls++; *d_dest = 2 * *src * *d_src * k + *src * *src * dk + 0.25;
}
void *__enzyme_register_derivative_scaled[2] = {(void *)scaled_, (void *)dscaled_};
double g(double x, double k) { double y; scaled_(&x, k, &y); return y; }
int main(void) {
  double d1 = __enzyme_fwddiff((void *)g, 3.0, 1.0, 2.0, 0.0);
  double d2 = __enzyme_fwddiff((void *)g, 3.0, 1.0, enzyme_const, 2.0);
  printf("%.17g %.17g %d\n", d1, d2, calls);
  return 0;
}
""")
    assert code == 0, err
    d1, d2, calls = sh([exe]).check().stdout.split()
    assert float(d1) == 2 * 3.0 * 2.0 + 0.25 and float(d2) == 2 * 3.0 * 2.0 + 0.25
    assert calls == "2"


def test_registration_key_inside_a_mangled_name(tmp_path: Path) -> None:
    """A C++ static member holding the registration is mangled; Enzyme finds the key anywhere
    in the name, so gradlink does too."""
    (tmp_path / "c.cpp").write_text(r"""
#include <cstdio>
double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) double like(double a) { return 2 * a; }
struct Rules { static void *__enzyme_function_like[2]; };
void *Rules::__enzyme_function_like[2] = {(void *)like, (void *)"log1p"};
double test(double a) { return like(a); }
int main() { std::printf("%.17g\n", __enzyme_autodiff((void *)test, 2.0)); return 0; }
""")
    obj = compile_c(tmp_path / "c.cpp", tmp_path / "c.o", "-O2", "-flto", compiler="clang++-22")
    link([obj], tmp_path / "c", linker="gradlink").check()
    assert math.isclose(float(sh([tmp_path / "c"]).check().stdout), 1 / 3.0, rel_tol=1e-14)


def test_unsupported_registration_stops_the_link(tmp_path: Path) -> None:
    code, err, exe = build(tmp_path, HEAD + r"""
__attribute__((noinline)) double sq(double x) { return x * x; }
void *aug_sq(double x) { (void)x; return 0; }
double rev_sq(double x, double d, void *t) { (void)t; return 2 * x * d; }
void *__enzyme_register_splitderivative_sq[3] = {(void *)sq, (void *)aug_sq, (void *)rev_sq};
int main(void) { printf("%g\n", __enzyme_autodiff((void *)sq, 2.0)); return 0; }
""")
    assert code != 0 and not exe.exists() and "Traceback" not in err
    assert "__enzyme_register_splitderivative" in err and "not supported" in err


def test_nocache_marker_is_accepted(tmp_path: Path) -> None:
    """enzyme_nocache before an argument promises its memory is not changed between the
    forward and the reverse: a hint gradlink may rely on or not; the gradient is the same."""
    code, err, exe = build(tmp_path, HEAD + r"""
extern int enzyme_nocache;
double f(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }
int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_nocache, enzyme_dup, x, dx, enzyme_const, 3);
  printf("%g %g %g\n", dx[0], dx[1], dx[2]);
  return 0;
}
""")
    assert code == 0, err
    assert sh([exe]).check().stdout.split() == ["2", "4", "6"]


def test_request_on_a_registered_function_uses_the_registration(tmp_path: Path) -> None:
    """A request on the registered function itself (not only calls of it) uses the registered
    gradient and tangent, though the function has a body (until this was fixed, the body was
    differentiated: 6 and 6 here, silently)."""
    code, err, exe = build(tmp_path, HEAD + r"""
__attribute__((noinline)) double sq(double x) { return x * x; }
static void *aug_sq(double x) { (void)x; return 0; }
static double rev_sq(double x, double d, void *t) { (void)x; (void)t; return 42.0 * d; }
static double fwd_sq(double x, double dx) { (void)x; return 7.0 * dx; }
void *__enzyme_register_gradient_sq[3] = {(void *)sq, (void *)aug_sq, (void *)rev_sq};
void *__enzyme_register_derivative_sq[2] = {(void *)sq, (void *)fwd_sq};
int main(void) {
  printf("%g %g\n", __enzyme_autodiff((void *)sq, 3.0), __enzyme_fwddiff((void *)sq, 3.0, 1.0));
  return 0;
}
""")
    assert code == 0, err
    assert sh([exe]).check().stdout.split() == ["42", "7"]


def test_fpopt_logging_hook_is_named_in_a_warning(tmp_path: Path) -> None:
    """A program defining Enzyme's FPOpt hook enzymeLogGrad (which Enzyme's FPOpt builds call
    from derivatives) links, with a warning that gradlink never calls it; the derivative is
    right."""
    src = HEAD + r"""
int calls;
void enzymeLogGrad(const char *id, double grad) { (void)id; (void)grad; calls++; }
double f(double x) { return x * x * 3; }
int main(void) { printf("%.17g %d\n", __enzyme_autodiff((void *)f, 2.0), calls); return 0; }
"""
    code, err, exe = build(tmp_path, src)
    assert code == 0, err
    assert "warning: enzymeLogGrad is defined" in err and "never calls it" in err
    assert sh([exe]).stdout.split() == ["12", "0"]
