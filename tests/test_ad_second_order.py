"""Second order: forward over reverse (a Hessian-vector product: __enzyme_fwddiff of a function
that calls __enzyme_autodiff) and reverse over forward, against analytic values and finite
differences of the gradient."""

from __future__ import annotations

import math
from pathlib import Path

from toolchain import compile_c, link, sh

SRC = r"""
#include <stdio.h>
#include <math.h>
extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[i]) * x[(i + 1) % n] + x[i] * x[i] * x[i];
  return s;
}
void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}
double h(double x) { return x * x * x * sin(x); }
double dh(double x) { return __enzyme_autodiff((void *)h, x); }
double th(double x) { return __enzyme_fwddiff((void *)h, x, 1.0); }
int main(void) {
  double x[3] = {0.5, 1.0, 1.5}, v[3] = {1, 0.5, -1}, g[3], hv[3] = {0};
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dupnoneed, g, hv, enzyme_const, 3);
  for (int i = 0; i < 3; i++) printf("%.17g\n", hv[i]);
  printf("%.17g\n%.17g\n", __enzyme_fwddiff((void *)dh, 0.7, 1.0), __enzyme_autodiff((void *)th, 0.7));
  return 0;
}
"""


def hessian_vector(x: list[float], v: list[float]) -> list[float]:
    n = len(x)
    hv = [0.0] * n
    for i in range(n):
        j = (i + 1) % n
        # f_i = sin(x_i) x_j + x_i^3
        hv[i] += (-math.sin(x[i]) * x[j] + 6 * x[i]) * v[i] + math.cos(x[i]) * v[j]
        hv[j] += math.cos(x[i]) * v[i]
    return hv


def test_second_order(tmp_path: Path) -> None:
    (tmp_path / "s.c").write_text(SRC)
    obj = compile_c(tmp_path / "s.c", tmp_path / "s.o", "-O2", "-flto")
    link([obj, "-lm"], tmp_path / "s").check()
    out = [float(v) for v in sh([tmp_path / "s"]).check().stdout.split()]
    for got, want in zip(out[:3], hessian_vector([0.5, 1.0, 1.5], [1, 0.5, -1])):
        assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12)
    x = 0.7
    want = 6 * x * math.sin(x) + 6 * x * x * math.cos(x) - x ** 3 * math.sin(x)
    assert math.isclose(out[3], want, rel_tol=1e-12)     # forward over reverse
    assert math.isclose(out[4], want, rel_tol=1e-12)     # reverse over forward


SRC_MANY = r"""
#include <stdio.h>
#include <math.h>
extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
/* three library results cached per iteration: the reverse pushes them after one capacity
   check (gl.tape.ensure + gl.upush), which forward over reverse must mirror */
double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[i]) * cos(x[i]) * exp(x[(i + 1) % n]);
  return s;
}
void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}
int main(void) {
  double x[4] = {0.5, 1.0, -0.3, 0.2}, v[4] = {1, 0.5, -1, 2}, g[4], hv[4] = {0};
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dupnoneed, g, hv, enzyme_const, 4);
  for (int i = 0; i < 4; i++) printf("%.17g\n", hv[i]);
  return 0;
}
"""


def test_forward_over_reverse_with_batched_pushes(tmp_path: Path) -> None:
    (tmp_path / "m.c").write_text(SRC_MANY)
    obj = compile_c(tmp_path / "m.c", tmp_path / "m.o", "-O2", "-Xclang", "-disable-llvm-passes",
                    "-fno-math-errno", "-flto")
    temps = tmp_path / "temps"
    link([obj, "-lm"], tmp_path / "m", f"-Wl,--gradlink-save-temps={temps}").check()
    assert "gl.upush." in (temps / "ad.ll").read_text()
    out = [float(v) for v in sh([tmp_path / "m"]).check().stdout.split()]
    x, v, n = [0.5, 1.0, -0.3, 0.2], [1, 0.5, -1, 2], 4
    # f = sum_i a(x_i) e(x_{i+1}), a = sin cos = sin(2x)/2, e = exp
    a = [math.sin(2 * t) / 2 for t in x]
    a1 = [math.cos(2 * t) for t in x]
    a2 = [-2 * math.sin(2 * t) for t in x]
    e = [math.exp(t) for t in x]
    for i in range(n):
        nx, pv = (i + 1) % n, (i - 1) % n
        want = (a2[i] * e[nx] + a[pv] * e[i]) * v[i] + a1[i] * e[nx] * v[nx] + a1[pv] * e[i] * v[pv]
        assert math.isclose(out[i], want, rel_tol=1e-12, abs_tol=1e-12), (i, out[i], want)


ALL_FOUR = r"""
#include <math.h>
#include <stdio.h>
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
double f(double x) { return fabs(-x * x) + sin(x) * x; }
double df(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
double gf(double x) { return __enzyme_autodiff((void *)f, x); }
int main(void) {
  double xs[2] = {0.0, 1.5};
  for (int i = 0; i < 2; i++)
    printf("%.17g %.17g %.17g %.17g\n", __enzyme_fwddiff((void *)df, xs[i], 1.0),
           __enzyme_autodiff((void *)df, xs[i]), __enzyme_fwddiff((void *)gf, xs[i], 1.0),
           __enzyme_autodiff((void *)gf, xs[i]));
  return 0;
}
"""


def test_every_second_order_combination(tmp_path: Path) -> None:
    """Forward over forward, reverse over forward, forward over reverse, reverse over reverse:
    the outer derivative's names must not collide with the inner one's (its parameters are
    named like the outer synthesis would name its own), and fabs at -0.0 keeps its sign."""
    (tmp_path / "a.c").write_text(ALL_FOUR)
    obj = compile_c(tmp_path / "a.c", tmp_path / "a.o", "-O2", "-flto")
    link([obj, "-lm"], tmp_path / "a").check()
    rows = [[float(v) for v in ln.split()] for ln in sh([tmp_path / "a"]).check().stdout.splitlines()]
    for x, row in zip([0.0, 1.5], rows):
        want = 2 + 2 * math.cos(x) - x * math.sin(x)      # (x^2 + x sin x)''
        for v in row:
            assert math.isclose(v, want, rel_tol=1e-12), (x, row)


ITER_SRC = r"""
#include <math.h>
#include <stdint.h>
#include <stdio.h>
uint64_t __enzyme_iter(uint64_t, uint64_t);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
__attribute__((noinline)) static double fact(uint64_t n) {
  double f = 1;
  for (uint64_t i = 2; i <= n; i++) f *= i;
  return f;
}
/* exp(x) by its Taylor series up to x^n: each order of differentiation drops a term, so
   __enzyme_iter adds one per order (n = 3 in the primal, 4 in d1, 5 in d2 and t2) */
static double series(double x) {
  uint64_t n = __enzyme_iter(3, 1);
  double s = 0;
  for (uint64_t i = 0; i <= n; i++) s += pow(x, (double)i) / fact(i);
  return s;
}
static double d1(double x) { return __enzyme_autodiff((void *)series, x); }
static double t1(double x) { return __enzyme_fwddiff((void *)series, x, 1.0); }
static double d2(double x) { return __enzyme_fwddiff((void *)d1, x, 1.0); }
static double t2(double x) { return __enzyme_autodiff((void *)t1, x); }
int main(void) {
  printf("%.17g %.17g %.17g %.17g %.17g\n", series(0.5), d1(0.5), t1(0.5), d2(0.5), t2(0.5));
  return 0;
}
"""


def test_enzyme_iter_grows_with_the_order(tmp_path: Path) -> None:
    """__enzyme_iter(n, k) is n in code no derivative copied and grows by k with each order of
    differentiation (Enzyme's convention for truncated series): every derivative of the series
    of exp keeps the primal's four terms."""
    (tmp_path / "it.c").write_text(ITER_SRC)
    obj = compile_c(tmp_path / "it.c", tmp_path / "it.o", "-O2", "-flto")
    link([obj, "-lm"], tmp_path / "it").check("gradlink link")
    values = [float(v) for v in sh([tmp_path / "it"]).check().stdout.split()]
    four_terms = sum(0.5 ** i / math.factorial(i) for i in range(4))
    for v in values:
        assert math.isclose(v, four_terms, rel_tol=1e-15), values
