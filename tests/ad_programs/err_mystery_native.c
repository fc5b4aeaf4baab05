/* Compiled without -flto: a native object, opaque to gradlink. */
double mystery(double x) { return x * 3.0 + 1.0; }
