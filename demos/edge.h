/* demos/edge.h -- what the demos share with the benchmarks that run their
 * kernels (bench/): the boundary value of the ADI and DE demos, as a point
 * function and as tiling.h's two boundary callbacks (tile_boundary_fn, one
 * point per call; tile_boundary_row_fn, a row per call), and the JSON of
 * every thread's times (demo_json_stats).  Needs only <stdint.h>,
 * <stddef.h> and <stdio.h>: bench/bench.h includes it without the demos'
 * other code. */
#ifndef TILEHYBRID_DEMOS_EDGE_H
#define TILEHYBRID_DEMOS_EDGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Boundary value of both kernels: any coordinate at -1 (or below). */
static inline double demo_g(int64_t x, int64_t y, int64_t z)
{
    return (double)((31 * x + 17 * y + 7 * z + 1000003) % 97) / 97.0;
}

/* demo_g() as a tile_config boundary callback, one point per call (ctx
 * unused; tests/mpi_demo_verify.c uses it). */
static inline void demo_edge(void *out, const int64_t *c, void *ctx)
{
    (void)ctx;
    *(double *)out = demo_g(c[0], c[1], c[2]);
}

/* r / 97.0 for r = 0..96, folded by the compiler: the same bits as the
 * division (IEEE division is correctly rounded, at compile time too), a
 * load instead of a divide per boundary point. */
#define DEMO_Q1(r) (double)(r) / 97.0
#define DEMO_Q10(r) DEMO_Q1(r), DEMO_Q1(r + 1), DEMO_Q1(r + 2), DEMO_Q1(r + 3), DEMO_Q1(r + 4), \
    DEMO_Q1(r + 5), DEMO_Q1(r + 6), DEMO_Q1(r + 7), DEMO_Q1(r + 8), DEMO_Q1(r + 9)
static const double demo_q97[97] = {
    DEMO_Q10(0), DEMO_Q10(10), DEMO_Q10(20), DEMO_Q10(30), DEMO_Q10(40), DEMO_Q10(50),
    DEMO_Q10(60), DEMO_Q10(70), DEMO_Q10(80), DEMO_Q1(90), DEMO_Q1(91), DEMO_Q1(92),
    DEMO_Q1(93), DEMO_Q1(94), DEMO_Q1(95), DEMO_Q1(96)
};
#undef DEMO_Q10
#undef DEMO_Q1

/* demo_g() a row per call (cfg.boundary_row; ctx unused): count points,
 * the first at c, each next one s further, value e at out + e * stride.
 * The remainder is carried from point to point (r += dr mod 97): demo_g's
 * bits while the dividend 31x + 17y + 7z + 1000003 stays >= 0 (linear along
 * the row: its two ends tell; the demos' coordinates are >= -3); a row
 * that leaves that range takes demo_g point by point. */
static inline void demo_edge_row(void *out, ptrdiff_t stride, int64_t count, const int64_t *c,
                                 const int64_t *s, void *ctx)
{
    unsigned char *o = (unsigned char *)out;
    int64_t d = 31 * c[0] + 17 * c[1] + 7 * c[2] + 1000003;
    int64_t dd = 31 * s[0] + 17 * s[1] + 7 * s[2], r, dr, e;
    (void)ctx;
    if (d < 0 || d + (count - 1) * dd < 0) {
        for (e = 0; e < count; e++)
            *(double *)(o + e * stride) = demo_g(c[0] + e * s[0], c[1] + e * s[1],
                                                 c[2] + e * s[2]);
        return;
    }
    r = d % 97;
    dr = (dd % 97 + 97) % 97;
    for (e = 0; e < count; e++) {
        *(double *)(o + e * stride) = demo_q97[r];
        r += dr;
        if (r >= 97)
            r -= 97;
    }
}

/* The JSON key "per_thread" (after a key already printed): compute, comm
 * and idle seconds as arrays of ranks of threads, from all[(r T + t) 3 + k]
 * (k = 0, 1, 2 for the three) of @size ranks of @T threads. */
static inline void demo_json_stats(const double *all, int size, int T)
{
    static const char *const key[3] = { "compute", "comm", "idle" };
    int k, r, t;
    printf(", \"per_thread\": {");
    for (k = 0; k < 3; k++) {
        printf("%s\"%s\": [", k ? ", " : "", key[k]);
        for (r = 0; r < size; r++) {
            printf("%s[", r ? ", " : "");
            for (t = 0; t < T; t++)
                printf("%s%.6f", t ? ", " : "", all[(r * T + t) * 3 + k]);
            printf("]");
        }
        printf("]");
    }
    printf("}");
}

#endif
