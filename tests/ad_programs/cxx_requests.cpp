// Requests as C++ code writes them: a mangled declaration taking std::vector by pointer, called
// where exceptions may pass (clang emits an invoke), on a function that prints with std::cout.
#include <iostream>
#include <vector>
#include "ad.h"

void __enzyme_autodiff(void *, std::vector<double> *, std::vector<double> *);

static bool verbose;

double energy(const std::vector<double> &v) {
    double s = 0;
    for (double x : v) s += x * x * x;
    if (verbose) std::cout << "energy " << s << std::endl;   // output: no derivative
    return s;
}

void grad(std::vector<double> *v, std::vector<double> *d) {
    std::string tag(v->size() > 2 ? "a label long enough to live on the heap" : "short");
    __enzyme_autodiff((void *)energy, v, d);
    if (tag.empty()) std::cout << tag;
}

int main(int argc, char **) {
    verbose = argc > 5;
    std::vector<double> v = {0.5, -1.0, 2.0}, d(3, 0.0);
    grad(&v, &d);
    for (int i = 0; i < 3; i++) check_exact(lbl("dv", i), d[i], 3 * v[i] * v[i]);
    return ad_done();
}
