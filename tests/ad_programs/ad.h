/* Shared declarations and checks for the end-to-end AD programs (tests/test_ad_programs.py).

   Every program computes gradients with __enzyme_autodiff and with central finite differences
   of the same primal function, and prints one line per comparison:

     fd     LABEL AD FD      double, FD with h = 1e-6 relative     (test: rtol 1e-5)
     fdf    LABEL AD FD      float primal, h = 1e-3 relative       (test: rtol 2e-2)
     exact  LABEL AD WANT    analytic derivative, double           (test: rtol 1e-10)
     exactf LABEL AD WANT    analytic derivative, float            (test: rtol 1e-5)

   and "done" last. The test parses these lines; nothing else is printed. */
#ifndef GRADLINK_TEST_AD_H
#define GRADLINK_TEST_AD_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

typedef struct { double a, b; } d2;
typedef struct { double a, b, c; } d3;
d2 __enzyme_autodiff2(void *, ...) __asm__("__enzyme_autodiff");
d3 __enzyme_autodiff3(void *, ...) __asm__("__enzyme_autodiff");
float __enzyme_autodiff_f(void *, ...) __asm__("__enzyme_autodiff");
void __enzyme_autodiff_void(void *, ...) __asm__("__enzyme_autodiff");

#ifdef __cplusplus
}
#endif

#define FD_MAX 256

/* The finite-difference helpers stay out of line: the caller of __enzyme_autodiff (main) is read
   by gradlink's IR reader, and these helpers only evaluate the primal. */
#define FD_HELPER static __attribute__((noinline, unused))

static inline double fd_step(double x) { return 1e-6 * (fabs(x) > 1.0 ? fabs(x) : 1.0); }
static inline float fdf_step(float x) { return 1e-3f * (fabsf(x) > 1.0f ? fabsf(x) : 1.0f); }

/* d f / d x at x (f: double -> double). */
FD_HELPER double fd1(double (*f)(double), double x) {
    double h = fd_step(x);
    volatile double xp = x + h, xm = x - h;
    return (f(xp) - f(xm)) / (xp - xm);
}

/* d f / d x at x (f: float -> float), evaluated in float. */
FD_HELPER double fdf1(float (*f)(float), float x) {
    float h = fdf_step(x);
    volatile float xp = x + h, xm = x - h;
    return ((double)f(xp) - (double)f(xm)) / ((double)xp - (double)xm);
}

/* d f / d p[i] at p (f reads n parameters from an array; ctx is passed through). */
typedef double (*fd_fn)(const double *p, void *ctx);
FD_HELPER double fd_partial(fd_fn f, const double *p0, int n, int i, void *ctx) {
    double p[FD_MAX];
    memcpy(p, p0, sizeof(double) * (size_t)n);
    double h = fd_step(p0[i]);
    volatile double xp = p0[i] + h, xm = p0[i] - h;
    p[i] = xp;
    double fp = f(p, ctx);
    p[i] = xm;
    double fm = f(p, ctx);
    return (fp - fm) / (xp - xm);
}

static inline void check_fd(const char *label, double ad, double fd) {
    printf("fd %s %.17g %.17g\n", label, ad, fd);
}
static inline void check_fdf(const char *label, double ad, double fd) {
    printf("fdf %s %.17g %.17g\n", label, ad, fd);
}
static inline void check_exact(const char *label, double ad, double want) {
    printf("exact %s %.17g %.17g\n", label, ad, want);
}
static inline void check_exactf(const char *label, double ad, double want) {
    printf("exactf %s %.17g %.17g\n", label, ad, want);
}
/* label with an index: "name[i]" */
static inline const char *lbl(const char *name, int i) {
    static char buf[8][64];
    static int k;
    char *b = buf[k++ & 7];
    snprintf(b, 64, "%s[%d]", name, i);
    return b;
}
static inline int ad_done(void) {
    printf("done\n");
    return 0;
}

#endif
