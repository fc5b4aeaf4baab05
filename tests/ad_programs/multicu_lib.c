/* The library half of the multi-CU program (bitcode archive member). */
#include <math.h>

double cu_poly(double x, double a) { return a * x * x + sin(x); }

double cu_norm2(const double *v, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i] * v[i];
    return sqrt(s);
}

void cu_scale(double *v, int n, double s) {
    for (int i = 0; i < n; i++)
        v[i] *= s;
}
