/* tests/mpi_balance.c -- the ping-pong calibration of balance.h at any
 * process count.  Only signs and finiteness of measured values are checked:
 * the machine is shared and oversubscribed, timings mean nothing here. */
#include <mpi.h>

#include "balance.h"

#include "check.h"

#include <math.h>

static int sane(const bal_fit *f)
{
    return isfinite(f->intercept) && isfinite(f->slope) && f->slope > 0 && isfinite(f->r2) &&
           f->r2 <= 1.0 + 1e-12 && isfinite(f->max_resid) && f->max_resid >= 0 &&
           f->n == BAL_PINGPONG_SIZES;
}

int main(int argc, char **argv)
{
    int rank, size, rc, peer, same, fitted = 1;
    const int max_bytes = 4 << 20, reps = 4;
    bal_fit f = {0, 0, 0, 0, 0}, g = {0, 0, 0, 0, 0};
    bal_model m = {288e-9, 0, 1, 8};
    double mine[2], lo[2], hi[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* no peer: returns at once and communicates nothing -- rank 0 alone
     * calls it (a hang here would be a failure) */
    if (rank == 0) {
        rc = bal_calibrate_comm(MPI_COMM_WORLD, 0, max_bytes, reps, &f);
        check(rc == BAL_ENOPEER, "peer == own rank, called by rank 0 alone: BAL_ENOPEER (%s)",
              bal_strerror(rc));
    }
    rc = bal_calibrate_comm(MPI_COMM_WORLD, MPI_PROC_NULL, max_bytes, reps, &f);
    check_mpi(MPI_COMM_WORLD, rc == BAL_ENOPEER, "peer == MPI_PROC_NULL: BAL_ENOPEER");
    rc = bal_calibrate_comm(MPI_COMM_WORLD, size, max_bytes, reps, &f);
    check_mpi(MPI_COMM_WORLD, rc == BAL_ENOPEER, "peer outside the communicator: BAL_ENOPEER");
    rc = bal_calibrate_comm(MPI_COMM_WORLD, 0, max_bytes, reps, NULL);
    check_mpi(MPI_COMM_WORLD, rc == BAL_ENULL, "NULL fit: BAL_ENULL");

    if (size == 1) {
        rc = bal_calibrate_comm_all(MPI_COMM_WORLD, max_bytes, reps, &f);
        check_mpi(MPI_COMM_WORLD, rc == BAL_ENOPEER,
                  "1 process: the collective calibration returns BAL_ENOPEER, no hang");
        MPI_Finalize();
        return check_exit();
    }

    /* pairwise: 0-1, 2-3, ...; with an odd count the last rank sits out */
    peer = rank ^ 1;
    rc = 0;
    if (peer < size) {
        rc = bal_calibrate_comm(MPI_COMM_WORLD, peer, max_bytes, reps, &f);
        if (rc == 0 && !sane(&f))
            rc = 1;
        /* on a badly overloaded machine 8 passes may still find no positive
         * slope: the documented answer is BAL_EFIT, never a bogus fit */
        if (rc == BAL_EFIT) {
            check_note("rank %d: no positive slope under this load (BAL_EFIT)", rank);
            rc = 0;
            fitted = 0;
        }
    }
    {
        /* rank 0 reports every pair's fit (only rank 0 prints) */
        double mine4[4] = {0, 0, 0, 0}, all4[4 * 64];
        int i;
        if (peer < size && rc == 0) {
            mine4[0] = f.intercept;
            mine4[1] = f.slope;
            mine4[2] = f.r2;
            mine4[3] = f.max_resid;
        }
        if (size <= 64) {
            MPI_Gather(mine4, 4, MPI_DOUBLE, all4, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
            for (i = 0; rank == 0 && i + 1 < size; i += 2)
                check_note("ranks %d <-> %d: intercept %.3g s, slope %.3g s/B (%.3g B/s), r2 %.4f, "
                           "max residual %.3g s",
                           i, i + 1, all4[4 * i], all4[4 * i + 1], 1 / all4[4 * i + 1],
                           all4[4 * i + 2], all4[4 * i + 3]);
        }
    }
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

    /* the two ranks disagree on reps: both return BAL_EMISMATCH, no hang */
    rc = BAL_EMISMATCH;
    if (peer < size)
        rc = bal_calibrate_comm(MPI_COMM_WORLD, peer, 1024, 2 + (rank & 1), &f);
    check_mpi(MPI_COMM_WORLD, rc == BAL_EMISMATCH, "different reps on the two ranks: BAL_EMISMATCH");
    /* one rank passes a bad size: it gets BAL_EMSGSIZE, its peer BAL_EMISMATCH */
    rc = BAL_EMSGSIZE;
    if (peer < size) {
        rc = bal_calibrate_comm(MPI_COMM_WORLD, peer, (rank & 1) ? 0 : 1024, 2, &f);
        if ((rank & 1) == 0 && rc == BAL_EMISMATCH)
            rc = BAL_EMSGSIZE;
    }
    check_mpi(MPI_COMM_WORLD, rc == BAL_EMSGSIZE,
              "max_bytes 0 on one rank: BAL_EMSGSIZE there, BAL_EMISMATCH on its peer");

    /* collective: every rank, the same combined fit */
    rc = bal_calibrate_comm_all(MPI_COMM_WORLD, max_bytes, reps, &g);
    if (rc == BAL_EFIT && rank == 0)
        check_note("collective: no pair found a positive slope under this load (BAL_EFIT)");
    check_mpi(MPI_COMM_WORLD, (rc == 0 && sane(&g)) || rc == BAL_EFIT,
              "collective ping-pong: finite fit, slope > 0 on every rank");
    if (rc != 0)                /* BAL_EFIT: no fit to compare, the same on every rank */
        g.intercept = g.slope = 0.0;
    mine[0] = g.intercept;
    mine[1] = g.slope;
    MPI_Allreduce(mine, lo, 2, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(mine, hi, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    check_mpi(MPI_COMM_WORLD, lo[0] == hi[0] && lo[1] == hi[1],
              "collective ping-pong: every rank holds the same fit");
    rc = bal_calibrate_comm_all(MPI_COMM_WORLD, max_bytes, 0, &g);
    check_mpi(MPI_COMM_WORLD, rc == BAL_EREPS, "collective ping-pong with reps 0: BAL_EREPS everywhere");

    MPI_Finalize();
    return check_exit();
}
