/* Inline assembly touching an active double. */
#include "ad.h"

double asm_square(double x) {
    double y = x * x;
    __asm__ volatile("" : "+x"(y));
    return y * 2.0;
}

int main(void) {
    printf("%g\n", __enzyme_autodiff((void *)asm_square, 1.5));
    return 0;
}
