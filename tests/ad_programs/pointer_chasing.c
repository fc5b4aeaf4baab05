/* Pointers computed from data: an iterative walk down a linked list (the shadow list mirrors it)
   and a pointer chosen by a comparison (a select of two shadow pointers). */
#include "ad.h"

typedef struct Node { double v; struct Node *next; } Node;

double list_energy(const Node *head) {
    double s = 0;
    int k = 1;
    for (const Node *p = head; p; p = p->next, k++)
        s += p->v * p->v * k;
    return s;
}

double pick_larger(const double *x) {
    const double *p = x[0] > x[1] ? &x[0] : &x[1];
    return *p * *p * x[2];
}

int main(void) {
    Node n[4] = {{1.0, 0}, {2.0, 0}, {-3.0, 0}, {0.5, 0}}, dn[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    for (int i = 0; i < 3; i++) {
        n[i].next = &n[i + 1];
        dn[i].next = &dn[i + 1];
    }
    __enzyme_autodiff((void *)list_energy, n, dn);
    for (int i = 0; i < 4; i++)
        check_exact(lbl("list", i), dn[i].v, 2 * n[i].v * (i + 1));
    double x[3] = {1.0, 2.5, 3.0}, dx[3] = {0};
    __enzyme_autodiff((void *)pick_larger, x, dx);
    check_exact("pick0", dx[0], 0.0);
    check_exact("pick1", dx[1], 2 * 2.5 * 3.0);
    check_exact("pick2", dx[2], 6.25);
    double y[3] = {4.0, 2.5, 3.0}, dy[3] = {0};
    __enzyme_autodiff((void *)pick_larger, y, dy);
    check_exact("pick_other0", dy[0], 2 * 4.0 * 3.0);
    check_exact("pick_other1", dy[1], 0.0);
    return ad_done();
}
