/* No derivatives: libkepler.a is an ordinary static library of native code for any linker
   (build.sh links this program with -fuse-ld=lld). */
#include <stdio.h>

double kepler_solve(double m, double e);
double orbit_radius(double m, double a, double e);

int main(void) {
    printf("E(m = 1, e = 0.5) = %.12f\n", kepler_solve(1.0, 0.5));
    printf("r(m = 1, a = 2, e = 0.5) = %.12f\n", orbit_radius(1.0, 2.0, 0.5));
    return 0;
}
