/* A derivative request inside a differentiated function, declared in C++ without extern "C"
   (its name is mangled: _Z18__enzyme_autodiff1Pvidd): the inner request is replaced in an
   earlier round, then the outer one differentiates through it (perturbation confusion: x is
   both the outer variable and an inner constant). */
#include "ad.h"

double __enzyme_autodiff1(void *, int, double, double);
double __enzyme_autodiff2(void *, double);

static double f(double x, double y) { return sin(x) * y * y; }

/* d/dy f(x, y) at y = 3, times x: x * 6 sin(x) */
static double df(double x) { return x * __enzyme_autodiff1((void *)f, enzyme_const, x, 3.0); }

int main() {
    double x = 0.7;
    double d2 = __enzyme_autodiff2((void *)df, x);
    check_exact("outer", d2, 6 * sin(x) + 6 * x * cos(x));
    check_fd("outer_fd", d2, fd1(df, x));
    return ad_done();
}
