/* An indirect call through a function-pointer table on active data. */
#include "ad.h"

typedef double (*unary)(double);
__attribute__((noinline)) double sq(double x) { return x * x; }
__attribute__((noinline)) double cube(double x) { return x * x * x; }
unary table[2] = {sq, cube};

double apply(double x, int k) { return table[k](x) + x; }

int main(int argc, char **argv) {
    (void)argv;
    int k = argc; /* 1: cube */
    double x = 1.5;
    double d = __enzyme_autodiff((void *)apply, x, k);
    check_exact("apply", d, 3 * x * x + 1.0);
    return ad_done();
}
