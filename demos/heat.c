/* demos/heat.c -- PolyBench/C 4.2's heat-3d and jacobi-2d time loops as map
 * steps over fields: no pipeline, no collective per step; and its adi as a
 * map and four plans over fields (demos/heat_adi.h).
 *
 *   mpiexec -n P ./demos/heat [--kernel heat-3d|jacobi-2d|adi] [--size NAME]
 *                             [--n N] [--steps T] [--threads T] [--verify]
 *                             [--plain] [--model M] [--tile-height z]
 *                             [-h | --help]
 *
 * Each time step of both kernels computes B from A, then A from B, reading
 * the old values at +-1 (a star: no corner is exchanged): two maps that
 * alternate two fields (tiling.h's tile_map_create, TILE_MAP_RUN).  The
 * kernels, their initialisations and their update orders are PolyBench's
 * (written here from its specification), so the result is bitwise its
 * loops' in every process count and thread count: --verify runs the plain
 * loops on rank 0 and compares every value of A.  --size takes
 * PolyBench's datasets (MINI, SMALL, MEDIUM, LARGE, EXTRALARGE: n and the
 * steps); --n and --steps set them.  --plain also times the plain loops
 * (rank 0, one thread), the anchor beside the maps.
 *
 * The output: the kernel, the size, the grid, the time of the steps
 * (slowest rank, from a barrier), the checksum (the sum of A's values in
 * row-major order; rank 0), and with --verify or --plain the plain loops'.
 * Exit status 0; 1 when --verify finds a difference or a call fails; 2 for
 * bad arguments (on every rank, rank 0 names them).
 *
 * --skewed runs the time loop as one skewed (time-tiled) plan instead, for
 * comparison: bitwise the same, but the engine walks the skewed space's
 * bounding box, and it prints how many times the loop's points that is.
 *
 * --kernel adi runs PolyBench's adi (demos/heat_adi.h): per time step a map
 * (the column sweep's stencil, u's ghost columns) and four plans (the
 * column sweep's two recurrences, inside each rank; the row sweep's two,
 * pipelined across the ranks), in any model (--model, --threads,
 * --tile-height), bitwise PolyBench's loop.
 *
 * PolyBench's own initialisation is linear in the coordinates, where the
 * discrete Laplacian is 0: heat-3d at SMALL and MEDIUM ends where it
 * started, so that a wrong order shows only in the other sizes (and in
 * tests/mpi_map.c, which uses values that are not linear too). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L     /* sigaction: the adi plans' fast loops under any compiler */
#endif

#include "../tiling.h"
#include "agree.h"
#include "checkpoint.h"
#include "heat_adi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct heat_opts {
    int kernel;                 /* 0 heat-3d, 1 jacobi-2d, 2 adi */
    int init;                   /* 0 PolyBench's values, 1 mixed (not linear) */
    int64_t n, steps, tile_height;
    int threads, verify, json, plain, size, skewed, model;
    int given_model;            /* --model or --tile-height given (adi's only) */
    demo_ckpt_opts ckpt;        /* --checkpoint, --checkpoint-every, --restart */
} heat_opts;

static const char *const heat_kernels[3] = { "heat-3d", "jacobi-2d", "adi" };
static const char *const heat_sizes[6] = { "MINI", "SMALL", "MEDIUM", "LARGE", "EXTRALARGE",
                                          "given" };
static const char *const heat_inits[2] = { "polybench", "mixed" };
/* PolyBench 4.2's datasets: { n, steps } by kernel and size */
static const int64_t heat_dataset[3][5][2] = {
    { { 10, 20 }, { 20, 40 }, { 40, 100 }, { 120, 500 }, { 200, 1000 } },
    { { 30, 20 }, { 90, 40 }, { 250, 100 }, { 1300, 500 }, { 2800, 1000 } },
    { { 20, 20 }, { 60, 40 }, { 200, 100 }, { 1000, 500 }, { 2000, 1000 } }
};

static void heat_help(void)
{
    printf("usage: mpiexec -n P ./demos/heat [options]\n"
           "PolyBench/C 4.2's heat-3d or jacobi-2d time loop as two map steps over two\n"
           "fields (tiling.h), or its adi as a map and four plans over four fields,\n"
           "bitwise PolyBench's loops.\n"
           "  --kernel K      heat-3d (default), jacobi-2d or adi\n"
           "  --size S        PolyBench's dataset: MINI, SMALL, MEDIUM (default), LARGE or\n"
           "                  EXTRALARGE (sets --n and --steps)\n"
           "  --n N           points along each dimension, >= 3\n"
           "  --steps T       time steps, >= 0\n"
           "  --threads T     OpenMP threads per process, 1..1024 (default 1)\n"
           "  --init I        polybench (default: its values, linear in the coordinates,\n"
           "                  where heat-3d's Laplacian is 0: A never changes) or mixed\n"
           "                  (values that are not linear: a wrong order shows)\n"
           "  --verify        run the plain loops on rank 0 and compare every value\n"
           "  --plain         time the plain loops on rank 0 too (the anchor)\n"
           "  --skewed        run the time loop as one skewed (time-tiled) plan instead of\n"
           "                  maps, for comparison (pure MPI, one thread; not adi)\n"
           "  --model M       adi's plans: mpi (default), fine, funneled or multiple\n"
           "                  (--threads > 1 needs a threaded model)\n"
           "  --tile-height z adi's plans: the tile height, >= 1 (default: each plan\n"
           "                  chooses it by its pipeline model after its first run)\n"
           DEMO_CKPT_HELP
           "  -h, --help      this help\n"
           "Exit status: 0, 1 when --verify finds a difference or a run fails, 2 bad\n"
           "arguments or a configuration the plans refuse, 75 stopped on SIGUSR1 after a\n"
           "checkpoint.\n");
}

static int heat_word(const char *v, const char *const *words, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(v, words[i]) == 0)
            return i;
    return -1;
}

static int heat_option(void *ctx, const char *name, const char *v, char *err, size_t errlen)
{
    heat_opts *o = (heat_opts *)ctx;
    int rc = demo_ckpt_option(&o->ckpt, name, v, err, errlen);
    if (rc >= 0)
        return rc;
    if (strcmp(name, "--kernel") == 0) {
        if ((o->kernel = heat_word(v, heat_kernels, 3)) < 0)
            return demo_msg(err, errlen, "--kernel '%s': expected heat-3d, jacobi-2d or adi", v);
    } else if (strcmp(name, "--model") == 0) {
        o->given_model = 1;
        return demo_model_threads(name, v, &o->model, &o->threads, err, errlen);
    } else if (strcmp(name, "--tile-height") == 0) {
        o->given_model = 1;
        if (tilehybrid_parse_i64(v, 1, INT64_MAX, &o->tile_height) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--tile-height '%s': expected a whole number >= 1", v);
    } else if (strcmp(name, "--size") == 0) {
        if ((o->size = heat_word(v, heat_sizes, 5)) < 0)
            return demo_msg(err, errlen, "--size '%s': expected MINI, SMALL, MEDIUM, LARGE "
                            "or EXTRALARGE", v);
    } else if (strcmp(name, "--init") == 0) {
        if ((o->init = heat_word(v, heat_inits, 2)) < 0)
            return demo_msg(err, errlen, "--init '%s': expected polybench or mixed", v);
    } else if (strcmp(name, "--n") == 0) {
        if (tilehybrid_parse_i64(v, 3, 1000000, &o->n) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--n '%s': expected a whole number 3 to 1000000", v);
    } else if (strcmp(name, "--steps") == 0) {
        if (tilehybrid_parse_i64(v, 0, 100000000, &o->steps) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--steps '%s': expected a whole number 0 to 1e8", v);
    } else {
        int64_t t;
        if (tilehybrid_parse_i64(v, 1, 1024, &t) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--threads '%s': expected a whole number 1 to 1024", v);
        o->threads = (int)t;
    }
    return 0;
}

/* The command line: 0 read, 1 --help, 2 bad (the message in err). */
static int heat_parse(int argc, char **argv, heat_opts *o, char *err, size_t errlen)
{
    static const char *const valued[11] = { "--kernel", "--size", "--n", "--steps", "--threads",
                                            "--init", "--model", "--tile-height",
                                            DEMO_CKPT_OPTIONS };
    opt_flag flags[3];
    opt_spec spec;
    int rc;
    memset(o, 0, sizeof *o);
    o->size = 2;
    o->n = o->steps = -1;
    o->threads = 1;
    flags[0].name = "--verify";
    flags[0].set = &o->verify;
    flags[1].name = "--plain";
    flags[1].set = &o->plain;
    flags[2].name = "--skewed";
    flags[2].set = &o->skewed;
    spec.valued = valued;
    spec.nvalued = 11;
    spec.flags = flags;
    spec.nflags = 3;
    spec.read = heat_option;
    if ((rc = opt_parse(&spec, argc, argv, o, err, errlen)) != 0)
        return rc;
    if (o->n < 0)
        o->n = heat_dataset[o->kernel][o->size][0];
    if (o->steps < 0)
        o->steps = heat_dataset[o->kernel][o->size][1];
    if (o->n != heat_dataset[o->kernel][o->size][0] ||
        o->steps != heat_dataset[o->kernel][o->size][1])
        o->size = 5;
    if (o->skewed && o->steps == 0)
        return demo_msg(err, errlen, "--skewed needs %s (a plan of no plane)", "--steps >= 1");
    if (o->skewed && o->threads > 1)
        return demo_msg(err, errlen, "--skewed runs the pure MPI model: --threads %s is not "
                        "taken with it", "> 1");
    if (demo_ckpt_check(&o->ckpt, err, errlen) != 0)
        return 2;
    if (o->skewed && (o->ckpt.path != NULL || o->ckpt.restart != NULL))
        return demo_msg(err, errlen, "--skewed runs one plan: it takes no %s (the maps do)",
                        "--checkpoint or --restart");
    if (o->skewed && o->kernel == 2)
        return demo_msg(err, errlen, "--skewed is for heat-3d and jacobi-2d, not %s", "adi");
    if (o->given_model && o->kernel != 2)
        return demo_msg(err, errlen, "--model and --tile-height are adi's (its plans): %s "
                        "runs maps", heat_kernels[o->kernel]);
    if (o->kernel == 2 && demo_check_threads(o->model, o->threads, err, errlen) != 0)
        return 2;
#ifndef _OPENMP
    if (o->threads > 1)
        return demo_msg(err, errlen, "--threads %s: this build has no OpenMP", "> 1");
#endif
    return 0;
}

/* PolyBench's initial values of A (and B) at c, or (--init mixed) values
 * that are not linear in the coordinates. */
static double heat_init(const heat_opts *o, const int64_t *c, int b)
{
    double n = (double)o->n;
    if (o->init == 1)       /* (heat-3d: A and B start equal, as in PolyBench) */
        return (double)((c[0] * 7 + c[1] * 13 + (o->kernel == 0 ? c[2] * 5 : b)) % 17) / 3.0 +
               (double)(c[0] * c[1] % 5) * 0.25;
    if (o->kernel == 0)
        return (double)(c[0] + c[1] + (o->n - c[2])) * 10 / n;
    if (o->kernel == 2)
        return adi_init_polybench(c[0], c[1], o->n);
    return b ? ((double)c[0] * (double)(c[1] + 3) + 3) / n
             : ((double)c[0] * (double)(c[1] + 2) + 2) / n;
}

typedef struct heat_fill_ctx {
    const heat_opts *o;
    int b;
} heat_fill_ctx;

static void heat_fill(void *ctx, const int64_t *c, void *elem)
{
    const heat_fill_ctx *x = (const heat_fill_ctx *)ctx;
    *(double *)elem = heat_init(x->o, c, x->b);
}

/* The plain loops (PolyBench's), into A (and B, scratch: adi's v, p and q,
 * three arrays of A's size). */
#define HX(X, i, j, k) X[((i) * n + (j)) * n + (k)]
static void heat_plain(const heat_opts *o, double *A, double *B)
{
    int64_t n = o->n, t, i, j, k, c[3];
    if (o->kernel == 2) {
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++) {
                c[0] = i, c[1] = j;
                A[i * n + j] = heat_init(o, c, 0);
            }
        adi_plain(n, o->steps, A, B, B + n * n, B + 2 * n * n);
        return;
    }
    if (o->kernel == 0) {
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                for (k = 0; k < n; k++) {
                    c[0] = i, c[1] = j, c[2] = k;
                    HX(A, i, j, k) = HX(B, i, j, k) = heat_init(o, c, 0);
                }
        for (t = 1; t <= o->steps; t++) {
            int s;
            for (s = 0; s < 2; s++) {
                const double *a = s ? B : A;
                double *b = s ? A : B;
                for (i = 1; i < n - 1; i++)
                    for (j = 1; j < n - 1; j++)
                        for (k = 1; k < n - 1; k++)
                            HX(b, i, j, k) =
                                0.125 * (HX(a, i + 1, j, k) - 2.0 * HX(a, i, j, k) + HX(a, i - 1, j, k))
                                + 0.125 * (HX(a, i, j + 1, k) - 2.0 * HX(a, i, j, k) + HX(a, i, j - 1, k))
                                + 0.125 * (HX(a, i, j, k + 1) - 2.0 * HX(a, i, j, k) + HX(a, i, j, k - 1))
                                + HX(a, i, j, k);
            }
        }
        return;
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            c[0] = i, c[1] = j;
            A[i * n + j] = heat_init(o, c, 0);
            B[i * n + j] = heat_init(o, c, 1);
        }
    for (t = 0; t < o->steps; t++) {
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

/* The steps as maps: map ab makes B from A, ba A from B. */
/* The options that change heat's numbers (its checkpoints' fingerprint). */
static uint64_t heat_fingerprint(const heat_opts *o)
{
    uint64_t h = 0x6865617400000000ull, v[4];
    int i;
    v[0] = (uint64_t)o->kernel, v[1] = (uint64_t)o->init;
    v[2] = (uint64_t)o->n, v[3] = (uint64_t)o->steps;
    for (i = 0; i < 4; i++)
        h = (h ^ v[i]) * 0x100000001b3ull;
    return h;
}

/* The time steps after step start (0, or a checkpoint's), a checkpoint
 * after each when due: 0 done, 1 stopped after a checkpoint (the signal),
 * -1 a checkpoint failed (rank 0 said why). */
static int heat_steps(const heat_opts *o, tile_map *ab, tile_map *ba, int64_t start,
                      demo_ckpt *ck, int rank)
{
    int64_t t;
    int s, r;
    for (t = start; t < o->steps; t++) {
        for (s = 0; s < 2; s++) {
            if (o->kernel == 0)
                TILE_MAP_RUN(s ? ba : ab, double, it, {
                    double c = TILE_IN(it, 0, 0, 0, 0);
                    TILE_OUT(it, 0) =
                        0.125 * (TILE_IN(it, 0, 1, 0, 0) - 2.0 * c + TILE_IN(it, 0, -1, 0, 0)) +
                        0.125 * (TILE_IN(it, 0, 0, 1, 0) - 2.0 * c + TILE_IN(it, 0, 0, -1, 0)) +
                        0.125 * (TILE_IN(it, 0, 0, 0, 1) - 2.0 * c + TILE_IN(it, 0, 0, 0, -1)) +
                        c;
                });
            else
                TILE_MAP_RUN(s ? ba : ab, double, it, {
                    TILE_OUT(it, 0) = 0.2 * (TILE_IN(it, 0, 0, 0) + TILE_IN(it, 0, 0, -1) +
                                             TILE_IN(it, 0, 0, 1) + TILE_IN(it, 0, 1, 0) +
                                             TILE_IN(it, 0, -1, 0));
                });
        }
        if ((r = demo_ckpt_step(ck, "heat", t + 1, rank)) != 0)
            return r;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* --skewed: the time loop as one plan, for comparison with the maps        */

/* The plan's space is the interior points (array index = coordinate + 1)
 * by 2 T planes along Z, plane z one application of the update (jacobi-2d:
 * B on even planes, A on odd ones).  Each reads the plane before at +-1:
 * later along a space dimension than the point, so the plan skews. */
typedef struct heat_skew {
    const heat_opts *o;
    int64_t *idx;               /* this rank's points of the last plane: array index */
    double *val;                /* and value */
    int64_t count, cap;
} heat_skew;

/* Out of memory on this rank: the message, then the job ends (the other
 * ranks would wait in the collectives that follow). */
static void heat_nomem(int rank, const char *what, int64_t n, int64_t size)
{
    demo_nomem("heat", rank, what, n, size);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Outside the space: the edges, which never change, and the planes before
 * the first: the initial values of the array plane z writes. */
static void heat_skew_boundary(void *out, const int64_t *c, void *ctx)
{
    const heat_skew *s = (const heat_skew *)ctx;
    int64_t a[3];
    int d = s->o->kernel == 0 ? 3 : 2, i;
    for (i = 0; i < d; i++)
        a[i] = c[i] + 1;
    *(double *)out = heat_init(s->o, a, c[d] >= 0 && c[d] % 2 == 0);
}

/* The plan of the kernel's loop; its code (the message in p->errmsg). */
static int heat_skew_plan(const heat_opts *o, heat_skew *s, tile_plan *p)
{
    static const char *const text[2] = {
        "1,0,0,-1 -1,0,0,-1 0,1,0,-1 0,-1,0,-1 0,0,1,-1 0,0,-1,-1 0,0,0,-1",
        "1,0,-1 -1,0,-1 0,1,-1 0,-1,-1 0,0,-1" };
    tile_config c;
    int d = o->kernel == 0 ? 3 : 2, i, rc;
    tile_config_init(&c, d);
    for (i = 0; i < d; i++)
        c.extent[i] = o->n - 2;
    c.zlen = 2 * o->steps;
    c.boundary = heat_skew_boundary;
    c.boundary_ctx = s;
    if ((rc = tile_config_stencil(&c, text[o->kernel], NULL)) != TILE_OK)
        return rc;
    return tile_plan_create(p, MPI_COMM_WORLD, &c);
}

/* This rank's point at coordinates c of the last plane, recorded. */
static void heat_skew_keep(heat_skew *s, const int64_t *c, double v)
{
    int64_t e = 0;
    int d = s->o->kernel == 0 ? 3 : 2, i;
    for (i = 0; i < d; i++)
        e = e * s->o->n + c[i] + 1;
    if (s->count < s->cap) {
        s->idx[s->count] = e;
        s->val[s->count] = v;
    }
    s->count++;
}

/* One run of the plan (pure MPI), the last plane's points kept. */
static void heat_skew_run(const heat_opts *o, heat_skew *s, tile_plan *p)
{
    int64_t last = 2 * o->steps - 1, c[4];
    if (o->kernel == 0)
        TILE_FOREACH_GROUP(p, g)
            TILE_MPI_STEP(g, it, {
                double a = TILE_AT(double, it, 0, 0, 0, -1);
                double v = 0.125 * (TILE_AT(double, it, 1, 0, 0, -1) - 2.0 * a +
                                    TILE_AT(double, it, -1, 0, 0, -1)) +
                           0.125 * (TILE_AT(double, it, 0, 1, 0, -1) - 2.0 * a +
                                    TILE_AT(double, it, 0, -1, 0, -1)) +
                           0.125 * (TILE_AT(double, it, 0, 0, 1, -1) - 2.0 * a +
                                    TILE_AT(double, it, 0, 0, -1, -1)) +
                           a;
                TILE_AT(double, it, 0, 0, 0, 0) = v;
                if (tile_coord(&it, 3) == last) {
                    c[0] = tile_coord(&it, 0), c[1] = tile_coord(&it, 1);
                    c[2] = tile_coord(&it, 2);
                    heat_skew_keep(s, c, v);
                }
            });
    else
        TILE_FOREACH_GROUP(p, g)
            TILE_MPI_STEP(g, it, {
                double v = 0.2 * (TILE_AT(double, it, 0, 0, -1) + TILE_AT(double, it, 0, -1, -1) +
                                  TILE_AT(double, it, 0, 1, -1) + TILE_AT(double, it, 1, 0, -1) +
                                  TILE_AT(double, it, -1, 0, -1));
                TILE_AT(double, it, 0, 0, 0) = v;
                if (tile_coord(&it, 2) == last) {
                    c[0] = tile_coord(&it, 0), c[1] = tile_coord(&it, 1);
                    heat_skew_keep(s, c, v);
                }
            });
}

/* Every rank's kept points into the whole array A on rank 0 (all: n^d
 * values, A's initial values first: the edges); an MPI code. */
static int heat_skew_collect(const heat_opts *o, heat_skew *s, double *all, int rank, int size)
{
    int *cnt = NULL, *disp = NULL, mine = (int)s->count, rc, q;
    int64_t tot = 0, e, *idx = NULL;
    double *val = NULL;
    if (rank == 0 && (cnt = (int *)malloc(sizeof(int) * 2 * (size_t)size)) == NULL)
        heat_nomem(rank, "the gather's counts", 2 * (int64_t)size, (int64_t)sizeof(int));
    disp = cnt != NULL ? cnt + size : NULL;
    rc = MPI_Gather(&mine, 1, MPI_INT, cnt, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (q = 0; rank == 0 && rc == MPI_SUCCESS && q < size; q++) {
        disp[q] = (int)tot;
        tot += cnt[q];
    }
    if (rank == 0 && ((idx = (int64_t *)malloc(sizeof(int64_t) * (size_t)(tot + 1))) == NULL ||
                      (val = (double *)malloc(sizeof(double) * (size_t)(tot + 1))) == NULL))
        heat_nomem(rank, "the gathered points", tot + 1, (int64_t)(sizeof(double) + 8));
    if (rc == MPI_SUCCESS)
        rc = MPI_Gatherv(s->idx, mine, MPI_INT64_T, idx, cnt, disp, MPI_INT64_T, 0,
                         MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS)
        rc = MPI_Gatherv(s->val, mine, MPI_DOUBLE, val, cnt, disp, MPI_DOUBLE, 0,
                         MPI_COMM_WORLD);
    for (e = 0; rank == 0 && rc == MPI_SUCCESS && e < tot; e++)
        all[idx[e]] = val[e];
    (void)o;
    free(cnt);
    free(idx);
    free(val);
    return rc;
}

/* The fields and the maps; 0, or 1 after rank 0 said why (on every rank). */
static int heat_make(const heat_opts *o, tile_field *A, tile_field *B, tile_map *ab,
                     tile_map *ba)
{
    tile_field_config fc;
    tile_map_config mc;
    heat_fill_ctx x;
    int d = o->kernel == 0 ? 3 : 2, i, rc;
    const char *msg;
    tile_field_config_init(&fc, d);
    for (i = 0; i < d; i++) {
        fc.extent[i] = o->n;
        fc.ghost[i] = 1;
    }
    memset(ab, 0, sizeof *ab);      /* maps not made: tile_map_destroy leaves them be */
    memset(ba, 0, sizeof *ba);
    ab->comm = ba->comm = MPI_COMM_NULL;
    rc = tile_field_create(A, MPI_COMM_WORLD, &fc);     /* both, whatever the first's */
    msg = A->errmsg;                                    /* verdict: main destroys both */
    if (tile_field_create(B, MPI_COMM_WORLD, &fc) != TILE_OK && rc == TILE_OK) {
        rc = B->code;
        msg = B->errmsg;
    }
    if (rc == TILE_OK) {
        tile_map_config_init(&mc, A, B);
        for (i = 0; i < d; i++) {
            mc.reach[i] = 1;
            mc.lo[i] = 1;
            mc.hi[i] = o->n - 1;
        }
        mc.star = 1;
        mc.threads = o->threads;
        rc = tile_map_create(ab, &mc);
        msg = ab->errmsg;
        if (rc == TILE_OK) {
            mc.in[0] = B;
            mc.out[0] = A;
            rc = tile_map_create(ba, &mc);
            msg = ba->errmsg;
        }
    }
    if (rc != TILE_OK) {
        if (A->rank == 0)
            fprintf(stderr, "heat: %s\n", msg);
        return 1;
    }
    x.o = o;
    x.b = 0;
    tile_field_fill(A, heat_fill, &x, 1);
    x.b = 1;
    tile_field_fill(B, heat_fill, &x, 1);
    return 0;
}

/* Rank 0: the whole array A after the steps (all) against the plain loops
 * as the options ask, printed; the exit status. */
static int heat_check(const heat_opts *o, const double *all, double secs, const int *pdims,
                      int nd, int size)
{
    double plain_secs = 0, sum = 0, psum = 0, *pa;
    int64_t i, pts = o->kernel == 0 ? o->n * o->n * o->n : o->n * o->n, diff = 0;
    char how[80];
    for (i = 0; i < pts; i++)
        sum += all[i];
    snprintf(how, sizeof how, "%s", o->skewed ? "one skewed plan" : "maps");
    if (o->kernel == 2)
        snprintf(how, sizeof how, "a map and 4 plans, model %s", tile_model_name(o->model));
    printf("heat: %s n %lld, %lld steps (%s), %s values, %s, %d process%s (grid %d",
           heat_kernels[o->kernel], (long long)o->n, (long long)o->steps, heat_sizes[o->size],
           heat_inits[o->init], how, size, size == 1 ? "" : "es", pdims[0]);
    for (i = 1; i < nd; i++)
        printf("x%d", pdims[i]);
    printf("), %d thread%s\n", o->threads, o->threads == 1 ? "" : "s");
    printf("checksum %.17g   time %.3f s\n", sum, secs);
    if (!o->verify && !o->plain)
        return 0;
    if ((pa = (double *)malloc(sizeof(double) * (size_t)pts * (o->kernel == 2 ? 4 : 2))) == NULL) {
        fprintf(stderr, "heat: out of memory for the plain loops' arrays\n");
        return 1;
    }
    plain_secs = MPI_Wtime();
    heat_plain(o, pa, pa + pts);
    plain_secs = MPI_Wtime() - plain_secs;
    for (i = 0; i < pts; i++)
        psum += pa[i];
    printf("plain loops: checksum %.17g   time %.3f s (%.2fx)\n", psum, plain_secs,
           secs > 0 ? plain_secs / secs : 0.0);
    if (o->verify) {
        for (i = 0; i < pts; i++)
            diff += memcmp(&pa[i], &all[i], sizeof(double)) != 0;
        printf("verify: %s (%lld of %lld values differ)\n",
               diff == 0 ? "bitwise equal to the plain loops" : "DIFFERENT", (long long)diff,
               (long long)pts);
        if (o->kernel == 0 && o->init == 0)
            printf("note: PolyBench's heat-3d values never change (their Laplacian is 0); "
                   "--init mixed checks the order\n");
    }
    free(pa);
    return diff != 0;
}

/* The maps' verdicts, the gathered field on rank 0 checked (heat_check);
 * the exit status (rank 0's). */
static int heat_report(const heat_opts *o, tile_field *A, tile_map *ab, tile_map *ba,
                       double secs)
{
    double *all = NULL;
    int64_t pts;
    int rc, status = 0, rank = A->rank;
    rc = tile_map_agree(ab);
    if (rc == TILE_OK)
        rc = tile_map_agree(ba);
    pts = o->kernel == 0 ? o->n * o->n * o->n : o->n * o->n;
    if (rc == TILE_OK && rank == 0 && (all = (double *)malloc(sizeof(double) * (size_t)pts)) == NULL)
        rc = TILE_ERR_NOMEM;
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc == TILE_OK)
        rc = tile_field_gather(A, 0, all);
    if (rc != TILE_OK) {
        if (rank == 0)
            fprintf(stderr, "heat: %s\n", rc == TILE_ERR_NOMEM && ab->code == TILE_OK &&
                    A->errmsg[0] == 0 ? "out of memory for the gathered field" :
                    ab->code != TILE_OK ? ab->errmsg : ba->code != TILE_OK ? ba->errmsg : A->errmsg);
        status = 1;
    } else if (rank == 0) {
        status = heat_check(o, all, secs, A->pdims, A->ndims, A->size);
    }
    free(all);
    return status;
}

/* rank 0's array for the skewed plan's result, A's initial values (the
 * edges) in it; NULL elsewhere.  Out of memory ends the job. */
static double *heat_skew_array(const heat_opts *o, int rank)
{
    int64_t pts = o->kernel == 0 ? o->n * o->n * o->n : o->n * o->n, e, a[3];
    double *all;
    if (rank != 0)
        return NULL;
    if ((all = (double *)malloc(sizeof(double) * (size_t)pts)) == NULL)
        heat_nomem(rank, "the gathered array", pts, (int64_t)sizeof(double));
    for (e = 0; e < pts; e++) {
        a[0] = o->kernel == 0 ? e / (o->n * o->n) : e / o->n;
        a[1] = o->kernel == 0 ? e / o->n % o->n : e % o->n;
        a[2] = e % o->n;
        all[e] = heat_init(o, a, 0);
    }
    return all;
}

/* --skewed: the plan made, run and its last plane gathered and checked;
 * the exit status, the same on every rank. */
static int heat_skewed(const heat_opts *o, int rank, int size)
{
    heat_skew s;
    tile_plan p;
    double t0, secs, *all = NULL;
    int64_t pts = o->kernel == 0 ? (o->n - 2) * (o->n - 2) * (o->n - 2) : (o->n - 2) * (o->n - 2);
    int status = 0, rc;
    memset(&s, 0, sizeof s);
    s.o = o;
    if ((rc = heat_skew_plan(o, &s, &p)) != TILE_OK) {
        if (rank == 0)
            fprintf(stderr, "heat: the skewed plan: %s\n", p.errmsg);
        tile_plan_destroy(&p);
        return 1;
    }
    s.cap = pts;
    s.idx = (int64_t *)malloc(sizeof(int64_t) * (size_t)(pts + 1));
    s.val = (double *)malloc(sizeof(double) * (size_t)(pts + 1));
    if (s.idx == NULL || s.val == NULL)
        heat_nomem(rank, "the last plane's points", pts + 1, (int64_t)(sizeof(double) + 8));
    all = heat_skew_array(o, rank);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    heat_skew_run(o, &s, &p);
    secs = demo_slowest(t0);
    rc = tile_plan_status(&p) != TILE_OK || s.count > s.cap;   /* (the status is agreed; */
    MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);  /* the count not) */
    if (rc) {
        if (rank == 0)
            fprintf(stderr, "heat: the skewed plan's run: %s\n", p.errmsg);
        status = 1;
    } else if ((rc = heat_skew_collect(o, &s, all, rank, size)) != MPI_SUCCESS) {
        demo_mpi_check("heat", MPI_COMM_WORLD, rc, "MPI_Gather or MPI_Gatherv",
                       "gathering the last plane");
    } else if (rank == 0) {
        double box = 1;
        int i;
        for (i = 0; i <= p.cfg.n; i++)
            box *= (double)p.deps.size[i];
        status = heat_check(o, all, secs, p.pdims, p.cfg.n, size);
        printf("the skewed plan: its space's box holds %.0f points for the loop's %lld "
               "(%.1fx)\n", box, (long long)(pts * 2 * o->steps),
               box / (double)(pts * 2 * o->steps));
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(all);
    free(s.idx);
    free(s.val);
    tile_plan_destroy(&p);
    return status;
}

/* adi's verdict before a checkpoint: its plans' and its map's. */
static int heat_adi_ckpt_agree(void *ctx, const char **msg)
{
    adi_prog *g = (adi_prog *)ctx;
    *msg = g->errmsg;
    return adi_agree(g) != TILE_OK;
}

/* adi's initial u[i][j] (the options: ctx). */
static double heat_adi_init(void *ctx, int64_t i, int64_t j)
{
    int64_t c[2];
    c[0] = i, c[1] = j;
    return heat_init((const heat_opts *)ctx, c, 0);
}

/* --kernel adi: the program made (demos/heat_adi.h), its steps timed
 * (resumed with --restart, checkpointed with --checkpoint: u alone, the
 * other fields are computed from it each step), u gathered and checked on
 * rank 0; the exit status, the same on every rank (2: the plans refuse the
 * configuration; 75: stopped on the signal after a checkpoint). */
static int heat_adi(heat_opts *o, int rank)
{
    adi_setup s;
    adi_prog g;
    demo_ckpt ck;
    tile_field *saved[1];
    int64_t start = 0;
    double t0, secs, *all = NULL;
    int rc, status = 0, stopped = 0;
    s.n = o->n;
    s.steps = o->steps;
    s.tile_height = o->tile_height;
    s.model = o->model;
    s.threads = o->threads;
    s.init = heat_adi_init;
    s.ctx = o;
    if ((rc = adi_make(&g, &s)) != TILE_OK) {
        if (rank == 0)
            fprintf(stderr, "heat: adi: %s\n", g.errmsg);
        adi_free(&g);
        return rc == TILE_ERR_NOMEM || rc == TILE_ERR_MPI ? 1 : 2;
    }
    saved[0] = &g.u;
    if (demo_ckpt_begin(&ck, "heat", &o->ckpt, saved, 1, NULL, 0, heat_fingerprint(o), &start,
                        rank) != 0) {
        adi_free(&g);
        return 1;
    }
    ck.agree = heat_adi_ckpt_agree;
    ck.actx = &g;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    rc = adi_steps(&g, start, &ck, &stopped);
    secs = demo_slowest(t0);
    demo_ckpt_end(&ck);
    if (rc == TILE_OK && stopped != 0) {
        adi_free(&g);
        return stopped > 0 ? TILE_CKPT_EXIT : 1;
    }
    if (rank == 0 && rc == TILE_OK &&
        (all = (double *)malloc(sizeof(double) * (size_t)(o->n * o->n))) == NULL)
        heat_nomem(rank, "the gathered u", o->n * o->n, (int64_t)sizeof(double));
    if (rc == TILE_OK)
        rc = adi_gather(&g, all);
    if (rc != TILE_OK) {
        if (rank == 0)
            fprintf(stderr, "heat: adi: %s\n", g.errmsg);
        status = 1;
    } else if (rank == 0) {
        status = heat_check(o, all, secs, g.u.pdims, g.u.ndims, g.u.size);
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(all);
    adi_free(&g);
    return status;
}

/* The maps' verdict before a checkpoint (heat-3d, jacobi-2d). */
static int heat_ckpt_agree(void *ctx, const char **msg)
{
    tile_map *m = (tile_map *)ctx;
    *msg = m[0].errmsg;
    if (tile_map_agree(&m[0]) != TILE_OK)
        return 1;
    *msg = m[1].errmsg;
    return tile_map_agree(&m[1]) != TILE_OK;
}

/* heat-3d and jacobi-2d: the maps made, the steps (resumed with --restart,
 * checkpointed with --checkpoint: A alone, as B is computed from A at the
 * start of each step), the report; the exit status, the same on every
 * rank (75: stopped on the signal after a checkpoint). */
static int heat_maps(const heat_opts *o, int rank)
{
    tile_field A, B, *saved[1];
    tile_map m[2];
    demo_ckpt ck;
    int64_t start = 0;
    int status = 1, r;
    double t0, secs;
    memset(&ck, 0, sizeof ck);
    saved[0] = &A;
    if (heat_make(o, &A, &B, &m[0], &m[1]) == 0 &&
        demo_ckpt_begin(&ck, "heat", &o->ckpt, saved, 1, NULL, 0, heat_fingerprint(o), &start,
                        rank) == 0) {
        ck.agree = heat_ckpt_agree;
        ck.actx = m;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        r = heat_steps(o, &m[0], &m[1], start, &ck, rank);
        secs = demo_slowest(t0);
        status = r > 0 ? TILE_CKPT_EXIT : r < 0 ? 1 : heat_report(o, &A, &m[0], &m[1], secs);
        MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    demo_ckpt_end(&ck);
    tile_map_destroy(&m[0]);
    tile_map_destroy(&m[1]);
    tile_field_destroy(&A);
    tile_field_destroy(&B);
    return status;
}

int main(int argc, char **argv)
{
    heat_opts o;
    char err[DEMO_MSGLEN] = "";
    demo_arg v[12];
    int provided, rank, verdict, rc, status, level;
    rc = heat_parse(argc, argv, &o, err, sizeof err);
    level = rc == 0 ? tile_model_thread_level(o.model, o.threads) : MPI_THREAD_FUNNELED;
    if (MPI_Init_thread(&argc, &argv, level > MPI_THREAD_FUNNELED ? level : MPI_THREAD_FUNNELED,
                        &provided) != MPI_SUCCESS)
        return 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    v[0] = demo_arg_word("--kernel", o.kernel, heat_kernels);
    v[1] = demo_arg_int("--n", o.n);
    v[2] = demo_arg_int("--steps", o.steps);
    v[3] = demo_arg_int("--threads", o.threads);
    v[4] = demo_arg_flag("--verify", o.verify);
    v[5] = demo_arg_flag("--plain", o.plain);
    v[6] = demo_arg_word("--size", o.size, heat_sizes);
    v[7] = demo_arg_word("--init", o.init, heat_inits);
    v[8] = demo_arg_model(o.model);
    v[9] = demo_arg_int_opt("--tile-height", o.tile_height > 0, o.tile_height);
    v[10] = demo_arg_flag("--checkpoint", o.ckpt.path != NULL);
    v[11] = demo_arg_flag("--restart", o.ckpt.restart != NULL);
    verdict = demo_agree_end(demo_agree_help("heat", rc, err, v, 12, heat_help));
    if (verdict != DEMO_AGREE_GO)
        return verdict;
    if (o.kernel == 2) {
        status = heat_adi(&o, rank);
        MPI_Finalize();
        return status;
    }
    if (o.skewed) {
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        status = heat_skewed(&o, rank, size);
        MPI_Finalize();
        return status;
    }
    status = heat_maps(&o, rank);
    MPI_Finalize();
    return status;
}
