/* Shadows of global variables the program queries, seeds and reads (Enzyme's __enzyme_shadow,
   __enzyme_context, __enzyme_zero_shadows): model parameters kept in globals, whose adjoints
   (reverse mode) and tangents (forward mode) the program reads and seeds through the queried
   shadow addresses, checked against central differences of the primal in those globals. */
#include <stdlib.h>
#include "ad.h"

void *__enzyme_context(int width);
void *__enzyme_shadow(void *, ...);
void __enzyme_zero_shadows(void *context);
double __enzyme_fwddiff(void *, ...);
d2 __enzyme_fwddiff2(void *, ...) __asm__("__enzyme_fwddiff");
extern int enzyme_context, enzyme_width;

double stiffness = 3.0;
struct { double mass, drag; long steps; } model = {2.0, 0.5, 4};
double table[3] = {0.25, 0.5, 1.5};
/* a descriptor, as Fortran keeps one for an array: its shadow holds the same length and the
   address of the table's shadow */
struct { double *base; long n; } view = {table, 3};

double energy(double x) {
    double e = 0.5 * stiffness * x * x;
    for (long s = 0; s < model.steps; s++)
        e += model.drag * sin(x + s) / model.mass;
    for (long i = 0; i < view.n; i++)
        e += view.base[i] * pow(x, (double)i + 1.0);
    return e;
}

/* weights given heap memory at run time, outside differentiated code (as flang's ALLOCATE) */
double *weights;
__attribute__((noinline)) void init_weights(int n) {
    weights = (double *)aligned_alloc(64, 64 * sizeof(double));
    for (int i = 0; i < n; i++) weights[i] = 0.5 + i;
}

double weighted(double x) {
    double s = 0;
    for (int i = 0; i < 8; i++) s += weights[i] * weights[i] * sin(x * (i + 1));
    return s;
}

FD_HELPER double fd_weight(int i, double x) {
    double h = fd_step(weights[i]), keep = weights[i];
    weights[i] = keep + h;
    double up = weighted(x);
    weights[i] = keep - h;
    double down = weighted(x);
    weights[i] = keep;
    return (up - down) / (2 * h);
}

/* d energy / d x, with the parameters' adjoints in a context of its own */
double denergy(double x) {
    void *inner = __enzyme_context(1);
    __enzyme_zero_shadows(inner);
    return __enzyme_autodiff((void *)energy, enzyme_context, inner, x);
}

FD_HELPER double fd_global(double *g, double x) {
    double h = fd_step(*g), keep = *g;
    *g = keep + h;
    double up = energy(x);
    *g = keep - h;
    double down = energy(x);
    *g = keep;
    return (up - down) / (2 * h);
}

FD_HELPER double fd_denergy_global(double *g, double x) {
    double h = fd_step(*g), keep = *g;
    *g = keep + h;
    double up = denergy(x);
    *g = keep - h;
    double down = denergy(x);
    *g = keep;
    return (up - down) / (2 * h);
}

int main(void) {
    double x = 0.7;
    /* default shadows, width 1: reverse mode accumulates the globals' adjoints */
    double *dk = (double *)__enzyme_shadow(&stiffness, 1, 0);
    double *ddrag = (double *)__enzyme_shadow(&model.drag, 1, 0);
    double *dtable = (double *)__enzyme_shadow(&table, 1, 0);
    *dk = *ddrag = 0;
    dtable[0] = dtable[1] = dtable[2] = 0;
    double dx = __enzyme_autodiff((void *)energy, x);
    printf("fd dx %.17g %.17g\n", dx, fd1(energy, x));
    printf("fd dstiffness %.17g %.17g\n", *dk, fd_global(&stiffness, x));
    printf("fd ddrag %.17g %.17g\n", *ddrag, fd_global(&model.drag, x));
    printf("fd dtable1 %.17g %.17g\n", dtable[1], fd_global(&table[1], x));
    /* not zeroed by gradlink: a second call adds the same again */
    __enzyme_autodiff((void *)energy, x);
    printf("exact dstiffness_twice %.17g %.17g\n", *dk, 2 * fd_global(&stiffness, x));

    /* forward mode reads the tangents seeded there */
    *dk = 1, *ddrag = 0;
    *(double *)__enzyme_shadow(&model.mass, 1, 0) = 0;
    dtable[0] = dtable[1] = dtable[2] = 0;
    double t = __enzyme_fwddiff((void *)energy, x, 0.0);
    printf("fd tangent_stiffness %.17g %.17g\n", t, fd_global(&stiffness, x));

    /* two lanes: shadows of their own, one per lane */
    double *dk0 = (double *)__enzyme_shadow(&stiffness, 2, 0);
    double *dk1 = (double *)__enzyme_shadow(&stiffness, 2, 1);
    double *dt1 = (double *)__enzyme_shadow(&table[2], 2, 1);
    *dk0 = 1, *dk1 = 0, *dt1 = 1;
    d2 lanes = __enzyme_fwddiff2((void *)energy, enzyme_width, 2, x, 0.0, 0.0);
    printf("fd lane0 %.17g %.17g\n", lanes.a, fd_global(&stiffness, x));
    printf("fd lane1 %.17g %.17g\n", lanes.b, fd_global(&table[2], x));
    printf("exact width1_unchanged %.17g %.17g\n", *dk, 1.0);

    /* a context: the shadow of the descriptor holds n and points to the table's shadow */
    void *ctx = __enzyme_context(1);
    double **vbase = (double **)__enzyme_shadow(ctx, &view.base, 0);
    long *vn = (long *)__enzyme_shadow(ctx, &view.n, 0);
    double *ctable = (double *)__enzyme_shadow(ctx, &table, 0);
    double *cdrag = (double *)__enzyme_shadow(ctx, &model.drag, 0);
    printf("exact shadow_n %.17g %.17g\n", (double)*vn, 3.0);
    printf("exact shadow_base %.17g %.17g\n", (double)(*vbase == ctable), 1.0);
    printf("exact shadow_distinct %.17g %.17g\n", (double)(ctable != dtable), 1.0);
    for (int round = 0; round < 2; round++) {
        __enzyme_zero_shadows(ctx);
        printf("exact zeroed_n %.17g %.17g\n", (double)*vn, 3.0);
        __enzyme_autodiff((void *)energy, enzyme_context, ctx, x);
        printf("fd ctx_table0 %.17g %.17g\n", ctable[0], fd_global(&table[0], x));
        printf("fd ctx_drag %.17g %.17g\n", *cdrag, fd_global(&model.drag, x));
    }
    /* the same context in forward mode: a tangent seeded in the table's shadow, read through
       the descriptor's */
    __enzyme_zero_shadows(ctx);
    ctable[1] = 1;
    t = __enzyme_fwddiff((void *)energy, enzyme_context, ctx, x, 0.0);
    printf("fd ctx_tangent %.17g %.17g\n", t, fd_global(&table[1], x));

    /* second order, forward over reverse: the outer context seeds the stiffness's tangent,
       the inner one (in denergy) takes the adjoints, and the two never mix */
    void *outer = __enzyme_context(1);
    double *ok = (double *)__enzyme_shadow(outer, &stiffness, 0);
    __enzyme_zero_shadows(outer);
    double dxx = __enzyme_fwddiff((void *)denergy, enzyme_context, outer, x, 1.0);
    printf("fd dxx %.17g %.17g\n", dxx, fd1(denergy, x));
    __enzyme_zero_shadows(outer);
    *ok = 1;
    double dxk = __enzyme_fwddiff((void *)denergy, enzyme_context, outer, x, 0.0);
    printf("fd dxk %.17g %.17g\n", dxk, fd_denergy_global(&stiffness, x));

    /* a global pointing to heap memory: its shadow points to a zeroed block of the same size,
       zeroed again (not replaced) by __enzyme_zero_shadows */
    init_weights(8);
    void *wctx = __enzyme_context(1);
    double **dweights = (double **)__enzyme_shadow(wctx, &weights, 0);
    double *first = 0;
    for (int round = 0; round < 2; round++) {
        __enzyme_zero_shadows(wctx);
        double dw = __enzyme_autodiff((void *)weighted, enzyme_context, wctx, x);
        if (round == 0) first = *dweights;
        printf("fd heap_dx %.17g %.17g\n", dw, fd1(weighted, x));
        printf("fd heap_dw3 %.17g %.17g\n", (*dweights)[3], fd_weight(3, x));
        printf("exact heap_same_block %.17g %.17g\n", (double)(*dweights == first), 1.0);
    }
    free(weights);
    printf("done\n");
    return 0;
}
