"""The `gradlink` and `ld.gradlink` commands, run as installed (the venv's entry points)."""

from __future__ import annotations

import shlex
import struct
from pathlib import Path

import pytest
from toolchain import AR, BIN_DIR, CC, compile_c, have, sh

pytestmark = pytest.mark.skipif(not (have(CC) and have(AR)), reason="clang-22 / llvm-ar-22 missing")

GRADLINK = str(BIN_DIR / "gradlink")
LD = str(BIN_DIR / "ld.gradlink")

HELLO_C = """\
#include <stdio.h>
int helper(int);
int main(void) { printf("hello %d\\n", helper(41)); return 0; }
"""
HELPER_C = "int helper(int x) { return x + 1; }\nint unused_fn(int x) { return x * 2; }\n"


def clean_error(r, *, code: int | None = None) -> None:
    assert r.returncode != 0
    if code is not None:
        assert r.returncode == code
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout


@pytest.fixture(scope="module")
def objs(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("cli")
    hello = d / "hello.c"
    hello.write_text(HELLO_C)
    helper = d / "helper.c"
    helper.write_text(HELPER_C)
    o = {"dir": d,
         "hello": compile_c(hello, d / "hello.o", "-O2", "-flto"),
         "helper": compile_c(helper, d / "helper.o", "-O2", "-flto"),
         "fat": compile_c(helper, d / "fat.o", "-O2", "-flto", "-ffat-lto-objects"),
         "native": compile_c(helper, d / "native.o", "-O2")}
    lib = d / "libhelp.a"
    sh([AR, "rcs", lib, o["native"], o["helper"]]).check("llvm-ar")
    o["archive"] = lib
    return o


# --- gradlink ----------------------------------------------------------------------------------


def test_gradlink_help():
    r = sh([GRADLINK, "--help"]).check("gradlink --help")
    for word in ("link", "inspect", "version"):
        assert word in r.stdout
    assert sh([GRADLINK, "-h"]).check("gradlink -h").stdout == r.stdout


def test_gradlink_version():
    r = sh([GRADLINK, "version"]).check("gradlink version")
    from gradlink import __version__
    assert f"gradlink {__version__}" in r.stdout
    assert "llvmlite" in r.stdout
    assert "LLVM 22." in r.stdout
    assert "native linker:" in r.stdout


def test_gradlink_unknown_command():
    clean_error(sh([GRADLINK, "frobnicate"]))


def test_inspect_bitcode(objs):
    r = sh([GRADLINK, "inspect", objs["helper"]]).check("inspect bitcode")
    assert "LLVM bitcode" in r.stdout and "x86_64" in r.stdout
    assert "2 defined, 0 undefined" in r.stdout
    r = sh([GRADLINK, "inspect", "--symbols", objs["hello"]]).check("inspect -s bitcode")
    assert "main  [defined]" in r.stdout
    assert "helper  [undefined]" in r.stdout and "printf  [undefined]" in r.stdout


def test_inspect_fat_object(objs):
    r = sh([GRADLINK, "inspect", "-s", objs["fat"]]).check("inspect fat")
    assert "fat ELF relocatable object (bitcode in .llvm.lto)" in r.stdout
    assert "helper  [defined]" in r.stdout


def test_inspect_native_object(objs):
    r = sh([GRADLINK, "inspect", objs["native"]]).check("inspect native")
    assert "ELF relocatable object" in r.stdout and "fat" not in r.stdout


def test_inspect_archive(objs):
    r = sh([GRADLINK, "inspect", objs["archive"]]).check("inspect archive")
    lines = r.stdout.splitlines()
    assert "archive, 2 members, with a symbol index" in lines[0]
    assert lines[1].strip().startswith("native.o: ELF relocatable object")
    assert lines[2].strip().startswith("helper.o: LLVM bitcode")


@pytest.mark.skipif(not Path("/usr/lib/x86_64-linux-gnu/libc.so").exists(), reason="no Debian libc.so")
def test_inspect_linker_script():
    r = sh([GRADLINK, "inspect", "/usr/lib/x86_64-linux-gnu/libc.so"]).check("inspect libc.so")
    assert "linker script" in r.stdout and "GROUP" in r.stdout


def test_inspect_missing_file(tmp_path):
    r = sh([GRADLINK, "inspect", tmp_path / "nope.o"])
    clean_error(r)
    assert "nope.o" in r.stderr and "No such file" in r.stderr


@pytest.mark.parametrize("which, cut", [("native", 100), ("archive", 100), ("helper", 100)])
def test_inspect_truncated(objs, tmp_path, which, cut):
    bad = tmp_path / f"cut-{which}"
    bad.write_bytes(objs[which].read_bytes()[:cut])
    r = sh([GRADLINK, "inspect", bad])
    clean_error(r)
    assert "Error:" in r.stderr and bad.name in r.stderr


def test_inspect_corrupt_shared_object(tmp_path):
    src = tmp_path / "s.c"
    src.write_text("int f(void) { return 1; }\n")
    so = tmp_path / "libs.so"
    sh([CC, "-shared", "-fPIC", src, "-o", so]).check("shared")
    data = bytearray(so.read_bytes())
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shnum = struct.unpack_from("<H", data, 0x3C)[0]
    for i in range(shnum):
        if struct.unpack_from("<I", data, shoff + i * 64 + 4)[0] == 6:      # SHT_DYNAMIC
            struct.pack_into("<I", data, shoff + i * 64 + 40, 0xFFFF)        # sh_link
    so.write_bytes(bytes(data))
    r = sh([GRADLINK, "inspect", so])
    clean_error(r)
    assert "libs.so" in r.stderr and "string table" in r.stderr


# --- linking -----------------------------------------------------------------------------------


def lld_args(objs: list[Path], out: Path, cwd: Path) -> list[str]:
    """The GNU ld arguments clang-22 would give the linker (from `clang -###`)."""
    r = sh([CC, "-###", "-fuse-ld=lld", *objs, "-o", out], cwd=cwd)
    assert r.returncode == 0, r.stderr
    line = [ln for ln in r.stderr.splitlines() if "ld.lld" in ln][-1]
    return shlex.split(line)[1:]


def test_gradlink_link_runs(objs, tmp_path):
    exe = tmp_path / "hello"
    args = lld_args([objs["hello"], objs["helper"]], exe, tmp_path)
    r = sh([GRADLINK, "link", "--gradlink-verbose", *args], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "2 bitcode module(s)" in r.stderr          # we did the LTO, not lld
    run = sh([exe])
    assert (run.returncode, run.stdout) == (0, "hello 42\n")


def test_ld_gradlink_link_runs(objs, tmp_path):
    exe = tmp_path / "hello2"
    args = lld_args([objs["hello"], objs["archive"]], exe, tmp_path)
    sh([LD, *args], cwd=tmp_path).check("ld.gradlink")
    run = sh([exe])
    assert (run.returncode, run.stdout) == (0, "hello 42\n")


def test_gradlink_link_error_is_clean(objs, tmp_path):
    r = sh([GRADLINK, "link", objs["hello"], "-o", tmp_path / "x", "-lno_such_library_q"], cwd=tmp_path)
    clean_error(r, code=1)
    assert "ld.gradlink: error: unable to find library -lno_such_library_q" in r.stderr
    assert not (tmp_path / "x").exists()


# --- ld.gradlink -------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--help", "-help"])
def test_ld_help(flag):
    r = sh([LD, flag]).check("ld.gradlink --help")
    assert r.stdout.startswith("Usage: ld.gradlink")
    assert "--gradlink-verbose" in r.stdout and "--gradlink-save-temps" in r.stdout


@pytest.mark.parametrize("flag", ["--version", "-v", "-V"])
def test_ld_version(flag):
    r = sh([LD, flag]).check("ld.gradlink --version")
    from gradlink import __version__
    assert r.stdout.startswith(f"ld.gradlink {__version__}")
    assert "LLVM 22" in r.stdout


def test_ld_no_inputs(tmp_path):
    r = sh([LD], cwd=tmp_path)
    clean_error(r, code=1)
    assert r.stderr.startswith("ld.gradlink: error:")
    assert "no input files" in r.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, needle", [
    (["-o"], "-o: missing argument"),
    (["--start-group", "x.o"], "--start-group without --end-group"),
    (["--end-group"], "--end-group without --start-group"),
    (["missing_input.o"], "missing_input.o"),
])
def test_ld_bad_command_lines(tmp_path, argv, needle):
    r = sh([LD, *argv], cwd=tmp_path)
    clean_error(r, code=1)
    assert r.stderr.startswith("ld.gradlink: error:") and needle in r.stderr


def test_ld_mllvm_warning(objs, tmp_path):
    r = sh([LD, "-mllvm", "-some-option", "-o", tmp_path / "x"], cwd=tmp_path)
    assert "ld.gradlink: warning: ignoring -mllvm -some-option" in r.stderr
    clean_error(r, code=1)                          # still no inputs


# --- end-to-end consequences of option/export bugs (see test_options.py, test_exports.py) ------

VS_C = "int foo(void) { return 1; }\nint bar(void) { return 2; }\nint baz(void) { return 3; }\n"


@pytest.fixture(scope="module")
def vs_obj(objs) -> Path:
    src = objs["dir"] / "vs.c"
    src.write_text(VS_C)
    return compile_c(src, objs["dir"] / "vs.bc.o", "-O2", "-flto", "-fPIC")


def test_ld_undefined_version_then_input(vs_obj, tmp_path):
    r = sh([LD, "--gradlink-verbose", "-shared", "--undefined-version", vs_obj,
            "-o", tmp_path / "libu.so"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "LTO unit: 1 bitcode module(s)" in r.stderr


def test_ld_two_version_scripts(vs_obj, tmp_path):
    v1 = tmp_path / "v1.map"
    v1.write_text("V1 { global: foo; local: *; };\n")
    v2 = tmp_path / "v2.map"
    v2.write_text("V2 { global: bar; local: *; };\n")
    so = tmp_path / "libvs.so"
    r = sh([LD, "-shared", vs_obj, "--version-script", v1, "--version-script", v2, "-o", so],
           cwd=tmp_path)
    assert r.returncode == 0, r.stderr
