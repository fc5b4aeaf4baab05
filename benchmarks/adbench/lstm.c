/* ADBench LSTM: the mean log-likelihood of a character sequence under an l-layer LSTM
   (Srajer et al. 2018; ADBench's lstm problem). Written from the problem definition.
   Usage: lstm DATAFILE REPS */
#include "common.h"

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static double logsumexp(const double *v, int n) {
    double mx = v[0];
    for (int i = 1; i < n; i++) mx = v[i] > mx ? v[i] : mx;
    double s = 0;
    for (int i = 0; i < n; i++) s += exp(v[i] - mx);
    return log(s) + mx;
}

/* one cell: weight and bias hold the forget, input, output and change gates (4b each) */
static void lstm_model(int b, const double *weight, const double *bias, double *hidden,
                       double *cell, const double *input) {
    for (int i = 0; i < b; i++) {
        double forget = sigmoid(input[i] * weight[i] + bias[i]);
        double ingate = sigmoid(hidden[i] * weight[b + i] + bias[b + i]);
        double outgate = sigmoid(input[i] * weight[2 * b + i] + bias[2 * b + i]);
        double change = tanh(hidden[i] * weight[3 * b + i] + bias[3 * b + i]);
        cell[i] = cell[i] * forget + ingate * change;
        hidden[i] = outgate * tanh(cell[i]);
    }
}

/* main: per layer 4b weights then 4b biases; extra: input scale, output scale, output bias */
static void lstm_predict(int l, int b, const double *main, const double *extra, double *state,
                         const double *x, double *out) {
    for (int i = 0; i < b; i++) out[i] = x[i] * extra[i];
    const double *xp = out;
    for (int layer = 0; layer < l; layer++) {
        double *hidden = &state[2 * layer * b], *cell = &state[(2 * layer + 1) * b];
        lstm_model(b, &main[2 * layer * 4 * b], &main[(2 * layer + 1) * 4 * b], hidden, cell, xp);
        xp = hidden;
    }
    for (int i = 0; i < b; i++) out[i] = xp[i] * extra[b + i] + extra[2 * b + i];
}

double lstm_objective(int l, int c, int b, const double *main, const double *extra,
                      const double *state0, const double *seq) {
    double *state = malloc(sizeof(double) * 2 * l * b);
    double *pred = malloc(sizeof(double) * b);
    memcpy(state, state0, sizeof(double) * 2 * l * b);
    double total = 0;
    int count = 0;
    for (int t = 0; t < c - 1; t++) {
        lstm_predict(l, b, main, extra, state, &seq[t * b], pred);
        double lse = logsumexp(pred, b);
        const double *gold = &seq[(t + 1) * b];
        for (int i = 0; i < b; i++) total += gold[i] * (pred[i] - lse);
        count += b;
    }
    free(state);
    free(pred);
    return -total / count;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: lstm DATAFILE REPS\n"); return 2; }
    const char *path = argv[1];
    FILE *f = open_or_die(path);
    int reps = parse_reps(argv[2]);
    int l = read_int(f, path, "the layer count", 1, 64);
    int c = read_int(f, path, "the sequence length", 2, 1000000);
    int b = read_int(f, path, "the alphabet size", 1, 4096);
    double *main_p = read_doubles(f, path, 2L * l * 4 * b, "the parameters");
    double *extra = read_doubles(f, path, 3L * b, "the parameters");
    double *state = read_doubles(f, path, 2L * l * b, "the parameters");
    double *seq = read_doubles(f, path, (long)c * b, "the parameters");
    fclose(f);

    long nm = 2L * l * 4 * b, ne = 3L * b, np = nm + ne;
    double *grad = calloc(np, sizeof(double));
    double obj = lstm_objective(l, c, b, main_p, extra, state, seq);
    printf("objective %.17g\nparameters %ld\n", obj, np);
    double tp = MEDIAN_MS(reps, sink = lstm_objective(l, c, b, main_p, extra, state, seq));
    double tg = MEDIAN_MS(reps, {
        memset(grad, 0, sizeof(double) * np);
        __enzyme_autodiff((void *)lstm_objective, enzyme_const, l, enzyme_const, c, enzyme_const, b,
                          enzyme_dup, main_p, grad, enzyme_dup, extra, grad + nm,
                          enzyme_const, state, enzyme_const, seq);
    });
    printf("primal_ms %.6g\ngrad_ms %.6g\n", tp, tg);

    long checked = 0, limit = 40;
    double maxerr = 0, t0 = now();
    for (long idx = 0; idx < np && checked < limit; idx += np / limit + 1, checked++) {
        double *p = idx < nm ? &main_p[idx] : &extra[idx - nm];
        double v = *p, h = 1e-6 * (fabs(v) > 1 ? fabs(v) : 1);
        *p = v + h;
        double fp = lstm_objective(l, c, b, main_p, extra, state, seq);
        *p = v - h;
        double fm = lstm_objective(l, c, b, main_p, extra, state, seq);
        *p = v;
        double fd = (fp - fm) / (2 * h);
        double err = fabs(fd - grad[idx]) / (fabs(fd) > 1 ? fabs(fd) : 1);
        if (err > maxerr) maxerr = err;
    }
    double per = (now() - t0) * 1e3 / (checked ? checked : 1);
    printf("fd_ms %.6g\ncheck_max_rel_err %.3g\nchecked %ld\n", per * np, maxerr, checked);
    return 0;
}
