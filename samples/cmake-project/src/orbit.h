/* Keplerian two-body orbit helpers (library "orbit"). */
#ifndef ORBIT_H
#define ORBIT_H

typedef struct {
    double a;       /* semi-major axis */
    double e;       /* eccentricity, 0 <= e < 1 */
    double period;  /* orbital period */
} orbit_t;

/* kepler.c: eccentric anomaly E solving E - e sin E = M (Newton); *iters gets the step count. */
double kepler_solve(double mean_anomaly, double e, int *iters);

/* orbit.c */
void orbit_position(const orbit_t *o, double t, double *x, double *y);
double orbit_radius(const orbit_t *o, double t);
double orbit_perimeter(const orbit_t *o, int n);        /* Simpson rule, n even */
double orbit_perimeter_ramanujan(const orbit_t *o);

/* simpson.f90: composite Simpson rule over n+1 equally spaced samples (n even). */
double f_simpson(int n, double h, const double *y);

#endif
