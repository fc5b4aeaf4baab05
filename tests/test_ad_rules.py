"""Every derivative rule, checked numerically and at the IR level, generated from the rule table.

Numeric: one C program per float type and math-call style (libm calls, or LLVM intrinsics with
-fno-math-errno) differentiates each function of gradlink.ad.rules in reverse mode
(__enzyme_autodiff) and forward mode (__enzyme_fwddiff, unit tangent) and compares both with
central finite differences and with each other. IR: each rule, applied to a tiny function, must emit the
functions its formula names (e.g. sin -> llvm.cos) and verify.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import llvmlite.binding as llvm
import pytest
from toolchain import CC, compile_c, link, sh

from gradlink.ad import rules
from gradlink.ad.driver import differentiate
from gradlink.ir import parse as irparse

# A point inside each function's domain where it is smooth: (x, y, z) as needed.
POINTS = {
    "sin": (0.7,), "cos": (0.7,), "tan": (0.4,), "asin": (0.3,), "acos": (0.3,), "atan": (0.8,),
    "atan2": (0.6, 1.3), "sinh": (0.5,), "cosh": (0.5,), "tanh": (0.5,), "exp": (0.3,),
    "exp2": (0.3,), "exp10": (0.3,), "expm1": (0.2,), "log": (1.7,), "log2": (1.7,),
    "log10": (1.7,), "log1p": (0.7,), "pow": (1.3, 2.5), "sqrt": (2.0,), "cbrt": (2.5,),
    "hypot": (1.2, 0.7), "fabs": (-1.5,), "fmin": (0.4, 0.9), "fmax": (0.4, 0.9),
    "copysign": (1.5, -2.0), "fma": (1.1, 0.7, 0.3), "erf": (0.6,), "erfc": (0.6,),
    "floor": (1.3,), "ceil": (1.3,), "round": (1.3,), "trunc": (1.3,), "rint": (1.3,),
    "nearbyint": (1.3,),
}
# C spelling of functions whose rule name is not a C function
C_NAME = {"exp10": "exp10"}
SKIP_C = {"lround", "llround", "lrint", "llrint", "roundeven"}    # integer results / not in C


def libm_rules() -> list[rules.Rule]:
    return [r for r in rules.RULES if r.libm and r.name in POINTS]


def _program(ftype: str) -> str:
    suffix = "f" if ftype == "float" else ""
    lines = ["#define _GNU_SOURCE", "#include <math.h>", "#include <stdio.h>",
             "extern int enzyme_const;", f"{ftype} __enzyme_autodiff(void *, ...);",
             f"{ftype} __enzyme_fwddiff(void *, ...);"]
    body = []
    for r in libm_rules():
        name = C_NAME.get(r.name, r.name) + suffix
        pt = POINTS[r.name]
        n = len(r.partials)
        params = ", ".join(f"{ftype} a{i}" for i in range(n))
        args = ", ".join(f"a{i}" for i in range(n))
        lines.append(f"static {ftype} w_{r.name}({params}) {{ return {name}({args}); }}")
        for k in range(n):
            call_args = []
            for i in range(n):
                lit = f"({ftype}){pt[i]!r}"
                call_args.append(lit if i == k else f"enzyme_const, {lit}")
            h = "1e-3f" if ftype == "float" else "1e-6"
            plus = ", ".join(f"({ftype}){pt[i]!r}" + (f" + {h}" if i == k else "") for i in range(n))
            minus = ", ".join(f"({ftype}){pt[i]!r}" + (f" - {h}" if i == k else "") for i in range(n))
            fwd_args = []
            for i in range(n):
                lit = f"({ftype}){pt[i]!r}"
                fwd_args.append(f"{lit}, ({ftype})1.0" if i == k else f"enzyme_const, {lit}")
            body.append(
                f'  printf("{r.name} {k} %.17g %.17g %.17g\\n", (double)__enzyme_autodiff((void *)w_{r.name}, '
                f"{', '.join(call_args)}), (double)((w_{r.name}({plus}) - w_{r.name}({minus})) / (2 * {h})), "
                f"(double)__enzyme_fwddiff((void *)w_{r.name}, {', '.join(fwd_args)}));")
    return "\n".join(lines + ["int main(void) {", *body, "  return 0;", "}"]) + "\n"


@pytest.mark.parametrize("ftype,style", [("double", "libm"), ("double", "intrinsic"),
                                         ("float", "libm"), ("float", "intrinsic")])
def test_every_rule_matches_finite_differences(tmp_path: Path, ftype: str, style: str) -> None:
    src = tmp_path / "rules.c"
    src.write_text(_program(ftype))
    flags = ["-O2", "-flto"] + (["-fno-math-errno"] if style == "intrinsic" else [])
    obj = compile_c(src, tmp_path / "rules.o", *flags, compiler=CC)
    exe = tmp_path / "rules"
    link([obj, "-lm"], exe).check("gradlink link of the rule program")
    out = sh([exe]).check("rule program").stdout
    seen = set()
    rtol = 2e-3 if ftype == "float" else 1e-6
    for line in out.splitlines():
        name, k, ad, fd, fwd = line.split()
        seen.add(name)
        ad_v, fd_v, fwd_v = float(ad), float(fd), float(fwd)
        # forward and reverse evaluate the same partial: equal up to rounding
        assert math.isclose(ad_v, fwd_v, rel_tol=1e-12 if ftype == "double" else 1e-5,
                            abs_tol=1e-300), f"forward vs reverse {style} {ftype}: {line}"
        if name in ("floor", "ceil", "round", "trunc", "rint", "nearbyint"):
            assert ad_v == 0.0, line
            continue
        assert math.isclose(ad_v, fd_v, rel_tol=rtol, abs_tol=rtol), f"{style} {ftype}: {line}"
    assert seen == {r.name for r in libm_rules()}


def test_known_exact_values(tmp_path: Path) -> None:
    src = tmp_path / "exact.c"
    src.write_text("""
#include <math.h>
#include <stdio.h>
extern int enzyme_const;
double __enzyme_autodiff(void *, ...);
static double cube_times(double x, double y) { return pow(x, 3) * y; }
static double quot(double x, double y) { return x / y; }
int main(void) {
  printf("%.17g\\n", __enzyme_autodiff((void *)cube_times, 2.0, enzyme_const, 3.0));
  printf("%.17g\\n", __enzyme_autodiff((void *)quot, enzyme_const, 3.0, 2.0));
  return 0;
}
""")
    obj = compile_c(src, tmp_path / "exact.o", "-O2", "-flto")
    link([obj, "-lm"], tmp_path / "exact").check()
    a, b = sh([tmp_path / "exact"]).check().stdout.split()
    assert float(a) == 36.0                 # 3 x^2 y
    assert float(b) == -0.75                # -x / y^2


# -- IR level ---------------------------------------------------------------------------------

IR_TEMPLATE = """
define double @f({params}) {{
entry:
  %r = {call}
  ret double %r
}}

define {ret} @caller({params}) {{
entry:
  %d = call {ret} (ptr, ...) @__enzyme_autodiff(ptr @f, {args})
  ret {ret} %d
}}

declare {ret} @__enzyme_autodiff(ptr, ...)
{decl}
"""


def _ir_for(rule: rules.Rule) -> str | None:
    n = len(rule.partials)
    params = ", ".join(f"double %x{i}" for i in range(n))
    args = ", ".join(f"double %x{i}" for i in range(n))
    ret = "double" if n == 1 else "{ " + ", ".join(["double"] * n) + " }"
    if rule.intrinsic and rule.intrinsic != "powi":
        callee = f"@llvm.{rule.intrinsic}.f64"
    elif rule.libm:
        callee = "@" + rule.libm[0]
    elif rule.name in ("fadd", "fsub", "fmul", "fdiv", "frem"):
        return IR_TEMPLATE.format(params=params, call=f"{rule.name} double %x0, %x1", args=args,
                                  decl="", ret=ret)
    elif rule.name == "fneg":
        return IR_TEMPLATE.format(params=params, call="fneg double %x0", args=args, decl="",
                                  ret=ret)
    else:
        return None
    sig = ", ".join(["double"] * n)
    return IR_TEMPLATE.format(params=params, call=f"call double {callee}({args})", args=args,
                              decl=f"declare double {callee}({sig})", ret=ret)


def _expected_callees(rule: rules.Rule) -> set[str]:
    names = set()
    for p in rule.partials:
        if p is None:
            continue
        names |= set(re.findall(r"([a-z][a-z0-9]*)\(", p)) - {"ifle", "iflt"}
    return names


@pytest.mark.parametrize("rule", [r for r in rules.RULES if None not in r.partials],
                         ids=lambda r: r.name)       # integer operands: covered by C programs
def test_rule_ir(rule: rules.Rule) -> None:
    text = _ir_for(rule)
    if text is None:
        pytest.skip("no IR form")
    out = differentiate(text)
    mod = llvm.parse_assembly(out)
    mod.verify()
    deriv = next(t for n, t in irparse.function_texts(out).items() if "gl.diffe.f" in n)
    for fn in _expected_callees(rule):
        assert re.search(rf"@(llvm\.)?{fn}(\.f64)?\(", deriv), f"{rule.name}: {fn} missing in\n{deriv}"
    if all(p == "0" for p in rule.partials):
        assert "fmul" not in deriv         # symbolic zero: no arithmetic emitted
    caller = irparse.function_texts(out)["@caller"]
    assert "__enzyme_autodiff" not in caller


def test_every_opcode_has_a_rule_or_is_declared() -> None:
    known = set(rules.BY_NAME) | rules.STRUCTURAL | rules.NOT_DIFFERENTIABLE
    opcodes = irparse.BINOPS | irparse.CASTS | {"fneg", "fcmp", "icmp", "select", "phi", "load",
                                                "store", "getelementptr", "alloca", "call", "br",
                                                "switch", "ret", "unreachable", "extractelement",
                                                "insertelement", "shufflevector", "extractvalue",
                                                "insertvalue", "freeze"}
    assert opcodes - known == set()


def test_rule_needs_are_derived_from_formulas() -> None:
    assert rules.BY_NAME["fmul"].needs() == {"x", "y"}
    assert rules.BY_NAME["exp"].needs() == {"r"}
    assert rules.BY_NAME["fadd"].needs() == set()
    assert rules.BY_NAME["sqrt"].needs() == {"r"}            # its guard at 0 reads r too


def test_aliases_share_one_entry() -> None:
    for name in ("sin", "sinf", "sinl", "@llvm.sin.f64", "@llvm.sin.f32", "@llvm.sin.v2f64"):
        callee = name if name.startswith("@") else "@" + name
        assert rules.BUILTIN.rule_for_call(callee) is rules.BY_NAME["sin"], name


FWD_TEMPLATE = """
define double @f({params}) {{
entry:
  %r = {call}
  ret double %r
}}

define double @caller({params}) {{
entry:
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, {args})
  ret double %d
}}

declare double @__enzyme_fwddiff(ptr, ...)
{decl}
"""


@pytest.mark.parametrize("rule", [r for r in rules.RULES if None not in r.partials],
                         ids=lambda r: r.name)
def test_forward_rule_ir(rule: rules.Rule) -> None:
    """The tangent of each rule: the same partials as reverse mode, times the unit tangent."""
    rev = _ir_for(rule)
    if rev is None:
        pytest.skip("no IR form")
    n = len(rule.partials)
    params = ", ".join(f"double %x{i}" for i in range(n))
    args = ", ".join(f"double %x{i}, double 1.0" for i in range(n))
    call = re.search(r"%r = (.*)\n", rev).group(1)             # type: ignore[union-attr]
    decl = "\n".join(ln for ln in rev.splitlines() if ln.startswith("declare double @")
                     and "__enzyme" not in ln)
    out = differentiate(FWD_TEMPLATE.format(params=params, call=call, args=args, decl=decl))
    llvm.parse_assembly(out).verify()
    deriv = next(t for name, t in irparse.function_texts(out).items() if "gl.fwd.f" in name)
    for fn in _expected_callees(rule):
        assert re.search(rf"@(llvm\.)?{fn}(\.f64)?\(", deriv), f"{rule.name}: {fn} missing in\n{deriv}"
    assert "__enzyme_fwddiff" not in irparse.function_texts(out)["@caller"]


def test_frexp_derivative_is_two_to_the_minus_exponent(tmp_path: Path) -> None:
    """frexp(x, &e) = x * 2^-e: its derivative is exactly 2^-e on each side of every power of
    two, in both modes, for doubles and floats (the exponent, an integer written through the
    pointer, carries none)."""
    src = tmp_path / "frexp.c"
    src.write_text(r"""
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
float __enzyme_autodiff_f(void *, ...) __asm__("__enzyme_autodiff");
static double m(double x) { int e; return frexp(x, &e) * 3.0; }
static float mf(float x) { int e; return frexpf(x, &e); }
int main(void) {
  double xs[] = {0.9, 1.0, 1.2, 2.0, 2.3, 33.0, 0.26, -0.9, -1.0, -2.3, 1e-300, 7e300};
  for (int i = 0; i < 12; i++) {
    int e;
    frexp(xs[i], &e);
    printf("%.17g %.17g %.17g %.17g\n", __enzyme_autodiff((void *)m, xs[i]),
           __enzyme_fwddiff((void *)m, xs[i], 1.0), 3.0 * ldexp(1.0, -e),
           (double)__enzyme_autodiff_f((void *)mf, (float)xs[i] * (i < 10)));
  }
  return 0;
}
""")
    obj = compile_c(src, tmp_path / "frexp.o", "-O2", "-flto", compiler=CC)
    link([obj, "-lm"], tmp_path / "frexp").check("gradlink link")
    for k, line in enumerate(sh([tmp_path / "frexp"]).check().stdout.splitlines()):
        rev, fwd, exact, revf = map(float, line.split())
        assert rev == fwd == exact, line
        if k < 10:
            assert revf * 3.0 == exact, line
