"""The module after a round of AD: the callers rewritten (printed from the model) in place of
their old texts, the program's activity markers defined (weak zeros, so programs declaring them
extern link), then the derivatives, their helpers and wrappers, the tape runtime and the
declarations they use, each added once (an earlier round of nested derivatives may have added
it already). After the last round, ``__enzyme_iter`` is defined (lower_iter)."""

from __future__ import annotations

import re

from gradlink.ad import custom, split, tape
from gradlink.ad.derivative import Derivative
from gradlink.ad.errors import ADError
from gradlink.ad.module import with_callers
from gradlink.ad.requests import is_request
from gradlink.ad.synth import ITER
from gradlink.ir.builder import Builder
from gradlink.ir.model import Param, Value
from gradlink.ir.module import ModuleEdit
from gradlink.ir.printer import define_line, print_blocks
from gradlink.ir.types import Type

_EXTERNAL_MARKER = re.compile(r'^(@"?enzyme_(?:dup|dupnoneed|const|out|allocated|tape|width|'
                              r'vector|scalar|nocache|primal_return|context)"?) = '
                              r'external (?:dso_local )?global i32(.*)$', re.M)


def reaching_requests(fns: dict[str, str]) -> set[str]:
    """Functions whose body, or a callee's, still calls an Enzyme entry point (C++ mangles
    them: _Z17__enzyme_autodiffPvz)."""
    callees = {name: set(_CALLEE.findall(text)) for name, text in fns.items()}
    return with_callers({name for name, called in callees.items()
                         if any(is_request(c) for c in called)}, callees)


_CALLEE = re.compile(r'\b(?:call|invoke)\b[^@\n]*(@"[^"]+"|@[-a-zA-Z$._0-9]+)\(')
_NAME = r'(@"[^"]*"|@[-a-zA-Z$._0-9]+)'
_FUNCTION = re.compile(rf"^(declare|define)\b[^\n]*?{_NAME}\(", re.M)   # its name: the first @x(
_GLOBAL = re.compile(rf"^{_NAME} = ", re.M)
_ITER_DECLARATION = re.compile(r'^declare [^\n]*@__enzyme_iter\([^\n]*$', re.M)
FIXED_POINT = "@__enzyme_set_fixed_point"
_FIXED_POINT_DECLARATION = re.compile(
    r'^declare [^\n@]*void @__enzyme_set_fixed_point\([^\n]*\)[^\n]*$', re.M)


def lower_markers(module_text: str) -> str:
    """After the last round, the Enzyme calls that are not requests get definitions:
    ``__enzyme_iter`` (lower_iter), and ``__enzyme_set_fixed_point(reduction, max_iters,
    control, state, size, ...)``, Enzyme's mark of a fixed-point iteration, which it
    differentiates by iterating the adjoint of one step to convergence instead of taping every
    iteration. gradlink takes it as a hint it does not use: it differentiates every iteration
    the program runs, the exact derivative of that computation (the tape grows with the
    iteration count). It becomes a function doing nothing, inlined away."""
    module_text = lower_iter(module_text)
    declaration = _FIXED_POINT_DECLARATION.search(module_text)
    if declaration is None:
        return module_text
    _, params = custom.signature(module_text, FIXED_POINT)
    b = Builder(prefix="fp")
    entry = b.block("entry")
    b.ret(None)
    text = print_blocks(define_line(FIXED_POINT, None,
                                    [Param(t, f"%a{i}") for i, t in enumerate(params)],
                                    "alwaysinline", varargs="..." in declaration.group(0)),
                        [entry])
    module = ModuleEdit(module_text)
    module.rewrite_outside_functions(_FIXED_POINT_DECLARATION, lambda _: text)
    return module.print()


def lower_iter(module_text: str) -> str:
    """After the last round: what is left of ``__enzyme_iter(n, k)`` (in code no derivative
    copied, or copied as n + k) returns n: the declaration becomes an always-inlined
    definition."""
    if "@__enzyme_iter(" not in module_text or _ITER_DECLARATION.search(module_text) is None:
        return module_text
    ret, params = custom.signature(module_text, ITER)
    if len(params) != 2 or ret.kind != "int":
        raise ADError(f"__enzyme_iter is declared as {ret} ({', '.join(map(str, params))}); "
                      "expected an integer result and two integer arguments (n, k)")
    b = Builder(prefix="it")
    entry = b.block("entry")
    b.ret(Value(params[0], "%n"))
    text = print_blocks(define_line(ITER, ret, [Param(params[0], "%n"), Param(params[1], "%k")],
                                    "alwaysinline"), [entry])
    module = ModuleEdit(module_text)
    module.rewrite_outside_functions(_ITER_DECLARATION, lambda _: text)
    return module.print()


def assemble(module: ModuleEdit, derivatives: list[Derivative], split_wrappers: dict[str, str],
             custom_wrappers: dict[str, str], custom_tape_types: set[Type],
             declarations: dict[str, str]) -> str:
    """The module printed, with its callers already replaced (ModuleEdit.replace);
    ``declarations``: of what the callers' new instructions use."""
    module.rewrite_outside_functions(_EXTERNAL_MARKER, r"\1 = weak global i32 0\2")
    module.add(_appendix(module.text, derivatives, split_wrappers, custom_wrappers,
                         custom_tape_types, declarations))
    return module.print()


def _appendix(module_text: str, derivatives: list[Derivative], split_wrappers: dict[str, str],
              custom_wrappers: dict[str, str], custom_tape_types: set[Type],
              declarations: dict[str, str]) -> str:
    parts = ["\n"]
    types: set[Type] = set()
    decls: dict[str, str] = dict(declarations)
    helpers: dict[str, str] = {}
    ttypes: set[Type] = set()
    for d in derivatives:
        if d.text:
            parts.append(d.text + "\n")
        types |= d.tape_types
        ttypes |= d.tangent_tape_types
        decls.update(d.declarations)
        helpers.update(d.helpers)

    functions = {m.group(2): m.group(1) for m in _FUNCTION.finditer(module_text)}
    defined = {n for n, how in functions.items() if how == "define"} | \
        {m.group(1) for m in _GLOBAL.finditer(module_text)}

    def new(name: str) -> bool:
        """Not defined yet (an earlier round of nested derivatives may have added it)."""
        return name not in defined

    parts.extend(t for n, t in helpers.items() if new(n))
    parts.extend(t for n, t in split_wrappers.items() if new(n))
    parts.extend(t for n, t in custom_wrappers.items() if new(n))
    types |= custom_tape_types
    if split_wrappers:
        decls.update(split.DECLS)
    if (types or split_wrappers) and '@"gl.tape.base" =' not in module_text:
        parts.append(tape.runtime())
    if types or split_wrappers or ttypes:
        decls.update(tape.RUNTIME_DECLS)
    for t in sorted(types, key=str):
        if new(tape.push_fn(t)):
            parts.append(tape.accessors(t))
    if ttypes and f'@"{tape.TANGENT_PREFIX}.base" =' not in module_text:
        parts.append(tape.runtime(tape.TANGENT_PREFIX))
    for t in sorted(ttypes, key=str):
        if new(tape.push_fn(t, "tpush")):
            parts.append(tape.accessors(t, tangent=True))
    for name, line in decls.items():
        if name not in functions:
            parts.append(line + "\n")
    return "".join(parts)
