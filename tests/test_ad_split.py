"""Split mode: __enzyme_augmentfwd returns a tape, __enzyme_reverse consumes it, in any order;
__enzyme_augmentsize and enzyme_allocated/enzyme_tape for caller-provided tape memory."""

from __future__ import annotations

import math
from pathlib import Path

from toolchain import compile_c, link, sh

SRC = r"""
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_allocated, enzyme_tape;
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
int __enzyme_augmentsize(void *, ...);
double f(const double *x, double s, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) r += sin(x[i] * s) * x[i];
  return r;
}
void g(double *y, const double *x, int n) { for (int i = 0; i < n; i++) y[i] = x[i] * exp(x[i]); }
int main(void) {
  double x[3] = {0.5, 1.0, 1.5}, dx1[3] = {0}, dx2[3] = {0};
  void *t1 = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx1, 2.0, enzyme_const, 3);
  int sz = __enzyme_augmentsize((void *)f, enzyme_dup, enzyme_out, enzyme_const);
  void *mem = malloc(sz);
  __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx2, 3.0, enzyme_const, 3,
                      enzyme_allocated, sz, enzyme_tape, mem);
  double ds1 = __enzyme_reverse((void *)f, enzyme_dup, x, dx1, 2.0, enzyme_const, 3, 1.0, t1);
  double ds2 = __enzyme_reverse((void *)f, enzyme_dup, x, dx2, 3.0, enzyme_const, 3, 2.0, mem);
  for (int i = 0; i < 3; i++) printf("%.17g %.17g\n", dx1[i], dx2[i]);
  printf("%.17g %.17g %d\n", ds1, ds2, sz);
  free(mem);
  double y[3], dy[3] = {1, 2, 3}, dxg[3] = {0};
  void *tg = __enzyme_augmentfwd((void *)g, enzyme_dup, y, dy, enzyme_dup, x, dxg, enzyme_const, 3);
  __enzyme_reverse((void *)g, enzyme_dup, y, dy, enzyme_dup, x, dxg, enzyme_const, 3, tg);
  for (int i = 0; i < 3; i++) printf("%.17g %.17g\n", y[i], dxg[i]);
  return 0;
}
"""


def test_split_mode(tmp_path: Path) -> None:
    (tmp_path / "s.c").write_text(SRC)
    obj = compile_c(tmp_path / "s.c", tmp_path / "s.o", "-O2", "-flto")
    link([obj, "-lm"], tmp_path / "s").check()
    res = sh(["valgrind", "-q", "--leak-check=full", "--error-exitcode=9", tmp_path / "s"])
    assert res.returncode == 0, res.stderr
    rows = [list(map(float, ln.split())) for ln in res.stdout.splitlines()]
    x = [0.5, 1.0, 1.5]
    for i in range(3):
        d1 = math.sin(2 * x[i]) + 2 * x[i] * math.cos(2 * x[i])
        d2 = 2 * (math.sin(3 * x[i]) + 3 * x[i] * math.cos(3 * x[i]))
        assert math.isclose(rows[i][0], d1, rel_tol=1e-12)
        assert math.isclose(rows[i][1], d2, rel_tol=1e-12)
    ds1 = sum(v * v * math.cos(2 * v) for v in x)
    ds2 = sum(2 * v * v * math.cos(3 * v) for v in x)
    assert math.isclose(rows[3][0], ds1, rel_tol=1e-12) and math.isclose(rows[3][1], ds2, rel_tol=1e-12)
    assert rows[3][2] == 32
    for i in range(3):
        assert math.isclose(rows[4 + i][0], x[i] * math.exp(x[i]), rel_tol=1e-15)
        assert math.isclose(rows[4 + i][1], (i + 1) * (1 + x[i]) * math.exp(x[i]), rel_tol=1e-12)


PRIMAL_RETURNS = r"""
#include <stdio.h>
#include <math.h>
extern int enzyme_dup, enzyme_const, enzyme_primal_return, enzyme_allocated, enzyme_tape;
typedef struct { double primal, tangent; } dual;
dual __enzyme_fwddiff(void *, ...);
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
typedef struct { double primal; } prim_t;               /* C returns it as a plain double */
prim_t augment_in(void *, ...) __asm__("__enzyme_augmentfwd");
double __enzyme_reverse(void *, ...);
typedef struct { double primal; void *tape; } pt_t;    /* the other order, as some code has it */
pt_t augment_pt(void *, ...) __asm__("__enzyme_augmentfwd");
void *reverse_ptr(void *, ...) __asm__("__enzyme_reverse");   /* nothing to return: null */
void *augment_tape(void *, ...) __asm__("__enzyme_augmentfwd");
void sq(double *y, const double *x) { y[0] = x[0] * x[0]; }
double f(const double *x, double s, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) r += sin(x[i] * s) * x[i];
  return r;
}
int main(void) {
  double x[3] = {0.5, 1.0, 1.5}, dx[3] = {1, 0, 0}, gx[3] = {0}, gx2[3] = {0}, gx3[3] = {0};
  dual d = __enzyme_fwddiff((void *)f, enzyme_primal_return, enzyme_dup, x, dx, 2.0, 0.5,
                            enzyme_const, 3);
  printf("%.17g %.17g\n", d.primal, d.tangent);
  aug_t a = __enzyme_augmentfwd((void *)f, enzyme_dup, x, gx, 2.0, enzyme_const, 3);
  double ds = __enzyme_reverse((void *)f, enzyme_dup, x, gx, 2.0, enzyme_const, 3, 1.0, a.tape);
  printf("%.17g %.17g %.17g\n", a.primal, gx[0], ds);
  char mem[32];
  prim_t p = augment_in((void *)f, enzyme_allocated, 32, enzyme_tape, mem, enzyme_dup, x, gx2,
                        2.0, enzyme_const, 3);
  double ds2 = __enzyme_reverse((void *)f, enzyme_allocated, 32, enzyme_tape, mem, enzyme_dup,
                                x, gx2, 2.0, enzyme_const, 3, 1.0);
  printf("%.17g %.17g %.17g\n", p.primal, gx2[0], ds2);
  pt_t q = augment_pt((void *)f, enzyme_dup, x, gx3, 2.0, enzyme_const, 3);
  double ds3 = __enzyme_reverse((void *)f, enzyme_dup, x, gx3, 2.0, enzyme_const, 3, 1.0, q.tape);
  printf("%.17g %.17g %.17g\n", q.primal, gx3[0], ds3);
  double y = 0, dy = 1, sx = 3, dsx = 0;
  void *t = augment_tape((void *)sq, enzyme_dup, &y, &dy, enzyme_dup, &sx, &dsx);
  void *none = reverse_ptr((void *)sq, enzyme_dup, &y, &dy, enzyme_dup, &sx, &dsx, t);
  printf("%d %.17g\n", none == 0, dsx);
  return 0;
}
"""


def test_primal_returned_with_the_derivative(tmp_path: Path) -> None:
    """enzyme_primal_return: __enzyme_fwddiff gives {primal, tangent}; __enzyme_augmentfwd
    declared to return {tape, primal} (or {primal}, the tape in caller memory) gives the
    primal too, as Enzyme does."""
    (tmp_path / "p.c").write_text(PRIMAL_RETURNS)
    obj = compile_c(tmp_path / "p.c", tmp_path / "p.o", "-O2", "-flto")
    link([obj, "-lm"], tmp_path / "p").check()
    res = sh(["valgrind", "-q", "--leak-check=full", "--error-exitcode=9", tmp_path / "p"])
    assert res.returncode == 0, res.stderr
    rows = [list(map(float, ln.split())) for ln in res.stdout.splitlines()]
    x, s = [0.5, 1.0, 1.5], 2.0
    primal = sum(math.sin(v * s) * v for v in x)
    ds = sum(v * v * math.cos(v * s) for v in x)
    dx0 = math.sin(x[0] * s) + x[0] * s * math.cos(x[0] * s)
    assert math.isclose(rows[0][0], primal, rel_tol=1e-15)
    assert math.isclose(rows[0][1], dx0 + 0.5 * ds, rel_tol=1e-13)
    assert rows[4] == [1.0, 6.0]             # d(x^2)/dx at 3, through the tape of a void f
    for row in rows[1:4]:
        assert math.isclose(row[0], primal, rel_tol=1e-15)
        assert math.isclose(row[1], dx0, rel_tol=1e-13) and math.isclose(row[2], ds, rel_tol=1e-13)
