"""Derivatives compiled when the library is built (`gradlink fat build --export-derivatives`),
and the closed-source variant without bitcode (`gradlink fat strip-bitcode`).

The same consumer program is linked three ways: with the library's bitcode as an ordinary
-flto object (link-time AD of everything), with the fat library carrying precompiled
derivatives, and with the stripped library. The gradients must agree to rounding, and with
central finite differences; forward and reverse agree by the dot-product test."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from toolchain import CC, compile_c, have, link, sh

from fatlib.archive import read_archive
from fatlib.elf import read_elf
from fatlib.manifest import decode

pytestmark = pytest.mark.skipif(not (have(CC) and have("ld.gradlink")), reason="toolchain missing")

LIB = r"""
#include <math.h>
int calls;                   /* library state: the derivatives must share it, not copy it */
double energy(const double *x, int n) {
  calls++;
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * sin(x[i]);
  return s;
}
double scaled(const double *x, double k, int n) { return k * energy(x, n) + k * k; }
void force(double *f, const double *x, int n) {
  for (int i = 0; i < n; i++) f[i] = -x[i] * exp(x[i]);
}
"""

USER = r"""
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double energy(const double *x, int n);
double scaled(const double *x, double k, int n);
void force(double *f, const double *x, int n);
extern int calls;
double loss(const double *x, int n) {
  double f[4];
  force(f, x, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += f[i] * f[i];
  return energy(x, n) * 2 + scaled(x, 1.5, n) + s;
}
int main(void) {
  double x[4] = {0.1, 0.2, 0.3, 0.4}, g[4] = {0}, v[4] = {1, -1, 0.5, 2};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, g, enzyme_const, 4);
#ifdef FORWARD
  double t = __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_const, 4);
#else
  double t = 0;
#endif
  double h = 1e-6, fd = 0;
  for (int i = 0; i < 4; i++) {
    double xp[4], xm[4];
    for (int j = 0; j < 4; j++) xp[j] = xm[j] = x[j];
    xp[i] += h; xm[i] -= h;
    printf("%.17g %.17g\n", g[i], (loss(xp, 4) - loss(xm, 4)) / (2 * h));
    fd += g[i] * v[i];
  }
  printf("%.17g %.17g %d\n", t, fd, calls > 0);
  return 0;
}
"""


def gradlink(*args: str | Path) -> tuple[int, str]:
    res = sh(["gradlink", *args])
    return res.returncode, res.stdout + res.stderr


def _run(exe: Path) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    res = sh(["valgrind", "-q", "--error-exitcode=9", "--leak-check=no", exe])
    assert res.returncode == 0, res.stderr
    rows = [ln.split() for ln in res.stdout.splitlines()]
    grads = [(float(a), float(b)) for a, b in rows[:4]]
    t, dot, shared = rows[4]
    assert shared == "1"
    return grads, (float(t), float(dot))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("precompiled")
    (d / "phys.c").write_text(LIB)
    compile_c(d / "phys.c", d / "phys.o", "-O2", "-flto")
    code, out = gradlink("fat", "build", "-o", d / "libphys.a", d / "phys.o",
                         "--export-derivatives", "energy",
                         "--export-derivatives", "scaled:reverse;force")
    assert code == 0, out
    assert "gradlink-derivatives.o: precompiled derivatives (native)" in out
    (d / "closed").mkdir()
    code, out = gradlink("fat", "strip-bitcode", "-o", d / "closed" / "libphys.a",
                         d / "libphys.a")
    assert code == 0, out
    (d / "user.c").write_text(USER)
    compile_c(d / "user.c", d / "user.o", "-O2", "-flto")
    compile_c(d / "user.c", d / "user_fwd.o", "-O2", "-flto", "-DFORWARD")
    return d


def test_manifest_lists_the_precompiled_derivatives(built: Path) -> None:
    ar = read_archive(built / "libphys.a")
    names = [m.name for m in ar.members]
    assert names == ["phys.o", "gradlink-derivatives.o"]
    phys = read_elf(ar.members[0].data)
    assert phys.manifest is not None and phys.bitcode is not None
    entries = decode(phys.manifest, "phys.o").entries
    got = {(e["function"], e["mode"]): e for e in entries}
    assert set(got) == {("energy", "reverse"), ("energy", "forward"), ("scaled", "reverse"),
                        ("force", "reverse"), ("force", "forward")}
    assert got["energy", "reverse"]["activity"] == ["dup", "const"]
    assert got["scaled", "reverse"]["activity"] == ["dup", "out", "const"]
    assert got["force", "forward"]["tangent"] == "gradlink_fwd_force"
    derivs = read_elf(ar.members[1].data)
    defined = {s.name for s in derivs.symbols if s.defined}
    assert {"gradlink_aug_energy", "gradlink_rev_energy", "gradlink_fwd_energy",
            "gradlink_rev_scaled", "gradlink_fwd_force"} <= defined
    assert "energy" not in defined and "calls" not in defined     # no second copy of either
    code, out = gradlink("fat", "inspect", built / "libphys.a")
    assert code == 0 and "phys.o: native + bitcode (.llvm.lto" in out and "LLVM 22." in out
    assert "gradlink-derivatives.o: native, no bitcode" in out
    assert "manifest: precompiled: activity=['dup', 'const'], function=energy, mode=forward" in out
    closed = read_archive(built / "closed" / "libphys.a")
    assert all(read_elf(m.data).bitcode is None for m in closed.members)
    assert read_elf(closed.members[0].data).manifest == phys.manifest


def test_precompiled_gradients_equal_link_time_ones(built: Path) -> None:
    ref = built / "ref"
    link([built / "user_fwd.o", built / "phys.o", "-lm"], ref, "-flto").check("bitcode link")
    fat = built / "fat"
    link([built / "user_fwd.o", f"-L{built}", "-lphys", "-lm"], fat, "-flto").check("fat link")
    want, (t_ref, dot_ref) = _run(ref)
    got, (t, dot) = _run(fat)
    for (g, fd), (w, _) in zip(got, want):
        assert math.isclose(g, w, rel_tol=1e-13)
        assert math.isclose(g, fd, rel_tol=1e-6)
    assert math.isclose(t, t_ref, rel_tol=1e-13) and math.isclose(t, dot, rel_tol=1e-12)


def test_stripped_library_gives_the_same_gradient(built: Path) -> None:
    ref, closed = built / "ref_rev", built / "closed_rev"
    link([built / "user.o", built / "phys.o", "-lm"], ref, "-flto").check("bitcode link")
    res = link([built / "user.o", f"-L{built / 'closed'}", "-lphys", "-lm"], closed, "-flto",
               "-Wl,--gradlink-verbose")
    res.check("stripped link")
    assert "pulled" in res.stderr and "gradlink-derivatives.o" in res.stderr
    want, _ = _run(ref)
    got, _ = _run(closed)
    for (g, fd), (w, _) in zip(got, want):
        assert math.isclose(g, w, rel_tol=1e-13) and math.isclose(g, fd, rel_tol=1e-6)


def test_stripped_library_without_the_mode_is_an_error(built: Path) -> None:
    out = built / "closed_fwd"
    res = link([built / "user_fwd.o", f"-L{built / 'closed'}", "-lphys", "-lm"], out, "-flto")
    assert res.returncode != 0 and "Traceback" not in res.stderr
    assert "ld.gradlink: error: scaled has no body" in res.stderr
    assert "libphys.a(phys.o)" in res.stderr and "reverse-mode derivative only" in res.stderr
    assert "--export-derivatives scaled:forward" in res.stderr
    assert not out.exists()


def test_plain_lld_links_the_library(built: Path) -> None:
    (built / "plain.c").write_text(
        '#include <stdio.h>\ndouble energy(const double *, int);\n'
        'int main(void) { double x[2] = {1, 2}; printf("%.6f\\n", energy(x, 2)); return 0; }\n')
    obj = compile_c(built / "plain.c", built / "plain.o", "-O2")
    for lib in (built, built / "closed"):
        exe = built / "plain"
        link([obj, f"-L{lib}", "-lphys", "-lm"], exe, linker="lld").check("lld link")
        want = math.sin(1) + 4 * math.sin(2)
        assert math.isclose(float(sh([exe]).check().stdout), want, rel_tol=1e-6)


@pytest.mark.parametrize("source, spec, message", [
    ("static int hits; double f(double x) { hits++; return x * x; }", "f",
     "'hits', a writable variable private to the library"),
    ("double f(double x) { return x * x; }", "g", "the library defines no function 'g'"),
    ("double f(double x) { return x * x; }", "f:sideways", "expected FUNCTION or FUNCTION:MODES"),
    ("typedef struct { double a, b; } p; p f(double x) { p r = {x, x}; return r; }", "f",
     "precompiled derivatives of functions returning nothing, an integer or a floating-point"),
    ("int f(double *x) { x[0] *= 2; return 0; }", "f:forward", "returns an integer"),
])
def test_export_errors(tmp_path: Path, source: str, spec: str, message: str) -> None:
    (tmp_path / "lib.c").write_text(source)
    obj = compile_c(tmp_path / "lib.c", tmp_path / "lib.o", "-O2", "-flto")
    code, out = gradlink("fat", "build", "-o", tmp_path / "lib.a", obj,
                         "--export-derivatives", spec)
    assert code != 0 and message in out, out
    assert "Traceback" not in out and not (tmp_path / "lib.a").exists()


def test_strip_bitcode_needs_native_members(tmp_path: Path) -> None:
    (tmp_path / "lib.c").write_text("double f(double x) { return x; }\n")
    obj = compile_c(tmp_path / "lib.c", tmp_path / "lib.o", "-O2", "-flto")
    sh(["llvm-ar-22", "rcs", tmp_path / "libbc.a", obj]).check()
    code, out = gradlink("fat", "strip-bitcode", "-o", tmp_path / "out.a", tmp_path / "libbc.a")
    assert code != 0 and "not a native object" in out and "Traceback" not in out
    assert not (tmp_path / "out.a").exists()


@pytest.fixture(scope="module")
def shared_lib(built: Path) -> Path:
    d = built / "so"
    d.mkdir()
    compile_c(built / "phys.c", d / "phys.o", "-O2", "-flto", "-fPIC")
    code, out = gradlink("fat", "build", "-shared", "-o", d / "libphys.so", d / "phys.o",
                         "--export-derivatives", "energy;scaled;force")
    assert code == 0, out
    return d / "libphys.so"


def test_fat_shared_object_serves_a_consumers_link(built: Path, shared_lib: Path) -> None:
    elf = read_elf(shared_lib.read_bytes())
    assert elf.bitcode is None and elf.manifest is not None
    assert len(decode(elf.manifest, "libphys.so").entries) == 6
    ref, exe = built / "ref_so", built / "app_so"
    link([built / "user_fwd.o", built / "phys.o", "-lm"], ref, "-flto").check("bitcode link")
    link([built / "user_fwd.o", f"-L{shared_lib.parent}", "-lphys", "-lm",
          f"-Wl,-rpath,{shared_lib.parent}"], exe, "-flto").check("link against the .so")
    want, (t_ref, _) = _run(ref)
    got, (t, dot) = _run(exe)
    for (g, fd), (w, _) in zip(got, want):
        assert math.isclose(g, w, rel_tol=1e-13) and math.isclose(g, fd, rel_tol=1e-6)
    assert math.isclose(t, t_ref, rel_tol=1e-13) and math.isclose(t, dot, rel_tol=1e-12)


def test_precompiled_derivatives_from_python_ctypes(shared_lib: Path) -> None:
    import ctypes

    lib = ctypes.CDLL(str(shared_lib))

    class Aug(ctypes.Structure):
        _fields_ = [("tape", ctypes.c_void_p), ("primal", ctypes.c_double)]

    class Dual(ctypes.Structure):
        _fields_ = [("primal", ctypes.c_double), ("tangent", ctypes.c_double)]

    arr = ctypes.c_double * 3
    ptr, n = ctypes.POINTER(ctypes.c_double), ctypes.c_int
    lib.gradlink_aug_energy.argtypes = [ptr, ptr, n]
    lib.gradlink_aug_energy.restype = Aug
    lib.gradlink_rev_energy.argtypes = [ptr, ptr, n, ctypes.c_double, ctypes.c_void_p]
    lib.gradlink_rev_energy.restype = None
    lib.gradlink_fwd_energy.argtypes = [ptr, ptr, n]
    lib.gradlink_fwd_energy.restype = Dual
    xs = [0.3, -1.2, 2.0]
    x, dx, v = arr(*xs), arr(0, 0, 0), arr(1.0, 0.5, -2.0)
    calls = ctypes.c_int.in_dll(lib, "calls")
    before = calls.value
    aug = lib.gradlink_aug_energy(x, dx, 3)
    lib.gradlink_rev_energy(x, dx, 3, 1.0, aug.tape)      # seed d energy = 1, then the tape
    assert calls.value == before + 1          # the derivative counted in the library's variable
    primal = sum(a * a * math.sin(a) for a in xs)
    grad = [2 * a * math.sin(a) + a * a * math.cos(a) for a in xs]
    assert math.isclose(aug.primal, primal, rel_tol=1e-15)
    for g, w in zip(dx, grad):
        assert math.isclose(g, w, rel_tol=1e-14)
    dual = lib.gradlink_fwd_energy(x, v, 3)
    assert math.isclose(dual.primal, primal, rel_tol=1e-15)
    assert math.isclose(dual.tangent, sum(g * t for g, t in zip(grad, v)), rel_tol=1e-14)


def test_shared_needs_position_independent_objects(built: Path, tmp_path: Path) -> None:
    code, out = gradlink("fat", "build", "-shared", "-o", tmp_path / "libx.so", built / "phys.o")
    assert code != 0 and "compiled without -fPIC" in out and "Traceback" not in out
    assert not (tmp_path / "libx.so").exists()


FORTRAN = """
function kern_energy(x, n) bind(c, name="kern_energy") result(e)
  use iso_c_binding
  integer(c_int), value :: n
  real(c_double), intent(in) :: x(n)
  real(c_double) :: e
  integer :: i
  e = 0
  do i = 1, n
    e = e + x(i)**2 * cos(x(i))
  end do
end function
"""

FORTRAN_USER = r"""
#include <stdio.h>
#include <math.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double kern_energy(const double *x, int n);
double loss(const double *x, int n) { return sqrt(1 + kern_energy(x, n)); }
int main(void) {
  double x[3] = {0.5, 1.0, -0.3}, g[3] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, g, enzyme_const, 3);
  for (int i = 0; i < 3; i++) printf("%.17g\n", g[i]);
  return 0;
}
"""


@pytest.mark.skipif(not have("flang-22"), reason="flang-22 not installed")
def test_fortran_native_object_gets_its_bitcode(tmp_path: Path) -> None:
    """flang-22 writes no fat objects: the native object gets the bitcode of its -flto twin
    (--bitcode), precompiled derivatives are exported, and a C consumer differentiates
    through the stripped library."""
    (tmp_path / "kern.f90").write_text(FORTRAN)
    native = compile_c(tmp_path / "kern.f90", tmp_path / "kern.o", "-O2", compiler="flang-22")
    bitcode = compile_c(tmp_path / "kern.f90", tmp_path / "kern.bc.o", "-O2", "-flto",
                        compiler="flang-22")
    code, out = gradlink("fat", "build", "-o", tmp_path / "libkern.a", native,
                         "--bitcode", f"{native}={bitcode}", "--export-derivatives", "kern_energy")
    assert code == 0, out
    code, out = gradlink("fat", "inspect", tmp_path / "libkern.a")
    assert "kern.o: native + bitcode (.llvm.lto" in out and "function=kern_energy" in out
    (tmp_path / "c").mkdir()
    code, out = gradlink("fat", "strip-bitcode", "-o", tmp_path / "c" / "libkern.a",
                         tmp_path / "libkern.a")
    assert code == 0, out
    (tmp_path / "use.c").write_text(FORTRAN_USER)
    use = compile_c(tmp_path / "use.c", tmp_path / "use.o", "-O2", "-flto")
    xs = [0.5, 1.0, -0.3]
    e = sum(v * v * math.cos(v) for v in xs)
    want = [(2 * v * math.cos(v) - v * v * math.sin(v)) / (2 * math.sqrt(1 + e)) for v in xs]
    for lib in (tmp_path, tmp_path / "c"):
        exe = tmp_path / "use"
        link([use, f"-L{lib}", "-lkern", "-lm"], exe, "-flto").check(f"link with {lib}")
        got = [float(v) for v in sh([exe]).check().stdout.split()]
        for g, w in zip(got, want):
            assert math.isclose(g, w, rel_tol=1e-14)
    # the wrong twin is refused
    (tmp_path / "other.c").write_text("double other(double x) { return x; }\n")
    other = compile_c(tmp_path / "other.c", tmp_path / "other.o", "-O2", "-flto")
    code, out = gradlink("fat", "build", "-o", tmp_path / "bad.a", native,
                         "--bitcode", f"{native}={other}")
    assert code != 0 and "does not define kern_energy" in out and "Traceback" not in out


REGISTERED_INSIDE = r"""
#include <stddef.h>
__attribute__((noinline)) double sq(double x) { return x * x; }
void *aug_sq(double x) { (void)x; return NULL; }
double rev_sq(double x, double d, void *tape) { (void)tape; return 2 * x * d + 1000; }
#ifdef IN_SOURCE
void *__enzyme_register_gradient_sq[3] = {(void *)sq, (void *)aug_sq, (void *)rev_sq};
#endif
double outer(double x) { return 3 * sq(x); }
"""
REGISTERED_USER = r"""
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double outer(double);
int main(void) { printf("%.17g\n", __enzyme_autodiff((void *)outer, 2.0)); return 0; }
"""


@pytest.mark.parametrize("how", ["source", "file"])
def test_precompiled_derivatives_use_the_librarys_registrations(tmp_path: Path, how: str) -> None:
    """The exported function calls one with a registered gradient (offset by 1000, so the
    body's derivative cannot pass): the precompiled derivative must use the registration,
    whether the source holds it (a writable global) or the --derivatives file does."""
    (tmp_path / "lib.c").write_text(REGISTERED_INSIDE)
    flags = ["-DIN_SOURCE"] if how == "source" else []
    obj = compile_c(tmp_path / "lib.c", tmp_path / "lib.o", "-O2", "-flto", *flags)
    extra: list[str | Path] = []
    if how == "file":
        (tmp_path / "d.toml").write_text('[[entries]]\nkind = "gradient"\nfunction = "sq"\n'
                                         'augmented = "aug_sq"\nreverse = "rev_sq"\n')
        extra = ["--derivatives", tmp_path / "d.toml"]
    code, out = gradlink("fat", "build", "-o", tmp_path / "libr.a", obj, *extra,
                         "--export-derivatives", "outer:reverse")
    assert code == 0, out
    (tmp_path / "user.c").write_text(REGISTERED_USER)
    user = compile_c(tmp_path / "user.c", tmp_path / "user.o", "-O2", "-flto")
    link([user, f"-L{tmp_path}", "-lr"], tmp_path / "u", "-flto").check()
    assert float(sh([tmp_path / "u"]).check().stdout) == 2 * 2.0 * 3 + 1000   # d = 3 into sq


def test_static_derivative_functions_are_named_as_such(tmp_path: Path) -> None:
    (tmp_path / "lib.c").write_text(
        "#include <stddef.h>\n__attribute__((noinline)) double k(double x) { return x * x; }\n"
        "static void *aug_k(double x) { (void)x; return NULL; }\n"
        "static double rev_k(double x, double d, void *t) { (void)t; return 2 * x * d; }\n"
        "void *__enzyme_register_gradient_k[3] = {(void *)k, (void *)aug_k, (void *)rev_k};\n")
    obj = compile_c(tmp_path / "lib.c", tmp_path / "lib.o", "-O2", "-flto")
    code, out = gradlink("fat", "build", "-o", tmp_path / "lib.a", obj)
    assert code != 0 and "'aug_k', which is static (file-local) in lib.o" in out, out
    assert not (tmp_path / "lib.a").exists()
