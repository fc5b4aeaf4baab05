/* Piecewise constant functions: floor, ceil, round, trunc, rint, nearbyint, roundeven, lround,
   llround, lrint, llrint have derivative zero; their value still scales other terms. */
#define _GNU_SOURCE
#include "ad.h"

#define ZERO(fn) \
    double f_##fn(double x) { return x * x + (double)fn(x * 3.0); } \
    double g_##fn(double x) { return (double)fn(x) * x; }
ZERO(floor) ZERO(ceil) ZERO(round) ZERO(trunc) ZERO(rint) ZERO(nearbyint) ZERO(roundeven)
ZERO(lround) ZERO(llround) ZERO(lrint) ZERO(llrint)

#define CHECK(fn)                                                      \
    do {                                                               \
        double x = 2.3;                                                \
        double d = __enzyme_autodiff((void *)f_##fn, x);               \
        check_exact("f_" #fn, d, 2 * x);                               \
        check_fd("f_" #fn, d, fd1(f_##fn, x));                         \
        d = __enzyme_autodiff((void *)g_##fn, x);                      \
        check_exact("g_" #fn, d, (double)fn(x));                       \
    } while (0)

int main(void) {
    CHECK(floor); CHECK(ceil); CHECK(round); CHECK(trunc); CHECK(rint); CHECK(nearbyint);
    CHECK(roundeven); CHECK(lround); CHECK(llround); CHECK(lrint); CHECK(llrint);
    return ad_done();
}
