/* Logistic regression in C on softplus from the Rust fat library libsoftplus.a:
   loss(w) = sum_i softplus(-y_i (w . x_i)) + (lambda / 2) |w|^2, the logistic loss.
   __enzyme_autodiff differentiates loss at link time (ld.gradlink); through softplus it uses
   the derivative the Rust crate registered. The gradient is checked by central finite
   differences. */
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

double softplus(double x); /* Rust: #[no_mangle] pub extern "C" fn softplus(x: f64) -> f64 */

enum { D = 3, N = 5 };

/* features (the last one is 1: the bias) and labels +1 / -1; the last sample is misclassified
   by a margin of 760, where log(1 + e^760) computed naively overflows (softplus does not) */
static const double X[N][D] = {
    {0.5, 1.2, 1}, {-1.1, 0.3, 1}, {2.0, -0.7, 1}, {-0.4, -1.5, 1}, {1200, 500, 1}};
static const double Y[N] = {1, -1, 1, -1, -1};

double loss(const double *w, int n) {
    double total = 0;
    for (int i = 0; i < n; i++) {
        double z = 0;
        for (int j = 0; j < D; j++) z += w[j] * X[i][j];
        total += softplus(-Y[i] * z);
    }
    double reg = 0;
    for (int j = 0; j < D; j++) reg += w[j] * w[j];
    return total + 0.05 * reg;
}

int main(void) {
    double w[D] = {0.8, -0.4, 0.1}, g[D] = {0};
    __enzyme_autodiff((void *)loss, enzyme_dup, w, g, enzyme_const, N);
    printf("loss %.6f\n", loss(w, N));
    for (int j = 0; j < D; j++) {
        const double h = 1e-6;
        double wp[D], wm[D];
        for (int k = 0; k < D; k++) wp[k] = wm[k] = w[k];
        wp[j] += h;
        wm[j] -= h;
        double fd = (loss(wp, N) - loss(wm, N)) / (2 * h);
        printf("d loss / d w[%d] = %+.10f   (finite differences %+.10f)\n", j, g[j], fd);
    }
    return 0;
}
