"""Fat objects feed AD: a fat object or archive member links as native code unless a
derivative needs a function it defines; then its bitcode replaces its native code (never both).

Fat objects come from clang's -ffat-lto-objects (.llvm.lto) and -fembed-bitcode (.llvmbc). The
tests check the gradient against its analytic value, which members entered as bitcode
(--gradlink-verbose names each with the function that needed it), that the same archive links
with plain lld, that -Wl,--fat-lto-objects takes every fat member's bitcode, and that broken
bitcode matters only where AD needs it."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from toolchain import AR, CC, compile_c, have, link, sh

pytestmark = pytest.mark.skipif(not (have(CC) and have("ld.gradlink")), reason="toolchain missing")

LIB = r"""
#include <math.h>
double lib_helper(double v);
double lib_energy(const double *x, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) e += lib_helper(x[i]) * x[i];
  return e;
}
double lib_other(double x) { return x * 2; }
"""
HELPER = "#include <math.h>\ndouble lib_helper(double v) { return sin(v); }\n"
UNUSED = "double lib_unused(double x) { return x * 3; }\n"
MAIN = r"""
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double lib_energy(const double *x, int n);
double lib_other(double), lib_unused(double);
int main(void) {
  double x[3] = {0.1, 0.2, 0.3}, dx[3] = {0};
  __enzyme_autodiff((void *)lib_energy, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 3; i++) printf("%.17g\n", dx[i]);
  printf("%g %g\n", lib_other(1), lib_unused(1));
  return 0;
}
"""
PLAIN_MAIN = r"""
#include <stdio.h>
double lib_energy(const double *x, int n);
int main(void) { double x[2] = {1, 2}; printf("%.6f\n", lib_energy(x, 2)); return 0; }
"""


def _check(exe: Path) -> None:
    out = sh([exe]).check().stdout.split()
    for i, v in enumerate((0.1, 0.2, 0.3)):
        assert math.isclose(float(out[i]), math.cos(v) * v + math.sin(v), rel_tol=1e-14)
    assert out[3:] == ["2", "3"]


def _library(tmp: Path, *flags: str) -> Path:
    objs = []
    for name, src in (("energy", LIB), ("helper", HELPER), ("unused", UNUSED)):
        (tmp / f"{name}.c").write_text(src)
        objs.append(compile_c(tmp / f"{name}.c", tmp / f"{name}.o", "-O2", *flags))
    sh([AR, "rcs", tmp / "libphys.a", *objs]).check()
    (tmp / "main.c").write_text(MAIN)
    compile_c(tmp / "main.c", tmp / "main.o", "-O2", "-flto")
    return tmp / "libphys.a"


def _pulled(stderr: str) -> list[str]:
    return re.findall(r"bitcode of \S+\((\w+)\.o\) joins the LTO unit for '(\w+)'", stderr)


@pytest.mark.parametrize("flags", [("-flto", "-ffat-lto-objects"), ("-fembed-bitcode",)],
                         ids=["llvm.lto", "llvmbc"])
def test_fat_archive_members_feed_ad(tmp_path: Path, flags: tuple[str, ...]) -> None:
    _library(tmp_path, *flags)
    res = link([tmp_path / "main.o", f"-L{tmp_path}", "-lphys", "-lm"], tmp_path / "m",
               "-Wl,--gradlink-verbose")
    assert res.returncode == 0, res.stderr
    # the differentiated function's member, then the member of the function it calls; the
    # member nobody differentiates stays native
    assert sorted(_pulled(res.stderr)) == [("energy", "lib_energy"), ("helper", "lib_helper")]
    _check(tmp_path / "m")


def test_fat_archive_links_with_plain_lld(tmp_path: Path) -> None:
    _library(tmp_path, "-flto", "-ffat-lto-objects")
    (tmp_path / "plain.c").write_text(PLAIN_MAIN)
    sh([CC, "-O2", "-fuse-ld=lld", tmp_path / "plain.c", f"-L{tmp_path}", "-lphys", "-lm",
        "-o", tmp_path / "plain"]).check()
    assert sh([tmp_path / "plain"]).check().stdout.strip() == f"{math.sin(1) + 2 * math.sin(2):.6f}"


def test_fat_object_on_the_command_line(tmp_path: Path) -> None:
    _library(tmp_path, "-flto", "-ffat-lto-objects")
    res = link([tmp_path / "main.o", tmp_path / "energy.o", tmp_path / "helper.o",
                tmp_path / "unused.o", "-lm"], tmp_path / "m", "-Wl,--gradlink-verbose")
    assert res.returncode == 0, res.stderr
    assert sorted(n for _, n in re.findall(r"bitcode of (\S+) joins the LTO unit for '(\w+)'",
                                           res.stderr)) == ["lib_energy", "lib_helper"]
    _check(tmp_path / "m")


def test_fat_lto_objects_takes_every_member(tmp_path: Path) -> None:
    _library(tmp_path, "-flto", "-ffat-lto-objects")
    res = link([tmp_path / "main.o", "-Wl,--whole-archive", f"{tmp_path}/libphys.a",
                "-Wl,--no-whole-archive", "-lm"], tmp_path / "m",
               "-Wl,--gradlink-verbose", "-Wl,--fat-lto-objects")
    assert res.returncode == 0, res.stderr
    assert "LTO unit: 4 bitcode module(s)" in res.stderr and not _pulled(res.stderr)
    _check(tmp_path / "m")


def test_broken_bitcode_matters_only_where_ad_needs_it(tmp_path: Path) -> None:
    if not have("llvm-objcopy-22"):
        pytest.skip("llvm-objcopy-22 not installed")
    _library(tmp_path, "-flto", "-ffat-lto-objects")
    (tmp_path / "junk.bin").write_bytes(b"BC\xc0\xde" + b"\x00garbage" * 8)
    for name in ("energy", "unused"):
        sh(["llvm-objcopy-22", "--update-section", f".llvm.lto={tmp_path / 'junk.bin'}",
            tmp_path / f"{name}.o", tmp_path / f"{name}.bad.o"]).check()
    # the unused member's bitcode is broken: nobody needs it, the link works
    objs = [tmp_path / "main.o", tmp_path / "energy.o", tmp_path / "helper.o",
            tmp_path / "unused.bad.o", "-lm"]
    link(objs, tmp_path / "m").check()
    _check(tmp_path / "m")
    # the differentiated function's bitcode is broken: a clear error naming the object
    objs[1] = tmp_path / "energy.bad.o"
    res = link(objs, tmp_path / "m2")
    assert res.returncode != 0 and not (tmp_path / "m2").exists()
    assert "energy.bad.o: invalid bitcode" in res.stderr and "lib_energy" in res.stderr
    assert "Traceback" not in res.stderr
