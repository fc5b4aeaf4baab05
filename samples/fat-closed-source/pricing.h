/* pricing.h: libpricing, a closed-source option-pricing library shipped as native code with
   precompiled derivatives (no source, no bitcode). */
#ifndef PRICING_H
#define PRICING_H

/* Black-Scholes price of a European call: spot price, strike, risk-free rate, volatility and
   time to expiry in years. */
double bs_call(double spot, double strike, double rate, double vol, double expiry);

#endif
