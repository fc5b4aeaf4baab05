"""Diagnostics of ld.gradlink: ld-style errors and warnings, and the verbose stage log."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

PROG = "ld.gradlink"


class LinkError(Exception):
    """A link that cannot go on. The message is printed as ``ld.gradlink: error: MESSAGE``."""


def warn(message: str) -> None:
    print(f"{PROG}: warning: {message}", file=sys.stderr)


def error(message: str) -> None:
    for i, line in enumerate(message.splitlines() or [""]):
        print(f"{PROG}: error: {line}" if i == 0 else line, file=sys.stderr)


class Log:
    """The ``--gradlink-verbose`` log: one line per stage with its wall time, plus details."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.perf_counter()
        self.times: dict[str, float] = {}

    def note(self, message: str) -> None:
        if self.enabled:
            print(f"{PROG}: {message}", file=sys.stderr)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            dt = time.perf_counter() - t0
            self.times[name] = self.times.get(name, 0.0) + dt
            self.note(f"stage {name}: {dt * 1000:.1f} ms")
