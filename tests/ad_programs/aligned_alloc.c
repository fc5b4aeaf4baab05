/* Aligned heap memory in differentiated code: posix_memalign into an array of pointers in a
   loop (the pointer comes back through the array), into a local pointer, its error code used;
   aligned_alloc; the blocks read with 64-byte aligned vector loads (the shadows keep the
   alignment). Reverse and forward mode against finite differences. */
#define _POSIX_C_SOURCE 200112L
#include <stdint.h>
#include <stdlib.h>
#include "ad.h"

double __enzyme_fwddiff(void *, ...);

typedef double v4 __attribute__((vector_size(32)));

double model(const double *x, int n) {
    double *rows[4];
    for (int i = 0; i < 4; i++) {
        if (posix_memalign((void **)&rows[i], 64, 4 * sizeof(double)) != 0) return -1;
        for (int j = 0; j < 4; j++) rows[i][j] = x[(i + j) % n] * (i + 1);
    }
    double *acc;
    int err = posix_memalign((void **)&acc, 64, 4 * sizeof(double));
    double *w = aligned_alloc(64, 4 * sizeof(double));
    if (err || !w) return -1;
    for (int j = 0; j < 4; j++) w[j] = sin(x[j % n]);
    v4 s = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        v4 r = *(v4 *)__builtin_assume_aligned(rows[i], 64);
        s += r * r * *(v4 *)__builtin_assume_aligned(w, 64);
    }
    *(v4 *)acc = s;
    double out = acc[0] + 2 * acc[1] + 3 * acc[2] + 4 * acc[3];
    for (int i = 0; i < 4; i++) free(rows[i]);
    free(acc);
    free(w);
    return out;
}

static double model_p(const double *p, void *c) { (void)c; return model(p, 3); }

int main(void) {
    double x[3] = {0.3, -0.8, 1.2}, dx[3] = {0};
    __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, 3);
    for (int i = 0; i < 3; i++) check_fd(lbl("dx", i), dx[i], fd_partial(model_p, x, 3, i, 0));
    double v[3] = {1.0, -0.5, 0.25};
    double t = __enzyme_fwddiff((void *)model, enzyme_dup, x, v, enzyme_const, 3);
    check_exact("tangent", t, dx[0] * v[0] + dx[1] * v[1] + dx[2] * v[2]);
    return ad_done();
}
