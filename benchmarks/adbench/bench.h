/* Shared pieces of the ADBench objectives in C (gmm.c, lstm.c): timing, strict readers that
   fail cleanly on malformed input, and the key/value output the harness reads. */
#ifndef GRADLINK_BENCH_H
#define GRADLINK_BENCH_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

static double bench_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static const char *bench_file = "";

static void bench_die(const char *msg) {
    fprintf(stderr, "error: %s: %s\n", bench_file, msg);
    exit(1);
}

static FILE *bench_open(const char *path) {
    bench_file = path;
    FILE *f = fopen(path, "r");
    if (!f) bench_die("cannot open");
    return f;
}

static double bench_read_double(FILE *f) {
    double v;
    if (fscanf(f, "%lf", &v) != 1) bench_die("malformed or truncated: expected a number");
    if (!isfinite(v)) bench_die("malformed: a number is not finite");
    return v;
}

static int bench_read_int(FILE *f, int lo, int hi) {
    int v;
    if (fscanf(f, "%d", &v) != 1) bench_die("malformed or truncated: expected an integer");
    if (v < lo || v > hi) bench_die("malformed: an integer is out of range");
    return v;
}

static double *bench_read_doubles(FILE *f, long n) {
    double *p = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!p) bench_die("out of memory");
    for (long i = 0; i < n; i++) p[i] = bench_read_double(f);
    return p;
}

static int bench_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double bench_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(double), bench_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* median wall time in ms of REPS runs of STMT (each run repeated INNER times) */
#define BENCH_MS(REPS, INNER, STMT)                                                       \
    ({                                                                                   \
        double bench_t_[64];                                                             \
        int bench_r_ = (REPS) < 64 ? (REPS) : 64;                                        \
        for (int r_ = 0; r_ < bench_r_; r_++) {                                          \
            double t0_ = bench_now();                                                    \
            for (int k_ = 0; k_ < (INNER); k_++) { STMT; }                               \
            bench_t_[r_] = (bench_now() - t0_) * 1e3 / (INNER);                          \
        }                                                                                \
        bench_median(bench_t_, bench_r_);                                                \
    })

static volatile double bench_sink;

#endif
