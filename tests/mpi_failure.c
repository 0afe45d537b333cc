/* tests/mpi_failure.c -- an MPI call of the engine that fails on one rank
 * must not leave the other ranks waiting.
 *
 * Linked with tests/pmpi_failure.c (the Makefile), which wraps MPI_Isend,
 * MPI_Irecv, MPI_Waitall, MPI_Allreduce, MPI_Allgather, MPI_Bcast,
 * MPI_Alltoallw, the persistent requests' calls (MPI_Send_init,
 * MPI_Recv_init, MPI_Startall, MPI_Request_free), MPI-4's partitioned
 * ones, MPI_Send, MPI_Recv, MPI_Sendrecv, MPI_Cart_create, MPI_Comm_dup,
 * MPI_Comm_split_type, MPI_Reduce and MPI_Gather.
 *
 * Run as the other MPI tests (tests/run.sh, 1-4 processes, nothing made to
 * fail): every model, with each kind of face messages (cfg.messages),
 * computes the ADI kernel with 128 KB faces and a sum reduction, then
 * gathers the result on rank 0 (tile_gather), bit for bit the sequential
 * loop's, and the wrappers saw the calls the failure tests aim at (so they
 * aim at calls the engine makes): persistent requests are made once per
 * plan and started, never MPI_Isend per tile.
 *
 * Run with TILEHYBRID_FAIL_CALL set (tests/cli_failure.sh): one run of the
 * model TILEHYBRID_FAIL_MODEL (mpi, fine, funneled, multiple), and the
 * wrapper makes the chosen call fail on the chosen rank
 * (tests/pmpi_failure.c); TILEHYBRID_FAIL_MESSAGES (persistent,
 * nonblocking, partitioned) sets cfg.messages (partitioned without MPI-4:
 * this program exits 3 at once); TILEHYBRID_FAIL_HOOK=1 sets cfg.on_mpi_failure
 * to a hook that prints "mpi_failure hook on rank R: MESSAGE" and returns;
 * TILEHYBRID_FAIL_BALANCE=1 asks for the balancing policy
 * BAL_POLICY_CONSTANT (the funneled model then measures the network by a
 * ping-pong in tile_plan_create: MPI_Sendrecv, MPI_Send, MPI_Recv);
 * TILEHYBRID_FAIL_CHECK=1 has rank 1 report a failed call "MPI_Example"
 * through tile_mpi_check() after the plan's creation.
 * TILEHYBRID_FAIL_BAD=1 gives rank 0 a bad tile height (the creation's
 * agreement then broadcasts its message: MPI_Bcast).
 * The engine must then report the call and the rank and abort (or, with
 * ULFM, end the run with TILE_ERR_MPI on every rank: this program then
 * exits 4).  Exit 0 means nothing failed.
 */
#include <mpi.h>

#include "../hybrid.h"
#include "check.h"
#include "pmpi_failure.h"

#include <stdlib.h>

#define X0 16
#define X1 2000
#define ZL 24
#define TH 8

static int nprocs, myrank;
static int hook_calls;

static void hook(const char *msg, void *ctx)
{
    (void)ctx;
    hook_calls++;
    fprintf(stderr, "mpi_failure hook on rank %d: %s\n", myrank, msg);
}

static void config(tile_config *c, int model, int threads)
{
    tile_config_init(c, 2);
    c->extent[0] = X0;
    c->extent[1] = X1;
    c->zlen = ZL;
    c->tile_height = TH;
    c->grid[0] = nprocs;    /* split X_1: faces of X1 x TH doubles (128 KB) */
    c->grid[1] = 1;
    c->model = model;
    c->threads = threads;
    c->storage = TILE_STORE_FULL;
    c->boundary = check_edge;
    if (getenv("TILEHYBRID_FAIL_HOOK") != NULL)
        c->on_mpi_failure = hook;
    if (getenv("TILEHYBRID_FAIL_BALANCE") != NULL)
        c->balance.policy = BAL_POLICY_CONSTANT;
    if (getenv("TILEHYBRID_FAIL_BAD") != NULL && myrank == 0)
        c->tile_height = -1;    /* refused on rank 0: the agreement broadcasts why */
}

/* The plan's run of ADI with a sum reduction, then the result gathered
 * into out on rank 0; returns the run's status or the gather's code. */
static int run(tile_plan *p, tile_reduction *r, double *out)
{
    int rc;
    if (tile_reduction_init(p, r, TILE_REDUCE_SUM, NULL) != TILE_OK)
        return -1;
    HYBRID_RUN(p, it, {
        double v = ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0)) +
                    TILE_AT(double, it, 0, 0, -1)) / 3.0;
        TILE_AT(double, it, 0, 0, 0) = v;
        tile_reduce(&it, r, v);
    });
    rc = tile_plan_status(p);
    return rc != TILE_OK ? rc : tile_gather(p, 0, ZL, 0, out, NULL);
}

/* The sequential loop, A[x][y][z] with the boundary outside. */
static double *sequential(double *sum)
{
    double *a = check_seq_loop(X0, X1, ZL, check_adi_point);
    tile_xsum s;
    int64_t i;
    tile_xsum_init(&s);
    for (i = 0; a != NULL && i < X0 * X1 * ZL; i++)
        tile_xsum_add(&s, a[i]);
    *sum = tile_xsum_round(&s);
    return a;
}

#define NCOUNTED 16
static const char *const counted[NCOUNTED] = {
    "MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Allreduce", "MPI_Allgather", "MPI_Alltoallw",
    "MPI_Send_init", "MPI_Recv_init", "MPI_Startall", "MPI_Request_free", "MPI_Psend_init",
    "MPI_Precv_init", "MPI_Pready", "MPI_Parrived", "MPI_Testall", "MPI_Test" };
static const char *const messages_name[3] = { "persistent", "nonblocking", "partitioned" };

/* The face messages' calls a run of @messaging made (counts in made[],
 * after the plan's destruction): a rank sends unless it is the last,
 * receives unless it is the first. */
static int message_calls_ok(int messaging, const long *made)
{
    int first = myrank == 0, last = myrank == nprocs - 1;
    if (messaging == TILE_MESSAGES_NONBLOCKING)
        return (last || made[0] > 2) && (first || made[1] > 2) &&
               made[6] + made[7] + made[8] + made[10] + made[11] + made[12] == 0;
    if (messaging == TILE_MESSAGES_PERSISTENT)
        return made[0] + made[1] == 0 && (last || made[6] >= 1) && (first || made[7] >= 1) &&
               (nprocs == 1 || made[8] > 2) && made[9] >= made[6] + made[7] &&
               made[6] + made[7] <= 4 * 2 * 2;   /* per plan, not per tile */
    return made[0] + made[1] + made[6] + made[7] == 0 && (last || (made[10] == 2 &&
           made[12] > 2)) && (first || (made[11] == 2 && made[13] > 2)) &&
           made[9] >= made[10] + made[11];
}

/* One model with one kind of face messages, nothing failing. */
static void normal_run(int model, int messages, const double *a, double sum, double *g)
{
    tile_config c;
    tile_plan p;
    tile_reduction r;
    long before[NCOUNTED], made[NCOUNTED], most[NCOUNTED];
    int rc, i, messaging, threads = model == TILE_MODEL_MPI ? 1 : 2;
#ifndef _OPENMP
    threads = 1;
#endif
    for (i = 0; i < NCOUNTED; i++)
        before[i] = pmpi_failure_count(counted[i]);
    config(&c, model, threads);
    c.messages = messages;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    messaging = p.run.messaging;
    if (rc == TILE_OK)
        rc = run(&p, &r, g);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && check_same_3d(&p, a, X0, X1, ZL) && r.value == sum &&
              (myrank != 0 || memcmp(g, a, sizeof(double) * X0 * X1 * ZL) == 0),
              "%s model, %d thread(s), %s messages, 128 KB faces: every point, the exact sum "
              "and the gathered array are the sequential loop's (through the PMPI wrappers, "
              "nothing failing)", tile_model_name(model), threads, messages_name[messaging]);
    if (rc != TILE_OK)
        check_note("rank %d: %d: %s", myrank, rc, p.errmsg);
    if (rc == TILE_OK)
        tile_reduction_drop(&p, &r);
    tile_plan_destroy(&p);
    for (i = 0; i < NCOUNTED; i++)
        made[i] = pmpi_failure_count(counted[i]) - before[i];
    MPI_Reduce(made, most, NCOUNTED, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (myrank == 0)
        check_note("%s model, %s messages, the most calls on a rank: %ld MPI_Isend, %ld "
                   "MPI_Irecv, %ld MPI_Waitall, %ld MPI_Allreduce, %ld MPI_Allgather, %ld "
                   "MPI_Alltoallw, %ld MPI_Send_init, %ld MPI_Recv_init, %ld MPI_Startall, "
                   "%ld MPI_Request_free, %ld MPI_Psend_init, %ld MPI_Precv_init, %ld "
                   "MPI_Pready, %ld MPI_Parrived, %ld MPI_Testall, %ld MPI_Test",
                   tile_model_name(model), messages_name[messaging], most[0], most[1], most[2],
                   most[3], most[4], most[5], most[6], most[7], most[8], most[9], most[10],
                   most[11], most[12], most[13], most[14], most[15]);
    /* the waits: MPI_Waitall, or where they yield (TILEHYBRID_WAIT: an
     * oversubscribed node) MPI_Testall and (partitioned) MPI_Test polls */
    check_mpi(MPI_COMM_WORLD, (nprocs == 1 || made[2] + made[14] + made[15] > 2) &&
              made[3] >= 2 && made[4] >= 1 &&
              made[5] >= 1 && message_calls_ok(messaging, made),
              "%s model, %s messages: the engine's calls go through the wrappers (the "
              "messages' own calls at 2+ ranks, the waits, the agreements, the reduction's "
              "MPI_Allgather, the gather's MPI_Alltoallw; every request made is freed)",
              tile_model_name(model), messages_name[messaging]);
}

static void normal_runs(void)
{
    double sum = 0;
    double *a = sequential(&sum), *g = (double *)malloc(sizeof(double) * X0 * X1 * ZL);
    int model, m;
    check_mpi(MPI_COMM_WORLD, a != NULL && g != NULL, "the sequential reference");
    for (model = TILE_MODEL_MPI; a != NULL && g != NULL && model <= TILE_MODEL_MULTIPLE;
         model++)
        for (m = TILE_MESSAGES_PERSISTENT; m <= TILE_MESSAGES_PARTITIONED; m++)
            if (m != TILE_MESSAGES_PARTITIONED || model == TILE_MODEL_MULTIPLE)
                normal_run(model, m, a, sum, g);
    check_mpi(MPI_COMM_WORLD, hook_calls == 0 && !pmpi_failure_failed(),
              "no call failed, the failure hook was never called");
    free(a);
    free(g);
}

/* One run with the failure the environment asks for. */
static int failure_run(void)
{
    const char *m = getenv("TILEHYBRID_FAIL_MODEL"), *k = getenv("TILEHYBRID_FAIL_MESSAGES");
    tile_config c;
    tile_plan p;
    tile_reduction r;
    double *g = (double *)malloc(sizeof(double) * X0 * X1 * ZL);
    int model = TILE_MODEL_MPI, rc;
    while (m != NULL && tile_model_name(model) != NULL && strcmp(m, tile_model_name(model)) != 0)
        model++;
    if (tile_model_name(model) == NULL)
        model = TILE_MODEL_MPI;
    config(&c, model, model == TILE_MODEL_MPI ? 1 : 2);
    for (c.messages = 0; k != NULL && c.messages < 2 && strcmp(k, messages_name[c.messages]);)
        c.messages++;
    if (c.messages == TILE_MESSAGES_PARTITIONED && !TILE_HAVE_PARTITIONED) {
        free(g);
        return 3;
    }
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (rc == TILE_OK && getenv("TILEHYBRID_FAIL_CHECK") != NULL && myrank == 1)
        (void)tile_mpi_check(&p, 0, MPI_ERR_OTHER, "MPI_Example"); /* a user's call failed */
    if (rc == TILE_OK)
        rc = run(&p, &r, g);
    free(g);
    if (rc != TILE_OK)
        fprintf(stderr, "mpi_failure: rank %d: the %s returned %d: %s\n", myrank,
                tile_plan_status(&p) == rc ? "run" : "plan", rc, p.errmsg);
    tile_plan_destroy(&p);
    return rc == TILE_OK ? 0 : 4;
}

int main(int argc, char **argv)
{
    int provided = 0, rc;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
        return 1;
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    if (getenv("TILEHYBRID_FAIL_CALL") != NULL) {
        rc = failure_run();
        MPI_Finalize();
        return rc;
    }
    if (provided < MPI_THREAD_MULTIPLE) {
        if (myrank == 0)
            check_skip("MPI_THREAD_MULTIPLE is not provided", "every model through the wrappers");
    } else
        normal_runs();
    return check_mpi_exit();
}
