/* A customer's risk report on the closed-source libpricing.a (native code and precompiled
   derivatives, no bitcode): the value of a book of call options and its sensitivities to the
   market (spot, rate, volatility), differentiated at link time by ld.gradlink through bs_call
   in reverse mode (__enzyme_autodiff: all three in one pass) and forward mode
   (__enzyme_fwddiff: one direction, a market scenario). Checked by central finite
   differences. */
#include <stdio.h>

#include "pricing.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct {
    double strike, expiry, quantity;
} position;

enum { N = 4 };
static const position BOOK[N] = {
    {95, 0.5, 10}, {100, 1.0, -5}, {110, 2.0, 8}, {120, 0.25, -20}};

/* market = {spot, rate, vol} */
double book_value(const double *market, int n) {
    double v = 0;
    for (int i = 0; i < n; i++)
        v += BOOK[i].quantity *
             bs_call(market[0], BOOK[i].strike, market[1], market[2], BOOK[i].expiry);
    return v;
}

static double central(const double *market, const double *dir) {
    const double h = 1e-5;
    double p[3], m[3];
    for (int k = 0; k < 3; k++) {
        p[k] = market[k] + h * dir[k];
        m[k] = market[k] - h * dir[k];
    }
    return (book_value(p, N) - book_value(m, N)) / (2 * h);
}

int main(void) {
    static const char *names[3] = {"spot", "rate", "vol"};
    double market[3] = {102, 0.03, 0.25}, grad[3] = {0};
    printf("book value %.6f\n", book_value(market, N));

    /* reverse mode: the gradient, one pass */
    __enzyme_autodiff((void *)book_value, enzyme_dup, market, grad, enzyme_const, N);
    for (int k = 0; k < 3; k++) {
        double e[3] = {0, 0, 0};
        e[k] = 1;
        printf("reverse: d value / d %-4s = %+.10f   (finite differences %+.10f)\n", names[k],
               grad[k], central(market, e));
    }

    /* forward mode: the derivative along a scenario, spot -2 and vol +0.01 */
    double scenario[3] = {-2, 0, 0.01};
    double t = __enzyme_fwddiff((void *)book_value, enzyme_dup, market, scenario, enzyme_const, N);
    printf("forward: scenario (spot -2, vol +0.01) = %+.10f   (finite differences %+.10f)\n", t,
           central(market, scenario));
    return 0;
}
