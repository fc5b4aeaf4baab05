"""Unit tests of ld.gradlink's command line (lto.options), linker scripts (lto.linkerscript) and
the -l search (lto.inputs.find_library)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lto.diag import LinkError
from lto.inputs import find_library
from lto.linkerscript import ScriptInput, parse_inputs
from lto.options import parse

LIBC_SCRIPT = Path("/usr/lib/x86_64-linux-gnu/libc.so")
LIBM_SCRIPT = Path("/usr/lib/x86_64-linux-gnu/libm.so")


def names(opts) -> list[str]:
    return [i.name for i in opts.inputs]


def forwarded(opts) -> list[str]:
    """The tokens that would reach the native linker (inputs included)."""
    return [t for it in opts.items if not it.ours for t in it.tokens]


# --- basic forms -------------------------------------------------------------------------------


def test_defaults():
    o = parse([])
    assert o.output == "a.out" and o.inputs == [] and o.items == []
    assert (o.shared, o.pie, o.static, o.relocatable, o.export_dynamic) == (False,) * 5
    assert o.opt_level == 2 and o.mcpu is None and o.entry is None
    assert not o.verbose and o.save_temps is None


@pytest.mark.parametrize("argv", [["-lfoo"], ["-l", "foo"], ["--library=foo"], ["--library", "foo"],
                                  ["-library", "foo"]])
def test_library_forms(argv):
    o = parse(argv)
    assert len(o.inputs) == 1
    spec = o.inputs[0]
    assert spec.name == "foo" and spec.is_lib
    assert o.items[spec.item].tokens == argv and o.items[spec.item].input == 0


@pytest.mark.parametrize("argv", [["-L/dir"], ["-L", "/dir"], ["--library-path=/dir"],
                                  ["--library-path", "/dir"]])
def test_library_path_forms(argv):
    o = parse(argv)
    assert o.lib_paths == ["/dir"] and o.inputs == []
    assert forwarded(o) == argv


@pytest.mark.parametrize("argv", [["-o", "out"], ["-oout"], ["--output=out"], ["--output", "out"],
                                  ["-output", "out"]])
def test_output_forms(argv):
    o = parse(argv + ["x.o"])
    assert o.output == "out"
    assert names(o) == ["x.o"]


def test_colon_library():
    o = parse(["-l:libfoo.a", "-l", ":libbar.so.1"])
    assert names(o) == [":libfoo.a", ":libbar.so.1"]
    assert all(i.is_lib for i in o.inputs)


def test_inputs_and_order_kept():
    argv = ["crt1.o", "-L/a", "main.o", "-lm", "-z", "relro", "--hash-style=gnu", "-", "x.a"]
    o = parse(argv)
    assert names(o) == ["crt1.o", "main.o", "m", "-", "x.a"]
    assert [i.is_lib for i in o.inputs] == [False, False, True, False, False]
    assert forwarded(o) == argv                       # nothing of it is ours: replayed verbatim
    assert [it.tokens for it in o.items][4] == ["-z", "relro"]
    for k, spec in enumerate(o.inputs):
        assert o.items[spec.item].input == k


def test_value_options_do_not_make_inputs():
    argv = ["-soname", "libx.so.1", "-rpath", "/r", "-dynamic-linker", "/lib64/ld.so", "-m",
            "elf_x86_64", "-z", "now", "-T", "script.ld", "-Map", "out.map", "--defsym", "a=b",
            "--wrap", "malloc", "-h", "liby.so", "real.o"]
    assert names(parse(argv)) == ["real.o"]


def test_eh_frame_hdr_is_a_flag_not_entry():
    o = parse(["-eh-frame-hdr", "--eh-frame-hdr", "-export-dynamic", "x.o"])
    assert o.entry is None
    assert o.export_dynamic
    assert names(o) == ["x.o"]


def test_glued_short_options():
    o = parse(["-emain", "-usym1", "-zrelro", "-melf_x86_64", "x.o"])
    assert o.entry == "main" and o.undefined == ["sym1"]
    assert names(o) == ["x.o"]


@pytest.mark.parametrize("argv", [["-u", "s"], ["-us"], ["--undefined=s"], ["--undefined", "s"],
                                  ["-undefined", "s"]])
def test_undefined_forms(argv):
    assert parse(argv).undefined == ["s"]


@pytest.mark.parametrize("argv", [["-e", "go"], ["-ego"], ["--entry=go"], ["--entry", "go"],
                                  ["-entry", "go"]])
def test_entry_forms(argv):
    assert parse(argv).entry == "go"


def test_undefined_accumulates():
    o = parse(["-u", "a", "--undefined=b", "-uc"])
    assert o.undefined == ["a", "b", "c"]


def test_output_kind_flags():
    assert parse(["-shared"]).shared and parse(["--shared"]).shared and parse(["-Bshareable"]).shared
    assert parse(["-pie"]).pie and parse(["--pic-executable"]).pie
    assert not parse(["-pie", "-no-pie"]).pie
    assert not parse(["--pie", "--no-pie"]).pie
    s = parse(["-static", "-lc"])
    assert s.static and s.inputs[0].static
    assert parse(["-r"]).relocatable and parse(["--relocatable"]).relocatable
    assert parse(["-E"]).export_dynamic and parse(["--export-dynamic"]).export_dynamic
    assert not parse(["--export-dynamic", "--no-export-dynamic"]).export_dynamic


def test_exports_options():
    o = parse(["--version-script=v1.map", "--version-script", "v2.map", "--dynamic-list=d.list",
               "--export-dynamic-symbol=foo*", "--export-dynamic-symbol", "bar"])
    assert o.version_scripts == ["v1.map", "v2.map"]
    assert o.dynamic_lists == ["d.list"]
    assert o.export_symbols == ["foo*", "bar"]


# --- response files ----------------------------------------------------------------------------


def test_response_file(tmp_path):
    rsp = tmp_path / "args.rsp"
    inner = tmp_path / "inner.rsp"
    inner.write_text("-lfrom_inner\n")
    rsp.write_text(f"-o 'my out'  \"a b.o\"\n-L /x\\ y c.o @{inner}\n  --gradlink-verbose\n")
    o = parse(["first.o", f"@{rsp}", "last.o"])
    assert o.output == "my out"
    assert o.lib_paths == ["/x y"]
    assert names(o) == ["first.o", "a b.o", "c.o", "from_inner", "last.o"]
    assert o.verbose


def test_unreadable_response_file_is_an_input(tmp_path):
    missing = tmp_path / "nope.rsp"
    o = parse([f"@{missing}"])
    assert names(o) == [f"@{missing}"]


# --- plugin and LLVM options -------------------------------------------------------------------


def test_plugin_options_are_ours():
    argv = ["-plugin", "/usr/lib/llvm-22/lib/LLVMgold.so", "-plugin-opt=O3",
            "-plugin-opt=mcpu=znver2", "-plugin-opt=thinlto", "--plugin-opt=-pass-through=-lgcc",
            "--plugin-opt", "O1", "x.o"]
    o = parse(argv)
    assert o.opt_level == 1                  # the last O level wins
    assert o.mcpu == "znver2"
    assert names(o) == ["x.o"]
    assert forwarded(o) == ["x.o"]
    assert all(it.ours for it in o.items if it.input is None)
    assert ["-plugin", "/usr/lib/llvm-22/lib/LLVMgold.so"] in [it.tokens for it in o.items]


@pytest.mark.parametrize("opt, level", [("O0", 0), ("O2", 2), ("O3", 3)])
def test_plugin_opt_levels(opt, level):
    assert parse([f"-plugin-opt={opt}"]).opt_level == level


def test_plugin_opt_other_ignored():
    o = parse(["-plugin-opt=O9", "-plugin-opt=jobs=4", "-plugin-opt=Os"])
    assert o.opt_level == 2 and o.mcpu is None


@pytest.mark.parametrize("argv, level", [(["--lto-O3"], 3), (["--lto-O0"], 0), (["--lto-O=1"], 1)])
def test_lto_o_levels(argv, level):
    assert parse(argv).opt_level == level


def test_mllvm_warns_and_is_ours(capsys):
    o = parse(["-mllvm", "-inline-threshold=500", "x.o"])
    err = capsys.readouterr().err
    assert "ld.gradlink: warning:" in err and "-inline-threshold=500" in err
    assert forwarded(o) == ["x.o"]
    assert o.items[0].tokens == ["-mllvm", "-inline-threshold=500"] and o.items[0].ours


# --- input state -------------------------------------------------------------------------------


def test_groups():
    o = parse(["a.o", "--start-group", "-lx", "y.a", "--end-group", "b.o", "-(", "-lz", "-)", "c.o"])
    assert [(i.name, i.group) for i in o.inputs] == [
        ("a.o", None), ("x", 1), ("y.a", 1), ("b.o", None), ("z", 2), ("c.o", None)]
    assert ["--start-group"] in [it.tokens for it in o.items]
    assert forwarded(o)[:6] == ["a.o", "--start-group", "-lx", "y.a", "--end-group", "b.o"]


@pytest.mark.parametrize("argv", [["--start-group", "a.o"], ["a.o", "--end-group"],
                                  ["--start-group", "--start-group", "--end-group", "--end-group"],
                                  ["-(", "a.o"]])
def test_unbalanced_groups(argv):
    with pytest.raises(LinkError):
        parse(argv)


def test_archive_flags_recorded_per_input():
    o = parse(["a.o", "--whole-archive", "libw.a", "--no-whole-archive", "libn.a",
               "-Bstatic", "-ls", "-Bdynamic", "-ld", "--as-needed", "-lneed", "--no-as-needed", "-lall",
               "-dn", "-ls2", "-dy", "-call_shared", "-ld2"])
    state = {i.name: (i.whole_archive, i.static, i.as_needed) for i in o.inputs}
    assert state == {
        "a.o": (False, False, False),
        "libw.a": (True, False, False),
        "libn.a": (False, False, False),
        "s": (False, True, False),
        "d": (False, False, False),
        "need": (False, False, True),
        "all": (False, False, False),
        "s2": (False, True, False),
        "d2": (False, False, False),
    }
    assert not o.static                        # -Bstatic is not -static


def test_push_pop_state():
    o = parse(["--as-needed", "--push-state", "--no-as-needed", "-Bstatic", "--whole-archive", "-la",
               "--pop-state", "-lb"])
    st = {i.name: (i.whole_archive, i.static, i.as_needed) for i in o.inputs}
    assert st == {"a": (True, True, False), "b": (False, False, True)}


def test_nested_push_pop_state():
    o = parse(["--push-state", "-Bstatic", "--push-state", "--whole-archive", "-la", "--pop-state",
               "-lb", "--pop-state", "-lc"])
    st = {i.name: (i.whole_archive, i.static) for i in o.inputs}
    assert st == {"a": (True, True), "b": (False, True), "c": (False, False)}


def test_pop_state_without_push():
    with pytest.raises(LinkError, match="pop-state"):
        parse(["--pop-state"])


# --- errors and our own options ----------------------------------------------------------------


@pytest.mark.parametrize("argv", [["-o"], ["x.o", "-l"], ["-L"], ["-u"], ["--entry"],
                                  ["--version-script"], ["-plugin"], ["-mllvm"], ["-soname"]])
def test_missing_argument(argv):
    with pytest.raises(LinkError, match="missing argument"):
        parse(argv)


def test_gradlink_options_are_ours():
    o = parse(["--gradlink-verbose", "--gradlink-save-temps=/tmp/keep", "x.o"])
    assert o.verbose and o.save_temps == "/tmp/keep"
    assert forwarded(o) == ["x.o"]
    o = parse(["--gradlink-save-temps", "/tmp/k2", "--gradlink-ad-first"])
    assert o.save_temps == "/tmp/k2" and o.ad_first and forwarded(o) == []


def test_unknown_options_forwarded():
    argv = ["--gc-sections", "--build-id=sha1", "-O1", "--no-undefined", "-X", "x.o"]
    o = parse(argv)
    assert forwarded(o) == argv and names(o) == ["x.o"]


def test_undefined_version_is_a_flag():
    assert names(parse(["--undefined-version", "main.o"])) == ["main.o"]


def test_undefined_glob_takes_a_value():
    assert names(parse(["--undefined-glob", "foo*", "main.o"])) == ["main.o"]


def test_glued_value_containing_equals():
    o = parse(["-L/opt/a=b/lib", "-o/tmp/x=y/out", "-lfoo"])
    assert o.lib_paths == ["/opt/a=b/lib"]
    assert o.output == "/tmp/x=y/out"


# --- linker scripts ----------------------------------------------------------------------------


def test_script_group_input_as_needed_comments():
    text = """/* GNU ld script: ( not a list ) */
OUTPUT_FORMAT(elf64-x86-64)
SEARCH_DIR("/opt/lib") SEARCH_DIR(=/usr/lib)
INPUT(-lfoo, "bar baz.o", x.o) /* GROUP(ignored.a) */
GROUP ( liba.a AS_NEEDED ( -lm libb.so.1 ) /* ) */ libc.a )
"""
    assert parse_inputs(text, "s.ld") == [
        ScriptInput("foo", True, False, False),
        ScriptInput("bar baz.o", False, False, False),
        ScriptInput("x.o", False, False, False),
        ScriptInput("liba.a", False, False, True),
        ScriptInput("m", True, True, True),
        ScriptInput("libb.so.1", False, True, True),
        ScriptInput("libc.a", False, False, True),
    ]


def test_script_without_inputs():
    assert parse_inputs("OUTPUT_FORMAT(elf64-x86-64)\nENTRY(_start)\n", "s.ld") == []
    assert parse_inputs("", "s.ld") == []


@pytest.mark.parametrize("text", ["GROUP(a.o", "INPUT(a.o AS_NEEDED(b.so)", "OUTPUT_FORMAT(elf64",
                                  "GROUP(a.o AS_NEEDED(b.so c.so"])
def test_script_unterminated(text):
    with pytest.raises(LinkError, match="s.ld"):
        parse_inputs(text, "s.ld")


@pytest.mark.skipif(not LIBC_SCRIPT.exists(), reason="no Debian libc.so")
def test_script_debian_libc():
    got = parse_inputs(LIBC_SCRIPT.read_text(), str(LIBC_SCRIPT))
    assert [(s.is_lib, s.as_needed, s.group) for s in got] == [
        (False, False, True), (False, False, True), (False, True, True)]
    assert Path(got[0].name).name == "libc.so.6"
    assert Path(got[1].name).name == "libc_nonshared.a"
    assert Path(got[2].name).name.startswith("ld-linux")
    assert all(Path(s.name).exists() for s in got)


@pytest.mark.skipif(not LIBM_SCRIPT.exists(), reason="no Debian libm.so")
def test_script_debian_libm():
    got = parse_inputs(LIBM_SCRIPT.read_text(), str(LIBM_SCRIPT))
    assert Path(got[0].name).name == "libm.so.6" and not got[0].as_needed and got[0].group
    assert all(s.group for s in got)
    assert any(s.as_needed and "libmvec" in s.name for s in got) or len(got) == 1


# --- -l search ---------------------------------------------------------------------------------


@pytest.fixture
def libdirs(tmp_path) -> tuple[Path, Path]:
    d1, d2 = tmp_path / "d1", tmp_path / "d2"
    d1.mkdir()
    d2.mkdir()
    for p in [d1 / "libboth.so", d1 / "libboth.a", d1 / "libstat.a", d2 / "libstat.so",
              d2 / "libonly2.so", d1 / "custom.name", d2 / "custom.name", d2 / "libdir.so"]:
        p.write_bytes(b"")
    (d1 / "libdir.so").mkdir()                     # a directory is not a library
    return d1, d2


def test_find_library_prefers_so_per_directory(libdirs):
    d1, d2 = map(str, libdirs)
    assert find_library("both", [d1, d2], static=False) == f"{d1}/libboth.so"
    assert find_library("both", [d1, d2], static=True) == f"{d1}/libboth.a"
    # directory order beats the .so preference: d1's .a is found before d2's .so
    assert find_library("stat", [d1, d2], static=False) == f"{d1}/libstat.a"
    assert find_library("stat", [d2, d1], static=False) == f"{d2}/libstat.so"
    assert find_library("stat", [d2, d1], static=True) == f"{d1}/libstat.a"


def test_find_library_static_skips_so(libdirs):
    d1, d2 = map(str, libdirs)
    assert find_library("only2", [d1, d2], static=False) == f"{d2}/libonly2.so"
    assert find_library("only2", [d1, d2], static=True) is None


def test_find_library_exact_name(libdirs):
    d1, d2 = map(str, libdirs)
    assert find_library(":custom.name", [d2, d1], static=False) == f"{d2}/custom.name"
    assert find_library(":custom.name", [d1, d2], static=True) == f"{d1}/custom.name"
    assert find_library(":libboth.a", [d2, d1], static=False) == f"{d1}/libboth.a"
    assert find_library(":nothere.a", [d1, d2], static=False) is None


def test_find_library_not_found_and_directories(libdirs):
    d1, d2 = map(str, libdirs)
    assert find_library("missing", [d1, d2], static=False) is None
    assert find_library("both", [], static=False) is None
    assert find_library("dir", [d1, d2], static=False) == f"{d2}/libdir.so"
