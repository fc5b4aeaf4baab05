"""Activity analysis: which values carry derivatives and which pointers need shadows.

Forward ("varied") propagation from the active arguments to a fixed point: a float value is
active when it is computed from an active value, or loaded from memory that has a shadow; a
pointer has a shadow when it is an active argument, is derived from one (GEP, casts, phi,
select), is loaded from shadowed memory, or is a stack slot that an active value is stored into.
Backward ("useful") propagation then keeps only what can reach the active return value or a
store into shadowed memory: adjoints of the rest would be zero, so no code is emitted for them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from gradlink.analysis.allocators import REALLOCATORS, Allocator
from gradlink.analysis.typeinfo import UNKNOWN, TypeAnalysis
from gradlink.ir.model import Function, Instr

POINTER_DERIVATIONS = {"getelementptr", "bitcast", "addrspacecast", "select", "phi", "freeze"}
FLOAT_PROPAGATING = {"fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "select", "phi", "fpext",
                     "fptrunc", "extractelement", "insertelement", "shufflevector", "freeze",
                     "extractvalue", "insertvalue", "bitcast"}


class Callees(Protocol):
    """What the analysis must know about called functions, from the derivative rules of the
    AD that uses it (a gradlink.ad.rules.RuleTable): passed in, so analysis depends on no AD."""

    def has_rule(self, callee: str) -> bool:
        """An elementary function with a derivative rule (sin, llvm.exp.f64, ...)."""
        ...

    def zero_derivative(self, callee: str) -> bool:
        """A rule whose partials are all zero (floor, round, ...)."""
        ...

    def is_inactive(self, callee: str) -> bool:
        """Known to move no derivative (printf, ...), built in or registered."""
        ...

    def is_differentiated(self, callee: str) -> bool:
        """A function of the module the AD differentiates itself (a direct call by name)."""
        ...

    def is_tape_pop(self, callee: str) -> bool:
        """A derivative's tape pop (second order): its values count as active."""
        ...

    def allocator(self, callee: str) -> Allocator | None:
        """A function returning fresh memory (malloc, a registered allocation-like one)."""
        ...

    def freed_pointer(self, callee: str) -> int | None:
        """The argument position of the pointer a deallocating function frees (free,
        operator delete, a registered one); None for other functions."""
        ...

    def returns_allocation(self, callee: str) -> bool:
        """A differentiated function whose returned pointer may point into memory it allocated
        (itself, or through a callee of that kind): that memory may hold active data the
        caller reads, so the caller wants its shadow returned."""
        ...


class Arg(StrEnum):
    """How a function argument takes part in differentiation (Enzyme's activity markers)."""

    CONST = "const"            # enzyme_const: no derivative
    DUP = "dup"                # enzyme_dup: a shadow (pointer) or tangent beside it
    DUPNONEED = "dupnoneed"    # enzyme_dupnoneed: a shadow; the primal result is not needed
    OUT = "out"                # enzyme_out: an active scalar whose adjoint is returned

    @property
    def has_shadow(self) -> bool:
        return self in (Arg.DUP, Arg.DUPNONEED)

    @property
    def code(self) -> str:
        """One letter, for derivative names: c, d, n, o."""
        return {"const": "c", "dup": "d", "dupnoneed": "n", "out": "o"}[self.value]


@dataclass
class Activity:
    callees: Callees                                    # what the calls are (an input)
    varied: set[str] = field(default_factory=set)       # values with adjoints
    shadowed: set[str] = field(default_factory=set)     # pointers with shadows
    useful: set[str] = field(default_factory=set)       # values whose adjoint can be non-zero
    active_return: bool = False
    types: TypeAnalysis | None = None                   # tells integers that are float bits
    writable_globals: frozenset[str] = frozenset()      # global variables that may get shadows
    # those whose initial value points to global variables: a pointer loaded from one points
    # into static memory, whose shadow the global's shadow points to (globals.ShadowLayout)
    pointing_globals: frozenset[str] = frozenset()
    shadowed_globals: frozenset[str] = frozenset()      # those that have one
    # functions that use those (directly or through their callees): their calls are
    # differentiated whatever their arguments, and their results are varied
    global_users: frozenset[str] = frozenset()
    # global variables active data is written into without their having a shadow: the AD
    # gives them one and starts over (gradlink/ad/globals.py)
    wanted_globals: set[str] = field(default_factory=set)
    instrs: list[Instr] = field(default_factory=list)    # the function's, in order
    users: dict[str, list[Instr]] | None = None          # value -> its users (made on demand)

    def active(self, name: str | None) -> bool:
        return name is not None and name in self.varied and name in self.useful


def _root_alloca(name: str, defs: dict[str, Instr], callees: Callees) -> list[Instr] | None:
    """The stack slots or heap allocations of ours a pointer may point into (through GEPs,
    casts, phis, selects and realloc); None when it may point elsewhere (an argument, a
    global, memory loaded from somewhere)."""
    roots: list[Instr] = []
    seen: set[str] = set()
    work = [name]
    while work:
        ref = work.pop()
        if ref in seen or ref in ("null", "undef", "poison"):
            continue
        seen.add(ref)
        ins = defs.get(ref)
        if ins is None:
            return None
        if ins.opcode == "alloca" or (ins.opcode in ("call", "invoke") and
                                      callees.allocator(ins.callee) is not None):
            roots.append(ins)
        elif ins.opcode == "call" and ins.callee in REALLOCATORS and ins.operands:
            roots.append(ins)
            work.append(ins.operands[0].ref)       # realloc keeps the allocation's identity
        elif ins.opcode in ("getelementptr", "bitcast", "addrspacecast", "freeze") and ins.operands:
            work.append(ins.operands[0].ref)
        elif ins.opcode in ("call", "invoke") and ins.type is not None and ins.type.is_ptr and \
                callees.is_differentiated(ins.callee):
            # a pointer a function of ours returns points into memory it was given, or into
            # memory it allocated (then its augmented forward returns the shadow as well; when
            # it does neither, the callee's derivative has no shadow to return and says so)
            if callees.returns_allocation(ins.callee):
                roots.append(ins)
            work.extend(v.ref for v in ins.operands if v.type.is_ptr)
        elif ins.opcode == "phi":
            work.extend(v.ref for v, _ in ins.incoming)
        elif ins.opcode == "select":
            work.extend(v.ref for v in ins.operands[1:])
        else:
            return None
    return roots or None


def returns_allocation(fn: Function, callees: Callees,
                       callee_returns_allocation: Callable[[str], bool]) -> bool:
    """Whether a pointer fn returns may point into memory allocated during the call: by an
    allocator, or by a differentiated callee returning such memory (asked through
    ``callee_returns_allocation``)."""
    defs = fn.definitions()
    work = [ins.operands[0].ref for ins in fn.instructions()
            if ins.opcode == "ret" and ins.operands and ins.operands[0].type.is_ptr]
    seen: set[str] = set()
    while work:
        ref = work.pop()
        if ref in seen:
            continue
        seen.add(ref)
        ins = defs.get(ref)
        if ins is None:
            continue
        if ins.opcode in ("call", "invoke"):
            if callees.allocator(ins.callee) is not None or ins.callee in REALLOCATORS or (
                    callees.is_differentiated(ins.callee)
                    and callee_returns_allocation(ins.callee)):
                return True
        elif ins.opcode in ("getelementptr", "bitcast", "addrspacecast", "freeze") and \
                ins.operands:
            work.append(ins.operands[0].ref)
        elif ins.opcode == "phi":
            work.extend(v.ref for v, _ in ins.incoming)
        elif ins.opcode == "select":
            work.extend(v.ref for v in ins.operands[1:])
    return False


_GLOBAL_REF = re.compile(r'@"[^"]*"|@[-a-zA-Z$._0-9]+')


def global_root(ref: str, defs: dict[str, Instr]) -> str | None:
    """The global variable a pointer points into (through GEPs and casts, also constant
    expressions), or None."""
    seen: set[str] = set()
    while ref not in seen:
        seen.add(ref)
        if ref.startswith("@"):
            return ref
        if not ref.startswith("%"):              # a constant expression: its first global
            m = _GLOBAL_REF.search(ref)
            return m.group(0) if m else None
        ins = defs.get(ref)
        if ins is None or ins.opcode not in ("getelementptr", "bitcast", "addrspacecast") or \
                not ins.operands:
            return None
        ref = ins.operands[0].ref
    return None


def _shadow_roots(ptr: str, defs: dict[str, Instr], act: Activity) -> None:
    roots = _root_alloca(ptr, defs, act.callees)
    for root in roots or []:
        if root.name:
            act.shadowed.add(root.name)
    if roots is None:
        for slot in _pointer_slots(ptr, defs, act):
            act.shadowed.add(slot)
    g = global_root(ptr, defs)
    if g is not None and g in act.writable_globals and g not in act.shadowed:
        act.wanted_globals.add(g)
    if roots is None and g is None:
        act.wanted_globals |= _pointing_sources(ptr, defs, act, 0)


def _pointing_sources(ptr: str, defs: dict[str, Instr], act: Activity, depth: int) -> set[str]:
    """The globals a pointer was loaded from, when each initially points into static memory
    (``desc.base[i] = v`` with ``desc = {table, 3}``; directly or through stack slots of ours
    holding such loads): with shadows they give the pointer one. A global set to heap memory
    at run time is not one of them (its shadow would not point anywhere)."""
    ins = defs.get(ptr)
    while ins is not None and ins.opcode in ("getelementptr", "bitcast") and ins.operands:
        ins = defs.get(ins.operands[0].ref)
    if ins is None or ins.opcode != "load" or depth > 2:
        return set()
    address = ins.operands[0].ref
    g = global_root(address, defs)
    if g is not None:
        return {g} if g in act.pointing_globals and g not in act.shadowed else set()
    slots = _root_alloca(address, defs, act.callees)
    if not slots or any(r.opcode != "alloca" for r in slots):
        return set()
    names = {r.name for r in slots}
    out: set[str] = set()
    for user in act.instrs:
        if user.opcode == "store" and user.operands[0].is_local and any(
                r.name in names for r in _root_alloca(user.operands[1].ref, defs, act.callees)
                or []):
            found = _pointing_sources(user.operands[0].ref, defs, act, depth + 1)
            if not found:
                return set()
            out |= found
    return out


def _pointer_slots(ptr: str, defs: dict[str, Instr], act: Activity) -> list[str]:
    """A pointer loaded from stack slots of ours (``double *x[10]; ... *x[i] = v``): the slots,
    when only this function's loads and stores and the calls of differentiated functions use
    them, and every pointer stored into them has a shadow or is memory of ours. The slots get
    shadows, so the pointer loaded back has one: every store into them stores a shadow too,
    and a differentiated callee given them does the same. A slot some other call may write (an
    external function), or holding a pointer without a shadow, gets none (then the store
    through the pointer loaded from it is refused)."""
    ins = defs.get(ptr)
    if ins is None or ins.opcode != "load" or ins.type is None or not ins.type.is_ptr:
        return []
    roots = _root_alloca(ins.operands[0].ref, defs, act.callees)
    if not roots or any(r.opcode != "alloca" or r.name is None for r in roots):
        return []
    if act.users is None:
        act.users = {}
        for user in act.instrs:
            for v in user.uses():
                if v.is_local:
                    act.users.setdefault(v.ref, []).append(user)
    for r in roots:
        work: list[str] = [r.name] if r.name else []
        seen: set[str] = set()
        while work:
            ref = work.pop()
            if ref in seen:
                continue
            seen.add(ref)
            for user in act.users.get(ref, []):
                if user.opcode in ("getelementptr", "bitcast") and user.operands[0].ref == ref:
                    if user.name:
                        work.append(user.name)
                elif user.opcode == "load":
                    continue
                elif user.opcode == "store" and user.operands[1].ref == ref and \
                        user.operands[0].ref != ref:
                    # what is stored must have a shadow to store beside it: null, a pointer
                    # with one, or memory of ours (which gets one)
                    val = user.operands[0].ref
                    if val not in ("null", "poison", "undef") and val not in act.shadowed and \
                            _root_alloca(val, defs, act.callees) is None:
                        return []
                elif user.opcode == "call" and (user.callee.startswith("@llvm.lifetime")
                                                or act.callees.is_differentiated(user.callee)):
                    continue
                else:
                    return []
    return [r.name for r in roots if r.name]


def analyze(fn: Function, arg_activity: Mapping[str, str], active_return: bool,
            callees: Callees, types: TypeAnalysis | None = None,
            shadowed_globals: frozenset[str] = frozenset(),
            writable_globals: frozenset[str] = frozenset(),
            global_users: frozenset[str] = frozenset(),
            shadow_return: bool = False,
            pointing_globals: frozenset[str] = frozenset()) -> Activity:
    """``shadowed_globals``: global variables with shadows (constant expressions into them are
    shadowed pointers too); ``writable_globals``: those that may get one
    (Activity.wanted_globals lists the ones the function needs); ``shadow_return``: the caller
    wants the shadow of the returned pointer (memory of ours it points into gets one)."""
    act = Activity(callees, active_return=active_return, writable_globals=writable_globals,
                   shadowed_globals=shadowed_globals, global_users=global_users,
                   pointing_globals=pointing_globals)
    act.instrs = fn.instructions()
    act.types = types
    defs = fn.definitions()
    if shadowed_globals:
        act.shadowed |= shadowed_globals
        for ins in fn.instructions():
            for v in ins.uses():
                if not v.is_local and not v.ref.startswith("@") and v.type.is_ptr and \
                        global_root(v.ref, defs) in shadowed_globals:
                    act.shadowed.add(v.ref)
    for p in fn.params:
        kind = Arg(arg_activity.get(p.name, Arg.CONST))
        if kind is Arg.OUT:
            act.varied.add(p.name)
        elif kind.has_shadow:
            act.shadowed.add(p.name)
    instrs = fn.instructions()
    if shadow_return:
        for ins in instrs:
            if ins.opcode == "ret" and ins.operands and ins.operands[0].type.is_ptr:
                _shadow_roots(ins.operands[0].ref, defs, act)
    changed = True
    while changed:
        changed = False
        for ins in instrs:
            changed |= _forward(ins, act, defs)
    _backward(fn, act, instrs)
    return act


def _forward(ins: Instr, act: Activity, defs: dict[str, Instr]) -> bool:
    name, op = ins.name, ins.opcode
    before = (len(act.varied), len(act.shadowed))
    used = [v.ref for v in ins.uses() if v.is_local or v.ref in act.shadowed]
    if op == "store":
        val, ptr = ins.operands
        if (val.ref in act.varied or val.ref in act.shadowed) and ptr.ref not in act.shadowed:
            _shadow_roots(ptr.ref, defs, act)
        elif val.type.is_ptr and val.is_local and ptr.ref in act.shadowed and \
                val.ref not in act.shadowed:
            # a pointer stored into shadowed memory is shadowed when loaded back: the memory
            # of ours it points into needs a shadow for the store to write
            _shadow_roots(val.ref, defs, act)
    elif op in ("call", "invoke") and not ins.callee.startswith("@llvm.") and \
            not act.callees.has_rule(ins.callee) and not act.callees.is_inactive(ins.callee) and \
            (any(v.ref in act.varied or v.ref in act.shadowed for v in ins.operands)
             or uses_shadowed_globals(ins, act)):
        # A differentiated callee may write active values through any pointer it gets: stack and
        # heap memory of ours passed to it gets a shadow (interprocedural, conservative).
        for v in ins.operands:
            if v.type.is_ptr and v.ref not in act.shadowed and v.ref not in ("null", "undef",
                                                                              "poison"):
                _shadow_roots(v.ref, defs, act)
    elif op in ("call", "invoke") and ins.callee.startswith("@llvm.mem") and len(ins.operands) >= 2:
        dst, src = ins.operands[0], ins.operands[1]
        if src.ref in act.shadowed and dst.ref not in act.shadowed:
            _shadow_roots(dst.ref, defs, act)
    if name is None or ins.type is None:
        return (len(act.varied), len(act.shadowed)) != before
    if op in POINTER_DERIVATIONS and ins.type.is_ptr:
        ptr_ops = used[1:] if op == "select" else used
        if any(u in act.shadowed for u in ptr_ops[:1] if op == "getelementptr") or (
                op != "getelementptr" and any(u in act.shadowed for u in ptr_ops)):
            act.shadowed.add(name)
            if op in ("phi", "select"):
                # the pointers it merges with a shadowed one need shadows too: memory of ours
                # they point into gets one
                for u in ptr_ops:
                    if u not in act.shadowed:
                        _shadow_roots(u, defs, act)
    elif op == "call" and act.callees.is_tape_pop(ins.callee):
        # values coming back from a derivative's tape (second order): treated as active
        if ins.type.has_float:
            act.varied.add(name)
        elif ins.type.is_ptr:
            act.shadowed.add(name)
    elif op == "call" and ins.callee in REALLOCATORS and ins.operands:
        if ins.operands[0].ref in act.shadowed:
            act.shadowed.add(name)
    elif op in ("call", "invoke") and ins.type.is_ptr and \
            act.callees.is_differentiated(ins.callee) and (
                any(u in act.shadowed for u in used) or (
                    (any(u in act.varied for u in used) or uses_shadowed_globals(ins, act))
                    and act.callees.returns_allocation(ins.callee))):
        # a pointer a differentiated callee returns from active memory it was given, or from
        # memory it allocated and may have filled with active data: the callee's augmented
        # forward returns its shadow as well
        act.shadowed.add(name)
    elif op == "load":
        if ins.operands[0].ref in act.shadowed:
            if ins.type.has_float or float_bits(name, act):
                act.varied.add(name)
            elif ins.type.is_ptr:
                act.shadowed.add(name)
    elif ins.type.kind == "int" and op in ("phi", "select", "freeze", "bitcast"):
        srcs = used[1:] if op == "select" else used       # doubles moved as integer bits
        if any(u in act.varied for u in srcs):
            act.varied.add(name)
    elif ins.type.has_float:
        if op in FLOAT_PROPAGATING:
            srcs = used[1:] if op == "select" else used
            if any(u in act.varied for u in srcs):
                act.varied.add(name)
        elif op in ("call", "invoke"):
            if (any(u in act.varied or u in act.shadowed for u in used)
                    or uses_shadowed_globals(ins, act)) and not (
                    act.callees.is_inactive(ins.callee) or act.callees.zero_derivative(ins.callee)):
                act.varied.add(name)
    return (len(act.varied), len(act.shadowed)) != before


def uses_shadowed_globals(ins: Instr, act: Activity) -> bool:
    """A call that may read or write a global variable with a shadow: of a function using one,
    or an indirect call while any function does (it may reach one)."""
    return ins.callee in act.global_users or (ins.callee.startswith("%") and bool(act.global_users))


def float_bits(name: str | None, act: Activity) -> bool:
    """An integer the type analysis found to hold the bits of a float (memcpy-like copies)."""
    return (name is not None and act.types is not None
            and act.types.values.get(name, UNKNOWN).is_float)


def _backward(fn: Function, act: Activity, instrs: list[Instr]) -> None:
    """Values whose adjoint can be non-zero: those reaching the active return or active memory."""
    useful = act.useful
    work: list[str] = []

    def mark(ref: str) -> None:
        if ref in act.varied and ref not in useful:
            useful.add(ref)
            work.append(ref)

    defs = fn.definitions()
    for ins in instrs:
        if ins.opcode == "ret" and ins.operands and act.active_return:
            mark(ins.operands[0].ref)
        elif ins.opcode == "store" and ins.operands[1].ref in act.shadowed:
            mark(ins.operands[0].ref)
        elif ins.opcode in ("call", "invoke") and not ins.callee.startswith("@llvm.") and (
                not act.callees.has_rule(ins.callee)):
            for v in ins.operands:            # unknown calls: conservatively everything flows
                mark(v.ref)
    while work:
        name = work.pop()
        found = defs.get(name)
        if found is None:
            continue
        ins = found
        for v in ins.uses():
            if v.is_local:
                mark(v.ref)


def print_activity(fn: Function, act: Activity) -> str:
    lines = [f"function {fn.name}"]
    for p in fn.params:
        lines.append(f"  arg {p.name}: {_label(p.name, act)}")
    for b in fn.blocks:
        lines.append(f"{b.label}:")
        for ins in b.instrs:
            lines.append(f"  {_label(ins.name, act):10s} {ins.text}")
    return "\n".join(lines)


def _label(name: str | None, act: Activity) -> str:
    if name is None:
        return "-"
    if name in act.shadowed:
        return "shadowed"
    if act.active(name):
        return "active"
    if name in act.varied:
        return "varied"       # depends on active inputs, but no influence on the outputs
    return "inactive"
