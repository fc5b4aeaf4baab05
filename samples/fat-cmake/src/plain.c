/* No derivatives: libchain.a is an ordinary static library of native code for any linker
   (CMakeLists.txt links this program with -fuse-ld=lld). */
#include <stdio.h>

#include "chain.h"

int main(void) {
    const double xy[6] = {0, 0, 1.5, 0, 1.5, 2};
    printf("chain_energy = %.10f\n", chain_energy(xy, 3));
    printf("floor_energy(0) = %.10f, floor_energy(-30) = %.10f\n", floor_energy(0),
           floor_energy(-30));
    return 0;
}
