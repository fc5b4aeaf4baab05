#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "shapes.h"

namespace {
struct Boot {
  Boot() {
    init_log().push_back("main.cpp");
    std::cout << "[ctor] main.cpp registered\n";
  }
} boot;

struct Abort {
  int at;
};

// A shape defined in this translation unit, used through virtual calls made in shapes.cpp.
class Triangle : public Shape {
 public:
  Triangle(double b, double h) : b_(b), h_(h) {}
  double area() const override { return 0.5 * b_ * h_; }
  std::string name() const override { return "triangle"; }

 private:
  double b_, h_;
};
}  // namespace

int g_main_seed = seed_from("main");

int main() {
  std::cout << "init order:";
  for (const auto& who : init_log()) std::cout << ' ' << who;
  std::cout << "\nseeds: " << g_main_seed << ' ' << g_shapes_seed << '\n';

  std::vector<std::unique_ptr<Shape>> shapes;
  shapes.push_back(make_shape("circle", 1.0));
  shapes.push_back(make_shape("square", 2.0));
  shapes.push_back(std::make_unique<Triangle>(3.0, 4.0));
  shapes.push_back(make_shape("square", 0.5));

  std::cout << std::fixed << std::setprecision(3);
  for (const auto& s : shapes)
    std::cout << std::setw(9) << s->name() << " area " << s->area() << " perimeter "
              << s->perimeter() << '\n';
  std::cout << "total area " << total_area(shapes) << '\n';

  // 1. exception thrown in shapes.cpp, caught here by a type whose typeinfo lives there
  try {
    make_shape("hexagon", 1.0);
    std::cout << "no exception?!\n";
  } catch (const ShapeError& e) {
    std::cout << "caught ShapeError: " << e.what() << " code " << e.code << '\n';
  }

  // 2. thrown here, caught in shapes.cpp (ShapeError) or unwound through it (Abort)
  try {
    int n = visit_all(shapes, [](const Shape& s) {
      if (s.name() == "circle") throw ShapeError("circles are not welcome", 42);
      if (s.name() == "triangle") throw Abort{3};
      std::cout << "  visiting " << s.name() << '\n';
    });
    std::cout << "visited " << n << '\n';
  } catch (const Abort& a) {
    std::cout << "caught Abort at " << a.at << '\n';
  }

  // 3. a standard exception from a template, caught as std::exception
  Stats<int> empty;
  try {
    std::cout << empty.max() << '\n';
  } catch (const std::exception& e) {
    std::cout << "caught std::exception: " << e.what() << '\n';
  }

  // 4. exception_ptr created in shapes.cpp, rethrown here
  try {
    std::rethrow_exception(capture_failure(-2.0));
  } catch (const std::domain_error& e) {
    std::cout << "rethrown domain_error: " << e.what() << '\n';
  }

  // templates instantiated in both translation units and explicitly in shapes.cpp
  Stats<double> areas;
  for (const auto& s : shapes) areas.add(s->area());
  std::vector<int> ints{1, 2, 3, 4, 5};
  std::cout << "max area " << areas.max() << " of " << areas.size() << '\n';
  std::cout << "weighted int " << weighted_sum(ints, 2) << '\n';
  std::cout << "weighted double " << weighted_sum(std::vector<double>{0.5, 1.5}, 0.25) << '\n';

  std::map<std::string, int> counts;
  for (const auto& s : shapes) ++counts[s->name()];
  std::ostringstream os;
  for (const auto& [name, n] : counts) os << name << '=' << n << ';';
  std::string summary = os.str();
  std::reverse(summary.begin(), summary.end());
  std::cout << "counts " << os.str() << " reversed " << summary << '\n';
  return 0;
}
