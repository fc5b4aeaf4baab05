/* Two float outs: the caller's struct {float a, b;} is returned as <2 x float> on x86-64. */
#include "ad.h"

typedef struct { float a, b; } f2;
f2 __enzyme_autodiff_f2(void *, ...) __asm__("__enzyme_autodiff");

float pairf(float a, float b) { return a * a * b + expf(b); }
static float pairf_a(float a) { return pairf(a, 0.5f); }
static float pairf_b(float b) { return pairf(1.5f, b); }

int main(void) {
    f2 h = __enzyme_autodiff_f2((void *)pairf, 1.5f, 0.5f);
    check_exactf("pairf_da", h.a, 2.0 * 1.5 * 0.5);
    check_exactf("pairf_db", h.b, 2.25 + exp(0.5));
    check_fdf("pairf_da", h.a, fdf1(pairf_a, 1.5f));
    check_fdf("pairf_db", h.b, fdf1(pairf_b, 0.5f));
    return ad_done();
}
