"""End-to-end C links: executables (PIE, non-PIE, static), shared libraries, native + bitcode
objects, static archives of every flavour and the usual GNU ld options, each linked with
ld.gradlink and with lld; the programs are run and their behaviour compared."""

from __future__ import annotations

import struct
import sys
import textwrap
from pathlib import Path

import pytest
from toolchain import (
    AR,
    CC,
    NM,
    Result,
    assert_same_behaviour,
    compile_c,
    dynamic_symbols,
    dynamic_tags,
    have,
    link,
    link_both,
    needed,
    run,
    sh,
)

pytestmark = pytest.mark.skipif(not have(CC), reason=f"{CC} not installed")

GNU_AR = "ar"
LINKERS = ("gradlink", "lld")


def write(d: Path, name: str, text: str) -> Path:
    p = d / name
    p.write_text(textwrap.dedent(text).lstrip())
    return p


def cc(d: Path, name: str, text: str, *flags: str) -> Path:
    """Write a C source and compile it to an object (``-O2`` plus FLAGS)."""
    src = write(d, name, text)
    return compile_c(src, d / (src.stem + (".bc.o" if any(f.startswith("-flto") for f in flags) else ".o")),
                     "-O2", *flags)


def bc(d: Path, name: str, text: str, *flags: str) -> Path:
    """A bitcode (-flto) object."""
    obj = cc(d, name, text, "-flto", *flags)
    assert obj.read_bytes()[:4] == b"BC\xc0\xde", f"{obj.name} is not bitcode"
    return obj


def native(d: Path, name: str, text: str, *flags: str) -> Path:
    """A plain ELF object, no LTO."""
    obj = cc(d, name, text, *flags)
    assert obj.read_bytes()[:4] == b"\x7fELF", f"{obj.name} is not ELF"
    return obj


def check_both(results: dict[str, Result], what: str) -> None:
    for linker, res in results.items():
        res.check(f"{linker}: {what}")


def link_each(objs: list, out_dir: Path, name: str, *flags: str) -> dict[str, Path]:
    """Link with both linkers (both must succeed); returns {linker: output}."""
    g, r = link_both(objs, out_dir, name, *flags)
    return {"gradlink": g, "lld": r}


def elf_info(path: Path) -> tuple[int, bool]:
    """(e_type, has PT_INTERP) of an ELF64 little-endian file."""
    data = path.read_bytes()
    assert data[:4] == b"\x7fELF", f"{path} is not ELF"
    e_type = struct.unpack_from("<H", data, 16)[0]
    e_phoff = struct.unpack_from("<Q", data, 32)[0]
    e_phentsize, e_phnum = struct.unpack_from("<HH", data, 54)
    types = [struct.unpack_from("<I", data, e_phoff + i * e_phentsize)[0] for i in range(e_phnum)]
    return e_type, 3 in types  # PT_INTERP == 3


def symbols(path: Path) -> set[str]:
    """All symbol names in the static symbol table."""
    out = sh([NM, "--format=just-symbols", path]).check(f"nm {path.name}").stdout
    return set(out.split())


def python_ctypes(script: str, *args: str) -> Result:
    """Run a ctypes script in a separate Python (a bad library must not crash pytest)."""
    return sh([sys.executable, "-c", textwrap.dedent(script), *args])


# --- executables: PIE, -no-pie, -static, -static-pie -----------------------------------------

MAIN_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int counter;
extern __thread int tls_value;
int fib(int n);
const char *greet(void);
typedef long (*op_fn)(long, long);
extern op_fn ops[];
extern const char *op_names[];

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(int argc, char **argv) {
  int arr[] = {5, 3, 9, 1, 7};
  qsort(arr, 5, sizeof arr[0], cmp);              /* libc calls back into our code */
  printf("sorted %d %d %d %d %d\n", arr[0], arr[1], arr[2], arr[3], arr[4]);
  printf("fib(20)=%d\n", fib(20));
  for (int i = 0; ops[i]; i++) printf("%s(7,3)=%ld\n", op_names[i], ops[i](7, 3));
  counter += argc;
  tls_value *= 6;
  printf("counter=%d tls=%d\n", counter, tls_value);
  char *copy = strdup(greet());
  copy[0] = 'H';
  printf("%s (%zu chars)\n", copy, strlen(copy));
  free(copy);
  return 3;
}
"""

LIB_C = r"""
int counter = 10;
__thread int tls_value = 7;
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
const char *greet(void) { return "hello from lib.c"; }
static long add(long a, long b) { return a + b; }
static long sub(long a, long b) { return a - b; }
static long mul(long a, long b) { return a * b; }
typedef long (*op_fn)(long, long);
op_fn ops[] = {add, sub, mul, 0};          /* function pointers in data: relocations */
const char *op_names[] = {"add", "sub", "mul", 0};
"""

MAIN_EXPECTED = """\
sorted 1 3 5 7 9
fib(20)=6765
add(7,3)=10
sub(7,3)=4
mul(7,3)=21
counter=11 tls=42
Hello from lib.c (16 chars)
"""

ET_EXEC, ET_DYN = 2, 3
MODES = {  # name -> (link flags, e_type, has PT_INTERP)
    "pie": ([], ET_DYN, True),
    "no-pie": (["-no-pie"], ET_EXEC, True),
    "static": (["-static"], ET_EXEC, False),
    "static-pie": (["-static-pie"], ET_DYN, False),
}


@pytest.fixture(scope="module")
def exe_objects(tmp_path_factory) -> tuple[Path, list[Path]]:
    d = tmp_path_factory.mktemp("c-exe")
    return d, [bc(d, "main.c", MAIN_C), bc(d, "lib.c", LIB_C)]


@pytest.mark.parametrize("mode", list(MODES))
def test_executable_modes(exe_objects, mode):
    d, objs = exe_objects
    flags, e_type, interp = MODES[mode]
    outs = link_each(objs, d, mode, "-flto", *flags)
    for linker, exe in outs.items():
        assert elf_info(exe) == (e_type, interp), f"{linker}: {exe.name} has the wrong ELF type/interp"
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    assert res.returncode == 3
    assert res.stdout == MAIN_EXPECTED
    if mode.startswith("static"):
        assert needed(outs["gradlink"]) == []


# --- shared libraries --------------------------------------------------------------------------

CALC_C = r"""
int calc_calls = 0;
static int square(int x) { return x * x; }
int calc_poly(int x) { calc_calls++; return 3 * square(x) + 2 * x + 1; }
double calc_mean(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  calc_calls++;
  return s / n;
}
"""

USE_CALC_C = r"""
#include <stdio.h>
extern int calc_calls;
int calc_poly(int x);
double calc_mean(const double *v, int n);
int main(void) {
  double v[] = {1.0, 2.0, 3.5, 3.5};
  printf("poly(5)=%d mean=%.3f\n", calc_poly(5), calc_mean(v, 4));
  printf("calls=%d\n", calc_calls);
  return 0;
}
"""

CTYPES_CALC = r"""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.calc_poly.argtypes = [ctypes.c_int]
lib.calc_poly.restype = ctypes.c_int
lib.calc_mean.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.c_int]
lib.calc_mean.restype = ctypes.c_double
values = (ctypes.c_double * 3)(1.5, 2.5, 5.0)
print(lib.calc_poly(7), lib.calc_poly(-2), f"{lib.calc_mean(values, 3):.4f}",
      ctypes.c_int.in_dll(lib, "calc_calls").value)
"""


@pytest.fixture(scope="module")
def calc_libs(tmp_path_factory) -> tuple[Path, dict[str, Result], dict[str, Path]]:
    d = tmp_path_factory.mktemp("c-shared")
    obj = bc(d, "calc.c", CALC_C, "-fPIC")
    results, libs = {}, {}
    for linker in LINKERS:
        (d / linker).mkdir()
        libs[linker] = d / linker / "libcalc.so"
        results[linker] = link([obj], libs[linker], "-shared", "-flto", linker=linker)
    return d, results, libs


def test_shared_library_linked_into_program(calc_libs):
    d, results, libs = calc_libs
    check_both(results, "link of libcalc.so")
    main = bc(d, "use_calc.c", USE_CALC_C)
    exes = {}
    for linker in LINKERS:
        exes[linker] = d / f"use_calc.{linker}"
        libdir = libs[linker].parent
        link([main], exes[linker], "-flto", f"-L{libdir}", "-lcalc", f"-Wl,-rpath,{libdir}",
             linker=linker).check(f"{linker}: link against libcalc.so")
        assert "libcalc.so" in needed(exes[linker])
    res = assert_same_behaviour(exes["gradlink"], exes["lld"])
    assert res.stdout == "poly(5)=86 mean=2.500\ncalls=2\n"


@pytest.mark.parametrize("linker", LINKERS)
def test_shared_library_from_ctypes(calc_libs, linker):
    _, results, libs = calc_libs
    results[linker].check(f"{linker}: link of libcalc.so")
    assert {"calc_poly", "calc_mean", "calc_calls"} <= dynamic_symbols(libs[linker])
    res = python_ctypes(CTYPES_CALC, str(libs[linker])).check(f"ctypes with {linker}'s libcalc.so")
    assert res.stdout == "162 9 3.0000 3\n"


PLUGIN_C = r"""
int host_value(void);            /* defined in the (bitcode) executable */
extern int host_counter;
int plugin_run(int x) { host_counter += x; return host_value() * 2 + host_counter; }
"""

HOST_C = r"""
#include <stdio.h>
int host_counter = 1;
int host_value(void) { return 21; }
int plugin_run(int);
int main(void) { printf("plugin_run=%d counter=%d\n", plugin_run(10), host_counter); return 0; }
"""


def test_shared_library_calls_back_into_executable(tmp_path):
    """Bitcode definitions that a shared library references stay exported from the executable."""
    shared_lib_with_lld(tmp_path, "plugin", PLUGIN_C)
    host = bc(tmp_path, "host.c", HOST_C)
    outs = link_each([host, f"-L{tmp_path}", "-lplugin", f"-Wl,-rpath,{tmp_path}"], tmp_path, "host", "-flto")
    for linker, exe in outs.items():
        assert {"host_value", "host_counter"} <= dynamic_symbols(exe), f"{linker}: not exported"
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    assert res.stdout == "plugin_run=53 counter=11\n"


VERS_C = r"""
int internal_mul(int a, int b) { return a * b; }
int api_add(int a, int b) { return a + b + internal_mul(a, b); }
int api_version = 3;
"""

VERS_SCRIPT = """
LIBVERS_1.0 {
  global: api_add; api_version;
  local: *;
};
"""

CTYPES_VERS = r"""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
print("api_add", lib.api_add(6, 7))
print("api_version", ctypes.c_int.in_dll(lib, "api_version").value)
try:
    lib.internal_mul
    print("internal_mul visible")
except AttributeError:
    print("internal_mul hidden")
"""

USE_VERS_C = r"""
#include <stdio.h>
int api_add(int a, int b);
extern int api_version;
int main(void) { printf("api_add(2,9)=%d version=%d\n", api_add(2, 9), api_version); return 0; }
"""


@pytest.fixture(scope="module")
def vers_libs(tmp_path_factory):
    d = tmp_path_factory.mktemp("c-vers")
    obj = bc(d, "vers.c", VERS_C, "-fPIC")
    script = write(d, "vers.map", VERS_SCRIPT)
    results, libs = {}, {}
    for linker in LINKERS:
        (d / linker).mkdir()
        libs[linker] = d / linker / "libvers.so"
        results[linker] = link([obj], libs[linker], "-shared", "-flto", f"-Wl,--version-script={script}",
                               "-Wl,-soname,libvers.so.1", linker=linker)
        # the run-time name the soname points to
        (d / linker / "libvers.so.1").symlink_to("libvers.so")
    return d, results, libs


@pytest.mark.parametrize("linker", LINKERS)
def test_version_script_and_soname(vers_libs, linker):
    _, results, libs = vers_libs
    results[linker].check(f"{linker}: link of libvers.so")
    lib = libs[linker]
    res = python_ctypes(CTYPES_VERS, str(lib)).check(f"ctypes with {linker}'s libvers.so")
    assert res.stdout == "api_add 55\napi_version 3\ninternal_mul hidden\n"
    dyn = dynamic_symbols(lib)
    assert {"api_add@@LIBVERS_1.0", "api_version@@LIBVERS_1.0"} <= dyn, sorted(dyn)
    assert not any(s.startswith("internal_mul") for s in dyn), sorted(dyn)
    assert ("SONAME", "libvers.so.1") in dynamic_tags(lib)


def test_program_against_versioned_library(vers_libs):
    d, results, libs = vers_libs
    check_both(results, "link of libvers.so")
    main = bc(d, "use_vers.c", USE_VERS_C)
    exes = {}
    for linker in LINKERS:
        libdir = libs[linker].parent
        exes[linker] = d / f"use_vers.{linker}"
        link([main], exes[linker], "-flto", f"-L{libdir}", "-lvers", f"-Wl,-rpath,{libdir}",
             linker=linker).check(f"{linker}: link against libvers.so")
        # DT_NEEDED records the soname, not the file name
        assert "libvers.so.1" in needed(exes[linker]), needed(exes[linker])
    res = assert_same_behaviour(exes["gradlink"], exes["lld"])
    assert res.stdout == "api_add(2,9)=29 version=3\n"


# --- native and bitcode objects together --------------------------------------------------------

MIX_NATIVE_C = r"""
extern int bc_total;            /* defined in bitcode, written here */
int native_counter = 100;       /* defined here, used by bitcode */
int bc_square(int x);           /* bitcode function only ever called from here */
int native_twice_square(int x) {
  native_counter++;
  bc_total += 1000;
  return 2 * bc_square(x);
}
"""

MIX_BITCODE_C = r"""
#include <stdio.h>
extern int native_counter;
int bc_total = 1;
int native_twice_square(int x);
__attribute__((noinline)) int bc_square(int x) { return x * x; }
int main(void) {
  int r = native_twice_square(6);
  native_counter += 5;
  printf("r=%d counter=%d total=%d\n", r, native_counter, bc_total);
  return 0;
}
"""


def test_native_and_bitcode_objects(tmp_path):
    objs = [bc(tmp_path, "mix_bitcode.c", MIX_BITCODE_C), native(tmp_path, "mix_native.c", MIX_NATIVE_C)]
    outs = link_each(objs, tmp_path, "mix", "-flto")
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    assert res.stdout == "r=72 counter=106 total=1001\n"


WEAK_BITCODE_C = r"""
#include <stdio.h>
__attribute__((weak)) int weak_in_bitcode(void) { return 1; }   /* overridden by the native object */
int strong_in_bitcode(void) { return 20; }                      /* overrides a weak native one */
__attribute__((weak)) int weak_var = 5;                         /* overridden by the native object */
int common_var;                                                 /* tentative definition (-fcommon) */
int native_calls_strong(void);
int main(void) {
  common_var += 3;
  printf("%d %d %d %d %d\n", weak_in_bitcode(), strong_in_bitcode(), weak_var, native_calls_strong(),
         common_var);
  return 0;
}
"""

WEAK_NATIVE_C = r"""
int weak_in_bitcode(void) { return 100; }
__attribute__((weak)) int strong_in_bitcode(void) { return 2; }
int weak_var = 50;
int common_var;
int native_calls_strong(void) { common_var += 1000; return strong_in_bitcode(); }
"""


def test_weak_and_common_symbols_native_and_bitcode(tmp_path):
    """Strong definitions win over weak ones whichever side (bitcode or native) they are on."""
    objs = [bc(tmp_path, "weak_bitcode.c", WEAK_BITCODE_C, "-fcommon"),
            native(tmp_path, "weak_native.c", WEAK_NATIVE_C, "-fcommon")]
    outs = link_each(objs, tmp_path, "weak", "-flto")
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    assert res.stdout == "100 20 50 20 1003\n"


# --- static archives ---------------------------------------------------------------------------

ARITH = {
    "arith_add.c": "int ar_add(int a, int b) { return a + b; }\n",
    # long member name (> 15 characters: GNU ar's // name table)
    "arith_multiplication_member.c": r"""
        int ar_add(int a, int b);
        int ar_mul(int a, int b) { int r = 0; for (int i = 0; i < b; i++) r = ar_add(r, a); return r; }
    """,
    "arith_unused_one.c": r"""
        #include <stdio.h>
        __attribute__((constructor)) static void announce1(void) { puts("UNUSED MEMBER ONE LINKED"); }
        int ar_unused_one(void) { return 1; }
    """,
    "arith_unused_two.c": r"""
        #include <stdio.h>
        __attribute__((constructor)) static void announce2(void) { puts("UNUSED MEMBER TWO LINKED"); }
        int ar_unused_two(void) { return 2; }
    """,
}

ARITH_MAIN_C = r"""
#include <stdio.h>
int ar_add(int a, int b);
int ar_mul(int a, int b);
int main(void) { printf("add=%d mul=%d\n", ar_add(2, 3), ar_mul(4, 5)); return 0; }
"""

# archive flavour -> (archiver command, members compiled as native objects)
ARCHIVES = {
    "llvm-ar-bitcode": ([AR, "rcs"], set()),
    "llvm-ar-mixed": ([AR, "rcs"], {"arith_multiplication_member.c", "arith_unused_two.c"}),
    "gnu-ar-bitcode": ([GNU_AR, "rcs"], set()),
    "gnu-ar-mixed": ([GNU_AR, "rcs"], {"arith_add.c", "arith_unused_one.c"}),
    "llvm-ar-thin": ([AR, "rcsT"], set()),
    "gnu-ar-thin": ([GNU_AR, "rcsT"], {"arith_multiplication_member.c"}),
    "llvm-ar-no-index": ([AR, "rcS"], {"arith_multiplication_member.c"}),  # no symbol table
}


@pytest.fixture(scope="module")
def arith(tmp_path_factory) -> tuple[Path, dict[str, Path], Path]:
    """{flavour: libarith.a} (each in its own directory) and the main object."""
    d = tmp_path_factory.mktemp("c-ar")
    libs = {}
    for flavour, (archiver, native_members) in ARCHIVES.items():
        fd = d / flavour
        fd.mkdir()
        members = [native(fd, n, t) if n in native_members else bc(fd, n, t) for n, t in ARITH.items()]
        lib = fd / "libarith.a"
        sh([*archiver, lib, *members]).check(f"{archiver[0]} for {flavour}")
        magic = lib.read_bytes()[:8]
        assert magic == (b"!<thin>\n" if "thin" in flavour else b"!<arch>\n"), magic
        libs[flavour] = lib
    return d, libs, bc(d, "arith_main.c", ARITH_MAIN_C)


@pytest.mark.parametrize("flavour", list(ARCHIVES))
def test_archive(arith, flavour):
    """Only the needed members are linked: the unused members' constructors must not run."""
    d, libs, main = arith
    outs = link_each([main, libs[flavour]], d, f"arith-{flavour}", "-flto")
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    assert res.stdout == "add=5 mul=20\n"
    for linker, exe in outs.items():
        syms = symbols(exe)
        assert "main" in syms, f"{linker}: no symbol table in {exe.name}"
        assert not {"ar_unused_one", "ar_unused_two", "announce1", "announce2"} & syms, (
            f"{linker} linked an unneeded member")


@pytest.mark.parametrize("flavour", ["llvm-ar-bitcode", "llvm-ar-mixed"])
def test_whole_archive(arith, flavour):
    """--whole-archive links the unneeded members too, so their constructors run, in lld's order
    (in the mixed archive one constructor is in a bitcode member and one in a native member)."""
    d, libs, main = arith
    outs = link_each([main, "-Wl,--whole-archive", libs[flavour], "-Wl,--no-whole-archive"], d,
                     f"whole-{flavour}", "-flto")
    res = {linker: run(exe) for linker, exe in outs.items()}
    for linker, r in res.items():
        assert (r.returncode, r.stderr) == (0, ""), f"{linker}: {r}"
        assert sorted(r.stdout.splitlines()) == [
            "UNUSED MEMBER ONE LINKED", "UNUSED MEMBER TWO LINKED", "add=5 mul=20"], f"{linker}:\n{r.stdout}"
    assert res["gradlink"].stdout == res["lld"].stdout


CTOR_BITCODE_C = r"""
#include <stdio.h>
__attribute__((constructor)) static void bitcode_ctor(void) { puts("constructor in bitcode object"); }
"""
CTOR_NATIVE_C = r"""
#include <stdio.h>
__attribute__((constructor)) static void native_ctor(void) { puts("constructor in native object"); }
"""


@pytest.mark.parametrize("order", ["native-first", "bitcode-first"])
def test_constructor_order_native_and_bitcode(tmp_path, order):
    """Constructors of native and bitcode objects run in the same order as with lld.

    (lld places the LTO-compiled code after all native inputs; GNU ld.bfd and gold place it where the
    first bitcode file was. C and C++ leave this order unspecified.)
    """
    main = bc(tmp_path, "ctor_main.c", "int main(void) { return 0; }\n")
    bitcode = bc(tmp_path, "ctor_bitcode.c", CTOR_BITCODE_C)
    nat = native(tmp_path, "ctor_native.c", CTOR_NATIVE_C)
    objs = [nat, main, bitcode] if order == "native-first" else [main, bitcode, nat]
    outs = link_each(objs, tmp_path, "ctor_order", "-flto")
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    assert sorted(res.stdout.splitlines()) == ["constructor in bitcode object", "constructor in native object"]


def test_library_by_filename(arith):
    """-l:libarith.a"""
    d, libs, main = arith
    libdir = libs["llvm-ar-bitcode"].parent
    outs = link_each([main, f"-L{libdir}", "-l:libarith.a"], d, "colon-l", "-flto")
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    assert res.stdout == "add=5 mul=20\n"


FORCED_C = r"""
#include <stdio.h>
__attribute__((constructor)) static void forced_announce(void) { puts("forced member linked"); }
int forced_sym(void) { return 7; }
"""


@pytest.mark.parametrize("force", [True, False], ids=["with-u", "without-u"])
def test_undefined_forces_member(arith, tmp_path, force):
    """-Wl,-u,forced_sym pulls in a member nothing else references."""
    _, libs, main = arith
    lib = tmp_path / "libforce.a"
    sh([AR, "rcs", lib, bc(tmp_path, "forced.c", FORCED_C)]).check("llvm-ar")
    flags = ["-Wl,-u,forced_sym"] if force else []
    outs = link_each([main, libs["llvm-ar-bitcode"], lib], tmp_path, "force", "-flto", *flags)
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    assert res.stdout == ("forced member linked\n" if force else "") + "add=5 mul=20\n"


GROUP_SOURCES = {  # liba.a and libb.a need each other
    "a": {"a_entry.c": "int b_step(int);\nint a_entry(int x) { return b_step(x) + 1; }\n",
          "a_leaf.c": "int a_leaf(int x) { return x * 10; }\n"},
    "b": {"b_step.c": "int a_leaf(int);\nint b_step(int x) { return a_leaf(x) + 2; }\n"},
}


def test_start_end_group(tmp_path):
    libs = []
    for name, sources in GROUP_SOURCES.items():
        lib = tmp_path / f"lib{name}.a"
        sh([AR, "rcs", lib, *[bc(tmp_path, n, t) for n, t in sources.items()]]).check("llvm-ar")
        libs.append(lib)
    main = bc(tmp_path, "group_main.c", r"""
        #include <stdio.h>
        int a_entry(int);
        int main(void) { printf("a_entry(4)=%d\n", a_entry(4)); return 0; }
    """)
    outs = link_each([main, "-Wl,--start-group", *libs, "-Wl,--end-group"], tmp_path, "group", "-flto")
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    assert res.stdout == "a_entry(4)=43\n"


# --- -Bstatic / -Bdynamic, --as-needed ---------------------------------------------------------

def shared_lib_with_lld(d: Path, name: str, text: str) -> Path:
    """An input shared library lib<name>.so (built with lld: it is an input here, not under test)."""
    obj = native(d, f"{name}_so.c", text, "-fPIC")
    lib = d / f"lib{name}.so"
    link([obj], lib, "-shared", f"-Wl,-soname,lib{name}.so", linker="lld").check(f"lld: lib{name}.so")
    return lib


DUAL_MAIN_C = r"""
#include <stdio.h>
const char *dual_kind(void);
int main(void) { printf("dual: %s\n", dual_kind()); return 0; }
"""


@pytest.mark.parametrize("mode", ["default", "Bstatic"])
def test_bstatic_bdynamic(tmp_path, mode):
    shared_lib_with_lld(tmp_path, "dual", 'const char *dual_kind(void) { return "shared"; }\n')
    sh([AR, "rcs", tmp_path / "libdual.a",
        bc(tmp_path, "dual_static.c", 'const char *dual_kind(void) { return "static"; }\n')]).check("ar")
    main = bc(tmp_path, "dual_main.c", DUAL_MAIN_C)
    lib_flags = ["-ldual"] if mode == "default" else ["-Wl,-Bstatic", "-ldual", "-Wl,-Bdynamic"]
    outs = link_each([main, f"-L{tmp_path}", *lib_flags, f"-Wl,-rpath,{tmp_path}"], tmp_path, "dual", "-flto")
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    expect_static = mode == "Bstatic"
    assert res.stdout == f"dual: {'static' if expect_static else 'shared'}\n"
    for linker, exe in outs.items():
        deps = needed(exe)
        assert ("libdual.so" in deps) != expect_static, f"{linker}: DT_NEEDED {deps}"
        assert "libc.so.6" in deps, f"{linker}: libc must stay dynamic after -Bdynamic: {deps}"


@pytest.mark.parametrize("as_needed", [True, False], ids=["as-needed", "no-as-needed"])
def test_as_needed(tmp_path, as_needed):
    shared_lib_with_lld(tmp_path, "used", "int used_fn(int x) { return x + 1000; }\n")
    shared_lib_with_lld(tmp_path, "unused", "int unused_fn(int x) { return x; }\n")
    main = bc(tmp_path, "as_needed_main.c", r"""
        #include <stdio.h>
        int used_fn(int);
        int main(void) { printf("used_fn(234)=%d\n", used_fn(234)); return 0; }
    """)
    libs = [f"-L{tmp_path}", "-lused", "-lunused", f"-Wl,-rpath,{tmp_path}"]
    if as_needed:
        libs = ["-Wl,--as-needed", *libs, "-Wl,--no-as-needed"]
    outs = link_each([main, *libs], tmp_path, "asneeded", "-flto")
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    assert res.stdout == "used_fn(234)=1234\n"
    deps = {linker: needed(exe) for linker, exe in outs.items()}
    assert deps["gradlink"] == deps["lld"]
    assert "libused.so" in deps["lld"]
    assert ("libunused.so" in deps["gradlink"]) != as_needed, deps["gradlink"]


# --- --export-dynamic, -e ----------------------------------------------------------------------

EXPORT_DYNAMIC_C = r"""
#include <dlfcn.h>
#include <stdio.h>
int exported_hook(int x) { return x * 3 + 1; }   /* never referenced directly */
int main(void) {
  void *self = dlopen(NULL, RTLD_NOW);
  int (*hook)(int) = (int (*)(int))dlsym(self, "exported_hook");
  if (!hook) { puts("exported_hook not found"); return 0; }
  printf("exported_hook(13)=%d\n", hook(13));
  return 0;
}
"""


@pytest.mark.parametrize("export", [True, False], ids=["export-dynamic", "default"])
def test_export_dynamic(tmp_path, export):
    main = bc(tmp_path, "export_dynamic.c", EXPORT_DYNAMIC_C)
    flags = ["-Wl,--export-dynamic"] if export else []
    outs = link_each([main], tmp_path, "selfdlsym", "-flto", *flags, "-ldl")
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    assert res.stdout == ("exported_hook(13)=40\n" if export else "exported_hook not found\n")


ENTRY_C = r"""
#include <stdio.h>
#include <unistd.h>
__attribute__((force_align_arg_pointer, noreturn)) void my_entry(void) {
  printf("entered at my_entry, 6*7=%d\n", 6 * 7);
  fflush(stdout);
  _exit(7);
}
"""


def test_entry_point(tmp_path):
    obj = bc(tmp_path, "entry.c", ENTRY_C)
    outs = link_each([obj], tmp_path, "entry", "-flto", "-nostartfiles", "-Wl,-e,my_entry")
    res = assert_same_behaviour(outs["gradlink"], outs["lld"])
    assert (res.returncode, res.stdout) == (7, "entered at my_entry, 6*7=42\n")
