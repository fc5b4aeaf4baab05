"""The Enzyme C API: finding ``__enzyme_autodiff`` requests, reading their activity markers,
and rewriting each call into a call of the synthesized derivative.

Conventions, as Enzyme's: any callee whose name contains ``__enzyme_autodiff``; the first
argument is the function; markers ``enzyme_dup`` (value, shadow), ``enzyme_dupnoneed``,
``enzyme_const`` and ``enzyme_out`` arrive as loads of those globals or as ``metadata
!"enzyme_dup"``; without a marker, floats are ``out``, integers ``const`` and pointers ``dup``.
The call returns the adjoint of the one ``out`` argument, or a struct of them, converted to the
return type the program declared; shadows are accumulated into (+=).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from gradlink.ad import bypass, custom, rules, split, tape
from gradlink.ad.derivative import CalleeDerivative, Derivative, Signature
from gradlink.ad.errors import ADError, DebugLocations, describe
from gradlink.ad.forward import ForwardCallee, ForwardSynthesis
from gradlink.ad.reverse import ReverseSynthesis
from gradlink.analysis import activity, cfg, typeinfo
from gradlink.analysis.activity import Arg
from gradlink.ir.model import Function, Instr, Param, Value
from gradlink.ir.parse import (
    ParseError,
    attribute_groups,
    function_texts,
    parse_function,
    parse_type,
    struct_types,
)
from gradlink.ir.printer import label_ref
from gradlink.ir.types import PTR, Type

MARKERS = {"enzyme_dup", "enzyme_dupnoneed", "enzyme_const", "enzyme_out"}
SPLIT_MARKERS = {"enzyme_allocated", "enzyme_tape"}
# Hints before an argument's marker: enzyme_nocache promises the argument's memory does not
# change between the forward and the reverse sweep; gradlink decides caching itself.
MODIFIERS = {"enzyme_nocache"}
_MARKER_GLOBAL = re.compile(r"^@\"?(enzyme_[A-Za-z0-9_]+)\"?$")
_SRET = re.compile(r"__enzyme_[A-Za-z0-9_]*[^(]*\(ptr [^,]*?sret\(([^)]*)\)")
_MD_TUPLE = re.compile(r"^(!\d+) = (?:distinct )?!\{(.*)\}\s*$", re.M)
_EXTERNAL_MARKER = re.compile(r'^(@"?enzyme_(?:dup|dupnoneed|const|out|allocated|tape)"?) = external (?:dso_local )?global i32(.*)$', re.M)


def is_autodiff(callee: str) -> bool:
    return "__enzyme_autodiff" in callee


def is_fwddiff(callee: str) -> bool:
    return "__enzyme_fwddiff" in callee


SPLIT_ENTRIES = ("__enzyme_augmentfwd", "__enzyme_reverse", "__enzyme_augmentsize")


def split_entry(callee: str) -> str | None:
    return next((e for e in SPLIT_ENTRIES if e in callee), None)


def has_requests(module_text: str) -> bool:
    return any(e in module_text for e in ("__enzyme_autodiff", "__enzyme_fwddiff", *SPLIT_ENTRIES))


@dataclass
class Request:
    caller: Function
    call: Instr
    target: str
    sig: Signature
    args: list[Value]                 # the values passed to the derivative, in its order
    prologue: list[str]               # conversions of promoted variadic arguments
    sret: tuple[Value, Type] | None = None   # where a struct result is returned in memory
    tape: Value | None = None         # split mode: the tape object (or caller memory for it)
    primal_return: bool = False       # enzyme_primal_return: {primal, tangent} (forward mode)


class Differentiator:
    def __init__(self, module_text: str, hazards: bypass.Hazards | None = None) -> None:
        self.text = module_text
        self.fns = function_texts(module_text)
        self.locations = DebugLocations(module_text)
        self.attr_groups = attribute_groups(module_text)
        self.structs = struct_types(module_text)
        self.metadata = {m.group(1): m.group(2) for m in _MD_TUPLE.finditer(module_text)}
        self.derivatives: dict[tuple[str, str], Derivative] = {}
        self.pairs: dict[tuple[str, str], CalleeDerivative] = {}
        self.split_functions: list[Derivative] = []
        self.counter = 0
        self.split_wrappers: dict[str, str] = {}
        self.registry = custom.read_registry(module_text)
        self.unready = _reaching_requests(self.fns)
        self.deferred = 0
        self.custom_wrappers: dict[str, str] = {}
        self.custom_tape_types: set[Type] = set()
        self.parsed: dict[str, Function] = {}
        self._address_taken: set[str] | None = None
        self.hazards = hazards or bypass.Hazards()
        self._bypass: bypass.BypassCheck | None = None

    def differentiated(self, name: str) -> Function:
        """The function whose body is about to be differentiated, checked for inlined copies
        of registered functions (gradlink/ad/bypass.py)."""
        fn = self.function(name)
        if self.hazards.items:
            if self._bypass is None:
                dbg = {h.function: self.function(h.function).dbg for h in self.hazards.items
                       if h.debug and h.function in self.fns}
                self._bypass = bypass.BypassCheck(self.hazards, self.locations, dbg)
            self._bypass.check(fn)
        return fn

    def function(self, name: str) -> Function:
        if name not in self.parsed:
            try:
                self.parsed[name] = parse_function(self.fns[name])
            except ParseError as e:
                raise ADError(f"cannot read the IR of {name.lstrip('@')}: {e}") from None
        return self.parsed[name]

    # -- requests ------------------------------------------------------------------------------
    def run(self) -> str:
        like, inactive = self.registry.function_like, self.registry.inactive_functions
        try:
            with rules.overlay(like, inactive, self.registry.inactive_globals):
                return self._run()
        except ValueError as e:
            raise ADError(str(e)) from None

    def _run(self) -> str:
        new_texts: dict[str, str] = {}
        for name, text in list(self.fns.items()):   # requests may add calling wrappers
            if "__enzyme_" in text:
                new_texts[name] = self._rewrite_caller(name, text)
        out = self.text
        for name, text in new_texts.items():
            out = out.replace(self.fns[name], text)
        out = _EXTERNAL_MARKER.sub(r"\1 = weak global i32 0\2", out)
        return out + self._appendix(out)

    def _rewrite_caller(self, name: str, text: str) -> str:
        caller = self.function(name)
        defs = caller.definitions()
        lines = text.splitlines(keepends=True)
        calls = [i for i in caller.instructions()
                 if i.opcode in ("call", "invoke") and "__enzyme_" in i.callee]
        rewritten: list[tuple[int, Instr]] = []
        k = 0
        for idx, line in enumerate(lines):
            if "__enzyme_" not in line or not re.search(r"\b(?:call|invoke)\b", line):
                continue
            ins = calls[k]
            k += 1
            if ins.opcode == "invoke":
                self._check_invoke(caller, ins)
            rewritten.append((idx, ins))
            fi = 1 if _SRET.search(ins.text) and len(ins.operands) > 1 else 0
            target = ins.operands[fi].ref if len(ins.operands) > fi else ""
            merged = self._merged_targets(ins, fi, defs)
            if target in self.unready or any(t in self.unready for t in merged):
                self.deferred += 1            # its body still asks for derivatives: next round
                rewritten.pop()               # stays as it is (an invoke stays an invoke)
                continue
            if merged:
                lines[idx] = self._merged_call(caller, ins, fi, defs, merged)
                continue
            if is_fwddiff(ins.callee):
                req = self._request(caller, ins, defs, forward=True)
                lines[idx] = self._call_forward(req)
                continue
            entry = split_entry(ins.callee)
            if entry is not None:
                req = self._request(caller, ins, defs, split=entry)
                lines[idx] = self._call_split(req, entry)
                continue
            if not is_autodiff(ins.callee):
                raise ADError(describe(name, ins.text, self.locations.where(ins.dbg),
                                       f"unknown Enzyme entry point {ins.callee.lstrip('@')}"))
            req = self._request(caller, ins, defs)
            lines[idx] = self._call_derivative(req)
        for idx, ins in rewritten:
            lines[idx] = _with_location(lines[idx], ins.dbg)
            if ins.opcode == "invoke" and ins.targets:
                # a request in C++ code with exceptions is an invoke: the derivative does not
                # throw (an exception in it stops the program), so it continues to the normal
                # destination; the landing pad loses this predecessor
                lines[idx] += f"  br label %{label_ref(ins.targets[0])}\n"
                nxt = idx + 1
                if nxt < len(lines) and lines[nxt].strip().startswith("to label"):
                    lines[nxt] = ""
        return "".join(lines)

    def _check_invoke(self, caller: Function, ins: Instr) -> None:
        """A request's invoke can become a call and a branch unless the landing pad's phis
        name this block (they would lose an incoming edge they must list)."""
        block = next(b for b in caller.blocks if ins in b.instrs)
        pad = next((b for b in caller.blocks if b.label == ins.unwind), None)
        if pad is not None and any(i.opcode == "phi" and any(lbl == block.label
                                                             for _, lbl in i.incoming)
                                   for i in pad.instrs):
            raise ADError(describe(caller.name, ins.text, self.locations.where(ins.dbg),
                                   "a request that may throw (an invoke) whose landing pad "
                                   "merges values by where they come from is not supported; "
                                   "declare the Enzyme function noexcept"))

    def _merged_targets(self, ins: Instr, fi: int, defs: dict[str, Instr]) -> list[str]:
        """The functions of a request whose function operand is a phi or select of them: the
        compiler merges `if (c) __enzyme_autodiff(f1, ...) else __enzyme_autodiff(f2, ...)`
        into one call on phi [f1, f2]. Empty for an ordinary request."""
        if len(ins.operands) <= fi or not ins.operands[fi].is_local:
            return []
        out: list[str] = []
        todo, seen = [ins.operands[fi]], set()
        while todo:
            v = todo.pop()
            if v.is_global:
                if v.ref not in out:
                    out.append(v.ref)
                continue
            d = defs.get(v.ref)
            if d is None or v.ref in seen or d.opcode not in ("phi", "select"):
                return []
            seen.add(v.ref)
            todo.extend([x for x, _ in d.incoming] if d.opcode == "phi" else d.operands[1:])
        return out if len(out) > 1 else []

    def _merged_call(self, caller: Function, ins: Instr, fi: int, defs: dict[str, Instr],
                     targets: list[str]) -> str:
        """One request on several functions: each one's derivative, the one to call chosen at
        run time by comparing the function operand with each target (a chain of selects)."""
        forward = is_fwddiff(ins.callee)
        if not forward and not is_autodiff(ins.callee):
            raise ADError(describe(caller.name, ins.text, self.locations.where(ins.dbg),
                                   f"{ins.callee.lstrip('@')} of a function chosen at run time is "
                                   "not supported (only __enzyme_autodiff and __enzyme_fwddiff)"))
        fptr = ins.operands[fi]
        texts, names = [], []
        for t in targets:
            one = replace(ins, operands=[*ins.operands[:fi], Value(fptr.type, t),
                                         *ins.operands[fi + 1:]])
            req = self._request(caller, one, defs, forward=forward)
            if forward:
                texts.append(self._call_forward(req))
                names.append(self.forward(t, req.sig, pair=False).name)
            else:
                texts.append(self._call_derivative(req))
                names.append(self.derivative(t, req.sig).name)
        self.counter += 1
        pick = f'%"gl.pick.{self.counter}"'
        shapes = {text.replace(f"{name}(", f"{pick}(") for text, name in zip(texts, names)}
        if len(shapes) != 1:
            raise ADError(describe(caller.name, ins.text, self.locations.where(ins.dbg),
                                   "the functions this request may differentiate ("
                                   + ", ".join(t.lstrip("@") for t in targets) + ") have "
                                   "derivatives of different signatures"))
        lines, chosen = [], names[-1]
        for j in range(len(targets) - 2, -1, -1):
            is_t = f'%"gl.pick.{self.counter}.is{j}"'
            sel = pick if j == 0 else f'%"gl.pick.{self.counter}.{j}"'
            lines.append(f"  {is_t} = icmp eq ptr {fptr.ref}, {targets[j]}")
            lines.append(f"  {sel} = select i1 {is_t}, ptr {names[j]}, ptr {chosen}")
            chosen = sel
        return "\n".join(lines) + "\n" + shapes.pop()

    def _request(self, caller: Function, ins: Instr, defs: dict[str, Instr],
                 forward: bool = False, split: str | None = None) -> Request:
        where = self.locations.where(ins.dbg)
        api = split or ("__enzyme_fwddiff" if forward else "__enzyme_autodiff")

        def fail(problem: str) -> ADError:
            return ADError(describe(caller.name, ins.text, where, problem))

        operands = list(ins.operands)
        sret = _SRET.search(ins.text)
        sret_ptr: tuple[Value, Type] | None = None
        if sret and operands and operands[0].is_local:   # large struct results come back in memory
            sret_ptr = (operands.pop(0), parse_type(sret.group(1)))
        if not operands or not operands[0].is_global:
            raise fail(f"the first argument of {api} must be a function (its address)")
        target = operands[0].ref
        if target not in self.fns:
            registered = self.registry.tangents if forward else self.registry.gradients
            if target not in registered:
                raise fail(f"{target.lstrip('@')} has no body in the LTO unit (an external "
                           "function or one in a native object): nothing to differentiate")
            target = self._calling_wrapper(target)  # its registered (or precompiled) derivative
        fn = self.function(target)
        if split == "__enzyme_augmentsize":        # markers only: the tape object's size is fixed
            return Request(caller, ins, target, Signature([], False), [], [])
        items: list[tuple[str | None, Value]] = []
        for v in operands[1:]:
            marker = self._marker(v, defs)
            items.append((marker, v))
        tape_mem: Value | None = None
        dret: Value | None = None
        width = 1
        primal_return = any(m == "enzyme_primal_return" for m, _ in items)
        if primal_return:
            if not forward:
                raise fail("enzyme_primal_return is supported in forward mode only "
                           "(__enzyme_fwddiff)")
            items = [(m, v) for m, v in items if m != "enzyme_primal_return"]
        if forward:
            for j, (marker, _) in enumerate(items):
                if marker == "enzyme_width":
                    if j + 1 >= len(items) or not items[j + 1][1].ref.isdigit():
                        raise fail("enzyme_width must be followed by a constant number of lanes")
                    width = int(items[j + 1][1].ref)
                    if not 1 <= width <= 64:
                        raise fail(f"enzyme_width {width}: between 1 and 64 lanes are supported")
                    items = items[:j] + items[j + 2:]
                    break
        if split is not None:
            kept: list[tuple[str | None, Value]] = []
            j = 0
            while j < len(items):                 # enzyme_allocated N / enzyme_tape p
                marker, v = items[j]
                if marker in ("enzyme_allocated", "enzyme_tape"):
                    if j + 1 >= len(items):
                        raise fail(f"{marker} is not followed by a value")
                    if marker == "enzyme_tape":
                        tape_mem = items[j + 1][1]
                    j += 2
                    continue
                kept.append(items[j])
                j += 1
            items = kept
            if split == "__enzyme_reverse":
                if tape_mem is None:
                    if not items:
                        raise fail("__enzyme_reverse needs the tape as its last argument")
                    tape_mem = items.pop()[1]
                if fn.ret.is_float:
                    if not items:
                        raise fail("__enzyme_reverse needs the differential return before the tape")
                    dret = items.pop()[1]
        kinds: list[Arg] = []
        args: list[Value] = []
        prologue: list[str] = []
        i = 0
        for p in fn.params:
            if i >= len(items):
                raise fail(f"wrong argument count: {target.lstrip('@')} takes {len(fn.params)} "
                           f"argument(s), the call passes fewer")
            marker, v = items[i]
            while marker in MODIFIERS and i + 1 < len(items):
                i += 1                    # a hint about the argument that follows
                marker, v = items[i]
            if marker is not None:
                if marker not in MARKERS:
                    raise fail(f"unknown activity marker {marker}")
                i += 1
                if i >= len(items):
                    raise fail(f"{marker} is not followed by a value")
                _, v = items[i]
                kind = Arg(marker[len("enzyme_"):])
            else:
                active = Arg.DUP if forward else Arg.OUT
                kind = active if p.type.is_float else (Arg.DUP if p.type.is_ptr else Arg.CONST)
            i += 1
            if kind is Arg.OUT and forward:
                raise fail(f"enzyme_out for parameter {p.name}: forward mode takes a tangent "
                           "(enzyme_dup value, tangent)")
            if kind is Arg.OUT and not p.type.is_float:
                raise fail(f"enzyme_out for parameter {p.name} of type {p.type}: only floating "
                           "point values can be active scalars")
            args.append(v if v.type == p.type else self._coerce(v, p.type, fail, prologue))
            if kind.has_shadow:
                if not p.type.is_ptr and not (forward and p.type.is_float):
                    raise fail(f"enzyme_{kind} for parameter {p.name} of type {p.type}: reverse "
                               "mode needs a pointer to hold the shadow")
                for _lane in range(width):
                    if i >= len(items) or items[i][0] is not None:
                        raise fail(f"enzyme_{kind} for parameter {p.name} needs "
                                   + ("a shadow argument" if width == 1 else
                                      f"{width} shadow arguments (one per lane)"))
                    shadow = Value(items[i][1].type, items[i][1].ref)
                    if forward and p.type.is_float and shadow.type != p.type:
                        shadow = self._coerce(shadow, p.type, fail, prologue)
                    args.append(shadow)
                    i += 1
            kinds.append(kind)
        if i != len(items):
            raise fail(f"wrong argument count: {target.lstrip('@')} takes {len(fn.params)} "
                       f"argument(s), the call passes {len(items) - i} more")
        sig = Signature(kinds, fn.ret.is_float, width)
        if dret is not None:
            if dret.type != fn.ret:
                dret = self._coerce(dret, fn.ret, fail, prologue)
            args.append(dret)
        if primal_return and (width != 1 or not fn.ret.is_float):
            raise fail("enzyme_primal_return needs one lane and a function with a "
                       "floating-point result")
        return Request(caller, ins, target, sig, args, prologue, sret_ptr, tape_mem,
                       primal_return)

    def _coerce(self, v: Value, to: Type, fail, prologue: list[str]) -> Value:  # type: ignore[no-untyped-def]
        """C passes float through '...' as double, and char/short as int: convert back."""
        if v.type.kind == "float" and to.kind == "float":
            op = "fptrunc" if v.type.bits > to.bits else "fpext"
        elif v.type.kind == "int" and to.kind == "int":
            op = "trunc" if v.type.bits > to.bits else "sext"
        else:
            raise fail(f"argument {v.ref} of type {v.type} does not match the parameter type {to}")
        self.counter += 1
        name = f'%"gl.arg.{self.counter}"'
        prologue.append(f"  {name} = {op} {v} to {to}\n")
        return Value(to, name)

    def _calling_wrapper(self, fn: str) -> str:
        """A function that only calls ``fn``: a request on a function without a body whose
        derivative is registered (a library's precompiled one) differentiates this, and the
        call inside uses the registration."""
        name = f'@"gl.calls.{fn.lstrip("@").strip(chr(34))}"'
        if name not in self.fns:
            ret, params = custom.signature(self.text, fn)
            plist = ", ".join(f"{t} %a{i}" for i, t in enumerate(params))
            call = f"call {ret} {fn}({plist})"
            body = [f"  %r = {call}", f"  ret {ret} %r"] if ret.kind != "void" else \
                [f"  {call}", "  ret void"]
            text = "\n".join([f"define internal {ret} {name}({plist}) {{", "entry:", *body, "}"])
            self.fns[name] = text
            self.custom_wrappers[name] = text + "\n"
        return name

    def _marker(self, v: Value, defs: dict[str, Instr]) -> str | None:
        if v.type.kind == "metadata":
            m = re.fullmatch(r'!"(enzyme_[A-Za-z0-9_]+)"', v.ref)
            return m.group(1) if m else None
        if not v.is_local:
            return None
        d = defs.get(v.ref)
        if d is None or d.opcode != "load" or not d.operands:
            return None
        m = _MARKER_GLOBAL.match(d.operands[0].ref)
        return m.group(1) if m else None

    # -- synthesis and rewriting -------------------------------------------------------------
    def _existing(self, name: str) -> bool:
        """Defined by an earlier round of this link (nested derivatives). LLVM prints names
        like gl.diffe.f without quotes, so both spellings are looked up."""
        return name in self.fns or name.replace('"', "") in self.fns

    def derivative(self, target: str, sig: Signature) -> Derivative:
        key = (target, sig.key())
        if key not in self.derivatives:
            name = f'@"gl.diffe.{target.lstrip("@").strip(chr(34))}.{sig.key()}"'
            if self._existing(name):
                fn = self.function(target)
                outs = [p.type for p, k in zip(fn.params, sig.args) if k == "out"]
                ret = None if not outs else outs[0] if len(outs) == 1 else \
                    Type("struct", fields=tuple(outs))
                self.derivatives[key] = Derivative(name, "", ret, outs)
                return self.derivatives[key]
            fn = self.differentiated(target)
            graph = cfg.build(fn)
            arg_act = {p.name: k for p, k in zip(fn.params, sig.args)}
            act = activity.analyze(fn, arg_act, sig.active_return, rules.CALLEES,
                                   typeinfo.TypeAnalysis(fn, self.structs))
            name = f'@"gl.diffe.{target.lstrip("@").strip(chr(34))}.{sig.key()}"'
            synth = ReverseSynthesis(fn, sig, graph, act, self.locations.where,
                                     self._target_attrs(fn), callees=self.callee_pair,
                                     structs=self.structs, metadata=self.metadata,
                                     writes=self.writes, targets=self.indirect_targets)
            self.derivatives[key] = synth.run(name)
        return self.derivatives[key]

    def callee_pair(self, callee: str, sig: Signature) -> CalleeDerivative | None:
        """Augmented forward and reverse of a function the differentiated code calls; made once
        per signature (registered before synthesis, so recursion finds it)."""
        if callee in self.registry.gradients:
            return self._custom_pair(callee)
        if callee not in self.fns:
            self._only_other_mode(callee, "reverse")
            return None
        key = (callee, sig.key())
        if key in self.pairs:
            return self.pairs[key]
        fn = self.function(callee)
        if len(fn.params) != len(sig.args):
            raise ADError(f"cannot differentiate a variadic call of {callee.lstrip('@')}")
        base = callee.lstrip("@").strip('"')
        outs = [i for i, k in enumerate(sig.args) if k == "out"]
        out_types = [fn.params[i].type for i in outs]
        aug_name = f'@"gl.aug.{base}.{sig.key()}"'
        if self._existing(aug_name):
            ret0 = None if not outs else out_types[0] if len(outs) == 1 else \
                Type("struct", fields=tuple(out_types))
            pair0 = CalleeDerivative(aug_name, f'@"gl.rev.{base}.{sig.key()}"', ret0, outs,
                                     shadow_return=sig.shadow_return)
            self.pairs[key] = pair0
            return pair0
        ret: Type | None
        if not outs:
            ret = None
        elif len(outs) == 1:
            ret = out_types[0]
        else:
            ret = Type("struct", fields=tuple(out_types))
        pair = CalleeDerivative(f'@"gl.aug.{base}.{sig.key()}"', f'@"gl.rev.{base}.{sig.key()}"',
                                ret, outs, shadow_return=sig.shadow_return)
        self.pairs[key] = pair
        self.differentiated(callee)
        graph = cfg.build(fn)
        act = activity.analyze(fn, {p.name: k for p, k in zip(fn.params, sig.args)},
                               sig.active_return, rules.CALLEES,
                               typeinfo.TypeAnalysis(fn, self.structs))
        synth = ReverseSynthesis(fn, sig, graph, act, self.locations.where,
                                 self._target_attrs(fn), callees=self.callee_pair, split=True,
                                 structs=self.structs, metadata=self.metadata, writes=self.writes,
                                 targets=self.indirect_targets)
        self.split_functions.extend(synth.run_split(pair.aug, pair.rev))
        return pair

    def indirect_targets(self, ins: Instr) -> list[str]:
        """The functions an indirect call may reach: those of the module whose address is taken
        (named anywhere but as a callee) with the call's parameter and result types."""
        if self._address_taken is None:
            taken = set()
            for m in re.finditer(r'(@"[^"]+"|@[-a-zA-Z$._0-9]+)(?![-a-zA-Z$._0-9"])(?!\s*\()',
                                 self.text):
                if m.group(1) in self.fns:
                    taken.add(m.group(1))
            self._address_taken = taken
        out = []
        for name in sorted(self._address_taken):
            fn = self.function(name)
            if [p.type for p in fn.params] == [v.type for v in ins.operands] and \
                    str(fn.ret) == str(ins.type or "void") and "..." not in fn.header:
                out.append(name)
        return out

    def writes(self, callee: str) -> set[int] | None:
        """The parameters a function of the module may write through, from LLVM's attribute
        inference: none for ``memory(read)``; for ``memory(argmem: readwrite)`` those not
        marked readonly/readnone; None (anything) otherwise, or for registered derivatives."""
        if callee not in self.fns or callee in self.registry.gradients:
            return None
        fn = self.function(callee)
        for group in re.findall(r"#\d+", fn.attrs):
            m = re.search(r"\bmemory\(([^)]*)\)", self.attr_groups.get(group, ""))
            if m:
                return memory_written_params(m.group(1), fn)
        return None

    def _target_attrs(self, fn: Function) -> str:
        """Target attributes (and the personality, for bodies with landing pads) of fn."""
        out = []
        m = re.search(r"\bpersonality (ptr (?:@\"[^\"]*\"|@[-a-zA-Z$._0-9]+))", fn.header)
        personality = f"personality {m.group(1)}" if m else ""
        for group in re.findall(r"#\d+", fn.attrs):
            body = self.attr_groups.get(group, "")
            for key in ("target-cpu", "target-features", "tune-cpu"):
                m = re.search(rf'"{key}"="[^"]*"', body)
                if m:
                    out.append(m.group(0))
        if personality:
            out.append(personality)        # after the attributes, as LLVM's grammar wants
        return " ".join(out) + (" " if out else "")

    def _call_derivative(self, req: Request) -> str:
        d = self.derivative(req.target, req.sig)
        call = req.call
        args = list(req.args)
        prologue = "".join(req.prologue)
        fn = self.function(req.target)
        if req.sig.active_return:
            args.append(Value(fn.ret, "1.0" if fn.ret.kind == "float" else "splat (double 1.0)"))
        arglist = ", ".join(str(a) for a in args)
        ret = str(d.ret) if d.ret is not None else "void"
        want = call.type                                   # what the program declared
        if req.sret is not None:
            return prologue + self._store_sret(d.name, d.ret, d.out_types, arglist, req.sret, call)
        if call.name is None or want is None:
            return prologue + f"  call {ret} {d.name}({arglist})\n"
        if d.ret is None:
            if not want.is_float:
                raise ADError(f"__enzyme_autodiff has no active argument to return, but the call "
                              f"is declared to return {want}\n>>> instruction: {call.text}")
            zero = "zeroinitializer" if want.kind == "vector" else "0.0"
            return (prologue + f"  call void {d.name}({arglist})\n"
                    f"  {call.name} = fadd {want} {zero}, {zero}\n")
        if d.ret == want:
            return prologue + f"  {call.name} = call {ret} {d.name}({arglist})\n"
        tmp = f'%"gl.adjoints.{call.name.strip("%").strip(chr(34))}"'
        lines = [f"  {tmp} = call {ret} {d.name}({arglist})"]
        lines += _convert(Value(d.ret, tmp), d.out_types, want, call.name, call)
        return prologue + "\n".join(lines) + "\n"

    def _store_sret(self, callee: str, ret: Type | None, out_types: list[Type], arglist: str,
                    sret: tuple[Value, Type], call: Instr) -> str:
        """Store the derivatives into the caller's result struct, field by field."""
        ptr, st = sret
        st = self.structs.get(st.name, st) if st.kind == "named" else st
        if st.kind != "struct" or len(st.fields) < len(out_types):
            raise ADError(f"the derivative returns {len(out_types)} value(s), but the "
                          f"result struct {st} has fewer fields\n>>> instruction: {call.text}")
        self.counter += 1
        tmp = f'%"gl.sret.{self.counter}"'
        lines = [f"  {tmp} = call {ret} {callee}({arglist})"]
        for i, t in enumerate(out_types):
            if st.fields[i] != t:
                raise ADError(f"adjoint {i} has type {t}, but field {i} of the result struct is "
                              f"{st.fields[i]}\n>>> instruction: {call.text}")
            el = f'%"gl.sret.{self.counter}.{i}"'
            at = f'%"gl.sret.{self.counter}.p{i}"'
            src = tmp if len(out_types) == 1 else el
            if len(out_types) > 1:
                lines.append(f"  {el} = extractvalue {ret} {tmp}, {i}")
            off = typeinfo.field_offset(st, i, self.structs)
            lines.append(f"  {at} = getelementptr i8, ptr {ptr.ref}, i64 {off}")
            lines.append(f"  store {t} {src}, ptr {at}")
        return "\n".join(lines) + "\n"

    def _only_other_mode(self, callee: str, mode: str) -> None:
        """A function without a body whose registration (often a library's precompiled
        derivative) serves the other mode only: say so, naming where it comes from."""
        other = self.registry.gradients if mode == "forward" else self.registry.tangents
        if callee not in other:
            return
        source = self.registry.by_kind.get(
            ("register_gradient" if mode == "forward" else "register_derivative", callee),
            ("a registration", ()))[0]
        given = "reverse" if mode == "forward" else "forward"
        raise ADError(f"{callee.lstrip('@')} has no body in the LTO unit, and {source} gives "
                      f"its {given}-mode derivative only; {mode} mode needs its bitcode (a fat "
                      f"library that is not stripped) or a {mode} derivative (gradlink fat build "
                      f"--export-derivatives {callee.lstrip('@')}:{mode})")

    # -- custom derivatives ------------------------------------------------------------------------
    def _custom_pair(self, fn: str) -> CalleeDerivative:
        """The user's augmented forward and reverse, adapted to gradlink's tape protocol: every
        floating-point argument is treated as active, every pointer as shadowed."""
        key = (fn, "custom")
        if key in self.pairs:
            return self.pairs[key]
        ret, params = custom.signature(self.text, fn)
        outs = [i for i, t in enumerate(params) if t.is_float]
        out_types = [params[i] for i in outs]
        rev_ret: Type | None = None if not outs else (
            out_types[0] if len(outs) == 1 else Type("struct", fields=tuple(out_types)))
        base = fn.lstrip("@").strip('"')
        names = (f'@"gl.custom.aug.{base}"', f'@"gl.custom.rev.{base}"')
        aug, rev = self.registry.gradients[fn]
        tape_t = custom.tape_type(self.text, fn, aug) or PTR
        aug_text, rev_text = custom.gradient_wrappers(fn, aug, rev, params, ret, self.text, names,
                                                      rev_ret, tape.push_fn(tape_t),
                                                      tape.pop_fn(tape_t))
        self.custom_wrappers[names[0]] = aug_text
        self.custom_wrappers[names[1]] = rev_text
        self.custom_tape_types.add(tape_t)
        pair = CalleeDerivative(names[0], names[1], rev_ret, outs)
        pair.custom_signature = Signature(custom.default_activity(params, "reverse"), ret.is_float)
        self.pairs[key] = pair
        return pair

    def _custom_tangent(self, fn: str, sig: Signature) -> ForwardCallee:
        kinds = [k if k in ("dup", "dupnoneed") else "const" for k in sig.args]
        key = "".join("d" if k != "const" else "c" for k in kinds)
        name = f'@"gl.custom.fwd.{fn.lstrip("@").strip(chr(34))}.{key}"'
        ret, params = custom.signature(self.text, fn)
        if name not in self.custom_wrappers:
            self.custom_wrappers[name] = custom.tangent_wrapper(
                fn, self.registry.tangents[fn], params, ret, self.text, name, kinds)
        return ForwardCallee(name, ret.kind != "void")

    # -- split mode ------------------------------------------------------------------------------
    def _call_split(self, req: Request, entry: str) -> str:
        call = req.call
        prologue = "".join(req.prologue)
        if entry == "__enzyme_augmentsize":
            if call.name is None or call.type is None:
                return prologue
            if call.type.kind != "int":
                raise ADError(f"__enzyme_augmentsize is declared to return {call.type}, not an "
                              f"integer\n>>> instruction: {call.text}")
            return prologue + f"  {call.name} = add {call.type} {split.TAPE_OBJECT_SIZE}, 0\n"
        pair = self.callee_pair(req.target, req.sig)
        assert pair is not None
        fn = self.function(req.target)
        base = req.target.lstrip("@").strip('"')
        params = [Param(a.type, f"%a{k}") for k, a in enumerate(req.args)]
        if entry == "__enzyme_augmentfwd":
            shape = self._augment_shape(call, fn.ret, req.tape is not None)
            wrap = f'@"gl.augwrap.{base}.{req.sig.key()}.{shape}"'
            self.split_wrappers[wrap] = split.augment_wrapper(wrap, pair.aug, fn.ret, params,
                                                            shape)
            mem = str(req.tape) if req.tape is not None else "ptr null"
            argl = ", ".join([*(str(a) for a in req.args), mem])
            rtype = "ptr" if shape == "tape" else str(call.type)
            if call.name is None or call.type is None:
                return prologue + f"  call {rtype} {wrap}({argl})\n"
            return prologue + f"  {call.name} = call {rtype} {wrap}({argl})\n"
        # __enzyme_reverse
        if req.tape is None:
            raise ADError(f"__enzyme_reverse without a tape\n>>> instruction: {call.text}")
        ret = str(pair.ret) if pair.ret is not None else "void"
        wrap = f'@"gl.revwrap.{base}.{req.sig.key()}"'
        self.split_wrappers[wrap] = split.reverse_wrapper(wrap, pair.rev, pair.ret, params)
        argl = ", ".join([*(str(a) for a in req.args), str(req.tape)])
        if call.name is None or call.type is None or pair.ret is None:
            line = f"  call {ret} {wrap}({argl})\n"
            if call.name is not None and call.type is not None:
                line += _zero_result(call.name, call.type)
            return prologue + line
        if pair.ret == call.type:
            return prologue + f"  {call.name} = call {ret} {wrap}({argl})\n"
        self.counter += 1
        tmp = f'%"gl.adjoints.split.{self.counter}"'
        outs = [fn.params[i].type for i in pair.out_positions]
        lines = [f"  {tmp} = call {ret} {wrap}({argl})"]
        lines += _convert(Value(pair.ret, tmp), outs, call.type, call.name, call)
        return prologue + "\n".join(lines) + "\n"

    @staticmethod
    def _augment_shape(call: Instr, ret: Type, given: bool) -> str:
        """What __enzyme_augmentfwd returns, read from its declared type: the tape (a pointer),
        {tape, primal} (or {primal, tape}: the types tell the fields apart), or {primal} when
        the caller gave the tape memory (enzyme_tape)."""
        t = call.type
        if t is None or call.name is None or t.is_ptr:
            return "tape"
        if t.kind == "struct" and t.fields:
            if len(t.fields) == 2 and t.fields[0].is_ptr and t.fields[1] == ret:
                return "tape+primal"
            if len(t.fields) == 2 and t.fields[1].is_ptr and t.fields[0] == ret:
                return "primal+tape"             # a C struct {double x; void *tape;}
            if len(t.fields) == 1 and t.fields[0] == ret and given:
                return "primal"
        if t == ret and given:
            return "primal-scalar"
        raise ADError(f"__enzyme_augmentfwd returns the tape (a pointer), {{tape, primal}}, or "
                      f"{{primal}} with enzyme_tape; the call is declared to return {t}"
                      f"\n>>> instruction: {call.text}")

    # -- forward mode ----------------------------------------------------------------------------
    def forward(self, target: str, sig: Signature, pair: bool) -> Derivative:
        key = (target, sig.key() + ("_pair" if pair else "_fwd"))
        if key not in self.derivatives:
            fn = self.differentiated(target)
            kinds = {p.name: ("out" if k in ("dup", "dupnoneed") and p.type.is_float else k)
                     for p, k in zip(fn.params, sig.args)}
            act = activity.analyze(fn, kinds, sig.active_return, rules.CALLEES,
                                   typeinfo.TypeAnalysis(fn, self.structs))
            base = target.lstrip("@").strip('"')
            name = f'@"gl.{"fwdpair" if pair else "fwd"}.{base}.{sig.key()}"'
            if self._existing(name):
                self.derivatives[key] = Derivative(name, "", None, [])
                return self.derivatives[key]
            synth = ForwardSynthesis(fn, sig, act, self.locations.where, self._target_attrs(fn),
                                     callees=self.forward_callee, width=sig.width,
                                     targets=self.indirect_targets)
            self.derivatives[key] = Derivative(name, "", None, [])     # recursion finds the name
            self.derivatives[key] = synth.run(name, pair)
        return self.derivatives[key]

    def forward_callee(self, callee: str, sig: Signature) -> ForwardCallee | None:
        if callee in self.registry.tangents and sig.shadow_return:
            raise ADError(f"{callee.lstrip('@')} returns a pointer into active memory; its "
                          "registered tangent cannot return the pointer's shadow")
        if callee in self.registry.tangents:
            if sig.width != 1:
                raise ADError(f"the registered tangent of {callee.lstrip('@')} has one lane; "
                              f"enzyme_width {sig.width} cannot use it")
            return self._custom_tangent(callee, sig)
        if callee not in self.fns:
            self._only_other_mode(callee, "forward")
            return None
        fn = self.function(callee)
        if len(fn.params) != len(sig.args):
            raise ADError(f"cannot differentiate a variadic call of {callee.lstrip('@')}")
        d = self.forward(callee, sig, pair=True)
        return ForwardCallee(d.name, sig.active_return or sig.shadow_return)

    def _call_forward(self, req: Request) -> str:
        call = req.call
        fn = self.function(req.target)
        d = self.forward(req.target, req.sig, pair=req.primal_return)
        arglist = ", ".join(str(a) for a in req.args)
        prologue = "".join(req.prologue)
        if req.primal_return:
            return prologue + self._primal_and_tangent(req, d.name, fn.ret, arglist)
        ret = str(fn.ret) if req.sig.active_return else "void"
        if not req.sig.active_return:
            ret = str(fn.ret)
            if call.type is None or call.name is None:
                return prologue + f"  call {ret} {d.name}({arglist})\n"
            if not call.type.is_float:
                raise ADError(f"__enzyme_fwddiff of a function without a floating-point result, "
                              f"declared to return {call.type}\n>>> instruction: {call.text}")
            return (prologue + f"  call {ret} {d.name}({arglist})\n"
                    + _zero_result(call.name, call.type))
        want = call.type
        if req.sig.width > 1:
            ret = "{ " + ", ".join([str(fn.ret)] * req.sig.width) + " }"
        if req.sret is not None:
            return prologue + self._store_sret(d.name, parse_type(ret), [fn.ret] * req.sig.width,
                                               arglist, req.sret, call)
        if call.name is None or want is None:
            return prologue + f"  call {ret} {d.name}({arglist})\n"
        if str(want) == ret:
            return prologue + f"  {call.name} = call {ret} {d.name}({arglist})\n"
        if req.sig.width > 1:
            self.counter += 1
            tmp = f'%"gl.tangents.{self.counter}"'
            lines = [f"  {tmp} = call {ret} {d.name}({arglist})"]
            lines += _convert(Value(parse_type(ret), tmp), [fn.ret] * req.sig.width, want,
                              call.name, call)
            return prologue + "\n".join(lines) + "\n"
        self.counter += 1
        tmp = f'%"gl.tangent.{self.counter}"'
        lines = [f"  {tmp} = call {ret} {d.name}({arglist})"]
        lines += _convert(Value(fn.ret, tmp), [fn.ret], want, call.name, call)
        return prologue + "\n".join(lines) + "\n"

    def _primal_and_tangent(self, req: Request, name: str, ret: Type, arglist: str) -> str:
        """enzyme_primal_return: the forward derivative's {primal, tangent}, returned as the
        call is declared (a two-field struct of the result type, by value or through sret)."""
        call = req.call
        pair = Type("struct", fields=(ret, ret))
        if req.sret is not None:
            return self._store_sret(name, pair, [ret, ret], arglist, req.sret, call)
        if call.name is None or call.type is None:
            return f"  call {pair} {name}({arglist})\n"
        if call.type == pair:
            return f"  {call.name} = call {pair} {name}({arglist})\n"
        self.counter += 1
        tmp = f'%"gl.pair.{self.counter}"'
        lines = [f"  {tmp} = call {pair} {name}({arglist})"]
        lines += _convert(Value(pair, tmp), [ret, ret], call.type, call.name, call)
        return "\n".join(lines) + "\n"

    def _appendix(self, module_text: str) -> str:
        parts = ["\n"]
        types: set[Type] = set()
        decls: dict[str, str] = {}
        helpers: dict[str, str] = {}
        ttypes: set[Type] = set()
        for d in [*self.derivatives.values(), *self.split_functions]:
            if d.text:
                parts.append(d.text + "\n")
            types |= d.tape_types
            ttypes |= d.tangent_tape_types
            decls.update(d.declarations)
            helpers.update(d.helpers)

        def new(name: str) -> bool:
            """Not defined yet (an earlier round of nested derivatives may have added it)."""
            return re.search(rf"^(define[^\n]*{re.escape(name)}\(|{re.escape(name)} = )",
                             module_text, re.M) is None

        parts.extend(t for n, t in helpers.items() if new(n))
        parts.extend(t for n, t in self.split_wrappers.items() if new(n))
        parts.extend(t for n, t in self.custom_wrappers.items() if new(n))
        types |= self.custom_tape_types
        if self.split_wrappers:
            decls.update(split.DECLS)
        if (types or self.split_wrappers) and '@"gl.tape.base" =' not in module_text:
            parts.append(tape.runtime())
        if types or self.split_wrappers or ttypes:
            decls.update(tape.RUNTIME_DECLS)
        for t in sorted(types, key=str):
            if new(tape.push_fn(t)):
                parts.append(tape.accessors(t))
        if ttypes and f'@"{tape.TANGENT_PREFIX}.base" =' not in module_text:
            parts.append(tape.runtime(tape.TANGENT_PREFIX))
        for t in sorted(ttypes, key=str):
            if new(tape.push_fn(t, "tpush")):
                parts.append(tape.accessors(t, tangent=True))
        for name, line in decls.items():
            if not re.search(rf"^(declare|define)[^\n]*{re.escape(name)}\(", module_text, re.M):
                parts.append(line + "\n")
        return "".join(parts)


def _with_location(text: str, dbg: str | None) -> str:
    """The request's source location on the calls that replace it: a call inlined later into a
    function with debug info needs one (LLVM's verifier), and it is the right line."""
    if dbg is None:
        return text
    out = []
    for line in text.splitlines(keepends=True):
        if re.search(r"\bcall\b", line) and "!dbg" not in line:
            line = line.rstrip("\n") + f", !dbg {dbg}\n"
        out.append(line)
    return "".join(out)


def _reaching_requests(fns: dict[str, str]) -> set[str]:
    """Functions whose body, or a callee's, still calls an Enzyme entry point."""
    callees = {name: set(re.findall(r"\bcall\b[^@\n]*(@\"[^\"]+\"|@[-a-zA-Z$._0-9]+)\(", text))
               for name, text in fns.items()}
    reach = {name for name, text in fns.items() if re.search(r"@__enzyme_\w+\(", text)}
    changed = True
    while changed:
        changed = False
        for name, cs in callees.items():
            if name not in reach and cs & reach:
                reach.add(name)
                changed = True
    return reach


def _zero_result(name: str, t: Type) -> str:
    """A request with nothing to return defines its result as zero (of the declared type)."""
    if t.kind == "float":
        return f"  {name} = fadd {t} 0.0, 0.0\n"
    if t.kind == "int":
        return f"  {name} = add {t} 0, 0\n"
    if t.is_ptr:
        return f"  {name} = getelementptr i8, ptr null, i64 0\n"
    return f"  {name} = select i1 true, {t} zeroinitializer, {t} zeroinitializer\n"


def _convert(v: Value, outs: list[Type], want: Type, result: str, call: Instr) -> list[str]:
    """Turn the derivative's adjoint(s) into the type the program declared for the call."""
    if len(outs) == 1:
        src = outs[0]
        if src.kind == "float" and want.kind == "float":
            op = "fpext" if src.bits < want.bits else "fptrunc"
            return [f"  {result} = {op} {src} {v.ref} to {want}"]
        if want.kind == "struct" and len(want.fields) >= 1 and want.fields[0] == src:
            return [f"  {result} = insertvalue {want} zeroinitializer, {src} {v.ref}, 0"]
    elif want.kind == "vector" and want.count == len(outs) and all(t == want.elem for t in outs):
        lines, agg = [], "poison"                  # the x86-64 ABI returns {float, float} so
        base = result.strip("%").strip(chr(34))
        for i in range(len(outs)):
            el = f'%"gl.el.{i}.{base}"'
            lines.append(f"  {el} = extractvalue {v.type} {v.ref}, {i}")
            nxt = result if i == len(outs) - 1 else f'%"gl.vec.{i}.{base}"'
            lines.append(f"  {nxt} = insertelement {want} {agg}, {outs[i]} {el}, i64 {i}")
            agg = nxt
        return lines
    elif want.kind == "struct" and len(want.fields) >= len(outs):
        lines, agg = [], "zeroinitializer"
        for i, t in enumerate(outs):
            el = f'%"gl.el.{i}.{result.strip("%").strip(chr(34))}"'
            lines.append(f"  {el} = extractvalue {v.type} {v.ref}, {i}")
            if want.fields[i] != t:
                if not (t.kind == "float" and want.fields[i].kind == "float"):
                    break
                conv = f'%"gl.cv.{i}.{result.strip("%").strip(chr(34))}"'
                op = "fpext" if t.bits < want.fields[i].bits else "fptrunc"
                lines.append(f"  {conv} = {op} {t} {el} to {want.fields[i]}")
                el = conv
            nxt = result if i == len(outs) - 1 else f'%"gl.agg.{i}.{result.strip("%").strip(chr(34))}"'
            lines.append(f"  {nxt} = insertvalue {want} {agg}, {want.fields[i]} {el}, {i}")
            agg = nxt
        else:
            return lines
    raise ADError(f"__enzyme_autodiff returns {len(outs)} adjoint(s) of type(s) "
                  f"{', '.join(map(str, outs)) or 'none'}, but the call is declared to return "
                  f"{want}\n>>> instruction: {call.text}")


def memory_written_params(spec: str, fn: Function) -> set[int] | None:
    """From the contents of a ``memory(...)`` attribute: which parameters fn may write through
    (inaccessible memory and errno aside), or None when it may write other memory too."""
    default = "none"                 # memory(argmem: readwrite): the rest is not accessed
    access = {}
    for item in (x.strip() for x in spec.split(",")):
        loc, colon, acc = item.partition(":")
        if colon:
            access[loc.strip()] = acc.strip()
        else:
            default = item
    if access.get("other", default) not in ("none", "read"):
        return None
    if access.get("argmem", default) in ("none", "read"):
        return set()
    return {i for i, p in enumerate(fn.params) if p.type.is_ptr and
            not re.search(r"\b(readonly|readnone)\b", p.attrs)}
