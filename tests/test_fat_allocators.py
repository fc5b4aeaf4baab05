"""Allocation-like and free-like functions in fat libraries' manifests.

A library whose memory comes from its own pool registers the pool's allocator
(``__enzyme_allocation_like``) and its freeing functions (``__enzyme_function_like = {fn,
"free"}``) in its source, or in a --derivatives file. `gradlink fat build` moves them into the
manifest, and a consumer differentiating code that allocates from the pool needs no
registration of its own, also against the stripped (closed-source) library, where the
allocator exists only as native code. The pool counts allocations and frees, so a shadow made
or freed the wrong way shows; gradients are checked against central differences."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from toolchain import CC, compile_c, have, link, sh

pytestmark = pytest.mark.skipif(not (have(CC) and have("ld.gradlink")), reason="toolchain missing")

POOL = r"""
#include <stdlib.h>
typedef struct { char *base; size_t used; int allocs, frees; } pool_t;
pool_t *pool_new(void) {
  pool_t *p = calloc(1, sizeof *p);
  p->base = malloc(1 << 16);
  return p;
}
void *pool_get(pool_t *p, size_t n) {
  void *r = p->base + p->used;
  p->used += (n + 15) & ~(size_t)15;
  p->allocs++;
  return r;
}
void pool_put(void *ptr, pool_t *p) { if (ptr) p->frees++; }
int pool_count(const pool_t *p, int frees) { return frees ? p->frees : p->allocs; }
REGISTRATION
"""
IN_SOURCE = ('void *__enzyme_allocation_like[4] = {(void *)pool_get, (void *)1, (void *)"-1,0", '
             "(void *)pool_put};")

USER = r"""
#include <math.h>
#include <stdio.h>
typedef struct pool pool_t;
pool_t *pool_new(void);
void *pool_get(pool_t *p, unsigned long n);
void pool_put(void *ptr, pool_t *p);
int pool_count(const pool_t *p, int frees);
extern int enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double loss(pool_t *pool, const double *x) {
  double *t = pool_get(pool, 3 * sizeof(double));
  for (int i = 0; i < 3; i++) t[i] = exp(x[i]) * x[(i + 1) % 3];
  double s = t[0] * t[1] + t[2];
  pool_put(t, pool);
  return s;
}
int main(void) {
  pool_t *pool = pool_new();
  double x[3] = {0.2, -0.4, 0.9}, dx[3] = {0}, v[3] = {0.5, 1, -2}, xp[3], xm[3], h = 1e-6;
  __enzyme_autodiff((void *)loss, enzyme_const, pool, x, dx);
  double jv = __enzyme_fwddiff((void *)loss, enzyme_const, pool, x, v), utjv = 0;
  for (int i = 0; i < 3; i++) { utjv += dx[i] * v[i]; xp[i] = x[i] + h * v[i]; xm[i] = x[i] - h * v[i]; }
  int a = pool_count(pool, 0), f = pool_count(pool, 1);
  double fd = (loss(pool, xp) - loss(pool, xm)) / (2 * h);
  printf("%d %d %.17g %.17g %.17g\n", a, f, utjv, jv, fd);
  return 0;
}
"""


def gradlink(*args: str | Path) -> tuple[int, str]:
    res = sh(["gradlink", *args])
    return res.returncode, res.stdout + res.stderr


def _library(tmp: Path, registration: str, *build_args: str | Path) -> tuple[int, str]:
    (tmp / "pool.c").write_text(POOL.replace("REGISTRATION", registration))
    obj = compile_c(tmp / "pool.c", tmp / "pool.o", "-O2", "-flto")
    return gradlink("fat", "build", "-o", tmp / "libpool.a", obj, *build_args)


def _consume(tmp: Path, lib: str = "pool", *flags: str) -> None:
    (tmp / "user.c").write_text(USER)
    uobj = compile_c(tmp / "user.c", tmp / "user.o", "-O2", "-flto")
    res = link([uobj, f"-L{tmp}", f"-l{lib}", "-lm"], tmp / "u", "-Wl,--gradlink-verbose", *flags)
    assert res.returncode == 0, res.stderr
    assert "allocation_like entry for 'pool_get'" in res.stderr
    if not flags:
        assert "joins the LTO unit" not in res.stderr, "the allocator is not differentiated"
    a, f, utjv, jv, fd = sh([tmp / "u"]).check().stdout.split()
    # two allocations (the memory and its shadow) in each mode, all released
    assert (a, f) == ("4", "4")
    assert math.isclose(float(utjv), float(jv), rel_tol=1e-13)
    assert math.isclose(float(jv), float(fd), rel_tol=1e-7)


def test_in_source_allocator_travels_in_the_manifest(tmp_path: Path) -> None:
    code, out = _library(tmp_path, IN_SOURCE)
    assert code == 0, out
    code, out = gradlink("fat", "inspect", tmp_path / "libpool.a")
    assert code == 0 and "allocation_like: deallocator=pool_put, deallocator_arguments=[-1, 0], " \
        "function=pool_get" in out and "size_argument=1" in out, out
    _consume(tmp_path)
    # every member as bitcode: the registration of the source and of the manifest are one
    _consume(tmp_path, "pool", "-Wl,--fat-lto-objects")


def test_stripped_library_allocator_is_native_only(tmp_path: Path) -> None:
    assert _library(tmp_path, IN_SOURCE)[0] == 0
    code, out = gradlink("fat", "strip-bitcode", "-o", tmp_path / "libpoolc.a",
                         tmp_path / "libpool.a")
    assert code == 0, out
    _consume(tmp_path, "poolc")


def test_derivatives_file_declares_allocator_and_free_like(tmp_path: Path) -> None:
    (tmp_path / "d.toml").write_text(
        '[[entries]]\nkind = "allocation_like"\nfunction = "pool_get"\nsize_argument = 1\n'
        'deallocator = "pool_put"\ndeallocator_arguments = [-1, 0]\n')
    code, out = _library(tmp_path, "", "--derivatives", tmp_path / "d.toml")
    assert code == 0, out
    _consume(tmp_path)


def test_free_like_entry_frees_shadows_in_forward_mode(tmp_path: Path) -> None:
    """A function_like "free" entry: the library's release function frees its first argument,
    so forward mode frees the shadow of malloc'ed memory with it too."""
    lib = r"""
#include <stdlib.h>
int released;
void buf_release(void *p) { released++; free(p); }
int buf_released(void) { return released; }
void *__enzyme_function_like[2] = {(void *)buf_release, (void *)"free"};
"""
    user = r"""
#include <stdio.h>
#include <stdlib.h>
void buf_release(void *p);
int buf_released(void);
double __enzyme_fwddiff(void *, ...);
double f(double x) {
  double *b = malloc(2 * sizeof(double));
  b[0] = x * x; b[1] = 3 * b[0];
  double r = b[1] * x;
  buf_release(b);
  return r;
}
int main(void) { double t = __enzyme_fwddiff((void *)f, 2.0, 1.0);
                 printf("%d %.17g\n", buf_released(), t); return 0; }
"""
    (tmp_path / "buf.c").write_text(lib)
    (tmp_path / "user.c").write_text(user)
    obj = compile_c(tmp_path / "buf.c", tmp_path / "buf.o", "-O2", "-flto")
    code, out = gradlink("fat", "build", "-o", tmp_path / "libbuf.a", obj)
    assert code == 0, out
    assert "function_like: function=buf_release, like=free" in gradlink(
        "fat", "inspect", tmp_path / "libbuf.a")[1]
    uobj = compile_c(tmp_path / "user.c", tmp_path / "user.o", "-O2", "-flto")
    link([uobj, f"-L{tmp_path}", "-lbuf", "-lm"], tmp_path / "u").check()
    released, t = sh([tmp_path / "u"]).check().stdout.split()
    assert released == "2" and float(t) == 9 * 2.0 ** 2          # d/dx 3x^3 at 2


@pytest.mark.parametrize("entry,needle", [
    ({"size_argument": -1}, "'size_argument' of allocator pool_get must be the index"),
    ({"deallocator_arguments": [-1, "p"]}, "'deallocator_arguments' of allocator pool_get"),
    ({"deallocator": "pool_gone"}, "'pool_gone', which no object of the library defines"),
], ids=["size", "arguments", "missing-deallocator"])
def test_bad_allocator_entry_stops_the_build(tmp_path: Path, entry: dict[str, object],
                                             needle: str) -> None:
    good = {"kind": "allocation_like", "function": "pool_get", "size_argument": 1,
            "deallocator": "pool_put", "deallocator_arguments": [-1, 0]}
    (tmp_path / "d.json").write_text(json.dumps({"entries": [{**good, **entry}]}))
    code, out = _library(tmp_path, "", "--derivatives", tmp_path / "d.json")
    assert code != 0 and needle in out and "Traceback" not in out, out
    assert not (tmp_path / "libpool.a").exists()


@pytest.mark.parametrize("change,needle", [
    ({"deallocator": "pool_gone"}, "names 'pool_gone' (the deallocator of pool_get), which"),
    ({"signatures": {"pool_get": {"ret": "ptr", "params": ["ptr", "i32"]}}},
     "the manifest's signature of pool_get (ptr (ptr, i32)) does not match the program's"),
], ids=["missing-deallocator", "signature"])
def test_bad_allocator_manifest_is_an_ld_error(tmp_path: Path, change: dict[str, object],
                                               needle: str) -> None:
    """A library whose manifest (written by another tool, or damaged) names a deallocator it
    does not define, or gives the allocator another signature: an ld-style error naming the
    library member, nothing written."""
    from fatlib.manifest import encode

    if not have("llvm-objcopy-22"):
        pytest.skip("llvm-objcopy-22 not installed")
    assert _library(tmp_path, IN_SOURCE)[0] == 0
    sh(["llvm-ar-22", "x", tmp_path / "libpool.a", "--output", tmp_path]).check()
    entry = {"kind": "allocation_like", "function": "pool_get", "size_argument": 1,
             "deallocator": "pool_put", "deallocator_arguments": [-1, 0], **change}
    (tmp_path / "m.bin").write_bytes(encode([entry]))
    sh(["llvm-objcopy-22", "--update-section", f".gradlink.manifest={tmp_path / 'm.bin'}",
        tmp_path / "pool.o", tmp_path / "bad.o"]).check()
    (tmp_path / "user.c").write_text(USER)
    uobj = compile_c(tmp_path / "user.c", tmp_path / "user.o", "-O2", "-flto")
    res = link([uobj, tmp_path / "bad.o", "-lm"], tmp_path / "u")
    assert res.returncode != 0 and not (tmp_path / "u").exists()
    assert "ld.gradlink: error: " in res.stderr and needle in res.stderr, res.stderr
    assert "bad.o" in res.stderr and "Traceback" not in res.stderr
