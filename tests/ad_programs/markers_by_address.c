/* Activity markers passed by address (&enzyme_dup), as C++ code using a variadic template entry
   point does, in reverse and forward mode. */
#include "ad.h"

double __enzyme_fwddiff(void *, ...);

double weighted(const double *x, const double *w, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i];
    return s;
}

int main(void) {
    double x[3] = {0.5, -1.0, 2.0}, w[3] = {1.0, 2.0, 3.0}, dx[3] = {0};
    __enzyme_autodiff((void *)weighted, &enzyme_dup, x, dx, &enzyme_const, w, &enzyme_const, 3);
    for (int i = 0; i < 3; i++) check_exact(lbl("dx", i), dx[i], 2 * w[i] * x[i]);
    double v[3] = {1.0, 0.5, -0.25};
    double t = __enzyme_fwddiff((void *)weighted, &enzyme_dup, x, v, &enzyme_const, w,
                                &enzyme_const, 3);
    check_exact("tangent", t, dx[0] * v[0] + dx[1] * v[1] + dx[2] * v[2]);
    return ad_done();
}
