"""Enzyme's queries of global shadows, and its contexts: sets of shadows a program manages.

``__enzyme_shadow(&g, width, lane)`` gives the address of the shadow of global variable g
(an address inside g, ``&blk.b``, gives the same place in the shadow): the default shadows
derivatives without a context use, at that width. ``ctx = __enzyme_context(width)`` makes a
context, ``__enzyme_autodiff(f, enzyme_context, ctx, ...)`` (or ``__enzyme_fwddiff``) a
derivative whose global shadows are the context's, ``__enzyme_shadow(ctx, &g, lane)`` the
address of g's shadow in it and ``__enzyme_zero_shadows(ctx)`` resets every shadow of the
context (its floating point to zero).

gradlink resolves contexts at link time: each ``__enzyme_context`` call site is one context
(``@"gl.context.N.wW"``, a byte whose address is the handle), and the context a query or
request names must be such a call (or its address) in the same function. A context is a set of
shadow globals (globals.shadow_name with space ``cN``), one per lane. A global whose shadow the
program queries is the program's to seed and read: it is active even when only read, and
gradlink never zeroes its shadow before a derivative; nor does it zero any shadow of a
context (``__enzyme_zero_shadows`` does, when the program asks).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container
from dataclasses import dataclass

from gradlink.ad import globals as global_shadows
from gradlink.ad.errors import ADError, describe
from gradlink.ir.builder import Builder
from gradlink.ir.model import Function, Instr, Value
from gradlink.ir.printer import define_line, global_ref, print_blocks, zero_global
from gradlink.ir.types import I8, I64

CONTEXT = "__enzyme_context"
SHADOW = "__enzyme_shadow"
ZERO = "__enzyme_zero_shadows"
_CONTEXT_GLOBAL = re.compile(r'@"?gl\.context\.(\d+)\.w(\d+)\b')


def is_context_call(callee: str) -> bool:
    return any(e in callee for e in (CONTEXT, SHADOW, ZERO))


@dataclass(frozen=True)
class Context:
    number: int
    width: int

    @property
    def space(self) -> str:
        return f"c{self.number}"

    @property
    def ref(self) -> str:
        return global_ref(f"gl.context.{self.number}.w{self.width}")


def zero_function(space: str) -> str:
    """The function resetting a context's shadows (defined after the last round)."""
    return global_ref(f"gl.zero_shadows.{space}")


def existing(module_text: str) -> dict[str, Context]:
    """The contexts an earlier round made, by their global."""
    out = {}
    for m in _CONTEXT_GLOBAL.finditer(module_text):
        c = Context(int(m.group(1)), int(m.group(2)))
        out[c.ref] = c
    return out


def queried_globals(caller: Function, globals_: Container[str]) -> set[str]:
    """The globals whose shadows a function queries."""
    out = set()
    for ins in caller.instructions():
        if ins.opcode == "call" and SHADOW in ins.callee and ins.operands:
            at = 1 if len(ins.operands) == 3 and ins.operands[1].type.is_ptr else 0
            out |= {g for g in global_shadows.referenced_globals(ins.operands[at].ref)
                    if g in globals_}
    return out


class Contexts:
    """The contexts of one round: those of earlier rounds, and those this round's calls of
    ``__enzyme_context`` make (numbered past them)."""

    def __init__(self, module_text: str, where: Callable[[str | None], str | None]) -> None:
        self.known = existing(module_text)
        self.counter = max((c.number for c in self.known.values()), default=0)
        self.made: dict[tuple[str, str], Context] = {}
        self.where = where
        self.widths: set[int] = {1}        # of the default shadows requests and queries use
        self.zeroed: set[Context] = set()    # contexts __enzyme_zero_shadows resets

    @property
    def all(self) -> list[Context]:
        return sorted({*self.known.values(), *self.made.values()}, key=lambda c: c.number)

    def definitions(self) -> dict[str, str]:
        """The context globals this round made."""
        return {c.ref: zero_global(c.ref, 1) for c in self.made.values() if c.ref not in self.known}

    def of(self, caller: Function, v: Value, defs: dict[str, Instr],
           fail: Callable[[str], ADError]) -> Context:
        """The context a value is: a ``__enzyme_context`` call of this function, or the
        address a lowered one left."""
        ref = v.ref
        d = defs.get(ref) if v.is_local else None
        if d is not None and d.opcode == "getelementptr" and d.operands:
            ref = d.operands[0].ref
        if ref in self.known:
            return self.known[ref]
        if d is not None and d.opcode == "call" and CONTEXT in d.callee:
            key = (caller.name, d.name or "")
            if key not in self.made:
                if len(d.operands) != 1 or not d.operands[0].ref.isdigit() or \
                        not 1 <= int(d.operands[0].ref) <= 64:
                    raise fail(f"{CONTEXT} takes the number of lanes, a constant from 1 to 64")
                self.counter += 1
                self.made[key] = Context(self.counter, int(d.operands[0].ref))
            return self.made[key]
        raise fail(f"the context {v.ref} is not known at link time: pass the result of a "
                   f"{CONTEXT} call made in the same function")

    def lower(self, caller: Function, ins: Instr, defs: dict[str, Instr],
              shadowed: frozenset[str], globals_: Container[str]) -> list[Instr]:
        """What replaces a ``__enzyme_context``, ``__enzyme_shadow`` or
        ``__enzyme_zero_shadows`` call."""
        where = self.where(ins.dbg)

        def fail(problem: str) -> ADError:
            return ADError(describe(caller.name, ins.text, where, problem))

        b = Builder()
        b.start()
        if CONTEXT in ins.callee:
            c = self.of(caller, Value(I8, ins.name or ""), {ins.name or "": ins}, fail)
            if ins.name is not None:
                b.gep(I8, Value(I8, c.ref), [Value(I64, "0")], name=ins.name)
            return b.instrs
        if ZERO in ins.callee:
            if len(ins.operands) != 1:
                raise fail(f"{ZERO} takes one argument, the context")
            c = self.of(caller, ins.operands[0], defs, fail)
            self.zeroed.add(c)
            b.call(zero_function(c.space), [], None)
            return b.instrs
        ops = ins.operands
        if len(ops) != 3 or not ops[2].ref.isdigit():
            raise fail(f"{SHADOW} takes (context, address, lane) or (address, width, lane), the "
                       "lane a constant")
        lane = int(ops[2].ref)
        if ops[1].type.is_ptr:
            c = self.of(caller, ops[0], defs, fail)
            space, width, address = c.space, c.width, ops[1]
        else:
            if not ops[1].ref.isdigit() or not 1 <= int(ops[1].ref) <= 64:
                raise fail(f"the width {ops[1].ref} of {SHADOW} must be a constant from 1 to 64")
            width, address = int(ops[1].ref), ops[0]
            space = global_shadows.space_of("", width)
            self.widths.add(width)
        if lane >= width:
            raise fail(f"lane {lane} of a shadow {width} lane(s) wide")
        named = [g for g in global_shadows.referenced_globals(address.ref) if g in globals_]
        if address.is_local or len(named) != 1:
            raise fail(f"{SHADOW} needs the address of a global variable (or of a place "
                       "inside one) that may have a shadow, known at link time")
        if named[0] not in shadowed:       # a restart of the round gives it one
            raise global_shadows.GlobalShadowsNeeded({named[0]} | shadowed)
        if ins.name is not None:
            b.gep(I8, Value(I8, global_shadows.shadow_ref(address.ref, shadowed, space, lane)),
                  [Value(I64, "0")], name=ins.name)
        return b.instrs


_ZERO_DEFINITION = re.compile(r'^define [^\n]*@"?gl\.zero_shadows\.(c\d+)"?\(', re.M)


def zero_functions(module_text: str, layout: global_shadows.ShadowLayout,
                   used: set[Context], managed: set[str]) -> tuple[dict[str, str], dict[str, str]]:
    """The functions ``__enzyme_zero_shadows`` calls became, each resetting every shadow of its
    context; made again each round (a later round may give more globals shadows), so a
    derivative of code calling one sees what it resets. Also the declarations they use."""
    known = {c.space: c for c in [*existing(module_text).values(), *used]}
    spaces = {m.group(1) for m in _ZERO_DEFINITION.finditer(module_text)} | \
        {c.space for c in used}
    out: dict[str, str] = {}
    declarations: dict[str, str] = {}
    for space in sorted(spaces):
        b = Builder(prefix="zs")
        entry = b.block("entry")
        for g in sorted(layout.shadowed):
            for lane in range(known[space].width):
                layout.reset(b, g, space, lane, managed=g in managed)
        b.ret(None)
        out[zero_function(space)] = print_blocks(
            define_line(zero_function(space), None, [], "nounwind"), [entry]) + "\n"
        declarations.update(b.declarations)
    return out, declarations
