/* Outputs written into an array: y = A x. The gradient comes from enzyme_dup on y with a seeded
   shadow dy: dx += A^T dy, dA += dy x^T; the shadow of y is consumed (zeroed). */
#include "ad.h"

void matvec(const double *A, const double *x, double *y, int m, int n) {
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            s += A[i * n + j] * x[j];
        y[i] = s;
    }
}

/* the same seeded gradient as a scalar function: sum_i w_i (A x)_i */
static double W[3] = {1.0, -2.0, 0.5};
static double seeded(const double *p, void *c) {
    (void)c;
    double y[3];
    matvec(p, p + 12, y, 3, 4);
    return W[0] * y[0] + W[1] * y[1] + W[2] * y[2];
}

static __attribute__((noinline)) void init(double *A, double *x) {
    for (int k = 0; k < 12; k++)
        A[k] = 0.1 * k - 0.4 + (k % 3) * 0.3;
    for (int k = 0; k < 4; k++)
        x[k] = 1.0 - 0.7 * k;
}

int main(void) {
    double p[16];
    double *A = p, *x = p + 12;
    init(A, x);
    double y[3], dA[12] = {0}, dx[4] = {0}, dy[3] = {W[0], W[1], W[2]};
    __enzyme_autodiff_void((void *)matvec, enzyme_dup, A, dA, enzyme_dup, x, dx,
                           enzyme_dup, y, dy, enzyme_const, 3, enzyme_const, 4);
    for (int j = 0; j < 4; j++) {
        double want = 0;
        for (int i = 0; i < 3; i++)
            want += A[i * 4 + j] * W[i];
        check_exact(lbl("dx", j), dx[j], want);
        check_fd(lbl("dx", j), dx[j], fd_partial(seeded, p, 16, 12 + j, 0));
    }
    for (int k = 0; k < 12; k++) {
        check_exact(lbl("dA", k), dA[k], W[k / 4] * x[k % 4]);
        check_fd(lbl("dA", k), dA[k], fd_partial(seeded, p, 16, k, 0));
    }
    for (int i = 0; i < 3; i++) {
        double yi = 0;
        for (int j = 0; j < 4; j++)
            yi += A[i * 4 + j] * x[j];
        check_exact(lbl("y_primal", i), y[i], yi);
        check_exact(lbl("dy_consumed", i), dy[i], 0.0);
    }
    return ad_done();
}
