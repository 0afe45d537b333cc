/* tilectl topo -- the communication-optimal process grid (topology.h).
 *
 *   tilectl topo --procs 16 --space 16x256x16384 --deps 1,1
 *
 * prints the grid topo_grid() chooses, what the volume model says about it
 * (topo_report_grid), and the latency-optimal grid of MPI_Dims_create
 * beside it.  See usage() for every option. */
#define _POSIX_C_SOURCE 199309L
#define TILEHYBRID_NO_MPI

#include "cli.h"

#include <limits.h>
#include <time.h>

#include "topology.h"

#define CMD "topo"

static void usage(FILE *f)
{
    fputs("usage: tilectl topo --procs P --space X1x...xXNxZ --deps d1,...,dN\n"
          "                    [--threads T] [--fixed a1,...,aN]\n"
          "                    [--policy comm|latency] [--json]\n"
          "\n"
          "Chooses the P1 x ... x PN process grid (product P) for a loop nest\n"
          "over X1 x ... x XN x Z (Z is pipelined, the last --space entry)\n"
          "whose dependences reach d_i planes back along dimension i.\n"
          "  --procs P      number of processes, 1..2147483647\n"
          "  --space S      extents, 'x'-separated; the last one is Z\n"
          "  --deps D       N dependence widths (>= 0), ','-separated\n"
          "  --threads T    also choose a T1 x ... x TN thread grid inside\n"
          "                 each process's block (hybrid MPI+OpenMP)\n"
          "  --fixed F      N entries: 0 = free, > 0 = keep this P_i\n"
          "  --policy comm  minimal communication volume (default)\n"
          "  --policy latency  the balanced grid of MPI_Dims_create\n"
          "  --json         one JSON object instead of text\n"
          "Volumes are in elements: volume = Z * sum_i d_i prod_{j!=i}\n"
          "ceil(X_j/P_j) for a process with neighbours in every dimension.\n"
          "Exit status: 0 ok, 2 bad arguments, 1 no grid (infeasible or\n"
          "overflow).\n",
          f);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The option a tilehybrid_status argument name came from. */
static const char *option_of(const char *arg)
{
    if (strcmp(arg, "extent") == 0 || strcmp(arg, "zlen") == 0)
        return "--space";
    if (strcmp(arg, "dep") == 0)
        return "--deps";
    if (strcmp(arg, "dims") == 0)
        return "--fixed";
    if (strcmp(arg, "threads") == 0 || strcmp(arg, "tdims") == 0)
        return "--threads";
    if (strcmp(arg, "procs") == 0)
        return "--procs";
    return "arguments";
}

static void print_grid(FILE *f, const int *d, int n, const char *sep)
{
    int64_t v[TOPO_MAX_DIMS];
    int i;
    for (i = 0; i < n; i++)
        v[i] = d[i];
    cli_print_i64s(f, v, n, sep);
}

/* Options as parsed. */
struct topo_args {
    int64_t procs, threads;
    int64_t space[TOPO_MAX_DIMS + 1], deps[TOPO_MAX_DIMS];
    int64_t fixed[TOPO_MAX_DIMS];
    int nspace, ndeps, nfixed; /* -1: not given */
    topo_policy policy;
    int json;
};

/* Returns 0, or the exit status after printing the message. */
static int parse(int argc, char **argv, struct topo_args *a)
{
    int i, have_procs = 0;
    a->threads = 0;
    a->nspace = a->ndeps = a->nfixed = -1;
    a->policy = TOPO_POLICY_COMM;
    a->json = 0;
    for (i = 1; i < argc; i++) {
        const char *opt = argv[i], *val = NULL, *eq;
        char name[32];
        size_t len;
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            usage(stdout);
            return -1;
        }
        if (strcmp(opt, "--json") == 0) {
            a->json = 1;
            continue;
        }
        if (strncmp(opt, "--", 2) != 0)
            return cli_error(CMD, "unexpected argument '%s' (see --help)", opt);
        eq = strchr(opt, '=');
        len = eq ? (size_t)(eq - opt) : strlen(opt);
        if (len >= sizeof name)
            return cli_error(CMD, "unknown option '%s' (see --help)", opt);
        memcpy(name, opt, len);
        name[len] = '\0';
        if (strcmp(name, "--procs") && strcmp(name, "--space") &&
            strcmp(name, "--deps") && strcmp(name, "--threads") &&
            strcmp(name, "--fixed") && strcmp(name, "--policy"))
            return cli_error(CMD, "unknown option '%s' (see --help)", name);
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return cli_error(CMD, "%s needs a value", name);
        if (strcmp(name, "--procs") == 0) {
            if (cli_parse_i64(val, 1, INT_MAX, &a->procs) != 0)
                return cli_error(CMD, "--procs: '%s' is not a whole number "
                                      "in 1..2147483647", val);
            have_procs = 1;
        } else if (strcmp(name, "--threads") == 0) {
            if (cli_parse_i64(val, 1, INT_MAX, &a->threads) != 0)
                return cli_error(CMD, "--threads: '%s' is not a whole "
                                      "number in 1..2147483647", val);
        } else if (strcmp(name, "--space") == 0) {
            a->nspace = cli_parse_i64_list(val, "x", 1, INT64_MAX, a->space,
                                           TOPO_MAX_DIMS + 1);
            if (a->nspace < 2)
                return cli_error(CMD, "--space: '%s' must be 2 to %d extents "
                                      ">= 1 separated by 'x' (X1x...xXNxZ)",
                                 val, TOPO_MAX_DIMS + 1);
        } else if (strcmp(name, "--deps") == 0) {
            a->ndeps = cli_parse_i64_list(val, ",", 0, INT64_MAX, a->deps,
                                          TOPO_MAX_DIMS);
            if (a->ndeps < 1)
                return cli_error(CMD, "--deps: '%s' must be whole numbers "
                                      ">= 0 separated by ','", val);
        } else if (strcmp(name, "--fixed") == 0) {
            a->nfixed = cli_parse_i64_list(val, ",", 0, INT_MAX, a->fixed,
                                           TOPO_MAX_DIMS);
            if (a->nfixed < 1)
                return cli_error(CMD, "--fixed: '%s' must be whole numbers "
                                      ">= 0 (0 = free) separated by ','", val);
        } else { /* --policy */
            if (strcmp(val, "comm") == 0)
                a->policy = TOPO_POLICY_COMM;
            else if (strcmp(val, "latency") == 0)
                a->policy = TOPO_POLICY_LATENCY;
            else
                return cli_error(CMD, "--policy: '%s' is neither 'comm' nor "
                                      "'latency'", val);
        }
    }
    if (!have_procs)
        return cli_error(CMD, "--procs is required (see --help)");
    if (a->nspace < 0)
        return cli_error(CMD, "--space is required (see --help)");
    if (a->ndeps < 0)
        return cli_error(CMD, "--deps is required (see --help)");
    if (a->ndeps != a->nspace - 1)
        return cli_error(CMD, "--deps has %d entr%s but --space has %d "
                              "extents: give one width per extent except Z "
                              "(%d)", a->ndeps, a->ndeps == 1 ? "y" : "ies",
                         a->nspace, a->nspace - 1);
    if (a->nfixed >= 0 && a->nfixed != a->nspace - 1)
        return cli_error(CMD, "--fixed has %d entr%s, --space needs %d "
                              "(one per extent except Z)", a->nfixed,
                         a->nfixed == 1 ? "y" : "ies", a->nspace - 1);
    return 0;
}

/* Solver error: a message naming the option; 1 for "no grid", else 2. */
static int solve_error(int rc, const tilehybrid_status *st, int n,
                       const struct topo_args *a)
{
    if (rc == TOPO_ERR_INFEASIBLE && strcmp(st->arg, "threads") == 0) {
        cli_error(CMD, "--threads: no grid of %lld threads fits the block of "
                       "one process (T_i <= its extent in every dimension)",
                  (long long)a->threads);
        return 1;
    }
    if (rc == TOPO_ERR_INFEASIBLE && strcmp(st->arg, "procs") == 0) {
        cli_error(CMD, "--procs: no grid of %lld processes fits the space "
                       "(it needs P_i <= X_i in every dimension)",
                  (long long)a->procs);
        return 1;
    }
    if (st->index >= 0 && st->index < n)
        cli_error(CMD, "%s (dimension %d): %s", option_of(st->arg),
                  (int)st->index + 1, topo_strerror(rc));
    else
        cli_error(CMD, "%s: %s", option_of(st->arg), topo_strerror(rc));
    return rc == TOPO_ERR_INFEASIBLE || rc == TOPO_ERR_OVERFLOW ? 1 : 2;
}

int tilectl_topo(int argc, char **argv)
{
    struct topo_args a;
    int n, i, rc, grid[TOPO_MAX_DIMS], tgrid[TOPO_MAX_DIMS];
    int lat[TOPO_MAX_DIMS];
    int64_t zlen, local[TOPO_MAX_DIMS];
    topo_report rep, lrep, trep;
    tilehybrid_status st;
    double t0, t1, saving = 0.0;
    int lat_ok;

    rc = parse(argc, argv, &a);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    n = a.nspace - 1;
    zlen = a.space[n];
    for (i = 0; i < n; i++) {
        grid[i] = a.nfixed > 0 ? (int)a.fixed[i] : 0;
        tgrid[i] = 0;
        lat[i] = grid[i];
    }

    t0 = now_seconds();
    if (a.threads > 0)
        rc = topo_hybrid_grid_ex(n, a.procs, (int)a.threads, a.space, a.deps,
                                 a.policy, grid, tgrid, &st);
    else
        rc = topo_grid_ex(n, a.procs, a.space, a.deps, a.policy, grid, &st);
    t1 = now_seconds();
    if (rc != TOPO_OK)
        return solve_error(rc, &st, n, &a);

    rc = topo_report_grid_ex(n, grid, a.space, zlen, a.deps, &rep, &st);
    if (rc != TOPO_OK)
        return solve_error(rc, &st, n, &a);
    /* the latency grid for comparison; it may not fit the extents */
    rc = topo_dims_create(a.procs, n, lat, &st);
    if (rc == TOPO_OK)
        rc = topo_report_grid_ex(n, lat, a.space, zlen, a.deps, &lrep, &st);
    if (rc != TOPO_OK)
        return solve_error(rc, &st, n, &a);
    lat_ok = lrep.feasible;
    if (lat_ok && lrep.volume > 0)
        saving = 1.0 - (double)rep.volume / (double)lrep.volume;
    if (a.threads > 0) {
        for (i = 0; i < n; i++)
            local[i] = a.space[i] / grid[i] + (a.space[i] % grid[i] != 0);
        rc = topo_report_grid_ex(n, tgrid, local, zlen, a.deps, &trep, &st);
        if (rc != TOPO_OK)
            return solve_error(rc, &st, n, &a);
    }

    if (a.json) {
        printf("{\"procs\":%lld,\"space\":", (long long)a.procs);
        cli_print_i64s(stdout, a.space, a.nspace, NULL);
        printf(",\"deps\":");
        cli_print_i64s(stdout, a.deps, n, NULL);
        printf(",\"policy\":");
        cli_json_string(stdout, a.policy == TOPO_POLICY_COMM ? "comm"
                                                             : "latency");
        printf(",\"grid\":");
        print_grid(stdout, grid, n, NULL);
        printf(",\"volume\":%lld,\"volume_sent\":%lld,\"total_volume\":%lld,"
               "\"messages\":%d,\"fill_steps\":%lld",
               (long long)rep.volume, (long long)rep.volume_sent,
               (long long)rep.total_volume, rep.messages,
               (long long)rep.fill_steps);
        printf(",\"latency_grid\":");
        print_grid(stdout, lat, n, NULL);
        printf(",\"latency_feasible\":%s", lat_ok ? "true" : "false");
        if (lat_ok)
            printf(",\"latency_volume\":%lld,\"latency_fill_steps\":%lld,"
                   "\"saving\":%.6f",
                   (long long)lrep.volume, (long long)lrep.fill_steps, saving);
        else
            printf(",\"latency_volume\":null,\"latency_fill_steps\":%lld,"
                   "\"saving\":null",
                   (long long)lrep.fill_steps);
        if (a.threads > 0) {
            printf(",\"threads\":%lld,\"thread_grid\":", (long long)a.threads);
            print_grid(stdout, tgrid, n, NULL);
            printf(",\"thread_block\":");
            cli_print_i64s(stdout, local, n, NULL);
            printf(",\"thread_volume\":%lld", (long long)trep.volume);
        }
        printf(",\"solve_seconds\":%.9f}\n", t1 - t0);
        return 0;
    }

    printf("%lld processes, space ", (long long)a.procs);
    cli_print_i64s(stdout, a.space, a.nspace, "x");
    printf(" (Z = %lld pipelined), deps ", (long long)zlen);
    cli_print_i64s(stdout, a.deps, n, ",");
    printf("\ngrid ");
    print_grid(stdout, grid, n, "x");
    printf("    %s\n", a.policy == TOPO_POLICY_COMM
                           ? "communication-optimal (least volume)"
                           : "latency-optimal (policy latency)");
    printf("volume %lld    elements per process with neighbours in every "
           "dimension (V*Z)\n", (long long)rep.volume);
    printf("volume_sent %lld    elements sent by process 0, the largest "
           "block\n", (long long)rep.volume_sent);
    printf("total_volume %lld    elements sent by all processes together\n",
           (long long)rep.total_volume);
    printf("messages %d    per tile of an inner process\n", rep.messages);
    printf("fill_steps %lld    tile steps before the last process starts\n",
           (long long)rep.fill_steps);
    printf("latency_grid ");
    print_grid(stdout, lat, n, "x");
    if (lat_ok) {
        printf("    balanced, as MPI_Dims_create\n");
        printf("latency_volume %lld\n", (long long)lrep.volume);
        printf("latency_fill_steps %lld\n", (long long)lrep.fill_steps);
        printf("saving %.1f%%    of the latency grid's volume\n",
               100.0 * saving);
    } else {
        printf("    balanced, as MPI_Dims_create -- infeasible: %d processes "
               "along dimension %d of extent %lld\n",
               lat[lrep.bad_index], lrep.bad_index + 1,
               (long long)a.space[lrep.bad_index]);
        printf("latency_fill_steps %lld\n", (long long)lrep.fill_steps);
    }
    if (a.threads > 0) {
        printf("thread_grid ");
        print_grid(stdout, tgrid, n, "x");
        printf("    %lld threads over the block ", (long long)a.threads);
        cli_print_i64s(stdout, local, n, "x");
        printf("\nthread_volume %lld    elements per thread with neighbours "
               "in every dimension\n", (long long)trep.volume);
    }
    printf("solve_seconds %.9f\n", t1 - t0);
    return 0;
}
