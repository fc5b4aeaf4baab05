// Shared header of the C++ link test (main.cpp + shapes.cpp, or shapes.cpp as a shared library).
#pragma once
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// Exception type whose key function (the destructor) lives in shapes.cpp, so its typeinfo and
// vtable are emitted there only; main.cpp catches it by reference.
struct ShapeError : std::runtime_error {
  ShapeError(const std::string& what, int code);
  ~ShapeError() override;
  int code;
};

class Shape {
 public:
  virtual ~Shape();
  virtual double area() const = 0;
  virtual std::string name() const = 0;
  virtual double perimeter() const { return 0.0; }
};

std::unique_ptr<Shape> make_shape(const std::string& kind, double size);  // throws ShapeError
double total_area(const std::vector<std::unique_ptr<Shape>>& shapes);    // virtual calls
int visit_all(const std::vector<std::unique_ptr<Shape>>& shapes,
              const std::function<void(const Shape&)>& visitor);        // unwinds through here
std::exception_ptr capture_failure(double size);
std::vector<std::string>& init_log();  // records static constructors in the order they ran
int seed_from(const char* text);
extern int g_shapes_seed;              // dynamically initialised in shapes.cpp

template <typename T>
class Stats {
 public:
  void add(T v) { values_.push_back(v); }
  T sum() const {
    T s{};
    for (const T& v : values_) s += v;
    return s;
  }
  T max() const {
    if (values_.empty()) throw std::out_of_range("Stats::max of an empty set");
    T m = values_.front();
    for (const T& v : values_)
      if (v > m) m = v;
    return m;
  }
  std::size_t size() const { return values_.size(); }

 private:
  std::vector<T> values_;
};

// Explicitly instantiated in shapes.cpp only.
template <typename T>
T weighted_sum(const std::vector<T>& values, T weight);
extern template int weighted_sum<int>(const std::vector<int>&, int);
extern template double weighted_sum<double>(const std::vector<double>&, double);
