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
