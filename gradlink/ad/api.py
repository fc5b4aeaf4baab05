"""The Enzyme C API of a link round: every ``__enzyme_autodiff`` / ``__enzyme_fwddiff`` /
split-mode request of the module rewritten into calls of synthesized derivatives, and the
module assembled with them.

The jobs live in their own modules: reading requests (requests.py), what the module holds
(module.py), making each derivative once (derivatives.py, the synthesis factory), the calls
that replace a request (calls.py) and their results (results.py), the module's assembly
(assembly.py). This one drives them over the callers.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from gradlink.ad import assembly, batch, bypass, contexts, rules
from gradlink.ad import globals as globals_
from gradlink.ad.calls import CallRewriter
from gradlink.ad.derivative import Derivative
from gradlink.ad.derivatives import Derivatives
from gradlink.ad.errors import ADError, describe
from gradlink.ad.module import ModuleInfo
from gradlink.ad.requests import (
    SRET,
    RequestReader,
    has_requests,
    is_autodiff,
    is_fwddiff,
    is_request,
    split_entry,
)
from gradlink.ir.builder import Builder
from gradlink.ir.model import Block, Function, Instr, Value
from gradlink.ir.module import ModuleEdit
from gradlink.ir.parse import parse_function
from gradlink.ir.types import I8, I64

__all__ = ["Differentiator", "has_requests"]

_TAGGED = re.compile(r'%"gl\.[a-z_]+\.(\d+)')
_WIDE_SPACE = re.compile(r"gl\.shadow\.w(\d+)\.")


class Differentiator:
    def __init__(self, module_text: str, hazards: bypass.Hazards | None = None,
                 global_shadows: frozenset[str] = frozenset(),
                 queried: frozenset[str] = frozenset()) -> None:
        self.info = ModuleInfo(module_text)
        self.info.queried_shadows |= queried        # queries an earlier round lowered
        reg = self.info.registry
        try:
            table = rules.RuleTable.with_registrations(reg.function_like, reg.inactive_functions,
                                                       reg.inactive_globals, reg.allocators,
                                                       reg.frees)
        except ValueError as e:
            raise ADError(str(e)) from None
        table = replace(table, fresh=functools.partial(self.info.returns_allocation,
                                                                   table))
        self.derivs = Derivatives(self.info, table, hazards)
        # a shadowed global's shadow points to the shadows of the globals it points to
        self.derivs.global_shadows = self.info.close_shadows(global_shadows |
                                                             self.info.queried_shadows)
        self.contexts = contexts.Contexts(module_text, self.info.locations.where)
        # the names a round gives the callers' new values are numbered past those of earlier
        # rounds (a caller may have requests replaced in two rounds)
        self.counter = max((int(n) for n in _TAGGED.findall(module_text)), default=0)
        self.reader = RequestReader(self.info, self.derivs.calling_wrapper,
                                    lambda kind: f'%"gl.{kind}.{self._tag()}"',
                                    self.contexts)
        self.calls = CallRewriter(self.info, self.derivs, self.reader, self._tag)
        self.unready = assembly.reaching_requests(self.info.fns)
        self.deferred = 0

    def _tag(self) -> int:
        self.counter += 1
        return self.counter

    @property
    def derivatives(self) -> dict[tuple[str, str], Derivative]:
        return self.derivs.derivatives

    @property
    def split_wrappers(self) -> dict[str, str]:
        return self.calls.split_wrappers

    def run(self) -> str:
        try:
            return self._run()
        except ValueError as e:            # a rule or constant the builder cannot make
            raise ADError(str(e)) from None

    def _run(self) -> str:
        module = ModuleEdit(self.info.text)
        for name, text in list(self.info.fns.items()):   # requests may add calling wrappers
            if "__enzyme_" in text:
                module.replace(self._rewrite_caller(name))
        d = self.derivs
        layout = self.calls.layout
        shadow_globals = layout.definitions(self._spaces())
        zeroing, used = contexts.zero_functions(self.info.text, layout, self.contexts.zeroed,
                                                self.info.managed_shadows())
        for name, text in zeroing.items():
            if self.info.existing(name):          # an earlier round's, with fewer globals
                module.replace(parse_function(text))
            else:
                shadow_globals[name] = text
        return assembly.assemble(module, [*d.derivatives.values(), *d.split_functions],
                                 {**self.calls.split_wrappers, **shadow_globals,
                                  **self.contexts.definitions(), **layout.helpers,
                                  **self.info.helpers},
                                 d.custom_wrappers, d.custom_tape_types,
                                 {**self.calls.declarations, **used,
                                  **layout.helper_declarations})

    def _spaces(self) -> dict[str, int]:
        """The sets of global shadows the round's code may name, with their lanes: the default
        one, those of wider forward derivatives, and each context's."""
        widths = {int(w) for w in _WIDE_SPACE.findall(self.info.text)} | self.contexts.widths
        spaces = {globals_.space_of("", w): w for w in widths}
        spaces[""] = 1
        spaces.update({c.space: c.width for c in self.contexts.all})
        return spaces

    def _rewrite_caller(self, name: str) -> Function:
        """The caller with each request replaced by the instructions of its derivative call
        (the request's source location on the calls)."""
        caller = self.info.caller(name)
        defs = caller.definitions()
        blocks = []
        for block in caller.blocks:
            instrs: list[Instr] = []
            for ins in block.instrs:
                if ins.opcode not in ("call", "invoke") or not is_request(ins.callee):
                    instrs.append(ins)
                    continue
                new = self._request(caller, ins, defs)
                instrs.extend(new if new is not None else [ins])
            blocks.append(Block(block.label, instrs))
        return replace(caller, blocks=blocks)

    def _request(self, caller: Function, ins: Instr, defs: dict[str, Instr]) -> list[Instr] | None:
        """What replaces one request; None when it waits for a later round."""
        if ins.opcode == "invoke":
            self.reader.check_invoke(caller, ins)
        fi = 1 if SRET.search(ins.text) and len(ins.operands) > 1 else 0
        target = ins.operands[fi].ref if len(ins.operands) > fi else ""
        merged = self.reader.merged_targets(ins, fi, defs)
        if target in self.unready or any(t in self.unready for t in merged):
            self.deferred += 1            # its body still asks for derivatives: next round
            return None                   # stays as it is (an invoke stays an invoke)
        new = self._replacement(caller, ins, fi, defs, merged)
        if new and ins.records:
            new[0].records = ins.records          # debug records before the request stay
        for made in new:
            # a call inlined later into a function with debug info needs a location (LLVM's
            # verifier), and the request's is the right line
            if made.opcode == "call" and made.dbg is None:
                made.dbg = ins.dbg
        if ins.opcode == "invoke" and ins.targets:
            # a request in C++ code with exceptions is an invoke: the derivative does not
            # throw (an exception in it stops the program), so it continues to the normal
            # destination; the landing pad loses this predecessor
            new.append(Instr("br", targets=[ins.targets[0]]))
        return new

    def _batch(self, fn: Function, ins: Instr, defs: dict[str, Instr]) -> list[Instr]:
        def fail(problem: str) -> ADError:
            return ADError(describe(fn.name, ins.text, self.info.locations.where(ins.dbg),
                                    problem))

        request = batch.read(fn, ins, self.info.text, self.info.fns,
                             lambda v: self.reader.marker(v, defs), self.reader.coerce, fail)
        b = Builder()
        b.start()
        batch.lower(b, request, ins, self._tag(), self.info.structs)
        return b.instrs

    def _virtual_reverse(self, fn: Function, ins: Instr) -> list[Instr]:
        """``__enzyme_virtualreverse(f)``: what Enzyme stores as the shadow of a function
        pointer (or of a C++ object's vtable pointer) so its indirect calls find derivatives.
        gradlink dispatches an indirect call on the primal pointer (the functions it may reach
        are known at link time), so a function pointer's shadow is never read: it is f."""
        if len(ins.operands) != 1 or not ins.operands[0].type.is_ptr or (
                ins.type is not None and ins.name is not None and not ins.type.is_ptr):
            raise ADError(describe(fn.name, ins.text, self.info.locations.where(ins.dbg),
                                   "__enzyme_virtualreverse takes and returns one pointer"))
        b = Builder()
        b.start()
        if ins.name is not None:
            b.gep(I8, ins.operands[0], [Value(I64, "0")], name=ins.name)
        return b.instrs

    def _replacement(self, fn: Function, ins: Instr, fi: int, defs: dict[str, Instr],
                     merged: list[str]) -> list[Instr]:
        if merged:
            return self.calls.merged_call(fn, ins, fi, defs, merged)
        if is_fwddiff(ins.callee):
            return self.calls.call_forward(self.reader.read(fn, ins, defs, forward=True))
        entry = split_entry(ins.callee)
        if entry is not None:
            return self.calls.call_split(self.reader.read(fn, ins, defs, split=entry), entry)
        if batch.is_batch(ins.callee):
            return self._batch(fn, ins, defs)
        if contexts.is_context_call(ins.callee):
            return self.contexts.lower(fn, ins, defs, self.derivs.global_shadows,
                                       self.info.global_types)
        if "__enzyme_virtualreverse" in ins.callee:
            return self._virtual_reverse(fn, ins)
        if not is_autodiff(ins.callee):
            raise ADError(describe(fn.name, ins.text, self.info.locations.where(ins.dbg),
                                   f"unknown Enzyme entry point {ins.callee.lstrip('@')}"))
        return self.calls.call_derivative(self.reader.read(fn, ins, defs))
