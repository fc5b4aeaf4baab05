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


@main.command(name="ir")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--function", "-f", "functions", multiple=True,
              help="Only this function (repeatable); default: every defined function.")
@click.option("--print-cfg", is_flag=True, help="Blocks with predecessors, dominator, loop depth.")
@click.option("--print-types", is_flag=True, help="Type analysis: values and pointed-to memory.")
@click.option("--print-activity", is_flag=True,
              help="Activity analysis, each argument active by Enzyme's defaults unless --args.")
@click.option("--args", "arg_kinds", default=None,
              help="Activity of the arguments for --print-activity, e.g. 'dup,const,out'.")
def ir(file: str, functions: tuple[str, ...], print_cfg: bool, print_types: bool,
       print_activity: bool, arg_kinds: str | None) -> None:
    """Read an LLVM IR (.ll) or bitcode (.bc) FILE with gradlink's IR reader and print analyses."""
    from gradlink.irtool import run_ir
    try:
        for line in run_ir(file, functions, print_cfg, print_types, print_activity, arg_kinds):
            click.echo(line)
    except ValueError as e:
        raise click.ClickException(str(e)) from None


@main.command(name="include-dir")
def include_dir() -> None:
    """Print the folder holding gradlink.h (use: -I$(gradlink include-dir))."""
    from pathlib import Path
    click.echo(str(Path(__file__).resolve().parent / "include"))


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
