/* A malloc'd temporary holding active values, freed before returning. */
#include <stdlib.h>
#include "ad.h"

double via_heap(const double *x, int n) {
    double *t = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        t[i] = exp(x[i]) * (i + 1);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += t[i] * t[n - 1 - i];
    free(t);
    return s;
}

static int N;
static double h_p(const double *p, void *c) { (void)c; return via_heap(p, N); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 3; /* 4 */
    double x[4] = {0.1, -0.3, 0.6, 0.2}, dx[4] = {0};
    __enzyme_autodiff((void *)via_heap, x, dx, N);
    for (int i = 0; i < N; i++)
        check_fd(lbl("dx", i), dx[i], fd_partial(h_p, x, N, i, 0));
    return ad_done();
}
