"""gradlink's IR reader and the analysis printers (gradlink ir --print-cfg/--print-types/
--print-activity), checked per value on small IR files."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from toolchain import BIN_DIR, sh

from gradlink.ir.parse import parse_function, parse_instruction

LOOP_IR = """
define double @sumsq(ptr %x, i64 %n, double %scale) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc2, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %sq = fmul double %v, %v
  %acc2 = fadd double %acc, %sq
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = phi double [ 0.0, %entry ], [ %acc2, %loop ]
  %unused = fmul double %r, %scale
  %k = fptosi double %r to i64
  ret double %r
}

define void @pair(ptr %s) {
entry:
  %f = getelementptr inbounds { i32, double }, ptr %s, i64 0, i32 1
  %d = load double, ptr %f, align 8
  %n = load i32, ptr %s, align 4
  ret void
}
"""


def _gradlink(*args: str) -> str:
    return sh([BIN_DIR / "gradlink", *args]).check("gradlink " + " ".join(args)).stdout


def _write(tmp_path: Path) -> Path:
    p = tmp_path / "m.ll"
    p.write_text(LOOP_IR)
    return p


def test_print_cfg(tmp_path: Path) -> None:
    out = _gradlink("ir", str(_write(tmp_path)), "-f", "sumsq", "--print-cfg")
    lines = {ln.split(":")[0]: ln for ln in out.splitlines()[1:]}
    assert "preds=[] idom=- loop_depth=0" in lines["entry"]
    assert "preds=[entry, loop] idom=entry loop_depth=1 header" in lines["loop"]
    assert "idom=entry loop_depth=0" in lines["exit"]


def test_print_types(tmp_path: Path) -> None:
    out = _gradlink("ir", str(_write(tmp_path)), "--print-types")
    assert "%x: Pointer -> {[0+*8]:Float(double)}" in out
    assert "%i: Integer" in out
    assert "%sq: Float(double)" in out
    assert "%s: Pointer -> {0:Integer, 8:Float(double)}" in out


def test_print_activity(tmp_path: Path) -> None:
    out = _gradlink("ir", str(_write(tmp_path)), "-f", "sumsq", "--print-activity",
                    "--args", "dup,const,out")
    assert "arg %x: shadowed" in out and "arg %n: inactive" in out
    by_value = {}
    for ln in out.splitlines():
        parts = ln.split()
        if len(parts) >= 2 and parts[1].startswith("%") and "=" in parts:
            by_value[parts[1]] = parts[0]
    assert by_value["%p"] == "shadowed"
    assert by_value["%v"] == "active" and by_value["%sq"] == "active" and by_value["%acc2"] == "active"
    assert by_value["%i"] == "inactive" and by_value["%done"] == "inactive"
    assert by_value["%unused"] == "varied"        # depends on the input, influences nothing
    assert by_value["%k"] == "inactive"


def test_ir_errors_are_clean(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ll"
    bad.write_text("define double @f( {")
    res = sh([BIN_DIR / "gradlink", "ir", str(bad)])
    assert res.returncode != 0 and "invalid IR" in res.stderr and "Traceback" not in res.stderr
    res = sh([BIN_DIR / "gradlink", "ir", str(_write(tmp_path)), "-f", "nosuch"])
    assert res.returncode != 0 and "no function nosuch" in res.stderr


def test_include_dir_has_the_header() -> None:
    folder = Path(_gradlink("include-dir").strip())
    text = (folder / "gradlink.h").read_text()
    assert "__enzyme_autodiff" in text and "enzyme_dup" in text


def test_parser_reads_instruction_details() -> None:
    ins = parse_instruction("%r = fcmp fast olt <2 x double> %a, splat (double 1.0), !dbg !7")
    assert ins.opcode == "fcmp" and ins.pred == "olt" and "fast" in ins.flags
    assert str(ins.type) == "<2 x i1>" and ins.operands[1].ref == "splat (double 1.0)"
    assert ins.dbg == "!7"
    sw = parse_function("define void @g(i32 %x) {\nentry:\n  switch i32 %x, label %d [\n"
                        "    i32 0, label %a\n    i32 1, label %d\n  ]\na:\n  br label %d\n"
                        "d:\n  ret void\n}\n")
    term = sw.block("entry").terminator
    assert term.opcode == "switch" and term.targets == ["d", "a", "d"]
    call = parse_instruction("%c = tail call double @llvm.powi.f64.i32(double noundef %x, i32 3) #4")
    assert call.callee == "@llvm.powi.f64.i32" and [v.ref for v in call.operands] == ["%x", "3"]
    gep = parse_instruction("%g = getelementptr inbounds nuw { i32, double }, ptr %s, i64 0, i32 1")
    assert str(gep.alloc_type) == "{ i32, double }" and len(gep.operands) == 3


def test_python_is_the_venv() -> None:
    assert Path(sys.executable).parent == BIN_DIR


def test_printer_round_trip_of_real_code(tmp_path: Path) -> None:
    """Every function of a real -O2 module, printed from the IR model's fields alone, replaces
    the original and the module still verifies: the reader keeps what instructions mean."""

    from toolchain import compile_c

    src = tmp_path / "k.c"
    src.write_text(r"""
#include <math.h>
#include <string.h>
typedef struct { double v; int tag; double *p; } Item;
double kernel(Item *it, const double *x, int n, float f) {
  double s = 0, buf[16];
  memcpy(buf, x, sizeof(double) * (n & 15));
  for (int i = 0; i < n; i++) {
    switch (it[i].tag) { case 0: s += sin(it[i].v); break; case 1: s -= x[i] * f; break;
                         default: s += it[i].p ? *it[i].p : buf[i & 15]; }
    if (s > 1e6) break;
  }
  for (int i = 0; i < n; i++) it[i].v = fmax(it[i].v, s) * (double)(float)x[i];
  return s > 0 ? sqrt(s) : -s;
}
void axpy(double *restrict y, const double *restrict x, double a, int n) {
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}
""")
    obj = compile_c(src, tmp_path / "k.o", "-O2", "-flto")
    text = _round_trip(obj, tmp_path)
    assert "<2 x double>" in text            # the vectorized loop went through the printer too


def _round_trip(bitcode: Path, tmp_path: Path, as_read: bool = False) -> str:
    """Replace every function of the module by its reading printed from the model's fields;
    the module must still parse and verify. Returns the new text. ``as_read``: printed as the
    AD prints the callers it changes (instructions as read, with their debug information),
    and the module must then be the same module as before."""
    import llvmlite.binding as llvm

    from gradlink.ir.parse import function_texts
    from gradlink.ir.printer import print_function

    sh(["opt-22", "-passes=function(instnamer)", bitcode, "-o", tmp_path / "n.bc"]).check()
    before = text = str(llvm.parse_bitcode((tmp_path / "n.bc").read_bytes()))
    fns = function_texts(text)
    assert fns
    for body in fns.values():
        text = text.replace(body, print_function(parse_function(body), from_fields=not as_read))
    mod = llvm.parse_assembly(text)
    mod.verify()
    if as_read:                        # (fresh contexts: type names are numbered per context)
        assert str(llvm.parse_assembly(text, llvm.create_context())) == \
            str(llvm.parse_assembly(before, llvm.create_context()))
    return text


def test_functions_print_back_as_read_with_debug_info(tmp_path: Path) -> None:
    """A caller the AD changes is printed from the model: with -g, its locations and debug
    records (#dbg_value) must come back unchanged, and the rest of the module too."""
    from toolchain import CXX, compile_c, have
    if not have(CXX):
        pytest.skip(f"{CXX} not installed")
    (tmp_path / "p.cpp").write_text(CXX_PROGRAM)
    obj = compile_c(tmp_path / "p.cpp", tmp_path / "p.o", "-O2", "-g", "-flto", compiler=CXX)
    text = _round_trip(obj, tmp_path, as_read=True)
    assert "#dbg_value(" in text and "!dbg !" in text


CXX_PROGRAM = r"""
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>
struct Shape { virtual ~Shape() = default; virtual double area() const = 0; };
struct Sq : Shape { double s; explicit Sq(double v) : s(v) {} double area() const override { return s * s; } };
struct Ci : Shape { double r; explicit Ci(double v) : r(v) {} double area() const override { return 3.14159 * r * r; } };
double total(const std::vector<std::unique_ptr<Shape>> &v) {
  double t = 0;
  for (auto &p : v) t += p->area();
  return t;
}
int main(int argc, char **argv) {
  std::vector<std::unique_ptr<Shape>> v;
  for (int i = 0; i < argc + 3; i++) {
    if (i % 2) v.push_back(std::make_unique<Sq>(i)); else v.push_back(std::make_unique<Ci>(i));
  }
  std::map<std::string, double> m;
  std::unordered_map<int, std::string> u;
  std::ostringstream os;
  try {
    for (int i = 0; i < 5; i++) { m[std::to_string(i)] = i * 0.5; u[i] = argv[0]; }
    if (argc > 5) throw std::runtime_error("many");
  } catch (const std::exception &e) { std::cerr << e.what() << std::endl; }
  os << total(v) << ' ' << m.size() << ' ' << u.size();
  std::cout << os.str() << std::endl;
  return 0;
}
"""

RUST_PROGRAM = r"""
use std::collections::HashMap;
use std::fmt::Write;
pub trait Shape { fn area(&self) -> f64; }
struct Sq(f64);
struct Ci(f64);
impl Shape for Sq { fn area(&self) -> f64 { self.0 * self.0 } }
impl Shape for Ci { fn area(&self) -> f64 { 3.14159 * self.0 * self.0 } }
fn main() {
    let n = std::env::args().count() + 3;
    let shapes: Vec<Box<dyn Shape>> = (0..n)
        .map(|i| if i % 2 == 1 { Box::new(Sq(i as f64)) as Box<dyn Shape> } else { Box::new(Ci(i as f64)) })
        .collect();
    let total: f64 = shapes.iter().map(|s| s.area()).sum();
    let mut m: HashMap<String, f64> = HashMap::new();
    for i in 0..5 { m.insert(format!("k{i}"), i as f64 * 0.5); }
    let mut out = String::new();
    write!(out, "{total:.3} {}", m.len()).unwrap();
    let v: Vec<f64> = out.split(' ').filter_map(|s| s.parse().ok()).collect();
    println!("{out} {}", v.len());
}
"""


def test_printer_round_trip_of_cxx_library_code(tmp_path: Path) -> None:
    """The reader against every function of a C++ program using iostreams, virtual classes,
    the STL and exceptions (vtable constants with inrange GEPs, invokes, landing pads)."""
    from toolchain import CXX, compile_c, have
    if not have(CXX):
        pytest.skip(f"{CXX} not installed")
    (tmp_path / "p.cpp").write_text(CXX_PROGRAM)
    obj = compile_c(tmp_path / "p.cpp", tmp_path / "p.o", "-O2", "-flto", compiler=CXX)
    text = _round_trip(obj, tmp_path)
    assert "inrange(" in text and "landingpad" in text and "invoke " in text


def test_printer_round_trip_of_rust_code(tmp_path: Path) -> None:
    """The same for a Rust program's module (trait objects, iterators, HashMap, formatting:
    the std generics instantiated in it)."""
    from toolchain import have
    if not have("rustc"):
        pytest.skip("rustc not installed")
    (tmp_path / "p.rs").write_text(RUST_PROGRAM)
    sh(["rustc", "-O", "--emit=llvm-bc", "-C", "codegen-units=1", tmp_path / "p.rs",
        "-o", tmp_path / "p.bc"]).check("rustc")
    text = _round_trip(tmp_path / "p.bc", tmp_path)
    assert "HashMap" in text or "hashbrown" in text


def test_shallow_reading_keeps_what_printing_needs() -> None:
    """A caller whose requests are replaced is read shallowly except for what reading requests
    looks at; the instructions read shallowly keep their text, name, opcode and location."""
    from gradlink.ir.parse import parse_function
    from gradlink.ir.printer import print_function

    text = """define double @main(ptr %x) {
entry:
  %a = load double, ptr %x, align 8, !tbaa !3
  %b = fmul fast double %a, %a, !dbg !7
  br label %next
next:
  %c = phi double [ %b, %entry ]
  ret double %c
}
"""
    full = parse_function(text)
    shallow = parse_function(text, shallow=lambda line: "phi" not in line)
    a, b = shallow.blocks[0].instrs[:2]
    assert (a.opcode, a.name, a.operands) == ("load", "%a", [])
    assert (b.opcode, b.dbg, b.text) == ("fmul", "!7", "%b = fmul fast double %a, %a")
    assert shallow.blocks[1].instrs[0].incoming == full.blocks[1].instrs[0].incoming
    assert print_function(shallow) == print_function(full)
