/* demos/demo.h -- the command line, checksum, verification and report shared
 * by the ADI and DE demos (a helper for the demos, not an installed header).
 *
 * A demo describes its kernel in a demo_kernel (name, default space,
 * dependences, the plain sequential loop for one Z plane) and writes its own
 * main():
 *
 *     int main(int argc, char **argv)
 *     {
 *         demo_job d;                                       // options, plan, checksum
 *         if (demo_begin(&d, &argc, &argv, &kernel) == DEMO_GO)  // parse, MPI_Init, plan
 *             DEMO_RUN(&d.plan, it, { ... the point update ...;
 *                                     tile_reduce_u64(&it, &d.sum, demo_bits(v)); });
 *         return demo_end(&d);        // report, MPI_Finalize; the exit status
 *     }
 *
 * (demo_begin() is demo_start() then demo_plan(), demo_end() demo_finish()
 * after a run; a demo may call those three itself.)
 *
 * The checksum, the sum modulo 2^64 of the bit patterns of every computed
 * value, is a SUM_U64 reduction declared on the plan (demo_plan): the
 * toolkit combines the threads' and ranks' parts (the same in any order),
 * and every rank has the result in sum.u64 after the run.
 *
 * Command line (every demo):
 *
 *   mpiexec -n P ./demos/adi [--space 16x256x16384] [--tile-height z]
 *       [--model mpi|fine|funneled|multiple] [--threads T]
 *       [--grid comm|latency|time|AxB] [--bal F] [--verify] [--json]
 *       [--balance none|fixed|constant|variable|adaptive]
 *       [--tcomp S] [--tstartup S] [--bandwidth B]      (cost model; else measured)
 *       [--adapt-period STEPS]                          (adaptive; default 2PT)
 *       [--order planes|z|hyper|auto]                   (in-tile order; default
 *                                                        auto: the plan's choice)
 *       [--progress | --no-progress] [-h | --help]
 *
 * Every rank reads its own command line, then the ranks agree on it in one
 * collective (demo_agree, demos/agree.h) before any of them leaves: a bad
 * argument on one rank only, or options that differ between ranks, stop
 * every rank with one message from rank 0 ("adi: rank 1: --space ...").
 * Exit status 0, 1 (--verify mismatch, failed run) or 2 (bad or differing
 * arguments, a configuration the plan refuses), the same on every rank.
 * The summary and the JSON's "order" say the in-tile order that ran
 * (plan.store.order: planes, z or hyper); "order_asked" says --order.
 * The --json keys are listed in docs/JSON.md.
 */
#ifndef TILEHYBRID_DEMO_H
#define TILEHYBRID_DEMO_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L     /* isatty, readlink */
#endif

#include "../hybrid.h"
#include "agree.h"
#include "checkpoint.h"
#include "edge.h"

#include <math.h>
#include <stdarg.h>
#include <unistd.h>

/** demo_start(), demo_plan() and demo_begin() return DEMO_GO when the demo goes on. */
#define DEMO_GO (-1)

/**
 * struct demo_kernel - what a demo computes.
 * @name:      the demo's name (messages, report).
 * @space:     the default X1 x X2 x Z.
 * @dep, @depz: the dependence widths d_1, d_2, d_Z.
 * @seq_plane: the plain sequential loop for plane z, from plane z - 1 (for
 *             --verify and the benchmarks).
 */
typedef struct demo_kernel {
    const char *name;
    int64_t space[3];
    int dep[2], depz;
    void (*seq_plane)(const double *prev, double *cur, int64_t X, int64_t Y, int64_t z);
} demo_kernel;


static inline uint64_t demo_bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

typedef struct demo_opts {
    int64_t space[3], tile_height;
    int model, threads, grid[2], policy, verify, json, balance, order, help;
    int bal_given;              /* --bal was given (it applies to the funneled model only) */
    int progress;               /* -1: when stderr is a terminal; 0: never; 1: always */
    double bal, tcomp, tstartup, bandwidth;
    int64_t adapt_period;
    demo_ckpt_opts ckpt;        /* --checkpoint, --checkpoint-every, --restart */
} demo_opts;

/* This rank's first argument error; once MPI is up every rank agrees on
 * the command line (demo_agree) and rank 0 prints "<demo>: rank R: <it>"
 * (a process that leaves before MPI_Init upsets some launchers). */
static char demo_errmsg[DEMO_MSGLEN];

/* Record the message (the first error only); returns 2, the exit status of
 * a usage error. */
static int demo_usage(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int demo_usage(const char *fmt, ...)
{
    if (demo_errmsg[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(demo_errmsg, sizeof demo_errmsg, fmt, ap);
        va_end(ap);
    }
    return 2;
}

static void demo_print_help(const demo_kernel *k)
{
    printf("usage: mpiexec -n P ./demos/%s [options]\n"
           "Runs the %s kernel tiled over P processes (see demos/%s.c), prints a\n"
           "summary and the checksum of every computed value.\n"
           "  --space X1xX2xZ        iteration space, three whole numbers >= 1 "
           "(default %lldx%lldx%lld)\n"
           "  --tile-height z        tile height along Z, >= 1 (default: the plan chooses\n"
           "                         it by its pipeline model; the summary says which)\n"
           "  --model M              mpi, fine, funneled or multiple (default mpi)\n"
           "  --threads T            threads per process, 1..1024 (default 1; the mpi\n"
           "                         model needs 1)\n"
           "  --grid G               process grid: comm (least volume, default),\n"
           "                         latency (as MPI_Dims_create), time (least\n"
           "                         predicted time: costs from --tcomp, --tstartup,\n"
           "                         --bandwidth, else TILEHYBRID_*, else the papers'\n"
           "                         cluster) or AxB\n"
           "  --bal F                funneled: the master's share factor in [0, 1] "
           "(default 1)\n"
           "  --balance B            funneled: none, fixed, constant, variable or adaptive\n"
           "  --tcomp S              cost model: seconds per point (> 0)\n"
           "  --tstartup S           cost model: seconds per message (> 0; none:\n"
           "                         TILEHYBRID_TSTARTUP=0)\n"
           "  --bandwidth B          cost model: bytes per second (> 0); without the\n"
           "                         three, the model is measured\n"
           "  --adapt-period STEPS   adaptive balancing: steps between evaluations\n"
           "  --order O              in-tile order: planes (Z outermost), z (Z innermost),\n"
           "                         hyper (anti-diagonals of each plane, SIMD) or auto\n"
           "                         (default: the plan's choice; the summary says which)\n"
           DEMO_CKPT_HELP
           "                     (inside the run: Nsteps counts its tile steps)\n"
           "  --verify               compare every point with the sequential loop\n"
           "  --json                 print one JSON object (keys: docs/JSON.md)\n"
           "  --progress             show progress on stderr even when it is not a\n"
           "                         terminal (under mpiexec it never is)\n"
           "  --no-progress          never show progress\n"
           "  -h, --help             print this help and exit\n"
           "Options take their value as the next argument or after '='.  Rank 0 shows\n"
           "the percentage of its tiles done on stderr when stderr is a terminal,\n"
           "except with --json.\n"
           "Exit status: 0 ok, 1 --verify found a mismatch or the run failed,\n"
           "2 bad arguments or a configuration the plan refuses, 75 stopped on SIGUSR1\n"
           "after a checkpoint (run again with --restart).\n",
           k->name, k->name, k->name, (long long)k->space[0], (long long)k->space[1],
           (long long)k->space[2]);
}

/* Parse "AxBx..." with exactly `want` whole numbers >= 1, each by the one
 * rule of every program (tilehybrid_parse_i64(): digits only, no sign,
 * space or other base), nothing after the last one; 0 on success, -1
 * otherwise. */
static int demo_parse_list(const char *s, int64_t *out, int want)
{
    int k;
    for (k = 0; k < want; k++) {
        char num[64];
        size_t len = strcspn(s, "x");
        if ((s[len] == 'x') != (k + 1 < want) || len >= sizeof num)
            return -1;
        memcpy(num, s, len);
        num[len] = '\0';
        if (tilehybrid_parse_i64(num, 1, INT64_MAX, &out[k]) != TILEHYBRID_OK)
            return -1;
        s += len + 1;
    }
    return 0;
}

/* Real number option a (value v) into *out, which must satisfy ok(*out)
 * (what: the allowed values in words); 0, or the exit status after a
 * message that names a, v and the cause.  Subnormals are numbers; a literal
 * beyond a double's range (1e-400, 1e999) is a range error, not 0 or inf. */
static int demo_parse_real(const char *a, const char *v, int (*ok)(double), const char *what,
                           double *out)
{
    char msg[DEMO_MSGLEN];
    int code = tilehybrid_parse_double(v, -HUGE_VAL, HUGE_VAL, out);
    if (code != TILEHYBRID_OK)
        return demo_real_error(a, v, code, what, msg, sizeof msg), demo_usage("%s", msg);
    if (!ok(*out))
        return demo_usage("%s '%s': expected %s", a, v, what);
    return 0;
}

static int demo_unit(double x)
{
    return x >= 0.0 && x <= 1.0;
}

static int demo_positive(double x)
{
    return x > 0.0;
}

/* Options that take a value. */
static const char *const demo_valued[] = {
    "--space", "--tile-height", "--threads", "--model", "--grid", "--bal", "--balance",
    "--tcomp", "--tstartup", "--bandwidth", "--order", "--adapt-period", DEMO_CKPT_OPTIONS
};

/* The in-tile orders' words (tiling.h's tile_order_name): --order's, the
 * report's. */
static const char *demo_order_name(int order)
{
    const char *s = tile_order_name(order);
    return s != NULL ? s : "?";
}

/* The same, by enum tile_order, as the agreement's table of words. */
static const char *const *demo_order_words(void)
{
    static const char *w[TILE_ORDER_AUTO + 1];
    int k;
    for (k = 0; k <= TILE_ORDER_AUTO; k++)
        w[k] = tile_order_name(k);
    return w;
}

/* --balance's words, by the demos' balance setting (4: none). */
static const char *const demo_balances[5] = { "fixed", "constant", "variable", "adaptive",
                                              "none" };

static const char *demo_balance_name(int b)
{
    return b >= 0 && b < 5 ? demo_balances[b] : "?";
}

/* The number m in [lo, hi] whose name(m) is v, or -1. */
static int demo_word(const char *v, const char *(*name)(int), int lo, int hi)
{
    int m;
    for (m = lo; m <= hi; m++)
        if (strcmp(v, name(m)) == 0)
            return m;
    return -1;
}

/* The model, grid, balancing and order options; 0 or the exit status. */
static int demo_parse_choice(demo_opts *o, const char *a, const char *v)
{
    int64_t g[2];
    int m;
    if (strcmp(a, "--model") == 0) {
        if ((m = demo_word(v, tile_model_name, TILE_MODEL_MPI, TILE_MODEL_MULTIPLE)) < 0)
            return demo_usage("--model '%s': expected mpi, fine, funneled or multiple", v);
        o->model = m;
    } else if (strcmp(a, "--grid") == 0) {
        if ((m = demo_grid_word(v)) >= 0)
            o->policy = m;
        else if (demo_parse_list(v, g, 2) == 0 && g[0] <= INT_MAX && g[1] <= INT_MAX) {
            o->grid[0] = (int)g[0];
            o->grid[1] = (int)g[1];
        } else
            return demo_usage("--grid '%s': expected comm, latency, time or AxB", v);
    } else if (strcmp(a, "--balance") == 0) {
        if ((m = demo_word(v, demo_balance_name, 0, 4)) < 0)
            return demo_usage("--balance '%s': expected none, fixed, constant, "
                              "variable or adaptive", v);
        o->balance = m;
    } else { /* --order */
        char w[128];
        if ((m = tile_order_parse(v)) < 0)
            return demo_usage("--order '%s': expected %s", v,
                              opt_words(w, sizeof w, demo_order_name, 0, TILE_ORDER_AUTO));
        o->order = m;
    }
    return 0;
}

/* One option a with its value v; 0 or the exit status. */
static int demo_parse_value(demo_opts *o, const char *a, const char *v)
{
    int64_t t;
    int rc = demo_ckpt_option(&o->ckpt, a, v, demo_errmsg, sizeof demo_errmsg);
    if (rc >= 0)
        return rc;
    if (strcmp(a, "--space") == 0) {
        if (demo_parse_list(v, o->space, 3) != 0)
            return demo_usage("--space '%s': expected X1xX2xZ, three whole numbers >= 1", v);
    } else if (strcmp(a, "--tile-height") == 0) {
        if (demo_parse_list(v, &o->tile_height, 1) != 0)
            return demo_usage("--tile-height '%s': expected a whole number >= 1", v);
    } else if (strcmp(a, "--threads") == 0) {
        if (demo_parse_list(v, &t, 1) != 0 || t > 1024)
            return demo_usage("--threads '%s': expected a whole number in 1..1024", v);
        o->threads = (int)t;
    } else if (strcmp(a, "--bal") == 0) {
        o->bal_given = 1;
        return demo_parse_real(a, v, demo_unit, "a number in [0, 1]", &o->bal);
    } else if (strcmp(a, "--tcomp") == 0) {
        return demo_parse_real(a, v, demo_positive, "a number > 0 (seconds per point)",
                               &o->tcomp);
    } else if (strcmp(a, "--tstartup") == 0) {
        /* (a plan reads 0 as "not given": refused, not silently measured) */
        return demo_parse_real(a, v, demo_positive, "a number > 0 (seconds per message; 0 "
                               "would mean \"not given\" to the plan: TILEHYBRID_TSTARTUP=0 "
                               "models no start-up)", &o->tstartup);
    } else if (strcmp(a, "--bandwidth") == 0) {
        return demo_parse_real(a, v, demo_positive, "a number > 0 (bytes per second)",
                               &o->bandwidth);
    } else if (strcmp(a, "--adapt-period") == 0) {
        if (demo_parse_list(v, &o->adapt_period, 1) != 0)
            return demo_usage("--adapt-period '%s': expected a whole number >= 1", v);
    } else {
        return demo_parse_choice(o, a, v);
    }
    return 0;
}

/* The defaults of kernel k. */
static void demo_defaults(demo_opts *o, const demo_kernel *k)
{
    memset(o, 0, sizeof *o);
    memcpy(o->space, k->space, sizeof o->space);
    o->tile_height = 0;         /* the plan chooses (tiling.h's model) */
    o->model = TILE_MODEL_MPI;
    o->threads = 1;
    o->policy = TILE_GRID_COMM;
    o->bal = 1.0;
    o->balance = -1;
    o->order = TILE_ORDER_AUTO; /* the plan chooses (plan.store.order) */
    o->progress = -1;
}

/* --space: the points X1 * X2 * Z, and the bytes of one plane, fit in 64
 * bits (the plan counts both); 0 or the exit status. */
static int demo_check_space(const demo_opts *o)
{
    int64_t plane, points;
    long long x = (long long)o->space[0], y = (long long)o->space[1], z = (long long)o->space[2];
    if (!tilehybrid_mul_ok(o->space[0], o->space[1], &plane) ||
        !tilehybrid_mul_ok(plane, o->space[2], &points))
        return demo_usage("--space %lldx%lldx%lld: the number of points, X1 * X2 * Z = "
                          "%lld * %lld * %lld, does not fit in 64 bits", x, y, z, x, y, z);
    if (!tilehybrid_mul_ok(plane, (int64_t)sizeof(double), &plane))
        return demo_usage("--space %lldx%lldx%lld: one Z plane, X1 * X2 = %lld * %lld points "
                          "of %d bytes, does not fit in 64 bits", x, y, z, x, y,
                          (int)sizeof(double));
    return 0;
}

/* (demo_memory(): agree.h, shared with seidel and ssor) */

/* --verify keeps every plane (full storage): on `size` processes the
 * largest block holds at least 1/size of X1 * X2 * Z doubles.  Refuse what
 * passes a rank's memory limit (demo_mem_limit(): the node's memory shared
 * by its node_ranks ranks, or TILEHYBRID_MEM_LIMIT), naming --verify (the
 * plan would say "lower the tile height", which does not help); 0 or the
 * exit status. */
static int demo_check_verify(const demo_opts *o, int size, int node_ranks)
{
    int64_t bytes = 0;
    long long x = (long long)o->space[0], y = (long long)o->space[1], z = (long long)o->space[2];
    int fits = tilehybrid_mul_ok(o->space[0] * o->space[1], o->space[2], &bytes) &&
               tilehybrid_mul_ok(bytes, (int64_t)sizeof(double), &bytes);
    demo_limit lim;
    char err[DEMO_MSGLEN];
    if (!o->verify)
        return 0;
    if (demo_mem_limit(node_ranks, &lim, err, sizeof err) != 0)
        return demo_usage("%s", err);
    if (fits && (lim.bytes == 0 || bytes / size <= lim.bytes))
        return 0;
    if (!fits)
        return demo_usage("--verify keeps every plane: X1 * X2 * Z = %lld * %lld * %lld points "
                          "of %d bytes do not fit in 64 bits; verify a smaller --space", x, y,
                          z, (int)sizeof(double));
    return demo_usage("--verify keeps every plane: X1 * X2 * Z = %lld * %lld * %lld points of "
                      "%d bytes, at least %lld bytes per process on %d process%s, more than "
                      "its memory limit of %lld bytes (%s); verify a smaller --space", x, y, z,
                      (int)sizeof(double), (long long)(bytes / size), size,
                      size == 1 ? "" : "es", (long long)lim.bytes, lim.why);
}

/* Options that contradict each other; 0 or the exit status. */
static int demo_parse_check(demo_opts *o)
{
    if (o->balance == 4) {           /* none */
        if (o->bal != 1.0)
            return demo_usage("%s", "--balance none contradicts --bal");
        o->balance = BAL_POLICY_FIXED;
    }
    if (o->balance < 0)
        o->balance = BAL_POLICY_FIXED;
    if (o->balance != BAL_POLICY_FIXED && o->model != TILE_MODEL_FUNNELED)
        return demo_usage("%s", "--balance applies to the funneled model only "
                          "(--model funneled)");
    if (o->model == TILE_MODEL_MPI && o->threads != 1)
        return demo_usage("--threads %s: the mpi model runs one thread per process; "
                          "use --model fine|funneled|multiple", "> 1");
    if (o->json && o->progress == 1)
        return demo_usage("%s", "--progress contradicts --json (the JSON run shows none)");
    if (o->bal_given && o->model != TILE_MODEL_FUNNELED)
        return demo_usage("--bal applies to the funneled model only (--model funneled), not "
                          "to --model %s", tile_model_name(o->model));
    if (demo_ckpt_check(&o->ckpt, demo_errmsg, sizeof demo_errmsg) != 0)
        return 2;
    if ((o->ckpt.path != NULL || o->ckpt.restart != NULL) && o->balance != BAL_POLICY_FIXED)
        return demo_usage("--balance %s changes each rank's split during the run, so it "
                          "cannot be checkpointed inside: use --balance fixed (or none) with "
                          "--checkpoint and --restart", demo_balance_name(o->balance));
    return demo_check_space(o);
}

/* opt_parse()'s reader of an option with a value: a name of
 * demo_valued into o (ctx); 0 or 2 with the message in err. */
static int demo_option_read(void *ctx, const char *name, const char *v, char *err, size_t len)
{
    (void)err;      /* demo_errmsg: demo_parse's buffer, which demo_usage() writes */
    (void)len;
    return demo_parse_value((demo_opts *)ctx, name, v);
}

/* Parse argv; 0 on success, else the exit status (message in demo_errmsg).
 * --help sets o->help and returns 0 at once. */
static int demo_parse(int argc, char **argv, const demo_kernel *k, demo_opts *o)
{
    int on = 0, off = 0, rc;
    const opt_flag flags[4] = { { "--verify", &o->verify }, { "--json", &o->json },
                                { "--progress", &on }, { "--no-progress", &off } };
    const opt_spec spec = { demo_valued, (int)(sizeof demo_valued / sizeof demo_valued[0]),
                            flags, 4, demo_option_read };
    demo_defaults(o, k);
    rc = opt_parse(&spec, argc, argv, o, demo_errmsg, sizeof demo_errmsg);
    if (rc == 1)
        o->help = 1;
    if (rc != 0)
        return rc == 1 ? 0 : rc;
    if (on && off)
        return demo_usage("%s", "--progress and --no-progress exclude each other");
    o->progress = on ? 1 : off ? 0 : -1;
    return demo_parse_check(o);
}

/* Progress on rank 0: the percentage of its tiles thread 0 has done, on
 * stderr, at most DEMO_PROGRESS_HZ times a second.  Only thread 0 calls
 * demo_progress_step, once a step, and reads nothing but its own counter;
 * the clock is read only when the percentage changed (at most 101 times a
 * run), so the run's timing does not change. */
#define DEMO_PROGRESS_HZ 4

typedef struct demo_progress {
    const char *name;           /* the demo, in front of the line */
    int on;                     /* rank 0, terminal (or --progress), not --json */
    int width;                  /* length of the last line printed; 0: none yet */
    int64_t pct;                /* percentage at the last look */
    double last;                /* MPI_Wtime of the last line */
} demo_progress;

static demo_progress demo_prog;

static void demo_progress_print(int64_t pct)
{
    demo_prog.width = fprintf(stderr, "\r%s: %3d%% of tiles", demo_prog.name, (int)pct) - 1;
    fflush(stderr);
}

/* After each step, by every thread: thread 0 of rank 0 may print.  Thread 0
 * is the thread that called MPI_Init in every model, so MPI_Wtime is fine. */
static inline void demo_progress_step(const tile_plan *plan, int thread)
{
    int64_t pct;
    double now;
    if (!demo_prog.on || thread != 0 || plan->ntiles < 1)
        return;
    /* next_tile[0]: tiles thread 0 has claimed, each one computed by the
     * end of the step (its box may be empty: it is counted all the same) */
    pct = (int64_t)(100.0 * (double)plan->run.next_tile[0] / (double)plan->ntiles);
    if (pct == demo_prog.pct)
        return;
    demo_prog.pct = pct;
    now = MPI_Wtime();
    if (demo_prog.width > 0 && now - demo_prog.last < 1.0 / DEMO_PROGRESS_HZ)
        return;
    demo_prog.last = now;
    demo_progress_print(pct);
}

/* Is stderr, in the end, a terminal?  Run directly: isatty(2).  Under
 * mpiexec the rank's stderr is a pipe to the launcher (MPICH: through
 * hydra_pmi_proxy; Open MPI: mpirun/prted), so on Linux follow the parents
 * while they are MPI launchers whose stderr is a pipe too, and ask about
 * the first launcher whose stderr is not: `mpiexec ... 2> log` or
 * `mpiexec ... | tee` show nothing, a terminal shows progress.  Elsewhere
 * (or if /proc is unreadable) only isatty(2) counts: use --progress. */
static int demo_stderr_is_terminal(void)
{
    if (isatty(STDERR_FILENO))
        return 1;
#ifdef __linux__
    {
        static const char *const launcher[] = { "hydra_pmi_proxy", "mpiexec", "mpirun",
                                                "orterun", "orted", "prterun", "prted" };
        char path[64], buf[512], comm[64];
        long pid = (long)getppid();
        int depth, k;
        for (depth = 0; depth < 4 && pid > 1; depth++) {
            FILE *f;
            const char *rp;
            ssize_t n;
            size_t len;
            int is_launcher = 0;
            long ppid;
            snprintf(path, sizeof path, "/proc/%ld/stat", pid);
            if ((f = fopen(path, "r")) == NULL)
                return 0;
            n = (ssize_t)fread(buf, 1, sizeof buf - 1, f);
            fclose(f);
            buf[n > 0 ? n : 0] = '\0';
            /* "pid (comm) state ppid ...": comm may hold spaces and ')' */
            rp = strrchr(buf, ')');
            if (rp == NULL || strchr(buf, '(') == NULL || sscanf(rp + 1, " %*c %ld", &ppid) != 1)
                return 0;
            len = (size_t)(rp - strchr(buf, '(') - 1);
            if (len >= sizeof comm)
                len = sizeof comm - 1;
            memcpy(comm, strchr(buf, '(') + 1, len);
            comm[len] = '\0';
            for (k = 0; k < (int)(sizeof launcher / sizeof launcher[0]); k++)
                if (strncmp(comm, launcher[k], strlen(launcher[k])) == 0)
                    is_launcher = 1;
            if (!is_launcher)
                return 0;
            snprintf(path, sizeof path, "/proc/%ld/fd/2", pid);
            n = readlink(path, buf, sizeof buf - 1);
            if (n <= 0)
                return 0;
            buf[n] = '\0';
            if (strncmp(buf, "pipe:", 5) != 0)
                return strncmp(buf, "/dev/pts/", 9) == 0 || strncmp(buf, "/dev/tty", 8) == 0;
            pid = ppid;
        }
    }
#endif
    return 0;
}

/* After the run: clear the progress line. */
static void demo_progress_end(void)
{
    if (demo_prog.on && demo_prog.width > 0) {
        fprintf(stderr, "\r%*s\r", demo_prog.width, "");
        fflush(stderr);
    }
    demo_prog.width = 0;
}

/* DEMO_RUN(plan, it, body...) - HYBRID_RUN with demo_progress_step after
 * every step: the demos' run. */
#define DEMO_RUN(plan, it, ...) HYBRID_RUN_EACH_STEP(plan, demo_progress_step, it, __VA_ARGS__)

/** demo_verify() found no point of this rank's to compare (a failure). */
#define DEMO_VERIFY_NONE (-2)

/* --verify: the plain sequential loop, plane by plane (Z outermost: the
 * values are the same in any order that respects the dependences), compared
 * bitwise with every point this rank owns.  Returns mismatches (-1: out of
 * memory; DEMO_VERIFY_NONE: the plan gave no point to compare, which is a
 * failure, not a pass); *ref gets the checksum of the whole space. */
static int64_t demo_verify(const tile_plan *plan, const demo_kernel *k, const demo_opts *o,
                           uint64_t *ref)
{
    int64_t X = o->space[0], Y = o->space[1], Z = o->space[2], x, y, z, bad = 0, seen = 0;
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
        k->seq_plane(prev, cur, X, Y, z);
        for (x = 0; x < X; x++)
            for (y = 0; y < Y; y++) {
                int64_t c[3];
                double got;
                c[0] = x;
                c[1] = y;
                c[2] = z;
                sum += demo_bits(cur[x * Y + y]);
                if (tile_get(plan, c, &got) != TILE_OK)
                    continue;
                seen++;
                bad += demo_bits(got) != demo_bits(cur[x * Y + y]);
            }
        t = prev;
        prev = cur;
        cur = t;
    }
    free(prev);
    free(cur);
    *ref = sum;
    return seen == 0 ? DEMO_VERIFY_NONE : bad;
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

/* What rank 0 reports: the run's figures gathered from every rank. */
typedef struct demo_totals {
    uint64_t checksum, ref;
    int64_t bad;
    double seconds;                     /* the slowest rank's */
    int64_t max[2], sum[2];             /* bytes sent, messages */
    double *threads;                    /* rank 0: compute/comm/idle per rank and thread */
    double *facs;                       /* rank 0: balancing first/last/changes per rank */
} demo_totals;

/* The demo's own MPI call @call on the plan's communicator (which returns
 * errors: the engine set MPI_ERRORS_RETURN on it) returned rc: on a
 * failure, report it, as the engine does ("MPI failures" in tiling.h), and
 * end the job (the other ranks would wait for this one forever):
 * demo_mpi_check(), agree.h. */
static void demo_mpi_ok(const tile_plan *plan, const char *name, int rc, const char *call,
                        const char *what)
{
    demo_mpi_check(name, plan->comm, rc, call, what);
}

/* Gather the run's figures to rank 0 (collective); 0, or 1 if rank 0 is out
 * of memory.  With --verify every rank checks its points. */
static int demo_collect(const tile_plan *plan, const demo_kernel *k, const demo_opts *o,
                        const tile_reduction *sum, demo_totals *tot)
{
    int T = plan->cfg.threads, t, nomem;
    int64_t stats[2], bad = 0;
    double mine[3 * 1024], facs[3];     /* demo_parse: at most 1024 threads */
    memset(tot, 0, sizeof *tot);
    if (plan->rank == 0) {
        tot->threads = (double *)malloc(sizeof(double) * 3 * (size_t)T * (size_t)plan->size);
        tot->facs = (double *)malloc(sizeof(double) * 3 * (size_t)plan->size);
    }
    nomem = plan->rank == 0 && (tot->threads == NULL || tot->facs == NULL);
    if (nomem)
        demo_nomem(k->name, 0, tot->threads == NULL ? "every thread's times"
                                                    : "every rank's balancing factors",
                   3 * (int64_t)plan->size * (tot->threads == NULL ? T : 1),
                   (int64_t)sizeof(double));
    demo_mpi_ok(plan, k->name, MPI_Bcast(&nomem, 1, MPI_INT, 0, plan->comm), "MPI_Bcast",
                "sharing rank 0's memory for the figures");
    if (nomem)
        return 1;
    tot->checksum = sum->u64;   /* the declared reduction: every rank has it */
    for (t = 0; t < T; t++) {
        mine[3 * t] = plan->run.stats[t].compute;
        mine[3 * t + 1] = plan->run.stats[t].comm;
        mine[3 * t + 2] = plan->run.stats[t].idle;
    }
    demo_mpi_ok(plan, k->name, MPI_Reduce(&plan->run.seconds, &tot->seconds, 1, MPI_DOUBLE,
                                          MPI_MAX, 0, plan->comm), "MPI_Reduce",
                "finding the slowest rank's time");
    stats[0] = plan->run.bytes_sent;
    stats[1] = plan->run.messages;
    demo_mpi_ok(plan, k->name, MPI_Reduce(stats, tot->max, 2, MPI_INT64_T, MPI_MAX, 0,
                                          plan->comm), "MPI_Reduce", "finding the most bytes sent");
    demo_mpi_ok(plan, k->name, MPI_Reduce(stats, tot->sum, 2, MPI_INT64_T, MPI_SUM, 0,
                                          plan->comm), "MPI_Reduce", "summing the bytes sent");
    demo_mpi_ok(plan, k->name, MPI_Gather(mine, 3 * T, MPI_DOUBLE, tot->threads, 3 * T,
                                          MPI_DOUBLE, 0, plan->comm), "MPI_Gather",
                "gathering the threads' times");
    facs[0] = plan->run.bal.first;
    facs[1] = plan->run.bal.now;
    facs[2] = (double)plan->run.bal_changes;
    demo_mpi_ok(plan, k->name, MPI_Gather(facs, 3, MPI_DOUBLE, tot->facs, 3, MPI_DOUBLE, 0,
                                          plan->comm), "MPI_Gather",
                "gathering the balancing factors");
    if (o->verify) {
        bad = demo_verify(plan, k, o, &tot->ref);
        if (bad < 0) {
            if (bad == DEMO_VERIFY_NONE)
                fprintf(stderr, "%s: rank %d: --verify found none of this rank's points stored "
                        "to compare\n", k->name, plan->rank);
            else
                demo_nomem(k->name, plan->rank, "--verify's plain loop (two planes)",
                           2 * o->space[0] * o->space[1], (int64_t)sizeof(double));
            bad = 1;
        }
        demo_mpi_ok(plan, k->name, MPI_Reduce(&bad, &tot->bad, 1, MPI_INT64_T, MPI_SUM, 0,
                                              plan->comm), "MPI_Reduce",
                    "summing the points --verify found wrong");
    }
    return 0;
}

/* Where a cost of the tile-height model came from (enum tile_cost_origin). */
static const char *demo_cost_origin(int origin)
{
    static const char *const name[5] = { "given", "environment", "measured", "body",
                                         "default" };
    return origin >= 0 && origin < 5 ? name[origin] : "?";
}

/* The tile height and the pipeline model's prediction (plan.height), as
 * JSON keys (docs/JSON.md). */
/* A JSON number in fmt, or null for an infinity or a NaN (JSON has neither;
 * the plan refuses costs whose model overflows, this is the guard). */
static const char *demo_json_num(char *buf, size_t len, const char *fmt, double v)
{
    if (v == v && v - v == 0.0)
        snprintf(buf, len, fmt, v);
    else
        snprintf(buf, len, "null");
    return buf;
}

static void demo_json_height(const tile_plan *plan)
{
    const tile_height_info *h = &plan->height;
    char sec[40], eff[40];
    printf(", \"tile_height_origin\": \"%s\", \"tile_height_next\": %lld, "
           "\"predicted_seconds\": %s, \"predicted_efficiency\": %s, \"model_tcomp\": %.4g, "
           "\"model_tcomp_origin\": \"%s\", \"model_tstartup\": %.4g, \"model_bandwidth\": %.4g, "
           "\"model_comm_origin\": \"%s\", \"model_tsync\": %.4g, \"tile_height_cache_bound\": %lld",
           h->origin == TILE_HEIGHT_MODEL ? "model" : "given", (long long)h->next,
           demo_json_num(sec, sizeof sec, "%.6g", h->seconds),
           demo_json_num(eff, sizeof eff, "%.4f", h->efficiency), h->tcomp, demo_cost_origin(h->tcomp_origin), h->tstartup, h->bandwidth,
           demo_cost_origin(h->comm_origin), h->tsync, (long long)h->zmax);
}

/* The same as a line of the summary (as SNAP prints its prediction). */
static void demo_text_height(const tile_plan *plan)
{
    const tile_height_info *h = &plan->height;
    printf("tile height %lld (%s), pipeline model: predicted time %.3f s, predicted parallel "
           "efficiency %.1f%% (t_comp %.3g s/point, %s)", (long long)h->z,
           h->origin == TILE_HEIGHT_MODEL ? "chosen by the model" : "given", h->seconds,
           100.0 * h->efficiency, h->tcomp, demo_cost_origin(h->tcomp_origin));
    if (h->next != h->z)
        printf("; the body timed, the next run would use %lld", (long long)h->next);
    printf("\n");
}

static void demo_report_json(const tile_plan *plan, const demo_kernel *k, const demo_opts *o,
                             const demo_totals *tot, const char *verdict)
{
    static const char *const bn[5] = { "fixed", "constant", "variable", "adaptive", "custom" };
    printf("{\"demo\": \"%s\", \"space\": [%lld, %lld, %lld], \"tile_height\": %lld, "
           "\"model\": \"%s\", \"processes\": %d, \"threads\": %d, \"grid\": [%d, %d], "
           "\"thread_grid\": [%d, %d], \"order\": \"%s\", \"order_asked\": \"%s\", \"bal\": %g, "
           "\"checksum\": \"%016llx\", "
           "\"seconds\": %.6f, \"bytes_sent_max\": %lld, \"messages_max\": %lld, "
           "\"bytes_sent_total\": %lld, \"messages_total\": %lld",
           k->name, (long long)o->space[0], (long long)o->space[1], (long long)o->space[2],
           (long long)plan->height.z, tile_model_name(o->model), plan->size,
           plan->cfg.threads, plan->pdims[0], plan->pdims[1], plan->threads.dims[0],
           plan->threads.dims[1], demo_order_name(plan->store.order), demo_order_name(o->order),
           plan->cfg.balance.bal, (unsigned long long)tot->checksum, tot->seconds,
           (long long)tot->max[0], (long long)tot->max[1], (long long)tot->sum[0],
           (long long)tot->sum[1]);
    demo_json_stats(tot->threads, plan->size, plan->cfg.threads);
    demo_json_height(plan);
    printf(", \"balance\": \"%s\"", bn[plan->cfg.balance.policy]);
    demo_json_column("bal_start", tot->facs, 3, plan->size, "%.4f");
    demo_json_column("bal_end", tot->facs + 1, 3, plan->size, "%.4f");
    demo_json_column("bal_changes", tot->facs + 2, 3, plan->size, "%.0f");
    if (verdict)
        printf(", \"verify\": \"%s\", \"mismatches\": %lld", verdict, (long long)tot->bad);
    printf("}\n");
}

static void demo_report_text(const tile_plan *plan, const demo_kernel *k, const demo_opts *o,
                             const demo_totals *tot, const char *verdict)
{
    int size = plan->size, T = plan->cfg.threads, r, t;
    printf("%s %lldx%lldx%lld, tile height %lld, model %s, %d process%s x %d thread%s, "
           "grid %dx%d, thread grid %dx%d, in-tile order %s (%s)\n", k->name,
           (long long)o->space[0], (long long)o->space[1], (long long)o->space[2],
           (long long)plan->height.z, tile_model_name(o->model), size, size == 1 ? "" : "es", T,
           T == 1 ? "" : "s", plan->pdims[0], plan->pdims[1], plan->threads.dims[0],
           plan->threads.dims[1], demo_order_name(plan->store.order),
           o->order == TILE_ORDER_AUTO ? "the plan's choice" : "--order");
    printf("checksum %016llx   time %.3f s   max sent per process %lld bytes in %lld "
           "messages\n", (unsigned long long)tot->checksum, tot->seconds, (long long)tot->max[0],
           (long long)tot->max[1]);
    demo_text_height(plan);
    if (o->model == TILE_MODEL_FUNNELED && T > 1) {
        printf("master share factor per process (start -> end):");
        for (r = 0; r < size; r++)
            printf("  %.3f->%.3f", tot->facs[3 * r], tot->facs[3 * r + 1]);
        printf("\n");
    }
    printf("rank 0 thread times (compute / comm / idle, s):");
    for (t = 0; t < T; t++)
        printf("  t%d %.3f/%.3f/%.3f", t, tot->threads[3 * t], tot->threads[3 * t + 1],
               tot->threads[3 * t + 2]);
    printf("\n");
    if (verdict)
        printf("verify: %s (%lld mismatching points against the sequential loop)\n", verdict,
               (long long)tot->bad);
}

/* The options every rank must share, for demo_agree() (not --progress:
 * only rank 0 shows progress). */
static int demo_agreed(const demo_opts *o, demo_arg *v)
{
    int n = 0;
    /* the values a rank left out (0 inside: the plan chooses, measures or
     * takes the TILEHYBRID_* environment) are "not given", which differs
     * from every value given */
    v[n++] = demo_arg_int("--space (X1)", o->space[0]);
    v[n++] = demo_arg_int("--space (X2)", o->space[1]);
    v[n++] = demo_arg_int("--space (Z)", o->space[2]);
    v[n++] = demo_arg_int_opt("--tile-height", o->tile_height > 0, o->tile_height);
    v[n++] = demo_arg_model(o->model);
    v[n++] = demo_arg_int("--threads", o->threads);
    v[n++] = demo_arg_grid(o->policy);
    v[n++] = demo_arg_int_opt("--grid (A)", o->grid[0] > 0, o->grid[0]);
    v[n++] = demo_arg_int_opt("--grid (B)", o->grid[1] > 0, o->grid[1]);
    v[n++] = demo_arg_real("--bal", o->bal);
    v[n++] = demo_arg_word("--balance", o->balance >= 0 && o->balance < 5 ? o->balance : 0,
                           demo_balances);
    v[n++] = demo_arg_real_opt("--tcomp", o->tcomp > 0, o->tcomp);
    v[n++] = demo_arg_real_opt("--tstartup", o->tstartup > 0, o->tstartup);
    v[n++] = demo_arg_real_opt("--bandwidth", o->bandwidth > 0, o->bandwidth);
    v[n++] = demo_arg_int_opt("--adapt-period", o->adapt_period > 0, o->adapt_period);
    v[n++] = demo_arg_word("--order", o->order >= TILE_ORDER_PLANES &&
                           o->order <= TILE_ORDER_AUTO ? o->order : TILE_ORDER_AUTO,
                           demo_order_words());
    v[n++] = demo_arg_flag("--verify", o->verify);
    v[n++] = demo_arg_flag("--json", o->json);
    v[n++] = demo_arg_flag("--checkpoint", o->ckpt.path != NULL);
    v[n++] = demo_arg_flag("--restart", o->ckpt.restart != NULL);
    v[n++] = demo_arg_int("--checkpoint-every (steps)", o->ckpt.every_steps);
    v[n++] = demo_arg_real("--checkpoint-every (seconds)", o->ckpt.every_seconds);
    return n;
}

/**
 * demo_start() - parse the command line, start MPI with the thread support
 * the chosen model needs, and agree on the command line across ranks.
 * Return: DEMO_GO, or the exit status after --help (0; 1 on rank 0 when
 * the help could not be written), bad or differing arguments on any rank
 * (2) or a failed MPI start (1); MPI is then
 * finalized and rank 0 printed the help or the one message.
 */
static int demo_start(int *argc, char ***argv, const demo_kernel *k, demo_opts *o)
{
    int rank, size, provided, code, verdict, n, nr;
    demo_arg v[DEMO_AGREE_MAX];
    demo_prog.name = k->name;
    /* parse first to know the thread level the model needs; a rank whose
     * arguments are bad starts MPI as the mpi model does */
    code = demo_parse(*argc, *argv, k, o);
    if (hybrid_init(argc, argv, code ? TILE_MODEL_MPI : o->model, code ? 1 : o->threads,
                    &provided) == TILE_ERR_MPI) {
        fprintf(stderr, "%s: MPI_Init_thread failed\n", k->name);
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    nr = demo_node_ranks(k->name);   /* (collective: on every rank) */
    if (code == 0 && o->help)
        code = 1;
    else if (code == 0)
        code = demo_check_verify(o, size, nr);
    /* one collective: a bad argument on any rank stops every rank */
    n = demo_agreed(o, v);
    verdict = demo_agree(k->name, code, demo_errmsg, v, n);
    if (verdict != DEMO_AGREE_GO) {
        if (verdict == DEMO_AGREE_HELP && rank == 0) {
            demo_print_help(k);
            verdict = demo_help_written(k->name);
        }
        fflush(stdout);
        MPI_Finalize();
        return verdict;
    }
    demo_prog.on = rank == 0 && !o->json &&
                   (o->progress == 1 || (o->progress < 0 && demo_stderr_is_terminal()));
    demo_prog.pct = -1;
    return DEMO_GO;
}

/**
 * demo_plan() - create the plan of kernel k with options o (collective) and
 * declare on it the checksum *sum, a SUM_U64 reduction (the body feeds it
 * with tile_reduce_u64(&it, sum, demo_bits(v)); *sum must stay where it is
 * until demo_finish(), which destroys the plan).
 * Return: DEMO_GO, or the exit status (2: the plan refused the
 * configuration, rank 0 printed why; 1: out of memory) after MPI_Finalize.
 */
static int demo_plan(tile_plan *plan, const demo_kernel *k, const demo_opts *o,
                     tile_reduction *sum)
{
    tile_config cfg;
    int nomem, any;
    tile_config_init(&cfg, 2);
    memcpy(cfg.extent, o->space, 2 * sizeof cfg.extent[0]);
    cfg.zlen = o->space[2];
    cfg.dep[0] = k->dep[0];
    cfg.dep[1] = k->dep[1];
    cfg.depz = k->depz;
    cfg.tile_height = o->tile_height;
    cfg.model = o->model;
    cfg.threads = o->threads;
    cfg.grid[0] = o->grid[0];
    cfg.grid[1] = o->grid[1];
    cfg.grid_policy = o->policy;
    cfg.balance.bal = o->bal;
    cfg.balance.policy = o->balance;
    cfg.balance.tcomp = o->tcomp;
    cfg.balance.tstartup = o->tstartup;
    cfg.balance.bandwidth = o->bandwidth;
    cfg.balance.adapt_period = o->adapt_period;
    cfg.order = o->order;
    cfg.boundary_row = demo_edge_row;   /* demo_g, a row of points per call */
    cfg.storage = o->verify ? TILE_STORE_FULL : TILE_STORE_WINDOW;
    if (tile_plan_create(plan, MPI_COMM_WORLD, &cfg) != TILE_OK) {
        /* the same code and message on every rank (naming the rank that
         * found the error when there are several): rank 0 prints it */
        if (plan->rank == 0)   /* (a message that names its rank already: once) */
            fprintf(stderr, plan->size > 1 || strncmp(plan->errmsg, "rank ", 5) == 0
                    ? "%s: %s\n" : "%s: rank 0: %s\n", k->name, plan->errmsg);
        tile_plan_destroy(plan);
        MPI_Finalize();
        return 2;
    }
    nomem = tile_reduction_init(plan, sum, TILE_REDUCE_SUM_U64, NULL) != TILE_OK;
    MPI_Allreduce(&nomem, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (any) {
        if (nomem)   /* (its only failure here: the plan was created) */
            demo_nomem(k->name, plan->rank, "the checksum's per-thread slots", cfg.threads,
                       (int64_t)sizeof(tile_reduction));
        tile_plan_destroy(plan);
        MPI_Finalize();
        return 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return DEMO_GO;
}

/**
 * demo_finish() - after the run: gather the figures (the checksum: sum's
 * result), verify (--verify), print the report on rank 0, destroy the plan
 * (which frees sum's slots), MPI_Finalize.
 * Return: the exit status, the same on every rank: 0, or 1 (the run failed,
 * --verify found a mismatch, out of memory).
 */
static int demo_finish(tile_plan *plan, const demo_kernel *k, const demo_opts *o,
                       const tile_reduction *sum)
{
    demo_totals tot;
    int failed = 1;
    memset(&tot, 0, sizeof tot);
    demo_progress_end();
    if (tile_plan_status(plan) != TILE_OK) {
        /* every rank has the error and its message: rank 0 explains */
        if (plan->rank == 0)
            fprintf(stderr, "%s: %srun failed: %s\n", k->name, plan->size > 1 ? "" : "rank 0: ",
                    plan->errmsg);
    } else if (demo_collect(plan, k, o, sum, &tot) != 0) {
        /* (rank 0 said what it could not allocate) */
    } else {
        if (plan->rank == 0) {
            const char *verdict = !o->verify ? NULL
                                  : (tot.bad == 0 && tot.ref == tot.checksum) ? "ok" : "MISMATCH";
            if (o->json)
                demo_report_json(plan, k, o, &tot, verdict);
            else
                demo_report_text(plan, k, o, &tot, verdict);
            fflush(stdout);
            failed = o->verify && verdict[0] != 'o';
        } else {
            failed = 0;
        }
        /* the verdict on every rank, so that every process exits alike */
        demo_mpi_ok(plan, k->name, MPI_Bcast(&failed, 1, MPI_INT, 0, plan->comm), "MPI_Bcast",
                    "sharing the verdict");
    }
    free(tot.threads);
    free(tot.facs);
    tile_plan_destroy(plan);
    MPI_Finalize();
    return failed;
}

/** The state of one demo: its kernel, options, plan and checksum. */
typedef struct demo_job {
    const demo_kernel *k;
    demo_opts o;
    tile_plan plan;
    tile_reduction sum; /* the checksum: SUM_U64 on plan, tile_reduce_u64() */
    demo_ckpt ck;       /* --checkpoint, --restart: inside the run */
    int rc;             /* DEMO_GO while the demo goes on, else its exit status */
} demo_job;

/* What changes the numbers of kernel k under options o: its name and
 * space (the checkpoints' fingerprint; the plan's state checks the rest). */
static uint64_t demo_fingerprint(const demo_kernel *k, const demo_opts *o)
{
    uint64_t h = demo_ckpt_hash(0xcbf29ce484222325ull, k->name, strlen(k->name));
    return demo_ckpt_hash(h, o->space, sizeof o->space);
}

/**
 * demo_begin() - demo_start() and demo_plan() for kernel k into *d.
 * Return: DEMO_GO (run the body on d->plan, then demo_end()), or the exit
 * status (also in d->rc) after --help or an error, MPI finalized.
 */
static int demo_begin(demo_job *d, int *argc, char ***argv, const demo_kernel *k)
{
    int64_t start = 0;
    d->k = k;
    memset(&d->ck, 0, sizeof d->ck);
    d->rc = demo_start(argc, argv, k, &d->o);
    if (d->rc == DEMO_GO)
        d->rc = demo_plan(&d->plan, k, &d->o, &d->sum);
    if (d->rc == DEMO_GO &&
        demo_ckpt_begin_plan(&d->ck, k->name, &d->o.ckpt, &d->plan, NULL, 0, NULL, 0,
                             demo_fingerprint(k, &d->o), &start, d->plan.rank) != 0) {
        demo_ckpt_end(&d->ck);      /* (rank 0 said why) */
        tile_plan_destroy(&d->plan);
        MPI_Finalize();
        d->rc = 1;
    }
    return d->rc;
}

/**
 * demo_end() - after demo_begin() (and the run when it returned DEMO_GO):
 * demo_finish() when the demo ran.
 * Return: the exit status, the same on every rank.
 */
static int demo_end(demo_job *d)
{
    int rc;
    if (d->rc != DEMO_GO)
        return d->rc;
    demo_progress_end();
    if ((rc = demo_ckpt_plan_end(&d->ck, d->k->name, d->plan.rank)) >= 0) {
        tile_plan_destroy(&d->plan);    /* (stopped on every rank: the signal) */
        MPI_Finalize();
        return rc;
    }
    return demo_finish(&d->plan, d->k, &d->o, &d->sum);
}

#endif
