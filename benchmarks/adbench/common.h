/* Shared helpers of the ADBench objectives in C (ba.c, hand.c): timing, a clean error exit, and
   strict readers that check every read and fail with `error: FILE: ...` (exit 1) on malformed or
   truncated input. Small static functions only; include once per program. */
#ifndef GRADLINK_ADBENCH_COMMON_H
#define GRADLINK_ADBENCH_COMMON_H

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out, enzyme_width;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void die(const char *file, const char *msg) {
    fprintf(stderr, "error: %s: %s\n", file, msg);
    exit(1);
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) die("(memory)", "out of memory");
    return p;
}

static void *xcalloc(size_t n, size_t sz) {
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) die("(memory)", "out of memory");
    return p;
}

static FILE *open_or_die(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot open (%s)", strerror(errno));
        die(path, msg);
    }
    return f;
}

/* One whitespace-separated number; truncation, garbage and non-finite values are errors. */
static double read_double(FILE *f, const char *path, const char *what) {
    double v;
    char msg[256];
    int r = fscanf(f, "%lf", &v);
    if (r != 1) {
        snprintf(msg, sizeof msg, "%s reading %s", r == EOF ? "unexpected end of file" : "malformed number", what);
        die(path, msg);
    }
    if (!isfinite(v)) {
        snprintf(msg, sizeof msg, "non-finite number reading %s", what);
        die(path, msg);
    }
    return v;
}

static int read_int(FILE *f, const char *path, const char *what, int lo, int hi) {
    long v;
    char msg[256];
    int r = fscanf(f, "%ld", &v);
    if (r != 1) {
        snprintf(msg, sizeof msg, "%s reading %s", r == EOF ? "unexpected end of file" : "malformed integer", what);
        die(path, msg);
    }
    if (v < lo || v > hi) {
        snprintf(msg, sizeof msg, "%s = %ld out of range [%d, %d]", what, v, lo, hi);
        die(path, msg);
    }
    return (int)v;
}

/* Reads every remaining number up to end of file (garbage is an error); returns the count. */
static long read_rest(FILE *f, const char *path, double **out) {
    long n = 0, cap = 64;
    double *v = xmalloc(sizeof(double) * (size_t)cap), x;
    int r;
    while ((r = fscanf(f, "%lf", &x)) == 1) {
        if (!isfinite(x)) die(path, "non-finite number");
        if (n == cap) {
            cap *= 2;
            v = realloc(v, sizeof(double) * (size_t)cap);
            if (!v) die(path, "out of memory");
        }
        v[n++] = x;
    }
    if (r != EOF || ferror(f)) die(path, "malformed number");
    *out = v;
    return n;
}

/* One line split at SEP into at most MAXF fields (in BUF, modified); returns the field count,
   0 at end of file. A line longer than the buffer is an error. */
static int read_fields(FILE *f, const char *path, char *buf, int size, char sep, char **fields, int maxf) {
    if (!fgets(buf, size, f)) {
        if (ferror(f)) die(path, "read error");
        return 0;
    }
    size_t len = strlen(buf);
    if (len == (size_t)size - 1 && buf[len - 1] != '\n' && !feof(f)) die(path, "line too long");
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) buf[--len] = 0;
    if (!len) return read_fields(f, path, buf, size, sep, fields, maxf); /* skip blank lines */
    int n = 0;
    char *p = buf;
    for (;;) {
        if (n == maxf) die(path, "too many fields on a line");
        fields[n++] = p;
        char *q = strchr(p, sep);
        if (!q) break;
        *q = 0;
        p = q + 1;
    }
    return n;
}

static double parse_double(const char *path, const char *s, const char *what) {
    char *end;
    char msg[256];
    errno = 0;
    double v = strtod(s, &end);
    while (*end == ' ' || *end == '\t') end++;
    if (end == s || *end || !isfinite(v)) {
        snprintf(msg, sizeof msg, "malformed number '%.40s' in %s", s, what);
        die(path, msg);
    }
    return v;
}

static int parse_int(const char *path, const char *s, const char *what, int lo, int hi) {
    char *end;
    char msg[256];
    errno = 0;
    long v = strtol(s, &end, 10);
    while (*end == ' ' || *end == '\t') end++;
    if (end == s || *end || errno || v < lo || v > hi) {
        snprintf(msg, sizeof msg, "malformed or out-of-range integer '%.40s' in %s", s, what);
        die(path, msg);
    }
    return (int)v;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* n numbers into a fresh array (what names them in error messages). */
static double *read_doubles(FILE *f, const char *path, long n, const char *what) {
    double *p = xmalloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    for (long i = 0; i < n; i++) p[i] = read_double(f, path, what);
    return p;
}

/* Median wall time in ms over REPS runs of STMT. */
#define MEDIAN_MS(REPS, STMT)                                                   \
    ({                                                                          \
        int n_ = (REPS);                                                        \
        double *t_ = xmalloc(sizeof(double) * (size_t)n_);                      \
        for (int r_ = 0; r_ < n_; r_++) {                                       \
            double t0_ = now();                                                 \
            STMT;                                                               \
            t_[r_] = (now() - t0_) * 1e3;                                       \
        }                                                                       \
        double m_ = median(t_, n_);                                             \
        free(t_);                                                               \
        m_;                                                                     \
    })

/* Like MEDIAN_MS, but stops after the run that takes the total past BUDGET_MS (at least one
   run): for methods that are far slower than the others on big inputs. */
#define MEDIAN_MS_BUDGET(REPS, BUDGET_MS, STMT)                                 \
    ({                                                                          \
        int n_ = (REPS), k_ = 0;                                                \
        double *t_ = xmalloc(sizeof(double) * (size_t)n_), tot_ = 0;            \
        while (k_ < n_ && (k_ == 0 || tot_ < (BUDGET_MS))) {                    \
            double t0_ = now();                                                 \
            STMT;                                                               \
            t_[k_] = (now() - t0_) * 1e3;                                       \
            tot_ += t_[k_++];                                                   \
        }                                                                       \
        double m_ = median(t_, k_);                                             \
        free(t_);                                                               \
        m_;                                                                     \
    })

static int parse_reps(const char *s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 1 || v > 1000000) {
        fprintf(stderr, "error: REPS must be a positive integer, got '%s'\n", s);
        exit(2);
    }
    return (int)v;
}

/* |ad - fd| / max(1, |fd|) */
static double rel_err(double ad, double fd) {
    double d = fabs(ad - fd) / fmax(1.0, fabs(fd));
    return d == d ? d : INFINITY;
}

static volatile double sink;

/* The key/value lines the harness reads, for the Jacobian objectives (BA, Hand): jac_ms is the
   faster of reverse mode per row and vector forward mode. */
static void report_jacobian(double obj, double primal, double trev, double tfwd, double tfd,
                            double maxerr) {
    printf("objective %.17g\n", obj);
    printf("primal_ms %.6g\n", primal);
    printf("jac_ms %.6g\n", trev < tfwd ? trev : tfwd);
    printf("jac_rev_ms %.6g\n", trev);
    printf("jac_fwd_ms %.6g\n", tfwd);
    printf("fd_ms %.6g\n", tfd);
    printf("check_max_rel_err %.3g\n", maxerr);
}

#endif
