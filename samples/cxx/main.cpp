// Builds shapes through a factory, prints them through virtual calls and summarizes them with
// templates; one spec is invalid and its exception is caught.
#include <iomanip>
#include <iostream>

#include "shapes.h"

int main() {
    std::cout << "registered kinds:";
    for (const auto &k : registered_kinds())
        std::cout << ' ' << k;
    std::cout << '\n';

    const std::vector<std::string> specs = {"circle 1.5", "rect 2 3", "square 2.5", "hexagon 1",
                                            "circle 0.5", "rect 4"};
    std::vector<std::unique_ptr<Shape>> shapes;
    int errors = 0;
    for (const auto &spec : specs) {
        try {
            shapes.push_back(make_shape(spec));
        } catch (const BadShape &e) {
            ++errors;
            std::cout << "caught: " << e.what() << '\n';
        }
    }

    std::cout << std::fixed << std::setprecision(4);
    for (const auto &s : shapes)
        std::cout << std::setw(26) << std::left << s->name() << " area " << std::setw(9)
                  << std::right << s->area() << " perimeter " << s->perimeter() << '\n';

    auto areas = summarize<double>(shapes, [](const Shape &s) { return s.area(); });
    auto perims = summarize<float>(shapes, [](const Shape &s) { return s.perimeter(); });
    auto names = summarize<std::size_t>(shapes, [](const Shape &s) { return s.name().size(); });
    std::cout << "shapes: " << areas.count << " built, " << errors << " rejected, "
              << shapes_built() << " constructed\n";
    std::cout << "total area " << areas.total << ", largest " << areas.largest << ", mean "
              << areas.mean() << '\n';
    std::cout << "mean perimeter " << perims.mean() << ", longest name " << names.largest << '\n';
    return errors == 2 ? 0 : 1;
}
