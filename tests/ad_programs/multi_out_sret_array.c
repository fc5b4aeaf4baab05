/* Adjoints returned through memory (sret) into structs holding arrays: {double d[3]} (C++'s
   `struct Gradient { double df[3]; }`) and a nested {double a; struct {double b[2];} r;},
   filled leaf by leaf in order. */
#include "ad.h"

typedef struct { double d[3]; } arr3;
typedef struct { double a; struct { double b[2]; } r; } nest3;
arr3 __enzyme_autodiff_arr(void *, ...) __asm__("__enzyme_autodiff");
nest3 __enzyme_autodiff_nest(void *, ...) __asm__("__enzyme_autodiff");

double f3(double x, double y, double z) { return x * y * z + sin(x) * z; }
static double f3_p(const double *p, void *c) { (void)c; return f3(p[0], p[1], p[2]); }

int main(void) {
    double p[3] = {0.4, 1.5, -2.0};
    arr3 g = __enzyme_autodiff_arr((void *)f3, p[0], p[1], p[2]);
    nest3 h = __enzyme_autodiff_nest((void *)f3, p[0], p[1], p[2]);
    check_exact("dx", g.d[0], p[1] * p[2] + cos(p[0]) * p[2]);
    check_exact("dy", g.d[1], p[0] * p[2]);
    check_exact("dz", g.d[2], p[0] * p[1] + sin(p[0]));
    check_exact("nest_dx", h.a, g.d[0]);
    check_exact("nest_dy", h.r.b[0], g.d[1]);
    check_exact("nest_dz", h.r.b[1], g.d[2]);
    check_fd("dz", g.d[2], fd_partial(f3_p, p, 3, 2, 0));
    return ad_done();
}
