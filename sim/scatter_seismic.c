/* sim/scatter_seismic.c -- the scatter paper's seismic experiment, simulated
 * (make simulate; built with smpicc into build/smpi/sim/, run by
 * sim/scatter.sh on sim/platforms/seismic.xml).
 *
 *   smpirun -np 16 -platform sim/platforms/seismic.xml \
 *       -hostfile sim/platforms/seismic.hosts build/smpi/sim/scatter_seismic \
 *       --costs sim/platforms/seismic.costs [--items 817101] [--json]
 *
 * The root (rank 0) holds n rays of 64 bytes and distributes them six times,
 * each time from a common barrier (the hostfile lists the machines by
 * decreasing bandwidth to the root, the root first).  Five of the six are
 * scatterlb.h's own calls, made as a user makes them (the root passes the n
 * rays, every rank a buffer for its share, and computes what it received):
 *   uniform            MPI_Scatter, n/p rays each, the root keeps the
 *                      remainder (the paper's original program, Figure 2);
 *   uniform_ordered    a plan of SLB_METHOD_UNIFORM (n/p rays each, the
 *                      first n mod p ranks in sending order one more),
 *                      slb_plan_scatter_ordered: one send after the other
 *                      by decreasing bandwidth (what the paper's MPICH-G2
 *                      did, and the order its Figure 2 used);
 *   balanced           slb_plan_create from the paper's own mu and lambda
 *                      (Table 1, given in --costs in rank order: "name mu
 *                      lambda" per line), then slb_plan_scatterv, which is
 *                      MPI_Scatterv: SMPI posts every send at once;
 *   balanced_ordered   the same plan, slb_plan_scatter_ordered: one send
 *                      after the other in the plan's order (Theorem 3:
 *                      decreasing bandwidth), the root's own share copied
 *                      last: the paper's Figure 3;
 *   ascending_ordered  a plan for the opposite order (increasing bandwidth,
 *                      scatterlb.h's SLB_ORDER_GIVEN on a communicator in
 *                      that order), slb_plan_scatter_ordered: Figure 4;
 *   reversed_ordered   the balanced plan's counts sent in the opposite
 *                      order (the other reading of Figure 4: same counts,
 *                      order reversed).  No scatterlb.h call sends a plan
 *                      in another order than its own, so this run is the
 *                      program's own loop: slb_plan_scatter_ordered's steps
 *                      (blocking sends with TILEHYBRID_TAG_SCATTER, the
 *                      root's share copied last) with the order reversed.
 * "One after the other" is a blocking MPI_Send per destination: SMPI sends
 * messages above 64 KiB synchronously, so each transfer ends before the next
 * starts, as the paper's model assumes (its eq. 1).
 * A rank "computes" its rays by charging one simulated flop per ray: the
 * platform gives each host the speed 1/mu, so a ray takes mu seconds.  (It
 * also sums the ray numbers it received, and the root checks that the sum
 * over every rank is n(n-1)/2 in every run: each ray arrived exactly once.)
 * Each rank's finish time (distribution + compute) is printed with the
 * makespan, and for the plans the finish times scatterlb.h predicted.
 *
 * Exit status 0, 1 (a ray lost or duplicated, an MPI or plan error), 2 (bad
 * arguments). */
#include <mpi.h>

#include "scatterlb.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 1024
#define RUNS 6

/* The six runs, in the order they happen (and are printed). */
static const char *const run_name[RUNS] = {"uniform",          "uniform_ordered",
                                           "balanced",         "balanced_ordered",
                                           "ascending_ordered", "reversed_ordered"};

typedef struct ray {
    double v[8]; /* v[0]: the ray's number; 64 bytes as in the paper */
} ray;

/* Stop the run if an MPI call failed, naming it. */
static void must(int rc, const char *call)
{
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "scatter_seismic: %s failed (MPI error %d)\n", call, rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* What a run gives on this rank: its finish time and the sum of its rays'
 * numbers; the plan it followed (NULL: uniform counts). */
typedef struct outcome {
    double finish, sum;
    const slb_plan *plan;
} outcome;

/* "Compute" count rays: the sum of their numbers, and count flops charged
 * to this rank's simulated host (speed 1/mu: count * mu seconds). */
static double work(const ray *r, int64_t count)
{
    double s = 0.0;
    int64_t i;
    for (i = 0; i < count; i++)
        s += r[i].v[0];
    smpi_execute_flops((double)count);
    return s;
}

/* One "name mu lambda" line into name, mu, lambda (the numbers by
 * tilehybrid_parse_double: mu > 0, lambda >= 0); 0, or -1. */
static int cost_line(char *line, char *name, double *mu, double *lambda)
{
    const char *sep = " \t\r\n";
    char *w[4];
    int k;
    w[0] = strtok(line, sep);
    for (k = 1; k < 4; k++)
        w[k] = strtok(NULL, sep);
    if (w[2] == NULL || w[3] != NULL || strlen(w[0]) > 63 ||
        tilehybrid_parse_double(w[1], DBL_MIN, DBL_MAX, mu) != TILEHYBRID_OK ||
        tilehybrid_parse_double(w[2], 0.0, DBL_MAX, lambda) != TILEHYBRID_OK)
        return -1;
    strcpy(name, w[0]);
    return 0;
}

/* Read "name mu lambda" lines (# comments) into names[], mu[], lambda[];
 * the count, or -1. */
static int read_costs(const char *path, char (*names)[64], double *mu, double *lambda)
{
    FILE *f = fopen(path, "r");
    char line[256];
    int p = 0;
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (p == MAXP || strchr(line, '\n') == NULL ||
            cost_line(line, names[p], &mu[p], &lambda[p]) != 0) {
            fclose(f);
            return -1;
        }
        p++;
    }
    fclose(f);
    return p;
}

/* The paper's original program: MPI_Scatter of q rays each, the root
 * computes the rem rays left over too.  This rank's finish time from the
 * barrier. */
static double run_mpi_scatter(const ray *all, ray *mine, int64_t q, int64_t rem, MPI_Datatype t,
                              double *sum)
{
    double t0;
    int rank, size;
    must(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    must(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    must(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    t0 = MPI_Wtime();
    if (MPI_Scatter(all, (int)q, t, mine, (int)q, t, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    *sum = work(mine, q);
    if (rank == 0)
        *sum += work(all + q * size, rem);
    return MPI_Wtime() - t0;
}

/* A plan's run through scatterlb.h, as a user calls it: slb_plan_scatterv
 * (ordered 0) or slb_plan_scatter_ordered (1); then the rank's share. */
static double run_plan(const slb_plan *plan, const ray *all, ray *mine, int ordered, double *sum)
{
    tilehybrid_status st;
    double t0;
    int rc;
    must(MPI_Barrier(plan->comm), "MPI_Barrier");
    t0 = MPI_Wtime();
    rc = ordered ? slb_plan_scatter_ordered(plan, all, mine, &st)
                 : slb_plan_scatterv(plan, all, mine, &st);
    if (rc != SLB_OK) {
        fprintf(stderr, "scatter_seismic: rank %d: %s (%s)\n", plan->rank, slb_strerror(rc),
                st.arg != NULL ? st.arg : "");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    *sum = work(mine, plan->counts[plan->rank]);
    return MPI_Wtime() - t0;
}

/* The plan's counts sent in the opposite order (no scatterlb.h call does
 * that): slb_plan_scatter_ordered's steps, blocking sends on the plan's
 * communicator with its tag, the root's own share copied last, with the
 * order reversed (order[size-1], the root, still last); then the share. */
static double run_reversed(const slb_plan *plan, const ray *all, ray *mine, double *sum)
{
    double t0;
    int i, r, rc = MPI_SUCCESS, root = plan->root, last = plan->size - 1;
    int64_t c = plan->counts[plan->rank];
    must(MPI_Barrier(plan->comm), "MPI_Barrier");
    t0 = MPI_Wtime();
    if (plan->rank != root) {
        if (c > 0)
            rc = MPI_Recv(mine, (int)c, plan->type, root, TILEHYBRID_TAG_SCATTER, plan->comm,
                          MPI_STATUS_IGNORE);
    } else {
        for (i = last - 1; i >= 0 && rc == MPI_SUCCESS; i--)
            if ((r = plan->order[i]) != root && plan->counts[r] > 0)
                rc = MPI_Send(all + plan->displs[r], (int)plan->counts[r], plan->type, r,
                              TILEHYBRID_TAG_SCATTER, plan->comm);
        if (rc == MPI_SUCCESS && c > 0)
            rc = MPI_Sendrecv(all + plan->displs[root], (int)c, plan->type, root,
                              TILEHYBRID_TAG_SCATTER, mine, (int)c, plan->type, root,
                              TILEHYBRID_TAG_SCATTER, plan->comm, MPI_STATUS_IGNORE);
    }
    if (rc != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    *sum = work(mine, c);
    return MPI_Wtime() - t0;
}

static int usage(int rank, const char *msg)
{
    if (rank == 0)
        fprintf(stderr, "scatter_seismic: %s\nusage: smpirun ... scatter_seismic --costs FILE "
                        "[--items N] [--json]\n", msg);
    return 2;
}

/* Parse argv; 0 or the exit status. */
static int parse(int argc, char **argv, int rank, const char **costs, int64_t *n, int *json)
{
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            *json = 1;
        else if (strcmp(argv[i], "--costs") == 0 && i + 1 < argc)
            *costs = argv[++i];
        else if (strcmp(argv[i], "--items") == 0 && i + 1 < argc) {
            if (tilehybrid_parse_i64(argv[++i], 1, 100000000, n) != TILEHYBRID_OK)
                return usage(rank, "--items: a whole number in 1..100000000");
        } else
            return usage(rank, "unknown or incomplete argument");
    }
    return *costs == NULL ? usage(rank, "--costs FILE is required") : 0;
}

/* Print "key":[v0,...] (JSON) with a leading comma. */
static void print_array(const char *key, const double *v, int p)
{
    int i;
    printf(", \"%s\": [", key);
    for (i = 0; i < p; i++)
        printf("%s%.4f", i ? ", " : "", v[i]);
    printf("]");
}

/* Gather run j's outcome to rank 0 (in MPI_COMM_WORLD's rank order) and, on
 * rank 0, print it: as "<run>_finish" etc. (JSON) or one line of text. */
static void report_run(int json, int j, const outcome *o, int p)
{
    double fin[MAXP], cnt[MAXP], pred[MAXP], mine[2] = {0, 0}, makespan = 0;
    int rank;
    char key[64];
    must(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    if (o->plan != NULL) {
        mine[0] = (double)o->plan->counts[o->plan->rank];
        mine[1] = o->plan->finish[o->plan->rank];
    }
    must(MPI_Gather(&o->finish, 1, MPI_DOUBLE, fin, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD),
         "MPI_Gather");
    must(MPI_Gather(&mine[0], 1, MPI_DOUBLE, cnt, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD), "MPI_Gather");
    must(MPI_Gather(&mine[1], 1, MPI_DOUBLE, pred, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD), "MPI_Gather");
    must(MPI_Reduce(&o->finish, &makespan, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD),
         "MPI_Reduce");
    if (rank != 0)
        return;
    if (!json) {
        printf("%-18s makespan %8.1f s", run_name[j], makespan);
        if (o->plan != NULL)
            printf(" (predicted %.1f s)", o->plan->makespan);
        printf("\n");
        return;
    }
    sprintf(key, "%s_finish", run_name[j]);
    print_array(key, fin, p);
    printf(", \"%s_makespan\": %.4f", run_name[j], makespan);
    if (o->plan != NULL) {
        sprintf(key, "%s_counts", run_name[j]);
        print_array(key, cnt, p);
        sprintf(key, "%s_predicted", run_name[j]);
        print_array(key, pred, p);
        printf(", \"%s_predicted_makespan\": %.4f", run_name[j], o->plan->makespan);
    }
}

/* Rank 0 reads the costs; every rank gets its own mu and lambda.  0 or the
 * exit status (the same on every rank). */
static int load_costs(const char *costs, int rank, int size, char (*names)[64], slb_affine *me)
{
    static double mu[MAXP], lambda[MAXP];
    double mine[2];
    int rc = 0;
    if (rank == 0 && read_costs(costs, names, mu, lambda) != size)
        rc = usage(rank, "--costs: unreadable, or not one line per rank");
    must(MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
    if (rc != 0)
        return rc;
    must(MPI_Scatter(mu, 1, MPI_DOUBLE, &mine[0], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD), "MPI_Scatter");
    must(MPI_Scatter(lambda, 1, MPI_DOUBLE, &mine[1], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD),
         "MPI_Scatter");
    me->comp0 = 0.0; /* the paper's costs are linear */
    me->mu = mine[0];
    me->comm0 = 0.0;
    me->lambda = mine[1]; /* the root's own share costs nothing to send */
    return 0;
}

/* The three plans: bandwidth order on MPI_COMM_WORLD, balanced (bw) and
 * uniform (uni); the given (ascending) order on asc, MPI_COMM_WORLD with
 * the ranks after the root reversed (up). */
static void make_plans(int64_t n, MPI_Datatype t, const slb_affine *me, slb_plan *bw,
                       slb_plan *uni, slb_plan *up, MPI_Comm *asc)
{
    slb_options o = slb_options_default(), u = slb_options_default();
    int rank, size;
    must(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    must(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    if (MPI_Comm_split(MPI_COMM_WORLD, 0, rank == 0 ? 0 : size - rank, asc) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    o.order = SLB_ORDER_GIVEN;
    u.method = SLB_METHOD_UNIFORM;
    if (slb_plan_create(MPI_COMM_WORLD, 0, n, t, me, NULL, bw, NULL) != SLB_OK ||
        slb_plan_create(MPI_COMM_WORLD, 0, n, t, me, &u, uni, NULL) != SLB_OK ||
        slb_plan_create(*asc, 0, n, t, me, &o, up, NULL) != SLB_OK)
        MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Rank 0: the run's header and footer around report_run's output. */
static void report_open(int json, int64_t n, int p, char (*names)[64])
{
    int i;
    if (!json) {
        printf("%lld rays, %d ranks\n", (long long)n, p);
        return;
    }
    printf("{\"items\": %lld, \"ranks\": %d, \"names\": [", (long long)n, p);
    for (i = 0; i < p; i++)
        printf("%s\"%s\"", i ? ", " : "", names[i]);
    printf("]");
}

/* Rank 0's n rays, numbered, or NULL (out of memory). */
static ray *make_rays(int64_t n)
{
    int64_t i;
    ray *all = (ray *)TILEHYBRID_MALLOC((size_t)n * sizeof(ray));
    if (all != NULL)
        memset(all, 0, (size_t)n * sizeof(ray));
    for (i = 0; all != NULL && i < n; i++)
        all[i].v[0] = (double)i;
    return all;
}

/* Every rank: check that each run delivered the n rays once (the sum of
 * their numbers over the ranks), and print the runs' outcomes (rank 0); 1
 * if they did (on every rank), else 0. */
static int report_all(int json, int64_t n, int p, char (*names)[64], const outcome *out)
{
    double sums[RUNS], tot[RUNS], want;
    int rank, ok, j;
    must(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    for (j = 0; j < RUNS; j++)
        sums[j] = out[j].sum;
    must(MPI_Reduce(sums, tot, RUNS, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD), "MPI_Reduce");
    want = (double)n * (double)(n - 1) / 2.0;
    for (ok = 1, j = 0; j < RUNS; j++)
        ok = ok && tot[j] == want;
    if (rank == 0)
        report_open(json, n, p, names);
    for (j = 0; j < RUNS; j++)
        report_run(json, j, &out[j], p);
    if (rank == 0)
        printf(json ? ", \"ok\": %s}\n" : "rays: %s\n",
               ok ? (json ? "true" : "all delivered once in every run")
                  : (json ? "false" : "LOST OR DUPLICATED"));
    must(MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
    return ok;
}

int main(int argc, char **argv)
{
    static char names[MAXP][64];
    const char *costs = NULL;
    int64_t n = 817101, q, cap;
    int rank, size, json = 0, rc, ok, j;
    ray *all = NULL, *mine;
    MPI_Datatype ray_t;
    MPI_Comm asc;
    slb_affine me;
    slb_plan bw, uni, up;
    outcome out[RUNS];

    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fprintf(stderr, "scatter_seismic: MPI_Init failed\n");
        return 1;
    }
    must(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    must(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    rc = parse(argc, argv, rank, &costs, &n, &json);
    must(MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
    if (rc == 0 && size > MAXP)
        rc = usage(rank, "at most 1024 ranks");
    if (rc == 0)
        rc = load_costs(costs, rank, size, names, &me);
    if (rc != 0) {
        must(MPI_Finalize(), "MPI_Finalize");
        return rc;
    }
    must(MPI_Type_contiguous(8, MPI_DOUBLE, &ray_t), "MPI_Type_contiguous");
    must(MPI_Type_commit(&ray_t), "MPI_Type_commit");
    if (rank == 0)
        all = make_rays(n);
    make_plans(n, ray_t, &me, &bw, &uni, &up, &asc);
    q = n / size;
    cap = q;
    cap = uni.counts[uni.rank] > cap ? uni.counts[uni.rank] : cap;
    cap = bw.counts[bw.rank] > cap ? bw.counts[bw.rank] : cap;
    cap = up.counts[up.rank] > cap ? up.counts[up.rank] : cap;
    mine = (ray *)TILEHYBRID_MALLOC((size_t)(cap + 1) * sizeof(ray));
    if (mine == NULL || (rank == 0 && all == NULL))
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (j = 0; j < RUNS; j++)
        out[j].plan = j == 0 ? NULL : j == 1 ? &uni : j == 4 ? &up : &bw;
    out[0].finish = run_mpi_scatter(all, mine, q, n - q * size, ray_t, &out[0].sum);
    out[1].finish = run_plan(&uni, all, mine, 1, &out[1].sum);
    out[2].finish = run_plan(&bw, all, mine, 0, &out[2].sum);
    out[3].finish = run_plan(&bw, all, mine, 1, &out[3].sum);
    out[4].finish = run_plan(&up, all, mine, 1, &out[4].sum);
    out[5].finish = run_reversed(&bw, all, mine, &out[5].sum);

    ok = report_all(json, n, size, names, out);
    slb_plan_free(&bw);
    slb_plan_free(&uni);
    slb_plan_free(&up);
    must(MPI_Comm_free(&asc), "MPI_Comm_free");
    must(MPI_Type_free(&ray_t), "MPI_Type_free");
    TILEHYBRID_FREE(all);
    TILEHYBRID_FREE(mine);
    must(MPI_Finalize(), "MPI_Finalize");
    return ok ? 0 : 1;
}
