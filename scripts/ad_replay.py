"""Replays recorded AD inputs and compares the results with the recorded ones.

Record with the AD compiler as it is (any link, the test suite, the fuzzer)::

    GRADLINK_AD_RECORD=/tmp/ad-corpus make test

then change the AD compiler and replay: every input must give the same module (or the same
error) as before: the same text, or text that LLVM reads as the same module (the same printed
module after llvmlite parses both; spelling such as `{ptr, ptr}` vs `{ ptr, ptr }` aside). A refactoring that claims "no behaviour change" shows it here first.

    python scripts/ad_replay.py /tmp/ad-corpus [--show N]
"""

from __future__ import annotations

import argparse
import difflib
import pickle
import sys
import time
from pathlib import Path

import llvmlite.binding as llvm

from gradlink.ad import driver
from gradlink.ad.errors import ADError


def _canonical(text: str) -> str:
    try:
        return str(llvm.parse_assembly(text, context=llvm.create_context()))
    except RuntimeError as e:
        return f"invalid: {e}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--show", type=int, default=3, help="print the first diffs of N cases")
    ap.add_argument("--rebase", type=Path, default=None, metavar="DIR",
                    help="write the recordings with today's results to DIR (a new baseline, "
                         "e.g. after a deliberate change of the output)")
    args = ap.parse_args()
    files = sorted(args.corpus.glob("*.pkl"))
    if not files:
        print(f"ad_replay: no recordings in {args.corpus}", file=sys.stderr)
        return 2
    same = differ = spelled = 0
    start = time.perf_counter()
    for path in files:
        case = pickle.loads(path.read_bytes())
        try:
            out, err = driver._differentiate(case["input"], case["hazards"]), None
        except ADError as e:
            out, err = None, str(e)
        if args.rebase is not None:
            args.rebase.mkdir(parents=True, exist_ok=True)
            (args.rebase / path.name).write_bytes(pickle.dumps(
                {**case, "output": out, "error": err}))
        if out == case["output"] and err == case["error"]:
            same += 1
            continue
        if out is not None and case["output"] is not None and \
                _canonical(out) == _canonical(case["output"]):
            same += 1
            spelled += 1
            continue
        differ += 1
        if differ <= args.show:
            print(f"== {path.name}: differs")
            old = _canonical(case["output"]) if case["output"] else f"error: {case['error']}"
            new = _canonical(out) if out else f"error: {err}"
            diff = difflib.unified_diff(old.splitlines(), new.splitlines(), "recorded",
                                        "now", lineterm="", n=1)
            print("\n".join(list(diff)[:60]))
    took = time.perf_counter() - start
    print(f"ad_replay: {same} same ({spelled} spelled differently), {differ} different, "
          f"of {len(files)} ({took:.1f} s)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
