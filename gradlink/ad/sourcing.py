"""Where the reverse sweep's primal values come from: the synthesis side of availability.

``availability`` decides, per value a reverse block needs, its source; this part of
``ReverseSynthesis`` (composed into it) plans the blocks' needs (``plan``), emits each source in the reverse
blocks (``_materialize``: stack slots, loop slots filled at loop exits, induction variables,
recomputation, trip counts), writes the slots in the forward sweep, and pushes what only the
tape can carry (one capacity check per block). Joins whose predecessor a branch condition
tells (``_branch_join``) and allocations the reverse sweep frees are decided here too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gradlink.ad import availability, tape
from gradlink.ir.builder import InsertPoint
from gradlink.ir.model import Instr, Value

if TYPE_CHECKING:
    from gradlink.ad.reverse import ReverseSynthesis
from gradlink.ir.types import I32, I64, Type, size_of


class PrimalSources:
    """The reverse synthesis's primal values (composed into it as ``src``): owns the slots,
    loop slots, the joins decided by a branch and the allocas moved to the heap, and reads the
    synthesis's state through ``r``."""

    def __init__(self, r: ReverseSynthesis) -> None:
        self.r = r
        self.computed_counts: set[tuple[str, str]] = set()   # (exit, header): not on the tape
        self.branch_joins: dict[str, tuple[Value, int, int]] = {}  # joins without a pushed id
        self.cached: dict[str, Value] = {}           # SLOT values: ref -> value (typed)
        self._homes: dict[str, list[str]] | None = None   # defining name -> its SLOT values
        self.heap_allocas: set[str] = set()          # split: allocas moved to the heap
        self.loop_slots: dict[str, dict[str, Value]] = {}   # LOOP_SLOT: loop header -> slots
        self.loop_slot_points: dict[str, InsertPoint] = {}   # reverse block -> loop slot pops

    def plan(self) -> dict[str, tuple[list[Value], list[Value]]]:
        """Per reachable block: the needed values that travel on the tape, and the ones its
        reverse block gets otherwise (see availability)."""
        needs = {b.label: self.r.needs(b) for b in self.r.fn.blocks if b.label in self.r.reachable}
        for name in self.r.deferred_frees:             # the reverse frees them: it needs them
            ins = self.r.defs[name]
            if ins.block in needs and not any(v.ref == name for v in needs[ins.block]):
                needs[ins.block].append(Value(ins.type, name))  # type: ignore[arg-type]
        if self.r.split:
            self.heap_allocas = self.escaping_allocas([v.ref for vs in needs.values() for v in vs])
            for name in [i.name for i in self.r.fn.instructions()   # in program order
                         if i.name in self.heap_allocas]:  # the reverse frees them: it needs both
                ins = self.r.defs[name]
                extra = [Value(ins.type, name)]  # type: ignore[arg-type]
                if name in self.r.act.shadowed:
                    extra.append(Value(ins.type, self.r.shadow_ref(name)))  # type: ignore[arg-type]
                needs[ins.block] += [v for v in extra if v not in needs[ins.block]]
        for x, headers in self.r.exit_counts.items():
            for h in headers:
                tc = self.r.trips.get(h)
                if tc is not None and x in needs and all(
                        not v.is_local or self.r.avail.source(v.ref, x).kind != availability.TAPE
                        for v in (tc.start, tc.bound)):
                    self.computed_counts.add((x, h))
        for label in needs:
            join = self.branch_join(label)
            if join is not None:
                self.branch_joins[label] = join
        plans = {}
        for label, vals in needs.items():
            taped: list[Value] = []
            made: list[Value] = []
            for v in vals:
                kind = self.r.avail.source(v.ref, label).kind
                (taped if kind == availability.TAPE else made).append(v)
            plans[label] = (taped, made)
        return plans

    def branch_join(self, label: str) -> tuple[Value, int, int] | None:
        """A join of two edges that one conditional branch chooses between (its block d
        dominates the join; each predecessor is d itself or lies behind one of d's edges): when
        the condition is available to the reverse sweep, it tells which predecessor we came
        from, and no id goes on the tape. Returns (condition, predecessor index when true, when
        false)."""
        preds = self.r.cfg.preds.get(label, [])
        d = self.r.cfg.idom.get(label)
        if len(preds) != 2 or d is None or label in self.r.counted:
            return None
        term = self.r.fn.block(d).terminator
        if term.opcode != "br" or len(term.targets) != 2 or term.targets[0] == term.targets[1]:
            return None

        def side(p: str) -> str | None:
            if p == d:
                return "T" if term.targets[0] == label else "F"
            # behind the edge d -> t: t is entered from d only, and every way to p passes t
            found = {s for s, t in zip("TF", term.targets) if t != label and
                     self.r.cfg.preds.get(t) == [d] and self.r.cfg.dominates(t, p)}
            return found.pop() if len(found) == 1 else None

        sides = [side(p) for p in preds]
        cond = term.operands[0]
        if set(sides) != {"F", "T"} or (
                cond.is_local and self.r.avail.source(cond.ref, label).kind == availability.TAPE):
            return None
        k_true = sides.index("T")
        return cond, k_true, 1 - k_true

    def escaping_allocas(self, needed: list[str]) -> set[str]:
        """Split functions: the stack memory the reverse function may reach (through the values
        it needs, or as active memory). The augmented function's frame is gone by then, so these
        live on the heap until the reverse sweep passes their allocation."""
        found = {ins.name for ins in self.r.fn.instructions()
                 if ins.opcode == "alloca" and ins.name in self.r.act.shadowed}
        seen: set[str] = set()
        work = [self.r.primal_of_shadow.get(r, r) for r in needed]
        while work:
            ref = work.pop()
            if ref in seen or ref not in self.r.defs:
                continue
            seen.add(ref)
            ins = self.r.defs[ref]
            if ins.opcode == "alloca":
                found.add(ref)
            elif ins.opcode in availability.PURE or ins.opcode == "phi":
                work += [v.ref for v in ins.uses()]
        return {a for a in found if self.r.defs[a].block in self.r.reachable}

    def materialize(self, v: Value, label: str) -> Value:
        """v as available at the top of rev.label (tape values are in self.r.env already)."""
        if not v.is_local:
            return v
        if v.ref in self.r.env:
            return self.r.env[v.ref]
        src = self.r.avail.source(v.ref, label)
        if src.kind == availability.DIRECT:
            return v
        if src.kind == availability.SLOT:
            out = self.slot_value(v)
        elif src.kind == availability.INDUCTION:
            out = self.induction_value(v, src, label)
        elif src.kind == availability.RECOMPUTE:
            out = self.recompute(v, src, label)
        elif src.kind == availability.LOOP_SLOT:
            slots = self.loop_slots.setdefault(src.loop, {})  # type: ignore[arg-type]
            if v.ref not in slots:
                slots[v.ref] = Value(v.type, f'%"{self.r.p}.lslot.{sum(map(len, self.loop_slots.values()))}"')
            out = self.r.b.load(v.type, slots[v.ref], hint="ls")
        else:
            raise AssertionError(f"{v.ref} should have come from the tape")
        self.r.env[v.ref] = out
        return out

    def slot_value(self, v: Value) -> Value:
        if v.ref not in self.cached:
            self.cached[v.ref] = Value(v.type, f'%"{self.r.p}.slot.{len(self.cached)}"')
        slot = self.cached[v.ref]
        if self.r.split:                       # popped at the reverse function's entry
            return Value(v.type, record_name(slot.ref))
        return self.r.b.load(v.type, slot, hint="c")

    def iteration(self, header: str) -> Value:
        """The 0-based iteration of the counted loop at header the reverse sweep is in."""
        key = f"iteration {header}"
        if key not in self.r.env:
            left = self.r.b.load(I64, self.r.count_names(header)[2], hint="left")
            self.r.env[key] = self.r.b.binop("sub", left, Value(I64, "1"))
        return self.r.env[key]

    def induction_value(self, v: Value, src: availability.Source, label: str) -> Value:
        ind = src.induction
        assert ind is not None
        start = ind.start
        if src.shadow and start.is_local:
            start = Value(start.type, self.r.shadow_ref(start.ref))
        first = self.materialize(start, label)
        k = self.iteration(ind.header)
        if ind.elem is not None:                         # pointer: gep elem, start, k * step
            off = self.r.b.binop("mul", k, Value(I64, str(ind.step)))
            return Value(v.type, self.r.b.gep(ind.elem, first, [off], hint="iv").ref)
        t = v.type
        if t.bits < 64:
            k = self.r.b.cast("trunc", k, t)
        elif t.bits > 64:
            k = self.r.b.cast("zext", k, t)
        return self.r.b.binop("add", first, self.r.b.binop("mul", k, Value(t, str(ind.step))))

    def trip_count(self, tc: availability.TripCount, label: str) -> Value:
        """The iteration count of a loop from its start and bound (see TripCount), as i64."""
        b = self.r.b
        start, bound = self.materialize(tc.start, label), self.materialize(tc.bound, label)
        hi, lo = (bound, start) if tc.step == 1 else (start, bound)
        # a test of iv itself runs one iteration more than the same test of the next value
        extra = int(tc.on_phi)
        if tc.pred == "ne":                          # runs until equal: the distance, wrapped
            d = b.binop("sub", hi, lo)
            d = b.cast("zext", d, I64) if d.type.bits < 64 else d
            return b.binop("add", d, Value(I64, "1")) if extra else d
        signed = tc.pred.startswith("s")
        if hi.type.bits < 64:
            hi, lo = (b.cast("sext" if signed else "zext", v, I64) for v in (hi, lo))
        d = b.binop("sub", hi, lo)
        strict = tc.pred in ("slt", "ult", "sgt", "ugt")
        extra += 0 if strict else 1
        if extra:
            d = b.binop("add", d, Value(I64, str(extra)))
        # at least once: the loop was entered
        ok = b.icmp("sgt", d, Value(I64, "1"), hint="trips") if signed else \
            b.icmp("ugt" if strict else "uge", hi, lo, hint="trips")
        return b.select(ok, d, Value(I64, "1"))

    def recompute(self, v: Value, src: availability.Source, label: str) -> Value:
        ins = src.ins
        assert ins is not None
        pointers = ((1, 2) if ins.opcode == "select" else (0,)) if src.shadow else ()
        ops = []
        for i, o in enumerate(ins.operands):     # a shadow: the same operation on the shadows
            ops.append(self.materialize(Value(o.type, self.r.shadow_ref(o.ref)) if i in pointers
                                         else o, label))
        name = self.r.b.fresh("rc")
        self.r.b.copy(ins, name=name, operands=ops)
        return Value(v.type, name)

    def exited_loops(self, label: str) -> list[str]:
        return [h for h in self.loop_slots if label in self.r.avail.loop_exits(h)]

    def loop_slot_pushes(self, label: str, preds: list[str]) -> list[Value]:
        """At an exit of a loop M: the values M's reverse reads from its loop slots."""
        out = []
        for header in self.exited_loops(label):
            body = self.r.cfg.loops[header]
            for ref, slot in self.loop_slots[header].items():
                val = ref
                if not set(preds) <= body:           # entered from elsewhere too: no value then
                    inside = {p: ref if p in body else "poison" for p in preds}
                    # called within _edge_phi, while inside is this iteration's
                    val = self.edge_phi(label, preds, lambda k, p: inside[p],  # noqa: B023
                                         "lsv", slot.type)
                out.append(Value(slot.type, val))
        return out

    def loop_slot_pops(self, label: str) -> None:
        """In the reverse of a loop exit: fill the slots the loop's reverse reads."""
        for header in reversed(self.exited_loops(label)):
            for slot in reversed(self.loop_slots[header].values()):
                self.r.tape_types.add(slot.type)
                x = self.r.b.call_value(tape.pop_fn(slot.type), [], slot.type, hint="lsp")
                self.r.b.store(x, slot)

    def fill_loop_slot_pops(self) -> None:
        """At the places kept in the reverse blocks (``loop_slot_points``): the loop slots are
        known once every reverse block is synthesized."""
        for label, point in self.loop_slot_points.items():
            with self.r.b.position_at(point):
                self.loop_slot_pops(label)

    def edge_phi(self, label: str, preds: list[str], value: Callable[[int, str], str], hint: str,
                  t: Type = I32) -> str:
        """A phi over label's predecessor edges (one entry per edge) of value(k, pred)."""
        name = self.r.b.fresh(hint)
        entries = []
        for k, p in enumerate(preds):
            edges = self.r.cfg.fn.block(p).terminator.targets.count(label)
            entries += [(Value(t, value(k, p)), p)] * edges
        self.r.b.phi(t, entries, name=name)
        return name

    def store_slots(self, ins: Instr) -> None:
        """Write the slots of the values ins defines (its result, its shadow) the reverse reads.
        The reverse blocks, synthesized first, have chosen the slots."""
        if self._homes is None:
            self._homes = {}
            for ref in self.cached:
                self._homes.setdefault(self.r.primal_of_shadow.get(ref, ref), []).append(ref)
        for ref in self._homes.get(ins.name or "", ()):
            slot = self.cached[ref]
            self.r.b.store(Value(slot.type, ref), slot)

    def push(self, v: Value) -> None:
        self.r.tape_types.add(v.type)
        self.r.b.call(tape.push_fn(v.type), [v], None)

    def push_all(self, vals: list[Value]) -> None:
        """Several pushes: one capacity check for all of them."""
        if len(vals) < 2:
            for v in vals:
                self.push(v)
            return
        total = sum(size_of(v.type) for v in vals)
        self.r.b.call(tape.ensure_fn(), [Value(I64, str(total))], None)
        for v in vals:
            self.r.tape_types.add(v.type)
            self.r.b.call(tape.push_fn(v.type, "upush"), [v], None)


def record_name(slot: str) -> str:
    """Split functions: the reverse function's name for a slot's value, popped at its entry
    (%"P.slot.N" -> %"P.rec.N", whatever the synthesis's prefix P)."""
    return re.sub(r'^%"([^"]*)\.slot\.', r'%"\1.rec.', slot)
