/* Small structs returned by value ({double, double} in registers) from non-inlined helpers:
   aggregate adjoints through extractvalue/insertvalue and struct-valued call results. */
#include "ad.h"

typedef struct { double re, im; } cplx;

__attribute__((noinline)) cplx cmul(cplx a, cplx b) {
    return (cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
__attribute__((noinline)) cplx cexpo(double t) { return (cplx){cos(t), sin(t)}; }

double f(double t, double r) {
    cplx z = {r, 0.5};
    for (int i = 0; i < 3; i++)
        z = cmul(z, cexpo(t));
    return z.re * z.re + 2 * z.im;
}

static double f_p(const double *p, void *c) { (void)c; return f(p[0], p[1]); }

int main(void) {
    double p[2] = {0.3, 1.2};
    double dt = __enzyme_autodiff((void *)f, p[0], enzyme_const, p[1]);
    double dr = __enzyme_autodiff((void *)f, enzyme_const, p[0], p[1]);
    check_fd("dt", dt, fd_partial(f_p, p, 2, 0, 0));
    check_fd("dr", dr, fd_partial(f_p, p, 2, 1, 0));
    return ad_done();
}
