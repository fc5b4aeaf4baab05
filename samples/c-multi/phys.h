/* Small projectile-with-drag model used by the c-multi sample. */
#ifndef PHYS_H
#define PHYS_H

typedef struct {
    double x, y;
} vec2;

/* vec.c */
vec2 vec2_add(vec2 a, vec2 b);
vec2 vec2_scale(vec2 a, double s);
double vec2_norm(vec2 a);

/* integrate.c */
typedef struct {
    double range;     /* horizontal distance at impact, m */
    double apex;      /* maximum height, m */
    double time;      /* time of flight, s */
    double v_impact;  /* speed at impact, m/s */
} flight;

flight simulate(double speed, double angle_deg, double drag, double dt);
double phys_gravity(void);  /* set by a constructor in integrate.c */

/* stats.c */
double stats_mean(const double *v, int n);
double stats_stddev(const double *v, int n);
int stats_argmax(const double *v, int n);

/* spectrum.c: in libphys.a but never referenced by main.c */
double spectrum_power(const double *v, int n, int k);

#endif
