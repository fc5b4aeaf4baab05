/* liblse: log-sum-exp computed stably (shifted by the maximum), with its gradient registered
   Enzyme-style, so a program differentiating through lse uses this exact derivative (the
   softmax) instead of differentiating the max and the loop. `gradlink fat build` moves the
   registration into the fat archive's manifest: consumers write no registration. */
#include <math.h>
#include <stdlib.h>

#include "lse.h"

double lse(const double *x, int n) {
    double m = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > m) m = x[i];
    double s = 0;
    for (int i = 0; i < n; i++) s += exp(x[i] - m);
    return m + log(s);
}

/* The derivative's two halves are external functions: the manifest names them, and a consumer's
   link calls them from outside this object (gradlink fat build refuses static ones).

   Augmented forward, Enzyme's convention: lse's arguments, each pointer followed by its shadow;
   returns {tape, primal}. The tape is softmax(x), d lse / d x[i] = exp(x[i] - lse) (at most 1:
   no overflow either). It is computed now because x may be overwritten before the reverse runs
   (a caller reusing one buffer in a loop): a registered reverse gets the pointer, not a copy. */
typedef struct {
    double *tape;
    double primal;
} lse_aug_t;

lse_aug_t aug_lse(const double *x, double *dx, int n) {
    (void)dx;
    lse_aug_t r = {malloc((size_t)n * sizeof(double)), lse(x, n)};
    for (int i = 0; i < n; i++) r.tape[i] = exp(x[i] - r.primal);
    return r;
}

/* Reverse: the same arguments, the differential of the result, then the tape (freed here).
   Adjoints accumulate into the shadow dx. */
void rev_lse(const double *x, double *dx, int n, double d_lse, double *softmax) {
    (void)x;
    for (int i = 0; i < n; i++) dx[i] += d_lse * softmax[i];
    free(softmax);
}

void *__enzyme_register_gradient_lse[3] = {(void *)lse, (void *)aug_lse, (void *)rev_lse};
