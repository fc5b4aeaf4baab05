#include <math.h>
#include "phys.h"

vec2 vec2_add(vec2 a, vec2 b) { return (vec2){a.x + b.x, a.y + b.y}; }

vec2 vec2_scale(vec2 a, double s) { return (vec2){a.x * s, a.y * s}; }

double vec2_norm(vec2 a) { return sqrt(a.x * a.x + a.y * a.y); }
