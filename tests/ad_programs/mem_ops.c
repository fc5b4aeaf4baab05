/* memmove (overlapping shift), memset of active memory, memcpy of floats, and a constant global
   table read with the data. */
#include <stdlib.h>
#include "ad.h"

static const double COEF[4] = {0.5, -1.25, 2.0, 0.75};

double shifted(const double *x, int n) {
    double buf[8];
    memcpy(buf, x, n * sizeof(double));
    memmove(buf + 1, buf, (n - 1) * sizeof(double)); /* overlapping: buf[i] = x[i-1] */
    buf[0] = 0.25;
    double s = 0;
    for (int i = 0; i < n; i++)
        s += COEF[i & 3] * buf[i] * buf[i];
    return s;
}

double cleared(const double *x, int n) {
    double acc[8];
    for (int i = 0; i < n; i++) acc[i] = x[i] * 3.0;
    double first = acc[0] * acc[1];
    memset(acc, 0, n * sizeof(double)); /* the earlier values' adjoints die here */
    for (int i = 0; i < n; i++) acc[i] += x[i];
    double s = first;
    for (int i = 0; i < n; i++) s += acc[i] * acc[i];
    return s;
}

float floats(const float *x, int n) {
    float tmp[8];
    memcpy(tmp, x, n * sizeof(float));
    float s = 0;
    for (int i = 0; i < n; i++) s += tmp[i] * tmp[i] * tmp[i];
    return s;
}

static int N;
static double sh_p(const double *p, void *c) { (void)c; return shifted(p, N); }
static double cl_p(const double *p, void *c) { (void)c; return cleared(p, N); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 3; /* 4 */
    double x[4] = {1.0, -2.0, 0.5, 3.0}, dx[4] = {0}, dy[4] = {0};
    __enzyme_autodiff((void *)shifted, enzyme_dup, x, dx, enzyme_const, N);
    for (int i = 0; i < N; i++) {
        double want = i < N - 1 ? 2 * COEF[(i + 1) & 3] * x[i] : 0.0;
        check_exact(lbl("shifted", i), dx[i], want);
        check_fd(lbl("shifted", i), dx[i], fd_partial(sh_p, x, N, i, 0));
    }
    __enzyme_autodiff((void *)cleared, enzyme_dup, x, dy, enzyme_const, N);
    for (int i = 0; i < N; i++) {
        double want = 2 * x[i] + (i == 0 ? 9 * x[1] : i == 1 ? 9 * x[0] : 0.0);
        check_exact(lbl("cleared", i), dy[i], want);
        check_fd(lbl("cleared", i), dy[i], fd_partial(cl_p, x, N, i, 0));
    }
    float xf[4] = {1.0f, -2.0f, 0.5f, 3.0f}, df[4] = {0};
    __enzyme_autodiff((void *)floats, enzyme_dup, xf, df, enzyme_const, N);
    for (int i = 0; i < N; i++)
        check_exactf(lbl("floats", i), df[i], 3.0 * xf[i] * xf[i]);
    return ad_done();
}
