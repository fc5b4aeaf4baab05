"""The ``gradlink`` command: link, inspect inputs, report versions."""

from __future__ import annotations

import sys

import click

from gradlink import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """gradlink: gradients of native code at link time.

    Compile with -flto and link with `-fuse-ld=gradlink` (the driver runs ld.gradlink), or
    call `gradlink link` with GNU ld arguments directly.
    """


@main.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False,
                                "help_option_names": []})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def link(args: tuple[str, ...]) -> None:
    """Link like ld.gradlink: ARGS are GNU ld arguments (see `ld.gradlink --help`)."""
    from lto.driver import main as ld_main
    sys.exit(ld_main(list(args)))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--symbols", "-s", is_flag=True, help="List the global symbols of each object.")
def inspect(file: str, symbols: bool) -> None:
    """Say what FILE is to the linker: bitcode, native or fat object, archive members, DSO."""
    from gradlink.inspect import describe
    try:
        for line in describe(file, symbols):
            click.echo(line)
    except OSError as e:
        raise click.ClickException(f"{file}: {e.strerror}") from None
    except ValueError as e:
        raise click.ClickException(str(e)) from None


@main.command()
def version() -> None:
    """Print the versions of gradlink, llvmlite, LLVM and the native linker."""
    import llvmlite
    import llvmlite.binding as llvm

    from lto.diag import LinkError
    from lto.native import find_lld
    try:
        lld = find_lld()
    except LinkError as e:
        lld = f"not found ({e})"
    major, minor, patch = llvm.llvm_version_info
    click.echo(f"gradlink {__version__}")
    click.echo(f"llvmlite {llvmlite.__version__} (LLVM {major}.{minor}.{patch})")
    click.echo(f"native linker: {lld}")
