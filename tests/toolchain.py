"""Helpers for tests that drive the real LLVM 22 toolchain.

Every test compiles real sources with clang-22 / clang++-22 / flang-22 / rustc and links them twice:
once with ``-fuse-ld=gradlink`` (our ld.gradlink, found next to the running Python) and once with
``-fuse-ld=lld`` as the reference. Nothing here is mocked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
BIN_DIR = Path(sys.executable).parent

CC = "clang-22"
CXX = "clang++-22"
FC = "flang-22"
AR = "llvm-ar-22"


def sample_files(sample: str) -> list[str]:
    """Files of a sample's source tree, ignoring demo.sh's gitignored out/ directory: building
    a sample must not change them."""
    root = SAMPLES / sample
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if p.relative_to(root).parts[0] != "out")


def tool_env() -> dict[str, str]:
    """Environment whose PATH finds ld.gradlink (the venv's bin directory) first."""
    env = dict(os.environ)
    env["PATH"] = f"{BIN_DIR}{os.pathsep}{env.get('PATH', '')}"
    return env


def have(tool: str) -> bool:
    return shutil.which(tool, path=tool_env()["PATH"]) is not None


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str

    def check(self, what: str = "command") -> Result:
        assert self.returncode == 0, f"{what} failed ({self.returncode}):\n{self.stdout}\n{self.stderr}"
        return self


def sh(args: list[str | os.PathLike[str]], cwd: Path | None = None, input: str | None = None,
       timeout: float = 600, env: dict[str, str] | None = None) -> Result:
    """Run a command, capturing its output; never raises on a non-zero exit."""
    p = subprocess.run([str(a) for a in args], cwd=cwd, input=input, capture_output=True, text=True,
                       timeout=timeout, env=env or tool_env())
    return Result(p.returncode, p.stdout, p.stderr)


def compile_c(src: Path, out: Path, *flags: str, compiler: str = CC) -> Path:
    """Compile one source to an object (``-c``); flags choose LTO mode, e.g. ``-flto=thin``."""
    sh([compiler, "-c", *flags, src, "-o", out]).check(f"{compiler} {src.name}")
    return out


def link(objs: list[str | os.PathLike[str]], out: Path, *flags: str, linker: str = "gradlink",
         driver: str = CC) -> Result:
    """Link with the compiler driver and ``-fuse-ld=LINKER``; returns the result unchecked."""
    return sh([driver, f"-fuse-ld={linker}", *flags, *objs, "-o", out])


def link_both(objs: list[str | os.PathLike[str]], out_dir: Path, name: str, *flags: str,
              driver: str = CC) -> tuple[Path, Path]:
    """Link the same inputs with gradlink and with lld; both must succeed."""
    g = out_dir / f"{name}.gradlink"
    r = out_dir / f"{name}.lld"
    link(objs, g, *flags, linker="gradlink", driver=driver).check(f"gradlink link of {name}")
    link(objs, r, *flags, linker="lld", driver=driver).check(f"lld link of {name}")
    return g, r


def run(exe: Path, *args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    return sh([exe, *args], input=input, env=env)


def assert_same_behaviour(a: Path, b: Path, *args: str, input: str | None = None,
                          env: dict[str, str] | None = None) -> Result:
    """Run both programs; exit code, stdout and stderr must be identical. Returns a's result."""
    ra = run(a, *args, input=input, env=env)
    rb = run(b, *args, input=input, env=env)
    assert (ra.returncode, ra.stdout, ra.stderr) == (rb.returncode, rb.stdout, rb.stderr), (
        f"{a.name} and {b.name} differ:\n--- {a.name} ({ra.returncode})\n{ra.stdout}{ra.stderr}"
        f"\n--- {b.name} ({rb.returncode})\n{rb.stdout}{rb.stderr}")
    return ra


# --- ELF inspection (used to compare what the two linkers produced) ---------------------------

READELF = "llvm-readelf-22"
NM = "llvm-nm-22"


def dynamic_tags(path: Path) -> list[tuple[str, str]]:
    """The dynamic section as (tag, value) pairs, e.g. ("NEEDED", "libc.so.6"), in file order."""
    out = sh([READELF, "-d", path]).check(f"readelf -d {path.name}").stdout
    tags = []
    for line in out.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[0].startswith("0x") and parts[1].startswith("("):
            value = parts[2]
            if "[" in value and value.endswith("]"):
                value = value[value.index("[") + 1:-1]
            tags.append((parts[1].strip("()"), value))
    return tags


def needed(path: Path) -> list[str]:
    """DT_NEEDED entries in order."""
    return [v for t, v in dynamic_tags(path) if t == "NEEDED"]


def dynamic_symbols(path: Path) -> set[str]:
    """Names of the defined symbols in the dynamic symbol table (with @version / @@version)."""
    out = sh([NM, "-D", "--defined-only", "--format=just-symbols", path]).check(f"nm -D {path.name}").stdout
    return set(out.split())
