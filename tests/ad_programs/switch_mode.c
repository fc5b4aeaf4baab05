/* A switch on an integer argument selecting the formula, inside a loop. */
#include "ad.h"

double by_mode(double x, const int *modes, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) {
        switch (modes[i]) {
        case 0: s += x * x; break;
        case 1: s += exp(x * 0.5); break;
        case 2: s -= x / (1.0 + s * s); break;
        case 3: s *= x; break;
        default: s += 1.0; break;
        }
    }
    return s;
}

static int MODES[7] = {0, 3, 1, 2, 9, 3, 2};
static int N;
static double bm(double x) { return by_mode(x, MODES, N); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 6; /* 7 */
    double xs[2] = {0.8, -1.3};
    for (int k = 0; k < 2; k++) {
        double d = __enzyme_autodiff((void *)by_mode, xs[k], enzyme_const, MODES, N);
        check_fd(lbl("by_mode", k), d, fd1(bm, xs[k]));
    }
    return ad_done();
}
