/* An unknown activity marker. */
#include "ad.h"

extern int enzyme_foo;

double two(double x, double y) { return x * y; }

int main(void) {
    printf("%g\n", __enzyme_autodiff((void *)two, 1.5, enzyme_foo, 2.5));
    return 0;
}
