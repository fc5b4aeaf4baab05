/* No derivatives: libpricing.a is an ordinary static library of native code for any linker
   (build.sh links this program with -fuse-ld=lld). */
#include <stdio.h>

#include "pricing.h"

int main(void) {
    printf("bs_call(100, 100, 0.05, 0.2, 1) = %.10f\n", bs_call(100, 100, 0.05, 0.2, 1));
    return 0;
}
