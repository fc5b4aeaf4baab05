"""``__enzyme_batch``: one function evaluated on W lanes of arguments (Enzyme's batch mode).

    Vec4 r = __enzyme_batch((void *)f, enzyme_width, 4,
                            enzyme_vector, x0, x1, x2, x3,    // one value per lane
                            enzyme_scalar, n);                // the same value in every lane

An argument without a marker is ``enzyme_vector``. The result holds f's W results in lane order
(a struct or vector of them, returned as the C ABI returns it: by value or through sret); a
function returning void gives nothing. Enzyme widens every instruction of f to W lanes; gradlink
calls f once per lane, in lane order, and leaves the calls to the optimizer (inlined, they are
what the SLP vectorizer packs). The values are the same: each lane is f of that lane's
arguments, side effects included, in lane order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gradlink.ad import custom, results
from gradlink.ad.errors import ADError
from gradlink.ad.requests import SRET
from gradlink.ir.builder import Builder
from gradlink.ir.model import Function, Instr, Value
from gradlink.ir.parse import parse_type
from gradlink.ir.types import I8, I64, Type

MARKERS = {"enzyme_vector", "enzyme_scalar"}


def is_batch(callee: str) -> bool:
    return "__enzyme_batch" in callee


@dataclass(frozen=True)
class Batch:
    target: str
    ret: Type                        # f's result type
    lanes: list[list[Value]]         # the arguments of each lane's call
    prologue: list[Instr]            # conversions of promoted variadic arguments
    sret: tuple[Value, Type] | None  # where a large result struct is returned


def read(caller: Function, ins: Instr, module_text: str, fns: dict[str, str],
         marker: Callable[[Value], str | None],
         coerce: Callable[[Value, Type, Callable[[str], ADError], list[Instr]], Value],
         fail: Callable[[str], ADError]) -> Batch:
    """The batch request ``ins`` of ``caller``: its function, lanes and where its result goes.
    ``marker(v)`` names the activity marker a value is, ``coerce`` converts a variadic argument
    to a parameter's type."""
    operands = list(ins.operands)
    sret = SRET.search(ins.text)
    sret_ptr: tuple[Value, Type] | None = None
    if sret and operands and operands[0].is_local:
        sret_ptr = (operands.pop(0), parse_type(sret.group(1)))
    if not operands or not operands[0].is_global:
        raise fail("the first argument of __enzyme_batch must be a function (its address)")
    target = operands[0].ref
    if target not in fns and f"@{target.lstrip('@')}(" not in module_text:
        raise fail(f"{target.lstrip('@')} is not a function of the program")
    ret, params = custom.signature(module_text, target)
    items = [(marker(v), v) for v in operands[1:]]
    width = 0
    for j, (m, _) in enumerate(items):
        if m == "enzyme_width":
            if j + 1 >= len(items) or not items[j + 1][1].ref.isdigit():
                raise fail("enzyme_width must be followed by a constant number of lanes")
            width = int(items[j + 1][1].ref)
            items = items[:j] + items[j + 2:]
            break
    if not 1 <= width <= 64:
        raise fail("__enzyme_batch needs enzyme_width followed by the number of lanes (1 to 64)")
    prologue: list[Instr] = []
    lanes: list[list[Value]] = [[] for _ in range(width)]
    i = 0
    for k, p in enumerate(params):
        m = items[i][0] if i < len(items) else None
        if m is not None and m not in MARKERS:
            raise fail(f"{m} is not a batch marker: each argument of {target.lstrip('@')} is "
                       "enzyme_vector (one value per lane, the default) or enzyme_scalar "
                       "(one value for every lane)")
        i += m is not None
        count = 1 if m == "enzyme_scalar" else width
        values = items[i:i + count]
        if len(values) < count or any(vm is not None for vm, _ in values):
            raise fail(f"argument {k + 1} of {target.lstrip('@')} needs "
                       + ("a value" if count == 1 else f"{width} values (one per lane)"))
        i += count
        for lane in range(width):
            v = values[0 if count == 1 else lane][1]
            lanes[lane].append(v if v.type == p else coerce(v, p, fail, prologue))
    if i != len(items):
        raise fail(f"wrong argument count: {target.lstrip('@')} takes {len(params)} "
                   f"argument(s), the call passes {len(items) - i} more")
    return Batch(target, ret, lanes, prologue, sret_ptr)


def lower(b: Builder, batch: Batch, call: Instr, tag: int, structs: dict[str, Type]) -> None:
    """One call of the function per lane, then the results as the call declares them."""
    for ins in batch.prologue:
        b.insert(ins)
    void = batch.ret.kind == "void"
    outs = [b.call(batch.target, args, batch.ret, name=f'%"gl.lane.{tag}.{k}"', discard=void)
            for k, args in enumerate(batch.lanes)]
    if void or (call.name is None and batch.sret is None):
        if not void or call.name is None or call.type is None:
            return
        results.zero_result(b, call.name, call.type)
        return
    values = [v for v in outs if v is not None]
    if batch.sret is not None:
        ptr, st = batch.sret
        leaves = results.leaves(st, structs)
        if len(leaves) < len(values) or any(t != batch.ret for _, t in leaves[:len(values)]):
            raise ADError(f"__enzyme_batch of {batch.target.lstrip('@')} returns {len(values)} "
                          f"values of type {batch.ret}, but the result struct {st} does not "
                          f"hold them\n>>> instruction: {call.text}")
        for k, v in enumerate(values):
            at = b.gep(I8, ptr, [Value(I64, str(leaves[k][0]))], name=f'%"gl.lane.{tag}.p{k}"')
            b.store(v, at)
        return
    assert call.name is not None and call.type is not None
    agg_type = Type("struct", fields=(batch.ret,) * len(values))
    agg = Value(agg_type, "poison")
    for k, v in enumerate(values):
        agg = b.insertvalue(agg, v, [k], name=f'%"gl.lanes.{tag}.{k}"')
    results.convert(b, agg, [batch.ret] * len(values), call.type, call.name, call)
