#!/usr/bin/env python3
"""Run gradlink (the repository's .venv one) and renumber every fresh value name it prints.

A check that the IR tests do not depend on the counters of fresh names (%"gl.fmul.4",
%"gf.t.2.0"): run lit with this script as the gradlink command; every test must still pass.

    /usr/lib/llvm-22/bin/lit -Dgradlink=tests/ir/renumber.py tests/ir

Names derived from the input keep their numbers: %"gf.darg.I.L", %"gl.shadow.I", %"gf.shadow.I.L"
(parameter index, lane).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

GRADLINK = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "gradlink"
FRESH = re.compile(r'%"(g[lf])\.([a-z]+)\.(\d+)(\.\d+)?"')


def renumber(m: re.Match[str]) -> str:
    if m.group(2) in ("darg", "shadow"):
        return m.group(0)
    return f'%"{m.group(1)}.{m.group(2)}.{int(m.group(3)) * 7 + 1000}{m.group(4) or ""}"'


def main() -> int:
    r = subprocess.run([str(GRADLINK), *sys.argv[1:]], capture_output=True, text=True)
    sys.stdout.write(FRESH.sub(renumber, r.stdout))
    sys.stderr.write(r.stderr)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
