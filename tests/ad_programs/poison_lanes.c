/* Found by the fuzzer (seed 911): the optimizer vectorizes x3 / q and x0 / q into one <2 x
   double> division and multiplies it by a shuffle whose second lane is poison, then uses lane 0
   only. The reverse of that multiplication gets a zero adjoint in lane 1, and zero times the
   poison lane was poison, which reached d x0 as NaN. */
#include "ad.h"

static void f(double *y, const double *x, int n) {
    (void)n;
    double s1 = (x[3] / (1.5 + x[0] * x[0])) * (x[0] / (1.5 + x[0] * x[0])) * 1.2 + x[0] * 3;
    double s2 = s1 * 1.5 + x[4] * 3;
    double s3 = s2;
    while (s3 < 1.655) s3 = s3 * 1.1 + 0.05 + 0.01 * s2 * s2;
    y[0] = s3 * x[3];
}

static double f_p(const double *p, void *c) {
    (void)c;
    double y[1];
    f(y, p, 5);
    return y[0];
}

int main(void) {
    double x[5], xb[5] = {0}, y[1] = {0}, yb[1] = {1};
    for (int i = 0; i < 5; i++) x[i] = 0.35 + 0.21 * i;
    __enzyme_autodiff((void *)f, enzyme_dupnoneed, y, yb, enzyme_dup, x, xb, enzyme_const, 5);
    for (int i = 0; i < 5; i++) check_fd(lbl("dx", i), xb[i], fd_partial(f_p, x, 5, i, 0));
    return ad_done();
}
