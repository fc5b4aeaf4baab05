/* Memory overwritten in place across iterations: x[i] = sin(x[i]) * a + x[i-1] * 0.5, several
   sweeps; the reverse pass needs every overwritten value. */
#include "ad.h"

double sweeps(double a, double *x, int n, int iters) {
    for (int it = 0; it < iters; it++)
        for (int i = 1; i < n; i++)
            x[i] = sin(x[i]) * a + x[i - 1] * 0.5;
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * (i + 1);
    return s;
}

static int N, ITERS;
static double sw_p(const double *p, void *c) {
    (void)c;
    double x[6];
    memcpy(x, p + 1, sizeof(double) * N);
    return sweeps(p[0], x, N, ITERS);
}

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 5;      /* 6 */
    ITERS = argc + 2;  /* 3 */
    double p[7] = {0.9, 0.3, -0.2, 0.8, 1.1, -0.6, 0.4};
    double x[6], dx[6] = {0};
    memcpy(x, p + 1, sizeof x);
    double da = __enzyme_autodiff((void *)sweeps, p[0], enzyme_dup, x, dx, N, ITERS);
    check_fd("da", da, fd_partial(sw_p, p, 7, 0, 0));
    for (int i = 0; i < N; i++)
        check_fd(lbl("dx", i), dx[i], fd_partial(sw_p, p, 7, 1 + i, 0));
    return ad_done();
}
