/* demos/scatter.c -- MPI_Scatter vs the load-balanced scatter, for real.
 *
 *   mpiexec -n 4 ./demos/scatter [--items N] [--slowdown 1,2,3,4] [--json]
 *                                [--method exact|heuristic] [--order bandwidth|given]
 *                                [-h | --help]
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
 *             transfers), slb_plan_create computes the counts and the order,
 *             slb_plan_scatterv sends (the paper's Figures 3 and 4).
 *
 * Each rank's finish time (scatter + compute) is printed with the makespan
 * and, for the balanced run, the finish time the plan predicted; the travel
 * times gathered back at the root are checked bitwise against a sequential
 * computation (sum in item order).  JSON (--json): items, ranks, root,
 * method, order_policy, slowdown, uniform {counts, finish, makespan,
 * checksum_ok}, balanced {order, counts, predicted, finish, makespan,
 * predicted_makespan, plan_seconds, checksum_ok}, calibration {comp0, mu,
 * comm0, lambda}, speedup (0 when the runs are too short to time),
 * reference_checksum (each key: README, section "JSON output").  With 4
 * processes on 2 cores the machine is oversubscribed: timings are noisy, and
 * a rank that finishes early gives its core to the others.  Exit status 1 if
 * a checksum differs, 2 for bad arguments (on every rank). */
#include <mpi.h>

#include "scatterlb.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXR 1024
#define STEPS 160

typedef struct ray {
    double src[3], rcv[3], phase, pad; /* 8 doubles: one MPI item */
} ray;

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
           "  --json                   print one JSON object (keys: README, JSON output)\n"
           "  -h, --help               print this help and exit\n"
           "Options take their value as the next argument or after '='.\n"
           "Exit status: 0 ok, 1 a checksum differs or the run failed, 2 bad arguments.\n");
}

/* A one-line argument error from rank 0 ("demos/scatter: <fmt>"); 2. */
static int arg_error(int rank, const char *fmt, const char *arg)
{
    if (rank == 0) {
        fprintf(stderr, "demos/scatter: ");
        fprintf(stderr, fmt, arg);
        fputc('\n', stderr);
    }
    return 2;
}

/* A whole decimal number in [lo, hi], nothing else; 0 or -1. */
static int parse_int(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    long long v;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Parse argv (every rank alike; rank 0 prints).  0 to run, else the exit
 * status + 1 (so 1 means "exit 0": --help). */
static int parse(int argc, char **argv, int rank, int64_t *n, int *slow, int *nslow, int *json,
                 slb_options *opts)
{
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v, *eq;
        char name[16];
        size_t len;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            if (rank == 0)
                help();
            return 1;
        }
        if (strcmp(a, "--json") == 0) {
            *json = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0)
            return 1 + arg_error(rank, "unexpected argument '%s' (see --help)", a);
        eq = strchr(a, '=');
        len = eq != NULL ? (size_t)(eq - a) : strlen(a);
        if (len >= sizeof name)
            return 1 + arg_error(rank, "unknown option '%s' (see --help)", a);
        memcpy(name, a, len);
        name[len] = '\0';
        if (strcmp(name, "--items") != 0 && strcmp(name, "--slowdown") != 0 &&
            strcmp(name, "--method") != 0 && strcmp(name, "--order") != 0)
            return 1 + arg_error(rank, "unknown option '%s' (see --help)", name);
        if (eq != NULL)
            v = eq + 1;
        else if (i + 1 < argc)
            v = argv[++i];
        else
            return 1 + arg_error(rank, "%s needs a value (see --help)", name);
        if (strcmp(name, "--items") == 0) {
            long long x;
            if (parse_int(v, 0, 100000000, &x) != 0)
                return 1 + arg_error(rank, "--items '%s': expected a whole number in "
                                           "0..100000000", v);
            *n = x;
        } else if (strcmp(name, "--slowdown") == 0) {
            const char *s = v;
            *nslow = 0;
            for (;;) {
                char buf[8];
                size_t l = strcspn(s, ",");
                long long x;
                if (*nslow == MAXR || l == 0 || l >= sizeof buf)
                    return 1 + arg_error(rank, "--slowdown '%s': expected a list like 1,2,3,4 "
                                               "of at most 1024 whole numbers in 1..1000", v);
                memcpy(buf, s, l);
                buf[l] = '\0';
                if (parse_int(buf, 1, 1000, &x) != 0)
                    return 1 + arg_error(rank, "--slowdown '%s': expected a list like 1,2,3,4 "
                                               "of at most 1024 whole numbers in 1..1000", v);
                slow[(*nslow)++] = (int)x;
                if (s[l] == '\0')
                    break;
                s += l + 1;
            }
        } else if (strcmp(name, "--method") == 0) {
            if (strcmp(v, "exact") == 0)
                opts->method = SLB_METHOD_EXACT;
            else if (strcmp(v, "heuristic") == 0)
                opts->method = SLB_METHOD_HEURISTIC;
            else
                return 1 + arg_error(rank, "--method '%s': expected exact or heuristic", v);
        } else {
            if (strcmp(v, "bandwidth") == 0)
                opts->order = SLB_ORDER_BANDWIDTH;
            else if (strcmp(v, "given") == 0)
                opts->order = SLB_ORDER_GIVEN;
            else
                return 1 + arg_error(rank, "--order '%s': expected bandwidth or given", v);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size, i, json = 0, nslow = 4, slow[MAXR] = {1, 2, 3, 4}, my_slow, root = 0;
    int64_t n = 60000, q, rem, k;
    ray *rays = NULL, *mine = NULL;
    double *results = NULL, *myres = NULL, ref = 0, t0, fin_u, fin_b, tplan;
    double *all_fin_u = NULL, *all_fin_b = NULL, cal[4], *all_cal = NULL;
    int *all_slow = NULL, ok_u, ok_b, rc;
    slb_options opts = slb_options_default();
    slb_affine cost;
    slb_plan plan;
    tilehybrid_status st;
    MPI_Datatype ray_t;
    work w;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rc = parse(argc, argv, rank, &n, slow, &nslow, &json, &opts);
    if (rc != 0) {
        fflush(stdout);
        MPI_Finalize();
        return rc - 1;
    }
    my_slow = slow[rank % nslow];
    MPI_Type_contiguous(8, MPI_DOUBLE, &ray_t);
    MPI_Type_commit(&ray_t);

    /* the data and the sequential reference, at the root */
    if (rank == root) {
        rays = (ray *)malloc((size_t)(n + 1) * sizeof(ray));
        results = (double *)malloc((size_t)(n + 1) * sizeof(double));
        all_fin_u = (double *)malloc((size_t)size * sizeof(double));
        all_fin_b = (double *)malloc((size_t)size * sizeof(double));
        all_cal = (double *)malloc((size_t)size * 4 * sizeof(double));
        all_slow = (int *)malloc((size_t)size * sizeof(int));
        if (!rays || !results || !all_fin_u || !all_fin_b || !all_cal || !all_slow) {
            fprintf(stderr, "demos/scatter: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        make_rays(rays, n);
        compute(rays, n, 1, results);
        ref = checksum(results, n);
    }
    MPI_Gather(&my_slow, 1, MPI_INT, all_slow, 1, MPI_INT, root, MPI_COMM_WORLD);

    /* 1. uniform: MPI_Scatter of n/p rays, the root keeps the remainder */
    q = n / size;
    rem = n - q * size;
    if (q > INT_MAX) {
        if (rank == root)
            fprintf(stderr, "demos/scatter: n/p beyond INT_MAX for MPI_Scatter\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    mine = (ray *)malloc((size_t)(q + 1) * sizeof(ray));
    myres = (double *)malloc((size_t)(q + 1) * sizeof(double));
    if (mine == NULL || myres == NULL) {
        fprintf(stderr, "demos/scatter: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    MPI_Scatter(rays, (int)q, ray_t, mine, (int)q, ray_t, root, MPI_COMM_WORLD);
    compute(mine, q, my_slow, myres);
    if (rank == root)
        compute(rays + q * size, rem, my_slow, results + q * size);
    fin_u = MPI_Wtime() - t0;
    MPI_Gather(myres, (int)q, MPI_DOUBLE, results, (int)q, MPI_DOUBLE, root, MPI_COMM_WORLD);
    MPI_Gather(&fin_u, 1, MPI_DOUBLE, all_fin_u, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
    ok_u = rank == root ? checksum(results, n) == ref : 1;

    /* 2. balanced: calibrate, plan, scatter */
    w.rays = rank == root ? rays : mine; /* any representative rays */
    if (rank != root && q < 1000) {
        ray *sample = (ray *)malloc(1000 * sizeof(ray));
        make_rays(sample, 1000);
        w.rays = sample;
    } else if (rank == root && n < 1000) {
        ray *sample = (ray *)malloc(1000 * sizeof(ray));
        make_rays(sample, 1000);
        w.rays = sample;
    }
    w.slowdown = my_slow;
    rc = slb_calibrate(MPI_COMM_WORLD, root, ray_t, work_fn, &w, 1000, 4000, 3, &cost, NULL);
    if (w.rays != rays && w.rays != mine)
        free((void *)w.rays);
    if (rc != SLB_OK) {
        if (rank == root)
            fprintf(stderr, "demos/scatter: calibration: %s\n", slb_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    cal[0] = cost.comp0;
    cal[1] = cost.mu;
    cal[2] = cost.comm0;
    cal[3] = cost.lambda;
    MPI_Gather(cal, 4, MPI_DOUBLE, all_cal, 4, MPI_DOUBLE, root, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    tplan = MPI_Wtime();
    rc = slb_plan_create(MPI_COMM_WORLD, root, n, ray_t, &cost, &opts, &plan, &st);
    tplan = MPI_Wtime() - tplan;
    if (rc != SLB_OK) {
        if (rank == root)
            fprintf(stderr, "demos/scatter: plan: %s (rank %d)\n", slb_strerror(rc),
                    st.rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    free(mine);
    free(myres);
    mine = (ray *)malloc((size_t)(plan.counts[rank] + 1) * sizeof(ray));
    myres = (double *)malloc((size_t)(plan.counts[rank] + 1) * sizeof(double));
    if (mine == NULL || myres == NULL) {
        fprintf(stderr, "demos/scatter: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    slb_plan_scatterv(&plan, rays, mine, NULL);
    compute(mine, plan.counts[rank], my_slow, myres);
    fin_b = MPI_Wtime() - t0;
    if (rank == root)
        memset(results, 0, (size_t)n * sizeof(double));
    slb_gatherv_type(&plan, myres, MPI_DOUBLE, results, NULL);
    MPI_Gather(&fin_b, 1, MPI_DOUBLE, all_fin_b, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
    ok_b = rank == root ? checksum(results, n) == ref : 1;

    if (rank == root) {
        double mk_u = 0, mk_b = 0;
        for (i = 0; i < size; i++) {
            if (all_fin_u[i] > mk_u)
                mk_u = all_fin_u[i];
            if (all_fin_b[i] > mk_b)
                mk_b = all_fin_b[i];
        }
        if (json) {
            printf("{\"items\":%lld,\"ranks\":%d,\"root\":%d,\"method\":\"%s\",\"order_policy\":"
                   "\"%s\",\"slowdown\":[", (long long)n, size, root,
                   slb_method_name(opts.method),
                   opts.order == SLB_ORDER_GIVEN ? "given" : "bandwidth");
            for (i = 0; i < size; i++)
                printf("%s%d", i ? "," : "", all_slow[i]);
            printf("],\"uniform\":{\"counts\":[");
            for (i = 0; i < size; i++)
                printf("%s%lld", i ? "," : "", (long long)(q + (i == root ? rem : 0)));
            printf("],\"finish\":[");
            for (i = 0; i < size; i++)
                printf("%s%.6f", i ? "," : "", all_fin_u[i]);
            printf("],\"makespan\":%.6f,\"checksum_ok\":%s},", mk_u, ok_u ? "true" : "false");
            printf("\"balanced\":{\"order\":[");
            for (i = 0; i < size; i++)
                printf("%s%d", i ? "," : "", plan.order[i]);
            printf("],\"counts\":[");
            for (i = 0; i < size; i++)
                printf("%s%lld", i ? "," : "", (long long)plan.counts[i]);
            printf("],\"predicted\":[");
            for (i = 0; i < size; i++)
                printf("%s%.6f", i ? "," : "", plan.finish[i]);
            printf("],\"finish\":[");
            for (i = 0; i < size; i++)
                printf("%s%.6f", i ? "," : "", all_fin_b[i]);
            printf("],\"makespan\":%.6f,\"predicted_makespan\":%.6f,\"plan_seconds\":%.6f,"
                   "\"checksum_ok\":%s},", mk_b, plan.makespan, tplan, ok_b ? "true" : "false");
            printf("\"calibration\":{\"comp0\":[");
            for (i = 0; i < size; i++)
                printf("%s%.4g", i ? "," : "", all_cal[4 * i]);
            printf("],\"mu\":[");
            for (i = 0; i < size; i++)
                printf("%s%.4g", i ? "," : "", all_cal[4 * i + 1]);
            printf("],\"comm0\":[");
            for (i = 0; i < size; i++)
                printf("%s%.4g", i ? "," : "", all_cal[4 * i + 2]);
            printf("],\"lambda\":[");
            for (i = 0; i < size; i++)
                printf("%s%.4g", i ? "," : "", all_cal[4 * i + 3]);
            printf("]},\"speedup\":%.3f,\"reference_checksum\":%.17g}\n",
                   mk_b > 0 && mk_u >= 0.01 ? mk_u / mk_b : 0.0, ref);
        } else {
            printf("%lld rays from rank %d to %d ranks; slowdowns", (long long)n, root, size);
            for (i = 0; i < size; i++)
                printf(" %d", all_slow[i]);
            printf("\n\n1. uniform MPI_Scatter (%lld rays each, the root keeps %lld more)\n",
                   (long long)q, (long long)rem);
            printf("   rank  slowdown     rays  finish (s)\n");
            for (i = 0; i < size; i++)
                printf("   %4d  %8d  %7lld  %10.3f%s\n", i, all_slow[i],
                       (long long)(q + (i == root ? rem : 0)), all_fin_u[i],
                       all_fin_u[i] == mk_u ? "  <- last" : "");
            printf("   makespan %.3f s, results %s\n\n", mk_u,
                   ok_u ? "match the sequential run bitwise" : "DIFFER from the sequential run");
            printf("2. balanced slb_plan_scatterv (%s, %s order; slb_plan_create took %.2g s)\n",
                   slb_method_name(opts.method),
                   opts.order == SLB_ORDER_GIVEN ? "given" : "bandwidth", tplan);
            printf("   calibrated per rank: mu (s/ray), comm0 (s), lambda (s/ray)\n");
            printf("   rank  served  mu          comm0       lambda        rays  predicted  "
                   "finish (s)\n");
            for (k = 0; k < size; k++) {
                int r = plan.order[k];
                printf("   %4d  %6lld  %-10.3g  %-10.3g  %-10.3g  %7lld  %9.3f  %10.3f%s\n", r,
                       (long long)(k + 1), all_cal[4 * r + 1], all_cal[4 * r + 2],
                       all_cal[4 * r + 3], (long long)plan.counts[r], plan.finish[r],
                       all_fin_b[r], all_fin_b[r] == mk_b ? "  <- last" : "");
            }
            printf("   makespan %.3f s (predicted %.3f s), results %s\n\n", mk_b, plan.makespan,
                   ok_b ? "match the sequential run bitwise" : "DIFFER from the sequential run");
            if (mk_u < 0.01 || mk_b <= 0)
                printf("speedup: n/a (runs too short to time; try more --items)\n");
            else
                printf("speedup of the balanced scatter: %.2f\n", mk_u / mk_b);
        }
    }
    slb_plan_free(&plan);
    MPI_Type_free(&ray_t);
    free(rays);
    free(results);
    free(mine);
    free(myres);
    free(all_fin_u);
    free(all_fin_b);
    free(all_cal);
    free(all_slow);
    {
        int ok = ok_u && ok_b, all_ok;
        MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        MPI_Finalize();
        return all_ok ? 0 : 1;
    }
}
