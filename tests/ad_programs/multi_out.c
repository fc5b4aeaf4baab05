/* Several enzyme_out arguments: the adjoints come back in a struct the caller declares
   (two doubles: returned in registers). */
#include "ad.h"

double cube_times(double x, double y) { return x * x * x * y; }
double mixed(double x, int k, double y) { return sin(x * y) * k + x / y; }

static double mixed_p(const double *p, void *c) { (void)c; return mixed(p[0], 3, p[1]); }

int main(void) {
    double x = 1.3, y = -2.1;
    d2 g = __enzyme_autodiff2((void *)cube_times, x, y);
    check_exact("cube_dx", g.a, 3 * x * x * y);
    check_exact("cube_dy", g.b, x * x * x);
    g = __enzyme_autodiff2((void *)cube_times, enzyme_out, x, enzyme_out, y);
    check_exact("cube_dx_marked", g.a, 3 * x * x * y);
    check_exact("cube_dy_marked", g.b, x * x * x);

    double p[2] = {0.7, 1.9};
    g = __enzyme_autodiff2((void *)mixed, p[0], 3, p[1]);
    check_fd("mixed_dx", g.a, fd_partial(mixed_p, p, 2, 0, 0));
    check_fd("mixed_dy", g.b, fd_partial(mixed_p, p, 2, 1, 0));
    check_exact("mixed_dx", g.a, cos(p[0] * p[1]) * p[1] * 3 + 1 / p[1]);
    return ad_done();
}
