"""The derivatives of the structural instructions, both modes side by side in one table.

Elementary functions and arithmetic have formulas (gradlink.ad.rules): one partial derivative
per operand, compiled for either mode. The instructions here move values instead of computing
them (loads, casts, selects, aggregate and vector element operations, vector reductions,
complex arithmetic): per opcode (or intrinsic), its tangent (forward mode: the same operation on
the operands' tangents) and its adjoint (reverse mode: the transposed movement), as JAX keeps
``jvp`` and ``transpose`` per primitive, and what primal values the adjoint reads (the reverse
sweep must have them). A mode without an entry refuses the instruction ("no derivative rule").

Phis are structural too, but their tangent is a phi and their adjoints move along CFG edges:
the synthesis does that itself (reverse.py, forward.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from gradlink.ad import complexops
from gradlink.ir.builder import Builder
from gradlink.ir.model import Instr, Value
from gradlink.ir.types import I64, Type

# Sums of adjoint contributions may be reassociated (and contracted into fmas): their order is
# the synthesis's choice, not the program's; it lets the optimizer vectorize the reductions a
# reverse loop turns reads of one value into.
ACCUMULATE = "reassoc contract"
REDUCE_FADD = "@llvm.vector.reduce.fadd"
REDUCE_MINMAX = ("@llvm.vector.reduce.fmax", "@llvm.vector.reduce.fmin",
                 "@llvm.vector.reduce.fmaximum", "@llvm.vector.reduce.fminimum")
_ALIGN = re.compile(r",\s*align (\d+)")


class Tangents(Protocol):
    """What a tangent rule asks of the forward synthesis."""

    b: Builder

    def t_or_zero(self, v: Value, lane: int = 0) -> Value: ...

    def sh(self, v: Value, ins: Instr, lane: int = 0) -> str: ...

    def t(self, v: Value, lane: int = 0) -> Value | None: ...


class Adjoints(Protocol):
    """What an adjoint rule asks of the reverse synthesis."""

    b: Builder

    def active(self, v: Value | str | None) -> bool: ...

    def val(self, v: Value) -> Value: ...

    def add_adjoint(self, target: Value, contrib: Value | None) -> None: ...

    def shadow_in_reverse(self, ptr: Value) -> Value: ...

    def adj_type(self, v: Value) -> Type: ...


TangentRule = Callable[[Tangents, Instr, int, str], None]     # (synthesis, ins, lane, result)
AdjointRule = Callable[[Adjoints, Instr, Value], None]         # (synthesis, ins, its adjoint)


@dataclass(frozen=True)
class Structural:
    tangent: TangentRule | None
    adjoint: AdjointRule | None
    reads: Callable[[Instr], list[Value]]          # primal values the adjoint reads


def align_of(ins: Instr) -> int:
    m = _ALIGN.search(ins.text)
    return int(m.group(1)) if m else 0


def _nothing(ins: Instr) -> list[Value]:
    return []


# -- tangents: the same operation on the tangents ---------------------------------------------------
# which operands' tangents the tangent operation takes (the others, such as conditions, indices
# and masks, stay as they are)
_MOVED = {"select": (1, 2), "insertelement": (0, 1), "shufflevector": (0, 1),
          "insertvalue": (0, 1)}


def _same_on_tangents(f: Tangents, ins: Instr, k: int, name: str) -> None:
    moved = _MOVED.get(ins.opcode, (0,))
    ops = [f.t_or_zero(v, k) if i in moved else v for i, v in enumerate(ins.operands)]
    f.b.copy(ins, name=name, operands=ops, flags=())


def _load_tangent(f: Tangents, ins: Instr, k: int, name: str) -> None:
    assert ins.type is not None
    f.b.load(ins.type, f.sh(ins.operands[0], ins, k), align_of(ins), name=name)


def _reduce_fadd_tangent(f: Tangents, ins: Instr, k: int, name: str) -> None:
    t = ins.type
    assert t is not None
    start, vec = ins.operands
    red = f.b.call_value(ins.callee, [f.t_or_zero(start, k), f.t_or_zero(vec, k)], t, hint="red")
    f.b.binop("fadd", red, f.b.zero(t), name=name)


def _complex_tangent(f: Tangents, ins: Instr, k: int, name: str) -> None:
    b, t = f.b, ins.type
    assert t is not None
    elem = ins.operands[0].type
    dots = {w: f.t(v, k) for w, v in zip(complexops.OPERANDS, ins.operands)}
    result = ins.value if complexops.reads_result(ins) else None
    agg = Value(t, "poison")
    for i, tv in enumerate(complexops.tangents(b, ins, list(ins.operands), result, dots)):
        nxt = name if i == 1 else b.fresh("ct")
        agg = b.insertvalue(agg, Value(elem, (tv or b.zero(elem)).ref), [i], name=nxt)


# -- adjoints: the transposed movement ------------------------------------------------------------
def _load_adjoint(r: Adjoints, ins: Instr, g: Value) -> None:
    """d *p += g: the loaded value's adjoint goes back into the shadow memory."""
    sh = r.shadow_in_reverse(ins.operands[0])
    align = align_of(ins)
    old = r.b.load(g.type, sh.ref, align, hint="m")
    r.b.store(r.b.binop("fadd", old, g, ACCUMULATE), sh.ref, align)


def _pass_through(r: Adjoints, ins: Instr, g: Value) -> None:
    r.add_adjoint(ins.operands[0], g)


def _bitcast_adjoint(r: Adjoints, ins: Instr, g: Value) -> None:
    """The adjoint goes back through the inverse bitcast when the shapes differ (<2 x float>
    as double: how C's ABI passes small float structs)."""
    src = ins.operands[0]
    want = r.adj_type(src)
    r.add_adjoint(src, g if want == g.type else r.b.cast("bitcast", g, want))


def _float_cast_adjoint(r: Adjoints, ins: Instr, g: Value) -> None:
    src = ins.operands[0]
    back = "fptrunc" if ins.opcode == "fpext" else "fpext"
    r.add_adjoint(src, r.b.cast(back, g, src.type))


def _extractvalue_adjoint(r: Adjoints, ins: Instr, g: Value) -> None:
    agg = ins.operands[0]
    r.add_adjoint(agg, r.b.insertvalue(r.b.zero(agg.type), g, ins.indices))


def _insertvalue_adjoint(r: Adjoints, ins: Instr, g: Value) -> None:
    agg, elt = ins.operands
    if r.active(elt):
        r.add_adjoint(elt, r.b.extractvalue(g, ins.indices, elt.type))
    if r.active(agg):
        r.add_adjoint(agg, r.b.insertvalue(g, r.b.zero(elt.type), ins.indices))


def _select_adjoint(r: Adjoints, ins: Instr, g: Value) -> None:
    c, x, y = ins.operands
    z = r.b.zero(g.type)
    cond = r.val(c)
    if r.active(x):
        r.add_adjoint(x, r.b.select(cond, g, z))
    if r.active(y):
        r.add_adjoint(y, r.b.select(cond, z, g))


def _extractelement_adjoint(r: Adjoints, ins: Instr, g: Value) -> None:
    vec, idx = ins.operands
    r.add_adjoint(vec, r.b.insertelement(r.b.zero(vec.type), g, r.val(idx)))


def _insertelement_adjoint(r: Adjoints, ins: Instr, g: Value) -> None:
    vec, elt, idx = ins.operands
    i = r.val(idx)
    if r.active(vec):
        r.add_adjoint(vec, r.b.insertelement(g, r.b.zero(elt.type), i))
    if r.active(elt):
        r.add_adjoint(elt, Value(elt.type, r.b.extractelement(g, i).ref))


def _shuffle_adjoint(r: Adjoints, ins: Instr, g: Value) -> None:
    """Each output lane's adjoint goes back to the input lane it was taken from."""
    a, bvec, mask = ins.operands
    assert ins.type is not None and a.type.elem is not None
    n = a.type.count
    acc = {0: r.b.zero(a.type), 1: r.b.zero(a.type)}
    for out_lane, src in enumerate(mask_lanes(mask, ins.type.count)):
        if src is None:
            continue
        which, lane = (0, src) if src < n else (1, src - n)
        e = r.b.extractelement(g, Value(I64, str(out_lane)), hint="lane")
        cur = r.b.extractelement(Value(a.type, acc[which].ref), Value(I64, str(lane)),
                                 hint="cur")
        s = r.b.binop("fadd", cur, e)
        acc[which] = r.b.insertelement(acc[which], s, Value(I64, str(lane)))
    r.add_adjoint(a, acc[0])
    r.add_adjoint(bvec, acc[1])


def _reduce_minmax_adjoint(r: Adjoints, ins: Instr, g: Value) -> None:
    """The adjoint goes to the lanes equal to the result (the selected ones)."""
    vec = ins.operands[0]
    if not r.active(vec):
        return
    assert ins.value is not None
    b = r.b
    poison = Value(vec.type, "poison")
    res = b.insertelement(poison, r.val(ins.value), Value(I64, "0"), hint="r")
    rs_name, gs_name = b.fresh("rsplat"), b.fresh("gsplat")
    rs = b.splat(res, name=rs_name)
    gi = b.insertelement(poison, g, Value(I64, "0"))
    gs = b.splat(gi, name=gs_name)
    hit = b.fcmp("oeq", r.val(vec), rs)
    r.add_adjoint(vec, b.select(hit, gs, b.zero(vec.type)))


def _reduce_fadd_adjoint(r: Adjoints, ins: Instr, g: Value) -> None:
    start, vec = ins.operands
    r.add_adjoint(start, g)
    if r.active(vec):
        one = r.b.insertelement(Value(vec.type, "poison"), g, Value(I64, "0"))
        r.add_adjoint(vec, r.b.splat(one))


def _complex_adjoint(r: Adjoints, ins: Instr, g: Value) -> None:
    elem = ins.operands[0].type
    parts = [r.b.extractvalue(g, [i], elem, hint="cg") for i in (0, 1)]
    vals = [r.val(v) for v in ins.operands]
    result = r.val(ins.value) if complexops.reads_result(ins) and ins.value else None
    for w, adj in complexops.adjoints(r.b, ins, vals, result, *parts).items():
        r.add_adjoint(ins.operands[complexops.OPERANDS.index(w)], adj)


def _complex_reads(ins: Instr) -> list[Value]:
    return list(ins.operands) + ([ins.value] if complexops.reads_result(ins) and ins.value
                                 else [])


def _minmax_reads(ins: Instr) -> list[Value]:
    return [ins.operands[0]] + ([ins.value] if ins.value else [])


TABLE: dict[str, Structural] = {
    "load": Structural(_load_tangent, _load_adjoint, _nothing),
    "bitcast": Structural(_same_on_tangents, _bitcast_adjoint, _nothing),
    "freeze": Structural(_same_on_tangents, _pass_through, _nothing),
    "fpext": Structural(_same_on_tangents, _float_cast_adjoint, _nothing),
    "fptrunc": Structural(_same_on_tangents, _float_cast_adjoint, _nothing),
    "select": Structural(_same_on_tangents, _select_adjoint, lambda ins: [ins.operands[0]]),
    "extractvalue": Structural(_same_on_tangents, _extractvalue_adjoint, _nothing),
    "insertvalue": Structural(_same_on_tangents, _insertvalue_adjoint, _nothing),
    "extractelement": Structural(_same_on_tangents, _extractelement_adjoint,
                                 lambda ins: [ins.operands[-1]]),
    "insertelement": Structural(_same_on_tangents, _insertelement_adjoint,
                                lambda ins: [ins.operands[-1]]),
    "shufflevector": Structural(_same_on_tangents, _shuffle_adjoint, _nothing),
}
_REDUCE_FADD_RULE = Structural(_reduce_fadd_tangent, _reduce_fadd_adjoint, _nothing)
_REDUCE_MINMAX_RULE = Structural(None, _reduce_minmax_adjoint, _minmax_reads)
_COMPLEX_RULE = Structural(_complex_tangent, _complex_adjoint, _complex_reads)


def lookup(ins: Instr) -> Structural | None:
    """The structural rule of an instruction, or None (an arithmetic or elementary function's
    formula applies, or nothing does)."""
    if ins.opcode == "call":
        if complexops.is_complex_op(ins):
            return _COMPLEX_RULE
        if ins.callee.startswith(REDUCE_FADD):
            return _REDUCE_FADD_RULE
        if ins.callee.startswith(REDUCE_MINMAX):
            return _REDUCE_MINMAX_RULE
        return None
    return TABLE.get(ins.opcode)


def mask_lanes(mask: Value, count: int) -> list[int | None]:
    """A shufflevector mask's source lane per output lane (None: poison)."""
    ref = mask.ref.strip()
    if ref == "zeroinitializer":
        return [0] * count
    if ref in ("poison", "undef"):
        return [None] * count
    lanes: list[int | None] = []
    for item in ref.strip("<>").split(","):
        val = item.strip().split()[-1]
        lanes.append(None if val in ("poison", "undef") else int(val))
    return lanes
