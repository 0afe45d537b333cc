/* tilectl balance -- balancing factors of the funneled hybrid model (balance.h).
 *
 *   tilectl balance --procs-grid 4x2 --threads 2 --space 256x64x16384 --deps 1,1
 *                   --tile-height 100 --tcomp 288e-9 --tstartup 107e-6
 *                   --bandwidth 12.5e6 --elem-bytes 8 [--json] [--all]
 *
 * Prints the constant factor of eq. 1 and the variable factor of every
 * process of the grid in rank order of an MPI Cartesian communicator (last
 * coordinate fastest), flagging the factors that were clamped to [0,1].
 *
 * How: along one dimension the processes fall into at most three classes
 * (a block one point larger and a successor to send to; a smaller block
 * and a successor; the last process), and a process's variable factor
 * depends only on its class in every dimension.  So the factors of at most
 * 3^N classes are computed first -- every error is found before anything
 * is printed -- and each process's line is a look-up.  Grids of more than
 * CTL_LIST_MAX processes are summarised (the text) or refused (--json)
 * unless --all asks for every process. */
#include "cli.h"

#include "balance.h"

#include <limits.h>

#define CTL_MAX_DIMS 8
#define CTL_LIST_MAX 1024 /* processes listed without --all */

static const char *cmd = "balance";

static void usage(FILE *f)
{
    fputs("usage: tilectl balance --procs-grid P1x..xPN --threads T --space X1x..xXNxZ\n"
          "                       --deps d1,..,dN --tile-height z [model options] [--json]\n"
          "                       [--all]\n"
          "Balancing factors of the coarse-grain funneled hybrid model (balance.h, eq. 1):\n"
          "the master thread of each process computes bal/T of the process's points per\n"
          "step, each other thread (T-bal)/(T(T-1)), so that the master's message passing\n"
          "is hidden behind the other threads' extra work.\n"
          "  --procs-grid P1xP2..  processes per dimension (N dimensions, N <= 8)\n"
          "  --threads T           threads per process (T >= 1)\n"
          "  --space X1x..xXNxZ    iteration space: N extents, then Z (the sequential one)\n"
          "  --deps d1,..,dN       dependence length per dimension, elements (>= 0;\n"
          "                        0 = no message along that dimension)\n"
          "  --tile-height z       tile height along Z, 1 <= z <= Z\n"
          "  --tcomp S             seconds per iteration (point update)  [$TILEHYBRID_TCOMP]\n"
          "  --tstartup S          seconds per message                  [$TILEHYBRID_TSTARTUP]\n"
          "  --bandwidth B         bytes per second                     [$TILEHYBRID_BANDWIDTH]\n"
          "  --elem-bytes E        bytes per message element, default 8 [$TILEHYBRID_ELEM_BYTES]\n"
          "  --json                machine-readable output\n"
          "  --all                 list every process even when there are more than 1024\n"
          "  --help                this text\n"
          "Model options default to the environment variable in brackets when it is set;\n"
          "--tcomp, --tstartup and --bandwidth are required otherwise.  Option values\n"
          "override the environment.  Numbers are plain decimals such as 288e-9: no\n"
          "spaces, '+', hex, inf or nan (the rule of every tilehybrid program).\n"
          "Output: the constant factor (every dimension counted) and the variable factor\n"
          "of every process in rank order (row-major, last coordinate fastest), with the\n"
          "dimensions (1-based) it sends along; 'clamped' marks a factor cut to 0 because\n"
          "the communication alone exceeds the master's even share.  Above 1024\n"
          "processes the text gives the smallest and largest factor and the number of\n"
          "clamped processes instead of the list, and --json needs --all.\n"
          "Exit status: 0 ok, 2 bad arguments, 1 the output could not be written.\n",
          f);
}

/* Options as parsed and checked. */
enum { O_GRID, O_SPACE, O_DEPS, O_Z, O_THREADS, O_TCOMP, O_TSTARTUP, O_BANDWIDTH,
       O_ELEMBYTES, O_ALL, O_COUNT }; /* the flag --all (no value) last */
static const char *const opt_names[O_COUNT] = {
    "--procs-grid", "--space", "--deps", "--tile-height", "--threads",
    "--tcomp", "--tstartup", "--bandwidth", "--elem-bytes", "--all"};

struct bal_args {
    int64_t grid[CTL_MAX_DIMS], space[CTL_MAX_DIMS + 1], deps[CTL_MAX_DIMS];
    int64_t extent[CTL_MAX_DIMS], z, threads, nprocs;
    int pdims[CTL_MAX_DIMS];
    int n, nspace, ndeps, json, all;
    int have[O_COUNT];
    const char *zs;
    bal_model m;
};

/* A model option: a number > 0 (or >= 0); 0 or the exit status. */
static int model_opt(const char *name, const char *v, double *field, int positive)
{
    int code = cli_parse_double(v, field);
    if (code != TILEHYBRID_OK)
        return cli_error(cmd, "%s: '%s' is not a number %s: %s", name, v,
                         positive ? "> 0" : ">= 0", cli_double_why(code));
    if (positive ? !(*field > 0) : !(*field >= 0))
        return cli_error(cmd, "%s: '%s' is not a number %s", name, v, positive ? "> 0" : ">= 0");
    return 0;
}

/* Option k with its value; 0 or the exit status. */
static int set_option(void *args, int k, const char *v)
{
    struct bal_args *a = (struct bal_args *)args;
    const char *name = opt_names[k];
    a->have[k] = 1;
    switch (k) {
    case O_ALL:
        a->all = 1;
        return 0;
    case O_GRID:
        return cli_list_opt(cmd, name, v, "x", 1, INT_MAX, CTL_MAX_DIMS, a->grid, &a->n,
                            "a grid like 4x2: 1 to 8 whole numbers >= 1 separated by 'x'");
    case O_SPACE:
        return cli_list_opt(cmd, name, v, "x", 1, INT64_MAX, CTL_MAX_DIMS + 1, a->space,
                            &a->nspace, "a space like 256x64x16384: whole numbers >= 1 "
                            "separated by 'x', Z last");
    case O_DEPS:
        return cli_list_opt(cmd, name, v, ",", 0, INT64_MAX, CTL_MAX_DIMS, a->deps, &a->ndeps,
                            "a list like 1,1: whole numbers >= 0 separated by ','");
    case O_Z:
        a->zs = v;
        return cli_whole_opt(cmd, name, v, 1, INT64_MAX, &a->z);
    case O_THREADS:
        return cli_whole_opt(cmd, name, v, 1, INT_MAX, &a->threads);
    case O_TCOMP:
        return model_opt(name, v, &a->m.tcomp, 1);
    case O_TSTARTUP:
        return model_opt(name, v, &a->m.tstartup, 0);
    case O_BANDWIDTH:
        return model_opt(name, v, &a->m.bandwidth, 1);
    default:
        return model_opt(name, v, &a->m.elem_bytes, 1);
    }
}

/* Step 1: the command line.  0, -1 after --help, or the exit status. */
static int parse(int argc, char **argv, struct bal_args *a)
{
    static const cli_options opts = { "balance", opt_names, O_COUNT, O_ALL, usage, set_option };
    memset(a, 0, sizeof *a);
    a->m.elem_bytes = 8;
    return cli_parse_options(&opts, argc, argv, a, &a->json);
}

/* The environment's value of a model field no option gave. */
static void take_env(struct bal_args *a, int k, int found, int bit, double *field, double value)
{
    if (!a->have[k] && (found & bit)) {
        *field = value;
        a->have[k] = 1;
    }
}

/* Step 2: the environment for the model fields no option gave; a malformed
 * variable is an error even when an option overrides it (fix the
 * environment).  0 or the exit status. */
static int model_from_env(struct bal_args *a)
{
    static const int opt[3] = {O_TCOMP, O_TSTARTUP, O_BANDWIDTH};
    static const char *const hint[3] = {"seconds per iteration, e.g. 288e-9",
                                        "seconds per message, e.g. 107e-6",
                                        "bytes per second, e.g. 12.5e6"};
    static const char *const var[3] = {"TILEHYBRID_TCOMP", "TILEHYBRID_TSTARTUP",
                                       "TILEHYBRID_BANDWIDTH"};
    bal_model env = a->m;
    int found = 0, rc = bal_model_from_env(&env, &found), k;
    if (rc != BAL_OK)
        return cli_error(cmd, "%s", bal_strerror(rc));
    take_env(a, O_TCOMP, found, BAL_HAVE_TCOMP, &a->m.tcomp, env.tcomp);
    take_env(a, O_TSTARTUP, found, BAL_HAVE_TSTARTUP, &a->m.tstartup, env.tstartup);
    take_env(a, O_BANDWIDTH, found, BAL_HAVE_BANDWIDTH, &a->m.bandwidth, env.bandwidth);
    take_env(a, O_ELEMBYTES, found, BAL_HAVE_ELEM_BYTES, &a->m.elem_bytes, env.elem_bytes);
    for (k = 0; k < 3; k++)
        if (!a->have[opt[k]])
            return cli_error(cmd, "missing %s (%s; or set %s)", opt_names[opt[k]], hint[k],
                             var[k]);
    return 0;
}

/* Step 3: what is required is there and the options agree with each
 * other.  0 or the exit status. */
static int check_args(struct bal_args *a)
{
    static const int need[5] = {O_GRID, O_THREADS, O_SPACE, O_DEPS, O_Z};
    static const char *const example[5] = {"4x2", "2", "256x64x16384", "1,1", "100"};
    int i, n = a->n;
    for (i = 0; i < 5; i++)
        if (!a->have[need[i]])
            return cli_error(cmd, "missing %s (e.g. %s %s)", opt_names[need[i]],
                             opt_names[need[i]], example[i]);
    if (a->nspace != n + 1)
        return cli_error(cmd, "--space has %d value(s) but --procs-grid has %d dimension(s): "
                              "give %d extent(s) and then Z", a->nspace, n, n);
    if (a->ndeps != n)
        return cli_error(cmd, "--deps has %d value(s) but --procs-grid has %d dimension(s)",
                         a->ndeps, n);
    if (a->z > a->space[n])
        return cli_error(cmd, "--tile-height %s is larger than Z = %lld", a->zs,
                         (long long)a->space[n]);
    a->nprocs = 1;
    for (i = 0; i < n; i++) {
        a->pdims[i] = (int)a->grid[i];
        a->extent[i] = a->space[i];
        if (a->nprocs > INT_MAX / a->grid[i])
            return cli_error(cmd, "--procs-grid: more than %d processes", INT_MAX);
        a->nprocs *= a->grid[i];
        if (a->grid[i] > a->space[i])
            return cli_error(cmd, "--procs-grid has %d processes along dimension %d but "
                                  "--space only %lld points there",
                             a->pdims[i], i + 1, (long long)a->space[i]);
    }
    if (a->json && !a->all && a->nprocs > CTL_LIST_MAX)
        return cli_error(cmd, "--procs-grid: %lld processes: --json lists the factor of "
                              "every one; add --all to print all of them (the text output "
                              "summarises grids of more than %d)",
                         (long long)a->nprocs, CTL_LIST_MAX);
    return 0;
}

/* The classes of one dimension: 0 = a block one point larger with a
 * successor (coords < X % P), 1 = a smaller block with a successor, 2 = the
 * last process.  The class of coordinate c: */
static int dim_class(int64_t x, int p, int c)
{
    return c == p - 1 ? 2 : c < x % p ? 0 : 1;
}

/* Every factor, computed before anything is printed. */
struct bal_table {
    int nclass;                    /* 3^n */
    int rep[CTL_MAX_DIMS][3];      /* the first coordinate of each class */
    int64_t cnt[CTL_MAX_DIMS][3];  /* its number of coordinates (0: none) */
    double con;                    /* the constant factor */
    int con_clamped;
    double *factor;                /* per class (index sum k_d 3^d) */
    unsigned char *clamped;
    int64_t *count;                /* processes in the class (0: no such class) */
};

/* The class of every process, as the index into the table. */
static int class_of(const struct bal_args *a, const int *coords)
{
    int d, idx = 0;
    for (d = a->n - 1; d >= 0; d--)
        idx = idx * 3 + dim_class(a->extent[d], a->pdims[d], coords[d]);
    return idx;
}

/* The rank of coords in a Cartesian communicator (last coordinate fastest). */
static int64_t rank_of(const struct bal_args *a, const int *coords)
{
    int64_t r = 0;
    int d;
    for (d = 0; d < a->n; d++)
        r = r * a->pdims[d] + coords[d];
    return r;
}

/* "a * b * c" into buf (CTL_MAX_DIMS + 2 numbers). */
static const char *product_text(char *buf, const int64_t *v, int n)
{
    size_t len = 0;
    int i;
    for (i = 0; i < n; i++)
        len += (size_t)sprintf(buf + len, "%s%lld", i > 0 ? " * " : "", (long long)v[i]);
    return buf;
}

/* An overflow of the constant factor's X1 * ... * XN * z, or of a message
 * of the process at coords: name the option and the product.  Returns 2. */
static int overflow_error(const struct bal_args *a, const int *coords)
{
    char buf[(CTL_MAX_DIMS + 2) * 24];
    int64_t f[CTL_MAX_DIMS + 2], p;
    int i, j, k;
    for (i = 0; i < a->n; i++)
        f[i] = a->extent[i];
    f[a->n] = a->z;
    if (coords == NULL) /* the only product of the constant factor that can overflow */
        return cli_error(cmd, "--space, --tile-height: the points of a tile step over all "
                              "processes, X1 * ... * XN * z = %s, do not fit in 64 bits",
                         product_text(buf, f, a->n + 1));
    for (i = 0; i < a->n; i++) {
        if (a->pdims[i] == 1 || coords[i] == a->pdims[i] - 1 || a->deps[i] == 0)
            continue;
        f[0] = a->deps[i];
        f[1] = a->z;
        for (j = 0, k = 2; j < a->n; j++)
            if (j != i)
                f[k++] = a->extent[j] / a->pdims[j] + (coords[j] < a->extent[j] % a->pdims[j]);
        for (j = 0, p = 1; j < k && tilehybrid_mul_ok(p, f[j], &p); j++)
            ;
        if (j < k)
            return cli_error(cmd, "--deps: the message of rank %lld along dimension %d, d_%d * "
                                  "z * (its block's other extents) = %s elements, does not "
                                  "fit in 64 bits", (long long)rank_of(a, coords), i + 1,
                             i + 1, product_text(buf, f, k));
    }
    return cli_error(cmd, "--space, --tile-height: the block of rank %lld times z does not fit "
                          "in 64 bits", (long long)rank_of(a, coords));
}

/* The classes of every dimension: representatives and counts. */
static void table_classes(const struct bal_args *a, struct bal_table *t)
{
    int d;
    t->nclass = 1;
    for (d = 0; d < a->n; d++) {
        int p = a->pdims[d], r = (int)(a->extent[d] % p);
        t->rep[d][0] = 0;
        t->rep[d][1] = r;
        t->rep[d][2] = p - 1;
        t->cnt[d][0] = r;
        t->cnt[d][1] = p - 1 - r;
        t->cnt[d][2] = 1;
        t->nclass *= 3;
    }
}

/* Step 4: the constant factor and the factor of every class; 0 or the exit
 * status (after the message). */
static int table_fill(const struct bal_args *a, struct bal_table *t)
{
    int coords[CTL_MAX_DIMS], idx, d, rc, cl;
    rc = bal_factor(&a->m, a->n, a->pdims, NULL, (int)a->threads, a->extent, a->z, a->deps,
                    &t->con, &t->con_clamped);
    if (rc == BAL_ERR_OVERFLOW)
        return overflow_error(a, NULL);
    if (rc != BAL_OK)
        return cli_error(cmd, "%s", bal_strerror(rc));
    for (idx = 0; idx < t->nclass; idx++) {
        int rest = idx;
        t->count[idx] = 1;
        for (d = 0; d < a->n; d++, rest /= 3) {
            coords[d] = t->rep[d][rest % 3];
            t->count[idx] *= t->cnt[d][rest % 3];
        }
        if (t->count[idx] == 0)
            continue;
        rc = bal_factor(&a->m, a->n, a->pdims, coords, (int)a->threads, a->extent, a->z,
                        a->deps, &t->factor[idx], &cl);
        if (rc == BAL_ERR_OVERFLOW)
            return overflow_error(a, coords);
        if (rc != BAL_OK)
            return cli_error(cmd, "rank %lld: %s", (long long)rank_of(a, coords),
                             bal_strerror(rc));
        t->clamped[idx] = (unsigned char)cl;
    }
    return 0;
}

static int table_make(const struct bal_args *a, struct bal_table *t)
{
    size_t k;
    table_classes(a, t);
    k = (size_t)t->nclass;
    t->factor = (double *)malloc(k * sizeof *t->factor);
    t->clamped = (unsigned char *)calloc(k, 1);
    t->count = (int64_t *)malloc(k * sizeof *t->count);
    if (t->factor == NULL || t->clamped == NULL || t->count == NULL)
        return cli_error(cmd, "out of memory");
    return table_fill(a, t);
}

static void table_free(struct bal_table *t)
{
    free(t->factor);
    free(t->clamped);
    free(t->count);
}

/* Row-major odometer: the next coordinates in Cartesian rank order. */
static void next_coords(int n, const int *pdims, int *coords)
{
    int d;
    for (d = n - 1; d >= 0; d--) {
        if (++coords[d] < pdims[d])
            return;
        coords[d] = 0;
    }
}

/* "(0,1)  1,2": the coordinates and the dimensions a process sends along. */
static void rank_text(const struct bal_args *a, const int *coords, char *cbuf, char *sbuf)
{
    size_t cp = 0, sp = 0;
    int d;
    cbuf[cp++] = '(';
    for (d = 0; d < a->n; d++)
        cp += (size_t)sprintf(cbuf + cp, "%s%d", d > 0 ? "," : "", coords[d]);
    cbuf[cp++] = ')';
    cbuf[cp] = '\0';
    for (d = 0; d < a->n; d++)
        if (a->pdims[d] > 1 && coords[d] < a->pdims[d] - 1 && a->deps[d] > 0)
            sp += (size_t)sprintf(sbuf + sp, "%s%d", sp > 0 ? "," : "", d + 1);
    if (sp == 0)
        strcpy(sbuf, "-");
}

/* One line of the text table. */
static void print_rank(const struct bal_args *a, int64_t r, const int *coords, double b,
                       int clamped)
{
    char cbuf[CTL_MAX_DIMS * 12 + 3], sbuf[CTL_MAX_DIMS * 3 + 2];
    rank_text(a, coords, cbuf, sbuf);
    printf("%6lld  %-14s  %-12s  %.6f  %6.2f%%%s\n", (long long)r, cbuf, sbuf, b,
           100.0 * b / (double)a->threads, clamped ? "  clamped" : "");
}

static void print_json(const struct bal_args *a, const struct bal_table *t)
{
    int coords[CTL_MAX_DIMS] = {0}, pass;
    int64_t r;
    printf("{\"procs_grid\":");
    cli_print_i64s(stdout, a->grid, a->n, NULL);
    printf(",\"threads\":%lld,\"space\":", (long long)a->threads);
    cli_print_i64s(stdout, a->space, a->n + 1, NULL);
    printf(",\"deps\":");
    cli_print_i64s(stdout, a->deps, a->n, NULL);
    printf(",\"tile_height\":%lld,\"model\":{\"tcomp\":", (long long)a->z);
    cli_json_double(stdout, a->m.tcomp);
    printf(",\"tstartup\":");
    cli_json_double(stdout, a->m.tstartup);
    printf(",\"bandwidth\":");
    cli_json_double(stdout, a->m.bandwidth);
    printf(",\"elem_bytes\":");
    cli_json_double(stdout, a->m.elem_bytes);
    printf("},\"constant\":");
    cli_json_double(stdout, t->con);
    printf(",\"variable\":[");
    for (pass = 0; pass < 2; pass++) { /* the factors, then the clamped flags */
        for (r = 0; r < a->nprocs; r++, next_coords(a->n, a->pdims, coords)) {
            int c = class_of(a, coords);
            fputs(r > 0 ? "," : "", stdout);
            if (pass == 0)
                cli_json_double(stdout, t->factor[c]);
            else
                fputs(t->clamped[c] ? "true" : "false", stdout);
        }
        if (pass == 0)
            printf("],\"clamped\":{\"constant\":%s,\"variable\":[",
                   t->con_clamped ? "true" : "false");
    }
    printf("]}}\n");
}

static void print_head(const struct bal_args *a, const struct bal_table *t)
{
    double T = (double)a->threads;
    printf("grid ");
    cli_print_i64s(stdout, a->grid, a->n, "x");
    printf(" processes x %lld threads, space ", (long long)a->threads);
    cli_print_i64s(stdout, a->space, a->n + 1, "x");
    printf(", deps ");
    cli_print_i64s(stdout, a->deps, a->n, ",");
    printf(", tile height %lld\n", (long long)a->z);
    printf("model: tcomp %g s/iteration, tstartup %g s/message, bandwidth %g B/s, "
           "%g bytes/element\n",
           a->m.tcomp, a->m.tstartup, a->m.bandwidth, a->m.elem_bytes);
    printf("constant factor: %.6f%s (master computes %.2f%% of a step, each other thread "
           "%.2f%%)\n",
           t->con, t->con_clamped ? " clamped" : "", 100.0 * t->con / T,
           a->threads > 1 ? 100.0 * (T - t->con) / (T * (T - 1)) : 0.0);
}

/* The text list: one line per process. */
static void print_list(const struct bal_args *a, const struct bal_table *t)
{
    int coords[CTL_MAX_DIMS] = {0};
    int64_t r;
    printf("variable factors, rank order (last coordinate fastest):\n");
    printf("%6s  %-14s  %-12s  %-8s  %s\n", "rank", "coords", "sends-along", "factor",
           "master-share");
    for (r = 0; r < a->nprocs; r++, next_coords(a->n, a->pdims, coords)) {
        int c = class_of(a, coords);
        print_rank(a, r, coords, t->factor[c], t->clamped[c]);
    }
}

/* The first process of class idx. */
static void class_coords(const struct bal_args *a, const struct bal_table *t, int idx,
                         int *coords)
{
    int d;
    for (d = 0; d < a->n; d++, idx /= 3)
        coords[d] = t->rep[d][idx % 3];
}

/* The text summary of a grid too large to list: the smallest and the
 * largest factor (each at its first process) and the clamped count. */
static void print_summary(const struct bal_args *a, const struct bal_table *t)
{
    int idx, lo = -1, hi = -1, which, coords[CTL_MAX_DIMS];
    int64_t nclamped = 0, rank[2] = {0, 0};
    for (idx = 0; idx < t->nclass; idx++) {
        if (t->count[idx] == 0)
            continue;
        class_coords(a, t, idx, coords);
        if (lo < 0 || t->factor[idx] < t->factor[lo] ||
            (t->factor[idx] == t->factor[lo] && rank_of(a, coords) < rank[0]))
            lo = idx, rank[0] = rank_of(a, coords);
        if (hi < 0 || t->factor[idx] > t->factor[hi] ||
            (t->factor[idx] == t->factor[hi] && rank_of(a, coords) < rank[1]))
            hi = idx, rank[1] = rank_of(a, coords);
        nclamped += t->clamped[idx] ? t->count[idx] : 0;
    }
    printf("variable factors: %lld processes, more than %d: a summary (--all lists every "
           "process)\n", (long long)a->nprocs, CTL_LIST_MAX);
    printf("%-8s  %10s  %-14s  %-12s  %-8s  %s\n", "", "rank", "coords", "sends-along",
           "factor", "master-share");
    for (which = 0; which < 2; which++) {
        char cbuf[CTL_MAX_DIMS * 12 + 3], sbuf[CTL_MAX_DIMS * 3 + 2];
        int c = which == 0 ? lo : hi;
        class_coords(a, t, c, coords);
        rank_text(a, coords, cbuf, sbuf);
        printf("%-8s  %10lld  %-14s  %-12s  %.6f  %6.2f%%%s\n",
               which == 0 ? "smallest" : "largest",
               (long long)rank[which], cbuf, sbuf, t->factor[c],
               100.0 * t->factor[c] / (double)a->threads, t->clamped[c] ? "  clamped" : "");
    }
    printf("clamped processes: %lld of %lld\n", (long long)nclamped, (long long)a->nprocs);
}

static void print_text(const struct bal_args *a, const struct bal_table *t)
{
    int idx, any = t->con_clamped;
    print_head(a, t);
    if (a->nprocs <= CTL_LIST_MAX || a->all)
        print_list(a, t);
    else
        print_summary(a, t);
    for (idx = 0; idx < t->nclass; idx++)
        any |= t->count[idx] > 0 && t->clamped[idx];
    if (any)
        printf("clamped: eq. 1 asked for a factor below 0 (the master's communication alone "
               "takes longer than the other threads' computation even when they do all of "
               "it); the factor is 0: the master only communicates.\n");
}

int tilectl_balance(int argc, char **argv)
{
    struct bal_args a;
    struct bal_table t;
    int rc = parse(argc, argv, &a);
    memset(&t, 0, sizeof t);
    if (rc == 0 && (rc = check_args(&a)) == 0 && (rc = model_from_env(&a)) == 0 &&
        (rc = table_make(&a, &t)) == 0) {
        if (a.json)
            print_json(&a, &t);
        else
            print_text(&a, &t);
    }
    table_free(&t);
    return rc > 0 ? rc : cli_finish_output(cmd);   /* the report, or the help (rc < 0) */
}
