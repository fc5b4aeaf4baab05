/* lse.h: liblse, a numerically stable log-sum-exp with a hand-written derivative. */
#ifndef LSE_H
#define LSE_H
#ifdef __cplusplus
extern "C" {
#endif

/* log(exp(x[0]) + ... + exp(x[n-1])), without overflow for large x (n >= 1). */
double lse(const double *x, int n);

#ifdef __cplusplus
}
#endif
#endif
