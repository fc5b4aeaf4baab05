// C++ new[]/delete[] of a temporary holding active values (compiled with clang++-22).
#include "ad.h"

extern "C" double poly_new(const double *x, int n) {
    double *t = new double[n];
    for (int i = 0; i < n; i++)
        t[i] = x[i] * x[i] + 1.0;
    double s = 1.0;
    for (int i = 0; i < n; i++)
        s *= t[i];
    delete[] t;
    return s;
}

static int N;
static double p_p(const double *p, void *) { return poly_new(p, N); }

int main(int argc, char **) {
    N = argc + 2; /* 3 */
    double x[3] = {0.5, -1.0, 2.0}, dx[3] = {0};
    __enzyme_autodiff((void *)poly_new, enzyme_dup, x, dx, enzyme_const, N);
    for (int i = 0; i < N; i++)
        check_fd(lbl("dx", i), dx[i], fd_partial(p_p, x, N, i, nullptr));
    return ad_done();
}
