/* A rotation that is the identity below a small angle, as ADBench Hand writes it: the norm is
   computed before the branch, so at zero rotation the branch not taken leaves sqrt's adjoint
   zero, and its derivative (infinite at 0) must not turn that zero into NaN. */
#include "ad.h"

static double rotated_x(const double *w, const double *p) {
    double n = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (n < 1e-4)                                 /* identity, first order: p + w x p */
        return p[0] + w[1] * p[2] - w[2] * p[1];
    double c = cos(n), s = sin(n), k[3] = {w[0] / n, w[1] / n, w[2] / n};
    double kp = k[0] * p[0] + k[1] * p[1] + k[2] * p[2];
    return p[0] * c + (k[1] * p[2] - k[2] * p[1]) * s + k[0] * kp * (1 - c);
}

static double P3[3] = {0.3, -1.2, 2.0};
static double rot_p(const double *w, void *c) { (void)c; return rotated_x(w, P3); }

int main(void) {
    double zero[3] = {0, 0, 0}, dz[3] = {0};
    __enzyme_autodiff((void *)rotated_x, enzyme_dup, zero, dz, enzyme_const, P3);
    double want[3] = {0, P3[2], -P3[1]};                  /* d/dw of w x p at w = 0 */
    for (int i = 0; i < 3; i++) check_exact(lbl("zero", i), dz[i], want[i]);
    double w[3] = {0.4, -0.2, 0.7}, dw[3] = {0};
    __enzyme_autodiff((void *)rotated_x, enzyme_dup, w, dw, enzyme_const, P3);
    for (int i = 0; i < 3; i++) check_fd(lbl("rotation", i), dw[i], fd_partial(rot_p, w, 3, i, 0));
    return ad_done();
}
