"""Allocators the program registers (Enzyme's ``__enzyme_allocation_like``) and functions that
free (``__enzyme_function_like = {fn, "free"}``).

A registered allocator is not differentiated: a call of it is an allocation, whose shadow the
allocator itself makes (same arguments), zeroed over the size argument's bytes, and freed with
the registered deallocator, whose arguments the index string picks (-1 the pointer). The pool
below counts its allocations and frees, so a shadow made with the wrong function, or never
freed, shows in the counts; the gradients are checked against central differences and forward
against reverse (the dot-product test)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from toolchain import CC, compile_c, have, link, sh

pytestmark = pytest.mark.skipif(not (have(CC) and have("ld.gradlink")), reason="toolchain missing")

POOL = r"""
#include <stddef.h>
typedef struct { char *base; size_t used; int allocs, frees; } pool_t;
void *pool_alloc(pool_t *p, unsigned n) {
  void *r = p->base + p->used;
  p->used += (n + 15) & ~15u;
  p->allocs++;
  return r;
}
void pool_release(pool_t *p, void *ptr) { if (ptr) p->frees++; }
void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1, (void *)"0,-1",
                                     (void *)pool_release};
"""

MAIN = r"""
#include <math.h>
#include <stdio.h>
typedef struct { char *base; unsigned long used; int allocs, frees; } pool_t;
void *pool_alloc(pool_t *p, unsigned n);
void pool_release(pool_t *p, void *ptr);
extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double energy(pool_t *pool, const double *x, int n) {
  double *t = pool_alloc(pool, n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = sin(x[i]) * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[(i + 1) % n];
  pool_release(pool, t);
  return s;
}
int main(void) {
  enum { N = 6 };
  static char mem[1 << 16];
  pool_t pool = {mem, 0, 0, 0};
  double x[N], dx[N] = {0}, v[N], xp[N], xm[N], h = 1e-6;
  for (int i = 0; i < N; i++) { x[i] = 0.3 + 0.2 * i; v[i] = 1.0 / (i + 1); }
  __enzyme_autodiff((void *)energy, enzyme_const, &pool, x, dx, N);
  printf("%d %d\n", pool.allocs, pool.frees);
  double jv = __enzyme_fwddiff((void *)energy, enzyme_const, &pool, x, v, N);
  printf("%d %d\n", pool.allocs, pool.frees);
  double utjv = 0;
  for (int i = 0; i < N; i++) { utjv += dx[i] * v[i]; xp[i] = x[i] + h * v[i]; xm[i] = x[i] - h * v[i]; }
  printf("%.17g %.17g %.17g\n", utjv, jv, (energy(&pool, xp, N) - energy(&pool, xm, N)) / (2 * h));
  return 0;
}
"""


def build(tmp: Path, sources: dict[str, str], *flags: str) -> tuple[int, str, Path]:
    objs = []
    for name, src in sources.items():
        (tmp / f"{name}.c").write_text(src)
        objs.append(compile_c(tmp / f"{name}.c", tmp / f"{name}.o", "-O2", "-flto", *flags))
    exe = tmp / "prog"
    res = link([*objs, "-lm"], exe)
    return res.returncode, res.stderr, exe


def check_pool_program(exe: Path) -> None:
    rev, fwd, nums = sh([exe]).check().stdout.splitlines()
    # reverse: the primal's allocation and its shadow, both released; forward likewise
    assert rev.split() == ["2", "2"] and fwd.split() == ["4", "4"]
    utjv, jv, fd = map(float, nums.split())
    assert math.isclose(utjv, jv, rel_tol=1e-13)                # <J^T u, v> = <u, J v>
    assert math.isclose(jv, fd, rel_tol=1e-7)


def test_registered_allocator_makes_and_frees_the_shadows(tmp_path: Path) -> None:
    code, err, exe = build(tmp_path, {"pool": POOL, "main": MAIN})
    assert code == 0, err
    check_pool_program(exe)


def test_registered_allocator_in_the_same_file_is_refused_or_right(tmp_path: Path) -> None:
    """The compile before the link may inline pool_alloc into energy: then the registration
    cannot be honoured, and the link must stop (naming the way out), never be wrong."""
    src = POOL + "\n".join(line for line in MAIN.splitlines() if not line.startswith("typedef"))
    code, err, exe = build(tmp_path, {"main": src})
    if code != 0:
        assert "pool_alloc" in err and "noinline" in err and "Traceback" not in err
    else:
        check_pool_program(exe)
    # (pool_release too: inlined, forward mode would have no call to free the shadow with)
    code, err, exe = build(tmp_path, {"main": src.replace(
        "void *pool_alloc(pool_t *p, unsigned n) {",
        "__attribute__((noinline)) void *pool_alloc(pool_t *p, unsigned n) {").replace(
        "void pool_release(", "__attribute__((noinline)) void pool_release(")})
    assert code == 0, err
    check_pool_program(exe)


FREE_LIKE = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
int released;
__attribute__((noinline)) void *buf_new(int tag, size_t n) { (void)tag; return malloc(n); }
__attribute__((noinline)) void buf_drop(void *p) { released++; free(p); }
void *__enzyme_allocation_like[4] = {(void *)buf_new, (void *)1, (void *)"-1", (void *)buf_drop};
__attribute__((noinline)) void my_free(void *p) { released += 100; free(p); }
void *__enzyme_function_like[2] = {(void *)my_free, (void *)"free"};
extern int enzyme_dup;
double __enzyme_fwddiff(void *, ...);
double f(const double *x) {
  double *a = buf_new(7, 2 * sizeof(double));
  double *b = malloc(2 * sizeof(double));
  a[0] = x[0] * x[1]; a[1] = sin(x[0]);
  b[0] = a[0] * a[1]; b[1] = exp(a[1]);
  double r = b[0] + b[1];
  buf_drop(a);
  my_free(b);
  return r;
}
int main(void) {
  double x[2] = {0.7, -1.3}, v[2] = {1, 0};
  double t = __enzyme_fwddiff((void *)f, x, v);
  printf("%d %.17g\n", released, t);
  return 0;
}
"""


def test_forward_mode_frees_shadows_with_the_registered_functions(tmp_path: Path) -> None:
    code, err, exe = build(tmp_path, {"main": FREE_LIKE})
    assert code == 0, err
    released, t = sh([exe]).check().stdout.split()
    # buf_drop and my_free each ran twice: for the memory and for its shadow
    assert released == "202"
    x0, x1 = 0.7, -1.3
    want = x1 * math.sin(x0) + x0 * x1 * math.cos(x0) + math.exp(math.sin(x0)) * math.cos(x0)
    assert math.isclose(float(t), want, rel_tol=1e-14)


@pytest.mark.parametrize(("entries", "message"), [
    ('(void *)1, (void *)"x", (void *)pool_release',
     "the deallocator's arguments 'x' are not a list of indices"),
    ('(void *)0, (void *)"0,-1", (void *)pool_release',
     "pool_alloc must return a pointer and take the size as its argument 0, an integer"),
    ('(void *)1, (void *)"0,-1,1", (void *)pool_release',
     "\"0,-1,1\" does not fit pool_release's 2 and pool_alloc's 2 arguments"),
    ('(void *)1, (void *)"0,-1"', "must hold 4 pointers"),
])
def test_a_registration_gradlink_cannot_read_stops_the_link(tmp_path: Path, entries: str,
                                                            message: str) -> None:
    pool = POOL.split("void *__enzyme_allocation_like")[0] + \
        f"void *__enzyme_allocation_like[] = {{(void *)pool_alloc, {entries}}};\n"
    code, err, exe = build(tmp_path, {"pool": pool, "main": MAIN})
    assert code != 0 and not exe.exists() and "Traceback" not in err
    assert "ld.gradlink: error:" in err and "__enzyme_allocation_like" in err and message in err
