"""Entry point of ld.gradlink."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("ld.gradlink: error: not implemented yet", file=sys.stderr)
    return 1
