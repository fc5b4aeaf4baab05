"""Properties of the generated derivative code itself, read back with gradlink's own IR reader.

The seeds' case study: vector normalization ``out[i] = in[i] / mag(in)``. Optimization before AD
hoists the loop-invariant ``mag(in)`` out of the loop, so the derivative calls mag's augmented
forward and reverse once, outside any loop: the gradient stays O(n). Checked on the IR (no
timing), and numerically.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from toolchain import compile_c, link, sh

from gradlink.analysis import cfg
from gradlink.ir.parse import function_texts, parse_function

NORMALIZE = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
__attribute__((noinline)) static double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}
void normalize(double *restrict out, const double *restrict in, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n);
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5;
  double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
  double *din = calloc(n, sizeof *din), *dout = malloc(n * sizeof *dout);
  for (int i = 0; i < n; i++) { in[i] = 1.0 + 0.5 * i; dout[i] = (i % 3) - 1.0; }
  __enzyme_autodiff((void *)normalize, enzyme_dup, out, dout, enzyme_dup, in, din, enzyme_const, n);
  for (int i = 0; i < n && i < 5; i++) printf("%.15g\n", din[i]);
  return 0;
}
"""


def _derivative(temps: Path, prefix: str) -> tuple[object, object]:
    texts = function_texts((temps / "ad.ll").read_text())
    name = next(n for n in texts if n.strip('@"').startswith(prefix))
    fn = parse_function(texts[name])
    return fn, cfg.build(fn)


# Bitcode as the front end emits it, unoptimized (no optnone), so that the link-time order of
# AD and optimization is what the ablation compares.
UNOPTIMIZED = ("-O2", "-Xclang", "-disable-llvm-passes", "-fno-math-errno", "-flto")


@pytest.fixture(scope="module")
def normalize(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("normalize")
    src = d / "normalize.c"
    src.write_text(NORMALIZE)
    obj = compile_c(src, d / "normalize.o", *UNOPTIMIZED)
    temps = d / "temps"
    link([obj, "-lm"], d / "normalize", f"-Wl,--gradlink-save-temps={temps}").check()
    return d / "normalize", temps


def test_mag_adjoint_is_called_once_outside_the_loop(normalize: tuple[Path, Path]) -> None:
    _, temps = normalize
    fn, graph = _derivative(temps, "gl.diffe.normalize")
    calls = [(b.label, i) for b in fn.blocks for i in b.instrs  # type: ignore[attr-defined]
             if i.opcode == "call" and "mag" in i.callee]
    aug = [blk for blk, i in calls if "gl.aug.mag" in i.callee]
    rev = [blk for blk, i in calls if "gl.rev.mag" in i.callee]
    assert len(aug) == 1 and len(rev) == 1, calls
    assert graph.loop_depth(aug[0]) == 0 and graph.loop_depth(rev[0]) == 0  # type: ignore[attr-defined]
    assert graph.loops, "the derivative still has the element loops"  # type: ignore[attr-defined]


def _check_exact(exe: Path, n: int = 5) -> None:
    x = [1.0 + 0.5 * i for i in range(n)]
    w = [(i % 3) - 1.0 for i in range(n)]
    m = math.sqrt(sum(v * v for v in x))
    # d/dx_j sum_i w_i x_i / m = w_j / m - (sum_i w_i x_i) x_j / m^3
    s = sum(wi * xi for wi, xi in zip(w, x))
    want = [w[j] / m - s * x[j] / m ** 3 for j in range(n)]
    got = [float(v) for v in sh([exe, str(n)]).check().stdout.split()]
    assert len(got) == n
    for g, e in zip(got, want):
        assert math.isclose(g, e, rel_tol=1e-12, abs_tol=1e-14)


def test_normalize_gradient_is_exact(normalize: tuple[Path, Path]) -> None:
    _check_exact(normalize[0])


def test_ad_first_keeps_mag_inside_the_loop(tmp_path: Path) -> None:
    """The ablation: differentiating before optimization cannot hoist mag (O(n^2))."""
    src = tmp_path / "normalize.c"
    src.write_text(NORMALIZE)
    obj = compile_c(src, tmp_path / "normalize.o", *UNOPTIMIZED)
    temps = tmp_path / "temps"
    link([obj, "-lm"], tmp_path / "normalize", "-Wl,--gradlink-ad-first",
         f"-Wl,--gradlink-save-temps={temps}").check()
    fn, graph = _derivative(temps, "gl.diffe.normalize")
    blocks = [b.label for b in fn.blocks for i in b.instrs  # type: ignore[attr-defined]
              if i.opcode == "call" and "gl.aug.mag" in i.callee]
    assert blocks and all(graph.loop_depth(b) >= 1 for b in blocks)  # type: ignore[attr-defined]
    _check_exact(tmp_path / "normalize")
