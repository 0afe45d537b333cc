/* demos/seidel.c -- Gauss-Seidel sweeps repeated in time (PolyBench/C 4.2's
 * seidel-2d), tiled over MPI processes: the sweep t reads its own new
 * values behind it and the previous sweep's values ahead of it, so the
 * plan skews the space.
 *
 * 2-D (the default), exactly PolyBench's kernel on an n x n array:
 *
 *   A[i][j] = ((double) i * (j + 2) + 2) / n          (all i, j)
 *   for t = 0 .. T-1, i = 1 .. n-2, j = 1 .. n-2:
 *     A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
 *              + A[i][j-1]   + A[i][j]   + A[i][j+1]
 *              + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9.0
 *
 * (summed left to right).  3-D (--dims 3), a 7-point sweep on n x n x n:
 *
 *   A[i][j][k] = ((double) i * (j + 2) + k + 2) / n
 *   for t, i, j, k (interior, 1 .. n-2):
 *     A[i][j][k] = (A[i-1][j][k] + A[i][j-1][k] + A[i][j][k-1] + A[i][j][k]
 *                 + A[i][j][k+1] + A[i][j+1][k] + A[i+1][j][k]) / 7.0
 *
 * For the toolkit it is a loop over the interior points and t (t is Z, the
 * loop order t, i, j[, k]); a read of A[i+1][j-1] is the point
 * (+1, -1, -1) of the previous sweep.  The checksum is the sum modulo 2^64
 * of the 64-bit patterns of the interior points after T sweeps.
 *
 *   mpiexec -n 2 ./demos/seidel --n 1000 --steps 20 --verify
 *   mpiexec -n 2 ./demos/seidel --dims 3 --n 100 --model funneled --threads 2 --json
 *
 * The sweeps are one plan's run: --checkpoint PATH (demos/checkpoint.h)
 * checkpoints inside it, --restart PATH resumes it there.
 */
#include "../hybrid.h"
#include "agree.h"
#include "checkpoint.h"

typedef struct seidel_opts {
    int64_t n, steps, tile_height;
    int dims, model, threads, verify, json, policy, grid[3];
    demo_ckpt_opts ckpt;        /* --checkpoint, --checkpoint-every, --restart */
} seidel_opts;

static uint64_t seidel_bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* v's bit pattern if t is the last sweep, else 0 (t <= last), without a
 * branch: t - last is negative before the last sweep.  (GCC at -O2 does not
 * vectorise a select on a 64-bit comparison for SSE2; this it does.) */
static uint64_t seidel_last(double v, int64_t t, int64_t last)
{
    return seidel_bits(v) & (((uint64_t)(t - last) >> 63) - 1);
}

/* The initial value of A at array indices (i, j[, k]). */
static double seidel_init(const seidel_opts *o, int64_t i, int64_t j, int64_t k)
{
    if (o->dims == 2)
        return ((double)i * (double)(j + 2) + 2) / (double)o->n;
    return ((double)i * (double)(j + 2) + (double)k + 2) / (double)o->n;
}

/* Boundary values: a point outside the toolkit's space is either on the
 * array's border (never updated) or before the first sweep (t = -1): both
 * hold the initial value.  Toolkit coordinates are array indices - 1. */
static void seidel_edge_row(void *out, ptrdiff_t stride, int64_t count, const int64_t *c,
                            const int64_t *s, void *ctx)
{
    const seidel_opts *o = (const seidel_opts *)ctx;
    int64_t e, k = o->dims == 3 ? 1 : 0;     /* the 2-D array's k stays 0 */
    for (e = 0; e < count; e++)             /* a row per call (cfg.boundary_row) */
        *(double *)((unsigned char *)out + e * stride) =
            seidel_init(o, c[0] + e * s[0] + 1, c[1] + e * s[1] + 1, k * (c[2] + e * s[2] + 1));
}

/* The plain in-place loop; *out: the checksum of the interior after T
 * sweeps.  0, or -1 when its array cannot be allocated (seidel_check_memory
 * refused sizes past the rank's memory limit). */
static int seidel_seq(const seidel_opts *o, uint64_t *out)
{
    int64_t n = o->n, t, i, j, k, kn = o->dims == 3 ? n : 1, sz = n * n * kn;
    double *A = (double *)malloc(sizeof(double) * (size_t)sz);
    uint64_t sum = 0;
    if (A == NULL)
        return -1;
#define S_A(i, j, k) A[((i) * n + (j)) * kn + (k)]
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            for (k = 0; k < kn; k++)
                S_A(i, j, k) = seidel_init(o, i, j, k);
    for (t = 0; t < o->steps; t++)
        for (i = 1; i <= n - 2; i++)
            for (j = 1; j <= n - 2; j++) {
                if (o->dims == 2)
                    S_A(i, j, 0) = (S_A(i - 1, j - 1, 0) + S_A(i - 1, j, 0) + S_A(i - 1, j + 1, 0)
                                    + S_A(i, j - 1, 0) + S_A(i, j, 0) + S_A(i, j + 1, 0)
                                    + S_A(i + 1, j - 1, 0) + S_A(i + 1, j, 0)
                                    + S_A(i + 1, j + 1, 0)) / 9.0;
                else
                    for (k = 1; k <= n - 2; k++)
                        S_A(i, j, k) = (S_A(i - 1, j, k) + S_A(i, j - 1, k) + S_A(i, j, k - 1)
                                        + S_A(i, j, k) + S_A(i, j, k + 1) + S_A(i, j + 1, k)
                                        + S_A(i + 1, j, k)) / 7.0;
            }
    for (i = 1; i <= n - 2; i++)
        for (j = 1; j <= n - 2; j++)
            for (k = o->dims == 3 ? 1 : 0; k <= (o->dims == 3 ? n - 2 : 0); k++)
                sum += seidel_bits(S_A(i, j, k));
#undef S_A
    free(A);
    *out = sum;
    return 0;
}

/* --grid comm|latency|time|AxB[xC]. */
static int seidel_grid(seidel_opts *o, const char *v, char *err, size_t errlen)
{
    int64_t g[3] = { 0, 0, 0 };
    char buf[64], *p, *q;
    int i = 0, policy = demo_grid_word(v);
    if (policy >= 0) {
        o->policy = policy;
        return 0;
    }
    snprintf(buf, sizeof buf, "%s", v);
    for (p = buf; p != NULL && i < 3; p = q, i++) {
        q = strchr(p, 'x');
        if (q != NULL)
            *q++ = '\0';
        if (tilehybrid_parse_i64(p, 1, 1 << 20, &g[i]) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--grid '%s': expected comm, latency, time or AxB[xC] "
                            "(whole numbers >= 1)", v);
    }
    if (p != NULL || i < 2)
        return demo_msg(err, errlen, "--grid '%s': expected comm, latency, time or AxB[xC]", v);
    for (i = 0; i < 3; i++)
        o->grid[i] = (int)g[i];
    return 0;
}

/* The options with a value (seidel_option reads them). */
static const char *const seidel_valued[] = { "--n", "--steps", "--dims", "--tile-height",
                                             "--grid", "--model", "--threads",
                                             DEMO_CKPT_OPTIONS };
#define SEIDEL_NVALUED ((int)(sizeof seidel_valued / sizeof seidel_valued[0]))

/* One option with its value; 0 or 2 (message in err). */
static int seidel_option(void *ctx, const char *a, const char *v, char *err, size_t errlen)
{
    seidel_opts *o = (seidel_opts *)ctx;
    int64_t x;
    int rc = demo_ckpt_option(&o->ckpt, a, v, err, errlen);
    if (rc >= 0)
        return rc;
    if (strcmp(a, "--n") == 0) {
        if (tilehybrid_parse_i64(v, 3, 1 << 20, &o->n) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--n '%s': expected a whole number in 3..1048576", v);
    } else if (strcmp(a, "--steps") == 0) {
        if (tilehybrid_parse_i64(v, 1, 1 << 30, &o->steps) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--steps '%s': expected a whole number in 1..1073741824",
                            v);
    } else if (strcmp(a, "--dims") == 0) {
        if (tilehybrid_parse_i64(v, 2, 3, &x) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--dims '%s': expected 2 or 3", v);
        o->dims = (int)x;
    } else if (strcmp(a, "--tile-height") == 0) {
        if (tilehybrid_parse_i64(v, 1, INT64_MAX, &o->tile_height) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--tile-height '%s': expected a whole number >= 1", v);
    } else if (strcmp(a, "--grid") == 0)
        return seidel_grid(o, v, err, errlen);
    else if ((rc = demo_model_threads(a, v, &o->model, &o->threads, err, errlen)) >= 0)
        return rc;
    else
        return demo_msg(err, errlen, "unknown option '%s' (see --help)", a);
    return 0;
}

/* Parse argv: 0, 1 (--help) or 2 (message in err). */
static int seidel_parse(int argc, char **argv, seidel_opts *o, char *err, size_t errlen)
{
    static const seidel_opts defaults = { .steps = 20, .tile_height = 64, .dims = 2,
                                          .model = TILE_MODEL_MPI, .threads = 1,
                                          .policy = TILE_GRID_COMM };
    int rc;
    *o = defaults;
    if ((rc = demo_options_vj(argc, argv, seidel_valued, SEIDEL_NVALUED, &o->verify, &o->json,
                              seidel_option, o, err, errlen)) != 0)
        return rc;
    if (demo_ckpt_check(&o->ckpt, err, errlen) != 0)
        return 2;
    if (o->n == 0)
        o->n = o->dims == 2 ? 1000 : 100;
    if (demo_check_threads(o->model, o->threads, err, errlen) != 0)
        return 2;
    return 0;
}

/* --verify's plain loop keeps the whole array on rank 0: refused before
 * anything is allocated when it passes the rank's memory limit (the node's
 * memory shared by its node_ranks ranks).  0 or 2 (message in err). */
static int seidel_check_memory(const seidel_opts *o, int node_ranks, char *err, size_t errlen)
{
    int64_t pts = o->n * o->n;   /* (n <= 2^20: no overflow) */
    if (!o->verify)
        return 0;
    if (o->dims == 3 && !tilehybrid_mul_ok(pts, o->n, &pts))
        pts = INT64_MAX;
    return demo_check_memory("--verify", o->dims == 3 ? "the plain loop's n x n x n array"
                             : "the plain loop's n x n array", pts, 8, "--n", node_ranks, err,
                             errlen);
}

static void seidel_help(void)
{
    printf("usage: mpiexec -n P ./demos/seidel [options]\n"
           "Gauss-Seidel sweeps repeated in time (PolyBench seidel-2d; --dims 3: a 7-point\n"
           "3-D variant), skewed and tiled over P processes.  Prints the checksum of the\n"
           "interior after the sweeps (sum mod 2^64 of the 64-bit patterns).\n"
           "  --n N                  array size n x n (x n) (default 1000; 100 with --dims 3)\n"
           "  --steps T              sweeps, 1..1073741824 (default 20)\n"
           "  --dims 2|3             the 2-D 9-point or the 3-D 7-point kernel (default 2)\n"
           "  --model M              mpi, fine, funneled or multiple (default mpi)\n"
           "  --threads T            threads per process (default 1)\n"
           "  --grid G               comm, latency, time or AxB[xC]: the process grid over the\n"
           "                         plan's distributed dimensions, after skewing\n"
           "  --tile-height z        along the pipelined dimension (default 64)\n"
           "  --verify               compare with the plain in-place loop (rank 0,\n"
           "                         after the run; its time is plain_seconds)\n"
           "  --json                 one JSON object: checksum, seconds, points_per_second\n"
           DEMO_CKPT_HELP
           "                     (inside the run: Nsteps counts its tile steps)\n"
           "Exit status: 0 ok, 1 --verify mismatch or failed run, 2 bad arguments,\n"
           "75 stopped on SIGUSR1 after a checkpoint (run again with --restart).\n");
}

/* The plan: the interior x T, the stencil, loop order t outermost. */
static int seidel_plan(tile_plan *plan, seidel_opts *o)
{
    tile_config cfg;
    int d = o->dims, i;
    tile_config_init(&cfg, d);
    for (i = 0; i < d; i++)
        cfg.extent[i] = o->n - 2;
    cfg.zlen = o->steps;
    if (d == 2)
        tile_config_stencil(&cfg, "-1,-1,0 -1,0,0 -1,1,0 0,-1,0 0,0,-1 0,1,-1 "
                            "1,-1,-1 1,0,-1 1,1,-1", NULL);
    else
        tile_config_stencil(&cfg, "-1,0,0,0 0,-1,0,0 0,0,-1,0 0,0,0,-1 0,0,1,-1 "
                            "0,1,0,-1 1,0,0,-1", NULL);
    cfg.loop_order[0] = d;                   /* t outermost, then i, j[, k] */
    for (i = 0; i < d; i++)
        cfg.loop_order[i + 1] = i;
    for (i = 0; i < d && o->grid[0] > 0; i++)
        cfg.grid[i] = o->grid[i] > 0 ? o->grid[i] : 1;
    cfg.grid_policy = o->policy;
    cfg.tile_height = o->tile_height;
    cfg.model = o->model;
    cfg.threads = o->threads;
    cfg.boundary_row = seidel_edge_row;
    cfg.boundary_ctx = o;
    return tile_plan_create(plan, MPI_COMM_WORLD, &cfg);
}

/* The sweeps; the checksum of the last sweep's bit patterns is a declared
 * SUM_U64 reduction (exact in any order), fed every point, with 0 but in
 * the last sweep: no branch, so the plan's SIMD loop stays SIMD. */
static void seidel_run(tile_plan *plan, const seidel_opts *o, tile_reduction *sum)
{
    int64_t const last = o->steps - 1;
    if (o->dims == 2)
        HYBRID_RUN(plan, it, {
            double v = (TILE_AT(double, it, -1, -1, 0) + TILE_AT(double, it, -1, 0, 0)
                        + TILE_AT(double, it, -1, 1, 0) + TILE_AT(double, it, 0, -1, 0)
                        + TILE_AT(double, it, 0, 0, -1) + TILE_AT(double, it, 0, 1, -1)
                        + TILE_AT(double, it, 1, -1, -1) + TILE_AT(double, it, 1, 0, -1)
                        + TILE_AT(double, it, 1, 1, -1)) / 9.0;
            TILE_AT(double, it, 0, 0, 0) = v;
            tile_reduce_u64(&it, sum, seidel_last(v, tile_coord(&it, 2), last));
        });
    else
        HYBRID_RUN(plan, it, {
            double v = (TILE_AT(double, it, -1, 0, 0, 0) + TILE_AT(double, it, 0, -1, 0, 0)
                        + TILE_AT(double, it, 0, 0, -1, 0) + TILE_AT(double, it, 0, 0, 0, -1)
                        + TILE_AT(double, it, 0, 0, 1, -1) + TILE_AT(double, it, 0, 1, 0, -1)
                        + TILE_AT(double, it, 1, 0, 0, -1)) / 7.0;
            TILE_AT(double, it, 0, 0, 0, 0) = v;
            tile_reduce_u64(&it, sum, seidel_last(v, tile_coord(&it, 3), last));
        });
}

/* Rank 0's report; returns the exit status (1 on a --verify mismatch). */
static int seidel_report(const tile_plan *plan, const seidel_opts *o, uint64_t sum, double secs)
{
    int64_t pts = o->steps, i;
    int bad = 0;
    uint64_t ref = 0;
    double plain = 0;
    char grid[64];
    size_t w = 0;
    for (i = 0; i < o->dims; i++) {
        pts *= o->n - 2;
        w += (size_t)snprintf(grid + w, sizeof grid - w, "%s%d", i ? ", " : "", plan->pdims[i]);
    }
    if (o->verify) {
        plain = MPI_Wtime();
        if (seidel_seq(o, &ref) != 0) {   /* an error naming the size, not a mismatch */
            int64_t kn = o->dims == 3 ? o->n : 1;
            fprintf(stderr, "seidel: rank 0: --verify: out of memory for the plain loop's "
                    "array (%lld points of 8 bytes)\n", (long long)(o->n * o->n * kn));
            return 1;
        }
        plain = MPI_Wtime() - plain;
        bad = ref != sum;
    }
    if (o->json)
        printf("{\"demo\": \"seidel\", \"dims\": %d, \"n\": %lld, \"steps\": %lld, "
               "\"model\": \"%s\", \"processes\": %d, \"threads\": %d, \"grid\": [%s], "
               "\"skewed\": %s, \"checksum\": \"%016llx\", \"seconds\": %.6f, "
               "\"points_per_second\": %.0f", o->dims, (long long)o->n,
               (long long)o->steps, tile_model_name(o->model), plan->size, o->threads,
               grid, plan->deps.skewed ? "true" : "false",
               (unsigned long long)sum, secs, secs > 0 ? (double)pts / secs : 0.0);
    if (o->json && o->verify)
        printf(", \"verify\": \"%s\", \"plain_seconds\": %.6f", bad ? "MISMATCH" : "ok", plain);
    if (o->json)
        printf("}\n");
    if (!o->json) {
        printf("seidel %dD, n = %lld, %lld sweeps, model %s, %d process%s x %d thread%s: "
               "checksum %016llx\ntime %.3f s, %.3g points per second\n", o->dims,
               (long long)o->n, (long long)o->steps, tile_model_name(o->model), plan->size,
               plan->size == 1 ? "" : "es", o->threads, o->threads == 1 ? "" : "s",
               (unsigned long long)sum, secs, secs > 0 ? (double)pts / secs : 0.0);
        if (o->verify)
            printf("verify: %s (plain loop: %016llx, %.3f s)\n", bad ? "MISMATCH" : "ok",
                   (unsigned long long)ref, plain);
    }
    return bad;
}

/* Parse, start MPI, and agree on the command line across ranks (one
 * collective).  -1: run; else the exit status (MPI finalized, rank 0
 * printed the help or the one message). */
static int seidel_start(int *argc, char ***argv, seidel_opts *o, int *rank)
{
    char err[DEMO_MSGLEN] = "";
    demo_arg v[DEMO_AGREE_MAX];
    int rc = seidel_parse(*argc, *argv, o, err, sizeof err), provided, k = 0, nr;
    if (hybrid_init(argc, argv, rc ? TILE_MODEL_MPI : o->model, rc ? 1 : o->threads,
                    &provided) != TILE_OK) {
        fprintf(stderr, "seidel: MPI_Init_thread failed\n");
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    nr = demo_node_ranks("seidel");   /* (collective: on every rank) */
    if (rc == 0)
        rc = seidel_check_memory(o, nr, err, sizeof err);
    v[k++] = demo_arg_int("--n", o->n);
    v[k++] = demo_arg_int("--steps", o->steps);
    v[k++] = demo_arg_int("--dims", o->dims);
    v[k++] = demo_arg_int("--tile-height", o->tile_height);
    v[k++] = demo_arg_model(o->model);
    v[k++] = demo_arg_int("--threads", o->threads);
    v[k++] = demo_arg_grid(o->policy);
    v[k++] = demo_arg_int_opt("--grid (A)", o->grid[0] > 0, o->grid[0]);   /* (0: not given) */
    v[k++] = demo_arg_int_opt("--grid (B)", o->grid[1] > 0, o->grid[1]);
    v[k++] = demo_arg_int_opt("--grid (C)", o->grid[2] > 0, o->grid[2]);
    v[k++] = demo_arg_flag("--verify", o->verify);
    v[k++] = demo_arg_flag("--json", o->json);
    v[k++] = demo_arg_flag("--checkpoint", o->ckpt.path != NULL);
    v[k++] = demo_arg_flag("--restart", o->ckpt.restart != NULL);
    v[k++] = demo_arg_int("--checkpoint-every (steps)", o->ckpt.every_steps);
    v[k++] = demo_arg_real("--checkpoint-every (seconds)", o->ckpt.every_seconds);
    return demo_agree_end(demo_agree_help("seidel", rc, err, v, k, seidel_help));
}

int main(int argc, char **argv)
{
    seidel_opts o;
    tile_plan plan;
    tile_reduction sum;
    demo_ckpt ck;
    int64_t start = 0, shape[3];
    int rank = 0, rc = seidel_start(&argc, &argv, &o, &rank), failed, nomem;
    double t0, secs;
    if (rc >= 0)
        return rc;
    memset(&ck, 0, sizeof ck);
    shape[0] = o.n;     /* what changes the numbers: the checkpoints' fingerprint */
    shape[1] = o.steps;
    shape[2] = o.dims;
    if (seidel_plan(&plan, &o) != TILE_OK) {
        if (rank == 0)   /* the rank once, and the options that shape the space */
            fprintf(stderr, "seidel: %s%s (--n %lld, --steps %lld, --dims %d)\n",
                    strncmp(plan.errmsg, "rank ", 5) == 0 ? "" : "rank 0: ", plan.errmsg,
                    (long long)o.n, (long long)o.steps, o.dims);
        tile_plan_destroy(&plan);
        MPI_Finalize();
        return 2;
    }
    nomem = demo_reduction_start("seidel", &plan, &sum, TILE_REDUCE_SUM_U64,
                                 "the checksum's per-thread slots", o.threads, &t0);
    if (!nomem && demo_ckpt_begin_plan(&ck, "seidel", &o.ckpt, &plan, NULL, 0, NULL, 0,
                                       demo_ckpt_hash(0x5e1de1ull, shape, sizeof shape),
                                       &start, rank) != 0)
        nomem = 1;      /* (rank 0 said why: the run does not start) */
    if (!nomem)
        seidel_run(&plan, &o, &sum);
    secs = demo_slowest(t0);
    if ((rc = demo_ckpt_plan_end(&ck, "seidel", rank)) >= 0) {
        tile_plan_destroy(&plan);
        MPI_Finalize();
        return rc;
    }
    failed = nomem || tile_plan_status(&plan) != TILE_OK;
    if (rank == 0 && failed && !nomem)   /* (out of memory: that rank said so) */
        fprintf(stderr, "seidel: run failed: %s\n", plan.errmsg);
    else if (rank == 0)
        failed = seidel_report(&plan, &o, sum.u64, secs);
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    tile_plan_destroy(&plan);
    MPI_Finalize();
    return failed;
}
