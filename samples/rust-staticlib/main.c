/* C caller of the Rust staticlib librsmath.a. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

double rs_dot(const double *a, const double *b, size_t n);
double rs_norm(const double *a, size_t n);
int rs_moments(const double *a, size_t n, double out[2]);
double rs_sort_median(double *a, size_t n);
size_t rs_describe(const double *a, size_t n, char *buf, size_t cap);

#define N 16

int main(void) {
    double a[N], b[N], m[2];
    char buf[96];
    for (int i = 0; i < N; i++) {
        a[i] = sin(0.5 * i) * (i + 1);
        b[i] = 1.0 / (i + 1.0);
    }
    printf("dot(a, b)   = %.6f\n", rs_dot(a, b, N));
    printf("norm(a)     = %.6f\n", rs_norm(a, N));
    printf("norm(b)     = %.6f\n", rs_norm(b, N));
    if (rs_moments(a, N, m) != 0 || rs_moments(a, 0, m) != -1)
        return 1;
    printf("mean(a)     = %.6f\n", m[0]);
    printf("var(a)      = %.6f\n", m[1]);
    size_t len = rs_describe(a, N, buf, sizeof buf);
    printf("describe(a) = %s (%zu chars)\n", buf, len);
    printf("median(a)   = %.6f\n", rs_sort_median(a, N));
    printf("sorted a[0] = %.6f, a[%d] = %.6f\n", a[0], N - 1, a[N - 1]);
    return 0;
}
