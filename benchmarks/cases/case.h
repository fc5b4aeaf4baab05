/* Shared pieces of the case-study programs (benchmarks/cases/): C and C++ compatible timing,
   the size-spec argument ("n=2000" instead of a data file) and the key/value output the
   harness (benchmarks/adbench_run.py) reads. Usage of every case: PROG SIZESPEC REPS. */
#ifndef GRADLINK_CASE_H
#define GRADLINK_CASE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
#ifdef __cplusplus
}
#endif

static double case_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* The integer value of KEY in a spec like "n=2000" or "n=64,steps=10"; DEF when absent.
   A malformed value ends the program with exit status 1. */
static long case_spec(const char *spec, const char *key, long def, long lo, long hi) {
    size_t kl = strlen(key);
    const char *p = spec;
    while (p && *p) {
        if (strncmp(p, key, kl) == 0 && p[kl] == '=') {
            char *end;
            long v = strtol(p + kl + 1, &end, 10);
            if (end == p + kl + 1 || (*end && *end != ',') || v < lo || v > hi) {
                fprintf(stderr, "error: %s: malformed size spec for %s\n", spec, key);
                exit(1);
            }
            return v;
        }
        p = strchr(p, ',');
        if (p) p++;
    }
    return def;
}

static int case_reps(int argc, char **argv, const char *usage) {
    if (argc < 3) { fprintf(stderr, "usage: %s SIZESPEC REPS\n", usage); exit(2); }
    int reps = atoi(argv[2]);
    return reps < 1 ? 1 : reps;
}

static int case_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double case_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(double), case_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* median wall time in ms of REPS runs of STMT (each run repeated INNER times) */
#define CASE_MS(REPS, INNER, STMT)                                                        \
    ({                                                                                   \
        double case_t_[64];                                                              \
        int case_r_ = (REPS) < 64 ? (REPS) : 64;                                         \
        for (int r_ = 0; r_ < case_r_; r_++) {                                           \
            double t0_ = case_now();                                                     \
            for (int k_ = 0; k_ < (INNER); k_++) { case_clobber(); STMT; }               \
            case_t_[r_] = (case_now() - t0_) * 1e3 / (INNER);                            \
        }                                                                                \
        case_median(case_t_, case_r_);                                                   \
    })

static volatile double case_sink;

/* keep a timed call from being hoisted out of its repetition loop: the inputs escape once
   (case_escape) and every repetition may have changed them (case_clobber) */
#define case_escape(P) __asm__ volatile("" : : "g"(P) : "memory")
#define case_clobber() __asm__ volatile("" : : : "memory")

/* Central differences of F (a statement expression evaluating the objective) in the entries
   IDX of P (checked at stride so that at most LIMIT entries are checked) against GRAD;
   prints fd_ms (scaled to all NP entries), check_max_rel_err and checked. */
#define CASE_FD_CHECK(P, NP, GRAD, LIMIT, F)                                              \
    do {                                                                                 \
        long np_ = (NP), lim_ = (LIMIT), checked_ = 0;                                   \
        long stride_ = np_ <= lim_ ? 1 : np_ / lim_ + 1;                                 \
        double maxerr_ = 0, t0_ = case_now();                                            \
        for (long i_ = 0; i_ < np_; i_ += stride_, checked_++) {                         \
            double v_ = (P)[i_], h_ = 1e-6 * (fabs(v_) > 1 ? fabs(v_) : 1);               \
            (P)[i_] = v_ + h_;                                                           \
            double fp_ = (F);                                                            \
            (P)[i_] = v_ - h_;                                                           \
            double fm_ = (F);                                                            \
            (P)[i_] = v_;                                                                \
            double fd_ = (fp_ - fm_) / (2 * h_);                                         \
            double err_ = fabs(fd_ - (GRAD)[i_]) / (fabs(fd_) > 1 ? fabs(fd_) : 1);      \
            if (!(err_ <= maxerr_)) maxerr_ = err_;                                      \
        }                                                                                \
        double per_ = (case_now() - t0_) * 1e3 / (checked_ ? checked_ : 1);              \
        printf("fd_ms %.6g\ncheck_max_rel_err %.3g\nchecked %ld\n", per_ * np_, maxerr_, \
               checked_);                                                                \
    } while (0)

#endif
