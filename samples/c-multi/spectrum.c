/* Archive member that main.c never needs: a correct link must leave it out.
 * If a linker pulled it in anyway, its constructor would announce it. */
#include <math.h>
#include <stdio.h>
#include "phys.h"

__attribute__((constructor)) static void spectrum_loaded(void) {
    fprintf(stderr, "spectrum.o was linked in although nothing uses it\n");
}

double spectrum_power(const double *v, int n, int k) {
    double re = 0.0, im = 0.0;
    for (int i = 0; i < n; i++) {
        double a = -2.0 * 3.14159265358979323846 * k * i / n;
        re += v[i] * cos(a);
        im += v[i] * sin(a);
    }
    return (re * re + im * im) / n;
}
