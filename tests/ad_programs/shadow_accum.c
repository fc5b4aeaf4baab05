/* Shadows are accumulated into (+=): two calls give twice the gradient, and a shadow that
   starts non-zero keeps its value plus the gradient. */
#include "ad.h"

double weighted(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += (i + 1) * x[i] * x[i] + sin(x[i]);
    return s;
}

int main(void) {
    double x[3] = {0.5, -1.0, 2.0}, dx[3] = {0}, dy[3] = {10.0, 20.0, 30.0};
    __enzyme_autodiff((void *)weighted, enzyme_dup, x, dx, enzyme_const, 3);
    __enzyme_autodiff((void *)weighted, enzyme_dup, x, dx, enzyme_const, 3);
    __enzyme_autodiff((void *)weighted, enzyme_dup, x, dy, enzyme_const, 3);
    for (int i = 0; i < 3; i++) {
        double g = 2 * (i + 1) * x[i] + cos(x[i]);
        check_exact(lbl("twice", i), dx[i], 2 * g);
        check_exact(lbl("preseeded", i), dy[i], 10.0 * (i + 1) + g);
        check_exact(lbl("x_unchanged", i), x[i], i == 0 ? 0.5 : (i == 1 ? -1.0 : 2.0));
    }
    return ad_done();
}
