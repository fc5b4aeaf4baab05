/* C++ factories returning objects they allocate with new (not inlined), called where
   exceptions may pass: a vector-like object built from active inputs, and a zeroed block the
   caller fills. Reverse and forward mode, against finite differences. */
#include <stdexcept>
#include "ad.h"

extern "C" double __enzyme_fwddiff(void *, ...);

struct Poly {
    double *c;
    int n;
};

__attribute__((noinline)) static Poly *make_poly(double a, double b, int n) {
    if (n < 2) throw std::invalid_argument("n");
    Poly *p = new Poly;
    p->n = n;
    p->c = new double[n];
    p->c[0] = a * b;
    p->c[1] = a - b;
    for (int i = 2; i < n; i++) p->c[i] = p->c[i - 1] * 0.5 + p->c[i - 2];
    return p;
}

__attribute__((noinline)) static double *block(int n) {
    if (n > 1000) throw std::length_error("n");
    return new double[n]();
}

static double model(double a, double b) {
    Poly *p = make_poly(a, b, 4);
    double *w = block(2);
    w[0] = sin(a) * p->c[3];
    w[1] = w[0] * p->c[2];
    double s = 0;
    for (int i = 0; i < p->n; i++) s += p->c[i] * w[i % 2];
    delete[] w;
    delete[] p->c;
    delete p;
    return s;
}

static double model_p(const double *x, void *) { return model(x[0], x[1]); }

int main() {
    double x[2] = {0.8, -0.4};
    d2 g = __enzyme_autodiff2((void *)model, x[0], x[1]);
    check_fd("da", g.a, fd_partial(model_p, x, 2, 0, nullptr));
    check_fd("db", g.b, fd_partial(model_p, x, 2, 1, nullptr));
    double ta = __enzyme_fwddiff((void *)model, x[0], 1.0, x[1], 0.0);
    double tb = __enzyme_fwddiff((void *)model, x[0], 0.0, x[1], 1.0);
    check_exact("tangent_a", ta, g.a);
    check_exact("tangent_b", tb, g.b);
    return ad_done();
}
