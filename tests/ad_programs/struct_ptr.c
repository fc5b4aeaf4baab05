/* A struct of mixed fields passed by pointer with enzyme_dup: an int (inactive), doubles, a
   fixed array and a pointer to more doubles; the shadow struct's pointer field points to the
   shadow array (compiled with -g). */
#include "ad.h"

typedef struct {
    int n;
    double scale;
    double *data;
    double w[3];
    double offset;
} Model;

double energy(const Model *m) {
    double s = 0;
    for (int i = 0; i < m->n; i++)
        s += m->data[i] * m->data[i] * m->w[i % 3];
    return m->scale * s + m->offset * m->offset * m->n;
}

static double fd_energy(const double *p, void *c) {
    (void)c;
    double data[4] = {p[4], p[5], p[6], p[7]};
    Model m = {4, p[0], data, {p[1], p[2], p[3]}, p[8]};
    return energy(&m);
}

int main(void) {
    double data[4] = {1.5, -0.5, 2.0, 0.25};
    Model m = {4, 0.8, data, {1.0, 2.0, -0.5}, 0.3};
    double ddata[4] = {0};
    Model dm = {0, 0.0, ddata, {0, 0, 0}, 0.0};
    __enzyme_autodiff((void *)energy, enzyme_dup, &m, &dm);

    double p[9] = {m.scale, m.w[0], m.w[1], m.w[2], data[0], data[1], data[2], data[3], m.offset};
    double s = 0, dw[3] = {0};
    for (int i = 0; i < 4; i++) {
        s += data[i] * data[i] * m.w[i % 3];
        dw[i % 3] += m.scale * data[i] * data[i];
    }
    check_exact("dscale", dm.scale, s);
    check_fd("dscale", dm.scale, fd_partial(fd_energy, p, 9, 0, 0));
    for (int k = 0; k < 3; k++) {
        check_exact(lbl("dw", k), dm.w[k], dw[k]);
        check_fd(lbl("dw", k), dm.w[k], fd_partial(fd_energy, p, 9, 1 + k, 0));
    }
    for (int i = 0; i < 4; i++) {
        check_exact(lbl("ddata", i), ddata[i], 2 * m.scale * data[i] * m.w[i % 3]);
        check_fd(lbl("ddata", i), ddata[i], fd_partial(fd_energy, p, 9, 4 + i, 0));
    }
    check_exact("doffset", dm.offset, 2 * m.offset * 4);
    check_exact("shadow_n_untouched", dm.n, 0);
    check_exact("shadow_ptr_untouched", dm.data == ddata, 1);
    return ad_done();
}
