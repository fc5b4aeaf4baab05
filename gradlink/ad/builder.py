"""Emitting new instructions as LLVM text, with fresh names and typed constants.

The AD synthesizes code through this small builder only: rules compile their formulas to calls
of ``binop``/``call``/..., so no rule handles text itself. Values are gradlink.ir Values.
"""

from __future__ import annotations

import struct

from gradlink.ir.model import Value
from gradlink.ir.types import I1, Type

# LLVM intrinsic names of elementary functions (overloaded on the float type)
INTRINSICS = {"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
              "exp", "exp2", "exp10", "log", "log2", "log10", "pow", "sqrt", "fabs", "minnum",
              "maxnum", "minimum", "maximum", "copysign", "fma", "fmuladd", "floor", "ceil",
              "round", "trunc", "rint", "nearbyint", "roundeven", "powi"}
# libm-only functions: (double name, float name)
LIBM = {"erf", "erfc", "cbrt", "hypot", "expm1", "log1p", "tgamma", "lgamma"}


def type_suffix(t: Type) -> str:
    """LLVM's overload suffix: f64, f32, v2f64, ..."""
    s = t.scalar
    base = {"double": "f64", "float": "f32", "half": "f16", "bfloat": "bf16", "fp128": "f128",
            "x86_fp80": "f80"}.get(s.name, "") if s.kind == "float" else f"i{s.bits}"
    return f"v{t.count}{base}" if t.kind == "vector" else base


def float_literal(x: float, t: Type) -> str:
    """A constant of float type t (splat for vectors), exactly representable as LLVM prints it."""
    s = t.scalar
    if s.name == "double":
        lit = "0x%016X" % struct.unpack("<Q", struct.pack("<d", x))[0]
    elif s.name == "float":
        # float constants are written as the double of the same value
        f = struct.unpack("<f", struct.pack("<f", x))[0]
        lit = "0x%016X" % struct.unpack("<Q", struct.pack("<d", f))[0]
    else:
        raise ValueError(f"no literal for {s}")
    return f"splat ({s} {lit})" if t.kind == "vector" else lit


class Builder:
    """Collects instruction lines; ``fresh`` names never collide with LLVM's or each other."""

    def __init__(self, prefix: str = "gl") -> None:
        self.lines: list[str] = []
        self.prefix = prefix
        self.counter = 0
        self.declarations: dict[str, str] = {}     # "@llvm.sin.f64" -> declaration line

    def fresh(self, hint: str = "t") -> str:
        self.counter += 1
        return f'%"{self.prefix}.{hint}.{self.counter}"'

    def emit(self, line: str) -> None:
        self.lines.append("  " + line)

    def const(self, x: float, t: Type) -> Value:
        return Value(t, float_literal(x, t))

    def zero(self, t: Type) -> Value:
        return Value(t, "zeroinitializer" if t.kind != "float" else float_literal(0.0, t))

    def binop(self, op: str, a: Value, b: Value, flags: str = "") -> Value:
        name = self.fresh(op)
        f = f"{flags} " if flags else ""
        self.emit(f"{name} = {op} {f}{a.type} {a.ref}, {b.ref}")
        return Value(a.type, name)

    def fneg(self, a: Value) -> Value:
        name = self.fresh("neg")
        self.emit(f"{name} = fneg {a.type} {a.ref}")
        return Value(a.type, name)

    def fcmp(self, pred: str, a: Value, b: Value) -> Value:
        name = self.fresh("cmp")
        self.emit(f"{name} = fcmp {pred} {a.type} {a.ref}, {b.ref}")
        rt = I1 if a.type.kind != "vector" else Type("vector", count=a.type.count, elem=I1)
        return Value(rt, name)

    def select(self, c: Value, a: Value, b: Value) -> Value:
        name = self.fresh("sel")
        self.emit(f"{name} = select {c.type} {c.ref}, {a.type} {a.ref}, {b.type} {b.ref}")
        return Value(a.type, name)

    def cast(self, op: str, a: Value, to: Type) -> Value:
        name = self.fresh(op)
        self.emit(f"{name} = {op} {a.type} {a.ref} to {to}")
        return Value(to, name)

    def call(self, fn: str, args: list[Value], ret: Type) -> Value:
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
        params = ", ".join(str(a.type) for a in args)
        self.declarations.setdefault(callee, f"declare {ret} {callee}({params})")
        name = self.fresh(fn)
        self.emit(f"{name} = call {ret} {callee}({', '.join(str(a) for a in args)})")
        return Value(ret, name)

    def raw(self, line: str) -> None:
        self.emit(line)
