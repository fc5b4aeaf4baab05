"""C99 complex arithmetic through the runtime: ``__muldc3``/``__mulsc3`` (multiplication) and
``__divdc3``/``__divsc3`` (division). clang calls the multiplication only when the inline product
comes out NaN (to recover infinities); division is a call. Both are holomorphic, so in real terms
an operand's tangent (dr, di) maps to the result's through multiplication by a complex factor
u + vi: re' = u dr - v di, im' = v dr + u di. The factor is w.r.t. x = a + bi and y = c + di:

    x * y:  dz/dx = y,      dz/dy = x
    x / y:  dz/dx = 1 / y,  dz/dy = -z / y

PARTIALS below spell these out per (result field, operand) as formulas over the operands a, b,
c, d and the result's fields re, im (gradlink.ad.expr syntax).
"""

from __future__ import annotations

from functools import cache

from gradlink.ad import expr
from gradlink.ir.builder import Builder
from gradlink.ir.model import Instr, Value

OPERANDS = "abcd"
_N = "(c * c + d * d)"
MUL = {
    (0, "a"): "c", (0, "b"): "-d", (0, "c"): "a", (0, "d"): "-b",
    (1, "a"): "d", (1, "b"): "c", (1, "c"): "b", (1, "d"): "a",
}
DIV = {
    (0, "a"): f"c / {_N}", (0, "b"): f"d / {_N}",
    (1, "a"): f"-d / {_N}", (1, "b"): f"c / {_N}",
    (0, "c"): f"-(re * c + im * d) / {_N}", (0, "d"): f"(im * c - re * d) / {_N}",
    (1, "c"): f"(re * d - im * c) / {_N}", (1, "d"): f"-(re * c + im * d) / {_N}",
}
PARTIALS = {"@__muldc3": MUL, "@__mulsc3": MUL, "@__divdc3": DIV, "@__divsc3": DIV}


def is_complex_op(ins: Instr) -> bool:
    return ins.opcode == "call" and ins.callee in PARTIALS and len(ins.operands) == 4


def reads_result(ins: Instr) -> bool:
    """Whether the partials read the result (division) besides the operands."""
    return any({"re", "im"} & expr.free_names(_compiled(f)) for f in PARTIALS[ins.callee].values())


@cache
def _compiled(formula: str) -> expr.Node:
    return expr.parse(formula)


def _env(b: Builder, ins: Instr, vals: list[Value], result: Value | None) -> dict[str, Value]:
    env = dict(zip(OPERANDS, vals))
    if result is not None:
        for i, field in enumerate(("re", "im")):
            env[field] = b.extractvalue(result, [i], vals[0].type, hint=field)
    return env


def _term(b: Builder, ins: Instr, env: dict[str, Value], out: int, wrt: str, x: Value
          ) -> Value | None:
    partial = expr.emit(_compiled(PARTIALS[ins.callee][(out, wrt)]), env, b, x)
    return None if partial is None else b.binop("fmul", x, partial)


def _sum(b: Builder, terms: list[Value | None]) -> Value | None:
    total = None
    for t in terms:
        if t is not None:
            total = t if total is None else b.binop("fadd", total, t)
    return total


def adjoints(b: Builder, ins: Instr, vals: list[Value], result: Value | None, g_re: Value,
             g_im: Value) -> dict[str, Value | None]:
    """Reverse mode: each operand's adjoint from the adjoints of the result's two fields."""
    env = _env(b, ins, vals, result)
    return {w: _sum(b, [_term(b, ins, env, 0, w, g_re), _term(b, ins, env, 1, w, g_im)])
            for w in OPERANDS}


def tangents(b: Builder, ins: Instr, vals: list[Value], result: Value | None,
             dots: dict[str, Value | None]) -> list[Value | None]:
    """Forward mode: the tangents of the result's two fields (None: zero)."""
    env = _env(b, ins, vals, result)
    given = {w: d for w, d in dots.items() if d is not None}
    return [_sum(b, [_term(b, ins, env, k, w, d) for w, d in given.items()]) for k in (0, 1)]
