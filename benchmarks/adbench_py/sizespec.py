"""The size-spec argument of the case studies ("n=2000" or "n=64,steps=10" instead of a data
file), parsed as benchmarks/cases/case.h's case_spec does. Free of torch and jax, so that both
the PyTorch and the JAX rewrites can import it."""

from __future__ import annotations

import sys


def spec(text: str, key: str, default: int, lo: int, hi: int) -> int:
    """The integer value of key in text; default when absent. A malformed value or one outside
    [lo, hi] ends the program with a one-line message on stderr and exit status 1."""
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
