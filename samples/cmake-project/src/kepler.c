#include <math.h>
#include "orbit.h"

double kepler_solve(double mean_anomaly, double e, int *iters) {
    double E = e < 0.8 ? mean_anomaly : 3.14159265358979323846;
    int k = 0;
    for (; k < 50; k++) {
        double step = (E - e * sin(E) - mean_anomaly) / (1.0 - e * cos(E));
        E -= step;
        if (fabs(step) < 1e-14)
            break;
    }
    if (iters)
        *iters = k + 1;
    return E;
}
