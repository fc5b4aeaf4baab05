"""The gradlink command."""

from __future__ import annotations

import click


@click.group()
def main() -> None:
    """gradlink: gradients of native code at link time."""
