/* float (f32) libm calls: sinf, cosf, expf, logf, sqrtf, tanhf, powf, fabsf, atan2f, hypotf. */
#include "ad.h"

#define UNARY(fn) \
    float f_##fn(float x) { return fn(x); }
UNARY(sinf) UNARY(cosf) UNARY(expf) UNARY(logf) UNARY(sqrtf) UNARY(tanhf) UNARY(fabsf)
UNARY(erff) UNARY(log1pf)
float f_powf(float x) { return powf(x, 1.7f); }
float f_atan2f(float x) { return atan2f(x, 0.9f) + hypotf(x, 2.0f); }
float mixf(float x) { return expf(-x * x) * sinf(3.0f * x) + sqrtf(1.0f + x * x); }

#define CHECK(fn, x0, want)                                            \
    do {                                                               \
        float x = (x0);                                                \
        float d = __enzyme_autodiff_f((void *)f_##fn, x);              \
        check_exactf(#fn, d, (want));                                  \
        check_fdf(#fn, d, fdf1(f_##fn, x));                            \
    } while (0)

int main(void) {
    CHECK(sinf, 0.7f, cos(x));
    CHECK(cosf, 0.7f, -sin(x));
    CHECK(expf, 1.2f, exp(x));
    CHECK(logf, 2.5f, 1.0 / x);
    CHECK(sqrtf, 3.0f, 0.5 / sqrt(x));
    CHECK(tanhf, 0.5f, 1.0 - tanh(x) * tanh(x));
    CHECK(fabsf, -0.5f, -1.0);
    CHECK(erff, 0.3f, 2.0 / sqrt(M_PI) * exp(-(double)x * x));
    CHECK(log1pf, 0.3f, 1.0 / (1.0 + x));
    CHECK(powf, 1.4f, 1.7 * pow(x, 0.7));
    CHECK(atan2f, 0.4f, 0.9 / (0.81 + (double)x * x) + x / sqrt((double)x * x + 4.0));
    float x = 0.6f;
    check_fdf("mixf", __enzyme_autodiff_f((void *)mixf, x), fdf1(mixf, x));
    return ad_done();
}
