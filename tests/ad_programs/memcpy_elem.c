/* Elements copied one at a time with memcpy(&buf[k], &x[i], sizeof(double)) under a mask
   (well-defined C). At -O2 each copy is a load i64 / store i64 pair: the doubles travel through
   integer registers. */
#include "ad.h"

double compact(const double *x, const int *mask, int n) {
    double buf[8];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (mask[i]) {
            memcpy(&buf[k], &x[i], sizeof(double));
            k++;
        }
    double s = 0;
    for (int i = 0; i < k; i++)
        s += buf[i] * buf[i] * (i + 1);
    return s;
}

static int MASK[4] = {1, 0, 1, 1};
static int N;
static double c_p(const double *p, void *c) { (void)c; return compact(p, MASK, N); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 3; /* 4 */
    double x[4] = {1.0, 2.0, 3.0, 4.0}, dx[4] = {0};
    __enzyme_autodiff((void *)compact, x, dx, enzyme_const, MASK, N);
    double want[4] = {2 * 1.0 * 1, 0.0, 2 * 3.0 * 2, 2 * 4.0 * 3};
    for (int i = 0; i < N; i++) {
        check_exact(lbl("dx", i), dx[i], want[i]);
        check_fd(lbl("dx", i), dx[i], fd_partial(c_p, x, N, i, 0));
    }
    return ad_done();
}
