/* chain.h: libchain, the energy of a chain of beads joined by springs, under gravity, above a
   soft floor. */
#ifndef CHAIN_H
#define CHAIN_H

/* Spring and gravity energy of n beads, xy = {x0, y0, x1, y1, ...}; springs join bead i and
   i + 1 (rest length 1, stiffness 50), each bead has mass 0.1. */
double chain_energy(const double *xy, int n);

/* The energy of a bead at height y over the floor y = 0: a smooth barrier,
   20 log(1 + e^(-40 y)) / 40. */
double floor_energy(double y);

#endif
