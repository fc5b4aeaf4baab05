"""The derivatives a link makes, each once per function and signature: reverse-mode functions
and the augmented/reverse pairs of called functions, forward-mode functions, the wrappers around
registered (custom) derivatives, and the synthesis objects that make them (one factory).
"""

from __future__ import annotations

from gradlink.ad import bypass, custom, rules, tape
from gradlink.ad.derivative import CalleeDerivative, Derivative, Signature
from gradlink.ad.errors import ADError
from gradlink.ad.forward import ForwardCallee, ForwardSynthesis
from gradlink.ad.globals import GlobalShadowsNeeded
from gradlink.ad.module import ModuleInfo
from gradlink.ad.reverse import ReverseSynthesis
from gradlink.analysis import activity, cfg, typeinfo
from gradlink.analysis.activity import Arg
from gradlink.ir.builder import Builder
from gradlink.ir.model import Function, Param, Value
from gradlink.ir.printer import define_line, print_blocks
from gradlink.ir.types import PTR, Type


class Derivatives:
    def __init__(self, info: ModuleInfo, table: rules.RuleTable,
                 hazards: bypass.Hazards | None = None) -> None:
        self.info = info
        self.table = table
        self.derivatives: dict[tuple[str, str], Derivative] = {}
        self.pairs: dict[tuple[str, str], CalleeDerivative] = {}
        self.split_functions: list[Derivative] = []
        self.custom_wrappers: dict[str, str] = {}
        self.custom_tape_types: set[Type] = set()
        self.hazards = hazards or bypass.Hazards()
        self._bypass: bypass.BypassCheck | None = None
        self.global_shadows: frozenset[str] = frozenset()    # set by the Differentiator
        self._global_users: frozenset[str] | None = None

    # -- synthesis objects -----------------------------------------------------------------------
    def _activity(self, fn: Function, kinds: dict[str, Arg], sig: Signature
                  ) -> activity.Activity:
        if self._global_users is None:
            self._global_users = self.info.global_users(self.global_shadows)
        act = activity.analyze(fn, kinds, sig.active_return, self.table,
                               typeinfo.TypeAnalysis(fn, self.info.structs),
                               self.global_shadows, frozenset(self.info.global_types),
                               self._global_users, shadow_return=sig.shadow_return,
                               pointing_globals=self.info.pointing_globals)
        if act.wanted_globals - self.global_shadows:
            raise GlobalShadowsNeeded(act.wanted_globals | self.global_shadows)
        return act

    def reverse_synthesis(self, fn: Function, sig: Signature, split: bool) -> ReverseSynthesis:
        """The one place a reverse-mode synthesis is set up: its function, signature, CFG,
        activity, and the module facts and callbacks it asks."""
        act = self._activity(fn, {p.name: k for p, k in zip(fn.params, sig.args)}, sig)
        info = self.info
        return ReverseSynthesis(fn, sig, cfg.build(fn), act, info.locations.where,
                                info.target_attrs(fn), callees=self.callee_pair, split=split,
                                structs=info.structs, metadata=info.metadata, writes=info.writes,
                                targets=info.indirect_targets, table=self.table)

    def forward_synthesis(self, fn: Function, sig: Signature) -> ForwardSynthesis:
        """The same for forward mode (a float with a tangent is varied: 'out' to the analysis)."""
        kinds = {p.name: (Arg.OUT if k.has_shadow and p.type.is_float else k)
                 for p, k in zip(fn.params, sig.args)}
        act = self._activity(fn, kinds, sig)
        return ForwardSynthesis(fn, sig, act, self.info.locations.where,
                                self.info.target_attrs(fn), callees=self.forward_callee,
                                width=sig.width, targets=self.info.indirect_targets,
                                table=self.table)

    def differentiated(self, name: str) -> Function:
        """The function whose body is about to be differentiated, checked for inlined copies
        of registered functions (gradlink/ad/bypass.py)."""
        fn = self.info.function(name)
        if self.hazards.items:
            if self._bypass is None:
                dbg = {h.function: self.info.function(h.function).dbg for h in self.hazards.items
                       if h.debug and h.function in self.info.fns}
                self._bypass = bypass.BypassCheck(self.hazards, self.info.locations, dbg)
            self._bypass.check(fn)
        return fn

    def calling_wrapper(self, fn: str) -> str:
        """A function that only calls ``fn``: a request on a function whose derivative is
        registered (by the program, or a library's precompiled one; with a body or without)
        differentiates this, and the call inside uses the registration."""
        name = f'@"gl.calls.{fn.lstrip("@").strip(chr(34))}"'
        if name not in self.info.fns:
            ret, params = custom.signature(self.info.text, fn)
            plist = [Param(t, f"%a{i}") for i, t in enumerate(params)]
            b = Builder()
            entry = b.block("entry")
            b.ret(b.call(fn, [Value(p.type, p.name) for p in plist], ret, name="%r"))
            text = print_blocks(define_line(name, ret, plist), [entry])
            self.info.fns[name] = text
            self.custom_wrappers[name] = text + "\n"
        return name

    def derivative(self, target: str, sig: Signature) -> Derivative:
        key = (target, sig.key())
        if key not in self.derivatives:
            name = f'@"gl.diffe.{target.lstrip("@").strip(chr(34))}.{sig.key()}"'
            if self.info.existing(name):
                fn = self.info.function(target)
                outs = [p.type for p, k in zip(fn.params, sig.args) if k is Arg.OUT]
                self.derivatives[key] = Derivative(name, "", adjoints_type(outs), outs)
                return self.derivatives[key]
            fn = self.differentiated(target)
            self.derivatives[key] = self.reverse_synthesis(fn, sig, split=False).run(name)
        return self.derivatives[key]

    def callee_pair(self, callee: str, sig: Signature) -> CalleeDerivative | None:
        """Augmented forward and reverse of a function the differentiated code calls; made once
        per signature (registered before synthesis, so recursion finds it)."""
        if callee in self.info.registry.gradients:
            return self._custom_pair(callee)
        if callee not in self.info.fns:
            self._only_other_mode(callee, "reverse")
            return None
        key = (callee, sig.key())
        if key in self.pairs:
            return self.pairs[key]
        fn = self.info.function(callee)
        if len(fn.params) != len(sig.args):
            raise ADError(f"cannot differentiate a variadic call of {callee.lstrip('@')}")
        base = callee.lstrip("@").strip('"')
        outs = [i for i, k in enumerate(sig.args) if k is Arg.OUT]
        out_types = [fn.params[i].type for i in outs]
        pair = CalleeDerivative(f'@"gl.aug.{base}.{sig.key()}"', f'@"gl.rev.{base}.{sig.key()}"',
                                adjoints_type(out_types), tuple(outs), shadow_return=sig.shadow_return)
        self.pairs[key] = pair
        if self.info.existing(pair.aug):             # made by an earlier round
            return pair
        self.differentiated(callee)
        synth = self.reverse_synthesis(fn, sig, split=True)
        self.split_functions.extend(synth.run_split(pair.aug, pair.rev))
        return pair

    def _only_other_mode(self, callee: str, mode: str) -> None:
        """A function without a body whose registration (often a library's precompiled
        derivative) serves the other mode only: say so, naming where it comes from."""
        other = self.info.registry.gradients if mode == "forward" else self.info.registry.tangents
        if callee not in other:
            return
        source = self.info.registry.by_kind.get(
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
        ret, params = custom.signature(self.info.text, fn)
        outs = [i for i, t in enumerate(params) if t.is_float]
        out_types = [params[i] for i in outs]
        rev_ret = adjoints_type(out_types)
        base = fn.lstrip("@").strip('"')
        names = (f'@"gl.custom.aug.{base}"', f'@"gl.custom.rev.{base}"')
        aug, rev = self.info.registry.gradients[fn]
        tape_t = custom.tape_type(self.info.text, fn, aug) or PTR
        aug_text, rev_text = custom.gradient_wrappers(fn, aug, rev, params, ret, self.info.text, names,
                                                      rev_ret, tape.push_fn(tape_t),
                                                      tape.pop_fn(tape_t))
        self.custom_wrappers[names[0]] = aug_text
        self.custom_wrappers[names[1]] = rev_text
        self.custom_tape_types.add(tape_t)
        pair = CalleeDerivative(names[0], names[1], rev_ret, tuple(outs),
                                custom_signature=Signature(
                                    tuple(custom.default_activity(params, "reverse")),
                                    ret.is_float))
        self.pairs[key] = pair
        return pair

    def _custom_tangent(self, fn: str, sig: Signature) -> ForwardCallee:
        kinds = [k if k.has_shadow else Arg.CONST for k in sig.args]
        key = "".join("d" if k is not Arg.CONST else "c" for k in kinds)
        name = f'@"gl.custom.fwd.{fn.lstrip("@").strip(chr(34))}.{key}"'
        ret, params = custom.signature(self.info.text, fn)
        if name not in self.custom_wrappers:
            self.custom_wrappers[name] = custom.tangent_wrapper(
                fn, self.info.registry.tangents[fn], params, ret, self.info.text, name, kinds)
        return ForwardCallee(name, ret.kind != "void")

    def forward(self, target: str, sig: Signature, pair: bool) -> Derivative:
        key = (target, sig.key() + ("_pair" if pair else "_fwd"))
        if key not in self.derivatives:
            fn = self.differentiated(target)
            synth = self.forward_synthesis(fn, sig)
            base = target.lstrip("@").strip('"')
            name = f'@"gl.{"fwdpair" if pair else "fwd"}.{base}.{sig.key()}"'
            if self.info.existing(name):
                self.derivatives[key] = Derivative(name, "", None, [])
                return self.derivatives[key]
            self.derivatives[key] = Derivative(name, "", None, [])     # recursion finds the name
            self.derivatives[key] = synth.run(name, pair)
        return self.derivatives[key]

    def forward_callee(self, callee: str, sig: Signature) -> ForwardCallee | None:
        if callee in self.info.registry.tangents and sig.shadow_return:
            raise ADError(f"{callee.lstrip('@')} returns a pointer into active memory; its "
                          "registered tangent cannot return the pointer's shadow")
        if callee in self.info.registry.tangents:
            if sig.width != 1:
                raise ADError(f"the registered tangent of {callee.lstrip('@')} has one lane; "
                              f"enzyme_width {sig.width} cannot use it")
            return self._custom_tangent(callee, sig)
        if callee not in self.info.fns:
            self._only_other_mode(callee, "forward")
            return None
        fn = self.info.function(callee)
        if len(fn.params) != len(sig.args):
            raise ADError(f"cannot differentiate a variadic call of {callee.lstrip('@')}")
        d = self.forward(callee, sig, pair=True)
        return ForwardCallee(d.name, sig.active_return or sig.shadow_return)



def adjoints_type(types: list[Type]) -> Type | None:
    """What a reverse function returning these adjoints returns: nothing, the one adjoint, or a
    struct of them."""
    if not types:
        return None
    return types[0] if len(types) == 1 else Type("struct", fields=tuple(types))
