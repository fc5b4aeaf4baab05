"""`make bench-quick`: the benchmark harness builds the ADBench objectives with gradlink, checks
every gradient against finite differences and writes RESULTS.md (timings are not checked)."""

from __future__ import annotations

import sys
from pathlib import Path

from toolchain import ROOT, sh


def test_bench_quick(tmp_path: Path) -> None:
    res = sh([sys.executable, ROOT / "benchmarks" / "adbench_run.py", "--quick", "--reps", "1",
              "--out", tmp_path])
    assert res.returncode == 0, res.stdout + res.stderr
    text = (tmp_path / "RESULTS.md").read_text()
    assert "| GMM | 1k d2 K5 |" in text and "| LSTM | l2 c1024 |" in text
    assert "Machine:" in text


def test_malformed_data_fails_cleanly(tmp_path: Path) -> None:
    data = ROOT / "benchmarks" / "data" / "adbench" / "gmm" / "1k" / "gmm_d2_K5.txt"
    cut = tmp_path / "cut.txt"
    cut.write_text(data.read_text()[:500])
    src = ROOT / "benchmarks" / "adbench" / "gmm.c"
    sh(["clang-22", "-O2", "-flto", "-c", src, "-o", tmp_path / "g.o"]).check()
    sh(["clang-22", "-flto", "-fuse-ld=gradlink", tmp_path / "g.o", "-lm", "-o", tmp_path / "g"]).check()
    res = sh([tmp_path / "g", cut, "1"])
    assert res.returncode == 1 and f"error: {cut}: unexpected end of file" in res.stderr
