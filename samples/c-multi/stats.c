#include <math.h>
#include "phys.h"

double stats_mean(const double *v, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s / n;
}

double stats_stddev(const double *v, int n) {
    double m = stats_mean(v, n), s = 0.0;
    for (int i = 0; i < n; i++)
        s += (v[i] - m) * (v[i] - m);
    return sqrt(s / n);
}

int stats_argmax(const double *v, int n) {
    int best = 0;
    for (int i = 1; i < n; i++)
        if (v[i] > v[best])
            best = i;
    return best;
}
