/* Dot product with one array const: the gradient of the dup array is the const array, and the
   const array is never written. */
#include "ad.h"

double dot(const double *a, const double *b, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

static int N;
static double B[6] = {0.5, -1.0, 2.0, 0.25, 3.0, -0.125};
static double dot_p(const double *p, void *c) { (void)c; return dot(p, B, N); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 5; /* 6 */
    double a[6] = {1.0, 2.0, 3.0, -4.0, 0.5, 7.0};
    double da[6] = {0};
    __enzyme_autodiff((void *)dot, enzyme_dup, a, da, enzyme_const, B, N);
    for (int i = 0; i < N; i++) {
        check_exact(lbl("dot", i), da[i], B[i]);
        check_fd(lbl("dot", i), da[i], fd_partial(dot_p, a, N, i, 0));
    }
    check_exact("b_unchanged", B[2], 2.0);
    /* the other way round: b active, a const */
    double db[6] = {0};
    __enzyme_autodiff((void *)dot, enzyme_const, a, enzyme_dup, B, db, N);
    for (int i = 0; i < N; i++)
        check_exact(lbl("dot_b", i), db[i], a[i]);
    return ad_done();
}
