"""A generator of random differentiable C programs, for the forward/reverse consistency suite.

Each generated function ``void fK(double *y, const double *x, int n)`` mixes scalar arithmetic,
smooth math calls (inputs kept inside their domains), counted and data-dependent loops,
branches, local arrays, a struct with int/double/pointer fields, calls of a non-inlined helper
and heap temporaries. ``main`` runs the dot-product test for each: u.Jv by forward mode, (J^T u).v
by reverse mode, and u.(F(x+hv) - F(x-hv))/2h by central differences, one line per function.
"""

from __future__ import annotations

import random

N_IN = 5
N_OUT = 3

HEADER = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
typedef struct { double a; int k; double *p; double b; } rec;
__attribute__((noinline)) static double helper(double a, double b) {
  return a * tanh(b) + log1p(a * a);
}
#define DOT_TEST(F, N, M)                                                               \
  do {                                                                                \
    double x[N], v[N], u[M], y[M], dy[M], xb[N], yb[M], yp[M], ym[M], xp[N], xm[N];   \
    for (int i = 0; i < N; i++) { x[i] = 0.35 + 0.21 * i; v[i] = sin(1.0 + 2 * i); xb[i] = 0; } \
    for (int j = 0; j < M; j++) { u[j] = cos(0.5 + j); yb[j] = u[j]; dy[j] = 0; y[j] = 0; } \
    __enzyme_fwddiff((void *)F, enzyme_dupnoneed, y, dy, enzyme_dup, x, v, enzyme_const, N); \
    for (int j = 0; j < M; j++) y[j] = 0;                                              \
    __enzyme_autodiff((void *)F, enzyme_dupnoneed, y, yb, enzyme_dup, x, xb, enzyme_const, N); \
    double h = 1e-6, a = 0, b = 0, c = 0;                                              \
    for (int i = 0; i < N; i++) { xp[i] = x[i] + h * v[i]; xm[i] = x[i] - h * v[i]; }  \
    for (int j = 0; j < M; j++) yp[j] = ym[j] = 0;                                     \
    F(yp, xp, N); F(ym, xm, N);                                                        \
    for (int j = 0; j < M; j++) { a += u[j] * dy[j]; c += u[j] * (yp[j] - ym[j]) / (2 * h); } \
    for (int i = 0; i < N; i++) b += xb[i] * v[i];                                     \
    printf("%s %.17g %.17g %.17g\n", #F, a, b, c);                                     \
  } while (0)
"""

# Growth-limited forms: nested calls must not produce values whose derivatives oscillate on a
# scale finer than the finite-difference step (sin(expm1(expm1(...))) would).
UNARY = ["sin({0})", "cos({0})", "tanh({0})", "atan({0})", "exp(sin({0}))", "log1p({0} * {0})",
         "sqrt(1.0 + {0} * {0})", "cbrt(2.0 + sin({0}))", "pow(1.0 + tanh({0}) * tanh({0}), 1.3)",
         "erf({0})", "fabs({0}) + 0.5", "hypot(atan({0}), 0.7)", "expm1(0.3 * tanh({0}))"]
BINARY = ["{0} + {1}", "{0} - {1}", "{0} * {1}", "{0} / (1.5 + {1} * {1})", "fmax({0}, {1})",
          "fmin({0}, {1})", "atan2({0}, 1.0 + {1} * {1})", "helper({0}, {1})"]


class _Gen:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.scalars: list[str] = []
        self.lines: list[str] = []
        self.tmp = 0

    def atom(self) -> str:
        r = self.rng.random()
        if self.scalars and r < 0.5:
            return self.rng.choice(self.scalars)
        if r < 0.85:
            return f"x[{self.rng.randrange(N_IN)}]"
        return f"{self.rng.uniform(-1.5, 1.5):.3f}"

    def expr(self, depth: int = 0) -> str:
        if depth > 2 or self.rng.random() < 0.3:
            return self.atom()
        if self.rng.random() < 0.5:
            return self.rng.choice(UNARY).format(self.expr(depth + 1))
        return "(" + self.rng.choice(BINARY).format(self.expr(depth + 1), self.expr(depth + 1)) + ")"

    def name(self) -> str:
        self.tmp += 1
        return f"s{self.tmp}"

    def scalar(self) -> None:
        n = self.name()
        self.lines.append(f"  double {n} = {self.expr()};")
        self.scalars.append(n)

    def loop(self) -> None:
        acc = self.name()
        e = self.expr(1).replace("x[", "x[(i + ").replace("]", f") % {N_IN}]")
        self.lines.append(f"  double {acc} = 0;")
        self.lines.append(f"  for (int i = 0; i < n; i++) {acc} += {e} * (0.5 + 0.1 * i);")
        self.scalars.append(acc)

    def branch(self) -> None:
        n = self.name()
        c = self.atom()
        self.lines.append(f"  double {n};")
        self.lines.append(f"  if ({c} > {self.rng.uniform(0.2, 1.0):.3f}) {n} = {self.expr()};")
        self.lines.append(f"  else {n} = {self.expr()};")
        self.scalars.append(n)

    def while_loop(self) -> None:
        n = self.name()
        it = self.name()
        self.lines.append(f"  double {n} = {self.atom()}; int {it} = 0;")
        self.lines.append(f"  while ({n} < {self.rng.uniform(1.5, 3.0):.3f} && {it} < 25) "
                          f"{{ {n} = {n} * 1.1 + 0.05 + 0.01 * {self.atom()} * {self.atom()}; {it}++; }}")
        self.scalars.append(n)

    def array(self) -> None:
        n = self.name()
        self.lines.append(f"  double {n}_t[{N_IN}];")
        self.lines.append(f"  for (int i = 0; i < n; i++) {n}_t[i] = x[i] * {self.expr(2)};")
        self.lines.append(f"  double {n} = 0;")
        self.lines.append(f"  for (int i = 1; i < n; i++) {n} += {n}_t[i] * {n}_t[i - 1];")
        self.scalars.append(n)

    def record(self) -> None:
        n = self.name()
        self.lines.append(f"  rec {n}_r = {{ {self.expr(1)}, 3, (double *)x, {self.expr(1)} }};")
        self.lines.append(f"  double {n} = {n}_r.a * {n}_r.b + {n}_r.p[{self.rng.randrange(N_IN)}] * {n}_r.k;")
        self.scalars.append(n)

    def heap(self) -> None:
        n = self.name()
        self.lines.append(f"  double *{n}_h = malloc(n * sizeof(double));")
        self.lines.append(f"  memcpy({n}_h, x, n * sizeof(double));")
        self.lines.append(f"  for (int i = 0; i < n; i++) {n}_h[i] = sin({n}_h[i]) * {self.atom()};")
        self.lines.append(f"  double {n} = 0;")
        self.lines.append(f"  for (int i = 0; i < n; i++) {n} += {n}_h[i];")
        self.lines.append(f"  free({n}_h);")
        self.scalars.append(n)


def function(rng: random.Random, name: str) -> str:
    g = _Gen(rng)
    kinds = [g.scalar, g.scalar, g.loop, g.branch, g.while_loop, g.array, g.record, g.heap]
    for _ in range(rng.randint(3, 7)):
        rng.choice(kinds)()
    for j in range(N_OUT):
        g.lines.append(f"  y[{j}] = {g.expr(1)};")
    return f"void {name}(double *y, const double *x, int n) {{\n" + "\n".join(g.lines) + "\n}\n"


def program(seed: int, count: int) -> tuple[str, list[str]]:
    """C source with ``count`` random functions and a main testing each; their names."""
    rng = random.Random(seed)
    names = [f"f{seed}_{k}" for k in range(count)]
    funcs = [function(rng, nm) for nm in names]
    main = "int main(void) {\n" + "".join(f"  DOT_TEST({nm}, {N_IN}, {N_OUT});\n" for nm in names) + \
        "  return 0;\n}\n"
    return HEADER + "\n".join(funcs) + main, names
