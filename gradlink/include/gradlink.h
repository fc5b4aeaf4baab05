/* gradlink.h: the Enzyme C API as ld.gradlink implements it.
 *
 * Compile with -flto and link with -fuse-ld=gradlink; each call below is replaced at link time
 * by a call of a derivative synthesized from the optimized program.
 *
 *   double dx = __enzyme_autodiff((void *)f, x, enzyme_const, y);      // d f / d x
 *   __enzyme_autodiff((void *)g, enzyme_dup, in, d_in, enzyme_const, n); // d_in += (dg/din)^T * 1
 *
 * Markers: enzyme_dup (pointer, then its shadow; shadows are accumulated into),
 * enzyme_dupnoneed, enzyme_const, enzyme_out (active scalar: its adjoint is returned).
 * Without a marker: floating point is enzyme_out, integers enzyme_const, pointers enzyme_dup.
 * Several enzyme_out arguments: declare a variant returning a struct, e.g.
 *   typedef struct { double dx, dy; } gradlink_d2;
 *   gradlink_d2 gradlink_autodiff_d2(void *, ...) __asm__("__enzyme_autodiff");
 */
#ifndef GRADLINK_H
#define GRADLINK_H

#ifdef __cplusplus
extern "C" {
#endif

extern int enzyme_dup;
extern int enzyme_dupnoneed;
extern int enzyme_const;
extern int enzyme_out;

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct { double d0, d1; } gradlink_d2;
typedef struct { double d0, d1, d2; } gradlink_d3;
gradlink_d2 gradlink_autodiff_d2(void *, ...) __asm__("__enzyme_autodiff");
gradlink_d3 gradlink_autodiff_d3(void *, ...) __asm__("__enzyme_autodiff");
float gradlink_autodiff_f(void *, ...) __asm__("__enzyme_autodiff");

#ifdef __cplusplus
}
#endif

#endif
