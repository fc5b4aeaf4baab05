/* __enzyme_set_fixed_point(reduction, max_iters, control, state, size): Enzyme's mark of a
   fixed-point iteration. gradlink accepts it as a hint and differentiates every iteration the
   program runs, so the gradient of the marked loop equals the one of the same loop unmarked,
   and central differences; in reverse and forward mode, for a loop tested at its head and one
   tested at its end. */
#include <stdint.h>
#include "ad.h"

double __enzyme_fwddiff(void *, ...);
void __enzyme_set_fixed_point(double reduction, int64_t max_iters, void *control, ...);

#define N 3
static double u[N];

__attribute__((noinline)) static double step(const double *p) {
    double err = 0;
    double next[N];
    for (int k = 0; k < N; k++)
        next[k] = 0.3 * cos(u[k] - u[(k + 1) % N]) + p[k] * p[(k + 2) % N];
    for (int k = 0; k < N; k++) {
        err = fmax(err, fabs(next[k] - u[k]));
        u[k] = next[k];
    }
    return err;
}

static double loss(const double *p) {
    double s = 0;
    for (int k = 0; k < N; k++) s += u[k] * u[k] * p[k];
    return s;
}

#define HEAD_LOOP(name, mark)                                                  \
    double name(const double *p) {                                             \
        for (int k = 0; k < N; k++) u[k] = 0;                                  \
        double err = 1;                                                        \
        while (err > 1e-14) {                                                  \
            mark;                                                              \
            err = step(p);                                                     \
        }                                                                      \
        return loss(p);                                                        \
    }
#define MARK __enzyme_set_fixed_point(1e-14, (int64_t)-1, (void *)0, u, (int64_t)sizeof(u))

HEAD_LOOP(plain, (void)0)
HEAD_LOOP(marked, MARK)

double marked_latch(const double *p) {
    for (int k = 0; k < N; k++) u[k] = 0;
    double err;
    do {
        MARK;
        err = step(p);
    } while (err > 1e-14);
    return loss(p);
}

static double plain_p(const double *p, void *c) { (void)c; return plain(p); }

int main(void) {
    double p[N] = {0.4, -0.3, 0.6}, d0[N] = {0}, d1[N] = {0}, d2[N] = {0};
    __enzyme_autodiff((void *)plain, enzyme_dup, p, d0);
    __enzyme_autodiff((void *)marked, enzyme_dup, p, d1);
    __enzyme_autodiff((void *)marked_latch, enzyme_dup, p, d2);
    for (int k = 0; k < N; k++) {
        check_fd(lbl("plain", k), d0[k], fd_partial(plain_p, p, N, k, 0));
        check_exact(lbl("marked", k), d1[k], d0[k]);
        check_exact(lbl("latch", k), d2[k], d0[k]);
    }
    double v[N] = {1.0, 0.5, -2.0}, want = 0;
    for (int k = 0; k < N; k++) want += d0[k] * v[k];
    check_exact("tangent", __enzyme_fwddiff((void *)marked, enzyme_dup, p, v), want);
    return ad_done();
}
