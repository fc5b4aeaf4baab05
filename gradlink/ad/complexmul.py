"""C99 complex multiplication through the runtime: ``__muldc3`` (double) and ``__mulsc3``
(float). clang multiplies complex numbers inline and calls the runtime only when the inline
product comes out NaN, to recover infinities; in the finite region both compute
(a + bi)(c + di) = (ac - bd) + (ad + bc)i, whose derivative the table below gives.

PARTIALS maps (output, operand) to the partial derivative, as the name of an operand (a, b, c, d)
with an optional minus sign; the outputs are the result's fields 0 (real) and 1 (imaginary).
"""

from __future__ import annotations

from gradlink.ad.builder import Builder
from gradlink.ir.model import Instr, Value

CALLS = {"@__muldc3", "@__mulsc3"}
OPERANDS = "abcd"
PARTIALS = {
    (0, "a"): "c", (0, "b"): "-d", (0, "c"): "a", (0, "d"): "-b",
    (1, "a"): "d", (1, "b"): "c", (1, "c"): "b", (1, "d"): "a",
}


def is_complex_mul(ins: Instr) -> bool:
    return ins.opcode == "call" and ins.callee in CALLS and len(ins.operands) == 4


def _partial(out: int, wrt: str, vals: dict[str, Value]) -> tuple[Value, bool]:
    """The partial of output out w.r.t. operand wrt: (value, negated)."""
    spec = PARTIALS[(out, wrt)]
    return vals[spec.lstrip("-")], spec.startswith("-")


def _term(b: Builder, x: Value, partial: tuple[Value, bool]) -> Value:
    v, neg = partial
    prod = b.binop("fmul", x, v)
    return b.fneg(prod) if neg else prod


def adjoints(b: Builder, vals: dict[str, Value], g_re: Value, g_im: Value) -> dict[str, Value]:
    """Reverse mode: the adjoint of each operand from the adjoints of the two outputs."""
    return {w: b.binop("fadd", _term(b, g_re, _partial(0, w, vals)),
                       _term(b, g_im, _partial(1, w, vals))) for w in OPERANDS}


def tangents(b: Builder, vals: dict[str, Value], dots: dict[str, Value | None]
             ) -> tuple[Value | None, Value | None]:
    """Forward mode: the tangents of the two outputs from the operands' tangents (None: zero)."""
    out: list[Value | None] = []
    for k in (0, 1):
        total: Value | None = None
        for w in OPERANDS:
            if dots[w] is None:
                continue
            term = _term(b, dots[w], _partial(k, w, vals))  # type: ignore[arg-type]
            total = term if total is None else b.binop("fadd", total, term)
        out.append(total)
    return out[0], out[1]
