"""The ``gradlink`` command: link, inspect inputs, report versions."""

from __future__ import annotations

import os
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


@main.command(name="ad")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the module here instead of standard output.")
@click.option("--function", "-f", "functions", multiple=True,
              help="Print only this function (repeatable), e.g. a derivative's name.")
def ad_command(file: str, output: str | None, functions: tuple[str, ...]) -> None:
    """Differentiate the __enzyme_* requests of an LLVM IR (.ll) or bitcode (.bc) FILE and print
    the module as the AD stage of a link leaves it: before any optimization, derivatives
    appended. What the IR tests (tests/ir, lit and FileCheck) read.

    \b
    Example:
      clang-22 -O1 -S -emit-llvm -Xclang -disable-llvm-passes f.c -o f.ll
      gradlink ad f.ll -f 'gl.rev.f'
    """
    from gradlink.irtool import run_ad
    try:
        text = run_ad(file, functions)
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    if output is None:
        click.echo(text, nl=False)
    else:
        with open(output, "w") as f:
            f.write(text)


@main.group()
def fat() -> None:
    """Fat libraries: native code, bitcode and a derivative manifest in one file.

    \b
    Examples:
      clang-22 -O2 -flto -c physics.c solver.c
      gradlink fat build -o libphys.a physics.o solver.o
      gradlink fat build -o libkern.a kernel.o --derivatives kernel-derivatives.toml
      gradlink fat build -o libphys.a physics.o --export-derivatives energy:reverse,forward
      gradlink fat strip-bitcode -o libphys-closed.a libphys.a
      gradlink fat inspect libphys.a

    The archive links with any linker as an ordinary static library; with -fuse-ld=gradlink
    the bitcode of the members a derivative needs replaces their native code, and the
    manifest's custom derivatives apply to the consumer's gradients (docs/fat-libraries.md).
    """


@fat.command(name="build")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="The fat archive to write (libNAME.a).")
@click.option("--derivatives", type=click.Path(exists=True, dir_okay=False),
              help="Manifest entries for code without Enzyme registrations (JSON or TOML).")
@click.option("--export-derivatives", "exports", multiple=True, metavar="SPEC",
              help="Compile derivatives of library functions now: FUNCTION[:MODES], MODES "
                   "from reverse,forward (default both); repeatable. Consumers then need no "
                   "bitcode of those functions (docs/fat-libraries.md).")
@click.option("-shared", "--shared", "shared", is_flag=True,
              help="Write a shared object (libNAME.so) instead of an archive; its manifest "
                   "and precompiled derivatives serve consumers' links and Python ctypes.")
@click.option("-l", "libs", multiple=True, metavar="LIB",
              help="With -shared: a library the shared object needs (-l m is always added).")
@click.option("--bitcode", "bitcode_pairs", multiple=True, metavar="NATIVE=BITCODE",
              help="Add BITCODE (a -flto object of the same source) to NATIVE, an object of a "
                   "compiler without fat LTO objects (flang-22, rustc); repeatable.")
@click.argument("objects", nargs=-1, required=True, type=click.Path(dir_okay=False))
def fat_build(output: str, derivatives: str | None, exports: tuple[str, ...], shared: bool,
              libs: tuple[str, ...], bitcode_pairs: tuple[str, ...],
              objects: tuple[str, ...]) -> None:
    """Make a fat archive (or with -shared a shared object) of OBJECTS (-flto bitcode or
    -ffat-lto-objects objects).

    Bitcode objects get native code (llc-22); Enzyme registrations found in the bitcode
    (__enzyme_register_gradient_*, ...) and the --derivatives entries go into the manifest.
    With --export-derivatives energy:reverse,forward the derivatives of energy are
    synthesized and compiled now, into one more member (gradlink_aug_energy,
    gradlink_rev_energy, gradlink_fwd_energy) named in the manifest.
    """
    from gradlink.fatbuild import BuildError, build
    pairs = {}
    for pair in bitcode_pairs:
        native, sep, bitcode = pair.partition("=")
        if not sep or not native or not bitcode:
            raise click.BadParameter(f"'{pair}': expected NATIVE=BITCODE", param_hint="--bitcode")
        pairs[native] = bitcode
    try:
        for line in build(output, list(objects), derivatives, list(exports), shared,
                          list(libs), pairs):
            click.echo(line)
    except BuildError as e:
        if os.path.exists(output):
            os.unlink(output)
        raise click.ClickException(str(e)) from None


@fat.command(name="strip-bitcode")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="The archive to write.")
@click.argument("library", type=click.Path(exists=True, dir_okay=False))
def fat_strip_bitcode(output: str, library: str) -> None:
    """Write LIBRARY without its bitcode: the closed-source variant.

    Native code, the derivative manifest and the precompiled derivatives stay, so consumers
    differentiate through the functions exported with --export-derivatives (only in the
    modes exported), and any linker links it. Example:

    
      gradlink fat build -o libphys.a phys.o --export-derivatives energy
      gradlink fat strip-bitcode -o libphys-closed.a libphys.a
    """
    from gradlink.fatbuild import BuildError, strip_bitcode
    try:
        for line in strip_bitcode(library, output):
            click.echo(line)
    except BuildError as e:
        if os.path.exists(output) and os.path.abspath(output) != os.path.abspath(library):
            os.unlink(output)
        raise click.ClickException(str(e)) from None


@fat.command(name="inspect")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
def fat_inspect(file: str) -> None:
    """Per member of FILE: native code, bitcode, and the derivative manifest."""
    from fatlib import FormatError
    from gradlink.fatbuild import inspect as describe
    try:
        for line in describe(file):
            click.echo(line)
    except FormatError as e:
        raise click.ClickException(str(e)) from None


@main.command(name="include-dir")
def include_dir() -> None:
    """Print the folder holding gradlink.h (use: -I$(gradlink include-dir))."""
    from pathlib import Path
    click.echo(str(Path(__file__).resolve().parent / "include"))


@main.command(name="clang-plugin")
@click.option("--rebuild", is_flag=True, help="Build it again even when the cache has it.")
def clang_plugin(rebuild: bool) -> None:
    """Print the path of gradlink's clang plugin, building it on first use.

    \b
    Use:
      clang-22 -O2 -flto -fplugin=$(gradlink clang-plugin) -c physics.c

    \b
    With it, clang understands Enzyme's source attributes, which plain clang
    drops with a warning:
      __attribute__((enzyme_inactive))                functions and globals
      __attribute__((enzyme_inactive_noblock))        functions
      __attribute__((enzyme_function_like("log1p")))  functions
      __attribute__((enzyme_shadow(x_shadow)))        globals: x_shadow is the shadow
    and every function a registration names (__enzyme_register_gradient_*,
    __enzyme_function_like, __enzyme_inactivefn, ...) is kept from being inlined
    before the link, so ld.gradlink never has to refuse the link for it.
    Built with clang++-22 against the clang-22 headers (Debian: libclang-22-dev)
    into $GRADLINK_CACHE_DIR (default ~/.cache/gradlink).
    """
    from gradlink.clangplugin import PluginError, plugin_path
    try:
        click.echo(str(plugin_path(rebuild)))
    except PluginError as e:
        raise click.ClickException(str(e)) from None


@main.command(name="cmake-dir")
def cmake_dir() -> None:
    """Print the folder holding GradlinkFat.cmake, the CMake module for fat libraries.

    \b
    Use:
      cmake -DCMAKE_MODULE_PATH=$(gradlink cmake-dir) -S . -B build
    and in CMakeLists.txt:
      include(GradlinkFat)
      gradlink_add_fat_library(phys SOURCES physics.c EXPORT_DERIVATIVES energy)
      target_link_libraries(app PRIVATE phys)
    """
    from pathlib import Path
    click.echo(str(Path(__file__).resolve().parent / "cmake"))


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
