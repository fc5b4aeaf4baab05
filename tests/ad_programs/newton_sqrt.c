/* Newton's iteration for sqrt(a) with a data-dependent trip count (compiled with -g). */
#include "ad.h"

double newton_sqrt(double a) {
    double y = a > 1.0 ? a : 1.0;
    int it = 0;
    while (fabs(y * y - a) > 1e-15 * a && it < 100) {
        y = 0.5 * (y + a / y);
        it++;
    }
    return y;
}

/* cube root by Newton, then used in an expression */
double newton_cbrt_expr(double a) {
    double y = 1.0;
    for (int it = 0; it < 200; it++) {
        double next = y - (y * y * y - a) / (3.0 * y * y);
        if (fabs(next - y) <= 1e-15 * fabs(next))
            break;
        y = next;
    }
    return y * sin(a);
}

int main(void) {
    double as[3] = {2.0, 0.3, 150.0};
    for (int k = 0; k < 3; k++) {
        double a = as[k];
        double d = __enzyme_autodiff((void *)newton_sqrt, a);
        check_exact(lbl("newton_sqrt", k), d, 0.5 / sqrt(a));
        check_fd(lbl("newton_sqrt", k), d, fd1(newton_sqrt, a));
    }
    double a = 5.0;
    double d = __enzyme_autodiff((void *)newton_cbrt_expr, a);
    check_exact("newton_cbrt", d, sin(a) / (3 * cbrt(a) * cbrt(a)) + cbrt(a) * cos(a));
    return ad_done();
}
