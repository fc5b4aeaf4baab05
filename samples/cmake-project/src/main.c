/* Positions along an eccentric orbit and its perimeter by quadrature vs Ramanujan's formula. */
#include <stdio.h>
#include "orbit.h"

int main(void) {
    const orbit_t o = {1.0, 0.6, 10.0};
    printf("    t         x         y         r   newton\n");
    for (int i = 0; i <= 8; i++) {
        double t = 1.25 * i, x, y;
        int iters;
        orbit_position(&o, t, &x, &y);
        kepler_solve(2.0 * 3.14159265358979323846 * t / o.period, o.e, &iters);
        printf("%5.2f %9.5f %9.5f %9.5f %6d\n", t, x, y, orbit_radius(&o, t), iters);
    }
    printf("perimeter (Simpson, n=64):  %.9f\n", orbit_perimeter(&o, 64));
    printf("perimeter (Ramanujan):      %.9f\n", orbit_perimeter_ramanujan(&o));
    return 0;
}
