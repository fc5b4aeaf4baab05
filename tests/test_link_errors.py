"""Bad input to ld.gradlink: corrupt or truncated files, missing libraries, undefined and duplicate
symbols, unwritable output paths.

What ld.gradlink must do in every case: print an ld-style message on stderr, a line starting with
``ld.gradlink: error: `` that names the offending file or symbol; exit with code 1 (so the clang
driver fails too); leave no output file behind (also when one existed before the link) and never
show a Python traceback. Each case runs through the clang driver and as a direct ``ld.gradlink``
call with a minimal argument list; lld must reject the same input (a check of the test itself).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from toolchain import AR, CC, Result, compile_c, have, link, sh

pytestmark = pytest.mark.skipif(not have(CC), reason=f"{CC} not installed")

PREFIX = "ld.gradlink: error: "

# No libc calls: the same objects link directly (ld.gradlink -e main ...) and through the driver.
MAIN_C = "int needed_fn(int);\nint main(void) { return needed_fn(2); }\n"
LIB_C = "int needed_fn(int x) { return x + 40; }\n"
LIB_DUP_C = "int needed_fn(int x) { return x - 40; }\n"
OTHER_C = "int other_fn(int x) { return x * 3; }\n"
UNDEF_C = "int missing_function_xyz(int);\nint main(void) { return missing_function_xyz(1); }\n"
UNDEF_NATIVE_C = "int missing_native_ref_q(int);\nint main(void) { return missing_native_ref_q(5); }\n"


@pytest.fixture(scope="module")
def objs(tmp_path_factory) -> dict[str, Path]:
    """Good inputs shared by all cases (d = their directory)."""
    d = tmp_path_factory.mktemp("errors")

    def obj(name: str, text: str, *flags: str) -> Path:
        src = d / f"{name}.c"
        src.write_text(text)
        return compile_c(src, d / f"{name}.o", "-O2", *flags)

    o = {"dir": d,
         "main": obj("main", MAIN_C, "-flto"),
         "lib": obj("lib", LIB_C, "-flto"),
         "lib_dup": obj("lib_dup", LIB_DUP_C, "-flto"),
         "lib_dup_native": obj("lib_dup_native", LIB_DUP_C),
         "other": obj("other", OTHER_C, "-flto"),
         "undef": obj("undef", UNDEF_C, "-flto"),
         "undef_native": obj("undef_native", UNDEF_NATIVE_C)}
    for name in ("main", "lib", "lib_dup", "other", "undef"):
        assert o[name].read_bytes()[:4] == b"BC\xc0\xde"
    return o


@dataclass
class Case:
    inputs: list[str | Path]       # objects and library options, in link order
    needles: list[str]             # must all appear in ld.gradlink's error lines
    output: Path | None = None     # default: <case dir>/out/prog
    output_is_dir: bool = False


def corrupt_bitcode(o, d: Path) -> Case:
    bad = d / "corrupt_bitcode.o"
    bad.write_bytes(b"BC\xc0\xde" + bytes(range(7, 250)) * 8)
    return Case([o["main"], o["lib"], bad], ["corrupt_bitcode.o"])


def truncated_bitcode(o, d: Path) -> Case:
    data = o["lib"].read_bytes()
    bad = d / "truncated_bitcode.o"
    bad.write_bytes(data[: len(data) // 2])
    return Case([o["main"], bad], ["truncated_bitcode.o"])


def truncated_archive(o, d: Path) -> Case:
    full = d / "libfull.a"
    sh([AR, "rcs", full, o["other"], o["lib"]]).check("llvm-ar")
    data = full.read_bytes()
    member = o["lib"].read_bytes()
    start = data.index(member)  # cut in the middle of the second member (the needed one)
    bad = d / "libtrunc.a"
    bad.write_bytes(data[: start + len(member) // 2])
    return Case([o["main"], bad], ["libtrunc.a"])


def missing_library(o, d: Path) -> Case:
    return Case([o["main"], o["lib"], f"-L{d}", "-lnosuchlib"], ["-lnosuchlib"])


def undefined_symbol(o, d: Path) -> Case:
    return Case([o["undef"]], ["missing_function_xyz"])


def undefined_symbol_native(o, d: Path) -> Case:
    return Case([o["undef_native"], o["lib"]], ["missing_native_ref_q"])


def duplicate_bitcode(o, d: Path) -> Case:
    return Case([o["main"], o["lib"], o["lib_dup"]], ["duplicate symbol", "needed_fn"])


def duplicate_bitcode_native(o, d: Path) -> Case:
    return Case([o["main"], o["lib"], o["lib_dup_native"]], ["duplicate symbol", "needed_fn"])


def output_in_missing_dir(o, d: Path) -> Case:
    out = d / "out" / "no" / "such" / "dir" / "prog"
    return Case([o["main"], o["lib"]], [str(out)], output=out)


def output_is_directory(o, d: Path) -> Case:
    out = d / "out" / "prog"
    out.mkdir(parents=True)
    (out / "keep.txt").write_text("still here\n")
    return Case([o["main"], o["lib"]], [str(out)], output=out, output_is_dir=True)


CASES: dict[str, Callable[[dict, Path], Case]] = {
    "corrupt-bitcode": corrupt_bitcode,
    "truncated-bitcode": truncated_bitcode,
    "truncated-archive": truncated_archive,
    "missing-library": missing_library,
    "undefined-symbol": undefined_symbol,
    "undefined-symbol-native": undefined_symbol_native,
    "duplicate-bitcode": duplicate_bitcode,
    "duplicate-bitcode-native": duplicate_bitcode_native,
    "output-in-missing-dir": output_in_missing_dir,
    "output-is-directory": output_is_directory,
}
OUTPUT_CASES = {"output-in-missing-dir", "output-is-directory"}


def direct(inputs: list, out: Path, linker: str = "ld.gradlink") -> Result:
    """A minimal direct linker call: no crt files, no libc, main as the entry point."""
    return sh([linker, "-e", "main", *inputs, "-o", out])


def snapshot(d: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(d)): (p.read_bytes() if p.is_file() else None) for p in sorted(d.rglob("*"))}


def assert_gradlink_error(res: Result, case: Case, mode: str) -> None:
    where = f"ld.gradlink via {mode} (exit {res.returncode}):\n{res.stderr}"
    assert "Traceback" not in res.stderr, f"Python traceback from {where}"
    assert res.returncode != 0, f"link succeeded: {where}"
    if mode == "direct":
        assert res.returncode == 1, f"exit code must be 1: {where}"
    else:
        assert "linker command failed with exit code 1" in res.stderr, f"exit code must be 1: {where}"
    errors = [line for line in res.stderr.splitlines() if line.startswith(PREFIX)]
    assert errors, f"no line starting with {PREFIX!r}: {where}"
    for needle in case.needles:
        assert any(needle in line for line in errors), f"no error line mentions {needle!r}: {where}"


@pytest.mark.parametrize("preexisting", [False, True], ids=["fresh", "stale-output"])
@pytest.mark.parametrize("mode", ["driver", "direct"])
@pytest.mark.parametrize("case_name", list(CASES))
def test_link_error(objs, tmp_path, case_name, mode, preexisting):
    if preexisting and case_name in OUTPUT_CASES:
        pytest.skip("the output path itself is the problem")
    case = CASES[case_name](objs, tmp_path)
    out = case.output or tmp_path / "out" / "prog"
    out_dir = tmp_path / "out"
    out_dir.mkdir(exist_ok=True)
    if preexisting:
        out.write_bytes(b"output of an earlier, successful link\n")
    before = snapshot(out_dir)

    if mode == "driver":
        res = link(case.inputs, out, linker="gradlink")
    else:
        res = direct(case.inputs, out)
    assert_gradlink_error(res, case, mode)

    after = snapshot(out_dir)
    if case.output_is_dir:
        assert out.is_dir() and after == before, f"the directory {out} was modified: {before} -> {after}"
    else:
        assert not out.exists(), f"{out.name} left behind after a failed link"
        assert after == {}, f"files left behind in the output directory: {sorted(after)}"

    # the input really is bad: lld rejects it too
    ref = tmp_path / "ref" / "prog"
    if case.output is not None:
        ref = case.output
    else:
        ref.parent.mkdir()
    ref_res = link(case.inputs, ref, linker="lld") if mode == "driver" else direct(case.inputs, ref, "ld.lld-22")
    assert ref_res.returncode != 0, f"lld accepted the input of case {case_name}"


@pytest.mark.parametrize("mode", ["driver", "direct"])
def test_good_link_for_comparison(objs, tmp_path, mode):
    """The same minimal command lines succeed with good input (so the errors above are real)."""
    out = tmp_path / "prog"
    inputs = [objs["main"], objs["lib"]]
    res = link(inputs, out, linker="gradlink") if mode == "driver" else direct(inputs, out)
    res.check(f"ld.gradlink via {mode}")
    assert "Traceback" not in res.stderr
    assert out.read_bytes()[:4] == b"\x7fELF"
    if mode == "driver":
        r = sh([out])
        assert r.returncode == 42, r


def test_missing_input_file_direct(objs, tmp_path):
    out = tmp_path / "prog"
    res = direct([objs["main"], tmp_path / "no_such_input.o"], out)
    assert_gradlink_error(res, Case([], ["no_such_input.o"]), "direct")
    assert not out.exists()
