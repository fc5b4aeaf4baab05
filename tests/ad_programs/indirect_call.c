/* An indirect call through a function-pointer table on active data: the derivative picks the
   target's augmented forward and reverse (forward mode: its tangent function) at run time, for
   each entry of the table. */
#include "ad.h"

double __enzyme_fwddiff(void *, ...);

typedef double (*unary)(double);
__attribute__((noinline)) double sq(double x) { return x * x; }
__attribute__((noinline)) double cube(double x) { return x * x * x; }
unary table[2] = {sq, cube};

double apply(double x, int k) { return table[k](x) + x; }
static double apply_cube(double x) { return apply(x, 1); }

int main(int argc, char **argv) {
    (void)argv;
    int k = argc; /* 1: cube */
    double x = 1.5;
    double d = __enzyme_autodiff((void *)apply, x, k);
    check_exact("apply", d, 3 * x * x + 1.0);
    check_exact("apply0", __enzyme_autodiff((void *)apply, x, k - 1), 2 * x + 1.0);
    check_fd("applyfd", __enzyme_autodiff((void *)apply, 0.7, k), fd1(apply_cube, 0.7));
    check_exact("tangent", __enzyme_fwddiff((void *)apply, x, 1.0, k), 3 * x * x + 1.0);
    check_exact("tangent0", __enzyme_fwddiff((void *)apply, x, 1.0, k - 1), 2 * x + 1.0);
    return ad_done();
}
