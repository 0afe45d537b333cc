/* sim/funneled.c -- the papers' pipeline as a skeleton, for experiment 3 of
 * sim/README.md: a coarse-grain funneled process simulated as ONE SMPI rank
 * (SimGrid 3.32's SMPI cannot run threads: its MPI_Init_thread provides
 * MPI_THREAD_SINGLE and the ranks of a host share one OS thread).
 *
 *   smpirun -np 8 -platform sim/platforms/fastethernet.xml \
 *       -hostfile sim/platforms/fastethernet-1ppn.hosts \
 *       --cfg=smpi/simulate-computation:no --cfg=network/model:CM02 \
 *       build/smpi/sim/funneled --space 64x256x16384 --tile-height 50 \
 *       --grid 1x8 --threads 2 --balance variable --overhead inter --json
 *
 * Nothing is computed: the program moves the messages of tilehybrid's
 * whole-face schedule (tiling.h, models mpi and funneled) and charges the
 * computation as simulated flops, one flop per point (the host's speed is
 * points per second, 1/t_comp).  The process grid P1 x P2 owns an
 * X1 x X2 x Z space in blocks (X_i/P_i points, the first X_i%P_i processes
 * one more); the sweep along Z goes in tiles of height z.  Every tile k of a
 * process, in order:
 *   1. the T-1 other threads start their shares, (T-bal)/(T(T-1)) of the
 *      tile's points each, as asynchronous executions on the host's other
 *      cores (T = 1: none);
 *   2. the master posts the receives of tile k+1's faces (from the lower
 *      neighbours) and sends tile k-1's faces (to the upper ones), d_i
 *      layers deep, one message per direction, as tiling.h does (tile 0's
 *      faces are received before the first tile, the last tile's are sent
 *      after it);
 *   3. the master computes its share, bal/T of the points;
 *   4. the master waits for its messages, then for the other threads (the
 *      end-of-step barrier).
 * So a step lasts max(master: sends + its share + waiting, other threads:
 * their share): the papers' eq. 6-8 with the communication priced by the
 * simulated network instead of a formula.
 *
 * --overhead charges the sender's CPU, before each send, the papers'
 * t_comm(x) = t_startup + x / B (MPICH-1 over TCP did not overlap sending
 * with computing): "inter" for messages to another host only (the papers'
 * MPICH used shared memory inside a node), "all" for every message (what
 * SMPI's smpi/ois option does, so that --threads 1 --overhead all reproduces
 * the demos under sim/'s "nonoverlap" model), "none"; default inter.
 * With T = 1 this is tiling.h's pure MPI model: sim/hybrid.sh runs both on
 * the same case (sim-hybrid-check.csv: the same bytes and messages, times
 * within 0.1%).
 *
 * What is modelled and what is not: sim/README.md, experiment 3.
 *
 * Options: --space X1xX2xZ  --tile-height z  --grid P1xP2  --threads T
 *   --deps d1,d2 (1,1: ADI; 3,3: DE)  --balance none|constant|variable|BAL
 *   (the factor of balance.h's bal_factor, eq. 1, from --tcomp, --tstartup,
 *   --bandwidth: the papers' 288e-9 s, 107e-6 s, 10e6 B/s by default)
 *   --overhead none|inter|all  --json.
 * Exit status 0, 1 (an MPI or balance.h error), 2 (bad arguments). */
#include <mpi.h>

#include <simgrid/actor.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>

#include "balance.h"

#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 256

/* The faces' tag: from tilehybrid.h's TILEHYBRID_TAG_BASE (compile with
 * -DTILEHYBRID_TAG_BASE=N to move it), never a number of its own.  The
 * faces are this program's only point-to-point messages, on its own
 * Cartesian communicator. */
#define FUNNELED_TAG_FACE TILEHYBRID_TAG_BASE

/* The run's settings (the same on every rank). */
typedef struct opts {
    int64_t x[2], z, tz;  /* X1, X2, Z; tile height */
    int p[2], threads;    /* P1 x P2; T */
    int64_t dep[2];       /* d1, d2 */
    int balance;          /* -1 given value, 0 none, 1 constant, 2 variable */
    double bal;           /* the given value */
    int overhead;         /* 0 none, 1 inter, 2 all */
    bal_model model;      /* for eq. 1 and the overhead */
    int json;
} opts;

/* This rank's part of the run. */
typedef struct proc {
    int rank, c[2];                /* coordinates in the grid */
    int64_t b[2];                  /* block extents */
    int lo[2], hi[2];              /* neighbours (MPI_PROC_NULL: none) */
    int remote_hi[2];              /* 1: the upper neighbour is on another host */
    double bal;                    /* the master's factor */
    char *rbuf[2], *sbuf[2];       /* one face per direction */
    int64_t bytes, messages;       /* sent */
} proc;

/* Print msg and the usage (rank 0 only); the exit status 2. */
static int usage(int rank, const char *msg)
{
    if (rank == 0)
        fprintf(stderr, "funneled: %s\nusage: smpirun ... funneled --space X1xX2xZ --tile-height z "
                        "--grid P1xP2 [--threads T] [--deps d1,d2]\n  [--balance none|constant|"
                        "variable|BAL] [--tcomp s] [--tstartup s] [--bandwidth B/s]\n  "
                        "[--overhead none|inter|all] [--json]\n", msg);
    return 2;
}

/* "v1<sep>v2..." with exactly n whole numbers in lo..hi, each read by
 * tilehybrid_parse_i64 (so an overflow is an error); 0 or -1. */
static int parse_list(const char *v, char sep, int n, int64_t lo, int64_t hi, int64_t *out)
{
    char buf[128], *w = buf, *e;
    int k;
    if (strlen(v) >= sizeof buf)
        return -1;
    strcpy(buf, v);
    for (k = 0; k < n; k++) {
        e = strchr(w, sep);
        if ((e == NULL) != (k == n - 1))
            return -1;
        if (e != NULL)
            *e = '\0';
        if (tilehybrid_parse_i64(w, lo, hi, &out[k]) != TILEHYBRID_OK)
            return -1;
        w = e + 1;
    }
    return 0;
}

/* One option with its value; NULL or what is wrong. */
static const char *parse_one(opts *o, const char *a, const char *v)
{
    int64_t x[3];
    if (strcmp(a, "--space") == 0) {
        if (parse_list(v, 'x', 3, 1, INT64_MAX, x) != 0)
            return "--space: X1xX2xZ, whole numbers >= 1";
        o->x[0] = x[0], o->x[1] = x[1], o->z = x[2];
    } else if (strcmp(a, "--tile-height") == 0) {
        if (tilehybrid_parse_i64(v, 1, INT64_MAX, &o->tz) != TILEHYBRID_OK)
            return "--tile-height: a whole number >= 1";
    } else if (strcmp(a, "--grid") == 0) {
        if (parse_list(v, 'x', 2, 1, INT_MAX, x) != 0)
            return "--grid: P1xP2, whole numbers in 1..INT_MAX";
        o->p[0] = (int)x[0], o->p[1] = (int)x[1];
    } else if (strcmp(a, "--threads") == 0) {
        if (tilehybrid_parse_i64(v, 1, MAXT, &x[0]) != TILEHYBRID_OK)
            return "--threads: a whole number in 1..256";
        o->threads = (int)x[0];
    } else if (strcmp(a, "--deps") == 0) {
        if (parse_list(v, ',', 2, 0, INT64_MAX, x) != 0)
            return "--deps: d1,d2, whole numbers >= 0";
        o->dep[0] = x[0], o->dep[1] = x[1];
    } else if (strcmp(a, "--balance") == 0) {
        o->balance = strcmp(v, "none") == 0 ? 0 : strcmp(v, "constant") == 0 ? 1
                   : strcmp(v, "variable") == 0 ? 2 : -1;
        if (o->balance == -1 && (tilehybrid_parse_double(v, 0.0, 1.0, &o->bal) != 0))
            return "--balance: none, constant, variable or a number in [0, 1]";
    } else if (strcmp(a, "--overhead") == 0) {
        o->overhead = strcmp(v, "none") == 0 ? 0 : strcmp(v, "inter") == 0 ? 1
                    : strcmp(v, "all") == 0 ? 2 : -1;
        if (o->overhead < 0)
            return "--overhead: none, inter or all";
    } else if (strcmp(a, "--tcomp") == 0) {
        if (tilehybrid_parse_double(v, DBL_MIN, DBL_MAX, &o->model.tcomp) != 0)
            return "--tcomp: seconds per point, > 0";
    } else if (strcmp(a, "--tstartup") == 0) {
        if (tilehybrid_parse_double(v, 0.0, DBL_MAX, &o->model.tstartup) != 0)
            return "--tstartup: seconds per message, >= 0";
    } else if (strcmp(a, "--bandwidth") == 0) {
        if (tilehybrid_parse_double(v, DBL_MIN, DBL_MAX, &o->model.bandwidth) != 0)
            return "--bandwidth: bytes per second, > 0";
    } else
        return "unknown option";
    return NULL;
}

/* argv into o; NULL or what is wrong. */
static const char *parse(int argc, char **argv, int size, opts *o)
{
    const char *err;
    int64_t pts;
    int i;
    memset(o, 0, sizeof *o);
    o->threads = 1;
    o->dep[0] = o->dep[1] = 1;
    o->overhead = 1;
    o->model.tcomp = 288e-9;   /* the papers' t_comp(1), t_startup, B_sustained */
    o->model.tstartup = 107e-6;
    o->model.bandwidth = 10e6;
    o->model.elem_bytes = 8.0;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            o->json = 1;
            continue;
        }
        if (i + 1 == argc)
            return "an option without its value";
        if ((err = parse_one(o, argv[i], argv[i + 1])) != NULL)
            return err;
        i++;
    }
    if (o->z == 0 || o->tz == 0 || o->p[0] == 0)
        return "--space, --tile-height and --grid are required";
    if ((int64_t)o->p[0] * o->p[1] != size)
        return "--grid: P1 x P2 must be the number of ranks";
    if (o->p[0] > o->x[0] || o->p[1] > o->x[1])
        return "--grid: more processes than points along a dimension";
    if (!tilehybrid_mul_ok(o->x[0], o->x[1], &pts) || !tilehybrid_mul_ok(pts, o->z, &pts))
        return "--space: X1 x X2 x Z points overflow 64 bits";
    for (i = 0; i < 2; i++)
        if (o->dep[i] > 0 && (o->x[1 - i] > INT_MAX / 8 / o->dep[i] / o->tz ||
                              o->dep[i] > INT_MAX || o->tz > INT_MAX))
            return "--space, --deps, --tile-height: a face of more than INT_MAX bytes";
    return NULL;
}

/* Points of block dimension i for grid coordinate c (block distribution). */
static int64_t block(int64_t x, int p, int c)
{
    return x / p + (c < x % p ? 1 : 0);
}

/* Stop the run if an MPI call failed, naming it. */
static void must(int rc, const char *call)
{
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "funneled: %s failed (MPI error %d)\n", call, rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* Grid position, neighbours, and which upper neighbours live on another
 * host (MPI_Get_processor_name is the simulated host's name). */
static int setup_grid(const opts *o, proc *me, MPI_Comm *cart)
{
    char mine[MPI_MAX_PROCESSOR_NAME], *names;
    int dims[2], periods[2] = {0, 0}, len, i, size, rc = 0;
    dims[0] = o->p[0], dims[1] = o->p[1];
    must(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    names = (char *)TILEHYBRID_MALLOC((size_t)size * MPI_MAX_PROCESSOR_NAME);
    memset(mine, 0, sizeof mine);
    if (names != NULL)
        memset(names, 0, (size_t)size * MPI_MAX_PROCESSOR_NAME);
    if (names == NULL ||
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, cart) != MPI_SUCCESS ||
        MPI_Comm_rank(*cart, &me->rank) != MPI_SUCCESS ||
        MPI_Cart_coords(*cart, me->rank, 2, me->c) != MPI_SUCCESS ||
        MPI_Get_processor_name(mine, &len) != MPI_SUCCESS ||
        MPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME,
                      MPI_CHAR, *cart) != MPI_SUCCESS)
        rc = 1;
    for (i = 0; rc == 0 && i < 2; i++) {
        if (MPI_Cart_shift(*cart, i, 1, &me->lo[i], &me->hi[i]) != MPI_SUCCESS)
            rc = 1;
        me->b[i] = block(o->x[i], o->p[i], me->c[i]);
        me->remote_hi[i] = me->hi[i] != MPI_PROC_NULL &&
                           strcmp(names + (size_t)me->hi[i] * MPI_MAX_PROCESSOR_NAME, mine) != 0;
    }
    TILEHYBRID_FREE(names);
    return rc;
}

/* The master's factor (balance.h, eq. 1) and the face buffers. */
static int setup_proc(const opts *o, proc *me)
{
    int64_t face;
    int i;
    if (o->balance == -1)
        me->bal = o->bal;
    else if (o->balance == 0 || o->threads == 1)
        me->bal = 1.0;
    else if (bal_factor(&o->model, 2, o->p, o->balance == 2 ? me->c : NULL, o->threads, o->x,
                        o->tz, o->dep, &me->bal, NULL) != 0)
        return 1;
    for (i = 0; i < 2; i++) {
        face = 8 * o->dep[i] * me->b[1 - i] * o->tz;
        me->rbuf[i] = (char *)TILEHYBRID_MALLOC((size_t)face + 1);
        me->sbuf[i] = (char *)TILEHYBRID_MALLOC((size_t)face + 1);
        if (me->rbuf[i] == NULL || me->sbuf[i] == NULL)
            return 1;
        memset(me->rbuf[i], 0, (size_t)face + 1);
        memset(me->sbuf[i], 0, (size_t)face + 1);
    }
    return 0;
}

/* Planes of tile k. */
static int64_t planes(const opts *o, int64_t k)
{
    int64_t z1 = (k + 1) * o->tz;
    return (z1 < o->z ? z1 : o->z) - k * o->tz;
}

/* Bytes of tile k's face along dimension i. */
static int face_bytes(const opts *o, const proc *me, int i, int64_t k)
{
    return (int)(8 * o->dep[i] * me->b[1 - i] * planes(o, k));
}

/* Post the receives of tile k's faces; the count of requests added. */
static int post_recvs(const opts *o, const proc *me, MPI_Comm cart, int64_t k, MPI_Request *q)
{
    int i, n = 0;
    for (i = 0; i < 2; i++)
        if (me->lo[i] != MPI_PROC_NULL && o->dep[i] > 0)
            must(MPI_Irecv(me->rbuf[i], face_bytes(o, me, i, k), MPI_BYTE, me->lo[i],
                           FUNNELED_TAG_FACE, cart, &q[n++]), "MPI_Irecv");
    return n;
}

/* Keep this rank's core busy for the given simulated seconds.
 * (smpi_execute() does nothing under smpi/simulate-computation:no.) */
static void busy(double seconds)
{
    smpi_execute_flops(seconds * sg_host_get_speed(sg_host_self()));
}

/* Send tile k's faces, each after the sender's overhead; the count of
 * requests added. */
static int post_sends(const opts *o, proc *me, MPI_Comm cart, int64_t k, MPI_Request *q)
{
    int i, n = 0, bytes;
    for (i = 0; i < 2; i++) {
        if (me->hi[i] == MPI_PROC_NULL || o->dep[i] == 0)
            continue;
        bytes = face_bytes(o, me, i, k);
        if (o->overhead == 2 || (o->overhead == 1 && me->remote_hi[i]))
            busy(o->model.tstartup + bytes / o->model.bandwidth);
        must(MPI_Isend(me->sbuf[i], bytes, MPI_BYTE, me->hi[i], FUNNELED_TAG_FACE, cart, &q[n++]),
             "MPI_Isend");
        me->bytes += bytes;
        me->messages++;
    }
    return n;
}

/* Start tile k's other threads: T-1 asynchronous executions of
 * (T-bal)/(T(T-1)) of its points each on this host's other cores. */
static void start_others(const opts *o, const proc *me, int64_t k, sg_exec_t *others)
{
    double w = (double)(me->b[0] * me->b[1] * planes(o, k));
    int t, T = o->threads;
    for (t = 1; t < T; t++) {
        others[t] = sg_actor_exec_init(w * (T - me->bal) / (T * (double)(T - 1)));
        sg_exec_start(others[t]);
    }
}

/* The master's share of tile k: bal/T of its points, on this core. */
static void master_share(const opts *o, const proc *me, int64_t k)
{
    smpi_execute_flops((double)(me->b[0] * me->b[1] * planes(o, k)) * me->bal / o->threads);
}

/* The end-of-step barrier: wait for the other threads. */
static void join(const opts *o, sg_exec_t *others)
{
    int t;
    for (t = 1; t < o->threads; t++)
        sg_exec_wait(others[t]);
}

/* The sweep: every tile of this process, in order. */
static void run(const opts *o, proc *me, MPI_Comm cart)
{
    int64_t k, nt = (o->z + o->tz - 1) / o->tz;
    MPI_Request q[8];
    sg_exec_t others[MAXT];
    int n = post_recvs(o, me, cart, 0, q);
    must(MPI_Waitall(n, q, MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (k = 0; k < nt; k++) {
        start_others(o, me, k, others);
        /* the master: tiling.h's order, sends and receives first */
        n = k + 1 < nt ? post_recvs(o, me, cart, k + 1, q) : 0;
        n += k > 0 ? post_sends(o, me, cart, k - 1, q + n) : 0;
        master_share(o, me, k);
        must(MPI_Waitall(n, q, MPI_STATUSES_IGNORE), "MPI_Waitall");
        join(o, others);
    }
    n = post_sends(o, me, cart, nt - 1, q);
    must(MPI_Waitall(n, q, MPI_STATUSES_IGNORE), "MPI_Waitall");
}

/* Rank 0 prints the run: text, or one JSON line (--json). */
static void report(const opts *o, const proc *me, MPI_Comm cart, double seconds)
{
    long long v[2] = {(long long)me->bytes, (long long)me->messages}, tot[2];
    double bmin, bmax;
    must(MPI_Reduce(v, tot, 2, MPI_LONG_LONG, MPI_SUM, 0, cart), "MPI_Reduce");
    must(MPI_Reduce(&me->bal, &bmin, 1, MPI_DOUBLE, MPI_MIN, 0, cart), "MPI_Reduce");
    must(MPI_Reduce(&me->bal, &bmax, 1, MPI_DOUBLE, MPI_MAX, 0, cart), "MPI_Reduce");
    if (me->rank != 0)
        return;
    if (!o->json) {
        printf("%lldx%lldx%lld, grid %dx%d, %d thread(s), tile height %lld: %.6f s, bal %.4f..%.4f,"
               " %lld bytes in %lld messages\n", (long long)o->x[0], (long long)o->x[1],
               (long long)o->z, o->p[0], o->p[1], o->threads, (long long)o->tz, seconds, bmin,
               bmax, tot[0], tot[1]);
        return;
    }
    printf("{\"program\": \"funneled\", \"space\": [%lld, %lld, %lld], \"tile_height\": %lld, "
           "\"grid\": [%d, %d], \"threads\": %d, \"deps\": [%lld, %lld], \"overhead\": \"%s\", "
           "\"bal_min\": %.4f, \"bal_max\": %.4f, \"seconds\": %.6f, \"bytes_sent_total\": %lld, "
           "\"messages_total\": %lld}\n", (long long)o->x[0], (long long)o->x[1],
           (long long)o->z, (long long)o->tz, o->p[0], o->p[1], o->threads,
           (long long)o->dep[0], (long long)o->dep[1],
           o->overhead == 0 ? "none" : o->overhead == 1 ? "inter" : "all", bmin, bmax, seconds,
           tot[0], tot[1]);
}

int main(int argc, char **argv)
{
    opts o;
    proc me;
    MPI_Comm cart = MPI_COMM_NULL;
    const char *err;
    int size, rank, rc = 0;
    double t0;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fprintf(stderr, "funneled: MPI_Init failed\n");
        return 1;
    }
    must(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    must(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    memset(&me, 0, sizeof me);
    /* every rank parses the same arguments: all go on, or all stop */
    if ((err = parse(argc, argv, size, &o)) != NULL)
        rc = usage(rank, err);
    if (rc == 0 && (setup_grid(&o, &me, &cart) != 0 || setup_proc(&o, &me) != 0)) {
        fprintf(stderr, "funneled: set-up failed (MPI, memory or balance.h)\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rc == 0) {
        must(MPI_Barrier(cart), "MPI_Barrier");
        t0 = MPI_Wtime();
        run(&o, &me, cart);
        /* the run ends when the last process is done */
        t0 = MPI_Wtime() - t0;
        must(MPI_Allreduce(MPI_IN_PLACE, &t0, 1, MPI_DOUBLE, MPI_MAX, cart), "MPI_Allreduce");
        report(&o, &me, cart, t0);
    }
    TILEHYBRID_FREE(me.rbuf[0]);
    TILEHYBRID_FREE(me.rbuf[1]);
    TILEHYBRID_FREE(me.sbuf[0]);
    TILEHYBRID_FREE(me.sbuf[1]);
    if (cart != MPI_COMM_NULL)
        must(MPI_Comm_free(&cart), "MPI_Comm_free");
    must(MPI_Finalize(), "MPI_Finalize");
    return rc;
}
