"""The samples/ programs, each built with -fuse-ld=gradlink and with -fuse-ld=lld.

Every sample has a ``build.sh LINKER OUTDIR`` script; these tests run it for both linkers into
pytest's tmp_path, check that the two programs behave identically and that they print the expected
numbers (so that two equally broken programs cannot pass).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from toolchain import SAMPLES, Result, assert_same_behaviour, have, sample_files, sh


def build(sample: str, linker: str, out: Path) -> Result:
    return sh(["bash", SAMPLES / sample / "build.sh", linker, out], cwd=out.parent)


def build_both(sample: str, exe: str, tmp_path: Path) -> tuple[Path, Path]:
    """Build a sample with both linkers; returns (gradlink program, lld program).

    The lld build comes first: if it fails, the sample (not gradlink) is broken. build.sh must be
    silent on success and must not write into the source tree.
    """
    before = sample_files(sample)
    progs = {}
    for linker in ("lld", "gradlink"):
        out = tmp_path / linker
        r = build(sample, linker, out).check(f"{sample}/build.sh {linker}")
        if linker == "lld":
            assert (r.stdout, r.stderr) == ("", ""), f"build.sh is not silent:\n{r.stdout}{r.stderr}"
        built = out / exe
        assert built.is_file(), f"{sample}/build.sh {linker} did not produce {exe}"
        progs[linker] = tmp_path / f"{exe}.{linker}"
        shutil.copy2(built, progs[linker])
    assert sample_files(sample) == before, f"building {sample} changed its source tree"
    return progs["gradlink"], progs["lld"]


def test_c_multi(tmp_path: Path) -> None:
    g, r = build_both("c-multi", "phys", tmp_path)
    res = assert_same_behaviour(g, r)
    assert res.returncode == 0
    # spectrum.o is in libphys.a but unused; its constructor would write to stderr if linked in.
    # integrate.o is used; its constructor must run before main.
    assert res.stderr == ""
    assert res.stdout.startswith("integrate.o constructor: g = 9.81 m/s^2\nangle ")
    assert " 40.0    620.890   180.074   12.0111        58.8250" in res.stdout
    assert "best angle: 40.0 deg (range 620.890 m)" in res.stdout
    assert "mean range: 545.280 m, stddev: 89.558 m" in res.stdout
    assert "vacuum 45 deg: range 1467.805 m (analytic 1467.890 m)" in res.stdout
    assert len(res.stdout.splitlines()) == 14


def test_cxx(tmp_path: Path) -> None:
    g, r = build_both("cxx", "shapes", tmp_path)
    res = assert_same_behaviour(g, r)
    assert res.returncode == 0, res.stdout + res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "registered kinds: circle rect square"  # static constructor ran first
    assert "caught: unknown shape kind: 'hexagon'" in lines
    assert "caught: rect needs two sides: 'rect 4'" in lines
    assert "square(2.500000)           area    6.2500 perimeter 10.0000" in lines
    assert "shapes: 4 built, 2 rejected, 4 constructed" in lines
    assert "total area 20.1040, largest 7.0686, mean 5.0260" in lines
    assert "mean perimeter 8.1416, longest name 23" in lines


@pytest.mark.skipif(not have("rustc"), reason="rustc not installed")
def test_rust_staticlib(tmp_path: Path) -> None:
    g, r = build_both("rust-staticlib", "rsmath", tmp_path)
    res = assert_same_behaviour(g, r)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "dot(a, b)   = 1.748392" in res.stdout
    assert "norm(a)     = 27.113533" in res.stdout
    assert "var(a)      = 45.923357" in res.stdout
    assert "describe(a) = 16 values, min -10.548, max 15.008 (34 chars)" in res.stdout
    assert "median(a)   = 0.973346" in res.stdout
    assert "sorted a[0] = -10.548167, a[15] = 15.008000" in res.stdout


def test_fortran_kernel(tmp_path: Path) -> None:
    g, r = build_both("fortran-kernel", "kernel", tmp_path)
    res = assert_same_behaviour(g, r)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "x . y          = -72.372991" in res.stdout
    assert "y[0], y[999]   = 2.500000, -1.112174" in res.stdout
    assert "sum after axpy = 365.794695" in res.stdout
    assert "||y||          = 56.916925" in res.stdout  # norm2 comes from libflang_rt.runtime.a
    assert "peak |y| at    = 633 (value 3.130306)" in res.stdout


def test_cmake_presets(tmp_path: Path) -> None:
    """Configure and build samples/cmake-project with the root CMakePresets.json presets."""
    project = SAMPLES / "cmake-project"
    before = sample_files("cmake-project")
    progs = {}
    for preset in ("lld", "gradlink"):
        bdir = tmp_path / f"build-{preset}"
        sh(["cmake", "--preset", preset, "-B", bdir], cwd=project).check(f"cmake --preset {preset}")
        cache = (bdir / "CMakeCache.txt").read_text()
        assert f"CMAKE_EXE_LINKER_FLAGS:STRING=-fuse-ld={preset}\n" in cache
        assert re.search(r"^CMAKE_AR:\w+=\S*llvm-ar-22$", cache, re.M)
        assert re.search(r"^CMAKE_C_FLAGS:STRING=-flto$", cache, re.M)
        sh(["cmake", "--build", bdir, "--", "VERBOSE=1"]).check(f"cmake --build ({preset})")
        progs[preset] = tmp_path / f"orbit_demo.{preset}"
        shutil.copy2(bdir / "orbit_demo", progs[preset])
    assert sample_files("cmake-project") == before, "the CMake build wrote into the source tree"

    res = assert_same_behaviour(progs["gradlink"], progs["lld"])
    assert res.returncode == 0, res.stdout + res.stderr
    assert " 2.50  -1.09734   0.69404   1.29841      6" in res.stdout
    assert " 5.00  -1.60000   0.00000   1.60000      1" in res.stdout
    assert "perimeter (Simpson, n=64):  5.672333578" in res.stdout
    assert "perimeter (Ramanujan):      5.672333578" in res.stdout


def test_gradient_sample(tmp_path: Path) -> None:
    """samples/gradient: derivatives of an RK4 integration agree with finite differences."""
    sh([SAMPLES / "gradient" / "build.sh", "gradlink", tmp_path]).check("gradient sample build")
    lines = sh([tmp_path / "range"]).check().stdout.splitlines()
    assert lines[0] == "range 529.281 m"
    for line in lines[1:]:
        ad = float(line.split(":")[1].split()[0])
        fd = float(line.split("differences")[1].strip(" )"))
        assert abs(ad - fd) <= 1e-6 * abs(fd), line
