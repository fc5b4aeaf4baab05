/* C99 complex multiplication: clang calls the runtime's __muldc3. */
#include <complex.h>
#include "ad.h"

double complex_square(double re, double im) {
    double complex z = re + im * I;
    double complex w = z * z;
    return creal(w) + cimag(w) * 0.5;
}

int main(void) {
    /* w = (re^2 - im^2) + i 2 re im, so f = re^2 - im^2 + re im */
    d2 g = __enzyme_autodiff2((void *)complex_square, 1.5, 0.5);
    check_exact("dre", g.a, 2 * 1.5 + 0.5);
    check_exact("dim", g.b, -2 * 0.5 + 1.5);
    return ad_done();
}
