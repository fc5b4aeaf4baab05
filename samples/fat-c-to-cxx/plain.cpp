// No derivatives: liblse.a is an ordinary static library of native code for any linker
// (build.sh links this program with -fuse-ld=lld).
#include <cstdio>

#include "lse.h"

int main() {
    const double small[3] = {1.0, 2.0, 3.0};
    const double large[3] = {1000.0, 999.0, -50.0};   // exp(1000) overflows; lse does not
    std::printf("lse(1, 2, 3) = %.12f\n", lse(small, 3));
    std::printf("lse(1000, 999, -50) = %.12f\n", lse(large, 3));
    return 0;
}
