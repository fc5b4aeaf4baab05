/* libpricing: the library vendor's source, which stays with the vendor. gradlink fat build
   --export-derivatives bs_call:reverse,forward compiles bs_call's derivatives into the library,
   and gradlink fat strip-bitcode removes the bitcode: customers get native code and derivatives
   only, and still differentiate through bs_call, in both modes. */
#include <math.h>

#include "pricing.h"

/* the standard normal distribution function */
static double norm_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

double bs_call(double spot, double strike, double rate, double vol, double expiry) {
    double sd = vol * sqrt(expiry);
    double d1 = (log(spot / strike) + (rate + 0.5 * vol * vol) * expiry) / sd;
    double d2 = d1 - sd;
    return spot * norm_cdf(d1) - strike * exp(-rate * expiry) * norm_cdf(d2);
}
