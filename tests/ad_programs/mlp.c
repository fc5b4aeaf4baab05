/* A small MLP layer: loss = sum_i (tanh(W x + b)_i - t_i)^2 with W and b via enzyme_dup and
   x, t const (compiled with -g). */
#include "ad.h"

#define IN 4
#define OUT 3

double layer_loss(const double *W, const double *b, const double *x, const double *t) {
    double loss = 0;
    for (int i = 0; i < OUT; i++) {
        double z = b[i];
        for (int j = 0; j < IN; j++)
            z += W[i * IN + j] * x[j];
        double h = tanh(z);
        loss += (h - t[i]) * (h - t[i]);
    }
    return loss;
}

static double X[IN] = {0.5, -1.0, 0.25, 2.0};
static double T[OUT] = {0.1, -0.4, 0.7};
/* p = (W, b) */
static double loss_p(const double *p, void *c) { (void)c; return layer_loss(p, p + OUT * IN, X, T); }

static __attribute__((noinline)) void init(double *p) {
    for (int k = 0; k < OUT * IN + OUT; k++)
        p[k] = 0.3 * sin(1.7 * k + 0.2);
}

int main(void) {
    double p[OUT * IN + OUT], dp[OUT * IN + OUT] = {0};
    init(p);
    double *W = p, *b = p + OUT * IN, *dW = dp, *db = dp + OUT * IN;
    __enzyme_autodiff((void *)layer_loss, enzyme_dup, W, dW, enzyme_dup, b, db,
                      enzyme_const, X, enzyme_const, T);
    for (int i = 0; i < OUT; i++) {
        double z = b[i];
        for (int j = 0; j < IN; j++)
            z += W[i * IN + j] * X[j];
        double h = tanh(z), dz = 2 * (h - T[i]) * (1 - h * h);
        check_exact(lbl("db", i), db[i], dz);
        for (int j = 0; j < IN; j++)
            check_exact(lbl("dW", i * IN + j), dW[i * IN + j], dz * X[j]);
    }
    for (int k = 0; k < OUT * IN + OUT; k++)
        check_fd(lbl("dp", k), dp[k], fd_partial(loss_p, p, OUT * IN + OUT, k, 0));
    return ad_done();
}
