/* Accessors that return pointers into active memory (std::array::operator[] when it is not
   inlined): the augmented forward returns the pointer's shadow too, so stores and loads through
   it carry adjoints (and tangents, in forward mode). Reads through one accessor, writes through
   another, and one accessor that calls the other. */
#include "ad.h"

double __enzyme_fwddiff(void *, ...);

typedef struct { double v[4]; } Arr;

__attribute__((noinline)) static double *at(Arr *a, int i) { return &a->v[i]; }
__attribute__((noinline)) static const double *cat(const double *x, int i) { return x + i; }
__attribute__((noinline)) static double *last(Arr *a) { return at(a, 3); }

double model(const double *x, int n) {
    Arr a;
    for (int i = 0; i < 4; i++) *at(&a, i) = *cat(x, i) * *cat(x, (i + 1) % n);
    *last(&a) += *cat(x, 0);
    double s = 0;
    for (int i = 0; i < 4; i++) s += sin(*at(&a, i)) * *cat(x, i);
    return s;
}

static int N;
static double model_p(const double *p, void *c) { (void)c; return model(p, N); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 3; /* 4 */
    double x[4] = {0.3, -0.7, 1.1, 0.5}, dx[4] = {0};
    __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, N);
    for (int i = 0; i < N; i++) check_fd(lbl("dx", i), dx[i], fd_partial(model_p, x, N, i, 0));
    /* forward mode through the same accessors: <grad, v> = the tangent along v */
    double v[4] = {1.0, -0.5, 0.25, 2.0}, want = 0;
    for (int i = 0; i < N; i++) want += dx[i] * v[i];
    double t = __enzyme_fwddiff((void *)model, enzyme_dup, x, v, enzyme_const, N);
    check_exact("tangent", t, want);
    return ad_done();
}
