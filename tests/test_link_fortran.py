"""End-to-end Fortran links: flang-22 -flto objects linked by the flang driver with ld.gradlink and
with lld (the driver adds the Fortran runtime, libflang_rt.runtime)."""

from __future__ import annotations

from pathlib import Path

import pytest
from toolchain import CC, FC, assert_same_behaviour, compile_c, have, link_both, sh

PROG = Path(__file__).parent / "programs" / "fortran"

pytestmark = pytest.mark.skipif(not have(FC), reason=f"{FC} not installed")


def fortran(src: Path, out: Path, moddir: Path) -> Path:
    """Compile one Fortran source with -O2 -flto; .mod files go to MODDIR."""
    sh([FC, "-c", "-O2", "-flto", f"-J{moddir}", src, "-o", out], cwd=moddir).check(f"{FC} {src.name}")
    assert out.read_bytes()[:4] == b"BC\xc0\xde", f"{out.name} is not bitcode"
    return out


def test_fortran_program(tmp_path):
    objs = [fortran(PROG / "stats_mod.f90", tmp_path / "stats_mod.o", tmp_path),
            fortran(PROG / "main.f90", tmp_path / "main.o", tmp_path)]
    g, r = link_both(objs, tmp_path, "fortran_main", "-flto", driver=FC)
    res = assert_same_behaviour(g, r)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == [
        "series damped  40",
        "mean     4.335236 stddev     1.421542",
        "min/max     1.467588    6.660409",
        "argmax  40",
        "row 2    1.6667   2.0000   2.2000   2.3333   2.4286",
        "matmul trace   143.028961",
        "moved 4 F  99.000",
        "poly(1.5)  -0.03125000",
        "integral  -6.28318660",
        "gamma/bessel   5.234278E+01    0.223891",
        "ints 8 1048576",
    ]


def test_fortran_called_from_c(tmp_path):
    objs = [compile_c(PROG / "call_fortran.c", tmp_path / "call_fortran.o", "-O2", "-flto", compiler=CC),
            fortran(PROG / "c_api.f90", tmp_path / "c_api.o", tmp_path)]
    g, r = link_both(objs, tmp_path, "c_calls_fortran", "-flto", driver=FC)
    res = assert_same_behaviour(g, r)
    assert res.returncode == 0, res.stderr
    assert res.stdout == ("axpy: 12.500 4.000 8.000 12.000\n"
                          "norm: 19.500000\n"
                          "fortran sorted:   4.000   8.000  12.000  12.500\n"
                          "back in C\n")
