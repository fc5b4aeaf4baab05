/* pow with both arguments active, a constant exponent, and __builtin_powi. */
#include "ad.h"

double f_pow(double x, double y) { return pow(x, y); }
double pow_25(double x) { return pow(x, 2.5); }
double pow_3(double x) { return pow(x, 3.0); }
double powi_n(double x, int n) { return __builtin_powi(x, n); }
double powi_5(double x) { return __builtin_powi(x, 5) + __builtin_powi(x, -2); }

static double pow_p(const double *p, void *ctx) { (void)ctx; return f_pow(p[0], p[1]); }
static int powi_exp;
static double powi_p(const double *p, void *ctx) { (void)ctx; return powi_n(p[0], powi_exp); }

int main(int argc, char **argv) {
    (void)argv;
    double x = 1.8, y = 2.3;
    double p[2] = {x, y};
    d2 g = __enzyme_autodiff2((void *)f_pow, x, y);
    check_exact("pow_dx", g.a, y * pow(x, y - 1));
    check_exact("pow_dy", g.b, pow(x, y) * log(x));
    check_fd("pow_dx", g.a, fd_partial(pow_p, p, 2, 0, 0));
    check_fd("pow_dy", g.b, fd_partial(pow_p, p, 2, 1, 0));

    double d = __enzyme_autodiff((void *)pow_25, x);
    check_exact("pow_25", d, 2.5 * pow(x, 1.5));
    check_fd("pow_25", d, fd1(pow_25, x));
    d = __enzyme_autodiff((void *)pow_3, x);
    check_exact("pow_3", d, 3 * x * x);

    int n = argc + 3; /* 4, not known at compile time */
    powi_exp = n;
    d = __enzyme_autodiff((void *)powi_n, x, n);
    check_exact("powi_n", d, n * pow(x, n - 1));
    check_fd("powi_n", d, fd_partial(powi_p, p, 1, 0, 0));
    d = __enzyme_autodiff((void *)powi_5, x);
    check_exact("powi_5", d, 5 * pow(x, 4) - 2 * pow(x, -3));
    check_fd("powi_5", d, fd1(powi_5, x));
    return ad_done();
}
