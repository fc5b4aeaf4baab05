/* A loop with a constant trip count: Horner evaluation of a degree-9 polynomial. */
#include "ad.h"

static const double coef[10] = {0.5, -1.25, 2.0, 0.75, -0.3, 0.125, 1.5, -0.6, 0.05, 0.2};

double horner(double x) {
    double r = 0;
    for (int i = 9; i >= 0; i--)
        r = r * x + coef[i];
    return r;
}

int main(void) {
    double xs[3] = {0.3, -1.1, 1.7};
    for (int k = 0; k < 3; k++) {
        double x = xs[k];
        double d = __enzyme_autodiff((void *)horner, x);
        double want = 0;
        for (int i = 1; i < 10; i++)
            want += i * coef[i] * pow(x, i - 1);
        check_exact(lbl("horner", k), d, want);
        check_fd(lbl("horner", k), d, fd1(horner, x));
    }
    return ad_done();
}
