/* Scalar arithmetic: +, -, *, /, negation; d/dx x^3*y exactly. */
#include "ad.h"

double cube_times(double x, double y) { return x * x * x * y; }

double arith(double x, double y) {
    double a = x * y + x / y - y * y;
    double b = -a * x + 3.0;
    return b / (x + y) - 1.0 / (x * x + 1.0);
}

static double arith_p(const double *p, void *ctx) { (void)ctx; return arith(p[0], p[1]); }
static double cube_p(const double *p, void *ctx) { (void)ctx; return cube_times(p[0], p[1]); }

int main(void) {
    double x = 1.7, y = -0.6;
    double p[2] = {x, y};
    double dx = __enzyme_autodiff((void *)cube_times, x, enzyme_const, y);
    double dy = __enzyme_autodiff((void *)cube_times, enzyme_const, x, enzyme_out, y);
    check_exact("cube_dx", dx, 3 * x * x * y);
    check_exact("cube_dy", dy, x * x * x);
    check_fd("cube_dx", dx, fd_partial(cube_p, p, 2, 0, 0));

    double ax = __enzyme_autodiff((void *)arith, enzyme_out, x, enzyme_const, y);
    double ay = __enzyme_autodiff((void *)arith, enzyme_const, x, y);
    check_fd("arith_dx", ax, fd_partial(arith_p, p, 2, 0, 0));
    check_fd("arith_dy", ay, fd_partial(arith_p, p, 2, 1, 0));
    return ad_done();
}
