"""Entry point of ld.gradlink: a GNU-ld-compatible linker that runs LTO (and AD) itself."""

from __future__ import annotations

import os
import signal
import sys
import traceback

from lto import options, pipeline
from lto.diag import LinkError, error


class Stopped(BaseException):
    """SIGTERM or SIGHUP (make -j stopping its jobs): unwinds like Ctrl-C, so the temporary
    folder is removed, the child process (opt-22, llc-22, ld.lld-22) is killed by
    subprocess.run, and no output file stays behind."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, frame: object) -> None:
    raise Stopped(signum)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in (["--version"], ["-v"], ["-V"]):
        from gradlink import __version__
        print(f"ld.gradlink {__version__} (LLVM 22 LTO, GNU ld compatible; native link by ld.lld-22)")
        return 0
    if args in (["--help"], ["-help"]):
        print(USAGE)
        return 0
    output = None
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    try:
        opts = options.parse(args)
        output = opts.output
        code = pipeline.link(opts)
    except LinkError as e:
        error(str(e))
        code = 1
    except KeyboardInterrupt:
        error("interrupted")
        code = 130
    except Stopped as e:
        error(f"stopped by {signal.Signals(e.signum).name}")
        code = 128 + e.signum
    except Exception as e:  # a bug of ours: say so plainly, never a bare traceback
        error(f"internal error: {type(e).__name__}: {e} (set GRADLINK_DEBUG=1 for a traceback)")
        if os.environ.get("GRADLINK_DEBUG"):
            traceback.print_exc()
        code = 1
    if code != 0 and output:
        pipeline.remove_output(output)
    return code if code == 0 or code > 128 else 1


USAGE = """\
Usage: ld.gradlink [GNU ld options] FILES...

A linker for LLVM bitcode from clang-22, clang++-22, flang-22 and rustc 1.95: it merges all
bitcode (plain -flto objects, archive members), internalizes, optimizes, differentiates the
__enzyme_* requests, generates native code and hands the result to ld.lld-22 with the rest of
the command line. Use it through the compiler driver:

  clang-22 -flto -fuse-ld=gradlink a.o b.o -o app

ld.gradlink's own options (pass them with -Wl,):
  --gradlink-verbose          print each stage, its time and the archive members it pulled
  --gradlink-save-temps=DIR   keep merged.bc, ad.ll (with derivatives), optimized.ll and
                              lto.o in DIR
  --gradlink-ad-first         differentiate the IR as compiled, before any optimization
                              (ablation: AD after optimization is the default)
  --gradlink-backend=B        tools: optimize/codegen with opt-22 and llc-22 (default when
                              installed); llvmlite: in-process (slower: assertion build)

Interpreted GNU ld options: -o -L -l -l:FILE -Bstatic -Bdynamic -static -shared -pie -no-pie
--start-group --end-group --whole-archive --no-whole-archive --as-needed --no-as-needed -u -e
--export-dynamic --version-script --dynamic-list -plugin -plugin-opt=O0..O3,mcpu=CPU (other
plugin options are ignored), -mllvm (ignored with a warning). Every other option is passed to
ld.lld-22 unchanged. GRADLINK_LLD=PATH selects another native linker.
"""


if __name__ == "__main__":
    sys.exit(main())
