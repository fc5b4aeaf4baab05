"""A link stopped by a signal (Ctrl-C: SIGINT; make -j stopping its jobs: SIGTERM, SIGHUP)
leaves nothing behind: its child process (opt-22, llc-22, ld.lld-22) is killed, its temporary
folder removed, no output file written, and it exits with 128 + the signal's number, as lld
would."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from test_cli import LD, lld_args
from toolchain import CC, compile_c, have

pytestmark = pytest.mark.skipif(not (have(CC) and have("opt-22")), reason="toolchain missing")


def _big_unit(tmp: Path) -> Path:
    """A bitcode object whose optimization takes a few seconds (many functions to inline)."""
    fns = "\n".join(
        f"__attribute__((noinline)) double f{i}(double x) {{ double s = x; "
        f"for (int k = 0; k < {3 + i % 5}; k++) s = s * 1.0001 + f{max(i - 1, 0)}(s - k) * "
        f"{(i % 7) + 1}e-9; return s; }}" if i else "double f0(double x) { return x * 0.5; }"
        for i in range(3000))
    (tmp / "big.c").write_text(fns + "\nint main(void) { return (int)f2999(1.0); }\n")
    return compile_c(tmp / "big.c", tmp / "big.o", "-O1", "-flto")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP],
                         ids=["SIGTERM", "SIGINT", "SIGHUP"])
def test_stopped_link_leaves_nothing(tmp_path: Path, sig: signal.Signals) -> None:
    obj = _big_unit(tmp_path)
    out = tmp_path / "prog"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    p = subprocess.Popen([LD, *lld_args([obj], out, tmp_path)], cwd=tmp_path, env=env,
                         stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    # stop it while a child process works in its temporary folder
    while time.monotonic() < deadline and p.poll() is None:
        busy = [d for d in scratch.glob("gradlink-*") if any(d.iterdir())]
        if busy:
            break
        time.sleep(0.02)
    assert p.poll() is None, "the link ended before it could be stopped: make the unit bigger"
    time.sleep(0.3)
    p.send_signal(sig)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 128 + sig, err
    assert "Traceback" not in err and "ld.gradlink: error: " in err
    assert not out.exists()
    assert list(scratch.iterdir()) == [], list(scratch.iterdir())
    # no child left running in the removed folder
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert str(scratch) not in ps
