/* tests/pmpi_failure.c -- make one MPI call fail on one rank, through the
 * MPI profiling interface (PMPI).  The Makefile links it into
 * build/tests/mpi_failure (tests/mpi_failure.c), whose MPI calls, and those
 * of the headers it includes, then come here first.
 *
 * Every call below goes to its PMPI_ twin, except the one chosen by the
 * environment, which fails as a real failure would: it returns
 * PMPI_FAILURE_ERROR (MPI_ERR_INTERN, so that a message can be seen to
 * carry the call's own code, not a made-up MPI_ERR_OTHER) WITHOUT doing
 * anything (the message never leaves, the
 * receive is never posted, the wait does not wait, the collective never
 * starts on this rank), so that the other ranks would wait for this one
 * forever unless the engine does something about it.
 *
 *   TILEHYBRID_FAIL_CALL    MPI_Isend, MPI_Irecv, MPI_Waitall, MPI_Allreduce
 *                           (MPI_Iallreduce too: a plan's agreements),
 *                           MPI_Allgather, MPI_Bcast, MPI_Alltoallw,
 *                           MPI_Send_init, MPI_Recv_init, MPI_Startall,
 *                           MPI_Request_free, with MPI-4 MPI_Psend_init,
 *                           MPI_Precv_init, MPI_Pready, MPI_Parrived,
 *                           MPI_Send, MPI_Recv, MPI_Sendrecv (balance.h's
 *                           ping-pong), MPI_Cart_create, MPI_Comm_dup,
 *                           MPI_Comm_split_type, MPI_Reduce, MPI_Gather,
 *                           MPI_Scatter, MPI_Comm_split or MPI_Scatterv
 *                           (scatterlb.h), MPI_Testall, MPI_Test (each
 *                           poll of a wait that yields, TILEHYBRID_WAIT)
 *                           (unset: nothing fails)
 *   TILEHYBRID_FAIL_RANK    the rank (of MPI_COMM_WORLD) where it fails
 *                           (default 1)
 *   TILEHYBRID_FAIL_AFTER   K: the first K such calls of that rank succeed,
 *                           call K + 1 fails, once (default 0)
 *
 * pmpi_failure_count(call) is the number of times this process made that
 * call (failed or not), pmpi_failure_failed() whether it failed one.  Safe
 * under MPI_THREAD_MULTIPLE (one OpenMP critical section).
 */
#include <mpi.h>

#include <stdlib.h>
#include <string.h>

#include "pmpi_failure.h"

static const char *const pmpi_failure_calls[PMPI_FAILURE_NCALLS] = {
    "MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Allreduce", "MPI_Allgather", "MPI_Bcast",
    "MPI_Alltoallw", "MPI_Send_init", "MPI_Recv_init", "MPI_Startall", "MPI_Request_free",
    "MPI_Psend_init", "MPI_Precv_init", "MPI_Pready", "MPI_Parrived", "MPI_Send", "MPI_Recv",
    "MPI_Sendrecv", "MPI_Cart_create", "MPI_Comm_dup", "MPI_Comm_split_type", "MPI_Reduce",
    "MPI_Gather", "MPI_Scatter", "MPI_Comm_split", "MPI_Scatterv", "MPI_Type_size",
    "MPI_Comm_size", "MPI_Comm_test_inter", "MPI_File_open", "MPI_Testall", "MPI_Test"
};
static long pmpi_failure_counts[PMPI_FAILURE_NCALLS];
static int pmpi_failure_done;

static int pmpi_failure_index(const char *call)
{
    int i;
    for (i = 0; i < PMPI_FAILURE_NCALLS; i++)
        if (strcmp(call, pmpi_failure_calls[i]) == 0)
            return i;
    return -1;
}

long pmpi_failure_count(const char *call)
{
    int i = pmpi_failure_index(call);
    long n = 0;
#ifdef _OPENMP
#pragma omp critical(pmpi_failure_lock)
#endif
    n = i >= 0 ? pmpi_failure_counts[i] : -1;
    return n;
}

int pmpi_failure_failed(void)
{
    int f;
#ifdef _OPENMP
#pragma omp critical(pmpi_failure_lock)
#endif
    f = pmpi_failure_done;
    return f;
}

/* Count call i; 1 if this is the call that must fail. */
static int pmpi_failure_now(int i)
{
    const char *call = getenv("TILEHYBRID_FAIL_CALL"), *r = getenv("TILEHYBRID_FAIL_RANK");
    const char *k = getenv("TILEHYBRID_FAIL_AFTER");
    int rank = -1, fail = 0;
    long n;
    (void)PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifdef _OPENMP
#pragma omp critical(pmpi_failure_lock)
#endif
    {
        n = pmpi_failure_counts[i]++;
        if (call != NULL && strcmp(call, pmpi_failure_calls[i]) == 0 && !pmpi_failure_done &&
            rank == (r != NULL ? atoi(r) : 1) && n == (k != NULL ? atol(k) : 0))
            fail = pmpi_failure_done = 1;
    }
    return fail;
}

/* pmpi_failure_now() for a call that makes a request: a failing call
 * leaves MPI_REQUEST_NULL in *req. */
static int pmpi_failure_request(int i, MPI_Request *req)
{
    if (!pmpi_failure_now(i))
        return 0;
    *req = MPI_REQUEST_NULL;
    return 1;
}

/* The point-to-point calls that make a request (MPI_Isend, MPI_Irecv,
 * MPI_Send_init, MPI_Recv_init: one signature but the const of the buffer
 * and the peer's name): call i fails with MPI_REQUEST_NULL in *req. */
#define PMPI_FAILURE_P2P_REQUEST(name, i, cq, peer)                                 \
    int MPI_##name(cq void *buf, int count, MPI_Datatype type, int peer, int tag,     \
                   MPI_Comm comm, MPI_Request *req)                                   \
    {                                                                                \
        if (pmpi_failure_request((i), req))                                          \
            return PMPI_FAILURE_ERROR;                                               \
        return PMPI_##name(buf, count, type, peer, tag, comm, req);                  \
    }

PMPI_FAILURE_P2P_REQUEST(Isend, 0, const, dest)
PMPI_FAILURE_P2P_REQUEST(Irecv, 1, , source)

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status st[])
{
    if (pmpi_failure_now(2))
        return PMPI_FAILURE_ERROR;
    return PMPI_Waitall(count, reqs, st);
}

/* The waits that yield (TILEHYBRID_WAIT=yield): each poll is a call. */
int MPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status st[])
{
    if (pmpi_failure_now(30))
        return PMPI_FAILURE_ERROR;
    return PMPI_Testall(count, reqs, flag, st);
}

/* (a yielding wait of partitioned messages, and a plan's agreement) */
int MPI_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
    if (pmpi_failure_now(31))
        return PMPI_FAILURE_ERROR;
    return PMPI_Test(req, flag, st);
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    if (pmpi_failure_now(3))
        return PMPI_FAILURE_ERROR;
    return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
}

#if MPI_VERSION >= 3
/* A plan's agreements reduce with MPI_Iallreduce (tilehybrid.h's
 * tilehybrid__allreduce): counted, and failed, as MPI_Allreduce. */
int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, MPI_Request *req)
{
    if (pmpi_failure_request(3, req))
        return PMPI_FAILURE_ERROR;
    return PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req);
}
#endif

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm)
{
    if (pmpi_failure_now(4))
        return PMPI_FAILURE_ERROR;
    return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    if (pmpi_failure_now(5))
        return PMPI_FAILURE_ERROR;
    return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                  const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                  const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    if (pmpi_failure_now(6))
        return PMPI_FAILURE_ERROR;
    return PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm);
}

PMPI_FAILURE_P2P_REQUEST(Send_init, 7, const, dest)
PMPI_FAILURE_P2P_REQUEST(Recv_init, 8, , source)

/* fails without starting any of them */
int MPI_Startall(int count, MPI_Request reqs[])
{
    if (pmpi_failure_now(9))
        return PMPI_FAILURE_ERROR;
    return PMPI_Startall(count, reqs);
}

/* fails without freeing it */
int MPI_Request_free(MPI_Request *req)
{
    if (pmpi_failure_now(10))
        return PMPI_FAILURE_ERROR;
    return PMPI_Request_free(req);
}

#if MPI_VERSION >= 4
int MPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype type,
                   int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    if (pmpi_failure_request(11, req))
        return PMPI_FAILURE_ERROR;
    return PMPI_Psend_init(buf, partitions, count, type, dest, tag, comm, info, req);
}

int MPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype type, int source,
                   int tag, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    if (pmpi_failure_request(12, req))
        return PMPI_FAILURE_ERROR;
    return PMPI_Precv_init(buf, partitions, count, type, source, tag, comm, info, req);
}

/* fails without marking the partition ready */
int MPI_Pready(int partition, MPI_Request req)
{
    if (pmpi_failure_now(13))
        return PMPI_FAILURE_ERROR;
    return PMPI_Pready(partition, req);
}

int MPI_Parrived(MPI_Request req, int partition, int *flag)
{
    if (pmpi_failure_now(14)) {
        *flag = 0;
        return PMPI_FAILURE_ERROR;
    }
    return PMPI_Parrived(req, partition, flag);
}
#endif

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    if (pmpi_failure_now(15))
        return PMPI_FAILURE_ERROR;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *st)
{
    if (pmpi_failure_now(16))
        return PMPI_FAILURE_ERROR;
    return PMPI_Recv(buf, count, type, source, tag, comm, st);
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                 void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                 MPI_Status *st)
{
    if (pmpi_failure_now(17))
        return PMPI_FAILURE_ERROR;
    return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag,
                         comm, st);
}

int MPI_Cart_create(MPI_Comm comm, int n, const int dims[], const int periods[], int reorder,
                    MPI_Comm *cart)
{
    if (pmpi_failure_now(18)) {
        *cart = MPI_COMM_NULL;
        return PMPI_FAILURE_ERROR;
    }
    return PMPI_Cart_create(comm, n, dims, periods, reorder, cart);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *dup)
{
    if (pmpi_failure_now(19)) {
        *dup = MPI_COMM_NULL;
        return PMPI_FAILURE_ERROR;
    }
    return PMPI_Comm_dup(comm, dup);
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *out)
{
    if (pmpi_failure_now(20)) {
        *out = MPI_COMM_NULL;
        return PMPI_FAILURE_ERROR;
    }
    return PMPI_Comm_split_type(comm, type, key, info, out);
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm)
{
    if (pmpi_failure_now(21))
        return PMPI_FAILURE_ERROR;
    return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (pmpi_failure_now(22))
        return PMPI_FAILURE_ERROR;
    return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (pmpi_failure_now(23))
        return PMPI_FAILURE_ERROR;
    return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Scatterv(const void *sbuf, const int *scounts, const int *displs, MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (pmpi_failure_now(25))
        return PMPI_FAILURE_ERROR;
    return PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *out)
{
    if (pmpi_failure_now(24)) {
        *out = MPI_COMM_NULL;
        return PMPI_FAILURE_ERROR;
    }
    return PMPI_Comm_split(comm, color, key, out);
}

int MPI_Type_size(MPI_Datatype type, int *size)
{
    if (pmpi_failure_now(26))
        return PMPI_FAILURE_ERROR;
    return PMPI_Type_size(type, size);
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    if (pmpi_failure_now(27))
        return PMPI_FAILURE_ERROR;
    return PMPI_Comm_size(comm, size);
}

int MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    if (pmpi_failure_now(28))
        return PMPI_FAILURE_ERROR;
    return PMPI_Comm_test_inter(comm, flag);
}

int MPI_File_open(MPI_Comm comm, const char *name, int amode, MPI_Info info, MPI_File *fh)
{
    int rc = PMPI_File_open(comm, name, amode, info, fh);
    if (rc == MPI_SUCCESS && pmpi_failure_now(29)) {
        *fh = MPI_FILE_NULL;    /* (the open file is left to the process's end) */
        return PMPI_FAILURE_ERROR;
    }
    return rc;
}
