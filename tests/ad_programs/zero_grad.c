/* Functions whose gradient is zero: the result does not depend on the active input, or only
   through piecewise-constant or integer paths. The shadow stays as it was. */
#include "ad.h"

double ignores_x(double x, int n) { (void)x; return 2.0 * n + 1.0; }
double through_int(double x) { int k = (int)(x * 4.0); return k * 0.5; }
double steps(double x) { return floor(x) + ceil(2 * x) - trunc(x / 3); }
double ignores_array(const double *x, const double *w, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += w[i] * (x[i] > 0 ? 1.0 : -1.0);
    return s;
}

int main(void) {
    check_exact("ignores_x", __enzyme_autodiff((void *)ignores_x, 1.5, 3), 0.0);
    check_exact("through_int", __enzyme_autodiff((void *)through_int, 1.7), 0.0);
    check_fd("through_int", __enzyme_autodiff((void *)through_int, 1.7), fd1(through_int, 1.7));
    check_exact("steps", __enzyme_autodiff((void *)steps, 2.6), 0.0);
    double x[4] = {1.0, -2.0, 3.0, -0.5}, dx[4] = {0.25, 0.5, 0.75, 1.0};
    double w[4] = {1, 2, 3, 4};
    __enzyme_autodiff((void *)ignores_array, enzyme_dup, x, dx, enzyme_const, w, 4);
    for (int i = 0; i < 4; i++)
        check_exact(lbl("shadow_kept", i), dx[i], 0.25 * (i + 1));
    return ad_done();
}
