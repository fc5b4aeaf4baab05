/* No derivatives: libsoftplus.a is an ordinary static library of native code for any linker
   (build.sh links this program with -fuse-ld=lld). */
#include <stdio.h>

double softplus(double x);

int main(void) {
    printf("softplus(0) = %.12f\n", softplus(0.0));
    printf("softplus(-800) = %.6g, softplus(800) = %.6f\n", softplus(-800.0), softplus(800.0));
    return 0;
}
