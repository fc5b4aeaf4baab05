/* enzyme_const on a float argument, with float values known only at run time (they travel
   through __enzyme_autodiff's "..." and so arrive promoted to double, as C requires). */
#include <stdlib.h>
#include "ad.h"

float scaled_sin(float x, float c) { return sinf(x) * c + c * c; }
double mixed_prec(double x, float c) { return exp(x * c) + c; }

int main(int argc, char **argv) {
    (void)argv;
    float x = 0.25f * (float)(argc + 1);   /* 0.5 */
    float c = 1.5f + (float)argc;          /* 2.5 */
    float d = __enzyme_autodiff_f((void *)scaled_sin, x, enzyme_const, c);
    check_exactf("dx", d, cos(0.5) * 2.5);
    float dc = __enzyme_autodiff_f((void *)scaled_sin, enzyme_const, x, c);
    check_exactf("dc", dc, sin(0.5) + 5.0);
    double xd = 0.5 * argc;                /* 0.5 */
    double dm = __enzyme_autodiff((void *)mixed_prec, xd, enzyme_const, c);
    check_exact("mixed_prec", dm, 2.5 * exp(1.25));
    return ad_done();
}
