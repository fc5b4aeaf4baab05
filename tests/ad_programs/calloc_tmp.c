/* A calloc'd accumulator holding active values, freed before returning. */
#include <stdlib.h>
#include "ad.h"

double histogram_energy(const double *x, const int *bin, int n, int nbins) {
    double *acc = calloc((size_t)nbins, sizeof(double));
    for (int i = 0; i < n; i++)
        acc[bin[i]] += x[i] * x[i];
    double s = 0;
    for (int b = 0; b < nbins; b++)
        s += sqrt(acc[b] + 1.0);
    free(acc);
    return s;
}

static int BIN[5] = {0, 2, 1, 2, 0};
static int N;
static double h_p(const double *p, void *c) { (void)c; return histogram_energy(p, BIN, N, 3); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 4; /* 5 */
    double x[5] = {0.5, 1.0, -1.5, 0.25, 2.0}, dx[5] = {0};
    __enzyme_autodiff((void *)histogram_energy, enzyme_dup, x, dx, enzyme_const, BIN, N, 3);
    for (int i = 0; i < N; i++)
        check_fd(lbl("dx", i), dx[i], fd_partial(h_p, x, N, i, 0));
    return ad_done();
}
