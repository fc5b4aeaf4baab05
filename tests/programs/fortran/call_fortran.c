/* C main program calling the bind(C) routines of c_api.f90. */
#include <stdio.h>

void f_axpy(int n, double a, const double *x, double *y);
double f_norm(int n, const double *x);
void f_report(int n, const double *x);

int main(void) {
  double x[4] = {1.0, 2.0, 3.0, 4.0};
  double y[4] = {10.0, -1.0, 0.5, 2.0};
  f_axpy(4, 2.5, x, y);
  printf("axpy: %.3f %.3f %.3f %.3f\n", y[0], y[1], y[2], y[3]);
  printf("norm: %.6f\n", f_norm(4, y));
  fflush(stdout);
  f_report(4, y);
  printf("back in C\n");
  return 0;
}
