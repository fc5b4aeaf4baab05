/* libm exponentials, logarithms, roots in double. */
#define _GNU_SOURCE
#include "ad.h"

#define UNARY(fn) \
    double f_##fn(double x) { return fn(x); }
UNARY(exp) UNARY(exp2) UNARY(exp10) UNARY(expm1) UNARY(log) UNARY(log2) UNARY(log10)
UNARY(log1p) UNARY(sqrt) UNARY(cbrt)

double softplus(double x) { return log1p(exp(x)) + sqrt(x * x + 1.0) * log2(x + 3.0); }

#define CHECK(fn, x0, want)                                        \
    do {                                                           \
        double x = (x0);                                           \
        double d = __enzyme_autodiff((void *)f_##fn, x);           \
        check_exact(#fn, d, (want));                               \
        check_fd(#fn, d, fd1(f_##fn, x));                          \
    } while (0)

int main(void) {
    CHECK(exp, 1.1, exp(x));
    CHECK(exp2, 1.1, exp2(x) * M_LN2);
    CHECK(exp10, 0.6, exp10(x) * M_LN10);
    CHECK(expm1, 1e-3, exp(x));
    CHECK(log, 2.2, 1.0 / x);
    CHECK(log2, 2.2, 1.0 / (x * M_LN2));
    CHECK(log10, 7.5, 1.0 / (x * M_LN10));
    CHECK(log1p, 0.25, 1.0 / (1.0 + x));
    CHECK(sqrt, 3.3, 0.5 / sqrt(x));
    CHECK(cbrt, -2.7, 1.0 / (3.0 * cbrt(x) * cbrt(x)));
    double x = 0.4;
    check_fd("softplus", __enzyme_autodiff((void *)softplus, x), fd1(softplus, x));
    return ad_done();
}
