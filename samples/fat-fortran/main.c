/* Orbit fitting in C on the Fortran fat library libkepler.a: the misfit of an orbit (mean
   anomaly at epoch m0, semi-major axis a, eccentricity e) to observed positions and distances,
   and its gradient by __enzyme_autodiff, differentiated at link time by ld.gradlink:
   - the positions use kepler_solve, whose derivative the library registered (derivatives.toml):
     the link calls kepler_solve_aug / kepler_solve_rev, never differentiating the Newton loop;
   - the distances use orbit_radius, whose derivative was compiled into the library
     (--export-derivatives): the link calls gradlink_aug/rev_orbit_radius.
   The gradient is checked by central finite differences. */
#include <math.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

double kepler_solve(double m, double e);            /* Fortran, bind(c) */
double orbit_radius(double m, double a, double e);  /* Fortran, bind(c) */

enum { N = 5 };
/* observations of the orbit m0 = 0.3, a = 1.5, e = 0.4 (with noise of 0.01) */
static const double T[N] = {0.0, 0.7, 1.9, 3.1, 4.4};
static const double OBS_X[N] = {0.726, -0.378, -1.802, -2.030, -0.888};
static const double OBS_Y[N] = {0.656, 1.358, 0.800, -0.382, -1.358};
static const double OBS_R[N] = {0.961, 1.413, 1.988, 2.075, 1.614};
static const double MEAN_MOTION = 2 * 3.14159265358979323846 / 6.0;   /* period 6 */

/* p = {m0, a, e} */
double misfit(const double *p, int n) {
    double m0 = p[0], a = p[1], e = p[2], s = 0;
    for (int i = 0; i < n; i++) {
        double m = m0 + MEAN_MOTION * T[i];
        double ea = kepler_solve(m, e);
        double x = a * (cos(ea) - e), y = a * sqrt(1 - e * e) * sin(ea);
        double r = orbit_radius(m, a, e);
        s += (x - OBS_X[i]) * (x - OBS_X[i]) + (y - OBS_Y[i]) * (y - OBS_Y[i]) +
             (r - OBS_R[i]) * (r - OBS_R[i]);
    }
    return s;
}

int main(void) {
    static const char *names[3] = {"m0", "a", "e"};
    double p[3] = {0.1, 1.6, 0.55}, g[3] = {0};   /* a first guess */
    __enzyme_autodiff((void *)misfit, enzyme_dup, p, g, enzyme_const, N);
    printf("misfit %.6f\n", misfit(p, N));
    for (int j = 0; j < 3; j++) {
        const double h = 1e-6;
        double pp[3] = {p[0], p[1], p[2]}, pm[3] = {p[0], p[1], p[2]};
        pp[j] += h;
        pm[j] -= h;
        double fd = (misfit(pp, N) - misfit(pm, N)) / (2 * h);
        printf("d misfit / d %-2s = %+.10f   (finite differences %+.10f)\n", names[j], g[j], fd);
    }
    return 0;
}
