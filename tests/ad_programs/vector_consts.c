/* Straight-line code that the SLP vectorizer turns into <2 x double> operations with splat
   constants (LLVM 22 prints them as "splat (double 2.0)"). */
#include "ad.h"

void affine2(double *restrict y, const double *restrict x) {
    y[0] = 2.0 * x[0] * x[0] + 1.0;
    y[1] = 2.0 * x[1] * x[1] + 1.0;
}

int main(void) {
    double x[2] = {0.5, -1.5}, dx[2] = {0}, y[2], dy[2] = {1.0, 1.0};
    __enzyme_autodiff_void((void *)affine2, enzyme_dup, y, dy, enzyme_dup, x, dx);
    check_exact("dx0", dx[0], 4.0 * 0.5);
    check_exact("dx1", dx[1], 4.0 * -1.5);
    check_exact("y0", y[0], 1.5);
    return ad_done();
}
