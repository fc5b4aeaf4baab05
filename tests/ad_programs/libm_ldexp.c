/* ldexp from libm: scaling by a power of two (derivative 2^n in x). */
#include "ad.h"

double f_ldexp(double x, int n) { return ldexp(x * x, n); }

int main(int argc, char **argv) {
    (void)argv;
    int n = argc + 2; /* 3 */
    check_exact("ldexp", __enzyme_autodiff((void *)f_ldexp, 1.5, n), 8 * 3.0);
    return ad_done();
}
