"""The fat-library samples (samples/fat-*), one per language, built by their build.sh.

Like samples/gradient (tests/test_samples.py), these programs differentiate, so they are built
with ``build.sh gradlink OUTDIR`` only; each sample also links a program without derivatives
with -fuse-ld=lld, which shows the fat library is an ordinary static library. The printed
gradients are checked against analytic values computed here (tightly: the samples print 10
decimals) and against the programs' own central finite differences, and a verbose relink checks
that the derivatives came from the library's manifest (registered or precompiled) with the
library member staying native code.
"""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pytest
from toolchain import CC, CXX, FC, SAMPLES, Result, have, sample_files, sh

pytestmark = pytest.mark.skipif(not (have(CC) and have("ld.gradlink") and have("gradlink")),
                                reason="clang-22 or gradlink missing")

GRAD_LINE = re.compile(r"= ([+-]\d+\.\d+)\s+\(finite differences ([+-]\d+\.\d+)\)$")


def build(sample: str, out: Path) -> Path:
    """build.sh gradlink OUT: silent on success, nothing written into the source tree."""
    before = sample_files(sample)
    r = sh(["bash", SAMPLES / sample / "build.sh", "gradlink", out], cwd=out.parent)
    r.check(f"{sample}/build.sh gradlink")
    assert (r.stdout, r.stderr) == ("", ""), f"build.sh is not silent:\n{r.stdout}{r.stderr}"
    assert sample_files(sample) == before, f"building {sample} changed its source tree"
    return out


def run(exe: Path) -> str:
    r = sh([exe])
    assert r.returncode == 0 and r.stderr == "", f"{exe.name} failed:\n{r.stdout}{r.stderr}"
    return r.stdout


def gradients(stdout: str) -> list[tuple[float, float]]:
    """(derivative, finite differences) of every line printing both."""
    return [(float(m.group(1)), float(m.group(2)))
            for m in (GRAD_LINE.search(ln) for ln in stdout.splitlines()) if m]


def check_gradients(stdout: str, want: list[float], fd_rel: float = 1e-6) -> None:
    got = gradients(stdout)
    assert len(got) == len(want), stdout
    for (g, fd), w in zip(got, want):
        # 10 printed decimals: a correct derivative matches to rounding
        assert math.isclose(g, w, rel_tol=1e-11, abs_tol=2e-10), (g, w, stdout)
        assert abs(g - fd) <= fd_rel * max(1.0, abs(g)), (g, fd, stdout)


def relink_verbose(out: Path, driver: str, lib: str) -> Result:
    """Link the sample's main.o again with --gradlink-verbose; returns the result (checked)."""
    r = sh([driver, "-O2", "-flto", "-fuse-ld=gradlink", out / "main.o", f"-L{out}", f"-l{lib}",
            "-lm", "-Wl,--gradlink-verbose", "-o", out / "again"])
    r.check(f"verbose relink against lib{lib}")
    assert "joins the LTO unit" not in r.stderr, r.stderr     # the library stayed native code
    return r


# --- samples/fat-c-to-cxx ---------------------------------------------------------------------

def softmax_regression_gradient(w: list[float]) -> list[float]:
    data = [((1.0, 2.0), 0), ((-1.5, 0.5), 1), ((0.3, -2.0), 2), ((1500.0, 30.0), 2)]
    g = [0.0] * 9
    for x, label in data:
        z = [w[3 * r + 2] + w[3 * r] * x[0] + w[3 * r + 1] * x[1] for r in range(3)]
        top = max(z)
        s = sum(math.exp(v - top) for v in z)
        for r in range(3):
            p = math.exp(z[r] - top) / s - (r == label)
            for c, xc in enumerate((x[0], x[1], 1.0)):
                g[3 * r + c] += p * xc / len(data)
    return g


@pytest.mark.skipif(not have(CXX), reason="clang++-22 missing")
def test_fat_c_to_cxx(tmp_path: Path) -> None:
    out = build("fat-c-to-cxx", tmp_path / "out")
    stdout = run(out / "softmax")
    assert stdout.startswith("loss 116.126381\n")
    check_gradients(stdout, softmax_regression_gradient(
        [0.5, -0.2, 0.1, -0.3, 0.8, 0.0, 0.2, -0.6, -0.1]))
    assert run(out / "plain") == ("lse(1, 2, 3) = 3.407605964444\n"
                                  "lse(1000, 999, -50) = 1000.313261687518\n")
    r = relink_verbose(out, CXX, "lse")
    assert "liblse.a(lse.o): gradient entry for 'lse'" in r.stderr
    if have("valgrind"):   # the registered reverse frees the tape its augmented forward made
        v = sh(["valgrind", "-q", "--error-exitcode=9", "--leak-check=full",
                "--errors-for-leak-kinds=definite", out / "softmax"])
        assert v.returncode == 0, v.stderr


# --- samples/fat-rust-to-c --------------------------------------------------------------------

def logistic_gradient(w: list[float]) -> list[float]:
    xs = [(0.5, 1.2, 1), (-1.1, 0.3, 1), (2.0, -0.7, 1), (-0.4, -1.5, 1), (1200, 500, 1)]
    ys = [1, -1, 1, -1, -1]
    g = [0.1 * v for v in w]
    for x, y in zip(xs, ys):
        t = -y * sum(a * b for a, b in zip(w, x))
        sig = 1 / (1 + math.exp(-t)) if t >= 0 else math.exp(t) / (1 + math.exp(t))
        for j in range(3):
            g[j] += -y * x[j] * sig
    return g


@pytest.mark.skipif(not have("rustc"), reason="rustc not installed")
def test_fat_rust_to_c(tmp_path: Path) -> None:
    out = build("fat-rust-to-c", tmp_path / "out")
    stdout = run(out / "logistic")
    assert stdout.startswith("loss 762.195274\n")
    check_gradients(stdout, logistic_gradient([0.8, -0.4, 0.1]))
    assert run(out / "plain") == ("softplus(0) = 0.693147180560\n"
                                  "softplus(-800) = 0, softplus(800) = 800.000000\n")
    r = relink_verbose(out, CC, "softplus")
    assert "libsoftplus.a(softplus.o): gradient entry for 'softplus'" in r.stderr
    inspect = sh(["gradlink", "fat", "inspect", out / "libsoftplus.a"]).check().stdout
    assert "softplus.o: native + bitcode (.llvm.lto" in inspect
    assert ("manifest: gradient: augmented=softplus_aug, function=softplus, "
            "reverse=softplus_rev") in inspect


# --- samples/fat-fortran ----------------------------------------------------------------------

def kepler(m: float, e: float) -> float:
    ea = math.pi if e > 0.8 else m
    for _ in range(50):
        step = (ea - e * math.sin(ea) - m) / (1 - e * math.cos(ea))
        ea -= step
        if abs(step) < 1e-15:
            break
    return ea


def orbit_misfit_gradient(m0: float, a: float, e: float) -> list[float]:
    t = [0.0, 0.7, 1.9, 3.1, 4.4]
    obs = [(0.726, 0.656, 0.961), (-0.378, 1.358, 1.413), (-1.802, 0.800, 1.988),
           (-2.030, -0.382, 2.075), (-0.888, -1.358, 1.614)]
    n = 2 * 3.14159265358979323846 / 6.0
    s = math.sqrt(1 - e * e)
    g = [0.0, 0.0, 0.0]
    for ti, (ox, oy, orr) in zip(t, obs):
        ea = kepler(m0 + n * ti, e)
        c, sn = math.cos(ea), math.sin(ea)
        de_dm, de_de = 1 / (1 - e * c), sn / (1 - e * c)        # implicit function theorem
        x, y, r = a * (c - e), a * s * sn, a * (1 - e * c)
        dx = (-a * sn * de_dm, c - e, a * (-sn * de_de - 1))
        dy = (a * s * c * de_dm, s * sn, -a * e / s * sn + a * s * c * de_de)
        dr = (a * e * sn * de_dm, 1 - e * c, a * (-c + e * sn * de_de))
        for k in range(3):
            g[k] += 2 * ((x - ox) * dx[k] + (y - oy) * dy[k] + (r - orr) * dr[k])
    return g


@pytest.mark.skipif(not have(FC), reason="flang-22 not installed")
def test_fat_fortran(tmp_path: Path) -> None:
    out = build("fat-fortran", tmp_path / "out")
    stdout = run(out / "orbitfit")
    assert stdout.startswith("misfit 1.535188\n")
    check_gradients(stdout, orbit_misfit_gradient(0.1, 1.6, 0.55))
    e1 = kepler(1.0, 0.5)
    r1 = 2 * (1 - 0.5 * math.cos(e1))
    assert run(out / "plain") == (f"E(m = 1, e = 0.5) = {e1:.12f}\n"
                                  f"r(m = 1, a = 2, e = 0.5) = {r1:.12f}\n")
    r = relink_verbose(out, CC, "kepler")
    assert "libkepler.a(kepler.o): gradient entry for 'kepler_solve'" in r.stderr
    assert "libkepler.a(kepler.o): precompiled entry for 'orbit_radius'" in r.stderr
    assert "libkepler.a(gradlink-derivatives.o) for 'gradlink_aug_orbit_radius'" in r.stderr


# --- samples/fat-closed-source ----------------------------------------------------------------

def book_sensitivities(spot: float, rate: float, vol: float) -> tuple[float, float, float]:
    book = [(95, 0.5, 10), (100, 1.0, -5), (110, 2.0, 8), (120, 0.25, -20)]
    cdf = lambda v: 0.5 * math.erfc(-v / math.sqrt(2))
    delta = rho = vega = 0.0
    for strike, expiry, qty in book:
        sd = vol * math.sqrt(expiry)
        d1 = (math.log(spot / strike) + (rate + 0.5 * vol * vol) * expiry) / sd
        d2 = d1 - sd
        delta += qty * cdf(d1)
        rho += qty * strike * expiry * math.exp(-rate * expiry) * cdf(d2)
        vega += qty * spot * math.exp(-d1 * d1 / 2) / math.sqrt(2 * math.pi) * math.sqrt(expiry)
    return delta, rho, vega


def test_fat_closed_source(tmp_path: Path) -> None:
    out = build("fat-closed-source", tmp_path / "out")
    stdout = run(out / "risk")
    assert stdout.startswith("book value 150.987186\n")
    delta, rho, vega = book_sensitivities(102, 0.03, 0.25)
    check_gradients(stdout, [delta, rho, vega, -2 * delta + 0.01 * vega])
    assert "forward: scenario" in stdout.splitlines()[-1]
    assert run(out / "plain") == "bs_call(100, 100, 0.05, 0.2, 1) = 10.4505835722\n"
    inspect = sh(["gradlink", "fat", "inspect", out / "libpricing.a"]).check().stdout
    assert "bitcode (" not in inspect and "pricing.o: native, no bitcode" in inspect
    assert "mode=reverse" in inspect and "mode=forward" in inspect
    r = relink_verbose(out, CC, "pricing")
    assert "libpricing.a(pricing.o): precompiled entry for 'bs_call'" in r.stderr


# --- samples/fat-cmake and gradlink/cmake/GradlinkFat.cmake -----------------------------------

PI_C = 3.14159265358979   # the literal of relax.c's first guess


def chain_gradient() -> list[float]:
    free = []
    for i in range(6):
        free += [6.0 * (i + 1) / 7 + 0.1 * math.sin(i), 0.8 - 0.5 * math.sin(PI_C * (i + 1) / 7)]
    xy = [0.0, 0.8] + free + [6.0, 0.8]
    g = [0.0] * len(xy)
    for i in range(7):
        dx, dy = xy[2 * i + 2] - xy[2 * i], xy[2 * i + 3] - xy[2 * i + 1]
        length = math.hypot(dx, dy)
        f = 50 * (length - 1) / length
        g[2 * i + 2] += f * dx
        g[2 * i + 3] += f * dy
        g[2 * i] -= f * dx
        g[2 * i + 1] -= f * dy
    out = g[2:-2]
    for i in range(6):
        y = free[2 * i + 1]
        out[2 * i + 1] += 0.1 * 9.81 - 20 / (1 + math.exp(40 * y))
    return out


@pytest.mark.skipif(not have("cmake"), reason="cmake not installed")
def test_fat_cmake(tmp_path: Path) -> None:
    out = build("fat-cmake", tmp_path / "out")
    cache = (out / "CMakeCache.txt").read_text()
    assert "CMAKE_EXE_LINKER_FLAGS:STRING=-fuse-ld=gradlink\n" in cache
    assert re.search(r"^GRADLINK_EXECUTABLE:FILEPATH=\S*/gradlink$", cache, re.M)
    results = {exe: run(out / exe) for exe in ("relax", "relax_closed", "relax_shared")}
    stdout = results["relax"]
    assert results["relax_closed"] == stdout and results["relax_shared"] == stdout
    assert stdout.startswith("energy 7.967340\n")
    check_gradients(stdout, chain_gradient())
    rest = re.search(r"^at rest after (\d+) steps: energy (\S+), middle beads at y = (\S+)$",
                     stdout.splitlines()[-1])
    assert rest and int(rest.group(1)) < 20000, stdout          # converged
    assert 2.4 < float(rest.group(2)) < 2.5 and 0 < float(rest.group(3)) < 0.1
    assert run(out / "plain") == ("chain_energy = 33.2120000000\n"
                                  "floor_energy(0) = 0.3465735903, "
                                  "floor_energy(-30) = 600.0000000000\n")
    fat = sh(["gradlink", "fat", "inspect", out / "libchain.a"]).check().stdout
    assert "chain.c.o: native + bitcode (.llvm.lto" in fat
    assert "manifest: gradient: augmented=floor_energy_aug, function=floor_energy" in fat
    assert "function=chain_energy, mode=forward" in fat
    closed = sh(["gradlink", "fat", "inspect", out / "libchain_closed.a"]).check().stdout
    assert "bitcode (" not in closed and "function=chain_energy, mode=reverse" in closed
    shared = sh(["gradlink", "fat", "inspect", out / "libchain_shared.so"]).check().stdout
    assert shared.startswith("libchain_shared.so: shared object, no bitcode")
    # a rebuild with nothing changed does nothing
    again = sh(["cmake", "--build", out]).check("cmake --build (no change)")
    assert "gradlink fat build" not in again.stdout and "Linking" not in again.stdout


def test_cmake_dir_holds_the_module() -> None:
    folder = Path(sh(["gradlink", "cmake-dir"]).check().stdout.strip())
    assert (folder / "GradlinkFat.cmake").is_file()
    assert "function(gradlink_add_fat_library" in (folder / "GradlinkFat.cmake").read_text()


@pytest.mark.skipif(not have("cmake"), reason="cmake not installed")
def test_cmake_module_without_gradlink_says_so(tmp_path: Path) -> None:
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES NONE)\n"
        "include(GradlinkFat)\n")
    folder = sh(["gradlink", "cmake-dir"]).check().stdout.strip()
    # PATH: only where cmake and make are, and no VIRTUAL_ENV
    tools = [shutil.which(t) for t in ("cmake", "make")]
    path = ":".join(sorted({str(Path(t).parent) for t in tools if t}))
    if shutil.which("gradlink", path=path):
        pytest.skip(f"gradlink is installed next to cmake or make ({path})")
    r = sh(["cmake", "-S", tmp_path, "-B", tmp_path / "build", f"-DCMAKE_MODULE_PATH={folder}"],
           env={"PATH": path, "HOME": str(tmp_path)})
    assert r.returncode != 0
    assert "GradlinkFat: the gradlink command was not found" in r.stderr
    assert "-DGRADLINK_EXECUTABLE=" in " ".join(r.stderr.split())
