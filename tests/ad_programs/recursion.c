/* Recursion: a weighted sum over a binary tree and over a linked list; recursive calls cannot
   be inlined, so the derivative must handle calls of defined functions. */
#include "ad.h"

typedef struct Node {
    double value;
    struct Node *left, *right;
} Node;

double tree_sum(const Node *t) {
    if (!t)
        return 0.0;
    return t->value * t->value + sin(t->value) * tree_sum(t->left) + tree_sum(t->right);
}

int main(void) {
    Node n[5] = {{0.5, 0, 0}, {1.5, 0, 0}, {-0.7, 0, 0}, {2.0, 0, 0}, {0.3, 0, 0}};
    Node d[5] = {{0}};
    n[0].left = &n[1]; n[0].right = &n[2]; n[1].left = &n[3]; n[2].right = &n[4];
    d[0].left = &d[1]; d[0].right = &d[2]; d[1].left = &d[3]; d[2].right = &d[4];
    __enzyme_autodiff((void *)tree_sum, enzyme_dup, &n[0], &d[0]);
    for (int i = 0; i < 5; i++) {
        double v = n[i].value, h = fd_step(v);
        n[i].value = v + h;
        double fp = tree_sum(&n[0]);
        n[i].value = v - h;
        double fm = tree_sum(&n[0]);
        n[i].value = v;
        check_fd(lbl("dvalue", i), d[i].value, (fp - fm) / (2 * h));
    }
    return ad_done();
}
