/* C99 complex multiplication and division: clang multiplies inline and calls the runtime's
   __muldc3 when the product comes out NaN, and divides by calling __divdc3; __muldc3 called
   directly, a complex quotient, and cabs (its two parts passed as doubles), in reverse and
   forward mode. */
#include <complex.h>
#include "ad.h"

double __enzyme_fwddiff(void *, ...);
double _Complex __muldc3(double, double, double, double);

/* Re and Im of (p0 + p1 i) / (p2 + p3 i), weighted */
double quotient(const double *p) {
    double complex w = (p[0] + p[1] * I) / (p[2] + p[3] * I);
    return creal(w) - 0.5 * cimag(w);
}
static double quotient_p(const double *p, void *c) { (void)c; return quotient(p); }

/* |z|^3 + |z| Re z for z = p0 + p1 i */
double modulus(const double *p) {
    double r = cabs(p[0] + p[1] * I);
    return r * r * r + r * p[0];
}
static double modulus_p(const double *p, void *c) { (void)c; return modulus(p); }

double complex_square(double re, double im) {
    double complex z = re + im * I;
    double complex w = z * z;
    return creal(w) + cimag(w) * 0.5;
}

/* (p0 + p1 i)(p2 + p3 i), weighted: 2 re + 3 im */
double direct(const double *p) {
    double _Complex w = __muldc3(p[0], p[1], p[2], p[3]);
    return 2 * creal(w) + 3 * cimag(w);
}

int main(void) {
    /* w = (re^2 - im^2) + i 2 re im, so f = re^2 - im^2 + re im */
    d2 g = __enzyme_autodiff2((void *)complex_square, 1.5, 0.5);
    check_exact("dre", g.a, 2 * 1.5 + 0.5);
    check_exact("dim", g.b, -2 * 0.5 + 1.5);
    double p[4] = {0.5, -1.25, 2.0, 0.75}, dp[4] = {0};
    __enzyme_autodiff((void *)direct, enzyme_dup, p, dp);
    double want[4] = {2 * p[2] + 3 * p[3], -2 * p[3] + 3 * p[2], 2 * p[0] + 3 * p[1], -2 * p[1] + 3 * p[0]};
    for (int i = 0; i < 4; i++) check_exact(lbl("dp", i), dp[i], want[i]);
    double v[4] = {1.0, 0.5, -2.0, 0.25}, dot = 0;
    for (int i = 0; i < 4; i++) dot += want[i] * v[i];
    check_exact("tangent", __enzyme_fwddiff((void *)direct, enzyme_dup, p, v), dot);
    double dq[4] = {0};
    __enzyme_autodiff((void *)quotient, enzyme_dup, p, dq);
    double qdot = 0;
    for (int i = 0; i < 4; i++) {
        check_fd(lbl("dq", i), dq[i], fd_partial(quotient_p, p, 4, i, 0));
        qdot += dq[i] * v[i];
    }
    check_exact("qtangent", __enzyme_fwddiff((void *)quotient, enzyme_dup, p, v), qdot);
    double dm[4] = {0};
    __enzyme_autodiff((void *)modulus, enzyme_dup, p, dm);
    check_fd("dm0", dm[0], fd_partial(modulus_p, p, 2, 0, 0));
    check_fd("dm1", dm[1], fd_partial(modulus_p, p, 2, 1, 0));
    check_exact("mtangent", __enzyme_fwddiff((void *)modulus, enzyme_dup, p, v),
                dm[0] * v[0] + dm[1] * v[1]);
    return ad_done();
}
