// Softmax regression with liblse: the C++ loss calls lse() from the fat C library, and
// __enzyme_autodiff differentiates the loss at link time (ld.gradlink); through lse it uses the
// derivative the library registered. The gradient is checked by central finite differences.
#include <array>
#include <cmath>
#include <cstdio>

#include "lse.h"

extern "C" {
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
}

namespace {

constexpr int K = 3;   // classes
constexpr int D = 2;   // features
constexpr int N = 4;   // samples

struct Sample {
    std::array<double, D> x;
    int label;
};

// The last sample's scores reach ~750: exp() of them overflows, lse() shifts by the maximum.
const Sample data[N] = {{{1.0, 2.0}, 0}, {{-1.5, 0.5}, 1}, {{0.3, -2.0}, 2}, {{1500, 30}, 2}};

template <int Rows, int Cols>
std::array<double, Rows> affine(const double *w, const std::array<double, Cols> &x) {
    std::array<double, Rows> z{};
    for (int r = 0; r < Rows; r++) {
        z[r] = w[r * (Cols + 1) + Cols];                       // bias
        for (int c = 0; c < Cols; c++) z[r] += w[r * (Cols + 1) + c] * x[c];
    }
    return z;
}

}  // namespace

// Mean cross-entropy of the softmax classifier with weights w (K rows of D weights + bias).
double loss(const double *w, int n) {
    double total = 0;
    for (int i = 0; i < n; i++) {
        std::array<double, K> z = affine<K, D>(w, data[i].x);
        total += lse(z.data(), K) - z[data[i].label];
    }
    return total / n;
}

int main() {
    constexpr int P = K * (D + 1);
    double w[P] = {0.5, -0.2, 0.1, -0.3, 0.8, 0.0, 0.2, -0.6, -0.1};
    double g[P] = {0};
    __enzyme_autodiff((void *)loss, enzyme_dup, w, g, enzyme_const, N);
    std::printf("loss %.6f\n", loss(w, N));
    for (int p = 0; p < P; p++) {
        const double h = 1e-6;
        double wp[P], wm[P];
        for (int q = 0; q < P; q++) wp[q] = wm[q] = w[q];
        wp[p] += h;
        wm[p] -= h;
        double fd = (loss(wp, N) - loss(wm, N)) / (2 * h);
        std::printf("d loss / d w[%d] = %+.10f   (finite differences %+.10f)\n", p, g[p], fd);
    }
    return 0;
}
