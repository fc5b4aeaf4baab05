"""AD benchmark (not a test): gradient cost against primal cost, AD after vs before optimization.

Cases: relu3 in a loop, vector normalization (the seeds' O(n^2)-primal that optimization makes
O(n)), an RK4 ODE integration, and a small MLP layer. Each program is compiled once to
unoptimized bitcode (-O2 -Xclang -disable-llvm-passes) and linked twice by ld.gradlink: the
default (optimize, then differentiate, then optimize) and --gradlink-ad-first. Each program times
its primal and its gradient itself (median of repetitions) and the script prints, per case, the
primal time, the gradient time, their ratio for both links, and the geometric-mean speedup of AD
after optimization over AD first.

    .venv/bin/python benchmarks/ad_speed.py [--runs 5]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HARNESS = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
double __enzyme_autodiff(void *, ...);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static volatile double sink;
#define TIME(reps, stmt) ({ double best = 1e30; for (int r_ = 0; r_ < 5; r_++) { double t0 = now(); \
    for (int k_ = 0; k_ < (reps); k_++) { stmt; } double dt = (now() - t0) / (reps); if (dt < best) best = dt; } best; })
"""

CASES = {
    "relu3": (r"""
double relu3_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] > 0 ? pow(x[i], 3) : 0;
  return s;
}
int main(void) {
  int n = 100000;
  double *x = malloc(n * sizeof *x), *dx = calloc(n, sizeof *dx);
  for (int i = 0; i < n; i++) x[i] = sin(i * 0.37);
  double tp = TIME(20, sink = relu3_sum(x, n));
  double tg = TIME(20, __enzyme_autodiff((void *)relu3_sum, enzyme_dup, x, dx, enzyme_const, n));
  printf("%.9g %.9g %.6g\n", tp, tg, dx[1]);
  return 0;
}
""", "n=100000"),
    "normalize": (r"""
__attribute__((noinline)) static double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}
void normalize(double *restrict out, const double *restrict in, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n);
}
int main(void) {
  int n = 3000;
  double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
  double *din = calloc(n, sizeof *din), *dout = malloc(n * sizeof *dout);
  for (int i = 0; i < n; i++) { in[i] = 1 + 0.001 * i; dout[i] = 1.0; }
  double tp = TIME(2, (normalize(out, in, n), sink = out[n - 1]));
  double tg = TIME(2, __enzyme_autodiff((void *)normalize, enzyme_dup, out, dout, enzyme_dup, in, din, enzyme_const, n));
  printf("%.9g %.9g %.6g\n", tp, tg, din[1]);
  return 0;
}
""", "n=3000"),
    "rk4": (r"""
static void rhs(const double *y, double *dy, double k) {
  dy[0] = y[1];
  dy[1] = -k * sin(y[0]) - 0.1 * y[1];
}
double integrate(const double *y0, double k, int steps) {
  double y[2] = {y0[0], y0[1]}, a[2], b[2], c[2], d[2], t[2], h = 0.01;
  for (int s = 0; s < steps; s++) {
    rhs(y, a, k);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * a[i];
    rhs(t, b, k);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * b[i];
    rhs(t, c, k);
    for (int i = 0; i < 2; i++) t[i] = y[i] + h * c[i];
    rhs(t, d, k);
    for (int i = 0; i < 2; i++) y[i] += h / 6 * (a[i] + 2 * b[i] + 2 * c[i] + d[i]);
  }
  return y[0] * y[0] + y[1];
}
int main(void) {
  double y0[2] = {1.0, 0.0}, dy0[2] = {0, 0};
  double tp = TIME(50, sink = integrate(y0, 2.0, 1000));
  double dk = 0;
  double tg = TIME(50, dk = __enzyme_autodiff((void *)integrate, enzyme_dup, y0, dy0, 2.0, enzyme_const, 1000));
  printf("%.9g %.9g %.6g\n", tp, tg, dk);
  return 0;
}
""", "1000 steps"),
    "mlp": (r"""
double layer(const double *W, const double *b, const double *x, int n, int m) {
  double loss = 0;
  for (int i = 0; i < m; i++) {
    double z = b[i];
    for (int j = 0; j < n; j++) z += W[i * n + j] * x[j];
    double a = tanh(z);
    loss += a * a;
  }
  return loss;
}
int main(void) {
  int n = 256, m = 128;
  double *W = malloc(n * m * sizeof *W), *dW = calloc(n * m, sizeof *dW);
  double *b = malloc(m * sizeof *b), *db = calloc(m, sizeof *db), *x = malloc(n * sizeof *x);
  for (int i = 0; i < n * m; i++) W[i] = sin(i) * 0.05;
  for (int i = 0; i < m; i++) b[i] = 0.01 * i;
  for (int j = 0; j < n; j++) x[j] = cos(j);
  double tp = TIME(200, sink = layer(W, b, x, n, m));
  double tg = TIME(200, __enzyme_autodiff((void *)layer, enzyme_dup, W, dW, enzyme_dup, b, db, enzyme_const, x, enzyme_const, n, enzyme_const, m));
  printf("%.9g %.9g %.6g\n", tp, tg, dW[3]);
  return 0;
}
""", "256x128"),
}


def build(src: Path, out: Path, ad_first: bool, env: dict[str, str]) -> None:
    obj = out.with_suffix(".o")
    subprocess.run(["clang-22", "-O2", "-Xclang", "-disable-llvm-passes", "-fno-math-errno",
                    "-flto", "-c", str(src), "-o", str(obj)], check=True, env=env)
    cmd = ["clang-22", "-O2", "-flto", "-fuse-ld=gradlink", str(obj), "-lm", "-o", str(out)]
    if ad_first:
        cmd.insert(4, "-Wl,--gradlink-ad-first")
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"link of {src.name} failed:\n{p.stderr}")


def measure(exe: Path, runs: int) -> tuple[float, float, str]:
    prim, grad, check = [], [], ""
    for _ in range(runs):
        out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
        prim.append(float(out[0]))
        grad.append(float(out[1]))
        check = out[2]
    return statistics.median(prim), statistics.median(grad), check


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    speedups = []
    print(f"{'case':10s} {'size':10s} {'primal ms':>10s} {'grad ms':>10s} {'ratio':>7s} "
          f"{'grad ms (AD first)':>19s} {'ratio':>7s} {'after/first':>12s}")
    with tempfile.TemporaryDirectory(prefix="gradlink-adbench-") as tmp:
        for name, (body, size) in CASES.items():
            src = Path(tmp) / f"{name}.c"
            src.write_text(HARNESS + body)
            after, first = Path(tmp) / f"{name}.after", Path(tmp) / f"{name}.first"
            build(src, after, False, env)
            build(src, first, True, env)
            pa, ga, ca = measure(after, args.runs)
            pf, gf, cf = measure(first, args.runs)
            if not math.isclose(float(ca), float(cf), rel_tol=1e-9, abs_tol=1e-12):
                sys.exit(f"{name}: the two gradients differ: {ca} vs {cf}")
            speedups.append(gf / ga)
            print(f"{name:10s} {size:10s} {pa * 1e3:10.3f} {ga * 1e3:10.3f} {ga / pa:7.2f} "
                  f"{gf * 1e3:19.3f} {gf / pf:7.2f} {gf / ga:11.2f}x")
    geo = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
    print(f"geometric-mean speedup of AD after optimization over AD first: {geo:.2f}x")


if __name__ == "__main__":
    main()
