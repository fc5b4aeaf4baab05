/* Classic RK4 steps of the damped oscillator x'' = -k x - c x' + sin(t), in a loop with a state
   array on the stack; gradient of the final energy w.r.t. k, c (outs) and the initial state
   (dup) (compiled with -g). */
#include "ad.h"

static void rhs(double t, const double *s, double k, double c, double *ds) {
    ds[0] = s[1];
    ds[1] = -k * s[0] - c * s[1] + sin(t);
}

double simulate(double k, double c, const double *init, int steps) {
    double s[2] = {init[0], init[1]};
    double h = 0.05, t = 0.0;
    for (int n = 0; n < steps; n++) {
        double k1[2], k2[2], k3[2], k4[2], tmp[2];
        rhs(t, s, k, c, k1);
        for (int i = 0; i < 2; i++) tmp[i] = s[i] + 0.5 * h * k1[i];
        rhs(t + 0.5 * h, tmp, k, c, k2);
        for (int i = 0; i < 2; i++) tmp[i] = s[i] + 0.5 * h * k2[i];
        rhs(t + 0.5 * h, tmp, k, c, k3);
        for (int i = 0; i < 2; i++) tmp[i] = s[i] + h * k3[i];
        rhs(t + h, tmp, k, c, k4);
        for (int i = 0; i < 2; i++)
            s[i] += h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        t += h;
    }
    return 0.5 * s[1] * s[1] + 0.5 * k * s[0] * s[0];
}

static int STEPS;
static double sim_p(const double *p, void *ctx) { (void)ctx; return simulate(p[0], p[1], p + 2, STEPS); }

int main(int argc, char **argv) {
    (void)argv;
    STEPS = 39 + argc; /* 40 */
    double p[4] = {2.0, 0.3, 1.0, -0.5};
    double dinit[2] = {0};
    d2 g = __enzyme_autodiff2((void *)simulate, p[0], p[1], enzyme_dup, p + 2, dinit, STEPS);
    check_fd("dk", g.a, fd_partial(sim_p, p, 4, 0, 0));
    check_fd("dc", g.b, fd_partial(sim_p, p, 4, 1, 0));
    check_fd("dx0", dinit[0], fd_partial(sim_p, p, 4, 2, 0));
    check_fd("dv0", dinit[1], fd_partial(sim_p, p, 4, 3, 0));
    return ad_done();
}
