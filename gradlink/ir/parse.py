"""Reading function definitions from LLVM's textual IR into gradlink.ir.model."""

from __future__ import annotations

import re
from collections.abc import Callable

from gradlink.ir.lexer import Tok, tokenize
from gradlink.ir.model import Block, Function, Instr, Param, Value
from gradlink.ir.types import FLOAT_BITS, PTR, Type, float_type, int_type


class ParseError(ValueError):
    pass


BINOPS = {"fadd", "fsub", "fmul", "fdiv", "frem", "add", "sub", "mul", "udiv", "sdiv", "urem",
          "srem", "shl", "lshr", "ashr", "and", "or", "xor"}
CASTS = {"trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp",
         "ptrtoint", "inttoptr", "bitcast", "addrspacecast"}
FLAG_WORDS = {"fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc", "nuw", "nsw",
              "exact", "disjoint", "nneg", "inbounds", "nusw", "samesign", "volatile", "tail",
              "musttail", "notail", "atomic"}
_CONST_WORDS = {"true", "false", "null", "undef", "poison", "zeroinitializer", "none"}
_CONST_EXPR = {"getelementptr", "bitcast", "ptrtoint", "inttoptr", "addrspacecast", "add", "sub",
               "mul", "xor", "trunc", "blockaddress", "dso_local_equivalent", "no_cfi", "ptrauth",
               "icmp", "fcmp", "select", "extractelement", "insertelement", "shufflevector",
               "splat"}
_DBG_ATTACH = re.compile(r",\s*!dbg\s+!\d+")


class _Cursor:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = tokenize(text)
        self.i = 0

    def peek(self, k: int = 0) -> Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def at(self, *texts: str) -> bool:
        t = self.peek()
        return t is not None and t.text in texts

    def next(self) -> Tok:
        t = self.peek()
        if t is None:
            raise ParseError(f"unexpected end of: {self.text.strip()[:120]}")
        self.i += 1
        return t

    def expect(self, text: str) -> Tok:
        t = self.next()
        if t.text != text:
            raise ParseError(f"expected '{text}', found '{t.text}' in: {self.text.strip()[:120]}")
        return t

    def skip_flags(self) -> tuple[str, ...]:
        flags = []
        while self.peek() is not None and self.peek().text in FLAG_WORDS:  # type: ignore[union-attr]
            flags.append(self.next().text)
        return tuple(flags)

    def done(self) -> bool:
        return self.i >= len(self.toks)

    # -- types ---------------------------------------------------------------------------
    def type(self) -> Type:
        t = self.next()
        s = t.text
        if s in FLOAT_BITS:
            base = float_type(s)
        elif re.fullmatch(r"i\d+", s):
            base = int_type(int(s[1:]))
        elif s == "ptr":
            base = PTR
            if self.at("addrspace"):
                self.next()
                self.expect("(")
                n = self.next().text
                self.expect(")")
                base = Type("ptr", f"ptr addrspace({n})")
        elif s in ("void", "label", "metadata", "token", "x86_amx"):
            base = Type(s)
        elif s == "<":
            if self.at("{"):
                self.next()
                fields = self._fields("}")
                self.expect(">")
                base = Type("struct", fields=fields, packed=True)
            else:
                count = int(self.next().text)
                if self.at("vscale"):
                    raise ParseError("scalable vectors are not supported")
                self.expect("x")
                elem = self.type()
                self.expect(">")
                base = Type("vector", count=count, elem=elem)
        elif s == "[":
            count = int(self.next().text)
            self.expect("x")
            elem = self.type()
            self.expect("]")
            base = Type("array", count=count, elem=elem)
        elif s == "{":
            base = Type("struct", fields=self._fields("}"))
        elif t.kind == "local":
            base = Type("named", name=s)
        else:
            raise ParseError(f"unknown type '{s}' in: {self.text.strip()[:120]}")
        while self.at("("):                       # function type: ret (args...)
            depth = 0
            while True:
                tok = self.next()
                depth += tok.text == "("
                depth -= tok.text == ")"
                if depth == 0:
                    break
            base = Type("func", name=str(base))
        return base

    def _fields(self, close: str) -> tuple[Type, ...]:
        fields = []
        while not self.at(close):
            fields.append(self.type())
            if self.at(","):
                self.next()
        self.expect(close)
        return tuple(fields)

    # -- values --------------------------------------------------------------------------
    def value_ref(self) -> str:
        """The spelling of one value: an identifier, a literal, or a balanced constant."""
        t = self.next()
        if t.kind in ("local", "global", "number", "hex") or t.text in _CONST_WORDS:
            return t.text
        if t.text in ("<", "[", "{"):
            return self._balanced_from(t)
        if t.text in _CONST_EXPR or t.kind == "string":
            if t.kind == "string":
                return t.text
            start = t.pos
            while True:
                prev = t
                while not self.at("("):
                    prev = self.next()
                end = self._skip_balanced()
                if prev.text != "inrange":         # inrange(-16, 24): a flag, operands follow
                    return self.text[start:end]
        if t.kind == "meta":
            start = t.pos
            if self.at("("):
                return self.text[start:self._skip_balanced()]
            if self.at("{"):
                return self.text[start:self._skip_balanced()]
            return t.text
        raise ParseError(f"cannot read value '{t.text}' in: {self.text.strip()[:120]}")

    def _balanced_from(self, open_tok: Tok) -> str:
        self.i -= 1
        end = self._skip_balanced()
        return self.text[open_tok.pos:end]

    def _skip_balanced(self) -> int:
        depth = 0
        pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
        stack: list[str] = []
        while True:
            t = self.next()
            if t.text in pairs:
                stack.append(pairs[t.text])
                depth += 1
            elif stack and t.text == stack[-1]:
                stack.pop()
                if not stack:
                    return t.pos + len(t.text)

    def typed_value(self) -> Value:
        ty = self.type()
        self._skip_param_attrs()
        return Value(ty, self.value_ref())

    def _skip_param_attrs(self) -> None:
        while True:
            t = self.peek()
            if t is None or t.kind != "word" or t.text in _CONST_WORDS or t.text in _CONST_EXPR:
                return
            self.next()
            if self.at("("):
                self._skip_balanced()
            elif t.text == "align" and self.peek() is not None and self.peek().kind == "number":  # type: ignore[union-attr]
                self.next()


def _strip_dbg(line: str) -> tuple[str, str | None]:
    m = re.search(r",\s*!dbg\s+(!\d+)", line)
    return _DBG_ATTACH.sub("", line), (m.group(1) if m else None)


def _strip_metadata(line: str) -> str:
    """Text of an instruction without trailing metadata attachments (', !tbaa !5' ...)."""
    m = re.search(r",\s*![a-zA-Z_.][-a-zA-Z0-9_.]*\s+!", line)
    return line[:m.start()] if m else line


def parse_instruction(line: str) -> Instr:
    text, dbg = _strip_dbg(line.strip())
    body = _strip_metadata(text)
    c = _Cursor(body)
    ins = Instr(opcode="", text=text, dbg=dbg)
    t0, t1 = c.peek(), c.peek(1)
    if t0 is not None and t0.kind == "local" and t1 is not None and t1.text == "=":
        ins.name = c.next().text
        c.next()
    flags = list(c.skip_flags())
    op = c.next().text
    ins.opcode = op
    flags += c.skip_flags()
    if op in BINOPS:
        a = c.typed_value()
        c.expect(",")
        b = Value(a.type, c.value_ref())
        ins.type, ins.operands = a.type, [a, b]
    elif op == "fneg" or op == "freeze":
        a = c.typed_value()
        ins.type, ins.operands = a.type, [a]
    elif op in ("fcmp", "icmp"):
        flags += c.skip_flags()
        ins.pred = c.next().text
        a = c.typed_value()
        c.expect(",")
        b = Value(a.type, c.value_ref())
        ins.operands = [a, b]
        ins.type = int_type(1) if a.type.kind != "vector" else Type("vector", count=a.type.count,
                                                                     elem=int_type(1))
    elif op in CASTS:
        flags += c.skip_flags()
        a = c.typed_value()
        c.expect("to")
        ins.type, ins.operands = c.type(), [a]
    elif op == "select":
        cond = c.typed_value()
        c.expect(",")
        a = c.typed_value()
        c.expect(",")
        b = c.typed_value()
        ins.type, ins.operands = a.type, [cond, a, b]
    elif op == "phi":
        ins.type = c.type()
        incoming: list[tuple[Value, str]] = []
        ins.incoming = incoming
        while True:
            c.expect("[")
            v = Value(ins.type, c.value_ref())
            c.expect(",")
            blk = c.next().text
            c.expect("]")
            incoming.append((v, _target(blk)))
            if not c.at(","):
                break
            c.next()
    elif op == "load":
        ins.type = c.type()
        c.expect(",")
        ins.operands = [c.typed_value()]
    elif op == "store":
        v = c.typed_value()
        c.expect(",")
        ins.operands = [v, c.typed_value()]
    elif op == "getelementptr":
        flags += c.skip_flags()
        ins.alloc_type = c.type()
        c.expect(",")
        base = c.typed_value()
        ins.operands = [base]
        while c.at(","):
            c.next()
            if c.at("inrange"):
                c.next()
                c._skip_balanced()
            ins.operands.append(c.typed_value())
        ins.type = base.type
    elif op == "alloca":
        ins.alloc_type = c.type()
        ins.type = PTR
        if c.at(",") and c.peek(1) is not None and c.peek(1).text not in ("align", "addrspace"):  # type: ignore[union-attr]
            c.next()
            ins.operands = [c.typed_value()]
    elif op in ("call", "invoke"):
        _parse_call(c, ins)
    elif op == "br":
        if c.at("label"):
            c.next()
            ins.targets = [_target(c.next().text)]
        else:
            cond = c.typed_value()
            c.expect(",")
            c.expect("label")
            t = _target(c.next().text)
            c.expect(",")
            c.expect("label")
            ins.operands, ins.targets = [cond], [t, _target(c.next().text)]
    elif op == "switch":
        v = c.typed_value()
        c.expect(",")
        c.expect("label")
        targets = [_target(c.next().text)]
        cases: list[tuple[Value, str]] = []
        ins.operands, ins.targets, ins.cases = [v], targets, cases
        c.expect("[")
        while not c.at("]"):
            cv = c.typed_value()
            c.expect(",")
            c.expect("label")
            dest = _target(c.next().text)
            cases.append((cv, dest))
            targets.append(dest)
    elif op == "ret":
        if c.at("void"):
            c.next()
        else:
            ins.operands = [c.typed_value()]
    elif op == "extractelement":
        vec = c.typed_value()
        c.expect(",")
        ins.operands = [vec, c.typed_value()]
        ins.type = vec.type.elem
    elif op == "insertelement":
        vec = c.typed_value()
        c.expect(",")
        elt = c.typed_value()
        c.expect(",")
        ins.operands = [vec, elt, c.typed_value()]
        ins.type = vec.type
    elif op == "shufflevector":
        a = c.typed_value()
        c.expect(",")
        b = c.typed_value()
        c.expect(",")
        mask = c.typed_value()
        ins.operands = [a, b, mask]
        ins.type = Type("vector", count=mask.type.count, elem=a.type.elem)
    elif op in ("extractvalue", "insertvalue"):
        agg = c.typed_value()
        ins.operands = [agg]
        if op == "insertvalue":
            c.expect(",")
            ins.operands.append(c.typed_value())
        indices: list[int] = []
        ins.indices = indices
        while c.at(","):
            c.next()
            indices.append(int(c.next().text))
        ins.type = agg.type if op == "insertvalue" else _member_type(agg.type, ins.indices)
    # unreachable, fence, atomics, landingpad...: kept as opaque text
    ins.flags = tuple(flags)
    return ins


def _member_type(t: Type, indices: list[int]) -> Type:
    for i in indices:
        if t.kind == "struct":
            t = t.fields[i]
        elif t.kind in ("array", "vector") and t.elem is not None:
            t = t.elem
        else:
            return Type("named", name="?")
    return t


def _parse_call(c: _Cursor, ins: Instr) -> None:
    # call [fast-math flags] [cconv] [ret attrs] [addrspace] <ty> [fnty] <fnptrval>(<args>) ...
    while True:
        t = c.peek()
        if t is None:
            raise ParseError(f"bad call: {c.text[:120]}")
        if t.text in FLAG_WORDS or t.text.startswith("cc") and t.text[2:].isdigit():
            c.next()
            continue
        if t.kind == "word" and t.text in ("fastcc", "coldcc", "ccc", "swiftcc", "tailcc",
                                            "preserve_mostcc", "preserve_allcc"):
            c.next()
            continue
        if t.kind == "word" and t.text in ("noundef", "nonnull", "zeroext", "signext", "inreg",
                                            "noalias", "nofpclass", "dereferenceable",
                                            "dereferenceable_or_null", "align", "range"):
            c.next()
            if c.at("("):
                c._skip_balanced()
            elif t.text == "align":
                c.next()
            continue
        break
    ins.type = c.type()
    if ins.type.kind == "func":
        ins.type = _ret_of(ins.type)
    if c.at("asm"):                               # inline assembly: asm [flags] "code", "cons"(args)
        c.next()
        while c.peek() is not None and c.peek().kind == "word":  # type: ignore[union-attr]
            c.next()
        c.next()
        c.expect(",")
        c.next()
        ins.callee = "asm"
    else:
        ins.callee = c.next().text
    c.expect("(")
    args: list[Value] = []
    while not c.at(")"):
        args.append(c.typed_value())
        if c.at(","):
            c.next()
    c.expect(")")
    ins.operands = args
    if ins.opcode == "invoke":                    # ... to label %normal unwind label %lp
        while not c.done() and not c.at("to"):
            c.next()
        if not c.done():
            c.expect("to")
            c.expect("label")
            ins.targets = [_target(c.next().text)]
            c.expect("unwind")
            c.expect("label")
            ins.unwind = _target(c.next().text)
    if ins.type.kind == "void":
        ins.type = None if ins.name is None else ins.type


def _target(token: str) -> str:
    """A block named in an operand ('%bb3', '%"a.exit.i"') as Block.label holds it: no '%',
    no quotes (printing adds them back where needed: printer.label_ref)."""
    name = token[1:]
    return name[1:-1] if len(name) >= 2 and name[0] == name[-1] == '"' else name


def _ret_of(fn_type: Type) -> Type:
    return _Cursor(fn_type.name).type()


_CONTINUATIONS = {"to", "cleanup", "catch", "filter", "unwind"}
_DEFINE = re.compile(r"^define\s.*?(@(?:\"[^\"]*\"|[-a-zA-Z$._0-9]+))\(", re.S)
_LABEL = re.compile(r"^(?:([-a-zA-Z$._0-9]+)|\"((?:[^\"\\]|\\.)*)\"):")


_SHALLOW = re.compile(r'^(?:(%(?:"[^"]*"|[-a-zA-Z$._0-9]+)) = )?(?:(?:tail|musttail|notail) )?'
                      r'([a-z]+)')


def shallow_instruction(line: str) -> Instr:
    """An instruction known by its text, result name and opcode only (operands unread): what a
    function whose instructions are only printed back needs."""
    text, dbg = _strip_dbg(line.strip())
    m = _SHALLOW.match(text)
    return Instr(m.group(2) if m else "", m.group(1) if m else None, text=text, dbg=dbg)


def parse_function(text: str, shallow: Callable[[str], bool] | None = None) -> Function:
    """Parse one 'define ... { ... }' from module text. ``shallow(line)``: whether that
    instruction may be read shallowly (shallow_instruction) instead of in full."""
    def read(line: str) -> Instr:
        return shallow_instruction(line) if shallow is not None and shallow(line) else \
            parse_instruction(line)

    lines = text.splitlines()
    header = lines[0]
    m = _DEFINE.match(header)
    if not m:
        raise ParseError(f"not a function definition: {header[:120]}")
    fn_name = m.group(1)
    ret, params, attrs, dbg = _parse_header(header, fn_name)
    blocks: list[Block] = []
    current: Block | None = None
    pending = ""
    records: list[str] = []                    # debug records, kept with the next instruction
    for raw in lines[1:]:
        line = raw.rstrip()
        stripped = line.strip()
        if stripped.startswith("#dbg_"):
            records.append(stripped)
            continue
        if not stripped or stripped.startswith(";"):
            continue
        if stripped == "}":
            break
        lm = _LABEL.match(line)
        if lm and not line.startswith(" "):
            current = Block(lm.group(1) or lm.group(2))
            blocks.append(current)
            continue
        if stripped.split(" ", 1)[0] in _CONTINUATIONS and current is not None and current.instrs:
            last = current.instrs.pop()             # 'to label ... unwind label ...', 'cleanup'
            ins = read(last.text + " " + stripped)
            ins.block, ins.records = current.label, last.records
            ins.dbg = ins.dbg or last.dbg
            current.instrs.append(ins)
            continue
        if pending or (stripped.startswith("switch ") and stripped.endswith("[")):
            pending += " " + stripped
            if not stripped.startswith("]"):        # ']' or '], !dbg !12'
                continue
            stripped, pending = pending.strip(), ""
        if current is None:
            current = Block(_entry_label(params))
            blocks.append(current)
        ins = read(stripped)
        ins.block = current.label
        if records:
            ins.records, records = tuple(records), []
        current.instrs.append(ins)
    return Function(fn_name, ret, params, blocks, header=header, attrs=attrs, dbg=dbg)


def _entry_label(params: list[Param]) -> str:
    """LLVM numbers an unnamed entry block after the unnamed parameters."""
    numbered = [p for p in params if p.name[1:].isdigit()]
    return str(len(numbered))


def _parse_header(header: str, fn_name: str) -> tuple[Type, list[Param], str, str | None]:
    before, after = header.split(fn_name + "(", 1)
    # return type: the last type-looking word sequence before the name
    words = before.split()
    ret_text = ""
    for j in range(len(words) - 1, -1, -1):
        cand = " ".join(words[j:])
        try:
            cur = _Cursor(cand)
            ty = cur.type()
            if cur.done():
                ret_text = cand
                ret = ty
                break
        except (ParseError, IndexError, ValueError):
            continue
    if not ret_text:
        raise ParseError(f"cannot read return type of {fn_name}")
    depth, k = 1, 0
    while depth and k < len(after):
        depth += after[k] == "("
        depth -= after[k] == ")"
        k += 1
    plist, rest = after[:k - 1], after[k:]
    params: list[Param] = []
    if plist.strip():
        c = _Cursor(plist)
        while not c.done():
            if c.at("..."):
                c.next()
                break
            ty = c.type()
            start = c.peek().pos if c.peek() else len(plist)  # type: ignore[union-attr]
            c._skip_param_attrs()
            name = c.next().text if c.peek() is not None and c.peek().kind == "local" else ""  # type: ignore[union-attr]
            end = c.peek().pos if c.peek() else len(plist)  # type: ignore[union-attr]
            params.append(Param(ty, name, plist[start:end].replace(name, "").strip(" ,")))
            if c.at(","):
                c.next()
    dbg_m = re.search(r"!dbg (!\d+)", rest)
    attrs = rest.split("{")[0]
    return ret, params, attrs, dbg_m.group(1) if dbg_m else None


def function_texts(module_text: str) -> dict[str, str]:
    """Each function definition's text, by name ("@f")."""
    return {name: text for name, text in split_module(module_text) if name is not None}


def split_module(module_text: str) -> list[tuple[str | None, str]]:
    """The module's text in order, as function definitions (name, text) and the runs of other
    lines between them (None, text); joined, the texts are the module."""
    out: list[tuple[str | None, str]] = []
    lines = module_text.splitlines(keepends=True)
    i = start = 0
    while i < len(lines):
        if lines[i].startswith("define "):
            m = _DEFINE.match(lines[i])
            j = i
            while not lines[j].startswith("}"):
                j += 1
            if m:
                if start < i:
                    out.append((None, "".join(lines[start:i])))
                out.append((m.group(1), "".join(lines[i:j + 1])))
                start = j + 1
            i = j + 1
        else:
            i += 1
    if start < len(lines):
        out.append((None, "".join(lines[start:])))
    return out


_ATTR_GROUP = re.compile(r"^attributes (#\d+) = \{(.*)\}\s*$", re.M)


def attribute_groups(module_text: str) -> dict[str, str]:
    """Attribute groups by id: '#3' -> 'noinline nounwind "target-cpu"="x86-64"'."""
    return {m.group(1): m.group(2) for m in _ATTR_GROUP.finditer(module_text)}


_TYPEDEF = re.compile(r"^(%(?:\"[^\"]*\"|[-a-zA-Z$._0-9]+)) = type (.+)$", re.M)


def struct_types(module_text: str) -> dict[str, Type]:
    """Named struct definitions: '%struct.node = type { double, ptr }'."""
    out: dict[str, Type] = {}
    for m in _TYPEDEF.finditer(module_text):
        body = m.group(2).strip()
        if body == "opaque":
            continue
        try:
            out[m.group(1)] = _Cursor(body).type()
        except ParseError:
            continue
    return out


_GLOBAL_VAR = re.compile(r'^(@"[^"]*"|@[-a-zA-Z$._0-9]+) = ([^\n]*?)\bglobal (.*)$', re.M)


def writable_globals(module_text: str) -> dict[str, Type]:
    """Global variables (not constants) by name, with the type of what they hold."""
    out: dict[str, Type] = {}
    for m in _GLOBAL_VAR.finditer(module_text):
        if "thread_local" in m.group(2):
            continue
        try:
            out[m.group(1)] = _Cursor(m.group(3)).type()
        except ParseError:
            continue
    return out


def global_initializers(module_text: str) -> dict[str, tuple[Type, str]]:
    """Global variables defined with an initializer: their type and the initializer's text
    (declarations have none)."""
    out: dict[str, tuple[Type, str]] = {}
    for m in _GLOBAL_VAR.finditer(module_text):
        if "thread_local" in m.group(2) or "external" in m.group(2):
            continue
        c = _Cursor(m.group(3))
        try:
            t = c.type()
            if not c.done() and not c.at(","):
                out[m.group(1)] = (t, c.value_ref())
        except ParseError:
            continue
    return out


def map_constant(t: Type, text: str, leaf: Callable[[Type, str, tuple[int, ...]], str],
                 path: tuple[int, ...] = ()) -> str:
    """A constant of type t rebuilt with ``leaf(type, spelling, indices)`` in place of each
    scalar element of its aggregates (indices: its place, as a GEP after the leading 0 spells
    it); zeroinitializer and undef stay whole, c"..." strings too."""
    if text in ("undef", "poison"):
        return "zeroinitializer"
    if text == "zeroinitializer" or text.startswith('c"'):
        return text
    if text[:1] in ("{", "[") or (text[:1] == "<" and t.kind in ("vector", "struct", "named")):
        packed = text.startswith("<{")
        c = _Cursor(text[1:-1].strip() if not packed else text[2:-2].strip())
        parts: list[str] = []
        while not c.done():
            et = c.type()
            parts.append(f"{et} {map_constant(et, c.value_ref(), leaf, (*path, len(parts)))}")
            if not c.done():
                c.expect(",")
        inner = ", ".join(parts)
        if packed:
            return f"<{{ {inner} }}>"
        opening, closing = text[0], text[-1]
        return f"{opening}{inner}{closing}" if opening != "{" else f"{{ {inner} }}"
    return leaf(t, text, path)


def parse_type(text: str) -> Type:
    """A type spelled in LLVM syntax, e.g. '{ double, i32 }' or '%struct.d3'."""
    return _Cursor(text).type()
