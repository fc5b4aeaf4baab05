"""gradlink's own SSA IR: functions, blocks and instructions read from LLVM text.

Parsed instructions keep their original text (minus debug attachments) so the primal part of a
derivative is re-emitted exactly; the fields describe what analyses and rules need. Instructions
the AD synthesizes (gradlink.ir.builder) have no text: ``Instr.print`` prints them from their
fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from gradlink.ir.types import Type


class Value(NamedTuple):
    """A typed operand: a local (%x), a global (@g) or a constant, spelled as in LLVM text.
    (Immutable; a named tuple: the synthesis makes hundreds of thousands.)"""

    type: Type
    ref: str

    @property
    def is_local(self) -> bool:
        return self.ref.startswith("%")

    @property
    def is_global(self) -> bool:
        return self.ref.startswith("@")

    @property
    def is_constant(self) -> bool:
        return not self.is_local

    def __str__(self) -> str:
        return f"{self.type.spelled} {self.ref}"


@dataclass(slots=True)
class Instr:
    opcode: str
    name: str | None = None                   # result, e.g. "%x"; None for void
    type: Type | None = None                  # result type
    operands: list[Value] = field(default_factory=list)
    flags: tuple[str, ...] = ()               # fast-math / wrap flags
    pred: str = ""                            # fcmp/icmp predicate
    callee: str = ""                          # call: "@sin", or "%fnptr" for indirect calls
    incoming: Sequence[tuple[Value, str]] = ()   # phi: (value, block)
    targets: Sequence[str] = ()                   # br/switch successors
    unwind: str = ""                          # invoke: the landing pad (exceptional successor)
    cases: Sequence[tuple[Value, str]] = ()       # switch cases
    alloc_type: Type | None = None            # alloca's type, gep's source element type
    indices: Sequence[int] = ()                   # extract/insertvalue
    text: str = ""                            # the original instruction, debug attachments removed
    dbg: str | None = None                    # the !dbg attachment's metadata id, e.g. "!31"
    block: str = ""
    align: int = 0                            # load/store alignment (0: none written)
    clauses: Sequence[str] = ()                   # landingpad clauses
    records: Sequence[str] = ()                   # debug records before it ('#dbg_value(...)')

    @property
    def value(self) -> Value | None:
        return Value(self.type, self.name) if self.name and self.type else None

    @property
    def is_terminator(self) -> bool:
        return self.opcode in ("br", "switch", "ret", "unreachable", "indirectbr", "invoke",
                               "resume", "callbr")

    def uses(self) -> list[Value]:
        vals = list(self.operands)
        vals.extend(v for v, _ in self.incoming)
        return vals

    def print(self) -> str:
        """The instruction as read, or (made by a builder, or changed) from its fields."""
        return self.text or _print_instruction(self)


@dataclass
class Block:
    label: str                                 # without '%' and ':'
    instrs: list[Instr] = field(default_factory=list)

    @property
    def phis(self) -> list[Instr]:
        return [i for i in self.instrs if i.opcode == "phi"]

    @property
    def terminator(self) -> Instr:
        return self.instrs[-1]

    @property
    def ref(self) -> str:
        return "%" + self.label


@dataclass
class Param:
    type: Type
    name: str          # "%x"
    attrs: str = ""


@dataclass
class Function:
    name: str                                  # "@f"
    ret: Type
    params: list[Param]
    blocks: list[Block]
    header: str = ""                           # the original 'define ...' line up to '{'
    attrs: str = ""                            # attribute group refs after the parameter list
    dbg: str | None = None                     # the function's !dbg DISubprogram id

    def block(self, label: str) -> Block:
        for b in self.blocks:
            if b.label == label:
                return b
        raise KeyError(label)

    def instructions(self) -> list[Instr]:
        return [i for b in self.blocks for i in b.instrs]

    def free_prefix(self, base: str) -> str:
        """``base``, or base2, base3, ...: a prefix that no value or block name of this function
        starts with (it may itself be a derivative, whose names start with "gl." or "gf.")."""
        used = {p.name for p in self.params} | {i.name for b in self.blocks for i in b.instrs
                                                 if i.name}
        bare = {n.lstrip("%").strip('"') for n in used} | {b.label for b in self.blocks}
        prefix, k = base, 1
        while any(n.startswith(prefix + ".") for n in bare):
            k += 1
            prefix = f"{base}{k}"
        return prefix

    def definitions(self) -> dict[str, Instr]:
        return {i.name: i for b in self.blocks for i in b.instrs if i.name}


# the printer imports this module: bound once both are loaded
from gradlink.ir.printer import print_instruction as _print_instruction  # noqa: E402
