/* ADBench hand tracking (Srajer, Kukelova, Fitzgibbon 2018, section 3.3), written from the
   problem definition. Usage: hand DATAFILE REPS MODELDIR

   Model (MODELDIR): bones.txt (name:parent:16 base-relative:16 inverse base-absolute entries,
   row-major 4x4), vertices.txt (x:y:z:5 unused:count:bone:weight...), triangles.txt (a:b:c).
   Pose (26 parameters): global rotation (angle-axis, 3), global translation (3), then per finger
   (thumb, index, middle, ring, pinky) 4 angles: two for its second bone and one for each of its
   third and fourth bones (the first, metacarpal bone and the wrist/forearm stay at rest).
   Per bone: relative = base_relative * R(euler xzy angles); absolutes chain down the hierarchy;
   skinning transform = absolute * inverse_base_absolute; vertices are blended linearly with the
   skinning weights, then rotated and translated globally.
   Residual per data point i: point_i - skinned vertex (simple variant: vertex correspondence_i;
   complicated variant: u*V[a] + v*V[b] + (1-u-v)*V[c] on triangle correspondence_i with the
   point's own u, v, which are inputs too). Dense Jacobian: 3N rows x n_theta columns (plus two
   leading columns d/du, d/dv in the complicated variant, each row depending only on its own
   point's u and v). The variant is detected from the file: it has N lines of `u v` after the
   points. */
#include "common.h"

#define NTHETA 26
#define MAXB 64

typedef struct {
    int n_bones, n_verts, n_tris;
    int *parents;
    double *base_rel;     /* n_bones x 16, column-major 4x4 */
    double *inv_base_abs; /* n_bones x 16, column-major 4x4 */
    double *base_pos;     /* n_verts x 3 */
    double *weights;      /* n_bones x n_verts */
    int *tris;            /* n_tris x 3 */
} Model;

typedef struct {
    int N, complicated;
    int *corr;
    double *points; /* N x 3 */
    double *us;     /* N x 2 (complicated) */
    double theta[NTHETA];
} Data;

/* C = A * B, 4x4 column-major */
static void mat4_mul(const double *A, const double *B, double *C) {
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += A[k * 4 + r] * B[c * 4 + k];
            C[c * 4 + r] = s;
        }
}

/* R = Rz * Ry * Rx with angles (x, z, y) = (a[0], a[1], a[2]); 3x3 column-major */
static void euler_xzy_to_matrix(const double *a, double *R) {
    double tx = a[0], tz = a[1], ty = a[2];
    double cx = cos(tx), sx = sin(tx), cy = cos(ty), sy = sin(ty), cz = cos(tz), sz = sin(tz);
    /* Rz*Ry = [[cz*cy, -sz, cz*sy], [sz*cy, cz, sz*sy], [-sy, 0, cy]] */
    double A[3][3] = {{cz * cy, -sz, cz * sy}, {sz * cy, cz, sz * sy}, {-sy, 0, cy}}; /* row-major */
    /* times Rx = [[1,0,0],[0,cx,-sx],[0,sx,cx]] */
    for (int r = 0; r < 3; r++) {
        R[0 * 3 + r] = A[r][0];
        R[1 * 3 + r] = A[r][1] * cx + A[r][2] * sx;
        R[2 * 3 + r] = -A[r][1] * sx + A[r][2] * cx;
    }
}

/* Rotation by angle-axis aa: out = R(aa) * in (identity for a tiny angle) */
static void angle_axis_matrix(const double *aa, double *R /* 3x3 row-major */) {
    double n = sqrt(aa[0] * aa[0] + aa[1] * aa[1] + aa[2] * aa[2]);
    if (n < 1e-4) {
        for (int k = 0; k < 9; k++) R[k] = (k % 4 == 0);
        return;
    }
    double x = aa[0] / n, y = aa[1] / n, z = aa[2] / n, s = sin(n), c = cos(n);
    R[0] = x * x + (1 - x * x) * c; R[1] = x * y * (1 - c) - z * s; R[2] = x * z * (1 - c) + y * s;
    R[3] = x * y * (1 - c) + z * s; R[4] = y * y + (1 - y * y) * c; R[5] = y * z * (1 - c) - x * s;
    R[6] = x * z * (1 - c) - y * s; R[7] = z * y * (1 - c) + x * s; R[8] = z * z + (1 - z * z) * c;
}

/* Skinned, globally transformed positions of all model vertices (n_verts x 3). */
static void skinned_vertices(const double *theta, const Model *m, double *pos) {
    int nb = m->n_bones;
    double *rel = malloc(sizeof(double) * 16 * nb), *abs_ = malloc(sizeof(double) * 16 * nb);
    double *tr = malloc(sizeof(double) * 16 * nb);
    /* per-bone euler angles from the pose parameters */
    double angles[MAXB][3];
    for (int b = 0; b < nb; b++) angles[b][0] = angles[b][1] = angles[b][2] = 0;
    int it = 6;
    for (int finger = 0; finger < 5; finger++) {
        int b = 2 + 4 * finger;
        angles[b][0] = theta[it++];
        angles[b][1] = theta[it++];
        angles[b + 1][0] = theta[it++];
        angles[b + 2][0] = theta[it++];
    }
    for (int b = 0; b < nb; b++) {
        double R[9], T[16];
        euler_xzy_to_matrix(angles[b], R);
        for (int k = 0; k < 16; k++) T[k] = (k % 5 == 0);
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++) T[c * 4 + r] = R[c * 3 + r];
        mat4_mul(&m->base_rel[16 * b], T, &rel[16 * b]);
    }
    for (int b = 0; b < nb; b++) {
        if (m->parents[b] < 0) /* a loop, not memcpy: gradlink's type analysis cannot type the copy */
            for (int k = 0; k < 16; k++) abs_[16 * b + k] = rel[16 * b + k];
        else
            mat4_mul(&abs_[16 * m->parents[b]], &rel[16 * b], &abs_[16 * b]);
        mat4_mul(&abs_[16 * b], &m->inv_base_abs[16 * b], &tr[16 * b]);
    }
    int nv = m->n_verts;
    for (int v = 0; v < 3 * nv; v++) pos[v] = 0;
    for (int b = 0; b < nb; b++) {
        const double *T = &tr[16 * b];
        for (int v = 0; v < nv; v++) {
            double w = m->weights[b * nv + v];
            const double *p = &m->base_pos[3 * v];
            for (int r = 0; r < 3; r++)
                pos[3 * v + r] += w * (T[r] * p[0] + T[4 + r] * p[1] + T[8 + r] * p[2] + T[12 + r]);
        }
    }
    double G[9];
    angle_axis_matrix(theta, G); /* global scale is 1 */
    for (int v = 0; v < nv; v++) {
        double *p = &pos[3 * v], q[3];
        for (int r = 0; r < 3; r++) q[r] = G[3 * r] * p[0] + G[3 * r + 1] * p[1] + G[3 * r + 2] * p[2] + theta[3 + r];
        p[0] = q[0]; p[1] = q[1]; p[2] = q[2];
    }
    free(rel);
    free(abs_);
    free(tr);
}

/* err (N x 3) = data points - model points. us is unused (may be NULL) in the simple variant. */
void hand_objective(const double *theta, const double *us, const Model *m, const Data *d, double *err) {
    double *pos = malloc(sizeof(double) * 3 * m->n_verts);
    skinned_vertices(theta, m, pos);
    for (int i = 0; i < d->N; i++) {
        if (d->complicated) {
            const int *t = &m->tris[3 * d->corr[i]];
            double u = us[2 * i], v = us[2 * i + 1];
            for (int r = 0; r < 3; r++)
                err[3 * i + r] = d->points[3 * i + r] -
                                 (u * pos[3 * t[0] + r] + v * pos[3 * t[1] + r] + (1 - u - v) * pos[3 * t[2] + r]);
        } else {
            for (int r = 0; r < 3; r++) err[3 * i + r] = d->points[3 * i + r] - pos[3 * d->corr[i] + r];
        }
    }
    free(pos);
}

/* Jacobian layout: column-major, nc = NTHETA (+2) columns of 3N; complicated: columns 0, 1 are
   d/du, d/dv (compressed: row 3i+r depends only on point i's u, v), then theta. */

void fwd_width(void *, ...) __asm__("__enzyme_fwddiff");

static double ET[NTHETA][NTHETA];

#define L26(A) A[0], A[1], A[2], A[3], A[4], A[5], A[6], A[7], A[8], A[9], A[10], A[11], A[12], A[13], \
               A[14], A[15], A[16], A[17], A[18], A[19], A[20], A[21], A[22], A[23], A[24], A[25]

static void jac_fwd(const Model *m, const Data *d, double *J, double *err, double *useed0, double *useed1) {
    int rows = 3 * d->N, off = d->complicated ? 2 : 0;
    double *cols[NTHETA];
    for (int k = 0; k < NTHETA; k++) cols[k] = J + (size_t)(off + k) * rows;
    if (d->complicated) {
        fwd_width((void *)hand_objective, enzyme_width, NTHETA, enzyme_dup, d->theta, L26(ET),
                  enzyme_const, d->us, enzyme_const, m, enzyme_const, d, enzyme_dupnoneed, err, L26(cols));
        fwd_width((void *)hand_objective, enzyme_width, 2, enzyme_const, d->theta, enzyme_dup, d->us, useed0, useed1,
                  enzyme_const, m, enzyme_const, d, enzyme_dupnoneed, err, J, J + rows);
    } else {
        fwd_width((void *)hand_objective, enzyme_width, NTHETA, enzyme_dup, d->theta, L26(ET),
                  enzyme_const, d->us, enzyme_const, m, enzyme_const, d, enzyme_dupnoneed, err, L26(cols));
    }
}

/* one reverse pass per residual row */
static void jac_rev(const Model *m, const Data *d, double *J, double *err, double *derr, double *dus) {
    int rows = 3 * d->N, off = d->complicated ? 2 : 0;
    double dtheta[NTHETA];
    for (int r = 0; r < rows; r++) {
        int i = r / 3;
        memset(dtheta, 0, sizeof dtheta);
        memset(derr, 0, sizeof(double) * rows);
        derr[r] = 1;
        if (d->complicated) {
            dus[2 * i] = dus[2 * i + 1] = 0;
            __enzyme_autodiff((void *)hand_objective, enzyme_dup, d->theta, dtheta, enzyme_dup, d->us, dus,
                              enzyme_const, m, enzyme_const, d, enzyme_dupnoneed, err, derr);
            J[r] = dus[2 * i];
            J[(size_t)rows + r] = dus[2 * i + 1];
            dus[2 * i] = dus[2 * i + 1] = 0;
        } else {
            __enzyme_autodiff((void *)hand_objective, enzyme_dup, d->theta, dtheta, enzyme_const, d->us,
                              enzyme_const, m, enzyme_const, d, enzyme_dupnoneed, err, derr);
        }
        for (int k = 0; k < NTHETA; k++) J[(size_t)(off + k) * rows + r] = dtheta[k];
    }
}

static void jac_fd(const Model *m, Data *d, double *J, double *ep, double *em) {
    int rows = 3 * d->N, off = d->complicated ? 2 : 0;
    for (int k = 0; k < NTHETA; k++) {
        double x = d->theta[k], h = 1e-6 * fmax(1.0, fabs(x));
        d->theta[k] = x + h;
        hand_objective(d->theta, d->us, m, d, ep);
        d->theta[k] = x - h;
        hand_objective(d->theta, d->us, m, d, em);
        d->theta[k] = x;
        double h2 = (x + h) - (x - h);
        for (int r = 0; r < rows; r++) J[(size_t)(off + k) * rows + r] = (ep[r] - em[r]) / h2;
    }
    if (d->complicated) {
        /* perturb every point's u (then v) at once: residual i depends only on its own u, v */
        double h = 1e-6;
        for (int c = 0; c < 2; c++) {
            for (int i = 0; i < d->N; i++) d->us[2 * i + c] += h;
            hand_objective(d->theta, d->us, m, d, ep);
            for (int i = 0; i < d->N; i++) d->us[2 * i + c] -= 2 * h;
            hand_objective(d->theta, d->us, m, d, em);
            for (int i = 0; i < d->N; i++) d->us[2 * i + c] += h;
            for (int r = 0; r < rows; r++) J[(size_t)c * rows + r] = (ep[r] - em[r]) / (2 * h);
        }
    }
}

/* ---- reading ---- */

static char *join(const char *dir, const char *name) {
    char *p = xmalloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

static Model read_model(const char *dir) {
    Model m = {0};
    enum { LINE = 1 << 16, MAXF = 512 };
    char *buf = xmalloc(LINE), *fld[MAXF];
    int n;
    /* bones */
    char *path = join(dir, "bones.txt");
    FILE *f = open_or_die(path);
    char names[MAXB][64];
    m.parents = xmalloc(sizeof(int) * MAXB);
    m.base_rel = xmalloc(sizeof(double) * 16 * MAXB);
    m.inv_base_abs = xmalloc(sizeof(double) * 16 * MAXB);
    while ((n = read_fields(f, path, buf, LINE, ':', fld, MAXF))) {
        int b = m.n_bones;
        if (b == MAXB) die(path, "too many bones");
        if (n != 34) die(path, "a bone line needs 34 fields (name:parent:16:16)");
        snprintf(names[b], sizeof names[b], "%s", fld[0]);
        m.parents[b] = parse_int(path, fld[1], "bone parent", -1, b - 1);
        for (int k = 0; k < 16; k++) {
            int r = k / 4, c = k % 4; /* file is row-major */
            m.base_rel[16 * b + c * 4 + r] = parse_double(path, fld[2 + k], "base relative");
            m.inv_base_abs[16 * b + c * 4 + r] = parse_double(path, fld[18 + k], "inverse base absolute");
        }
        m.n_bones++;
    }
    fclose(f);
    /* the pose parameter layout assumes wrist + 5 fingers x 4 bones (+ forearm) */
    if (m.n_bones < 22) die(path, "expected at least 22 bones (wrist, 5 fingers of 4, forearm)");
    for (int finger = 0; finger < 5; finger++)
        for (int j = 1; j < 4; j++)
            if (m.parents[1 + 4 * finger + j] != 4 * finger + j) die(path, "unexpected bone hierarchy");
    free(path);
    /* vertices */
    path = join(dir, "vertices.txt");
    f = open_or_die(path);
    int cap = 1024;
    m.base_pos = xmalloc(sizeof(double) * 3 * cap);
    double *wsp = xcalloc((size_t)cap * MAXB, sizeof(double)); /* vertex-major while reading */
    while ((n = read_fields(f, path, buf, LINE, ':', fld, MAXF))) {
        int v = m.n_verts;
        if (v == cap) {
            cap *= 2;
            m.base_pos = realloc(m.base_pos, sizeof(double) * 3 * cap);
            wsp = realloc(wsp, sizeof(double) * MAXB * cap);
            if (!m.base_pos || !wsp) die(path, "out of memory");
            memset(wsp + (size_t)MAXB * v, 0, sizeof(double) * MAXB * (cap - v));
        }
        if (n < 9) die(path, "a vertex line needs x:y:z:5 unused:count:...");
        for (int k = 0; k < 3; k++) m.base_pos[3 * v + k] = parse_double(path, fld[k], "vertex position");
        int cnt = parse_int(path, fld[8], "vertex weight count", 0, m.n_bones);
        if (n != 9 + 2 * cnt) die(path, "vertex weight count does not match its bone:weight pairs");
        for (int j = 0; j < cnt; j++) {
            int b = parse_int(path, fld[9 + 2 * j], "vertex bone", 0, m.n_bones - 1);
            wsp[(size_t)MAXB * v + b] = parse_double(path, fld[10 + 2 * j], "vertex weight");
        }
        m.n_verts++;
    }
    fclose(f);
    if (!m.n_verts) die(path, "no vertices");
    m.weights = xmalloc(sizeof(double) * m.n_bones * m.n_verts);
    for (int b = 0; b < m.n_bones; b++)
        for (int v = 0; v < m.n_verts; v++) m.weights[b * m.n_verts + v] = wsp[(size_t)MAXB * v + b];
    free(wsp);
    free(path);
    /* triangles */
    path = join(dir, "triangles.txt");
    f = open_or_die(path);
    cap = 1024;
    m.tris = xmalloc(sizeof(int) * 3 * cap);
    while ((n = read_fields(f, path, buf, LINE, ':', fld, MAXF))) {
        if (m.n_tris == cap) {
            cap *= 2;
            m.tris = realloc(m.tris, sizeof(int) * 3 * cap);
            if (!m.tris) die(path, "out of memory");
        }
        if (n != 3) die(path, "a triangle line needs 3 vertex indices");
        for (int k = 0; k < 3; k++) m.tris[3 * m.n_tris + k] = parse_int(path, fld[k], "triangle vertex", 0, m.n_verts - 1);
        m.n_tris++;
    }
    fclose(f);
    free(path);
    free(buf);
    return m;
}

static Data read_data(const char *path, const Model *m) {
    Data d = {0};
    FILE *f = open_or_die(path);
    d.N = read_int(f, path, "N (points)", 1, 10000000);
    int nt = read_int(f, path, "n_theta", 0, 1000000);
    if (nt != NTHETA) die(path, "n_theta must be 26");
    d.corr = xmalloc(sizeof(int) * d.N);
    d.points = xmalloc(sizeof(double) * 3 * d.N);
    for (int i = 0; i < d.N; i++) {
        d.corr[i] = read_int(f, path, "correspondence", 0, 1 << 30);
        for (int k = 0; k < 3; k++) d.points[3 * i + k] = read_double(f, path, "point");
    }
    double *rest;
    long n = read_rest(f, path, &rest);
    fclose(f);
    if (n == NTHETA) {
        d.complicated = 0;
    } else if (n == 2L * d.N + NTHETA) {
        d.complicated = 1;
        d.us = xmalloc(sizeof(double) * 2 * d.N);
        memcpy(d.us, rest, sizeof(double) * 2 * d.N);
    } else {
        die(path, n < NTHETA ? "truncated: expected the 26 pose parameters"
                             : "expected 26 pose parameters, or N lines of u v then 26 pose parameters");
    }
    memcpy(d.theta, rest + (n - NTHETA), sizeof(double) * NTHETA);
    free(rest);
    int lim = d.complicated ? m->n_tris : m->n_verts;
    for (int i = 0; i < d.N; i++)
        if (d.corr[i] >= lim) die(path, d.complicated ? "correspondence is not a model triangle" : "correspondence is not a model vertex");
    return d;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "error: usage: %s DATAFILE REPS MODELDIR\n", argv[0]);
        return 2;
    }
    int reps = parse_reps(argv[2]);
    Model m = read_model(argv[3]);
    Data d = read_data(argv[1], &m);
    for (int k = 0; k < NTHETA; k++) ET[k][k] = 1;
    int rows = 3 * d.N, nc = NTHETA + (d.complicated ? 2 : 0);
    size_t jn = (size_t)rows * nc;
    double *err = xmalloc(sizeof(double) * rows), *tmp = xmalloc(sizeof(double) * rows);
    double *derr = xcalloc(rows, sizeof(double));
    double *Jf = xcalloc(jn, sizeof(double)), *Jr = xcalloc(jn, sizeof(double)), *Jd = xcalloc(jn, sizeof(double));
    double *dus = xcalloc(2 * (size_t)d.N, sizeof(double));
    double *us0 = xcalloc(2 * (size_t)d.N, sizeof(double)), *us1 = xcalloc(2 * (size_t)d.N, sizeof(double));
    for (int i = 0; i < d.N; i++) us0[2 * i] = us1[2 * i + 1] = 1;

    double primal = MEDIAN_MS(reps, hand_objective(d.theta, d.us, &m, &d, err));
    double obj = 0;
    for (int r = 0; r < rows; r++) obj += err[r] * err[r];
    double tfwd = MEDIAN_MS(reps, jac_fwd(&m, &d, Jf, tmp, us0, us1));
    /* reverse mode takes one pass per row (3N): on big inputs its repetitions stop after ~10 s */
    double trev = MEDIAN_MS_BUDGET(reps, 10000.0, jac_rev(&m, &d, Jr, tmp, derr, dus));
    double tfd = MEDIAN_MS(reps, jac_fd(&m, &d, Jd, err, tmp));

    double maxerr = 0;
    for (int c = 0; c < nc; c++)
        for (int r = 0; r < rows; r++) {
            size_t at = (size_t)c * rows + r;
            maxerr = fmax(maxerr, rel_err(Jf[at], Jd[at]));
            maxerr = fmax(maxerr, rel_err(Jr[at], Jd[at]));
        }
    report_jacobian(obj, primal, trev, tfwd, tfd, maxerr);
    return 0;
}
