"""Where a derivative cannot be computed at run time, the program stops with a message instead
of returning a wrong gradient: an indirect call reaching a function with no derivative (the
dispatch covers the module's address-taken functions of the call's type;
tests/ad_programs/indirect_call.c checks the gradients), and an exception thrown inside a
differentiated function (tests/ad_programs/cxx_exceptions.cpp checks the normal path)."""

from __future__ import annotations

from pathlib import Path

from toolchain import CXX, compile_c, link, sh

UNKNOWN_TARGET = r"""
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
typedef double (*unary)(double);
__attribute__((noinline)) double sq(double x) { return x * x; }
unary table[2] = {sq, sqrt};        /* sqrt has no body in the program: no aug/rev to pick */
double apply(double x, int k) { return table[k](x); }
int main(int argc, char **argv) {
  (void)argv;
  printf("%g\n", __enzyme_autodiff((void *)apply, 1.5, argc - 1));   /* sq: fine */
  fflush(stdout);
  printf("%g\n", __enzyme_autodiff((void *)apply, 1.5, argc));       /* sqrt: stops */
  return 0;
}
"""


def test_indirect_call_to_a_function_without_a_derivative_stops_the_program(tmp_path: Path) -> None:
    """The dispatch of an indirect call covers the functions of the module; a pointer to any
    other function stops the program with a message instead of returning a wrong gradient."""
    src = tmp_path / "unknown.c"
    src.write_text(UNKNOWN_TARGET)
    obj = compile_c(src, tmp_path / "unknown.o", "-O2", "-flto", "-fno-math-errno")
    exe = tmp_path / "unknown"
    link([obj, "-lm"], exe).check()
    res = sh([exe])
    assert res.returncode != 0
    assert res.stdout.split() == ["3"]
    assert "indirect call reached a function without a derivative" in res.stderr


THROWS = r"""
#include <cstdio>
#include <stdexcept>
extern "C" double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) double checked_square(double x) {
  if (x < 0) throw std::domain_error("negative");
  return x * x;
}
extern "C" double guarded(double x) {
  try { return checked_square(x) * 2.0 + x; } catch (const std::exception &) { return 0.0; }
}
int main(int argc, char **) {
  std::printf("%g\n", guarded(-1.0));                               /* caught: 0 */
  std::printf("%g\n", __enzyme_autodiff((void *)guarded, 1.5));     /* 7 */
  std::fflush(stdout);
  std::printf("%g\n", __enzyme_autodiff((void *)guarded, -1.0 * argc));  /* throws: stops */
  return 0;
}
"""


def test_exception_inside_a_derivative_stops_the_program(tmp_path: Path) -> None:
    src = tmp_path / "throws.cpp"
    src.write_text(THROWS)
    obj = compile_c(src, tmp_path / "throws.o", "-O2", "-flto", compiler=CXX)
    exe = tmp_path / "throws"
    link([obj], exe, driver=CXX).check()
    res = sh([exe])
    assert res.returncode != 0
    assert res.stdout.split() == ["0", "7"]
    assert "an exception was thrown inside a differentiated function" in res.stderr


STRING_MAP = r"""
#include <cstdio>
#include <string>
#include <unordered_map>
int enzyme_dup;
template <typename T> extern void __enzyme_autodiff(void *, int, T &, T &);
using dict = std::unordered_map<std::string, double>;
void square(dict &v) { v["x"] = v["x"] * v["x"]; }
int main() {
  dict v, d;
  v["x"] = 3.0;
  d["x"] = 1.0;
  __enzyme_autodiff((void *)square, enzyme_dup, v, d);
  std::printf("%g\n", d["x"]);
  return 0;
}
"""


def test_string_keyed_map_is_refused_or_right(tmp_path: Path) -> None:
    """unordered_map<std::string, double> with exceptions: the key's hash is an invoke of
    std::_Hash_bytes on shadowed memory. Letting it through as inactive gave 1 instead of 6 (a
    silent wrong gradient; with -fno-exceptions the same code gives 6), so it is refused until
    the cause is found. Whatever changes, the link must stop cleanly or the answer be 6."""
    (tmp_path / "m.cpp").write_text(STRING_MAP)
    obj = compile_c(tmp_path / "m.cpp", tmp_path / "m.o", "-O2", "-flto", compiler=CXX)
    res = link([obj], tmp_path / "m", driver=CXX)
    if res.returncode != 0:
        assert "ld.gradlink: error: cannot differentiate" in res.stderr, res.stderr
        assert "Traceback" not in res.stderr
        return
    assert float(sh([tmp_path / "m"]).check().stdout) == 6.0


FLOAT_BITS = r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) double twice(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  u += 1ull << 52;                     /* the exponent plus one: 2x, as integer arithmetic */
  double y;
  memcpy(&y, &u, 8);
  return y;
}
int main(void) {
#ifdef FORWARD
  printf("%g\n", __enzyme_fwddiff((void *)twice, 1.5, 1.0));
#else
  printf("%g\n", __enzyme_autodiff((void *)twice, 1.5));
#endif
  return 0;
}
"""


def test_float_bit_tricks_are_refused_in_both_modes(tmp_path: Path) -> None:
    """Integer arithmetic on the bits of an active double has no derivative gradlink can
    synthesize: both modes refuse it at link time, naming the instruction. (Forward mode
    returned 0 instead of 2 until both modes used one legality pass.)"""
    src = tmp_path / "bits.c"
    src.write_text(FLOAT_BITS)
    for mode in ("FORWARD", "REVERSE"):
        obj = compile_c(src, tmp_path / f"{mode}.o", "-O2", "-flto", f"-D{mode}")
        res = link([obj], tmp_path / mode)
        assert res.returncode != 0, mode
        assert "cannot differentiate twice: the bits of an active float" in res.stderr, res.stderr
        assert "add i64" in res.stderr
        assert not (tmp_path / mode).exists()
