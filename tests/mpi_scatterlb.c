/* tests/mpi_scatterlb.c -- the MPI side of scatterlb.h, run at 1..4 ranks.
 *
 * Data arrive intact and in order (every rank checks the exact item indices
 * it holds; the root checks the gathered buffer bitwise), with root 0, a
 * non-zero root and a reordered communicator; every method; general costs
 * known at the root; large counts; calibration; and collective safety: bad
 * or inconsistent arguments give the same error on every rank, no hang. */
#include <mpi.h>

#include "scatterlb.h"

#include "check.h"

#include <stdlib.h>
#include <string.h>

static int size, rank;

/* Costs that make the bandwidth order differ from the rank order: lambda
 * decreases with the rank. */
static slb_affine my_cost(double mu_scale)
{
    slb_affine a;
    a.comp0 = 0;
    a.mu = mu_scale * (1.0 + (rank % 3));
    a.comm0 = 0.01;
    a.lambda = 0.001 * (double)(size - rank);
    return a;
}

/* Every rank holds items displs[rank] .. + counts[rank] - 1 (values are the
 * item indices). */
static int holds_its_items(const slb_plan *pl, const int *buf)
{
    int64_t i;
    for (i = 0; i < pl->counts[pl->rank]; i++)
        if (buf[i] != (int)(pl->displs[pl->rank] + i))
            return 0;
    return 1;
}

/* The plan is the same on every rank (counts, order). */
static int plan_agrees(const slb_plan *pl)
{
    uint64_t h = 1469598103934665603ull, mn, mx;   /* FNV-1a, unsigned: wraps */
    int r;
    for (r = 0; r < pl->size; r++)
        h = (h ^ ((uint64_t)pl->counts[r] * 31u + (uint64_t)pl->order[r])) * 1099511628211ull;
    MPI_Allreduce(&h, &mn, 1, MPI_UINT64_T, MPI_MIN, pl->comm);
    MPI_Allreduce(&h, &mx, 1, MPI_UINT64_T, MPI_MAX, pl->comm);
    return mn == mx;
}

/* Scatter n ints from root with the given options, check, gather back. */
static void round_trip(int root, int64_t n, const slb_options *o, const char *what)
{
    slb_affine mine = my_cost(1.0);
    slb_plan pl;
    int *all = NULL, *back = NULL, *mybuf = NULL;
    int64_t i, sum = 0;
    int rc, ok, r, sorted = 1, intact = 1;
    if (rank == root) {
        all = (int *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
        back = (int *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
        for (i = 0; i < n; i++) {
            all[i] = (int)i;
            back[i] = -1;
        }
    }
    mybuf = (int *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    rc = slb_scatterv(all, n, MPI_INT, mybuf, n, root, MPI_COMM_WORLD, &mine, o, &pl, NULL);
    ok = rc == SLB_OK;
    check_mpi(MPI_COMM_WORLD, ok, "%s, root %d, n=%lld: slb_scatterv returns SLB_OK (%s)", what,
              root, (long long)n, slb_strerror(rc));
    if (!ok) {
        slb_plan_free(&pl);
        free(all);
        free(back);
        free(mybuf);
        return;
    }
    for (r = 0; r < size; r++)
        sum += pl.counts[r];
    ok = sum == n && pl.order[size - 1] == root && plan_agrees(&pl);
    if (o == NULL || o->order == SLB_ORDER_BANDWIDTH)
        for (r = 0; r + 2 < size; r++) /* lambda decreases with rank */
            if (pl.order[r] < pl.order[r + 1])
                sorted = 0;
    check_mpi(MPI_COMM_WORLD, ok && sorted,
              "%s, root %d: counts add up to n, root served last, same plan on every rank%s",
              what, root, (o == NULL || o->order == SLB_ORDER_BANDWIDTH) ?
                                  ", ranks in decreasing bandwidth" : "");
    check_mpi(MPI_COMM_WORLD, holds_its_items(&pl, mybuf),
              "%s, root %d: every rank received exactly its items, in order (%s communicator)",
              what, root, pl.ordered != MPI_COMM_NULL ? "reordered" : "original");
    for (i = 0; i < pl.counts[rank]; i++)
        mybuf[i] = -mybuf[i] - 1; /* "work": a transformation of each item */
    rc = slb_gatherv(&pl, mybuf, back, NULL);
    if (rank == root)
        for (i = 0; i < n; i++)
            if (back[i] != -(int)i - 1)
                intact = 0;
    check_mpi(MPI_COMM_WORLD, rc == SLB_OK && intact,
              "%s, root %d: slb_gatherv returns every result to its place", what, root);
    slb_plan_free(&pl);
    free(all);
    free(back);
    free(mybuf);
}

static void test_round_trips(void)
{
    slb_options o = slb_options_default();
    int m;
    round_trip(0, 1000 + size, NULL, "exact, bandwidth order");
    round_trip(size - 1, 777, NULL, "exact, bandwidth order");
    round_trip(size / 2, 5, NULL, "exact, few items");
    round_trip(0, 0, NULL, "exact, no items");
    o.large_count = 2; /* MPI_Scatterv_c / MPI_Gatherv_c even for small counts */
    round_trip(size - 1, 999, &o, SLB__LARGE ? "exact, MPI-4 large-count calls"
                                             : "exact, large_count = 2 (no MPI-4: int calls)");
    o.large_count = 1;
    for (m = SLB_METHOD_HEURISTIC; m <= SLB_METHOD_UNIFORM; m++) {
        char what[64];
        o.method = m;
        o.order = m % 2 ? SLB_ORDER_GIVEN : SLB_ORDER_BANDWIDTH;
        snprintf(what, sizeof what, "%s, %s order", slb_method_name(m),
                 o.order == SLB_ORDER_GIVEN ? "given" : "bandwidth");
        round_trip(size > 1 ? 1 : 0, 300, &o, what);
    }
}

/* Costs known at the root only, here as tables (a non-affine problem). */
static void test_costs_at_root(void)
{
    const int64_t n = 200;
    double *comp = NULL, *comm = NULL;
    slb_problem pb;
    slb_plan pl;
    double *all = NULL, *mine;
    int64_t i, r;
    int rc, ok = 1;
    if (rank == 0) {
        comp = (double *)malloc((size_t)(size * n) * sizeof(double));
        comm = (double *)malloc((size_t)(size * n) * sizeof(double));
        for (r = 0; r < size; r++)
            for (i = 0; i < n; i++) {
                comp[r * n + i] = (double)((i + 1) * (r + 1)) + (i >= 50 ? 30.0 : 0.0);
                comm[r * n + i] = r == 0 ? 0.0 : 2.0 + (double)((i + 8) / 8); /* packets */
            }
        all = (double *)malloc((size_t)n * sizeof(double));
        for (i = 0; i < n; i++)
            all[i] = 0.5 * (double)i;
    }
    pb = slb_problem_table(size, n, comp, comm);
    rc = slb_plan_create_costs(MPI_COMM_WORLD, 0, n, MPI_DOUBLE, rank == 0 ? &pb : NULL, NULL,
                               &pl, NULL);
    check_mpi(MPI_COMM_WORLD, rc == SLB_OK && plan_agrees(&pl),
              "tabled costs known at the root only: plan created, same on every rank (%s)",
              slb_strerror(rc));
    if (rc == SLB_OK) {
        mine = (double *)malloc((size_t)(pl.counts[rank] + 1) * sizeof(double));
        rc = slb_plan_scatterv(&pl, all, mine, NULL);
        for (i = 0; i < pl.counts[rank]; i++)
            if (mine[i] != 0.5 * (double)(pl.displs[rank] + i))
                ok = 0;
        check_mpi(MPI_COMM_WORLD, rc == SLB_OK && ok,
                  "tabled costs: doubles arrive intact with slb_plan_scatterv (makespan %.1f)",
                  pl.makespan);
        {
            /* one int result per item, gathered with another datatype */
            int *res = (int *)malloc((size_t)(pl.counts[rank] + 1) * sizeof(int));
            int *allres = (int *)malloc((size_t)n * sizeof(int));
            for (i = 0; i < pl.counts[rank]; i++)
                res[i] = (int)(2.0 * mine[i]) + 7;
            rc = slb_gatherv_type(&pl, res, MPI_INT, allres, NULL);
            ok = 1;
            for (i = 0; rank == 0 && i < n; i++)
                if (allres[i] != (int)i + 7)
                    ok = 0;
            check_mpi(MPI_COMM_WORLD, rc == SLB_OK && ok,
                      "slb_gatherv_type: one int result per double item, each in its place");
            free(res);
            free(allres);
        }
        free(mine);
    }
    slb_plan_free(&pl);
    free(comp);
    free(comm);
    free(all);
}

/* Every bad or inconsistent argument: the same code on every rank. */
static int same_everywhere(int rc)
{
    int mn, mx;
    MPI_Allreduce(&rc, &mn, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&rc, &mx, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return mn == mx;
}

/* The outcome of fn with a NULL plan on the last rank only (it returned at
 * once and the other ranks waited in the agreement for ever): SLB_ERR_ARG
 * on every rank, naming 'plan' and that rank; the other ranks' plans are
 * freed. */
static void check_plan_null_last(const char *fn, int rc, const tilehybrid_status *st,
                                 slb_plan *pl)
{
    check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_ARG && same_everywhere(rc) &&
                                  st->rank == size - 1 && strcmp(st->arg, "plan") == 0,
              "%s, plan NULL on the last rank only: SLB_ERR_ARG on every rank, "
              "'plan' and rank %d named", fn, st->rank);
    if (rank != size - 1)
        slb_plan_free(pl);
}

static void test_collective_safety(void)
{
    slb_affine mine = my_cost(1.0);
    slb_options o = slb_options_default();
    slb_plan pl;
    tilehybrid_status st;
    int rc;

    rc = slb_plan_create(MPI_COMM_WORLD, 0, -5, MPI_INT, &mine, NULL, &pl, &st);
    check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_ITEMS && same_everywhere(rc),
              "n < 0: SLB_ERR_ITEMS on every rank (%s)", slb_strerror(rc));
    slb_plan_free(&pl);
    rc = slb_plan_create(MPI_COMM_WORLD, size, 10, MPI_INT, &mine, NULL, &pl, &st);
    check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_ROOT && same_everywhere(rc),
              "root = size (outside the communicator): SLB_ERR_ROOT on every rank");
    slb_plan_free(&pl);
    rc = slb_plan_create(MPI_COMM_WORLD, -1, 10, MPI_INT, &mine, NULL, &pl, &st);
    check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_ROOT && same_everywhere(rc) && st.rank == 0,
              "root = -1: SLB_ERR_ROOT on every rank, rank 0 named");
    slb_plan_free(&pl);
    if (rank == size - 1)
        mine.mu = -1.0;
    rc = slb_plan_create(MPI_COMM_WORLD, 0, 10, MPI_INT, &mine, NULL, &pl, &st);
    check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_COST && same_everywhere(rc) &&
                                  st.rank == size - 1,
              "negative mu on the last rank: SLB_ERR_COST on every rank, rank %d named",
              st.rank);
    slb_plan_free(&pl);
    mine = my_cost(1.0);
    rc = slb_plan_create(MPI_COMM_WORLD, 0, 10, MPI_INT, NULL, NULL, &pl, &st);
    check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_ARG && same_everywhere(rc),
              "no costs given: SLB_ERR_ARG on every rank");
    slb_plan_free(&pl);
    o.method = 99;
    rc = slb_plan_create(MPI_COMM_WORLD, 0, 10, MPI_INT, &mine, &o, &pl, &st);
    check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_METHOD && same_everywhere(rc),
              "unknown method: SLB_ERR_METHOD on every rank");
    slb_plan_free(&pl);
    /* a bad argument on one rank only: every rank gets its error */
    rc = slb_plan_create(MPI_COMM_WORLD, 0, rank == size - 1 ? -5 : 10, MPI_INT, &mine, NULL,
                         &pl, &st);
    check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_ITEMS && same_everywhere(rc) &&
                                  st.rank == size - 1 && strcmp(st.arg, "n") == 0,
              "n < 0 on the last rank only: SLB_ERR_ITEMS on every rank, 'n' and rank %d "
              "named", st.rank);
    slb_plan_free(&pl);
    rc = slb_plan_create(MPI_COMM_WORLD, 0, 10, MPI_INT, &mine, NULL,
                         rank == size - 1 ? NULL : &pl, &st);
    check_plan_null_last("slb_plan_create", rc, &st, &pl);
    {
        slb_affine *all = (slb_affine *)malloc((size_t)size * sizeof *all);
        slb_problem pb;
        int r;
        for (r = 0; r < size; r++)
            all[r] = my_cost(1.0);
        pb = slb_problem_affine(size, all);
        rc = slb_plan_create_costs(MPI_COMM_WORLD, 0, 10, MPI_INT, &pb, NULL,
                                   rank == size - 1 ? NULL : &pl, &st);
        check_plan_null_last("slb_plan_create_costs", rc, &st, &pl);
        free(all);
    }
}

/* The outcome of a call given a value that differs across ranks: on one
 * rank (nothing differs) SLB_OK, else SLB_ERR_MISMATCH naming arg; the same
 * code on every rank. */
static int mismatch_named(int rc, const tilehybrid_status *st, const char *arg)
{
    return (size == 1 ? rc == SLB_OK : rc == SLB_ERR_MISMATCH && strcmp(st->arg, arg) == 0) &&
           same_everywhere(rc);
}

/* Values that must agree across ranks: SLB_ERR_MISMATCH naming the value. */
static void test_mismatch(void)
{
    slb_affine mine = my_cost(1.0);
    slb_plan pl;
    tilehybrid_status st;
    int rc;

    rc = slb_plan_create(MPI_COMM_WORLD, 0, rank == 0 ? 100 : 101, MPI_INT, &mine, NULL, &pl,
                         &st);
    check_mpi(MPI_COMM_WORLD, mismatch_named(rc, &st, "n"),
              "n differing across ranks: %s on every rank", size == 1 ? "(1 rank) SLB_OK"
                                                                      : "SLB_ERR_MISMATCH, 'n'");
    slb_plan_free(&pl);
    rc = slb_plan_create(MPI_COMM_WORLD, rank == size - 1 ? 0 : size - 1, 100, MPI_INT, &mine,
                         NULL, &pl, &st);
    check_mpi(MPI_COMM_WORLD, mismatch_named(rc, &st, "root"),
              "root differing across ranks: same code on every rank (%s)", slb_strerror(rc));
    slb_plan_free(&pl);
    rc = slb_plan_create(MPI_COMM_WORLD, 0, 100, rank == size - 1 ? MPI_DOUBLE : MPI_INT, &mine,
                         NULL, &pl, &st);
    check_mpi(MPI_COMM_WORLD, mismatch_named(rc, &st, "type"),
              "datatype size differing across ranks: same code on every rank (%s)",
              slb_strerror(rc));
    slb_plan_free(&pl);
    {
        slb_options o = slb_options_default();
        o.method = rank == 0 ? SLB_METHOD_EXACT : SLB_METHOD_UNIFORM;
        rc = slb_plan_create(MPI_COMM_WORLD, 0, 100, MPI_INT, &mine, &o, &pl, &st);
        check_mpi(MPI_COMM_WORLD, mismatch_named(rc, &st, "opts.method"),
                  "method differing across ranks: same code on every rank");
        slb_plan_free(&pl);
    }
}

/* A receive buffer too small on one rank; counts beyond int. */
static void test_capacity_and_large(void)
{
    slb_affine mine = my_cost(1.0);
    slb_options o;
    slb_plan pl;
    tilehybrid_status st;
    int buf[16];
    int rc;

    /* a receive buffer too small on one rank */
    {
        int all[64], i;
        for (i = 0; i < 64; i++)
            all[i] = i;
        rc = slb_scatterv(all, 64, MPI_INT, buf, rank == size - 1 ? 0 : 64, 0, MPI_COMM_WORLD,
                          &mine, NULL, &pl, &st);
        check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_CAPACITY && same_everywhere(rc) &&
                                      st.rank == size - 1,
                  "receive buffer too small on the last rank: SLB_ERR_CAPACITY on every "
                  "rank, rank %d named", st.rank);
        slb_plan_free(&pl);
    }

    /* a NULL sendbuf at the root (the last rank) with n > 0: SLB_ERR_ARG
     * naming it on every rank (MPICH's fatal "Invalid buffer pointer"
     * before) */
    {
        int all[64], i;
        for (i = 0; i < 64; i++)
            all[i] = i;
        tilehybrid_status_set(&st, -1, "", -2);
        rc = slb_scatterv(rank == size - 1 ? NULL : all, 64, MPI_INT, buf, 64, size - 1,
                          MPI_COMM_WORLD, &mine, NULL, &pl, &st);
        check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_ARG && same_everywhere(rc) &&
                                      st.rank == size - 1 && strcmp(st.arg, "sendbuf") == 0,
                  "NULL sendbuf at the root (rank %d): SLB_ERR_ARG naming 'sendbuf' and the "
                  "root on every rank (got '%s', rank %d)", size - 1, st.arg, st.rank);
        slb_plan_free(&pl);
    }

    /* counts beyond int: rejected without large counts, planned with them */
    o = slb_options_default();
    o.large_count = 0;
    rc = slb_plan_create(MPI_COMM_WORLD, 0, (int64_t)3000000000ll, MPI_CHAR, &mine, &o, &pl, &st);
    check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_INT && same_everywhere(rc),
              "n = 3e9 without large counts: SLB_ERR_INT on every rank (%s)", slb_strerror(rc));
    slb_plan_free(&pl);
    o.large_count = 1;
    rc = slb_plan_create(MPI_COMM_WORLD, 0, (int64_t)3000000000ll, MPI_CHAR, &mine, &o, &pl, &st);
#if defined(MPI_VERSION) && MPI_VERSION >= 4
    check_mpi(MPI_COMM_WORLD, rc == SLB_OK && pl.large == 1 && same_everywhere(rc),
              "n = 3e9 with MPI-%d large counts: planned (MPI_Scatterv_c), counts up to %lld",
              MPI_VERSION, rc == SLB_OK ? (long long)pl.counts[pl.order[0]] : -1ll);
#else
    check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_INT && same_everywhere(rc),
              "n = 3e9 on MPI-%d (no large counts): SLB_ERR_INT", MPI_VERSION);
#endif
    slb_plan_free(&pl);
    slb_plan_free(&pl); /* freeing twice is harmless */
}

/* Calibration with a tiny per-item kernel, then a balanced round trip. */
static volatile double sink;
static void kernel(void *ctx, int64_t count)
{
    int64_t i, j, reps = *(const int *)ctx;
    double s = 0;
    for (i = 0; i < count; i++)
        for (j = 0; j < 50 * reps; j++)
            s += 1.0 / (double)(i + j + 1);
    sink = s;
}

static void test_calibration(void)
{
    int reps = 1 + rank % 2;
    slb_affine mine;
    slb_plan pl;
    double *all = NULL, *loc;
    int64_t n = 5000, i;
    int rc, ok, r;
    memset(&mine, 0, sizeof mine);
    rc = slb_calibrate(MPI_COMM_WORLD, 0, MPI_DOUBLE, kernel, &reps, 200, 2000, 3, &mine, NULL);
    ok = rc == SLB_OK && mine.mu >= 0 && mine.comp0 >= 0 && mine.lambda >= 0 &&
         mine.comm0 >= 0 && mine.mu == mine.mu && mine.lambda == mine.lambda &&
         (rank != 0 || (mine.lambda == 0 && mine.comm0 == 0));
    check_mpi(MPI_COMM_WORLD, ok, "calibration: finite non-negative comp0, mu, comm0, lambda; "
                                  "zero communication cost at the root (%s)", slb_strerror(rc));
    if (rank == 0)
        check_note("rank 0 calibrated mu %.3g s/item, comp0 %.3g s", mine.mu, mine.comp0);
    if (rank == 0) {
        all = (double *)malloc((size_t)n * sizeof(double));
        for (i = 0; i < n; i++)
            all[i] = (double)i;
    }
    rc = slb_plan_create(MPI_COMM_WORLD, 0, n, MPI_DOUBLE, &mine, NULL, &pl, NULL);
    loc = (double *)malloc((size_t)n * sizeof(double));
    ok = rc == SLB_OK && slb_plan_scatterv(&pl, all, loc, NULL) == SLB_OK;
    for (i = 0; ok && i < pl.counts[rank]; i++)
        ok = loc[i] == (double)(pl.displs[rank] + i);
    if (ok && rank == 0)
        memset(all, 0, (size_t)n * sizeof(double));
    ok = ok && slb_gatherv(&pl, loc, all, NULL) == SLB_OK;
    for (i = 0; ok && rank == 0 && i < n; i++)
        ok = all[i] == (double)i;
    check_mpi(MPI_COMM_WORLD, ok, "calibrated costs: scatter and gather of %lld doubles intact",
              (long long)n);
    for (r = 0; rank == 0 && rc == SLB_OK && r < size; r++)
        check_note("rank %d: %lld items, predicted finish %.4f s", r, (long long)pl.counts[r],
                   pl.finish[r]);
    slb_plan_free(&pl);
    free(loc);
    free(all);
    /* bad calibration arguments agree too */
    rc = slb_calibrate_comm(MPI_COMM_WORLD, 0, MPI_DOUBLE, rank == 0 ? 100 : 200, 2,
                            &mine.comm0, &mine.lambda, NULL);
    check_mpi(MPI_COMM_WORLD, (size == 1 ? rc == SLB_OK : rc == SLB_ERR_MISMATCH) &&
                                  same_everywhere(rc),
              "calibration with different sample sizes: same code on every rank");
    rc = slb_calibrate(MPI_COMM_WORLD, size, MPI_DOUBLE, kernel, &reps, 10, 10, 1, &mine, NULL);
    check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_ROOT && same_everywhere(rc),
              "calibration with the root outside the communicator: SLB_ERR_ROOT everywhere");
}

int main(int argc, char **argv)
{
    check_mpi_init(&argc, &argv, &rank, &size);
    test_round_trips();
    test_costs_at_root();
    test_collective_safety();
    test_mismatch();
    test_capacity_and_large();
    test_calibration();
    return check_mpi_exit();
}
