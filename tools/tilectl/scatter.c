/* tilectl scatter -- load-balanced scatter distributions (scatterlb.h).
 *
 *   tilectl scatter --costs FILE --items N [--method exact|heuristic|uniform|dp]
 *                   [--order bandwidth|given] [--root NAME] [--force] [--json]
 *
 * Reads the processors' affine costs from a CSV file, orders them, computes
 * the distribution and prints the order, the items and the finish time of
 * each processor and the makespan (text, or JSON with --json). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#define TILEHYBRID_NO_MPI
#include "scatterlb.h"

#include <ctype.h>
#include <time.h>

#define CMD "scatter"
#define MAX_PROCS 100000
#define MAX_ITEMS 1000000000000000ll /* 10^15 */

static void usage(FILE *f)
{
    fputs("usage: tilectl scatter --costs FILE --items N [--method exact|heuristic|uniform|dp]\n"
          "                       [--order bandwidth|given] [--root NAME] [--force] [--json]\n"
          "Split N independent items of a root over heterogeneous processors so that the\n"
          "last one finishes as early as possible, the root sending to one processor after\n"
          "the other (Genaud, Giersch, Vivien 2003).  Prints the sending order, the items\n"
          "and the finish time of every processor, and the makespan.\n"
          "  --costs FILE   CSV file; its first line names the columns, in any order:\n"
          "                   name    processor name (required)\n"
          "                   count   identical processors on this line (required, >= 1);\n"
          "                           with count > 1 they are named name#1 .. name#count\n"
          "                   mu      time to compute one item (required)\n"
          "                   lambda  time to receive one item from the root (required)\n"
          "                   comp0   fixed computing time, any number of items (default 0)\n"
          "                   comm0   latency of the root's message (default 0)\n"
          "                   cpus, type, rating   informational, ignored\n"
          "                 Times in seconds (any unit: the output uses the same).  Blank\n"
          "                 lines and lines starting with '#' are skipped; no quoting.\n"
          "  --items N      number of items, 0 <= N <= 10^15\n"
          "  --method M     exact      the optimum, fast (default)\n"
          "                 heuristic  the paper's rounded rational solution, within\n"
          "                            sum lambda + max mu of the optimum (eq. 4)\n"
          "                 uniform    N/p items each, as MPI_Scatter does\n"
          "                 dp         the paper's Algorithm 2, O(p N^2): refused for\n"
          "                            N > 100000 unless --force\n"
          "  --order O      bandwidth  increasing lambda (decreasing bandwidth), root last\n"
          "                            (default; Theorem 3)\n"
          "                 given      the file's order, root last\n"
          "  --root NAME    the processor that holds the data and receives last\n"
          "                 (default: the first processor of the file)\n"
          "  --force        run --method dp whatever N\n"
          "  --json         print one JSON object: method, order_policy, items, root,\n"
          "                 order (names, in sending order), counts, finish (same order),\n"
          "                 makespan, seconds (solve time); heuristic adds rational, bound\n"
          "                 (each key: README, section \"JSON output\")\n"
          "  -h, --help     print this help and exit\n"
          "Options take their value as the next argument or after '='.\n"
          "Exit status: 0 success, 2 bad arguments or file, 1 solver failure.\n",
          f);
}

/* ---- CSV ---- */

enum { COL_NAME, COL_COUNT, COL_MU, COL_LAMBDA, COL_COMP0, COL_COMM0, COL_IGNORED, NCOLS };
static const char *col_names[NCOLS] = {"name", "count", "mu", "lambda", "comp0", "comm0", ""};

typedef struct proc {
    char *name;
    int line;
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

/* Read the whole file; NULL on error (errno set). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    if (f == NULL)
        return NULL;
    for (;;) {
        size_t got;
        if (cap - len < 4096) {
            char *nb;
            cap = cap ? 2 * cap : 65536;
            nb = (char *)realloc(buf, cap + 1);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    if (memchr(buf, '\0', len) != NULL) {
        free(buf);
        errno = EINVAL;
        return NULL;
    }
    buf[len] = '\0';
    return buf;
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

static int add_proc(table *t, const char *name, int line, slb_affine c)
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

#define MAXF 32

/* Parse the cost file into t; prints a message and returns 2 on error. */
static int read_costs(const char *path, table *t)
{
    char *buf = slurp(path), *line, *next;
    int col[MAXF], nh = 0, i, lineno = 0, hline = 0, seen[NCOLS];
    int rc = 0;
    if (buf == NULL)
        return cli_error(CMD, "--costs: cannot read '%s': %s", path, strerror(errno));
    for (i = 0; i < NCOLS; i++)
        seen[i] = 0;
    for (line = buf; line != NULL && rc == 0; line = next) {
        char *f[MAXF + 1], *s;
        int nf;
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        lineno++;
        s = trim(line);
        if (*s == '\0' || *s == '#')
            continue;
        nf = split(s, f, MAXF);
        if (nh == 0) { /* the header */
            if (nf > MAXF) {
                rc = cli_error(CMD, "%s line %d: more than %d columns", path, lineno, MAXF);
                break;
            }
            for (i = 0; i < nf && rc == 0; i++) {
                int c;
                for (c = 0; c < COL_IGNORED; c++)
                    if (ieq(f[i], col_names[c]))
                        break;
                if (c == COL_IGNORED && !ieq(f[i], "cpus") && !ieq(f[i], "type") &&
                    !ieq(f[i], "rating")) {
                    rc = cli_error(CMD, "%s line %d: unknown column '%s' (columns: name, count, "
                                        "mu, lambda, comp0, comm0; ignored: cpus, type, rating)",
                                   path, lineno, f[i]);
                    break;
                }
                if (c < COL_IGNORED && seen[c]++) {
                    rc = cli_error(CMD, "%s line %d: column '%s' appears twice", path, lineno,
                                   col_names[c]);
                    break;
                }
                col[i] = c;
            }
            for (i = 0; i < COL_COMP0 && rc == 0; i++)
                if (!seen[i])
                    rc = cli_error(CMD, "%s line %d: missing column '%s' (required: name, count, "
                                        "mu, lambda)", path, lineno, col_names[i]);
            nh = nf;
            hline = lineno;
            continue;
        }
        if (nf != nh) {
            rc = cli_error(CMD, "%s line %d: %s%d fields, the header (line %d) has %d", path,
                           lineno, nf > MAXF ? "more than " : "", nf > MAXF ? MAXF : nf, hline,
                           nh);
            break;
        }
        {
            slb_affine c;
            const char *name = NULL;
            int64_t count = 0, k;
            memset(&c, 0, sizeof c);
            for (i = 0; i < nf && rc == 0; i++) {
                double v = 0;
                switch (col[i]) {
                case COL_NAME:
                    name = f[i];
                    if (*name == '\0')
                        rc = cli_error(CMD, "%s line %d, column 'name': empty name", path, lineno);
                    break;
                case COL_COUNT:
                    if (cli_parse_i64(f[i], 1, MAX_PROCS, &count) != 0)
                        rc = cli_error(CMD, "%s line %d, column 'count': '%s' is not a whole "
                                            "number in 1..%d", path, lineno, f[i], MAX_PROCS);
                    break;
                case COL_MU:
                case COL_LAMBDA:
                case COL_COMP0:
                case COL_COMM0:
                    if (cli_parse_double(f[i], &v) != 0 || v < 0)
                        rc = cli_error(CMD, "%s line %d, column '%s': '%s' is not a number >= 0",
                                       path, lineno, col_names[col[i]], f[i]);
                    else if (col[i] == COL_MU)
                        c.mu = v;
                    else if (col[i] == COL_LAMBDA)
                        c.lambda = v;
                    else if (col[i] == COL_COMP0)
                        c.comp0 = v;
                    else
                        c.comm0 = v;
                    break;
                default:
                    break;
                }
            }
            if (rc != 0)
                break;
            if (t->n + count > MAX_PROCS) {
                rc = cli_error(CMD, "%s line %d: more than %d processors", path, lineno, MAX_PROCS);
                break;
            }
            for (k = 1; k <= count && rc == 0; k++) {
                char nm[512];
                int64_t j;
                if (strlen(name) > 480) {
                    rc = cli_error(CMD, "%s line %d, column 'name': longer than 480 characters",
                                   path, lineno);
                    break;
                }
                if (count == 1)
                    snprintf(nm, sizeof nm, "%s", name);
                else
                    snprintf(nm, sizeof nm, "%s#%lld", name, (long long)k);
                for (j = 0; j < t->n; j++)
                    if (strcmp(t->v[j].name, nm) == 0)
                        break;
                if (j < t->n) {
                    rc = cli_error(CMD, "%s line %d: processor name '%s' already used on line %d",
                                   path, lineno, nm, t->v[j].line);
                    break;
                }
                if (add_proc(t, nm, lineno, c) != 0) {
                    rc = cli_error(CMD, "out of memory");
                    break;
                }
            }
        }
    }
    if (rc == 0 && nh == 0)
        rc = cli_error(CMD, "%s: no header line (expected e.g. 'name,count,mu,lambda')", path);
    else if (rc == 0 && t->n == 0)
        rc = cli_error(CMD, "%s: no processors (only a header)", path);
    free(buf);
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
        return cli_error(CMD, "--root: '%s' names %lld processors (%s line %d); choose one of "
                              "%s#1 .. %s#%lld", name, (long long)many, path,
                         t->v[first].line, name, name, (long long)many);
    return cli_error(CMD, "--root: no processor named '%s' in %s", name, path);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int tilectl_scatter(int argc, char **argv)
{
    const char *costs = NULL, *root_name = NULL, *method_s = "exact", *order_s = "bandwidth";
    int64_t n = -1, root = 0, p, k, *order = NULL, *counts = NULL;
    int json = 0, method, rc, i;
    double *finish = NULL, t0, secs;
    table t;
    slb_problem pb;
    slb_affine *aff = NULL;
    slb_info info;
    tilehybrid_status st;

    memset(&info, 0, sizeof info);
    memset(&st, 0, sizeof st);
    st.index = -1;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v, *eq;
        char name[16];
        size_t len;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--json") == 0) {
            json = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0)
            return cli_error(CMD, "unexpected argument '%s' (try --help)", a);
        /* --name value or --name=value */
        eq = strchr(a, '=');
        len = eq != NULL ? (size_t)(eq - a) : strlen(a);
        if (len >= sizeof name)
            return cli_error(CMD, "unknown option '%s' (try --help)", a);
        memcpy(name, a, len);
        name[len] = '\0';
        if (strcmp(name, "--costs") != 0 && strcmp(name, "--items") != 0 &&
            strcmp(name, "--method") != 0 && strcmp(name, "--order") != 0 &&
            strcmp(name, "--root") != 0)
            return cli_error(CMD, "unknown option '%s' (try --help)", name);
        if (eq != NULL)
            v = eq + 1;
        else if (i + 1 < argc)
            v = argv[++i];
        else
            return cli_error(CMD, "%s needs a value (try --help)", name);
        if (strcmp(name, "--costs") == 0) {
            costs = v;
        } else if (strcmp(name, "--items") == 0) {
            if (cli_parse_i64(v, 0, MAX_ITEMS, &n) != 0)
                return cli_error(CMD, "--items: '%s' is not a whole number in 0..10^15", v);
        } else if (strcmp(name, "--method") == 0) {
            method_s = v;
        } else if (strcmp(name, "--order") == 0) {
            order_s = v;
        } else {
            root_name = v;
        }
    }
    if (costs == NULL)
        return cli_error(CMD, "--costs FILE is required (try --help)");
    if (n < 0)
        return cli_error(CMD, "--items N is required (try --help)");
    if (strcmp(method_s, "exact") == 0)
        method = SLB_METHOD_EXACT;
    else if (strcmp(method_s, "heuristic") == 0)
        method = SLB_METHOD_HEURISTIC;
    else if (strcmp(method_s, "uniform") == 0)
        method = SLB_METHOD_UNIFORM;
    else
        return cli_error(CMD, "--method: '%s' is not one of exact, heuristic, uniform",
                         method_s);
    if (strcmp(order_s, "bandwidth") != 0 && strcmp(order_s, "given") != 0)
        return cli_error(CMD, "--order: '%s' is not one of bandwidth, given", order_s);

    memset(&t, 0, sizeof t);
    rc = read_costs(costs, &t);
    if (rc != 0) {
        table_free(&t);
        return rc;
    }
    p = t.n;
    if (root_name != NULL && (rc = find_root(&t, costs, root_name, &root)) != 0) {
        table_free(&t);
        return rc;
    }
    aff = (slb_affine *)malloc((size_t)p * sizeof *aff);
    order = (int64_t *)malloc((size_t)p * sizeof *order);
    counts = (int64_t *)malloc((size_t)p * sizeof *counts);
    finish = (double *)malloc((size_t)p * sizeof *finish);
    if (aff == NULL || order == NULL || counts == NULL || finish == NULL) {
        rc = cli_error(CMD, "out of memory");
        goto out;
    }
    for (k = 0; k < p; k++)
        aff[k] = t.v[k].cost;
    pb = slb_problem_affine(p, aff);
    t0 = now();
    if (strcmp(order_s, "bandwidth") == 0) {
        rc = slb_order_bandwidth(&pb, n, root, order, &st);
    } else {
        int64_t j = 0;
        for (k = 0; k < p; k++)
            if (k != root)
                order[j++] = k;
        order[p - 1] = root;
        rc = SLB_OK;
    }
    if (rc == SLB_OK)
        rc = slb_solve(&pb, n, order, method, counts, finish, &info, &st);
    secs = now() - t0;
    if (rc != SLB_OK) {
        fprintf(stderr, "tilectl %s: %s", CMD, slb_strerror(rc));
        if (st.index >= 0 && st.index < p)
            fprintf(stderr, " (processor '%s', %s line %d)", t.v[st.index].name, costs,
                    t.v[st.index].line);
        fputc('\n', stderr);
        rc = (rc == SLB_ERR_COST || rc == SLB_ERR_ITEMS) ? 2 : 1;
        goto out;
    }
    if (json) {
        printf("{\"method\":\"%s\",\"order_policy\":\"%s\",\"items\":%lld,\"processors\":%lld,"
               "\"root\":", method_s, order_s, (long long)n, (long long)p);
        cli_json_string(stdout, t.v[root].name);
        printf(",\"order\":[");
        for (k = 0; k < p; k++) {
            if (k)
                putchar(',');
            cli_json_string(stdout, t.v[order[k]].name);
        }
        printf("],\"counts\":[");
        for (k = 0; k < p; k++)
            printf("%s%lld", k ? "," : "", (long long)counts[order[k]]);
        printf("],\"finish\":[");
        for (k = 0; k < p; k++)
            printf("%s%.17g", k ? "," : "", finish[order[k]]);
        printf("],\"makespan\":%.17g,\"seconds\":%.6g", info.makespan, secs);
        if (method == SLB_METHOD_HEURISTIC)
            printf(",\"rational\":%.17g,\"bound\":%.17g", info.rational, info.bound);
        printf("}\n");
    } else {
        int w = 9;
        for (k = 0; k < p; k++)
            if ((int)strlen(t.v[k].name) > w)
                w = (int)strlen(t.v[k].name);
        printf("%lld items on %lld processors, method %s, order %s, root %s (receives last)\n",
               (long long)n, (long long)p, method_s, order_s, t.v[root].name);
        printf("%5s  %-*s  %12s  %14s\n", "#", w, "processor", "items", "finish");
        for (k = 0; k < p; k++)
            printf("%5lld  %-*s  %12lld  %14.6f%s\n", (long long)(k + 1), w, t.v[order[k]].name,
                   (long long)counts[order[k]], finish[order[k]],
                   finish[order[k]] == info.makespan ? "  <- makespan" : "");
        printf("makespan %.6f (solved in %.3g s)\n", info.makespan, secs);
        if (method == SLB_METHOD_HEURISTIC)
            printf("rational lower bound %.6f; guaranteed within %.6f of the optimum "
                   "(eq. 4)\n", info.rational, info.bound);
    }
    rc = 0;
out:
    free(aff);
    free(order);
    free(counts);
    free(finish);
    table_free(&t);
    return rc;
}
