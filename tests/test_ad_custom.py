"""Custom derivatives with Enzyme's registration conventions: a registered gradient and tangent
make an undifferentiable body (bit tricks) usable, __enzyme_function_like reuses a built-in
rule, __enzyme_inactivefn and __enzyme_inactive_global silence side computations, and a
registration whose signature does not match is a clear link error."""

from __future__ import annotations

import math
from pathlib import Path

from toolchain import compile_c, link, sh

COMMON = r"""
#include <math.h>
#include <stdio.h>
#include <string.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
/* the fast inverse square root: bit tricks no AD can see through */
__attribute__((noinline)) double rsqrt(double x) {
  long i; double y = x;
  memcpy(&i, &y, 8); i = 0x5fe6eb50c7b537a9 - (i >> 1); memcpy(&y, &i, 8);
  for (int k = 0; k < 4; k++) y = y * (1.5 - 0.5 * x * y * y);
  return y;
}
"""

GOOD = COMMON + r"""
void *aug_rsqrt(double x) { (void)x; return NULL; }
double rev_rsqrt(double x, double dret, void *tape) { (void)tape; return dret * -0.5 * pow(x, -1.5); }
double fwd_rsqrt(double x, double dx) { return dx * -0.5 * pow(x, -1.5); }
void *__enzyme_register_gradient_rsqrt[3] = {(void *)rsqrt, (void *)aug_rsqrt, (void *)rev_rsqrt};
void *__enzyme_register_derivative_rsqrt[2] = {(void *)rsqrt, (void *)fwd_rsqrt};

/* a pointer argument: the augmented forward and reverse get its shadow */
__attribute__((noinline)) void scale(double *v, double s) { for (int i = 0; i < 3; i++) v[i] *= s; }
void *aug_scale(double *v, double *dv, double s) { (void)dv; scale(v, s); return NULL; }
double rev_scale(double *v, double *dv, double s, void *tape) {
  (void)tape; double ds = 0;                 /* v was scaled in place: v / s is the old value */
  for (int i = 0; i < 3; i++) { ds += dv[i] * v[i] / s; dv[i] *= s; }
  return ds;
}
void *__enzyme_register_gradient_scale[3] = {(void *)scale, (void *)aug_scale, (void *)rev_scale};

__attribute__((noinline)) double mylog1p(double x) { return log(1 + x); }
void *__enzyme_function_like[2] = {(void *)mylog1p, (void *)"log1p"};

double ncalls;                              /* statistics: no derivative flows through them */
__attribute__((noinline)) void count(double v) { ncalls += v; }
void *__enzyme_inactivefn[1] = {(void *)count};
double last;
void *__enzyme_inactive_global[1] = {(void *)&last};

double f(double x) { count(x); last = x; return rsqrt(x) * x + mylog1p(x); }
double g(double s) { double v[3] = {1, 2, 3}; scale(v, s); return v[0] * v[1] + v[2]; }

int main(void) {
  printf("%.17g\n", __enzyme_autodiff((void *)f, 4.0));
  printf("%.17g\n", __enzyme_fwddiff((void *)f, 4.0, 1.0));
  printf("%.17g\n", __enzyme_autodiff((void *)g, 1.5));
  return 0;
}
"""


def test_registered_derivatives(tmp_path: Path) -> None:
    (tmp_path / "c.c").write_text(GOOD)
    obj = compile_c(tmp_path / "c.c", tmp_path / "c.o", "-O2", "-flto")
    link([obj, "-lm"], tmp_path / "c").check()
    rev, fwd, dg = (float(v) for v in sh([tmp_path / "c"]).check().stdout.split())
    want = 0.5 / math.sqrt(4.0) + 1 / (1 + 4.0)        # d/dx [x^-1/2 x + log1p x]
    assert math.isclose(rev, want, rel_tol=1e-12) and math.isclose(fwd, want, rel_tol=1e-12)
    assert math.isclose(dg, 2 * 1.5 * 2 + 3, rel_tol=1e-12)   # g(s) = 2 s^2 + 3 s


def test_without_registration_the_bit_trick_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "c.c").write_text(COMMON + r"""
double f(double x) { return rsqrt(x) * x; }
int main(void) { printf("%g\n", __enzyme_autodiff((void *)f, 4.0)); return 0; }
""")
    obj = compile_c(tmp_path / "c.c", tmp_path / "c.o", "-O2", "-flto")
    res = link([obj, "-lm"], tmp_path / "c")
    assert res.returncode != 0 and "cannot differentiate rsqrt" in res.stderr
    assert "Traceback" not in res.stderr and not (tmp_path / "c").exists()


def test_mismatched_registration_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "c.c").write_text(COMMON + r"""
void *aug_rsqrt(double x) { (void)x; return NULL; }
double rev_rsqrt(double x, void *tape) { (void)tape; return -0.5 * pow(x, -1.5); }  /* no dret */
void *__enzyme_register_gradient_rsqrt[3] = {(void *)rsqrt, (void *)aug_rsqrt, (void *)rev_rsqrt};
double f(double x) { return rsqrt(x) * x; }
int main(void) { printf("%g\n", __enzyme_autodiff((void *)f, 4.0)); return 0; }
""")
    obj = compile_c(tmp_path / "c.c", tmp_path / "c.o", "-O2", "-flto")
    res = link([obj, "-lm"], tmp_path / "c")
    assert res.returncode != 0
    assert "ld.gradlink: error: the reverse rev_rsqrt of rsqrt takes 2 argument(s); expected 3" \
        in res.stderr
    assert "Traceback" not in res.stderr


def test_registered_gradient_of_a_closed_source_function(tmp_path: Path) -> None:
    """The function's body is in a native object (no bitcode): only its registered derivative
    makes the program differentiable."""
    (tmp_path / "lib.c").write_text("#include <math.h>\ndouble softplus(double x) { return log1p(exp(x)); }\n")
    sh(["clang-22", "-O2", "-c", tmp_path / "lib.c", "-o", tmp_path / "lib.o"]).check()   # native
    (tmp_path / "m.c").write_text(r"""
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double softplus(double x);
void *aug_softplus(double x) { (void)x; return 0; }
double rev_softplus(double x, double dret, void *tape) { (void)tape; return dret / (1 + exp(-x)); }
void *__enzyme_register_gradient_softplus[3] = {(void *)softplus, (void *)aug_softplus,
                                                (void *)rev_softplus};
double loss(double x) { return softplus(2 * x) * x; }
int main(void) { printf("%.17g\n", __enzyme_autodiff((void *)loss, 0.3)); return 0; }
""")
    obj = compile_c(tmp_path / "m.c", tmp_path / "m.o", "-O2", "-flto")
    link([obj, tmp_path / "lib.o", "-lm"], tmp_path / "m").check()
    got = float(sh([tmp_path / "m"]).check().stdout)
    x = 0.3
    want = math.log1p(math.exp(2 * x)) + x * 2 / (1 + math.exp(-2 * x))
    assert math.isclose(got, want, rel_tol=1e-12)
