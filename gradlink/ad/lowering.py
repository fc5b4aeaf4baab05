"""Rewrites of a function to be differentiated into forms the analyses know, before them.

``posix_memalign(&p, align, size)`` allocates through an out-pointer: the allocation is no value
of the function, so nothing could carry its shadow. It becomes

    %p = call ptr @"gl.posix_memalign"(i64 align, i64 size)   ; an allocator (allocators.py)
    store ptr %p, ptr %slot                                    ; POSIX: null on failure
    %err = load i32, ptr @"gl.posix_memalign.err"              ; posix_memalign's result

where the helper calls posix_memalign itself and keeps its result in a thread-local. The shadow
of the allocation is then made by the helper as well (same alignment), zeroed, stored into the
slot's shadow when the slot has one, and freed with free: as for any allocator. The program's
own functions keep their posix_memalign calls; only the derivatives' copies are rewritten.
"""

from __future__ import annotations

from dataclasses import replace

from gradlink.analysis.allocators import POSIX_MEMALIGN
from gradlink.ir.builder import Builder
from gradlink.ir.model import Block, Function, Instr, Param, Value
from gradlink.ir.printer import (
    define_line,
    print_blocks,
    print_instruction,
    thread_local_global,
)
from gradlink.ir.types import I32, I64, PTR

_ERR = '@"gl.posix_memalign.err"'


def lower(fn: Function) -> tuple[Function, dict[str, str]]:
    """fn with its posix_memalign calls rewritten, and the definitions they need by name (empty
    when there was none)."""
    if not any(i.opcode == "call" and i.callee == "@posix_memalign" and len(i.operands) == 3
               for i in fn.instructions()):
        return fn, {}
    blocks = []
    count = 0
    for block in fn.blocks:
        instrs: list[Instr] = []
        for ins in block.instrs:
            if ins.opcode != "call" or ins.callee != "@posix_memalign" or len(ins.operands) != 3:
                instrs.append(ins)
                continue
            slot, align, size = ins.operands
            p = f'%"gl.pm.{count}"'
            count += 1
            made = [Instr("call", p, PTR, [_i64(align), _i64(size)], callee=POSIX_MEMALIGN,
                          dbg=ins.dbg, records=ins.records),
                    Instr("store", operands=[Value(PTR, p), slot], align=8, dbg=ins.dbg)]
            if ins.name is not None:
                made.append(Instr("load", ins.name, ins.type or I32, [Value(PTR, _ERR)],
                                  align=4, dbg=ins.dbg))
            instrs.extend(replace(i, text=print_instruction(i), block=block.label) for i in made)
        blocks.append(Block(block.label, instrs))
    return replace(fn, blocks=blocks), _definitions()


def _i64(v: Value) -> Value:
    if v.type != I64:
        raise ValueError(f"posix_memalign with a {v.type} argument (expected i64)")
    return v


def _definitions() -> dict[str, str]:
    b = Builder(prefix="pm")
    entry = b.block("entry")
    slot = b.alloca(PTR, hint="slot")
    b.store(Value(PTR, "null"), slot)
    err = b.call("@posix_memalign", [slot, Value(I64, "%align"), Value(I64, "%size")], I32,
                 hint="err")
    assert err is not None
    b.store(err, Value(PTR, _ERR))
    p = b.load(PTR, slot, hint="p")
    b.ret(p)
    text = print_blocks(define_line(POSIX_MEMALIGN, PTR, [Param(I64, "%align"),
                                                          Param(I64, "%size")]), [entry]) + "\n"
    return {POSIX_MEMALIGN: text, _ERR: thread_local_global(_ERR, I32, "0")}
