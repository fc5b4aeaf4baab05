/* Multi-CU: the differentiated function calls functions defined in another translation unit,
   which the test compiles into a bitcode archive (libmulticu.a); LTO inlines them. */
#include "ad.h"

double cu_poly(double x, double a);
double cu_norm2(const double *v, int n);
void cu_scale(double *v, int n, double s);

double objective(double x, double *v, int n) {
    cu_scale(v, n, x);
    return cu_poly(x, 0.5) * cu_norm2(v, n);
}

static double V0[3] = {1.0, -2.0, 0.5};
static double obj_p(const double *p, void *c) {
    (void)c;
    double v[3] = {p[1], p[2], p[3]};
    return objective(p[0], v, 3);
}

int main(void) {
    double p[4] = {1.3, V0[0], V0[1], V0[2]};
    double v[3] = {V0[0], V0[1], V0[2]}, dv[3] = {0};
    double dx = __enzyme_autodiff((void *)objective, p[0], enzyme_dup, v, dv, 3);
    check_fd("dx", dx, fd_partial(obj_p, p, 4, 0, 0));
    for (int i = 0; i < 3; i++)
        check_fd(lbl("dv", i), dv[i], fd_partial(obj_p, p, 4, 1 + i, 0));
    return ad_done();
}
