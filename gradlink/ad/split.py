"""Split mode: ``__enzyme_augmentfwd`` returns a tape object, ``__enzyme_reverse`` consumes it.

The tape is normally the thread's LIFO stack (gradlink.ad.tape). A tape object captures one
augmented forward's stack: the wrapper swaps in a fresh, empty stack, runs the augmented forward,
moves the filled stack into the object and restores the caller's stack; the reverse wrapper
installs the object's stack, runs the reverse, releases it and restores. Tapes of several
forward passes can therefore be reversed in any order. The object is 32 bytes ({base, top,
capacity, owned}), the value of ``__enzyme_augmentsize``; with ``enzyme_allocated N,
enzyme_tape p`` it lives in the caller's memory, else it is malloc'ed and freed by the reverse.
"""

from __future__ import annotations

from gradlink.ad import tape
from gradlink.ir.builder import LIBRARY, Builder
from gradlink.ir.model import Param, Value
from gradlink.ir.printer import declaration, define_line, print_blocks
from gradlink.ir.types import I32, I64, PTR, Type

TAPE_OBJECT_SIZE = 32
_FIELDS = Type("struct", fields=(PTR, I64, I64, I64))     # base, top, capacity, owned
_NAMES = ("base", "top", "cap")


def _field(b: Builder, obj: Value, k: int) -> Value:
    return b.gep(_FIELDS, obj, [Value(I32, "0"), Value(I32, str(k))], name=f"%f{k}")


def _save(b: Builder, prefix: str) -> list[Value]:
    return [b.load(t, g, name=f"%{prefix}.{n}") for (g, t), n in zip(tape.STATE, _NAMES)]


def _restore(b: Builder, values: list[Value]) -> None:
    for (g, _), v in zip(tape.STATE, values):
        b.store(v, g)


def augment_shape_type(shape: str, ret: Type) -> Type:
    """The wrapper's result type for a shape (see augment_wrapper)."""
    return {"tape": PTR, "tape+primal": Type("struct", fields=(PTR, ret)),
            "primal": Type("struct", fields=(ret,)),
            "primal+tape": Type("struct", fields=(ret, PTR)), "primal-scalar": ret}[shape]


def augment_wrapper(name: str, aug: str, ret: Type, params: list[Param],
                    shape: str = "tape") -> str:
    """name(params..., ptr %mem): run ``aug`` on a fresh stack and return, by ``shape``, the
    tape object (in %mem when it is not null), ``{ptr tape, ret primal}`` ("tape+primal", as
    Enzyme returns it when the call is declared so), or ``{ret primal}`` ("primal": the caller
    gave the tape memory; "primal-scalar" when C's ABI returns that struct as the value)."""
    b = Builder(prefix="w")
    mem = Value(PTR, "%mem")
    entry = b.block("entry")
    old = _save(b, "old")
    _restore(b, [Value(PTR, "null"), Value(I64, "0"), Value(I64, "0")])
    args = [Value(p.type, p.name) for p in params]
    prim = b.call(aug, args, ret, name="%prim", discard=shape == "tape")
    new = _save(b, "new")
    _restore(b, old)
    given = b.icmp("ne", mem, Value(PTR, "null"), name="%given")
    b.cond_br(given, "store", "alloc")
    alloc = b.block("alloc")
    fresh = b.call_value("@malloc", [Value(I64, str(TAPE_OBJECT_SIZE))], PTR, name="%fresh")
    b.br("store")
    store = b.block("store")
    obj = b.phi(PTR, [(mem, "entry"), (fresh, "alloc")], name="%obj")
    owned = b.select(given, Value(I64, "0"), Value(I64, "1"), name="%owned")
    for k, v in enumerate([*new, owned]):
        b.store(v, _field(b, obj, k))
    result = augment_shape_type(shape, ret)
    if shape == "tape":
        b.ret(obj)
    elif shape == "primal-scalar":
        assert prim is not None
        b.ret(prim)
    else:
        assert prim is not None
        order = {"tape+primal": [obj, prim], "primal+tape": [prim, obj], "primal": [prim]}[shape]
        agg = Value(result, "poison")
        for k, v in enumerate(order):
            agg = b.insertvalue(agg, v, [k], name=f"%r{k}")
        b.ret(agg)
    return print_blocks(define_line(name, result, [*params, Param(PTR, "%mem")]),
                        [entry, alloc, store]) + "\n"


def reverse_wrapper(name: str, rev: str, ret: Type | None, params: list[Param]) -> str:
    """ret name(params..., ptr %obj): run ``rev`` on the tape object's stack, then free it."""
    b = Builder(prefix="w")
    obj = Value(PTR, "%obj")
    entry = b.block("entry")
    old = _save(b, "old")
    held = [b.load(t, _field(b, obj, k), name=f"%t.{n}")
            for k, ((_, t), n) in enumerate(zip(tape.STATE, _NAMES))]
    _restore(b, held)
    res = b.call(rev, [Value(p.type, p.name) for p in params], ret, name="%res")
    used = b.load(PTR, tape.BASE, name="%used")
    b.call("@free", [used], None)
    _restore(b, old)
    owned = b.load(I64, _field(b, obj, 3), name="%owned")
    mine = b.icmp("ne", owned, Value(I64, "0"), name="%mine")
    b.cond_br(mine, "release", "done")
    release = b.block("release")
    b.call("@free", [obj], None)
    b.br("done")
    done = b.block("done")
    b.ret(res)
    return print_blocks(define_line(name, ret, [*params, Param(PTR, "%obj")]),
                        [entry, release, done]) + "\n"


DECLS = {n: declaration(n, *LIBRARY[n]) for n in ("@malloc", "@free")}
