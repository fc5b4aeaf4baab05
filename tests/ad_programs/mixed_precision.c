/* Conversions between float and double inside the differentiated function (fptrunc/fpext). */
#include "ad.h"

double mixed(double x) {
    float f = (float)(x * 1.5);
    float g = sinf(f) * f;
    return (double)g * x + exp((double)f);
}

int main(void) {
    double x = 0.6;
    double d = __enzyme_autodiff((void *)mixed, x);
    float f = (float)(x * 1.5);
    double want = ((double)cosf(f) * f + sinf(f)) * 1.5 * x + (double)(sinf(f) * f) + exp((double)f) * 1.5;
    check_exactf("mixed", d, want);
    return ad_done();
}
