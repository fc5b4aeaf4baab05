/* ADBench bundle adjustment (Srajer, Kukelova, Fitzgibbon 2018, section 3.2), written from the
   problem definition. Usage: ba DATAFILE REPS

   Camera (11): Rodrigues rotation r (3), center c (3), focal f, principal point x0 (2), radial
   distortion k1 k2. Observation i sees point i mod m with camera i mod n:
     Xc = R(r) (X - c), p = Xc[0:2] / Xc[2], p *= 1 + k1 |p|^2 + k2 |p|^4, proj = f p + x0,
     reprojection error = w_i (proj - feature_i)  (2 rows),  weight error = 1 - w_i^2  (1 row).
   The Jacobian is sparse: a 2x15 block per observation (camera 11, point 3, weight 1) and a
   1x1 block per weight. Computed with gradlink by reverse mode (one pass per row) and by vector
   forward mode (15 lanes), and by central finite differences for comparison. */
#include "common.h"

#define NCAM 11
#define NBLK 15

typedef struct {
    int n, m, p;
    double *cams;  /* n x 11 */
    double *pts;   /* m x 3 */
    double *w;     /* p */
    double *feats; /* p x 2 */
} BA;

static void rodrigues_rotate(const double *rot, const double *X, double *out) {
    double sq = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2];
    if (sq != 0) {
        double theta = sqrt(sq), c = cos(theta), s = sin(theta), inv = 1.0 / theta;
        double w[3] = {rot[0] * inv, rot[1] * inv, rot[2] * inv};
        double wx[3] = {w[1] * X[2] - w[2] * X[1], w[2] * X[0] - w[0] * X[2], w[0] * X[1] - w[1] * X[0]};
        double t = (w[0] * X[0] + w[1] * X[1] + w[2] * X[2]) * (1 - c);
        for (int k = 0; k < 3; k++) out[k] = X[k] * c + wx[k] * s + w[k] * t;
    } else {
        double rx[3] = {rot[1] * X[2] - rot[2] * X[1], rot[2] * X[0] - rot[0] * X[2], rot[0] * X[1] - rot[1] * X[0]};
        for (int k = 0; k < 3; k++) out[k] = X[k] + rx[k];
    }
}

void ba_reproj(const double *cam, const double *X, double w, const double *feat, double *err) {
    double d[3] = {X[0] - cam[3], X[1] - cam[4], X[2] - cam[5]}, Xc[3];
    rodrigues_rotate(cam, d, Xc);
    double px = Xc[0] / Xc[2], py = Xc[1] / Xc[2];
    double rsq = px * px + py * py;
    double L = 1 + cam[9] * rsq + cam[10] * rsq * rsq;
    err[0] = w * (cam[6] * (px * L) + cam[7] - feat[0]);
    err[1] = w * (cam[6] * (py * L) + cam[8] - feat[1]);
}

/* The same with the block's 15 inputs packed: camera, point, weight. */
void ba_reproj_packed(const double *in, const double *feat, double *err) {
    ba_reproj(in, in + NCAM, in[NCAM + 3], feat, err);
}

double ba_werr(double w) { return 1 - w * w; }

static void ba_objective(const BA *ba, double *reproj, double *werr) {
    for (int i = 0; i < ba->p; i++) {
        ba_reproj(&ba->cams[(i % ba->n) * NCAM], &ba->pts[(i % ba->m) * 3], ba->w[i], &ba->feats[2 * i], &reproj[2 * i]);
        werr[i] = ba_werr(ba->w[i]);
    }
}

static void pack(const BA *ba, int i, double *in) {
    memcpy(in, &ba->cams[(i % ba->n) * NCAM], sizeof(double) * NCAM);
    memcpy(in + NCAM, &ba->pts[(i % ba->m) * 3], sizeof(double) * 3);
    in[NCAM + 3] = ba->w[i];
}

/* J: p blocks of 2 x 15 (row-major), Jw: p diagonal entries. */
static void jac_rev(const BA *ba, double *J, double *Jw) {
    double in[NBLK], err[2];
    for (int i = 0; i < ba->p; i++) {
        pack(ba, i, in);
        for (int r = 0; r < 2; r++) {
            double *din = &J[(2 * i + r) * NBLK];
            double derr[2] = {r == 0, r == 1};
            memset(din, 0, sizeof(double) * NBLK);
            __enzyme_autodiff((void *)ba_reproj_packed, enzyme_dup, in, din, enzyme_const, &ba->feats[2 * i],
                              enzyme_dupnoneed, err, derr);
        }
        Jw[i] = __enzyme_autodiff((void *)ba_werr, ba->w[i]);
    }
}

void fwd_width(void *, ...) __asm__("__enzyme_fwddiff");

static double E[NBLK][NBLK]; /* identity rows: the 15 seed directions */

static void jac_fwd(const BA *ba, double *J, double *Jw) {
    double in[NBLK], err[2], d[NBLK][2];
    for (int i = 0; i < ba->p; i++) {
        pack(ba, i, in);
        fwd_width((void *)ba_reproj_packed, enzyme_width, NBLK, enzyme_dup, in,
                  E[0], E[1], E[2], E[3], E[4], E[5], E[6], E[7], E[8], E[9], E[10], E[11], E[12], E[13], E[14],
                  enzyme_const, &ba->feats[2 * i], enzyme_dupnoneed, err,
                  d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11], d[12], d[13], d[14]);
        for (int k = 0; k < NBLK; k++) {
            J[(2 * i) * NBLK + k] = d[k][0];
            J[(2 * i + 1) * NBLK + k] = d[k][1];
        }
        Jw[i] = __enzyme_fwddiff((void *)ba_werr, ba->w[i], 1.0);
    }
}

static void jac_fd(const BA *ba, double *J, double *Jw) {
    double in[NBLK], ep[2], em[2];
    for (int i = 0; i < ba->p; i++) {
        pack(ba, i, in);
        for (int k = 0; k < NBLK; k++) {
            double x = in[k], h = 1e-6 * fmax(1.0, fabs(x));
            in[k] = x + h;
            ba_reproj_packed(in, &ba->feats[2 * i], ep);
            in[k] = x - h;
            ba_reproj_packed(in, &ba->feats[2 * i], em);
            in[k] = x;
            double h2 = (x + h) - (x - h);
            J[(2 * i) * NBLK + k] = (ep[0] - em[0]) / h2;
            J[(2 * i + 1) * NBLK + k] = (ep[1] - em[1]) / h2;
        }
        double w = ba->w[i], h = 1e-6 * fmax(1.0, fabs(w));
        Jw[i] = (ba_werr(w + h) - ba_werr(w - h)) / ((w + h) - (w - h));
    }
}

static BA read_ba(const char *path) {
    FILE *f = open_or_die(path);
    BA ba;
    ba.n = read_int(f, path, "n (cameras)", 1, 100000000);
    ba.m = read_int(f, path, "m (points)", 1, 100000000);
    ba.p = read_int(f, path, "p (observations)", 1, 100000000);
    double cam[NCAM], X[3], w, feat[2];
    for (int k = 0; k < NCAM; k++) cam[k] = read_double(f, path, "camera");
    for (int k = 0; k < 3; k++) X[k] = read_double(f, path, "point");
    w = read_double(f, path, "weight");
    for (int k = 0; k < 2; k++) feat[k] = read_double(f, path, "feature");
    double *rest;
    long extra = read_rest(f, path, &rest);
    free(rest);
    if (extra) die(path, "unexpected data after the feature");
    fclose(f);
    ba.cams = xmalloc(sizeof(double) * NCAM * (size_t)ba.n);
    ba.pts = xmalloc(sizeof(double) * 3 * (size_t)ba.m);
    ba.w = xmalloc(sizeof(double) * (size_t)ba.p);
    ba.feats = xmalloc(sizeof(double) * 2 * (size_t)ba.p);
    for (int i = 0; i < ba.n; i++) memcpy(&ba.cams[i * NCAM], cam, sizeof cam);
    for (int i = 0; i < ba.m; i++) memcpy(&ba.pts[i * 3], X, sizeof X);
    for (int i = 0; i < ba.p; i++) {
        ba.w[i] = w;
        ba.feats[2 * i] = feat[0];
        ba.feats[2 * i + 1] = feat[1];
    }
    return ba;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "error: usage: %s DATAFILE REPS\n", argv[0]);
        return 2;
    }
    int reps = parse_reps(argv[2]);
    BA ba = read_ba(argv[1]);
    for (int k = 0; k < NBLK; k++) E[k][k] = 1;
    size_t p = (size_t)ba.p;
    double *reproj = xmalloc(sizeof(double) * 2 * p), *werr = xmalloc(sizeof(double) * p);
    /* one full Jacobian buffer (large inputs: 2p x 15 doubles); the checked first blocks of each
       method are kept aside */
    double *J = xcalloc(2 * p * NBLK, sizeof(double)), *Jw = xcalloc(p, sizeof(double));
    int nchk = ba.p < 1000 ? ba.p : 1000;
    size_t nb = (size_t)nchk * 2 * NBLK;
    double *Jr = xmalloc(sizeof(double) * nb), *Jf = xmalloc(sizeof(double) * nb);
    double *Jrw = xmalloc(sizeof(double) * nchk), *Jfw = xmalloc(sizeof(double) * nchk);

    double primal = MEDIAN_MS(reps, ba_objective(&ba, reproj, werr));
    double obj = 0;
    for (size_t i = 0; i < 2 * p; i++) obj += reproj[i] * reproj[i];
    for (size_t i = 0; i < p; i++) obj += werr[i] * werr[i];
    double trev = MEDIAN_MS(reps, jac_rev(&ba, J, Jw));
    memcpy(Jr, J, sizeof(double) * nb);
    memcpy(Jrw, Jw, sizeof(double) * nchk);
    double tfwd = MEDIAN_MS(reps, jac_fwd(&ba, J, Jw));
    memcpy(Jf, J, sizeof(double) * nb);
    memcpy(Jfw, Jw, sizeof(double) * nchk);
    double tfd = MEDIAN_MS(reps, jac_fd(&ba, J, Jw));
    double *Jd = J, *Jdw = Jw;

    /* check the first observations (all entries of their blocks) */
    double maxerr = 0;
    for (int i = 0; i < nchk; i++) {
        for (int k = 0; k < 2 * NBLK; k++) {
            size_t at = (size_t)i * 2 * NBLK + k;
            maxerr = fmax(maxerr, rel_err(Jr[at], Jd[at]));
            maxerr = fmax(maxerr, rel_err(Jf[at], Jd[at]));
        }
        maxerr = fmax(maxerr, rel_err(Jrw[i], Jdw[i]));
        maxerr = fmax(maxerr, rel_err(Jfw[i], Jdw[i]));
    }
    report_jacobian(obj, primal, trev, tfwd, tfd, maxerr);
    return 0;
}
