"""`gradlink fat build`, `strip-bitcode` and `inspect`: the library author's side of fat libraries.

build: every object becomes a fat object, native code plus its bitcode in ``.llvm.lto`` (a
bitcode-only object gets native code from ``llc-22``; a fat object is kept as it is), and the
objects whose functions have registrations get a ``.gradlink.manifest`` section
(fatlib/manifest.py) listing them: the Enzyme registrations found in the bitcode
(``__enzyme_register_gradient_*`` ..., moved into the manifest so consumers that link the
native code still find them) and the entries of a ``--derivatives`` file (JSON or TOML) for code
that cannot carry them (Fortran, vendor kernels). The result is an ar archive every linker
links as an ordinary static library.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import llvmlite.binding as llvm

from fatlib import FormatError
from fatlib.archive import read_archive, write_archive
from fatlib.bitcode import read_producer
from fatlib.elf import ET_REL, read_elf
from fatlib.manifest import SECTION, decode, encode, validate_entry
from fatlib.probe import Kind, classify, unwrap_bitcode
from gradlink.ad.custom import function_type_fields, read_registry
from gradlink.precompile import LOCAL_LINKAGES, PrecompileError, compile_derivatives, parse_specs
from lto.inputs import Unit
from lto.tools import find_tool


class BuildError(Exception):
    """What is wrong with the inputs of `gradlink fat build`; the message names the file."""


@dataclass
class Member:
    name: str                # archive member name
    native: bytes            # the ELF object (fat once built)
    bitcode: bytes | None
    defined: set[str]
    module: llvm.ModuleRef | None = None         # the bitcode, parsed once when needed

    def parsed(self) -> llvm.ModuleRef:
        if self.module is None:
            assert self.bitcode is not None
            try:
                self.module = llvm.parse_bitcode(self.bitcode)
            except RuntimeError as e:
                raise BuildError(f"{self.name}: invalid bitcode: {' '.join(str(e).split())}") from None
        return self.module


DERIVATIVES_MEMBER = "gradlink-derivatives.o"


def build(output: str, objects: list[str], derivatives: str | None,
          exports: list[str] | None = None, shared: bool = False,
          libs: list[str] | None = None, bitcode_of: dict[str, str] | None = None) -> list[str]:
    """Write the fat archive (or, ``shared``, a shared object linked from the same objects);
    returns one line per member for the user. ``bitcode_of`` maps a native object without
    bitcode to the -flto object of the same source (compilers without fat LTO: flang, rustc)."""
    pairs = {os.path.realpath(k): v for k, v in (bitcode_of or {}).items()}
    unused = set(pairs) - {os.path.realpath(p) for p in objects}
    if unused:
        raise BuildError(f"--bitcode names {', '.join(sorted(unused))}, which is not among the "
                         "objects")
    members = [_member(path, pairs.get(os.path.realpath(path))) for path in objects]
    if shared:
        for m in members:
            if m.bitcode is not None and not _position_independent(m):
                raise BuildError(f"{m.name}: compiled without -fPIC; a shared object needs "
                                 "position-independent code (clang-22 -O2 -flto -fPIC -c ...)")
    entries = _registration_entries(members)
    registered = list(entries)               # already in the bitcode, as registrations
    if derivatives:
        entries += _file_entries(derivatives, members)
    if exports:
        from_file = [e for e in entries if e not in registered]
        entries += _precompile(output, members, entries, exports, from_file, derivatives or "")
    by_member: dict[str, list[dict[str, Any]]] = {}
    for e in entries:
        owner = next((m for m in members if (e.get("function") or e.get("global")) in m.defined),
                     None)
        if owner is None:
            raise BuildError(f"the manifest entry for '{e.get('function') or e.get('global')}' "
                             "names a symbol no object of the library defines")
        for sym in _symbols(e):
            if not any(sym in m.defined for m in members):
                local = next((m.name for m in members if _defines_locally(m, sym)), None)
                if local is not None:
                    raise BuildError(f"the {e['kind']} entry of {e.get('function')} names "
                                     f"'{sym}', which is static (file-local) in {local}; the "
                                     "library must export it (remove 'static') for consumers "
                                     "to call it")
                raise BuildError(f"the {e['kind']} entry of {e.get('function')} names '{sym}', "
                                 "which no object of the library defines")
        by_member.setdefault(owner.name, []).append(e)
    report = []
    for m in members:
        mine = by_member.get(m.name, [])
        if mine:
            m.native = _add_section(m.native, SECTION, encode(mine), m.name)
        what = "native + bitcode" if m.bitcode is not None else \
            "precompiled derivatives (native)"
        report.append(f"{m.name}: {what}" + (f", manifest ({len(mine)} entries)" if mine else ""))
    if shared:
        _link_shared(output, members, libs or [])
        report.append(f"{os.path.basename(output)}: shared object; its manifest lists "
                      "precompiled derivatives and registrations, the bitcode stays out")
        return report
    write_archive(output, [(m.name, m.native) for m in members],
                  [sorted(m.defined) for m in members])
    return report


def _defines_locally(m: Member, name: str) -> bool:
    if m.bitcode is None:
        return False
    try:
        fn = m.parsed().get_function(name)
    except NameError:
        return False
    return not fn.is_declaration and fn.linkage in LOCAL_LINKAGES


def _position_independent(m: Member) -> bool:
    """The module flags clang writes with -fPIC: a PIC level and no PIE level."""
    text = str(m.parsed())
    return '!"PIC Level"' in text and '!"PIE Level"' not in text


def _link_shared(output: str, members: list[Member], libs: list[str]) -> None:
    """A fat shared object: the members' native code linked by clang-22 with lld. The linker
    concatenates their manifest sections (not loaded at run time) and drops the bitcode
    (SHF_EXCLUDE): a consumer's link, or a Python process, uses its precompiled derivatives."""
    clang = find_tool("clang")
    if clang is None:
        raise BuildError("clang-22 is needed to link a shared object (Debian: clang-22)")
    with tempfile.TemporaryDirectory(prefix="gradlink-fat-") as d:
        paths = []
        for i, m in enumerate(members):
            paths.append(os.path.join(d, f"{i}-{m.name}"))
            Path(paths[-1]).write_bytes(m.native)
        p = subprocess.run([clang, "-shared", "-fuse-ld=lld", *paths, "-lm",
                            *(f"-l{lib}" for lib in libs), "-o", output],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise BuildError(f"linking {output} failed:\n{p.stderr.strip()[:1200]}")


def _precompile(output: str, members: list[Member], entries: list[dict[str, Any]],
                specs: list[str], from_file: list[dict[str, Any]], file: str
                ) -> list[dict[str, Any]]:
    """--export-derivatives: the derivatives compiled now, as one more member (native code
    only), and their manifest entries (gradlink/precompile.py)."""
    try:
        wanted = parse_specs(specs)
        for e in wanted:
            for have in entries:
                if have.get("function") == e.function and \
                        _REGISTERED.get(have["kind"], set()) & set(e.modes):
                    raise PrecompileError(f"--export-derivatives {e.function}: the library "
                                          f"registers its {have['kind']} already; that "
                                          "registration is what consumers use")
        units = [Unit(f"{os.path.basename(output)}({m.name})", m.bitcode, True)
                 for m in members if m.bitcode is not None]
        obj, new = compile_derivatives(units, wanted, from_file, file)
    except PrecompileError as err:
        raise BuildError(str(err)) from None
    if any(m.name == DERIVATIVES_MEMBER for m in members):
        raise BuildError(f"an input is named {DERIVATIVES_MEMBER}, the member gradlink writes "
                         "the precompiled derivatives to; rename it")
    elf = read_elf(obj)
    members.append(Member(DERIVATIVES_MEMBER, obj, None,
                          {s.name for s in elf.symbols if s.defined}))
    return new


# a registration already in the library covers these modes of its function
_REGISTERED = {"gradient": {"reverse"}, "derivative": {"forward"},
               "function_like": {"reverse", "forward"}, "inactive": {"reverse", "forward"}}


def strip_bitcode(source: str, output: str) -> list[str]:
    """The closed-source variant of a fat archive: every member's bitcode section removed;
    native code, manifests and precompiled derivatives kept."""
    try:
        data = Path(source).read_bytes()
    except OSError as e:
        raise BuildError(f"{source}: {e.strerror}") from None
    if classify(data[:8]) is not Kind.ARCHIVE:
        raise BuildError(f"{source}: not an ar archive (gradlink fat build writes one)")
    try:
        members = read_archive(source, data).members
    except FormatError as e:
        raise BuildError(f"{source}: {e}") from None
    out, report = [], []
    for m in members:
        if classify(m.data[:8]) is not Kind.ELF:
            raise BuildError(f"{source}({m.name}): not a native object; it cannot lose its "
                             "bitcode (rebuild the library with gradlink fat build)")
        elf = read_elf(m.data)
        native = m.data
        if elf.bitcode_section is not None:
            native = _objcopy(m.data, ["--remove-section", elf.bitcode_section], m.name)
            report.append(f"{m.name}: {elf.bitcode_section} removed")
        else:
            report.append(f"{m.name}: no bitcode")
        out.append((m.name, native, {s.name for s in read_elf(native).symbols if s.defined}))
    write_archive(output, [(n, d) for n, d, _ in out], [sorted(d) for _, _, d in out])
    return report


def inspect(path: str) -> list[str]:
    """Per member: bitcode or not, and the manifest entries."""
    data = Path(path).read_bytes()
    items: list[tuple[str, bytes]]
    if classify(data[:8]) in (Kind.ARCHIVE, Kind.THIN_ARCHIVE):
        items = [(m.name, m.data) for m in read_archive(path, data).members]
    else:
        items = [(os.path.basename(path), data)]
    out = []
    for name, blob in items:
        kind = classify(blob[:8])
        if kind is Kind.BITCODE:
            out.append(f"{name}: bitcode only ({_producer(unwrap_bitcode(blob))})")
            continue
        if kind is not Kind.ELF:
            out.append(f"{name}: {kind.value}")
            continue
        elf = read_elf(blob)
        what = "shared object" if elf.kind != ET_REL else "native"
        bc = f" + bitcode ({elf.bitcode_section}, {len(elf.bitcode or b'')} bytes, " \
            f"{_producer(elf.bitcode or b'')})" if elf.bitcode_section else ", no bitcode"
        out.append(f"{name}: {what}{bc}")
        if elf.manifest is not None:
            manifest = decode(elf.manifest, name)
            for e in manifest.entries:
                fields = ", ".join(f"{k}={v}" for k, v in sorted(e.items())
                                   if k not in ("kind", "signatures"))
                out.append(f"  manifest: {e['kind']}: {fields}")
    return out


def _producer(bitcode: bytes) -> str:
    """'LLVM 22.1.0' from the bitcode's producer string, when it names one."""
    p = read_producer(bitcode)
    if p is None:
        return "producer unknown"
    m = re.match(r"(?:LLVM)?(\d[\w.]*)", p)
    return f"LLVM {m.group(1)}" if m else p


def _member(path: str, bitcode_path: str | None = None) -> Member:
    data = _read(path)
    name = os.path.basename(path)
    kind = classify(data[:8])
    if kind is Kind.BITCODE:
        bitcode = unwrap_bitcode(data)
        native = _compile(bitcode, path)
        native = _add_section(native, ".llvm.lto", bitcode, name)
    elif kind is Kind.ELF:
        elf = read_elf(data)
        if elf.kind != ET_REL:
            raise BuildError(f"{path}: not a relocatable object")
        if bitcode_path is not None:
            if elf.bitcode is not None:
                raise BuildError(f"{path}: has bitcode already; --bitcode is for native "
                                 "objects without it")
            data = _with_bitcode(data, path, bitcode_path)
            elf = read_elf(data)
        if elf.bitcode is None:
            raise BuildError(f"{path}: a native object without bitcode; compile it with "
                             "-flto -ffat-lto-objects, give its -flto bitcode object instead, "
                             f"or name that object with --bitcode {name}=OBJECT.bc")
        native, bitcode = data, elf.bitcode
    else:
        raise BuildError(f"{path}: not an object file ({kind.value})")
    elf = read_elf(native)
    return Member(name, native, bitcode, {s.name for s in elf.symbols if s.defined})


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise BuildError(f"{path}: {e.strerror}") from None


def _with_bitcode(native: bytes, path: str, bitcode_path: str) -> bytes:
    """The native object with the bitcode of the same source in .llvm.lto; the bitcode must
    define every function and variable the native code does."""
    raw = _read(bitcode_path)
    if classify(raw[:8]) is not Kind.BITCODE:
        raise BuildError(f"{bitcode_path}: not LLVM bitcode (compile with -flto -c)")
    bitcode = unwrap_bitcode(raw)
    try:
        module = llvm.parse_bitcode(bitcode)
    except RuntimeError as e:
        raise BuildError(f"{bitcode_path}: invalid bitcode: {' '.join(str(e).split())}") from None
    in_bitcode = {g.name for g in [*module.functions, *module.global_variables]
                  if not g.is_declaration}
    missing = sorted(s.name for s in read_elf(native).symbols
                     if s.defined and s.name not in in_bitcode)
    if missing:
        raise BuildError(f"{bitcode_path} does not define {', '.join(missing[:5])}, which "
                         f"{path} defines: not the same source?")
    return _add_section(native, ".llvm.lto", bitcode, os.path.basename(path))


def _compile(bitcode: bytes, path: str) -> bytes:
    llc = find_tool("llc")
    if llc is None:
        raise BuildError("llc-22 is needed to compile bitcode to native code (Debian: llvm-22)")
    with tempfile.TemporaryDirectory(prefix="gradlink-fat-") as tmp:
        src, out = os.path.join(tmp, "in.bc"), os.path.join(tmp, "out.o")
        Path(src).write_bytes(bitcode)
        p = subprocess.run([llc, "-O2", "-filetype=obj", "-relocation-model=pic",
                            "-function-sections", "-data-sections", src, "-o", out],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise BuildError(f"{path}: llc-22 failed: {p.stderr.strip()[:400]}")
        return Path(out).read_bytes()


def _add_section(obj: bytes, section: str, body: bytes, name: str) -> bytes:
    with tempfile.TemporaryDirectory(prefix="gradlink-fat-") as d:
        data = os.path.join(d, "section.bin")
        Path(data).write_bytes(body)
        flags = "exclude" if section == ".llvm.lto" else "readonly"
        return _objcopy(obj, ["--add-section", f"{section}={data}",
                              "--set-section-flags", f"{section}={flags}"], name)


def _objcopy(obj: bytes, args: list[str], name: str) -> bytes:
    objcopy = find_tool("objcopy")
    if objcopy is None:
        raise BuildError("llvm-objcopy-22 is needed (Debian: llvm-22)")
    with tempfile.TemporaryDirectory(prefix="gradlink-fat-") as d:
        src, out = os.path.join(d, "in.o"), os.path.join(d, "out.o")
        Path(src).write_bytes(obj)
        p = subprocess.run([objcopy, *args, src, out], capture_output=True, text=True)
        if p.returncode != 0:
            raise BuildError(f"{name}: llvm-objcopy-22 failed: {p.stderr.strip()[:400]}")
        return Path(out).read_bytes()


def _registration_entries(members: list[Member]) -> list[dict[str, Any]]:
    """The Enzyme registrations in the objects' bitcode, as manifest entries with the LLVM
    signatures of the functions they name."""
    out: list[dict[str, Any]] = []
    for m in members:
        if m.bitcode is None or b"__enzyme_" not in m.bitcode:
            continue
        module = m.parsed()
        types = {f.name: str(f.global_value_type) for f in module.functions}
        text = str(module)
        try:
            reg = read_registry(text)
        except Exception as e:                          # ADError: a malformed registration
            raise BuildError(f"{m.name}: {e}") from None

        def sig(*names: str, types: dict[str, str] = types) -> dict[str, Any]:
            return {n: function_type_fields(types[n]) for n in names if n in types}

        for fn, (aug, rev) in reg.gradients.items():
            f, a, r = (_bare(x) for x in (fn, aug, rev))
            out.append({"kind": "gradient", "function": f, "augmented": a, "reverse": r,
                        "signatures": sig(f, a, r)})
        for fn, tangent in reg.tangents.items():
            f, t = _bare(fn), _bare(tangent)
            out.append({"kind": "derivative", "function": f, "tangent": t,
                        "signatures": sig(f, t)})
        for fn, like in reg.function_like.items():
            out.append({"kind": "function_like", "function": _bare(fn), "like": like})
        out += [{"kind": "function_like", "function": _bare(fn), "like": "free"}
                for fn in sorted(reg.frees)]
        for fn, alloc in reg.allocators.items():
            f, d = _bare(fn), _bare(alloc.free)
            out.append({"kind": "allocation_like", "function": f, "size_argument": alloc.size[0],
                        "deallocator": d, "deallocator_arguments": list(alloc.free_args),
                        "signatures": sig(f, d)})
        out += [{"kind": "inactive", "function": _bare(fn)} for fn in sorted(reg.inactive_functions)]
        out += [{"kind": "inactive_global", "global": _bare(g)} for g in sorted(reg.inactive_globals)]
    return out


def _file_entries(path: str, members: list[Member]) -> list[dict[str, Any]]:
    """Entries of a --derivatives file: JSON {"entries": [...]} or TOML [[entries]] tables;
    signatures missing from an entry are taken from the library's bitcode."""
    try:
        raw = Path(path).read_bytes()
        doc = tomllib.loads(raw.decode()) if path.endswith(".toml") else json.loads(raw)
    except (OSError, ValueError) as e:
        raise BuildError(f"{path}: {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("entries"), list):
        raise BuildError(f"{path}: expected a list 'entries' of derivative entries")
    types: dict[str, str] = {}
    for m in members:
        if m.bitcode is not None:
            mod = m.parsed()
            types.update({f.name: str(f.global_value_type) for f in mod.functions})
    out = []
    for entry in doc["entries"]:
        try:
            validate_entry(entry, path)
        except FormatError as err:
            raise BuildError(str(err)) from None
        if entry["kind"] in ("gradient", "derivative", "allocation_like"):
            sigs = dict(entry.get("signatures", {}))
            for sym in [entry["function"], *_symbols(entry)]:
                if sym not in sigs and sym in types:
                    sigs[sym] = function_type_fields(types[sym])
            entry = {**entry, "signatures": sigs}
        out.append(entry)
    return out


def _symbols(e: dict[str, Any]) -> list[str]:
    return [e[k] for k in ("augmented", "reverse", "tangent", "deallocator", "symbol") if k in e]


def _bare(name: str) -> str:
    return name.lstrip("@").strip('"')
