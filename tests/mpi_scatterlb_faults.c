/* tests/mpi_scatterlb_faults.c -- an MPI call that fails on one rank only,
 * inside slb_plan_create and slb_calibrate, run at 1..4 ranks.
 *
 * This file defines MPI_Bcast, MPI_Gather, MPI_Comm_split and MPI_Scatter
 * (the MPI profiling interface): each calls its PMPI_ twin, so the data
 * still move and message matching stays intact, and then, on the rank and
 * at the call chosen, returns MPI_ERR_OTHER as if it had failed.  Every
 * rank must then return SLB_ERR_MPI with the same status (the failing rank,
 * "comm", the MPI error code) instead of leaving the others waiting in the
 * next collective (tests/run.sh's timeout turns such a hang into a
 * failure). */
#include <mpi.h>

#include "scatterlb.h"

#include "check.h"

#include <string.h>

static int size, rank;

/* ---- the injected failure ---- */

static const char *fail_call = ""; /* the call to fail: "MPI_Bcast", ... */
static int fail_rank = -1;

static int injected(const char *call, int rc)
{
    if (rc == MPI_SUCCESS && rank == fail_rank && strcmp(call, fail_call) == 0) {
        fail_call = ""; /* once */
        return MPI_ERR_OTHER;
    }
    return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    return injected("MPI_Bcast", PMPI_Bcast(buf, count, type, root, comm));
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm)
{
    return injected("MPI_Gather",
                    PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *out)
{
    int rc = PMPI_Comm_split(comm, color, key, out);
    if (rc == MPI_SUCCESS && injected("MPI_Comm_split", rc) != MPI_SUCCESS) {
        PMPI_Comm_free(out); /* as if it had never been made */
        *out = MPI_COMM_NULL;
        return MPI_ERR_OTHER;
    }
    return rc;
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    return injected("MPI_Scatter",
                    PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
}

/* ---- the checks ---- */

/* The same code and status on every rank: the failing rank, "comm", the
 * MPI error. */
static int failed_everywhere(int rc, const tilehybrid_status *st, int who)
{
    int v[4], lo[4], hi[4], i, ok;
    v[0] = rc;
    v[1] = st->rank;
    v[2] = st->mpi_error;
    v[3] = strcmp(st->arg, "comm") == 0;
    MPI_Allreduce(v, lo, 4, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(v, hi, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    ok = rc == SLB_ERR_MPI && st->rank == who && st->mpi_error == MPI_ERR_OTHER && v[3];
    for (i = 0; i < 4; i++)
        ok = ok && lo[i] == hi[i];
    return ok;
}

static void plan_fault(const char *call, int order, const char *what)
{
    slb_affine mine = check_slb_cost(rank, size);
    slb_options o = slb_options_default();
    slb_plan pl;
    tilehybrid_status st;
    int rc;
    o.order = order;
    fail_call = call;
    fail_rank = size - 1;
    rc = slb_plan_create(MPI_COMM_WORLD, 0, 1000, MPI_INT, &mine, &o, &pl, &st);
    fail_call = "";
    check_mpi(MPI_COMM_WORLD, failed_everywhere(rc, &st, size - 1),
              "%s fails on rank %d inside slb_plan_create (%s): SLB_ERR_MPI on every rank, "
              "naming rank %d and the MPI error", call, size - 1, what, st.rank);
    slb_plan_free(&pl);
    /* and the communicator still works: a plan now succeeds */
    rc = slb_plan_create(MPI_COMM_WORLD, 0, 1000, MPI_INT, &mine, &o, &pl, &st);
    check_mpi(MPI_COMM_WORLD, rc == SLB_OK, "%s: afterwards a plan succeeds (%s)", call,
              slb_strerror(rc));
    slb_plan_free(&pl);
}

static volatile double sink;
static void kernel(void *ctx, int64_t count)
{
    double s = 0;
    int64_t i;
    (void)ctx;
    for (i = 0; i < 20 * count; i++)
        s += 1.0 / (double)(i + 1);
    sink = s;
}

static void calibrate_fault(void)
{
    slb_affine mine;
    tilehybrid_status st;
    int rc;
    fail_call = "MPI_Scatter";
    fail_rank = size - 1;
    rc = slb_calibrate(MPI_COMM_WORLD, 0, MPI_DOUBLE, kernel, NULL, 50, 50, 1, &mine, &st);
    fail_call = "";
    check_mpi(MPI_COMM_WORLD, failed_everywhere(rc, &st, size - 1),
              "MPI_Scatter fails on rank %d inside slb_calibrate: SLB_ERR_MPI on every rank, "
              "naming rank %d", size - 1, st.rank);
}

int main(int argc, char **argv)
{
    check_mpi_init(&argc, &argv, &rank, &size);
    plan_fault("MPI_Gather", SLB_ORDER_GIVEN, "gathering the costs");
    plan_fault("MPI_Bcast", SLB_ORDER_GIVEN, "sharing the solution");
    if (size > 2) /* a reordered communicator needs an order other than the ranks' */
        plan_fault("MPI_Comm_split", SLB_ORDER_BANDWIDTH, "the reordered communicator");
    calibrate_fault();
    MPI_Finalize();
    return check_exit();
}
