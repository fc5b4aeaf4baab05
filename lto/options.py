"""GNU ld command-line parsing, as clang-22, flang-22 and rustc 1.95 drive a non-lld linker.

The parser keeps every token in order, tagged, so the native link can replay the command line
with bitcode inputs swapped for the LTO object. It interprets what LTO needs to know (inputs and
their archive flags, output kind, exports, optimisation level) and passes everything else on
unchanged. Options of ld that take a separate argument are listed so that argument is never
mistaken for an input file.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path

from lto.diag import LinkError, warn

# Options (without leading dashes) that take a value, given as "--opt=V", "--opt V" or "-opt V".
# Those we interpret are handled in _apply; the rest are forwarded with their argument.
_VALUE_OPTIONS = {
    "o", "output", "L", "library-path", "l", "library", "rpath", "R", "rpath-link", "soname", "h",
    "version-script", "u", "undefined", "e", "entry", "plugin", "plugin-opt", "mllvm", "m", "z",
    "dynamic-linker", "I", "T", "script", "Map", "y", "trace-symbol", "A", "architecture", "b",
    "format", "c", "mri-script", "f", "auxiliary", "F", "filter", "G", "Y", "init", "fini",
    "defsym", "wrap", "exclude-libs", "dynamic-list", "retain-symbols-file", "dependency-file",
    "sysroot", "hash-style", "gradlink-save-temps", "gradlink-backend", "image-base", "section-start",
    "Ttext", "Tdata", "Tbss", "undefined-glob", "export-dynamic-symbol", "package-metadata",
    "lto-O", "error-limit", "threads", "compress-debug-sections", "emit-relocs-section",
}
# Single-letter options whose value may be glued on: -lfoo, -L/dir, -ofile, -u sym, -e sym ...
_GLUED = ("l", "L", "o", "u", "e", "h", "R", "m", "z", "T", "y", "I", "F", "f", "G", "Y", "A", "b",
          "c")
# Long flags without a value that start like a glued short option (-eh-frame-hdr is not -e h...).
_LONG_FLAGS = {
    "eh-frame-hdr", "no-eh-frame-hdr", "enable-new-dtags", "disable-new-dtags", "fatal-warnings",
    "no-fatal-warnings", "allow-shlib-undefined", "no-allow-shlib-undefined", "build-id",
    "color-diagnostics", "gc-sections", "no-gc-sections", "help", "version", "verbose", "omagic",
    "nmagic", "unique", "emit-relocs", "error-unresolved-symbols", "relax", "no-relax",
    "strip-all", "strip-debug", "trace", "warn-common", "fini-array", "print-gc-sections",
    "no-undefined", "allow-multiple-definition", "ignore-unresolved-symbol", "Bsymbolic",
    "Bsymbolic-functions", "discard-all", "discard-locals", "demangle", "no-demangle",
    "export-dynamic", "lto-O0", "lto-O1", "lto-O2", "lto-O3", "as-needed", "no-as-needed",
    "end-group", "enable-non-contiguous-regions", "undefined-version", "no-undefined-version",
    "relocatable", "no-dynamic-linker", "gdb-index", "no-gnu-unique", "hash-size",
}
# Long options that GNU ld also accepts with a single dash.
_FLAG_ALIASES = {
    "Bstatic": "static-libs", "dn": "static-libs", "non_shared": "static-libs",
    "static": "static", "Bdynamic": "dynamic-libs", "dy": "dynamic-libs",
    "call_shared": "dynamic-libs", "(": "start-group", "start-group": "start-group",
    ")": "end-group", "end-group": "end-group", "whole-archive": "whole-archive",
    "no-whole-archive": "no-whole-archive", "as-needed": "as-needed",
    "no-as-needed": "no-as-needed", "export-dynamic": "export-dynamic", "E": "export-dynamic",
    "no-export-dynamic": "no-export-dynamic", "shared": "shared", "Bshareable": "shared",
    "pie": "pie", "pic-executable": "pie", "no-pie": "no-pie", "no-pic-executable": "no-pie",
    "push-state": "push-state", "pop-state": "pop-state", "gradlink-verbose": "gradlink-verbose",
    "gradlink-ad-first": "gradlink-ad-first", "fat-lto-objects": "fat-lto-objects",
    "no-fat-lto-objects": "no-fat-lto-objects", "r": "relocatable", "relocatable": "relocatable",
    "Ur": "relocatable",
}


@dataclass
class InputSpec:
    """A file or -l library named on the command line, with the flags in force where it stood."""

    name: str
    is_lib: bool
    static: bool
    whole_archive: bool
    as_needed: bool
    group: int | None
    item: int               # index of its tokens in LinkOptions.items


@dataclass
class Item:
    """Tokens of one command-line element, in order. ``input`` indexes LinkOptions.inputs."""

    tokens: list[str]
    input: int | None = None
    ours: bool = False      # interpreted by ld.gradlink only: not forwarded to the native linker


@dataclass
class LinkOptions:
    output: str = "a.out"
    shared: bool = False
    pie: bool = False
    static: bool = False
    relocatable: bool = False
    lib_paths: list[str] = field(default_factory=list)
    inputs: list[InputSpec] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    undefined: list[str] = field(default_factory=list)
    entry: str | None = None
    export_dynamic: bool = False
    export_symbols: list[str] = field(default_factory=list)
    version_scripts: list[str] = field(default_factory=list)
    dynamic_lists: list[str] = field(default_factory=list)
    opt_level: int = 2
    mcpu: str | None = None
    verbose: bool = False
    save_temps: str | None = None
    ad_first: bool = False
    fat_lto_objects: bool = False  # every fat object's bitcode enters the LTO unit
    backend: str | None = None     # "tools" (opt-22/llc-22) or "llvmlite"; None: tools if found


def expand_response_files(argv: list[str], depth: int = 0) -> list[str]:
    """Replace @FILE arguments by the (shell-quoted) arguments the file holds, as ld does."""
    out: list[str] = []
    for arg in argv:
        if arg.startswith("@") and len(arg) > 1 and depth < 20:
            path = Path(arg[1:])
            try:
                text = path.read_text()
            except OSError:
                out.append(arg)      # ld treats an unreadable @file as a file name
                continue
            out.extend(expand_response_files(shlex.split(text), depth + 1))
        else:
            out.append(arg)
    return out


def _split(arg: str) -> tuple[str, str | None]:
    """'--foo=bar' -> ('foo', 'bar'); '-foo' -> ('foo', None)."""
    key = arg[2:] if arg.startswith("--") else arg[1:]
    if "=" in key:
        k, v = key.split("=", 1)
        return k, v
    return key, None


def _known(key: str) -> bool:
    return key in _VALUE_OPTIONS or key in _FLAG_ALIASES or key in _LONG_FLAGS


def parse(argv: list[str]) -> LinkOptions:
    """Parse a GNU ld command line (without argv[0])."""
    opts = LinkOptions()
    args = expand_response_files(argv)
    state = {"static": False, "whole": False, "as_needed": False}
    stack: list[dict[str, bool]] = []
    group: int | None = None
    groups = 0
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-") or arg == "-":
            _add_input(opts, [arg], arg, False, state, group)
            continue
        key, value = _split(arg)
        tokens = [arg]
        if not arg.startswith("--") and not _known(key):
            for short in _GLUED:                       # -lfoo, -L/dir, -ofile, -zrelro, -L/a=b
                if arg[1:].startswith(short) and len(arg) > 1 + len(short):
                    key, value = short, arg[1 + len(short):]
                    break
        if key in _VALUE_OPTIONS and value is None:
            if i >= len(args):
                raise LinkError(f"{arg}: missing argument")
            value = args[i]
            tokens.append(value)
            i += 1
        flag = _FLAG_ALIASES.get(key)
        if key in ("l", "library"):
            assert value is not None
            _add_input(opts, tokens, value, True, state, group)
        elif flag == "start-group":
            if group is not None:
                raise LinkError("nested --start-group")
            groups += 1
            group = groups
            opts.items.append(Item(tokens))
        elif flag == "end-group":
            if group is None:
                raise LinkError("--end-group without --start-group")
            group = None
            opts.items.append(Item(tokens))
        else:
            ours = _apply(opts, key, flag, value, state, stack)
            opts.items.append(Item(tokens, ours=ours))
    if group is not None:
        raise LinkError("--start-group without --end-group")
    return opts


def _add_input(opts: LinkOptions, tokens: list[str], name: str, is_lib: bool,
               state: dict[str, bool], group: int | None) -> None:
    opts.items.append(Item(tokens, input=len(opts.inputs)))
    opts.inputs.append(InputSpec(name, is_lib, state["static"], state["whole"],
                                 state["as_needed"], group, len(opts.items) - 1))


# Flags whose state applies to the inputs that follow them: (state field, value).
_POSITIONAL_FLAGS = {
    "static-libs": ("static", True), "static": ("static", True), "dynamic-libs": ("static", False),
    "whole-archive": ("whole", True), "no-whole-archive": ("whole", False),
    "as-needed": ("as_needed", True), "no-as-needed": ("as_needed", False),
}
# Flags that set a property of the output: (LinkOptions field, value).
_OUTPUT_FLAGS = {
    "export-dynamic": ("export_dynamic", True), "no-export-dynamic": ("export_dynamic", False),
    "shared": ("shared", True), "pie": ("pie", True), "no-pie": ("pie", False),
    "relocatable": ("relocatable", True),
}


def _apply(opts: LinkOptions, key: str, flag: str | None, value: str | None,
           state: dict[str, bool], stack: list[dict[str, bool]]) -> bool:
    """Record what LTO needs from one option. Returns True when the option is ours only."""
    if flag in _POSITIONAL_FLAGS:
        field_name, on = _POSITIONAL_FLAGS[flag]
        state[field_name] = on
        if flag == "static":
            opts.static = True
    elif flag in _OUTPUT_FLAGS:
        field_name, on = _OUTPUT_FLAGS[flag]
        setattr(opts, field_name, on)
    elif flag == "push-state":
        stack.append(dict(state))
    elif flag == "pop-state":
        if not stack:
            raise LinkError("--pop-state without --push-state")
        state.update(stack.pop())
    elif flag == "gradlink-verbose":
        opts.verbose = True
        return True
    elif flag == "gradlink-ad-first":
        opts.ad_first = True
        return True
    elif flag == "fat-lto-objects":
        opts.fat_lto_objects = True      # ours: lld must not compile the fat bitcode again
        return True
    elif flag == "no-fat-lto-objects":
        opts.fat_lto_objects = False
        return True
    elif key in ("o", "output"):
        opts.output = value or ""
    elif key in ("L", "library-path"):
        opts.lib_paths.append(value or "")
    elif key in ("u", "undefined"):
        opts.undefined.append(value or "")
    elif key in ("e", "entry"):
        opts.entry = value
    elif key == "export-dynamic-symbol":
        opts.export_symbols.append(value or "")
    elif key == "version-script":
        opts.version_scripts.append(value or "")
    elif key == "dynamic-list":
        opts.dynamic_lists.append(value or "")
    elif key == "gradlink-save-temps":
        opts.save_temps = value
        return True
    elif key == "gradlink-backend":
        if value not in ("tools", "llvmlite"):
            raise LinkError(f"--gradlink-backend={value}: expected 'tools' or 'llvmlite'")
        opts.backend = value
        return True
    elif key in ("plugin", "plugin-opt"):
        if key == "plugin-opt" and value:
            _plugin_opt(opts, value)
        return True
    elif key == "lto-O" or key.startswith("lto-O"):
        level = value if value is not None else key[len("lto-O"):]
        if level.isdigit():
            opts.opt_level = int(level)
    elif key == "mllvm":
        warn(f"ignoring -mllvm {value}: options for LLVM's own LTO do not apply to ld.gradlink")
        return True
    return False


def _plugin_opt(opts: LinkOptions, value: str) -> None:
    """Honour the O level and mcpu of gold-plugin options; the rest concern LLVMgold itself."""
    if len(value) == 2 and value[0] == "O" and value[1] in "0123":
        opts.opt_level = int(value[1])
    elif value.startswith("mcpu="):
        opts.mcpu = value[len("mcpu="):]
