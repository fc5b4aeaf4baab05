"""Rewriting a request into calls of its derivative: the instructions that replace an
``__enzyme_autodiff`` / ``__enzyme_fwddiff`` / split-mode call in the caller (the derivative
called with the request's arguments, the result converted to the declared type), and a request
on a function chosen at run time (a phi or select of functions: the derivative picked by a
chain of selects). Built with the IR builder; the caller's text gets them printed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from gradlink.ad import globals as global_shadows
from gradlink.ad import results, split
from gradlink.ad.derivative import Signature
from gradlink.ad.derivatives import Derivatives
from gradlink.ad.errors import ADError, describe
from gradlink.ad.module import ModuleInfo
from gradlink.ad.requests import Request, RequestReader, is_autodiff, is_fwddiff
from gradlink.ir.builder import Builder
from gradlink.ir.model import Function, Instr, Param, Value
from gradlink.ir.types import I1, PTR, Type


class CallRewriter:
    """Makes the instructions replacing each request; ``tag()`` numbers the names they define
    (one counter per link round, shared with the request reader)."""

    def __init__(self, info: ModuleInfo, derivs: Derivatives, reader: RequestReader,
                 tag: Callable[[], int]) -> None:
        self.info, self.derivs, self.reader, self.tag = info, derivs, reader, tag
        self.split_wrappers: dict[str, str] = {}
        self.layout = global_shadows.ShadowLayout(derivs.global_shadows, info.global_types,
                                                  info.structs, info.declared_shadows,
                                                  info.initializers)
        self.declarations: dict[str, str] = {}      # of what the calls themselves use

    @staticmethod
    def _start(req: Request) -> Builder:
        b = Builder()
        b.start()
        for ins in req.prologue:
            b.insert(ins)
        return b

    # -- reverse mode ----------------------------------------------------------------------------
    def _zero_global_shadows(self, b: Builder, sig: Signature) -> None:
        """Before a top-level derivative: the shadows of global variables start at zero (their
        values on entry do not depend on the inputs); not the shadows the program manages
        (declared or queried: contexts.py), nor any of a context. A managed shadow's pointers
        to heap memory are given blocks (ShadowLayout.heap_shadows)."""
        managed = self.info.managed_shadows()
        for g in sorted(self.derivs.global_shadows & managed):
            for lane in range(sig.width):
                self.layout.heap_shadows(b, g, sig.space, lane)
        if sig.context:
            self.declarations.update(b.declarations)
            return
        for g in sorted(self.derivs.global_shadows - managed):
            for lane in range(sig.width):
                self.layout.reset(b, g, sig.space, lane)
        self.declarations.update(b.declarations)

    def call_derivative(self, req: Request) -> list[Instr]:
        d = self.derivs.derivative(req.target, req.sig)
        call = req.call
        args = list(req.args)
        b = self._start(req)
        self._zero_global_shadows(b, req.sig)
        fn = self.info.function(req.target)
        if req.sig.active_return:
            args.append(Value(fn.ret, "1.0" if fn.ret.kind == "float" else "splat (double 1.0)"))
        want = call.type                                   # what the program declared
        if req.sret is not None:
            results.store_sret(b, self.tag(), d.name, d.ret, d.out_types, args, req.sret, call,
                               self.info.structs)
            return b.instrs
        if call.name is None or want is None:
            b.call(d.name, args, d.ret, discard=True)
            return b.instrs
        if d.ret is None:
            if not want.is_float:
                raise ADError(f"__enzyme_autodiff has no active argument to return, but the call "
                              f"is declared to return {want}\n>>> instruction: {call.text}")
            b.call(d.name, args, None)
            zero = Value(want, "zeroinitializer" if want.kind == "vector" else "0.0")
            b.binop("fadd", zero, zero, name=call.name)
            return b.instrs
        if d.ret == want:
            b.call(d.name, args, d.ret, name=call.name)
            return b.instrs
        tmp = b.call_value(d.name, args, d.ret,
                           name=f'%"gl.adjoints.{call.name.strip("%").strip(chr(34))}"')
        results.convert(b, tmp, d.out_types, want, call.name, call)
        return b.instrs

    # -- forward mode ----------------------------------------------------------------------------
    def call_forward(self, req: Request) -> list[Instr]:
        call = req.call
        fn = self.info.function(req.target)
        d = self.derivs.forward(req.target, req.sig, pair=req.primal_return)
        b = self._start(req)
        self._zero_global_shadows(b, req.sig)
        args = req.args
        if req.primal_return:
            self._primal_and_tangent(b, req, d.name, fn.ret)
            return b.instrs
        if not req.sig.active_return:
            if call.type is None or call.name is None:
                b.call(d.name, args, fn.ret, discard=True)
                return b.instrs
            if not call.type.is_float:
                raise ADError(f"__enzyme_fwddiff of a function without a floating-point result, "
                              f"declared to return {call.type}\n>>> instruction: {call.text}")
            b.call(d.name, args, fn.ret, discard=True)
            results.zero_result(b, call.name, call.type)
            return b.instrs
        want = call.type
        ret = fn.ret if req.sig.width == 1 else Type("struct", fields=(fn.ret,) * req.sig.width)
        lanes = [fn.ret] * req.sig.width
        if req.sret is not None:
            results.store_sret(b, self.tag(), d.name, ret, lanes, args, req.sret, call,
                               self.info.structs)
            return b.instrs
        if call.name is None or want is None:
            b.call(d.name, args, ret, discard=True)
            return b.instrs
        if str(want) == str(ret):
            b.call(d.name, args, ret, name=call.name)
            return b.instrs
        kind = "tangents" if req.sig.width > 1 else "tangent"
        tmp = b.call_value(d.name, args, ret, name=f'%"gl.{kind}.{self.tag()}"')
        results.convert(b, tmp, lanes, want, call.name, call)
        return b.instrs

    def _primal_and_tangent(self, b: Builder, req: Request, name: str, ret: Type) -> None:
        """enzyme_primal_return: the forward derivative's {primal, tangent}, returned as the
        call is declared (a two-field struct of the result type, by value or through sret)."""
        call = req.call
        pair = Type("struct", fields=(ret, ret))
        if req.sret is not None:
            results.store_sret(b, self.tag(), name, pair, [ret, ret], req.args, req.sret, call,
                               self.info.structs)
        elif call.name is None or call.type is None:
            b.call(name, req.args, pair, discard=True)
        elif call.type == pair:
            b.call(name, req.args, pair, name=call.name)
        else:
            tmp = b.call_value(name, req.args, pair, name=f'%"gl.pair.{self.tag()}"')
            results.convert(b, tmp, [ret, ret], call.type, call.name, call)

    # -- split mode --------------------------------------------------------------------------------
    def call_split(self, req: Request, entry: str) -> list[Instr]:
        call = req.call
        b = self._start(req)
        if entry == "__enzyme_augmentsize":
            if call.name is None or call.type is None:
                return b.instrs
            if call.type.kind != "int":
                raise ADError(f"__enzyme_augmentsize is declared to return {call.type}, not an "
                              f"integer\n>>> instruction: {call.text}")
            b.binop("add", Value(call.type, str(split.TAPE_OBJECT_SIZE)), Value(call.type, "0"),
                    name=call.name)
            return b.instrs
        pair = self.derivs.callee_pair(req.target, req.sig)
        assert pair is not None
        fn = self.info.function(req.target)
        base = req.target.lstrip("@").strip('"')
        params = [Param(a.type, f"%a{k}") for k, a in enumerate(req.args)]
        if entry == "__enzyme_augmentfwd":
            self._zero_global_shadows(b, req.sig)
            shape = augment_shape(call, fn.ret, req.tape is not None)
            wrap = f'@"gl.augwrap.{base}.{req.sig.key()}.{shape}"'
            self.split_wrappers[wrap] = split.augment_wrapper(wrap, pair.aug, fn.ret, params,
                                                            shape)
            mem = req.tape if req.tape is not None else Value(PTR, "null")
            rtype = PTR if shape == "tape" else call.type
            b.call(wrap, [*req.args, mem], rtype, name=call.name,
                   discard=call.name is None or call.type is None)
            return b.instrs
        # __enzyme_reverse
        if req.tape is None:
            raise ADError(f"__enzyme_reverse without a tape\n>>> instruction: {call.text}")
        wrap = f'@"gl.revwrap.{base}.{req.sig.key()}"'
        self.split_wrappers[wrap] = split.reverse_wrapper(wrap, pair.rev, pair.ret, params)
        args = [*req.args, req.tape]
        if call.name is None or call.type is None or pair.ret is None:
            b.call(wrap, args, pair.ret, discard=True)
            if call.name is not None and call.type is not None:
                results.zero_result(b, call.name, call.type)
            return b.instrs
        if pair.ret == call.type:
            b.call(wrap, args, pair.ret, name=call.name)
            return b.instrs
        tmp = b.call_value(wrap, args, pair.ret, name=f'%"gl.adjoints.split.{self.tag()}"')
        outs = [fn.params[i].type for i in pair.out_positions]
        results.convert(b, tmp, outs, call.type, call.name, call)
        return b.instrs

    # -- a function chosen at run time -------------------------------------------------------------
    def merged_call(self, caller: Function, ins: Instr, fi: int, defs: dict[str, Instr],
                    targets: list[str]) -> list[Instr]:
        """One request on several functions: each one's derivative, the one to call chosen at
        run time by comparing the function operand with each target (a chain of selects)."""
        forward = is_fwddiff(ins.callee)
        where = self.info.locations.where(ins.dbg)
        if not forward and not is_autodiff(ins.callee):
            raise ADError(describe(caller.name, ins.text, where,
                                   f"{ins.callee.lstrip('@')} of a function chosen at run time is "
                                   "not supported (only __enzyme_autodiff and __enzyme_fwddiff)"))
        fptr = ins.operands[fi]
        made, names = [], []
        for t in targets:
            one = replace(ins, operands=[*ins.operands[:fi], Value(fptr.type, t),
                                         *ins.operands[fi + 1:]])
            req = self.reader.read(caller, one, defs, forward=forward)
            if forward:
                made.append(self.call_forward(req))
                names.append(self.derivs.forward(t, req.sig, pair=False).name)
            else:
                made.append(self.call_derivative(req))
                names.append(self.derivs.derivative(t, req.sig).name)
        tag = self.tag()
        pick = f'%"gl.pick.{tag}"'
        shapes = {"\n".join(i.print() for i in instrs).replace(f"{name}(", f"{pick}(")
                  for instrs, name in zip(made, names)}
        if len(shapes) != 1:
            raise ADError(describe(caller.name, ins.text, where,
                                   "the functions this request may differentiate ("
                                   + ", ".join(t.lstrip("@") for t in targets) + ") have "
                                   "derivatives of different signatures"))
        b = Builder()
        b.start()
        chosen = Value(PTR, names[-1])
        for j in range(len(targets) - 2, -1, -1):
            hit = b.icmp("eq", Value(PTR, fptr.ref), Value(PTR, targets[j]),
                         name=f'%"gl.pick.{tag}.is{j}"')
            sel = pick if j == 0 else f'%"gl.pick.{tag}.{j}"'
            chosen = b.select(Value(I1, hit.ref), Value(PTR, names[j]), chosen, name=sel)
        last = made[-1]
        for k in last:          # the last target's instructions, calling the chosen one
            b.insert(_retarget(k, names[-1], pick))
        return b.instrs


def _retarget(ins: Instr, old: str, new: str) -> Instr:
    return replace(ins, callee=new) if ins.opcode == "call" and ins.callee == old else ins


def augment_shape(call: Instr, ret: Type, given: bool) -> str:
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
