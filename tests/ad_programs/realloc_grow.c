/* A growable buffer: realloc moves active values to a new block (the shadow follows, and the
   reverse sweep moves the adjoints back to the old block). */
#include <stdlib.h>
#include "ad.h"

double grow(const double *x, int n) {
    int cap = 1, len = 0;
    double *buf = malloc(cap * sizeof(double));
    for (int i = 0; i < n; i++) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap * sizeof(double));
        }
        buf[len++] = x[i] * x[i];
    }
    double s = 0;
    for (int i = 0; i < len; i++)
        s += sin(buf[i]) * (i + 1);
    free(buf);
    return s;
}

static int N;
static double g_p(const double *p, void *c) { (void)c; return grow(p, N); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 4; /* 5 */
    double x[5] = {0.1, 0.2, 0.3, 0.4, 0.5}, dx[5] = {0};
    __enzyme_autodiff((void *)grow, enzyme_dup, x, dx, enzyme_const, N);
    for (int i = 0; i < N; i++) {
        check_exact(lbl("dx", i), dx[i], (i + 1) * cos(x[i] * x[i]) * 2 * x[i]);
        check_fd(lbl("dx", i), dx[i], fd_partial(g_p, x, N, i, 0));
    }
    return ad_done();
}
