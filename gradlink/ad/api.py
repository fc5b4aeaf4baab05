"""The Enzyme C API of a link round: every ``__enzyme_autodiff`` / ``__enzyme_fwddiff`` /
split-mode request of the module rewritten into calls of synthesized derivatives, and the
module assembled with them.

The jobs live in their own modules: reading requests (requests.py), what the module holds
(module.py), making each derivative once (derivatives.py, the synthesis factory), the calls
that replace a request (calls.py) and their results (results.py), the module's assembly
(assembly.py). This one drives them over the callers.
"""

from __future__ import annotations

import re

from gradlink.ad import assembly, bypass, rules
from gradlink.ad.calls import CallRewriter
from gradlink.ad.derivative import Derivative
from gradlink.ad.derivatives import Derivatives
from gradlink.ad.errors import ADError, describe
from gradlink.ad.module import ModuleInfo
from gradlink.ad.requests import SRET, RequestReader, has_requests, is_autodiff, is_fwddiff, split_entry
from gradlink.ir.model import Function, Instr

__all__ = ["Differentiator", "has_requests"]


class Differentiator:
    def __init__(self, module_text: str, hazards: bypass.Hazards | None = None) -> None:
        self.info = ModuleInfo(module_text)
        reg = self.info.registry
        try:
            table = rules.RuleTable.with_registrations(reg.function_like, reg.inactive_functions,
                                                       reg.inactive_globals, reg.allocators,
                                                       reg.frees)
        except ValueError as e:
            raise ADError(str(e)) from None
        self.derivs = Derivatives(self.info, table, hazards)
        self.counter = 0
        self.reader = RequestReader(self.info, self.derivs.calling_wrapper,
                                    lambda kind: f'%"gl.{kind}.{self._tag()}"')
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
        new_texts: dict[str, str] = {}
        for name, text in list(self.info.fns.items()):   # requests may add calling wrappers
            if "__enzyme_" in text:
                new_texts[name] = self._rewrite_caller(name, text)
        d = self.derivs
        return assembly.assemble(self.info.text, self.info.fns, new_texts,
                                 [*d.derivatives.values(), *d.split_functions],
                                 self.calls.split_wrappers, d.custom_wrappers,
                                 d.custom_tape_types)

    def _rewrite_caller(self, name: str, text: str) -> str:
        """The caller's text with each request's line replaced by the instructions of its
        derivative call (printed, with the request's source location on the calls)."""
        caller = self.info.function(name)
        defs = caller.definitions()
        lines = text.splitlines(keepends=True)
        calls = [i for i in caller.instructions()
                 if i.opcode in ("call", "invoke") and "__enzyme_" in i.callee]
        k = 0
        for idx, line in enumerate(lines):
            if "__enzyme_" not in line or not re.search(r"\b(?:call|invoke)\b", line):
                continue
            ins = calls[k]
            k += 1
            if ins.opcode == "invoke":
                self.reader.check_invoke(caller, ins)
            fi = 1 if SRET.search(ins.text) and len(ins.operands) > 1 else 0
            target = ins.operands[fi].ref if len(ins.operands) > fi else ""
            merged = self.reader.merged_targets(ins, fi, defs)
            if target in self.unready or any(t in self.unready for t in merged):
                self.deferred += 1            # its body still asks for derivatives: next round
                continue                      # stays as it is (an invoke stays an invoke)
            new = self._replacement(caller, ins, fi, defs, merged)
            if ins.opcode == "invoke" and ins.targets:
                # a request in C++ code with exceptions is an invoke: the derivative does not
                # throw (an exception in it stops the program), so it continues to the normal
                # destination; the landing pad loses this predecessor
                new.append(Instr("br", targets=[ins.targets[0]]))
            lines[idx] = _printed(new, ins.dbg)
            if ins.opcode == "invoke" and ins.targets:
                nxt = idx + 1
                if nxt < len(lines) and lines[nxt].strip().startswith("to label"):
                    lines[nxt] = ""
        return "".join(lines)

    def _replacement(self, fn: Function, ins: Instr, fi: int, defs: dict[str, Instr],
                     merged: list[str]) -> list[Instr]:
        if merged:
            return self.calls.merged_call(fn, ins, fi, defs, merged)
        if is_fwddiff(ins.callee):
            return self.calls.call_forward(self.reader.read(fn, ins, defs, forward=True))
        entry = split_entry(ins.callee)
        if entry is not None:
            return self.calls.call_split(self.reader.read(fn, ins, defs, split=entry), entry)
        if not is_autodiff(ins.callee):
            raise ADError(describe(fn.name, ins.text, self.info.locations.where(ins.dbg),
                                   f"unknown Enzyme entry point {ins.callee.lstrip('@')}"))
        return self.calls.call_derivative(self.reader.read(fn, ins, defs))


def _printed(instrs: list[Instr], dbg: str | None) -> str:
    """The instructions as lines of the caller; the request's source location goes on the
    calls: a call inlined later into a function with debug info needs one (LLVM's verifier),
    and it is the right line."""
    out = []
    for ins in instrs:
        line = "  " + ins.print()
        if dbg is not None and ins.opcode == "call" and "!dbg" not in line:
            line += f", !dbg {dbg}"
        out.append(line + "\n")
    return "".join(out)
