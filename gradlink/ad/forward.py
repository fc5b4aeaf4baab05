"""Forward-mode (tangent) synthesis: one pass computing each active value's tangent beside it.

The tangent of a value is an SSA value next to it (phis get tangent phis, so no tape and no
slots are needed); pointers carry shadows exactly as in reverse mode, and the shadow memory holds
tangents: loads read them, stores write them, memcpy copies them, memset clears them. Each
instruction's tangent is the sum over its active operands of the operand tangent times the
rule's partial derivative: the same formulas as the reverse mode (gradlink.ad.rules).
Calls of defined functions use their own forward derivative, returning {primal, tangent}.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from gradlink.ad import expr, rules
from gradlink.ad.builder import Builder
from gradlink.ad.errors import ADError, describe
from gradlink.ad.reverse import Derivative, Signature, primal_text
from gradlink.analysis.activity import ALLOCATORS, DEALLOCATORS, Activity
from gradlink.ir.model import Block, Function, Instr, Value
from gradlink.ir.types import Type

_REDUCE_FADD = "@llvm.vector.reduce.fadd"


@dataclass
class ForwardCallee:
    name: str                   # returns { primal, tangent } when the result is active
    returns_pair: bool


class ForwardSynthesis:
    def __init__(self, fn: Function, sig: Signature, act: Activity,
                 where: Callable[[str | None], str | None], target_attrs: str,
                 callees: Callable[[str, Signature], ForwardCallee | None]) -> None:
        self.fn, self.sig, self.act = fn, sig, act
        self.where, self.target_attrs, self.callees = where, target_attrs, callees
        self.b = Builder(prefix="gf")
        self.tangent: dict[str, str] = {}
        self.shadow: dict[str, str] = {}
        self.defs = fn.definitions()

    def fail(self, ins: Instr, problem: str) -> ADError:
        return ADError(describe(self.fn.name, ins.text, self.where(ins.dbg), problem))

    def varied(self, v: Value | str | None) -> bool:
        ref = v.ref if isinstance(v, Value) else v
        return ref is not None and ref in self.act.varied

    def t(self, v: Value) -> Value | None:
        """The tangent of v; None is symbolic zero."""
        if not v.is_local or v.ref not in self.act.varied:
            return None
        return Value(v.type, self.tangent_ref(v.ref))

    def t_or_zero(self, v: Value) -> Value:
        return self.t(v) or self.b.zero(v.type)

    def tangent_ref(self, ref: str) -> str:
        if ref not in self.tangent:
            self.tangent[ref] = f'%"gf.t.{len(self.tangent)}"'
        return self.tangent[ref]

    def sh(self, v: Value, ins: Instr) -> str:
        if v.ref in self.act.shadowed:
            if v.ref not in self.shadow:
                self.shadow[v.ref] = f'%"gf.sh.{len(self.shadow)}"'
            return self.shadow[v.ref]
        if v.ref in ("null", "undef", "poison"):
            return v.ref
        raise self.fail(ins, f"pointer {v.ref} mixes with active pointers but has no shadow")

    # -- synthesis ------------------------------------------------------------------------------
    def run(self, name: str, pair: bool) -> Derivative:
        params = []
        for i, (p, kind) in enumerate(zip(self.fn.params, self.sig.args)):
            params.append(f"{p.type} {p.name}")
            if kind in ("dup", "dupnoneed"):
                if p.type.is_ptr:
                    self.shadow[p.name] = f'%"gf.shadow.{i}"'
                    params.append(f"ptr {self.shadow[p.name]}")
                else:
                    self.tangent[p.name] = f'%"gf.darg.{i}"'
                    params.append(f"{p.type} {self.tangent[p.name]}")
        self.pair = pair
        ret = self.fn.ret
        if not self.sig.active_return:
            ret_type = str(ret)
        elif pair:
            ret_type = f"{{ {ret}, {ret} }}"
        else:
            ret_type = str(ret)
        body = [line for b in self.fn.blocks for line in self._block(b)]
        header = (f"define internal {ret_type} {name}({', '.join(params)}) {self.target_attrs}{{")
        text = "\n".join([header, *body, "}"])
        return Derivative(name, text, None, [], set(), dict(self.b.declarations))

    def _block(self, block: Block) -> list[str]:
        self.b.lines = []
        for ins in block.instrs:
            self._instr(ins)
        label = block.label
        lbl = label if re.fullmatch(r"[-a-zA-Z$._0-9]+", label) else f'"{label}"'
        return [f"{lbl}:", *self.b.lines]

    def _instr(self, ins: Instr) -> None:
        b, op = self.b, ins.opcode
        if op == "ret":
            self._ret(ins)
            return
        if op == "call" and ins.callee == "asm" and any(
                self.varied(v) or v.ref in self.act.shadowed for v in ins.operands):
            raise self.fail(ins, "inline assembly on active data")
        if op == "call" and self._callee(ins) is not None:
            self._call(ins)
            return
        b.emit(primal_text(ins))
        if op == "store":
            self._store(ins)
        elif op == "call":
            self._call_side_effects(ins)
        if ins.name in self.act.shadowed:
            self._shadow(ins)
        if not self.varied(ins.name) or ins.type is None:
            return
        self._tangent(ins)

    def _ret(self, ins: Instr) -> None:
        if not self.sig.active_return or not ins.operands:
            self.b.emit(primal_text(ins))
            return
        v = ins.operands[0]
        tv = self.t_or_zero(v)
        if not self.pair:
            self.b.emit(f"ret {tv}")
            return
        t = self.fn.ret
        a, c = self.b.fresh("ret"), self.b.fresh("ret")
        self.b.emit(f"{a} = insertvalue {{ {t}, {t} }} poison, {v}, 0")
        self.b.emit(f"{c} = insertvalue {{ {t}, {t} }} {a}, {tv}, 1")
        self.b.emit(f"ret {{ {t}, {t} }} {c}")

    def _store(self, ins: Instr) -> None:
        val, ptr = ins.operands
        if ptr.ref in self.act.shadowed:
            if val.type.is_ptr:
                if val.ref in self.act.shadowed:
                    self.b.emit(f"store ptr {self.sh(val, ins)}, ptr {self.sh(ptr, ins)}")
            elif val.type.has_float or self.varied(val):
                self.b.emit(f"store {self.t_or_zero(val)}, ptr {self.sh(ptr, ins)}{_align(ins)}")
        elif (self.varied(val) or val.ref in self.act.shadowed) and \
                not rules.is_inactive_memory(ptr.ref, self.defs):
            raise self.fail(ins, f"an active value is stored through {ptr.ref}, which has no "
                                 "shadow (a global, or memory passed as enzyme_const)")

    def _call_side_effects(self, ins: Instr) -> None:
        callee = ins.callee
        if callee.startswith(("@llvm.memcpy", "@llvm.memmove")):
            dst, src = ins.operands[0], ins.operands[1]
            rest = ", ".join(str(v) for v in ins.operands[2:])
            if dst.ref in self.act.shadowed and src.ref in self.act.shadowed:
                self.b.emit(f"call void {callee}(ptr {self.sh(dst, ins)}, ptr {self.sh(src, ins)}, {rest})")
            elif dst.ref in self.act.shadowed:
                self._memset0(self.sh(dst, ins), ins.operands[2])
            elif src.ref in self.act.shadowed:
                raise self.fail(ins, "active memory is copied into memory that has no shadow")
        elif callee.startswith("@llvm.memset"):
            dst = ins.operands[0]
            if dst.ref in self.act.shadowed:
                self._memset0(self.sh(dst, ins), ins.operands[2])
        elif callee in DEALLOCATORS:
            if ins.operands and ins.operands[0].ref in self.act.shadowed:
                self.b.declarations.setdefault("@free", "declare void @free(ptr)")
                self.b.emit(f"call void @free(ptr {self.sh(ins.operands[0], ins)})")
        elif callee == "@realloc":
            pass
        elif rules.rule_for_call(callee) is None and not rules.is_inactive_call(callee) and \
                not callee.startswith(("@llvm.vector.reduce", "@llvm.")) and (
                    any(self.varied(v) or v.ref in self.act.shadowed for v in ins.operands)
                    or self.varied(ins.name)):
            what = f"function {callee.lstrip('@')}" if callee.startswith("@") else "an indirect call"
            raise self.fail(ins, f"{what} has no body in the LTO unit and no derivative rule")

    def _memset0(self, ptr: str, size: Value) -> None:
        self.b.declarations.setdefault("@llvm.memset.p0.i64",
                                       "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)")
        n = size if size.type.bits == 64 else Value(size.type, size.ref)
        if n.type.bits != 64:
            n = self.b.cast("zext", size, Type("int", bits=64))
        self.b.emit(f"call void @llvm.memset.p0.i64(ptr {ptr}, i8 0, {n}, i1 false)")

    def _shadow(self, ins: Instr) -> None:
        b, op = self.b, ins.opcode
        sh = self.sh(Value(ins.type, ins.name), ins)  # type: ignore[arg-type]
        if op == "getelementptr":
            flags = " ".join(f for f in ins.flags if f in ("inbounds", "nuw", "nusw"))
            idx = "".join(f", {v}" for v in ins.operands[1:])
            b.emit(f"{sh} = getelementptr {flags} {ins.alloc_type}, ptr {self.sh(ins.operands[0], ins)}{idx}")
        elif op in ("bitcast", "addrspacecast", "freeze"):
            b.emit(f"{sh} = {op} ptr {self.sh(ins.operands[0], ins)}" + (f" to {ins.type}" if op != "freeze" else ""))
        elif op == "select":
            c, x, y = ins.operands
            b.emit(f"{sh} = select {c}, ptr {self.sh(x, ins)}, ptr {self.sh(y, ins)}")
        elif op == "phi":
            inc = ", ".join(f"[ {self.sh(v, ins)}, %{_lbl(blk)} ]" for v, blk in ins.incoming)
            b.emit(f"{sh} = phi ptr {inc}")
        elif op == "load":
            b.emit(f"{sh} = load ptr, ptr {self.sh(ins.operands[0], ins)}")
        elif op == "alloca":
            count = f", {ins.operands[0]}" if ins.operands else ""
            b.emit(f"{sh} = alloca {ins.alloc_type}{count}")
            size = Value(Type("int", bits=64),
                         f"ptrtoint (ptr getelementptr ({ins.alloc_type}, ptr null, i32 1) to i64)")
            self._memset0(sh, size)
        elif op == "call" and ins.callee in ALLOCATORS:
            b.declarations.setdefault("@calloc", "declare ptr @calloc(i64, i64)")
            if ins.callee == "@calloc":
                b.emit(f"{sh} = call ptr @calloc({ins.operands[0]}, {ins.operands[1]})")
            else:
                b.emit(f"{sh} = call ptr @calloc(i64 1, {ins.operands[0]})")
        elif op == "call" and ins.callee == "@realloc":
            b.declarations.setdefault("@realloc", "declare ptr @realloc(ptr, i64)")
            b.emit(f"{sh} = call ptr @realloc(ptr {self.sh(ins.operands[0], ins)}, {ins.operands[1]})")
        else:
            raise self.fail(ins, f"cannot make a shadow for '{op}'")

    def _tangent(self, ins: Instr) -> None:
        b, op = self.b, ins.opcode
        name = self.tangent_ref(ins.name)  # type: ignore[arg-type]
        t = ins.type
        assert t is not None
        if op == "phi":
            inc = ", ".join(f"[ {self.t_or_zero(v).ref}, %{_lbl(blk)} ]" for v, blk in ins.incoming)
            # phis must stay at the top of the block: emit right after the primal phi
            b.emit(f"{name} = phi {t} {inc}")
            return
        if op == "load":
            ptr = ins.operands[0]
            b.emit(f"{name} = load {t}, ptr {self.sh(ptr, ins)}{_align(ins)}")
            return
        if op in ("fpext", "fptrunc", "bitcast", "freeze"):
            src = self.t_or_zero(ins.operands[0])
            b.emit(f"{name} = {op} {src}" + (f" to {t}" if op != "freeze" else ""))
            return
        if op == "select":
            c, x, y = ins.operands
            b.emit(f"{name} = select {c}, {self.t_or_zero(x)}, {self.t_or_zero(y)}")
            return
        if op == "extractelement":
            b.emit(f"{name} = extractelement {self.t_or_zero(ins.operands[0])}, {ins.operands[1]}")
            return
        if op == "insertelement":
            vec, elt, idx = ins.operands
            b.emit(f"{name} = insertelement {self.t_or_zero(vec)}, {self.t_or_zero(elt)}, {idx}")
            return
        if op == "shufflevector":
            a, c, mask = ins.operands
            b.emit(f"{name} = shufflevector {self.t_or_zero(a)}, {self.t_or_zero(c)}, {mask}")
            return
        if op == "extractvalue":
            b.emit(f"{name} = extractvalue {self.t_or_zero(ins.operands[0])}, "
                   + ", ".join(map(str, ins.indices)))
            return
        if op == "insertvalue":
            agg, elt = ins.operands
            b.emit(f"{name} = insertvalue {self.t_or_zero(agg)}, {self.t_or_zero(elt)}, "
                   + ", ".join(map(str, ins.indices)))
            return
        if op == "call" and ins.callee.startswith(_REDUCE_FADD):
            start, vec = ins.operands
            red = b.fresh("red")
            b.emit(f"{red} = call {t} {ins.callee}({self.t_or_zero(start)}, {self.t_or_zero(vec)})")
            b.emit(f"{name} = fadd {t} {red}, {b.zero(t).ref}")
            return
        self._rule_tangent(ins, name)

    def _rule_tangent(self, ins: Instr, name: str) -> None:
        rule = rules.rule_for_call(ins.callee) if ins.opcode == "call" else rules.BY_NAME.get(ins.opcode)
        if rule is None:
            raise self.fail(ins, f"no derivative rule for '{ins.opcode}'"
                            + (f" calling {ins.callee}" if ins.callee else ""))
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
        total: Value | None = None
        for i, node in enumerate(rule.compiled()):
            if i >= len(ins.operands) or node is None:
                continue
            dx = self.t(ins.operands[i])
            if dx is None:
                continue
            partial = expr.emit(node, env, self.b, Value(t, "0"))
            if partial is None:
                continue
            term = dx if partial.ref == self.b.const(1.0, t).ref else self.b.binop("fmul", dx, partial)
            total = term if total is None else self.b.binop("fadd", total, term)
        self.b.emit(f"{name} = fadd {t} {(total or self.b.zero(t)).ref}, {self.b.zero(t).ref}")

    # -- calls of defined functions ------------------------------------------------------------
    def call_signature(self, ins: Instr) -> Signature:
        kinds = ["dup" if self.varied(v) or v.ref in self.act.shadowed else "const"
                 for v in ins.operands]
        return Signature(kinds, self.varied(ins.name))

    def _callee(self, ins: Instr) -> ForwardCallee | None:
        if not ins.callee.startswith("@") or ins.callee.startswith("@llvm."):
            return None
        if rules.rule_for_call(ins.callee) is not None or rules.is_inactive_call(ins.callee):
            return None
        sig = self.call_signature(ins)
        if not sig.active_return and all(k == "const" for k in sig.args):
            return None
        return self.callees(ins.callee, sig)

    def _call(self, ins: Instr) -> None:
        callee = self._callee(ins)
        assert callee is not None
        args = []
        for v in ins.operands:
            args.append(str(v))
            if v.ref in self.act.shadowed:
                args.append(f"ptr {self.sh(v, ins)}")
            elif self.varied(v):
                args.append(str(self.t_or_zero(v)))
        t = ins.type
        if not callee.returns_pair or ins.name is None or t is None:
            res = f"{ins.name} = " if ins.name else ""
            self.b.emit(f"{res}call {t or 'void'} {callee.name}({', '.join(args)})")
            return
        pair = self.b.fresh("pair")
        self.b.emit(f"{pair} = call {{ {t}, {t} }} {callee.name}({', '.join(args)})")
        self.b.emit(f"{ins.name} = extractvalue {{ {t}, {t} }} {pair}, 0")
        self.b.emit(f"{self.tangent_ref(ins.name)} = extractvalue {{ {t}, {t} }} {pair}, 1")


def _align(ins: Instr) -> str:
    m = re.search(r",\s*align (\d+)", ins.text)
    return f", align {m.group(1)}" if m else ""


def _lbl(label: str) -> str:
    return label if re.fullmatch(r"[-a-zA-Z$._0-9]+", label) else f'"{label}"'
