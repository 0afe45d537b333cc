/* tilectl scatter -- load-balanced scatter distributions (scatterlb.h).
 *
 *   tilectl scatter --costs FILE --items N [--method exact|heuristic|uniform]
 *                   [--order bandwidth|given] [--root NAME] [--json]
 *
 * Reads the processors' affine costs from a CSV file, orders them, computes
 * the distribution and prints the order, the items and the finish time of
 * each processor and the makespan (text, or JSON with --json).  The file is
 * read line by line within fixed limits (MAX_LINE characters a line,
 * MAX_BYTES in all, MAX_PROCS processors): a file beyond them, /dev/zero
 * included, is refused as soon as a limit is crossed; duplicate names are
 * found by sorting, O(p log p). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif
#include "cli.h"

#define TILEHYBRID_NO_MPI
#include "scatterlb.h"

#include <ctype.h>
#include <float.h>
#include <time.h>

#define CMD "scatter"
#define MAX_PROCS 100000
#define MAX_ITEMS 1000000000000000ll /* 10^15 */
#define MAX_LINE 1024                /* characters a line, without the newline */
#define MAX_BYTES (64l << 20)        /* 64 MiB */
#define MAX_NAME 480
#define MAXF 32

static void usage(FILE *f)
{
    fputs("usage: tilectl scatter --costs FILE --items N [--method exact|heuristic|uniform]\n"
          "                       [--order bandwidth|given] [--root NAME] [--json]\n"
          "Split N independent items of a root over heterogeneous processors so that the\n"
          "last one finishes as early as possible, the root sending to one processor after\n"
          "the other (Genaud, Giersch, Vivien 2003).  Prints the sending order, the items\n"
          "and the finish time of every processor, and the makespan.\n"
          "  --costs FILE   CSV file; its first line names the columns, in any order:\n"
          "                   name    processor name (required, at most 480 characters)\n"
          "                   count   identical processors on this line (required, >= 1);\n"
          "                           with count > 1 they are named name#1 .. name#count\n"
          "                   mu      time to compute one item (required)\n"
          "                   lambda  time to receive one item from the root (required)\n"
          "                   comp0   fixed computing time, any number of items (default 0)\n"
          "                   comm0   latency of the root's message (default 0)\n"
          "                   cpus, type, rating   informational, ignored\n"
          "                 Times in seconds (any unit: the output uses the same), plain\n"
          "                 decimal numbers >= 0 such as 2.5e-7 (no '+', hex, inf or nan).\n"
          "                 Blank lines and lines starting with '#' are skipped; no quoting.\n"
          "                 Limits: 100000 processors, 1024 characters a line, 64 MiB.\n"
          "  --items N      number of items, 0 <= N <= 10^15\n"
          "  --method M     exact      the optimum, fast (default)\n"
          "                 heuristic  the paper's rounded rational solution, within\n"
          "                            sum lambda + max mu of the optimum (eq. 4)\n"
          "                 uniform    N/p items each, as MPI_Scatter does\n"
          "  --order O      bandwidth  increasing lambda (decreasing bandwidth), root last\n"
          "                            (default; Theorem 3)\n"
          "                 given      the file's order, root last\n"
          "  --root NAME    the processor that holds the data and receives last\n"
          "                 (default: the first processor of the file)\n"
          "  --json         print one JSON object: method, order_policy, items, root,\n"
          "                 order (names, in sending order), counts, finish (same order),\n"
          "                 makespan, seconds (solve time); heuristic adds rational, bound\n"
          "                 (null when the eq. 4 bound overflows a double: no finite\n"
          "                 guarantee; each key: docs/JSON.md)\n"
          "  -h, --help     print this help and exit\n"
          "Options take their value as the next argument or after '='.\n"
          "Exit status: 0 success, 2 bad arguments or file, 1 solver failure.\n",
          f);
}

/* ---- the processors ---- */

typedef struct proc {
    char *name;
    long line;
    slb_affine cost;
} proc;

typedef struct table {
    proc *v;
    int64_t n, cap;
} table;

static void table_free(table *t)
{
    int64_t i;
    for (i = 0; i < t->n; i++)
        free(t->v[i].name);
    free(t->v);
}

static int add_proc(table *t, const char *name, long line, slb_affine c)
{
    if (t->n == t->cap) {
        int64_t nc = t->cap ? 2 * t->cap : 64;
        proc *nv = (proc *)realloc(t->v, (size_t)nc * sizeof(proc));
        if (nv == NULL)
            return -1;
        t->v = nv;
        t->cap = nc;
    }
    t->v[t->n].name = (char *)malloc(strlen(name) + 1);
    if (t->v[t->n].name == NULL)
        return -1;
    strcpy(t->v[t->n].name, name);
    t->v[t->n].line = line;
    t->v[t->n].cost = c;
    t->n++;
    return 0;
}

/* qsort order of processor indices: by name, then by position in the file. */
static const table *sort_table;

static int by_name(const void *a, const void *b)
{
    int64_t i = *(const int64_t *)a, j = *(const int64_t *)b;
    int c = strcmp(sort_table->v[i].name, sort_table->v[j].name);
    return c != 0 ? c : (i < j ? -1 : i > j);
}

/* Every name once: sort the indices by name, O(p log p).  A name used
 * again is reported where it is first used again, with its first line. */
static int check_names(const table *t, const char *path)
{
    int64_t *ix = (int64_t *)malloc((size_t)(t->n > 0 ? t->n : 1) * sizeof(int64_t));
    int64_t i, dup = -1, first = -1, group = 0;
    if (ix == NULL)
        return cli_error(CMD, "out of memory");
    for (i = 0; i < t->n; i++)
        ix[i] = i;
    sort_table = t;
    qsort(ix, (size_t)t->n, sizeof *ix, by_name);
    for (i = 1; i < t->n; i++) {
        if (strcmp(t->v[ix[i]].name, t->v[ix[i - 1]].name) != 0)
            group = i; /* a new name; ix[group] is its first use */
        else if (dup < 0 || ix[i] < dup) {
            dup = ix[i];
            first = ix[group];
        }
    }
    free(ix);
    if (dup < 0)
        return 0;
    return cli_error(CMD, "--costs %s line %ld: processor name '%s' already used on line %ld", path,
                     t->v[dup].line, t->v[dup].name, t->v[first].line);
}

/* ---- reading the file: bounded lines ---- */

typedef struct reader {
    FILE *f;
    const char *path;
    long line;
    long bytes;
    char buf[MAX_LINE + 1];
} reader;

/* The next line into r->buf (without its newline): 1, 0 at the end of the
 * file, or 2 after a message (too long, too large, a NUL byte, not UTF-8,
 * a read error). */
static int read_line(reader *r)
{
    int c, len = 0, bad;
    if (feof(r->f))
        return 0;
    r->line++;
    while ((c = getc(r->f)) != EOF) {
        if (++r->bytes > MAX_BYTES) /* every byte, the newline too */
            return cli_error(CMD, "--costs %s: larger than %ld MiB (line %ld)", r->path,
                             MAX_BYTES >> 20, r->line);
        if (c == '\n')
            break;
        if (c == '\0')
            return cli_error(CMD, "--costs %s line %ld: a NUL byte (not a text file)", r->path,
                             r->line);
        if (len == MAX_LINE)
            return cli_error(CMD, "--costs %s line %ld: longer than %d characters", r->path,
                             r->line, MAX_LINE);
        r->buf[len++] = (char)c;
    }
    if (ferror(r->f))
        return cli_error(CMD, "--costs %s line %ld: read error: %s", r->path, r->line,
                         strerror(errno));
    r->buf[len] = '\0';
    if ((bad = cli_utf8_check(r->buf)) >= 0)
        return cli_error(CMD, "--costs %s line %ld: not UTF-8 text (byte 0x%02x at column %d): "
                         "names must be UTF-8 (they go into JSON as they are)", r->path, r->line,
                         (unsigned char)r->buf[bad], bad + 1);
    return c == EOF && len == 0 ? 0 : 1;
}

/* Trim spaces in place; returns the start. */
static char *trim(char *s)
{
    char *e;
    while (*s == ' ' || *s == '\t')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        *--e = '\0';
    return s;
}

/* Split line into at most max fields at commas; returns the count (or
 * max + 1 if there are more). */
static int split(char *line, char **f, int max)
{
    int n = 0;
    for (;;) {
        char *c = strchr(line, ',');
        if (n == max)
            return max + 1;
        if (c != NULL)
            *c = '\0';
        f[n++] = trim(line);
        if (c == NULL)
            return n;
        line = c + 1;
    }
}

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* ---- the header and the rows ---- */

enum { COL_NAME, COL_COUNT, COL_MU, COL_LAMBDA, COL_COMP0, COL_COMM0, COL_IGNORED, NCOLS };
static const char *col_names[NCOLS] = {"name", "count", "mu", "lambda", "comp0", "comm0", ""};

/* The columns of the header line f[0..nf-1] into col[]; 0 or 2. */
static int parse_header(const reader *r, char **f, int nf, int *col)
{
    int seen[NCOLS] = {0}, i, c;
    if (nf > MAXF)
        return cli_error(CMD, "--costs %s line %ld: more than %d columns", r->path, r->line, MAXF);
    for (i = 0; i < nf; i++) {
        for (c = 0; c < COL_IGNORED && !ieq(f[i], col_names[c]); c++)
            ;
        if (c == COL_IGNORED && !ieq(f[i], "cpus") && !ieq(f[i], "type") &&
            !ieq(f[i], "rating"))
            return cli_error(CMD, "--costs %s line %ld: unknown column '%s' (columns: name, "
                                  "count, mu, lambda, comp0, comm0; ignored: cpus, type, "
                                  "rating)",
                             r->path, r->line, f[i]);
        if (c < COL_IGNORED && seen[c]++)
            return cli_error(CMD, "--costs %s line %ld: column '%s' appears twice", r->path,
                             r->line, col_names[c]);
        col[i] = c;
    }
    for (c = 0; c < COL_COMP0; c++)
        if (!seen[c])
            return cli_error(CMD, "--costs %s line %ld: missing column '%s' (required: name, "
                                  "count, mu, lambda)", r->path, r->line, col_names[c]);
    return 0;
}

/* A cost field: a plain decimal number >= 0 (tilehybrid_parse_double's
 * rule: subnormals are numbers, overflow and underflow are range errors). */
static int parse_cost(const reader *r, int c, const char *s, double *v)
{
    int code = tilehybrid_parse_double(s, -DBL_MAX, DBL_MAX, v);
    const char *why = code == TILEHYBRID_ERR_RANGE
                          ? "is out of range (beyond 1.8e308, or not zero but below 4.9e-324)"
                          : "is not a plain decimal number (such as 2.5e-7; no '+', hex, inf "
                            "or nan)";
    if (code == TILEHYBRID_OK && *v < 0)
        why = "is negative (costs are >= 0)";
    else if (code == TILEHYBRID_OK)
        return 0;
    return cli_error(CMD, "--costs %s line %ld, column '%s': '%s' %s", r->path, r->line,
                     col_names[c], s, why);
}

/* One data line: its name, count and costs; 0 or 2. */
static int parse_row(const reader *r, char **f, int nf, const int *col, const char **name,
                     int64_t *count, slb_affine *c)
{
    double *dst[NCOLS] = {NULL, NULL, &c->mu, &c->lambda, &c->comp0, &c->comm0, NULL};
    int i;
    memset(c, 0, sizeof *c);
    for (i = 0; i < nf; i++) {
        if (col[i] == COL_NAME) {
            *name = f[i];
            if (*f[i] == '\0')
                return cli_error(CMD, "--costs %s line %ld, column 'name': empty name", r->path,
                                 r->line);
            if (strlen(f[i]) > MAX_NAME)
                return cli_error(CMD, "--costs %s line %ld, column 'name': longer than %d "
                                 "characters", r->path, r->line, MAX_NAME);
        } else if (col[i] == COL_COUNT) {
            if (tilehybrid_parse_i64(f[i], 1, MAX_PROCS, count) != TILEHYBRID_OK)
                return cli_error(CMD, "--costs %s line %ld, column 'count': '%s' is not a "
                                      "whole number in 1..%d", r->path, r->line, f[i], MAX_PROCS);
        } else if (dst[col[i]] != NULL && parse_cost(r, col[i], f[i], dst[col[i]]) != 0) {
            return 2;
        }
    }
    return 0;
}

/* The processors of one data line: count of them, name or name#1.. */
static int add_row(table *t, const reader *r, const char *name, int64_t count, slb_affine c)
{
    char nm[MAX_NAME + 32];
    int64_t k;
    if (t->n + count > MAX_PROCS)
        return cli_error(CMD, "--costs %s line %ld: more than %d processors", r->path, r->line,
                         MAX_PROCS);
    for (k = 1; k <= count; k++) {
        if (count == 1)
            snprintf(nm, sizeof nm, "%s", name);
        else
            snprintf(nm, sizeof nm, "%s#%lld", name, (long long)k);
        if (add_proc(t, nm, r->line, c) != 0)
            return cli_error(CMD, "out of memory");
    }
    return 0;
}

/* The lines of the file after its first line: the header, then one row
 * each. */
static int read_rows(reader *r, table *t)
{
    int col[MAXF], nh = 0, rc, got;
    long hline = 0;
    while ((got = read_line(r)) == 1) {
        char *f[MAXF + 1], *s = trim(r->buf);
        const char *name = "";
        int64_t count = 0;
        slb_affine c;
        int nf;
        if (*s == '\0' || *s == '#')
            continue;
        nf = split(s, f, MAXF);
        if (nh == 0) {
            if ((rc = parse_header(r, f, nf, col)) != 0)
                return rc;
            nh = nf;
            hline = r->line;
            continue;
        }
        if (nf != nh)
            return cli_error(CMD, "--costs %s line %ld: %s%d fields, the header (line %ld) has %d",
                             r->path, r->line, nf > MAXF ? "more than " : "",
                             nf > MAXF ? MAXF : nf, hline, nh);
        if ((rc = parse_row(r, f, nf, col, &name, &count, &c)) != 0 ||
            (rc = add_row(t, r, name, count, c)) != 0)
            return rc;
    }
    if (got != 0)
        return got;
    if (nh == 0)
        return cli_error(CMD, "--costs %s: no header line (expected e.g. 'name,count,mu,lambda')",
                         r->path);
    if (t->n == 0)
        return cli_error(CMD, "--costs %s: no processors (only a header)", r->path);
    return 0;
}

/* Parse the cost file into t; prints a message and returns 2 on error. */
static int read_costs(const char *path, table *t)
{
    reader *r = (reader *)malloc(sizeof *r);
    int rc;
    if (r == NULL)
        return cli_error(CMD, "out of memory");
    r->f = fopen(path, "rb");
    r->path = path;
    r->line = 0;
    r->bytes = 0;
    if (r->f == NULL) {
        rc = cli_error(CMD, "--costs: cannot read '%s': %s", path, strerror(errno));
    } else {
        rc = read_rows(r, t);
        fclose(r->f);
    }
    free(r);
    if (rc == 0)
        rc = check_names(t, path);
    return rc;
}

/* The processor called name: exact match, or a line's base name when it
 * has a single processor. */
static int find_root(const table *t, const char *path, const char *name, int64_t *root)
{
    int64_t i, many = 0, first = -1;
    size_t len = strlen(name);
    for (i = 0; i < t->n; i++)
        if (strcmp(t->v[i].name, name) == 0) {
            *root = i;
            return 0;
        }
    for (i = 0; i < t->n; i++)
        if (strncmp(t->v[i].name, name, len) == 0 && t->v[i].name[len] == '#') {
            if (first < 0)
                first = i;
            many++;
        }
    if (many > 0)
        return cli_error(CMD, "--root: '%s' names %lld processors (%s line %ld); choose one of "
                              "%s#1 .. %s#%lld", name, (long long)many, path,
                         t->v[first].line, name, name, (long long)many);
    return cli_error(CMD, "--root: no processor named '%s' in %s", name, path);
}

/* ---- the command line ---- */

typedef struct args {
    const char *costs, *root_name, *method_s, *order_s;
    int64_t n;
    int json, method;
} args;

/* The options, each with a value (cli_options; --json is common). */
static const char *const scatter_names[] = { "--costs", "--items", "--method", "--order",
                                             "--root" };

/* The value of option name into a. */
static int set_option(void *state, int k, const char *v)
{
    args *a = (args *)state;
    const char *name = scatter_names[k];
    if (strcmp(name, "--costs") == 0)
        a->costs = v;
    else if (strcmp(name, "--items") == 0) {
        if (tilehybrid_parse_i64(v, 0, MAX_ITEMS, &a->n) != TILEHYBRID_OK)
            return cli_error(CMD, "--items: '%s' is not a whole number in 0..10^15", v);
    } else if (strcmp(name, "--method") == 0)
        a->method_s = v;
    else if (strcmp(name, "--order") == 0)
        a->order_s = v;
    else
        a->root_name = v;
    return 0;
}

/* The options' consistency and the method's number. */
static int check_args(args *a)
{
    if (a->costs == NULL)
        return cli_error(CMD, "--costs FILE is required (see --help)");
    if (a->n < 0)
        return cli_error(CMD, "--items N is required (see --help)");
    if (strcmp(a->method_s, "exact") == 0)
        a->method = SLB_METHOD_EXACT;
    else if (strcmp(a->method_s, "heuristic") == 0)
        a->method = SLB_METHOD_HEURISTIC;
    else if (strcmp(a->method_s, "uniform") == 0)
        a->method = SLB_METHOD_UNIFORM;
    else
        return cli_error(CMD, "--method: '%s' is not one of exact, heuristic, uniform",
                         a->method_s);
    if (strcmp(a->order_s, "bandwidth") != 0 && strcmp(a->order_s, "given") != 0)
        return cli_error(CMD, "--order: '%s' is not one of bandwidth, given", a->order_s);
    return 0;
}

/* Parse argv into a: 0, -1 for --help (printed), or 2 after a message. */
static int parse_args(int argc, char **argv, args *a)
{
    static const cli_options opts = { CMD, scatter_names, 5, 5, usage, set_option };
    int rc;
    memset(a, 0, sizeof *a);
    a->method_s = "exact";
    a->order_s = "bandwidth";
    a->n = -1;
    if ((rc = cli_parse_options(&opts, argc, argv, a, &a->json)) != 0)
        return rc;
    return check_args(a);
}

/* ---- solving and printing ---- */

typedef struct result {
    int64_t *order, *counts;
    double *finish, seconds;
    slb_info info;
} result;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The sending order and the distribution; 0, or 1/2 after a message that
 * names the processor (and its line) at fault. */
static int solve(const args *a, const table *t, int64_t root, result *res)
{
    int64_t p = t->n, k, j = 0;
    slb_affine *aff = (slb_affine *)malloc((size_t)p * sizeof *aff);
    tilehybrid_status st;
    slb_problem pb;
    int rc = SLB_OK;
    double t0;
    if (aff == NULL)
        return cli_error(CMD, "out of memory") - 1;
    for (k = 0; k < p; k++)
        aff[k] = t->v[k].cost;
    pb = slb_problem_affine(p, aff);
    t0 = now();
    if (strcmp(a->order_s, "bandwidth") == 0)
        rc = slb_order_bandwidth(&pb, a->n, root, res->order, &st);
    else
        for (k = 0; k < p; k++)
            if (k != root)
                res->order[j++] = k;
    res->order[p - 1] = root;
    if (rc == SLB_OK)
        rc = slb_solve(&pb, a->n, res->order, a->method, res->counts, res->finish, &res->info,
                       &st);
    res->seconds = now() - t0;
    free(aff);
    if (rc == SLB_OK)
        return 0;
    fprintf(stderr, "tilectl %s: %s", CMD, slb_strerror(rc));
    if (st.index >= 0 && st.index < p)
        fprintf(stderr, " (processor '%s', --costs %s line %ld)", t->v[st.index].name, a->costs,
                t->v[st.index].line);
    fputc('\n', stderr);
    return rc == SLB_ERR_COST || rc == SLB_ERR_ITEMS || rc == SLB_ERR_TIME ? 2 : 1;
}

static void print_json(const args *a, const table *t, int64_t root, const result *res)
{
    int64_t p = t->n, k;
    printf("{\"method\":\"%s\",\"order_policy\":\"%s\",\"items\":%lld,\"processors\":%lld,"
           "\"root\":", a->method_s, a->order_s, (long long)a->n, (long long)p);
    cli_json_string(stdout, t->v[root].name);
    printf(",\"order\":[");
    for (k = 0; k < p; k++) {
        if (k)
            putchar(',');
        cli_json_string(stdout, t->v[res->order[k]].name);
    }
    printf("],\"counts\":[");
    for (k = 0; k < p; k++)
        printf("%s%lld", k ? "," : "", (long long)res->counts[res->order[k]]);
    printf("],\"finish\":[");
    for (k = 0; k < p; k++)
        printf("%s%.17g", k ? "," : "", res->finish[res->order[k]]);
    printf("],\"makespan\":%.17g,\"seconds\":%.6g", res->info.makespan, res->seconds);
    if (a->method == SLB_METHOD_HEURISTIC) {
        /* bound is a sum of costs that the solver never adds: it can
         * overflow (+inf) while every finish time is finite; JSON has no
         * infinity, so null stands for "no finite guarantee" (docs/JSON.md) */
        printf(",\"rational\":");
        cli_json_double(stdout, res->info.rational);
        printf(",\"bound\":");
        cli_json_double(stdout, res->info.bound);
    }
    printf("}\n");
}

static void print_text(const args *a, const table *t, int64_t root, const result *res)
{
    int64_t p = t->n, k;
    int w = 9;
    for (k = 0; k < p; k++)
        if ((int)strlen(t->v[k].name) > w)
            w = (int)strlen(t->v[k].name);
    printf("%lld items on %lld processors, method %s, order %s, root %s (receives last)\n",
           (long long)a->n, (long long)p, a->method_s, a->order_s, t->v[root].name);
    printf("%5s  %-*s  %12s  %14s\n", "#", w, "processor", "items", "finish");
    for (k = 0; k < p; k++) {
        int64_t i = res->order[k];
        printf("%5lld  %-*s  %12lld  %14.6f%s\n", (long long)(k + 1), w, t->v[i].name,
               (long long)res->counts[i], res->finish[i],
               res->finish[i] == res->info.makespan ? "  <- makespan" : "");
    }
    printf("makespan %.6f (solved in %.3g s)\n", res->info.makespan, res->seconds);
    if (a->method == SLB_METHOD_HEURISTIC && res->info.bound - res->info.bound == 0.0)
        printf("rational lower bound %.6f; guaranteed within %.6f of the optimum (eq. 4)\n",
               res->info.rational, res->info.bound);
    else if (a->method == SLB_METHOD_HEURISTIC)
        printf("rational lower bound %.6f; no finite guarantee (the eq. 4 bound, sum lambda + "
               "max mu, overflows a double)\n",
               res->info.rational);
}

int tilectl_scatter(int argc, char **argv)
{
    args a;
    table t;
    result res;
    int64_t root = 0, p;
    int rc = parse_args(argc, argv, &a);
    memset(&t, 0, sizeof t);
    memset(&res, 0, sizeof res);
    if (rc == 0)
        rc = read_costs(a.costs, &t);
    if (rc == 0 && a.root_name != NULL)
        rc = find_root(&t, a.costs, a.root_name, &root);
    p = t.n;
    if (rc == 0) {
        res.order = (int64_t *)malloc((size_t)p * sizeof *res.order);
        res.counts = (int64_t *)malloc((size_t)p * sizeof *res.counts);
        res.finish = (double *)malloc((size_t)p * sizeof *res.finish);
        if (res.order == NULL || res.counts == NULL || res.finish == NULL)
            rc = cli_error(CMD, "out of memory");
    }
    if (rc == 0)
        rc = solve(&a, &t, root, &res);
    if (rc == 0 && a.json)
        print_json(&a, &t, root, &res);
    else if (rc == 0)
        print_text(&a, &t, root, &res);
    free(res.order);
    free(res.counts);
    free(res.finish);
    table_free(&t);
    /* the report, or the help (rc < 0): a full disk or a closed pipe is an error */
    return rc > 0 ? rc : cli_finish_output(CMD);
}
