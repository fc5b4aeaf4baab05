"""`make fuzz N=...`: run the forward/reverse consistency check on N random programs (of 10
functions each, seeds after the ones CI runs) and keep every failing program's source and
report in fuzz-failures/."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from test_consistency import SEEDS, check_program  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-n", type=int, default=50, help="number of programs")
    ap.add_argument("--first-seed", type=int, default=max(SEEDS) + 1)
    ap.add_argument("--out", default=str(ROOT / "fuzz-failures"))
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    out = Path(args.out)
    seeds = range(args.first_seed, args.first_seed + args.n)

    def one(seed: int) -> tuple[int, list[str]]:
        with tempfile.TemporaryDirectory(prefix=f"gradlink-fuzz-{seed}-") as tmp:
            problems = check_program(seed, Path(tmp))
            if problems:
                out.mkdir(exist_ok=True)
                shutil.copy(Path(tmp) / f"prog{seed}.c", out / f"prog{seed}.c")
                (out / f"prog{seed}.txt").write_text("\n".join(problems) + "\n")
            return seed, problems

    failed = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for seed, problems in pool.map(one, seeds):
            status = "ok" if not problems else f"FAILED ({len(problems)})"
            print(f"seed {seed}: {status}")
            failed += bool(problems)
    print(f"{args.n - failed} passed, {failed} failed")
    if failed:
        print(f"failing programs and reports are in {out}/")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
