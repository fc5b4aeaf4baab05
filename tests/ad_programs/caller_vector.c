/* The caller of __enzyme_autodiff holds vectorized code with splat constants (here main's
   loop filling an array); only the caller is vectorized, the differentiated function is not. */
#include "ad.h"

double sumsq(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

int main(int argc, char **argv) {
    (void)argv;
    int n = argc + 15; /* 16 */
    double x[16], dx[16] = {0};
    for (int i = 0; i < n; i++)
        x[i] = 2.0 * i + 1.0;
    __enzyme_autodiff((void *)sumsq, x, dx, n);
    for (int i = 0; i < n; i++)
        check_exact(lbl("dx", i), dx[i], 2 * x[i]);
    return ad_done();
}
