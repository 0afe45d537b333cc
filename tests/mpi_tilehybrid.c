/* tests/mpi_tilehybrid.c -- the base header's MPI helpers: agreement on
 * values and errors (one collective, the failing rank's message on every
 * rank), the ping-pong. */
#include <limits.h>
#include <mpi.h>

#include "../tilehybrid.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

/* This process's rank and MPI_COMM_WORLD's size. */
static int rank, size;

/* Equal values: no error, past the stack buffer. */
static void agree_equal(const uint64_t *v)
{
    tilehybrid_agreement a;
    check_mpi(MPI_COMM_WORLD, tilehybrid_agree(MPI_COMM_WORLD, 0, v, 40, NULL, 0, &a) == 0 &&
                                  a.code == 0 && a.rank == -1 && a.index == -1,
              "agree: equal values, no error (40 values, past the stack buffer)");
    check_mpi(MPI_COMM_WORLD, tilehybrid_agree(MPI_COMM_WORLD, 0, v, 32, NULL, 0, &a) == 0 &&
                                  a.code == 0 && a.index == -1,
              "agree: 32 values (ASan: no overflow)");
}

/* Past several chunks: the first difference, then an error that wins. */
static void agree_chunks(void)
{
    static uint64_t w[1300];
    tilehybrid_agreement a;
    char msg[128];
    int i, ok;
    for (i = 0; i < 1300; i++)
        w[i] = (uint64_t)i;
    w[700] = rank == size - 1 ? 7 : 700;
    w[900] = rank == 0 ? 1 : 900;
    ok = tilehybrid_agree(MPI_COMM_WORLD, 0, w, 1300, NULL, 0, &a) == 0 &&
         a.code == 0 &&
         (size == 1 ? a.index == -1 : a.index == 700 && a.lo == 7 && a.hi == 700);
    check_mpi(MPI_COMM_WORLD, ok, "agree: 1300 values in chunks: the first differing one "
              "(index %d)", (int)a.index);
    snprintf(msg, sizeof msg, "rank %d here", rank);
    check_mpi(MPI_COMM_WORLD,
              tilehybrid_agree(MPI_COMM_WORLD, rank == size - 1 ? 5 : 0, w, 1300, msg,
                               sizeof msg, &a) == 0 && a.code == 5 && a.rank == size - 1 &&
                  a.index == -1 && atoi(msg + 5) == size - 1,
              "agree: 1300 values and an error on the last rank: its code and message win "
              "('%s')", msg);
}

/* The first differing value, with both values: in unsigned order (v[3]),
 * bit for bit (v[0]: 0.0 on rank 0, -0.0 elsewhere). */
static void agree_differing(uint64_t *v)
{
    tilehybrid_agreement a;
    /* values near 0 and near 2^64: unsigned order must hold (MPICH 4.0's
     * MPI_MIN on MPI_UINT64_T compares as signed) */
    v[3] = rank == size - 1 && size > 1 ? UINT64_MAX : 5;
    check_mpi(MPI_COMM_WORLD, tilehybrid_agree(MPI_COMM_WORLD, 0, v, 4, NULL, 0, &a) == 0 &&
                                  (size == 1 ? a.index == -1
                                             : a.index == 3 && a.lo == 5 && a.hi == UINT64_MAX),
              "agree: the first differing value, with both values (unsigned order)");
    v[0] = tilehybrid_bits(rank == 0 ? 0.0 : -0.0);
    check_mpi(MPI_COMM_WORLD, tilehybrid_agree(MPI_COMM_WORLD, 0, v, 1, NULL, 0, &a) == 0 &&
                                  (size == 1 ? a.index == -1
                                             : a.index == 0 && tilehybrid_from_bits(a.lo) == 0.0 &&
                                                   tilehybrid_from_bits(a.hi) == 0.0 &&
                                                   a.lo != a.hi),
              "agree: doubles are compared bit for bit (0.0 and -0.0 differ)");
}

/* Failing ranks: one (its code, rank and message on every rank), codes of
 * any size, several (the lowest one's). */
static void agree_failing(const uint64_t *v)
{
    tilehybrid_agreement a;
    char msg[128];
    snprintf(msg, sizeof msg, "rank %d speaking", rank);
    check_mpi(MPI_COMM_WORLD,
              tilehybrid_agree(MPI_COMM_WORLD, rank == size - 1 ? 7 : 0, v, 1, msg, sizeof msg,
                               &a) == 0 &&
                  a.code == 7 && a.rank == size - 1 && a.index == -1,
              "agree: one failing rank: its code, its rank and its message on every rank");
    {
        char want[64];
        snprintf(want, sizeof want, "rank %d speaking", size - 1);
        check_mpi(MPI_COMM_WORLD, strcmp(msg, want) == 0, "agree: the message is the failing rank's");
    }
    /* codes past 24 bits and negative codes come back whole (the encoding
     * kept the low 24 bits: 0x1000000 was agreed as success) */
    {
        static const int big[3] = { 0x1000000, INT_MAX, -3 };
        int k, all = 1;
        for (k = 0; k < 3; k++) {
            int rc = tilehybrid_agree(MPI_COMM_WORLD, rank == size - 1 ? big[k] : 0, NULL, 0,
                                      NULL, 0, &a);
            all &= rc == 0 && a.code == big[k] && a.rank == size - 1;
        }
        check_mpi(MPI_COMM_WORLD, all, "agree: codes 0x1000000, INT_MAX and -3 on the last rank "
                  "come back whole");
    }
    snprintf(msg, sizeof msg, "rank %d speaking", rank);
    check_mpi(MPI_COMM_WORLD,
              tilehybrid_agree(MPI_COMM_WORLD, rank == 0 ? 0 : 9 + rank, NULL, 0, msg, sizeof msg,
                               &a) == 0 &&
                  (size == 1 ? a.code == 0 : a.code == 10 && a.rank == 1),
              "agree: several failing ranks: the lowest one's code and rank");
}

/* The failing rank's status and message reach every rank (the last rank
 * fails with an argument of its own, rank 0 with one that is none of the
 * names). */
static void agree_status_cases(const uint64_t *v)
{
    static const char *const names[] = { "extent", "dep", "zlen" };
    char own[16];
    tilehybrid_status mine, st;
    tilehybrid_agreement a;
    tilehybrid_verdict w;
    const char *arg;
    int last = rank == size - 1, ok;
    snprintf(own, sizeof own, "dep");   /* not the same pointer as names[1] */
    tilehybrid_status_set(&mine, 6, last ? own : "nothing known", last ? 3 : 99);
    mine.mpi_error = last ? 17 : 18;
    snprintf(w.text, sizeof w.text, "text of rank %d", rank);
    memset(&st, 0, sizeof st);
    ok = tilehybrid_agree_status(MPI_COMM_WORLD, last ? 6 : 0, &mine, v, 1, &w, &a) == 0 &&
         a.code == 6 && a.rank == size - 1;
    arg = tilehybrid_verdict_arg(&w, names, 3, "unknown");
    ok = ok && arg == names[1] && tilehybrid_verdict_status(&st, &a, &w, arg) == 6 &&
         st.code == 6 && st.arg == names[1] && st.index == 3 && st.rank == size - 1 &&
         st.mpi_error == 17 && atoi(w.text + 13) == size - 1;
    check_mpi(MPI_COMM_WORLD, ok, "agree_status: the failing rank's argument (as the "
              "caller's name), index, MPI error and message on every rank ('%s', '%s')",
              w.arg, w.text);
    ok = tilehybrid_agree_status(MPI_COMM_WORLD, rank == 0 ? 4 : 0, &mine, NULL, 0, &w,
                                 &a) == 0 &&
         a.code == 4 && a.rank == 0 && w.index == (size == 1 ? 3 : 99) &&
         strcmp(tilehybrid_verdict_arg(&w, names, 3, "unknown"),
                size == 1 ? "dep" : "unknown") == 0;
    check_mpi(MPI_COMM_WORLD, ok, "agree_status: an argument that is none of the names "
              "gives the caller's 'unknown'");
    snprintf(w.text, sizeof w.text, "mine");
    ok = tilehybrid_agree_status(MPI_COMM_WORLD, 0, &mine, v, 1, &w, &a) == 0 &&
         a.code == 0 && w.arg[0] == '\0' && w.index == -1 && w.mpi_error == 0 &&
         strcmp(w.text, "mine") == 0;
    check_mpi(MPI_COMM_WORLD, ok, "agree_status: no failure: nothing sent, this rank's "
              "text kept");
}

/* A NULL out, v or msg on the last rank alone: TILEHYBRID_ERR_NULL naming it
 * and the rank on every rank; no crash, no rank left in MPI_Bcast. */
static void agree_null_args(const uint64_t *v)
{
    int last = rank == size - 1, rc, ok, i;
    char want[96], msg[128];
    tilehybrid_agreement a;
    snprintf(msg, sizeof msg, "rank %d here", rank);
    rc = tilehybrid_agree(MPI_COMM_WORLD, rank == 0 ? 5 : 0, v, 4, msg, sizeof msg,
                          last ? NULL : &a);
    snprintf(want, sizeof want, "tilehybrid_agree(): argument 'out' is NULL on rank %d",
             size - 1);
    ok = strcmp(msg, want) == 0 &&
         (last ? rc == MPI_ERR_ARG
               : rc == MPI_SUCCESS && a.code == TILEHYBRID_ERR_NULL && a.rank == size - 1 &&
                     strcmp(a.arg, "out") == 0);
    check_mpi(MPI_COMM_WORLD, ok, "agree: a NULL out on the last rank: TILEHYBRID_ERR_NULL "
              "naming 'out' and the rank on every rank ('%s')", msg);
    snprintf(msg, sizeof msg, "rank %d here", rank);
    rc = tilehybrid_agree(MPI_COMM_WORLD, 0, last ? NULL : v, 4, msg, sizeof msg, &a);
    snprintf(want, sizeof want, "tilehybrid_agree(): argument 'v' is NULL on rank %d",
             size - 1);
    check_mpi(MPI_COMM_WORLD, rc == MPI_SUCCESS && a.code == TILEHYBRID_ERR_NULL &&
                                  a.rank == size - 1 && strcmp(a.arg, "v") == 0 &&
                                  strcmp(msg, want) == 0,
              "agree: a NULL v with n > 0 on the last rank: 'v' and the rank ('%s')", msg);
    /* rank 0 fails while the last rank has no message (it would have
     * broadcast to a rank that is not listening), then the last rank
     * fails without one (the others would have waited for it) */
    for (i = 0; i < 2; i++) {
        int fails = i == 0 ? rank == 0 : last;
        snprintf(msg, sizeof msg, "rank %d here", rank);
        rc = tilehybrid_agree(MPI_COMM_WORLD, fails ? 5 : 0, v, 4, last ? NULL : msg,
                              sizeof msg, &a);
        snprintf(want, sizeof want, "tilehybrid_agree(): argument 'msg' is NULL on rank %d "
                 "(another rank passes one)", size - 1);
        ok = rc == MPI_SUCCESS &&
             (size == 1 ? a.code == 5 && a.rank == 0 && a.arg[0] == '\0'
                        : a.code == TILEHYBRID_ERR_NULL && a.rank == size - 1 &&
                              strcmp(a.arg, "msg") == 0 && (last || strcmp(msg, want) == 0));
        check_mpi(MPI_COMM_WORLD, ok, "agree: a NULL msg on the last rank alone, %s fails: "
                  "'msg' and the rank ('%s')", i == 0 ? "rank 0" : "it", msg);
    }
}

/* agree_status with a NULL w or out on the last rank alone: the same; the
 * agreement still works after them. */
static void agree_status_null_args(const uint64_t *v)
{
    int last = rank == size - 1, rc, ok;
    char want[96], msg[128];
    tilehybrid_verdict w;
    tilehybrid_agreement a;
    snprintf(w.text, sizeof w.text, "rank %d here", rank);
    rc = tilehybrid_agree_status(MPI_COMM_WORLD, rank == 0 ? 4 : 0, NULL, v, 4,
                                 last ? NULL : &w, &a);
    snprintf(want, sizeof want, "tilehybrid_agree_status(): argument 'w' is NULL on rank %d",
             size - 1);
    check_mpi(MPI_COMM_WORLD, rc == MPI_SUCCESS && a.code == TILEHYBRID_ERR_NULL &&
                                  a.rank == size - 1 && strcmp(a.arg, "w") == 0 &&
                                  (last || (strcmp(w.arg, "w") == 0 && w.index == -1 &&
                                            strcmp(w.text, want) == 0)),
              "agree_status: a NULL w on the last rank: 'w' and the rank ('%s')",
              last ? "" : w.text);
    snprintf(w.text, sizeof w.text, "rank %d here", rank);
    rc = tilehybrid_agree_status(MPI_COMM_WORLD, rank == 0 ? 4 : 0, NULL, v, 4, &w,
                                 last ? NULL : &a);
    snprintf(want, sizeof want, "tilehybrid_agree_status(): argument 'out' is NULL on "
             "rank %d", size - 1);
    ok = strcmp(w.arg, "out") == 0 && strcmp(w.text, want) == 0 &&
         (last ? rc == MPI_ERR_ARG
               : rc == MPI_SUCCESS && a.code == TILEHYBRID_ERR_NULL && a.rank == size - 1);
    check_mpi(MPI_COMM_WORLD, ok, "agree_status: a NULL out on the last rank: 'out' and "
              "the rank ('%s')", w.text);
    /* the agreement still works after them */
    snprintf(msg, sizeof msg, "rank %d here", rank);
    check_mpi(MPI_COMM_WORLD,
              tilehybrid_agree(MPI_COMM_WORLD, last ? 3 : 0, v, 4, msg, sizeof msg, &a) ==
                      MPI_SUCCESS && a.code == 3 && a.rank == size - 1 &&
                  a.arg[0] == '\0' && atoi(msg + 5) == size - 1,
              "agree: after them, a failing rank's message again ('%s')", msg);
}

/* The ping-pong between ranks 0 and 1: a round trip, one way. */
static void pingpong_cases(void)
{
    if (size >= 2) {
        char buf[1024];
        double t = -1;
        int rc = MPI_SUCCESS;
        memset(buf, rank, sizeof buf);
        if (rank < 2)
            rc = tilehybrid_pingpong(MPI_COMM_WORLD, 1 - rank, rank == 0, buf, 1024, 1024,
                                     TILEHYBRID_TAG_PINGPONG, &t);
        check_mpi(MPI_COMM_WORLD, rc == MPI_SUCCESS && (rank != 0 || (t >= 0 && buf[5] == 0)) &&
                                      (rank != 1 || buf[5] == 0),
                  "pingpong: a symmetric round trip");
        if (rank < 2)
            rc = tilehybrid_pingpong(MPI_COMM_WORLD, 1 - rank, rank == 1, buf, 512, 0,
                                     TILEHYBRID_TAG_PINGPONG, &t);
        check_mpi(MPI_COMM_WORLD, rc == MPI_SUCCESS, "pingpong: one way, acknowledged by an empty message");
    } else {
        check_mpi(MPI_COMM_WORLD, 1, "pingpong: needs 2 ranks (nothing to test at 1)");
    }
}

/* The failing call named: a peer outside the communicator (MPI_ERR_RANK at
 * once); the agreement names none when none failed. */
static void pingpong_ex_named(const uint64_t *v)
{
    tilehybrid_agreement a;
    MPI_Comm d;
    char buf[8];
    const char *c1 = "?", *c2 = "?";
    int r1, r2;
    MPI_Comm_dup(MPI_COMM_SELF, &d);
    MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
    r1 = tilehybrid_pingpong_ex(d, 5, 1, buf, 8, 8, TILEHYBRID_TAG_PINGPONG, NULL, &c1);
    r2 = tilehybrid_pingpong_ex(d, 5, 0, buf, 8, 8, TILEHYBRID_TAG_PINGPONG, NULL, &c2);
    check_mpi(MPI_COMM_WORLD, r1 != MPI_SUCCESS && strcmp(c1, "MPI_Send") == 0 &&
                                  r2 != MPI_SUCCESS && strcmp(c2, "MPI_Recv") == 0,
              "pingpong_ex: the leader's failed MPI_Send and the peer's failed MPI_Recv "
              "are named (%s, %s)", c1, c2);
    MPI_Comm_free(&d);
    check_mpi(MPI_COMM_WORLD, tilehybrid_agree(MPI_COMM_WORLD, 0, v, 4, NULL, 0, &a) == 0 &&
                                  a.call != NULL && a.call[0] == '\0',
              "agree: no call named when none failed");
}

int main(int argc, char **argv)
{
    uint64_t v[40];     /* the values agreed on (agree_differing changes v[0] and v[3]) */
    int i;
    check_mpi_init(&argc, &argv, &rank, &size);

    for (i = 0; i < 40; i++)
        v[i] = (uint64_t)i * 0x9e3779b97f4a7c15ull;
    agree_equal(v);
    agree_chunks();
    agree_differing(v);
    agree_failing(v);
    agree_status_cases(v);
    agree_null_args(v);
    agree_status_null_args(v);
    pingpong_cases();
    pingpong_ex_named(v);
    return check_mpi_exit();
}
