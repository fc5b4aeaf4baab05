#include "shapes.h"

#include <cmath>
#include <iostream>
#include <sstream>

ShapeError::ShapeError(const std::string& what, int code) : std::runtime_error(what), code(code) {}
ShapeError::~ShapeError() = default;
Shape::~Shape() = default;

std::vector<std::string>& init_log() {
  static std::vector<std::string> log;
  return log;
}

int seed_from(const char* text) {
  unsigned h = 7;
  for (const char* p = text; *p; ++p) h = h * 31u + static_cast<unsigned char>(*p);
  return static_cast<int>(h % 1000u);
}

namespace {
struct Registrar {
  explicit Registrar(const char* who) {
    init_log().push_back(who);
    std::cout << "[ctor] " << who << " registered\n";
  }
};
Registrar registrar("shapes.cpp");

class Circle : public Shape {
 public:
  explicit Circle(double r) : r_(r) {}
  double area() const override { return M_PI * r_ * r_; }
  double perimeter() const override { return 2 * M_PI * r_; }
  std::string name() const override { return "circle"; }

 private:
  double r_;
};

class Square : public Shape {
 public:
  explicit Square(double s) : s_(s) {}
  double area() const override { return s_ * s_; }
  double perimeter() const override { return 4 * s_; }
  std::string name() const override { return "square"; }

 private:
  double s_;
};

struct Trace {
  const char* where;
  ~Trace() { std::cout << "  cleanup in " << where << "\n"; }
};
}  // namespace

int g_shapes_seed = seed_from("shapes");

__attribute__((noinline)) std::unique_ptr<Shape> make_shape(const std::string& kind, double size) {
  if (size < 0) throw std::domain_error("negative size " + std::to_string(size));
  if (kind == "circle") return std::make_unique<Circle>(size);
  if (kind == "square") return std::make_unique<Square>(size);
  std::ostringstream msg;
  msg << "unknown shape '" << kind << "'";
  throw ShapeError(msg.str(), static_cast<int>(kind.size()));
}

double total_area(const std::vector<std::unique_ptr<Shape>>& shapes) {
  Stats<double> st;
  for (const auto& s : shapes) st.add(s->area());
  return st.sum();
}

__attribute__((noinline)) int visit_all(const std::vector<std::unique_ptr<Shape>>& shapes,
                                        const std::function<void(const Shape&)>& visitor) {
  Trace trace{"visit_all"};
  int visited = 0;
  for (const auto& s : shapes) {
    try {
      visitor(*s);
      ++visited;
    } catch (const ShapeError& e) {
      std::cout << "  visit_all skipped " << s->name() << ": " << e.what() << " (code " << e.code
                << ")\n";
    }
  }
  return visited;
}

std::exception_ptr capture_failure(double size) {
  try {
    make_shape("square", size);
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

template <typename T>
T weighted_sum(const std::vector<T>& values, T weight) {
  T s{};
  T w = weight;
  for (const T& v : values) {
    s += v * w;
    w += weight;
  }
  return s;
}
template int weighted_sum<int>(const std::vector<int>&, int);
template double weighted_sum<double>(const std::vector<double>&, double);
