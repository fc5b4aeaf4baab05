"""gradlink's clang plugin (gradlink/clang/gradlink_clang.cpp, `gradlink clang-plugin`).

Each program is compiled by clang-22 with ``-O2 -flto -fplugin=<plugin>``, linked with
``-fuse-ld=gradlink`` and run; it prints ``name value want`` lines checked here. The values are
derivatives whose expected numbers differ from what the same program gives without the plugin
(where clang drops the attribute with a warning, or inlines a registered function before the
link): a test that passes only because the attribute did its job.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from toolchain import BIN_DIR, CC, CXX, have, sh, tool_env

pytestmark = pytest.mark.skipif(not (have(CC) and have("ld.gradlink")),
                                reason=f"{CC} or ld.gradlink not available")

CHECKS = r"""
#include <math.h>
#include <stdio.h>
static int failures;
static void check(const char *name, double got, double want) {
    int ok = fabs(got - want) <= 1e-10 * (1 + fabs(want));
    printf("%s %s %.17g %.17g\n", ok ? "ok" : "WRONG", name, got, want);
    failures += !ok;
}
"""


@pytest.fixture(scope="module")
def plugin() -> Path:
    r = sh([BIN_DIR / "gradlink", "clang-plugin"], env=tool_env())
    if r.returncode != 0 and "headers are missing" in r.stderr:
        pytest.skip(r.stderr.strip())
    r.check("gradlink clang-plugin")
    path = Path(r.stdout.strip())
    assert path.is_file() and path.suffix == ".so"
    return path


def build(tmp: Path, plugin: Path | None, source: str, cxx: bool = False,
          extra: tuple[str, ...] = ()) -> tuple[int, str]:
    """Compile (with the plugin, when given) and link with gradlink; (exit status, output)."""
    src = tmp / ("prog.cpp" if cxx else "prog.c")
    src.write_text(CHECKS + source)
    exe = tmp / "prog"
    flags = ["-O2", "-flto", *extra] + ([f"-fplugin={plugin}"] if plugin else [])
    r = sh([CXX if cxx else CC, *flags, "-c", src, "-o", tmp / "prog.o"], env=tool_env())
    if r.returncode != 0:
        return r.returncode, r.stderr
    r = sh([CXX if cxx else CC, "-flto", "-fuse-ld=gradlink", tmp / "prog.o", "-lm", "-o", exe],
           env=tool_env())
    if r.returncode != 0:
        return r.returncode, r.stderr
    r = sh([exe])
    return r.returncode, r.stdout + r.stderr


def checked(out: str) -> dict[str, str]:
    lines = [ln.split() for ln in out.splitlines() if ln.startswith(("ok ", "WRONG "))]
    return {ln[1]: ln[0] for ln in lines}


INACTIVE = r"""
double __enzyme_autodiff(void *, ...);

/* bookkeeping the derivative must not see: treated as constants */
__attribute__((enzyme_inactive)) double tracked(double x) { return 3.0 * x; }
__attribute__((enzyme_inactive_noblock)) double weight(double x) { return x * x; }
__attribute__((enzyme_inactive)) double history[4];
__attribute__((noinline)) void record(double v) { history[0] = v; }

double f(double x) {
    record(x);                            /* an active value into inactive memory, read back */
    return x * x + tracked(x) + weight(x) * 2.0 + history[0];
}

int main(void) {
    double x = 1.5;
    check("inactive", __enzyme_autodiff((void *)f, x), 2 * x);
    return failures;
}
"""


def test_enzyme_inactive_functions_and_globals(plugin: Path, tmp_path: Path) -> None:
    rc, out = build(tmp_path, plugin, INACTIVE)
    assert rc == 0 and checked(out) == {"inactive": "ok"}, out
    # without the plugin clang drops the attributes (a warning) and the derivative is another
    rc, out = build(tmp_path, None, INACTIVE)
    assert checked(out) == {"inactive": "WRONG"}, out


FUNCTION_LIKE = r"""
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* a cheap approximation whose derivative is taken to be log1p's: 1 / (1 + x) */
__attribute__((enzyme_function_like("log1p"))) double fast_log1p(double x) {
    return x - x * x / 2 + x * x * x / 3;
}

double f(double x) { return 2.0 * fast_log1p(x * x); }

int main(void) {
    double x = 0.3, want = 2.0 * 2 * x / (1 + x * x);
    check("reverse", __enzyme_autodiff((void *)f, x), want);
    check("forward", __enzyme_fwddiff((void *)f, x, 1.0), want);
    return failures;
}
"""


def test_enzyme_function_like(plugin: Path, tmp_path: Path) -> None:
    rc, out = build(tmp_path, plugin, FUNCTION_LIKE)
    assert rc == 0 and checked(out) == {"reverse": "ok", "forward": "ok"}, out


SHADOW = r"""
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double scale_shadow;
__attribute__((enzyme_shadow(scale_shadow))) double scale = 2.0;
struct Params {
    static double offset_shadow;
    __attribute__((enzyme_shadow(offset_shadow))) static double offset;
};
double Params::offset_shadow;
double Params::offset = 1.0;

__attribute__((noinline)) double f(double x) { return scale * x * x + Params::offset * sin(x); }

int main() {
    double x = 0.7;
    check("dx", __enzyme_autodiff((void *)f, x), 2 * scale * x + Params::offset * cos(x));
    check("dscale", scale_shadow, x * x);                 /* adjoints land in the shadows */
    check("doffset", Params::offset_shadow, sin(x));
    check("dx_again", __enzyme_autodiff((void *)f, x), 2 * scale * x + Params::offset * cos(x));
    check("accumulated", scale_shadow, 2 * x * x);       /* the program zeroes them, not gradlink */
    scale_shadow = 1.0;                                   /* forward: the tangents seeded there */
    Params::offset_shadow = -0.5;
    check("tangent", __enzyme_fwddiff((void *)f, x, 0.0), x * x - 0.5 * sin(x));
    return failures;
}
"""


def test_enzyme_shadow_on_globals(plugin: Path, tmp_path: Path) -> None:
    rc, out = build(tmp_path, plugin, SHADOW, cxx=True)
    assert rc == 0 and set(checked(out).values()) == {"ok"} and len(checked(out)) == 6, out


REGISTERED = r"""
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
static int tangent_calls, reverse_calls;

/* registered derivatives of functions defined, without noinline, beside their callers */
double square(double x) { return x * x; }
double square_tangent(double x, double dx) { tangent_calls++; return 2 * x * dx; }
void *__enzyme_register_derivative_square[] = {(void *)square, (void *)square_tangent};

double cube(double x) { return x * x * x; }
void cube_aug(double x) { (void)x; }
double cube_rev(double x, double d) { reverse_calls++; return 3 * x * x * d; }
void *__enzyme_register_gradient_cube[] = {(void *)cube, (void *)cube_aug, (void *)cube_rev};

double f(double x) { return square(x) + cube(x); }

int main(void) {
    double x = 1.25;
    check("forward", __enzyme_fwddiff((void *)f, x, 1.0) - 3 * x * x, 2 * x);
    check("reverse", __enzyme_autodiff((void *)f, x) - 2 * x, 3 * x * x);
    check("tangent_used", tangent_calls, 1);
    check("reverse_used", reverse_calls, 1);
    return failures;
}
"""


def test_registered_functions_stay_calls(plugin: Path, tmp_path: Path) -> None:
    """Without the plugin the link is refused (the compile may have inlined square and cube);
    with it they are kept whole and their registered derivatives are used."""
    rc, out = build(tmp_path, None, REGISTERED)
    assert rc != 0 and "defined, without noinline, in the same translation unit" in out, out
    rc, out = build(tmp_path, plugin, REGISTERED)
    assert rc == 0 and set(checked(out).values()) == {"ok"} and len(checked(out)) == 4, out


@pytest.mark.parametrize("decl, message", [
    ("__attribute__((enzyme_nofree)) double g(double x) { return x; }",
     "enzyme_nofree is an Enzyme attribute gradlink does not implement"),
    ("__attribute__((enzyme_sparse_accumulate)) double g(double x) { return x; }",
     "enzyme_sparse_accumulate is an Enzyme attribute gradlink does not implement"),
    ("__attribute__((enzyme_function_like(42))) double g(double x) { return x; }",
     "enzyme_function_like takes the name of a function"),
    ("double s; __attribute__((enzyme_shadow(nothing_here))) double g;",
     "enzyme_shadow takes the global variable holding the shadow"),
    ("float s; __attribute__((enzyme_shadow(s))) double g;",
     "the shadow of a global variable must have the variable's type"),
])
def test_attribute_errors(plugin: Path, tmp_path: Path, decl: str, message: str) -> None:
    rc, out = build(tmp_path, plugin, decl + "\nint main(void) { return 0; }\n")
    assert rc != 0 and message in out, out


def test_cli_help_names_the_attributes() -> None:
    r = sh([BIN_DIR / "gradlink", "clang-plugin", "--help"], env=tool_env()).check()
    for attr in ("enzyme_inactive", "enzyme_function_like", "enzyme_shadow", "-fplugin="):
        assert attr in r.stdout
