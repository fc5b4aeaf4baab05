#include "shapes.h"

#include <cmath>
#include <sstream>

namespace {

constexpr double kPi = 3.14159265358979323846;
int g_built = 0;

std::vector<std::string> &kinds() {
    static std::vector<std::string> k;
    return k;
}

// Static constructor with a side effect: registers the known kinds before main runs.
struct Registrar {
    Registrar() {
        kinds().push_back("circle");
        kinds().push_back("rect");
        kinds().push_back("square");
    }
} registrar;

}  // namespace

Circle::Circle(double r) : r(r) { ++g_built; }
double Circle::area() const { return kPi * r * r; }
double Circle::perimeter() const { return 2.0 * kPi * r; }
std::string Circle::name() const { return "circle(" + std::to_string(r) + ")"; }

Rect::Rect(double w, double h) : w(w), h(h) { ++g_built; }
double Rect::area() const { return w * h; }
double Rect::perimeter() const { return 2.0 * (w + h); }
std::string Rect::name() const { return "rect(" + std::to_string(w) + "x" + std::to_string(h) + ")"; }

std::string Square::name() const { return "square(" + std::to_string(w) + ")"; }

std::unique_ptr<Shape> make_shape(const std::string &spec) {
    std::istringstream in(spec);
    std::string kind;
    double a = 0.0, b = 0.0;
    in >> kind >> a;
    if (!in || a <= 0.0)
        throw BadShape("bad shape spec: '" + spec + "'");
    if (kind == "circle")
        return std::make_unique<Circle>(a);
    if (kind == "square")
        return std::make_unique<Square>(a);
    if (kind == "rect") {
        if (!(in >> b) || b <= 0.0)
            throw BadShape("rect needs two sides: '" + spec + "'");
        return std::make_unique<Rect>(a, b);
    }
    throw BadShape("unknown shape kind: '" + kind + "'");
}

int shapes_built() { return g_built; }

const std::vector<std::string> &registered_kinds() { return kinds(); }
