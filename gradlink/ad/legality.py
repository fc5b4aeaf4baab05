"""What cannot be differentiated, found once for both modes before any synthesis: each finding
names the instruction and the problem, and the synthesis stops at the first (with the function,
the instruction and the source line; never a wrong derivative).

- inline assembly on active data;
- a call returning a pointer that may point into active memory, whose shadow the callee's
  derivative cannot return;
- the bits of an active float used as an integer (beyond moving them: stores, phis, selects,
  freezes and bitcasts): float bit tricks;
- an active value stored through a pointer without a shadow (a global, or memory the request
  passed as enzyme_const);
- in reverse mode, exceptions (invoke, landingpad, ...) on active data, except invokes of
  functions whose derivative the reverse sweep can call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from gradlink.ad import rules, tape
from gradlink.analysis.activity import Activity
from gradlink.ir.model import Function, Instr

_EXCEPTIONS = ("invoke", "landingpad", "resume", "callbr", "indirectbr")
_MOVES = {"store", "phi", "select", "freeze", "bitcast"}


@dataclass(frozen=True)
class Finding:
    ins: Instr
    problem: str


def findings(fn: Function, act: Activity, reachable: set[str], table: rules.RuleTable,
             returns_shadow: Callable[[Instr], bool],
             exception_ok: Callable[[Instr], bool] | None) -> Iterator[Finding]:
    """The findings in program order. ``returns_shadow(call)``: the callee's derivative returns
    the shadow of the pointer it returns; ``exception_ok(ins)``: the mode differentiates this
    exception-handling instruction on active data (None: the mode checks them itself)."""
    shadowed, varied = act.shadowed, act.varied
    defs = fn.definitions()
    for ins in fn.instructions():
        op = ins.opcode
        if ins.block not in reachable:
            continue              # landing pads and what only they reach: not in a derivative
        touches = any(v.ref in varied or v.ref in shadowed for v in ins.operands)
        if exception_ok is not None and op in _EXCEPTIONS and \
                (touches or act.active(ins.name)) and not exception_ok(ins):
            yield Finding(ins, f"'{op}' (exceptions) on active data is not supported")
        if op == "call" and ins.callee == "asm" and touches:
            yield Finding(ins, "inline assembly on active data")
        if op == "call" and ins.type is not None and ins.type.is_ptr and \
                table.allocator(ins.callee) is None and ins.callee != "@realloc" and \
                not tape.is_pop(ins.callee) and not table.is_inactive_call(ins.callee) and \
                any(v.ref in shadowed for v in ins.operands) and not returns_shadow(ins):
            yield Finding(ins, f"{ins.callee.lstrip('@')} returns a pointer that may point into "
                               "active memory; its shadow cannot be returned yet")
        for pos, v in enumerate(ins.operands):
            if v.type.kind == "int" and v.ref in varied and (
                    op not in _MOVES or (op == "select" and pos == 0)
                    or (op == "store" and pos == 1)):
                yield Finding(ins, f"the bits of an active float ({v.ref}) are used as an integer")
                break
        if op == "store":
            val, ptr = ins.operands
            if (val.ref in varied or val.ref in shadowed) and ptr.ref not in shadowed and \
                    not table.is_inactive_memory(ptr.ref, defs):
                yield Finding(ins, f"an active value is stored through {ptr.ref}, which has no "
                                   "shadow (a global, or memory passed as enzyme_const)")
