/* A loop clang vectorizes at -O2 (the test checks the object holds <2 x double> operations):
   y = a x + y with restrict pointers, then a scalar reduction of y. */
#include "ad.h"

static void axpy(double a, const double *restrict x, double *restrict y, int n) {
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

double axpy_loss(double a, const double *restrict x, double *restrict y, int n) {
    axpy(a, x, y, n);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += y[i] * y[i];
    return s;
}

#define N 32
static int n;
static double X[N], Y0[N];
/* p = (a, x[0..n), y[0..n)); y is overwritten, so work on copies */
static double loss_p(const double *p, void *c) {
    (void)c;
    double x[N], y[N];
    memcpy(x, p + 1, sizeof(double) * n);
    memcpy(y, p + 1 + n, sizeof(double) * n);
    return axpy_loss(p[0], x, y, n);
}

static __attribute__((noinline)) void init(void) {
    for (int i = 0; i < n; i++) {
        X[i] = sin(0.37 * i);
        Y0[i] = cos(0.11 * i) - 0.5;
    }
}

int main(int argc, char **argv) {
    (void)argv;
    n = argc + 30; /* 31: a vector body and a remainder */
    init();
    double a = 0.75;
    double x[N], y[N], dx[N] = {0}, dy[N] = {0};
    memcpy(x, X, sizeof x);
    memcpy(y, Y0, sizeof y);
    double da = __enzyme_autodiff((void *)axpy_loss, enzyme_out, a, enzyme_dup, x, dx,
                                  enzyme_dup, y, dy, enzyme_const, n);
    double p[1 + 2 * N];
    p[0] = a;
    memcpy(p + 1, X, sizeof(double) * n);
    memcpy(p + 1 + n, Y0, sizeof(double) * n);
    double want_da = 0;
    for (int i = 0; i < n; i++) {
        double yi = a * X[i] + Y0[i];
        want_da += 2 * yi * X[i];
        check_exact(lbl("dx", i), dx[i], 2 * yi * a);
        check_exact(lbl("dy", i), dy[i], 2 * yi);
        check_exact(lbl("y_primal", i), y[i], yi);
    }
    check_exact("da", da, want_da);
    check_fd("da", da, fd_partial(loss_p, p, 1 + 2 * n, 0, 0));
    for (int i = 0; i < n; i += 5) {
        check_fd(lbl("dx", i), dx[i], fd_partial(loss_p, p, 1 + 2 * n, 1 + i, 0));
        check_fd(lbl("dy", i), dy[i], fd_partial(loss_p, p, 1 + 2 * n, 1 + n + i, 0));
    }
    return ad_done();
}
