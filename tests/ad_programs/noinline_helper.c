/* A call of a defined function that is not inlined (noinline helper), compiled with -g. */
#include "ad.h"

__attribute__((noinline)) double helper(double x, double y) { return x * sin(y) + y * y; }

double outer(double x, double y) { return helper(x * x, y) * 3.0 + x; }

static double outer_p(const double *p, void *c) { (void)c; return outer(p[0], p[1]); }

int main(void) {
    double p[2] = {0.7, 1.2};
    d2 g = __enzyme_autodiff2((void *)outer, p[0], p[1]);
    check_exact("dx", g.a, 3 * 2 * p[0] * sin(p[1]) + 1.0);
    check_exact("dy", g.b, 3 * (p[0] * p[0] * cos(p[1]) + 2 * p[1]));
    check_fd("dx", g.a, fd_partial(outer_p, p, 2, 0, 0));
    check_fd("dy", g.b, fd_partial(outer_p, p, 2, 1, 0));
    return ad_done();
}
