/* tests/mpi_map.c -- fields and map steps (tiling.h, 75-field.h and
 * 76-map.h): time loops of two maps that alternate two fields, bitwise
 * equal to the plain loops at any process count, grid and thread count:
 *   - PolyBench/C 4.2's jacobi-2d (its initialisation and update order, a
 *     star map: no corner exchanged) at odd sizes;
 *   - PolyBench/C 4.2's heat-3d (the same), and with values that are not
 *     linear in the coordinates (PolyBench's own initialisation ends, at
 *     SMALL and MEDIUM, bitwise equal to where it starts: a wrong order
 *     would not show);
 *   - a 9-point 2-D map with reach 2 along one dimension (corners
 *     exchanged), on a domain that is not the whole field;
 * and the refusals: a read past the declared reach (named by its line on
 * every rank, at any point, also at one point only), break, a type of
 * another size, in place, a reach wider than the ghost layers, a block
 * narrower than the reach, fields that differ. */
#include "../tiling.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nprocs, myrank;

/* ------------------------------------------------------------------ */
/* The plain loops                                                    */

/* PolyBench jacobi-2d: A and B n x n, tsteps steps of B from A, A from B. */
static void jacobi_init(int n, int64_t i, int64_t j, double *a, double *b)
{
    *a = ((double)i * (double)(j + 2) + 2) / n;
    *b = ((double)i * (double)(j + 3) + 3) / n;
}

static void jacobi_plain(int n, int tsteps, double *A, double *B)
{
    int t, i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            jacobi_init(n, i, j, &A[i * n + j], &B[i * n + j]);
    for (t = 0; t < tsteps; t++) {
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                B[i * n + j] = 0.2 * (A[i * n + j] + A[i * n + j - 1] + A[i * n + 1 + j] +
                                      A[(1 + i) * n + j] + A[(i - 1) * n + j]);
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                A[i * n + j] = 0.2 * (B[i * n + j] + B[i * n + j - 1] + B[i * n + 1 + j] +
                                      B[(1 + i) * n + j] + B[(i - 1) * n + j]);
    }
}

/* PolyBench heat-3d (lin 1), or values that are not linear (lin 0). */
static double heat_init(int n, int lin, int64_t i, int64_t j, int64_t k)
{
    if (lin)
        return (double)(i + j + (n - k)) * 10 / n;
    return (double)((i * 7 + j * 13 + k * 5) % 17) / 3.0 + (double)(i * j % 5) * 0.25;
}

#define H(X, i, j, k) X[((i) * n + (j)) * n + (k)]
static void heat_step(int n, const double *A, double *B)
{
    int i, j, k;
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            for (k = 1; k < n - 1; k++)
                H(B, i, j, k) = 0.125 * (H(A, i + 1, j, k) - 2.0 * H(A, i, j, k) + H(A, i - 1, j, k))
                                + 0.125 * (H(A, i, j + 1, k) - 2.0 * H(A, i, j, k) + H(A, i, j - 1, k))
                                + 0.125 * (H(A, i, j, k + 1) - 2.0 * H(A, i, j, k) + H(A, i, j, k - 1))
                                + H(A, i, j, k);
}

static void heat_plain(int n, int tsteps, int lin, double *A, double *B)
{
    int t, i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            for (k = 0; k < n; k++)
                H(A, i, j, k) = H(B, i, j, k) = heat_init(n, lin, i, j, k);
    for (t = 1; t <= tsteps; t++) {
        heat_step(n, A, B);
        heat_step(n, B, A);
    }
}

/* A 9-point map with reach 2 along dimension 0: out = f(in), on rows
 * 2 .. ny - 3 and columns 1 .. nx - 2 only. */
static double nine_init(int64_t i, int64_t j)
{
    return (double)((i * 31 + j * 17) % 23) * 0.5 - 3.0;
}

static double nine_point(double c, double n1, double s1, double w, double e, double nw,
                         double ne, double sw, double se, double n2)
{
    return ((((c * 0.5 + (n1 + s1) * 0.125) + (w + e) * 0.0625) + (nw + se) * 0.03125) +
            (ne + sw) * 0.015625) + n2 * 0.0078125;
}

static void nine_plain(int ny, int nx, int tsteps, double *A, double *B)
{
    int t, i, j;
    double *s = A, *d = B, *x;
    for (i = 0; i < ny; i++)
        for (j = 0; j < nx; j++)
            A[i * nx + j] = B[i * nx + j] = nine_init(i, j);
    for (t = 0; t < tsteps; t++) {
        for (i = 2; i < ny - 2; i++)
            for (j = 1; j < nx - 1; j++)
                d[i * nx + j] = nine_point(s[i * nx + j], s[(i - 1) * nx + j], s[(i + 1) * nx + j],
                                           s[i * nx + j - 1], s[i * nx + j + 1],
                                           s[(i - 1) * nx + j - 1], s[(i - 1) * nx + j + 1],
                                           s[(i + 1) * nx + j - 1], s[(i + 1) * nx + j + 1],
                                           s[(i - 2) * nx + j]);
        x = s;
        s = d;
        d = x;
    }
}

/* ------------------------------------------------------------------ */
/* The same with fields and maps                                      */

typedef struct init_ctx {
    int kind, n, lin, which;    /* kind 0 jacobi (which: A 0, B 1), 1 heat, 2 nine */
} init_ctx;

static void fill_fn(void *ctx, const int64_t *c, void *elem)
{
    const init_ctx *x = (const init_ctx *)ctx;
    double a = 0, b = 0;
    if (x->kind == 0) {
        jacobi_init(x->n, c[0], c[1], &a, &b);
        *(double *)elem = x->which ? b : a;
    } else if (x->kind == 1) {
        *(double *)elem = heat_init(x->n, x->lin, c[0], c[1], c[2]);
    } else {
        *(double *)elem = nine_init(c[0], c[1]);
    }
}

/* Two fields a, b of kind's shape over the processes (grid g or chosen),
 * filled; 0 or the failing code. */
static int make_fields(tile_field *a, tile_field *b, int nd, const int64_t *ext, const int64_t *gh,
                       const int *grid, init_ctx *ctx)
{
    tile_field_config fc;
    int i, rc;
    tile_field_config_init(&fc, nd);
    for (i = 0; i < nd; i++) {
        fc.extent[i] = ext[i];
        fc.ghost[i] = gh[i];
        fc.grid[i] = grid != NULL ? grid[i] : 0;
    }
    if ((rc = tile_field_create(a, MPI_COMM_WORLD, &fc)) != TILE_OK)
        return rc;
    if ((rc = tile_field_create(b, MPI_COMM_WORLD, &fc)) != TILE_OK)
        return rc;
    ctx->which = 0;
    tile_field_fill(a, fill_fn, ctx, 1);
    ctx->which = 1;
    tile_field_fill(b, fill_fn, ctx, 1);
    return TILE_OK;
}

/* Are the gathered field and the plain loop's array bitwise equal? (rank 0) */
static int same_bits(const double *x, const double *y, int64_t n)
{
    return memcmp(x, y, (size_t)n * sizeof(double)) == 0;
}

/* The maps A to B (mc as given) and B to A; 0 or the failing code. */
static int pair_make(tile_map_config *mc, tile_map *ab, tile_map *ba)
{
    tile_field *a = mc->in[0];
    int rc = tile_map_create(ab, mc);
    if (rc != TILE_OK)
        return rc;
    mc->in[0] = mc->out[0];
    mc->out[0] = a;
    return tile_map_create(ba, mc);
}

/* Both maps' verdicts, field res gathered into out on rank 0, everything
 * freed; the first failing code, or 0. */
static int pair_end(tile_map *ab, tile_map *ba, tile_field *A, tile_field *B, tile_field *res,
                    double *out)
{
    int rc = tile_map_agree(ab);
    if (rc == TILE_OK)
        rc = tile_map_agree(ba);
    if (rc == TILE_OK)
        rc = tile_field_gather(res, 0, out);
    tile_map_destroy(ab);
    tile_map_destroy(ba);
    tile_field_destroy(A);
    tile_field_destroy(B);
    return rc;
}

static int jacobi_maps(int n, int tsteps, int threads, const int *grid, double *out)
{
    tile_field A, B;
    tile_map ab, ba;
    tile_map_config mc;
    int64_t ext[2], gh[2] = { 1, 1 };
    init_ctx ctx = { 0, 0, 0, 0 };
    int t, rc;
    ext[0] = ext[1] = n;
    ctx.n = n;
    if ((rc = make_fields(&A, &B, 2, ext, gh, grid, &ctx)) != TILE_OK)
        return rc;
    tile_map_config_init(&mc, &A, &B);
    mc.reach[0] = mc.reach[1] = 1;
    mc.star = 1;
    mc.lo[0] = mc.lo[1] = 1;
    mc.hi[0] = mc.hi[1] = n - 1;
    mc.threads = threads;
    if ((rc = pair_make(&mc, &ab, &ba)) != TILE_OK)
        return rc;
    for (t = 0; t < tsteps; t++) {
        TILE_MAP_RUN(&ab, double, it, {
            TILE_OUT(it, 0) = 0.2 * (TILE_IN(it, 0, 0, 0) + TILE_IN(it, 0, 0, -1) +
                                     TILE_IN(it, 0, 0, 1) + TILE_IN(it, 0, 1, 0) +
                                     TILE_IN(it, 0, -1, 0));
        });
        TILE_MAP_RUN(&ba, double, it, {
            TILE_OUT(it, 0) = 0.2 * (TILE_IN(it, 0, 0, 0) + TILE_IN(it, 0, 0, -1) +
                                     TILE_IN(it, 0, 0, 1) + TILE_IN(it, 0, 1, 0) +
                                     TILE_IN(it, 0, -1, 0));
        });
    }
    return pair_end(&ab, &ba, &A, &B, &A, out);
}

static int heat_maps(int n, int tsteps, int lin, int threads, const int *grid, double *out)
{
    tile_field A, B;
    tile_map ab, ba;
    tile_map_config mc;
    int64_t ext[3], gh[3] = { 1, 1, 1 };
    init_ctx ctx = { 1, 0, 0, 0 };
    int t, rc, i;
    ext[0] = ext[1] = ext[2] = n;
    ctx.n = n;
    ctx.lin = lin;
    if ((rc = make_fields(&A, &B, 3, ext, gh, grid, &ctx)) != TILE_OK)
        return rc;
    tile_map_config_init(&mc, &A, &B);
    for (i = 0; i < 3; i++) {
        mc.reach[i] = 1;
        mc.lo[i] = 1;
        mc.hi[i] = n - 1;
    }
    mc.star = 1;
    mc.threads = threads;
    if ((rc = pair_make(&mc, &ab, &ba)) != TILE_OK)
        return rc;
    for (t = 1; t <= tsteps; t++) {
        int s;
        for (s = 0; s < 2; s++)
            TILE_MAP_RUN(s ? &ba : &ab, double, it, {
                double c = TILE_IN(it, 0, 0, 0, 0);
                TILE_OUT(it, 0) =
                    0.125 * (TILE_IN(it, 0, 1, 0, 0) - 2.0 * c + TILE_IN(it, 0, -1, 0, 0)) +
                    0.125 * (TILE_IN(it, 0, 0, 1, 0) - 2.0 * c + TILE_IN(it, 0, 0, -1, 0)) +
                    0.125 * (TILE_IN(it, 0, 0, 0, 1) - 2.0 * c + TILE_IN(it, 0, 0, 0, -1)) + c;
            });
    }
    return pair_end(&ab, &ba, &A, &B, &A, out);
}

static int nine_maps(int ny, int nx, int tsteps, int threads, const int *grid, double *out)
{
    tile_field A, B;
    tile_map ab, ba;
    tile_map_config mc;
    int64_t ext[2], gh[2] = { 2, 1 };
    init_ctx ctx = { 2, 0, 0, 0 };
    int t, rc;
    ext[0] = ny;
    ext[1] = nx;
    if ((rc = make_fields(&A, &B, 2, ext, gh, grid, &ctx)) != TILE_OK)
        return rc;
    tile_map_config_init(&mc, &A, &B);
    mc.reach[0] = 2;
    mc.reach[1] = 1;
    mc.lo[0] = 2;
    mc.hi[0] = ny - 2;
    mc.lo[1] = 1;
    mc.hi[1] = nx - 1;
    mc.threads = threads;
    if ((rc = pair_make(&mc, &ab, &ba)) != TILE_OK)
        return rc;
    for (t = 0; t < tsteps; t++)
        TILE_MAP_RUN(t % 2 ? &ba : &ab, double, it, {
            TILE_OUT(it, 0) = nine_point(TILE_IN(it, 0, 0, 0), TILE_IN(it, 0, -1, 0),
                                         TILE_IN(it, 0, 1, 0), TILE_IN(it, 0, 0, -1),
                                         TILE_IN(it, 0, 0, 1), TILE_IN(it, 0, -1, -1),
                                         TILE_IN(it, 0, -1, 1), TILE_IN(it, 0, 1, -1),
                                         TILE_IN(it, 0, 1, 1), TILE_IN(it, 0, -2, 0));
        });
    return pair_end(&ab, &ba, &A, &B, tsteps % 2 ? &B : &A, out);
}

/* ------------------------------------------------------------------ */
/* Refusals                                                           */

/* Does msg name a line of this file in lo .. hi? */
static int names_line(const char *msg, int lo, int hi)
{
    const char *at = strstr(msg, "mpi_map.c:");
    int line = 0;
    return at != NULL && sscanf(at + strlen("mpi_map.c:"), "%d", &line) == 1 && line >= lo &&
           line <= hi;
}

/* The end of a refusal case: the map's message in msg, the map and both
 * fields freed; returns rc. */
static int case_end(tile_map *m, tile_field *A, tile_field *B, int rc, char *msg, size_t len)
{
    snprintf(msg, len, "%s", m->errmsg);
    tile_map_destroy(m);
    tile_field_destroy(A);
    tile_field_destroy(B);
    return rc;
}

/* A map of a 2-D field pair whose body reads (dy, 0) past reach 1 at every
 * point (at 0) or only at point (at, 7); the verdict and its message. */
static int past_reach(int at, char *msg, size_t len, int *lo, int *hi)
{
    tile_field A, B;
    tile_map m;
    tile_map_config mc;
    int64_t ext[2] = { 23, 17 }, gh[2] = { 2, 2 };
    init_ctx ctx = { 2, 0, 0, 0 };
    int rc;
    if ((rc = make_fields(&A, &B, 2, ext, gh, NULL, &ctx)) != TILE_OK)
        return rc;
    tile_map_config_init(&mc, &A, &B);
    mc.reach[0] = mc.reach[1] = 1;
    mc.lo[0] = mc.lo[1] = 2;
    mc.hi[0] = 21;
    mc.hi[1] = 15;
    if ((rc = tile_map_create(&m, &mc)) != TILE_OK)
        return rc;
    *lo = __LINE__ + 1;     /* the compilers name a line of the macro's call */
    TILE_MAP_RUN(&m, double, it, {
        double v = TILE_IN(it, 0, 0, 0);
        if (at == 0 || (tile_map_coord(&it, 0) == at && tile_map_coord(&it, 1) == 7))
            v += TILE_IN(it, 0, -2, 0);
        TILE_OUT(it, 0) = v;
    });
    *hi = __LINE__ - 1;
    rc = tile_map_agree(&m);
    return case_end(&m, &A, &B, rc, msg, len);
}

/* The same fields; what = 0 break at one point, 1 a float run, 2 in place,
 * 3 reach past the ghost layers, 4 a block narrower than the reach (all
 * processes along dimension 0 of a 4-point-high field), 5 fields of other
 * shapes. */
static int refused(int what, char *msg, size_t len)
{
    tile_field A, B;
    tile_map m;
    tile_map_config mc;
    int64_t ext[2] = { 23, 17 }, gh[2] = { 2, 2 };
    int grid[2] = { 0, 0 };
    init_ctx ctx = { 2, 0, 0, 0 };
    int rc;
    if (what == 4) {
        ext[0] = 4 * nprocs - 1;
        gh[0] = gh[1] = 4;
        grid[0] = nprocs;
        grid[1] = 1;
    }
    if (what == 5) {
        tile_field_config fc;
        tile_field_config_init(&fc, 2);
        fc.extent[0] = 23;
        fc.extent[1] = 18;
        fc.ghost[0] = fc.ghost[1] = 2;
        if ((rc = tile_field_create(&A, MPI_COMM_WORLD, &fc)) != TILE_OK)
            return rc;
        fc.extent[1] = 17;
        if ((rc = tile_field_create(&B, MPI_COMM_WORLD, &fc)) != TILE_OK)
            return rc;
    } else if ((rc = make_fields(&A, &B, 2, ext, gh, grid, &ctx)) != TILE_OK) {
        snprintf(msg, len, "%s", A.errmsg);
        return rc;
    }
    tile_map_config_init(&mc, &A, what == 2 ? &A : &B);
    mc.reach[0] = mc.reach[1] = what == 3 ? 3 : what == 4 ? 4 : 1;
    rc = tile_map_create(&m, &mc);
    if (rc == TILE_OK && what == 0) {
        TILE_MAP_RUN(&m, double, it, {
            if (tile_map_coord(&it, 0) == 5 && tile_map_coord(&it, 1) == 3)
                break;
            TILE_OUT(it, 0) = TILE_IN(it, 0, 0, 0);
        });
        rc = tile_map_agree(&m);
    } else if (rc == TILE_OK && what == 1) {
        TILE_MAP_RUN(&m, float, it, { TILE_OUT(it, 0) = TILE_IN(it, 0, 0, 0); });
        rc = tile_map_agree(&m);
    }
    return case_end(&m, &A, &B, rc, msg, len);
}

/* lifecycle()'s grids: 4 a 1x1 grid given at more processes, 8 a 1000 x 1
 * field (the grid chosen P x 1). */
static int grid_case(int what, char *msg, size_t len)
{
    tile_field A;
    tile_field_config fc;
    int rc;
    tile_field_config_init(&fc, 2);
    fc.extent[0] = what == 4 ? 23 : 1000;
    fc.extent[1] = what == 4 ? 17 : 1;
    fc.grid[0] = fc.grid[1] = what == 4 ? 1 : 0;
    rc = tile_field_create(&A, MPI_COMM_WORLD, &fc);
    snprintf(msg, len, "%s (grid %dx%d)", A.errmsg, A.pdims[0], A.pdims[1]);
    if (what == 8 && rc == TILE_OK && (A.pdims[0] != nprocs || A.pdims[1] != 1))
        rc = -1;
    tile_field_destroy(&A);
    return rc;
}

/* The map's life and the review's cases: what = 0 a break in rank 0's
 * block only, then another run (no hang: the failed rank still exchanges);
 * 1 a run after tile_map_destroy; 2 its field destroyed through a copy of
 * the handle while the map lives (refused; the map still runs); 3 the
 * map configured before its fields are created (the whole field computed);
 * 4 a fixed grid of fewer processes than the communicator's; 5 in[0] given
 * twice; 6 in place through a copy of the field's handle; 7 a NULL map;
 * 8 a 1000 x 1 field (the grid chosen along the long dimension); 9 a
 * 4 x 11 field with ghost layers 2 x 3 (the grid chosen keeps blocks as
 * wide: a map of that reach runs).  The verdict; the message in msg. */
static int lifecycle(int what, char *msg, size_t len)
{
    tile_field A, B, A2;
    tile_map m;
    tile_map_config mc;
    int64_t ext[2] = { 23, 17 }, gh[2] = { 1, 1 };
    init_ctx ctx = { 2, 0, 0, 0 };
    int rc, i;
    msg[0] = 0;
    if (what == 3)
        tile_map_config_init(&mc, &A, &B);
    if (what == 4 || what == 8)
        return grid_case(what, msg, len);
    if (what == 9) {
        ext[0] = 4;
        ext[1] = 11;
        gh[0] = 2;
        gh[1] = 3;
    }
    if ((rc = make_fields(&A, &B, 2, ext, gh, NULL, &ctx)) != TILE_OK)
        return rc;
    if (what != 3)
        tile_map_config_init(&mc, &A, &B);
    mc.reach[0] = what == 9 ? 2 : 1;
    mc.reach[1] = what == 9 ? 3 : 1;
    if (what == 5) {
        mc.nin = 2;
        mc.in[1] = &A;
    }
    A2 = A;
    if (what == 6)
        mc.out[0] = &A2;
    rc = tile_map_create(&m, &mc);
    if (rc == TILE_OK && what == 0) {
        for (i = 0; i < 2; i++)
            TILE_MAP_RUN(&m, double, it, {
                if (tile_map_coord(&it, 0) == 0 && tile_map_coord(&it, 1) == 0)
                    break;      /* rank 0's block only */
                TILE_OUT(it, 0) = TILE_IN(it, 0, 0, 0) + 1.0;
            });
        rc = tile_map_agree(&m);
    } else if (rc == TILE_OK && what == 1) {
        tile_map_destroy(&m);
        TILE_MAP_RUN(&m, double, it, { TILE_OUT(it, 0) = TILE_IN(it, 0, 0, 0); });
        rc = tile_map_agree(&m);
    } else if (rc == TILE_OK && what == 2) {
        int kept = tile_field_destroy(&A2);     /* A's block, through a copy */
        snprintf(msg, len, "%s", A2.errmsg);
        TILE_MAP_RUN(&m, double, it, { TILE_OUT(it, 0) = TILE_IN(it, 0, 0, 0); });
        rc = tile_map_agree(&m);
        tile_map_destroy(&m);
        rc = rc == TILE_OK ? kept : -1;
        tile_field_destroy(&A);                 /* now freed: no map uses it */
        tile_field_destroy(&B);
        return rc;
    } else if (rc == TILE_OK && what == 3) {
        int64_t c[2];
        TILE_MAP_RUN(&m, double, it, { TILE_OUT(it, 0) = 42.0; });
        rc = tile_map_agree(&m);
        c[0] = B.lo[0];
        c[1] = B.lo[1];
        if (rc == TILE_OK && *(double *)tile_field_at(&B, c) != 42.0)
            rc = -1;
    } else if (rc == TILE_OK && what == 7) {
        TILE_MAP_RUN((tile_map *)NULL, double, it, { TILE_OUT(it, 0) = 1.0; });
        rc = tile_map_agree(&m);
    }
    return case_end(&m, &A, &B, rc, msg, len);
}

/* The kernels with fields and maps against their plain loops, bitwise, at
 * `threads` threads per process. */
static void test_bitwise(int threads)
{
    static const int sizes[3][3] = { { 30, 20, 0 }, { 41, 9, 0 }, { 90, 40, 0 } };
    char note[600] = "";
    int k, ok;
    /* jacobi-2d: PolyBench MINI (30, 20 steps), an odd size, SMALL (90, 40) */
    for (ok = 1, k = 0; k < 3; k++) {
        int n = sizes[k][0], ts = sizes[k][1], rc;
        double *want = (double *)malloc(sizeof(double) * (size_t)n * (size_t)n * 2);
        double *got = (double *)malloc(sizeof(double) * (size_t)n * (size_t)n);
        jacobi_plain(n, ts, want, want + n * n);
        rc = jacobi_maps(n, ts, threads, NULL, got);
        if (rc != TILE_OK || (myrank == 0 && !same_bits(got, want, (int64_t)n * n)))
            ok = 0, snprintf(note, sizeof note, "jacobi-2d n=%d: status %d", n, rc);
        free(want);
        free(got);
    }
    check_mpi(MPI_COMM_WORLD, ok, "jacobi-2d (PolyBench 4.2's loops; MINI, n = 41, SMALL), "
              "two star maps alternating A and B, %d thread(s): bitwise the plain loop %s",
              threads, note);
    /* heat-3d: PolyBench MINI (10, 20 steps), SMALL (20, 40), non-linear values at
     * an odd size; grid chosen, and all processes along one dimension */
    for (ok = 1, k = 0; k < 4; k++) {
        int n = k == 0 ? 10 : k == 1 ? 20 : 13, ts = k == 0 ? 20 : k == 1 ? 40 : 7;
        int lin = k < 2, grid[3] = { 0, 0, 0 }, rc;
        size_t pts = (size_t)n * (size_t)n * (size_t)n;
        double *want = (double *)malloc(sizeof(double) * pts * 2);
        double *got = (double *)malloc(sizeof(double) * pts);
        if (k == 3) {
            grid[0] = grid[1] = 1;
            grid[2] = nprocs;
        }
        heat_plain(n, ts, lin, want, want + pts);
        rc = heat_maps(n, ts, lin, threads, grid, got);
        if (rc != TILE_OK || (myrank == 0 && !same_bits(got, want, (int64_t)pts)))
            ok = 0, snprintf(note, sizeof note, "heat-3d n=%d lin=%d: status %d", n, lin,
                             rc);
        free(want);
        free(got);
    }
    check_mpi(MPI_COMM_WORLD, ok, "heat-3d (PolyBench 4.2's loops; MINI, SMALL; odd size "
              "13 with values not linear, the grid chosen and 1x1xP), %d thread(s): "
              "bitwise the plain loop %s", threads, note);
    for (ok = 1, k = 0; k < 2; k++) {
        int ny = 19 + 6 * k, nx = 15 + 2 * k, ts = 5 + k, rc;
        int grid[2] = { 0, 0 };
        double *want = (double *)malloc(sizeof(double) * (size_t)(ny * nx) * 2);
        double *got = (double *)malloc(sizeof(double) * (size_t)(ny * nx));
        if (k == 1 && nprocs % 2 == 0) {
            grid[0] = 2;
            grid[1] = nprocs / 2;
        }
        nine_plain(ny, nx, ts, want, want + ny * nx);
        rc = nine_maps(ny, nx, ts, threads, grid, got);
        if (rc != TILE_OK ||
            (myrank == 0 && !same_bits(got, want + (ts % 2 ? ny * nx : 0), ny * nx)))
            ok = 0, snprintf(note, sizeof note, "9-point %dx%d: status %d", ny, nx, rc);
        free(want);
        free(got);
    }
    check_mpi(MPI_COMM_WORLD, ok, "a 9-point map with reach (2, 1) on a domain inside the "
              "field (corners exchanged), %d thread(s): bitwise the plain loop %s", threads,
              note);
}

/* A read past the reach, at every point and at one point only. */
static void test_past_reach(void)
{
    char msg[400];
    int lo, hi, rc = past_reach(0, msg, sizeof msg, &lo, &hi), rc1;
    char msg1[400];
    rc1 = past_reach(11, msg1, sizeof msg1, &lo, &hi);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_ACCESS && names_line(msg, lo, hi) &&
              strstr(msg, "past the map's reach") != NULL && rc1 == TILE_ERR_ACCESS &&
              names_line(msg1, lo, hi),
              "a TILE_IN past the declared reach, at every point and at one point only: "
              "TILE_ERR_ACCESS on every rank naming its line (%s)", msg1);
}

/* The refusals of tile_map_create and of a run. */
static void test_refusals(void)
{
    char msg[400];
    int k;
    {
        static const int want_rc[6] = { TILE_ERR_BODY, TILE_ERR_ACCESS, TILE_ERR_ARG,
                                        TILE_ERR_RANGE, TILE_ERR_DEP_TOO_WIDE, TILE_ERR_ARG };
        static const char *const want_msg[6] = { "break", "elem_size", "not in place",
                                                 "ghost[0] = 2", "fewer than reach[0] = 4",
                                                 "differs from in[0]" };
        static const char *const what[6] = { "break", "a float run on double fields",
                                             "in place", "reach past the ghost layers",
                                             "a block narrower than the reach",
                                             "fields of other shapes" };
        for (k = 0; k < 6; k++) {
            int rc;
            if (k == 4 && nprocs == 1)
                continue;   /* one block: no neighbour to read from */
            rc = refused(k, msg, sizeof msg);
            check_mpi(MPI_COMM_WORLD, rc == want_rc[k] && strstr(msg, want_msg[k]) != NULL,
                      "%s: refused with code %d, the message on every rank: %s", what[k],
                      want_rc[k], msg);
        }
    }
}

/* The map's life (lifecycle()). */
static void test_lifecycle(void)
{
    char msg[400];
    int k;
    {
        static const int want_rc[10] = { TILE_ERR_BODY, TILE_ERR_ARG, TILE_ERR_ARG, TILE_OK,
                                         TILE_ERR_GRID, TILE_ERR_ARG, TILE_ERR_ARG, TILE_OK,
                                         TILE_OK, TILE_OK };
        static const char *const want_msg[10] = { "break", "destroyed", "still use the field",
                                                  "", "not the", "is also in[0]",
                                                  "not in place", "", "", "" };
        static const char *const what[10] = {
            "a break in rank 0's block only, then another run: no hang, every rank fails",
            "a run after tile_map_destroy",
            "its input field destroyed through a copy of the handle: refused, the map runs on",
            "the map configured before its fields exist: the whole field computed",
            "grid 1x1 given at more processes", "in[0] given twice",
            "in place through a copy of the field's handle", "TILE_MAP_RUN of a NULL map",
            "a 1000 x 1 field: the grid chosen P x 1",
            "a 4 x 11 field with ghost layers 2 x 3: the grid chosen runs a map of that reach" };
        for (k = 0; k < 10; k++) {
            int rc;
            if (k == 4 && nprocs == 1)
                continue;   /* 1x1 is the whole communicator */
            rc = lifecycle(k, msg, sizeof msg);
            check_mpi(MPI_COMM_WORLD, rc == want_rc[k] && strstr(msg, want_msg[k]) != NULL,
                      "%s: code %d on every rank: %s", what[k], want_rc[k], msg);
        }
    }
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    test_bitwise(1);
#ifdef _OPENMP
    test_bitwise(2);
#endif
    test_past_reach();
    test_refusals();
    test_lifecycle();
    return check_mpi_exit();
}
