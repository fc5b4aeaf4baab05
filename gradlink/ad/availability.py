"""Where the reverse sweep gets each primal value it needs: an analysis (sourcing.py emits it).

A reverse block rev.B needs primal values (operands of B's derivative rules, shadow pointers of
B's loads and stores, call arguments). Each comes from the cheapest of:

DIRECT     the forward value itself: a constant, global or parameter, or (one function holding
           both sweeps) a value defined once, outside loops, in a block dominating every return.
INDUCTION  an induction variable ``start + k * step`` of a counted loop around B (one driven by
           an iteration count), k being the iteration the reverse sweep is in; pointer
           induction variables ``getelementptr T, start, k * step`` likewise.
RECOMPUTE  a pure instruction (address and integer arithmetic, comparisons, cheap float
           arithmetic: PURE) whose operands are all available without the tape, recomputed at
           the top of rev.B. Also a load from memory nothing writes while the derivative runs:
           parameters nothing in the function writes (readonly_params) and, in a split callee,
           that its callers leave alone too (Signature.unchanged); heap memory read after its
           last write (frozen_loads).
SLOT       a stack slot written where the value is defined. Valid when no loop contains both
           the definition and B: then every definition precedes every execution of B, so the
           slot still holds the value B used. (Split functions carry their slots from the
           augmented forward function to the reverse one as one record on the tape.)
LOOP_SLOT  B lies in a loop M that does not contain the definition (which dominates M's
           header): the value is pushed once where M exits and popped, in the reverse of that
           exit, into a slot that M's whole reverse reads. Once per run of M instead of once
           per iteration: the invariants of an inner loop.
TAPE       pushed at the end of forward B, popped at the top of rev.B, once per execution.

Recomputing rather than caching is what keeps a differentiated loop from pushing a pointer per
iteration for every array it touches; using the slot is what keeps loop invariants (a hoisted
``mag(x)``) out of the per-iteration tape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gradlink.ad import rules
from gradlink.analysis.allocators import BUILTIN_ALLOCATORS, BUILTIN_DEALLOCATORS, REALLOCATORS
from gradlink.analysis.cfg import CFG
from gradlink.ir.model import Function, Instr, Value
from gradlink.ir.types import Type

DIRECT, INDUCTION, RECOMPUTE, SLOT, LOOP_SLOT, TAPE = (
    "direct", "induction", "recompute", "slot", "loop slot", "tape")

# Instructions that read no memory and have no side effects, and cost about as much as a
# push and a pop or less: recomputable from their operands. (Not float divisions, not calls of
# libm. Integer division is recomputed only where the forward sweep computed it, with the same
# operands, so it cannot trap where the program did not.)
PURE = frozenset({
    "getelementptr", "add", "sub", "mul", "shl", "lshr", "ashr", "and", "or", "xor",
    "zext", "sext", "trunc", "ptrtoint", "inttoptr", "bitcast", "addrspacecast", "freeze",
    "icmp", "fcmp", "select", "fadd", "fsub", "fmul", "fneg", "sitofp", "uitofp", "fpext",
    "fptrunc", "udiv", "sdiv", "urem", "srem"})
PURE_INTRINSICS = ("@llvm.fmuladd.", "@llvm.fma.", "@llvm.fabs.", "@llvm.copysign.",
                   "@llvm.minnum.", "@llvm.maxnum.", "@llvm.smax.", "@llvm.smin.", "@llvm.umax.",
                   "@llvm.umin.", "@llvm.abs.")
SHADOW_PURE = frozenset({"getelementptr", "bitcast", "addrspacecast", "freeze", "select"})
MAX_RECOMPUTE_DEPTH = 12


@dataclass(frozen=True)
class Induction:
    """``phi [start, preheader], [next, latch]`` with next = phi + step (or a gep by step)."""

    header: str
    start: Value
    step: int
    elem: Type | None = None         # pointer induction: the gep's element type


@dataclass(frozen=True)
class Source:
    kind: str
    ins: Instr | None = None         # RECOMPUTE: the instruction to re-emit
    shadow: bool = False             # RECOMPUTE/INDUCTION: of the shadow of ins's result
    induction: Induction | None = None
    loop: str | None = None          # LOOP_SLOT: the header of the loop M


class Availability:
    def __init__(self, cfg: CFG, defs: dict[str, Instr], params: set[str],
                 counted: dict[str, tuple[str, str]], split: bool,
                 primal_of_shadow: Callable[[str], str | None],
                 shadow_ref: Callable[[str], str], shadowed: set[str],
                 readonly: set[str] = frozenset(),  # type: ignore[assignment]
                 frozen: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self.cfg, self.defs, self.params, self.readonly = cfg, defs, params, readonly
        self.frozen = frozen                 # loads of heap memory nothing writes after them
        self.counted, self.split = counted, split
        self.primal_of_shadow, self.shadow_ref, self.shadowed = primal_of_shadow, shadow_ref, shadowed
        self.exits = [b.label for b in cfg.fn.blocks if b.terminator.opcode == "ret"]
        self.loops_of: dict[str, frozenset[str]] = {}
        for b in cfg.fn.blocks:
            self.loops_of[b.label] = frozenset(h for h, body in cfg.loops.items() if b.label in body)
        self.inductions = self._inductions()
        self._memo: dict[tuple[str, frozenset[str]], Source] = {}
        self._exits: dict[str, list[str]] = {}

    # -- the question --------------------------------------------------------------------------
    def source(self, ref: str, block: str) -> Source:
        """How rev.``block`` gets the value ``ref`` (a primal value or a shadow pointer)."""
        return self._source(ref, self.loops_of.get(block, frozenset()), 0)

    def is_direct(self, ref: str) -> bool:
        primal = self.primal_of_shadow(ref) or ref
        if not primal.startswith("%") or primal in self.params:
            return True
        ins = self.defs.get(primal)
        if ins is None:
            return False
        if self.split:                       # the reverse sweep is another function
            return False
        blk = ins.block
        return not self.loops_of.get(blk) and all(self.cfg.dominates(blk, e) for e in self.exits)

    # -- the analysis --------------------------------------------------------------------------
    def _source(self, ref: str, loops: frozenset[str], depth: int) -> Source:
        key = (ref, loops)
        if key in self._memo:
            return self._memo[key]
        src = self._decide(ref, loops, depth)
        self._memo[key] = src
        return src

    def _decide(self, ref: str, loops: frozenset[str], depth: int) -> Source:
        if self.is_direct(ref):
            return Source(DIRECT)
        primal = self.primal_of_shadow(ref)
        shadow = primal is not None
        ins = self.defs.get(primal if primal is not None else ref)
        if ins is None or ins.name is None:
            return Source(TAPE)
        def_loops = self.loops_of.get(ins.block, frozenset())
        if def_loops <= loops:
            ind = self.inductions.get(ins.name)
            if ind is not None and ind.header in loops and (not shadow or ref == self.shadow_ref(ins.name)) \
                    and self._available(ind.start.ref if not shadow else self.shadow_ref(ind.start.ref),
                                        loops, depth + 1):
                return Source(INDUCTION, ins, shadow, ind)
            if depth < MAX_RECOMPUTE_DEPTH and self._recomputable(ins, shadow, ref, loops, depth):
                return Source(RECOMPUTE, ins, shadow)
        if not def_loops & loops:
            return Source(SLOT)
        outer = self._outermost(loops - def_loops)
        if def_loops <= loops and outer is not None and self.cfg.dominates(ins.block, outer):
            return Source(LOOP_SLOT, loop=outer)
        return Source(TAPE)

    def _outermost(self, headers: frozenset[str]) -> str | None:
        """The loop among headers that contains all the others."""
        for h in headers:
            if all(o in self.cfg.loops[h] for o in headers):
                return h
        return None

    def loop_exits(self, header: str) -> list[str]:
        if header not in self._exits:
            body = self.cfg.loops[header]
            self._exits[header] = sorted({s for blk in body for s in self.cfg.succs.get(blk, [])
                                          if s not in body})
        return self._exits[header]

    def _available(self, ref: str, loops: frozenset[str], depth: int) -> bool:
        if not ref.startswith("%"):
            return True
        return self._source(ref, loops, depth).kind != TAPE

    def _recomputable(self, ins: Instr, shadow: bool, ref: str, loops: frozenset[str],
                      depth: int) -> bool:
        if ins.opcode == "load" and not shadow:
            return _plain_load(ins) and \
                (root(ins.operands[0].ref, self.defs) in self.readonly or ins.name in self.frozen) \
                and self._available(ins.operands[0].ref, loops, depth + 1)
        if shadow:
            if ins.opcode not in SHADOW_PURE or ref != self.shadow_ref(ins.name):  # type: ignore[arg-type]
                return False
            ptrs = ins.operands[1:] if ins.opcode == "select" else ins.operands[:1]
            if any(p.ref not in self.shadowed for p in ptrs):
                return False
            rest = ins.operands[:1] if ins.opcode == "select" else ins.operands[1:]
            return all(self._available(self.shadow_ref(p.ref), loops, depth + 1) for p in ptrs) and \
                all(self._available(v.ref, loops, depth + 1) for v in rest)
        if ins.opcode not in PURE and not (ins.opcode == "call" and ins.callee.startswith(PURE_INTRINSICS)):
            return False
        return all(self._available(v.ref, loops, depth + 1) for v in ins.operands)

    def _inductions(self) -> dict[str, Induction]:
        found: dict[str, Induction] = {}
        for header, (pre, latch) in self.counted.items():
            for phi in self.cfg.fn.block(header).phis:
                inc = {blk: v for v, blk in phi.incoming}
                start, nxt = inc.get(pre), inc.get(latch)
                step_ins = self.defs.get(nxt.ref) if nxt is not None else None
                if start is None or step_ins is None or step_ins.block not in self.cfg.loops[header]:
                    continue
                ind = _step(phi, start, step_ins, header)
                if ind is not None:
                    found[phi.name] = ind  # type: ignore[index]
        return found


@dataclass(frozen=True)
class TripCount:
    """A counted loop whose only exit test is ``icmp pred (iv + step), bound`` (or of iv) in its
    latch, continuing while true: its iteration count is a formula of start and bound, which the
    reverse sweep computes instead of popping."""

    start: Value
    bound: Value
    pred: str                        # slt sle ult ule (step 1), sgt sge ugt uge (step -1), ne
    step: int
    on_phi: bool = False             # the test reads the induction variable, not its next value


_INVERSE = {"eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sgt": "sle", "sle": "sgt",
            "ult": "uge", "uge": "ult", "ugt": "ule", "ule": "ugt"}
_SWAPPED = {"eq": "eq", "ne": "ne", "slt": "sgt", "sgt": "slt", "sle": "sge", "sge": "sle",
            "ult": "ugt", "ugt": "ult", "ule": "uge", "uge": "ule"}
_UP, _DOWN = ("slt", "sle", "ult", "ule", "ne"), ("sgt", "sge", "ugt", "uge", "ne")


def trip_count(cfg: CFG, defs: dict[str, Instr], header: str, latch: str,
               induction: dict[str, Induction]) -> TripCount | None:
    body = cfg.loops[header]
    exiting = {b for b in body for s in cfg.succs.get(b, []) if s not in body}
    term = cfg.fn.block(latch).terminator
    if exiting != {latch} or term.opcode != "br" or len(term.targets) != 2 or not term.operands:
        return None
    cmp = defs.get(term.operands[0].ref)
    if cmp is None or cmp.opcode != "icmp" or cmp.block not in body:
        return None
    pred = cmp.pred if term.targets[0] == header else _INVERSE.get(cmp.pred, "")
    a, b = cmp.operands
    nxt_ins = defs.get(a.ref)
    if nxt_ins is None or nxt_ins.block not in body:     # the test is written bound <op> next
        a, b, pred = b, a, _SWAPPED.get(pred, "")
        nxt_ins = defs.get(a.ref)
    bound_ins = defs.get(b.ref)
    if nxt_ins is None or (bound_ins is not None and bound_ins.block in body):
        return None
    for phi_name, ind in induction.items():
        if ind.header != header or ind.elem is not None or abs(ind.step) != 1:
            continue
        phi = defs[phi_name]
        latch_value = next((v.ref for v, blk in phi.incoming if blk == latch), None)
        if nxt_ins.name not in (latch_value, phi_name):
            continue
        if pred in (_UP if ind.step == 1 else _DOWN):
            return TripCount(ind.start, b, pred, ind.step, on_phi=nxt_ins.name == phi_name)
    return None


def _step(phi: Instr, start: Value, nxt: Instr, header: str) -> Induction | None:
    ops = nxt.operands
    if nxt.opcode == "add" and phi.type is not None and phi.type.kind == "int":
        for a, b in ((0, 1), (1, 0)):
            if ops[a].ref == phi.name and _int(ops[b].ref) is not None:
                return Induction(header, start, _int(ops[b].ref))  # type: ignore[arg-type]
    if nxt.opcode == "getelementptr" and len(ops) == 2 and ops[0].ref == phi.name and \
            _int(ops[1].ref) is not None and ops[1].type.kind == "int" and ops[1].type.bits == 64:
        return Induction(header, start, _int(ops[1].ref), nxt.alloc_type)  # type: ignore[arg-type]
    return None


def _int(ref: str) -> int | None:
    try:
        return int(ref)
    except ValueError:
        return None


# -- memory nobody writes --------------------------------------------------------------------
FRESH, UNKNOWN, _CYCLE = "<fresh>", "<unknown>", "<cycle>"


def root(ref: str, defs: dict[str, Instr]) -> str:
    """The object a pointer points into: a parameter or global (its name), memory the function
    allocates (FRESH), or UNKNOWN (loaded from memory, mixed, computed)."""
    found = _root(ref, defs, set())
    return UNKNOWN if found == _CYCLE else found


def _root(ref: str, defs: dict[str, Instr], seen: set[str]) -> str:
    """root(), with the values already visited (reaching one again adds nothing: _CYCLE)."""
    while ref not in seen:
        seen.add(ref)
        ins = defs.get(ref)
        if ins is None:
            return ref if ref.startswith(("%", "@")) else UNKNOWN
        if ins.opcode in ("getelementptr", "bitcast", "addrspacecast") and ins.operands:
            ref = ins.operands[0].ref
        elif ins.opcode == "alloca" or (ins.opcode == "call" and (ins.callee in BUILTIN_ALLOCATORS
                                                                 or ins.callee in REALLOCATORS)):
            return FRESH
        elif ins.opcode in ("phi", "select"):
            vals = [v.ref for v, _ in ins.incoming] if ins.opcode == "phi" else \
                [v.ref for v in ins.operands[1:]]
            found = {_root(v, defs, seen) for v in vals if v not in seen} - {_CYCLE}
            return found.pop() if len(found) == 1 else UNKNOWN
        else:
            return UNKNOWN
    return _CYCLE


def readonly_params(fn: Function, defs: dict[str, Instr],
                    writes: Callable[[str], set[int] | None] | None = None,
                    table: rules.RuleTable = rules.BUILTIN) -> set[str]:
    """Pointer parameters whose memory nothing in fn writes: no store, memory intrinsic or
    call may write anything that may alias them (fresh allocations cannot; another parameter
    cannot when either is noalias). A call of a function in the module writes through the
    arguments ``writes(callee)`` lists (from LLVM's inferred memory and parameter attributes),
    or anything when it says None; unknown external functions may write anything."""
    written: set[str] = set()
    for ins in fn.instructions():
        op = ins.opcode
        if op in ("store", "atomicrmw", "cmpxchg"):
            written.add(root(ins.operands[1 if op == "store" else 0].ref, defs))
        elif op == "call" or op == "invoke":
            callee = ins.callee
            if callee.startswith("@llvm.") and callee.strip('"').startswith(_HARMLESS_INTRINSICS):
                continue
            if callee.startswith(("@llvm.memcpy", "@llvm.memmove", "@llvm.memset")):
                written.add(root(ins.operands[0].ref, defs))
                continue
            through = writes(callee) if writes is not None else None
            if through is not None:
                written.update(root(ins.operands[i].ref, defs) for i in through
                               if i < len(ins.operands) and ins.operands[i].type.is_ptr)
                continue
            known = table.rule_for_call(callee) is not None or table.is_inactive_call(callee) or \
                callee in BUILTIN_ALLOCATORS or callee in REALLOCATORS or \
                callee in BUILTIN_DEALLOCATORS or callee in _LIBM_NO_RULE
            if not known:
                return set()
            written.update(root(v.ref, defs) for v in ins.operands if v.type.is_ptr)
    written.discard(FRESH)
    out = set()
    for p in fn.params:
        if not p.type.is_ptr:
            continue
        noalias = "noalias" in p.attrs
        if p.name in written or UNKNOWN in written:
            continue
        if not noalias and any(w.startswith(("%", "@")) and not _noalias(fn, w) for w in written):
            continue
        out.add(p.name)
    return out


# libm functions without a derivative rule (called on inactive values): they write no user memory
_LIBM_NO_RULE = {"@lgamma", "@lgammaf", "@tgamma", "@tgammaf", "@j0", "@j1", "@y0", "@y1"}
_HARMLESS_INTRINSICS = ("@llvm.lifetime.", "@llvm.dbg.", "@llvm.assume", "@llvm.experimental.noalias",
                        "@llvm.invariant.", "@llvm.prefetch", "@llvm.expect")


def _noalias(fn: Function, name: str) -> bool:
    return any(p.name == name and "noalias" in p.attrs for p in fn.params)


def _plain_load(ins: Instr) -> bool:
    return not any(w in ins.text.split("load", 1)[1][:12] for w in ("volatile", "atomic"))


# -- heap memory written before it is read ------------------------------------------------------
def frozen_loads(cfg: CFG, defs: dict[str, Instr]) -> tuple[set[str], set[str]]:
    """Loads from malloc/calloc memory that nothing writes after them: the memory stays as the
    load saw it until the reverse sweep, provided its free waits for the reverse sweep too
    (which the synthesis arranges for the allocations returned). The memory must not escape:
    its pointer only addresses loads, stores, memset/memcpy and its free; and it is allocated
    outside loops, so that deferring frees holds one allocation, not one per iteration.
    Returns (the loads, their allocations)."""
    fn = cfg.fn
    uses: dict[str, list[Instr]] = {}
    for ins in fn.instructions():
        for v in ins.uses():
            if v.ref.startswith("%"):
                uses.setdefault(v.ref, []).append(ins)
    position = {id(ins): k for b in fn.blocks for k, ins in enumerate(b.instrs)}
    found_loads: set[str] = set()
    found_allocs: set[str] = set()
    reach_memo: dict[str, set[str]] = {}
    for alloc in fn.instructions():
        if alloc.opcode != "call" or alloc.callee not in ("@malloc", "@calloc") or not alloc.name:
            continue
        if cfg.in_loop(alloc.block):      # deferring the frees of every iteration's allocation
            continue                      # could hold unbounded memory until the reverse sweep
        loads, writes = _accesses(alloc.name, uses)
        if loads is None or not loads:
            continue
        safe = set()
        for ld in loads:
            reach = reach_memo.get(ld.block)
            if reach is None:
                reach = reach_memo[ld.block] = _reachable(cfg, ld.block)
            if not any(w.block in reach or (w.block == ld.block and position[id(w)] > position[id(ld)])
                       for w in writes):
                safe.add(str(ld.name))
        if safe:
            found_loads |= safe
            found_allocs.add(alloc.name)
    return found_loads, found_allocs


def _accesses(alloc: str, uses: dict[str, list[Instr]]) -> tuple[list[Instr] | None, list[Instr]]:
    """The loads from and the writes to an allocation, or None when its pointer escapes."""
    loads: list[Instr] = []
    writes: list[Instr] = []
    work, seen = [alloc], {alloc}
    while work:
        ptr = work.pop()
        for ins in uses.get(ptr, []):
            op = ins.opcode
            if op in ("getelementptr", "bitcast") and ins.operands[0].ref == ptr and ins.name:
                if ins.name not in seen:
                    seen.add(ins.name)
                    work.append(ins.name)
            elif op == "load" and ins.operands[0].ref == ptr and ins.name:
                loads.append(ins)
            elif op == "store" and ins.operands[1].ref == ptr and ins.operands[0].ref != ptr:
                writes.append(ins)
            elif op == "call" and ins.callee.startswith(("@llvm.memset", "@llvm.memcpy",
                                                         "@llvm.memmove")):
                if ins.operands[0].ref == ptr:
                    writes.append(ins)
                elif ins.operands[1].ref != ptr:
                    return None, []
            elif op == "call" and ins.callee == "@free" and ptr == alloc:
                continue
            elif op == "call" and ins.callee.startswith(_HARMLESS_INTRINSICS):
                continue
            else:
                return None, []                   # stored, returned, passed on, compared...
    return loads, writes


def _reachable(cfg: CFG, block: str) -> set[str]:
    """Blocks reachable from block by at least one edge (block itself when it is in a cycle)."""
    out: set[str] = set()
    work = list(cfg.succs.get(block, []))
    while work:
        b = work.pop()
        if b in out:
            continue
        out.add(b)
        work.extend(cfg.succs.get(b, []))
    return out
