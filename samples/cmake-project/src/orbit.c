#include <math.h>
#include <stdlib.h>
#include "orbit.h"

static const double PI = 3.14159265358979323846;

void orbit_position(const orbit_t *o, double t, double *x, double *y) {
    double M = fmod(2.0 * PI * t / o->period, 2.0 * PI);
    double E = kepler_solve(M, o->e, NULL);
    *x = o->a * (cos(E) - o->e);
    *y = o->a * sqrt(1.0 - o->e * o->e) * sin(E);
}

double orbit_radius(const orbit_t *o, double t) {
    double x, y;
    orbit_position(o, t, &x, &y);
    return hypot(x, y);
}

double orbit_perimeter(const orbit_t *o, int n) {
    double *speed = malloc((size_t)(n + 1) * sizeof *speed);
    double h = 2.0 * PI / n;
    for (int i = 0; i <= n; i++) {
        double c = cos(i * h);
        speed[i] = o->a * sqrt(1.0 - o->e * o->e * c * c);
    }
    double p = f_simpson(n, h, speed);
    free(speed);
    return p;
}

double orbit_perimeter_ramanujan(const orbit_t *o) {
    double a = o->a, b = o->a * sqrt(1.0 - o->e * o->e);
    double h = (a - b) * (a - b) / ((a + b) * (a + b));
    return PI * (a + b) * (1.0 + 3.0 * h / (10.0 + sqrt(4.0 - 3.0 * h)));
}
