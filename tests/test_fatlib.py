"""Unit tests of fatlib: the ELF reader, the ar reader/writer and content classification.

Inputs are real objects, archives and shared objects made by clang-22, llvm-ar-22 and GNU ar in a
temporary directory; llvm-nm-22 / llvm-readelf-22 are the reference for what they contain. Bytes
are only edited by hand where the point is corrupt input.
"""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest
from toolchain import AR, CC, CXX, NM, READELF, compile_c, have, sh, tool_env

from fatlib import FormatError
from fatlib.archive import is_archive, read_archive, write_archive
from fatlib.elf import ET_DYN, ET_REL, SHT_DYNAMIC, SHT_SYMTAB, read_elf
from fatlib.probe import BITCODE_MAGIC, Kind, classify, unwrap_bitcode

pytestmark = pytest.mark.skipif(not (have(CC) and have(AR) and have(NM)),
                                reason="clang-22 / llvm-ar-22 / llvm-nm-22 not installed")

GNU_AR = "ar"
LIBC_SCRIPT = Path("/usr/lib/x86_64-linux-gnu/libc.so")

SYMS_C = """\
int defined_fn(int x) { return x + 1; }
extern int undefined_fn(int);
__attribute__((weak)) int weak_fn(void) { return 3; }
extern int weak_ref(void) __attribute__((weak));
int common_var;
int data_var = 7;
__attribute__((visibility("hidden"))) int hidden_fn(void) { return undefined_fn(2) + weak_ref(); }
__attribute__((visibility("protected"))) int protected_fn(void) { return 4; }
static int local_fn(void) { return 5; }
int use_local(void) { return local_fn() + common_var; }
"""
B_C = "int b_func(void) { return 2; }\n"
LONG_C = "int long_member_fn(void) { return 9; }\nint b_func_dup(void) { return 1; }\n"
INLINE_CC = """\
inline int inl(int x) { static int n; return x + ++n; }
int user(int y) { return inl(y); }
"""
MAIN_C = "int b_func(void);\nint main(void) { return b_func() + 40; }\n"
LONG_NAME = "a_very_long_member_name_indeed.o"       # > 15 characters: GNU long-name table


@pytest.fixture(scope="module")
def objs(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("fatlib")

    def src(name: str, text: str) -> Path:
        p = d / name
        p.write_text(text)
        return p

    syms = src("syms.c", SYMS_C)
    b = src("b.c", B_C)
    o = {
        "dir": d,
        "syms": compile_c(syms, d / "syms.o", "-O1", "-fcommon"),
        "b": compile_c(b, d / "b.o", "-O1"),
        "long": compile_c(src("long.c", LONG_C), d / LONG_NAME, "-O1"),
        "inline": compile_c(src("inl.cc", INLINE_CC), d / "inl.o", "-O0", compiler=CXX),
        "bitcode": compile_c(b, d / "b.bc.o", "-O1", "-flto"),
        "fat": compile_c(b, d / "fat.o", "-O1", "-flto", "-ffat-lto-objects"),
        "embed": compile_c(b, d / "embed.o", "-O1", "-fembed-bitcode"),
        "main": compile_c(src("main.c", MAIN_C), d / "main.o", "-O1"),
    }
    so = d / "libq.so"
    sh([CC, "-fPIC", "-shared", "-fcommon", "-Wl,-soname,libq.so.1", syms, "-o", so]).check("libq.so")
    o["so"] = so
    return o


# --- ELF objects -------------------------------------------------------------------------------


def nm_globals(path: Path, dynamic: bool = False) -> dict[str, str]:
    """llvm-nm-22's symbol letter of every global symbol (name without @version)."""
    args = [NM, "--extern-only"] + (["-D"] if dynamic else []) + [path]
    out = sh(args).check("llvm-nm").stdout
    result = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            letter, name = parts[-2], parts[-1]
            result[name.split("@")[0]] = letter
    return result


def readelf_visibility(path: Path) -> dict[str, str]:
    out = sh([READELF, "-s", "--wide", path]).check("readelf -s").stdout
    vis = {}
    for line in out.splitlines():
        parts = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(parts) == 8 and parts[0].endswith(":") and parts[4] in ("GLOBAL", "WEAK"):
            vis[parts[7]] = parts[5]
    return vis


def test_read_elf_symbols_match_llvm_nm(objs):
    data = objs["syms"].read_bytes()
    elf = read_elf(data)
    assert elf.kind == ET_REL and elf.machine == 62 and not elf.is_shared
    ours = {s.name: s for s in elf.symbols}
    assert len(ours) == len(elf.symbols), "a global symbol is listed twice"
    ref = nm_globals(objs["syms"])
    assert set(ours) == set(ref)
    for name, letter in ref.items():
        s = ours[name]
        assert s.defined == (letter not in "Uwv"), name
        assert s.weak == (letter in "WwVv"), name
        assert s.common == (letter == "C"), name
    # the specific kinds the source declares
    assert ours["defined_fn"].defined and not ours["defined_fn"].weak
    assert not ours["undefined_fn"].defined and not ours["undefined_fn"].weak
    assert ours["weak_fn"].defined and ours["weak_fn"].weak
    assert not ours["weak_ref"].defined and ours["weak_ref"].weak
    assert ours["common_var"].common and ours["common_var"].defined
    assert "local_fn" not in ours                 # local symbols are not the linker's business
    assert not any(s.in_comdat for s in elf.symbols)
    assert elf.bitcode_section is None and elf.bitcode is None
    assert elf.soname is None and elf.needed == []
    assert ".text" in elf.sections and ".symtab" in elf.sections


def test_read_elf_hidden_matches_readelf(objs):
    elf = read_elf(objs["syms"].read_bytes())
    vis = readelf_visibility(objs["syms"])
    ours = {s.name: s for s in elf.symbols}
    assert vis["hidden_fn"] == "HIDDEN" and ours["hidden_fn"].hidden
    assert vis["protected_fn"] == "PROTECTED" and not ours["protected_fn"].hidden
    for name, v in vis.items():
        assert ours[name].hidden == (v in ("HIDDEN", "INTERNAL")), name


def test_read_elf_comdat_inline_function(objs):
    elf = read_elf(objs["inline"].read_bytes())
    ours = {s.name: s for s in elf.symbols}
    groups = sh([READELF, "--section-groups", objs["inline"]]).check("readelf -g").stdout
    assert "COMDAT" in groups and "_Z3inli" in groups
    assert ours["_Z3inli"].in_comdat and ours["_Z3inli"].weak and ours["_Z3inli"].defined
    assert ours["_ZZ3inliE1n"].in_comdat                  # its static variable: own group
    assert ours["_Z4useri"].defined and not ours["_Z4useri"].in_comdat


@pytest.mark.parametrize("which, section", [("fat", ".llvm.lto"), ("embed", ".llvmbc")])
def test_read_elf_embedded_bitcode(objs, which, section):
    data = objs[which].read_bytes()
    elf = read_elf(data)
    assert elf.bitcode_section == section
    assert section in elf.sections
    assert elf.bitcode is not None and elf.bitcode.startswith(BITCODE_MAGIC)
    assert [s.name for s in elf.symbols if s.defined] == ["b_func"]     # the native symbols
    lean = read_elf(data, want_bitcode=False)
    assert lean.bitcode_section == section and lean.bitcode is None


def test_read_elf_bitcode_section_is_the_whole_section(objs):
    """The bytes returned are exactly the section contents llvm-readelf reports."""
    elf = read_elf(objs["fat"].read_bytes())
    out = sh([READELF, "-S", "--wide", objs["fat"]]).check("readelf -S").stdout
    line = next(ln for ln in out.splitlines() if " .llvm.lto " in ln)
    fields = line.split("]", 1)[1].split()
    size = int(fields[4], 16)              # Name Type Address Off Size ...
    assert len(elf.bitcode) == size


def test_read_elf_shared_object(objs):
    elf = read_elf(objs["so"].read_bytes())
    assert elf.kind == ET_DYN and elf.is_shared
    assert elf.soname == "libq.so.1"
    assert "libc.so.6" in elf.needed
    ours = {s.name: s for s in elf.symbols}
    ref = nm_globals(objs["so"], dynamic=True)
    assert set(ours) == set(ref)
    for name, letter in ref.items():
        assert ours[name].defined == (letter not in "Uwv"), name
        assert ours[name].weak == (letter in "WwVv"), name
    assert ours["defined_fn"].defined and not ours["undefined_fn"].defined
    assert ours["weak_fn"].weak
    assert "hidden_fn" not in ours and "local_fn" not in ours      # not in .dynsym


def test_read_elf_rejects_32bit(objs):
    o32 = objs["dir"] / "b32.o"
    r = sh([CC, "-m32", "-c", objs["dir"] / "b.c", "-o", o32])
    if r.returncode != 0:
        pytest.skip("clang-22 -m32 unavailable")
    with pytest.raises(FormatError, match="64-bit"):
        read_elf(o32.read_bytes())


@pytest.mark.parametrize("data", [b"", b"\x7fEL", b"\x7fELF", b"hello world" * 10, b"\0" * 64])
def test_read_elf_not_elf(data):
    with pytest.raises(FormatError):
        read_elf(data)


@pytest.mark.parametrize("which", ["syms", "inline", "fat", "so"])
def test_read_elf_truncated_raises_format_error(objs, which):
    data = objs[which].read_bytes()
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    cuts = {1, 4, 16, 40, 63, 64, 65, len(data) // 2, shoff, shoff + 1, shoff + 64, len(data) - 64,
            len(data) - 1}
    cuts.update(range(0, len(data), 97))
    for n in sorted(c for c in cuts if 0 <= c < len(data)):
        with pytest.raises(FormatError):
            read_elf(data[:n])


def _section_headers(data: bytes) -> list[tuple[int, tuple[int, ...]]]:
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shnum = struct.unpack_from("<H", data, 0x3C)[0]
    return [(shoff + i * 64, struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * 64))
            for i in range(shnum)]


def _patch_section(data: bytes, sh_type: int, field_offset: int, value: int) -> bytes:
    out = bytearray(data)
    for off, h in _section_headers(data):
        if h[1] == sh_type:
            struct.pack_into("<I", out, off + field_offset, value)
            return bytes(out)
    raise AssertionError(f"no section of type {sh_type}")


def test_read_elf_symtab_without_string_table(objs):
    bad = _patch_section(objs["syms"].read_bytes(), SHT_SYMTAB, 40, 0xFFFF)     # sh_link
    with pytest.raises(FormatError):
        read_elf(bad)


def test_read_elf_symbol_name_out_of_range(objs):
    data = bytearray(objs["syms"].read_bytes())
    for _off, h in _section_headers(bytes(data)):
        if h[1] == SHT_SYMTAB:
            first_global = h[7]
            struct.pack_into("<I", data, h[4] + first_global * 24, 0x7FFFFFF0)   # st_name
            break
    with pytest.raises(FormatError):
        read_elf(bytes(data))


def test_read_elf_dynamic_section_bad_link(objs):
    bad = _patch_section(objs["so"].read_bytes(), SHT_DYNAMIC, 40, 0xFFFF)      # sh_link
    with pytest.raises(FormatError):
        read_elf(bad)


# --- archives ----------------------------------------------------------------------------------


def _defined(path: Path) -> set[str]:
    return {s.name for s in read_elf(path.read_bytes()).symbols if s.defined}


def _member_files(objs) -> list[Path]:
    return [objs["syms"], objs["long"], objs["b"]]


def _make(objs, name: str, *cmd: str, tool: str = AR, cwd: Path | None = None) -> Path:
    d = cwd or objs["dir"]
    out = d / name
    out.unlink(missing_ok=True)
    sh([tool, *cmd, out, *(p.name if cwd is None else p for p in _member_files(objs))],
       cwd=objs["dir"] if cwd is None else cwd).check(f"{tool} {' '.join(cmd)}")
    return out


def _check_members_and_index(ar, objs, *, indexed: bool = True) -> None:
    files = _member_files(objs)
    assert [m.name for m in ar.members] == [f.name for f in files]
    for m, f in zip(ar.members, files):
        assert m.data == f.read_bytes(), m.name
    if not indexed:
        assert ar.index is None
        return
    assert ar.index is not None
    expected: dict[str, list[int]] = {}
    for i, f in enumerate(files):
        for name in _defined(f):
            expected.setdefault(name, []).append(i)
    assert {k: sorted(v) for k, v in ar.index.items()} == expected


@pytest.mark.parametrize("tool, flags", [(AR, ("--format=gnu", "rcs")), (GNU_AR, ("rcs",))],
                         ids=["llvm-ar-gnu", "gnu-ar"])
def test_read_gnu_archive(objs, tool, flags):
    if not have(tool):
        pytest.skip(f"{tool} not installed")
    path = _make(objs, f"gnu-{tool}.a", *flags, tool=tool)
    data = path.read_bytes()
    assert is_archive(data[:8])
    ar = read_archive(path)
    assert not ar.thin and ar.path == str(path)
    _check_members_and_index(ar, objs)
    assert len(LONG_NAME) > 15
    for m in ar.members:                           # offset: the member's header, as the armap says
        assert data[m.offset + 58:m.offset + 60] == b"`\n"
        assert data[m.offset + 60:m.offset + 64] == b"\x7fELF"
    # the index agrees with llvm-nm's reading of the armap
    armap = sh([NM, "--print-armap", path]).check("nm --print-armap").stdout
    for line in armap.splitlines():
        if " in " in line:
            sym, member = line.split(" in ")
            names = [ar.members[i].name for i in ar.index[sym]]
            assert member.strip() in names, line


def test_read_gnu_archive_sym64(objs):
    """llvm-ar writes a /SYM64/ index when SYM64_THRESHOLD is below the archive size."""
    env = tool_env()
    env["SYM64_THRESHOLD"] = "0"
    path = objs["dir"] / "sym64.a"
    path.unlink(missing_ok=True)
    sh([AR, "--format=gnu", "rcs", path, *_member_files(objs)], env=env).check("llvm-ar sym64")
    assert b"/SYM64/" in path.read_bytes()[:80]
    _check_members_and_index(read_archive(path), objs)


@pytest.mark.parametrize("tool", [AR, GNU_AR], ids=["llvm-ar", "gnu-ar"])
def test_read_archive_without_index(objs, tool):
    if not have(tool):
        pytest.skip(f"{tool} not installed")
    path = _make(objs, f"noidx-{tool}.a", "rcS", tool=tool)
    _check_members_and_index(read_archive(path), objs, indexed=False)


def test_read_bsd_archive_without_index(objs):
    path = _make(objs, "bsd-noidx.a", "--format=bsd", "rcS")
    assert path.read_bytes()[8:11] == b"#1/"
    _check_members_and_index(read_archive(path), objs, indexed=False)


def test_read_bsd_archive_with_index(objs):
    path = _make(objs, "bsd.a", "--format=bsd", "rcs")
    ar = read_archive(path)
    _check_members_and_index(ar, objs)


def test_read_bsd_archive_corrupt_name_length(objs):
    """A '#1/<len>' name field that is not a number, or longer than the member."""
    path = _make(objs, "bsd-corrupt.a", "--format=bsd", "rcS")
    data = bytearray(path.read_bytes())
    assert data[8:11] == b"#1/"
    bad = bytearray(data)
    bad[11:16] = b"x    "
    with pytest.raises(FormatError, match="BSD name length"):
        read_archive(path, bytes(bad))
    size = int(data[8 + 48:8 + 58].decode())
    bad = bytearray(data)
    bad[11:19] = str(size + 100).encode().ljust(8)
    with pytest.raises(FormatError):
        read_archive(path, bytes(bad))


@pytest.mark.parametrize("tool", [AR, GNU_AR], ids=["llvm-ar", "gnu-ar"])
def test_read_thin_archive(objs, tool, tmp_path):
    if not have(tool):
        pytest.skip(f"{tool} not installed")
    objdir = tmp_path / "obj"
    libdir = tmp_path / "lib"
    objdir.mkdir()
    libdir.mkdir()
    files = []
    for f in _member_files(objs):
        shutil.copy(f, objdir / f.name)
        files.append(f"obj/{f.name}")
    path = libdir / "libthin.a"
    # relative archive path: GNU ar 2.40 records wrong member paths for an absolute one
    sh([tool, "rcsT", "lib/libthin.a", *files], cwd=tmp_path).check(f"{tool} rcsT")
    data = path.read_bytes()
    assert data.startswith(b"!<thin>\n") and is_archive(data)
    ar = read_archive(path)
    assert ar.thin
    assert [Path(m.name).name for m in ar.members] == [f.name for f in _member_files(objs)]
    for m, f in zip(ar.members, _member_files(objs)):
        assert m.path is not None and Path(m.path).resolve() == (objdir / f.name).resolve()
        assert m.data == f.read_bytes()
    assert ar.index is not None
    assert [ar.members[i].name.endswith("b.o") for i in ar.index["b_func"]] == [True]
    assert ar.index["long_member_fn"] == [1]
    # a thin archive whose member file is gone
    (objdir / "b.o").unlink()
    with pytest.raises(FormatError, match="b.o"):
        read_archive(path)


@pytest.fixture(scope="module")
def gnu_archive(objs) -> bytes:
    return _make(objs, "trunc-src.a", "--format=gnu", "rcs").read_bytes()


def _layout(data: bytes) -> list[tuple[int, int]]:
    """(header offset, size) of every member, special ones included."""
    pos, out = 8, []
    while pos + 60 <= len(data):
        size = int(data[pos + 48:pos + 58].decode().strip())
        out.append((pos, size))
        pos += 60 + size + (size & 1)
    return out


def test_truncated_archive_raises_format_error(gnu_archive):
    data = gnu_archive
    layout = _layout(data)
    assert len(layout) == 5          # "/", "//", three members
    cuts = {3, 7}                    # inside the magic
    for off, size in layout:
        cuts.update({off + 1, off + 30, off + 59, off + 60, off + 60 + size // 2, off + 59 + size})
    last_off, last_size = layout[-1]
    if last_size & 1:
        cuts.discard(last_off + 60 + last_size)     # only the final pad byte cut: still whole
    for n in sorted(c for c in cuts if c < len(data)):
        with pytest.raises(FormatError):
            read_archive("cut.a", data[:n])


def test_truncated_archive_never_other_exceptions(gnu_archive):
    for n in range(len(gnu_archive)):
        try:
            read_archive("cut.a", gnu_archive[:n])
        except FormatError:
            pass


def test_truncated_at_member_boundary_with_index(gnu_archive):
    """A cut between members leaves well-formed headers, but the symbol index names members that
    are gone: still a truncated archive, not a smaller one."""
    layout = _layout(gnu_archive)
    for off, _size in layout[1:]:    # before "//" and before each member: the index points past
        with pytest.raises(FormatError, match="index"):
            read_archive("cut.a", gnu_archive[:off])


def test_cut_without_index_is_a_smaller_archive(objs):
    """Without an index nothing says more members were there: a cut between members reads as
    the members before it (as ar t does)."""
    data = _make(objs, "noidx-cut.a", "--format=gnu", "rcS").read_bytes()
    layout = _layout(data)
    last = layout[-1][0]
    ar = read_archive("cut.a", data[:last])
    assert ar.index is None and [m.name for m in ar.members] == ["syms.o", LONG_NAME]


def test_corrupt_archive_headers(gnu_archive):
    data = gnu_archive
    first = _layout(data)[2][0]      # first real member
    bad_magic = bytearray(data)
    bad_magic[first + 58:first + 60] = b"xx"
    with pytest.raises(FormatError, match="bad member header"):
        read_archive("x.a", bytes(bad_magic))
    bad_size = bytearray(data)
    bad_size[first + 48:first + 58] = b"12z4      "
    with pytest.raises(FormatError, match="size"):
        read_archive("x.a", bytes(bad_size))
    with pytest.raises(FormatError):
        read_archive("x.a", b"not an archive at all")


def test_corrupt_long_name_offset(objs):
    data = bytearray(_make(objs, "longname.a", "--format=gnu", "rcS").read_bytes())
    i = data.index(b"/0 ")           # the long-named member refers to offset 0 of "//"
    data[i:i + 6] = b"/9999 "
    with pytest.raises(FormatError, match="long name"):
        read_archive("x.a", bytes(data))


# --- writing archives --------------------------------------------------------------------------


def test_write_archive_round_trip(objs, tmp_path):
    files = _member_files(objs) + [objs["fat"]]
    members = [(str(f), f.read_bytes()) for f in files]
    members.append(("odd.txt", b"abc"))                  # odd size: padding
    members.append(("exactly15chars_", b"x" * 4))      # 15 chars: fits the name field
    members.append(("sixteen_chars_ab", b"y" * 5))     # 16 chars: long-name table
    symbols = [sorted(_defined(f)) for f in files] + [[], [], []]
    path = tmp_path / "written.a"
    write_archive(path, members, symbols)

    ar = read_archive(path)
    assert [m.name for m in ar.members] == [Path(n).name for n, _ in members]
    assert [m.data for m in ar.members] == [b for _, b in members]
    expected: dict[str, list[int]] = {}
    for i, ss in enumerate(symbols):
        for s in ss:
            expected.setdefault(s, []).append(i)
    assert ar.index == expected

    listed = sh([AR, "t", path]).check("llvm-ar t").stdout.split()
    assert listed == [Path(n).name for n, _ in members]
    if have(GNU_AR):
        assert sh([GNU_AR, "t", path]).check("ar t").stdout.split() == listed
    armap = sh([NM, "--print-armap", path]).check("llvm-nm --print-armap").stdout
    for sym, idx in expected.items():
        for i in idx:
            assert f"{sym} in {ar.members[i].name}" in armap


def test_write_archive_links_with_lld(objs, tmp_path):
    if not have("ld.lld-22"):
        pytest.skip("ld.lld-22 not installed")
    files = [objs["long"], objs["b"]]
    path = tmp_path / "libw.a"
    write_archive(path, [(str(f), f.read_bytes()) for f in files], [sorted(_defined(f)) for f in files])
    exe = tmp_path / "prog"
    sh([CC, "-fuse-ld=lld", objs["main"], path, "-o", exe]).check("clang -fuse-ld=lld with written archive")
    assert sh([exe]).returncode == 42


def test_write_empty_archive(tmp_path):
    path = tmp_path / "empty.a"
    write_archive(path, [], [])
    ar = read_archive(path)
    assert ar.members == [] and ar.index == {}
    sh([AR, "t", path]).check("llvm-ar t of an empty archive")


# --- classification ----------------------------------------------------------------------------


def test_classify_kinds(objs, tmp_path):
    assert classify(objs["bitcode"].read_bytes()[:512]) is Kind.BITCODE
    assert classify(objs["syms"].read_bytes()[:512]) is Kind.ELF
    assert classify(objs["fat"].read_bytes()[:512]) is Kind.ELF       # fat objects are ELF first
    assert classify(objs["so"].read_bytes()[:512]) is Kind.ELF
    ar = _make(objs, "probe.a", "rcs")
    assert classify(ar.read_bytes()[:8]) is Kind.ARCHIVE
    thin = tmp_path / "probe-thin.a"
    sh([AR, "rcsT", thin, objs["b"]]).check("llvm-ar rcsT")
    assert classify(thin.read_bytes()[:8]) is Kind.THIN_ARCHIVE
    assert classify(b"") is Kind.OTHER
    assert classify(b"hello, world\n") is Kind.OTHER
    assert classify(bytes(range(256))) is Kind.OTHER
    assert classify(b"rust\0\0\0\x08metadata") is Kind.OTHER
    assert classify(b"GROUP ( libfoo.so.1 )\n") is Kind.SCRIPT
    assert classify(b"INPUT(-lbar)") is Kind.SCRIPT


def test_classify_wrapped_bitcode(objs, tmp_path):
    """Darwin targets write bitcode behind a wrapper header; unwrap_bitcode strips it."""
    out = tmp_path / "mac.bc"
    r = sh([CC, "-target", "x86_64-apple-macosx", "-flto", "-c", objs["dir"] / "b.c", "-o", out])
    if r.returncode != 0:
        pytest.skip("no Darwin target in clang-22")
    data = out.read_bytes()
    assert data[:4] == b"\xde\xc0\x17\x0b"
    assert classify(data[:512]) is Kind.BITCODE
    inner = unwrap_bitcode(data)
    assert inner.startswith(BITCODE_MAGIC) and len(inner) < len(data)
    plain = objs["bitcode"].read_bytes()
    assert unwrap_bitcode(plain) is plain


@pytest.mark.skipif(not LIBC_SCRIPT.exists(), reason="no Debian libc.so linker script")
def test_classify_debian_libc_script():
    data = LIBC_SCRIPT.read_bytes()
    assert classify(data[:512]) is Kind.SCRIPT
