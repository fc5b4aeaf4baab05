"""The C ADBench objectives (benchmarks/adbench/ba.c, hand.c) built with gradlink.

Each program is compiled the way the benchmark harness does (-O2 -Xclang -disable-llvm-passes
-fno-math-errno -flto) and linked by ld.gradlink twice (default: optimize, then differentiate; and
--gradlink-ad-first). Run with REPS=1 on ADBench's tiny test.txt and the smallest real input, it
must print the key/value lines, exit 0, and its gradlink Jacobians (reverse and vector forward)
must agree with central finite differences. Malformed or truncated inputs must fail with exit 1
and `error: FILE: ...`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from toolchain import ROOT, compile_c, have, link, sh

SRC = ROOT / "benchmarks" / "adbench"
DATA = ROOT / "benchmarks" / "data" / "adbench"
MODEL = DATA / "hand" / "model"
KEYS = ["objective", "primal_ms", "jac_ms", "jac_rev_ms", "jac_fwd_ms", "fd_ms", "check_max_rel_err"]
MODES = {"default": (), "ad-first": ("-Wl,--gradlink-ad-first",)}

pytestmark = [
    pytest.mark.skipif(not have("clang-22"), reason="clang-22 not installed"),
]

_built: dict[tuple[str, str], Path] = {}


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("adbench")


def build(build_dir: Path, name: str, mode: str) -> Path:
    key = (name, mode)
    if key not in _built:
        obj = build_dir / f"{name}.o"
        if not obj.exists():
            compile_c(SRC / f"{name}.c", obj, "-O2", "-Xclang", "-disable-llvm-passes", "-fno-math-errno", "-flto")
        exe = build_dir / f"{name}-{mode}"
        link([obj, "-lm"], exe, "-O2", "-flto", *MODES[mode]).check(f"gradlink link of {name}.c ({mode})")
        _built[key] = exe
    return _built[key]


def run_ok(exe: Path, *args: str | Path) -> dict[str, float]:
    r = sh([exe, *args])
    assert r.returncode == 0, f"{exe.name} {args} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}"
    vals = {}
    for line in r.stdout.splitlines():
        k, v = line.split()
        vals[k] = float(v)
    assert list(vals) == KEYS, r.stdout
    assert vals["check_max_rel_err"] < 1e-5, r.stdout
    assert vals["jac_ms"] == min(vals["jac_rev_ms"], vals["jac_fwd_ms"])
    assert all(vals[k] >= 0 for k in KEYS[1:]), r.stdout
    return vals


def run_fails(exe: Path, *args: str | Path) -> str:
    r = sh([exe, *args])
    assert r.returncode == 1, f"expected exit 1, got {r.returncode}:\n{r.stdout}\n{r.stderr}"
    assert r.stderr.startswith("error: "), r.stderr
    assert "Traceback" not in r.stderr and r.stdout == "", (r.stdout, r.stderr)
    return r.stderr


BA_FILES = ["test.txt", "ba1_n49_m7776_p31843.txt"]
HAND_FILES = ["test.txt", "simple/hand1_t26_c100.txt", "complicated/hand1_t26_c100.txt"]


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("data", BA_FILES)
def test_ba(build_dir: Path, mode: str, data: str) -> None:
    vals = run_ok(build(build_dir, "ba", mode), DATA / "ba" / data, "1")
    assert vals["objective"] > 0


@pytest.mark.parametrize("mode", ["default", "ad-first"])
@pytest.mark.parametrize("data", HAND_FILES)
def test_hand(build_dir: Path, mode: str, data: str) -> None:
    vals = run_ok(build(build_dir, "hand", mode), DATA / "hand" / data, "1", MODEL)
    assert vals["objective"] > 0


def truncated(src: Path, dst: Path, keep: float) -> Path:
    text = src.read_text()
    dst.write_text(text[: int(len(text) * keep)])
    return dst


def test_ba_malformed(build_dir: Path, tmp_path: Path) -> None:
    exe = build(build_dir, "ba", "default")
    src = DATA / "ba" / "ba1_n49_m7776_p31843.txt"
    for keep in (0.0, 0.05, 0.5, 0.9):
        bad = truncated(src, tmp_path / f"ba_{keep}.txt", keep)
        assert str(bad) in run_fails(exe, bad, "1")
    bad = tmp_path / "ba_garbage.txt"
    bad.write_text(src.read_text().replace("419.194514", "419.19x4514"))
    run_fails(exe, bad, "1")
    bad.write_text(src.read_text().replace("49 7776", "49 -3"))
    run_fails(exe, bad, "1")
    run_fails(exe, tmp_path / "missing.txt", "1")


def test_hand_malformed(build_dir: Path, tmp_path: Path) -> None:
    exe = build(build_dir, "hand", "default")
    for data in HAND_FILES:
        src = DATA / "hand" / data
        for keep in (0.0, 0.3, 0.7, 0.97):
            bad = truncated(src, tmp_path / f"hand_{keep}.txt", keep)
            assert str(bad) in run_fails(exe, bad, "1", MODEL)
    # a correspondence that is not a model vertex
    bad = tmp_path / "hand_corr.txt"
    bad.write_text((DATA / "hand" / "test.txt").read_text().replace("309 ", "99999 ", 1))
    run_fails(exe, bad, "1", MODEL)
    # a truncated model file
    model = tmp_path / "model"
    shutil.copytree(MODEL, model)
    for f in ("bones.txt", "vertices.txt"):
        (model / f).chmod(0o644)
        truncated(MODEL / f, model / f, 0.5)
        assert str(model / f) in run_fails(exe, DATA / "hand" / "test.txt", "1", model)
        shutil.copyfile(MODEL / f, model / f)
