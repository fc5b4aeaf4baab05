// A try/catch around a call that may throw (invoke) on active data (compiled with clang++-22):
// the normal path is differentiated; an exception inside the derivative stops the program
// (tests/test_ad_stops.py).
#include <stdexcept>
#include "ad.h"

__attribute__((noinline)) double checked_square(double x) {
    if (x < 0)
        throw std::domain_error("negative");
    return x * x;
}

extern "C" double guarded(double x) {
    try {
        return checked_square(x) * 2.0 + x;
    } catch (const std::exception &) {
        return 0.0;
    }
}

int main() {
    double x = 1.5;
    double d = __enzyme_autodiff((void *)guarded, x);
    check_exact("guarded", d, 4 * x + 1.0);
    return ad_done();
}
