"""End-to-end C++ links: clang++-22 LTO objects linked with ld.gradlink and with lld, run and compared.

The program (tests/programs/cxx) has two translation units and uses templates (implicit and
explicit instantiations), virtual functions, exceptions thrown and caught across the two units
(and unwinding through frames of the other unit), iostream, std::string/std::vector/std::map and
static constructors with side effects.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from toolchain import (
    CXX,
    READELF,
    assert_same_behaviour,
    compile_c,
    dynamic_symbols,
    have,
    link,
    needed,
    run,
    sh,
    tool_env,
)

PROG = Path(__file__).parent / "programs" / "cxx"
SOURCES = ["main.cpp", "shapes.cpp"]

pytestmark = pytest.mark.skipif(not have(CXX), reason=f"{CXX} not installed")

# LTO flavour -> flags used both to compile and to link.
FLAVOURS = {
    "full": ["-flto"],
    "thin": ["-flto=thin"],
    "fat": ["-flto", "-ffat-lto-objects"],
}

# Lines the program must print (in this order) whatever the link; the exact output, including the
# order of static constructors, must in addition be identical between gradlink and lld.
EXPECTED = [
    "seeds: 448 329",
    "   circle area 3.142 perimeter 6.283",
    "   square area 4.000 perimeter 8.000",
    " triangle area 6.000 perimeter 0.000",
    "   square area 0.250 perimeter 2.000",
    "total area 13.392",
    "caught ShapeError: unknown shape 'hexagon' code 7",
    "  visit_all skipped circle: circles are not welcome (code 42)",
    "  visiting square",
    "  cleanup in visit_all",
    "caught Abort at 3",
    "caught std::exception: Stats::max of an empty set",
    "rethrown domain_error: negative size -2.000000",
    "max area 6.000 of 4",
    "weighted int 110",
    "weighted double 0.875",
    "counts circle=1;square=2;triangle=1; reversed ;1=elgnairt;2=erauqs;1=elcric",
]


def assert_expected_lines(stdout: str, expected: list[str]) -> None:
    lines = stdout.splitlines()
    pos = 0
    for want in expected:
        assert want in lines[pos:], f"missing (or out of order) line {want!r} in output:\n{stdout}"
        pos = lines.index(want, pos) + 1


def is_bitcode(path: Path) -> bool:
    return path.read_bytes()[:4] == b"BC\xc0\xde"


def elf_section_names(path: Path) -> list[str]:
    out = sh([READELF, "-S", "-W", path]).check(f"readelf -S {path.name}").stdout
    names = []
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("[") and "]" in line:
            rest = line.split("]", 1)[1].split()
            if rest:
                names.append(rest[0])
    return names


@pytest.fixture(scope="module", params=list(FLAVOURS))
def cxx_objects(request, tmp_path_factory) -> tuple[str, list[Path], Path]:
    flavour = request.param
    flags = FLAVOURS[flavour]
    d = tmp_path_factory.mktemp(f"cxx-{flavour}")
    objs = [compile_c(PROG / src, d / f"{Path(src).stem}.o", "-O2", *flags, compiler=CXX)
            for src in SOURCES]
    for o in objs:  # make sure the inputs really are what the flavour promises
        if flavour == "fat":
            assert o.read_bytes()[:4] == b"\x7fELF", f"{o.name} is not an ELF object"
            assert ".llvm.lto" in elf_section_names(o), f"{o.name} has no .llvm.lto section"
        else:
            assert is_bitcode(o), f"{o.name} is not a bitcode file"
    return flavour, objs, d


@pytest.mark.parametrize("mode", ["pie", "static"])
def test_cxx_program(cxx_objects, mode):
    """The two-TU program as a PIE and fully static (libstdc++'s unwinder in the executable)."""
    flavour, objs, d = cxx_objects
    flags = [*FLAVOURS[flavour], *(["-static"] if mode == "static" else [])]
    g, r = d / f"prog-{mode}.gradlink", d / f"prog-{mode}.lld"
    link(objs, g, *flags, linker="gradlink", driver=CXX).check(f"gradlink link ({flavour}, {mode})")
    link(objs, r, *flags, linker="lld", driver=CXX).check(f"lld link ({flavour}, {mode})")
    res = assert_same_behaviour(g, r)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    # main.o comes first on the command line, so its static constructor runs first
    assert lines[:3] == ["[ctor] main.cpp registered", "[ctor] shapes.cpp registered",
                         "init order: main.cpp shapes.cpp"], res.stdout
    assert_expected_lines(res.stdout, EXPECTED)


# --- shared library ---------------------------------------------------------------------------

@pytest.fixture(scope="module", params=list(FLAVOURS))
def cxx_shared_objects(request, tmp_path_factory) -> tuple[list[str], Path, Path, Path]:
    flags = FLAVOURS[request.param]
    d = tmp_path_factory.mktemp(f"cxx-shared-{request.param}")
    lib_obj = compile_c(PROG / "shapes.cpp", d / "shapes.pic.o", "-O2", "-fPIC", *flags, compiler=CXX)
    main_obj = compile_c(PROG / "main.cpp", d / "main.o", "-O2", *flags, compiler=CXX)
    return flags, lib_obj, main_obj, d


# Symbols the executable needs from the library (exceptions' typeinfo included) and an
# explicit template instantiation, which must stay exported.
LIB_EXPORTS = {
    "_Z10make_shapeRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEd",
    "_Z10total_areaRKSt6vectorISt10unique_ptrI5ShapeSt14default_deleteIS1_EESaIS4_EE",
    "_ZTI10ShapeError",
    "_ZN10ShapeErrorD2Ev",
    "_Z12weighted_sumIiET_RKSt6vectorIS0_SaIS0_EES0_",
    "g_shapes_seed",
}


def test_cxx_shared_library(cxx_shared_objects):
    """libshapes.so (-shared -fPIC -flto) linked by each linker, used by an executable it links."""
    flags, lib_obj, main_obj, d = cxx_shared_objects
    exes = {}
    for linker in ("gradlink", "lld"):
        libdir = d / linker
        libdir.mkdir(exist_ok=True)
        lib = libdir / "libshapes.so"
        link([lib_obj], lib, "-shared", *flags, "-Wl,-soname,libshapes.so", linker=linker,
             driver=CXX).check(f"{linker} link of libshapes.so")
        missing = LIB_EXPORTS - dynamic_symbols(lib)
        assert not missing, f"{linker}: libshapes.so does not export {sorted(missing)}"
        exe = d / f"prog.{linker}"
        link([main_obj], exe, *flags, f"-L{libdir}", "-lshapes", f"-Wl,-rpath,{libdir}",
             linker=linker, driver=CXX).check(f"{linker} link of the executable")
        assert "libshapes.so" in needed(exe), f"{linker}: {exe.name} does not need libshapes.so"
        exes[linker] = exe
    res = assert_same_behaviour(exes["gradlink"], exes["lld"])
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    # the library's constructors run before the executable's
    assert lines[:3] == ["[ctor] shapes.cpp registered", "[ctor] main.cpp registered",
                         "init order: shapes.cpp main.cpp"], res.stdout
    assert_expected_lines(res.stdout, EXPECTED)


def test_cxx_executable_with_library_from_other_linker(cxx_shared_objects):
    """Cross check: the gradlink executable must also run against lld's library and vice versa."""
    flags, lib_obj, main_obj, d = cxx_shared_objects
    libs = {}
    for linker in ("gradlink", "lld"):
        libdir = d / f"cross-{linker}"
        libdir.mkdir(exist_ok=True)
        link([lib_obj], libdir / "libshapes.so", "-shared", *flags, "-Wl,-soname,libshapes.so",
             linker=linker, driver=CXX).check(f"{linker} link of libshapes.so")
        libs[linker] = libdir
    for exe_linker, lib_linker in (("gradlink", "lld"), ("lld", "gradlink")):
        exe = d / f"cross.{exe_linker}-exe.{lib_linker}-lib"
        link([main_obj], exe, *flags, f"-L{libs[exe_linker]}", "-lshapes", linker=exe_linker,
             driver=CXX).check(f"{exe_linker} link of the executable")
        res = run(exe, env=_env_with_library_path(libs[lib_linker]))
        assert res.returncode == 0, f"{exe.name}: {res.stderr}"
        assert_expected_lines(res.stdout, EXPECTED)


def _env_with_library_path(libdir: Path) -> dict[str, str]:
    env = tool_env()
    env["LD_LIBRARY_PATH"] = str(libdir)
    return env
