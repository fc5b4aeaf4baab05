/* libchain. chain_energy is plain C: gradlink fat build differentiates it when the library is
   built (EXPORT_DERIVATIVES). floor_energy's derivative is written by hand below, without an
   Enzyme registration in the source: derivatives.toml names it (DERIVATIVES). */
#include <math.h>

#include "chain.h"

enum { STIFFNESS = 50 };
static const double REST = 1.0, MASS = 0.1, G = 9.81, FLOOR_SHARPNESS = 40, FLOOR_FORCE = 20;

double chain_energy(const double *xy, int n) {
    double e = 0;
    for (int i = 0; i + 1 < n; i++) {
        double dx = xy[2 * i + 2] - xy[2 * i], dy = xy[2 * i + 3] - xy[2 * i + 1];
        double stretch = sqrt(dx * dx + dy * dy) - REST;
        e += 0.5 * STIFFNESS * stretch * stretch;
    }
    for (int i = 0; i < n; i++) e += MASS * G * xy[2 * i + 1];
    return e;
}

/* f log(1 + e^(-s y)) / s (a force of at most f), without overflow for either sign of y */
/* noinline: the registered derivative must not be bypassed by inlining into chain_energy */
__attribute__((noinline)) double floor_energy(double y) {
    double z = -FLOOR_SHARPNESS * y;
    return FLOOR_FORCE * (fmax(z, 0) + log1p(exp(-fabs(z)))) / FLOOR_SHARPNESS;
}

/* Enzyme's conventions: the augmented forward takes floor_energy's argument and returns
   nothing (no tape: y is passed by value, the reverse recomputes what it needs); the reverse
   takes y and the differential of the result and returns the adjoint of y:
   d floor_energy / dy = -f / (1 + e^(s y)). */
void floor_energy_aug(double y) { (void)y; }

double floor_energy_rev(double y, double d_energy) {
    double z = FLOOR_SHARPNESS * y;
    double sig = z >= 0 ? exp(-z) / (1 + exp(-z)) : 1 / (1 + exp(z));
    return -d_energy * FLOOR_FORCE * sig;
}
