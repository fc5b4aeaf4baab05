/* Functions that return memory they allocated (not inlined): a value built from active inputs
   in a fresh block (malloc, and through a wrapper that calls the allocating function), a fresh
   buffer the caller fills with active data, realloc growing it, and a lookup returning a pointer
   into a constant table (inactive memory: no shadow needed). The caller reads and writes the
   blocks; each derivative, reverse and forward, is checked against finite differences. */
#include <stdlib.h>
#include "ad.h"

double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static double *make_square(double x) {
    double *m = malloc(2 * sizeof(double));
    m[0] = x * x;
    m[1] = sin(x);
    return m;
}
__attribute__((noinline)) static double *make_via(double x) { return make_square(x) + 1; }
__attribute__((noinline)) static double *fresh_buffer(int n) {
    return calloc((size_t)n, sizeof(double));
}
__attribute__((noinline)) static double *grow(double *p, int n) {
    return realloc(p, (size_t)n * sizeof(double));
}
static const double TABLE[4] = {1.0, 2.0, 3.0, 4.0};
__attribute__((noinline)) static const double *scale_for(double x) { return &TABLE[x > 0]; }

double model(double x, double y) {
    double *a = make_square(x);          /* x^2, sin x */
    double *b = make_via(y);             /* sin y */
    double *c = fresh_buffer(2);         /* filled here */
    c[0] = a[0] * y;
    c[1] = *b + a[1];
    c = grow(c, 3);
    c[2] = c[0] * c[1];
    double r = (c[0] + c[1] + c[2]) * *scale_for(x);
    free(a);
    free(b - 1);
    free(c);
    return r;
}

static double model_p(const double *p, void *ctx) { (void)ctx; return model(p[0], p[1]); }

int main(void) {
    double p[2] = {0.7, -1.3};
    d2 g = __enzyme_autodiff2((void *)model, p[0], p[1]);
    check_fd("dx", g.a, fd_partial(model_p, p, 2, 0, 0));
    check_fd("dy", g.b, fd_partial(model_p, p, 2, 1, 0));
    double tx = __enzyme_fwddiff((void *)model, p[0], 1.0, p[1], 0.0);
    double ty = __enzyme_fwddiff((void *)model, p[0], 0.0, p[1], 1.0);
    check_exact("tangent_x", tx, g.a);
    check_exact("tangent_y", ty, g.b);
    return ad_done();
}
