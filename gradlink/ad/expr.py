"""Derivative formulas: a tiny expression language compiled to IR through the Builder.

Grammar: sums, products, quotients, unary minus, numbers, names (operands x y z, result r, and
constants pi ln2 ln10), calls f(a, ...) to elementary functions, and ``ifle(a, b, p, q)`` =
(a <= b ? p : q), ``iflt`` likewise. Zero is symbolic: a formula that is 0 emits nothing, and
multiplying by 1 or adding 0 costs nothing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from gradlink.ir.builder import Builder
from gradlink.ir.model import Value

_TOK = re.compile(r"\s*(?:(\d+(?:\.\d*)?(?:e[-+]?\d+)?)|([A-Za-z_][A-Za-z_0-9]*)|(.))")
CONSTANTS = {"pi": math.pi, "ln2": math.log(2.0), "ln10": math.log(10.0)}


@dataclass(frozen=True)
class Node:
    op: str                    # "num", "var", "neg", "+", "-", "*", "/", "call"
    args: tuple[Node, ...] = ()
    value: float = 0.0
    name: str = ""


def parse(text: str) -> Node:
    toks = [(m.group(1), m.group(2), m.group(3)) for m in _TOK.finditer(text) if m.group(0).strip()]
    pos = 0

    def peek() -> str | None:
        if pos >= len(toks):
            return None
        num, name, ch = toks[pos]
        return num or name or ch

    def take() -> str:
        nonlocal pos
        t = peek()
        if t is None:
            raise ValueError(f"unexpected end of formula {text!r}")
        pos += 1
        return t

    def expr() -> Node:
        node = term()
        while peek() in ("+", "-"):
            op = take()
            node = Node(op, (node, term()))
        return node

    def term() -> Node:
        node = unary()
        while peek() in ("*", "/"):
            op = take()
            node = Node(op, (node, unary()))
        return node

    def unary() -> Node:
        if peek() == "-":
            take()
            return Node("neg", (unary(),))
        return atom()

    def atom() -> Node:
        t = take()
        if t == "(":
            node = expr()
            if take() != ")":
                raise ValueError(f"missing ')' in {text!r}")
            return node
        if t[0].isdigit():
            return Node("num", value=float(t))
        if peek() == "(":
            take()
            args = [expr()]
            while peek() == ",":
                take()
                args.append(expr())
            if take() != ")":
                raise ValueError(f"missing ')' in {text!r}")
            return Node("call", tuple(args), name=t)
        if t in CONSTANTS:
            return Node("num", value=CONSTANTS[t])
        return Node("var", name=t)

    node = expr()
    if peek() is not None:
        raise ValueError(f"trailing input in formula {text!r}")
    return node


def free_names(node: Node) -> set[str]:
    if node.op == "var":
        return {node.name}
    out: set[str] = set()
    for a in node.args:
        out |= free_names(a)
    return out


def emit(node: Node, env: dict[str, Value], b: Builder, like: Value) -> Value | None:
    """Compile ``node``; None stands for symbolic zero. ``like`` gives the float type."""
    t = like.type
    if node.op == "num":
        return None if node.value == 0.0 else b.const(node.value, t)
    if node.op == "var":
        return env[node.name]
    if node.op == "neg":
        a = emit(node.args[0], env, b, like)
        return None if a is None else b.fneg(a)
    if node.op in "+-*/":
        return _arith(node, env, b, like)
    if node.op == "call":
        if node.name in ("ifle", "iflt"):
            lhs, rhs = (emit(a, env, b, like) or b.zero(t) for a in node.args[:2])
            p, q = (emit(a, env, b, like) for a in node.args[2:])
            if p is None and q is None:
                return None
            c = b.fcmp("ole" if node.name == "ifle" else "olt", lhs, rhs)
            return b.select(c, p or b.zero(t), q or b.zero(t))
        args = [emit(a, env, b, like) or b.zero(t) for a in node.args]
        return b.elementary(node.name, args, t)
    raise ValueError(f"bad formula node {node.op}")


def _is_one(v: Value | None, b: Builder) -> bool:
    return v is not None and v.ref == b.const(1.0, v.type).ref


def _arith(node: Node, env: dict[str, Value], b: Builder, like: Value) -> Value | None:
    a = emit(node.args[0], env, b, like)
    c = emit(node.args[1], env, b, like)
    if node.op == "+":
        if a is None or c is None:
            return a if c is None else c
        return b.binop("fadd", a, c)
    if node.op == "-":
        if c is None:
            return a
        if a is None:
            return b.fneg(c)
        return b.binop("fsub", a, c)
    if node.op == "*":
        if a is None or c is None:
            return None
        if _is_one(a, b):
            return c
        if _is_one(c, b):
            return a
        return b.binop("fmul", a, c)
    if c is None:
        raise ZeroDivisionError("formula divides by symbolic zero")
    if a is None:
        return None
    return b.binop("fdiv", a, c)
