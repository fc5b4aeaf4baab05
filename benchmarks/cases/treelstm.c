/* Case study: a small recursive tree model in the style of TreeLSTM, batch size 1: a complete
   binary tree of the given depth over leaf embeddings of dimension D = 16, each internal node
   h = tanh(W_l h_left + W_r h_right + b), loss = sum of the root's h. Gradient w.r.t. W_l, W_r
   and b; the tree is evaluated by a noinline recursive function. Usage: treelstm depth=5 REPS */
#include "case.h"

#define D 16

/* h of the subtree of the given depth whose leftmost leaf is leaf number `first` */
__attribute__((noinline)) static void node(const double *Wl, const double *Wr, const double *b,
                                           const double *emb, int depth, int first, double *h) {
    if (depth == 0) {
        for (int i = 0; i < D; i++) h[i] = emb[first * D + i];
        return;
    }
    double hl[D], hr[D];
    node(Wl, Wr, b, emb, depth - 1, first, hl);
    node(Wl, Wr, b, emb, depth - 1, first + (1 << (depth - 1)), hr);
    for (int i = 0; i < D; i++) {
        double z = b[i];
        for (int j = 0; j < D; j++) z += Wl[i * D + j] * hl[j] + Wr[i * D + j] * hr[j];
        h[i] = tanh(z);
    }
}

/* p = W_l (D x D, row-major), W_r (D x D), b (D) */
double tree_loss(const double *p, const double *emb, int depth) {
    double h[D];
    node(p, p + D * D, p + 2 * D * D, emb, depth, 0, h);
    double s = 0;
    for (int i = 0; i < D; i++) s += h[i];
    return s;
}

int main(int argc, char **argv) {
    int reps = case_reps(argc, argv, "treelstm");
    int depth = (int)case_spec(argv[1], "depth", 5, 0, 20);
    int leaves = 1 << depth, np = 2 * D * D + D;
    double *emb = malloc(sizeof(double) * leaves * D), *p = malloc(sizeof(double) * np);
    double *dp = calloc(np, sizeof(double));
    for (int i = 0; i < leaves * D; i++) emb[i] = sin(0.7 * i + 0.3);
    for (int i = 0; i < np; i++) p[i] = 0.25 * cos(1.3 * i);
    printf("objective %.17g\nparameters %d\n", tree_loss(p, emb, depth), np);
    case_escape(p); case_escape(emb);
    double tp = CASE_MS(reps, 20, case_sink = tree_loss(p, emb, depth));
    double tg = CASE_MS(reps, 20, {
        memset(dp, 0, sizeof(double) * np);
        __enzyme_autodiff((void *)tree_loss, enzyme_dup, p, dp, enzyme_const, emb, enzyme_const, depth);
    });
    printf("primal_ms %.6g\ngrad_ms %.6g\n", tp, tg);
    CASE_FD_CHECK(p, np, dp, 60, tree_loss(p, emb, depth));
    return 0;
}
