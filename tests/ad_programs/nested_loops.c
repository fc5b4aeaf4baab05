/* Nested loops: the quadratic form x^T A x (A constant), gradient (A + A^T) x; and a
   triangular double loop with a data-dependent inner bound. */
#include "ad.h"

double quad_form(const double *x, const double *A, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            s += x[i] * A[i * n + j] * x[j];
    return s;
}

double triangle(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) {
        double t = 0;
        for (int j = 0; j <= i; j++)
            t += x[j] * x[i - j];
        s += sin(t) / (i + 1);
    }
    return s;
}

static int N;
static double A[25];
static double qf_p(const double *p, void *c) { (void)c; return quad_form(p, A, N); }
static double tri_p(const double *p, void *c) { (void)c; return triangle(p, N); }

static __attribute__((noinline)) void init(double *x) {
    for (int i = 0; i < N; i++) {
        x[i] = 0.3 * i - 0.55;
        for (int j = 0; j < N; j++)
            A[i * N + j] = 1.0 / (1.0 + i + 2 * j);
    }
}

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 4; /* 5 */
    double x[5], dx[5] = {0};
    init(x);
    __enzyme_autodiff((void *)quad_form, enzyme_dup, x, dx, enzyme_const, A, N);
    for (int i = 0; i < N; i++) {
        double want = 0;
        for (int j = 0; j < N; j++)
            want += (A[i * N + j] + A[j * N + i]) * x[j];
        check_exact(lbl("quad", i), dx[i], want);
        check_fd(lbl("quad", i), dx[i], fd_partial(qf_p, x, N, i, 0));
    }
    double dt[5] = {0};
    __enzyme_autodiff((void *)triangle, x, dt, N);
    for (int i = 0; i < N; i++)
        check_fd(lbl("triangle", i), dt[i], fd_partial(tri_p, x, N, i, 0));
    return ad_done();
}
