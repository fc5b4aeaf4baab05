/* An external function with no body in the LTO unit (defined in a native object) on active
   data: no derivative is possible. */
#include "ad.h"

double mystery(double);

double uses_mystery(double x) {
    double y = x * x;
    return mystery(y) + y;
}

int main(void) {
    printf("%g\n", __enzyme_autodiff((void *)uses_mystery, 1.5));
    return 0;
}
