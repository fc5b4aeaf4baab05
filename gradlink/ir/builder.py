"""Building IR: typed instructions created at an insertion point, in the style of LLVM's
IRBuilder and xDSL's Builder.

Every instruction the AD synthesizes is made here, as an :class:`Instr` with its fields set
(opcode, result, operands, types, alignment, ...); it prints from those fields (see
``gradlink.ir.printer.print_instruction``), so no synthesis writes LLVM text. A builder has one
insertion point: the end of a block's instruction list (``position_at_end``), or a place kept
earlier (``mark`` / ``position_at``), where instructions computed later go in order. Fresh
result names carry the builder's prefix and a counter, so they never collide with the
function's own names or with each other.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache

from gradlink.ir.model import Block, Instr, Value
from gradlink.ir.printer import declaration
from gradlink.ir.types import I1, I8, I32, I64, PTR, VOID, Type

# LLVM intrinsic names of elementary functions (overloaded on the float type)
INTRINSICS = {"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
              "exp", "exp2", "exp10", "log", "log2", "log10", "pow", "sqrt", "fabs", "minnum",
              "maxnum", "minimum", "maximum", "copysign", "fma", "fmuladd", "floor", "ceil",
              "round", "trunc", "rint", "nearbyint", "roundeven", "powi"}
# libm-only functions: (double name, float name)
LIBM = {"erf", "erfc", "cbrt", "hypot", "expm1", "log1p", "tgamma", "lgamma"}


# C library functions and intrinsics the synthesis calls: name -> (result, parameters)
LIBRARY: dict[str, tuple[Type, tuple[Type, ...]]] = {
    "@malloc": (PTR, (I64,)),
    "@calloc": (PTR, (I64, I64)),
    "@free": (VOID, (PTR,)),
    "@malloc_usable_size": (I64, (PTR,)),
    "@write": (I64, (I32, PTR, I64)),
    "@abort": (VOID, ()),
    "@llvm.memset.p0.i64": (VOID, (PTR, I8, I64, I1)),
    "@llvm.memcpy.p0.p0.i64": (VOID, (PTR, PTR, I64, I1)),
    "@llvm.umin.i64": (I64, (I64, I64)),
}


def type_suffix(t: Type) -> str:
    """LLVM's overload suffix: f64, f32, v2f64, ..."""
    s = t.scalar
    base = {"double": "f64", "float": "f32", "half": "f16", "bfloat": "bf16", "fp128": "f128",
            "x86_fp80": "f80"}.get(s.name, "") if s.kind == "float" else f"i{s.bits}"
    return f"v{t.count}{base}" if t.kind == "vector" else base


def float_literal(x: float, t: Type) -> str:
    """A constant of float type t (splat for vectors), exactly representable as LLVM prints it."""
    # cached by the bits: 0.0 == -0.0 in Python, but they are different constants
    return _float_literal(struct.pack("<d", x), t)


@cache
def _float_literal(bits: bytes, t: Type) -> str:
    x = struct.unpack("<d", bits)[0]
    s = t.scalar
    if s.name == "double":
        lit = "0x{:016X}".format(struct.unpack("<Q", bits)[0])
    elif s.name == "float":
        # float constants are written as the double of the same value
        f = struct.unpack("<f", struct.pack("<f", x))[0]
        lit = "0x{:016X}".format(struct.unpack("<Q", struct.pack("<d", f))[0])
    else:
        raise ValueError(f"no literal for {s}")
    return f"splat ({s} {lit})" if t.kind == "vector" else lit


def const_int(t: Type, n: int) -> Value:
    return Value(t, str(n))


def size_of_const(t: Type) -> Value:
    """The store size of t as an i64 constant expression (for types gradlink cannot size)."""
    return Value(I64, f"ptrtoint (ptr getelementptr ({t}, ptr null, i32 1) to i64)")


def mask_type(t: Type) -> Type:
    """The i1 (or vector of i1) type a comparison of values of type t gives."""
    return I1 if t.kind != "vector" else Type("vector", count=t.count, elem=I1)


@dataclass
class InsertPoint:
    """Where the next instruction goes: instrs[index], or the end when index is None."""

    instrs: list[Instr]
    index: int | None = None


class Builder:
    """Creates instructions at the insertion point and returns their results as Values."""

    def __init__(self, prefix: str = "gl") -> None:
        self.prefix = prefix
        self.counter = 0
        self.declarations: dict[str, str] = {}     # "@llvm.sin.f64" -> declaration line
        self.point = InsertPoint([])

    # -- names, constants, positions -----------------------------------------------------------
    def fresh(self, hint: str = "t") -> str:
        self.counter += 1
        return f'%"{self.prefix}.{hint}.{self.counter}"'

    def const(self, x: float, t: Type) -> Value:
        return Value(t, float_literal(x, t))

    def zero(self, t: Type) -> Value:
        return Value(t, "zeroinitializer" if t.kind != "float" else float_literal(0.0, t))

    def declare(self, name: str, ret: Type, params: Sequence[Type]) -> None:
        self.declarations.setdefault(name, declaration(name, ret, params))

    def declare_library(self, *names: str) -> None:
        for name in names:
            ret, params = LIBRARY[name]
            self.declare(name, ret, params)

    def libcall(self, name: str, args: Sequence[Value], result: str | None = None,
                hint: str = "call", discard: bool = False) -> Value | None:
        """A call of a C library function or intrinsic of LIBRARY, declared on first use."""
        self.declare_library(name)
        ret = LIBRARY[name][0]
        return self.call(name, args, ret, name=result, hint=hint, discard=discard)

    @property
    def instrs(self) -> list[Instr]:
        """The instruction list being built (the insertion point's)."""
        return self.point.instrs

    def position_at_end(self, instrs: list[Instr]) -> list[Instr]:
        self.point = InsertPoint(instrs)
        return instrs

    def start(self) -> list[Instr]:
        """A new, empty instruction list as the insertion point."""
        return self.position_at_end([])

    def block(self, label: str) -> Block:
        """A new block, the insertion point at its end."""
        blk = Block(label)
        self.position_at_end(blk.instrs)
        return blk

    def mark(self) -> InsertPoint:
        """The current end of the insertion list: instructions made later can go here."""
        return InsertPoint(self.point.instrs, len(self.point.instrs))

    @contextmanager
    def position_at(self, point: InsertPoint) -> Iterator[None]:
        """Insert at a kept point (each instruction after the previous one), then return."""
        saved = self.point
        self.point = InsertPoint(point.instrs, point.index)
        try:
            yield
        finally:
            self.point = saved

    def insert(self, ins: Instr) -> Instr:
        p = self.point
        if p.index is None:
            p.instrs.append(ins)
        else:
            p.instrs.insert(p.index, ins)
            p.index += 1
        return ins

    def _result(self, name: str | None, hint: str) -> str:
        return name if name is not None else self.fresh(hint)

    # -- instructions ------------------------------------------------------------------------
    def copy(self, ins: Instr, **changes: object) -> Instr:
        """A primal instruction as read (its own text), or with fields changed (printed from
        its fields then)."""
        if changes:
            ins = replace(ins, text="", **changes)     # type: ignore[arg-type]
        return self.insert(ins)

    def binop(self, op: str, a: Value, b: Value, flags: str = "", name: str | None = None,
              hint: str | None = None) -> Value:
        res = name if name is not None else self.fresh(hint or op)
        self.insert(Instr(op, res, a.type, [a, b], flags=tuple(flags.split()) if flags else ()))
        return Value(a.type, res)

    def fneg(self, a: Value, name: str | None = None) -> Value:
        res = self._result(name, "neg")
        self.insert(Instr("fneg", res, a.type, [a]))
        return Value(a.type, res)

    def fcmp(self, pred: str, a: Value, b: Value, hint: str = "cmp") -> Value:
        res = self.fresh(hint)
        t = mask_type(a.type)
        self.insert(Instr("fcmp", res, t, [a, b], pred=pred))
        return Value(t, res)

    def icmp(self, pred: str, a: Value, b: Value, name: str | None = None,
             hint: str = "cmp") -> Value:
        res = self._result(name, hint)
        t = mask_type(a.type)
        self.insert(Instr("icmp", res, t, [a, b], pred=pred))
        return Value(t, res)

    def select(self, c: Value, a: Value, b: Value, name: str | None = None,
               hint: str = "sel") -> Value:
        res = self._result(name, hint)
        self.insert(Instr("select", res, a.type, [c, a, b]))
        return Value(a.type, res)

    def cast(self, op: str, a: Value, to: Type, hint: str | None = None,
             name: str | None = None) -> Value:
        res = self._result(name, hint or op)
        self.insert(Instr(op, res, to, [a]))
        return Value(to, res)

    def phi(self, t: Type, incoming: Sequence[tuple[Value, str]], name: str | None = None,
            hint: str = "phi") -> Value:
        res = self._result(name, hint)
        self.insert(Instr("phi", res, t, incoming=list(incoming)))
        return Value(t, res)

    def alloca(self, t: Type, name: str | None = None, hint: str = "alloca") -> Value:
        res = self._result(name, hint)
        self.insert(Instr("alloca", res, PTR, alloc_type=t))
        return Value(PTR, res)

    def load(self, t: Type, ptr: Value | str, align: int = 0, name: str | None = None,
             hint: str = "ld") -> Value:
        res = self._result(name, hint)
        self.insert(Instr("load", res, t, [_ptr(ptr)], align=align))
        return Value(t, res)

    def store(self, v: Value, ptr: Value | str, align: int = 0) -> None:
        self.insert(Instr("store", None, None, [v, _ptr(ptr)], align=align))

    def gep(self, elem: Type, base: Value | str, indices: Sequence[Value], hint: str = "gep",
            name: str | None = None) -> Value:
        res = self._result(name, hint)
        self.insert(Instr("getelementptr", res, PTR, [_ptr(base), *indices], alloc_type=elem))
        return Value(PTR, res)

    def extractvalue(self, agg: Value, indices: Sequence[int], t: Type, name: str | None = None,
                     hint: str = "ev") -> Value:
        res = self._result(name, hint)
        self.insert(Instr("extractvalue", res, t, [agg], indices=list(indices)))
        return Value(t, res)

    def insertvalue(self, agg: Value, v: Value, indices: Sequence[int], name: str | None = None,
                    hint: str = "iv") -> Value:
        res = self._result(name, hint)
        self.insert(Instr("insertvalue", res, agg.type, [agg, v], indices=list(indices)))
        return Value(agg.type, res)

    def extractelement(self, vec: Value, idx: Value, hint: str = "ext") -> Value:
        res = self.fresh(hint)
        t = vec.type.elem
        assert t is not None
        self.insert(Instr("extractelement", res, t, [vec, idx]))
        return Value(t, res)

    def insertelement(self, vec: Value, elt: Value, idx: Value, hint: str = "ins",
                      name: str | None = None) -> Value:
        res = self._result(name, hint)
        self.insert(Instr("insertelement", res, vec.type, [vec, elt, idx]))
        return Value(vec.type, res)

    def splat(self, vec: Value, name: str | None = None, hint: str = "splat") -> Value:
        """Lane 0 of vec in every lane (a shufflevector with a zero mask)."""
        res = self._result(name, hint)
        mask = Value(Type("vector", count=vec.type.count, elem=I32), "zeroinitializer")
        self.insert(Instr("shufflevector", res, vec.type, [vec, Value(vec.type, "poison"), mask]))
        return Value(vec.type, res)

    def call(self, callee: str, args: Sequence[Value], ret: Type | None,
             name: str | None = None, hint: str = "call",
             discard: bool = False) -> Value | None:
        """A call of callee ("@f", or a pointer value's ref); None when ret is void/None, or
        when the result is discarded (left unnamed)."""
        void = ret is None or ret.kind == "void"
        res = None if void or discard else self._result(name, hint)
        self.insert(Instr("call", res, None if void else ret, list(args), callee=callee))
        return None if res is None or ret is None else Value(ret, res)

    def call_value(self, callee: str, args: Sequence[Value], ret: Type,
                   name: str | None = None, hint: str = "call") -> Value:
        v = self.call(callee, args, ret, name, hint)
        assert v is not None
        return v

    def invoke(self, callee: str, args: Sequence[Value], ret: Type | None, normal: str,
               unwind: str, name: str | None = None) -> None:
        void = ret is None or ret.kind == "void"
        self.insert(Instr("invoke", None if void else name, None if void else ret, list(args),
                          callee=callee, targets=[normal], unwind=unwind))

    def landingpad(self, t: Type, clauses: Sequence[str], name: str) -> Value:
        self.insert(Instr("landingpad", name, t, clauses=list(clauses)))
        return Value(t, name)

    def elementary(self, fn: str, args: Sequence[Value], ret: Type) -> Value:
        """Call an elementary function: an LLVM intrinsic when there is one, else libm."""
        if fn in INTRINSICS:
            suffix = type_suffix(ret)
            if fn == "powi":
                suffix += "." + type_suffix(args[1].type)
            callee = f"@llvm.{fn}.{suffix}"
        elif fn in LIBM:
            if ret.kind == "vector":
                raise ValueError(f"no vector form of {fn}")
            callee = "@" + (fn if ret.scalar.name == "double" else fn + "f")
        else:
            raise ValueError(f"unknown elementary function {fn}")
        self.declare(callee, ret, [a.type for a in args])
        return self.call_value(callee, args, ret, hint=fn)

    # -- terminators -------------------------------------------------------------------------
    def br(self, label: str) -> None:
        self.insert(Instr("br", targets=[label]))

    def cond_br(self, cond: Value, if_true: str, if_false: str) -> None:
        self.insert(Instr("br", operands=[cond], targets=[if_true, if_false]))

    def switch(self, v: Value, default: str, cases: Sequence[tuple[Value, str]]) -> None:
        self.insert(Instr("switch", operands=[v], targets=[default], cases=list(cases)))

    def ret(self, v: Value | None = None) -> None:
        self.insert(Instr("ret", operands=[v] if v is not None else []))

    def unreachable(self) -> None:
        self.insert(Instr("unreachable"))


def _ptr(p: Value | str) -> Value:
    """An address operand: a pointer value, or the ref of one (a slot's Value may carry the
    type of what it holds)."""
    return Value(PTR, p.ref if isinstance(p, Value) else p)
