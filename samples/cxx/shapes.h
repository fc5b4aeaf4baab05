// Shape hierarchy and a small generic accumulator for the cxx sample.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct Shape {
    virtual ~Shape() = default;
    virtual double area() const = 0;
    virtual double perimeter() const = 0;
    virtual std::string name() const = 0;
};

struct Circle : Shape {
    explicit Circle(double r);
    double area() const override;
    double perimeter() const override;
    std::string name() const override;
    double r;
};

struct Rect : Shape {
    Rect(double w, double h);
    double area() const override;
    double perimeter() const override;
    std::string name() const override;
    double w, h;
};

struct Square : Rect {
    explicit Square(double s) : Rect(s, s) {}
    std::string name() const override;
};

// Thrown by the factory for an unknown shape description.
struct BadShape : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::unique_ptr<Shape> make_shape(const std::string &spec);

// Number of shapes the factory has built (incremented from every constructor).
int shapes_built();

// Registry filled by a static constructor in shapes.cpp before main runs.
const std::vector<std::string> &registered_kinds();

template <typename T>
struct Summary {
    T total{};
    T largest{};
    std::size_t count = 0;

    void add(T v) {
        total += v;
        if (count == 0 || v > largest)
            largest = v;
        ++count;
    }
    T mean() const { return count ? total / static_cast<T>(count) : T{}; }
};

template <typename T, typename F>
Summary<T> summarize(const std::vector<std::unique_ptr<Shape>> &shapes, F f) {
    Summary<T> s;
    for (const auto &p : shapes)
        s.add(static_cast<T>(f(*p)));
    return s;
}
