"""Forward-mode (tangent) synthesis: one pass computing each active value's tangent beside it.

The tangent of a value is an SSA value next to it (phis get tangent phis, so no tape and no
slots are needed); pointers carry shadows exactly as in reverse mode, and the shadow memory holds
tangents: loads read them, stores write them, memcpy copies them, memset clears them. Each
instruction's tangent is the sum over its active operands of the operand tangent times the
rule's partial derivative: the same formulas as the reverse mode (gradlink.ad.rules).
Calls of defined functions use their own forward derivative, returning {primal, tangent}.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gradlink.ad import complexops, expr, legality, rules, shadows, structural, tape
from gradlink.ad import globals as global_shadows
from gradlink.ad.derivative import Derivative, Signature
from gradlink.ad.errors import ADError, describe
from gradlink.ad.synth import copy_primal, dispatch
from gradlink.analysis.activity import Activity, Arg, uses_shadowed_globals
from gradlink.analysis.allocators import BUILTIN_DEALLOCATORS
from gradlink.ir.builder import Builder
from gradlink.ir.model import Block, Function, Instr, Param, Value
from gradlink.ir.printer import define_line, print_blocks
from gradlink.ir.types import I1, I8, I64, PTR, Type


@dataclass(frozen=True)
class ForwardCallee:
    name: str                   # returns { primal, tangent } when the result is active
    returns_pair: bool
    # an indirect call: (target, its derivative) for every function it may reach, chosen at
    # run time by comparing the called pointer with the targets
    dispatch: tuple[tuple[str, str], ...] = ()


class ForwardSynthesis:
    def __init__(self, fn: Function, sig: Signature, act: Activity,
                 where: Callable[[str | None], str | None], target_attrs: str,
                 callees: Callable[[str, Signature], ForwardCallee | None], width: int = 1,
                 targets: Callable[[Instr], list[str]] | None = None,
                 table: rules.RuleTable = rules.BUILTIN) -> None:
        self.fn, self.sig, self.act = fn, sig, act
        self.table = table
        self.targets = targets or (lambda ins: [])
        self.helpers: dict[str, str] = {}
        self.width = width
        self.lanes = range(width)
        self.where, self.target_attrs, self.callees = where, target_attrs, callees
        self.p = fn.free_prefix("gf")        # a derivative of a derivative: its own names
        self.b = Builder(prefix=self.p)
        self.tangent: dict[str, str] = {}
        self.shadow: dict[str, str] = {}
        self.defs = fn.definitions()
        self.tangent_types: set[Type] = set()

    def fail(self, ins: Instr, problem: str) -> ADError:
        return ADError(describe(self.fn.name, ins.text, self.where(ins.dbg), problem))

    def varied(self, v: Value | str | None) -> bool:
        ref = v.ref if isinstance(v, Value) else v
        return ref is not None and ref in self.act.varied

    def t(self, v: Value, lane: int = 0) -> Value | None:
        """The tangent of v in a lane; None is symbolic zero."""
        if not v.is_local or v.ref not in self.act.varied:
            return None
        return Value(v.type, self.tangent_ref(v.ref, lane))

    def t_or_zero(self, v: Value, lane: int = 0) -> Value:
        return self.t(v, lane) or self.b.zero(v.type)

    def tangent_ref(self, ref: str, lane: int = 0) -> str:
        if ref not in self.tangent:
            self.tangent[ref] = f'{self.p}.t.{len(self.tangent)}'
        return f'%"{self.tangent[ref]}.{lane}"'

    def sh(self, v: Value, ins: Instr, lane: int = 0) -> str:
        if v.ref in self.act.shadowed and not v.ref.startswith("%"):
            return global_shadows.shadow_ref(v.ref, self.act.shadowed_globals, self.sig.space,
                                             lane)
        if v.ref in self.act.shadowed:
            if v.ref not in self.shadow:
                self.shadow[v.ref] = f'{self.p}.sh.{len(self.shadow)}'
            return f'%"{self.shadow[v.ref]}.{lane}"'
        if v.ref in ("null", "undef", "poison"):
            return v.ref
        raise self.fail(ins, f"pointer {v.ref} mixes with active pointers but has no shadow")

    # -- synthesis ------------------------------------------------------------------------------
    def run(self, name: str, pair: bool) -> Derivative:
        params = []
        for i, (p, kind) in enumerate(zip(self.fn.params, self.sig.args)):
            params.append(Param(p.type, p.name))
            if kind.has_shadow:
                if p.type.is_ptr:
                    self.shadow[p.name] = f"{self.p}.shadow.{i}"
                    params += [Param(PTR, self.sh(Value(p.type, p.name), None, k))  # type: ignore[arg-type]
                               for k in self.lanes]
                else:
                    self.tangent[p.name] = f"{self.p}.darg.{i}"
                    params += [Param(p.type, self.tangent_ref(p.name, k)) for k in self.lanes]
        self.pair = pair
        ret = self.fn.ret
        if not self.sig.active_return and not self.sig.shadow_return:
            ret_type = ret
        elif pair:
            ret_type = self.pair_type()
        elif self.width > 1:
            ret_type = Type("struct", fields=(ret,) * self.width)
        else:
            ret_type = ret
        for found in legality.findings(self.fn, self.act, {b.label for b in self.fn.blocks},
                                       self.table, self._returns_shadow, None):
            raise self.fail(found.ins, found.problem)
        blocks = [self._block(b) for b in self.fn.blocks]
        text = print_blocks(define_line(name, ret_type, params, self.target_attrs.strip()), blocks)
        return Derivative(name, text, None, [], set(), dict(self.b.declarations),
                          dict(self.helpers), set(self.tangent_types))

    def pair_type(self, t: Type | None = None) -> Type:
        """{ primal, tangent lane 0, ... } as callees return it."""
        t = t or self.fn.ret
        return Type("struct", fields=(t,) * (1 + self.width))

    def _block(self, block: Block) -> Block:
        out = self.b.block(block.label)
        for ins in block.instrs:
            self._instr(ins)
        return out

    def _instr(self, ins: Instr) -> None:
        b, op = self.b, ins.opcode
        if op == "ret":
            self._ret(ins)
            return
        if op == "invoke":
            self._invoke(ins)
            return
        if op == "call" and (tape.is_push(ins.callee) or tape.is_pop(ins.callee)):
            self._tape_op(ins)
            return
        if op == "call" and self._callee(ins) is not None:
            self._call(ins)
            return
        copy_primal(b, ins)
        if op == "store":
            self._store(ins)
        elif op == "call":
            self._call_side_effects(ins)
        if ins.name in self.act.shadowed:
            self._shadow(ins)
        if not self.varied(ins.name) or ins.type is None:
            return
        self._tangent(ins)

    def _returns_shadow(self, ins: Instr) -> bool:
        """The callee's forward derivative returns the shadow of the pointer it returns."""
        return ins.name in self.act.shadowed and self._callee(ins) is not None

    def _tape_op(self, ins: Instr) -> None:
        """Forward over reverse: what a derivative pushes on its tape, the tangent tape mirrors
        (tangents of floats, shadows of pointers), so its pops get tangents back."""
        b = self.b
        copy_primal(b, ins)
        if self.width != 1:
            raise self.fail(ins, "enzyme_width over a reverse-mode derivative is not supported")
        if tape.is_push(ins.callee):
            v = ins.operands[0]
            if v.type.has_float:
                self.tangent_types.add(v.type)
                b.call(tape.push_fn(v.type, "tpush"), [self.t_or_zero(v)], None)
            elif v.type.is_ptr:
                self.tangent_types.add(v.type)
                sh = self.sh(v, ins) if v.ref in self.act.shadowed else "null"
                b.call(tape.push_fn(v.type, "tpush"), [Value(PTR, sh)], None)
            return
        t = ins.type
        if t is None or ins.name is None:
            return
        if t.has_float:
            self.tangent_types.add(t)
            b.call(tape.pop_fn(t, "tpop"), [], t, name=self.tangent_ref(ins.name))
        elif t.is_ptr:
            self.tangent_types.add(t)
            b.call(tape.pop_fn(t, "tpop"), [], PTR, name=self.sh(Value(t, ins.name), ins))

    def _ret(self, ins: Instr) -> None:
        if not (self.sig.active_return or self.sig.shadow_return) or not ins.operands:
            copy_primal(self.b, ins)
            return
        v = ins.operands[0]
        if not self.pair and self.width == 1:
            self.b.ret(self.t_or_zero(v))
            return
        if self.sig.shadow_return:           # a pointer into active memory and its shadows
            fields = [v] + [Value(v.type, self.sh(v, ins, k)) for k in self.lanes]
        else:
            fields = ([v] if self.pair else []) + [self.t_or_zero(v, k) for k in self.lanes]
        agg = Value(Type("struct", fields=tuple(f.type for f in fields)), "poison")
        for i, f in enumerate(fields):
            agg = self.b.insertvalue(agg, f, [i], hint="ret")
        self.b.ret(agg)

    def _store(self, ins: Instr) -> None:
        val, ptr = ins.operands
        if ptr.ref in self.act.shadowed:
            for k in self.lanes:
                if val.type.is_ptr:
                    if val.ref in self.act.shadowed:
                        self.b.store(Value(PTR, self.sh(val, ins, k)), self.sh(ptr, ins, k))
                elif val.type.has_float or self.varied(val):
                    self.b.store(self.t_or_zero(val, k), self.sh(ptr, ins, k), structural.align_of(ins))

    def _call_side_effects(self, ins: Instr) -> None:
        callee = ins.callee
        if callee.startswith(("@llvm.memcpy", "@llvm.memmove")):
            dst, src = ins.operands[0], ins.operands[1]
            if dst.ref in self.act.shadowed and src.ref in self.act.shadowed:
                for k in self.lanes:
                    self.b.call(callee, [Value(PTR, self.sh(dst, ins, k)),
                                         Value(PTR, self.sh(src, ins, k)), *ins.operands[2:]],
                                None)
            elif dst.ref in self.act.shadowed:
                for k in self.lanes:
                    self._memset0(self.sh(dst, ins, k), ins.operands[2])
            elif src.ref in self.act.shadowed:
                raise self.fail(ins, "active memory is copied into memory that has no shadow")
        elif callee.startswith("@llvm.memset"):
            dst = ins.operands[0]
            if dst.ref in self.act.shadowed:
                for k in self.lanes:
                    self._memset0(self.sh(dst, ins, k), ins.operands[2])
        elif (at := self.table.freed_pointer(callee)) is not None:
            if at < len(ins.operands) and ins.operands[at].ref in self.act.shadowed:
                self._free_shadows(ins, at)
        elif callee == "@realloc" or complexops.is_complex_op(ins):
            pass
        elif self.table.rule_for_call(callee) is None and not self.table.is_inactive_call(callee) and \
                not callee.startswith(("@llvm.vector.reduce", "@llvm.")) and (
                    any(self.varied(v) or v.ref in self.act.shadowed for v in ins.operands)
                    or self.varied(ins.name)):
            what = f"function {callee.lstrip('@')}" if callee.startswith("@") else "an indirect call"
            raise self.fail(ins, f"{what} has no body in the LTO unit and no derivative rule")

    def _free_shadows(self, ins: Instr, at: int) -> None:
        """The program frees memory with a shadow (argument ``at``): the shadow goes too, with
        free for the shadows of the C/C++ heap (calloc'ed), else with the same function."""
        for k in self.lanes:
            sh = Value(PTR, self.sh(ins.operands[at], ins, k))
            if ins.callee in BUILTIN_DEALLOCATORS:
                self.b.declare_library("@free")
                self.b.libcall("@free", [sh])
            else:
                args = [sh if i == at else v for i, v in enumerate(ins.operands)]
                self.b.call(ins.callee, args, ins.type, discard=True)

    def _memset0(self, ptr: str, size: Value) -> None:
        self.b.declare_library("@llvm.memset.p0.i64")
        n = size if size.type.bits == 64 else self.b.cast("zext", size, I64)
        self.b.libcall("@llvm.memset.p0.i64", [Value(PTR, ptr), Value(I8, "0"), n,
                                               Value(I1, "false")])

    def _shadow(self, ins: Instr) -> None:
        for k in self.lanes:
            self._shadow_lane(ins, k)

    def _shadow_lane(self, ins: Instr, k: int) -> None:
        b, op = self.b, ins.opcode
        sh = self.sh(Value(ins.type, ins.name), ins, k)  # type: ignore[arg-type]
        if op == "phi":
            b.phi(PTR, [(Value(PTR, self.sh(v, ins, k)), blk) for v, blk in ins.incoming],
                  name=sh)
        elif op == "call" and ins.callee == "@realloc":
            old = self.sh(ins.operands[0], ins, k)
            base = sh[:-1]
            shadows.emit_realloc_shadow(b, ins, sh, old, f'{base}.used"', f'{base}.kept"')
            b.libcall("@free", [Value(PTR, old)])      # the tangents moved to the new block
        elif not shadows.emit_shadow(b, ins, sh, lambda v: self.sh(v, ins, k),
                                     self.table.allocator(ins.callee) if op in ("call", "invoke")
                                     else None):
            raise self.fail(ins, f"cannot make a shadow for '{op}'")

    def _tangent(self, ins: Instr) -> None:
        moves = structural.lookup(ins)
        if moves is None and ins.opcode != "phi" and self._rule_of(ins) is not None:
            self._rule_tangent(ins)
            return
        for k in self.lanes:
            self._tangent_lane(ins, k, moves)

    def _tangent_lane(self, ins: Instr, k: int, moves: structural.Structural | None) -> None:
        name = self.tangent_ref(ins.name, k)  # type: ignore[arg-type]
        t = ins.type
        assert t is not None
        if ins.opcode == "phi":
            # phis must stay at the top of the block: emitted right after the primal phi
            self.b.phi(t, [(self.t_or_zero(v, k), blk) for v, blk in ins.incoming], name=name)
            return
        if moves is not None and moves.tangent is not None:
            moves.tangent(self, ins, k, name)
            return
        raise self.fail(ins, f"no derivative rule for '{ins.opcode}'"
                        + (f" calling {ins.callee}" if ins.callee else ""))

    def _rule_of(self, ins: Instr) -> rules.Rule | None:
        if ins.opcode == "call":
            return self.table.rule_for_call(ins.callee)
        return rules.BY_NAME.get(ins.opcode)

    def _rule_tangent(self, ins: Instr) -> None:
        """Partials once, then per lane: tangent = sum of operand tangent * partial."""
        rule = self._rule_of(ins)
        assert rule is not None
        t = ins.type
        assert t is not None
        env: dict[str, Value] = {}
        for i, v in enumerate(ins.operands[:3]):
            env["xyz"[i]] = v
        if ins.value is not None:
            env["r"] = ins.value
        if rule.name in ("powi", "ldexp"):
            nv = ins.operands[1]
            env["n"] = self.b.cast("sitofp", nv, t)
            env["k"] = self.b.binop("sub", nv, Value(nv.type, "1"))
        partials: list[tuple[int, Value | None]] = []
        for i, node in enumerate(rule.compiled()):
            if i >= len(ins.operands) or node is None or self.t(ins.operands[i]) is None:
                continue
            partials.append((i, expr.emit(node, env, self.b, Value(t, "0"))))
        one = self.b.const(1.0, t).ref
        for k in self.lanes:
            total: Value | None = None
            for i, partial in partials:
                dx = self.t(ins.operands[i], k)
                if partial is None or dx is None:
                    continue
                term = dx if partial.ref == one else self.b.binop("fmul", dx, partial)
                total = term if total is None else self.b.binop("fadd", total, term)
            self.b.binop("fadd", Value(t, (total or self.b.zero(t)).ref), self.b.zero(t),
                         name=self.tangent_ref(ins.name, k))  # type: ignore[arg-type]

    # -- calls of defined functions ------------------------------------------------------------
    def call_signature(self, ins: Instr) -> Signature:
        kinds = [Arg.DUP if self.varied(v) or v.ref in self.act.shadowed else Arg.CONST
                 for v in ins.operands]
        shadow_return = ins.type is not None and ins.type.is_ptr and ins.name in self.act.shadowed
        return Signature(tuple(kinds), self.varied(ins.name), self.width, shadow_return=shadow_return,
                         context=self.sig.context)

    def _callee(self, ins: Instr) -> ForwardCallee | None:
        if ins.opcode == "call" and ins.callee.startswith("%"):
            return self._indirect_callee(ins)
        if not self.table.is_differentiated_call(ins.callee):
            return None
        sig = self.call_signature(ins)
        if not sig.active_return and not sig.shadow_return and \
                all(k is Arg.CONST for k in sig.args) and not uses_shadowed_globals(ins, self.act):
            return None
        return self.callees(ins.callee, sig)

    def _indirect_callee(self, ins: Instr) -> ForwardCallee | None:
        """An indirect call touching active data: the derivatives of every function of the
        module it may reach (address taken, same type); None when it reaches none."""
        sig = self.call_signature(ins)
        if not sig.active_return and not sig.shadow_return and \
                all(k is Arg.CONST for k in sig.args) and not uses_shadowed_globals(ins, self.act):
            return None
        entries = []
        for name in self.targets(ins):
            callee = self.callees(name, sig)
            if callee is None or callee.dispatch:
                raise self.fail(ins, f"an indirect call may reach {name.lstrip('@')}, whose "
                                     "derivative cannot be chosen at run time")
            entries.append((name, callee))
        if not entries:
            return None
        return ForwardCallee("", entries[0][1].returns_pair,
                             tuple((n, c.name) for n, c in entries))

    def _dispatch(self, callee: ForwardCallee, fnptr: str, types: list[Type],
                  ret: Type | None) -> str:
        """The derivative of the target the called pointer is, chosen by a chain of selects; a
        pointer matching no target reaches a function that stops the program with a message."""
        base = self.fn.name.strip("@").strip('"')
        fallback = f'@"gl.indirect.unknown.fwd.{base}.{len(self.helpers)}"'
        return dispatch(self.b, self.helpers, fnptr, list(callee.dispatch), fallback, types, ret)

    def _invoke(self, ins: Instr) -> None:
        """An invoke (a call that may throw): of the callee's forward derivative when it touches
        active data, to the program's own normal and unwind destinations. Nothing can follow a
        terminator in its block, so what would have to (a derivative returned by value, a
        shadow of a returned pointer) is refused."""
        active_args = any(self.varied(v) or v.ref in self.act.shadowed for v in ins.operands)
        active_result = ins.name is not None and (
            self.varied(ins.name) or ins.name in self.act.shadowed)
        if self.table.allocator(ins.callee) is not None and not active_args:
            if active_result:
                self._shadow(ins)              # calloc'ed shadow first: it needs only the size
            copy_primal(self.b, ins)
            return
        name = ins.callee.lstrip("@")
        if active_result:
            raise self.fail(ins, f"the result of {name} is active, and the call may throw "
                                 "(an invoke): forward mode cannot return its derivative yet")
        callee = self._callee(ins) if active_args else None
        if callee is None:
            if active_args and not self.table.is_differentiated_call(ins.callee) and \
                    not self.table.is_inactive_call(ins.callee):
                raise self.fail(ins, f"{name} may throw (an invoke) and takes active data; "
                                     "forward mode differentiates only functions of the LTO "
                                     "unit there")
            copy_primal(self.b, ins)
            return
        if callee.dispatch:
            raise self.fail(ins, "an indirect call that may throw (an invoke) on active data")
        self.b.invoke(callee.name, self._args(ins), ins.type, ins.targets[0], ins.unwind,
                      name=ins.name)

    def _args(self, ins: Instr) -> list[Value]:
        """A call's operands, each followed by its shadows or tangents (one per lane)."""
        args = []
        for v in ins.operands:
            args.append(v)
            if v.ref in self.act.shadowed:
                args += [Value(PTR, self.sh(v, ins, k)) for k in self.lanes]
            elif self.varied(v):
                args += [self.t_or_zero(v, k) for k in self.lanes]
        return args

    def _call(self, ins: Instr) -> None:
        callee = self._callee(ins)
        assert callee is not None
        args = self._args(ins)
        t = ins.type
        pair_call = callee.returns_pair and ins.name is not None and t is not None
        ret = self.pair_type(t) if pair_call else t
        fn = callee.name
        if callee.dispatch:
            fn = self._dispatch(callee, ins.callee, [a.type for a in args], ret)
        if not pair_call:
            self.b.call(fn, args, t, name=ins.name)
            return
        assert t is not None and ins.name is not None
        pair = self.b.call_value(fn, args, self.pair_type(t), hint="pair")
        self.b.extractvalue(pair, [0], t, name=ins.name)
        for k in self.lanes:
            lane = self.sh(Value(t, ins.name), ins, k) if t.is_ptr else self.tangent_ref(ins.name, k)
            self.b.extractvalue(pair, [k + 1], t, name=lane)
