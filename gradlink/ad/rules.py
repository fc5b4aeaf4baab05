"""The derivative rules: one table, keyed by opcode, LLVM intrinsic and libm name.

Each rule gives, per operand, the partial derivative of the result as a formula (gradlink.ad.expr)
over the operands x, y, z and the result r. Reverse mode multiplies the incoming adjoint by each
partial; forward mode sums tangent * partial. ``None`` marks an operand with no derivative (an
integer exponent). Memory, control flow, casts and vector shuffles are structural and handled by
the synthesis itself; every other instruction that can carry a float must appear here or in
NOT_DIFFERENTIABLE, which a test checks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from gradlink.ad import expr, tape
from gradlink.analysis.allocators import (
    BUILTIN_ALLOCATORS,
    BUILTIN_DEALLOCATORS,
    REALLOCATORS,
    Allocator,
)
from gradlink.ir.model import Instr


@dataclass(frozen=True)
class Rule:
    name: str
    partials: tuple[str | None, ...]
    libm: tuple[str, ...] = ()          # C library names (double, float, long double)
    intrinsic: str | None = None        # llvm.<intrinsic>.<type>

    def compiled(self) -> tuple[expr.Node | None, ...]:
        """The partials as expression trees (parsed once per formula)."""
        return tuple(None if p is None else _parsed(p) for p in self.partials)

    def needs(self, active: list[bool] | None = None) -> set[str]:
        """Which primal values the partials read (operand names and/or r); with ``active``,
        only the partials of the active operands count (the others are never evaluated)."""
        out: set[str] = set()
        for i, node in enumerate(self.compiled()):
            if node is not None and (active is None or (i < len(active) and active[i])):
                out |= expr.free_names(node)
        return out


def _m(name: str, partials: list[str | None], intrinsic: bool = True, libm: bool = True) -> Rule:
    return Rule(name, tuple(partials), (name, name + "f", name + "l") if libm else (),
                name if intrinsic else None)


RULES: list[Rule] = [
    # instructions
    Rule("fadd", ("1", "1")),
    Rule("fsub", ("1", "-1")),
    Rule("fmul", ("y", "x")),
    # one division for both partials: 1 / y is shared (CSE after AD)
    Rule("fdiv", ("1 / y", "-x * (1 / y) * (1 / y)")),
    Rule("frem", ("1", "-trunc(x / y)")),
    Rule("fneg", ("-1",)),
    # elementary functions: libm calls and LLVM intrinsics
    _m("sin", ["cos(x)"]),
    _m("cos", ["-sin(x)"]),
    _m("tan", ["1 / (cos(x) * cos(x))"]),
    _m("asin", ["1 / sqrt(1 - x * x)"]),
    _m("acos", ["-1 / sqrt(1 - x * x)"]),
    _m("atan", ["1 / (1 + x * x)"]),
    _m("atan2", ["y / (x * x + y * y)", "-x / (x * x + y * y)"]),
    _m("sinh", ["cosh(x)"]),
    _m("cosh", ["sinh(x)"]),
    _m("tanh", ["1 - r * r"]),
    _m("exp", ["r"]),
    _m("exp2", ["r * ln2"]),
    _m("exp10", ["r * ln10"]),
    _m("expm1", ["r + 1"], intrinsic=False),
    _m("log", ["1 / x"]),
    _m("log2", ["1 / (x * ln2)"]),
    _m("log10", ["1 / (x * ln10)"]),
    _m("log1p", ["1 / (1 + x)"], intrinsic=False),
    _m("pow", ["y * pow(x, y - 1)", "r * log(x)"]),
    # integer second operand: the synthesis binds n = (float) operand, k = operand - 1
    Rule("powi", ("n * powi(x, k)", None), intrinsic="powi"),
    # zero at 0, where it is infinite: a zero adjoint (a branch not taken, as in a rotation
    # that is the identity below some angle) must not become 0 * inf = NaN
    _m("sqrt", ["ifle(r, 0, 0, 0.5 / r)"]),
    _m("cbrt", ["r / (3 * x)"], intrinsic=False),
    _m("hypot", ["x / r", "y / r"], intrinsic=False),
    # |re + i im| of a C double complex, passed as its two parts (std::abs of complex<double>)
    Rule("cabs", ("x / r", "y / r"), ("cabs",)),
    _m("fabs", ["copysign(1, x)"]),
    Rule("fmin", ("ifle(x, y, 1, 0)", "ifle(x, y, 0, 1)"), ("fmin", "fminf", "fminl")),
    Rule("fmax", ("ifle(y, x, 1, 0)", "ifle(y, x, 0, 1)"), ("fmax", "fmaxf", "fmaxl")),
    Rule("minnum", ("ifle(x, y, 1, 0)", "ifle(x, y, 0, 1)"), intrinsic="minnum"),
    Rule("maxnum", ("ifle(y, x, 1, 0)", "ifle(y, x, 0, 1)"), intrinsic="maxnum"),
    Rule("minimum", ("ifle(x, y, 1, 0)", "ifle(x, y, 0, 1)"), intrinsic="minimum"),
    Rule("maximum", ("ifle(y, x, 1, 0)", "ifle(y, x, 0, 1)"), intrinsic="maximum"),
    _m("copysign", ["copysign(1, x) * copysign(1, y)", "0"]),
    _m("fma", ["y", "x", "1"]),
    Rule("fmuladd", ("y", "x", "1"), intrinsic="fmuladd"),
    _m("erf", ["1.1283791670955126 * exp(-x * x)"], intrinsic=False),
    _m("fmod", ["1", "-trunc(x / y)"], intrinsic=False),
    Rule("ldexp", ("exp2(n)", None), ("ldexp", "ldexpf", "ldexpl", "scalbn", "scalbnf"), "ldexp"),
    # frexp(x, &e) = x * 2^-e exactly, so r / x is 2^-e exactly (NaN at 0 and infinity, where
    # frexp jumps: no derivative); the exponent written through the pointer is an integer
    Rule("frexp", ("r / x", None), ("frexp", "frexpf", "frexpl")),
    _m("erfc", ["-1.1283791670955126 * exp(-x * x)"], intrinsic=False),
]
# Piecewise constant: zero derivative everywhere it exists.
ZERO_DERIVATIVE = ["floor", "ceil", "round", "trunc", "rint", "nearbyint", "roundeven"]
RULES += [Rule(n, ("0",), (n, n + "f", n + "l"), n) for n in ZERO_DERIVATIVE]

BY_NAME: dict[str, Rule] = {r.name: r for r in RULES}
BY_LIBM: dict[str, Rule] = {n: r for r in RULES for n in r.libm}
BY_INTRINSIC: dict[str, Rule] = {r.intrinsic: r for r in RULES if r.intrinsic}

# Opcodes the synthesis handles structurally (no formula), and ones that never carry a derivative.
STRUCTURAL = {"phi", "select", "load", "store", "getelementptr", "alloca", "call", "ret", "br",
              "switch", "unreachable", "extractelement", "insertelement", "shufflevector",
              "extractvalue", "insertvalue", "fpext", "fptrunc", "bitcast", "freeze"}
NOT_DIFFERENTIABLE = {"fcmp", "icmp", "fptosi", "fptoui", "sitofp", "uitofp", "add", "sub", "mul",
                      "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor",
                      "trunc", "zext", "sext", "ptrtoint", "inttoptr", "addrspacecast"}

# Library calls that neither read nor write floats a derivative could flow through.
INACTIVE_CALLS = {
    "__enzyme_iter",                 # an iteration count (gradlink/ad/synth.copy_primal)
    "__enzyme_set_fixed_point",      # a hint (gradlink/ad/assembly.lower_markers)
    "printf", "fprintf", "sprintf", "snprintf", "puts", "fputs", "putchar", "fputc", "fflush",
    "fwrite", "fread", "fopen", "fclose", "perror", "abort", "exit", "_exit", "rand", "srand",
    "random", "srandom", "time", "clock", "clock_gettime", "gettimeofday", "getenv", "strlen",
    "strcmp", "strncmp", "strcpy", "strncpy", "memcmp", "bcmp", "strchr", "strstr", "__assert_fail", "atexit", "__cxa_atexit",
    "write", "read", "open", "close", "usleep", "sleep", "isatty", "setvbuf", "scanf", "sscanf",
    "__printf_chk", "__fprintf_chk", "__sprintf_chk", "__snprintf_chk", "__stack_chk_fail",
    "_ZNSolsEd", "__errno_location", "malloc_usable_size",
    # C++ streams and hashing: output and integer results carry no derivative
    "_ZNSo9_M_insertIdEERSoT_", "_ZNSo9_M_insertIeEERSoT_", "_ZNSo9_M_insertIlEERSoT_",
    "_ZNSo9_M_insertImEERSoT_", "_ZNSo9_M_insertIbEERSoT_", "_ZNSolsEi", "_ZNSo3putEc",
    "_ZNSo5flushEv", "_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
    "_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc",
    "_ZSt16__ostream_insertIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_PKS3_l",
    "_ZSt11_Hash_bytesPKvmm", "_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm",
    "_ZNKSt8__detail20_Prime_rehash_policy11_M_next_bktEm",
    # float -> integer conversions: no derivative flows through an integer result
    "lround", "lroundf", "llround", "llroundf", "lrint", "lrintf", "llrint", "llrintf",
    "ilogb", "ilogbf", "isnan", "isinf", "__isnan", "__isinf", "__finite", "__fpclassify",
}
INACTIVE_INTRINSICS = ("llvm.assume", "llvm.lifetime.", "llvm.dbg.", "llvm.experimental.noalias",
                       "llvm.invariant.", "llvm.prefetch", "llvm.stacksave", "llvm.stackrestore",
                       "llvm.trap", "llvm.debugtrap", "llvm.expect", "llvm.umax", "llvm.umin",
                       "llvm.smax", "llvm.smin", "llvm.abs", "llvm.ctpop", "llvm.ctlz",
                       "llvm.cttz", "llvm.fshl", "llvm.fshr", "llvm.bswap", "llvm.is.fpclass",
                       "llvm.sadd.", "llvm.uadd.", "llvm.ssub.", "llvm.usub.", "llvm.smul.",
                       "llvm.umul.", "llvm.vector.reduce.add", "llvm.vector.reduce.or",
                       "llvm.vector.reduce.and", "llvm.vector.reduce.umax",
                       "llvm.vector.reduce.smax", "llvm.vector.reduce.umin",
                       "llvm.vector.reduce.smin", "llvm.vector.reduce.xor", "llvm.lround.",
                       "llvm.llround.", "llvm.lrint.", "llvm.llrint.", "llvm.fptosi.sat.",
                       "llvm.fptoui.sat.")

_INTRINSIC = re.compile(r"^@llvm\.([a-z0-9_]+(?:\.[a-z]+)*?)\.(?:v\d+)?(?:f16|bf16|f32|f64|f80|f128)")


@cache
def _parsed(formula: str) -> expr.Node:
    return expr.parse(formula)


@dataclass(frozen=True)
class RuleTable:
    """The rules one module's AD uses: the built-in table plus the module's registrations
    (``__enzyme_function_like`` maps a function to a built-in rule or to free,
    ``__enzyme_inactivefn`` and ``__enzyme_inactive_global`` declare functions and globals
    inactive, ``__enzyme_allocation_like`` allocators). Made once per module and passed to
    whatever asks (synthesis, legality, activity: it is their ``Callees``)."""

    like: tuple[tuple[str, Rule], ...] = ()
    inactive: frozenset[str] = frozenset()
    inactive_globals: frozenset[str] = frozenset()
    allocators: tuple[tuple[str, Allocator], ...] = ()
    frees: tuple[tuple[str, int], ...] = ()     # registered deallocators, their pointer's place
    # the module's functions returning memory they allocated (ModuleInfo.returns_allocation)
    fresh: Callable[[str], bool] | None = field(default=None, compare=False)

    @classmethod
    def with_registrations(cls, function_like: dict[str, str], inactive: set[str],
                           inactive_globals: set[str],
                           allocators: Mapping[str, Allocator] | None = None,
                           frees: Iterable[str] = ()) -> RuleTable:
        unknown = [n for n in function_like.values() if n not in BY_NAME]
        if unknown:
            raise ValueError(f"__enzyme_function_like names an unknown rule: {', '.join(unknown)}")
        allocators = allocators or {}
        freeing = dict.fromkeys(frees, 0)
        for a in allocators.values():
            if a.pointer_position is not None:
                freeing.setdefault(a.free, a.pointer_position)
        return cls(tuple((fn, BY_NAME[n]) for fn, n in function_like.items()),
                   frozenset(inactive), frozenset(inactive_globals),
                   tuple(sorted(allocators.items())), tuple(sorted(freeing.items())))

    def rule_for_call(self, callee: str) -> Rule | None:
        """The rule of a called function: '@sin', '@sinf', '@llvm.sin.f64', '@llvm.sin.v2f64'."""
        for fn, rule in self.like:
            if fn == callee:
                return rule
        name = callee[1:].strip('"')
        if name.startswith("llvm."):
            m = _INTRINSIC.match(callee.strip('"'))
            return BY_INTRINSIC.get(m.group(1)) if m else None
        return BY_LIBM.get(name)

    def is_inactive_call(self, callee: str) -> bool:
        if callee in self.inactive:
            return True
        name = callee[1:].strip('"')
        return name in INACTIVE_CALLS or name.startswith(INACTIVE_INTRINSICS)

    def is_differentiated_call(self, callee: str) -> bool:
        """A direct call the AD handles by differentiating the callee (its body or a registered
        derivative): not an intrinsic, not covered by a rule, not known inactive, not one that
        allocates or frees memory."""
        return (callee.startswith("@") and not callee.startswith("@llvm.")
                and self.rule_for_call(callee) is None and not self.is_inactive_call(callee)
                and self.allocator(callee) is None and self.freed_pointer(callee) is None
                and callee not in REALLOCATORS)

    def allocator(self, callee: str) -> Allocator | None:
        for fn, a in self.allocators:
            if fn == callee:
                return a
        return BUILTIN_ALLOCATORS.get(callee)

    def freed_pointer(self, callee: str) -> int | None:
        for fn, k in self.frees:
            if fn == callee:
                return k
        return BUILTIN_DEALLOCATORS.get(callee)

    def is_inactive_memory(self, ref: str, defs: dict[str, Instr]) -> bool:
        """Memory registered with __enzyme_inactive_global, or a GEP/bitcast into it."""
        seen = set()
        while ref not in seen:
            seen.add(ref)
            if ref in self.inactive_globals:
                return True
            ins = defs.get(ref)
            if ins is None or ins.opcode not in ("getelementptr", "bitcast") or not ins.operands:
                return False
            ref = ins.operands[0].ref
        return False

    # -- as the activity analysis asks (gradlink.analysis.activity.Callees) -----------------------
    def has_rule(self, callee: str) -> bool:
        return self.rule_for_call(callee) is not None

    def zero_derivative(self, callee: str) -> bool:
        rule = self.rule_for_call(callee)
        return rule is not None and all(p == "0" for p in rule.partials)

    def is_inactive(self, callee: str) -> bool:
        return self.is_inactive_call(callee)

    def is_differentiated(self, callee: str) -> bool:
        return self.is_differentiated_call(callee)

    def is_tape_pop(self, callee: str) -> bool:
        return tape.is_pop(callee)

    def returns_allocation(self, callee: str) -> bool:
        return self.fresh is not None and self.is_differentiated_call(callee) and \
            self.fresh(callee)


BUILTIN = RuleTable()        # no registrations
