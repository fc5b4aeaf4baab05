/* libm trigonometric and hyperbolic functions in double: derivative vs formula and vs FD. */
#include "ad.h"

#define UNARY(fn) \
    double f_##fn(double x) { return fn(x); }
UNARY(sin) UNARY(cos) UNARY(tan) UNARY(asin) UNARY(acos) UNARY(atan)
UNARY(sinh) UNARY(cosh) UNARY(tanh)

/* composed: chain rule through several calls */
double composed(double x) { return sin(cos(x) * x) + tanh(sinh(x) * 0.5) - atan(tan(x * 0.3)); }

#define CHECK(fn, x0, want)                                        \
    do {                                                           \
        double x = (x0);                                           \
        double d = __enzyme_autodiff((void *)f_##fn, x);           \
        check_exact(#fn, d, (want));                               \
        check_fd(#fn, d, fd1(f_##fn, x));                          \
    } while (0)

int main(void) {
    CHECK(sin, 0.7, cos(x));
    CHECK(cos, 0.7, -sin(x));
    CHECK(tan, 0.4, 1.0 / (cos(x) * cos(x)));
    CHECK(asin, 0.3, 1.0 / sqrt(1.0 - x * x));
    CHECK(acos, -0.45, -1.0 / sqrt(1.0 - x * x));
    CHECK(atan, 2.5, 1.0 / (1.0 + x * x));
    CHECK(sinh, 1.3, cosh(x));
    CHECK(cosh, -0.8, sinh(x));
    CHECK(tanh, 0.9, 1.0 - tanh(x) * tanh(x));
    double x = 0.83;
    check_fd("composed", __enzyme_autodiff((void *)composed, x), fd1(composed, x));
    return ad_done();
}
