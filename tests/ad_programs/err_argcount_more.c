/* More arguments than the differentiated function takes. */
#include "ad.h"

double one(double x) { return x * x; }

int main(void) {
    printf("%g\n", __enzyme_autodiff((void *)one, 1.5, enzyme_const, 2.5));
    return 0;
}
