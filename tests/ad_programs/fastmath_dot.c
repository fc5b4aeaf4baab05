/* Compiled with -ffast-math: the dot product's reduction is vectorized (llvm.vector.reduce.fadd)
   and the libm calls become intrinsics. */
#include "ad.h"

double dot_exp(const double *a, const double *b, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return exp(0.1 * s);
}

static double B[20];
static int N;
static double d_p(const double *p, void *c) { (void)c; return dot_exp(p, B, N); }

static __attribute__((noinline)) void init(double *a) {
    for (int i = 0; i < N; i++) {
        a[i] = 0.05 * i - 0.3;
        B[i] = 1.0 - 0.1 * i;
    }
}

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 18; /* 19 */
    double a[20], da[20] = {0};
    init(a);
    __enzyme_autodiff((void *)dot_exp, enzyme_dup, a, da, enzyme_const, B, N);
    double s = 0;
    for (int i = 0; i < N; i++)
        s += a[i] * B[i];
    for (int i = 0; i < N; i++) {
        check_fd(lbl("da", i), da[i], fd_partial(d_p, a, N, i, 0));
        check_fd(lbl("da_exact", i), da[i], 0.1 * B[i] * exp(0.1 * s));
    }
    return ad_done();
}
