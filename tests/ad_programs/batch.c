/* __enzyme_batch: a function evaluated on W lanes, one value per lane (enzyme_vector, also the
   default) or one for all (enzyme_scalar); results by value ({double, double}; {float, float},
   which the x86-64 ABI returns as <2 x float>), through sret (four doubles), none (a function
   writing through per-lane pointers), and the batch of a function that asks for a derivative
   itself. Each lane is compared with a direct call. */
#include "ad.h"

typedef struct { double a, b; } B2;
typedef struct { float a, b; } F2;
typedef struct { double a, b, c, d; } B4;
extern int enzyme_width, enzyme_vector, enzyme_scalar;
B2 __enzyme_batch2(void *, ...) __asm__("__enzyme_batch");
F2 __enzyme_batchf(void *, ...) __asm__("__enzyme_batch");
B4 __enzyme_batch4(void *, ...) __asm__("__enzyme_batch");
void __enzyme_batchv(void *, ...) __asm__("__enzyme_batch");
double __enzyme_fwddiff(void *, ...);

static int calls;
double poly(double x, int n, double c) {
    calls++;
    double s = c;
    for (int i = 0; i < n; i++) s = s * x + 1.0;
    return s;
}
float scaled(float x, float k) { return sinf(x) * k; }
void axpy(double *y, const double *x, double a) { y[0] += a * x[0]; y[1] += a * x[1]; }
double cube(double g, double x) { return g * x * x * x; }
double dcube(double g, double x) { return __enzyme_fwddiff((void *)cube, g, 0.0, x, 1.0); }

int main(void) {
    B2 two = __enzyme_batch2((void *)poly, enzyme_width, 2, enzyme_vector, 0.5, 1.5,
                             enzyme_scalar, 3, enzyme_vector, 2.0, -1.0);
    check_exact("two0", two.a, poly(0.5, 3, 2.0));
    check_exact("two1", two.b, poly(1.5, 3, -1.0));
    calls = 0;
    B4 four = __enzyme_batch4((void *)poly, enzyme_width, 4, 0.1, 0.2, 0.3, 0.4,
                              enzyme_scalar, 2, enzyme_scalar, 1.0);
    check_exact("lane_calls", calls, 4);
    check_exact("four0", four.a, poly(0.1, 2, 1.0));
    check_exact("four3", four.d, poly(0.4, 2, 1.0));
    F2 f = __enzyme_batchf((void *)scaled, enzyme_width, 2, 0.25f, 0.75f, enzyme_scalar, 3.0f);
    check_exactf("float0", f.a, scaled(0.25f, 3.0f));
    check_exactf("float1", f.b, scaled(0.75f, 3.0f));
    double y0[2] = {1, 2}, y1[2] = {3, 4}, x[2] = {10, 20};
    __enzyme_batchv((void *)axpy, enzyme_width, 2, y0, y1, enzyme_scalar, x,
                    enzyme_vector, 0.5, -1.0);
    check_exact("axpy0", y0[1], 12.0);
    check_exact("axpy1", y1[0], -7.0);
    B2 d = __enzyme_batch2((void *)dcube, enzyme_width, 2, enzyme_scalar, 2.0, 1.0, 3.0);
    check_exact("dcube0", d.a, 3 * 2.0 * 1.0);
    check_exact("dcube1", d.b, 3 * 2.0 * 9.0);
    return ad_done();
}
