"""What both synthesis modes emit the same way: primal instructions copied into a derivative,
the run-time choice of an indirect call's derivative, and stopping the program with a message.
"""

from __future__ import annotations

import re
from dataclasses import replace

from gradlink.ir.builder import Builder
from gradlink.ir.model import Instr, Param, Value
from gradlink.ir.printer import define_line, label_ref, print_blocks, string_constant
from gradlink.ir.types import I32, I64, PTR, Type

# Loop metadata holds source locations of the original function: invalid in another function.
_LOOP_MD = re.compile(r",\s*!llvm\.loop !\d+")
INDIRECT_MESSAGE = "gradlink: an indirect call reached a function without a derivative\n"


def primal(ins: Instr) -> Instr:
    """A primal instruction to copy into a derivative: as read, minus loop metadata (which
    holds source locations of the original function, invalid in another function)."""
    text = _LOOP_MD.sub("", ins.text)
    return ins if text == ins.text else replace(ins, text=text)


ITER = "@__enzyme_iter"


def copy_primal(b: Builder, ins: Instr) -> None:
    """Copy a primal instruction into a derivative. ``__enzyme_iter(n, k)`` (an iteration count
    that grows by k with each order of differentiation: Enzyme's convention for truncated
    series) becomes ``__enzyme_iter(n + k, k)``; what is left of it after the last round
    returns n (assembly.lower_iter)."""
    if ins.opcode == "call" and ins.callee == ITER and len(ins.operands) == 2:
        n, k = ins.operands
        b.copy(primal(ins), operands=[b.binop("add", n, k, hint="iter"), k])
        return
    b.copy(primal(ins))


def redirect_unwind(ins: Instr, label: str) -> Instr:
    """An invoke as read, unwinding to another block."""
    text = re.sub(r"\bunwind label .*$", f"unwind label %{label_ref(label)}", primal(ins).text)
    return replace(ins, text=text, unwind=label)


def stop_with_message(b: Builder, name: str, message: str) -> None:
    """Write message (the global name holds it) to stderr and abort: the end of a block."""
    b.libcall("@write", [Value(I32, "2"), Value(PTR, name), Value(I64, str(len(message)))],
              discard=True)
    b.libcall("@abort", [])
    b.unreachable()


def dispatch(b: Builder, helpers: dict[str, str], fnptr: str, choices: list[tuple[str, str]],
             fallback: str, types: list[Type], ret: Type | None) -> str:
    """Of choices (target, function), the function whose target fnptr is, chosen by a chain of
    selects; a pointer matching none reaches fallback, a function of the given signature that
    stops the program with a message. Both modes' indirect calls use it."""
    helpers.update(indirect_fallback(fallback, types, ret))
    b.declare_library("@write", "@abort")
    chosen = Value(PTR, fallback)
    for target, fn in reversed(choices):
        hit = b.icmp("eq", Value(PTR, fnptr), Value(PTR, target), hint="is")
        chosen = b.select(hit, Value(PTR, fn), chosen, hint="fn")
    return chosen.ref


def indirect_fallback(name: str, types: list[Type], ret: Type | None) -> dict[str, str]:
    """A function of the given signature that stops the program: where an indirect call's
    dispatch goes for a pointer to a function it has no derivative of."""
    message = '@"gl.indirect.message"'
    b = Builder()
    entry = b.block("entry")
    stop_with_message(b, message, INDIRECT_MESSAGE)
    params = [Param(t, f"%p{k}") for k, t in enumerate(types)]
    body = print_blocks(define_line(name, ret, params, "noreturn"), [entry])
    return {name: body + "\n", message: string_constant(message, INDIRECT_MESSAGE)}
