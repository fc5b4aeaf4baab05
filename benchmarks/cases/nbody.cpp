// Case study (C++): N bodies (softened gravity) advanced by a `step` function (kick-drift-kick
// leapfrog, dt = 0.01) for a number of steps; objective the final total energy (kinetic plus
// potential), gradient w.r.t. the initial positions. Vec3 is a small struct with operators,
// the state std::arrays of them. Usage: nbody n=64,steps=10 REPS
#include <array>

#include "case.h"

struct Vec3 {
    double x, y, z;
    Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
    Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
    Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
    Vec3 &operator+=(const Vec3 &o) { x += o.x; y += o.y; z += o.z; return *this; }
    double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
};

constexpr int NMAX = 256;
constexpr double DT = 0.01, EPS2 = 0.01;

struct System {
    int n;
    std::array<Vec3, NMAX> pos, vel;
    std::array<double, NMAX> mass;
};

static void accelerations(const System &s, std::array<Vec3, NMAX> &acc) {
    for (int i = 0; i < s.n; i++) acc[i] = {0, 0, 0};
    for (int i = 0; i < s.n; i++)
        for (int j = 0; j < s.n; j++) {
            if (i == j) continue;
            Vec3 d = s.pos[j] - s.pos[i];
            double r2 = d.dot(d) + EPS2;
            acc[i] += d * (s.mass[j] / (r2 * sqrt(r2)));
        }
}

static void step(System &s) {
    std::array<Vec3, NMAX> acc;
    accelerations(s, acc);
    for (int i = 0; i < s.n; i++) s.vel[i] += acc[i] * (0.5 * DT);
    for (int i = 0; i < s.n; i++) s.pos[i] += s.vel[i] * DT;
    accelerations(s, acc);
    for (int i = 0; i < s.n; i++) s.vel[i] += acc[i] * (0.5 * DT);
}

static double energy(const System &s) {
    double e = 0;
    for (int i = 0; i < s.n; i++) {
        e += 0.5 * s.mass[i] * s.vel[i].dot(s.vel[i]);
        for (int j = i + 1; j < s.n; j++) {
            Vec3 d = s.pos[j] - s.pos[i];
            e -= s.mass[i] * s.mass[j] / sqrt(d.dot(d) + EPS2);
        }
    }
    return e;
}

// pos0, vel0: n Vec3 each (as 3n doubles), mass: n
extern "C" double simulate(const double *pos0, const double *vel0, const double *mass, int n,
                           int steps) {
    System s;
    s.n = n;
    for (int i = 0; i < n; i++) {
        s.pos[i] = {pos0[3 * i], pos0[3 * i + 1], pos0[3 * i + 2]};
        s.vel[i] = {vel0[3 * i], vel0[3 * i + 1], vel0[3 * i + 2]};
        s.mass[i] = mass[i];
    }
    for (int k = 0; k < steps; k++) step(s);
    return energy(s);
}

int main(int argc, char **argv) {
    int reps = case_reps(argc, argv, "nbody");
    int n = (int)case_spec(argv[1], "n", 64, 2, NMAX);
    int steps = (int)case_spec(argv[1], "steps", 10, 0, 1000000);
    double *pos = (double *)malloc(sizeof(double) * 3 * n), *vel = (double *)malloc(sizeof(double) * 3 * n);
    double *mass = (double *)malloc(sizeof(double) * n), *dpos = (double *)calloc(3 * n, sizeof(double));
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) {
            pos[3 * i + c] = sin(1.7 * i + 2.1 * c + 0.5);
            vel[3 * i + c] = 0.1 * cos(0.9 * i + 1.3 * c);
        }
        mass[i] = (1.0 + 0.5 * sin(0.3 * i)) / n;
    }
    printf("objective %.17g\nparameters %d\n", simulate(pos, vel, mass, n, steps), 3 * n);
    case_escape(pos); case_escape(vel); case_escape(mass);
    double tp = CASE_MS(reps, 1, case_sink = simulate(pos, vel, mass, n, steps));
    double tg = CASE_MS(reps, 1, {
        memset(dpos, 0, sizeof(double) * 3 * n);
        __enzyme_autodiff((void *)simulate, enzyme_dup, pos, dpos, enzyme_const, vel,
                          enzyme_const, mass, enzyme_const, n, enzyme_const, steps);
    });
    printf("primal_ms %.6g\ngrad_ms %.6g\n", tp, tg);
    CASE_FD_CHECK(pos, 3 * n, dpos, 40, simulate(pos, vel, mass, n, steps));
    return 0;
}
