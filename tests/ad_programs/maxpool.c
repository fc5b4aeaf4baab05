/* Max over an array with fmax in a loop: clang vectorizes it into llvm.vector.reduce.fmax. */
#include "ad.h"

double maxpool(const double *x, int n) {
    double m = -1e300;
    for (int i = 0; i < n; i++)
        m = fmax(m, x[i] * x[i]);
    return m;
}

int main(int argc, char **argv) {
    (void)argv;
    double y[4] = {1.0, -3.0, 2.0, 0.5}, dy[4] = {0};
    __enzyme_autodiff((void *)maxpool, y, dy, argc + 3);
    check_exact("dy0", dy[0], 0.0);
    check_exact("dy1", dy[1], -6.0);
    check_exact("dy2", dy[2], 0.0);
    check_exact("dy3", dy[3], 0.0);
    return ad_done();
}
