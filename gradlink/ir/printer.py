"""Printing gradlink.ir back to LLVM text.

Instructions read from a module keep their original text, which ``print_function`` reuses;
``print_instruction`` prints one from its fields alone (what the analyses and the AD see), so a
round trip through it shows the model holds everything an instruction means.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from gradlink.ir.model import Block, Function, Instr, Param
from gradlink.ir.types import Type

_CALL_KINDS = frozenset(("tail", "musttail", "notail"))
_BINARY = frozenset(("fadd", "fsub", "fmul", "fdiv", "frem", "add", "sub", "mul", "udiv", "sdiv",
                     "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor"))


def _flags(ins: Instr) -> str:
    if not ins.flags:
        return ""
    return "".join(f + " " for f in ins.flags if f not in _CALL_KINDS)


def print_instruction(ins: Instr) -> str:
    op = ins.opcode
    res = f"{ins.name} = " if ins.name else ""
    ops = ins.operands
    if op in _BINARY:
        a = ops[0]
        return f"{res}{op} {_flags(ins)}{a.type.spelled} {a.ref}, {ops[1].ref}"
    if op == "load":
        align = f", align {ins.align}" if ins.align else ""
        p = ops[0]
        return f"{res}load {ins.type}, {p.type.spelled} {p.ref}{align}"
    if op == "store":
        align = f", align {ins.align}" if ins.align else ""
        v, p = ops
        return f"store {v.type.spelled} {v.ref}, {p.type.spelled} {p.ref}{align}"
    if op in ("fneg", "freeze"):
        return f"{res}{op} {_flags(ins)}{ops[0]}"
    if op in ("fcmp", "icmp"):
        flags = _flags(ins)
        return f"{res}{op} {flags}{ins.pred} {ops[0]}, {ops[1].ref}"
    if op in ("trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp",
              "ptrtoint", "inttoptr", "bitcast", "addrspacecast"):
        return f"{res}{op} {_flags(ins)}{ops[0]} to {ins.type}"
    if op == "select":
        return f"{res}select {_flags(ins)}{ops[0]}, {ops[1]}, {ops[2]}"
    if op == "phi":
        inc = ", ".join(f"[ {v.ref}, %{label_ref(b)} ]" for v, b in ins.incoming)
        return f"{res}phi {_flags(ins)}{ins.type} {inc}"
    align = f", align {ins.align}" if ins.align else ""
    if op == "load":
        return f"{res}load {ins.type}, {ops[0]}{align}"
    if op == "store":
        return f"store {ops[0]}, {ops[1]}{align}"
    if op == "getelementptr":
        rest = "".join(f", {v}" for v in ops[1:])
        return f"{res}getelementptr {_flags(ins)}{ins.alloc_type}, {ops[0]}{rest}"
    if op == "alloca":
        count = f", {ops[0]}" if ops else ""
        return f"{res}alloca {ins.alloc_type}{count}"
    if op == "call" and ins.callee != "asm":
        args = ", ".join(str(v) for v in ops)
        ret = str(ins.type) if ins.type is not None else "void"
        return f"{res}call {_flags(ins)}{ret} {ins.callee}({args})"
    if op == "invoke" and ins.callee != "asm" and not ins.text:
        args = ", ".join(str(v) for v in ops)
        ret = str(ins.type) if ins.type is not None else "void"
        return (f"{res}invoke {ret} {ins.callee}({args}) to label %{label_ref(ins.targets[0])} "
                f"unwind label %{label_ref(ins.unwind)}")
    if op == "landingpad" and not ins.text:
        return f"{res}landingpad {ins.type} {' '.join(ins.clauses)}"
    if op == "br":
        if ops:
            return f"br {ops[0]}, label %{label_ref(ins.targets[0])}, label %{label_ref(ins.targets[1])}"
        return f"br label %{label_ref(ins.targets[0])}"
    if op == "switch":
        cases = " ".join(f"{v}, label %{label_ref(b)}" for v, b in ins.cases)
        return f"switch {ops[0]}, label %{label_ref(ins.targets[0])} [ {cases} ]"
    if op == "ret":
        return f"ret {ops[0]}" if ops else "ret void"
    if op == "unreachable":
        return "unreachable"
    if op == "extractelement":
        return f"{res}extractelement {ops[0]}, {ops[1]}"
    if op == "insertelement":
        return f"{res}insertelement {ops[0]}, {ops[1]}, {ops[2]}"
    if op == "shufflevector":
        return f"{res}shufflevector {ops[0]}, {ops[1]}, {ops[2]}"
    if op == "extractvalue":
        return f"{res}extractvalue {ops[0]}" + "".join(f", {i}" for i in ins.indices)
    if op == "insertvalue":
        return f"{res}insertvalue {ops[0]}, {ops[1]}" + "".join(f", {i}" for i in ins.indices)
    return ins.text                     # invoke, landingpad, atomics, inline asm: as read


def declaration(name: str, ret: Type, params: Sequence[Type], attrs: str = "") -> str:
    """A function declaration: declare RET NAME(PARAMS) [ATTRS]."""
    ps = ", ".join(str(t) for t in params)
    return f"declare {ret} {name}({ps})" + (f" {attrs}" if attrs else "")


def define_line(name: str, ret: Type | None, params: Sequence[Param], attrs: str = "",
                linkage: str = "internal", varargs: bool = False) -> str:
    """A function definition's first line, up to and including '{'."""
    ps = ", ".join([f"{p.type} {p.attrs + ' ' if p.attrs else ''}{p.name}" for p in params]
                   + (["..."] if varargs else []))
    tail = f"{attrs} " if attrs else ""
    return f"define {linkage} {ret or 'void'} {name}({ps}) {tail}{{"


_PLAIN_GLOBAL = re.compile(r"[-a-zA-Z$._][-a-zA-Z$._0-9]*")
_PLAIN_LABEL = re.compile(r"[-a-zA-Z$._0-9]+")


def global_ref(name: str) -> str:
    """A global's name as an operand spells it: @name, or @"name" unless a plain identifier."""
    return f"@{name}" if _PLAIN_GLOBAL.fullmatch(name) else f'@"{name}"'


def label_ref(label: str) -> str:
    """A block label as an operand spells it after '%' (quoted unless a plain identifier)."""
    return label if _PLAIN_LABEL.fullmatch(label) else f'"{label}"'


def print_blocks(header: str, blocks: Sequence[Block],
                 show: Callable[[Instr], str] = Instr.print) -> str:
    """A function definition from its first line (see define_line) and its blocks, each
    instruction as ``show`` prints it (as read, or from its fields when made or changed)."""
    lines = [header]
    for k, b in enumerate(blocks):
        if k or not b.label.isdigit():         # an unnamed entry block has no label line
            lines.append(f"{label_ref(b.label)}:")
        lines.extend("  " + show(ins) for ins in b.instrs)
    lines.append("}")
    return "\n".join(lines)


def zero_global(name: str, size: int, align: int = 16) -> str:
    """An internal global of ``size`` zero bytes (a shadow of a global variable)."""
    return f"{name} = internal global [{size} x i8] zeroinitializer, align {align}\n"


def global_variable(name: str, t: Type, init: str, constant: bool = False,
                    align: int = 16) -> str:
    """An internal global (or private constant) of type t holding init."""
    kind = "private unnamed_addr constant" if constant else "internal global"
    return f"{name} = {kind} {t} {init}, align {align}\n"


def element_address(t: Type, base: str, path: Sequence[int]) -> str:
    """The constant address of an element of a global of type t (a GEP constant expression)."""
    if not path:
        return base
    indices = ", ".join(["i64 0", *(f"i32 {k}" for k in path)])
    return f"getelementptr inbounds ({t}, ptr {base}, {indices})"


def thread_local_global(name: str, t: Type, init: str) -> str:
    """An internal thread-local global of type t holding init."""
    return f"{name} = internal thread_local global {t} {init}\n"


def string_constant(name: str, data: str) -> str:
    """An internal constant global holding the bytes of data (ASCII), e.g. a message."""
    text = "".join(c if c.isprintable() and c not in '"\\' else f"\\{ord(c):02X}"
                   for c in data)
    return f'{name} = internal constant [{len(data)} x i8] c"{text}"\n'


def print_with_debug(ins: Instr) -> str:
    """An instruction as read (or from its fields when made or changed) with its debug records
    before it and its !dbg location: what a function of the program prints back as."""
    text = ins.print()
    if ins.dbg is not None:
        text += f", !dbg {ins.dbg}"
    if ins.records:
        return "\n  ".join((*ins.records, text))
    return text


def print_function(fn: Function, from_fields: bool = False) -> str:
    """A parsed function as it was read, debug information included (changed or new
    instructions from their fields); ``from_fields``: every instruction printed from its fields
    alone, without debug information."""
    show = print_instruction if from_fields else print_with_debug
    return print_blocks(fn.header, fn.blocks, show) + "\n"
