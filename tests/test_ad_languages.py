"""Derivatives across languages: a Rust staticlib and a Fortran subroutine differentiated from C,
and a Rust program calling __enzyme_autodiff through an extern "C" variadic declaration."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from toolchain import CC, FC, compile_c, have, link, sh

ROSEN_RS = r"""
#[no_mangle]
pub extern "C" fn rosen(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let mut s = 0.0;
    for i in 0..n - 1 {
        s += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
    }
    s
}
"""

ROSEN_MAIN = r"""
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double rosen(const double *x, unsigned long n);
int main(void) {
  double x[4] = {1.2, 0.8, -0.5, 0.3}, d[4] = {0};
  __enzyme_autodiff((void *)rosen, enzyme_dup, x, d, enzyme_const, 4UL);
  for (int i = 0; i < 4; i++) printf("%.17g\n", d[i]);
  return 0;
}
"""

RUST_PROGRAM = r"""
use std::os::raw::c_int;
extern "C" {
    static enzyme_const: c_int;
    static enzyme_dup: c_int;
    fn __enzyme_autodiff(f: *const (), ...) -> f64;
}
#[no_mangle]
pub extern "C" fn energy(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    x.iter().enumerate().map(|(i, v)| (i as f64 + 1.0) * v.sin() * v).sum()
}
fn main() {
    let x = [0.5f64, 1.0, 2.0];
    let mut d = [0.0f64; 3];
    unsafe {
        __enzyme_autodiff(energy as *const (), enzyme_dup, x.as_ptr(), d.as_mut_ptr(),
                          enzyme_const, 3usize);
    }
    for v in d { println!("{:.17e}", v); }
}
"""

FORTRAN = r"""
subroutine energy(x, n, e) bind(c, name="energy")
  use iso_c_binding
  integer(c_int), value :: n
  real(c_double), intent(in) :: x(n)
  real(c_double), intent(out) :: e
  integer :: i
  e = 0.0d0
  do i = 1, n
    e = e + exp(-x(i)) * x(i)**2 + sqrt(1.0d0 + x(i)*x(i))
  end do
end subroutine
"""

FORTRAN_MAIN = r"""
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void energy(const double *x, int n, double *e);
int main(void) {
  double x[3] = {0.5, 1.5, -0.3}, dx[3] = {0}, e, de = 1.0;
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, 3, enzyme_dup, &e, &de);
  for (int i = 0; i < 3; i++) printf("%.17g\n", dx[i]);
  return 0;
}
"""


def rosen_grad(x: list[float]) -> list[float]:
    d = [0.0] * len(x)
    for i in range(len(x) - 1):
        a = x[i + 1] - x[i] ** 2
        d[i] += 200 * a * (-2 * x[i]) - 2 * (1 - x[i])
        d[i + 1] += 200 * a
    return d


def _close(got: list[float], want: list[float]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert math.isclose(g, w, rel_tol=1e-12, abs_tol=1e-12), (got, want)


@pytest.mark.skipif(not have("rustc"), reason="rustc not installed")
@pytest.mark.parametrize("panic", ["unwind", "abort"])
def test_rust_staticlib_differentiated_from_c(tmp_path: Path, panic: str) -> None:
    (tmp_path / "lib.rs").write_text(ROSEN_RS)
    sh(["rustc", "-O", "--crate-type=staticlib", "-C", "linker-plugin-lto", "-C", f"panic={panic}",
        "--edition", "2021", tmp_path / "lib.rs", "-o", tmp_path / "librosen.a"]).check("rustc")
    (tmp_path / "main.c").write_text(ROSEN_MAIN)
    obj = compile_c(tmp_path / "main.c", tmp_path / "main.o", "-O2", "-flto")
    link([obj, f"-L{tmp_path}", "-lrosen", "-lpthread", "-ldl", "-lm"], tmp_path / "p").check()
    got = [float(v) for v in sh([tmp_path / "p"]).check().stdout.split()]
    _close(got, rosen_grad([1.2, 0.8, -0.5, 0.3]))


@pytest.mark.skipif(not have("rustc"), reason="rustc not installed")
def test_rust_program_calls_enzyme_autodiff(tmp_path: Path) -> None:
    (tmp_path / "prog.rs").write_text(RUST_PROGRAM)
    sh(["rustc", "-O", "-C", f"linker={CC}", "-C", "link-arg=-fuse-ld=gradlink",
        "-C", "linker-plugin-lto", "--edition", "2021", tmp_path / "prog.rs",
        "-o", tmp_path / "prog"]).check("rustc with ld.gradlink")
    got = [float(v) for v in sh([tmp_path / "prog"]).check().stdout.split()]
    x = [0.5, 1.0, 2.0]
    _close(got, [(i + 1) * (math.sin(v) + v * math.cos(v)) for i, v in enumerate(x)])


def test_fortran_subroutine_differentiated_from_c(tmp_path: Path) -> None:
    (tmp_path / "k.f90").write_text(FORTRAN)
    sh([FC, "-O2", "-flto", "-c", tmp_path / "k.f90", "-o", tmp_path / "k.o"]).check("flang")
    (tmp_path / "m.c").write_text(FORTRAN_MAIN)
    obj = compile_c(tmp_path / "m.c", tmp_path / "m.o", "-O2", "-flto")
    rt = sh([CC, "-print-runtime-dir"]).check().stdout.strip()
    link([obj, tmp_path / "k.o", f"-L{rt}", "-lflang_rt.runtime", "-lm"], tmp_path / "p").check()
    got = [float(v) for v in sh([tmp_path / "p"]).check().stdout.split()]
    x = [0.5, 1.5, -0.3]
    _close(got, [math.exp(-v) * (2 * v - v * v) + v / math.sqrt(1 + v * v) for v in x])
