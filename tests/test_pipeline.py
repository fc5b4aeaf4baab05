"""The LTO pipeline's own behaviour: both backends, diagnostics, save-temps, O level and mcpu."""

from __future__ import annotations

import ctypes
from pathlib import Path

import llvmlite.binding as llvm
import pytest
from toolchain import AR, CXX, assert_same_behaviour, compile_c, link, sh

CXX_SRC = r"""
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>
struct Base { virtual ~Base() {} virtual double f(double) const = 0; };
template <int N> struct Pow : Base { double f(double x) const override { double r = 1; for (int i = 0; i < N; i++) r *= x; return r; } };
static std::vector<std::string> log_lines;
static int registered = [] { log_lines.push_back("static constructor ran"); return 1; }();
int main() {
  std::vector<Base*> v{new Pow<2>, new Pow<3>};
  double s = 0;
  for (auto *b : v) s += b->f(1.5);
  try { throw std::runtime_error("caught"); } catch (const std::exception &e) { log_lines.push_back(e.what()); }
  for (auto &l : log_lines) std::cout << l << "\n";
  std::cout << s << "\n";
}
"""

LIB_SRC = r"""
int calls = 0;
static double square(double x) { return x * x; }
double poly(double x) { calls++; return 3.0 * square(x) + 2.0 * x + 1.0; }
int get_calls(void) { return calls; }
"""

MAIN_SRC = r"""
#include <stdio.h>
double poly(double);
double mid(double x) { return poly(x) * 0.5; }
int main(void) { printf("%.3f\n", mid(2.0)); return 0; }
"""


@pytest.fixture(scope="module")
def objs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("pipeline")
    (d / "prog.cpp").write_text(CXX_SRC)
    (d / "lib.c").write_text(LIB_SRC)
    (d / "main.c").write_text(MAIN_SRC)
    out = {
        "cxx": compile_c(d / "prog.cpp", d / "prog.o", "-O2", "-flto", compiler=CXX),
        # no -fPIC on purpose: a -shared link must still work (dso_local is dropped)
        "lib": compile_c(d / "lib.c", d / "lib.o", "-O2", "-flto"),
        "main": compile_c(d / "main.c", d / "main.o", "-O2", "-flto"),
    }
    sh([AR, "rcs", d / "libpoly.a", out["lib"]]).check("llvm-ar")
    out["archive"] = d / "libpoly.a"
    out["dir"] = d
    return out


@pytest.mark.parametrize("backend", ["tools", "llvmlite"])
def test_cxx_program_on_both_backends(objs, tmp_path, backend):
    g, r = tmp_path / "g", tmp_path / "r"
    link([objs["cxx"]], g, f"-Wl,--gradlink-backend={backend}", driver=CXX).check("gradlink")
    link([objs["cxx"]], r, linker="lld", driver=CXX).check("lld")
    res = assert_same_behaviour(g, r)
    assert res.stdout.splitlines() == ["static constructor ran", "caught", "5.625"]


@pytest.mark.parametrize("backend", ["tools", "llvmlite"])
def test_shared_from_non_pic_bitcode_on_both_backends(objs, tmp_path, backend):
    so = tmp_path / "libpoly.so"
    link([objs["lib"]], so, "-shared", f"-Wl,--gradlink-backend={backend}").check("gradlink -shared")
    lib = ctypes.CDLL(str(so))
    lib.poly.restype = ctypes.c_double
    lib.poly.argtypes = [ctypes.c_double]
    assert lib.poly(2.0) == 17.0
    assert lib.get_calls() == 1
    assert not hasattr(lib, "square")       # static: internal, not exported


def test_verbose_names_stages_and_pulled_members(objs, tmp_path):
    res = link([objs["main"], "-L", objs["dir"], "-lpoly"], tmp_path / "p", "-Wl,--gradlink-verbose")
    res.check("gradlink")
    err = res.stderr
    for stage in ("stage inputs", "stage resolve", "stage merge", "stage optimize O2",
                  "stage codegen", "stage native link", "total:"):
        assert stage in err, f"missing '{stage}' in:\n{err}"
    assert f"pulled {objs['dir']}/libpoly.a(lib.o) for 'poly'" in err
    assert sh([tmp_path / "p"]).check().stdout == "8.500\n"


def test_save_temps_keeps_merged_optimized_and_object(objs, tmp_path):
    keep = tmp_path / "temps"
    link([objs["main"], objs["lib"]], tmp_path / "p", f"-Wl,--gradlink-save-temps={keep}").check()
    merged = llvm.parse_bitcode((keep / "merged.bc").read_bytes())
    names = {f.name for f in merged.functions if not f.is_declaration}
    assert {"main", "mid", "poly", "get_calls"} <= names
    optimized = (keep / "optimized.ll").read_text()
    assert "define" in optimized and "@main" in optimized
    assert "@get_calls" not in optimized        # internalized, then removed as dead
    assert (keep / "lto.o").read_bytes()[:4] == b"\x7fELF"


def test_plugin_opt_level_and_mcpu_are_honoured(objs, tmp_path):
    res = link([objs["main"], objs["lib"]], tmp_path / "p", "-Wl,--gradlink-verbose",
               "-Wl,-plugin-opt=O1", "-Wl,-plugin-opt=mcpu=znver2", "-Wl,-plugin-opt=jobs=4")
    res.check("gradlink")
    assert "stage optimize O1" in res.stderr
    assert "lto<O1>" in res.stderr and "-mcpu=znver2" in res.stderr
    assert sh([tmp_path / "p"]).check().stdout == "8.500\n"


def test_o0_link(objs, tmp_path):
    res = link([objs["main"], objs["lib"]], tmp_path / "p", "-flto", "-O0",
               "-Wl,--gradlink-verbose")
    res.check("gradlink")
    assert "stage optimize O0" in res.stderr
    assert sh([tmp_path / "p"]).check().stdout == "8.500\n"


def test_bad_backend_name_is_an_error(objs, tmp_path):
    res = link([objs["main"], objs["lib"]], tmp_path / "p", "-Wl,--gradlink-backend=gcc")
    assert res.returncode != 0
    assert "ld.gradlink: error: --gradlink-backend=gcc" in res.stderr
    assert "Traceback" not in res.stderr
    assert not (tmp_path / "p").exists()


def test_native_link_error_is_relayed_under_our_name(objs, tmp_path):
    res = link([objs["main"]], tmp_path / "p")          # poly is undefined
    assert res.returncode != 0
    assert "ld.gradlink: error: undefined symbol: poly" in res.stderr
    assert "ld.lld" not in res.stderr
    assert not (tmp_path / "p").exists()

