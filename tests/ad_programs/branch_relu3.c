/* Branches: relu3(x) = x > 0 ? x^3 : 0 summed over an array in a loop (array via enzyme_dup). */
#include "ad.h"

static double relu3(double x) { return x > 0 ? pow(x, 3) : 0; }

double sum_relu3(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += relu3(x[i]) * (i + 1);
    return s;
}

/* scalar version with an if/else chain */
double piecewise(double x) {
    double r;
    if (x < -1.0)
        r = -x * 2.0;
    else if (x < 1.0)
        r = x * x + 1.0;
    else
        r = log(x) + 2.0;
    return r * x;
}

static int N;
static double sum_p(const double *p, void *c) { (void)c; return sum_relu3(p, N); }

int main(int argc, char **argv) {
    (void)argv;
    double x[7] = {-1.5, 0.5, 2.0, -0.1, 1.3, 0.9, -3.0};
    double dx[7] = {0};
    N = argc + 6; /* 7 */
    __enzyme_autodiff((void *)sum_relu3, enzyme_dup, x, dx, enzyme_const, N);
    for (int i = 0; i < N; i++) {
        double want = x[i] > 0 ? 3 * x[i] * x[i] * (i + 1) : 0.0;
        check_exact(lbl("relu3", i), dx[i], want);
        check_fd(lbl("relu3", i), dx[i], fd_partial(sum_p, x, N, i, 0));
    }
    double pts[3] = {-2.0, 0.5, 3.0};
    double want[3] = {-4.0 * -2.0, 3 * 0.25 + 1.0, log(3.0) + 2.0 + 1.0};
    for (int i = 0; i < 3; i++) {
        double d = __enzyme_autodiff((void *)piecewise, pts[i]);
        check_exact(lbl("piecewise", i), d, want[i]);
        check_fd(lbl("piecewise", i), d, fd1(piecewise, pts[i]));
    }
    return ad_done();
}
