"""Unit tests of lto.exports: version scripts, dynamic lists and the names kept external."""

from __future__ import annotations

from pathlib import Path

import pytest
from toolchain import CC, NM, compile_c, have, sh

from fatlib.elf import Symbol
from lto.diag import LinkError
from lto.exports import external_names, parse_dynamic_list, parse_version_script
from lto.options import parse

LLD = "ld.lld-22"


def script(tmp_path: Path, text: str, name: str = "v.map") -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def defs(*names: str, hidden: tuple[str, ...] = ()) -> dict[str, Symbol]:
    out = {n: Symbol(n, True) for n in names}
    out.update({n: Symbol(n, True, hidden=True) for n in hidden})
    return out


# --- version scripts ---------------------------------------------------------------------------


def test_anonymous_version(tmp_path):
    vs = parse_version_script(script(tmp_path, "{ global: foo; bar; local: *; };\n"))
    assert vs.globals == ["foo", "bar"] and vs.locals == ["*"] and not vs.opaque
    assert vs.exports("foo") and vs.exports("bar")
    assert not vs.exports("baz")


def test_named_versions_with_comments_and_wildcards(tmp_path):
    text = """\
/* C comment */ # hash comment
VERS_1.0 {
  global:
    api_*;      // wildcard
    exact_one;
    get?;
    set[AB];
  local:
    *;
};
VERS_2.0 {
  global: newer;
} VERS_1.0;
"""
    vs = parse_version_script(script(tmp_path, text))
    assert vs.globals == ["api_*", "exact_one", "get?", "set[AB]", "newer"]
    assert vs.locals == ["*"]
    for name in ["api_x", "api_", "exact_one", "getA", "setA", "setB", "newer"]:
        assert vs.exports(name), name
    for name in ["exact_two", "getAB", "setC", "VERS_1.0", "VERS_2.0", "comment", "wildcard", "internal"]:
        assert not vs.exports(name), name


def test_global_only_exports_everything(tmp_path):
    vs = parse_version_script(script(tmp_path, "{ global: foo; };\n"))
    assert vs.exports("foo") and vs.exports("anything_else")


def test_local_names(tmp_path):
    vs = parse_version_script(script(tmp_path, "{ local: hide_me; priv_*; };\n"))
    assert not vs.exports("hide_me") and not vs.exports("priv_x")
    assert vs.exports("public")


def test_exact_names_are_not_patterns(tmp_path):
    vs = parse_version_script(script(tmp_path, "{ global: a.b; local: *; };\n"))
    assert vs.exports("a.b") and not vs.exports("a_b")


@pytest.mark.parametrize("lang", ["C++", "Rust"])
def test_extern_language_block_is_opaque(tmp_path, lang):
    text = f'V1 {{ global: extern "{lang}" {{ "ns::f(int)"; ns::g*; }}; c_name; local: *; }};\n'
    vs = parse_version_script(script(tmp_path, text))
    assert vs.opaque
    assert "ns::f(int)" not in vs.globals               # demangled names are not symbol names
    assert vs.exports("_ZN2ns1fEi") and vs.exports("anything")


def test_missing_version_script(tmp_path):
    with pytest.raises(LinkError, match="nope.map"):
        parse_version_script(str(tmp_path / "nope.map"))


def test_dynamic_list(tmp_path):
    assert parse_dynamic_list(script(tmp_path, "{ foo; bar_*; };\n", "d.list")) == ["foo", "bar_*"]


# --- external_names ----------------------------------------------------------------------------


BITCODE = defs("main", "api_fn", "helper", "_start_helper", hidden=("hidden_fn",))


def test_executable_keeps_only_what_is_visible_outside():
    opts = parse(["x.o"])
    keep = external_names(opts, visible_outside={"main", "printf"}, bitcode_defs=BITCODE)
    assert keep == {"main"}                  # printf is not ours; helper and api_fn may go


def test_executable_entry_and_undefined():
    opts = parse(["-e", "api_fn", "-u", "helper", "-u", "not_ours", "x.o"])
    assert external_names(opts, set(), BITCODE) == {"api_fn", "helper"}
    with_start = defs("_start", "other")
    assert external_names(parse(["x.o"]), set(), with_start) == {"_start"}


def test_executable_export_dynamic_keeps_non_hidden():
    opts = parse(["--export-dynamic", "x.o"])
    keep = external_names(opts, set(), BITCODE)
    assert keep == {"main", "api_fn", "helper", "_start_helper"}
    assert "hidden_fn" not in keep


def test_shared_keeps_non_hidden():
    keep = external_names(parse(["-shared", "x.o"]), set(), BITCODE)
    assert keep == {"main", "api_fn", "helper", "_start_helper"}


def test_hidden_kept_when_visible_outside():
    """A hidden definition that a native object of the link references must stay external."""
    keep = external_names(parse(["-shared", "x.o"]), {"hidden_fn"}, BITCODE)
    assert "hidden_fn" in keep


def test_shared_with_version_script(tmp_path):
    vs = script(tmp_path, "V1 { global: api_*; local: *; };\n")
    keep = external_names(parse(["-shared", "--version-script", vs, "x.o"]), {"main"}, BITCODE)
    assert keep == {"api_fn", "main"}        # main: visible outside beats the script


def test_executable_ignores_version_script_without_export_dynamic(tmp_path):
    vs = script(tmp_path, "V1 { global: api_fn; local: *; };\n")
    assert external_names(parse(["--version-script", vs, "x.o"]), set(), BITCODE) == set()


def test_export_dynamic_symbol_and_dynamic_list(tmp_path):
    dl = script(tmp_path, "{ helper; };\n", "d.list")
    opts = parse(["--export-dynamic-symbol=api_*", "--dynamic-list", dl, "x.o"])
    assert external_names(opts, set(), BITCODE) == {"api_fn", "helper"}


def test_shared_with_opaque_version_script(tmp_path):
    vs = script(tmp_path, 'V1 { global: extern "C++" { "ns::*"; }; local: *; };\n')
    keep = external_names(parse(["-shared", "--version-script", vs, "x.o"]), set(), BITCODE)
    assert keep == {"main", "api_fn", "helper", "_start_helper"}


# --- two version scripts: compared with ld.lld-22 ----------------------------------------------

VS_C = "int foo(void) { return 1; }\nint bar(void) { return 2; }\nint baz(void) { return 3; }\n"
V1 = "V1 { global: foo; local: *; };\n"
V2 = "V2 { global: bar; local: *; };\n"


@pytest.mark.skipif(not (have(CC) and have(LLD) and have(NM)), reason="clang-22 / ld.lld-22 missing")
def test_lld_merges_two_version_scripts(tmp_path):
    """Reference for the test below: lld treats several --version-script files as one script, so
    an exact global name in one beats the `local: *` of the other."""
    src = tmp_path / "vs.c"
    src.write_text(VS_C)
    obj = compile_c(src, tmp_path / "vs.o", "-fPIC")
    so = tmp_path / "libvs.so"
    sh([LLD, "-shared", obj, "--version-script", script(tmp_path, V1, "v1.map"),
        "--version-script", script(tmp_path, V2, "v2.map"), "-o", so]).check("ld.lld-22 -shared")
    out = sh([NM, "-D", "--defined-only", "--format=just-symbols", so]).check("nm -D").stdout
    assert {s.split("@")[0] for s in out.split()} == {"foo", "bar"}


def test_two_version_scripts_keep_both_globals(tmp_path):
    opts = parse(["-shared", "--version-script", script(tmp_path, V1, "v1.map"),
                  "--version-script", script(tmp_path, V2, "v2.map"), "x.o"])
    assert external_names(opts, set(), defs("foo", "bar", "baz")) >= {"foo", "bar"}
