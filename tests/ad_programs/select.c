/* Conditional expressions that clang turns into select instructions. */
#include "ad.h"

double sel(double x, double y) {
    double a = x > y ? x * x * y : sin(y) * x;
    double b = x < 0.5 ? a : a * 2.0;
    return b + (y > 0 ? y : -y) * x;
}

double clamp3(double x, double lo, double hi) {
    double v = x < lo ? lo : x;
    v = v > hi ? hi : v;
    return v * v;
}

static double sel_p(const double *p, void *c) { (void)c; return sel(p[0], p[1]); }

int main(void) {
    double pts[3][2] = {{1.5, 0.7}, {0.2, 1.1}, {0.9, -2.0}};
    for (int k = 0; k < 3; k++) {
        d2 g = __enzyme_autodiff2((void *)sel, pts[k][0], pts[k][1]);
        check_fd(lbl("sel_dx", k), g.a, fd_partial(sel_p, pts[k], 2, 0, 0));
        check_fd(lbl("sel_dy", k), g.b, fd_partial(sel_p, pts[k], 2, 1, 0));
    }
    double x = 1.5, y = 0.7;
    d2 g = __enzyme_autodiff2((void *)sel, x, y);
    check_exact("sel_dx_exact", g.a, 2 * (2 * x * y) + y);
    check_exact("sel_dy_exact", g.b, 2 * (x * x) + x);
    /* clamp: inside the interval, below it (the gradient goes to lo), above */
    double lo = -1.0, hi = 2.0;
    double d = __enzyme_autodiff((void *)clamp3, 0.5, enzyme_const, lo, enzyme_const, hi);
    check_exact("clamp_in", d, 1.0);
    d = __enzyme_autodiff((void *)clamp3, enzyme_const, -3.0, lo, enzyme_const, hi);
    check_exact("clamp_lo", d, -2.0);
    d = __enzyme_autodiff((void *)clamp3, 5.0, enzyme_const, lo, enzyme_const, hi);
    check_exact("clamp_hi_x", d, 0.0);
    return ad_done();
}
