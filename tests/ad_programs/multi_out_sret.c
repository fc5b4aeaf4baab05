/* Three double outs: the caller's struct {double a, b, c;} is returned through memory (sret). */
#include "ad.h"

double f3(double x, double y, double z) { return x * y * z + sin(x) * z; }
static double f3_p(const double *p, void *c) { (void)c; return f3(p[0], p[1], p[2]); }

int main(void) {
    double p[3] = {0.4, 1.5, -2.0};
    d3 g = __enzyme_autodiff3((void *)f3, p[0], p[1], p[2]);
    check_exact("dx", g.a, p[1] * p[2] + cos(p[0]) * p[2]);
    check_exact("dy", g.b, p[0] * p[2]);
    check_exact("dz", g.c, p[0] * p[1] + sin(p[0]));
    check_fd("dx", g.a, fd_partial(f3_p, p, 3, 0, 0));
    return ad_done();
}
