/* tests/failure_collectives.c -- the collectives of topology.h and
 * scatterlb.h must not hang when one of their MPI calls fails on one rank.
 *
 * Linked with tests/pmpi_failure.c (the Makefile), which makes the call
 * TILEHYBRID_FAIL_CALL fail on rank TILEHYBRID_FAIL_RANK (after
 * TILEHYBRID_FAIL_AFTER good calls).  tests/cli_collective_failure.sh runs
 * it at 3 processes.  argv[1] chooses the collective, called on a
 * duplicate of MPI_COMM_WORLD whose error handler returns errors:
 *
 *   calibrate   slb_calibrate() (scatterlb.h: agreements, the root's
 *               ping-pong with every rank, MPI_Scatter of the fits)
 *   plan        slb_plan_create() (agreement, MPI_Gather of the costs,
 *               MPI_Bcast of the plan)
 *   ordered     the same with SLB_ORDER_BANDWIDTH and costs whose order is
 *               not the ranks' (at 3+ processes: MPI_Comm_split of the
 *               reordered communicator)
 *   cart        topo_cart_create_ex() (topology.h: agreement,
 *               MPI_Cart_create)
 *   nest        topo_nest_cart_create()
 *
 * With TILEHYBRID_FAIL_HOOK=1 it first installs a hook
 * (tilehybrid_mpi_failure_swap) that prints "failure_collectives hook on
 * rank R: MESSAGE" and returns (the header then aborts).  The header must
 * report the call and the rank and end the job (MPI_Abort): the script
 * checks that every rank is gone within seconds, with a non-zero status.
 * Should the collective return an error instead, this program prints it
 * and finalizes, as a program would (the other ranks then wait forever:
 * the script's guard kills them).
 * With nothing made to fail it exits 0 (the script checks that too).
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../scatterlb.h"
#include "../topology.h"
#include "pmpi_failure.h"

static int myrank;

static void hook(const char *msg, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "failure_collectives hook on rank %d: %s\n", myrank, msg);
}

static volatile double sink;

static void work(void *ctx, int64_t k)
{
    double x = 0;
    int64_t i;
    (void)ctx;
    for (i = 0; i < k; i++)
        x += 1.0 / (double)(i + 1);
    sink = x;
}

static int run(MPI_Comm comm, const char *what, tilehybrid_status *st)
{
    int64_t extent[2] = {64, 64}, dep[2] = {1, 1};
    int dims[2] = {0, 0};
    if (strcmp(what, "calibrate") == 0) {
        slb_affine mine;
        return slb_calibrate(comm, 0, MPI_DOUBLE, work, NULL, 64, 64, 1, &mine, st);
    }
    if (strcmp(what, "plan") == 0 || strcmp(what, "ordered") == 0) {
        slb_affine mine = {0, 1e-6, 1e-5, 1e-8};
        slb_options o = slb_options_default();
        slb_plan plan;
        int rc;
        if (strcmp(what, "ordered") == 0) {   /* the fastest link last in rank order */
            o.order = SLB_ORDER_BANDWIDTH;
            mine.mu = 1.0 + (myrank % 3);
            mine.comm0 = 0.01;
            mine.lambda = 0.001 * (double)(3 - myrank);
        }
        rc = slb_plan_create(comm, 0, 1000, MPI_DOUBLE, &mine, &o, &plan, st);
        if (rc == SLB_OK)
            slb_plan_free(&plan);
        return rc;
    }
    if (strcmp(what, "scatterv") == 0) {   /* plan, check, scatter: one call */
        static double items[1000], got[1000];
        slb_affine mine = {0, 1e-6, 1e-5, 1e-8};
        slb_plan plan;
        int rc = slb_scatterv(items, 1000, MPI_DOUBLE, got, 1000, 0, comm, &mine, NULL, &plan,
                              st);
        slb_plan_free(&plan);
        return rc;
    }
    if (strcmp(what, "cart") == 0 || strcmp(what, "nest") == 0) {
        MPI_Comm cart = MPI_COMM_NULL;
        topo_nest nest;
        int rc;
        if (strcmp(what, "cart") == 0)
            rc = topo_cart_create_ex(comm, 2, extent, dep, TOPO_POLICY_COMM, NULL, 0, &cart,
                                     dims, st);
        else if ((rc = topo_nest_init(&nest, 2, extent, 16, dep, st)) == TOPO_OK)
            rc = topo_nest_cart_create(comm, &nest, TOPO_POLICY_COMM, NULL, 0, &cart, dims, st);
        if (cart != MPI_COMM_NULL)
            MPI_Comm_free(&cart);
        return rc;
    }
    fprintf(stderr, "failure_collectives: unknown collective '%s'\n", what);
    return -1;
}

int main(int argc, char **argv)
{
    MPI_Comm comm;
    tilehybrid_status st;
    int rc;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    if (getenv("TILEHYBRID_FAIL_HOOK") != NULL) {
        tilehybrid_mpi_failure_fn fn = hook;
        void *ctx = NULL;
        tilehybrid_mpi_failure_swap(&fn, &ctx);
    }
    rc = run(comm, argc > 1 ? argv[1] : "", &st);
    if (rc != 0)   /* what a program does with an error code: report, finalize */
        fprintf(stderr, "failure_collectives: rank %d: %s returned %d (%s)\n", myrank,
                argc > 1 ? argv[1] : "", rc, st.arg);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return rc != 0 ? 5 : 0;
}
