"""Type analysis: what a value holds and, for pointers, what the memory they point to holds.

IR types say what registers hold; memory is untyped, so what a pointer points to is learned from
how it is used (loads, stores, GEPs, phis, selects, calls of known functions) and propagated to a
fixed point between pointers derived from each other by constant offsets. Per pointer the result
is a map from byte offset to Integer, Float(double|float|...), Pointer, plus a periodic part for
array accesses with variable indices (element type and stride). memcpy and memmove use it to know
which bytes of a copy are floating point; an unknown region is reported, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from gradlink.ir.model import Function, Instr
from gradlink.ir.types import Type


@dataclass(frozen=True, eq=False)
class Kind:
    """What a value or some bytes of memory hold: Integer, Pointer, Float of one type (``float``
    names it: double, float, half, ...), Anything (conflicting facts) or Unknown. One object
    per kind (the constants below, ``float_kind``): compared by identity, cheaply."""

    name: str
    float: str = ""

    @property
    def is_float(self) -> bool:
        return self.name == "Float"

    @property
    def float_bits(self) -> int | None:
        return {"double": 64, "float": 32, "half": 16}.get(self.float) if self.is_float else None

    def __str__(self) -> str:
        return f"Float({self.float})" if self.is_float else self.name


INTEGER, POINTER, ANYTHING, UNKNOWN = Kind("Integer"), Kind("Pointer"), Kind("Anything"), \
    Kind("Unknown")


@cache
def float_kind(name: str) -> Kind:
    return Kind("Float", name)


def kind_of(t: Type) -> Kind:
    s = t.scalar
    if s.kind == "float":
        return float_kind(s.name)
    if s.kind == "ptr":
        return POINTER
    if s.kind == "int":
        return INTEGER
    return UNKNOWN


@dataclass
class Memory:
    at: dict[int, Kind] = field(default_factory=dict)    # byte offset -> kind
    # (stride, phase) -> kind of the bytes at phase + k * stride for every k (pointer arithmetic)
    strided: dict[tuple[int, int], Kind] = field(default_factory=dict)
    conflict: bool = False

    def learn(self, offset: int | None, kind: Kind, stride: tuple[int, int] | None = None
              ) -> bool:
        if kind == UNKNOWN:
            return False
        table: dict[Any, Kind] = self.strided if offset is None else self.at
        key = stride if offset is None else offset
        if key is None:
            return False
        old = table.get(key)
        if old == kind:
            return False
        # An integer access is weak evidence: memcpy-like code moves doubles through integer
        # registers. A float or pointer fact wins over it, silently.
        if kind == INTEGER and old is not None:
            return False
        if old == INTEGER and kind != ANYTHING:
            table[key] = kind
            return True
        if old is not None and old != kind:
            self.conflict = True
            table[key] = ANYTHING
            return bool(old != ANYTHING)
        table[key] = kind
        return True

    def kind_at(self, offset: int) -> Kind | None:
        """The strongest fact about the bytes at offset: exact, else from a periodic part."""
        here = self.at.get(offset)
        if here not in (None, INTEGER):
            return here
        for (stride, phase), kind in self.strided.items():
            if offset % stride == phase and kind != INTEGER:
                return kind
        return here

    def uniform(self) -> Kind | None:
        """The one kind every known byte has, if there is one."""
        kinds = set(self.at.values()) | set(self.strided.values())
        return kinds.pop() if len(kinds) == 1 else None

    def describe(self) -> str:
        parts = [f"{o}:{k}" for o, k in sorted(self.at.items())]
        parts += [f"[{ph}+*{st}]:{k}" for (st, ph), k in sorted(self.strided.items())]
        return "{" + ", ".join(parts) + "}"


def size_of(t: Type, structs: dict[str, Type] | None = None) -> int:
    return layout(t, structs)[0]


def layout(t: Type, structs: dict[str, Type] | None = None) -> tuple[int, int]:
    """(size, alignment) with the x86-64 SysV natural layout."""
    structs = structs or {}
    k = t.kind
    if k == "float":
        return {16: (2, 2), 32: (4, 4), 64: (8, 8), 80: (16, 16), 128: (16, 16)}[t.bits]
    if k == "int":
        n = max(1, (t.bits + 7) // 8)
        p = 1
        while p < n:
            p *= 2
        return p, min(p, 16)
    if k == "ptr":
        return 8, 8
    if k == "vector" and t.elem is not None:
        es = size_of(t.elem, structs) * t.count
        p = 1
        while p < es:
            p *= 2
        return p, p
    if k == "array" and t.elem is not None:
        es, ea = layout(t.elem, structs)
        return es * t.count, ea
    if k == "struct":
        off, align = 0, 1
        for f in t.fields:
            fs, fa = layout(f, structs)
            fa = 1 if t.packed else fa
            off = (off + fa - 1) // fa * fa + fs
            align = max(align, fa)
        return (off + align - 1) // align * align, align
    if k == "named" and t.name in structs:
        return layout(structs[t.name], structs)
    raise ValueError(f"no layout for {t}")


def field_offset(t: Type, index: int, structs: dict[str, Type]) -> int:
    if t.kind == "named":
        t = structs[t.name]
    off = 0
    for i, f in enumerate(t.fields):
        fs, fa = layout(f, structs)
        fa = 1 if t.packed else fa
        off = (off + fa - 1) // fa * fa
        if i == index:
            return off
        off += fs
    raise IndexError(index)


class TypeAnalysis:
    def __init__(self, fn: Function, structs: dict[str, Type] | None = None) -> None:
        self.fn = fn
        self.structs = structs or {}
        self.values: dict[str, Kind] = {}
        self.memory: dict[str, Memory] = {}
        # (derived, base, possible offsets, stride of an unbounded index)
        self.links: list[tuple[str, str, list[int] | None, int | None]] = []
        # (integer value, its bits, pointer) of integer loads and stores
        self.int_accesses: list[tuple[str, int, str]] = []
        for p in fn.params:
            self.values[p.name] = kind_of(p.type)
        for ins in fn.instructions():
            if ins.name and ins.type:
                self.values[ins.name] = kind_of(ins.type)
        self._collect()
        self._solve()

    def mem(self, name: str) -> Memory:
        return self.memory.setdefault(name, Memory())

    def _gep_offset(self, ins: Instr) -> tuple[list[int] | None, int | None]:
        """(possible constant byte offsets, stride of an unbounded first index) of a GEP.

        A variable index into an array of known length expands to each element's offset; a
        variable first index (pointer arithmetic) is unbounded and gives the stride."""
        t = ins.alloc_type
        offsets, stride = [0], None
        if t is None:
            return None, None
        for pos, idx in enumerate(ins.operands[1:]):
            const = _int_constant(idx.ref)
            if pos == 0:
                size = size_of(t, self.structs)
                if const is None:
                    stride = size
                else:
                    offsets = [o + const * size for o in offsets]
                continue
            if t.kind in ("struct", "named"):
                if const is None:
                    return None, None
                fo = field_offset(t, const, self.structs)
                offsets = [o + fo for o in offsets]
                tt = self.structs.get(t.name, t) if t.kind == "named" else t
                t = tt.fields[const]
            elif t.kind in ("array", "vector") and t.elem is not None:
                es = size_of(t.elem, self.structs)
                if const is not None:
                    offsets = [o + const * es for o in offsets]
                elif len(offsets) * t.count <= 256:
                    offsets = [o + k * es for o in offsets for k in range(t.count)]
                else:
                    return None, None
                t = t.elem
            else:
                return None, None
        return offsets, stride

    def _collect(self) -> None:
        for ins in self.fn.instructions():
            op = ins.opcode
            if op == "load" and ins.type is not None:
                self._learn_access(ins.operands[0].ref, ins.type)
                if ins.type.kind == "int" and ins.name:
                    self.int_accesses.append((ins.name, ins.type.bits, ins.operands[0].ref))
            elif op == "store":
                self._learn_access(ins.operands[1].ref, ins.operands[0].type)
                val = ins.operands[0]
                if val.type.kind == "int" and val.is_local:
                    self.int_accesses.append((val.ref, val.type.bits, ins.operands[1].ref))
            elif op == "getelementptr" and ins.name:
                off, stride = self._gep_offset(ins)
                self.links.append((ins.name, ins.operands[0].ref, off, stride))
            elif op in ("phi", "select", "bitcast", "freeze", "addrspacecast") and ins.name and \
                    ins.type is not None and ins.type.is_ptr:
                srcs = [v.ref for v, _ in ins.incoming] if op == "phi" else [
                    v.ref for v in (ins.operands[1:] if op == "select" else ins.operands)]
                for src in srcs:
                    if src.startswith("%"):
                        self.links.append((ins.name, src, [0], None))

    def _learn_access(self, ptr: str, t: Type) -> None:
        m = self.mem(ptr)
        if t.kind == "vector" and t.elem is not None:
            es = size_of(t.elem, self.structs)
            for i in range(t.count):
                m.learn(i * es, kind_of(t.elem))
        elif t.kind in ("struct", "named", "array"):
            self._learn_aggregate(m, 0, t)
        else:
            m.learn(0, kind_of(t))

    def _learn_aggregate(self, m: Memory, base: int, t: Type) -> None:
        if t.kind == "named":
            t = self.structs.get(t.name, t)
        if t.kind == "struct":
            for i, f in enumerate(t.fields):
                self._learn_aggregate(m, base + field_offset(t, i, self.structs), f)
        elif t.kind in ("array", "vector") and t.elem is not None:
            es = size_of(t.elem, self.structs)
            for i in range(t.count):
                self._learn_aggregate(m, base + i * es, t.elem)
        else:
            m.learn(base, kind_of(t))

    def _solve(self) -> None:
        changed = True
        rounds = 0
        while changed and rounds < 50:
            changed = False
            rounds += 1
            for value, bits, ptr in self.int_accesses:  # integers that are float bits in memory
                here = self.mem(ptr).kind_at(0)
                if here is not None and here.float_bits == bits and \
                        self.values.get(value) == INTEGER:
                    self.values[value] = here
                    changed = True
                elif self.values.get(value, UNKNOWN).float_bits == bits and \
                        self.mem(ptr).kind_at(0) != self.values[value]:
                    changed |= self.mem(ptr).learn(0, self.values[value])
            for derived, base, offs, stride in self.links:
                d, b = self.mem(derived), self.mem(base)
                if offs is None:
                    continue
                if stride is None:
                    for off in offs:                         # derived -> base, each possibility
                        for o, k in list(d.at.items()):
                            changed |= b.learn(o + off, k)
                    if len(offs) == 1:                       # base -> derived: only when exact
                        off = offs[0]
                        for o, k in list(b.at.items()):
                            if o - off >= 0:
                                changed |= d.learn(o - off, k)
                        for key, k in list(b.strided.items()):
                            st, ph = key
                            changed |= d.learn(None, k, (st, (ph - off) % st))
                    for key, k in list(d.strided.items()):
                        st, ph = key
                        for off in offs:
                            changed |= b.learn(None, k, (st, (ph + off) % st))
                else:
                    for off in offs:
                        for o, k in list(d.at.items()):      # p[i] access: every element
                            changed |= b.learn(None, k, (stride, (o + off) % stride))
                        for (st, ph), k in list(b.strided.items()):
                            if st == stride:
                                changed |= d.learn(None, k, (st, (ph - off) % st))

    def region_kind(self, ptr: str) -> Kind | None:
        """The uniform kind of the memory behind ptr, if the analysis found exactly one."""
        m = self.memory.get(ptr)
        return m.uniform() if m else None


def _int_constant(ref: str) -> int | None:
    try:
        return int(ref)
    except ValueError:
        return None


def print_types(ta: TypeAnalysis) -> str:
    lines = [f"function {ta.fn.name}"]
    for p in ta.fn.params:
        lines.append(f"  {p.name}: {ta.values.get(p.name, UNKNOWN)}"
                     + (f" -> {ta.memory[p.name].describe()}" if p.name in ta.memory else ""))
    for ins in ta.fn.instructions():
        if ins.name:
            mem = f" -> {ta.memory[ins.name].describe()}" if ins.name in ta.memory else ""
            lines.append(f"  {ins.name}: {ta.values.get(ins.name, UNKNOWN)}{mem}")
    return "\n".join(lines)
