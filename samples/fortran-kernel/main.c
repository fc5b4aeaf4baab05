/* C driver for the Fortran kernels in kernel.f90. */
#include <math.h>
#include <stdio.h>

void f_saxpy(int n, double a, const double *x, double *y);
double f_dot(int n, const double *x, const double *y);
void f_norm_and_peak(int n, const double *x, double *nrm, int *peak);

#define N 1000

int main(void) {
    static double x[N], y[N], ones[N];
    for (int i = 0; i < N; i++) {
        x[i] = cos(0.01 * i);
        y[i] = 0.001 * i;
        ones[i] = 1.0;
    }
    printf("x . y          = %.6f\n", f_dot(N, x, y));
    f_saxpy(N, 2.5, x, y);
    printf("y[0], y[999]   = %.6f, %.6f\n", y[0], y[N - 1]);
    printf("sum after axpy = %.6f\n", f_dot(N, y, ones));
    double nrm;
    int peak;
    f_norm_and_peak(N, y, &nrm, &peak);
    printf("||y||          = %.6f\n", nrm);
    printf("peak |y| at    = %d (value %.6f)\n", peak, y[peak - 1]);
    return 0;
}
