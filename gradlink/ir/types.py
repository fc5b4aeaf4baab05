"""IR types: parsed from and printed back to LLVM's spelling."""

from __future__ import annotations

from dataclasses import dataclass, field

FLOAT_BITS = {"half": 16, "bfloat": 16, "float": 32, "double": 64, "x86_fp80": 80, "fp128": 128}


@dataclass(frozen=True)
class Type:
    """kind: void, float (with name), int (bits), ptr, vector/array (count, elem), struct
    (fields), named (a %struct.X reference), label, metadata, token, func."""

    kind: str
    name: str = ""
    bits: int = 0
    count: int = 0
    elem: Type | None = None
    fields: tuple[Type, ...] = ()
    packed: bool = False
    # LLVM's spelling, made once (printing reads it without a call)
    spelled: str = field(init=False, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "spelled", self._spell())

    def __str__(self) -> str:
        return self.spelled

    def _spell(self) -> str:
        k = self.kind
        if k == "float":
            return self.name
        if k == "int":
            return f"i{self.bits}"
        if k == "vector":
            return f"<{self.count} x {self.elem}>"
        if k == "array":
            return f"[{self.count} x {self.elem}]"
        if k == "struct":
            inner = ", ".join(str(f) for f in self.fields)
            return f"<{{ {inner} }}>" if self.packed else (f"{{ {inner} }}" if inner else "{}")
        if k in ("named", "ptr"):
            return self.name or k
        return k

    @property
    def is_float(self) -> bool:
        """A floating-point scalar or a vector of them: what carries an adjoint."""
        return self.kind == "float" or (self.kind == "vector" and self.elem is not None
                                        and self.elem.kind == "float")

    @property
    def scalar(self) -> Type:
        return self.elem if self.kind == "vector" and self.elem is not None else self

    @property
    def is_ptr(self) -> bool:
        return self.kind == "ptr" or (self.kind == "vector" and self.elem is not None
                                      and self.elem.kind == "ptr")

    @property
    def is_int(self) -> bool:
        return self.scalar.kind == "int"

    @property
    def has_float(self) -> bool:
        """Holds floating point somewhere (aggregates of doubles, ...)."""
        if self.is_float:
            return True
        if self.kind == "array" and self.elem is not None:
            return self.elem.has_float
        return any(f.has_float for f in self.fields)


VOID = Type("void")
PTR = Type("ptr", "ptr")
I1 = Type("int", bits=1)
I8 = Type("int", bits=8)
I32 = Type("int", bits=32)
I64 = Type("int", bits=64)
DOUBLE = Type("float", "double", bits=64)
FLOAT = Type("float", "float", bits=32)


def int_type(bits: int) -> Type:
    return Type("int", bits=bits)


def float_type(name: str) -> Type:
    return Type("float", name, bits=FLOAT_BITS[name])


def size_of(t: Type) -> int:
    """Store size in bytes for the types the tape holds (scalars, vectors, pointers)."""
    if t.kind == "float":
        return {16: 2, 32: 4, 64: 8, 80: 16, 128: 16}[t.bits]
    if t.kind == "int":
        return max(1, (t.bits + 7) // 8)
    if t.kind == "ptr":
        return 8
    if t.kind in ("vector", "array") and t.elem is not None:
        return t.count * size_of(t.elem)
    if t.kind == "struct":
        return sum(size_of(f) for f in t.fields) + 8 * len(t.fields)   # generous: padding
    raise ValueError(f"no size for type {t}")
