"""What a synthesis is asked for and what it gives back, shared by both modes and the API:
the activity signature of a request, the derivative functions made for it, and the derivative
pair of a called function.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gradlink.ad.globals import space_of
from gradlink.analysis.activity import Arg
from gradlink.ir.types import Type


@dataclass(frozen=True)
class Signature:
    """What the caller asked for: each parameter's activity, and the result's."""

    args: tuple[Arg, ...]
    active_return: bool
    width: int = 1                     # forward mode: tangents per value (enzyme_width)
    # reverse mode: pointer parameters whose memory nothing writes while the derivative runs
    # (the caller knows), so the callee's reverse may reload from it instead of caching
    unchanged: frozenset[int] = frozenset()
    # reverse mode: the result is a pointer into active memory, whose shadow the augmented
    # forward function returns too ({result, shadow})
    shadow_return: bool = False
    # the context whose shadows of global variables the derivative uses (contexts.py): cN,
    # or "" for the default shadows
    context: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", tuple(Arg(a) for a in self.args))

    def key(self) -> str:
        return "".join(a.code for a in self.args) + ("_r" if self.active_return else "") + (
            f"_w{self.width}" if self.width != 1 else "") + (
            "_u" + "_".join(map(str, sorted(self.unchanged))) if self.unchanged else "") + (
            "_s" if self.shadow_return else "") + (f"_{self.context}" if self.context else "")

    @property
    def space(self) -> str:
        """Where its global variables' shadows are (globals.space_of)."""
        return space_of(self.context, self.width)


@dataclass(frozen=True)
class CalleeDerivative:
    """The augmented forward and reverse functions of a called function, for one signature."""

    aug: str                     # returns the primal result, leaves its tape on the stack
    rev: str                     # takes args, shadows [, dret]; returns the out adjoints
    ret: Type | None             # rev's return type
    out_positions: tuple[int, ...]   # which parameters' adjoints rev returns, in order
    custom_signature: Signature | None = None    # a user's registered pair fixes the activity
    shadow_return: bool = False  # aug returns {result, shadow of the result}
    # an indirect call: (target, its aug, its rev) for every function it may reach; aug and rev
    # are then chosen at run time by comparing the called pointer with the targets
    dispatch: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class Derivative:
    name: str
    text: str
    ret: Type | None                              # None: void; else the adjoint(s) type
    out_types: list[Type]
    tape_types: set[Type] = field(default_factory=set)
    declarations: dict[str, str] = field(default_factory=dict)
    helpers: dict[str, str] = field(default_factory=dict)
    tangent_tape_types: set[Type] = field(default_factory=set)   # second order only
