"""A request's result as the program declared it: the derivative's adjoints or tangents
converted to the call's type (a float of another width, a struct or vector of them, as C's ABI
returns small structs), stored field by field into a result struct passed by pointer (sret), or
a zero when the derivative has nothing to return."""

from __future__ import annotations

from gradlink.ad.errors import ADError
from gradlink.analysis import typeinfo
from gradlink.ir.builder import Builder
from gradlink.ir.model import Instr, Value
from gradlink.ir.types import I1, I8, I64, PTR, Type


def zero_result(b: Builder, name: str, t: Type) -> None:
    """A request with nothing to return defines its result as zero (of the declared type)."""
    if t.kind == "float":
        zero = Value(t, "0.0")
        b.binop("fadd", zero, zero, name=name)
    elif t.kind == "int":
        b.binop("add", Value(t, "0"), Value(t, "0"), name=name)
    elif t.is_ptr:
        b.gep(I8, Value(PTR, "null"), [Value(I64, "0")], name=name)
    else:
        zero = Value(t, "zeroinitializer")
        b.select(Value(I1, "true"), zero, zero, name=name)


def _base(result: str) -> str:
    return result.strip("%").strip('"')


def convert(b: Builder, v: Value, outs: list[Type], want: Type, result: str,
            call: Instr) -> None:
    """Turn the derivative's adjoint(s) into the type the program declared for the call."""
    base = _base(result)
    if len(outs) == 1:
        src = outs[0]
        if src.kind == "float" and want.kind == "float":
            b.cast("fpext" if src.bits < want.bits else "fptrunc", Value(src, v.ref), want,
                   name=result)
            return
        if want.kind == "struct" and len(want.fields) >= 1 and want.fields[0] == src:
            b.insertvalue(Value(want, "zeroinitializer"), Value(src, v.ref), [0], name=result)
            return
    elif want.kind == "vector" and want.count == len(outs) and all(t == want.elem for t in outs):
        agg = Value(want, "poison")             # the x86-64 ABI returns {float, float} so
        for i, t in enumerate(outs):
            el = b.extractvalue(v, [i], t, name=f'%"gl.el.{i}.{base}"')
            nxt = result if i == len(outs) - 1 else f'%"gl.vec.{i}.{base}"'
            agg = b.insertelement(agg, el, Value(I64, str(i)), name=nxt)
        return
    elif want.kind == "struct" and len(want.fields) >= len(outs):
        agg = Value(want, "zeroinitializer")
        for i, t in enumerate(outs):
            el = b.extractvalue(v, [i], t, name=f'%"gl.el.{i}.{base}"')
            field = want.fields[i]
            if field != t:
                if not (t.kind == "float" and field.kind == "float"):
                    break
                el = b.cast("fpext" if t.bits < field.bits else "fptrunc", el, field,
                            name=f'%"gl.cv.{i}.{base}"')
            nxt = result if i == len(outs) - 1 else f'%"gl.agg.{i}.{base}"'
            agg = b.insertvalue(agg, el, [i], name=nxt)
        else:
            return
    entry = next((e for e in ("__enzyme_fwddiff", "__enzyme_reverse", "__enzyme_autodiff",
                              "__enzyme_batch") if e in call.callee), "__enzyme_autodiff")
    what = {"__enzyme_fwddiff": "tangent(s)", "__enzyme_batch": "lane result(s)"}.get(
        entry, "adjoint(s)")
    raise ADError(f"{entry} returns {len(outs)} {what} of type(s) "
                  f"{', '.join(map(str, outs)) or 'none'}, but the call is declared to return "
                  f"{want}\n>>> instruction: {call.text}")


def store_sret(b: Builder, tag: int, callee: str, ret: Type | None, out_types: list[Type],
               args: list[Value], sret: tuple[Value, Type], call: Instr,
               structs: dict[str, Type]) -> None:
    """Store the derivatives into the caller's result struct, field by field."""
    ptr, st = sret
    st = structs.get(st.name, st) if st.kind == "named" else st
    fields = leaves(st, structs)
    if st.kind != "struct" or len(fields) < len(out_types):
        raise ADError(f"the derivative returns {len(out_types)} value(s), but the "
                      f"result struct {st} has fewer fields\n>>> instruction: {call.text}")
    res = b.call(callee, args, ret, name=f'%"gl.sret.{tag}"')
    for i, t in enumerate(out_types):
        off, leaf = fields[i]
        if leaf != t:
            raise ADError(f"adjoint {i} has type {t}, but the result struct's field at byte "
                          f"{off} is {leaf}\n>>> instruction: {call.text}")
        assert res is not None
        src = res if len(out_types) == 1 else \
            b.extractvalue(res, [i], t, name=f'%"gl.sret.{tag}.{i}"')
        at = b.gep(I8, ptr, [Value(I64, str(off))], name=f'%"gl.sret.{tag}.p{i}"')
        b.store(Value(t, src.ref), at)


def leaves(t: Type, structs: dict[str, Type], base: int = 0) -> list[tuple[int, Type]]:
    """The scalar fields of a result struct in order, with their byte offsets: nested structs
    and arrays flattened ({ [3 x double] } holds three doubles, as C's struct { double d[3]; })."""
    t = structs.get(t.name, t) if t.kind == "named" else t
    if t.kind == "struct":
        out = []
        for i, f in enumerate(t.fields):
            out += leaves(f, structs, base + typeinfo.field_offset(t, i, structs))
        return out
    if t.kind == "array" and t.elem is not None:
        size = typeinfo.size_of(t.elem, structs)
        return [leaf for k in range(t.count) for leaf in leaves(t.elem, structs, base + k * size)]
    return [(base, t)]
