/* enzyme_out on a pointer argument. */
#include "ad.h"

double first(const double *x) { return x[0] * x[0]; }

int main(void) {
    double x[2] = {1.0, 2.0};
    printf("%g\n", __enzyme_autodiff((void *)first, enzyme_out, x));
    return 0;
}
