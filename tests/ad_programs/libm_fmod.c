/* fmod from libm (a call with errno semantics, not the frem instruction). */
#include "ad.h"

double f_fmod(double x, double y) { return fmod(x * x, y); }
static double fm_p(const double *p, void *c) { (void)c; return f_fmod(p[0], p[1]); }

int main(void) {
    double p[2] = {1.5, 1.25};
    d2 g = __enzyme_autodiff2((void *)f_fmod, p[0], p[1]);
    check_exact("dx", g.a, 2 * p[0]);
    check_exact("dy", g.b, -trunc(p[0] * p[0] / p[1]));
    check_fd("dx", g.a, fd_partial(fm_p, p, 2, 0, 0));
    check_fd("dy", g.b, fd_partial(fm_p, p, 2, 1, 0));
    return ad_done();
}
