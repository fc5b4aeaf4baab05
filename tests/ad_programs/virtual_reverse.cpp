/* Shadow objects of C++ classes with virtual functions, their vtable pointer set with
   __enzyme_virtualreverse as Enzyme's users write it (gradlink dispatches on the primal
   object's vtable, so the shadow's is never read), and a struct holding a function pointer
   whose shadow field is set the same way. Reverse mode, against finite differences. */
#include "ad.h"

template <typename T> T __enzyme_virtualreverse(T);

struct Shape {
    virtual ~Shape() = default;
    virtual double area(double s) const = 0;
    double scale = 1.0;
};
struct Square : Shape {
    double area(double s) const override { return scale * s * s; }
};
struct Circle : Shape {
    double area(double s) const override { return scale * 3.14159 * s * s / 4; }
};

__attribute__((noinline)) double total(const Shape &a, double s) { return a.area(s) * sin(s); }

struct Op {
    double (*fn)(double);
    double w;
};
static double cube(double x) { return x * x * x; }
__attribute__((noinline)) double apply(Op *op, double x) { return op->w * op->fn(x); }

static const Shape *shape;
static double total_p(double s) { return total(*shape, s); }

int main() {
    Square sq;
    Circle ci;
    const Shape *shapes[2] = {&sq, &ci};
    for (int k = 0; k < 2; k++) {
        Shape *d = k == 0 ? static_cast<Shape *>(new Square) : new Circle;
        *(void **)d = __enzyme_virtualreverse(*(void **)d);
        d->scale = 0;
        shape = shapes[k];
        double s = 0.8 + k;
        double ds = __enzyme_autodiff((void *)total, enzyme_dup, shapes[k], d, s);
        check_fd(lbl("ds", k), ds, fd1(total_p, s));
        check_exact(lbl("dscale", k), d->scale, shapes[k]->area(s) * sin(s));
        delete d;
    }
    Op op = {cube, 2.0}, dop = {nullptr, 0.0};
    dop.fn = __enzyme_virtualreverse(cube);
    double dx = __enzyme_autodiff((void *)apply, enzyme_dup, &op, &dop, 1.5);
    check_exact("dx", dx, 2.0 * 3 * 1.5 * 1.5);
    check_exact("dw", dop.w, cube(1.5));
    return ad_done();
}
