"""Reverse-mode synthesis: one function computing the primal and then all adjoints.

Layout of the generated function::

    gl.entry:      adjoint slots (allocas) zeroed, then the original entry
    B (forward):   the original block B, plus shadow pointers; at a join, the predecessor id
                   pushed; before the terminator, the values rev.B needs pushed; 'ret' becomes a
                   branch to rev.B
    rev.B:         pops those values, adjoints of B's instructions in reverse order, then the
                   phi adjoints moved to the predecessor we came from (popped at joins)
    gl.exit:       returns the adjoints of the 'out' arguments

Adjoints of SSA values live in stack slots (mem2reg turns them into SSA after AD), starting
from -0.0. Where the primal values a reverse block needs come from (the value itself, a slot,
recomputation, a reload, the tape) is decided by ``availability`` and emitted by ``sourcing``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gradlink.ad import availability, expr, legality, rules, shadows, structural, tape
from gradlink.ad import globals as global_shadows
from gradlink.ad.derivative import CalleeDerivative, Derivative, Signature
from gradlink.ad.errors import ADError, describe
from gradlink.ad.sourcing import PrimalSources, record_name
from gradlink.ad.structural import ACCUMULATE
from gradlink.ad.synth import copy_primal, dispatch, redirect_unwind, stop_with_message
from gradlink.analysis.activity import Activity, Arg, uses_shadowed_globals
from gradlink.analysis.allocators import REALLOCATORS
from gradlink.analysis.cfg import CFG
from gradlink.analysis.typeinfo import UNKNOWN, Kind, TypeAnalysis, float_kind
from gradlink.ir.builder import Builder, float_literal
from gradlink.ir.model import Block, Function, Instr, Param, Value
from gradlink.ir.printer import define_line, print_blocks, string_constant
from gradlink.ir.types import I1, I8, I32, I64, PTR, VOID, Type, float_type

_UNWIND_MESSAGE = "gradlink: an exception was thrown inside a differentiated function\n"


class ReverseSynthesis:
    def __init__(self, fn: Function, sig: Signature, cfg: CFG, act: Activity,
                 where: Callable[[str | None], str | None], target_attrs: str,
                 callees: Callable[[str, Signature], CalleeDerivative | None] | None = None,
                 split: bool = False, structs: dict[str, Type] | None = None,
                 metadata: dict[str, str] | None = None,
                 writes: Callable[[str], set[int] | None] | None = None,
                 targets: Callable[[Instr], list[str]] | None = None,
                 table: rules.RuleTable = rules.BUILTIN) -> None:
        self.fn, self.sig, self.cfg, self.act = fn, sig, cfg, act
        self.table = table
        self.callees = callees or (lambda name, sig: None)
        self.targets = targets or (lambda ins: [])
        self.split = split
        self.callee_cache: dict[tuple[str, str], CalleeDerivative | None] = {}
        self.structs = structs or {}
        self.metadata = metadata or {}
        self._types: TypeAnalysis | None = None
        self.helpers: dict[str, str] = {}          # extra module-level functions (memcpy adjoints)
        self.where = where
        self.target_attrs = target_attrs
        self.p = fn.free_prefix("gl")       # a derivative of a derivative: its own names
        self.b = Builder(prefix=self.p)
        self.defs = fn.definitions()
        self.adj_slot: dict[str, str] = {}
        self.shadow: dict[str, str] = {}
        self.primal_of_shadow: dict[str, str] = {}
        self.tape_types: set[Type] = set()
        self.exits = [b.label for b in fn.blocks if b.terminator.opcode == "ret"]
        self.reachable = set(cfg.order)
        self.counted, self.exit_counts = self._counted_loops()
        # heap memory read after its last write: reloaded, its free waits for the reverse sweep
        frozen, self.deferred_frees = availability.frozen_loads(cfg, self.defs)
        self.avail = availability.Availability(
            cfg, self.defs, {p.name for p in fn.params}, self.counted, split,
            self.primal_of_shadow.get, self.shadow_ref, act.shadowed,
            self._unchanged_roots(writes), frozen)
        self.trips = {h: tc for h, (_, latch) in self.counted.items()
                      if (tc := availability.trip_count(cfg, self.defs, h, latch,
                                                        self.avail.inductions)) is not None}
        self.unwinds = False                          # the forward sweep has invokes: gl.unwind
        self.env: dict[str, Value] = {}               # primal values in the reverse block made
        self.src = PrimalSources(self)                # where the reverse sweep's values come from
        self.value_types: dict[str, Type] = {p.name: p.type for p in fn.params}
        for ins in fn.instructions():
            if ins.name and ins.type:
                self.value_types[ins.name] = ins.type
                if ins.type.kind == "int" and ins.name in act.varied:
                    self.value_types[ins.name] = _bits_float(ins.type)

    def _unchanged_roots(self, writes: Callable[[str], set[int] | None] | None) -> set[str]:
        """Pointer parameters whose memory nothing writes while the derivative runs: nothing in
        this function, and (split functions, whose reverse runs later) nothing in the callers,
        which say so in the signature."""
        mine = availability.readonly_params(self.fn, self.defs, writes, self.table)
        if self.split:
            mine &= {self.fn.params[i].name for i in self.sig.unchanged if i < len(self.fn.params)}
        return mine

    def _counted_loops(self) -> tuple[dict[str, tuple[str, str]], dict[str, list[str]]]:
        """Loops whose reverse is driven by an iteration count instead of a predecessor id per
        iteration: header with one preheader and one latch. Each exit pushes the count (zero
        when it is entered from outside the loop) unless the reverse can compute it. Returns
        header -> (preheader, latch) and exit block -> headers whose count it provides."""
        counted: dict[str, tuple[str, str]] = {}
        exit_counts: dict[str, list[str]] = {}
        for header, body in self.cfg.loops.items():
            preds = self.cfg.preds.get(header, [])
            if header not in self.reachable or len(preds) != 2:
                continue
            inside = [p for p in preds if p in body]
            outside = [p for p in preds if p not in body]
            if len(inside) != 1 or len(outside) != 1:
                continue
            if any(self.fn.block(p).terminator.targets.count(header) != 1 for p in preds):
                continue
            exits = {s for blk in body for s in self.cfg.succs.get(blk, []) if s not in body}
            counted[header] = (outside[0], inside[0])
            for x in sorted(exits):
                exit_counts.setdefault(x, []).append(header)
        return counted, exit_counts

    def count_names(self, header: str) -> tuple[str, str, str]:
        base = header.replace('"', "")
        return (f'%"{self.p}.cnt.{base}"', f'%"{self.p}.cnt1.{base}"', f'%"{self.p}.count.{base}"')

    # -- helpers ----------------------------------------------------------------------------
    def fail(self, ins: Instr, problem: str) -> ADError:
        return ADError(describe(self.fn.name, ins.text, self.where(ins.dbg), problem))

    def active(self, v: Value | str | None) -> bool:
        ref = v.ref if isinstance(v, Value) else v
        return ref is not None and self.act.active(ref)

    def slot(self, name: str) -> str:
        if name not in self.adj_slot:
            self.adj_slot[name] = f'%"{self.p}.adj.{len(self.adj_slot)}"'
        return self.adj_slot[name]

    def adj_type(self, v: Value) -> Type:
        """Adjoints of integers that carry float bits are floats of the same width."""
        return self.value_types.get(v.ref, v.type) if v.type.kind == "int" else v.type

    def add_adjoint(self, target: Value, contrib: Value | None) -> None:
        if contrib is None or not target.is_local or not self.active(target):
            return
        slot = self.slot(target.ref)
        t = self.adj_type(target)
        old = self.b.load(t, slot, hint="a")
        new = self._sum(old, contrib)
        self.b.store(new, slot)

    def _sum(self, a: Value, c: Value) -> Value:
        """a + c; for aggregates (small structs returned by value) field by field."""
        t = a.type
        if t.is_float:
            return self.b.binop("fadd", a, c, ACCUMULATE)
        acc = a
        for path, leaf in _float_leaves(t, self.structs):
            x, y = self.b.fresh("ea"), self.b.fresh("ec")
            self.b.extractvalue(a, path, leaf, name=x)
            self.b.extractvalue(Value(t, c.ref), path, leaf, name=y)
            z = self.b.binop("fadd", Value(leaf, x), Value(leaf, y))
            acc = self.b.insertvalue(acc, z, path, hint="agg")
        return acc

    def take_adjoint(self, name: str, t: Type) -> Value:
        slot = self.slot(name)
        g = self.b.load(t, slot, hint="g")
        self.b.store(Value(t, _empty_sum(t, self.b)), slot)
        return g

    @property
    def types(self) -> TypeAnalysis:
        if self._types is None:
            self._types = TypeAnalysis(self.fn, self.structs)
        return self._types

    def shadow_in_reverse(self, v: Value) -> Value:
        """The shadow of pointer v as available in the current reverse block."""
        ref = self.shadow_ref(v.ref)
        return self.env.get(ref, Value(v.type, ref))

    # -- analysis of what each reverse block needs -------------------------------------------
    def needs(self, block: Block) -> list[Value]:
        need: dict[str, Type] = {}

        def want(v: Value | None) -> None:
            if v is not None and v.is_local and not self.avail.is_direct(v.ref):
                need.setdefault(v.ref, v.type)

        for ins in block.instrs:
            op = ins.opcode
            if op in ("load", "store"):
                ptr = ins.operands[0] if op == "load" else ins.operands[1]
                if ptr.ref in self.act.shadowed and self._reverse_touches_memory(ins):
                    want(Value(ptr.type, self.shadow_ref(ptr.ref)))
                continue
            if op == "call" and ins.callee.startswith(("@llvm.memcpy", "@llvm.memmove")) and (
                    ins.operands[0].ref in self.act.shadowed):
                for v in ins.operands[:2]:
                    if v.ref in self.act.shadowed:
                        want(Value(v.type, self.shadow_ref(v.ref)))
                want(ins.operands[2])
                continue
            if op == "call" and ins.callee in REALLOCATORS and ins.name in self.act.shadowed:
                want(Value(ins.type, self.shadow_ref(ins.name)))  # type: ignore[arg-type]
                want(Value(ins.operands[0].type, self.shadow_ref(ins.operands[0].ref)))
                want(Value(I64, self._realloc_names(ins)[1]))
                continue
            allocator = self.table.allocator(ins.callee) if op in ("call", "invoke") else None
            if allocator is not None and ins.name in self.act.shadowed:
                want(Value(ins.type, self.shadow_ref(ins.name)))  # type: ignore[arg-type]
                for k in allocator.free_args:        # what freeing the shadow takes
                    if k >= 0:
                        want(ins.operands[k])
                continue
            if op == "call" and ins.callee.startswith("@llvm.memset") and ins.operands[0].ref in self.act.shadowed:
                want(Value(ins.operands[0].type, self.shadow_ref(ins.operands[0].ref)))
                want(ins.operands[2])
                continue
            if op in ("call", "invoke") and self._callee(ins) is not None:
                if ins.callee.startswith("%"):           # indirect: the reverse dispatches too
                    want(Value(PTR, ins.callee))
                for v in ins.operands:
                    want(v)
                    if v.ref in self.act.shadowed:
                        want(Value(v.type, self.shadow_ref(v.ref)))
                continue
            if not self.active(ins.name):
                continue
            for v in self._rule_inputs(ins):
                want(v)
        return [Value(t, r) for r, t in need.items()]

    def call_signature(self, ins: Instr) -> Signature:
        kinds: list[Arg] = []
        for v in ins.operands:
            if self.active(v):
                kinds.append(Arg.OUT)
            elif v.ref in self.act.shadowed:
                kinds.append(Arg.DUP)
            else:
                kinds.append(Arg.CONST)
        unchanged = frozenset(i for i, v in enumerate(ins.operands) if v.type.is_ptr and
                              availability.root(v.ref, self.defs) in self.avail.readonly)
        shadow_return = ins.type is not None and ins.type.is_ptr and ins.name in self.act.shadowed
        return Signature(tuple(kinds), self.active(ins.name), unchanged=unchanged,  # struct results too
                         shadow_return=shadow_return, context=self.sig.context)

    def _callee(self, ins: Instr) -> CalleeDerivative | None:
        """The derivative pair for a call of a function defined in the module, when the call
        touches active data; None for rule-based, inactive or untouched calls."""
        if ins.opcode == "call" and ins.callee.startswith("%"):
            return self._indirect_callee(ins)
        if ins.opcode not in ("call", "invoke") or not self.table.is_differentiated_call(ins.callee):
            return None
        sig = self.call_signature(ins)
        if not sig.active_return and not sig.shadow_return and \
                all(k is Arg.CONST for k in sig.args) and not uses_shadowed_globals(ins, self.act):
            return None
        key = (ins.callee, sig.key())
        if key not in self.callee_cache:
            pair = self.callees(ins.callee, sig)
            if pair is not None and pair.custom_signature is not None:
                for v, kind in zip(ins.operands, pair.custom_signature.args):
                    if kind is Arg.DUP and v.ref not in self.act.shadowed and v.ref != "null":
                        raise self.fail(ins, f"the registered gradient of {ins.callee.lstrip('@')} "
                                             f"needs a shadow for {v.ref}, which has none")
            self.callee_cache[key] = pair
        return self.callee_cache[key]

    def _indirect_callee(self, ins: Instr) -> CalleeDerivative | None:
        """An indirect call touching active data: the pairs of every function of the module it
        may reach (address taken, same type). None when it touches nothing active or may reach
        nothing we can differentiate (then it is refused as before)."""
        sig = self.call_signature(ins)
        if not sig.active_return and not sig.shadow_return and \
                all(k is Arg.CONST for k in sig.args) and not uses_shadowed_globals(ins, self.act):
            return None
        key = (ins.callee, sig.key())
        if key not in self.callee_cache:
            entries = []
            for name in self.targets(ins):
                pair = self.callees(name, sig)
                if pair is None or pair.custom_signature is not None:
                    raise self.fail(ins, f"an indirect call may reach {name.lstrip('@')}, whose "
                                         "derivative cannot be chosen at run time")
                entries.append((name, pair))
            if not entries:
                self.callee_cache[key] = None
            else:
                first = entries[0][1]
                self.callee_cache[key] = CalleeDerivative(
                    "", "", first.ret, first.out_positions, shadow_return=first.shadow_return,
                    dispatch=tuple((n, p.aug, p.rev) for n, p in entries))
        return self.callee_cache[key]

    def _dispatch(self, ins: Instr, callee: CalleeDerivative, rev: bool, fnptr: str,
                  types: list[Type], ret: Type | None) -> str:
        """The aug (or rev) of the target the called pointer is, chosen by a chain of selects;
        a pointer matching no target reaches a function that stops the program with a message."""
        kind = "rev" if rev else "aug"
        base = self.fn.name.strip("@").strip('"')
        fallback = f'@"gl.indirect.unknown.{kind}.{base}.{len(self.helpers)}"'
        choices = [(target, rev_fn if rev else aug) for target, aug, rev_fn in callee.dispatch]
        return dispatch(self.b, self.helpers, fnptr, choices, fallback, types, ret)

    def _reverse_touches_memory(self, ins: Instr) -> bool:
        if ins.opcode == "load":
            return self.active(ins.name)
        return self._stored_float_type(ins) is not None

    def _stored_float_type(self, ins: Instr) -> Type | None:
        """The float type whose adjoint a store into shadowed memory moves, if any."""
        val, ptr = ins.operands
        if val.type.kind == "int":
            mem = self.types.memory.get(ptr.ref)
            if val.ref in self.act.varied or (
                    mem is not None and (mem.kind_at(0) or UNKNOWN).is_float):
                return _bits_float(val.type)
            return None
        return val.type if val.type.has_float else None

    def _rule_inputs(self, ins: Instr) -> list[Value]:
        """Primal values the adjoint of ins reads."""
        if ins.opcode in ("phi", "fneg"):
            return []
        moves = structural.lookup(ins)
        if moves is not None:
            return moves.reads(ins)
        rule = self._rule(ins)
        if rule is None:
            return []
        needed = rule.needs([self.active(v) for v in ins.operands])
        vals = []
        names = ["x", "y", "z"]
        for i, v in enumerate(ins.operands[:3]):
            if names[i] in needed or rule.name in ("powi", "ldexp"):
                vals.append(v)
        if "r" in needed and ins.value is not None:
            vals.append(ins.value)
        return vals

    def _rule(self, ins: Instr) -> rules.Rule | None:
        if ins.opcode == "call":
            return self.table.rule_for_call(ins.callee)
        return rules.BY_NAME.get(ins.opcode)

    def shadow_ref(self, ptr: str) -> str:
        if not ptr.startswith("%"):          # a global variable, or a constant expression into one
            return global_shadows.shadow_ref(ptr, self.act.shadowed_globals, self.sig.space)
        if ptr not in self.shadow:
            self.shadow[ptr] = f'%"{self.p}.sh.{len(self.shadow)}"'
            self.primal_of_shadow[self.shadow[ptr]] = ptr
        return self.shadow[ptr]

    # -- synthesis -----------------------------------------------------------------------------
    def _primal_params(self) -> list[Param]:
        """The parameters, each dup/dupnoneed pointer followed by its shadow."""
        params = []
        for i, (p, kind) in enumerate(zip(self.fn.params, self.sig.args)):
            params.append(Param(p.type, p.name))
            if kind.has_shadow:
                self.shadow[p.name] = f'%"{self.p}.shadow.{i}"'
                self.primal_of_shadow[self.shadow[p.name]] = p.name
                params.append(Param(PTR, self.shadow[p.name]))
        return params

    def _define(self, name: str, ret: Type | None, params: list[Param],
                blocks: list[Block]) -> str:
        return print_blocks(define_line(name, ret, params, self.target_attrs.strip()), blocks)

    def run_split(self, aug_name: str, rev_name: str) -> tuple[Derivative, Derivative]:
        """Augmented forward (primal + tape) and reverse (adjoints) as two functions."""
        self._check()
        params = self._primal_params()
        rev_params = list(params)
        if self.sig.active_return:
            rev_params.append(Param(self.fn.ret, f'%"{self.p}.dret"'))
        plans = self.src.plan()
        # the reverse first: it decides which values the forward sweep keeps in slots
        reverse = [blk for b in self.fn.blocks if b.label in self.reachable
                   for blk in self._reverse_block(b, *plans[b.label])]
        outs = [p for p, k in zip(self.fn.params, self.sig.args) if k is Arg.OUT]
        exit_block, ret_type = self._exit(outs)
        entry = self.b.block(f"{self.p}.entry")
        self._adjoint_slots()
        forward = [blk for b in self.fn.blocks
                   for blk in self._forward_block(b, plans.get(b.label, ([], []))[0])]
        if self.unwinds:
            forward.append(self._unwind_block())
        aug_ret = Type("struct", fields=(PTR, PTR)) if self.sig.shadow_return else self.fn.ret
        aug_text = self._define(aug_name, aug_ret, params, forward)
        exits = [e for e in self.exits if e in self.reachable]
        b = self.b
        b.position_at_end(entry.instrs)
        exit_id = Value(I32, f'%"{self.p}.exit.id"')
        if len(exits) > 1:
            self.tape_types.add(I32)
            b.call(tape.pop_fn(I32), [], I32, name=exit_id.ref)
        for slot in reversed(self.src.cached.values()):        # the slots' record, last in first out
            self.tape_types.add(slot.type)
            b.call(tape.pop_fn(slot.type), [], slot.type, name=record_name(slot.ref))
        if len(exits) == 1:
            b.br(f"{self.p}.rev.{exits[0]}")
        else:
            b.switch(exit_id, f"{self.p}.rev.{exits[0]}",
                     [(Value(I32, str(k)), f"{self.p}.rev.{e}") for k, e in enumerate(exits) if k])
        self.src.fill_loop_slot_pops()
        rev_text = self._define(rev_name, ret_type, rev_params, [entry, *reverse, exit_block])
        decls = self._declarations()
        out_types = [p.type for p in outs]
        aug_type = Type("struct", fields=(self.fn.ret, self.fn.ret)) if self.sig.shadow_return \
            else self.fn.ret
        return (Derivative(aug_name, aug_text, aug_type, [], self.tape_types, decls),
                Derivative(rev_name, rev_text, ret_type, out_types, self.tape_types, decls,
                           dict(self.helpers)))

    def _declarations(self) -> dict[str, str]:
        if self.helpers:
            self.b.declare_library("@malloc", "@free", "@llvm.memcpy.p0.p0.i64",
                                   "@llvm.memset.p0.i64")
        return dict(self.b.declarations)

    def _adjoint_slots(self) -> None:
        """The entry block's allocas (at the insertion point): loop counters, value slots and
        adjoint slots, the adjoints starting from an empty sum."""
        b = self.b
        for h in self.counted:
            b.alloca(I64, name=self.count_names(h)[2])
        if not self.split:
            for slot in self.src.cached.values():
                b.alloca(slot.type, name=slot.ref)
        for slots in self.src.loop_slots.values():
            for slot in slots.values():
                b.alloca(slot.type, name=slot.ref)
        for ref, adj in self.adj_slot.items():
            t = self.value_types[ref]
            b.alloca(t, name=adj)
            b.store(Value(t, _empty_sum(t, self.b)), adj)

    def run(self, name: str) -> Derivative:
        self._check()
        params = self._primal_params()
        if self.sig.active_return:
            params.append(Param(self.fn.ret, f'%"{self.p}.dret"'))
        plans = self.src.plan()
        # the reverse first: it decides which values the forward sweep keeps in slots
        reverse = [blk for b in self.fn.blocks if b.label in self.reachable
                   for blk in self._reverse_block(b, *plans[b.label])]
        forward = [blk for b in self.fn.blocks
                   for blk in self._forward_block(b, plans.get(b.label, ([], []))[0])]
        if self.unwinds:
            forward.append(self._unwind_block())
        outs = [p for p, k in zip(self.fn.params, self.sig.args) if k is Arg.OUT]
        exit_block, ret_type = self._exit(outs)
        entry = self.b.block(f"{self.p}.entry")
        self._adjoint_slots()
        self.b.br(self.fn.blocks[0].label)
        self.src.fill_loop_slot_pops()
        body = self._define(name, ret_type, params, [entry, *forward, *reverse, exit_block])
        return Derivative(name, body, ret_type, [p.type for p in outs], self.tape_types,
                          self._declarations(), dict(self.helpers))

    def _check(self) -> None:
        for found in legality.findings(self.fn, self.act, self.reachable, self.table,
                                       self._returns_shadow, self._exception_ok):
            raise self.fail(found.ins, found.problem)

    def _exception_ok(self, ins: Instr) -> bool:
        """An invoke of a function whose augmented forward the forward sweep can invoke."""
        callee = self._callee(ins) if ins.opcode == "invoke" else None
        return callee is not None and not callee.dispatch and not callee.shadow_return

    def _returns_shadow(self, ins: Instr) -> bool:
        """A call of a function of the module whose augmented forward returns the shadow of the
        pointer it returns (a registered derivative cannot)."""
        pair = self._callee(ins) if self.table.is_differentiated_call(ins.callee) else None
        return pair is not None and pair.shadow_return and pair.custom_signature is None

    def _inactive_memory(self, ref: str) -> bool:
        return self.table.is_inactive_memory(ref, self.defs)

    def _forward_block(self, block: Block, need: list[Value]) -> list[Block]:
        label = block.label
        if label not in self.reachable:      # landing pads and what only unwinding reaches:
            return []                        # an exception in a derivative stops it (gl.unwind)
        b = self.b
        out = b.block(label)
        if self.split and block is self.fn.blocks[0]:
            for slot in self.src.cached.values():
                b.alloca(slot.type, name=slot.ref)
        for ins in block.phis:
            kept = [(v, blk) for v, blk in ins.incoming if blk in self.reachable]
            if len(kept) == len(ins.incoming):
                copy_primal(b, ins)
            else:
                b.copy(ins, incoming=kept)
            if ins.name in self.act.shadowed:
                b.phi(PTR, [(Value(PTR, self._shadow_of(v, ins)), blk) for v, blk in kept],
                      name=self.shadow_ref(ins.name))
        preds = self.cfg.preds.get(label, [])
        pushes: list[Value] = []
        if label in self.counted:
            pre, latch = self.counted[label]
            cnt, cnt1, _ = self.count_names(label)
            b.phi(I64, [(Value(I64, "0"), pre), (Value(I64, cnt1), latch)], name=cnt)
        elif label in self.reachable and len(preds) > 1 and label not in self.src.branch_joins:
            pushes.append(Value(I32, self.src.edge_phi(label, preds, lambda k, p: str(k), "from")))
        if label in self.reachable:
            for header in self.exit_counts.get(label, []):
                if (label, header) in self.src.computed_counts:
                    continue
                body = self.cfg.loops[header]
                count = self.count_names(header)[1]
                if not set(preds) <= body:         # entered from outside the loop too: count 0
                    inside = {p: count if p in body else "0" for p in preds}
                    # called within _edge_phi, while inside is this iteration's
                    count = self.src.edge_phi(label, preds, lambda k, p: inside[p],  # noqa: B023
                                           "exitcount", I64)
                pushes.append(Value(I64, count))
            pushes += self.src.loop_slot_pushes(label, preds)
        if label in self.counted:
            cnt, cnt1, _ = self.count_names(label)
            b.binop("add", Value(I64, cnt), Value(I64, "1"), name=cnt1)
        self.src.push_all(pushes)
        for ins in block.phis:
            self.src.store_slots(ins)
        for ins in block.instrs:
            if ins.opcode == "phi" or ins.is_terminator:
                continue
            self._forward_instr(ins)
            self.src.store_slots(ins)
        term = block.terminator
        allocator = self.table.allocator(term.callee) if term.opcode == "invoke" else None
        if allocator is not None and term.name in self.act.shadowed:
            # the shadow needs only the size: made before the invoke (and pushed with the rest)
            if not shadows.emit_shadow(b, term, self.shadow_ref(term.name),
                                       lambda v: self._shadow_of(v, term), allocator):
                raise self.fail(term, "cannot make a shadow for 'invoke'")
        self.src.push_all(need)
        if term.opcode == "ret" and not self.split:
            b.br(f"{self.p}.rev.{label}")
        else:
            if term.opcode == "ret":
                for slot in self.src.cached.values():             # the record the reverse pops first
                    self.src.push(b.load(slot.type, slot, hint="rec"))
                exits = [e for e in self.exits if e in self.reachable]
                if len(exits) > 1:
                    self.src.push(Value(I32, str(exits.index(label))))
            if term.opcode == "invoke":
                self._forward_invoke(term)
            elif term.opcode == "ret" and self.sig.shadow_return:   # {result, its shadow}
                v = term.operands[0]
                pair = Value(Type("struct", fields=(PTR, PTR)), "poison")
                first = b.insertvalue(pair, v, [0], hint="ret")
                both = b.insertvalue(first, Value(PTR, self._shadow_of(v, term)), [1], hint="ret")
                b.ret(both)
            else:
                copy_primal(b, term)
        return [out]

    def _forward_invoke(self, ins: Instr) -> None:
        """An invoke: of the callee's augmented forward when it touches active data; either way
        unwinding goes to gl.unwind, which stops the program (a derivative of an execution that
        throws is not computed, and must not come out wrong)."""
        self.unwinds = True
        callee = self._callee(ins)
        unwind = f"{self.p}.unwind"
        if callee is None:
            self.b.copy(redirect_unwind(ins, unwind))
            return
        self.b.invoke(callee.aug, self._call_args(ins, lambda v: v), ins.type, ins.targets[0],
                      unwind, name=ins.name)

    def _unwind_block(self) -> Block:
        name = '@"gl.unwind.message"'
        self.helpers[name] = string_constant(name, _UNWIND_MESSAGE)
        blk = self.b.block(f"{self.p}.unwind")
        self.b.landingpad(Type("struct", fields=(PTR, I32)), ["catch ptr null"],
                          name=f'%"{self.p}.lp"')
        stop_with_message(self.b, name, _UNWIND_MESSAGE)
        return blk

    def _shadow_of(self, v: Value, ins: Instr) -> str:
        if v.ref in self.act.shadowed:
            return self.shadow_ref(v.ref)
        if v.ref in ("null", "undef", "poison"):
            return v.ref
        raise self.fail(ins, f"pointer {v.ref} mixes with active pointers but has no shadow")

    def _arg_types(self, ins: Instr) -> list[Type]:
        """The parameter types of a call's aug/rev: each operand's, a shadow's after it."""
        out = []
        for v in ins.operands:
            out.append(v.type)
            if v.ref in self.act.shadowed:
                out.append(PTR)
        return out

    def _call_args(self, ins: Instr, available: Callable[[Value], Value]) -> list[Value]:
        out = []
        for v in ins.operands:
            out.append(available(v))
            if v.ref in self.act.shadowed:
                sh = self.shadow_ref(v.ref)
                out.append(Value(PTR, available(Value(v.type, sh)).ref))
        return out

    def _forward_instr(self, ins: Instr) -> None:
        b = self.b
        op = ins.opcode
        callee = self._callee(ins) if op == "call" else None
        if callee is not None:
            args = self._call_args(ins, lambda v: v)
            aug = callee.aug
            pair = Type("struct", fields=(PTR, PTR))
            if callee.dispatch:
                aug_ret = pair if callee.shadow_return else ins.type
                aug = self._dispatch(ins, callee, False, ins.callee, self._arg_types(ins), aug_ret)
            if callee.shadow_return and ins.name:          # {result, its shadow}
                both = b.call_value(aug, args, pair, hint="both")
                b.extractvalue(both, [0], PTR, name=ins.name)
                b.extractvalue(both, [1], PTR, name=self.shadow_ref(ins.name))
                return
            b.call(aug, args, ins.type, name=ins.name)
            return
        if op == "alloca" and ins.name in self.src.heap_allocas:
            shadows.emit_heap_alloca(b, ins, ins.name, zeroed=False)
            if ins.name in self.act.shadowed:
                shadows.emit_heap_alloca(b, ins, self.shadow_ref(ins.name), zeroed=True)
            return
        if op == "call" and ins.callee.startswith("@llvm.lifetime.") and \
                ins.operands[-1].ref in self.src.heap_allocas:
            return                                  # no longer on the stack
        if op == "call" and ins.callee == "@free" and ins.operands[0].ref in self.deferred_frees:
            return                                  # the reverse sweep still reads it
        copy_primal(b, ins)
        if ins.name in self.act.shadowed and ins.name not in self.shadow_args():
            sh = self.shadow_ref(ins.name)
            if op == "call" and ins.callee in REALLOCATORS:
                # the old shadow stays alive for the reverse sweep, which moves the adjoints
                # back into it at this point
                used, kept = self._realloc_names(ins)
                shadows.emit_realloc_shadow(b, ins, sh, self._shadow_of(ins.operands[0], ins),
                                            used, kept)
            elif not shadows.emit_shadow(b, ins, sh, lambda v: self._shadow_of(v, ins),
                                         self.table.allocator(ins.callee) if op == "call" else None):
                raise self.fail(ins, f"cannot make a shadow for '{op}'")
        elif op == "store":
            val, ptr = ins.operands
            if ptr.ref in self.act.shadowed and val.ref in self.act.shadowed:
                b.store(Value(PTR, self.shadow_ref(val.ref)), self.shadow_ref(ptr.ref))
        elif op == "call":
            self._forward_call(ins)

    def shadow_args(self) -> set[str]:
        return {p.name for p, k in zip(self.fn.params, self.sig.args) if k.has_shadow}

    def _forward_call(self, ins: Instr) -> None:
        callee = ins.callee
        touches = [v for v in ins.operands if self.active(v) or v.ref in self.act.shadowed]
        if callee.startswith("@llvm.memset"):
            dst = ins.operands[0]
            if dst.ref in self.act.shadowed:
                self.b.call(callee, [Value(PTR, self.shadow_ref(dst.ref)), *ins.operands[1:]],
                            None)
            return
        if callee.startswith(("@llvm.memcpy", "@llvm.memmove")):
            dst, src = ins.operands[0], ins.operands[1]
            if dst.ref in self.act.shadowed and src.ref in self.act.shadowed:
                self.b.call(callee, [Value(PTR, self.shadow_ref(dst.ref)),
                                     Value(PTR, self.shadow_ref(src.ref)), *ins.operands[2:]], None)
            elif dst.ref in self.act.shadowed:
                self.b.libcall("@llvm.memset.p0.i64", [Value(PTR, self.shadow_ref(dst.ref)),
                                                       Value(I8, "0"), ins.operands[2],
                                                       Value(I1, "false")])
            elif src.ref in self.act.shadowed:
                raise self.fail(ins, "active memory is copied into memory that has no shadow")
            return
        if self.table.freed_pointer(callee) is not None:
            return          # the shadow lives on until the reverse sweep reaches the allocation
        if self.table.rule_for_call(callee) is not None or self.table.is_inactive_call(callee):
            return
        if structural.lookup(ins) is not None:       # reductions, complex arithmetic
            return
        if touches or self.active(ins.name):
            what = f"function {callee.lstrip('@')}" if callee.startswith("@") else "an indirect call"
            raise self.fail(ins, f"{what} has no body in the LTO unit and no derivative rule")

    # -- reverse -------------------------------------------------------------------------------
    def _reverse_block(self, block: Block, taped: list[Value], made: list[Value]) -> list[Block]:
        b = self.b
        label = block.label
        rev = b.block(f"{self.p}.rev.{label}")
        self.env = {}
        for v in reversed(taped):
            self.tape_types.add(v.type)
            self.env[v.ref] = b.call_value(tape.pop_fn(v.type), [], v.type, hint="tape")
        for v in made:
            self.src.materialize(v, label)
        term = block.terminator
        if term.opcode == "ret" and self.sig.active_return and term.operands:
            self.add_adjoint(term.operands[0], Value(self.fn.ret, f'%"{self.p}.dret"'))
        for ins in reversed(block.instrs):
            if ins.opcode == "phi" or (ins.is_terminator and ins.opcode != "invoke"):
                continue
            self._reverse_instr(ins)
        phi_adj = []
        for ins in block.phis:
            if self.active(ins.name):
                phi_adj.append((ins, self.take_adjoint(ins.name, self.adj_type(ins.value))))  # type: ignore[arg-type]
        preds = self.cfg.preds.get(label, [])
        self.src.loop_slot_points[label] = b.mark()
        for header in reversed(self.exit_counts.get(label, [])):
            if (label, header) in self.src.computed_counts:
                count = self.src.trip_count(self.trips[header], label)
            else:
                self.tape_types.add(I64)
                count = b.call_value(tape.pop_fn(I64), [], I64, hint="count")
            b.store(count, self.count_names(header)[2])
        edge = f"{self.p}.edge.{label}"
        if label in self.counted:
            slot = self.count_names(label)[2]
            left = b.load(I64, slot, name=b.fresh("left"))
            rest = b.binop("sub", left, Value(I64, "1"), name=b.fresh("rest"))
            b.store(rest, slot)
            first = b.icmp("eq", rest, Value(I64, "0"), hint="first")
            pre, latch = self.counted[label]
            kp, kl = preds.index(pre), preds.index(latch)
            b.cond_br(first, f"{edge}.{kp}", f"{edge}.{kl}")
            return [rev, *self._edge_blocks(label, preds, phi_adj)]
        if not preds:
            b.br(f"{self.p}.exit")
            return [rev]
        if len(preds) == 1:
            self._phi_transfer(phi_adj, preds[0])
            b.br(f"{self.p}.rev.{preds[0]}")
            return [rev]
        if label in self.src.branch_joins:            # the branch that chose is recomputed
            cond, k_true, k_false = self.src.branch_joins[label]
            c = self.src.materialize(cond, label)
            from_id = b.select(c, Value(I32, str(k_true)), Value(I32, str(k_false)))
        else:
            self.tape_types.add(I32)
            from_id = b.call_value(tape.pop_fn(I32), [], I32, hint="from")
        b.switch(from_id, f"{edge}.0",
                 [(Value(I32, str(k)), f"{edge}.{k}") for k in range(1, len(preds))])
        return [rev, *self._edge_blocks(label, preds, phi_adj)]

    def _edge_blocks(self, label: str, preds: list[str],
                     phi_adj: list[tuple[Instr, Value]]) -> list[Block]:
        """One block per predecessor edge: the phi adjoints move along it, then on to that
        predecessor's reverse block."""
        out = []
        for k, p in enumerate(preds):
            out.append(self.b.block(f"{self.p}.edge.{label}.{k}"))
            self._phi_transfer(phi_adj, p)
            self.b.br(f"{self.p}.rev.{p}")
        return out

    def _phi_transfer(self, phi_adj: list[tuple[Instr, Value]], pred: str) -> None:
        for ins, g in phi_adj:
            for v, blk in ins.incoming:
                if blk == pred:
                    self.add_adjoint(v, g)
                    break

    def val(self, v: Value) -> Value:
        """The primal value as available in the current reverse block."""
        return self.env.get(v.ref, v)

    def _reverse_instr(self, ins: Instr) -> None:
        op = ins.opcode
        callee = self._callee(ins) if op in ("call", "invoke") else None
        allocator = self.table.allocator(ins.callee) if op in ("call", "invoke") else None
        if op == "invoke" and callee is None and allocator is None:
            return
        if callee is not None:
            self._reverse_call(ins, callee)
            return
        if op == "store":
            self._reverse_store(ins)
            return
        if allocator is not None and (
                ins.name in self.act.shadowed or ins.name in self.deferred_frees):
            if allocator.builtin:
                self.b.declare_library("@free")
            args = [self.val(v) for v in ins.operands]
            if ins.name in self.act.shadowed:
                shadows.emit_free(self.b, allocator, self.shadow_in_reverse(ins.value), args)  # type: ignore[arg-type]
            if ins.name in self.deferred_frees:
                self.b.libcall("@free", [self.val(ins.value)])  # type: ignore[arg-type]
            return
        if op == "alloca" and ins.name in self.src.heap_allocas:
            self.b.libcall("@free", [self.val(ins.value)])  # type: ignore[arg-type]
            if ins.name in self.act.shadowed:
                self.b.libcall("@free", [self.shadow_in_reverse(ins.value)])  # type: ignore[arg-type]
            return
        if op == "call" and ins.callee.startswith(("@llvm.memcpy", "@llvm.memmove")):
            self._reverse_memcpy(ins)
            return
        if op == "call" and ins.callee in REALLOCATORS and ins.name in self.act.shadowed:
            self._reverse_realloc(ins)
            return
        if op == "call" and ins.callee.startswith("@llvm.memset"):
            dst = ins.operands[0]
            if dst.ref in self.act.shadowed:
                sh = self.env.get(self.shadow_ref(dst.ref), Value(dst.type, self.shadow_ref(dst.ref)))
                size = self.val(ins.operands[2])
                self.b.call(ins.callee, [Value(PTR, sh.ref), Value(I8, "0"), size,
                                         Value(I1, "false")], None)
            return
        if not self.active(ins.name) or ins.type is None:
            return
        t = self.adj_type(ins.value)  # type: ignore[arg-type]
        g = self.take_adjoint(ins.name, t)  # type: ignore[arg-type]
        moves = structural.lookup(ins)
        if moves is not None and moves.adjoint is not None:
            moves.adjoint(self, ins, g)
            return
        self._reverse_rule(ins, g)

    def _reverse_call(self, ins: Instr, callee: CalleeDerivative) -> None:
        args = self._call_args(ins, lambda v: self.env.get(v.ref, v))
        types = self._arg_types(ins)
        if self.active(ins.name):
            g = self.take_adjoint(ins.name, ins.type)  # type: ignore[arg-type]
            args.append(g)
            types.append(ins.type)  # type: ignore[arg-type]
        elif callee.custom_signature is not None and callee.custom_signature.active_return:
            args.append(self.b.zero(ins.type))  # type: ignore[arg-type]  # the user's reverse wants one
        rev = callee.rev
        if callee.dispatch:
            fnptr = self.env.get(ins.callee, Value(PTR, ins.callee)).ref
            rev = self._dispatch(ins, callee, True, fnptr, types, callee.ret)
        if callee.ret is None:
            self.b.call(rev, args, None)
            return
        res = self.b.call_value(rev, args, callee.ret, hint="radj")
        for k, pos in enumerate(callee.out_positions):
            operand = ins.operands[pos]
            if len(callee.out_positions) == 1:
                self.add_adjoint(operand, Value(operand.type, res.ref))
            else:
                self.add_adjoint(operand, self.b.extractvalue(res, [k], operand.type,
                                                              hint="radj"))

    def _reverse_memcpy(self, ins: Instr) -> None:
        """d src += d dst; d dst = 0 over the floating-point bytes of the copy."""
        dst, src, size = ins.operands[0], ins.operands[1], ins.operands[2]
        if dst.ref not in self.act.shadowed:
            return
        if src.ref not in self.act.shadowed:
            # inactive bytes overwrote the destination: the adjoints of what was there die
            self.b.declare_library("@llvm.memset.p0.i64")
            n = self.val(size)
            if n.type.bits != 64:
                n = self.b.cast("zext", n, I64)
            self.b.libcall("@llvm.memset.p0.i64", [Value(PTR, self.shadow_in_reverse(dst).ref),
                                                   Value(I8, "0"), n, Value(I1, "false")])
            return
        kind = self.types.region_kind(dst.ref) or self.types.region_kind(src.ref)
        fields = self._tbaa_struct(ins)
        if fields is not None:                      # the front end described the copy's layout
            for off, k in fields:
                if k.is_float:
                    self._adjoint_move(self.shadow_in_reverse(dst), self.shadow_in_reverse(src), off, k.float)
            return
        if kind is None:
            mem = self.types.memory.get(dst.ref) or self.types.memory.get(src.ref)
            if mem is None or not mem.at or mem.strided or mem.conflict:
                raise self.fail(ins, "type analysis cannot tell which bytes of this copy are "
                                     "floating point")
            for off, k in sorted(mem.at.items()):
                if k.is_float:
                    self._adjoint_move(self.shadow_in_reverse(dst), self.shadow_in_reverse(src), off, k.float)
            return
        if not kind.is_float:
            return                                  # integers and pointers carry no adjoint
        elem = kind.float
        helper = f'@"gl.{"memmove" if "memmove" in ins.callee else "memcpy"}.adjoint.{elem}"'
        self.helpers[helper] = _copy_adjoint_helper(helper, elem, "memmove" in ins.callee)
        self.b.call(helper, [Value(PTR, self.shadow_in_reverse(dst).ref),
                             Value(PTR, self.shadow_in_reverse(src).ref), self.val(size)], None)

    def _realloc_names(self, ins: Instr) -> tuple[str, str]:
        base = self.shadow_ref(ins.name)[:-1]  # type: ignore[arg-type]
        used, kept = f'{base}.used"', f'{base}.kept"'
        self.primal_of_shadow[kept] = ins.name  # type: ignore[assignment]  # lives where ins does
        return used, kept

    def _reverse_realloc(self, ins: Instr) -> None:
        """Adjoints in the new block's first bytes go back to the old block; the new shadow dies.
        With the element type unknown (a function that only reallocates a block its caller
        fills) the bytes are copied: the old shadow's float adjoints are still zero there (every
        access through the old pointer comes before the realloc, so its reverse comes after),
        so adding the new block's adjoints to them is copying them."""
        old, new = ins.operands[0], Value(ins.type, ins.name)  # type: ignore[arg-type]
        kept = self.env.get(self._realloc_names(ins)[1], Value(I64, self._realloc_names(ins)[1]))
        kind = self.types.region_kind(ins.name) or self.types.region_kind(old.ref)  # type: ignore[arg-type]
        new_sh = Value(PTR, self.shadow_in_reverse(new).ref)
        old_sh = Value(PTR, self.shadow_in_reverse(old).ref)
        if kind is not None and kind.is_float:
            elem = kind.float
            helper = f'@"gl.memcpy.adjoint.{elem}"'
            self.helpers[helper] = _copy_adjoint_helper(helper, elem, False)
            self.b.call(helper, [new_sh, old_sh, kept], None)
        elif kind is None:
            self.b.libcall("@llvm.memcpy.p0.p0.i64", [old_sh, new_sh, kept, Value(I1, "false")])
        self.b.libcall("@free", [new_sh])

    def _tbaa_struct(self, ins: Instr) -> list[tuple[int, Kind]] | None:
        """Field layout of a struct copy from its !tbaa.struct metadata: (offset, kind)."""
        m = re.search(r"!tbaa\.struct (!\d+)", ins.text)
        if m is None or m.group(1) not in self.metadata:
            return None
        items = [x.strip() for x in self.metadata[m.group(1)].split(",")]
        fields = []
        for i in range(0, len(items) - 2, 3):
            off = int(items[i].split()[-1])
            tag = self.metadata.get(items[i + 2], "")
            access = [x.strip() for x in tag.split(",")]
            name_node = self.metadata.get(access[1], "") if len(access) > 1 else ""
            name = re.match(r'!"([^"]*)"', name_node.strip())
            type_name = name.group(1) if name else ""
            if type_name in ("double", "float"):
                fields.append((off, float_kind(type_name)))
            elif type_name in ("long double", "__float128", "_Float16", "__fp16"):
                raise self.fail(ins, f"copy of a {type_name} field: not supported")
        return fields

    def _adjoint_move(self, dst: Value, src: Value, off: int, elem: str) -> None:
        b, t = self.b, float_type(elem)
        pd, ps = b.fresh("pd"), b.fresh("ps")
        offset = [Value(I64, str(off))]
        b.gep(I8, dst.ref, offset, name=pd)
        b.gep(I8, src.ref, offset, name=ps)
        d, o = b.fresh("d"), b.fresh("o")
        b.load(t, pd, 1, name=d)
        b.store(b.zero(t), pd, 1)
        b.load(t, ps, 1, name=o)
        s = b.binop("fadd", Value(t, o), Value(t, d), name=b.fresh("s"))
        b.store(s, ps, 1)

    def _reverse_store(self, ins: Instr) -> None:
        """The stored-over location's adjoint goes to the stored value, and is then cleared."""
        val, ptr = ins.operands
        t = self._stored_float_type(ins)
        if ptr.ref not in self.act.shadowed or t is None:
            return
        if not t.is_float:
            raise self.fail(ins, f"store of an aggregate {val.type} to active memory is not supported yet")
        sh = self.env.get(self.shadow_ref(ptr.ref), Value(ptr.type, self.shadow_ref(ptr.ref)))
        align = structural.align_of(ins)
        m = self.b.load(t, sh.ref, align, hint="m")
        self.b.store(self.b.zero(t), sh.ref, align)
        self.add_adjoint(val, m)

    def _reverse_rule(self, ins: Instr, g: Value) -> None:
        rule = self._rule(ins)
        if rule is None:
            raise self.fail(ins, f"no derivative rule for '{ins.opcode}'"
                            + (f" calling {ins.callee}" if ins.callee else ""))
        env: dict[str, Value] = {}
        names = ["x", "y", "z"]
        for i, v in enumerate(ins.operands[:3]):
            env[names[i]] = self.val(v)
        if ins.value is not None:
            env["r"] = self.val(ins.value)
        if rule.name in ("powi", "ldexp"):
            nv = self.val(ins.operands[1])
            env["n"] = self.b.cast("sitofp", nv, ins.type)  # type: ignore[arg-type]
            env["k"] = self.b.binop("sub", nv, Value(nv.type, "1"))
        for i, node in enumerate(rule.compiled()):
            operand = ins.operands[i]
            if node is None or not self.active(operand):
                continue
            partial = expr.emit(node, env, self.b, g)
            if partial is None:
                continue
            contrib = g if _is_one(partial, self.b) else self.b.binop("fmul", g, partial)
            if g.type.kind == "vector" and contrib is not g:
                # lanes the program leaves undefined (a shuffle's poison lanes) get a zero
                # adjoint, but zero times their poison partial is poison: make it zero
                zero = self.b.zero(g.type)
                contrib = self.b.select(self.b.fcmp("oeq", g, zero), zero, contrib)
            self.add_adjoint(operand, contrib)

    def _exit(self, outs: list[Param]) -> tuple[Block, Type | None]:
        b = self.b
        blk = b.block(f"{self.p}.exit")
        vals = []
        for p in outs:
            if self.active(p.name):
                v = b.load(p.type, self.slot(p.name), hint="out")
                if p.type.kind in ("float", "vector"):     # an empty sum (-0.0) is returned as 0
                    v = b.binop("fadd", v, b.zero(p.type), hint="out")
                vals.append(v)
            else:
                vals.append(b.zero(p.type))
        if not outs:
            b.ret()
            return blk, None
        if len(outs) == 1:
            b.ret(vals[0])
            return blk, outs[0].type
        st = Type("struct", fields=tuple(p.type for p in outs))
        agg = Value(st, "poison")
        for i, v in enumerate(vals):
            agg = b.insertvalue(agg, v, [i], hint="agg")
        b.ret(agg)
        return blk, st


def _copy_adjoint_helper(name: str, elem: str, overlap: bool) -> str:
    """d src[i] += d dst[i]; d dst[i] = 0 for each element of a copy of n bytes (memmove:
    d dst is first moved to a buffer, as the regions may overlap)."""
    t = float_type(elem)
    size = {"double": 8, "float": 4, "half": 2}[elem]
    b = Builder(prefix="h")
    dst, src, n = Value(PTR, "%dst"), Value(PTR, "%src"), Value(I64, "%n")
    no = Value(I1, "false")
    entry = b.block("entry")
    read = dst
    if overlap:
        read = b.call_value("@malloc", [n], PTR, name="%buf")
        b.call("@llvm.memcpy.p0.p0.i64", [read, dst, n, no], None)
        b.call("@llvm.memset.p0.i64", [dst, Value(I8, "0"), n, no], None)
    count = b.binop("udiv", n, Value(I64, str(size)), name="%count")
    empty = b.icmp("eq", count, Value(I64, "0"), name="%empty")
    b.cond_br(empty, "done", "loop")
    loop = b.block("loop")
    i = b.phi(I64, [(Value(I64, "0"), "entry"), (Value(I64, "%next"), "loop")], name="%i")
    pd = b.gep(t, read, [i], name="%pd")
    ps = b.gep(t, src, [i], name="%ps")
    d = b.load(t, pd, 1, name="%d")
    if not overlap:
        b.store(b.zero(t), pd, 1)
    o = b.load(t, ps, 1, name="%o")
    b.store(b.binop("fadd", o, d, name="%s"), ps, 1)
    nxt = b.binop("add", i, Value(I64, "1"), name="%next")
    more = b.icmp("ult", nxt, count, name="%more")
    b.cond_br(more, "loop", "done")
    done = b.block("done")
    if overlap:
        b.call("@free", [read], None)
    b.ret()
    params = [Param(PTR, "%dst"), Param(PTR, "%src"), Param(I64, "%n")]
    return "\n" + print_blocks(define_line(name, VOID, params), [entry, loop, done]) + "\n"


def _float_leaves(t: Type, structs: dict[str, Type], path: tuple[int, ...] = ()
                  ) -> list[tuple[tuple[int, ...], Type]]:
    """Index paths of the floating-point scalars inside an aggregate."""
    if t.kind == "named":
        t = structs.get(t.name, t)
    if t.is_float and t.kind == "float":
        return [(path, t)]
    if t.kind == "struct":
        return [leaf for i, f in enumerate(t.fields) for leaf in _float_leaves(f, structs, path + (i,))]
    if t.kind == "array" and t.elem is not None:
        return [leaf for i in range(t.count) for leaf in _float_leaves(t.elem, structs, path + (i,))]
    return []


def _bits_float(t: Type) -> Type:
    """The float type whose bits an integer of type t carries."""
    return float_type({64: "double", 32: "float", 16: "half"}.get(t.bits, "double"))


def _empty_sum(t: Type, b: Builder) -> str:
    """The value an adjoint slot starts from: -0.0, the identity of addition (x + -0.0 is x for
    every x, so the optimizer drops the first addition; with +0.0 it may not, as -0.0 + +0.0
    is +0.0). Aggregates start from zeroinitializer."""
    if t.kind == "float" or (t.kind == "vector" and t.scalar.kind == "float"):
        return float_literal(-0.0, t)
    return b.zero(t).ref




def _is_one(v: Value, b: Builder) -> bool:
    return v.ref == b.const(1.0, v.type).ref
