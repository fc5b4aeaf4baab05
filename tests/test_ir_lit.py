"""The IR tests (tests/ir): lit runs every .ll file's RUN lines, FileCheck checks the output."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

LLVM_BIN = Path("/usr/lib/llvm-22/bin")
HERE = Path(__file__).parent


def test_ir_tests_pass() -> None:
    lit = LLVM_BIN / "lit"
    if not lit.exists():
        pytest.fail("lit of LLVM 22 is missing (/usr/lib/llvm-22/bin/lit, package llvm-22-tools)")
    gradlink = Path(sys.executable).parent / "gradlink"
    assert gradlink.exists(), gradlink
    files = list((HERE / "ir").rglob("*.ll"))
    assert len(files) >= 1
    r = subprocess.run([str(lit), "-q", "-j", "2", f"-Dgradlink={gradlink}", str(HERE / "ir")],
                       capture_output=True, text=True)
    assert r.returncode == 0, (r.stdout + r.stderr)[-8000:]
    assert shutil.which("FileCheck", path=str(LLVM_BIN))
