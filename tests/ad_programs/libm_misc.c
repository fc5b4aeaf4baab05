/* fmin/fmax, fabs, copysign, fma, hypot, atan2, erf/erfc in double (compiled with -g). */
#include "ad.h"

double f_fmin(double x, double y) { return fmin(x, y) * y; }
double f_fmax(double x, double y) { return fmax(x, y) * x; }
double f_fabs(double x) { return fabs(x) * x; }
double f_copysign(double x, double y) { return copysign(x * x + 1.0, y) + copysign(x, y); }
double f_fma(double x, double y, double z) { return fma(x, y, z); }
double f_hypot(double x, double y) { return hypot(x, y); }
double f_atan2(double y, double x) { return atan2(y, x); }
double f_erf(double x) { return erf(x); }
double f_erfc(double x) { return erfc(x); }

static double fmin_p(const double *p, void *c) { (void)c; return f_fmin(p[0], p[1]); }
static double fmax_p(const double *p, void *c) { (void)c; return f_fmax(p[0], p[1]); }
static double fma_p(const double *p, void *c) { (void)c; return f_fma(p[0], p[1], p[2]); }
static double hypot_p(const double *p, void *c) { (void)c; return f_hypot(p[0], p[1]); }
static double atan2_p(const double *p, void *c) { (void)c; return f_atan2(p[0], p[1]); }

int main(void) {
    double p[3] = {0.8, 1.9, -0.4};
    d2 g = __enzyme_autodiff2((void *)f_fmin, p[0], p[1]);      /* min is x */
    check_exact("fmin_dx", g.a, p[1]);
    check_exact("fmin_dy", g.b, p[0]);
    check_fd("fmin_dx", g.a, fd_partial(fmin_p, p, 2, 0, 0));
    check_fd("fmin_dy", g.b, fd_partial(fmin_p, p, 2, 1, 0));
    g = __enzyme_autodiff2((void *)f_fmax, p[0], p[1]);         /* max is y */
    check_exact("fmax_dx", g.a, p[1]);
    check_exact("fmax_dy", g.b, p[0]);
    check_fd("fmax_dy", g.b, fd_partial(fmax_p, p, 2, 1, 0));

    double d = __enzyme_autodiff((void *)f_fabs, -1.5);
    check_exact("fabs_neg", d, 3.0);
    check_fd("fabs_neg", d, fd1(f_fabs, -1.5));
    d = __enzyme_autodiff((void *)f_fabs, 2.0);
    check_exact("fabs_pos", d, 4.0);

    d = __enzyme_autodiff((void *)f_copysign, 0.6, enzyme_const, -3.0);
    check_exact("copysign", d, -2 * 0.6 - 1.0);

    g = __enzyme_autodiff2((void *)f_fma, p[0], p[1], enzyme_const, p[2]);
    check_exact("fma_dx", g.a, p[1]);
    check_exact("fma_dy", g.b, p[0]);
    check_fd("fma_dx", g.a, fd_partial(fma_p, p, 3, 0, 0));
    d = __enzyme_autodiff((void *)f_fma, enzyme_const, p[0], enzyme_const, p[1], p[2]);
    check_exact("fma_dz", d, 1.0);

    double q[2] = {3.0, -4.0};
    g = __enzyme_autodiff2((void *)f_hypot, q[0], q[1]);
    check_exact("hypot_dx", g.a, 0.6);
    check_exact("hypot_dy", g.b, -0.8);
    check_fd("hypot_dy", g.b, fd_partial(hypot_p, q, 2, 1, 0));

    double r[2] = {0.7, -1.2};
    g = __enzyme_autodiff2((void *)f_atan2, r[0], r[1]);
    check_exact("atan2_dy", g.a, r[1] / (r[0] * r[0] + r[1] * r[1]));
    check_exact("atan2_dx", g.b, -r[0] / (r[0] * r[0] + r[1] * r[1]));
    check_fd("atan2_dy", g.a, fd_partial(atan2_p, r, 2, 0, 0));
    check_fd("atan2_dx", g.b, fd_partial(atan2_p, r, 2, 1, 0));

    double x = 0.35;
    d = __enzyme_autodiff((void *)f_erf, x);
    check_exact("erf", d, 2.0 / sqrt(M_PI) * exp(-x * x));
    check_fd("erf", d, fd1(f_erf, x));
    d = __enzyme_autodiff((void *)f_erfc, x);
    check_exact("erfc", d, -2.0 / sqrt(M_PI) * exp(-x * x));
    check_fd("erfc", d, fd1(f_erfc, x));
    return ad_done();
}
