/* Two requests on different functions of one signature in if/else: clang -O2 sinks them into
   one call whose function operand is phi [f1, f2] (before the link). Each function gets its
   derivative; the call picks one at run time. Reverse and forward mode. */
#include "ad.h"

double __enzyme_fwddiff(void *, ...);

double f1(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }
double f2(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i]; return s; }

__attribute__((noinline)) void grad(int which, const double *x, double *dx) {
    if (which) __enzyme_autodiff((void *)f1, enzyme_dup, x, dx, enzyme_const, 3);
    else       __enzyme_autodiff((void *)f2, enzyme_dup, x, dx, enzyme_const, 3);
}

__attribute__((noinline)) double tangent(int which, const double *x, const double *v) {
    double t;
    if (which) t = __enzyme_fwddiff((void *)f1, enzyme_dup, x, v, enzyme_const, 3);
    else       t = __enzyme_fwddiff((void *)f2, enzyme_dup, x, v, enzyme_const, 3);
    return t;
}

int main(int argc, char **argv) {
    (void)argv;
    double x[3] = {1, 2, 3}, v[3] = {0.5, -1, 2};
    for (int which = 0; which < 2; which++) {
        int w = which * argc;                      /* not a constant: the branch stays */
        double dx[3] = {0, 0, 0};
        grad(w, x, dx);
        for (int i = 0; i < 3; i++) {
            char label[16];
            snprintf(label, sizeof label, "rev%d_%d", which, i);
            check_exact(label, dx[i], w ? 2 * x[i] : 3 * x[i] * x[i]);
        }
        double want = 0;
        for (int i = 0; i < 3; i++) want += (w ? 2 * x[i] : 3 * x[i] * x[i]) * v[i];
        check_exact(which ? "fwd1" : "fwd0", tangent(w, x, v), want);
    }
    return ad_done();
}
