/* ADBench GMM: negative... the log-likelihood of N points under a K-component Gaussian mixture
   with Cholesky-factored inverse covariances, plus the Wishart prior (Srajer et al. 2018, 3.1).
   Written from the problem definition. Usage: gmm DATAFILE REPS */
#include "common.h"

static double logsumexp(const double *v, int n) {
    double mx = v[0];
    for (int i = 1; i < n; i++) mx = v[i] > mx ? v[i] : mx;
    double s = 0;
    for (int i = 0; i < n; i++) s += exp(v[i] - mx);
    return log(s) + mx;
}

static double log_gamma_distrib(double a, int p) {
    double out = 0.25 * p * (p - 1) * log(M_PI);
    for (int j = 1; j <= p; j++) out += lgamma(a + 0.5 * (1 - j));
    return out;
}

double gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                     const double *icf, const double *x, double gamma, int m) {
    int icf_sz = d * (d + 1) / 2;
    double *main_term = malloc(sizeof(double) * k);
    double *xc = malloc(sizeof(double) * d);
    double *qx = malloc(sizeof(double) * d);
    double *sum_q = malloc(sizeof(double) * k);          /* per component, as ADBench does */
    double *qdiag = malloc(sizeof(double) * k * d);
    for (int ik = 0; ik < k; ik++) {
        sum_q[ik] = 0;
        for (int j = 0; j < d; j++) {
            sum_q[ik] += icf[ik * icf_sz + j];
            qdiag[ik * d + j] = exp(icf[ik * icf_sz + j]);
        }
    }
    double slse = 0;
    for (int ix = 0; ix < n; ix++) {
        for (int ik = 0; ik < k; ik++) {
            const double *l = &icf[ik * icf_sz + d];
            for (int j = 0; j < d; j++) xc[j] = x[ix * d + j] - means[ik * d + j];
            for (int j = 0; j < d; j++) qx[j] = qdiag[ik * d + j] * xc[j];
            int li = 0;                               /* lower triangle, column by column */
            for (int col = 0; col < d; col++)
                for (int row = col + 1; row < d; row++) qx[row] += l[li++] * xc[col];
            double sq = 0;
            for (int j = 0; j < d; j++) sq += qx[j] * qx[j];
            main_term[ik] = alphas[ik] + sum_q[ik] - 0.5 * sq;
        }
        slse += logsumexp(main_term, k);
    }
    free(sum_q);
    free(qdiag);
    double lse_alphas = logsumexp(alphas, k);
    /* Wishart prior */
    int nn = d + m + 1;
    double prior = 0;
    for (int ik = 0; ik < k; ik++) {
        const double *q = &icf[ik * icf_sz];
        double frob = 0, sum_q = 0;
        for (int j = 0; j < d; j++) { frob += exp(2 * q[j]); sum_q += q[j]; }
        for (int j = d; j < icf_sz; j++) frob += q[j] * q[j];
        prior += 0.5 * gamma * gamma * frob - m * sum_q;
    }
    double c = nn * d * (log(gamma) - 0.5 * log(2.0)) - log_gamma_distrib(0.5 * nn, d);
    free(main_term);
    free(xc);
    free(qx);
    double constant = -n * d * 0.5 * log(2 * M_PI);
    return constant + slse - n * lse_alphas + prior - k * c;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: gmm DATAFILE REPS\n"); return 2; }
    const char *path = argv[1];
    FILE *f = open_or_die(path);
    int reps = parse_reps(argv[2]);
    int d = read_int(f, path, "the dimension", 1, 1024);
    int k = read_int(f, path, "the component count", 1, 4096);
    int n = read_int(f, path, "the point count", 1, 10000000);
    int icf_sz = d * (d + 1) / 2;
    double *alphas = read_doubles(f, path, k, "the parameters");
    double *means = read_doubles(f, path, (long)k * d, "the parameters");
    double *icf = read_doubles(f, path, (long)k * icf_sz, "the parameters");
    double *x = read_doubles(f, path, (long)n * d, "the parameters");
    double gamma = read_double(f, path, "a number");
    int m = read_int(f, path, "the Wishart m", 0, 1000000);
    fclose(f);

    long np = k + (long)k * d + (long)k * icf_sz;
    double *grad = calloc(np, sizeof(double));
    double *ga = grad, *gm = grad + k, *gi = grad + k + (long)k * d;
    double obj = gmm_objective(d, k, n, alphas, means, icf, x, gamma, m);
    printf("objective %.17g\nparameters %ld\n", obj, np);

    double tp = MEDIAN_MS(reps, sink = gmm_objective(d, k, n, alphas, means, icf, x, gamma, m));
    double tg = MEDIAN_MS(reps, {
        memset(grad, 0, sizeof(double) * np);
        __enzyme_autodiff((void *)gmm_objective, enzyme_const, d, enzyme_const, k, enzyme_const, n,
                          enzyme_dup, alphas, ga, enzyme_dup, means, gm, enzyme_dup, icf, gi,
                          enzyme_const, x, enzyme_const, gamma, enzyme_const, m);
    });
    printf("primal_ms %.6g\ngrad_ms %.6g\n", tp, tg);

    /* central finite differences: all parameters for small problems, else a sample */
    double *all[3] = {alphas, means, icf};
    long sizes[3] = {k, (long)k * d, (long)k * icf_sz};
    long checked = 0, limit = np <= 400 ? np : 60;
    double maxerr = 0, t0 = now();
    for (long idx = 0; idx < np && checked < limit; idx += np <= 400 ? 1 : np / limit + 1, checked++) {
        long j = idx;
        int which = 0;
        while (j >= sizes[which]) { j -= sizes[which]; which++; }
        /* the step balances truncation (h^2) against rounding (eps |f| / h): |f| reaches 1e6 */
        double *p = all[which], v = p[j], h = 2e-4 * (fabs(v) > 1 ? fabs(v) : 1);
        p[j] = v + h;
        double fp = gmm_objective(d, k, n, alphas, means, icf, x, gamma, m);
        p[j] = v - h;
        double fm = gmm_objective(d, k, n, alphas, means, icf, x, gamma, m);
        p[j] = v;
        double fd = (fp - fm) / (2 * h);
        double err = fabs(fd - grad[idx]) / (fabs(fd) > 1 ? fabs(fd) : 1);
        if (err > maxerr) maxerr = err;
    }
    double per = (now() - t0) * 1e3 / (checked ? checked : 1);
    printf("fd_ms %.6g\ncheck_max_rel_err %.3g\nchecked %ld\n", per * np, maxerr, checked);
    return 0;
}
