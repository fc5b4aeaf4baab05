/* Whole-struct assignment (a 16-byte memcpy of {double, int}) in an insertion sort: the shadow
   follows the primal swaps, and the gradient lands on the original positions. */
#include "ad.h"

typedef struct { double v; int tag; } Item;

double sort_items(Item *it, int n) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && it[j - 1].tag > it[j].tag; j--) {
            Item t = it[j];
            it[j] = it[j - 1];
            it[j - 1] = t;
        }
    double s = 0;
    for (int i = 0; i < n; i++)
        s += it[i].v * it[i].v * (i + 1);
    return s;
}

static int TAGS[3] = {2, 0, 1};
static double s_p(const double *p, void *c) {
    (void)c;
    Item it[3] = {{p[0], TAGS[0]}, {p[1], TAGS[1]}, {p[2], TAGS[2]}};
    return sort_items(it, 3);
}

int main(int argc, char **argv) {
    (void)argv;
    double v[3] = {1.0, 2.0, 3.0};
    Item it[3] = {{v[0], 2}, {v[1], 0}, {v[2], 1}}, dit[3] = {{0, 0}, {0, 0}, {0, 0}};
    __enzyme_autodiff((void *)sort_items, it, dit, argc + 2);
    /* sorted: v[1] at position 0, v[2] at 1, v[0] at 2 */
    check_exact("sorted", it[0].v, 2.0);
    double want[3] = {2 * v[0] * 3, 2 * v[1] * 1, 2 * v[2] * 2};
    for (int i = 0; i < 3; i++) {
        check_exact(lbl("dv", i), dit[i].v, want[i]);
        check_fd(lbl("dv", i), dit[i].v, fd_partial(s_p, v, 3, i, 0));
    }
    return ad_done();
}
