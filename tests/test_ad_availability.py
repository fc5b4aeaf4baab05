"""What the reverse sweep caches, and what it gets otherwise (gradlink/ad/availability.py).

Checked on the derivative IR (which values are pushed on the tape inside which loops) and
numerically against the exact gradient, on real C compiled with clang-22 and linked by
ld.gradlink; plus the memory analysis behind load recomputation on hand-written IR.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from toolchain import compile_c, have, link, sh

from gradlink.ad import availability, module
from gradlink.analysis import cfg
from gradlink.ir.parse import function_texts, parse_function

UNOPTIMIZED = ("-O2", "-Xclang", "-disable-llvm-passes", "-fno-math-errno", "-flto")

PROGRAM = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);

/* loads of inputs nothing writes, address arithmetic, cheap arithmetic: recomputed, so
   nothing is pushed per iteration */
double weighted(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * x[i] * (x[i] + 1.5);
  return s;
}

/* a[i] is invariant in the inner loop: pushed once per run of it, not per iteration */
double nested(const double *restrict x, double *scratch, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    scratch[i] = sin(x[i]);                      /* written: scratch is not read-only */
    double a = scratch[i];
    for (int j = 0; j < n; j++) s += a * (x[j] * x[j] + j);
  }
  return s;
}

/* normalization: mag only reads (LLVM infers memory(read)), so in[] is unchanged while the
   derivative runs, in normalize and, told so by its caller, in mag's split derivative */
__attribute__((noinline)) static double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}
void normalize(double *restrict out, const double *restrict in, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n);
}

/* a recursive function whose locals the reverse of the recursive calls reads */
__attribute__((noinline)) static void tree(const double *p, int depth, double *h) {
  if (depth == 0) { h[0] = p[0]; h[1] = p[1]; return; }
  double l[2], r[2];
  tree(p, depth - 1, l);
  tree(p + 2, depth - 1, r);
  h[0] = tanh(l[0] * r[1] + p[0]);
  h[1] = tanh(l[1] * r[0] - p[1]);
}
double tree_loss(const double *p, int depth) {
  double h[2];
  tree(p, depth, h);
  return h[0] + 2 * h[1];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 7;
  double *x = malloc(sizeof(double) * n), *w = malloc(sizeof(double) * n);
  double *dx = calloc(n, sizeof(double)), *dw = calloc(n, sizeof(double));
  double *scr = calloc(n, sizeof(double)), *dscr = calloc(n, sizeof(double));
  for (int i = 0; i < n; i++) { x[i] = 0.3 + 0.1 * i; w[i] = 1.0 - 0.2 * i; }
  __enzyme_autodiff((void *)weighted, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, n);
  for (int i = 0; i < n; i++) printf("%.17g %.17g\n", dx[i], dw[i]);
  for (int i = 0; i < n; i++) dx[i] = 0;
  __enzyme_autodiff((void *)nested, enzyme_dup, x, dx, enzyme_dup, scr, dscr, enzyme_const, n);
  for (int i = 0; i < n; i++) printf("%.17g\n", dx[i]);
  double p[16], dp[16] = {0};
  for (int i = 0; i < 16; i++) p[i] = 0.1 * (i % 5) - 0.2;
  __enzyme_autodiff((void *)tree_loss, enzyme_dup, p, dp, enzyme_const, 3);
  for (int i = 0; i < 16; i++) printf("%.17g\n", dp[i]);
  double *out = malloc(sizeof(double) * n), *dout = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) { dx[i] = 0; dout[i] = 1.0 - 0.3 * i; }
  __enzyme_autodiff((void *)normalize, enzyme_dup, out, dout, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) printf("%.17g\n", dx[i]);
  return 0;
}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return _build(tmp_path_factory.mktemp("availability"), PROGRAM, "prog", "-lm")


def _build(tmp_path: Path, source: str, name: str, *libs: str) -> tuple[Path, Path]:
    """Compile source (unoptimized bitcode) and link it with ld.gradlink, keeping the temps:
    returns the executable and the temps directory."""
    src = tmp_path / f"{name}.c"
    src.write_text(source)
    obj = compile_c(src, tmp_path / f"{name}.o", *UNOPTIMIZED)
    temps = tmp_path / "temps"
    link([obj, *libs], tmp_path / name, f"-Wl,--gradlink-save-temps={temps}").check()
    return tmp_path / name, temps


def _derivative(temps: Path, prefix: str):  # type: ignore[no-untyped-def]
    texts = function_texts((temps / "ad.ll").read_text())
    name = next(n for n in texts if n.strip('@"').startswith(prefix))
    fn = parse_function(texts[name])
    return fn, cfg.build(fn)


def _pushes_in_loops(fn, graph) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    """Loop block -> the tape pushes in it (forward blocks only)."""
    out: dict[str, list[str]] = {}
    for b in fn.blocks:
        if b.label.startswith("gl.") or not graph.loop_depth(b.label):
            continue
        pushes = [i.callee for i in b.instrs if i.opcode == "call"
                  and i.callee.strip("@\"").startswith(("gl.push.", "gl.upush."))]
        if pushes:
            out[b.label] = pushes
    return out


def _outputs(exe: Path) -> list[float]:
    return [float(v) for v in sh([exe, "7"]).check().stdout.split()]


def test_read_only_loop_pushes_nothing_per_iteration(built: tuple[Path, Path]) -> None:
    fn, graph = _derivative(built[1], "gl.diffe.weighted")
    assert graph.loops, "the derivative has its loop"
    assert _pushes_in_loops(fn, graph) == {}


def test_inner_loop_invariant_is_pushed_once_per_run(built: tuple[Path, Path]) -> None:
    fn, graph = _derivative(built[1], "gl.diffe.nested")
    pushes = _pushes_in_loops(fn, graph)
    inner = [b for b in pushes if graph.loop_depth(b) >= 2]
    assert inner == [], pushes


def test_gradients_are_exact(built: tuple[Path, Path]) -> None:
    out = _outputs(built[0])
    n = 7
    x = [0.3 + 0.1 * i for i in range(n)]
    w = [1.0 - 0.2 * i for i in range(n)]
    for i in range(n):   # d/dx w x (x + 1.5) = w (2 x + 1.5); d/dw = x (x + 1.5)
        assert math.isclose(out[2 * i], w[i] * (2 * x[i] + 1.5), rel_tol=1e-13, abs_tol=1e-15)
        assert math.isclose(out[2 * i + 1], x[i] * (x[i] + 1.5), rel_tol=1e-13, abs_tol=1e-15)
    # nested: s = S C, S = sum_i sin x_i, C = sum_j (x_j^2 + j): ds/dx_k = cos(x_k) C + S 2 x_k
    big_s = sum(math.sin(v) for v in x)
    c = sum(x[j] * x[j] + j for j in range(n))
    for k in range(n):
        want = math.cos(x[k]) * c + big_s * 2 * x[k]
        assert math.isclose(out[2 * n + k], want, rel_tol=1e-12, abs_tol=1e-13)


def test_unchanged_inputs_are_reloaded_across_calls(built: tuple[Path, Path]) -> None:
    for prefix in ("gl.diffe.normalize", "gl.aug.mag"):
        fn, graph = _derivative(built[1], prefix)
        assert graph.loops and _pushes_in_loops(fn, graph) == {}, prefix
    n = 7
    x = [0.3 + 0.1 * i for i in range(n)]
    w = [1.0 - 0.3 * i for i in range(n)]
    m = math.sqrt(sum(v * v for v in x))
    s = sum(a * b for a, b in zip(w, x))
    got = _outputs(built[0])[3 * n + 16:]
    for j in range(n):       # d/dx_j sum_i w_i x_i / m = w_j / m - s x_j / m^3
        assert math.isclose(got[j], w[j] / m - s * x[j] / m ** 3, rel_tol=1e-12, abs_tol=1e-14)


def test_memory_attributes_give_the_parameters_written() -> None:
    fn = parse_function("define void @g(ptr readonly %a, ptr %b, i32 %n) {\nentry:\n  ret void\n}")
    assert module.memory_written_params("read", fn) == set()
    assert module.memory_written_params("argmem: readwrite", fn) == {1}
    assert module.memory_written_params("readwrite, inaccessiblemem: none", fn) is None
    assert module.memory_written_params("read, argmem: readwrite, inaccessiblemem: write", fn) == {1}


def _tree_loss(p: list[float], depth: int = 3) -> float:
    def tree(off: int, d: int) -> tuple[float, float]:
        if d == 0:
            return p[off], p[off + 1]
        l = tree(off, d - 1)
        r = tree(off + 2, d - 1)
        return (math.tanh(l[0] * r[1] + p[off]), math.tanh(l[1] * r[0] - p[off + 1]))
    h = tree(0, depth)
    return h[0] + 2 * h[1]


def test_recursive_locals_outlive_the_augmented_call(built: tuple[Path, Path]) -> None:
    """The split reverse of tree reads l and r (and their shadows) after the augmented call
    returned: they live on the heap, and the gradient matches central differences."""
    got = _outputs(built[0])[3 * 7:]
    p = [0.1 * (i % 5) - 0.2 for i in range(16)]
    for i in range(16):
        h = 1e-6
        q = list(p)
        q[i] += h
        fp = _tree_loss(q)
        q[i] -= 2 * h
        fd = (fp - _tree_loss(q)) / (2 * h)
        assert abs(got[i] - fd) <= 1e-7 * max(1.0, abs(fd)), (i, got[i], fd)
    fn, _ = _derivative(built[1], "gl.aug.tree")
    assert not any(i.opcode == "alloca" for i in fn.instructions() if i.name and "gl." not in i.name)


READONLY_IR = """define double @f(ptr noalias %a, ptr %b, ptr %c, ptr %d, i64 %n) {
entry:
  %buf = call ptr @malloc(i64 64)
  %p = getelementptr double, ptr %buf, i64 %n
  store double 1.0, ptr %p
  %q = getelementptr double, ptr %c, i64 1
  store double 2.0, ptr %q
  %x = load double, ptr %a
  %y = load double, ptr %b
  %z = load double, ptr %d
  call void @free(ptr %buf)
  ret double %x
}"""


def test_readonly_params_respect_aliasing() -> None:
    fn = parse_function(READONLY_IR)
    defs = fn.definitions()
    assert availability.root("%p", defs) == availability.FRESH
    assert availability.root("%q", defs) == "%c"
    # %c is written; %b and %d may alias it; %a is noalias, so a store through %c misses it
    assert availability.readonly_params(fn, defs) == {"%a"}


def test_unknown_calls_make_nothing_read_only() -> None:
    text = READONLY_IR.replace("  call void @free(ptr %buf)\n", "  call void @mystery()\n")
    fn = parse_function(text)
    assert availability.readonly_params(fn, fn.definitions()) == set()


def test_adjoint_sums_may_be_reassociated(built: tuple[Path, Path]) -> None:
    """Sums of adjoint contributions carry reassoc/contract (their order is the synthesis's
    choice), the primal's arithmetic keeps its own flags."""
    fn, _ = _derivative(built[1], "gl.diffe.weighted")
    sums = [i for i in fn.instructions() if i.opcode == "fadd" and i.name and "gl." in i.name]
    primal = [i for i in fn.instructions()
              if i.opcode in ("fadd", "fmul") and i.name and "gl." not in i.name]
    assert sums and all("reassoc" in i.flags and "contract" in i.flags for i in sums
                        if ".fadd." in i.name)
    assert primal and not any("reassoc" in i.flags for i in primal)


LOOPS = r"""
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
/* loops of every shape whose trip count the reverse sweep computes from start and bound */
double shapes(const double *x, int n, unsigned un, long lo) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];                  /* slt, step 1 */
  for (int i = n - 1; i >= 0; i--) s += 2 * x[i] * x[n - 1 - i];   /* sgt/sge, step -1 */
  for (int i = 1; i <= n / 2; i++) s += x[i] * i;                 /* sle */
  for (unsigned i = 0; i < un; i++) s += x[i] * x[i] * x[i];     /* ult */
  for (long i = lo; i != n; i++) s += 0.5 * x[i] * x[i];         /* ne */
  return s;
}
int main(void) {
  double x[9] = {0.5, -1.0, 2.0, 0.25, 1.5, -0.75, 3.0, 1.25, -2.0}, dx[9] = {0};
  __enzyme_autodiff((void *)shapes, enzyme_dup, x, dx, enzyme_const, 9, enzyme_const, 4u,
                    enzyme_const, 2L);
  for (int i = 0; i < 9; i++) printf("%.17g\n", dx[i]);
  return 0;
}
"""


def test_trip_counts_are_computed_not_taped(tmp_path: Path) -> None:
    exe, temps = _build(tmp_path, LOOPS, "loops")
    fn, graph = _derivative(temps, "gl.diffe.shapes")
    assert len(graph.loops) >= 5
    counts = [i for i in fn.instructions() if i.opcode == "call" and "gl.push.i64" in i.callee]
    assert counts == [], [i.text for i in counts]
    x = [0.5, -1.0, 2.0, 0.25, 1.5, -0.75, 3.0, 1.25, -2.0]
    n = 9
    want = [2 * v for v in x]
    for i in range(n):
        want[i] += 2 * x[n - 1 - i] + 2 * x[n - 1 - i]   # d/dx of 2 x_i x_{n-1-i}, both ends
    for i in range(1, n // 2 + 1):
        want[i] += i
    for i in range(4):
        want[i] += 3 * x[i] * x[i]
    for i in range(2, n):
        want[i] += x[i]
    got = [float(v) for v in sh([exe]).check().stdout.split()]
    for g, w in zip(got, want):
        assert math.isclose(g, w, rel_tol=1e-13, abs_tol=1e-14)


PAIRS = r"""
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
/* the reverse sweep learns which way `if (i == j) continue` went from i and j, not the tape */
double pairs(const double *restrict x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (i == j) continue;
      s += x[i] * x[j] * x[j];
    }
  return s;
}
int main(void) {
  double x[6] = {0.5, -1.0, 2.0, 0.25, 1.5, -0.75}, dx[6] = {0};
  __enzyme_autodiff((void *)pairs, enzyme_dup, x, dx, enzyme_const, 6);
  for (int i = 0; i < 6; i++) printf("%.17g\n", dx[i]);
  return 0;
}
"""


def test_branch_joins_recompute_the_condition(tmp_path: Path) -> None:
    exe, temps = _build(tmp_path, PAIRS, "pairs")
    fn, graph = _derivative(temps, "gl.diffe.pairs")
    assert len(graph.loops) >= 2
    assert _pushes_in_loops(fn, graph) == {}
    x = [0.5, -1.0, 2.0, 0.25, 1.5, -0.75]
    sq = sum(v * v for v in x)
    total = sum(x)
    got = [float(v) for v in sh([exe]).check().stdout.split()]
    for k, g in enumerate(got):     # d/dx_k sum_{i != j} x_i x_j^2
        want = (sq - x[k] * x[k]) + 2 * x[k] * (total - x[k])
        assert math.isclose(g, want, rel_tol=1e-13, abs_tol=1e-14)


EMPTY = r"""
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
/* with n = 0 nothing reaches x's adjoint: the empty sum must come back as 0, not -0 */
double powsum(double x, int n) {
  double s = 1;
  for (int i = 0; i < n; i++) s = s * x + 1;
  return s;
}
int main(void) {
  printf("%g %g\n", __enzyme_autodiff((void *)powsum, 0.5, 0), __enzyme_autodiff((void *)powsum, 0.5, 3));
  return 0;
}
"""


def test_adjoint_sums_start_from_minus_zero_and_return_zero(tmp_path: Path) -> None:
    """Adjoint slots start at -0.0 (so the first addition folds away), and an adjoint nothing
    was added to is returned as +0.0."""
    exe, temps = _build(tmp_path, EMPTY, "empty")
    fn, _ = _derivative(temps, "gl.diffe.powsum")
    starts = [i for i in fn.blocks[0].instrs if i.opcode == "store" and i.operands[0].type.is_float]
    assert starts and all(float(i.operands[0].ref) == 0.0 and i.operands[0].ref.startswith("-")
                          for i in starts)
    # d/dx of ((x + 1) x + 1) x + 1 = 3 x^2 + 2 x + 1 = 2.75 at 0.5
    assert sh([exe]).check().stdout.split() == ["0", "2.75"]


FROZEN = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
/* e is written once, then only read, then freed: the reverse sweep reloads it instead of
   caching it per read, and its free waits for the reverse sweep */
double table(const double *x, int n, int reps) {
  double *e = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) e[i] = exp(x[i]);
  double s = 0;
  for (int r = 0; r < reps; r++)
    for (int i = 0; i < n; i++) s += e[i] * e[(i + r) % n];
  free(e);
  return s;
}
int main(void) {
  double x[5] = {0.1, -0.4, 0.3, 0.8, -0.2}, dx[5] = {0};
  __enzyme_autodiff((void *)table, enzyme_dup, x, dx, enzyme_const, 5, enzyme_const, 3);
  for (int i = 0; i < 5; i++) printf("%.17g\n", dx[i]);
  return 0;
}
"""


def test_heap_memory_read_after_its_last_write_is_reloaded(tmp_path: Path) -> None:
    exe, temps = _build(tmp_path, FROZEN, "frozen", "-lm")
    fn, graph = _derivative(temps, "gl.diffe.table")
    inner = {b: p for b, p in _pushes_in_loops(fn, graph).items() if graph.loop_depth(b) >= 2}
    assert inner == {}
    frees = [i for i in fn.instructions() if i.opcode == "call" and i.callee == "@free"]
    assert frees and all(i.block.startswith("gl.") for i in frees), "freed in the reverse sweep"
    x, n, reps = [0.1, -0.4, 0.3, 0.8, -0.2], 5, 3
    e = [math.exp(v) for v in x]
    want = [0.0] * n      # s = sum_r sum_i e_i e_{(i+r)%n}
    for r in range(reps):
        for i in range(n):
            j = (i + r) % n
            want[i] += e[i] * e[j]
            want[j] += e[i] * e[j]
    cmd = [exe]
    if have("valgrind"):
        cmd = ["valgrind", "-q", "--leak-check=full", "--error-exitcode=9", *cmd]
    got = [float(v) for v in sh(cmd).check().stdout.split()]
    for g, w in zip(got, want):
        assert math.isclose(g, w, rel_tol=1e-13)


FROZEN_IR = """define double @f(i64 %n) {
entry:
  %a = call ptr @malloc(i64 64)
  store double 1.0, ptr %a
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %b = call ptr @malloc(i64 64)
  store double 2.0, ptr %b
  %x = load double, ptr %a
  %y = load double, ptr %b
  call void @free(ptr %b)
  %next = add i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  %z = load double, ptr %a
  store double 3.0, ptr %a
  call void @free(ptr %a)
  ret double %x
}"""


def test_frozen_loads_need_the_last_write_behind_and_no_loop_around() -> None:
    """A store to %a follows both its loads, so neither is frozen; %b is allocated in a loop
    (deferring its frees would hold one block per iteration), so %y never is. Without the
    late store, both loads of %a are reads after its last write."""
    fn = parse_function(FROZEN_IR)
    loads, allocs = availability.frozen_loads(cfg.build(fn), fn.definitions())
    assert loads == set() and allocs == set()
    fn = parse_function(FROZEN_IR.replace("  store double 3.0, ptr %a\n", ""))
    loads, allocs = availability.frozen_loads(cfg.build(fn), fn.definitions())
    assert loads == {"%x", "%z"} and allocs == {"%a"}

