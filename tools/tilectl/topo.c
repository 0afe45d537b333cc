/* tilectl topo -- the communication-optimal process grid (topology.h).
 *
 *   tilectl topo --procs 16 --space 16x256x16384 --deps 1,1
 *
 * prints the grid topo_grid() chooses, what the volume model says about it
 * (topo_report_grid), and the latency-optimal grid of MPI_Dims_create
 * beside it.  See usage() for every option.  Everything is computed before
 * anything is printed, so an error leaves stdout empty. */
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
          "Numbers are plain decimal digits (no spaces, '+' or other bases).\n"
          "Volumes are in elements: volume = Z * sum_i d_i prod_{j!=i}\n"
          "ceil(X_j/P_j) for a process with neighbours in every dimension.\n"
          "Exit status: 0 ok, 2 bad arguments, 1 no grid (infeasible, or a\n"
          "volume beyond 64 bits).\n",
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
    int have_procs;
    topo_policy policy;
    int json;
};

/* A whole number option in 1..INT_MAX; 0 or the exit status. */
static int number_opt(const char *name, const char *val, int64_t *out)
{
    int code = cli_parse_i64(val, 1, INT_MAX, out);
    if (code != TILEHYBRID_OK)
        return cli_error(CMD, "%s: '%s' is not a whole number in 1..2147483647: %s", name, val,
                         tilehybrid_strerror(code));
    return 0;
}

/* A list option: *count entries in [lo, hi]; 0 or the exit status. */
static int list_opt(const char *name, const char *val, const char *seps, int64_t lo,
                    int64_t hi, int max, int64_t *out, int *count, const char *form)
{
    cli_list_error e;
    *count = cli_parse_i64_list(val, seps, lo, hi, out, max, &e);
    if (*count >= 1)
        return 0;
    if (e.entry > 0)
        return cli_error(CMD, "%s: '%s': entry %d %s (%s)", name, val, e.entry, e.why, form);
    return cli_error(CMD, "%s: '%s' %s (%s)", name, val, e.why, form);
}

/* One option with its value; 0 or the exit status. */
static int set_option(struct topo_args *a, const char *name, const char *val)
{
    if (strcmp(name, "--procs") == 0) {
        a->have_procs = 1;
        return number_opt(name, val, &a->procs);
    }
    if (strcmp(name, "--threads") == 0)
        return number_opt(name, val, &a->threads);
    if (strcmp(name, "--space") == 0)
        return list_opt(name, val, "x", 1, INT64_MAX, TOPO_MAX_DIMS + 1, a->space, &a->nspace,
                        "2 to 17 extents 1..9223372036854775807 separated by 'x', Z last");
    if (strcmp(name, "--deps") == 0)
        return list_opt(name, val, ",", 0, INT64_MAX, TOPO_MAX_DIMS, a->deps, &a->ndeps,
                        "whole numbers 0..9223372036854775807 separated by ','");
    if (strcmp(name, "--fixed") == 0)
        return list_opt(name, val, ",", 0, INT_MAX, TOPO_MAX_DIMS, a->fixed, &a->nfixed,
                        "whole numbers 0..2147483647, 0 = free, separated by ','");
    if (strcmp(val, "comm") == 0) /* --policy */
        a->policy = TOPO_POLICY_COMM;
    else if (strcmp(val, "latency") == 0)
        a->policy = TOPO_POLICY_LATENCY;
    else
        return cli_error(CMD, "--policy: '%s' is neither 'comm' nor 'latency'", val);
    return 0;
}

/* The options' counts agree; 0 or the exit status. */
static int check_counts(const struct topo_args *a)
{
    if (!a->have_procs)
        return cli_error(CMD, "--procs is required (see --help)");
    if (a->nspace < 0)
        return cli_error(CMD, "--space is required (see --help)");
    if (a->nspace < 2)
        return cli_error(CMD, "--space: give 2 to %d extents, Z last (X1x...xXNxZ)",
                         TOPO_MAX_DIMS + 1);
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

/* Returns 0, -1 after --help, or the exit status after the message. */
static int parse(int argc, char **argv, struct topo_args *a)
{
    static const char *const names[] = {"--procs", "--space",  "--deps",
                                        "--threads", "--fixed", "--policy"};
    int i, k, rc;
    memset(a, 0, sizeof *a);
    a->nspace = a->ndeps = a->nfixed = -1;
    a->policy = TOPO_POLICY_COMM;
    for (i = 1; i < argc; i++) {
        const char *opt = argv[i], *val, *eq = strchr(opt, '=');
        size_t len = eq ? (size_t)(eq - opt) : strlen(opt);
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
        for (k = 0; k < 6; k++)
            if (strlen(names[k]) == len && strncmp(names[k], opt, len) == 0)
                break;
        if (k == 6)
            return cli_error(CMD, "unknown option '%.*s' (see --help)", (int)len, opt);
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return cli_error(CMD, "%s needs a value", names[k]);
        if ((rc = set_option(a, names[k], val)) != 0)
            return rc;
    }
    return check_counts(a);
}

/* Everything the output shows, computed before any of it is printed. */
struct topo_result {
    int n;
    int64_t zlen, local[TOPO_MAX_DIMS];
    int grid[TOPO_MAX_DIMS], tgrid[TOPO_MAX_DIMS], lat[TOPO_MAX_DIMS];
    topo_report rep, trep;
    int lat_feasible, lat_bad, lat_volume_ok;
    int64_t lat_volume, lat_fill;
    double saving, seconds;
};

/* "2x8": the grid as text, in buf of TOPO_MAX_DIMS * 12 bytes. */
static const char *grid_text(char *buf, const int *d, int n)
{
    size_t len = 0;
    int i;
    for (i = 0; i < n; i++)
        len += (size_t)sprintf(buf + len, "%s%d", i > 0 ? "x" : "", d[i]);
    return buf;
}

/* An overflow, named by the option and the numbers: the search found no
 * grid whose volume per plane fits, or the chosen grid's V * Z or total
 * does not fit.  Returns 1 (no grid). */
static int overflow_error(const tilehybrid_status *st, const struct topo_args *a,
                          const struct topo_result *r, int searched)
{
    char g[TOPO_MAX_DIMS * 12];
    topo_report one;
    if (searched) {
        cli_error(CMD, "--space, --deps: every grid of %lld processes has a volume per plane "
                       "V = sum_i d_i prod_{j != i} ceil(X_j/P_j) beyond 64 bits "
                       "(9223372036854775807)", (long long)a->procs);
        return 1;
    }
    grid_text(g, r->grid, r->n);
    if (strcmp(st->arg, "volume") == 0 &&
        topo_report_grid(r->n, r->grid, a->space, 1, a->deps, &one) == TOPO_OK) {
        cli_error(CMD, "--space: the volume V * Z of grid %s, %lld * %lld elements, does "
                       "not fit in 64 bits (V = sum_i d_i prod_{j != i} ceil(X_j/P_j) per "
                       "plane, Z the last --space entry)",
                  g, (long long)one.volume, (long long)r->zlen);
        return 1;
    }
    cli_error(CMD, "--space, --deps: the %s of grid %s does not fit in 64 bits%s",
              strcmp(st->arg, "total_volume") == 0 ? "total volume" : "volume", g,
              strcmp(st->arg, "total_volume") == 0
                  ? " (Z * sum_i d_i (P_i - 1) prod_{j != i} X_j)"
                  : "");
    return 1;
}

/* Solver error: a message naming the option; 1 for "no grid", else 2. */
static int solve_error(int rc, const tilehybrid_status *st, const struct topo_args *a,
                       const struct topo_result *r, int searched)
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
    if (rc == TOPO_ERR_OVERFLOW)
        return overflow_error(st, a, r, searched);
    if (st->index >= 0 && st->index < r->n)
        cli_error(CMD, "%s (dimension %d): %s", option_of(st->arg),
                  (int)st->index + 1, topo_strerror(rc));
    else
        cli_error(CMD, "%s: %s", option_of(st->arg), topo_strerror(rc));
    return rc == TOPO_ERR_INFEASIBLE ? 1 : 2;
}

/* The latency grid for comparison: it may not fit the extents, and its
 * volume may not fit in 64 bits (then null), neither is an error. */
static int latency_grid(const struct topo_args *a, struct topo_result *r)
{
    topo_report lrep;
    tilehybrid_status st;
    int i, rc;
    for (i = 0; i < r->n; i++)
        r->lat[i] = a->nfixed > 0 ? (int)a->fixed[i] : 0;
    rc = topo_dims_create(a->procs, r->n, r->lat, &st);
    if (rc != TOPO_OK)
        return solve_error(rc, &st, a, r, 0);
    r->lat_feasible = 1;
    r->lat_bad = -1;
    r->lat_fill = 0;
    for (i = 0; i < r->n; i++) {
        r->lat_fill += r->lat[i] - 1;
        if (r->lat[i] > a->space[i] && r->lat_feasible) {
            r->lat_feasible = 0;
            r->lat_bad = i;
        }
    }
    rc = topo_report_grid(r->n, r->lat, a->space, r->zlen, a->deps, &lrep);
    r->lat_volume_ok = r->lat_feasible && rc == TOPO_OK;
    r->lat_volume = r->lat_volume_ok ? lrep.volume : 0;
    r->saving = 0.0;
    if (r->lat_volume_ok && lrep.volume > 0)
        r->saving = 1.0 - (double)r->rep.volume / (double)lrep.volume;
    return 0;
}

/* Step 2: the grid, its report, the latency grid, the thread grid's. */
static int solve(const struct topo_args *a, struct topo_result *r)
{
    tilehybrid_status st;
    int i, rc;
    double t0;
    memset(r, 0, sizeof *r);
    r->n = a->nspace - 1;
    r->zlen = a->space[r->n];
    for (i = 0; i < r->n; i++)
        r->grid[i] = a->nfixed > 0 ? (int)a->fixed[i] : 0;
    t0 = now_seconds();
    if (a->threads > 0)
        rc = topo_hybrid_grid_ex(r->n, a->procs, (int)a->threads, a->space, a->deps, a->policy,
                                 r->grid, r->tgrid, &st);
    else
        rc = topo_grid_ex(r->n, a->procs, a->space, a->deps, a->policy, r->grid, &st);
    r->seconds = now_seconds() - t0;
    if (rc != TOPO_OK)
        return solve_error(rc, &st, a, r, 1);
    rc = topo_report_grid_ex(r->n, r->grid, a->space, r->zlen, a->deps, &r->rep, &st);
    if (rc != TOPO_OK)
        return solve_error(rc, &st, a, r, 0);
    if ((rc = latency_grid(a, r)) != 0)
        return rc;
    if (a->threads > 0) {
        for (i = 0; i < r->n; i++)
            r->local[i] = a->space[i] / r->grid[i] + (a->space[i] % r->grid[i] != 0);
        rc = topo_report_grid_ex(r->n, r->tgrid, r->local, r->zlen, a->deps, &r->trep, &st);
        if (rc != TOPO_OK)
            return solve_error(rc, &st, a, r, 0);
    }
    return 0;
}

static void print_json(const struct topo_args *a, const struct topo_result *r)
{
    int n = r->n;
    printf("{\"procs\":%lld,\"space\":", (long long)a->procs);
    cli_print_i64s(stdout, a->space, a->nspace, NULL);
    printf(",\"deps\":");
    cli_print_i64s(stdout, a->deps, n, NULL);
    printf(",\"policy\":");
    cli_json_string(stdout, a->policy == TOPO_POLICY_COMM ? "comm" : "latency");
    printf(",\"grid\":");
    print_grid(stdout, r->grid, n, NULL);
    printf(",\"volume\":%lld,\"volume_sent\":%lld,\"total_volume\":%lld,"
           "\"messages\":%d,\"fill_steps\":%lld",
           (long long)r->rep.volume, (long long)r->rep.volume_sent,
           (long long)r->rep.total_volume, r->rep.messages, (long long)r->rep.fill_steps);
    printf(",\"latency_grid\":");
    print_grid(stdout, r->lat, n, NULL);
    printf(",\"latency_feasible\":%s", r->lat_feasible ? "true" : "false");
    if (r->lat_volume_ok)
        printf(",\"latency_volume\":%lld,\"latency_fill_steps\":%lld,\"saving\":%.6f",
               (long long)r->lat_volume, (long long)r->lat_fill, r->saving);
    else
        printf(",\"latency_volume\":null,\"latency_fill_steps\":%lld,\"saving\":null",
               (long long)r->lat_fill);
    if (a->threads > 0) {
        printf(",\"threads\":%lld,\"thread_grid\":", (long long)a->threads);
        print_grid(stdout, r->tgrid, n, NULL);
        printf(",\"thread_block\":");
        cli_print_i64s(stdout, r->local, n, NULL);
        printf(",\"thread_volume\":%lld", (long long)r->trep.volume);
    }
    printf(",\"solve_seconds\":%.9f}\n", r->seconds);
}

static void print_latency_text(const struct topo_args *a, const struct topo_result *r)
{
    printf("latency_grid ");
    print_grid(stdout, r->lat, r->n, "x");
    if (!r->lat_feasible) {
        printf("    balanced, as MPI_Dims_create -- infeasible: %d processes "
               "along dimension %d of extent %lld\n",
               r->lat[r->lat_bad], r->lat_bad + 1, (long long)a->space[r->lat_bad]);
    } else if (!r->lat_volume_ok) {
        printf("    balanced, as MPI_Dims_create -- its volume does not fit in 64 bits\n");
    } else {
        printf("    balanced, as MPI_Dims_create\n");
        printf("latency_volume %lld\n", (long long)r->lat_volume);
    }
    printf("latency_fill_steps %lld\n", (long long)r->lat_fill);
    if (r->lat_volume_ok)
        printf("saving %.1f%%    of the latency grid's volume\n", 100.0 * r->saving);
}

static void print_text(const struct topo_args *a, const struct topo_result *r)
{
    int n = r->n;
    printf("%lld processes, space ", (long long)a->procs);
    cli_print_i64s(stdout, a->space, a->nspace, "x");
    printf(" (Z = %lld pipelined), deps ", (long long)r->zlen);
    cli_print_i64s(stdout, a->deps, n, ",");
    printf("\ngrid ");
    print_grid(stdout, r->grid, n, "x");
    printf("    %s\n", a->policy == TOPO_POLICY_COMM ? "communication-optimal (least volume)"
                                                      : "latency-optimal (policy latency)");
    printf("volume %lld    elements per process with neighbours in every "
           "dimension (V*Z)\n", (long long)r->rep.volume);
    printf("volume_sent %lld    elements sent by process 0, the largest block\n",
           (long long)r->rep.volume_sent);
    printf("total_volume %lld    elements sent by all processes together\n",
           (long long)r->rep.total_volume);
    printf("messages %d    per tile of an inner process\n", r->rep.messages);
    printf("fill_steps %lld    tile steps before the last process starts\n",
           (long long)r->rep.fill_steps);
    print_latency_text(a, r);
    if (a->threads > 0) {
        printf("thread_grid ");
        print_grid(stdout, r->tgrid, n, "x");
        printf("    %lld threads over the block ", (long long)a->threads);
        cli_print_i64s(stdout, r->local, n, "x");
        printf("\nthread_volume %lld    elements per thread with neighbours "
               "in every dimension\n", (long long)r->trep.volume);
    }
    printf("solve_seconds %.9f\n", r->seconds);
}

int tilectl_topo(int argc, char **argv)
{
    struct topo_args a;
    struct topo_result r;
    int rc = parse(argc, argv, &a);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    rc = solve(&a, &r);
    if (rc != 0)
        return rc;
    if (a.json)
        print_json(&a, &r);
    else
        print_text(&a, &r);
    return cli_finish_output(CMD);
}
