/* demos/demo.h -- the command line, checksum, verification and report shared
 * by the ADI and DE demos (not an installed header).
 *
 * A demo defines its kernel as
 *   - DEMO_NAME, DEMO_D1, DEMO_D2, DEMO_DEPZ, the default space and
 *     DEMO_ORDER, the in-tile order it runs fastest in;
 *   - demo_run(plan, acc): HYBRID_RUN with the point update, adding the bit
 *     pattern of every computed value to acc[thread];
 *   - demo_seq_plane(): the plain sequential loop for one Z plane, used by
 *     --verify and by the benchmarks;
 * and then includes this file, which supplies main().
 *
 *   mpiexec -n P ./demos/adi [--space 16x256x16384] [--tile-height 100]
 *       [--model mpi|fine|funneled|multiple] [--threads T]
 *       [--grid comm|latency|AxB] [--bal F] [--verify] [--json]
 *       [--balance none|fixed|constant|variable|adaptive]
 *       [--tcomp S] [--tstartup S] [--bandwidth B]      (cost model; else measured)
 *       [--adapt-period STEPS]                          (adaptive; default 2PT)
 *       [--order planes|z]                              (in-tile order)
 */
#ifndef TILEHYBRID_DEMO_H
#define TILEHYBRID_DEMO_H

#include "../hybrid.h"

#include <errno.h>
#include <math.h>

/* Boundary value of both kernels: any coordinate at -1 (or below). */
static inline double demo_g(int64_t x, int64_t y, int64_t z)
{
    return (double)((31 * x + 17 * y + 7 * z + 1000003) % 97) / 97.0;
}

static void demo_edge(void *out, const int64_t *c, void *ctx)
{
    (void)ctx;
    *(double *)out = demo_g(c[0], c[1], c[2]);
}

static inline uint64_t demo_bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* Per-thread checksum accumulators, one cache line each. */
typedef struct demo_acc {
    uint64_t sum;
    char pad[56];
} demo_acc;

/* Kernel interface (defined by the demo before including this file). */
static void demo_run(tile_plan *plan, demo_acc *acc);
static void demo_seq_plane(const double *prev, double *cur, int64_t X, int64_t Y, int64_t z);

typedef struct demo_opts {
    int64_t space[3], tile_height;
    int model, threads, grid[2], policy, verify, json, balance, order;
    double bal, tcomp, tstartup, bandwidth;
    int64_t adapt_period;
} demo_opts;

/* The first argument error, printed by rank 0 once MPI is up (a process
 * that leaves before MPI_Init upsets some launchers). */
static char demo_errmsg[512];

static int demo_usage(int rank, const char *fmt, const char *arg)
{
    (void)rank;
    if (demo_errmsg[0] == '\0') {
        int o = snprintf(demo_errmsg, sizeof demo_errmsg, "%s: ", DEMO_NAME);
        snprintf(demo_errmsg + o, sizeof demo_errmsg - (size_t)o, fmt, arg);
    }
    return 2;
}

static void demo_print_usage(void)
{
    if (strcmp(demo_errmsg, DEMO_NAME ": help") != 0)
        fprintf(stderr, "%s\n", demo_errmsg);
    {
        fprintf(stderr, "usage: mpiexec -n P ./demos/%s [--space X1xX2xZ] [--tile-height z] "
                "[--model mpi|fine|funneled|multiple] [--threads T] [--grid comm|latency|AxB] "
                "[--bal F] [--balance none|fixed|constant|variable|adaptive] [--tcomp S] "
                "[--tstartup S] [--bandwidth B] [--adapt-period STEPS] [--order planes|z] [--verify] "
                "[--json]\n",
                DEMO_NAME);
    }
}

static int demo_parse_list(const char *s, int64_t *out, int want)
{
    int k = 0;
    while (k < want) {
        char *end;
        long long v;
        errno = 0;
        if (*s < '0' || *s > '9')
            return -1;
        v = strtoll(s, &end, 10);
        if (errno != 0 || v < 1)
            return -1;
        out[k++] = v;
        if (*end == '\0')
            break;
        if (*end != 'x')
            return -1;
        s = end + 1;
    }
    return k == want && strchr(s, 'x') == NULL ? 0 : -1;
}

/* Parse argv; 0 on success, else the exit status (message printed). */
static int demo_parse(int argc, char **argv, int rank, demo_opts *o)
{
    int i;
    o->space[0] = DEMO_X1;
    o->space[1] = DEMO_X2;
    o->space[2] = DEMO_Z;
    o->tile_height = 100;
    o->model = TILE_MODEL_MPI;
    o->threads = 1;
    o->grid[0] = o->grid[1] = 0;
    o->policy = TILE_GRID_COMM;
    o->bal = 1.0;
    o->balance = -1;
    o->order = DEMO_ORDER;      /* the kernel's faster in-tile order */
    o->tcomp = o->tstartup = o->bandwidth = 0.0;
    o->adapt_period = 0;
    o->verify = o->json = 0;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--verify") == 0) {
            o->verify = 1;
            continue;
        }
        if (strcmp(a, "--json") == 0) {
            o->json = 1;
            continue;
        }
        if (strcmp(a, "--help") == 0) {
            demo_usage(rank, "%s", "help");
            return -1;
        }
        if (v == NULL)
            return demo_usage(rank, "option '%s' needs a value (or is unknown)", a);
        i++;
        if (strcmp(a, "--space") == 0) {
            if (demo_parse_list(v, o->space, 3) != 0)
                return demo_usage(rank, "--space '%s': expected X1xX2xZ, three whole numbers >= 1", v);
        } else if (strcmp(a, "--tile-height") == 0) {
            if (demo_parse_list(v, &o->tile_height, 1) != 0)
                return demo_usage(rank, "--tile-height '%s': expected a whole number >= 1", v);
        } else if (strcmp(a, "--threads") == 0) {
            int64_t t;
            if (demo_parse_list(v, &t, 1) != 0 || t > 1024)
                return demo_usage(rank, "--threads '%s': expected a whole number in 1..1024", v);
            o->threads = (int)t;
        } else if (strcmp(a, "--model") == 0) {
            int m;
            for (m = TILE_MODEL_MPI; m <= TILE_MODEL_MULTIPLE; m++)
                if (strcmp(v, tile_model_name(m)) == 0)
                    break;
            if (m > TILE_MODEL_MULTIPLE)
                return demo_usage(rank, "--model '%s': expected mpi, fine, funneled or multiple", v);
            o->model = m;
        } else if (strcmp(a, "--grid") == 0) {
            int64_t g[2];
            if (strcmp(v, "comm") == 0)
                o->policy = TILE_GRID_COMM;
            else if (strcmp(v, "latency") == 0)
                o->policy = TILE_GRID_LATENCY;
            else if (demo_parse_list(v, g, 2) == 0 && g[0] <= INT_MAX && g[1] <= INT_MAX) {
                o->grid[0] = (int)g[0];
                o->grid[1] = (int)g[1];
            } else
                return demo_usage(rank, "--grid '%s': expected comm, latency or AxB", v);
        } else if (strcmp(a, "--bal") == 0) {
            char *end;
            errno = 0;
            o->bal = strtod(v, &end);
            if (errno != 0 || *end != '\0' || !(o->bal >= 0.0 && o->bal <= 1.0))
                return demo_usage(rank, "--bal '%s': expected a number in [0, 1]", v);
        } else if (strcmp(a, "--balance") == 0) {
            static const char *const names[5] = { "fixed", "constant", "variable", "adaptive",
                                                  "none" };
            int b;
            for (b = 0; b < 5; b++)
                if (strcmp(v, names[b]) == 0)
                    break;
            if (b == 5)
                return demo_usage(rank, "--balance '%s': expected none, fixed, constant, "
                                  "variable or adaptive", v);
            o->balance = b;
        } else if (strcmp(a, "--tcomp") == 0 || strcmp(a, "--tstartup") == 0 ||
                   strcmp(a, "--bandwidth") == 0) {
            double x;
            if (bal_parse_double(v, &x) != BAL_OK || !(x > 0.0 || (x == 0.0 && a[3] == 's')))
                return demo_usage(rank, "%s: expected a positive number (seconds, bytes/s)", a);
            if (a[2] == 'b')
                o->bandwidth = x;
            else if (a[3] == 'c')
                o->tcomp = x;
            else
                o->tstartup = x;
        } else if (strcmp(a, "--order") == 0) {
            if (strcmp(v, "planes") == 0)
                o->order = DEMO_ORDER;      /* the kernel's faster in-tile order */
            else if (strcmp(v, "z") == 0)
                o->order = TILE_ORDER_Z_INNER;
            else
                return demo_usage(rank, "--order '%s': expected planes or z", v);
        } else if (strcmp(a, "--adapt-period") == 0) {
            if (demo_parse_list(v, &o->adapt_period, 1) != 0)
                return demo_usage(rank, "--adapt-period '%s': expected a whole number >= 1", v);
        } else {
            return demo_usage(rank, "unknown option '%s'", a);
        }
    }
    if (o->balance == 4) {           /* none */
        if (o->bal != 1.0)
            return demo_usage(rank, "%s", "--balance none contradicts --bal");
        o->balance = TILE_BAL_FIXED;
    }
    if (o->balance < 0)
        o->balance = TILE_BAL_FIXED;
    if (o->balance != TILE_BAL_FIXED && o->model != TILE_MODEL_FUNNELED)
        return demo_usage(rank, "%s", "--balance applies to the funneled model only "
                          "(--model funneled)");
    if (o->model == TILE_MODEL_MPI && o->threads != 1)
        return demo_usage(rank, "--threads %s: the mpi model runs one thread per process; "
                          "use --model fine|funneled|multiple", "> 1");
    return 0;
}

/* --verify: the plain sequential loop, plane by plane (Z outermost: the
 * values are the same in any order that respects the dependences), compared
 * bitwise with every point this rank owns.  Returns mismatches; *ref gets
 * the checksum of the whole space. */
static int64_t demo_verify(const tile_plan *plan, const demo_opts *o, uint64_t *ref)
{
    int64_t X = o->space[0], Y = o->space[1], Z = o->space[2], x, y, z, bad = 0;
    size_t plane = (size_t)(X * Y);
    double *prev = (double *)malloc(sizeof(double) * plane);
    double *cur = (double *)malloc(sizeof(double) * plane);
    uint64_t sum = 0;
    if (prev == NULL || cur == NULL) {
        free(prev);
        free(cur);
        return -1;
    }
    for (x = 0; x < X; x++)
        for (y = 0; y < Y; y++)
            prev[x * Y + y] = demo_g(x, y, -1);
    for (z = 0; z < Z; z++) {
        double *t;
        demo_seq_plane(prev, cur, X, Y, z);
        for (x = 0; x < X; x++)
            for (y = 0; y < Y; y++) {
                int64_t c[3];
                double got;
                c[0] = x;
                c[1] = y;
                c[2] = z;
                sum += demo_bits(cur[x * Y + y]);
                if (tile_get(plan, c, &got) && demo_bits(got) != demo_bits(cur[x * Y + y]))
                    bad++;
            }
        t = prev;
        prev = cur;
        cur = t;
    }
    free(prev);
    free(cur);
    *ref = sum;
    return bad;
}

/* Print `, "key": [v[0], v[stride], ...]` (count values, in format fmt). */
static void demo_json_column(const char *key, const double *v, int stride, int count,
                             const char *fmt)
{
    int r;
    printf(", \"%s\": [", key);
    for (r = 0; r < count; r++) {
        if (r)
            printf(", ");
        printf(fmt, v[(size_t)r * (size_t)stride]);
    }
    printf("]");
}

static void demo_json_stats(const double *all, int size, int T)
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

int main(int argc, char **argv)
{
    demo_opts o;
    tile_config cfg;
    tile_plan plan;
    demo_acc *acc;
    int rank = 0, size = 1, rc, provided, t, T;
    uint64_t sum = 0, total = 0, ref = 0;
    int64_t bad = 0, bad_all = 0, stats[2], stats_max[2], stats_sum[2];
    double *mine, *all = NULL, secs_max, facs[3], *allfacs = NULL;

    /* parse first to know the thread level the model needs; every rank
     * parses the same argv, rank 0 reports after MPI_Init */
    {
        int bad = demo_parse(argc, argv, 0, &o);
        rc = hybrid_init(&argc, &argv, bad ? TILE_MODEL_MPI : o.model, bad ? 1 : o.threads,
                         &provided);
        if (rc == TILE_ERR_MPI) {
            fprintf(stderr, "%s: MPI_Init_thread failed\n", DEMO_NAME);
            return 1;
        }
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        if (bad) {
            if (rank == 0)
                demo_print_usage();
            MPI_Finalize();
            return bad < 0 ? 0 : bad;
        }
    }

    tile_config_init(&cfg, 2);
    cfg.extent[0] = o.space[0];
    cfg.extent[1] = o.space[1];
    cfg.zlen = o.space[2];
    cfg.dep[0] = DEMO_D1;
    cfg.dep[1] = DEMO_D2;
    cfg.depz = DEMO_DEPZ;
    cfg.tile_height = o.tile_height;
    cfg.model = o.model;
    cfg.threads = o.threads;
    cfg.grid[0] = o.grid[0];
    cfg.grid[1] = o.grid[1];
    cfg.grid_policy = o.policy;
    cfg.bal = o.bal;
    cfg.balance = o.balance;
    cfg.tcomp = o.tcomp;
    cfg.tstartup = o.tstartup;
    cfg.bandwidth = o.bandwidth;
    cfg.adapt_period = o.adapt_period;
    cfg.order = o.order;
    cfg.boundary = demo_edge;
    cfg.storage = o.verify ? TILE_STORE_FULL : TILE_STORE_WINDOW;
    if (tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) != TILE_OK) {
        /* every rank gets an error; the rank that found it explains */
        if (plan.err != TILE_ERR_REMOTE)
            fprintf(stderr, "%s: rank %d: %s\n", DEMO_NAME, rank, plan.errmsg);
        tile_plan_destroy(&plan);
        MPI_Finalize();
        return 2;
    }
    T = plan.threads;
    acc = (demo_acc *)calloc((size_t)T, sizeof *acc);
    mine = (double *)malloc(sizeof(double) * 3 * (size_t)T);
    if (rank == 0)
        all = (double *)malloc(sizeof(double) * 3 * (size_t)T * (size_t)size);
    if (acc == NULL || mine == NULL || (rank == 0 && all == NULL)) {
        fprintf(stderr, "%s: out of memory\n", DEMO_NAME);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    demo_run(&plan, acc);
    if (tile_plan_status(&plan) != TILE_OK) {
        fprintf(stderr, "%s: rank %d: run failed: %s\n", DEMO_NAME, rank, plan.errmsg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (t = 0; t < T; t++) {
        sum += acc[t].sum;
        mine[3 * t] = plan.stats[t].compute;
        mine[3 * t + 1] = plan.stats[t].comm;
        mine[3 * t + 2] = plan.stats[t].idle;
    }
    MPI_Reduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&plan.seconds, &secs_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    stats[0] = plan.bytes_sent;
    stats[1] = plan.messages;
    MPI_Reduce(stats, stats_max, 2, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(stats, stats_sum, 2, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Gather(mine, 3 * T, MPI_DOUBLE, all, 3 * T, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    facs[0] = plan.bal_first;
    facs[1] = plan.bal_now;
    facs[2] = (double)plan.bal_changes;
    if (rank == 0)
        allfacs = (double *)malloc(sizeof(double) * 3 * (size_t)size);
    MPI_Gather(facs, 3, MPI_DOUBLE, allfacs, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (o.verify) {
        bad = demo_verify(&plan, &o, &ref);
        MPI_Reduce(&bad, &bad_all, 1, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    }

    if (rank == 0) {
        const char *verdict = !o.verify ? NULL
                              : (bad_all == 0 && ref == total) ? "ok" : "MISMATCH";
        if (o.json) {
            printf("{\"demo\": \"%s\", \"space\": [%lld, %lld, %lld], \"tile_height\": %lld, "
                   "\"model\": \"%s\", \"processes\": %d, \"threads\": %d, \"grid\": [%d, %d], "
                   "\"thread_grid\": [%d, %d], \"order\": \"%s\", \"bal\": %g, \"checksum\": \"%016llx\", "
                   "\"seconds\": %.6f, \"bytes_sent_max\": %lld, \"messages_max\": %lld, "
                   "\"bytes_sent_total\": %lld, \"messages_total\": %lld",
                   DEMO_NAME, (long long)o.space[0], (long long)o.space[1],
                   (long long)o.space[2], (long long)o.tile_height, tile_model_name(o.model),
                   size, T, plan.pdims[0], plan.pdims[1], plan.tdims[0], plan.tdims[1],
                   o.order == TILE_ORDER_Z_INNER ? "z" : "planes", cfg.bal,
                   (unsigned long long)total, secs_max, (long long)stats_max[0],
                   (long long)stats_max[1], (long long)stats_sum[0], (long long)stats_sum[1]);
            demo_json_stats(all, size, T);
            {
                static const char *const bn[5] = { "fixed", "constant", "variable", "adaptive",
                                                   "custom" };
                printf(", \"balance\": \"%s\"", bn[cfg.balance]);
                demo_json_column("bal_start", allfacs, 3, size, "%.4f");
                demo_json_column("bal_end", allfacs + 1, 3, size, "%.4f");
                demo_json_column("bal_changes", allfacs + 2, 3, size, "%.0f");
            }
            if (verdict)
                printf(", \"verify\": \"%s\", \"mismatches\": %lld", verdict, (long long)bad_all);
            printf("}\n");
        } else {
            printf("%s %lldx%lldx%lld, tile height %lld, model %s, %d process%s x %d thread%s, "
                   "grid %dx%d, thread grid %dx%d\n", DEMO_NAME, (long long)o.space[0],
                   (long long)o.space[1], (long long)o.space[2], (long long)o.tile_height,
                   tile_model_name(o.model), size, size == 1 ? "" : "es", T, T == 1 ? "" : "s",
                   plan.pdims[0], plan.pdims[1], plan.tdims[0], plan.tdims[1]);
            printf("checksum %016llx   time %.3f s   max sent per process %lld bytes in %lld "
                   "messages\n", (unsigned long long)total, secs_max, (long long)stats_max[0],
                   (long long)stats_max[1]);
            if (o.model == TILE_MODEL_FUNNELED && T > 1) {
                int r;
                printf("master share factor per process (start -> end):");
                for (r = 0; r < size; r++)
                    printf("  %.3f->%.3f", allfacs[3 * r], allfacs[3 * r + 1]);
                printf("\n");
            }
            printf("rank 0 thread times (compute / comm / idle, s):");
            for (t = 0; t < T; t++)
                printf("  t%d %.3f/%.3f/%.3f", t, all[3 * t], all[3 * t + 1], all[3 * t + 2]);
            printf("\n");
            if (verdict)
                printf("verify: %s (%lld mismatching points against the sequential loop)\n",
                       verdict, (long long)bad_all);
        }
        fflush(stdout);
    }
    free(acc);
    free(mine);
    free(all);
    free(allfacs);
    tile_plan_destroy(&plan);
    MPI_Finalize();
    return (o.verify && rank == 0 && (bad_all != 0 || ref != total)) ? 1 : 0;
}

#endif
