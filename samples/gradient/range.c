/* Gradient demo: the range of a projectile with quadratic air drag, integrated with RK4, and its
   derivatives with respect to the launch angle and the drag coefficient, computed by
   __enzyme_autodiff at link time by ld.gradlink (and checked by finite differences). */
#include <math.h>
#include <stdio.h>

extern int enzyme_const, enzyme_out;
typedef struct { double d_angle, d_drag; } grad2;
grad2 __enzyme_autodiff(void *, ...);

static void deriv(const double *s, double *ds, double drag) {
    double v = sqrt(s[2] * s[2] + s[3] * s[3]);
    ds[0] = s[2];
    ds[1] = s[3];
    ds[2] = -drag * v * s[2];
    ds[3] = -9.81 - drag * v * s[3];
}

double range(double angle, double drag, double speed) {
    double s[4] = {0, 0, speed * cos(angle), speed * sin(angle)}, k1[4], k2[4], k3[4], k4[4], t[4];
    double h = 0.01, prev_x = 0, prev_y = 0;
    for (int step = 0; step < 100000 && s[1] >= 0; step++) {
        prev_x = s[0];
        prev_y = s[1];
        deriv(s, k1, drag);
        for (int i = 0; i < 4; i++) t[i] = s[i] + 0.5 * h * k1[i];
        deriv(t, k2, drag);
        for (int i = 0; i < 4; i++) t[i] = s[i] + 0.5 * h * k2[i];
        deriv(t, k3, drag);
        for (int i = 0; i < 4; i++) t[i] = s[i] + h * k3[i];
        deriv(t, k4, drag);
        for (int i = 0; i < 4; i++) s[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
    /* interpolate the landing point between the last two steps */
    return prev_x + (s[0] - prev_x) * prev_y / (prev_y - s[1]);
}

int main(void) {
    double angle = 0.6, drag = 0.002, speed = 120;
    grad2 g = __enzyme_autodiff((void *)range, angle, drag, enzyme_const, speed);
    double e = 1e-6;
    double fa = (range(angle + e, drag, speed) - range(angle - e, drag, speed)) / (2 * e);
    double fdr = (range(angle, drag + e, speed) - range(angle, drag - e, speed)) / (2 * e);
    printf("range %.3f m\n", range(angle, drag, speed));
    printf("d range / d angle: %12.4f m/rad   (finite differences %12.4f)\n", g.d_angle, fa);
    printf("d range / d drag : %12.1f m/unit  (finite differences %12.1f)\n", g.d_drag, fdr);
    return 0;
}
