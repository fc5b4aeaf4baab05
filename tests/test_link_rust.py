"""End-to-end Rust links with cross-language LTO (``-C linker-plugin-lto``): rustc drives clang-22,
which runs ld.gradlink or lld. The crate itself is bitcode; the std objects in rustc's rlibs are
ELF objects that also carry their bitcode in a .llvmbc section."""

from __future__ import annotations

from pathlib import Path

import pytest
from toolchain import AR, CC, READELF, assert_same_behaviour, compile_c, have, link, sh

PROG = Path(__file__).parent / "programs" / "rust"
RUSTC = "rustc"
LINKERS = ("gradlink", "lld")

pytestmark = pytest.mark.skipif(not have(RUSTC), reason="rustc not installed")


def rustc(*args: str | Path, cwd: Path):
    return sh([RUSTC, "-O", "-C", "linker-plugin-lto", *args], cwd=cwd)


@pytest.mark.parametrize("codegen_units", ["16", "1"])
def test_rust_binary(tmp_path, codegen_units):
    exes = {}
    for linker in LINKERS:
        exes[linker] = tmp_path / f"rust_main.{linker}"
        rustc("-C", f"codegen-units={codegen_units}", "-C", f"linker={CC}", "-C", f"link-arg=-fuse-ld={linker}",
              PROG / "main.rs", "-o", exes[linker], cwd=tmp_path).check(f"rustc linking with {linker}")
    res = assert_same_behaviour(exes["gradlink"], exes["lld"])
    assert res.returncode == 0, res.stderr
    for line in [
        "freq: brown=1,dog=1,fox=2,jumps=1,lazy=1,over=1,quick=1,the=3",
        "unique letters: 26",
        "queue: [4, 5, 6, 7, 8, 9, 10, 1, 2, 3]",
        "primes: [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59] sum=440",
        "by length: brown jumps quick lazy over dog fox the",
        "point (0.333, -2.500) debug Point { x: 0.3333333333333333, y: -2.5 }",
        "[   right] [left    ] [  mid   ] [-003.142] [0xff] [0b101] [1.2345e3]",
        "sin=0.681639 cos=0.731689 exp=2.117000 ln=-0.287682",
        "sqrt2=1.4142135624 pow=2.755676 atan2=2.356194 hypot=5.000",
        "polygon area 12.00",
        "mean prime 25.8824",
        "panic hook: division of 7 by zero",
        "ok=Ok(42) bad_is_err=true",
        "panic hook: index out of bounds: the len is 0 but the index is 3",
        "index panic caught: true",
    ]:
        assert line in res.stdout.splitlines(), f"missing {line!r} in:\n{res.stdout}"


@pytest.fixture(scope="module")
def rust_staticlib(tmp_path_factory) -> tuple[Path, Path, list[str]]:
    d = tmp_path_factory.mktemp("rust-staticlib")
    lib = d / "libmathlib.a"
    res = rustc("--crate-type=staticlib", PROG / "mathlib.rs", "-o", lib, "--print", "native-static-libs",
                cwd=d).check("rustc staticlib")
    native_libs = next(line.split("native-static-libs:", 1)[1].split()
                       for line in res.stderr.splitlines() if "native-static-libs:" in line)
    return d, lib, native_libs


def test_rust_staticlib_contents(rust_staticlib):
    """The inputs are what this test is about: bitcode for the crate, ELF + .llvmbc for std."""
    d, lib, _ = rust_staticlib
    members = sh([AR, "t", lib]).check("llvm-ar t").stdout.split()
    crate = [m for m in members if m.startswith(("mathlib.", "libmathlib."))]
    std = [m for m in members if m.startswith("std-")]
    assert crate and std, members[:20]
    x = d / "extracted"
    x.mkdir(exist_ok=True)
    sh([AR, "x", lib, crate[0], std[0]], cwd=x).check("llvm-ar x")
    assert (x / crate[0]).read_bytes()[:4] == b"BC\xc0\xde", f"{crate[0]} is not bitcode"
    assert (x / std[0]).read_bytes()[:4] == b"\x7fELF", f"{std[0]} is not ELF"
    sections = sh([READELF, "-S", "-W", x / std[0]]).check("readelf").stdout
    assert ".llvmbc" in sections, f"{std[0]} has no .llvmbc section"


def test_rust_staticlib_from_c(rust_staticlib):
    d, lib, native_libs = rust_staticlib
    main = compile_c(PROG / "call_mathlib.c", d / "call_mathlib.o", "-O2", "-flto")
    exes = {}
    for linker in LINKERS:
        exes[linker] = d / f"call_mathlib.{linker}"
        link([main, lib, *native_libs], exes[linker], "-flto", linker=linker).check(f"{linker} link")
    res = assert_same_behaviour(exes["gradlink"], exes["lld"])
    assert res.returncode == 0, res.stderr
    assert res.stdout == "sum_squares(10)=385\nrms=42.500000\ndistinct=5\nparse=1234 bad=-1\n"
