/* Case study: relu3 in a loop, sum_i (x_i > 0 ? x_i^3 : 0), gradient w.r.t. x.
   Usage: relu3 n=100000 REPS */
#include "case.h"

double relu3_sum(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] > 0 ? pow(x[i], 3) : 0;
    return s;
}

int main(int argc, char **argv) {
    int reps = case_reps(argc, argv, "relu3");
    int n = (int)case_spec(argv[1], "n", 100000, 1, 100000000);
    double *x = malloc(n * sizeof *x), *dx = calloc(n, sizeof *dx);
    for (int i = 0; i < n; i++) x[i] = sin(i * 0.37);
    printf("objective %.17g\nparameters %d\n", relu3_sum(x, n), n);
    case_escape(x);
    double tp = CASE_MS(reps, 10, case_sink = relu3_sum(x, n));
    double tg = CASE_MS(reps, 10, {
        memset(dx, 0, n * sizeof *dx);
        __enzyme_autodiff((void *)relu3_sum, enzyme_dup, x, dx, enzyme_const, n);
    });
    printf("primal_ms %.6g\ngrad_ms %.6g\n", tp, tg);
    CASE_FD_CHECK(x, n, dx, 40, relu3_sum(x, n));
    return 0;
}
