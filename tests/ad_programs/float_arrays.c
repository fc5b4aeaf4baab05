/* f32 functions over float arrays (dup): a softmax cross-entropy style loss and a float
   Horner loop with an active coefficient array. */
#include "ad.h"

float logsumexp_loss(const float *z, int n, int target) {
    float m = z[0];
    for (int i = 1; i < n; i++)
        m = z[i] > m ? z[i] : m;
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += expf(z[i] - m);
    return logf(s) + m - z[target];
}

float poly(const float *c, int n, const float *xs, int m) {
    float total = 0.0f;
    for (int k = 0; k < m; k++) {
        float r = 0.0f;
        for (int i = n - 1; i >= 0; i--)
            r = r * xs[k] + c[i];
        total += r * r;
    }
    return total;
}

static float Z[5] = {0.5f, -1.0f, 2.0f, 0.25f, 1.5f};
static float XS[3] = {0.5f, -0.25f, 1.0f};

int main(int argc, char **argv) {
    (void)argv;
    int n = argc + 4; /* 5 */
    float dz[5] = {0};
    __enzyme_autodiff_f((void *)logsumexp_loss, enzyme_dup, Z, dz, n, 2);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += exp(Z[i]);
    for (int i = 0; i < n; i++) {
        check_exactf(lbl("lse", i), dz[i], exp(Z[i]) / s - (i == 2));
        float z0 = Z[i], h = fdf_step(z0);
        Z[i] = z0 + h;
        float fp = logsumexp_loss(Z, n, 2);
        Z[i] = z0 - h;
        float fm = logsumexp_loss(Z, n, 2);
        Z[i] = z0;
        check_fdf(lbl("lse", i), dz[i], ((double)fp - fm) / (2.0 * h));
    }
    float c[4] = {1.0f, -0.5f, 0.25f, 2.0f}, dc[4] = {0};
    __enzyme_autodiff_f((void *)poly, enzyme_dup, c, dc, enzyme_const, 4, enzyme_const, XS, 3);
    for (int i = 0; i < 4; i++) {
        double want = 0;
        for (int k = 0; k < 3; k++) {
            double r = 0;
            for (int j = 3; j >= 0; j--)
                r = r * XS[k] + c[j];
            want += 2 * r * pow(XS[k], i);
        }
        check_exactf(lbl("poly", i), dc[i], want);
    }
    return ad_done();
}
