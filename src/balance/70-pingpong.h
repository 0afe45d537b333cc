/* ------------------------------------------------------------------------
 * Communication calibration by ping-pong (MPI)
 * ------------------------------------------------------------------------ */
#ifndef TILEHYBRID_NO_MPI

#define BAL_PINGPONG_SIZES 8  /* message sizes: k * max_bytes / 7, k = 0..7 */
#define BAL_PINGPONG_PASSES 8 /* at most this many measurement passes */

#if TILEHYBRID__DEFINE
/* MPI call @call failed on this rank with @mpirc: BAL_ERR_MPI, and st
 * (if not NULL) names the call (st->arg) and its code (st->mpi_error). */
TILEHYBRID__COLD int bal__mpi_fail(tilehybrid_status *st, const char *call, int mpirc)
{
    (void)tilehybrid_status_set(st, BAL_ERR_MPI, call, -1);
    if (st != NULL)
        st->mpi_error = mpirc;
    return BAL_ERR_MPI;
}

/* Step 1 of bal_calibrate_comm: the handshake, even when our own arguments
 * are bad, so that the peer never waits for a partner that has given up.
 * *buf receives a zeroed max_bytes buffer on success. */
TILEHYBRID__COLD int bal__handshake(MPI_Comm comm, int peer, int max_bytes, int reps, int nofit,
                                    char **buf, tilehybrid_status *st)
{
    int mine[3], theirs[3], rc = BAL_OK, mpirc;
    char *b = NULL;
    if (max_bytes >= 1 && !nofit)
        b = (char *)TILEHYBRID_MALLOC((size_t)max_bytes);
    mine[0] = max_bytes;
    mine[1] = reps;
    /* bit 0: no buffer; bit 1: a NULL fit (both ranks return BAL_ERR_NULL) */
    mine[2] = (max_bytes >= 1 && !nofit && b == NULL) ? 1 : nofit ? 2 : 0;
    mpirc = MPI_Sendrecv(mine, 3, MPI_INT, peer, TILEHYBRID_TAG_PINGPONG, theirs, 3, MPI_INT,
                         peer, TILEHYBRID_TAG_PINGPONG, comm, MPI_STATUS_IGNORE);
    if (mpirc != MPI_SUCCESS)
        rc = bal__mpi_fail(st, "MPI_Sendrecv", mpirc);
    else if (nofit || theirs[2] == 2)
        rc = BAL_ERR_NULL;
    else if (max_bytes < 1)
        rc = BAL_ERR_MSGSIZE;
    else if (reps < 1)
        rc = BAL_ERR_REPS;
    else if (mine[2])
        rc = BAL_ERR_NOMEM;
    else if (theirs[0] != mine[0] || theirs[1] != mine[1] || theirs[2] != 0)
        rc = BAL_ERR_MISMATCH;
    if (rc != BAL_OK) {
        if (b != NULL)
            TILEHYBRID_FREE(b);
        return rc;
    }
    memset(b, 0, (size_t)max_bytes);
    *buf = b;
    return BAL_OK;
}

/* Step 2: one pass of reps rounds, each a round trip of every size in turn;
 * y[k] keeps the smallest one-way time of size x[k] so far. */
TILEHYBRID__COLD int bal__pass(MPI_Comm comm, int peer, int leader, char *buf, const double *x,
                               double *y, int reps, tilehybrid_status *st)
{
    const char *call = "";
    double dt = 0;
    int r, k, mpirc;
    for (r = 0; r < reps; r++)
        for (k = 0; k < BAL_PINGPONG_SIZES; k++) {
            mpirc = tilehybrid_pingpong_ex(comm, peer, leader, buf, (int)x[k], (int)x[k],
                                           TILEHYBRID_TAG_PINGPONG, &dt, &call);
            if (mpirc != MPI_SUCCESS)
                return bal__mpi_fail(st, call, mpirc);
            if (y[k] < 0 || dt / 2 < y[k])
                y[k] = dt / 2; /* one way */
        }
    return BAL_OK;
}

/* Step 3: the leader fits the minima so far and sends its verdict to the
 * peer: out[0] = 1 to measure another pass, out[1] = the fit's code, then
 * intercept, slope, r2 and max_resid. */
TILEHYBRID__COLD int bal__verdict(MPI_Comm comm, int peer, int leader, const double *x,
                                  const double *y, int pass, double *out, tilehybrid_status *st)
{
    tilehybrid_fit f;
    int frc, mpirc;
    if (!leader) {
        mpirc = MPI_Recv(out, 6, MPI_DOUBLE, peer, TILEHYBRID_TAG_PINGPONG, comm,
                         MPI_STATUS_IGNORE);
        return mpirc == MPI_SUCCESS ? BAL_OK : bal__mpi_fail(st, "MPI_Recv", mpirc);
    }
    memset(&f, 0, sizeof f);
    frc = tilehybrid_fit_affine(x, y, BAL_PINGPONG_SIZES, &f) == TILEHYBRID_OK ? BAL_OK
                                                                             : BAL_ERR_SAMPLES;
    if (frc == BAL_OK && !(f.slope > 0))
        frc = BAL_ERR_FIT;
    out[0] = (frc == BAL_ERR_FIT && pass + 1 < BAL_PINGPONG_PASSES) ? 1 : 0;
    out[1] = frc;
    out[2] = f.intercept;
    out[3] = f.slope;
    out[4] = f.r2;
    out[5] = f.max_resid;
    mpirc = MPI_Send(out, 6, MPI_DOUBLE, peer, TILEHYBRID_TAG_PINGPONG, comm);
    return mpirc == MPI_SUCCESS ? BAL_OK : bal__mpi_fail(st, "MPI_Send", mpirc);
}
#else
TILEHYBRID__COLD int bal__mpi_fail(tilehybrid_status *st, const char *call, int mpirc);
TILEHYBRID__COLD int bal__handshake(MPI_Comm comm, int peer, int max_bytes, int reps, int nofit,
                                    char **buf, tilehybrid_status *st);
TILEHYBRID__COLD int bal__pass(MPI_Comm comm, int peer, int leader, char *buf, const double *x,
                               double *y, int reps, tilehybrid_status *st);
TILEHYBRID__COLD int bal__verdict(MPI_Comm comm, int peer, int leader, const double *x,
                                  const double *y, int pass, double *out, tilehybrid_status *st);
#endif

/* bal_calibrate_comm()'s work (defined below it). */
TILEHYBRID__COLD int bal__calibrate(MPI_Comm comm, int peer, int max_bytes, int reps,
                                    tilehybrid_fit *fit, tilehybrid_status *st);

#if TILEHYBRID__DEFINE
/* bal_calibrate_comm() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int bal_calibrate_comm(MPI_Comm comm, int peer, int max_bytes, int reps,
                                        tilehybrid_fit *fit)
{
    return bal__calibrate(comm, peer, max_bytes, reps, fit, NULL);
}

/* bal_calibrate_comm(); an MPI failure names the call and its code in st. */
TILEHYBRID__COLD int bal__calibrate(MPI_Comm comm, int peer, int max_bytes, int reps,
                                    tilehybrid_fit *fit, tilehybrid_status *st)
{
    int rank, size, k, pass, leader, rc;
    const char *call = "";
    char *buf = NULL;
    double x[BAL_PINGPONG_SIZES], y[BAL_PINGPONG_SIZES], out[6] = {1, 0, 0, 0, 0, 0};
    if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Comm_rank", rc);
    if ((rc = MPI_Comm_size(comm, &size)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Comm_size", rc);
    if (peer == MPI_PROC_NULL || peer < 0 || peer >= size || peer == rank)
        return fit == NULL ? BAL_ERR_NULL : BAL_ERR_NOPEER;
    /* a NULL fit goes through the handshake: the peer returns BAL_ERR_NULL
     * too instead of waiting for a ping-pong that never starts */
    rc = bal__handshake(comm, peer, max_bytes, reps, fit == NULL, &buf, st);
    if (rc != BAL_OK)
        return rc;
    leader = rank < peer;
    for (k = 0; k < BAL_PINGPONG_SIZES; k++) {
        x[k] = (double)((int64_t)k * max_bytes / (BAL_PINGPONG_SIZES - 1));
        y[k] = -1;
    }
    /* a warm-up round trip at max_bytes, then passes while out[0] says so */
    rc = tilehybrid_pingpong_ex(comm, peer, leader, buf, max_bytes, max_bytes,
                                TILEHYBRID_TAG_PINGPONG, NULL, &call);
    if (rc != MPI_SUCCESS)
        rc = bal__mpi_fail(st, call, rc);
    for (pass = 0; rc == BAL_OK && out[0] == 1; pass++) {
        rc = bal__pass(comm, peer, leader, buf, x, y, reps, st);
        if (rc == BAL_OK)
            rc = bal__verdict(comm, peer, leader, x, y, pass, out, st);
    }
    TILEHYBRID_FREE(buf);
    if (rc != BAL_OK)
        return rc;
    if ((int)out[1] != BAL_OK && (int)out[1] != BAL_ERR_FIT)
        return (int)out[1];
    fit->intercept = out[2];
    fit->slope = out[3];
    fit->r2 = out[4];
    fit->max_resid = out[5];
    fit->n = BAL_PINGPONG_SIZES;
    return (int)out[1];
}

/* The pair's part of bal_calibrate_comm_all: in = {intercept, slope, 1}
 * for a fit with a positive slope, zeros otherwise; r2/mr its quality. */
TILEHYBRID__COLD int bal__pair(MPI_Comm dup, int rank, int size, int max_bytes, int reps,
                               double *in, double *r2, double *mr, tilehybrid_status *st)
{
    tilehybrid_fit f = {0, 0, 0, 0, 0};
    int rc, peer = rank ^ 1;
    in[0] = in[1] = in[2] = 0;
    if (peer >= size)
        return BAL_OK; /* the last rank of an odd size only waits */
    rc = bal__calibrate(dup, peer, max_bytes, reps, &f, st);
    if (rc == BAL_ERR_FIT)
        return BAL_OK; /* a noisy pair: left out of the mean */
    if (rc == BAL_OK) {
        in[0] = f.intercept;
        in[1] = f.slope;
        in[2] = 1;
        *r2 = f.r2;
        *mr = f.max_resid;
    }
    return rc;
}

/* The end of bal_calibrate_comm_all: every rank's verdict (rc) and the
 * pairs' fits combined on every rank.  Returns the lowest failing rank's
 * code, or BAL_ERR_MPI (st names the call) if a collective failed here. */
TILEHYBRID__COLD int bal__combine(MPI_Comm c, int rc, const double *in, double r2, double mr,
                                  double *sum, double *mn, double *mx, tilehybrid_status *st)
{
    tilehybrid_agreement a;
    int mpirc = tilehybrid_agree(c, rc, NULL, 0, NULL, 0, &a);
    if (mpirc != MPI_SUCCESS)
        return bal__mpi_fail(st, a.call, mpirc);
    if ((mpirc = MPI_Allreduce(in, sum, 3, MPI_DOUBLE, MPI_SUM, c)) != MPI_SUCCESS ||
        (mpirc = MPI_Allreduce(&r2, mn, 1, MPI_DOUBLE, MPI_MIN, c)) != MPI_SUCCESS ||
        (mpirc = MPI_Allreduce(&mr, mx, 1, MPI_DOUBLE, MPI_MAX, c)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Allreduce", mpirc);
    return a.code;
}

/* bal_calibrate_comm_all(), on a duplicate of comm (own_comm 0) or on comm
 * itself (own_comm 1: a communicator of the caller's with no other traffic
 * tagged TILEHYBRID_TAG_PINGPONG, e.g. a plan's, so that revoking it under
 * ULFM also reaches a partner blocked in the ping-pong).  An MPI failure
 * names the call and its code in st (st->arg, st->mpi_error). */
TILEHYBRID__COLD int bal__calibrate_all(MPI_Comm comm, int max_bytes, int reps, tilehybrid_fit *fit,
                                        tilehybrid_status *st, int own_comm)
{
    int rank, size, rc = BAL_OK, mpirc;
    MPI_Comm c = comm;
    tilehybrid_agreement a;
    double in[3], sum[3], mn, mx, r2 = 2, mr = -1;
    if ((mpirc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Comm_rank", mpirc);
    if ((mpirc = MPI_Comm_size(comm, &size)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Comm_size", mpirc);
    if (size < 2)
        return BAL_ERR_NOPEER;
    if (fit == NULL)
        rc = BAL_ERR_NULL;
    else if (max_bytes < 1)
        rc = BAL_ERR_MSGSIZE;
    else if (reps < 1)
        rc = BAL_ERR_REPS;
    if ((mpirc = tilehybrid_agree(comm, rc, NULL, 0, NULL, 0, &a)) != MPI_SUCCESS)
        return bal__mpi_fail(st, a.call, mpirc);
    if (a.code != 0)
        return a.code;
    if (!own_comm && (mpirc = MPI_Comm_dup(comm, &c)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Comm_dup", mpirc);
    rc = bal__pair(c, rank, size, max_bytes, reps, in, &r2, &mr, st);
    /* a failed call of the pair: return at once, without a collective (the
     * partner may wait for this rank forever: the caller must abort) */
    if (rc == BAL_ERR_MPI)
        return rc;
    rc = bal__combine(c, rc, in, r2, mr, sum, &mn, &mx, st);
    if (rc == BAL_ERR_MPI)
        return rc;
    if (!own_comm && (mpirc = MPI_Comm_free(&c)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Comm_free", mpirc);
    if (rc != BAL_OK)
        return rc;
    if (sum[2] == 0)
        return BAL_ERR_FIT;
    fit->intercept = sum[0] / sum[2];
    fit->slope = sum[1] / sum[2];
    fit->r2 = mn;
    fit->max_resid = mx;
    fit->n = BAL_PINGPONG_SIZES;
    return BAL_OK;
}

/* bal_calibrate_comm_all() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int bal_calibrate_comm_all(MPI_Comm comm, int max_bytes, int reps,
                                            tilehybrid_fit *fit)
{
    return bal__calibrate_all(comm, max_bytes, reps, fit, NULL, 0);
}

/* bal_calibrate_comm_all_ex() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int bal_calibrate_comm_all_ex(MPI_Comm comm, int max_bytes, int reps,
                                               tilehybrid_fit *fit, tilehybrid_status *st)
{
    if (st != NULL)
        (void)tilehybrid_status_set(st, BAL_OK, "", -1);
    return bal__calibrate_all(comm, max_bytes, reps, fit, st, 0);
}
#else
TILEHYBRID__COLD int bal__calibrate(MPI_Comm comm, int peer, int max_bytes, int reps,
                                    tilehybrid_fit *fit, tilehybrid_status *st);
TILEHYBRID__COLD int bal__pair(MPI_Comm dup, int rank, int size, int max_bytes, int reps,
                               double *in, double *r2, double *mr, tilehybrid_status *st);
TILEHYBRID__COLD int bal__combine(MPI_Comm c, int rc, const double *in, double r2, double mr,
                                  double *sum, double *mn, double *mx, tilehybrid_status *st);
TILEHYBRID__COLD int bal__calibrate_all(MPI_Comm comm, int max_bytes, int reps, tilehybrid_fit *fit,
                                        tilehybrid_status *st, int own_comm);
#endif

#endif /* TILEHYBRID_NO_MPI */
