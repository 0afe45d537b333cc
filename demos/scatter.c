/* demos/scatter.c -- MPI_Scatter vs the load-balanced scatter, for real.
 *
 *   mpiexec -n 4 ./demos/scatter [--items N] [--slowdown 1,2,3,4] [--json]
 *                                [--method exact|heuristic] [--order bandwidth|given]
 *                                [--send scatterv|ordered] [-h | --help]
 *
 * The root holds N seismic "rays" (source and receiver positions) and every
 * rank computes the travel time of each ray it receives along a straight
 * path through a layered Earth model (a small deterministic floating-point
 * kernel).  Ranks are made heterogeneous: rank r repeats the kernel
 * slowdown[r] times per ray (the list is used cyclically when shorter than
 * the number of ranks).  Two runs, each timed from a common barrier:
 *
 *   uniform   MPI_Scatter of N/p rays each (the root keeps the remainder),
 *             as in the original application of the paper (its Figure 2);
 *   balanced  the costs are calibrated (mu: the kernel timed on a sample on
 *             every rank; lambda and the latency: timed root-to-rank
 *             transfers; slb_calibrate keeps to its time budget however
 *             slow a rank is), slb_plan_create computes the counts and the
 *             order, slb_plan_scatterv sends (the paper's Figures 3 and 4),
 *             or slb_plan_scatter_ordered with --send ordered.
 *
 * Each rank's finish time (scatter + compute) is printed with the makespan
 * and, for the balanced run, the finish time the plan predicted; the travel
 * times gathered back at the root are checked bitwise against a sequential
 * computation (sum in item order).  JSON (--json): items, ranks, root,
 * method, order_policy, send, slowdown, uniform {counts, finish, makespan,
 * checksum_ok}, balanced {order, counts, predicted, finish, makespan,
 * predicted_makespan, plan_seconds, checksum_ok}, calibration {comp0, mu,
 * comm0, lambda}, speedup (0 when the runs are too short to time),
 * reference_checksum (each key: docs/JSON.md).  With 4
 * processes on 2 cores the machine is oversubscribed: timings are noisy, and
 * a rank that finishes early gives its core to the others.
 *
 * Every rank reads its own command line; one tilehybrid_agree() then makes
 * every rank stop, with one message from rank 0, when any rank's arguments
 * are bad (the message names that rank) or differ from another's.  Exit
 * status 1 if a checksum differs or the run failed, 2 for bad arguments (on
 * every rank).  An MPI call that fails on one rank ends the job (the others
 * would wait for it forever): the headers' calls abort themselves
 * (scatterlb.h's plan and calibration), and this file's own calls and
 * scatterlb.h's data movers (SLB_ERR_MPI) go through demo_mpi_check()
 * (agree.h): the call, the rank and MPI's error text, then MPI_Abort. */
#include <mpi.h>

#include "scatterlb.h"
#include "agree.h"   /* demo_help_written, demo_mpi_check, demo_mpi_text */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXR 1024
#define STEPS 160

typedef struct ray {
    double src[3], rcv[3], phase, pad; /* 8 doubles: one MPI item */
} ray;

/* This file's own MPI call returned rc (doing what): on a failure, end the
 * job with the call, the rank and MPI's error text. */
static void mpi_ok(int rc, const char *call, const char *what)
{
    demo_mpi_check("demos/scatter", MPI_COMM_WORLD, rc, call, what);
}

/* Kept opaque to the optimiser so that repetitions are really computed. */
static volatile double demo_zero = 0.0;

/* Travel time along the straight path from src to rcv through a spherical,
 * layered velocity model with lateral wiggles (km, km/s, s). */
static double trace(const ray *r, double z)
{
    double d[3], len, t = 0.0, ds;
    int k, i;
    for (i = 0; i < 3; i++)
        d[i] = r->rcv[i] - r->src[i];
    len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    ds = len / STEPS;
    for (k = 0; k < STEPS; k++) {
        double s = (k + 0.5) / STEPS, x[3], rad, depth, v;
        for (i = 0; i < 3; i++)
            x[i] = r->src[i] + z + s * d[i];
        rad = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        depth = 6371.0 - rad;
        v = 5.8 + 0.0035 * depth + 0.3 * sin(0.004 * x[0] + r->phase) * cos(0.003 * x[1]);
        t += ds / (v > 1.0 ? v : 1.0);
    }
    return t;
}

typedef struct work {
    const ray *rays; /* sample for calibration */
    int slowdown;
} work;

/* Process count rays, slowdown times each; results into out. */
static void compute(const ray *rays, int64_t count, int slowdown, double *out)
{
    int64_t i;
    int rep;
    for (i = 0; i < count; i++) {
        double t = 0.0;
        for (rep = 0; rep < slowdown; rep++)
            t = trace(&rays[i], demo_zero);
        out[i] = t;
    }
}

/* slb_work_fn for calibration: count rays of the sample. */
static void work_fn(void *ctx, int64_t count)
{
    const work *w = (const work *)ctx;
    static double out[4096];
    int64_t done = 0;
    while (done < count) {
        int64_t c = count - done < 4096 ? count - done : 4096;
        compute(w->rays, c, w->slowdown, out);
        done += c;
    }
}

static void make_rays(ray *r, int64_t n)
{
    uint64_t s = 0x2545F4914F6CDD1Dull;
    int64_t i;
    for (i = 0; i < n; i++) {
        double u[6];
        int j;
        for (j = 0; j < 6; j++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            u[j] = (double)(s >> 11) / 9007199254740992.0;
        }
        {
            double th1 = 6.283185307179586 * u[0], ph1 = acos(2 * u[1] - 1),
                   th2 = 6.283185307179586 * u[2], ph2 = acos(2 * u[3] - 1),
                   r1 = 6371.0 - 700.0 * u[4]; /* hypocentre depth 0..700 km */
            r[i].src[0] = r1 * sin(ph1) * cos(th1);
            r[i].src[1] = r1 * sin(ph1) * sin(th1);
            r[i].src[2] = r1 * cos(ph1);
            r[i].rcv[0] = 6371.0 * sin(ph2) * cos(th2);
            r[i].rcv[1] = 6371.0 * sin(ph2) * sin(th2);
            r[i].rcv[2] = 6371.0 * cos(ph2);
            r[i].phase = 3.0 * u[5];
            r[i].pad = 0.0;
        }
    }
}

static double checksum(const double *v, int64_t n)
{
    double s = 0.0;
    int64_t i;
    for (i = 0; i < n; i++)
        s += v[i];
    return s;
}

static void help(void)
{
    printf("usage: mpiexec -n P ./demos/scatter [options]\n"
           "Scatters N rays from rank 0 to ranks of different speeds, once with\n"
           "MPI_Scatter and once with the calibrated, load-balanced scatter of\n"
           "scatterlb.h, and compares the makespans.\n"
           "  --items N                rays, 0..100000000 (default 60000)\n"
           "  --slowdown L             per-rank repetitions of the kernel, a list like\n"
           "                           1,2,3,4 of whole numbers in 1..1000, used\n"
           "                           cyclically (default 1,2,3,4)\n"
           "  --method exact|heuristic the balanced distribution (default exact)\n"
           "  --order bandwidth|given  the sending order (default bandwidth)\n"
           "  --send scatterv|ordered  the balanced scatter: slb_plan_scatterv (MPI_Scatterv,\n"
           "                           default) or slb_plan_scatter_ordered (the root's\n"
           "                           sends one after another in the plan's order)\n"
           "  --json                   print one JSON object (keys: docs/JSON.md)\n"
           "  -h, --help               print this help and exit\n"
           "Options take their value as the next argument or after '='.  Every rank\n"
           "must be given the same options: they are compared before anything runs.\n"
           "The calibration keeps to about two seconds whatever the slowdowns; the\n"
           "two scatters take what their rays take: with MPI_Scatter each rank computes\n"
           "N/P rays, slowdown times each (--slowdown 1000,1 with the default 60000 rays\n"
           "on 2 ranks: about 3 minutes here), so lower --items with large slowdowns.\n"
           "Exit status: 0 ok, 1 a checksum differs or the run failed, 2 bad arguments.\n");
}

/* ---- the command line, agreed by every rank ---- */

typedef struct opts {
    int64_t n;
    int slow[MAXR], nslow, json, help, ordered;
    slb_options plan;
} opts;

enum { MSGLEN = 256 };

/* An argument error: the message into msg; returns 2. */
static int arg_error(char *msg, const char *fmt, const char *arg)
{
    char m[MSGLEN - 32];
    snprintf(m, sizeof m, fmt, arg);
    snprintf(msg, MSGLEN, "%s", m);
    return 2;
}

/* --slowdown's list: 1..MAXR whole numbers in 1..1000. */
static int parse_slowdown(const char *v, opts *o, char *msg)
{
    const char *s = v;
    o->nslow = 0;
    for (;;) {
        char buf[8];
        size_t l = strcspn(s, ",");
        int64_t x;
        if (o->nslow == MAXR || l == 0 || l >= sizeof buf)
            break;
        memcpy(buf, s, l);
        buf[l] = '\0';
        if (tilehybrid_parse_i64(buf, 1, 1000, &x) != TILEHYBRID_OK)
            break;
        o->slow[o->nslow++] = (int)x;
        if (s[l] == '\0')
            return 0;
        s += l + 1;
    }
    return arg_error(msg, "--slowdown '%s': expected a list like 1,2,3,4 of at most 1024 whole "
                          "numbers in 1..1000", v);
}

/* One option's value (name without "=value"). */
static int parse_value(const char *name, const char *v, opts *o, char *msg)
{
    if (strcmp(name, "--items") == 0) {
        if (tilehybrid_parse_i64(v, 0, 100000000, &o->n) != TILEHYBRID_OK)
            return arg_error(msg, "--items '%s': expected a whole number in 0..100000000", v);
    } else if (strcmp(name, "--slowdown") == 0) {
        return parse_slowdown(v, o, msg);
    } else if (strcmp(name, "--method") == 0) {
        if (strcmp(v, "exact") != 0 && strcmp(v, "heuristic") != 0)
            return arg_error(msg, "--method '%s': expected exact or heuristic", v);
        o->plan.method = strcmp(v, "exact") == 0 ? SLB_METHOD_EXACT : SLB_METHOD_HEURISTIC;
    } else if (strcmp(name, "--order") == 0) {
        if (strcmp(v, "bandwidth") != 0 && strcmp(v, "given") != 0)
            return arg_error(msg, "--order '%s': expected bandwidth or given", v);
        o->plan.order = strcmp(v, "given") == 0 ? SLB_ORDER_GIVEN : SLB_ORDER_BANDWIDTH;
    } else if (strcmp(name, "--send") == 0) {
        if (strcmp(v, "scatterv") != 0 && strcmp(v, "ordered") != 0)
            return arg_error(msg, "--send '%s': expected scatterv or ordered", v);
        o->ordered = strcmp(v, "ordered") == 0;
    } else {
        return arg_error(msg, "unknown option '%s' (see --help)", name);
    }
    return 0;
}

/* opt_parse()'s reader of an option with a value (ctx: the options;
 * err: MSGLEN bytes). */
static int parse_option(void *ctx, const char *name, const char *v, char *err, size_t len)
{
    (void)len;
    return parse_value(name, v, (opts *)ctx, err);
}

/* This rank's reading of argv: 0, or 2 with the message in msg. */
static int parse(int argc, char **argv, opts *o, char *msg)
{
    static const char *const valued[] = { "--items", "--slowdown", "--method", "--order",
                                          "--send" };
    opt_flag json;
    opt_spec spec;
    int rc;
    json.name = "--json";
    json.set = &o->json;
    spec.valued = valued;
    spec.nvalued = 5;
    spec.flags = &json;
    spec.nflags = 1;
    spec.read = parse_option;
    rc = opt_parse(&spec, argc, argv, o, msg, MSGLEN);
    if (rc == 1)
        o->help = 1;
    return rc == 1 ? 0 : rc;
}

/* The value of agreed entry i as the user wrote it. */
static void show_value(int i, uint64_t v, char *out, size_t len)
{
    static const char *const methods[] = {"exact", "heuristic"};
    static const char *const orders[] = {"bandwidth", "given"};
    static const char *const sends[] = {"scatterv", "ordered"};
    static const char *const flags[] = {"no", "yes"};
    if (i == 1)
        snprintf(out, len, "%lld", (long long)v);
    else
        snprintf(out, len, "%s",
                 i == 2 ? methods[v & 1] : i == 3 ? orders[v & 1] : i == 4 ? sends[v & 1]
                                                                           : flags[v & 1]);
}

/* Every rank parses its own argv; one tilehybrid_agree() then tells every
 * rank whether any rank failed (rank 0 prints that rank's message) and
 * whether the options agree.  -1: run; else the exit status, the same on
 * every rank. */
static int setup(int argc, char **argv, int rank, opts *o)
{
    static const char *const names[] = {"--help", "--items", "--method", "--order",
                                        "--send", "--json", "--slowdown"};
    char msg[MSGLEN] = "", a1[32], a2[32];
    tilehybrid_agreement ag;
    uint64_t v[7], h = 1469598103934665603ull;
    int code, i, rc;
    code = parse(argc, argv, o, msg);
    for (i = 0; i < o->nslow; i++) /* FNV-1a over the list */
        h = (h ^ (uint64_t)o->slow[i]) * 1099511628211ull;
    v[0] = (uint64_t)o->help;
    v[1] = (uint64_t)o->n;
    v[2] = (uint64_t)o->plan.method;
    v[3] = (uint64_t)o->plan.order;
    v[4] = (uint64_t)o->ordered;
    v[5] = (uint64_t)o->json;
    v[6] = h ^ (uint64_t)o->nslow;
    if ((rc = tilehybrid_agree(MPI_COMM_WORLD, code, v, 7, msg, sizeof msg, &ag)) !=
        MPI_SUCCESS) {
        /* this rank's alone: the others would wait for it forever */
        tilehybrid_mpi_failed(MPI_COMM_WORLD, rc, ag.call, 1, "in demos/scatter's agreement on "
                              "the command line");
        return 1;
    }
    if (rank == 0 && ag.code != 0)
        fprintf(stderr, "demos/scatter: rank %d: %s\n", ag.rank, msg);
    else if (rank == 0 && ag.index == 6)
        fprintf(stderr, "demos/scatter: --slowdown differs between ranks\n");
    else if (rank == 0 && ag.index >= 0) {
        show_value(ag.index, ag.lo, a1, sizeof a1);
        show_value(ag.index, ag.hi, a2, sizeof a2);
        fprintf(stderr, "demos/scatter: %s differs between ranks (%s on one, %s on another)\n",
                names[ag.index], a1, a2);
    }
    if (ag.code != 0 || ag.index >= 0)
        return 2;
    if (o->help) {
        if (rank == 0) {
            help();
            return demo_help_written("demos/scatter");
        }
        return 0;
    }
    return -1;
}

/* ---- the two runs ---- */

typedef struct demo {
    const opts *o;
    int rank, size, root, my_slow;
    MPI_Datatype ray_t;
    ray *rays;               /* root: the n rays */
    double *results, ref;    /* root: results in item order, their reference sum */
    int *all_slow;           /* root: per rank */
    double *fin_u, *fin_b;   /* root: per rank, the finish times of the two runs (one
                                array of 2 x size: fin_b = fin_u + size) */
    double cal[4], *all_cal; /* this rank's costs; root: every rank's */
    double tplan;
    int64_t q, rem;          /* uniform: q rays each, the root rem more */
    int ok_u, ok_b;
    int planned;             /* plan holds a plan (to be freed) */
    slb_plan plan;
} demo;

/* n elements of size bytes for what (the message names it and the size:
 * a rank out of memory aborts the job, which cannot go on without it). */
static void *alloc_or_abort(const char *what, size_t n, size_t size)
{
    void *p = malloc(n * size > 0 ? n * size : 1);
    if (p == NULL) {
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        fprintf(stderr, "scatter: rank %d: out of memory allocating %s: %zu x %zu bytes\n", rank,
                what, n, size);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* The rays and the sequential reference at the root; every rank's slowdown
 * gathered there. */
static void demo_setup(demo *d)
{
    size_t nb = (size_t)(d->o->n + 1);
    mpi_ok(MPI_Type_contiguous(8, MPI_DOUBLE, &d->ray_t), "MPI_Type_contiguous",
           "making the ray type");
    mpi_ok(MPI_Type_commit(&d->ray_t), "MPI_Type_commit", "making the ray type");
    d->my_slow = d->o->slow[d->rank % d->o->nslow];
    if (d->rank == d->root) {
        size_t p = (size_t)d->size;
        d->rays = (ray *)alloc_or_abort("the rays", nb, sizeof(ray));
        d->results = (double *)alloc_or_abort("the reference results", nb, sizeof(double));
        d->fin_u = (double *)alloc_or_abort("the two runs' finish times", 2 * p, sizeof(double));
        d->fin_b = d->fin_u + p;
        d->all_cal = (double *)alloc_or_abort("every rank's costs", p * 4, sizeof(double));
        d->all_slow = (int *)alloc_or_abort("every rank's slowdown", p, sizeof(int));
        make_rays(d->rays, d->o->n);
        compute(d->rays, d->o->n, 1, d->results);
        d->ref = checksum(d->results, d->o->n);
    }
    mpi_ok(MPI_Gather(&d->my_slow, 1, MPI_INT, d->all_slow, 1, MPI_INT, d->root,
                      MPI_COMM_WORLD), "MPI_Gather", "gathering every rank's slowdown");
}

/* 1. uniform: MPI_Scatter of n/p rays, the root keeps the remainder. */
static void run_uniform(demo *d, ray **mine)
{
    double *myres, t0, fin;
    d->q = d->o->n / d->size; /* <= 10^8: an int */
    d->rem = d->o->n - d->q * d->size;
    *mine = (ray *)alloc_or_abort("this rank's rays", (size_t)(d->q + 1), sizeof(ray));
    myres = (double *)alloc_or_abort("this rank's results", (size_t)(d->q + 1), sizeof(double));
    mpi_ok(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier", "before the uniform scatter");
    t0 = MPI_Wtime();
    mpi_ok(MPI_Scatter(d->rays, (int)d->q, d->ray_t, *mine, (int)d->q, d->ray_t, d->root,
                       MPI_COMM_WORLD), "MPI_Scatter", "in the uniform scatter");
    compute(*mine, d->q, d->my_slow, myres);
    if (d->rank == d->root) {   /* not the reference: what the gather leaves out shows */
        memset(d->results, 0, (size_t)d->o->n * sizeof(double));
        compute(d->rays + d->q * d->size, d->rem, d->my_slow, d->results + d->q * d->size);
    }
    fin = MPI_Wtime() - t0;
    mpi_ok(MPI_Gather(myres, (int)d->q, MPI_DOUBLE, d->results, (int)d->q, MPI_DOUBLE, d->root,
                      MPI_COMM_WORLD), "MPI_Gather", "gathering the uniform run's results");
    mpi_ok(MPI_Gather(&fin, 1, MPI_DOUBLE, d->fin_u, 1, MPI_DOUBLE, d->root, MPI_COMM_WORLD),
           "MPI_Gather", "gathering the uniform run's finish times");
    d->ok_u = d->rank == d->root ? checksum(d->results, d->o->n) == d->ref : 1;
    free(myres);
}

/* 2a. this rank's costs (slb_calibrate within its time budget) on 1000
 * representative rays, and the plan; 0, or 1 after a message (the same
 * code on every rank). */
static int calibrate_and_plan(demo *d, const ray *mine)
{
    const ray *sample = d->rank == d->root ? d->rays : mine;
    const char *stage = "calibration";
    ray *own = NULL;
    tilehybrid_status st;
    slb_affine cost;
    work w;
    int rc;
    if ((d->rank == d->root ? d->o->n : d->q) < 1000) {
        own = (ray *)alloc_or_abort("the calibration rays", 1000, sizeof(ray));
        make_rays(own, 1000);
        sample = own;
    }
    w.rays = sample;
    w.slowdown = d->my_slow;
    rc = slb_calibrate(MPI_COMM_WORLD, d->root, d->ray_t, work_fn, &w, 1000, 4000, 3, &cost, &st);
    free(own);
    if (rc == SLB_OK) {
        d->cal[0] = cost.comp0;
        d->cal[1] = cost.mu;
        d->cal[2] = cost.comm0;
        d->cal[3] = cost.lambda;
        mpi_ok(MPI_Gather(d->cal, 4, MPI_DOUBLE, d->all_cal, 4, MPI_DOUBLE, d->root,
                          MPI_COMM_WORLD), "MPI_Gather", "gathering every rank's costs");
        mpi_ok(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier", "before the plan");
        d->tplan = MPI_Wtime();
        stage = "plan";
        rc = slb_plan_create(MPI_COMM_WORLD, d->root, d->o->n, d->ray_t, &cost, &d->o->plan,
                             &d->plan, &st);
        d->tplan = MPI_Wtime() - d->tplan;
    }
    if (rc == SLB_ERR_MPI && d->rank == 0) { /* a local call, agreed on: st.arg names it */
        char text[MPI_MAX_ERROR_STRING];
        fprintf(stderr, "demos/scatter: rank %d: %s failed in scatterlb.h's %s (%s)\n",
                st.rank, st.arg[0] != '\0' ? st.arg : "an MPI call", stage,
                demo_mpi_text(st.mpi_error, text));
    } else if (rc != SLB_OK && d->rank == 0) {
        fprintf(stderr, "demos/scatter: %s: %s (argument '%s', rank %d)\n", stage,
                slb_strerror(rc), st.arg, st.rank);
    }
    d->planned = rc == SLB_OK;
    return rc == SLB_OK ? 0 : 1;
}

/* 2b. balanced: scatter by the plan, compute, gather back. */
static int run_balanced(demo *d)
{
    int64_t c = d->plan.counts[d->rank];
    ray *mine = (ray *)alloc_or_abort("this rank's rays", (size_t)(c + 1), sizeof(ray));
    double *myres = (double *)alloc_or_abort("this rank's results", (size_t)(c + 1),
                                             sizeof(double)),
           t0, fin;
    tilehybrid_status st;
    int rc;
    mpi_ok(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier", "before the balanced scatter");
    t0 = MPI_Wtime();
    rc = d->o->ordered ? slb_plan_scatter_ordered(&d->plan, d->rays, mine, &st)
                       : slb_plan_scatterv(&d->plan, d->rays, mine, &st);
    /* scatterlb.h's rule: SLB_ERR_MPI from a data mover is this rank's
     * alone, the others wait in the collective: end the job */
    if (rc == SLB_ERR_MPI)
        mpi_ok(st.mpi_error, st.arg,
               d->o->ordered ? "in slb_plan_scatter_ordered(), the balanced scatter"
                             : "in slb_plan_scatterv(), the balanced scatter");
    compute(mine, rc == SLB_OK ? c : 0, d->my_slow, myres);
    fin = MPI_Wtime() - t0;
    if (d->rank == d->root)
        memset(d->results, 0, (size_t)d->o->n * sizeof(double));
    if (rc == SLB_OK)
        rc = slb_gatherv_type(&d->plan, myres, MPI_DOUBLE, d->results, &st);
    if (rc == SLB_ERR_MPI)
        mpi_ok(st.mpi_error, "MPI_Gatherv", "in slb_gatherv_type(), gathering the balanced "
               "run's results");
    mpi_ok(MPI_Gather(&fin, 1, MPI_DOUBLE, d->fin_b, 1, MPI_DOUBLE, d->root, MPI_COMM_WORLD),
           "MPI_Gather", "gathering the balanced run's finish times");
    d->ok_b = d->rank == d->root ? rc == SLB_OK && checksum(d->results, d->o->n) == d->ref
                                 : rc == SLB_OK;
    if (rc != SLB_OK)
        fprintf(stderr, "demos/scatter: rank %d: scatter: %s\n", d->rank, slb_strerror(rc));
    free(mine);
    free(myres);
    return rc;
}

/* ---- the report (root) ---- */

static double max_of(const double *v, int n)
{
    double m = 0;
    int i;
    for (i = 0; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

static void print_array(const char *key, const double *v, int n, int stride, const char *fmt)
{
    int i;
    printf("\"%s\":[", key);
    for (i = 0; i < n; i++) {
        printf("%s", i ? "," : "");
        printf(fmt, v[i * stride]);
    }
    printf("]");
}

static void report_json(const demo *d)
{
    const slb_plan *pl = &d->plan;
    double mk_u = max_of(d->fin_u, d->size), mk_b = max_of(d->fin_b, d->size);
    int i;
    printf("{\"items\":%lld,\"ranks\":%d,\"root\":%d,\"method\":\"%s\",\"order_policy\":\"%s\","
           "\"send\":\"%s\",\"slowdown\":[", (long long)d->o->n, d->size, d->root,
           slb_method_name(d->o->plan.method),
           d->o->plan.order == SLB_ORDER_GIVEN ? "given" : "bandwidth",
           d->o->ordered ? "ordered" : "scatterv");
    for (i = 0; i < d->size; i++)
        printf("%s%d", i ? "," : "", d->all_slow[i]);
    printf("],\"uniform\":{\"counts\":[");
    for (i = 0; i < d->size; i++)
        printf("%s%lld", i ? "," : "", (long long)(d->q + (i == d->root ? d->rem : 0)));
    printf("],");
    print_array("finish", d->fin_u, d->size, 1, "%.6f");
    printf(",\"makespan\":%.6f,\"checksum_ok\":%s},\"balanced\":{\"order\":[", mk_u,
           d->ok_u ? "true" : "false");
    for (i = 0; i < d->size; i++)
        printf("%s%d", i ? "," : "", pl->order[i]);
    printf("],\"counts\":[");
    for (i = 0; i < d->size; i++)
        printf("%s%lld", i ? "," : "", (long long)pl->counts[i]);
    printf("],");
    print_array("predicted", pl->finish, d->size, 1, "%.6f");
    printf(",");
    print_array("finish", d->fin_b, d->size, 1, "%.6f");
    printf(",\"makespan\":%.6f,\"predicted_makespan\":%.6f,\"plan_seconds\":%.6f,"
           "\"checksum_ok\":%s},\"calibration\":{", mk_b, pl->makespan, d->tplan,
           d->ok_b ? "true" : "false");
    print_array("comp0", d->all_cal, d->size, 4, "%.4g");
    printf(",");
    print_array("mu", d->all_cal + 1, d->size, 4, "%.4g");
    printf(",");
    print_array("comm0", d->all_cal + 2, d->size, 4, "%.4g");
    printf(",");
    print_array("lambda", d->all_cal + 3, d->size, 4, "%.4g");
    printf("},\"speedup\":%.3f,\"reference_checksum\":%.17g}\n",
           mk_b > 0 && mk_u >= 0.01 ? mk_u / mk_b : 0.0, d->ref);
}

static void report_text(const demo *d)
{
    const slb_plan *pl = &d->plan;
    double mk_u = max_of(d->fin_u, d->size), mk_b = max_of(d->fin_b, d->size);
    int i, k;
    printf("%lld rays from rank %d to %d ranks; slowdowns", (long long)d->o->n, d->root,
           d->size);
    for (i = 0; i < d->size; i++)
        printf(" %d", d->all_slow[i]);
    printf("\n\n1. uniform MPI_Scatter (%lld rays each, the root keeps %lld more)\n",
           (long long)d->q, (long long)d->rem);
    printf("   rank  slowdown     rays  finish (s)\n");
    for (i = 0; i < d->size; i++)
        printf("   %4d  %8d  %7lld  %10.3f%s\n", i, d->all_slow[i],
               (long long)(d->q + (i == d->root ? d->rem : 0)), d->fin_u[i],
               d->fin_u[i] == mk_u ? "  <- last" : "");
    printf("   makespan %.3f s, results %s\n\n", mk_u,
           d->ok_u ? "match the sequential run bitwise" : "DIFFER from the sequential run");
    printf("2. balanced %s (%s, %s order; slb_plan_create took %.2g s)\n",
           d->o->ordered ? "slb_plan_scatter_ordered" : "slb_plan_scatterv",
           slb_method_name(d->o->plan.method),
           d->o->plan.order == SLB_ORDER_GIVEN ? "given" : "bandwidth", d->tplan);
    printf("   calibrated per rank: mu (s/ray), comm0 (s), lambda (s/ray)\n");
    printf("   rank  served  mu          comm0       lambda        rays  predicted  "
           "finish (s)\n");
    for (k = 0; k < d->size; k++) {
        int r = pl->order[k];
        printf("   %4d  %6lld  %-10.3g  %-10.3g  %-10.3g  %7lld  %9.3f  %10.3f%s\n", r,
               (long long)(k + 1), d->all_cal[4 * r + 1], d->all_cal[4 * r + 2],
               d->all_cal[4 * r + 3], (long long)pl->counts[r], pl->finish[r], d->fin_b[r],
               d->fin_b[r] == mk_b ? "  <- last" : "");
    }
    printf("   makespan %.3f s (predicted %.3f s), results %s\n\n", mk_b, pl->makespan,
           d->ok_b ? "match the sequential run bitwise" : "DIFFER from the sequential run");
    if (mk_u < 0.01 || mk_b <= 0)
        printf("speedup: n/a (runs too short to time; try more --items)\n");
    else
        printf("speedup of the balanced scatter: %.2f\n", mk_u / mk_b);
}

static void demo_free(demo *d)
{
    if (d->planned)
        slb_plan_free(&d->plan);
    mpi_ok(MPI_Type_free(&d->ray_t), "MPI_Type_free", "freeing the ray type");
    free(d->rays);
    free(d->results);
    free(d->fin_u);   /* (and fin_b) */
    free(d->all_cal);
    free(d->all_slow);
}

/* Both runs and the report; the exit status (the same on every rank). */
static int run_demo(const opts *o, int rank, int size)
{
    demo d;
    ray *mine = NULL;
    int ok, all_ok, status = 0;
    memset(&d, 0, sizeof d);
    d.o = o;
    d.rank = rank;
    d.size = size;
    d.root = 0;
    demo_setup(&d);
    run_uniform(&d, &mine);
    if (calibrate_and_plan(&d, mine) != 0)
        status = 1;
    free(mine);
    if (status == 0 && run_balanced(&d) == SLB_OK && rank == d.root) {
        if (o->json)
            report_json(&d);
        else
            report_text(&d);
    }
    ok = status == 0 && d.ok_u && d.ok_b;
    demo_free(&d);
    mpi_ok(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), "MPI_Allreduce",
           "agreeing on the exit status");
    return all_ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    opts o;
    int rank, size, status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    memset(&o, 0, sizeof o);
    o.n = 60000;
    o.nslow = 4;
    o.slow[0] = 1;
    o.slow[1] = 2;
    o.slow[2] = 3;
    o.slow[3] = 4;
    o.plan = slb_options_default();
    status = setup(argc, argv, rank, &o);
    if (status < 0)
        status = run_demo(&o, rank, size);
    fflush(stdout);
    MPI_Finalize();
    return status;
}
