/* An array via enzyme_dup: sum of squares, gradient 2 x. */
#include "ad.h"

double sum_squares(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

static int N;
static double ss_p(const double *p, void *c) { (void)c; return sum_squares(p, N); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 9; /* 10 */
    double x[10] = {1.0, -2.0, 0.5, 3.25, -0.75, 0.1, 2.2, -1.4, 0.0, 4.0};
    double dx[10] = {0};
    __enzyme_autodiff((void *)sum_squares, enzyme_dup, x, dx, enzyme_const, N);
    for (int i = 0; i < N; i++) {
        check_exact(lbl("ss", i), dx[i], 2 * x[i]);
        check_fd(lbl("ss", i), dx[i], fd_partial(ss_p, x, N, i, 0));
    }
    return ad_done();
}
