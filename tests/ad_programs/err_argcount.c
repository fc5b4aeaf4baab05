/* Fewer arguments than the differentiated function takes. */
#include "ad.h"

double two(double x, double y) { return x * y; }

int main(void) {
    printf("%g\n", __enzyme_autodiff((void *)two, 1.5));
    return 0;
}
