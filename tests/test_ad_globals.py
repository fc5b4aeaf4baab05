"""Global variables written with active data get shadows (gradlink/ad/globals.py), as Enzyme
gives them: in the function differentiated or in its callees, read back there or in another
callee (also one whose unused arguments the link's optimizer removed, so the call passes no
active data at all), through constant-expression element addresses, in reverse and forward
mode. Each derivative starts with the shadows at zero: differentiating twice gives the same
numbers, and a global read before it is written contributes nothing (its value on entry does
not depend on the inputs). Checked against central differences and forward against reverse."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from toolchain import CC, compile_c, have, link, sh

pytestmark = pytest.mark.skipif(not (have(CC) and have("ld.gradlink")), reason="toolchain missing")

SRC = r"""
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double g[3];                  /* written by one callee, read by others */
double last;                         /* read before it is written: its entry value is constant */

__attribute__((noinline)) static void fill(const double *x) {
  g[0] = sin(x[0]) * x[1];
  g[1] = x[1] * x[1];
  g[2] = exp(x[0] - x[1]);
}
/* takes x but never uses it: the optimizer removes the argument, the call passes nothing */
__attribute__((noinline)) static double reduce(const double *x) {
  (void)x;
  return g[0] * g[1] + g[2] * g[2];
}
static double f(const double *x) {
  double before = last;              /* the previous call's value: no derivative */
  fill(x);
  double r = reduce(x) + before * x[0];
  last = r;
  g[1] += r * x[0];                  /* written again after the read: no effect on r */
  return r;
}
int main(void) {
  double x[2] = {0.4, 0.9}, v[2] = {0.3, -1.1}, dx[2] = {0, 0}, dx2[2] = {0, 0};
  __enzyme_autodiff((void *)f, x, dx);
  __enzyme_autodiff((void *)f, x, dx2);          /* shadows zeroed again: the same numbers */
  double jv = __enzyme_fwddiff((void *)f, x, v);
  double h = 1e-6, xp[2], xm[2];
  for (int i = 0; i < 2; i++) { xp[i] = x[i] + h * v[i]; xm[i] = x[i] - h * v[i]; }
  double saved = last;
  last = 0; double fp = f(xp);
  last = 0; double fm = f(xm);
  last = saved;
  printf("%.17g %.17g %.17g %.17g %.17g %.17g\n", dx[0], dx[1], dx2[0], dx2[1], jv,
         (fp - fm) / (2 * h));
  return 0;
}
"""


def test_global_shadows_in_both_modes(tmp_path: Path) -> None:
    (tmp_path / "g.c").write_text(SRC)
    obj = compile_c(tmp_path / "g.c", tmp_path / "g.o", "-O2", "-flto")
    res = link([obj, "-lm"], tmp_path / "g")
    assert res.returncode == 0, res.stderr
    d0, d1, e0, e1, jv, fd = map(float, sh([tmp_path / "g"]).check().stdout.split())
    x0, x1 = 0.4, 0.9
    g0, g1, g2 = math.sin(x0) * x1, x1 * x1, math.exp(x0 - x1)
    r = g0 * g1 + g2 * g2                    # f's value with last = 0 (the first call)
    # f = g0 g1 + g2^2 + last * x0, last a constant (0 in the first call, r after it):
    # df/dx0 = cos(x0) x1 g1 + 2 g2^2 + last, df/dx1 = sin(x0) g1 + g0 2 x1 - 2 g2^2
    want0 = math.cos(x0) * x1 * g1 + 2 * g2 * g2
    want1 = math.sin(x0) * g1 + g0 * 2 * x1 - 2 * g2 * g2
    assert math.isclose(d0, want0, rel_tol=1e-13) and math.isclose(d1, want1, rel_tol=1e-13)
    # the second call: nothing left over from the first in the shadows, only last = r
    assert math.isclose(e0, want0 + r, rel_tol=1e-13) and math.isclose(e1, want1, rel_tol=1e-13)
    r2 = r + r * x0                          # the second call's value: last after it
    assert math.isclose(jv, (want0 + r2) * 0.3 + want1 * -1.1, rel_tol=1e-12)
    assert math.isclose(jv, fd + r2 * 0.3, rel_tol=1e-6)     # the differences ran with last = 0


def test_global_written_and_read_in_the_differentiated_function(tmp_path: Path) -> None:
    """The simplest case: a file-local array written with an active value and read back."""
    src = r"""
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
static double keep[2];
double f(double x) { keep[0] = x * x; return keep[0] + keep[1]; }
int main(void) { printf("%.17g\n", __enzyme_autodiff((void *)f, 3.0)); return 0; }
"""
    (tmp_path / "k.c").write_text(src)
    obj = compile_c(tmp_path / "k.c", tmp_path / "k.o", "-O2", "-flto")
    res = link([obj, "-lm"], tmp_path / "k")
    assert res.returncode == 0, res.stderr
    assert float(sh([tmp_path / "k"]).check().stdout) == 6.0


def test_global_read_through_an_indirect_call_without_arguments(tmp_path: Path) -> None:
    """The reader is called through a function pointer and takes nothing: the call is still
    differentiated (it may reach a function using a shadowed global)."""
    src = r"""
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
static double acc;
__attribute__((noinline)) static void put(double v) { acc = v * v; }
__attribute__((noinline)) static double get(void) { return 3 * acc; }
double (*volatile reader)(void) = get;
double f(double x) { put(x); return reader(); }
int main(void) {
  printf("%.17g %.17g\n", __enzyme_autodiff((void *)f, 1.5), __enzyme_fwddiff((void *)f, 1.5, 1.0));
  return 0;
}
"""
    (tmp_path / "i.c").write_text(src)
    obj = compile_c(tmp_path / "i.c", tmp_path / "i.o", "-O2", "-flto")
    res = link([obj, "-lm"], tmp_path / "i")
    assert res.returncode == 0, res.stderr
    assert sh([tmp_path / "i"]).check().stdout.split() == ["9", "9"]      # d(3x^2)/dx at 1.5
