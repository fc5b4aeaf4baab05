/* Vector normalization with restrict pointers: out[i] = in[i] / mag(in). The gradient of
   sum_i v_i out_i through a seeded output shadow is (v - n (n . v)) / |x|. */
#include "ad.h"

static double mag(const double *restrict x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return sqrt(s);
}

void normalize(double *restrict out, const double *restrict in, int n) {
    for (int i = 0; i < n; i++)
        out[i] = in[i] / mag(in, n);
}

static double V[5] = {0.5, -1.0, 0.25, 2.0, -0.75};
static int N;
static double seeded(const double *p, void *c) {
    (void)c;
    double out[5];
    normalize(out, p, N);
    double s = 0;
    for (int i = 0; i < N; i++)
        s += V[i] * out[i];
    return s;
}

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 4; /* 5 */
    double in[5] = {1.0, 2.0, -0.5, 0.3, 1.7}, din[5] = {0};
    double out[5], dout[5];
    memcpy(dout, V, sizeof dout);
    __enzyme_autodiff_void((void *)normalize, enzyme_dup, out, dout, enzyme_dup, in, din, N);
    double m = 0, nv = 0;
    for (int i = 0; i < N; i++)
        m += in[i] * in[i];
    m = sqrt(m);
    for (int i = 0; i < N; i++)
        nv += in[i] / m * V[i];
    for (int i = 0; i < N; i++) {
        check_exact(lbl("out", i), out[i], in[i] / m);
        check_exact(lbl("din", i), din[i], (V[i] - in[i] / m * nv) / m);
        check_fd(lbl("din", i), din[i], fd_partial(seeded, in, N, i, 0));
    }
    return ad_done();
}
