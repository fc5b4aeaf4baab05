// Virtual calls on objects made in the differentiated function: the vtable stores are
// constant GEPs with inrange(...), and the calls are indirect (compiled with clang++-22).
#include "ad.h"

struct Shape {
    virtual double area(double s) const = 0;
    virtual ~Shape() {}
};
struct Square : Shape {
    double area(double s) const override { return s * s; }
};
struct Circle : Shape {
    double area(double s) const override { return 3.14159 * s * s; }
};

extern "C" __attribute__((noinline)) double total(double s, int k) {
    Shape *a = k ? (Shape *)new Square : (Shape *)new Circle;
    Square b;
    double r = a->area(s) + b.area(s) * s;
    delete a;
    return r;
}

static double t1(double s) { return total(s, 1); }
static double t0(double s) { return total(s, 0); }

int main() {
    double s = 1.5;
    check_exact("square", __enzyme_autodiff((void *)total, s, enzyme_const, 1), 2 * s + 3 * s * s);
    check_exact("circle", __enzyme_autodiff((void *)total, s, enzyme_const, 0),
                2 * 3.14159 * s + 3 * s * s);
    check_fd("square_fd", __enzyme_autodiff((void *)total, s, enzyme_const, 1), fd1(t1, s));
    check_fd("circle_fd", __enzyme_autodiff((void *)total, s, enzyme_const, 0), fd1(t0, s));
    return ad_done();
}
