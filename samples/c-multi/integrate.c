#include <math.h>
#include <stdio.h>
#include "phys.h"

static const double SCALE_H = 8500.0;  /* atmospheric scale height, m */
static double G;                       /* m/s^2, set before main by the constructor below */

/* Runs before main; printing keeps the optimizer from folding it away. */
__attribute__((constructor)) static void init_gravity(void) {
    G = 9.81;
    printf("integrate.o constructor: g = %.2f m/s^2\n", G);
}

double phys_gravity(void) { return G; }

/* Quadratic drag whose strength falls off with altitude like exp(-y/H). */
static vec2 accel(vec2 pos, vec2 vel, double drag) {
    double k = drag * exp(-pos.y / SCALE_H) * vec2_norm(vel);
    return vec2_add((vec2){0.0, -G}, vec2_scale(vel, -k));
}

/* Semi-implicit Euler until the projectile comes back to y = 0. */
flight simulate(double speed, double angle_deg, double drag, double dt) {
    const double rad = angle_deg * 3.14159265358979323846 / 180.0;
    vec2 pos = {0.0, 0.0};
    vec2 vel = {speed * cos(rad), speed * sin(rad)};
    flight f = {0.0, 0.0, 0.0, 0.0};
    for (;;) {
        vec2 prev = pos;
        vel = vec2_add(vel, vec2_scale(accel(pos, vel, drag), dt));
        pos = vec2_add(pos, vec2_scale(vel, dt));
        f.time += dt;
        if (pos.y > f.apex)
            f.apex = pos.y;
        if (pos.y < 0.0) {
            /* Interpolate the crossing of y = 0 inside the last step. */
            double t = prev.y / (prev.y - pos.y);
            f.range = prev.x + t * (pos.x - prev.x);
            f.time -= (1.0 - t) * dt;
            f.v_impact = vec2_norm(vel);
            return f;
        }
    }
}
