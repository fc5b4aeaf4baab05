/* Bit tricks on an active double: the fast inverse square root's integer magic. */
#include "ad.h"

double fast_rsqrt(double x) {
    union { double d; long i; } u;
    u.d = x;
    u.i = 0x5fe6eb50c7b537a9L - (u.i >> 1);
    double y = u.d;
    return y * (1.5 - 0.5 * x * y * y);
}

int main(void) {
    printf("%g\n", __enzyme_autodiff((void *)fast_rsqrt, 2.0));
    return 0;
}
