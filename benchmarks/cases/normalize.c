/* Case study: vector normalization out[i] = in[i] / mag(in) with a noinline mag: an O(n^2)
   primal as written that optimization (mag is read-only, hoisted out of the loop) makes O(n).
   Objective sum_i w_i out_i, gradient w.r.t. in. Usage: normalize n=2000 REPS */
#include "case.h"

__attribute__((noinline)) static double mag(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(s);
}

void normalize(double *restrict out, const double *restrict in, int n) {
    for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n);
}

static double weighted(double *out, const double *in, const double *w, int n) {
    normalize(out, in, n);
    double s = 0;
    for (int i = 0; i < n; i++) s += w[i] * out[i];
    return s;
}

int main(int argc, char **argv) {
    int reps = case_reps(argc, argv, "normalize");
    int n = (int)case_spec(argv[1], "n", 2000, 1, 10000000);
    double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *w = malloc(n * sizeof *w);
    double *din = calloc(n, sizeof *din), *dout = malloc(n * sizeof *dout);
    for (int i = 0; i < n; i++) { in[i] = 1 + 0.001 * i; w[i] = cos(0.1 * i); }
    printf("objective %.17g\nparameters %d\n", weighted(out, in, w, n), n);
    case_escape(in); case_escape(out); case_escape(w);
    double tp = CASE_MS(reps, 1, (normalize(out, in, n), case_sink = out[n - 1]));
    double tg = CASE_MS(reps, 1, {
        memset(din, 0, n * sizeof *din);
        memcpy(dout, w, n * sizeof *dout);
        __enzyme_autodiff((void *)normalize, enzyme_dup, out, dout, enzyme_dup, in, din, enzyme_const, n);
    });
    printf("primal_ms %.6g\ngrad_ms %.6g\n", tp, tg);
    CASE_FD_CHECK(in, n, din, 40, weighted(out, in, w, n));
    return 0;
}
