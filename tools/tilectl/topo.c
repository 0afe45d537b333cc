/* tilectl topo -- process grids (topology.h): the least volume, the
 * balanced grid, or the least predicted time.
 *
 *   tilectl topo --procs 16 --space 16x256x16384 --deps 1,1
 *   tilectl topo --procs 4 --space 64x64x1000 --stencil "-1,-1,0 -1,0,0 0,-1,0"
 *   tilectl topo --procs 4 --space 4094x4094x100 \
 *                --stencil "-1,-1,0 -1,0,0 -1,1,0 0,-1,0 0,0,-1 0,1,-1 1,-1,-1 1,0,-1 1,1,-1"
 *   tilectl topo --procs 1024 --space 64x1024x2048 --deps 1,1 --policy time \
 *                --tile-height 64 --tcomp 6.4e-9 --tstartup 1e-6 --bandwidth 12.5e9
 *
 * prints the grid topo_nest_grid() chooses, what the volume and pipeline
 * models say about it (topo_nest_report), and the balanced grid of
 * MPI_Dims_create and the volume-optimal grid beside it.  See usage() for
 * every option.  Everything is computed before anything is printed, so an
 * error leaves stdout empty. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#define TILEHYBRID_NO_MPI

#include "cli.h"

#include <limits.h>
#include <time.h>

#include "topology.h"

#define CMD "topo"
/* Most offset vectors --stencil takes (tiling.h takes 32). */
#define MAX_VECS 64

static void usage(FILE *f)
{
    fputs("usage: tilectl topo --procs P --space X1x...xXNxZ\n"
          "                    (--deps d1,...,dN |\n"
          "                     --stencil \"o1,...,oN,oZ ...\" [--dir s1,...,sN,sZ]\n"
          "                     [--loop-order l1,...,lN+1])\n"
          "                    [--threads T] [--fixed a1,...,aN]\n"
          "                    [--policy comm|latency|time] [--tile-height z]\n"
          "                    [--tcomp S] [--tstartup S] [--bandwidth B]\n"
          "                    [--elem-bytes E] [--json]\n"
          "\n"
          "Chooses the P1 x ... x PN process grid (product P) for a loop nest\n"
          "over X1 x ... x XN x Z (Z is pipelined, the last --space entry).\n"
          "  --procs P      number of processes, 1..2147483647\n"
          "  --space S      extents, 'x'-separated; the last one is Z\n"
          "  --deps D       N dependence widths (>= 0), ','-separated: the body\n"
          "                 reads d_i planes back along dimension i\n"
          "  --stencil V    instead of --deps: the offset vectors the body reads,\n"
          "                 N+1 components each (Z last), vectors separated by\n"
          "                 spaces, as tiling.h's tile_config_stencil(); the widths\n"
          "                 and the extended faces of diagonal reads follow from it;\n"
          "                 a vector that reads a later point along a dimension (a\n"
          "                 sweep in time reading x+1 of the previous sweep) is\n"
          "                 skewed as tiling.h's plan skews it, and the grid is for\n"
          "                 the skewed space (the text and JSON show it)\n"
          "  --dir D        with --stencil: N+1 loop directions, 1 (upward,\n"
          "                 default) or -1 (downward)\n"
          "  --loop-order L with --stencil: the sequential loop nest, outermost\n"
          "                 first, as dimension numbers 1..N+1 (N+1 is Z); default\n"
          "                 Z outermost, then 1..N (cfg.loop_order's default)\n"
          "  --threads T    also choose a T1 x ... x TN thread grid inside\n"
          "                 each process's block (hybrid MPI+OpenMP)\n"
          "  --fixed F      N entries: 0 = free, > 0 = keep this P_i (of the\n"
          "                 skewed space's dimensions when the stencil is skewed)\n"
          "  --policy comm  minimal communication volume (default)\n"
          "  --policy latency  the balanced grid of MPI_Dims_create\n"
          "  --policy time  minimal predicted time of the pipeline model:\n"
          "                 fill steps, messages and volume at the tile height\n"
          "  --tile-height z   tile height along Z (default 100)\n"
          "  --tcomp S      seconds per point update (default 288e-9)\n"
          "  --tstartup S   seconds per message (default 107e-6)\n"
          "  --bandwidth B  bytes per second (default 10e6)\n"
          "  --elem-bytes E bytes per element (default 8)\n"
          "                 (the defaults are the papers' cluster: FastEthernet,\n"
          "                 Pentium III, doubles; the text shows the model's\n"
          "                 predictions with --policy time or any of these five\n"
          "                 options, --json always)\n"
          "  --json         one JSON object instead of text\n"
          "Numbers are plain decimal digits (no spaces, '+' or other bases).\n"
          "Volumes are in elements: volume = Z * sum_i d_i prod_{j<i} (c_j +\n"
          "ext_ij) prod_{j>i} c_j, c_j = ceil(X_j/P_j), for a process with\n"
          "neighbours in every dimension (ext_ij > 0 only for diagonal reads).\n"
          "The pipeline model: predicted_seconds = (ceil(Z/z) + sum_i (P_i - 1))\n"
          "* (z tcomp prod_j c_j + m tstartup + z elem_bytes S / bandwidth), m\n"
          "and S the messages and face elements per plane a block sends.\n"
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
    static const char *const map[][2] = {
        {"extent", "--space"},          {"zlen", "--space"},
        {"dep", "--deps"},              {"dims", "--fixed"},
        {"threads", "--threads"},       {"tdims", "--threads"},
        {"procs", "--procs"},           {"stencil", "--stencil"},
        {"ext", "--stencil"},           {"nvec", "--stencil"},
        {"dir", "--dir"},               {"tile_height", "--tile-height"},
        {"tcomp", "--tcomp"},           {"tstartup", "--tstartup"},
        {"bandwidth", "--bandwidth"},   {"elem_bytes", "--elem-bytes"}};
    size_t i;
    for (i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(arg, map[i][0]) == 0)
            return map[i][1];
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
    int64_t fixed[TOPO_MAX_DIMS], dir[TOPO_MAX_DIMS + 1], order[TOPO_MAX_DIMS + 1];
    int nspace, ndeps, nfixed, ndir, norder; /* -1: not given */
    const char *stencil_text;        /* NULL: not given */
    int stencil[MAX_VECS][TOPO_MAX_DIMS + 1], nvec;
    int have_procs;
    int model_asked; /* --policy time or a cost option: the text shows it */
    topo_policy policy;
    int64_t tile_height;
    double tcomp, tstartup, bandwidth, elem_bytes;
    int json;
};

static const char *policy_name(topo_policy p)
{
    return p == TOPO_POLICY_COMM ? "comm" : p == TOPO_POLICY_LATENCY ? "latency" : "time";
}

/* --policy; 0 or the exit status. */
static int policy_opt(struct topo_args *a, const char *val)
{
    int p;
    for (p = TOPO_POLICY_COMM; p <= TOPO_POLICY_TIME; p++)
        if (strcmp(val, policy_name((topo_policy)p)) == 0) {
            a->policy = (topo_policy)p;
            return 0;
        }
    return cli_error(CMD, "--policy: '%s' is not 'comm', 'latency' or 'time'", val);
}

/* The options, each with a value (cli_options; --json is common). */
static const char *const topo_names[] = {
    "--procs",  "--space",       "--deps",  "--threads",  "--fixed",
    "--policy", "--stencil",     "--dir",   "--tile-height", "--tcomp",
    "--tstartup", "--bandwidth", "--elem-bytes", "--loop-order"};

/* One option with its value; 0 or the exit status. */
static int set_option(void *args, int k, const char *val)
{
    struct topo_args *a = (struct topo_args *)args;
    const char *name = topo_names[k];
    if (strcmp(name, "--procs") == 0) {
        a->have_procs = 1;
        return cli_whole_opt(CMD, name, val, 1, INT_MAX, &a->procs);
    }
    if (strcmp(name, "--threads") == 0)
        return cli_whole_opt(CMD, name, val, 1, INT_MAX, &a->threads);
    if (strcmp(name, "--space") == 0)
        return cli_list_opt(CMD, name, val, "x", 1, INT64_MAX, TOPO_MAX_DIMS + 1, a->space,
                            &a->nspace, "2 to 17 extents 1..9223372036854775807 separated "
                            "by 'x', Z last");
    if (strcmp(name, "--deps") == 0)
        return cli_list_opt(CMD, name, val, ",", 0, INT64_MAX, TOPO_MAX_DIMS, a->deps, &a->ndeps,
                            "whole numbers 0..9223372036854775807 separated by ','");
    if (strcmp(name, "--fixed") == 0)
        return cli_list_opt(CMD, name, val, ",", 0, INT_MAX, TOPO_MAX_DIMS, a->fixed, &a->nfixed,
                            "whole numbers 0..2147483647, 0 = free, separated by ','");
    if (strcmp(name, "--dir") == 0)
        return cli_list_opt(CMD, name, val, ",", -1, 1, TOPO_MAX_DIMS + 1, a->dir, &a->ndir,
                            "1 or -1 per dimension, Z last, separated by ','");
    if (strcmp(name, "--loop-order") == 0)
        return cli_list_opt(CMD, name, val, ",", 1, TOPO_MAX_DIMS + 1, TOPO_MAX_DIMS + 1,
                            a->order, &a->norder, "dimension numbers 1..N+1, N+1 is Z, "
                            "outermost first, separated by ','");
    if (strcmp(name, "--stencil") == 0) {
        a->stencil_text = val;
        return 0;
    }
    a->model_asked |= strcmp(name, "--policy") != 0; /* the cost options below */
    if (strcmp(name, "--tile-height") == 0) {
        int code = cli_parse_i64(val, 1, INT64_MAX, &a->tile_height);
        return code == TILEHYBRID_OK ? 0 : cli_error(CMD, "--tile-height: '%s' is not a whole "
                                                     "number >= 1: %s", val,
                                                     tilehybrid_strerror(code));
    }
    if (strcmp(name, "--tcomp") == 0)
        return cli_real_opt(CMD, name, val, &a->tcomp);
    if (strcmp(name, "--tstartup") == 0)
        return cli_real_opt(CMD, name, val, &a->tstartup);
    if (strcmp(name, "--bandwidth") == 0)
        return cli_real_opt(CMD, name, val, &a->bandwidth);
    if (strcmp(name, "--elem-bytes") == 0)
        return cli_real_opt(CMD, name, val, &a->elem_bytes);
    return policy_opt(a, val); /* --policy */
}

/* --stencil's text: vectors separated by blanks, each of n + 1 components
 * separated by ','; 0 or the exit status. */
static int parse_stencil(struct topo_args *a, int n)
{
    const char *p = a->stencil_text;
    char vec[512];
    a->nvec = 0;
    for (;;) {
        int64_t v[TOPO_MAX_DIMS + 2];
        size_t len;
        int count, i, rc;
        p += strspn(p, " \t\n");
        if (*p == '\0')
            break;
        len = strcspn(p, " \t\n");
        if (a->nvec == MAX_VECS || len >= sizeof vec)
            return cli_error(CMD, "--stencil: at most %d vectors of at most %d characters",
                             MAX_VECS, (int)sizeof vec - 1);
        memcpy(vec, p, len);
        vec[len] = '\0';
        p += len;
        rc = cli_list_opt(CMD, "--stencil", vec, ",", -(1 << 30), 1 << 30, TOPO_MAX_DIMS + 2, v,
                          &count, "whole numbers -1073741824..1073741824 separated by ','");
        if (rc != 0)
            return rc;
        if (count != n + 1)
            return cli_error(CMD, "--stencil: vector %d '%s' has %d component%s; give %d, one "
                             "per --space extent (Z last)", a->nvec + 1, vec, count,
                             count == 1 ? "" : "s", n + 1);
        for (i = 0; i <= n; i++)
            a->stencil[a->nvec][i] = (int)v[i];
        a->nvec++;
    }
    if (a->nvec == 0)
        return cli_error(CMD, "--stencil: give at least one vector, e.g. \"-1,-1,0 -1,0,0\"");
    return 0;
}

/* --deps or --stencil, and --dir; 0 or the exit status. */
static int check_deps(struct topo_args *a)
{
    int n = a->nspace - 1;
    if (a->ndeps >= 0 && a->stencil_text != NULL)
        return cli_error(CMD, "give --deps or --stencil, not both");
    if (a->ndir >= 0 && a->stencil_text == NULL)
        return cli_error(CMD, "--dir needs --stencil (directions say how to read its vectors)");
    if (a->norder >= 0 && a->stencil_text == NULL)
        return cli_error(CMD, "--loop-order needs --stencil (the order says which of its reads "
                         "are earlier)");
    if (a->stencil_text != NULL) {
        if (a->ndir >= 0 && a->ndir != n + 1)
            return cli_error(CMD, "--dir has %d entr%s, --space needs %d (one per extent, Z "
                             "last)", a->ndir, a->ndir == 1 ? "y" : "ies", n + 1);
        return parse_stencil(a, n);
    }
    if (a->ndeps < 0)
        return cli_error(CMD, "--deps (or --stencil) is required (see --help)");
    if (a->ndeps != n)
        return cli_error(CMD, "--deps has %d entr%s but --space has %d "
                              "extents: give one width per extent except Z "
                              "(%d)", a->ndeps, a->ndeps == 1 ? "y" : "ies",
                         a->nspace, n);
    return 0;
}

/* The options' counts agree; 0 or the exit status. */
static int check_counts(struct topo_args *a)
{
    int rc;
    if (!a->have_procs)
        return cli_error(CMD, "--procs is required (see --help)");
    if (a->nspace < 0)
        return cli_error(CMD, "--space is required (see --help)");
    if (a->nspace < 2)
        return cli_error(CMD, "--space: give 2 to %d extents, Z last (X1x...xXNxZ)",
                         TOPO_MAX_DIMS + 1);
    if ((rc = check_deps(a)) != 0)
        return rc;
    if (a->nfixed >= 0 && a->nfixed != a->nspace - 1)
        return cli_error(CMD, "--fixed has %d entr%s, --space needs %d "
                              "(one per extent except Z)", a->nfixed,
                         a->nfixed == 1 ? "y" : "ies", a->nspace - 1);
    return 0;
}

/* The defaults of every option that has one (the cost model's:
 * topology.h's, as topo_nest_init() sets them). */
static const struct topo_args topo_defaults = {
    .nspace = -1, .ndeps = -1, .nfixed = -1, .ndir = -1, .norder = -1,
    .policy = TOPO_POLICY_COMM,
    .tile_height = TOPO_DEFAULT_TILE_HEIGHT, .tcomp = TOPO_DEFAULT_TCOMP,
    .tstartup = TOPO_DEFAULT_TSTARTUP, .bandwidth = TOPO_DEFAULT_BANDWIDTH,
    .elem_bytes = TOPO_DEFAULT_ELEM_BYTES
};

/* Returns 0, -1 after --help, or the exit status after the message. */
static int parse(int argc, char **argv, struct topo_args *a)
{
    static const int n = (int)(sizeof topo_names / sizeof topo_names[0]);
    const cli_options opts = { CMD, topo_names, n, n, usage, set_option };
    int rc;
    *a = topo_defaults;
    rc = cli_parse_options(&opts, argc, argv, a, &a->json);
    return rc != 0 ? rc : check_counts(a);
}

/* Everything the output shows, computed before any of it is printed. */
struct topo_result {
    int n;
    topo_nest nest;
    cli_skew skew;   /* skew.skewed: the grid is for the skewed space */
    int64_t zlen, local[TOPO_MAX_DIMS];
    const int64_t *space;   /* the extents the grid divides (skewed or --space) */
    int grid[TOPO_MAX_DIMS], tgrid[TOPO_MAX_DIMS], lat[TOPO_MAX_DIMS];
    int comm[TOPO_MAX_DIMS];
    topo_report rep, trep, lrep, crep;
    int lat_feasible, lat_bad, lat_volume_ok, comm_ok;
    int64_t lat_fill;
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
    topo_nest plane = r->nest;
    if (searched) {
        cli_error(CMD, "--space, --deps: every grid of %lld processes has a volume per plane "
                       "V = sum_i d_i prod_{j != i} ceil(X_j/P_j) beyond 64 bits "
                       "(9223372036854775807)", (long long)a->procs);
        return 1;
    }
    grid_text(g, r->grid, r->n);
    plane.zlen = 1;
    if (strcmp(st->arg, "volume") == 0 && topo_nest_report(&plane, r->grid, &one, NULL) == TOPO_OK) {
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

/* topo_nest_stencil()'s refusal in words: the direction, or the vector
 * and the dimension where it reads a later point (or the point itself). */
static int stencil_error(const tilehybrid_status *st, const struct topo_args *a, int n)
{
    const int *v = a->stencil[st->index];
    int i;
    if (strcmp(st->arg, "dir") == 0)
        return cli_error(CMD, "--dir: entry %d is 0: give 1 (the loop runs upward) or -1 "
                         "(downward)", (int)st->index + 1);
    for (i = 0; i <= n; i++) {
        int dir = a->ndir > 0 ? (int)a->dir[i] : 1;
        if (v[i] * dir > 0)
            return cli_error(CMD, "--stencil: vector %d reads a later point along dimension "
                             "%d%s (the loop runs %s there): tilectl topo models stencils "
                             "whose every read is at an earlier point in every dimension (a "
                             "plan with cfg.loop_order skews such a stencil; that is not "
                             "modelled here)", (int)st->index + 1, i + 1,
                             i == n ? " (Z)" : "", dir > 0 ? "upward" : "downward");
    }
    return cli_error(CMD, "--stencil: vector %d is the point itself (all offsets 0): the "
                     "current point is written, not read as a dependence", (int)st->index + 1);
}

/* The value of the cost topology.h names (its status arg), -1 if none. */
static double cost_value(const char *arg, const struct topo_args *a)
{
    return strcmp(arg, "tcomp") == 0       ? a->tcomp
           : strcmp(arg, "tstartup") == 0  ? a->tstartup
           : strcmp(arg, "bandwidth") == 0 ? a->bandwidth
           : strcmp(arg, "elem_bytes") == 0 ? a->elem_bytes
                                            : -1.0;
}

/* TOPO_ERR_COST on a cost in range: the model's time overflows. */
static int cost_overflows(const char *arg, const struct topo_args *a)
{
    return cost_value(arg, a) > 0.0;
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
    if (rc == TOPO_ERR_OVERFLOW)
        return overflow_error(st, a, r, searched);
    if (rc == TOPO_ERR_COST && cost_overflows(st->arg, a)) {
        cli_error(CMD, "%s: the predicted time of every grid of %lld processes overflows (more "
                  "than %g s with %s %g): %s it", option_of(st->arg), (long long)a->procs,
                  DBL_MAX, option_of(st->arg), cost_value(st->arg, a),
                  strcmp(st->arg, "bandwidth") == 0 ? "raise" : "lower");
        return 2;
    }
    if (strcmp(st->arg, "stencil") == 0 || strcmp(st->arg, "dir") == 0)
        return stencil_error(st, a, r->n);
    if (st->index >= 0 && st->index < r->n && r->skew.skewed)
        cli_error(CMD, "%s (skewed dimension %d, extent %lld: the grid divides the skewed "
                  "space): %s", option_of(st->arg), (int)st->index + 1,
                  (long long)r->skew.size[st->index], topo_strerror(rc));
    else if (st->index >= 0 && st->index < r->n)
        cli_error(CMD, "%s (dimension %d): %s", option_of(st->arg), (int)st->index + 1,
                  topo_strerror(rc));
    else
        cli_error(CMD, "%s: %s", option_of(st->arg), topo_strerror(rc));
    return rc == TOPO_ERR_INFEASIBLE ? 1 : 2;
}

/* topo_nest_grid() found no grid (rc TOPO_ERR_INFEASIBLE or
 * TOPO_ERR_FIXED): the option at fault, the count, the space and the
 * widths, then topology.h's topo_nest_explain(): the rule a block would
 * break, the dimensions and the numbers.  Exit status 1 (no grid), 2 for
 * --fixed (a bad argument). */
static int grid_refused(int rc, const struct topo_args *a, const struct topo_result *r)
{
    char why[TOPO_EXPLAIN_SIZE], sp[(TOPO_MAX_DIMS + 1) * 24], w[TOPO_MAX_DIMS * 24];
    int fixed[TOPO_MAX_DIMS] = {0}, i, spn = 0, wn = 0;
    for (i = 0; i < r->n; i++) {
        fixed[i] = a->nfixed > 0 ? (int)a->fixed[i] : 0;
        spn += sprintf(sp + spn, "%lldx", (long long)r->space[i]);
        wn += sprintf(w + wn, "%s%lld", i > 0 ? "," : "", (long long)r->nest.dep[i]);
    }
    sprintf(sp + spn, "%lld", (long long)r->zlen);
    topo_nest_explain(&r->nest, a->procs, a->policy, fixed, why, sizeof why, NULL);
    if (rc == TOPO_ERR_FIXED)
        cli_error(CMD, "--fixed: no grid of %lld processes with these entries fits the %sspace "
                  "%s with %swidths %s: %s", (long long)a->procs, r->skew.skewed ? "skewed " : "",
                  sp, a->stencil_text != NULL ? "the stencil's " : "", w, why);
    else if (a->policy == TOPO_POLICY_LATENCY)
        cli_error(CMD, "--policy latency: the balanced grid of %lld processes does not fit the "
                  "%sspace %s with %swidths %s: %s", (long long)a->procs,
                  r->skew.skewed ? "skewed " : "", sp,
                  a->stencil_text != NULL ? "the stencil's " : "", w, why);
    else
        cli_error(CMD, "--procs: no grid of %lld processes fits the %sspace %s with %swidths "
                  "%s: %s", (long long)a->procs, r->skew.skewed ? "skewed " : "", sp,
                  a->stencil_text != NULL ? "the stencil's " : "", w, why);
    return rc == TOPO_ERR_FIXED ? 2 : 1;
}

/* A stencil with a loop order, or one that reads a later point along some
 * dimension: the nest of the space the plan tiles (cli_stencil_nest). */
static int skewed_nest(const struct topo_args *a, struct topo_result *r)
{
    const cli_stencil s = { r->n, a->nvec, TOPO_MAX_DIMS + 1, a->space, &a->stencil[0][0],
                            a->dir, a->order, a->ndir, a->norder };
    int rc;
    if ((rc = cli_stencil_nest(CMD, &s, &r->nest, &r->skew)) != 0)
        return rc;
    r->space = r->skew.size;
    r->zlen = r->skew.size[r->n];
    return 0;
}

/* The nest: the space, the widths or the stencil, the cost model. */
static int make_nest(const struct topo_args *a, struct topo_result *r)
{
    tilehybrid_status st;
    int dir[TOPO_MAX_DIMS + 1], i, rc;
    r->space = a->space;
    topo_nest_init(&r->nest, r->n, a->space, r->zlen, a->stencil_text ? NULL : a->deps, NULL);
    if (a->stencil_text != NULL) {
        for (i = 0; i <= r->n; i++)
            dir[i] = a->ndir > 0 ? (int)a->dir[i] : 1;
        rc = TOPO_OK;
        if (a->norder < 0) {
            rc = topo_nest_stencil(&r->nest, a->nvec, &a->stencil[0][0], TOPO_MAX_DIMS + 1,
                                   dir, &st);
            if (rc != TOPO_OK && strcmp(st.arg, "stencil") != 0)
                return solve_error(rc, &st, a, r, 0);
        }
        /* a loop order, or a vector that reads a later point along some
         * dimension: the plan's skew decides (and words any refusal) */
        if ((a->norder >= 0 || rc != TOPO_OK) && (rc = skewed_nest(a, r)) != 0)
            return rc;
    }
    r->nest.tile_height = a->tile_height;
    r->nest.tcomp = a->tcomp;
    r->nest.tstartup = a->tstartup;
    r->nest.bandwidth = a->bandwidth;
    r->nest.elem_bytes = a->elem_bytes;
    return 0;
}

/* The latency grid and the volume-optimal one for comparison: the first
 * may not fit the extents, and its volume may not fit in 64 bits (then
 * null), neither is an error. */
static int other_grids(const struct topo_args *a, struct topo_result *r)
{
    tilehybrid_status st;
    int i, rc;
    for (i = 0; i < r->n; i++)
        r->lat[i] = r->comm[i] = a->nfixed > 0 ? (int)a->fixed[i] : 0;
    rc = topo_dims_create(a->procs, r->n, r->lat, &st);
    if (rc != TOPO_OK)
        return solve_error(rc, &st, a, r, 0);
    r->lat_fill = 0;
    for (i = 0; i < r->n; i++)
        r->lat_fill += r->lat[i] - 1;
    /* feasible: P_i <= X_i, and blocks that hold the d_i layers they send */
    rc = topo_nest_report(&r->nest, r->lat, &r->lrep, NULL);
    r->lat_feasible = rc != TOPO_OK || r->lrep.feasible;
    r->lat_bad = rc != TOPO_OK ? -1 : r->lrep.bad_index;
    for (i = 0; i < r->n && rc != TOPO_OK && r->lat_feasible; i++)
        if (r->lat[i] > r->space[i]) {
            r->lat_feasible = 0;
            r->lat_bad = i;
        }
    r->lat_volume_ok = r->lat_feasible && rc == TOPO_OK;
    r->saving = 0.0;
    if (r->lat_volume_ok && r->lrep.volume > 0)
        r->saving = 1.0 - (double)r->rep.volume / (double)r->lrep.volume;
    r->comm_ok = topo_nest_grid(&r->nest, a->procs, TOPO_POLICY_COMM, r->comm, NULL) ==
                     TOPO_OK &&
                 topo_nest_report(&r->nest, r->comm, &r->crep, NULL) == TOPO_OK;
    return 0;
}

/* Step 2: the grid (and thread grid), their reports, the other grids. */
static int solve(const struct topo_args *a, struct topo_result *r)
{
    tilehybrid_status st;
    topo_policy tpol = a->policy == TOPO_POLICY_TIME ? TOPO_POLICY_COMM : a->policy;
    int i, rc;
    double t0;
    memset(r, 0, sizeof *r);
    r->n = a->nspace - 1;
    r->zlen = a->space[r->n];
    if ((rc = make_nest(a, r)) != 0)
        return rc;
    for (i = 0; i < r->n; i++)
        r->grid[i] = a->nfixed > 0 ? (int)a->fixed[i] : 0;
    t0 = now_seconds();
    rc = topo_nest_grid(&r->nest, a->procs, a->policy, r->grid, &st);
    if (rc == TOPO_ERR_INFEASIBLE || (rc == TOPO_ERR_FIXED && strcmp(st.arg, "dims") == 0))
        return grid_refused(rc, a, r);
    /* the thread grid inside the chosen process grid (now all fixed) */
    if (rc == TOPO_OK && a->threads > 0)
        rc = topo_hybrid_grid_ex(r->n, a->procs, (int)a->threads, r->space, r->nest.dep, tpol,
                                 r->grid, r->tgrid, &st);
    r->seconds = now_seconds() - t0;
    if (rc != TOPO_OK)
        return solve_error(rc, &st, a, r, 1);
    rc = topo_nest_report(&r->nest, r->grid, &r->rep, &st);
    if (rc != TOPO_OK)
        return solve_error(rc, &st, a, r, 0);
    if ((rc = other_grids(a, r)) != 0)
        return rc;
    if (a->threads > 0) {
        for (i = 0; i < r->n; i++)
            r->local[i] = r->space[i] / r->grid[i] + (r->space[i] % r->grid[i] != 0);
        rc = topo_report_grid_ex(r->n, r->tgrid, r->local, r->zlen, r->nest.dep, &r->trep, &st);
        if (rc != TOPO_OK)
            return solve_error(rc, &st, a, r, 0);
    }
    return 0;
}

/* The stencil (or null) and the extensions ext[i][j] as JSON arrays. */
static void print_json_faces(const struct topo_args *a, const struct topo_result *r)
{
    int i, j, n = r->n;
    printf(",\"stencil\":");
    if (a->stencil_text == NULL)
        printf("null");
    for (i = 0; a->stencil_text != NULL && i < a->nvec; i++) {
        printf(i == 0 ? "[[" : ",[");
        for (j = 0; j <= n; j++)
            printf("%s%d", j ? "," : "", a->stencil[i][j]);
        printf(i == a->nvec - 1 ? "]]" : "]");
    }
    printf(",\"ext\":[");
    for (i = 0; i < n; i++) {
        printf(i ? ",[" : "[");
        for (j = 0; j < n; j++)
            printf("%s%lld", j ? "," : "", (long long)r->nest.ext[i][j]);
        printf("]");
    }
    printf("]");
}

/* ",KEY":v with the fewest digits (15..17) that read back as v. */
static void json_double(const char *key, double v)
{
    printf(",\"%s\":", key);
    cli_json_double(stdout, v);
}

/* The pipeline model's inputs and predictions. */
static void print_json_time(const struct topo_args *a, const struct topo_result *r)
{
    printf(",\"tile_height\":%lld", (long long)a->tile_height);
    json_double("tcomp", a->tcomp);
    json_double("tstartup", a->tstartup);
    json_double("bandwidth", a->bandwidth);
    json_double("elem_bytes", a->elem_bytes);
    printf(",\"steps\":%lld,\"predicted_seconds\":%.9g", (long long)r->rep.steps,
           r->rep.seconds);
    printf(",\"comm_grid\":");
    print_grid(stdout, r->comm, r->n, NULL);
    if (r->comm_ok)
        printf(",\"comm_volume\":%lld,\"comm_predicted_seconds\":%.9g",
               (long long)r->crep.volume, r->crep.seconds);
    else
        printf(",\"comm_volume\":null,\"comm_predicted_seconds\":null");
}

static void print_json(const struct topo_args *a, const struct topo_result *r)
{
    int n = r->n;
    printf("{\"procs\":%lld,\"space\":", (long long)a->procs);
    cli_print_i64s(stdout, a->space, a->nspace, NULL);
    printf(",\"skewed_space\":");
    if (r->skew.skewed)
        cli_print_i64s(stdout, r->skew.size, n + 1, NULL);
    else
        printf("null");
    printf(",\"deps\":");
    cli_print_i64s(stdout, r->nest.dep, n, NULL);
    print_json_faces(a, r);
    printf(",\"policy\":");
    cli_json_string(stdout, policy_name(a->policy));
    printf(",\"grid\":");
    print_grid(stdout, r->grid, n, NULL);
    printf(",\"volume\":%lld,\"volume_sent\":%lld,\"total_volume\":%lld,"
           "\"messages\":%d,\"fill_steps\":%lld",
           (long long)r->rep.volume, (long long)r->rep.volume_sent,
           (long long)r->rep.total_volume, r->rep.messages, (long long)r->rep.fill_steps);
    print_json_time(a, r);
    printf(",\"latency_grid\":");
    print_grid(stdout, r->lat, n, NULL);
    printf(",\"latency_feasible\":%s", r->lat_feasible ? "true" : "false");
    if (r->lat_volume_ok)
        printf(",\"latency_volume\":%lld,\"latency_fill_steps\":%lld,\"saving\":%.6f,"
               "\"latency_predicted_seconds\":%.9g", (long long)r->lrep.volume,
               (long long)r->lat_fill, r->saving, r->lrep.seconds);
    else
        printf(",\"latency_volume\":null,\"latency_fill_steps\":%lld,\"saving\":null,"
               "\"latency_predicted_seconds\":null", (long long)r->lat_fill);
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
        int b = r->lat_bad;
        printf("    balanced, as MPI_Dims_create -- infeasible: %d processes "
               "along dimension %d of extent %lld%s\n", r->lat[b], b + 1,
               (long long)r->space[b], r->lat[b] <= r->space[b]
                   ? " (blocks narrower than the dependence width)" : "");
    } else if (!r->lat_volume_ok) {
        printf("    balanced, as MPI_Dims_create -- its volume does not fit in 64 bits\n");
    } else {
        printf("    balanced, as MPI_Dims_create\n");
        printf("latency_volume %lld\n", (long long)r->lrep.volume);
    }
    printf("latency_fill_steps %lld\n", (long long)r->lat_fill);
    if (r->lat_volume_ok && (a->model_asked || a->policy == TOPO_POLICY_TIME))
        printf("latency_predicted_seconds %.6g\n", r->lrep.seconds);
    if (r->lat_volume_ok)
        printf("saving %.1f%%    of the latency grid's volume\n", 100.0 * r->saving);
}

/* The stencil, its widths and extensions; the policy's own words. */
static void print_faces_text(const struct topo_args *a, const struct topo_result *r)
{
    int i, j, any = 0;
    if (a->stencil_text == NULL)
        return;
    printf("stencil");
    for (i = 0; i < a->nvec; i++)
        for (j = 0; j <= r->n; j++)
            printf("%s%d", j == 0 ? " " : ",", a->stencil[i][j]);
    printf("    widths ");
    cli_print_i64s(stdout, r->nest.dep, r->n, ",");
    printf(", extended faces:");
    for (i = 0; i < r->n; i++)
        for (j = 0; j < i; j++)
            if (r->nest.ext[i][j] > 0) {
                printf(" ext[%d][%d]=%lld", i + 1, j + 1, (long long)r->nest.ext[i][j]);
                any = 1;
            }
    printf("%s\n", any ? "" : " none");
}

/* The pipeline model's lines: only when asked for (--policy time or a cost
 * option), so that the volume policies print what they always printed. */
static void print_time_text(const struct topo_args *a, const struct topo_result *r)
{
    if (!a->model_asked && a->policy != TOPO_POLICY_TIME)
        return;
    printf("steps %lld    tile steps: ceil(Z/z) + fill\n", (long long)r->rep.steps);
    printf("predicted_seconds %.6g    pipeline model: tile height %lld, tcomp %g s, "
           "tstartup %g s, bandwidth %g B/s, %g bytes per element\n", r->rep.seconds,
           (long long)a->tile_height, a->tcomp, a->tstartup, a->bandwidth, a->elem_bytes);
    if (a->policy == TOPO_POLICY_COMM || !r->comm_ok)
        return;
    printf("comm_grid ");
    print_grid(stdout, r->comm, r->n, "x");
    printf("    communication-optimal: volume %lld, predicted_seconds %.6g\n",
           (long long)r->crep.volume, r->crep.seconds);
}

static void print_text(const struct topo_args *a, const struct topo_result *r)
{
    static const char *const what[3] = {"communication-optimal (least volume)",
                                        "latency-optimal (policy latency)",
                                        "time-optimal (least predicted time)"};
    int n = r->n;
    printf("%lld processes, space ", (long long)a->procs);
    cli_print_i64s(stdout, a->space, a->nspace, "x");
    if (r->skew.skewed) {
        printf("\nskewed space ");
        cli_print_i64s(stdout, r->skew.size, n + 1, "x");
    }
    printf(" (Z = %lld pipelined), deps ", (long long)r->zlen);
    cli_print_i64s(stdout, r->nest.dep, n, ",");
    printf("%s\n", r->skew.skewed ? "    a vector reads a later point along a dimension: the "
           "plan skews the space as tiling.h does and pipelines its longest dimension" : "");
    print_faces_text(a, r);
    printf("grid ");
    print_grid(stdout, r->grid, n, "x");
    printf("    %s\n", what[a->policy]);
    printf("volume %lld    elements per process with neighbours in every "
           "dimension (V*Z)\n", (long long)r->rep.volume);
    printf("volume_sent %lld    elements sent by process 0, the largest block\n",
           (long long)r->rep.volume_sent);
    printf("total_volume %lld    elements sent by all processes together\n",
           (long long)r->rep.total_volume);
    printf("messages %d    per tile of an inner process\n", r->rep.messages);
    printf("fill_steps %lld    tile steps before the last process starts\n",
           (long long)r->rep.fill_steps);
    print_time_text(a, r);
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
    if (rc == 0 && (rc = solve(&a, &r)) == 0) {
        if (a.json)
            print_json(&a, &r);
        else
            print_text(&a, &r);
    }
    return rc > 0 ? rc : cli_finish_output(CMD);   /* the report, or the help (rc < 0) */
}
