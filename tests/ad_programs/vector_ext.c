/* GCC vector extensions (<2 x double> in the source) and a loop with a floating-point
   induction variable. */
#include "ad.h"

typedef double v2 __attribute__((vector_size(16)));

double vec_energy(const v2 *a, int n) {
    v2 s = {0, 0};
    for (int i = 0; i < n; i++)
        s += a[i] * a[i] * (v2){1.0, 2.0};
    return s[0] + s[1];
}

double float_induction(double a) {
    double s = 0;
    for (double t = 0; t < 1.0; t += 0.125)
        s += sin(a * t);
    return s;
}

int main(int argc, char **argv) {
    (void)argv;
    v2 a[2] = {{1, 2}, {3, 4}}, da[2] = {{0, 0}, {0, 0}};
    __enzyme_autodiff((void *)vec_energy, a, da, argc + 1);
    check_exact("da00", da[0][0], 2.0);
    check_exact("da01", da[0][1], 8.0);
    check_exact("da10", da[1][0], 6.0);
    check_exact("da11", da[1][1], 16.0);
    double want = 0;
    for (double t = 0; t < 1.0; t += 0.125)
        want += t * cos(0.7 * t);
    double d = __enzyme_autodiff((void *)float_induction, 0.7);
    check_exact("float_induction", d, want);
    check_fd("float_induction", d, fd1(float_induction, 0.7));
    return ad_done();
}
