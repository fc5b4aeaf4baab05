"""The architecture's layering, checked on the sources (docs/architecture.md): the analyses
depend on no AD code, and the AD synthesizes IR through gradlink.ir.builder, never as text."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# LLVM instruction or definition text inside a Python string
_IR_TEXT = re.compile(
    r"(%[-\w.\"{}]+ = (call|load|alloca|phi|getelementptr|insertvalue|extractvalue|select|"
    r"fadd|fsub|fmul|fdiv|icmp|fcmp|invoke|landingpad|bitcast)\b)|(^\s*(store \S+ \S+, ptr|"
    r"br (label|i1) |ret (void$|\S+ \S)|switch \S+ \S+, label|call void @))|"
    r"(^\s*(define|declare) \S+ )")
# modules of gradlink/ad still assembling text, to be converted (issue 10); the list may only
# shrink. tape.py holds the tape runtime, a template of IR text by design.
_TEXT_ALLOWED = {"tape.py"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def _string(node: ast.AST) -> str | None:
    """A string literal's text; an f-string's with each replacement field as 'x'."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "x" for v in node.values)
    return None


def test_analysis_imports_nothing_from_ad() -> None:
    bad = {p.name: sorted(m for m in _imports(p) if m.startswith("gradlink.ad"))
           for p in (ROOT / "gradlink" / "analysis").glob("*.py")}
    assert not {k: v for k, v in bad.items() if v}


def test_ir_is_not_written_as_strings_in_ad() -> None:
    found = []
    for path in sorted((ROOT / "gradlink" / "ad").glob("*.py")):
        if path.name in _TEXT_ALLOWED:
            continue
        tree = ast.parse(path.read_text())
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr)}
        for node in ast.walk(tree):
            text = None if id(node) in docstrings else _string(node)
            for line in (text or "").splitlines():
                if _IR_TEXT.search(line):
                    found.append(f"{path.name}:{getattr(node, 'lineno', 0)}: {line.strip()[:80]}")
    assert not found, "\n".join(found)


def test_the_check_sees_ir_text() -> None:
    samples = ['%"gl.a.1" = load double, ptr %p', "  store double %x, ptr %p",
               "define internal void @f() {", '  br label %"gl.exit"']
    assert all(_IR_TEXT.search(s) for s in samples)
    assert not _IR_TEXT.search("the derivative of a call of f returns a double")
    fstring = ast.parse('f"  ret {t} {v}"').body[0].value  # type: ignore[attr-defined]
    assert _IR_TEXT.search(_string(fstring) or "")
