"""Reading an Enzyme request: the entry point a call names, the function it differentiates,
its activity markers (``enzyme_dup`` value, shadow; ``enzyme_const``; ``enzyme_out``; ...) and
what the derivative call is given, in the derivative's order.

Conventions, as Enzyme's: any callee whose name contains ``__enzyme_autodiff``; the first
argument is the function; markers arrive as loads of the globals ``enzyme_dup`` ... or as
``metadata !"enzyme_dup"``; without a marker, floats are ``out``, integers ``const`` and
pointers ``dup``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from gradlink.ad.contexts import Contexts
from gradlink.ad.derivative import Signature
from gradlink.ad.errors import ADError, describe
from gradlink.ad.module import ModuleInfo
from gradlink.analysis.activity import Arg
from gradlink.ir.model import Function, Instr, Value
from gradlink.ir.parse import parse_type
from gradlink.ir.types import Type

MARKERS = {"enzyme_dup", "enzyme_dupnoneed", "enzyme_const", "enzyme_out"}
SPLIT_MARKERS = {"enzyme_allocated", "enzyme_tape"}
# Hints before an argument's marker: enzyme_nocache promises the argument's memory does not
# change between the forward and the reverse sweep; gradlink decides caching itself.
MODIFIERS = {"enzyme_nocache"}
SPLIT_ENTRIES = ("__enzyme_augmentfwd", "__enzyme_reverse", "__enzyme_augmentsize")
_MARKER_GLOBAL = re.compile(r"^@\"?(enzyme_[A-Za-z0-9_]+)\"?$")
SRET = re.compile(r"__enzyme_[A-Za-z0-9_]*[^(]*\(ptr [^,]*?sret\(([^)]*)\)")


# Enzyme calls that are not requests: __enzyme_iter is a value (synth.copy_primal),
# __enzyme_set_fixed_point a hint (assembly.lower_markers)
NOT_REQUESTS = ("__enzyme_iter", "__enzyme_set_fixed_point")


def is_request(callee: str) -> bool:
    """An Enzyme entry point a request calls."""
    return "__enzyme_" in callee and not any(n in callee for n in NOT_REQUESTS)


def is_autodiff(callee: str) -> bool:
    return "__enzyme_autodiff" in callee


def is_fwddiff(callee: str) -> bool:
    return "__enzyme_fwddiff" in callee


def split_entry(callee: str) -> str | None:
    return next((e for e in SPLIT_ENTRIES if e in callee), None)


def has_requests(module_text: str) -> bool:
    return any(e in module_text for e in ("__enzyme_autodiff", "__enzyme_fwddiff",
                                          "__enzyme_batch", "__enzyme_virtualreverse",
                                          *SPLIT_ENTRIES))


@dataclass
class Request:
    caller: Function
    call: Instr
    target: str
    sig: Signature
    args: list[Value]                 # the values passed to the derivative, in its order
    prologue: list[Instr]             # conversions of promoted variadic arguments
    sret: tuple[Value, Type] | None = None   # where a struct result is returned in memory
    tape: Value | None = None         # split mode: the tape object (or caller memory for it)
    primal_return: bool = False       # enzyme_primal_return: {primal, tangent} (forward mode)


class RequestReader:
    """Reads requests of one module; ``calling_wrapper(f)`` gives a function with a body that
    only calls f, for a request on a function known by its registered derivative alone;
    ``fresh(kind)`` names a value the request's conversions define."""

    def __init__(self, info: ModuleInfo, calling_wrapper: Callable[[str], str],
                 fresh: Callable[[str], str], contexts: Contexts) -> None:
        self.info = info
        self.calling_wrapper = calling_wrapper
        self.fresh = fresh
        self.contexts = contexts

    def read(self, caller: Function, ins: Instr, defs: dict[str, Instr],
             forward: bool = False, split: str | None = None) -> Request:
        where = self.info.locations.where(ins.dbg)
        api = split or ("__enzyme_fwddiff" if forward else "__enzyme_autodiff")

        def fail(problem: str) -> ADError:
            return ADError(describe(caller.name, ins.text, where, problem))

        operands = list(ins.operands)
        sret = SRET.search(ins.text)
        sret_ptr: tuple[Value, Type] | None = None
        if sret and operands and operands[0].is_local:   # large struct results come back in memory
            sret_ptr = (operands.pop(0), parse_type(sret.group(1)))
        if not operands or not operands[0].is_global:
            raise fail(f"the first argument of {api} must be a function (its address)")
        target = operands[0].ref
        registered = self.info.registry.tangents if forward else self.info.registry.gradients
        if target in registered:
            # its registered (or precompiled) derivative, as for calls of it, body or not
            target = self.calling_wrapper(target)
        elif target not in self.info.fns:
            raise fail(f"{target.lstrip('@')} has no body in the LTO unit (an external "
                       "function or one in a native object): nothing to differentiate")
        fn = self.info.function(target)
        if split == "__enzyme_augmentsize":        # markers only: the tape object's size is fixed
            return Request(caller, ins, target, Signature((), False), [], [])
        items: list[tuple[str | None, Value]] = []
        for v in operands[1:]:
            marker = self.marker(v, defs)
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
        context = None
        for j, (marker, _) in enumerate(items):
            if marker == "enzyme_context":          # the shadows of globals it uses
                if j + 1 >= len(items):
                    raise fail("enzyme_context is not followed by a context")
                context = self.contexts.of(caller, items[j + 1][1], defs, fail)
                width = context.width
                items = items[:j] + items[j + 2:]
                break
        if context is not None and width > 1 and not forward:
            raise fail(f"a context of {width} lanes: reverse mode has one")
        if forward:
            for j, (marker, _) in enumerate(items):
                if marker == "enzyme_width":
                    if j + 1 >= len(items) or not items[j + 1][1].ref.isdigit():
                        raise fail("enzyme_width must be followed by a constant number of lanes")
                    if context is not None and int(items[j + 1][1].ref) != width:
                        raise fail(f"enzyme_width {items[j + 1][1].ref} with a context of "
                                   f"{width} lane(s)")
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
        prologue: list[Instr] = []
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
            args.append(v if v.type == p.type else self.coerce(v, p.type, fail, prologue))
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
                        shadow = self.coerce(shadow, p.type, fail, prologue)
                    args.append(shadow)
                    i += 1
            kinds.append(kind)
        if i != len(items):
            raise fail(f"wrong argument count: {target.lstrip('@')} takes {len(fn.params)} "
                       f"argument(s), the call passes {len(items) - i} more")
        if context is None:
            self.contexts.widths.add(width)       # the default shadows of that many lanes
        sig = Signature(tuple(kinds), fn.ret.is_float, width,
                        context=context.space if context is not None else "")
        if dret is not None:
            if dret.type != fn.ret:
                dret = self.coerce(dret, fn.ret, fail, prologue)
            args.append(dret)
        if primal_return and (width != 1 or not fn.ret.is_float):
            raise fail("enzyme_primal_return needs one lane and a function with a "
                       "floating-point result")
        return Request(caller, ins, target, sig, args, prologue, sret_ptr, tape_mem,
                       primal_return)

    def coerce(self, v: Value, to: Type, fail: Callable[[str], ADError],
               prologue: list[Instr]) -> Value:
        """C passes float through '...' as double, and char/short as int: convert back."""
        if v.type.kind == "float" and to.kind == "float":
            op = "fptrunc" if v.type.bits > to.bits else "fpext"
        elif v.type.kind == "int" and to.kind == "int":
            op = "trunc" if v.type.bits > to.bits else "sext"
        else:
            raise fail(f"argument {v.ref} of type {v.type} does not match the parameter type {to}")
        name = self.fresh("arg")
        prologue.append(Instr(op, name, to, [v]))
        return Value(to, name)

    def marker(self, v: Value, defs: dict[str, Instr]) -> str | None:
        if v.type.kind == "metadata":
            m = re.fullmatch(r'!"(enzyme_[A-Za-z0-9_]+)"', v.ref)
            return m.group(1) if m else None
        if v.is_global and v.type.is_ptr:
            m = _MARKER_GLOBAL.match(v.ref)      # a marker passed by address: &enzyme_dup
            return m.group(1) if m else None
        if not v.is_local:
            return None
        d = defs.get(v.ref)
        if d is None or d.opcode != "load" or not d.operands:
            return None
        m = _MARKER_GLOBAL.match(d.operands[0].ref)
        return m.group(1) if m else None

    def check_invoke(self, caller: Function, ins: Instr) -> None:
        """A request's invoke can become a call and a branch unless the landing pad's phis
        name this block (they would lose an incoming edge they must list)."""
        block = next(b for b in caller.blocks if ins in b.instrs)
        pad = next((b for b in caller.blocks if b.label == ins.unwind), None)
        if pad is not None and any(i.opcode == "phi" and any(lbl == block.label
                                                             for _, lbl in i.incoming)
                                   for i in pad.instrs):
            raise ADError(describe(caller.name, ins.text, self.info.locations.where(ins.dbg),
                                   "a request that may throw (an invoke) whose landing pad "
                                   "merges values by where they come from is not supported; "
                                   "declare the Enzyme function noexcept"))

    @staticmethod
    def merged_targets(ins: Instr, fi: int, defs: dict[str, Instr]) -> list[str]:
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

