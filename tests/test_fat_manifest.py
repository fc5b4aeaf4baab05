"""Fat libraries that carry their derivatives: `gradlink fat build` writes a .gradlink.manifest
section from the library's Enzyme registrations and a --derivatives file; at link time the
manifests of the inputs become registrations, so a consumer differentiates through a library
function with no registration of its own, and the member stays native code.

The custom reverse derivatives below add 1000 to the true adjoint, so a gradient that used the
body instead of the registration cannot pass."""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import pytest
from toolchain import CC, compile_c, have, link, sh

from fatlib import FormatError
from fatlib.manifest import MAGIC, decode, encode

pytestmark = pytest.mark.skipif(not (have(CC) and have("ld.gradlink")), reason="toolchain missing")

LIB = r"""
#include <math.h>
#include <stddef.h>
__attribute__((noinline)) double kern(double x) { return exp(-x * x); }
void *aug_kern(double x) { (void)x; return NULL; }
double rev_kern(double x, double d, void *tape) { (void)tape; return d * -2 * x * exp(-x * x) + 1000; }
void *__enzyme_register_gradient_kern[3] = {(void *)kern, (void *)aug_kern, (void *)rev_kern};
"""
PLAIN_LIB = r"""
#include <math.h>
double soft(double x) { return log1p(exp(x)); }
double rev_soft(double x, double d) { return d / (1 + exp(-x)) + 1000; }
void aug_soft(double x) { (void)x; }
"""
USER = r"""
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double FN(double);
double loss(double x) { return FN(x) * 2; }
int main(void) { printf("%.17g\n", __enzyme_autodiff((void *)loss, 0.5)); return 0; }
"""


def gradlink(*args: str | Path) -> tuple[int, str]:
    res = sh(["gradlink", *args])
    return res.returncode, res.stdout + res.stderr


def _user(tmp: Path, fn: str) -> Path:
    (tmp / "user.c").write_text(USER.replace("FN", fn))
    return compile_c(tmp / "user.c", tmp / "user.o", "-O2", "-flto")


def test_registrations_travel_in_the_manifest(tmp_path: Path) -> None:
    (tmp_path / "phys.c").write_text(LIB)
    obj = compile_c(tmp_path / "phys.c", tmp_path / "phys.o", "-O2", "-flto")
    code, out = gradlink("fat", "build", "-o", tmp_path / "libphys.a", obj)
    assert code == 0, out
    code, out = gradlink("fat", "inspect", tmp_path / "libphys.a")
    assert "phys.o: native + bitcode (.llvm.lto" in out
    assert "manifest: gradient: augmented=aug_kern, function=kern, reverse=rev_kern" in out
    res = link([_user(tmp_path, "kern"), f"-L{tmp_path}", "-lphys", "-lm"], tmp_path / "u",
               "-Wl,--gradlink-verbose")
    assert res.returncode == 0, res.stderr
    assert "libphys.a(phys.o): gradient entry for 'kern'" in res.stderr
    assert "joins the LTO unit" not in res.stderr          # the registration needs no body
    got = float(sh([tmp_path / "u"]).check().stdout)
    assert math.isclose(got, 2 * (-2 * 0.5 * math.exp(-0.25)) + 1000, rel_tol=1e-14)


def test_fat_archive_links_with_any_linker(tmp_path: Path) -> None:
    (tmp_path / "phys.c").write_text(LIB)
    obj = compile_c(tmp_path / "phys.c", tmp_path / "phys.o", "-O2", "-flto")
    assert gradlink("fat", "build", "-o", tmp_path / "libphys.a", obj)[0] == 0
    (tmp_path / "p.c").write_text('#include <stdio.h>\ndouble kern(double);\n'
                                  'int main(void) { printf("%.6f\\n", kern(1.0)); return 0; }\n')
    sh([CC, "-O2", "-fuse-ld=lld", tmp_path / "p.c", f"-L{tmp_path}", "-lphys", "-lm", "-o",
        tmp_path / "p"]).check()
    assert sh([tmp_path / "p"]).check().stdout.strip() == f"{math.exp(-1):.6f}"


def test_derivatives_file_for_code_without_registrations(tmp_path: Path) -> None:
    (tmp_path / "soft.c").write_text(PLAIN_LIB)
    obj = compile_c(tmp_path / "soft.c", tmp_path / "soft.o", "-O2", "-flto")
    (tmp_path / "d.toml").write_text(
        '[[entries]]\nkind = "gradient"\nfunction = "soft"\naugmented = "aug_soft"\n'
        'reverse = "rev_soft"\n')
    code, out = gradlink("fat", "build", "-o", tmp_path / "libsoft.a", obj,
                         "--derivatives", tmp_path / "d.toml")
    assert code == 0, out
    link([_user(tmp_path, "soft"), f"-L{tmp_path}", "-lsoft", "-lm"], tmp_path / "u").check()
    got = float(sh([tmp_path / "u"]).check().stdout)
    assert math.isclose(got, 2 / (1 + math.exp(-0.5)) + 1000, rel_tol=1e-14)


def test_manifest_naming_a_missing_symbol_is_refused_at_build(tmp_path: Path) -> None:
    (tmp_path / "soft.c").write_text(PLAIN_LIB)
    obj = compile_c(tmp_path / "soft.c", tmp_path / "soft.o", "-O2", "-flto")
    (tmp_path / "d.json").write_text(json.dumps({"entries": [
        {"kind": "gradient", "function": "soft", "augmented": "aug_soft", "reverse": "nope"}]}))
    code, out = gradlink("fat", "build", "-o", tmp_path / "libsoft.a", obj,
                         "--derivatives", tmp_path / "d.json")
    assert code != 0 and "'nope'" in out and "no object of the library defines" in out
    assert not (tmp_path / "libsoft.a").exists() and "Traceback" not in out


def _with_manifest(tmp: Path, payload: bytes) -> Path:
    """The library's object with its manifest section replaced by payload."""
    (tmp / "phys.c").write_text(LIB)
    obj = compile_c(tmp / "phys.c", tmp / "phys.o", "-O2", "-flto")
    assert gradlink("fat", "build", "-o", tmp / "libphys.a", obj)[0] == 0
    sh(["llvm-ar-22", "x", tmp / "libphys.a", "--output", tmp]).check()
    (tmp / "m.bin").write_bytes(payload)
    sh(["llvm-objcopy-22", "--update-section", f".gradlink.manifest={tmp / 'm.bin'}",
        tmp / "phys.o", tmp / "bad.o"]).check()
    return tmp / "bad.o"


@pytest.mark.parametrize("payload,needle", [
    (MAGIC + struct.pack("<II", 1, 5) + b"{oops", "corrupt derivative manifest"),
    (MAGIC + struct.pack("<II", 7, 2) + b"{}", "version 7 is newer"),
    (encode([{"kind": "gradient", "function": "kern", "augmented": "aug_kern",
              "reverse": "rev_kern", "signatures": {
                  "kern": {"ret": "float", "params": ["float"]},
                  "aug_kern": {"ret": "ptr", "params": ["double"]},
                  "rev_kern": {"ret": "double", "params": ["double", "double", "ptr"]}}}]),
     "does not match the program's"),
    (encode([{"kind": "gradient", "function": "kern", "augmented": "aug_kern",
              "reverse": "gone"}]), "'gone'"),
], ids=["corrupt", "future", "signature", "missing-symbol"])
def test_bad_manifest_is_an_ld_error(tmp_path: Path, payload: bytes, needle: str) -> None:
    if not have("llvm-objcopy-22"):
        pytest.skip("llvm-objcopy-22 not installed")
    bad = _with_manifest(tmp_path, payload)
    res = link([_user(tmp_path, "kern"), bad, "-lm"], tmp_path / "u")
    assert res.returncode != 0 and not (tmp_path / "u").exists()
    assert "ld.gradlink: error: " in res.stderr and needle in res.stderr, res.stderr
    assert "bad.o" in res.stderr and "Traceback" not in res.stderr


def test_conflicting_registrations_name_both(tmp_path: Path) -> None:
    (tmp_path / "phys.c").write_text(LIB)
    obj = compile_c(tmp_path / "phys.c", tmp_path / "phys.o", "-O2", "-flto")
    assert gradlink("fat", "build", "-o", tmp_path / "libphys.a", obj)[0] == 0
    (tmp_path / "user.c").write_text(USER.replace("FN", "kern") + r"""
void *my_aug(double x) { (void)x; return 0; }
double my_rev(double x, double d, void *t) { (void)x; (void)t; return d; }
void *__enzyme_register_gradient_mine[3] = {(void *)kern, (void *)my_aug, (void *)my_rev};
""")
    uobj = compile_c(tmp_path / "user.c", tmp_path / "user.o", "-O2", "-flto")
    res = link([uobj, f"-L{tmp_path}", "-lphys", "-lm"], tmp_path / "u")
    assert res.returncode != 0 and "registered twice, differently" in res.stderr
    assert "__enzyme_register_gradient_mine" in res.stderr and "libphys.a(phys.o)" in res.stderr


def test_manifest_chunks_concatenate() -> None:
    """Linkers concatenate same-named sections: a shared object's manifest is its objects'
    chunks one after another, with alignment padding between them."""
    a = encode([{"kind": "inactive", "function": "f"}])
    b = encode([{"kind": "function_like", "function": "g", "like": "log1p"}])
    m = decode(a + b"\0\0\0" + b, "lib.so")
    assert [e["kind"] for e in m.entries] == ["inactive", "function_like"]
    with pytest.raises(FormatError, match="unknown manifest entry kind"):
        body = b'{"entries":[{"kind":"x"}]}'
        decode(encode([]) + MAGIC + struct.pack("<II", 1, len(body)) + body, "x.o")
