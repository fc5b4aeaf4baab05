/* Memory overwritten during the function: an input element replaced by a constant (its shadow
   must be cleared in the reverse pass), by an active value, a mutable global read (inactive), and
   a volatile stack temporary. */
#include "ad.h"

double overwrite_const(double *x) {
    double a = x[0] * x[0];
    x[0] = 3.0;
    return a + x[0] * x[1];
}

double overwrite_active(double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) {
        double old = x[i];
        x[i] = old * old;
        s += x[i] * old;       /* old^3 */
    }
    x[0] = 0.0;
    return s + x[0];
}

double global_scale = 2.0;
double reads_global(double x) { return x * global_scale; }

double volatile_tmp(double x) {
    volatile double buf[2];
    buf[0] = x * x;
    buf[1] = buf[0] * x;
    return buf[1];
}

static double vt(double x) { return volatile_tmp(x); }

int main(int argc, char **argv) {
    (void)argv;
    double x[2] = {1.5, -2.0}, dx[2] = {0};
    __enzyme_autodiff((void *)overwrite_const, x, dx);
    check_exact("oc_dx0", dx[0], 2 * 1.5);
    check_exact("oc_dx1", dx[1], 3.0);
    check_exact("oc_primal", x[0], 3.0);
    double y[3] = {0.5, 1.5, -1.0}, dy[3] = {0};
    __enzyme_autodiff((void *)overwrite_active, y, dy, argc + 2);
    double y0[3] = {0.5, 1.5, -1.0};
    for (int i = 0; i < 3; i++)
        check_exact(lbl("oa", i), dy[i], 3 * y0[i] * y0[i]);
    check_exact("reads_global", __enzyme_autodiff((void *)reads_global, 1.0), 2.0);
    double d = __enzyme_autodiff((void *)volatile_tmp, 1.5);
    check_exact("volatile_tmp", d, 3 * 2.25);
    check_fd("volatile_tmp", d, fd1(vt, 1.5));
    return ad_done();
}
