/* A stack array holding active values, indexed by data (so it stays in memory): prefix sums
   then a gather through an index array. */
#include "ad.h"

double gather(const double *x, const int *idx, int n) {
    double pre[16];
    double acc = 0;
    for (int i = 0; i < n; i++) {
        acc += x[i] * x[i];
        pre[i] = acc;
    }
    double s = 0;
    for (int i = 0; i < n; i++)
        s += pre[idx[i]] * x[i];
    return s;
}

static int IDX[6] = {5, 0, 3, 3, 1, 2};
static int N;
static double g_p(const double *p, void *c) { (void)c; return gather(p, IDX, N); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 5; /* 6 */
    double x[6] = {0.5, 1.5, -1.0, 0.25, 2.0, -0.75}, dx[6] = {0};
    __enzyme_autodiff((void *)gather, enzyme_dup, x, dx, enzyme_const, IDX, N);
    for (int i = 0; i < N; i++)
        check_fd(lbl("dx", i), dx[i], fd_partial(g_p, x, N, i, 0));
    return ad_done();
}
