/* Sweep launch angles of a projectile with altitude-dependent quadratic drag. */
#include <stdio.h>
#include "phys.h"

#define NANGLES 9

int main(void) {
    const double speed = 120.0, drag = 0.0015, dt = 1e-3;
    double angles[NANGLES], ranges[NANGLES];

    printf("angle   range(m)   apex(m)   time(s)  v_impact(m/s)\n");
    for (int i = 0; i < NANGLES; i++) {
        angles[i] = 10.0 + 5.0 * i;
        flight f = simulate(speed, angles[i], drag, dt);
        ranges[i] = f.range;
        printf("%5.1f %10.3f %9.3f %9.4f %14.4f\n", angles[i], f.range, f.apex, f.time,
               f.v_impact);
    }
    int best = stats_argmax(ranges, NANGLES);
    printf("best angle: %.1f deg (range %.3f m)\n", angles[best], ranges[best]);
    printf("mean range: %.3f m, stddev: %.3f m\n", stats_mean(ranges, NANGLES),
           stats_stddev(ranges, NANGLES));
    flight vac = simulate(speed, 45.0, 0.0, dt);
    printf("vacuum 45 deg: range %.3f m (analytic %.3f m)\n", vac.range,
           speed * speed / phys_gravity());
    return 0;
}
