/* A loop left early by break: accumulate squares until the sum passes a limit. The elements
   after the exit get a zero gradient. */
#include "ad.h"

double until_limit(const double *x, int n, double limit) {
    double s = 0;
    for (int i = 0; i < n; i++) {
        s += x[i] * x[i] * (1.0 + 0.1 * i);
        if (s > limit)
            break;
    }
    return s;
}

/* search loop with a return from inside the loop */
double first_big(const double *x, int n) {
    for (int i = 0; i < n; i++)
        if (x[i] > 1.0)
            return x[i] * x[i] * x[i];
    return x[0] * 2.0;
}

static int N;
static double ul_p(const double *p, void *c) { (void)c; return until_limit(p, N, 3.0); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 7; /* 8 */
    double x[8] = {0.9, -1.1, 0.8, 0.7, 1.2, 1.5, -0.4, 2.0};
    double dx[8] = {0};
    __enzyme_autodiff((void *)until_limit, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, 3.0);
    double s = 0;
    int stop = N;
    for (int i = 0; i < N; i++) {
        s += x[i] * x[i] * (1.0 + 0.1 * i);
        if (s > 3.0) { stop = i; break; }
    }
    for (int i = 0; i < N; i++) {
        double want = i <= stop ? 2 * x[i] * (1.0 + 0.1 * i) : 0.0;
        check_exact(lbl("until", i), dx[i], want);
        check_fd(lbl("until", i), dx[i], fd_partial(ul_p, x, N, i, 0));
    }
    double dfb[8] = {0};
    __enzyme_autodiff((void *)first_big, x, dfb, N);
    for (int i = 0; i < N; i++)
        check_exact(lbl("first_big", i), dfb[i], i == 4 ? 3 * 1.44 : 0.0);
    return ad_done();
}
