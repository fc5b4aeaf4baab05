/* memcpy of active doubles into a scratch buffer of runtime size. */
#include "ad.h"

double copy_then_sum(const double *x, int n) {
    double buf[32];
    memcpy(buf, x, sizeof(double) * (size_t)n);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += buf[i] * buf[(i + 1) % n];
    return s;
}

static int N;
static double c_p(const double *p, void *c) { (void)c; return copy_then_sum(p, N); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 4; /* 5 */
    double x[5] = {0.5, -1.0, 2.0, 1.5, -0.25}, dx[5] = {0};
    __enzyme_autodiff((void *)copy_then_sum, x, dx, N);
    for (int i = 0; i < N; i++) {
        check_exact(lbl("dx", i), dx[i], x[(i + 1) % N] + x[(i + N - 1) % N]);
        check_fd(lbl("dx", i), dx[i], fd_partial(c_p, x, N, i, 0));
    }
    return ad_done();
}
