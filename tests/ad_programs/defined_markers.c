/* The program defines the activity markers itself (as many Enzyme examples do): they must
   stay markers, not become zeros the optimizer folds into the arguments. */
#include "ad.h"

int enzyme_dup, enzyme_const;

static double sum_cubes(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
    return s;
}

int main(void) {
    double x[3] = {0.5, -1.0, 2.0}, dx[3] = {0};
    __enzyme_autodiff((void *)sum_cubes, enzyme_dup, x, dx, enzyme_const, 3);
    for (int i = 0; i < 3; i++) check_exact(lbl("dx", i), dx[i], 3 * x[i] * x[i]);
    return ad_done();
}
