/* A loop whose trip count is a runtime argument (int: enzyme_const by default): the truncated
   exponential series sum_{k<n} x^k / k!, and a recurrence with two loop-carried values. */
#include "ad.h"

double exp_series(double x, int n) {
    double term = 1.0, s = 0.0;
    for (int k = 0; k < n; k++) {
        s += term;
        term = term * x / (k + 1);
    }
    return s;
}

/* a_{k+1} = b_k, b_{k+1} = a_k + x * b_k */
double recurrence(double x, int n) {
    double a = 0.0, b = 1.0;
    for (int k = 0; k < n; k++) {
        double t = a + x * b;
        a = b;
        b = t;
    }
    return b;
}

static int N;
static double es_p(const double *p, void *c) { (void)c; return exp_series(p[0], N); }
static double rec_p(const double *p, void *c) { (void)c; return recurrence(p[0], N); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 11; /* 12 */
    double x = 0.9;
    double d = __enzyme_autodiff((void *)exp_series, x, N);
    check_exact("exp_series", d, exp_series(x, N - 1));
    check_fd("exp_series", d, fd_partial(es_p, &x, 1, 0, 0));
    d = __enzyme_autodiff((void *)exp_series, x, enzyme_const, 1);
    check_exact("exp_series_n1", d, 0.0);
    d = __enzyme_autodiff((void *)recurrence, x, N);
    check_fd("recurrence", d, fd_partial(rec_p, &x, 1, 0, 0));
    return ad_done();
}
