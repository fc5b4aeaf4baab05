/* enzyme_dupnoneed on an output array: only its shadow (the seed) matters; the primal output
   need not be written. */
#include "ad.h"

void squares(double *out, const double *in, int n) {
    for (int i = 0; i < n; i++)
        out[i] = in[i] * in[i] * in[i] - in[i];
}

int main(void) {
    double in[4] = {0.5, -1.0, 2.0, 1.5}, din[4] = {0};
    double out[4] = {0}, dout[4] = {1.0, 2.0, 3.0, 4.0};
    __enzyme_autodiff_void((void *)squares, enzyme_dupnoneed, out, dout, enzyme_dup, in, din, 4);
    for (int i = 0; i < 4; i++)
        check_exact(lbl("din", i), din[i], (i + 1) * (3 * in[i] * in[i] - 1));
    return ad_done();
}
