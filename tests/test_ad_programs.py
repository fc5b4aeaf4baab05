"""End-to-end reverse-mode AD: C (and a little C++) programs under tests/ad_programs/.

Each program is compiled with ``clang-22 -O2 -flto -c`` (some with ``-g``), linked with
``clang-22 -flto -fuse-ld=gradlink prog.o -lm -o prog`` and run. Its main computes gradients with
``__enzyme_autodiff`` and with central finite differences of the same primal function (and, where
the derivative is analytic, its exact value), and prints one line per comparison (see
tests/ad_programs/ad.h):

    fd LABEL AD FD  |  fdf LABEL AD FD  |  exact LABEL AD WANT  |  exactf LABEL AD WANT

then ``done``. The test parses the lines and checks each pair with the tolerance of its kind.

Every program here must give right gradients; a feature not implemented yet is tested where it
is refused (``test_ad_error`` here, tests/test_ad_stops.py), not as an expected failure.
``test_ad_error`` covers programs that must be rejected: non-zero exit, an ``ld.gradlink: error:``
line naming the problem, no traceback, no output file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from toolchain import AR, CC, CXX, Result, have, sh

pytestmark = pytest.mark.skipif(not (have(CC) and have("ld.gradlink")),
                                reason=f"{CC} or ld.gradlink not available")

SRC = Path(__file__).resolve().parent / "ad_programs"
PREFIX = "ld.gradlink: error: "

# kind -> (relative tolerance, absolute tolerance)
TOLERANCES = {
    "fd": (1e-5, 1e-7),        # double, central differences with h = 1e-6 relative
    "fdf": (2e-2, 1e-3),       # float primal, h = 1e-3 relative
    "exact": (1e-10, 1e-12),   # analytic derivative in double
    "exactf": (1e-5, 1e-6),    # analytic derivative of a float computation
}


@dataclass(frozen=True)
class Prog:
    sources: tuple[str, ...]                 # compiled with -flto, linked in this order
    cflags: tuple[str, ...] = ()             # besides -O2 -flto -c
    archive: tuple[str, ...] = ()            # compiled with -flto into lib<name>.a, linked with -l
    min_checks: int = 1
    checks: tuple[str, ...] = field(default=())   # labels that must be among the printed lines

    @property
    def cxx(self) -> bool:
        return any(s.endswith(".cpp") for s in self.sources)


def P(*sources: str, **kw) -> Prog:  # type: ignore[no-untyped-def]
    return Prog(tuple(s if "." in s else f"{s}.c" for s in sources), **kw)


G = ("-g",)

PROGRAMS: dict[str, Prog] = {
    # scalar code and libm
    "scalar_arith": P("scalar_arith", checks=("cube_dx", "cube_dy")),
    "libm_trig": P("libm_trig", min_checks=19),
    "libm_explog": P("libm_explog", min_checks=21),
    "libm_pow": P("libm_pow", checks=("pow_dx", "pow_dy", "powi_n", "powi_5")),
    "libm_misc": P("libm_misc", cflags=G, min_checks=26),
    "libm_rounding": P("libm_rounding", min_checks=33),
    "libm_float": P("libm_float", min_checks=23),
    "mixed_precision": P("mixed_precision"),
    "fastmath_dot": P("fastmath_dot", cflags=("-ffast-math",), min_checks=38),
    # control flow
    "branch_relu3": P("branch_relu3", min_checks=20),
    "sqrt_zero_branch": P("sqrt_zero_branch", min_checks=6),
    "returned_pointer": P("returned_pointer", min_checks=5),
    "returned_allocation": P("returned_allocation", min_checks=4),
    "returned_new": P("returned_new.cpp", min_checks=4),
    "poison_lanes": P("poison_lanes", min_checks=5),
    "select": P("select", min_checks=11),
    "switch_mode": P("switch_mode", min_checks=2),
    "merged_requests": P("merged_requests", min_checks=8),
    "defined_markers": P("defined_markers", min_checks=3),
    "loop_const": P("loop_const", min_checks=6),
    "loop_dynamic": P("loop_dynamic", min_checks=4),
    "nested_loops": P("nested_loops", min_checks=15),
    "early_exit": P("early_exit", min_checks=24),
    "newton_sqrt": P("newton_sqrt", cflags=G, min_checks=7),
    "fixed_point": P("fixed_point", min_checks=10),
    "global_contexts": P("global_contexts", min_checks=27,
                         checks=("dstiffness_twice", "lane1", "shadow_base", "ctx_tangent",
                                 "dxk", "heap_dw3", "heap_same_block")),
    "batch": P("batch", min_checks=11),
    "nested_mangled": P("nested_mangled.cpp", min_checks=2),
    "virtual_reverse": P("virtual_reverse.cpp", min_checks=6),
    "markers_by_address": P("markers_by_address", min_checks=4),
    "aligned_alloc": P("aligned_alloc", min_checks=4),
    # memory: arrays, outputs, structs, stack and heap temporaries
    "sum_squares": P("sum_squares", min_checks=20),
    "dot_const": P("dot_const", min_checks=19),
    "axpy_vec": P("axpy_vec", min_checks=100),
    "matvec_out": P("matvec_out", min_checks=38),
    "normalize": P("normalize", min_checks=15),
    "struct_ptr": P("struct_ptr", cflags=G, min_checks=19),
    "dupnoneed": P("dupnoneed", min_checks=4),
    "shadow_accum": P("shadow_accum", min_checks=9),
    "local_array": P("local_array", min_checks=6),
    "inplace_iter": P("inplace_iter", min_checks=7),
    "memcpy_buf": P("memcpy_buf", min_checks=10),
    "memcpy_elem": P("memcpy_elem", min_checks=8),
    "overwrite": P("overwrite", min_checks=9),
    "pointer_chasing": P("pointer_chasing", min_checks=9),
    "vector_ext": P("vector_ext", min_checks=6),
    "malloc_tmp": P("malloc_tmp", min_checks=4),
    "realloc_grow": P("realloc_grow", min_checks=10),
    "mem_ops": P("mem_ops", min_checks=20),
    "struct_return": P("struct_return", min_checks=2),
    # unoptimized front-end output keeps the zero-struct memcpy the optimizer would remove
    "reused_buffer": P("reused_buffer.cpp", min_checks=6,
                       cflags=("-Xclang", "-disable-llvm-passes")),
    "calloc_tmp": P("calloc_tmp", min_checks=5),
    "cxx_new": P("cxx_new.cpp", min_checks=3),
    "cxx_virtual": P("cxx_virtual.cpp", min_checks=4),
    "cxx_requests": P("cxx_requests.cpp", min_checks=3),
    # activity, several outs
    "multi_out": P("multi_out", min_checks=7),
    "float_arrays": P("float_arrays", min_checks=14),
    "const_float_arg": P("const_float_arg", min_checks=3),
    "zero_grad": P("zero_grad", min_checks=8),
    # bigger programs
    "rk4": P("rk4", cflags=G, min_checks=4),
    "mlp": P("mlp", cflags=G, min_checks=30),
    "vector_consts": P("vector_consts", min_checks=3),
    "caller_vector": P("caller_vector", min_checks=16),
    # calls of defined functions that stay calls
    "noinline_helper": P("noinline_helper", cflags=G, min_checks=4),
    "recursion": P("recursion", cflags=G, min_checks=5),
    # several translation units: the library half is a bitcode archive
    "multicu": P("multicu_main", archive=("multicu_lib.c",), min_checks=4),
    # not implemented yet
    "multi_out_f2": P("multi_out_f2", min_checks=4),
    "multi_out_sret": P("multi_out_sret", min_checks=4),
    "multi_out_sret_array": P("multi_out_sret_array", min_checks=7),
    "indirect_call": P("indirect_call", min_checks=5),
    "cxx_exceptions": P("cxx_exceptions.cpp"),
    "struct_copy": P("struct_copy", min_checks=7),
    "libm_fmod": P("libm_fmod", min_checks=4),
    "libm_ldexp": P("libm_ldexp"),
    "maxpool": P("maxpool", min_checks=4),
    "complex_mul": P("complex_mul", min_checks=15),
}


def _param(name: str, prog: Prog):  # type: ignore[no-untyped-def]
    marks = []
    if prog.cxx:
        marks.append(pytest.mark.skipif(not have(CXX), reason=f"{CXX} not installed"))
    return pytest.param(name, marks=marks, id=name)


# --- building and running ----------------------------------------------------------------------

def _compile(src: str, out: Path, flags: tuple[str, ...], lto: bool = True) -> None:
    compiler = CXX if src.endswith(".cpp") else CC
    args = [compiler, "-O2", *(["-flto"] if lto else []), "-c", *flags, SRC / src, "-o", out]
    sh(args).check(f"{compiler} -c {src}")


def link_program(name: str, prog: Prog, d: Path) -> tuple[Result, Path]:
    """Compile the program's sources into d and link them with ld.gradlink (result unchecked)."""
    objs: list[str | Path] = []
    for src in prog.sources:
        obj = d / (Path(src).stem + ".o")
        _compile(src, obj, prog.cflags)
        objs.append(obj)
    libs: list[str] = []
    if prog.archive:
        members = []
        for src in prog.archive:
            obj = d / (Path(src).stem + ".o")
            _compile(src, obj, prog.cflags)
            members.append(obj)
        lib = d / f"lib{name}.a"
        sh([AR, "rcs", lib, *members]).check("llvm-ar")
        libs = [f"-L{d}", f"-l{name}"]
    exe = d / name
    driver = CXX if prog.cxx else CC
    res = sh([driver, "-flto", "-fuse-ld=gradlink", *objs, *libs, "-lm", "-o", exe])
    return res, exe


@dataclass
class Check:
    kind: str
    label: str
    ad: float
    ref: float

    def ok(self) -> bool:
        rtol, atol = TOLERANCES[self.kind]
        return abs(self.ad - self.ref) <= rtol * max(abs(self.ad), abs(self.ref)) + atol


def parse_output(text: str) -> list[Check]:
    lines = text.splitlines()
    assert lines and lines[-1] == "done", f"the program did not finish its checks:\n{text}"
    checks = []
    for line in lines[:-1]:
        parts = line.split()
        assert len(parts) == 4 and parts[0] in TOLERANCES, f"unexpected output line: {line!r}"
        checks.append(Check(parts[0], parts[1], float(parts[2]), float(parts[3])))
    return checks


def test_output_parser() -> None:
    checks = parse_output("fd a 1.0 1.000001\nexact b[2] 3 3.0000000000001\nfdf c -1 -1.01\ndone\n")
    assert [c.ok() for c in checks] == [True, True, True]
    assert not parse_output("fd a 1.0 1.001\ndone")[0].ok()
    assert not parse_output("exact a 0.5 0.5000001\ndone")[0].ok()
    assert not parse_output("fd a nan nan\ndone")[0].ok()
    with pytest.raises(AssertionError):
        parse_output("fd a 1.0 1.0\n")           # no "done": the program stopped early


@pytest.mark.parametrize("name", [_param(n, p) for n, p in PROGRAMS.items()])
def test_program(name: str, tmp_path: Path) -> None:
    _check_program(name, PROGRAMS[name], tmp_path)


@pytest.mark.parametrize("name", [_param(n, p) for n, p in PROGRAMS.items() if "-g" not in p.cflags])
def test_program_with_debug_info(name: str, tmp_path: Path) -> None:
    """Debug info must change nothing: the same program built with -g (its #dbg records and
    !dbg attachments in the IR the AD reads) links and gives the same checks."""
    prog = PROGRAMS[name]
    _check_program(name, replace(prog, cflags=(*prog.cflags, "-g")), tmp_path)


def _check_program(name: str, prog: Prog, tmp_path: Path) -> None:
    res, exe = link_program(name, prog, tmp_path)
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == 0, f"link of {name} failed:\n{res.stderr}"
    run = sh([exe], timeout=60)
    assert run.returncode == 0, f"{name} exited with {run.returncode}:\n{run.stdout}\n{run.stderr}"
    checks = parse_output(run.stdout)
    assert len(checks) >= prog.min_checks, f"{name} printed {len(checks)} checks:\n{run.stdout}"
    labels = {c.label for c in checks}
    missing = [lb for lb in prog.checks if lb not in labels]
    assert not missing, f"{name}: no check labelled {missing}"
    bad = [c for c in checks if not c.ok()]
    assert not bad, f"{name}: {len(bad)} of {len(checks)} gradient checks differ:\n" + "\n".join(
        f"  {c.kind} {c.label}: autodiff {c.ad!r}, reference {c.ref!r}" for c in bad)


# --- what the compiler did to the programs (so the tests cover what they claim) ----------------

def _disassemble(src: str, tmp_path: Path, *flags: str) -> str:
    obj = tmp_path / (Path(src).stem + ".o")
    _compile(src, obj, flags)
    return sh(["llvm-dis-22", obj, "-o", "-"]).check("llvm-dis-22").stdout


def _function(ir: str, name: str) -> str:
    m = re.search(rf"^define [^\n]*@{name}\(.*?^}}", ir, re.M | re.S)
    assert m, f"no definition of {name}"
    return m.group(0)


@pytest.mark.skipif(not have("llvm-dis-22"), reason="llvm-dis-22 not installed")
def test_programs_exercise_vector_code(tmp_path: Path) -> None:
    body = _function(_disassemble("axpy_vec.c", tmp_path), "axpy_loss")
    assert "load <2 x double>" in body and re.search(
        r"(f(mul|add) <2 x double>|@llvm\.fmuladd\.v2f64)", body), "axpy is not vectorized at -O2"
    ir = _disassemble("fastmath_dot.c", tmp_path, "-ffast-math")
    assert "llvm.vector.reduce.fadd" in _function(ir, "dot_exp")
    ir = _disassemble("vector_consts.c", tmp_path)
    assert "<2 x double>" in _function(ir, "affine2") and "splat (" in _function(ir, "affine2")


@pytest.mark.skipif(not have("llvm-dis-22"), reason="llvm-dis-22 not installed")
def test_programs_keep_their_calls(tmp_path: Path) -> None:
    """The call-related programs really have calls left after -O2 (no inlining)."""
    ir = _disassemble("recursion.c", tmp_path)
    assert re.search(r"call [^\n]*@tree_sum\(", _function(ir, "tree_sum"))
    ir = _disassemble("noinline_helper.c", tmp_path)
    assert re.search(r"call [^\n]*@helper\(", _function(ir, "outer"))
    ir = _disassemble("memcpy_buf.c", tmp_path)
    assert "llvm.memcpy" in _function(ir, "copy_then_sum")
    ir = _disassemble("malloc_tmp.c", tmp_path)
    assert "@malloc(" in _function(ir, "via_heap") and "@free(" in _function(ir, "via_heap")
    ir = _disassemble("calloc_tmp.c", tmp_path)
    assert "@calloc(" in _function(ir, "histogram_energy")


# --- programs that must be rejected -------------------------------------------------------------

@dataclass(frozen=True)
class Bad:
    source: str
    needles: tuple[str, ...]            # each must appear in the ld.gradlink error lines
    native: tuple[str, ...] = ()        # helper sources compiled without -flto
    cflags: tuple[str, ...] = ("-g",)


def _line_of(src: str, text: str) -> str:
    for i, line in enumerate((SRC / src).read_text().splitlines(), 1):
        if text in line:
            return f"{src}:{i}"
    raise AssertionError(f"{text!r} not in {src}")


BAD: dict[str, Bad] = {
    "unknown_external": Bad("err_mystery.c", ("mystery", _line_of("err_mystery.c", "mystery(y)")),
                            native=("err_mystery_native.c",)),
    "unknown_external_nodebug": Bad("err_mystery.c", ("mystery", "uses_mystery"),
                                    native=("err_mystery_native.c",), cflags=()),
    "inline_asm": Bad("err_inline_asm.c", ("asm_square", "inline assembly")),
    "float_bits": Bad("err_float_bits.c", ("fast_rsqrt", _line_of("err_float_bits.c", "u.i = "))),
    "too_few_args": Bad("err_argcount.c", ("wrong argument count", "two")),
    "too_many_args": Bad("err_argcount_more.c", ("wrong argument count", "one")),
    "unknown_marker": Bad("err_marker.c", ("enzyme_foo",)),
    "out_on_pointer": Bad("err_out_ptr.c", ("enzyme_out", "ptr")),
}


@pytest.mark.parametrize("case", list(BAD))
def test_ad_error(case: str, tmp_path: Path) -> None:
    bad = BAD[case]
    objs: list[str | Path] = []
    obj = tmp_path / (Path(bad.source).stem + ".o")
    _compile(bad.source, obj, bad.cflags)
    objs.append(obj)
    for src in bad.native:
        nobj = tmp_path / (Path(src).stem + ".o")
        _compile(src, nobj, (), lto=False)
        objs.append(nobj)
    exe = tmp_path / "prog"
    exe.write_text("stale output of an earlier link\n")
    res = sh([CC, "-flto", "-fuse-ld=gradlink", *objs, "-lm", "-o", exe])
    assert res.returncode != 0, f"{bad.source} linked; expected an error. stderr:\n{res.stderr}"
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr, res.stderr
    errors = "\n".join(ln for ln in res.stderr.splitlines() if ln.startswith(PREFIX))
    assert errors, f"no '{PREFIX}' line:\n{res.stderr}"
    assert errors.startswith(PREFIX + "cannot differentiate"), res.stderr
    missing = [n for n in bad.needles if n not in res.stderr]
    assert not missing, f"error does not name {missing}:\n{res.stderr}"
    assert not exe.exists(), "the output file was left behind"
