"""What the AD reads of the module it differentiates: its functions (parsed on demand), named
struct types, metadata, attribute groups, debug locations and derivative registrations, and
the facts derived from them that synthesis asks for: the targets an indirect call may reach,
the parameters a function may write through, the target attributes a derivative inherits.
"""

from __future__ import annotations

import re

from gradlink.ad import contexts, custom, lowering
from gradlink.ad import globals as globals_
from gradlink.ad.errors import ADError, DebugLocations
from gradlink.analysis import activity
from gradlink.ir.model import Function, Instr
from gradlink.ir.parse import (
    ParseError,
    attribute_groups,
    function_texts,
    global_initializers,
    parse_function,
    struct_types,
    writable_globals,
)
from gradlink.ir.types import Type

_REF = re.compile(r'@"[^"]*"|@[-a-zA-Z$._0-9]+')
_MD_TUPLE = re.compile(r"^(!\d+) = (?:distinct )?!\{(.*)\}\s*$", re.M)
_RETURNS_PTR = re.compile(r"define\b[^@\n(]*\bptr\s+@")
_ADDRESS = re.compile(r'(@"[^"]+"|@[-a-zA-Z$._0-9]+)(?![-a-zA-Z$._0-9"])(?!\s*\()')


class ModuleInfo:
    def __init__(self, module_text: str) -> None:
        self.text = module_text
        self.fns = function_texts(module_text)
        self.locations = DebugLocations(module_text)
        self.attr_groups = attribute_groups(module_text)
        self.structs: dict[str, Type] = struct_types(module_text)
        self.metadata = {m.group(1): m.group(2) for m in _MD_TUPLE.finditer(module_text)}
        self.registry = custom.read_registry(module_text)
        self.parsed: dict[str, Function] = {}
        self._address_taken: set[str] | None = None
        self._fresh: dict[str, bool] = {}
        # definitions the rewritten functions need (lowering.py), by name
        self.helpers: dict[str, str] = {}
        # global variables that may get shadows: not the registrations, the activity markers,
        # LLVM's own or those registered inactive (__enzyme_inactive_global)
        self.global_types = {g: t for g, t in writable_globals(module_text).items()
                             if (not g.lstrip("@").strip('"').startswith(("llvm.", "enzyme_", "gl."))
                                 or g.lstrip("@").strip('"').startswith("gl.shadow."))  # 2nd order
                             and "__enzyme_" not in g
                             and g not in self.registry.inactive_globals}
        self.declared_shadows = globals_.declared_shadows(module_text)
        globals_.check_declared(self.declared_shadows, self.global_types, self.structs)
        self.initializers = global_initializers(module_text)
        self.pointing_globals = frozenset(
            g for g, (_, init) in self.initializers.items() if g in self.global_types and any(
                r in self.global_types for r in globals_.referenced_globals(init)))
        # globals whose shadows the program queries (contexts.py): the program's to manage
        self.queried_shadows: set[str] = set()
        for name, text in self.fns.items():
            if contexts.SHADOW in text:
                self.queried_shadows |= contexts.queried_globals(self.caller(name),
                                                                 self.global_types)

    def managed_shadows(self) -> set[str]:
        """Globals whose shadows the program seeds and reads (declared or queried): active when
        only read, never zeroed by gradlink."""
        return set(self.declared_shadows) | self.queried_shadows

    def close_shadows(self, shadowed: frozenset[str]) -> frozenset[str]:
        """``shadowed`` with the writable globals their initializers point to and those whose
        initializers point to them, transitively: the shadow of a pointer to a global points
        to that global's shadow, and a pointer to a global with a shadow, loaded from another
        global, must have one (``desc.base[i]`` reads the table's adjoint's place)."""
        out = set(shadowed)
        refs = {g: [r for r in globals_.referenced_globals(init) if r in self.global_types]
                for g, (_, init) in self.initializers.items() if g in self.pointing_globals}
        changed = True
        while changed:
            changed = False
            for g, targets in refs.items():
                linked = g in out or any(r in out for r in targets)
                if linked and not {g, *targets} <= out:
                    out |= {g, *targets}
                    changed = True
        return frozenset(out)

    def function(self, name: str) -> Function:
        if name not in self.parsed:
            try:
                fn, helpers = lowering.lower(parse_function(self.fns[name]))
            except ParseError as e:
                raise ADError(f"cannot read the IR of {name.lstrip('@')}: {e}") from None
            except ValueError as e:
                raise ADError(f"cannot differentiate {name.lstrip('@')}: {e}") from None
            self.parsed[name] = fn
            self.helpers.update(helpers)
        return self.parsed[name]

    def returns_allocation(self, callees: activity.Callees, name: str) -> bool:
        """Whether the module's function may return memory it allocated (memoized; a
        recursion in progress counts as not)."""
        if name not in self._fresh:
            self._fresh[name] = False
            self._fresh[name] = name in self.fns and _RETURNS_PTR.match(self.fns[name]) is not None \
                and activity.returns_allocation(self.function(name), callees,
                                                lambda c: self.returns_allocation(callees, c))
        return self._fresh[name]

    def global_users(self, globals_: frozenset[str]) -> frozenset[str]:
        """Functions of the module that name one of the globals, directly or through the
        functions they call."""
        if not globals_:
            return frozenset()
        refs = {name: set(_REF.findall(text.split("\n", 1)[-1])) for name, text in self.fns.items()}
        return frozenset(with_callers({name for name, r in refs.items() if r & globals_}, refs))

    def caller(self, name: str) -> Function:
        """A function whose requests are replaced: read in full are only the requests and what
        reading them looks at (marker loads, phis and selects of functions, landing pads);
        the rest is only printed back, as read. Not cached (a full reading may follow)."""
        try:
            return parse_function(self.fns[name], shallow=_shallow_in_caller)
        except ParseError as e:
            raise ADError(f"cannot read the IR of {name.lstrip('@')}: {e}") from None

    def existing(self, name: str) -> bool:
        """Defined by an earlier round of this link (nested derivatives). LLVM prints names
        like gl.diffe.f without quotes, so both spellings are looked up."""
        return name in self.fns or name.replace('"', "") in self.fns

    def indirect_targets(self, ins: Instr) -> list[str]:
        """The functions an indirect call may reach: those of the module whose address is taken
        (named anywhere but as a callee) with the call's parameter and result types."""
        if self._address_taken is None:
            self._address_taken = {m.group(1) for m in _ADDRESS.finditer(self.text)
                                   if m.group(1) in self.fns}
        out = []
        for name in sorted(self._address_taken):
            fn = self.function(name)
            if [p.type for p in fn.params] == [v.type for v in ins.operands] and \
                    str(fn.ret) == str(ins.type or "void") and "..." not in fn.header:
                out.append(name)
        return out

    def writes(self, callee: str) -> set[int] | None:
        """The parameters a function of the module may write through, from LLVM's attribute
        inference: none for ``memory(read)``; for ``memory(argmem: readwrite)`` those not
        marked readonly/readnone; None (anything) otherwise, or for registered derivatives."""
        if callee not in self.fns or callee in self.registry.gradients:
            return None
        fn = self.function(callee)
        for group in re.findall(r"#\d+", fn.attrs):
            m = re.search(r"\bmemory\(([^)]*)\)", self.attr_groups.get(group, ""))
            if m:
                return memory_written_params(m.group(1), fn)
        return None

    def target_attrs(self, fn: Function) -> str:
        """Target attributes (and the personality, for bodies with landing pads) of fn."""
        out = []
        m = re.search(r"\bpersonality (ptr (?:@\"[^\"]*\"|@[-a-zA-Z$._0-9]+))", fn.header)
        personality = f"personality {m.group(1)}" if m else ""
        for group in re.findall(r"#\d+", fn.attrs):
            body = self.attr_groups.get(group, "")
            for key in ("target-cpu", "target-features", "tune-cpu"):
                m = re.search(rf'"{key}"="[^"]*"', body)
                if m:
                    out.append(m.group(0))
        if personality:
            out.append(personality)        # after the attributes, as LLVM's grammar wants
        return " ".join(out) + (" " if out else "")


_FULL_IN_CALLER = re.compile(r'enzyme_|gl\.context\.|^(?:%(?:"[^"]*"|\S+) = )?(?:phi|select|landingpad)\b')


def _shallow_in_caller(line: str) -> bool:
    return _FULL_IN_CALLER.search(line) is None


def with_callers(found: set[str], refs: dict[str, set[str]]) -> set[str]:
    """``found`` and every function that names one of them, directly or through others
    (``refs``: the names each function's body holds)."""
    changed = True
    while changed:
        changed = False
        for name, r in refs.items():
            if name not in found and r & found:
                found.add(name)
                changed = True
    return found


def memory_written_params(spec: str, fn: Function) -> set[int] | None:
    """From the contents of a ``memory(...)`` attribute: which parameters fn may write through
    (inaccessible memory and errno aside), or None when it may write other memory too."""
    default = "none"                 # memory(argmem: readwrite): the rest is not accessed
    access = {}
    for item in (x.strip() for x in spec.split(",")):
        loc, colon, acc = item.partition(":")
        if colon:
            access[loc.strip()] = acc.strip()
        else:
            default = item
    if access.get("other", default) not in ("none", "read"):
        return None
    if access.get("argmem", default) in ("none", "read"):
        return set()
    return {i for i, p in enumerate(fn.params) if p.type.is_ptr and
            not re.search(r"\b(readonly|readnone)\b", p.attrs)}
