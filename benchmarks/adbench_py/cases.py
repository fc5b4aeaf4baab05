"""Shared pieces of the PyTorch rewrites of the case studies (benchmarks/cases/*.c, *.cpp):
the size-spec argument ("n=2000" instead of a data file), parsed as the C programs do."""

from __future__ import annotations

import sys


def spec(text: str, key: str, default: int, lo: int, hi: int) -> int:
    for part in text.split(","):
        k, eq, v = part.partition("=")
        if k == key and eq:
            try:
                val = int(v)
            except ValueError:
                val = lo - 1
            if not lo <= val <= hi:
                print(f"error: {text}: malformed size spec for {key}", file=sys.stderr)
                raise SystemExit(1)
            return val
    return default
