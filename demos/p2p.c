/* demos/p2p.c -- the Parallel Research Kernels' Synch_p2p, tiled over MPI
 * processes: a 2-D wavefront repeated, each sweep fed by the last one's
 * corner.
 *
 * On an m x n array of doubles, a[0][j] = j, a[i][0] = i and 0 elsewhere;
 * a sweep is
 *
 *   for i = 1..m-1, j = 1..n-1:  a[i][j] = a[i-1][j] + a[i][j-1] - a[i-1][j-1]
 *
 * followed by the corner feedback a[0][0] = -a[m-1][n-1], the dependence
 * from one sweep to the next.  As in PRK, the program runs iterations + 1
 * sweeps, times the last `iterations` of them (the first warms up; here it
 * also times the body for the plan's model of the tile height), counts
 * 2 (m-1)(n-1) flops a sweep, and checks the corner: a[m-1][n-1] =
 * (iterations + 1)(m + n - 2) within a relative 1e-8.  Every value is a
 * whole number below 2^53 (larger sizes are refused), so every sum is
 * exact, in any model and on any number of processes.
 *
 * For the toolkit a sweep is one run of a plan with N = 1: x along the
 * shorter side (cut among the processes), Z along the longer one
 * (pipelined), the stencil "-1,0 0,-1 -1,-1".  Points outside the space
 * are the boundary function's: a[0][j] = j, a[i][0] = i (the same rule,
 * "the other coordinate + 1", whichever side is x) and a[0][0], the
 * corner fed back.  With the sides swapped (m > n) the body's first two
 * reads trade places: a[i][j-1] + a[i-1][j] is the same double as
 * a[i-1][j] + a[i][j-1] (IEEE addition commutes), so one body serves both.
 *
 * The corner feedback.  The plan agrees on nothing after its first run
 * (cfg.agree = TILE_AGREE_WHEN_ASKED: a run sends its faces and calls no
 * collective; tile_plan_agree() after the last sweep gives every rank the
 * verdict), so what is left to pay per sweep is carrying one double from
 * the rank that owns a[m-1][n-1] (the last block of x) to the rank that
 * reads a[0][0] (the first block).  The rank that
 * owns the corner reads it with tile_get() (the Z window always holds the
 * last plane: no branch in the body, no store) and sends it in one
 * MPI_Send; the first rank receives it into the boundary function's
 * context before the next run.  That is one message on the critical path,
 * as in PRK's MPI1 code.  The alternatives cost more: a declared reduction
 * fed by the corner point puts a test in every point's body and adds an
 * MPI_Allreduce and an MPI_Allgather to every run; a broadcast is a
 * collective where one message does.  With one process the value stays
 * where it is.
 *
 *   mpiexec -n 2 ./demos/p2p --size 8000,8000 --iterations 20
 *   mpiexec -n 3 ./demos/p2p --size 301,777 --model funneled --threads 2 --verify --json
 */
#include "../hybrid.h"
#include "agree.h"
#include "checkpoint.h"

#include <math.h>

#define P2P_MAXSIDE 1000000000  /* the longest side (points) */
#define P2P_MAXITER 1000000000  /* the most iterations */
#define P2P_EXACT (INT64_C(1) << 53)   /* doubles hold every whole number up to here */
#define P2P_TAG 888             /* the corner's message */

typedef struct p2p_opts {
    int64_t m, n, iterations, tile_height;
    int model, threads, verify, json;
    demo_ckpt_opts ckpt;        /* --checkpoint, --checkpoint-every, --restart */
} p2p_opts;

/* The run's state: the corner a[0][0] that the next sweep reads (the
 * boundary function's context), and the ranks of the plan's communicator
 * that hold the first and the last block of x. */
typedef struct p2p_state {
    double corner;
    int first, last;
} p2p_state;

/* The options with a value (p2p_option reads them). */
static const char *const p2p_valued[] = { "--size", "--iterations", "--tile-height", "--model",
                                          "--threads", DEMO_CKPT_OPTIONS };
#define P2P_NVALUED ((int)(sizeof p2p_valued / sizeof p2p_valued[0]))

/* --size M,N: two whole numbers in 2..P2P_MAXSIDE; 0 or 2 (message). */
static int p2p_size(p2p_opts *o, const char *v, char *err, size_t errlen)
{
    int rc = demo_pair(v, 2, P2P_MAXSIDE, &o->m, &o->n);
    if (rc == 1)
        return demo_msg(err, errlen, "--size '%s': expected M,N (two sides >= 2)", v);
    if (rc == 2)
        return demo_msg(err, errlen, "--size '%s': expected M,N, two whole numbers in "
                        "2..1000000000", v);
    return 0;
}

/* One option with its value; 0 or 2 (message in err). */
static int p2p_option(void *ctx, const char *a, const char *v, char *err, size_t errlen)
{
    p2p_opts *o = (p2p_opts *)ctx;
    int rc = demo_ckpt_option(&o->ckpt, a, v, err, errlen);
    if (rc >= 0)
        return rc;
    if (strcmp(a, "--size") == 0)
        return p2p_size(o, v, err, errlen);
    if (strcmp(a, "--iterations") == 0) {
        if (tilehybrid_parse_i64(v, 1, P2P_MAXITER, &o->iterations) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--iterations '%s': expected a whole number in "
                            "1..1000000000", v);
    } else if (strcmp(a, "--tile-height") == 0) {
        if (tilehybrid_parse_i64(v, 1, INT64_MAX, &o->tile_height) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--tile-height '%s': expected a whole number >= 1", v);
    } else if ((rc = demo_model_threads(a, v, &o->model, &o->threads, err, errlen)) >= 0) {
        return rc;
    } else {
        return demo_msg(err, errlen, "unknown option '%s' (see --help)", a);
    }
    return 0;
}

/* Parse argv: 0, 1 (--help) or 2 (message in err). */
static int p2p_parse(int argc, char **argv, p2p_opts *o, char *err, size_t errlen)
{
    static const p2p_opts defaults = { .m = 2000, .n = 2000, .iterations = 10,
                                       .model = TILE_MODEL_MPI, .threads = 1 };
    int rc;
    *o = defaults;
    if ((rc = demo_options_vj(argc, argv, p2p_valued, P2P_NVALUED, &o->verify, &o->json,
                              p2p_option, o, err, errlen)) != 0)
        return rc;
    if (demo_ckpt_check(&o->ckpt, err, errlen) != 0)
        return 2;
    return demo_check_threads(o->model, o->threads, err, errlen);
}

/* What the sizes allow on `size` processes: the corner's value below 2^53
 * (exact), a point to compute per process along the shorter side, and
 * --verify's arrays within rank 0's memory.  0 or 2 (message in err). */
static int p2p_fits(const p2p_opts *o, int size, int node_ranks, char *err, size_t errlen)
{
    int64_t m = o->m, n = o->n, cut = (m < n ? m : n) - 1;
    int64_t corner = (o->iterations + 1) * (m + n - 2);   /* (< 2^61: no overflow) */
    if (corner > P2P_EXACT)
        return snprintf(err, errlen, "--size %lld,%lld --iterations %lld: the corner reaches "
                        "(iterations + 1)(m + n - 2) = %lld, past 2^53, where doubles stop "
                        "holding every whole number: use fewer iterations or a smaller "
                        "--size", (long long)m, (long long)n, (long long)o->iterations,
                        (long long)corner), 2;
    if (cut < size)
        return snprintf(err, errlen, "--size %lld,%lld: the shorter side has %lld points to "
                        "compute (its length - 1), fewer than the %d processes: run on at most "
                        "%lld processes, or give a larger --size", (long long)m, (long long)n,
                        (long long)cut, size, (long long)cut), 2;
    if (!o->verify)
        return 0;
    return demo_check_memory("--verify", "the plain loop's m x n array and the gathered "
                             "interior", 2 * m * n, 8, "--size", node_ranks, err, errlen);
}

static void p2p_help(void)
{
    printf("usage: mpiexec -n P ./demos/p2p [options]\n"
           "The Parallel Research Kernels' Synch_p2p: an m x n wavefront,\n"
           "a[i][j] = a[i-1][j] + a[i][j-1] - a[i-1][j-1], swept iterations + 1 times\n"
           "(the first untimed), each sweep fed a[0][0] = -a[m-1][n-1] by the last one.\n"
           "Prints PRK's lines (\"Solution validates\", \"Rate (MFlops/s): ... Avg time\n"
           "(s): ...\") after checking the corner against (iterations + 1)(m + n - 2).\n"
           "  --size M,N             the array, m x n, each side 2..1000000000 "
           "(default 2000,2000)\n"
           "  --iterations K         timed sweeps, 1..1000000000 (default 10)\n"
           "  --model M              mpi, fine, funneled or multiple (default mpi)\n"
           "  --threads T            threads per process (default 1)\n"
           "  --tile-height z        along the longer side (default: the plan chooses it\n"
           "                         by its pipeline model, after timing the first sweep)\n"
           "  --verify               compare the whole array, bit for bit, with the plain\n"
           "                         loop on rank 0 (the plan then keeps every plane:\n"
           "                         time runs without it)\n"
           "  --json                 one JSON object (keys: docs/JSON.md)\n"
           DEMO_CKPT_HELP
           "                     (between the sweeps: the corner fed back; Nsteps counts\n"
           "                     sweeps; the rate then covers the sweeps after it)\n"
           "Exit status: 0 ok, 1 the corner or --verify found a difference or the run\n"
           "failed, 2 bad arguments, 75 stopped on SIGUSR1 after a checkpoint (run again\n"
           "with --restart).\n");
}

/* The options every rank must share. */
static int p2p_agreed(const p2p_opts *o, demo_arg *v)
{
    int k = 0;
    v[k++] = demo_arg_int("--size (M)", o->m);
    v[k++] = demo_arg_int("--size (N)", o->n);
    v[k++] = demo_arg_int("--iterations", o->iterations);
    v[k++] = demo_arg_int_opt("--tile-height", o->tile_height > 0, o->tile_height);
    v[k++] = demo_arg_model(o->model);
    v[k++] = demo_arg_int("--threads", o->threads);
    v[k++] = demo_arg_flag("--verify", o->verify);
    v[k++] = demo_arg_flag("--json", o->json);
    v[k++] = demo_arg_flag("--checkpoint", o->ckpt.path != NULL);
    v[k++] = demo_arg_flag("--restart", o->ckpt.restart != NULL);
    v[k++] = demo_arg_int("--checkpoint-every (steps)", o->ckpt.every_steps);
    v[k++] = demo_arg_real("--checkpoint-every (seconds)", o->ckpt.every_seconds);
    return k;
}

/* Parse, start MPI, check the sizes, and agree on all of it across ranks
 * (one collective).  -1: run; else the exit status (MPI finalized, rank 0
 * printed the help or the one message). */
static int p2p_start(int *argc, char ***argv, p2p_opts *o)
{
    char err[DEMO_MSGLEN] = "";
    demo_arg v[DEMO_AGREE_MAX];
    int rc = p2p_parse(*argc, *argv, o, err, sizeof err), provided, size, nr;
    if (hybrid_init(argc, argv, rc ? TILE_MODEL_MPI : o->model, rc ? 1 : o->threads,
                    &provided) != TILE_OK) {
        fprintf(stderr, "p2p: MPI_Init_thread failed\n");
        return 1;
    }
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    nr = demo_node_ranks("p2p");   /* (collective: on every rank) */
    if (rc == 0)
        rc = p2p_fits(o, size, nr, err, sizeof err);
    return demo_agree_end(demo_agree_help("p2p", rc, err, v, p2p_agreed(o, v), p2p_help));
}

/* A point outside the space, at (x, z) with x = -1 or z = -1: a[0][0] (the
 * corner fed back) when both are, else the other coordinate + 1 (a[0][j] =
 * j, a[i][0] = i, whichever side x runs along). */
static void p2p_edge(void *out, const int64_t *c, void *ctx)
{
    double v;
    if (c[0] < 0 && c[1] < 0)
        v = ((const p2p_state *)ctx)->corner;
    else
        v = (double)(c[0] < 0 ? c[1] + 1 : c[0] + 1);
    *(double *)out = v;
}

/* The plan of one sweep (collective); the ranks of the first and the last
 * block of x into s.  TILE_OK, or the plan's error (its message in
 * plan->errmsg on every rank). */
static int p2p_plan(tile_plan *plan, const p2p_opts *o, p2p_state *s)
{
    tile_config cfg;
    int rc, c;
    tile_config_init(&cfg, 1);
    cfg.extent[0] = (o->m <= o->n ? o->m : o->n) - 1;   /* the shorter side is cut */
    cfg.zlen = (o->m <= o->n ? o->n : o->m) - 1;        /* the longer one is pipelined */
    tile_config_stencil(&cfg, "-1,0 0,-1 -1,-1", NULL);
    cfg.tile_height = o->tile_height;
    cfg.model = o->model;
    cfg.threads = o->threads;
    cfg.boundary = p2p_edge;
    cfg.boundary_ctx = s;
    cfg.storage = o->verify ? TILE_STORE_FULL : TILE_STORE_WINDOW;
    cfg.agree = TILE_AGREE_WHEN_ASKED;      /* no collective per sweep */
    s->corner = 0.0;
    if ((rc = tile_plan_create(plan, MPI_COMM_WORLD, &cfg)) != TILE_OK)
        return rc;
    c = 0;
    demo_mpi_check("p2p", plan->comm, MPI_Cart_rank(plan->comm, &c, &s->first), "MPI_Cart_rank",
                   "finding the rank of a[0][0]");
    c = plan->pdims[0] - 1;
    demo_mpi_check("p2p", plan->comm, MPI_Cart_rank(plan->comm, &c, &s->last), "MPI_Cart_rank",
                   "finding the rank of a[m-1][n-1]");
    return TILE_OK;
}

/* One sweep: a run of the plan.  Kept out of the caller's loop (GCC,
 * clang), as demos/sw's body is, so that the body's values stay in
 * registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void p2p_sweep(tile_plan *plan)
{
    HYBRID_RUN(plan, it, {
        TILE_AT(double, it, 0, 0) = TILE_AT(double, it, -1, 0) + TILE_AT(double, it, 0, -1)
                                    - TILE_AT(double, it, -1, -1);
    });
}

/* After a sweep: a[0][0] = -a[m-1][n-1], from the corner's rank to the
 * rank that reads a[0][0] (one message; none with one process). */
static void p2p_feedback(tile_plan *plan, p2p_state *s)
{
    int64_t c[2];
    double v = 0.0;
    int rc;
    c[0] = plan->cfg.extent[0] - 1;
    c[1] = plan->cfg.zlen - 1;
    if (plan->rank == s->last) {
        if ((rc = tile_get(plan, c, &v)) != TILE_OK) {   /* (the window holds it) */
            fprintf(stderr, "p2p: rank %d: tile_get(corner (%lld, %lld)): %s; sending a NaN\n",
                    plan->rank, (long long)c[0], (long long)c[1], tile_strerror(rc));
            v = NAN;
        }
        if (s->first != s->last)
            demo_mpi_check("p2p", plan->comm, MPI_Send(&v, 1, MPI_DOUBLE, s->first, P2P_TAG,
                                                       plan->comm), "MPI_Send",
                           "sending the corner a[m-1][n-1] to the rank of a[0][0]");
    }
    if (plan->rank == s->first && s->first != s->last) {
        char what[80];
        snprintf(what, sizeof what, "receiving the corner a[m-1][n-1] from rank %d", s->last);
        demo_mpi_check("p2p", plan->comm, MPI_Recv(&v, 1, MPI_DOUBLE, s->last, P2P_TAG,
                                                   plan->comm, MPI_STATUS_IGNORE), "MPI_Recv",
                       what);
    }
    if (plan->rank == s->first)
        s->corner = -v;
}

/* The checkpoints' view of the run (demos/checkpoint.h): the plan, the
 * state, and the corner saved (rank 0's bytes: the corner is sent there
 * before each checkpoint). */
typedef struct p2p_ckpt {
    tile_plan *plan;
    p2p_state *s;
    double corner;
} p2p_ckpt;

/* Before a checkpoint, on every rank: the sweeps' verdict (the plan agrees
 * on nothing after its first run), then the corner from the rank that
 * holds it to every rank. */
static int p2p_ckpt_agree(void *ctx, const char **msg)
{
    p2p_ckpt *c = (p2p_ckpt *)ctx;
    if (tile_plan_agree(c->plan) != TILE_OK) {
        *msg = c->plan->errmsg;
        return 1;
    }
    c->corner = c->s->corner;
    demo_mpi_check("p2p", c->plan->comm, MPI_Bcast(&c->corner, 1, MPI_DOUBLE, c->s->first,
                                                   c->plan->comm), "MPI_Bcast",
                   "sending the corner to the checkpoint");
    return 0;
}

/* iterations + 1 sweeps from sweep start on (a checkpoint's, else 0), each
 * with its feedback and a checkpoint when due; the seconds of the sweeps
 * from max(start, 1) on (*timed of them) on the slowest rank (PRK's timing:
 * from a barrier after the first sweep).  Stops when the first run (which
 * agrees) failed, a checkpoint failed (*stop -1) or the signal came (*stop
 * 1); a later failure is its rank's until tile_plan_agree() at the end. */
static double p2p_iterate(tile_plan *plan, const p2p_opts *o, p2p_state *s, demo_ckpt *ck,
                          int64_t start, int64_t *timed, int *stop)
{
    double t0 = MPI_Wtime();
    int64_t k, first = start > 1 ? start : 1;
    *stop = 0;
    for (k = start; k <= o->iterations && *stop == 0; k++) {
        if (k == first) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
        }
        p2p_sweep(plan);
        if (k == 0 && tile_plan_status(plan) != TILE_OK)
            break;
        p2p_feedback(plan, s);
        *stop = demo_ckpt_step(ck, "p2p", k + 1, plan->rank);
    }
    *timed = o->iterations + 1 - first;
    t0 = demo_slowest(t0);
    (void)tile_plan_agree(plan);            /* the verdict: tile_plan_status() */
    return t0;
}

/* The plain loop on an m x n array (row-major), iterations + 1 sweeps with
 * the feedback; NULL when out of memory. */
static double *p2p_seq(const p2p_opts *o)
{
    int64_t m = o->m, n = o->n, i, j, k;
    double *a = (double *)calloc((size_t)(m * n), sizeof(double));
    if (a == NULL)
        return NULL;
    for (j = 0; j < n; j++)
        a[j] = (double)j;
    for (i = 0; i < m; i++)
        a[i * n] = (double)i;
    for (k = 0; k <= o->iterations; k++) {
        for (i = 1; i < m; i++)
            for (j = 1; j < n; j++)
                a[i * n + j] = a[(i - 1) * n + j] + a[i * n + j - 1] - a[(i - 1) * n + j - 1];
        a[0] = -a[m * n - 1];
    }
    return a;
}

/* --verify on rank 0: the whole m x n array of the run (the gathered
 * interior g, x-major with Z last; the boundary function's row and column;
 * a[0][0], fed back after the last sweep) against the plain loop's, bit for
 * bit.  The points that differ, or -1 when the plain loop's array cannot be
 * allocated; *secs: the plain loop's time. */
static int64_t p2p_compare(const p2p_opts *o, const double *g, const p2p_state *s,
                           double *secs)
{
    int64_t m = o->m, n = o->n, Z = (m <= n ? n : m) - 1, i, j, c[2], bad = 0;
    int swapped = m > n;
    double *a, v;
    *secs = MPI_Wtime();
    if ((a = p2p_seq(o)) == NULL)
        return -1;
    *secs = MPI_Wtime() - *secs;
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {
            c[0] = (swapped ? j : i) - 1;     /* the plan's (x, z) of a[i][j] */
            c[1] = (swapped ? i : j) - 1;
            if (c[0] >= 0 && c[1] >= 0)
                v = g[c[0] * Z + c[1]];
            else
                p2p_edge(&v, c, (void *)s);   /* (a[0][0]: the corner fed back last) */
            bad += memcmp(&v, &a[i * n + j], sizeof v) != 0;
        }
    free(a);
    return bad;
}

/* The figures of a run, for the report. */
typedef struct p2p_result {
    double corner, secs, plain;
    int64_t bad;        /* --verify: points that differ; -1 not checked */
    int64_t timed;      /* the sweeps secs covers (iterations; fewer after a restart) */
} p2p_result;

/* A double as JSON: every digit (%.17g: the corner's whole number as it
 * is), or null for a NaN or an infinity (JSON has neither). */
static const char *p2p_json_num(char *buf, size_t len, double v)
{
    if (v == v && v - v == 0.0)
        snprintf(buf, len, "%.17g", v);
    else
        snprintf(buf, len, "null");
    return buf;
}

/* Rank 0's report in PRK's words (or one JSON object); the exit status: 1
 * when the corner does not validate or --verify found a difference. */
static int p2p_report(const tile_plan *plan, const p2p_opts *o, const p2p_result *r)
{
    double want = (double)((o->iterations + 1) * (o->m + o->n - 2));
    double avg = r->timed > 0 ? r->secs / (double)r->timed : 0.0;
    double mflops = avg > 0 ? 2e-6 * (double)(o->m - 1) * (double)(o->n - 1) / avg : 0.0;
    int valid = fabs(r->corner - want) / want < 1e-8;   /* PRK's test (NaN fails) */
    const char *verdict = !o->verify ? NULL : r->bad == 0 ? "ok" : "MISMATCH";
    char c[40], w[40];
    if (o->json) {
        printf("{\"demo\": \"p2p\", \"size\": [%lld, %lld], \"iterations\": %lld, "
               "\"model\": \"%s\", \"processes\": %d, \"threads\": %d, \"tile_height\": %lld, "
               "\"corner\": %s, \"expected\": %s, \"validates\": %s, \"seconds\": %.6f, "
               "\"avg_seconds\": %.6f, \"mflops\": %.3f", (long long)o->m, (long long)o->n,
               (long long)o->iterations, tile_model_name(o->model), plan->size, o->threads,
               (long long)plan->height.z, p2p_json_num(c, sizeof c, r->corner),
               p2p_json_num(w, sizeof w, want), valid ? "true" : "false", r->secs,
               avg, mflops);
        if (verdict)
            printf(", \"verify\": \"%s\", \"mismatches\": %lld, \"plain_seconds\": %.6f",
                   verdict, (long long)r->bad, r->plain);
        printf("}\n");
        return !valid || (verdict != NULL && verdict[0] != 'o');
    }
    printf("p2p: PRK Synch_p2p on tilehybrid, model %s, tile height %lld (%s)\n"
           "Number of ranks                = %d\nNumber of threads per rank     = %d\n"
           "Grid sizes                     = %lld, %lld\n"
           "Number of iterations           = %lld\n", tile_model_name(o->model),
           (long long)plan->height.z, o->tile_height > 0 ? "given" : "the plan's choice",
           plan->size, o->threads, (long long)o->m, (long long)o->n, (long long)o->iterations);
    if (valid)
        printf("Solution validates\nRate (MFlops/s): %lf Avg time (s): %lf\n", mflops, avg);
    else
        printf("ERROR: checksum %lf does not match verification value %lf\n", r->corner, want);
    if (verdict)
        printf("verify: %s (%lld of the %lld x %lld points differ from the plain loop's; "
               "plain loop %.3f s)\n", verdict, (long long)r->bad, (long long)o->m,
               (long long)o->n, r->plain);
    return !valid || (verdict != NULL && verdict[0] != 'o');
}

/* After the sweeps: the corner on every rank (a[0][0] is its negative, on
 * the first rank), and with --verify the interior gathered on rank 0 and
 * compared there.  Collective.  0, or 1 when the gather failed or rank 0
 * ran out of memory (rank 0 said why). */
static int p2p_collect(tile_plan *plan, const p2p_opts *o, p2p_state *s, p2p_result *r)
{
    double *g = NULL;
    int64_t X = plan->cfg.extent[0], Z = plan->cfg.zlen;
    demo_mpi_check("p2p", plan->comm, MPI_Bcast(&s->corner, 1, MPI_DOUBLE, s->first,
                                                plan->comm), "MPI_Bcast",
                   "sharing the corner fed back last");
    r->corner = -s->corner;
    r->bad = -1;
    if (!o->verify)
        return 0;
    if (plan->rank == 0 && (g = (double *)malloc(sizeof(double) * (size_t)(X * Z))) == NULL)
        demo_nomem("p2p", 0, "--verify's gathered interior", X * Z, (int64_t)sizeof(double));
    if (tile_gather(plan, 0, Z, 0, g, NULL) != TILE_OK) {   /* (g NULL: refused everywhere) */
        if (plan->rank == 0)
            fprintf(stderr, "p2p: --verify: %s\n", plan->errmsg);
        free(g);
        return 1;
    }
    if (plan->rank == 0 && (r->bad = p2p_compare(o, g, s, &r->plain)) < 0)
        demo_nomem("p2p", 0, "--verify's plain loop (the m x n array)", o->m * o->n,
                   (int64_t)sizeof(double));
    free(g);
    return plan->rank == 0 && r->bad < 0;
}

int main(int argc, char **argv)
{
    p2p_opts o;
    p2p_state s;
    p2p_result r = { 0.0, 0.0, 0.0, -1, 0 };
    tile_plan plan;
    demo_ckpt ck;
    p2p_ckpt cc;
    int64_t start = 0, shape[3];
    int rc = p2p_start(&argc, &argv, &o), failed, stop = 0;
    if (rc >= 0)
        return rc;
    shape[0] = o.m;     /* what changes the numbers: the checkpoints' fingerprint */
    shape[1] = o.n;
    shape[2] = o.iterations;
    if (p2p_plan(&plan, &o, &s) != TILE_OK) {
        if (plan.rank == 0)   /* the rank once, and the options that shape the space */
            fprintf(stderr, "p2p: %s%s (--size %lld,%lld, --threads %d)\n",
                    strncmp(plan.errmsg, "rank ", 5) == 0 ? "" : "rank 0: ", plan.errmsg,
                    (long long)o.m, (long long)o.n, o.threads);
        tile_plan_destroy(&plan);
        MPI_Finalize();
        return 2;
    }
    cc.plan = &plan;
    cc.s = &s;
    cc.corner = s.corner;
    if (demo_ckpt_begin(&ck, "p2p", &o.ckpt, NULL, 0, &cc.corner, sizeof cc.corner,
                        demo_ckpt_hash(0x9292ull, shape, sizeof shape), &start, plan.rank) != 0) {
        demo_ckpt_end(&ck);     /* (rank 0 said why) */
        tile_plan_destroy(&plan);
        MPI_Finalize();
        return 1;
    }
    if (start > 0)      /* the sweeps after the checkpoint read its corner */
        s.corner = cc.corner;
    ck.agree = p2p_ckpt_agree;
    ck.actx = &cc;
    r.secs = p2p_iterate(&plan, &o, &s, &ck, start, &r.timed, &stop);
    demo_ckpt_end(&ck);
    if (stop != 0) {    /* the signal (75), or a checkpoint that failed (1): every rank */
        tile_plan_destroy(&plan);
        MPI_Finalize();
        return stop > 0 ? TILE_CKPT_EXIT : 1;
    }
    failed = tile_plan_status(&plan) != TILE_OK;
    if (failed && plan.rank == 0)
        fprintf(stderr, "p2p: run failed: %s\n", plan.errmsg);
    if (!failed)
        failed = p2p_collect(&plan, &o, &s, &r);
    if (!failed && plan.rank == 0)
        failed = p2p_report(&plan, &o, &r);
    fflush(stdout);
    demo_mpi_check("p2p", plan.comm, MPI_Bcast(&failed, 1, MPI_INT, 0, plan.comm), "MPI_Bcast",
                   "sharing the verdict");
    tile_plan_destroy(&plan);
    MPI_Finalize();
    return failed;
}
