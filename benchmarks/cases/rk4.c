/* Case study: RK4 integration of a damped pendulum y'' = -k sin(y) - 0.1 y' (h = 0.01);
   objective y(T)^2 + y'(T), gradient w.r.t. the initial state (y0, y0') and the parameter k.
   Usage: rk4 steps=1000 REPS */
#include "case.h"

static void rhs(const double *y, double *dy, double k) {
    dy[0] = y[1];
    dy[1] = -k * sin(y[0]) - 0.1 * y[1];
}

/* p = {y0, y0', k} */
double integrate(const double *p, int steps) {
    double y[2] = {p[0], p[1]}, k = p[2], a[2], b[2], c[2], d[2], t[2], h = 0.01;
    for (int s = 0; s < steps; s++) {
        rhs(y, a, k);
        for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * a[i];
        rhs(t, b, k);
        for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * b[i];
        rhs(t, c, k);
        for (int i = 0; i < 2; i++) t[i] = y[i] + h * c[i];
        rhs(t, d, k);
        for (int i = 0; i < 2; i++) y[i] += h / 6 * (a[i] + 2 * b[i] + 2 * c[i] + d[i]);
    }
    return y[0] * y[0] + y[1];
}

int main(int argc, char **argv) {
    int reps = case_reps(argc, argv, "rk4");
    int steps = (int)case_spec(argv[1], "steps", 1000, 1, 100000000);
    double p[3] = {1.0, 0.0, 2.0}, dp[3] = {0, 0, 0};
    printf("objective %.17g\nparameters 3\n", integrate(p, steps));
    case_escape(p);
    double tp = CASE_MS(reps, 20, case_sink = integrate(p, steps));
    double tg = CASE_MS(reps, 20, {
        dp[0] = dp[1] = dp[2] = 0;
        __enzyme_autodiff((void *)integrate, enzyme_dup, p, dp, enzyme_const, steps);
    });
    printf("primal_ms %.6g\ngrad_ms %.6g\n", tp, tg);
    CASE_FD_CHECK(p, 3, dp, 3, integrate(p, steps));
    return 0;
}
