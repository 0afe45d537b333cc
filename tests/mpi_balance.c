/* tests/mpi_balance.c -- the ping-pong calibration of balance.h and the
 * collective set-up of a balancing policy, at any process count.  Only
 * signs and finiteness of measured values are checked: the machine is
 * shared and oversubscribed, timings mean nothing here. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L   /* setenv */
#endif
#include <mpi.h>

#include "balance.h"

#include "check.h"

#include <math.h>
#include <string.h>

static int sane(const tilehybrid_fit *f)
{
    return isfinite(f->intercept) && isfinite(f->slope) && f->slope > 0 && isfinite(f->r2) &&
           f->r2 <= 1.0 + 1e-12 && isfinite(f->max_resid) && f->max_resid >= 0 &&
           f->n == BAL_PINGPONG_SIZES;
}

static int rank, size;
static const int max_bytes = 4 << 20, reps = 4;

/* No peer: bal_calibrate_comm returns at once and communicates nothing. */
static void test_no_peer(void)
{
    tilehybrid_fit f = {0, 0, 0, 0, 0};
    int rc;
    /* rank 0 alone calls it (a hang here would be a failure) */
    if (rank == 0) {
        rc = bal_calibrate_comm(MPI_COMM_WORLD, 0, max_bytes, reps, &f);
        check(rc == BAL_ERR_NOPEER, "peer == own rank, called by rank 0 alone: BAL_ERR_NOPEER (%s)",
              bal_strerror(rc));
    }
    rc = bal_calibrate_comm(MPI_COMM_WORLD, MPI_PROC_NULL, max_bytes, reps, &f);
    check_mpi(MPI_COMM_WORLD, rc == BAL_ERR_NOPEER, "peer == MPI_PROC_NULL: BAL_ERR_NOPEER");
    rc = bal_calibrate_comm(MPI_COMM_WORLD, size, max_bytes, reps, &f);
    check_mpi(MPI_COMM_WORLD, rc == BAL_ERR_NOPEER, "peer outside the communicator: BAL_ERR_NOPEER");
    rc = bal_calibrate_comm(MPI_COMM_WORLD, MPI_PROC_NULL, max_bytes, reps, NULL);
    check_mpi(MPI_COMM_WORLD, rc == BAL_ERR_NULL, "NULL fit, no peer: BAL_ERR_NULL");
}

/* Rank 0 reports every pair's fit f (only rank 0 prints). */
static void note_pairs(const tilehybrid_fit *f, int have)
{
    double mine4[4] = {0, 0, 0, 0}, all4[4 * 64];
    int i;
    if (have) {
        mine4[0] = f->intercept;
        mine4[1] = f->slope;
        mine4[2] = f->r2;
        mine4[3] = f->max_resid;
    }
    if (size > 64)
        return;
    MPI_Gather(mine4, 4, MPI_DOUBLE, all4, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = 0; rank == 0 && i + 1 < size; i += 2)
        check_note("ranks %d <-> %d: intercept %.3g s, slope %.3g s/B (%.3g B/s), r2 %.4f, "
                   "max residual %.3g s",
                   i, i + 1, all4[4 * i], all4[4 * i + 1], 1 / all4[4 * i + 1],
                   all4[4 * i + 2], all4[4 * i + 3]);
}

/* Pairwise: 0-1, 2-3, ...; with an odd count the last rank sits out. */
static void test_pairs(void)
{
    tilehybrid_fit f = {0, 0, 0, 0, 0};
    bal_model m = {288e-9, 0, 1, 8};
    int rc = 0, same, fitted = 1, peer = rank ^ 1;
    if (peer < size) {
        rc = bal_calibrate_comm(MPI_COMM_WORLD, peer, max_bytes, reps, &f);
        if (rc == 0 && !sane(&f))
            rc = -1; /* no code: a fit that is not sane */
        /* on a badly overloaded machine 8 passes may still find no positive
         * slope: the documented answer is BAL_ERR_FIT, never a bogus fit */
        if (rc == BAL_ERR_FIT) {
            check_note("rank %d: no positive slope under this load (BAL_ERR_FIT)", rank);
            rc = 0;
            fitted = 0;
        }
    }
    note_pairs(&f, peer < size && rc == 0);
    check_mpi(MPI_COMM_WORLD, rc == 0,
              "pairwise ping-pong: finite fit, slope > 0, r2 <= 1 (%d processes)", size);

    /* both sides of a pair get the leader's numbers: exchange and compare */
    same = 1;
    if (peer < size && rc == 0 && fitted) {
        double a[2] = {f.intercept, f.slope}, b[2];
        MPI_Sendrecv(a, 2, MPI_DOUBLE, peer, 7, b, 2, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        same = a[0] == b[0] && a[1] == b[1];
    }
    check_mpi(MPI_COMM_WORLD, same, "pairwise ping-pong: both ranks of a pair return the same fit");

    rc = fitted ? bal_model_set_comm(&m, &f) : 0;
    check_mpi(MPI_COMM_WORLD,
              peer >= size || !fitted || (rc == 0 && bal_model_check(&m) == 0 && m.tstartup >= 0 &&
                               m.bandwidth > 0),
              "the fit gives a valid model (tstartup >= 0, bandwidth > 0)");
}

/* The two ranks of a pair disagree: both learn it, nobody hangs. */
static void test_pair_errors(void)
{
    tilehybrid_fit f = {0, 0, 0, 0, 0};
    int rc, peer = rank ^ 1;
    /* the two ranks disagree on reps: both return BAL_ERR_MISMATCH, no hang */
    rc = BAL_ERR_MISMATCH;
    if (peer < size)
        rc = bal_calibrate_comm(MPI_COMM_WORLD, peer, 1024, 2 + (rank & 1), &f);
    check_mpi(MPI_COMM_WORLD, rc == BAL_ERR_MISMATCH, "different reps on the two ranks: BAL_ERR_MISMATCH");
    /* one rank passes a bad size: it gets BAL_ERR_MSGSIZE, its peer BAL_ERR_MISMATCH */
    rc = BAL_ERR_MSGSIZE;
    if (peer < size) {
        rc = bal_calibrate_comm(MPI_COMM_WORLD, peer, (rank & 1) ? 0 : 1024, 2, &f);
        if ((rank & 1) == 0 && rc == BAL_ERR_MISMATCH)
            rc = BAL_ERR_MSGSIZE;
    }
    check_mpi(MPI_COMM_WORLD, rc == BAL_ERR_MSGSIZE,
              "max_bytes 0 on one rank: BAL_ERR_MSGSIZE there, BAL_ERR_MISMATCH on its peer");
    /* a NULL fit on the odd rank of a pair: both return BAL_ERR_NULL (the
     * even rank used to wait forever in the ping-pong) */
    rc = BAL_ERR_NULL;
    if (peer < size)
        rc = bal_calibrate_comm(MPI_COMM_WORLD, peer, 1024, 2, (rank & 1) ? NULL : &f);
    check_mpi(MPI_COMM_WORLD, rc == BAL_ERR_NULL,
              "NULL fit on one rank of a pair: BAL_ERR_NULL on both, no hang");
}

/* The ping-pong's tag is TILEHYBRID_TAG_PINGPONG, not a number of its own:
 * a user message pending on 31011 (balance.h 0.1's tag) between the pair
 * is neither taken nor disturbed by the calibration. */
static void test_pingpong_tag(void)
{
    tilehybrid_fit f = {0, 0, 0, 0, 0};
    int out3[3] = {-7, rank, -7}, in3[3] = {0, 0, 0}, rc = BAL_OK, peer = rank ^ 1;
    MPI_Request req = MPI_REQUEST_NULL;
    if (peer < size) {
        MPI_Isend(out3, 3, MPI_INT, peer, 31011, MPI_COMM_WORLD, &req);
        rc = bal_calibrate_comm(MPI_COMM_WORLD, peer, 1024, 1, &f);
        if (rc == BAL_ERR_FIT)
            rc = BAL_OK; /* noise: the tags are what this checks */
        MPI_Recv(in3, 3, MPI_INT, peer, 31011, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    check_mpi(MPI_COMM_WORLD,
              rc == BAL_OK && (peer >= size || (in3[0] == -7 && in3[1] == peer)),
              "a user message on tag 31011 does not disturb the ping-pong (tag %d) "
              "and arrives intact (%s)", TILEHYBRID_TAG_PINGPONG, bal_strerror(rc));
}

/* Collective: every rank, the same combined fit, the same errors. */
static void test_collective(void)
{
    tilehybrid_fit g = {0, 0, 0, 0, 0};
    double mine[2], lo[2], hi[2];
    int rc = bal_calibrate_comm_all(MPI_COMM_WORLD, max_bytes, reps, &g);
    if (rc == BAL_ERR_FIT && rank == 0)
        check_note("collective: no pair found a positive slope under this load (BAL_ERR_FIT)");
    check_mpi(MPI_COMM_WORLD, (rc == 0 && sane(&g)) || rc == BAL_ERR_FIT,
              "collective ping-pong: finite fit, slope > 0 on every rank");
    if (rc != 0)                /* BAL_ERR_FIT: no fit to compare, the same on every rank */
        g.intercept = g.slope = 0.0;
    mine[0] = g.intercept;
    mine[1] = g.slope;
    MPI_Allreduce(mine, lo, 2, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(mine, hi, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    check_mpi(MPI_COMM_WORLD, lo[0] == hi[0] && lo[1] == hi[1],
              "collective ping-pong: every rank holds the same fit");
    rc = bal_calibrate_comm_all(MPI_COMM_WORLD, max_bytes, 0, &g);
    check_mpi(MPI_COMM_WORLD, rc == BAL_ERR_REPS, "collective ping-pong with reps 0: BAL_ERR_REPS everywhere");
    /* a bad argument on the last rank only: every rank learns its code */
    rc = bal_calibrate_comm_all(MPI_COMM_WORLD, rank == size - 1 ? 0 : max_bytes, reps, &g);
    check_mpi(MPI_COMM_WORLD, rc == BAL_ERR_MSGSIZE,
              "collective ping-pong with max_bytes 0 on the last rank only: BAL_ERR_MSGSIZE on "
              "every rank (got %s)", bal_strerror(rc));
}

/* A policy for this rank of a size x 1 grid, 2 threads. */
static int policy_init(bal_policy *pol, int policy)
{
    bal_config cfg;
    bal_where w;
    bal_config_init(&cfg);
    cfg.policy = policy;
    memset(&w, 0, sizeof w);
    w.n = 2;
    w.rank = rank;
    w.procs = size;
    w.threads = 2;
    w.pdims[0] = size;
    w.pdims[1] = 1;
    w.pcoords[0] = rank;
    w.extent[0] = 16 * size;
    w.extent[1] = 64;
    w.dep[0] = w.dep[1] = 1;
    w.tile_height = 10;
    w.elem_bytes = 8;
    return bal_policy_init(pol, &cfg, &w);
}

/* Did setup_ex give code `want`, arg `arg` and rank `who` on every rank? */
static int setup_gives(int policy, int want, const char *arg, int who)
{
    bal_policy pol;
    tilehybrid_status st;
    int rc = policy_init(&pol, policy), ok;
    tilehybrid_status_set(&st, -1, "", -2);
    if (rc == BAL_OK)
        rc = bal_policy_setup_ex(&pol, MPI_COMM_WORLD, &st);
    ok = rc == want && st.code == want && strcmp(st.arg, arg) == 0 && st.rank == who;
    if (!ok)
        check_note("rank %d: got %d (%s), arg '%s', rank %d", rank, rc, bal_strerror(rc),
                   st.arg, st.rank);
    return ok;
}

/* bal_policy_setup_ex(): one answer on every rank, with the variable and
 * the rank at fault; the environment is read, never half-measured. */
static void test_policy_setup(void)
{
    bal_policy pol;
    tilehybrid_status st;
    int rc;
    /* policies without a cost model measure nothing (no variable is set:
     * a ping-pong would leave the model's bandwidth set) */
    rc = policy_init(&pol, BAL_POLICY_ADAPTIVE);
    if (rc == BAL_OK)
        rc = bal_policy_setup_ex(&pol, MPI_COMM_WORLD, &st);
    check_mpi(MPI_COMM_WORLD, rc == BAL_OK && st.code == BAL_OK && !(pol.model.bandwidth > 0.0),
              "bal_policy_setup_ex: ADAPTIVE on every rank: BAL_OK, nothing measured");
    /* the arguments are agreed before any rank returns: a NULL pol, another
     * policy, thread count or process count on the last rank is the same error,
     * naming it and that rank, on every rank (the last rank returned at
     * once, or crashed, while the others waited forever) */
    {
        static const char *const what[4] = {"pol", "policy", "threads", "procs"};
        int k;
        for (k = 0; k < 4; k++) {
            int odd = rank == size - 1, want = k == 0 ? BAL_ERR_NULL : BAL_ERR_MISMATCH, ok;
            rc = policy_init(&pol, odd && k == 1 ? BAL_POLICY_FIXED : BAL_POLICY_CONSTANT);
            if (odd && k == 2)
                pol.where.threads = 1;
            if (odd && k == 3)  /* procs 1 skipped the ping-pong the others ran */
                pol.where.procs = 1;
            tilehybrid_status_set(&st, -1, "", -2);
            if (rc == BAL_OK)
                rc = bal_policy_setup_ex(odd && k == 0 ? NULL : &pol, MPI_COMM_WORLD, &st);
            if (size == 1 && k > 0)
                want = BAL_OK; /* rank 0 is the odd one: nobody to differ from */
            ok = rc == want && st.code == want &&
                 (want == BAL_OK || (strcmp(st.arg, what[k]) == 0 && st.rank == size - 1));
            if (!ok)
                check_note("rank %d: got %d (%s), arg '%s', rank %d", rank, rc, bal_strerror(rc),
                           st.arg, st.rank);
            check_mpi(MPI_COMM_WORLD, ok,
                      "bal_policy_setup_ex: odd %s on the last rank: %s on every rank, naming "
                      "'%s' and rank %d",
                      what[k], bal_strerror(want), what[k], size - 1);
        }
    }
    /* every cost from the environment: no ping-pong, the model is the
     * environment's */
    setenv("TILEHYBRID_TCOMP", "288e-9", 1);
    setenv("TILEHYBRID_TSTARTUP", "107e-6", 1);
    setenv("TILEHYBRID_BANDWIDTH", "12.5e6", 1);
    rc = policy_init(&pol, BAL_POLICY_VARIABLE);
    if (rc == BAL_OK)
        rc = bal_policy_setup_ex(&pol, MPI_COMM_WORLD, &st);
    check_mpi(MPI_COMM_WORLD, rc == BAL_OK && !pol.uncalibrated && pol.model.tcomp == 288e-9 &&
                                  pol.model.tstartup == 107e-6 && pol.model.bandwidth == 12.5e6,
              "bal_policy_setup_ex: the TILEHYBRID_* costs make the model (%s)", bal_strerror(rc));
    /* a malformed variable on the last rank only: that code everywhere */
    if (rank == size - 1)
        setenv("TILEHYBRID_BANDWIDTH", "fast", 1);
    check_mpi(MPI_COMM_WORLD,
              setup_gives(BAL_POLICY_CONSTANT, BAL_ERR_ENV_BANDWIDTH, "TILEHYBRID_BANDWIDTH",
                          size - 1),
              "bal_policy_setup_ex: TILEHYBRID_BANDWIDTH=fast on the last rank: "
              "BAL_ERR_ENV_BANDWIDTH on every rank, status names the variable and rank %d",
              size - 1);
    unsetenv("TILEHYBRID_BANDWIDTH");
    /* the bandwidth given on rank 0 only: the others would measure alone */
    if (size == 1) {
        if (rank == 0)
            check_skip("one process: nobody to disagree with",
                       "bal_policy_setup_ex: TILEHYBRID_BANDWIDTH on rank 0 only");
    } else {
        if (rank == 0)
            setenv("TILEHYBRID_BANDWIDTH", "12.5e6", 1);
        check_mpi(MPI_COMM_WORLD,
                  setup_gives(BAL_POLICY_VARIABLE, BAL_ERR_MISMATCH, "TILEHYBRID_BANDWIDTH", -1),
                  "bal_policy_setup_ex: TILEHYBRID_BANDWIDTH on rank 0 only: BAL_ERR_MISMATCH "
                  "on every rank, no hang");
    }
    unsetenv("TILEHYBRID_TCOMP");
    unsetenv("TILEHYBRID_TSTARTUP");
    unsetenv("TILEHYBRID_BANDWIDTH");
}

int main(int argc, char **argv)
{
    check_mpi_init(&argc, &argv, &rank, &size);
    unsetenv("TILEHYBRID_TCOMP");
    unsetenv("TILEHYBRID_TSTARTUP");
    unsetenv("TILEHYBRID_BANDWIDTH");
    unsetenv("TILEHYBRID_ELEM_BYTES");

    test_no_peer();
    if (size == 1) {
        tilehybrid_fit f = {0, 0, 0, 0, 0};
        int rc = bal_calibrate_comm_all(MPI_COMM_WORLD, max_bytes, reps, &f);
        check_mpi(MPI_COMM_WORLD, rc == BAL_ERR_NOPEER,
                  "1 process: the collective calibration returns BAL_ERR_NOPEER, no hang");
    } else {
        test_pairs();
        test_pair_errors();
        test_pingpong_tag();
        test_collective();
    }
    test_policy_setup();
    return check_mpi_exit();
}
