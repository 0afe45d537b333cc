/* demos/heat.c -- PolyBench/C 4.2's heat-3d and jacobi-2d time loops as map
 * steps over fields: no pipeline, no collective per step.
 *
 *   mpiexec -n P ./demos/heat [--kernel heat-3d|jacobi-2d] [--size NAME]
 *                             [--n N] [--steps T] [--threads T] [--verify]
 *                             [--plain] [-h | --help]
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
 * PolyBench's own initialisation is linear in the coordinates, where the
 * discrete Laplacian is 0: heat-3d at SMALL and MEDIUM ends where it
 * started, so that a wrong order shows only in the other sizes (and in
 * tests/mpi_map.c, which uses values that are not linear too). */
#include "../tiling.h"
#include "agree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct heat_opts {
    int kernel;                 /* 0 heat-3d, 1 jacobi-2d */
    int init;                   /* 0 PolyBench's values, 1 mixed (not linear) */
    int64_t n, steps;
    int threads, verify, json, plain, size;
} heat_opts;

static const char *const heat_kernels[2] = { "heat-3d", "jacobi-2d" };
static const char *const heat_sizes[6] = { "MINI", "SMALL", "MEDIUM", "LARGE", "EXTRALARGE",
                                          "given" };
static const char *const heat_inits[2] = { "polybench", "mixed" };
/* PolyBench 4.2's datasets: { n, steps } by kernel and size */
static const int64_t heat_dataset[2][5][2] = {
    { { 10, 20 }, { 20, 40 }, { 40, 100 }, { 120, 500 }, { 200, 1000 } },
    { { 30, 20 }, { 90, 40 }, { 250, 100 }, { 1300, 500 }, { 2800, 1000 } }
};

static void heat_help(void)
{
    printf("usage: mpiexec -n P ./demos/heat [options]\n"
           "PolyBench/C 4.2's heat-3d or jacobi-2d time loop as two map steps over two\n"
           "fields (tiling.h), bitwise PolyBench's loops.\n"
           "  --kernel K      heat-3d (default) or jacobi-2d\n"
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
           "  -h, --help      this help\n");
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
    if (strcmp(name, "--kernel") == 0) {
        if ((o->kernel = heat_word(v, heat_kernels, 2)) < 0)
            return demo_msg(err, errlen, "--kernel '%s': expected heat-3d or jacobi-2d", v);
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
    static const char *const valued[6] = { "--kernel", "--size", "--n", "--steps", "--threads",
                                           "--init" };
    opt_flag flags[2];
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
    spec.valued = valued;
    spec.nvalued = 6;
    spec.flags = flags;
    spec.nflags = 2;
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

/* The plain loops (PolyBench's), into A (and B, scratch). */
#define HX(X, i, j, k) X[((i) * n + (j)) * n + (k)]
static void heat_plain(const heat_opts *o, double *A, double *B)
{
    int64_t n = o->n, t, i, j, k, c[3];
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
static void heat_steps(const heat_opts *o, tile_map *ab, tile_map *ba)
{
    int64_t t;
    int s;
    for (t = 0; t < o->steps; t++)
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

/* The maps' verdicts, the gathered field's checksum on rank 0 and, with
 * --verify or --plain, the plain loops beside it; the exit status (rank
 * 0's counts). */
static int heat_report(const heat_opts *o, tile_field *A, tile_map *ab, tile_map *ba,
                       double secs)
{
    double plain_secs = 0, sum = 0, psum = 0;
    double *all = NULL;
    int64_t pts;
    int rc, status = 0, rank = A->rank, size = A->size;
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
        int64_t i;
        for (i = 0; i < pts; i++)
            sum += all[i];
        printf("heat: %s n %lld, %lld steps (%s), %s values, %d process%s (grid %d",
               heat_kernels[o->kernel], (long long)o->n, (long long)o->steps, heat_sizes[o->size],
               heat_inits[o->init], size, size == 1 ? "" : "es", A->pdims[0]);
        for (i = 1; i < A->ndims; i++)
            printf("x%d", A->pdims[i]);
        printf("), %d thread%s\n", o->threads, o->threads == 1 ? "" : "s");
        printf("checksum %.17g   time %.3f s\n", sum, secs);
        if (o->verify || o->plain) {
            double *pa = (double *)malloc(sizeof(double) * (size_t)pts * 2);
            if (pa == NULL) {
                fprintf(stderr, "heat: out of memory for the plain loops' arrays\n");
                status = 1;
            } else {
                double p0 = MPI_Wtime();
                heat_plain(o, pa, pa + pts);
                plain_secs = MPI_Wtime() - p0;
                for (i = 0; i < pts; i++)
                    psum += pa[i];
                printf("plain loops: checksum %.17g   time %.3f s (%.2fx)\n", psum, plain_secs,
                       secs > 0 ? plain_secs / secs : 0.0);
                if (o->verify) {
                    int64_t diff = 0;
                    for (i = 0; i < pts; i++)
                        diff += memcmp(&pa[i], &all[i], sizeof(double)) != 0;
                    printf("verify: %s (%lld of %lld values differ)\n",
                           diff == 0 ? "bitwise equal to the plain loops" : "DIFFERENT",
                           (long long)diff, (long long)pts);
                    if (o->kernel == 0 && o->init == 0)
                        printf("note: PolyBench's heat-3d values never change (their "
                               "Laplacian is 0); --init mixed checks the order\n");
                    status = diff != 0;
                }
                free(pa);
            }
        }
    }
    free(all);
    return status;
}

int main(int argc, char **argv)
{
    heat_opts o;
    tile_field A, B;
    tile_map ab, ba;
    char err[DEMO_MSGLEN] = "";
    demo_arg v[8];
    int provided, rank, verdict, rc, status;
    double t0, secs;
    rc = heat_parse(argc, argv, &o, err, sizeof err);
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
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
    verdict = demo_agree_end(demo_agree_help("heat", rc, err, v, 8, heat_help));
    if (verdict != DEMO_AGREE_GO)
        return verdict;
    if (heat_make(&o, &A, &B, &ab, &ba) != 0) {
        tile_map_destroy(&ab);
        tile_map_destroy(&ba);
        tile_field_destroy(&A);
        tile_field_destroy(&B);
        MPI_Finalize();
        return 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    heat_steps(&o, &ab, &ba);
    secs = demo_slowest(t0);
    status = heat_report(&o, &A, &ab, &ba, secs);
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    tile_map_destroy(&ab);
    tile_map_destroy(&ba);
    tile_field_destroy(&A);
    tile_field_destroy(&B);
    MPI_Finalize();
    return status;
}
