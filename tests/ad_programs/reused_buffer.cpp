// A buffer reused by two passes that start by assigning a zero struct to each element (a
// memcpy from an inactive temporary): the adjoints of the overwritten values must die.
// Regression: an n-body leapfrog step computed its accelerations twice into one array.
#include <array>
#include "ad.h"

struct V3 {
    double x, y, z;
    V3 operator-(const V3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
    V3 operator*(double s) const { return {x * s, y * s, z * s}; }
    V3 &operator+=(const V3 &o) { x += o.x; y += o.y; z += o.z; return *this; }
};

static void field(const std::array<V3, 8> &p, std::array<V3, 8> &acc, int n) {
    for (int i = 0; i < n; i++) acc[i] = {0, 0, 0};
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i != j) {
                V3 d = p[j] - p[i];
                acc[i] += d * (1.0 / (d.x * d.x + d.y * d.y + d.z * d.z + 0.1));
            }
}

extern "C" double twice(const double *q, int n) {
    std::array<V3, 8> p, acc, v;
    for (int i = 0; i < n; i++) { p[i] = {q[3 * i], q[3 * i + 1], q[3 * i + 2]}; v[i] = {0, 0, 0}; }
    field(p, acc, n);
    for (int i = 0; i < n; i++) v[i] += acc[i] * 0.5;
    field(p, acc, n);
    for (int i = 0; i < n; i++) v[i] += acc[i] * 0.25;
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z;
    return s;
}

static int N;
static double t_p(const double *p, void *c) { (void)c; return twice(p, N); }

int main(int argc, char **argv) {
    (void)argv;
    N = argc + 1; /* 2 */
    double q[6] = {0.3, -0.8, 1.1, 0.45, 0.2, -0.6}, dq[6] = {0};
    __enzyme_autodiff((void *)twice, enzyme_dup, q, dq, enzyme_const, N);
    for (int i = 0; i < 3 * N; i++) check_fd(lbl("dq", i), dq[i], fd_partial(t_p, q, 3 * N, i, 0));
    return ad_done();
}
