"""Forward mode end to end, and its consistency with reverse mode.

For f: R^n -> R^m the dot-product test <u, J v> = <J^T u, v> ties the two modes: J v comes from
__enzyme_fwddiff with tangent v, J^T u from __enzyme_autodiff with output seed u. Each program
also checks against central finite differences.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from toolchain import CC, CXX, compile_c, have, link, sh

HEADER = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
/* F(y, x, K): n inputs, m outputs. Prints u.Jv (forward), (J^T u).v (reverse) and
   u.(F(x+hv)-F(x-hv))/2h (central differences). */
#define DOT_TEST(F, N, M, K)                                                            \
  do {                                                                                \
    double x[N], v[N], u[M], y[M], dy[M], xb[N], yb[M], yp[M], ym[M], xp[N], xm[N];   \
    for (int i = 0; i < N; i++) { x[i] = 0.3 + 0.17 * i; v[i] = sin(1.0 + i); xb[i] = 0; } \
    for (int j = 0; j < M; j++) { u[j] = cos(0.5 + j); yb[j] = u[j]; dy[j] = 0; }     \
    __enzyme_fwddiff((void *)F, enzyme_dupnoneed, y, dy, enzyme_dup, x, v, enzyme_const, K); \
    __enzyme_autodiff((void *)F, enzyme_dupnoneed, y, yb, enzyme_dup, x, xb, enzyme_const, K); \
    double h = 1e-6, a = 0, b = 0, c = 0;                                              \
    for (int i = 0; i < N; i++) { xp[i] = x[i] + h * v[i]; xm[i] = x[i] - h * v[i]; }  \
    F(yp, xp, K); F(ym, xm, K);                                                        \
    for (int j = 0; j < M; j++) { a += u[j] * dy[j]; c += u[j] * (yp[j] - ym[j]) / (2 * h); } \
    for (int i = 0; i < N; i++) b += xb[i] * v[i];                                     \
    printf("%s %.17g %.17g %.17g\n", #F, a, b, c);                                     \
  } while (0)
"""

PROGRAMS = {
    # loops, branches and math
    "branches": r"""
void model(double *y, const double *x, int n) {
  for (int j = 0; j < 3; j++) {
    double s = 0;
    for (int i = 0; i < n; i++) {
      double t = x[i] * (j + 1);
      s += t > 0.8 ? pow(t, 3) : sin(t) + exp(-t);
    }
    y[j] = s / n + (j ? y[j - 1] * x[j] : 0);
  }
}
int main(void) { DOT_TEST(model, 6, 3, 6); return 0; }
""",
    # a vectorized loop (<2 x double>) and a reduction
    "vectorized": r"""
void axpy_norm(double *y, const double *x, int n) {
  double a = 1.5;
  for (int i = 0; i < n; i++) y[i] = a * x[i] + x[n - 1 - i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * y[i];
  y[0] = sqrt(s);
}
int main(void) { DOT_TEST(axpy_norm, 8, 8, 8); return 0; }
""",
    # calls of non-inlined functions, heap temporaries, memcpy
    "calls_and_memory": r"""
__attribute__((noinline)) static double smooth(double a, double b) { return log1p(a * a + b * b); }
void chain(double *y, const double *x, int n) {
  double *t = malloc(n * sizeof *t);
  memcpy(t, x, n * sizeof *t);
  for (int i = 1; i < n; i++) t[i] = smooth(t[i - 1], t[i]) + t[i];
  for (int i = 0; i < n; i++) y[i] = t[i] * tanh(x[i]);
  free(t);
}
int main(void) { DOT_TEST(chain, 5, 5, 5); return 0; }
""",
    # a Newton iteration with a data-dependent trip count
    "newton": r"""
void roots(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++) {
    double r = x[i] > 1 ? x[i] : 1.0;
    for (int it = 0; it < 50 && fabs(r * r - x[i]) > 1e-15 * x[i]; it++) r = 0.5 * (r + x[i] / r);
    y[i] = r * cbrt(x[i] + 1.0);
  }
}
int main(void) { DOT_TEST(roots, 4, 4, 4); return 0; }
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_dot_product_forward_vs_reverse(tmp_path: Path, name: str) -> None:
    src = tmp_path / f"{name}.c"
    src.write_text(HEADER + PROGRAMS[name])
    obj = compile_c(src, tmp_path / f"{name}.o", "-O2", "-flto")
    link([obj, "-lm"], tmp_path / name).check(f"gradlink link of {name}")
    line = sh([tmp_path / name]).check().stdout.split()
    fwd, rev, fd = (float(v) for v in line[1:4])
    assert math.isclose(fwd, rev, rel_tol=1e-10, abs_tol=1e-12), line
    assert math.isclose(fwd, fd, rel_tol=1e-5, abs_tol=1e-7), line


def test_scalar_forward_and_struct_returns(tmp_path: Path) -> None:
    src = tmp_path / "s.c"
    src.write_text(HEADER + r"""
typedef struct { double re, im; } cplx;
__attribute__((noinline)) cplx cmul(cplx a, cplx b) {
  return (cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
double f(double t, double r) {
  cplx z = {r, 0.5}, w = {cos(t), sin(t)};
  for (int i = 0; i < 3; i++) z = cmul(z, w);
  return z.re * z.re + 2 * z.im;
}
double cube_times(double x, double y) { return pow(x, 3) * y; }
float ff(float x) { return sinf(x) * x; }
int main(void) {
  double h = 1e-6;
  printf("%.17g %.17g\n", __enzyme_fwddiff((void *)f, 0.3, 1.0, enzyme_const, 1.2),
         (f(0.3 + h, 1.2) - f(0.3 - h, 1.2)) / (2 * h));
  printf("%.17g\n", __enzyme_fwddiff((void *)cube_times, 2.0, 1.0, enzyme_const, 3.0));
  printf("%.17g\n", __enzyme_fwddiff((void *)cube_times, 2.0, 0.5, 3.0, 2.0));
  printf("%.9g\n", (double)((float (*)(void *, ...))__enzyme_fwddiff)((void *)ff, 0.5f, 1.0f));
  return 0;
}
""")
    obj = compile_c(src, tmp_path / "s.o", "-O2", "-flto")
    link([obj, "-lm"], tmp_path / "s").check()
    out = sh([tmp_path / "s"]).check().stdout.split()
    assert math.isclose(float(out[0]), float(out[1]), rel_tol=1e-6)
    assert float(out[2]) == 36.0                           # 3 x^2 y
    assert float(out[3]) == 0.5 * 36.0 + 2.0 * 8.0         # directional: both inputs move
    assert math.isclose(float(out[4]), math.sin(0.5) + 0.5 * math.cos(0.5), rel_tol=1e-6)


def test_vector_forward_mode_width(tmp_path: Path) -> None:
    """enzyme_width N: one pass gives N tangents (a Jacobian row per lane); shadows per lane."""
    src = tmp_path / "w.c"
    src.write_text(r"""
#include <stdio.h>
#include <math.h>
extern int enzyme_dup, enzyme_const, enzyme_width;
typedef struct { double a, b; } d2;
typedef struct { double a, b, c; } d3;
d2 fwd2(void *, ...) __asm__("__enzyme_fwddiff");
d3 fwd3(void *, ...) __asm__("__enzyme_fwddiff");
double f(double x, double y) { return sin(x) * y + x * x; }
__attribute__((noinline)) double h(double v) { return exp(v) * v; }
double g(const double *x) { double s = 0; for (int i = 0; i < 3; i++) s += h(x[i]) * (i + 1); return s; }
int main(void) {
  d2 r = fwd2((void *)f, enzyme_width, 2, 0.5, 1.0, 0.0, 2.0, 0.0, 1.0);
  printf("%.17g %.17g\n", r.a, r.b);
  double x[3] = {0.1, 0.2, 0.3}, e0[3] = {1, 0, 0}, e1[3] = {0, 1, 0}, e2[3] = {0, 0, 1};
  d3 j = fwd3((void *)g, enzyme_width, 3, enzyme_dup, x, e0, e1, e2);
  printf("%.17g %.17g %.17g\n", j.a, j.b, j.c);
  return 0;
}
""")
    obj = compile_c(src, tmp_path / "w.o", "-O2", "-flto")
    link([obj, "-lm"], tmp_path / "w").check()
    out = [float(v) for v in sh([tmp_path / "w"]).check().stdout.split()]
    assert math.isclose(out[0], 2 * math.cos(0.5) + 1.0, rel_tol=1e-14)
    assert math.isclose(out[1], math.sin(0.5), rel_tol=1e-14)
    for i, x in enumerate([0.1, 0.2, 0.3]):
        assert math.isclose(out[2 + i], (i + 1) * math.exp(x) * (1 + x), rel_tol=1e-14)


def test_forward_and_reverse_agree_on_stack_arrays_and_realloc(tmp_path: Path) -> None:
    """Shadows of variable-length stack arrays and of realloc'ed blocks (shared code of both
    modes): forward <J, v> equals reverse gradient . v, under valgrind."""
    src = tmp_path / "m.c"
    src.write_text(r"""
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
double vla(const double *x, int n) {
  double t[n];
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(t[i]);
  return s;
}
double grow(const double *x, int n) {
  int cap = 1, len = 0;
  double *b = malloc(sizeof(double));
  for (int i = 0; i < n; i++) {
    if (len == cap) { cap *= 2; b = realloc(b, cap * sizeof(double)); }
    b[len++] = x[i] * x[i];
  }
  double s = 0;
  for (int i = 0; i < len; i++) s += sin(b[i]) * (i + 1);
  free(b);
  return s;
}
int main(void) {
  double x[5] = {0.1, 0.2, 0.3, 0.4, 0.5}, v[5] = {1, -1, 0.5, 2, 1}, d[5] = {0}, e[5] = {0};
  double f1 = __enzyme_fwddiff((void *)vla, enzyme_dup, x, v, enzyme_const, 5);
  __enzyme_autodiff((void *)vla, enzyme_dup, x, d, enzyme_const, 5);
  double f2 = __enzyme_fwddiff((void *)grow, enzyme_dup, x, v, enzyme_const, 5);
  __enzyme_autodiff((void *)grow, enzyme_dup, x, e, enzyme_const, 5);
  double r1 = 0, r2 = 0;
  for (int i = 0; i < 5; i++) { r1 += d[i] * v[i]; r2 += e[i] * v[i]; }
  printf("%.17g %.17g %.17g %.17g\n", f1, r1, f2, r2);
  return 0;
}
""")
    obj = compile_c(src, tmp_path / "m.o", "-O2", "-Xclang", "-disable-llvm-passes", "-flto")
    link([obj, "-lm"], tmp_path / "m").check()
    res = sh(["valgrind", "-q", "--error-exitcode=9", tmp_path / "m"])
    assert res.returncode == 0, res.stderr
    f1, r1, f2, r2 = (float(v) for v in res.stdout.split())
    assert math.isclose(f1, r1, rel_tol=1e-12) and math.isclose(f2, r2, rel_tol=1e-12)
    x, v = [0.1, 0.2, 0.3, 0.4, 0.5], [1, -1, 0.5, 2, 1]
    assert math.isclose(f1, sum(2 * a * math.cos(a * a) * b for a, b in zip(x, v)), rel_tol=1e-12)


# Shapes from LULESH whose forward derivatives crashed at run time (issue 11, point 8): each
# program prints forward, reverse and the exact derivative; the test runs it under valgrind.
RUNTIME_SHAPES = {
    # a table of pointers to memory nothing active touches, kept in a struct that holds an
    # active value: the table's slots in the struct's shadow must hold real (zeroed) shadows,
    # because the freeing loop reads them back as shadowed pointers
    "pointer_table.c": r"""
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
typedef struct { double e; int n; int **lists; } D;
__attribute__((noinline)) void init(D *d, int n) {
  d->n = n;
  d->lists = malloc(n * sizeof(int *));
  for (int i = 0; i < n; i++) d->lists[i] = calloc(4, sizeof(int));
}
__attribute__((noinline)) void fini(D *d) {
  for (int i = 0; i < d->n; i++) free(d->lists[i]);
  free(d->lists);
}
__attribute__((noinline)) double f(double x, int n) {
  D *d = malloc(sizeof *d);
  d->e = x;
  init(d, n);
  double r = d->e * d->e * d->e;
  fini(d);
  free(d);
  return r;
}
int main(void) {
  double x = 1.5;
  double fw = __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_const, 3);
  double rv = __enzyme_autodiff((void *)f, x, enzyme_const, 3);
  printf("%.17g %.17g %.17g\n", fw, rv, 3 * x * x);
  return 0;
}
""",
    # a call that may throw is an invoke; its callee writes through the shadowed struct, so the
    # forward derivative must invoke the callee's derivative (it used to copy the primal only)
    "invoke_writes.cpp": r"""
#include <cstdio>
extern "C" int enzyme_dup, enzyme_const;
extern "C" double __enzyme_fwddiff(void *, ...);
extern "C" double __enzyme_autodiff(void *, ...);
struct S { double *p; double scale; };
__attribute__((noinline)) void fill(S *s, int n) {
  s->p = new double[n];
  for (int i = 0; i < n; i++) s->p[i] = s->scale * i;
}
__attribute__((noinline)) double f(double x, int n) {
  S s;
  s.scale = x;
  try { fill(&s, n); } catch (...) { return 0; }
  double r = 0;
  for (int i = 0; i < n; i++) r += s.p[i] * s.p[i];
  delete[] s.p;
  return r;
}
int main() {
  double x = 1.5;
  double fw = __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_const, 4);
  double rv = __enzyme_autodiff((void *)f, x, enzyme_const, 4);
  std::printf("%.17g %.17g %.17g\n", fw, rv, 2 * x * (0 + 1 + 4 + 9));
  return 0;
}
""",
}


@pytest.mark.parametrize("name", sorted(RUNTIME_SHAPES))
def test_forward_derivatives_of_lulesh_shapes_run_clean(tmp_path: Path, name: str) -> None:
    src = tmp_path / name
    src.write_text(RUNTIME_SHAPES[name])
    driver = CXX if name.endswith(".cpp") else CC
    if not have(driver):
        pytest.skip(f"{driver} not installed")
    obj = compile_c(src, tmp_path / "p.o", "-O2", "-flto", compiler=driver)
    link([obj], tmp_path / "p", driver=driver).check(f"gradlink link of {name}")
    res = sh(["valgrind", "-q", "--error-exitcode=9", "--leak-check=no", tmp_path / "p"])
    assert res.returncode == 0, res.stderr
    fw, rv, exact = (float(v) for v in res.stdout.split())
    assert math.isclose(fw, exact, rel_tol=1e-14) and math.isclose(rv, exact, rel_tol=1e-14)
