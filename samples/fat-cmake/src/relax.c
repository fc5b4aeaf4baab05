/* A chain of beads hanging between two anchors, above a floor: the total energy (libchain's
   chain_energy plus floor_energy of every bead) of the free beads' positions, its gradient by
   __enzyme_autodiff (differentiated at link time by ld.gradlink: chain_energy's derivative was
   compiled into the library, floor_energy's is the library's hand-written one), checked by
   central finite differences, then gradient descent to the resting shape. */
#include <math.h>
#include <stdio.h>

#include "chain.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

enum { FREE = 6, BEADS = FREE + 2 };
static const double LEFT[2] = {0, 0.8}, RIGHT[2] = {6, 0.8};   /* the anchored end beads */

/* free = {x1, y1, ..., x6, y6} */
double total_energy(const double *free, int nfree) {
    double xy[2 * BEADS];
    xy[0] = LEFT[0];
    xy[1] = LEFT[1];
    for (int i = 0; i < 2 * nfree; i++) xy[2 + i] = free[i];
    xy[2 * nfree + 2] = RIGHT[0];
    xy[2 * nfree + 3] = RIGHT[1];
    double e = chain_energy(xy, nfree + 2);
    for (int i = 0; i < nfree; i++) e += floor_energy(free[2 * i + 1]);
    return e;
}

static void gradient(const double *free, double *g) {
    for (int i = 0; i < 2 * FREE; i++) g[i] = 0;
    __enzyme_autodiff((void *)total_energy, enzyme_dup, free, g, enzyme_const, FREE);
}

int main(void) {
    double free[2 * FREE], g[2 * FREE];
    for (int i = 0; i < FREE; i++) {   /* a first guess: an uneven arc */
        free[2 * i] = 6.0 * (i + 1) / (FREE + 1) + 0.1 * sin(i);
        free[2 * i + 1] = 0.8 - 0.5 * sin(3.14159265358979 * (i + 1) / (FREE + 1));
    }
    printf("energy %.6f\n", total_energy(free, FREE));
    gradient(free, g);
    for (int i = 0; i < 2 * FREE; i++) {
        const double h = 1e-6;
        double p[2 * FREE], m[2 * FREE];
        for (int k = 0; k < 2 * FREE; k++) p[k] = m[k] = free[k];
        p[i] += h;
        m[i] -= h;
        double fd = (total_energy(p, FREE) - total_energy(m, FREE)) / (2 * h);
        printf("d energy / d %c%d = %+.10f   (finite differences %+.10f)\n", "xy"[i % 2],
               i / 2 + 1, g[i], fd);
    }
    int steps = 0;
    double norm = 1;
    for (; steps < 20000 && norm > 1e-9; steps++) {
        gradient(free, g);
        norm = 0;
        for (int i = 0; i < 2 * FREE; i++) {
            free[i] -= 0.005 * g[i];
            norm += g[i] * g[i];
        }
        norm = sqrt(norm);
    }
    printf("at rest after %d steps: energy %.6f, middle beads at y = %.6f\n", steps,
           total_energy(free, FREE), free[2 * (FREE / 2) - 1]);
    return 0;
}
