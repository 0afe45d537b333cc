/* tilectl balance -- balancing factors of the funneled hybrid model (balance.h).
 *
 *   tilectl balance --procs-grid 4x2 --threads 2 --space 256x64x16384 --deps 1,1
 *                   --tile-height 100 --tcomp 288e-9 --tstartup 107e-6
 *                   --bandwidth 12.5e6 --elem-bytes 8 [--json]
 *
 * Prints the constant factor of eq. 1 and the variable factor of every
 * process of the grid in rank order of an MPI Cartesian communicator (last
 * coordinate fastest), flagging the factors that were clamped to [0,1]. */
#include "cli.h"

#include "balance.h"

#define CTL_MAX_DIMS 8

static const char *cmd = "balance";

static void usage(FILE *f)
{
    fputs("usage: tilectl balance --procs-grid P1x..xPN --threads T --space X1x..xXNxZ\n"
          "                       --deps d1,..,dN --tile-height z [model options] [--json]\n"
          "Balancing factors of the coarse-grain funneled hybrid model (balance.h, eq. 1):\n"
          "the master thread of each process computes bal/T of the process's points per\n"
          "step, each other thread (T-bal)/(T(T-1)), so that the master's message passing\n"
          "is hidden behind the other threads' extra work.\n"
          "  --procs-grid P1xP2..  processes per dimension (N dimensions)\n"
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
          "  --help                this text\n"
          "Model options default to the environment variable in brackets when it is set;\n"
          "--tcomp, --tstartup and --bandwidth are required otherwise.  Option values\n"
          "override the environment.\n"
          "Output: the constant factor (every dimension counted) and the variable factor\n"
          "of every process in rank order (row-major, last coordinate fastest), with the\n"
          "dimensions (1-based) it sends along; 'clamped' marks a factor cut to 0 because\n"
          "the communication alone exceeds the master's even share.\n"
          "Exit status: 0 ok, 2 bad arguments.\n",
          f);
}

/* "--name value" or "--name=value"; returns the value or NULL (no match). */
static const char *opt_value(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t len = strlen(name);
    const char *a = argv[*i];
    *missing = 0;
    if (strncmp(a, name, len) != 0)
        return NULL;
    if (a[len] == '=')
        return a + len + 1;
    if (a[len] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    *i += 1;
    return argv[*i];
}

static int model_opt(const char *name, const char *v, double *field, int positive)
{
    if (cli_parse_double(v, field) != 0 || (positive ? !(*field > 0) : !(*field >= 0)))
        return cli_error(cmd, "%s: '%s' is not a number %s", name, v, positive ? "> 0" : ">= 0");
    return 0;
}

/* The shortest of %.15g, %.16g, %.17g that reads back as the same double:
 * 2.88e-07 rather than 2.8799999999999998e-07, and still lossless. */
static void print_json_double(double v)
{
    char buf[40];
    int prec;
    for (prec = 15; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    fputs(buf, stdout);
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

/* One line of the text table. */
static void print_rank(int64_t r, int n, const int *pdims, const int *coords,
                       const int64_t *deps, double b, int threads, int clamped)
{
    char cbuf[8 * 12 + 3], sbuf[8 * 3 + 2];
    size_t cp = 0, sp = 0;
    int d;
    cbuf[cp++] = '(';
    for (d = 0; d < n; d++)
        cp += (size_t)sprintf(cbuf + cp, "%s%d", d > 0 ? "," : "", coords[d]);
    cbuf[cp++] = ')';
    cbuf[cp] = '\0';
    for (d = 0; d < n; d++)
        if (pdims[d] > 1 && coords[d] < pdims[d] - 1 && deps[d] > 0)
            sp += (size_t)sprintf(sbuf + sp, "%s%d", sp > 0 ? "," : "", d + 1);
    if (sp == 0)
        strcpy(sbuf, "-");
    printf("%6lld  %-14s  %-12s  %.6f  %6.2f%%%s\n", (long long)r, cbuf, sbuf, b,
           100.0 * b / threads, clamped ? "  clamped" : "");
}

int tilectl_balance(int argc, char **argv)
{
    int64_t grid[CTL_MAX_DIMS], space[CTL_MAX_DIMS + 1], deps[CTL_MAX_DIMS];
    int64_t extent[CTL_MAX_DIMS], z = 0, threads = 0, nprocs = 1, r;
    int pdims[CTL_MAX_DIMS], coords[CTL_MAX_DIMS];
    int n = 0, nspace = 0, ndeps = 0, json = 0, found = 0, given = 0, i, rc;
    tilehybrid_status bad;
    int have_grid = 0, have_space = 0, have_deps = 0, have_z = 0, have_t = 0;
    double con = 0;
    int con_clamped = 0;
    const char *zs = NULL;
    bal_model m;
    m.tcomp = m.tstartup = m.bandwidth = 0;
    m.elem_bytes = 8;

    for (i = 1; i < argc; i++) {
        const char *v;
        int missing;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
            continue;
        }
#define CTL_OPT(name)                                                         \
    ((v = opt_value(argc, argv, &i, name, &missing)) == NULL && missing       \
         ? cli_error(cmd, "%s needs a value", name)                           \
         : 0)
        if (CTL_OPT("--procs-grid"))
            return 2;
        if (v != NULL) {
            n = cli_parse_i64_list(v, "x", 1, INT_MAX, grid, CTL_MAX_DIMS);
            if (n < 1)
                return cli_error(cmd, "--procs-grid: '%s' is not a grid like 4x2 "
                                      "(1 to %d whole numbers >= 1 separated by 'x')",
                                 v, CTL_MAX_DIMS);
            have_grid = 1;
            continue;
        }
        if (CTL_OPT("--space"))
            return 2;
        if (v != NULL) {
            nspace = cli_parse_i64_list(v, "x", 1, INT64_MAX, space, CTL_MAX_DIMS + 1);
            if (nspace < 2)
                return cli_error(cmd, "--space: '%s' is not a space like 256x64x16384 "
                                      "(2 to %d whole numbers >= 1 separated by 'x', Z last)",
                                 v, CTL_MAX_DIMS + 1);
            have_space = 1;
            continue;
        }
        if (CTL_OPT("--deps"))
            return 2;
        if (v != NULL) {
            ndeps = cli_parse_i64_list(v, ",", 0, INT64_MAX, deps, CTL_MAX_DIMS);
            if (ndeps < 1)
                return cli_error(cmd, "--deps: '%s' is not a list like 1,1 "
                                      "(whole numbers >= 0 separated by ',')", v);
            have_deps = 1;
            continue;
        }
        if (CTL_OPT("--tile-height"))
            return 2;
        if (v != NULL) {
            if (cli_parse_i64(v, 1, INT64_MAX, &z) != 0)
                return cli_error(cmd, "--tile-height: '%s' is not a whole number >= 1", v);
            zs = v;
            have_z = 1;
            continue;
        }
        if (CTL_OPT("--threads"))
            return 2;
        if (v != NULL) {
            if (cli_parse_i64(v, 1, INT_MAX, &threads) != 0)
                return cli_error(cmd, "--threads: '%s' is not a whole number >= 1", v);
            have_t = 1;
            continue;
        }
        if (CTL_OPT("--tcomp"))
            return 2;
        if (v != NULL) {
            if (model_opt("--tcomp", v, &m.tcomp, 1))
                return 2;
            given |= BAL_HAVE_TCOMP;
            continue;
        }
        if (CTL_OPT("--tstartup"))
            return 2;
        if (v != NULL) {
            if (model_opt("--tstartup", v, &m.tstartup, 0))
                return 2;
            given |= BAL_HAVE_TSTARTUP;
            continue;
        }
        if (CTL_OPT("--bandwidth"))
            return 2;
        if (v != NULL) {
            if (model_opt("--bandwidth", v, &m.bandwidth, 1))
                return 2;
            given |= BAL_HAVE_BANDWIDTH;
            continue;
        }
        if (CTL_OPT("--elem-bytes"))
            return 2;
        if (v != NULL) {
            if (model_opt("--elem-bytes", v, &m.elem_bytes, 1))
                return 2;
            given |= BAL_HAVE_ELEM_BYTES;
            continue;
        }
#undef CTL_OPT
        if (argv[i][0] == '-')
            return cli_error(cmd, "unknown option '%s' (see tilectl balance --help)", argv[i]);
        return cli_error(cmd, "unexpected argument '%s' (see tilectl balance --help)", argv[i]);
    }

    if (!have_grid)
        return cli_error(cmd, "missing --procs-grid (e.g. --procs-grid 4x2)");
    if (!have_t)
        return cli_error(cmd, "missing --threads (e.g. --threads 2)");
    if (!have_space)
        return cli_error(cmd, "missing --space (e.g. --space 256x64x16384)");
    if (!have_deps)
        return cli_error(cmd, "missing --deps (e.g. --deps 1,1)");
    if (!have_z)
        return cli_error(cmd, "missing --tile-height (e.g. --tile-height 100)");

    /* Environment for what the options did not give; a malformed variable is
     * an error even when an option overrides it (fix the environment). */
    {
        bal_model env = m;
        rc = bal_model_from_env(&env, &found);
        if (rc != 0)
            return cli_error(cmd, "%s", bal_strerror(rc));
        if (!(given & BAL_HAVE_TCOMP))
            m.tcomp = env.tcomp;
        if (!(given & BAL_HAVE_TSTARTUP))
            m.tstartup = env.tstartup;
        if (!(given & BAL_HAVE_BANDWIDTH))
            m.bandwidth = env.bandwidth;
        if (!(given & BAL_HAVE_ELEM_BYTES))
            m.elem_bytes = env.elem_bytes;
        given |= found;
    }
    if (!(given & BAL_HAVE_TCOMP))
        return cli_error(cmd, "missing --tcomp (seconds per iteration, e.g. 288e-9; "
                              "or set TILEHYBRID_TCOMP)");
    if (!(given & BAL_HAVE_TSTARTUP))
        return cli_error(cmd, "missing --tstartup (seconds per message, e.g. 107e-6; "
                              "or set TILEHYBRID_TSTARTUP)");
    if (!(given & BAL_HAVE_BANDWIDTH))
        return cli_error(cmd, "missing --bandwidth (bytes per second, e.g. 12.5e6; "
                              "or set TILEHYBRID_BANDWIDTH)");

    if (nspace != n + 1)
        return cli_error(cmd, "--space has %d value(s) but --procs-grid has %d dimension(s): "
                              "give %d extent(s) and then Z",
                         nspace, n, n);
    if (ndeps != n)
        return cli_error(cmd, "--deps has %d value(s) but --procs-grid has %d dimension(s)", ndeps,
                         n);
    if (z > space[n])
        return cli_error(cmd, "--tile-height %s is larger than Z = %lld", zs,
                         (long long)space[n]);
    for (i = 0; i < n; i++) {
        pdims[i] = (int)grid[i];
        extent[i] = space[i];
        if (nprocs > INT_MAX / grid[i])
            return cli_error(cmd, "--procs-grid: more than %d processes", INT_MAX);
        nprocs *= grid[i];
    }
    rc = bal_factor_check(n, pdims, NULL, (int)threads, extent, z, deps, &bad);
    if (rc == BAL_ERR_EMPTY)
        return cli_error(cmd, "--procs-grid has %d processes along dimension %d but --space "
                              "only %lld points there",
                         pdims[bad.index], (int)bad.index + 1, (long long)extent[bad.index]);
    if (rc != 0) /* all other cases are excluded by the parsing above */
        return cli_error(cmd, "%s", bal_strerror(rc));

    rc = bal_factor(&m, n, pdims, NULL, (int)threads, extent, z, deps, &con, &con_clamped);
    if (rc == BAL_ERR_OVERFLOW)
        return cli_error(cmd, "--space, --tile-height: %s", bal_strerror(rc));
    if (rc != 0)
        return cli_error(cmd, "%s", bal_strerror(rc));

    if (json) {
        printf("{\"procs_grid\":");
        cli_print_i64s(stdout, grid, n, NULL);
        printf(",\"threads\":%lld,\"space\":", (long long)threads);
        cli_print_i64s(stdout, space, n + 1, NULL);
        printf(",\"deps\":");
        cli_print_i64s(stdout, deps, n, NULL);
        printf(",\"tile_height\":%lld,\"model\":{\"tcomp\":", (long long)z);
        print_json_double(m.tcomp);
        printf(",\"tstartup\":");
        print_json_double(m.tstartup);
        printf(",\"bandwidth\":");
        print_json_double(m.bandwidth);
        printf(",\"elem_bytes\":");
        print_json_double(m.elem_bytes);
        printf("},\"constant\":");
        print_json_double(con);
        printf(",\"variable\":[");
    } else {
        printf("grid ");
        cli_print_i64s(stdout, grid, n, "x");
        printf(" processes x %lld threads, space ", (long long)threads);
        cli_print_i64s(stdout, space, n + 1, "x");
        printf(", deps ");
        cli_print_i64s(stdout, deps, n, ",");
        printf(", tile height %lld\n", (long long)z);
        printf("model: tcomp %g s/iteration, tstartup %g s/message, bandwidth %g B/s, "
               "%g bytes/element\n",
               m.tcomp, m.tstartup, m.bandwidth, m.elem_bytes);
        printf("constant factor: %.6f%s (master computes %.2f%% of a step, each other thread "
               "%.2f%%)\n",
               con, con_clamped ? " clamped" : "", 100.0 * con / (double)threads,
               threads > 1 ? 100.0 * ((double)threads - con) / ((double)threads * (threads - 1))
                           : 0.0);
        printf("variable factors, rank order (last coordinate fastest):\n");
        printf("%6s  %-14s  %-12s  %-8s  %s\n", "rank", "coords", "sends-along", "factor",
               "master-share");
    }

    /* Every rank, in Cartesian rank order.  The JSON takes two passes:
     * the factors, then the clamped flags. */
    {
        int pass, npass = json ? 2 : 1, any = 0;
        for (pass = 0; pass < npass; pass++) {
            for (i = 0; i < n; i++)
                coords[i] = 0;
            for (r = 0; r < nprocs; r++) {
                double b = 0;
                int cflag = 0;
                rc = bal_factor(&m, n, pdims, coords, (int)threads, extent, z, deps, &b, &cflag);
                if (rc != 0) {
                    fflush(stdout);
                    return cli_error(cmd, "rank %lld: %s", (long long)r, bal_strerror(rc));
                }
                any |= cflag;
                if (json && pass == 0) {
                    fputs(r > 0 ? "," : "", stdout);
                    print_json_double(b);
                } else if (json) {
                    printf("%s%s", r > 0 ? "," : "", cflag ? "true" : "false");
                } else {
                    print_rank(r, n, pdims, coords, deps, b, (int)threads, cflag);
                }
                next_coords(n, pdims, coords);
            }
            if (json && pass == 0)
                printf("],\"clamped\":{\"constant\":%s,\"variable\":[",
                       con_clamped ? "true" : "false");
        }
        if (json)
            printf("]}}\n");
        else if (any || con_clamped)
            printf("clamped: eq. 1 asked for a factor below 0 (the master's communication alone "
                   "takes longer than the other threads' computation even when they do all of "
                   "it); the factor is 0: the master only communicates.\n");
    }
    return 0;
}
