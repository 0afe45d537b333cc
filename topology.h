/* topology.h -- communication-optimal process grids for tiled loop nests.
 * Part of tilehybrid (MIT licence), version TOPO_VERSION (=
 * TILEHYBRID_VERSION).  Header-only C99, also valid C++; needs tilehybrid.h
 * beside it.
 *
 * WHAT IT IS
 *   A loop nest over X1 x ... x XN x Z, whose iterations depend on the d_i
 *   previous planes along each of the first N dimensions, is run as a pipeline:
 *   the N outer dimensions are cut over a P1 x ... x PN grid of processes and
 *   every process walks along Z, one tile at a time, sending d_i planes of its
 *   block to its neighbour in each dimension i after each tile.  The grid
 *   decides how much data moves.  A process owning a block of
 *   c_1 x ... x c_N points, c_j = ceil(X_j / P_j), sends per Z-plane
 *
 *       V = sum_i  d_i * prod_{j != i} c_j                      (elements)
 *
 *   (Lemma 1 of the papers, with the ceilings kept).  topo_grid() returns the
 *   grid with product P that minimises V exactly -- a pruned search over all
 *   factorisations, not a rounding of the real-valued optimum -- with ties
 *   broken towards the lexicographically smallest grid.  For comparison it
 *   also gives the latency-optimal grid, the balanced one of MPI_Dims_create.
 *   topo_hybrid_grid() adds a thread grid inside each process's block,
 *   topo_report_grid() evaluates any grid (volumes, messages, pipeline fill),
 *   topo_block() is the block distribution behind c_j, and topo_cart_create()
 *   builds the MPI Cartesian communicator.
 *
 *   A loop nest described as a struct topo_nest adds two things:
 *   - Diagonal reads (a stencil, topo_nest_stencil(): tiling.h's rule).
 *     Faces are sent dimension by dimension and the face along i also
 *     carries ext[i][j] ghost layers of every lower dimension j that a
 *     vector reads together with i, so a corner value travels through the
 *     neighbour that shares it (the papers' "indirect message passing" for
 *     D' = diag(d'_i)).  The face along i then holds
 *         d_i prod_{j<i} (c_j + ext[i][j]) prod_{j>i} c_j
 *     elements per plane: exactly the bytes tiling.h sends
 *     (tests/mpi_topology_faces.c compares them), and the volume the grid
 *     search minimises.
 *   - TOPO_POLICY_TIME: the grid that minimises the pipeline model's time
 *         T = (ceil(Z/z) + sum_i (P_i - 1)) * (z t_comp prod_j c_j
 *             + m t_startup + z elem_bytes S / bandwidth)
 *     at the tile height z (m and S: the messages and face elements per
 *     plane the largest block sends; dimensions with d_i = 0 neither send
 *     nor wait), by the same kind of exact search.  Volume alone ignores
 *     the pipeline's fill: at 1,024 processes on 64 x 1024 x 2048 the
 *     volume-optimal 8x128 fills in 134 steps, 32x32 in 62, and simulated
 *     8x128 is 20% slower (docs/RESULTS.md).  On the papers' cluster
 *     (tile heights 50 and 100) it picks the published grids where the
 *     papers' gain shows in simulation, and the balanced grid where the
 *     volumes tie (128 x 256, where the papers published 2x8: it misses
 *     that claim, docs/RESULTS.md).  Limit: the model prices each message as
 *     if it had a link to itself and ignores processes sharing a node's
 *     link; check its choice where many processes share a node.  At 1,024
 *     ranks, 64 a node, DE's pick 16x64 simulated 23% slower than the
 *     volume policy's 8x128, and ADI's 32x32 16% slower than 16x64
 *     (docs/RESULTS.md, "Grid policies").
 *   The nest's grids are the ones tiling.h runs: a divided dimension's
 *   blocks hold the d_i layers they send (P_i <= X_i / d_i).
 *
 * USAGE (a complete program; build with mpicc, or define TILEHYBRID_NO_MPI)
 *
 *   #include <stdio.h>
 *   #include "topology.h"
 *
 *   int main(void)
 *   {
 *       int64_t extent[2] = {64, 256};      // X1 x X2; Z = 16384 below
 *       int64_t dep[2] = {1, 1};            // d1, d2
 *       int dims[2] = {0, 0};               // 0 = free, > 0 = fixed
 *       topo_report r;
 *       tilehybrid_status st;               // which argument, if one is bad
 *       int rc = topo_grid_ex(2, 16, extent, dep, TOPO_POLICY_COMM, dims, &st);
 *       if (rc != TOPO_OK) {
 *           fprintf(stderr, "topo_grid: %s: %s\n", st.arg, topo_strerror(rc));
 *           return 1;
 *       }
 *       rc = topo_report_grid(2, dims, extent, 16384, dep, &r);
 *       if (rc == TOPO_OK)                  // prints: grid 2x8, volume 1048576
 *           printf("grid %dx%d, volume %lld\n", dims[0], dims[1],
 *                  (long long)r.volume);
 *       return rc != TOPO_OK;
 *   }
 *
 *   With MPI (collective; every rank passes the same arguments, and learns
 *   with the same code when one does not):
 *       MPI_Comm cart;
 *       int pdims[2];
 *       rc = topo_cart_create(MPI_COMM_WORLD, 2, extent, dep,
 *                             TOPO_POLICY_COMM, NULL, 1, &cart, pdims);
 *
 *   A diagonal stencil and the time policy (a fragment, same includes):
 *       static const int vec[3][3] = {{-1, -1, 0}, {-1, 0, 0}, {0, -1, 0}};
 *       topo_nest nest;
 *       int g[2] = {0, 0};
 *       topo_nest_init(&nest, 2, extent, 16384, NULL, &st);
 *       topo_nest_stencil(&nest, 3, &vec[0][0], 3, NULL, &st); // ext[1][0] = 1
 *       nest.tile_height = 64;            // and tcomp, tstartup, bandwidth
 *       rc = topo_nest_grid(&nest, 16, TOPO_POLICY_TIME, g, &st);
 *       rc = topo_nest_report(&nest, g, &r, &st);   // r.seconds predicted
 *
 * API (each function is documented where it is defined)
 *   int  topo_grid(n, procs, extent, dep, policy, dims)
 *   int  topo_dims_create(procs, n, dims, status)      MPI_Dims_create twin
 *   int  topo_hybrid_grid(n, procs, threads, extent, dep, policy, dims,
 *                         tdims)
 *   int  topo_report_grid(n, dims, extent, zlen, dep, report)
 *   void topo_block(extent, parts, index, &start, &len)
 *   int  topo_cart_create(comm, n, extent, dep, policy, fixed, reorder,
 *                         &cart, dims)
 *   const char *topo_strerror(code)
 *   topo_grid_ex, topo_hybrid_grid_ex, topo_report_grid_ex and
 *   topo_cart_create_ex take one more argument, tilehybrid_status *status.
 *   Loop nests (struct topo_nest; each takes a tilehybrid_status *status):
 *   int  topo_nest_init(&nest, n, extent, zlen, dep, status)
 *   int  topo_nest_stencil(&nest, nvec, vec, stride, dir, status)
 *   int  topo_nest_grid(&nest, procs, policy, dims, status)   any policy
 *   int  topo_nest_report(&nest, dims, &report, status)      + steps, seconds
 *   int  topo_nest_explain(&nest, procs, policy, dims, buf, size, status)
 *        why no grid fits, in words: the rule, the dimensions, the numbers
 *   int  topo_nest_cart_create(comm, &nest, policy, fixed, reorder, &cart,
 *                              dims, status)
 *   TOPO_POLICY_TIME is for the topo_nest_* functions only (the others have
 *   no cost model and return TOPO_ERR_POLICY).
 *
 * ERRORS (the convention of every tilehybrid header)
 *   A function that can fail returns TOPO_OK (0) or a positive TOPO_ERR_*
 *   code and leaves its outputs unchanged; topo_strerror() says what was
 *   wrong and never returns NULL.  The *_ex, topo_nest_* functions and
 *   topo_dims_create also fill an optional tilehybrid_status (NULL allowed)
 *   that names the argument, the dimension and, for the *_cart_create
 *   functions, the rank.
 *   Nothing prints or aborts on bad input; there is no global state, so
 *   every function is thread-safe.  The *_cart_create functions return the
 *   same code on every rank, except when one of their MPI calls fails on
 *   one rank only: that cannot be agreed on (the others would wait for it
 *   forever), so that rank reports the call, its rank and MPI's error text
 *   on stderr (or to the hook of tilehybrid_mpi_failure_swap()) and ends
 *   the job with MPI_Abort (tilehybrid_mpi_failed(); see
 *   topo_cart_create_ex()).
 *
 * OPTIONS (#define before including)
 *   TILEHYBRID_NO_MPI   leave out topo_cart_create*() and <mpi.h>.
 *   TILEHYBRID_MALLOC(size), TILEHYBRID_FREE(ptr)
 *                       replace malloc/free (tilehybrid.h).  The search for
 *                       N >= 3 free dimensions allocates one workspace (up to
 *                       about 1 MB for P near 2^31 with N = 16, under 64 KB
 *                       for N = 4 and P <= 2^20; the time policy a second
 *                       one, two thirds of that) and frees it before
 *                       returning; if the allocation fails it searches
 *                       without it: the same answer, more slowly.
 *   TILEHYBRID_SEPARATE, TILEHYBRID_IMPLEMENTATION
 *                       compile the searches and the reports (all but
 *                       topo_block) once per program, in the file
 *                       that defines TILEHYBRID_IMPLEMENTATION (tilehybrid.h,
 *                       "COMPILING THE COLD CODE ONCE").
 *
 * LIMITS
 *   1 <= N <= TOPO_MAX_DIMS, 1 <= P <= 2^31-1, X_i >= 1 (up to 2^63-1),
 *   d_i >= 0.  Volumes are computed with overflow checks; topo_grid() fails
 *   with TOPO_ERR_OVERFLOW only when the optimal V itself exceeds 2^63-1.
 *   Times are doubles.  The time policy's search takes under 1 ms for
 *   N <= 8 and P <= 2^20 in the cases tested, 0.1 s for N = 4 and the most
 *   composite P below 2^31, and seconds (up to about 30 s on a loaded
 *   machine) for N = 8 to 16 with such a P.
 *
 * VERSION
 *   0.2.0  tilehybrid.h's error convention: tilehybrid_status replaces
 *          topo_status (its index is int64_t; it adds rank), the
 *          TILEHYBRID_MALLOC/FREE hooks replace TOPO_MALLOC/FREE,
 *          topo_cart_create_ex agrees through tilehybrid_agree() (every
 *          rank learns the failing rank's code, argument, index and rank,
 *          not "another rank"), and an overflow in topo_report_grid_ex
 *          names "volume", "total_volume" or "dims".  Loop nests: struct
 *          topo_nest and topo_nest_init, topo_nest_stencil, topo_nest_grid,
 *          topo_nest_report, topo_nest_cart_create -- extended faces of
 *          diagonal stencils in every volume (tiling.h's bytes), grids that
 *          tiling.h runs, and TOPO_POLICY_TIME, the least predicted
 *          pipeline time; struct topo_report gains steps and seconds; codes
 *          TOPO_ERR_STENCIL and TOPO_ERR_COST.  The functions without a
 *          nest answer as before (TOPO_POLICY_TIME: TOPO_ERR_POLICY).
 *          TOPO_ERR_INFEASIBLE names the rule: status->arg "extent" (P_i >
 *          X_i) or "dep" (P_i > floor(X_i / d_i), blocks narrower than the
 *          layers a neighbour reads) with the dimension where one free
 *          dimension breaks it, "procs" where several do (it was "procs"
 *          whatever the cause); topo_nest_explain() says why in words.
 *   0.1.0  first release.
 */
/* Generated by make from the parts in src/topology/ (tools/join.sh): edit them, not this file. */

/* ==== src/topology/01-types.h ==== */
#line 1 "src/topology/01-types.h"
#ifndef TILEHYBRID_TOPOLOGY_H
#define TILEHYBRID_TOPOLOGY_H

#include "tilehybrid.h"
#if TILEHYBRID__MODE != defined(TILEHYBRID_SEPARATE) + defined(TILEHYBRID_IMPLEMENTATION)
#error "topology.h: TILEHYBRID_SEPARATE or TILEHYBRID_IMPLEMENTATION changed after the first tilehybrid header was included: define them before it"
#endif

#include <float.h>

#if defined(TOPO_MALLOC) || defined(TOPO_FREE)
#error "topology.h: TOPO_MALLOC/TOPO_FREE are gone (0.2.0): define TILEHYBRID_MALLOC and TILEHYBRID_FREE"
#endif

#define TOPO_VERSION TILEHYBRID_VERSION

#ifdef __cplusplus
extern "C" {
#endif

/** Largest number of grid dimensions N. */
#define TOPO_MAX_DIMS 16

/** Error codes: every function returns TOPO_OK or one of these. */
enum topo_error {
    TOPO_OK = 0,
    TOPO_ERR_NULL,       /* a required pointer is NULL */
    TOPO_ERR_NDIMS,      /* n outside 1..TOPO_MAX_DIMS */
    TOPO_ERR_PROCS,      /* process count outside 1..INT_MAX */
    TOPO_ERR_EXTENT,     /* an extent X_i (or Z) below 1 */
    TOPO_ERR_DEP,        /* a dependence width d_i below 0 */
    TOPO_ERR_FIXED,      /* a fixed/given grid entry is negative, exceeds its
                            extent, or the fixed entries do not divide P */
    TOPO_ERR_INFEASIBLE, /* no factorisation of P with P_i <= X_i for all i
                            (a loop nest's grids: also P_i <= floor(X_i /
                            d_i) where d_i > 1); status->arg names the rule
                            one dimension breaks ("extent" or "dep", index
                            i), or "procs" (several); topo_nest_explain() */
    TOPO_ERR_OVERFLOW,   /* a volume does not fit in int64_t */
    TOPO_ERR_THREADS,    /* thread count outside 1..INT_MAX */
    TOPO_ERR_MISMATCH,   /* MPI ranks passed different arguments */
    TOPO_ERR_MPI,        /* an MPI call returned an error */
    TOPO_ERR_POLICY,     /* unknown topo_policy value, or TOPO_POLICY_TIME
                            given to a function without a cost model */
    TOPO_ERR_STENCIL,    /* a stencil vector reads a later point or the
                            point itself, a direction is not +1/-1, or a
                            face extension ext[i][j] is out of range */
    TOPO_ERR_COST        /* a value of the pipeline's cost model (tile
                            height, elem_bytes, tcomp, tstartup,
                            bandwidth) is out of range, or makes the
                            predicted time overflow a double */
};

/** Which grid to choose. */
typedef enum topo_policy {
    TOPO_POLICY_COMM = 0,    /* minimal communication volume V (exact) */
    TOPO_POLICY_LATENCY = 1, /* balanced grid of MPI_Dims_create */
    TOPO_POLICY_TIME = 2     /* minimal predicted pipeline time (exact);
                                only the topo_nest_* functions */
} topo_policy;

/* The cost model topo_nest_init() starts from: the papers' cluster
 * (journal Sec. 6.2: t_comp(1) = 288 ns per point, t_startup = 107 us,
 * B_sustained = 10 MB/s), doubles, and the demos' tile height. */
#define TOPO_DEFAULT_TILE_HEIGHT 100
#define TOPO_DEFAULT_ELEM_BYTES 8.0
#define TOPO_DEFAULT_TCOMP 288e-9
#define TOPO_DEFAULT_TSTARTUP 107e-6
#define TOPO_DEFAULT_BANDWIDTH 10e6

/**
 * struct topo_nest - a loop nest as the models see it: the space, the
 * dependences (with extended faces) and the pipeline's cost model.  Fill
 * it with topo_nest_init() (and topo_nest_stencil() for a stencil), then
 * change any field; the topo_nest_* functions check every value.
 * @n:           N, the distributed dimensions, 1..TOPO_MAX_DIMS.
 * @extent:      X_1..X_N (>= 1).
 * @zlen:        Z (>= 1), the pipelined extent.
 * @dep:         d_1..d_N (>= 0): the face sent along i is d_i layers deep.
 * @ext:         ext[i][j] for j < i, 0..dep[j]: the face sent along i also
 *               covers ext[i][j] ghost layers below the block along j, so
 *               that a diagonal value travels through the neighbour that
 *               shares it (extended faces, tiling.h's plan.deps.ext).
 *               Entries with j >= i must be 0.  All 0: the papers' model.
 * @tile_height: z (>= 1; a z above Z counts as Z).
 * @elem_bytes:  bytes per element (finite, > 0).
 * @tcomp:       seconds per point update (finite, > 0).
 * @tstartup:    seconds per message (finite, >= 0).
 * @bandwidth:   bytes per second (finite, > 0).
 */
typedef struct topo_nest {
    int n;
    int64_t extent[TOPO_MAX_DIMS];
    int64_t zlen;
    int64_t dep[TOPO_MAX_DIMS];
    int64_t ext[TOPO_MAX_DIMS][TOPO_MAX_DIMS];
    int64_t tile_height;
    double elem_bytes, tcomp, tstartup, bandwidth;
} topo_nest;

/**
 * struct topo_report - everything the volume model says about one grid
 * (all volumes in elements).
 * @n:            the number of dimensions;
 * @dims:         the grid (entries past n are 0);
 * @volume:       V * Z of a non-boundary process, every dimension counted;
 * @volume_sent:  what process (0,...,0), the largest block, really sends:
 *                like volume but only over dimensions with P_i > 1;
 * @total_volume: sum over all processes, Z * sum_i d_i (P_i - 1)
 *                prod_{j != i} X_j;
 * @fill_steps:   pipeline fill, sum_i (P_i - 1) tile steps before the last
 *                process starts;
 * @messages:     messages per tile of a non-boundary process (number of
 *                dimensions with P_i > 1);
 * @procs:        product of the dims;
 * @feasible:     1 if P_i <= X_i for every i (no empty blocks), else 0;
 * @bad_index:    the first i with P_i > X_i, or -1;
 * @steps:        topo_nest_report() only (else 0): the pipeline's tile
 *                steps, ceil(Z/z) + sum over i with d_i > 0 of (P_i - 1);
 * @seconds:      topo_nest_report() only (else 0): the pipeline model's
 *                predicted time, steps * (z t_comp prod_j c_j + m t_startup
 *                + z elem_bytes S / bandwidth), m and S the messages and
 *                the elements per plane process 0 sends per tile (the
 *                dimensions with P_i > 1 and d_i > 0).
 *
 * With extended faces (topo_nest) every volume counts the face along i as
 * d_i prod_{j<i} (c_j + ext[i][j]) prod_{j>i} c_j elements per plane.
 */
typedef struct topo_report {
    int n;
    int dims[TOPO_MAX_DIMS];
    int64_t volume, volume_sent, total_volume, fill_steps;
    int messages;
    int64_t procs;
    int feasible;
    int bad_index;
    int64_t steps;
    double seconds;
} topo_report;

/* ==== src/topology/10-helpers.h ==== */
#line 1 "src/topology/10-helpers.h"
/* ------------------------------------------------------------------------ */
/* Private helpers (names topo__*).                                         */

/* Number of divisors of any n <= 2^31-1 is at most 1600 (2095133040). */
#define TOPO__MAX_DIVS 1600

/* The search's own arithmetic, a different thing from tilehybrid_mul_ok():
 * it never fails but saturates -- any value above INT64_MAX becomes
 * TOPO__SAT, which then stays TOPO__SAT (times zero is zero) -- so that the
 * lower bounds of a subtree and the volumes of grids that overflow can
 * still be compared: a saturated bound is still a bound, and a saturated
 * volume loses to every volume that fits. */
#define TOPO__SAT UINT64_MAX
#define TOPO__CAP ((uint64_t)INT64_MAX)

#if TILEHYBRID__DEFINE
TILEHYBRID__COLD uint64_t topo__mul(uint64_t a, uint64_t b)
{
    if ((a | b) < ((uint64_t)1 << 31))
        return a * b; /* the common case: no division needed */
    if (a == 0 || b == 0)
        return 0;
    if (a > TOPO__CAP || b > TOPO__CAP || a > TOPO__CAP / b)
        return TOPO__SAT;
    return a * b;
}

TILEHYBRID__COLD uint64_t topo__add(uint64_t a, uint64_t b)
{
    if (a > TOPO__CAP || b > TOPO__CAP || a > TOPO__CAP - b)
        return TOPO__SAT;
    return a + b;
}

/* ceil(x / p) for x >= 0, p >= 1, without overflow. */
TILEHYBRID__COLD int64_t topo__ceildiv(int64_t x, int64_t p)
{
    return x / p + (x % p != 0);
}
#else
TILEHYBRID__COLD uint64_t topo__mul(uint64_t a, uint64_t b);
TILEHYBRID__COLD uint64_t topo__add(uint64_t a, uint64_t b);
TILEHYBRID__COLD int64_t topo__ceildiv(int64_t x, int64_t p);
#endif

/* The divisors of r (1 <= r <= INT_MAX), two ways: sorted[] in increasing
 * order, and val[] by mixed-radix index (index = sum_i e_i * stride[i] for
 * the divisor prod_i prime[i]^e_i), so that the index of q / p is
 * index(q) - index(p).  sidx[i] is the mixed-radix index of sorted[i]. */
typedef struct topo__divs {
    int count, np;
    int32_t prime[10]; /* 2*3*5*...*29 > 2^31: at most 9 distinct primes */
    int expo[10], stride[10];
    int32_t sorted[TOPO__MAX_DIVS];
    int32_t val[TOPO__MAX_DIVS];
    int16_t sidx[TOPO__MAX_DIVS];
} topo__divs;

#if TILEHYBRID__DEFINE
TILEHYBRID__COLD void topo__divisors(int64_t r, topo__divs *dv)
{
    int64_t m = r, p;
    int i, j, gi;
    static const int gaps[7] = {301, 132, 57, 23, 10, 4, 1}; /* Ciura */
    dv->np = 0;
    for (p = 2; p * p <= m; p += (p == 2) ? 1 : 2) {
        if (m % p == 0) {
            dv->prime[dv->np] = (int32_t)p;
            dv->expo[dv->np] = 0;
            while (m % p == 0) {
                m /= p;
                dv->expo[dv->np]++;
            }
            dv->np++;
        }
    }
    if (m > 1) {
        dv->prime[dv->np] = (int32_t)m;
        dv->expo[dv->np++] = 1;
    }
    dv->count = 1;
    for (i = 0; i < dv->np; i++) {
        dv->stride[i] = dv->count;
        dv->count *= dv->expo[i] + 1;
    }
    /* val[] by index: val[idx + e*stride] = val[idx] * prime^e */
    dv->val[0] = 1;
    for (i = 0; i < dv->np; i++)
        for (j = dv->stride[i]; j < dv->stride[i] * (dv->expo[i] + 1); j++)
            dv->val[j] = dv->val[j - dv->stride[i]] * dv->prime[i];
    for (i = 0; i < dv->count; i++) {
        dv->sorted[i] = dv->val[i];
        dv->sidx[i] = (int16_t)i;
    }
    for (gi = 0; gi < 7; gi++) { /* Shell sort, count <= 1600 */
        int gap = gaps[gi];
        for (i = gap; i < dv->count; i++) {
            int32_t v = dv->sorted[i];
            int16_t x = dv->sidx[i];
            for (j = i; j >= gap && dv->sorted[j - gap] > v; j -= gap) {
                dv->sorted[j] = dv->sorted[j - gap];
                dv->sidx[j] = dv->sidx[j - gap];
            }
            dv->sorted[j] = v;
            dv->sidx[j] = x;
        }
    }
}

/* The loop nest's sizes, in the documented order: extent[i] >= 1, zlen
 * >= 1 (when given; its index is n), dep[i] >= 0.  The step every argument
 * check of this header ends with. */
TILEHYBRID__COLD int topo__check_space(int n, const int64_t *extent, const int64_t *zlen,
                                       const int64_t *dep, tilehybrid_status *st)
{
    int i;
    for (i = 0; i < n; i++)
        if (extent[i] < 1)
            return tilehybrid_status_set(st, TOPO_ERR_EXTENT, "extent", i);
    if (zlen != NULL && *zlen < 1)
        return tilehybrid_status_set(st, TOPO_ERR_EXTENT, "zlen", n);
    for (i = 0; i < n; i++)
        if (dep[i] < 0)
            return tilehybrid_status_set(st, TOPO_ERR_DEP, "dep", i);
    return TOPO_OK;
}

/* The first checks of a space: extent (and, where need_dep, dep) not
 * NULL, then n. */
TILEHYBRID__COLD int topo__check_shape(int n, const int64_t *extent, const int64_t *dep,
                                       int need_dep, tilehybrid_status *st)
{
    if (extent == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "extent", -1);
    if (need_dep && dep == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "dep", -1);
    if (n < 1 || n > TOPO_MAX_DIMS)
        return tilehybrid_status_set(st, TOPO_ERR_NDIMS, "n", -1);
    return TOPO_OK;
}

/* The number of processes (1..INT_MAX) and the policy (with_time: the
 * nest's TOPO_POLICY_TIME too). */
TILEHYBRID__COLD int topo__check_run(int64_t procs, topo_policy policy, int with_time,
                                     tilehybrid_status *st)
{
    if (procs < 1 || procs > INT_MAX)
        return tilehybrid_status_set(st, TOPO_ERR_PROCS, "procs", -1);
    if (policy != TOPO_POLICY_COMM && policy != TOPO_POLICY_LATENCY &&
        !(with_time && policy == TOPO_POLICY_TIME))
        return tilehybrid_status_set(st, TOPO_ERR_POLICY, "policy", -1);
    return TOPO_OK;
}

/* Argument checks shared by the grid searches. */
TILEHYBRID__COLD int topo__check_common(int n, int64_t procs,
                                        const int64_t *extent, const int64_t *dep,
                                        topo_policy policy, tilehybrid_status *st)
{
    int rc = topo__check_shape(n, extent, dep, 1, st);
    if (rc == TOPO_OK)
        rc = topo__check_run(procs, policy, 0, st);
    if (rc == TOPO_OK)
        rc = topo__check_space(n, extent, NULL, dep, st);
    return rc;
}

/* Fixed entries: each >= 0 and <= extent (when extent given), their
 * product divides procs; *rest = procs / product.  If every entry is fixed
 * the product must equal procs.  name is "dims" or "tdims". */
TILEHYBRID__COLD int topo__check_fixed(int n, int64_t procs, const int *dims,
                                       const int64_t *extent, int64_t *rest,
                                       const char *name, tilehybrid_status *st)
{
    int i, nfree = 0, last = -1;
    int64_t prod = 1;
    for (i = 0; i < n; i++) {
        if (dims[i] < 0)
            return tilehybrid_status_set(st, TOPO_ERR_FIXED, name, i);
        if (dims[i] == 0) {
            nfree++;
            continue;
        }
        if (extent != NULL && dims[i] > extent[i])
            return tilehybrid_status_set(st, TOPO_ERR_FIXED, name, i);
        last = i;
        if (dims[i] > procs / prod) /* product would exceed procs */
            return tilehybrid_status_set(st, TOPO_ERR_FIXED, name, i);
        prod *= dims[i];
    }
    if (procs % prod != 0 || (nfree == 0 && prod != procs))
        return tilehybrid_status_set(st, TOPO_ERR_FIXED, name, last);
    *rest = procs / prod;
    return TOPO_OK;
}

/* ---- latency-optimal (balanced) factorisation ------------------------- */

/* Smallest x >= 1 with x^r >= q (q >= 1, r >= 1). */
TILEHYBRID__COLD int64_t topo__root_ceil(int64_t q, int r)
{
    int64_t lo = 1, hi = q;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2, pw = 1;
        int k, big = 0;
        for (k = 0; k < r; k++) {
            if (pw > q / mid) {
                big = 1;
                break;
            }
            pw *= mid;
        }
        if (big || pw >= q)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* 1 if x^r <= q (x >= 1). */
TILEHYBRID__COLD int topo__pow_le(int64_t x, int r, int64_t q)
{
    int64_t pw = 1;
    int k;
    for (k = 0; k < r; k++) {
        if (pw > q / x)
            return 0;
        pw *= x;
    }
    return 1;
}
#else
TILEHYBRID__COLD void topo__divisors(int64_t r, topo__divs *dv);
TILEHYBRID__COLD int topo__check_space(int n, const int64_t *extent, const int64_t *zlen,
                                       const int64_t *dep, tilehybrid_status *st);
TILEHYBRID__COLD int topo__check_shape(int n, const int64_t *extent, const int64_t *dep,
                                       int need_dep, tilehybrid_status *st);
TILEHYBRID__COLD int topo__check_run(int64_t procs, topo_policy policy, int with_time,
                                     tilehybrid_status *st);
TILEHYBRID__COLD int topo__check_common(int n, int64_t procs,
                                        const int64_t *extent, const int64_t *dep,
                                        topo_policy policy, tilehybrid_status *st);
TILEHYBRID__COLD int topo__check_fixed(int n, int64_t procs, const int *dims,
                                       const int64_t *extent, int64_t *rest,
                                       const char *name, tilehybrid_status *st);
TILEHYBRID__COLD int64_t topo__root_ceil(int64_t q, int r);
TILEHYBRID__COLD int topo__pow_le(int64_t x, int r, int64_t q);
#endif

typedef struct topo__bal {
    int k;                       /* number of factors */
    const topo__divs *dv;        /* divisors of the product */
    int64_t cur[TOPO_MAX_DIMS];  /* non-decreasing */
    int64_t best[TOPO_MAX_DIMS];
    int64_t bestbal;             /* -1: none yet */
} topo__bal;

#if TILEHYBRID__DEFINE
/* Choose cur[t] (>= cur[t-1]) for the remaining product q.  Sequences are
 * visited in decreasing order of (cur[0], cur[1], ...), so the first one
 * found with the best balance max - min is also the one MPI_Dims_create
 * prefers: among equally balanced factorisations the largest smallest
 * factor, then the largest next one, and so on. */
TILEHYBRID__COLD void topo__bal_dfs(topo__bal *b, int t, int64_t q)
{
    int r = b->k - t, i, j;
    int64_t lo = t > 0 ? b->cur[t - 1] : 1;
    if (r == 1) {
        int64_t bal;
        if (q < lo)
            return;
        b->cur[t] = q;
        bal = q - b->cur[0];
        if (b->bestbal < 0 || bal < b->bestbal) {
            b->bestbal = bal;
            for (i = 0; i < b->k; i++)
                b->best[i] = b->cur[i];
        }
        return;
    }
    for (i = b->dv->count - 1; i >= 0; i--) {
        int64_t f = b->dv->sorted[i], q2, mx;
        if (f < lo)
            break;
        if (q % f != 0 || !topo__pow_le(f, r, q))
            continue;
        q2 = q / f;
        /* the largest factor is at least f, ceil(q2^(1/(r-1))) and the
         * largest prime dividing q2; later sequences with the same balance
         * lose the tie, so skip >= */
        mx = topo__root_ceil(q2, r - 1);
        if (mx < f)
            mx = f;
        for (j = b->dv->np - 1; j >= 0; j--)
            if (q2 % b->dv->prime[j] == 0) {
                if (mx < b->dv->prime[j])
                    mx = b->dv->prime[j];
                break;
            }
        if (b->bestbal >= 0 && mx - (t > 0 ? b->cur[0] : f) >= b->bestbal)
            continue;
        b->cur[t] = f;
        topo__bal_dfs(b, t + 1, q2);
    }
}

/* Fill the free (0) entries of dims with the balanced factorisation of
 * rest, in non-increasing order, as MPI_Dims_create does. */
TILEHYBRID__COLD void topo__balanced(int n, int64_t rest, int *dims)
{
    topo__divs dv;
    topo__bal b;
    int i, k = 0, j;
    for (i = 0; i < n; i++)
        k += dims[i] == 0;
    if (k == 0)
        return;
    topo__divisors(rest, &dv);
    b.k = k;
    b.dv = &dv;
    b.bestbal = -1;
    topo__bal_dfs(&b, 0, rest);
    for (i = 0, j = k - 1; i < n; i++)
        if (dims[i] == 0)
            dims[i] = (int)b.best[j--];
}
#else
TILEHYBRID__COLD void topo__bal_dfs(topo__bal *b, int t, int64_t q);
TILEHYBRID__COLD void topo__balanced(int n, int64_t rest, int *dims);
#endif

/* ---- communication-optimal search --------------------------------------
 *
 * WHAT IS SEARCHED.  Every grid: the free dimensions are assigned in index
 * order, each taking a divisor p <= X of the processes still to place, the
 * smallest p first (topo__comm_dfs), so grids come in lexicographic order.
 * A grid replaces the best one only with a strictly smaller V, so the first
 * grid of least V -- the one the tie rule wants -- is the answer.
 *
 * WHAT IS PRUNED.  At depth t the free dims 0..t-1 (and the fixed ones) are
 * assigned, with
 *   ca = prod_{assigned j} c_j,  sa = sum_{assigned i} d_i prod_{assigned
 *   j != i} c_j,
 * and the open dims t..k-1 must multiply to q.  If the open dims get
 *   cu = prod_{open j} c_j,  g = sum_{open i} d_i prod_{open j != i} c_j,
 * every grid of the subtree has V = sa * cu + ca * g.  topo__prune() skips
 * the subtree when a LOWER bound on that V
 *   - is >= the best V found so far: every grid of the subtree comes later
 *     in lexicographic order, so even a tie would lose; or
 *   - is > the V of the greedy seed grid (topo__greedy: a real grid, so the
 *     optimum is at most its V; only "greater", as the subtree may hold a
 *     grid of exactly that V); or
 *   - when no assignment of the open dims fits (P_j <= X_j).
 * The lower bounds:
 *  (1) tables: mincu[t][q] = min cu, ming[t][q] <= min g over every
 *      assignment of the open dims with product q and P_j <= X_j (0 in
 *      mincu marks "no assignment fits"), by dynamic programming over the
 *      divisors (topo__tables); V >= sa*mincu + ca*ming.
 *  (2) continuous: cu >= W = prod X_j / q, and by the AM-GM inequality over
 *      the u open dims with d_i > 0 (product D), g >= u (D W^(u-1))^(1/u);
 *      tested in double with a relative margin of 1e-9, far above the
 *      rounding error, so rounding can only keep a subtree, never drop one.
 *
 * WHY THE RESULT IS STILL EXACT.  A subtree is dropped only when every grid
 * in it is provably no better than a grid already known, and the saturating
 * arithmetic keeps every bound a bound; so the search returns the grid full
 * enumeration returns (tests/unit_topology.c compares the two on 23,000
 * random cases, with and without the tables).
 *
 * EXTENDED FACES (xf != NULL).  Extending a face only adds elements, so the
 * volume without extensions is a lower bound of the volume with them: the
 * bounds above stay bounds, and only a leaf whose plain V could still win
 * is evaluated exactly (topo__volume with xf). */
typedef struct topo__comm {
    int n, k;
    int fidx[TOPO_MAX_DIMS];          /* free dimensions, increasing */
    const int64_t *ext, *dep;
    const int64_t *lim;                  /* the largest P_i (ext, or the
                                            engine's X_i / d_i) */
    const int64_t (*xf)[TOPO_MAX_DIMS];  /* extended faces, or NULL */
    const topo__divs *dv;
    /* Workspace (one allocation, NULL if there is none; k >= 3 only),
     * rows indexed [t * count + mixed index]:
     *   cdiv:  ceil(X_{f_t} / p) for the divisor p, 0 if p > X_{f_t};
     *   mincu, ming: the tables of bound (1), rows t >= 1;
     *   off, lst: the divisors of q (mixed index qi), increasing, are
     *         sorted[lst[off[qi]]] .. sorted[lst[off[qi + 1] - 1]]. */
    uint64_t *cdiv, *mincu, *ming;
    int32_t *off;
    int16_t *lst;
    int64_t sufx[TOPO_MAX_DIMS + 1];  /* saturated product of lim over
                                         free dims t..k-1 */
    double sufxd[TOPO_MAX_DIMS + 1];  /* the same in double */
    double sufd[TOPO_MAX_DIMS + 1];   /* product of positive dep, t..k-1 */
    int sufu[TOPO_MAX_DIMS + 1];      /* number of positive dep, t..k-1 */
    int cur[TOPO_MAX_DIMS];
    int best[TOPO_MAX_DIMS];
    int have;                         /* a grid found by the search */
    uint64_t bestv;
    int have_seed;                    /* upper bound from the greedy seed */
    uint64_t seedv;
} topo__comm;

#if TILEHYBRID__DEFINE
/* Number of divisors of the divisor with mixed index qi. */
TILEHYBRID__COLD int topo__ndiv(const topo__divs *dv, int qi)
{
    int i, c = 1;
    for (i = 0; i < dv->np; i++)
        c *= (qi / dv->stride[i]) % (dv->expo[i] + 1) + 1;
    return c;
}

/* Fill off[] and lst[]: for every divisor q, its divisors in increasing
 * order (positions in sorted[]).  Walks p upwards and appends p to the list
 * of every multiple q = p * m, m | r / p. */
TILEHYBRID__COLD void topo__lists(topo__comm *s)
{
    const topo__divs *dv = s->dv;
    int cnt = dv->count, qi, pos, i, start = 0;
    /* off[qi + 1] starts at the beginning of q's list and is the fill
     * cursor; when all is filled it is the end of q's list */
    s->off[0] = 0;
    for (qi = 0; qi < cnt; qi++) {
        s->off[qi + 1] = start;
        start += topo__ndiv(dv, qi);
    }
    for (pos = 0; pos < cnt; pos++) {
        int pidx = dv->sidx[pos], room[10], f[10], midx = 0;
        for (i = 0; i < dv->np; i++) {
            room[i] = dv->expo[i] - (pidx / dv->stride[i]) % (dv->expo[i] + 1);
            f[i] = 0;
        }
        for (;;) { /* every m (index midx) dividing r / p */
            int q = pidx + midx;
            s->lst[s->off[q + 1]++] = (int16_t)pos;
            for (i = 0; i < dv->np; i++) {
                if (f[i] < room[i]) {
                    f[i]++;
                    midx += dv->stride[i];
                    break;
                }
                midx -= f[i] * dv->stride[i];
                f[i] = 0;
            }
            if (i == dv->np)
                break;
        }
    }
}

/* Fill cdiv, then the tables of bound (1) for depths k-1 down to 1:
 *   mincu[t][q] = min over p | q, p <= X of c(p) * mincu[t+1][q/p],
 *   ming[t][q]  = min over p of c(p) * ming[t+1][q/p] + d * mincu[t+1][q/p]
 * (a lower bound: the two minima may come from different p). */
TILEHYBRID__COLD void topo__tables(topo__comm *s)
{
    const topo__divs *dv = s->dv;
    int t, qi, j, cnt = dv->count;
    for (t = 0; t < s->k; t++) {
        int64_t x = s->ext[s->fidx[t]], lim = s->lim[s->fidx[t]];
        for (qi = 0; qi < cnt; qi++)
            s->cdiv[(size_t)t * cnt + qi] =
                dv->val[qi] <= lim ? (uint64_t)topo__ceildiv(x, dv->val[qi])
                                   : 0;
    }
    for (t = s->k - 1; t >= 1; t--) {
        uint64_t d = (uint64_t)s->dep[s->fidx[t]];
        const uint64_t *c = s->cdiv + (size_t)t * cnt;
        uint64_t *cu = s->mincu + (size_t)t * cnt;
        uint64_t *g = s->ming + (size_t)t * cnt;
        const uint64_t *cu1 = cu + cnt, *g1 = g + cnt;
        for (qi = 0; qi < cnt; qi++) {
            uint64_t bcu = 0, bg = 0; /* bcu 0: nothing fits */
            int found = 0;
            if (t == s->k - 1) {
                cu[qi] = c[qi];
                g[qi] = c[qi] != 0 ? d : 0;
                continue;
            }
            for (j = s->off[qi]; j < s->off[qi + 1]; j++) {
                int pidx = dv->sidx[s->lst[j]], q2 = qi - pidx;
                uint64_t vcu, vg;
                if (c[pidx] == 0)
                    break; /* p > X, and so are the larger ones */
                if (cu1[q2] == 0)
                    continue;
                vcu = topo__mul(c[pidx], cu1[q2]);
                vg = topo__add(topo__mul(c[pidx], g1[q2]),
                               topo__mul(d, cu1[q2]));
                if (!found || vcu < bcu)
                    bcu = vcu;
                if (!found || vg < bg)
                    bg = vg;
                found = 1;
            }
            cu[qi] = bcu;
            g[qi] = bg;
        }
    }
}

/* 1 if the subtree at depth t (open dims t..k-1, product q with mixed
 * index qi) can be skipped: it holds no grid (tables), or its lower bound
 * is >= the best grid found so far (all its grids come later in
 * lexicographic order, so a tie loses), or > the greedy seed's volume. */
TILEHYBRID__COLD int topo__prune(const topo__comm *s, int t, int64_t q, int qi,
                                 uint64_t ca, uint64_t sa)
{
    const double margin = 1.0 + 1e-9;
    double w, first, thr, rem, y, lhs, rhs;
    int u = s->sufu[t], i, pass;
    if (s->mincu != NULL) {
        uint64_t cu = s->mincu[(size_t)t * s->dv->count + qi], lb;
        if (cu == 0)
            return 1;
        lb = topo__add(topo__mul(sa, cu),
                       topo__mul(ca, s->ming[(size_t)t * s->dv->count + qi]));
        if ((s->have && lb >= s->bestv) || (s->have_seed && lb > s->seedv))
            return 1;
    } else if (s->sufx[t] < q) {
        return 1; /* the rest cannot fit in the open extents */
    }
    /* bound (2) in double; the relative margin 1e-9 is far above the
     * rounding error, so only subtrees that surely lose are skipped.
     * Tested without roots: ca*u*(D W^(u-1))^(1/u) >= rem iff
     * D W^(u-1) >= (rem / (ca u))^u. */
    w = s->sufxd[t] / (double)q;
    if (w < 1.0)
        w = 1.0;
    first = w * (double)sa;
    for (pass = 0; pass < 2; pass++) {
        int strict = pass == 1;
        if (!(strict ? s->have_seed : s->have))
            continue;
        thr = (double)(strict ? s->seedv : s->bestv) * margin;
        if (strict ? first > thr : first >= thr)
            return 1;
        if (u == 0)
            continue;
        rem = thr - first;
        y = rem / ((double)ca * (double)u);
        lhs = s->sufd[t];
        for (i = 1; i < u; i++)
            lhs *= w;
        rhs = 1.0;
        for (i = 0; i < u; i++)
            rhs *= y;
        if (strict ? lhs > rhs : lhs >= rhs)
            return 1;
    }
    return 0;
}

/* Elements per Z-plane of the face a block of the grid's largest blocks
 * sends along i: d_i prod_{j<i} (c_j + xf[i][j]) prod_{j>i} c_j
 * (saturated; xf NULL: no extension). */
TILEHYBRID__COLD uint64_t topo__face(int n, const int *dims, const int64_t *ext,
                                     const int64_t *dep,
                                     const int64_t (*xf)[TOPO_MAX_DIMS], int i)
{
    uint64_t t = (uint64_t)dep[i];
    int j;
    for (j = 0; j < n; j++) {
        uint64_t c = (uint64_t)topo__ceildiv(ext[j], dims[j]);
        if (j == i)
            continue;
        if (j < i && xf != NULL)
            c = topo__add(c, (uint64_t)xf[i][j]);
        t = topo__mul(t, c);
    }
    return t;
}

/* Saturated model volume per Z-plane: sum_i d_i prod_{j != i} c_j, each
 * face extended by xf (NULL: none). */
TILEHYBRID__COLD uint64_t topo__volume(int n, const int *dims,
                                       const int64_t *ext, const int64_t *dep,
                                       const int64_t (*xf)[TOPO_MAX_DIMS])
{
    uint64_t ca = 1, sa = 0;
    int i;
    if (xf != NULL) {
        for (i = 0; i < n; i++)
            sa = topo__add(sa, topo__face(n, dims, ext, dep, xf, i));
        return sa;
    }
    for (i = 0; i < n; i++) {
        uint64_t c = (uint64_t)topo__ceildiv(ext[i], dims[i]);
        sa = topo__add(topo__mul(sa, c), topo__mul((uint64_t)dep[i], ca));
        ca = topo__mul(ca, c);
    }
    return sa;
}

/* Leaf: the last free dimension takes the remaining product q. */
TILEHYBRID__COLD void topo__comm_leaf(topo__comm *s, int dim, int64_t q,
                                      int qi, uint64_t ca, uint64_t sa)
{
    uint64_t c, v;
    int j;
    if (s->cdiv != NULL) {
        c = s->cdiv[(size_t)(s->k - 1) * s->dv->count + qi];
        if (c == 0)
            return;
    } else {
        if (q > s->lim[dim])
            return;
        c = (uint64_t)topo__ceildiv(s->ext[dim], q);
    }
    v = topo__add(topo__mul(sa, c), topo__mul((uint64_t)s->dep[dim], ca));
    /* leaves come in lexicographic order: only a strictly smaller V wins
     * (and extended faces only add to v) */
    if (s->have && v >= s->bestv)
        return;
    s->cur[dim] = (int)q;
    if (s->xf != NULL)
        v = topo__volume(s->n, s->cur, s->ext, s->dep, s->xf);
    if (!s->have || v < s->bestv) {
        s->have = 1;
        s->bestv = v;
        for (j = 0; j < s->n; j++)
            s->best[j] = s->cur[j];
    }
}

/* Depth-first search over the free dimensions in index order, each taking
 * the divisors of the remaining product in increasing order, so grids are
 * visited in lexicographic order. */
TILEHYBRID__COLD void topo__comm_dfs(topo__comm *s, int t, int64_t q, int qi,
                                     uint64_t ca, uint64_t sa)
{
    int dim = s->fidx[t];
    int64_t x = s->ext[dim], lim = s->lim[dim];
    uint64_t d = (uint64_t)s->dep[dim];
    int last = t + 1 == s->k - 1; /* the children are leaves */
    /* with the workspace: only the divisors of q; without: every divisor
     * of r, skipping those that do not divide q */
    int j = s->off != NULL ? s->off[qi] : 0;
    int end = s->off != NULL ? s->off[qi + 1] : s->dv->count;
    for (; j < end; j++) {
        int pos = s->off != NULL ? s->lst[j] : j;
        int64_t p = s->dv->sorted[pos];
        int qi2 = qi - s->dv->sidx[pos];
        uint64_t c, ca2, sa2;
        if (s->cdiv != NULL) {
            c = s->cdiv[(size_t)t * s->dv->count + s->dv->sidx[pos]];
            if (c == 0)
                break; /* p > its limit, and so are the larger ones */
        } else {
            if (p > q || p > lim)
                break;
            /* p divides q iff the index difference is the index of q / p
             * (no borrow between the mixed-radix digits) */
            if (qi2 < 0 || (int64_t)s->dv->val[qi2] * p != q)
                continue;
            c = (uint64_t)topo__ceildiv(x, p);
        }
        ca2 = topo__mul(ca, c);
        sa2 = topo__add(topo__mul(sa, c), topo__mul(d, ca));
        s->cur[dim] = (int)p;
        if (last)
            topo__comm_leaf(s, s->fidx[t + 1], q / p, qi2, ca2, sa2);
        else if (!topo__prune(s, t + 1, q / p, qi2, ca2, sa2))
            topo__comm_dfs(s, t + 1, q / p, qi2, ca2, sa2);
    }
}

/* Greedy seed: hand out the prime factors of rest, largest first, each to
 * the free dimension (within its limit) where it raises V least.  Its
 * volume bounds the exact search from above; returns 0 if it gets stuck. */
TILEHYBRID__COLD int topo__greedy(int n, const topo__divs *dv, const int *fixed,
                                  const int64_t *ext, const int64_t *lim, const int64_t *dep,
                                  const int64_t (*xf)[TOPO_MAX_DIMS], uint64_t *vol)
{
    int g[TOPO_MAX_DIMS], i, j, e;
    for (i = 0; i < n; i++)
        g[i] = fixed[i] > 0 ? fixed[i] : 1;
    for (j = dv->np - 1; j >= 0; j--) {
        int64_t pr = dv->prime[j];
        for (e = 0; e < dv->expo[j]; e++) {
            int bi = -1;
            uint64_t bv = 0;
            for (i = 0; i < n; i++) {
                uint64_t v;
                if (fixed[i] > 0 || (int64_t)g[i] * pr > lim[i])
                    continue;
                g[i] = (int)(g[i] * pr);
                v = topo__volume(n, g, ext, dep, xf);
                g[i] = (int)(g[i] / pr);
                if (bi < 0 || v < bv) {
                    bi = i;
                    bv = v;
                }
            }
            if (bi < 0)
                return 0;
            g[bi] = (int)(g[bi] * pr);
        }
    }
    *vol = topo__volume(n, g, ext, dep, xf);
    return 1;
}

/* Step 1 of topo__comm_grid: the search state for the free (0) entries of
 * dims (P_i up to lim[i]); *ca and *sa get the fixed dimensions' part of
 * the volume. */
TILEHYBRID__COLD void topo__comm_init(topo__comm *s, int n, const int64_t *ext,
                                      const int64_t *lim, const int64_t *dep,
                                      const int64_t (*xf)[TOPO_MAX_DIMS],
                                      const int *dims, uint64_t *ca, uint64_t *sa)
{
    int i;
    s->n = n;
    s->k = 0;
    s->ext = ext;
    s->lim = lim;
    s->dep = dep;
    s->xf = xf;
    s->have = 0;
    s->bestv = 0;
    s->have_seed = 0;
    s->seedv = 0;
    s->cdiv = s->mincu = s->ming = NULL;
    s->off = NULL;
    s->lst = NULL;
    *ca = 1;
    *sa = 0;
    for (i = 0; i < n; i++) {
        s->cur[i] = dims[i];
        if (dims[i] == 0) {
            s->fidx[s->k++] = i;
        } else {
            uint64_t c = (uint64_t)topo__ceildiv(ext[i], dims[i]);
            *sa = topo__add(topo__mul(*sa, c), topo__mul((uint64_t)dep[i], *ca));
            *ca = topo__mul(*ca, c);
        }
    }
}

/* Step 2: the suffix products of the open extents and widths (bound (2))
 * and of the open limits (the "does the rest fit" test). */
TILEHYBRID__COLD void topo__comm_suffixes(topo__comm *s)
{
    int t;
    s->sufx[s->k] = 1;
    s->sufxd[s->k] = 1.0;
    s->sufd[s->k] = 1.0;
    s->sufu[s->k] = 0;
    for (t = s->k - 1; t >= 0; t--) {
        int dim = s->fidx[t];
        uint64_t px = topo__mul((uint64_t)s->sufx[t + 1], (uint64_t)s->lim[dim]);
        s->sufx[t] = px == TOPO__SAT ? INT64_MAX : (int64_t)px;
        s->sufxd[t] = s->sufxd[t + 1] * (double)s->ext[dim];
        s->sufd[t] = s->sufd[t + 1] * (s->dep[dim] > 0 ? (double)s->dep[dim] : 1.0);
        s->sufu[t] = s->sufu[t + 1] + (s->dep[dim] > 0);
    }
}

/* Step 3: for k >= 3 free dimensions, the workspace and the tables of
 * bound (1) in one block (cdiv, mincu, ming: k rows each; off; lst).
 * Without it (allocation failed) the search is the same, only slower. */
TILEHYBRID__COLD void topo__comm_workspace(topo__comm *s)
{
    const topo__divs *dv = s->dv;
    size_t cells = (size_t)s->k * (size_t)dv->count, pairs = 0;
    uint64_t *ws;
    int i;
    if (s->k < 3)
        return;
    for (i = 0; i < dv->count; i++)
        pairs += (size_t)topo__ndiv(dv, i);
    ws = (uint64_t *)TILEHYBRID_MALLOC(3 * cells * sizeof(uint64_t) +
                                       ((size_t)dv->count + 1) * sizeof(int32_t) +
                                       pairs * sizeof(int16_t));
    if (ws == NULL)
        return;
    s->cdiv = ws;
    s->mincu = ws + cells;
    s->ming = ws + 2 * cells;
    s->off = (int32_t *)(void *)(ws + 3 * cells);
    s->lst = (int16_t *)(void *)(s->off + dv->count + 1);
    topo__lists(s);
    topo__tables(s);
}

/* No grid fits: the rest processes have no factorisation over the free
 * (0) entries of dims with P_i <= lim[i].  One free dimension i names the
 * rule it breaks: "extent" when rest > X_i (a block would hold no point),
 * else "dep" (a block would hold fewer than the d_i layers its neighbour
 * reads); several free dimensions name "procs" (index -1). */
TILEHYBRID__COLD int topo__infeasible(int n, int64_t rest, const int *dims, const int64_t *ext,
                                      tilehybrid_status *st)
{
    int i, k = 0, at = -1;
    for (i = 0; i < n; i++)
        if (dims[i] == 0) {
            k++;
            at = i;
        }
    if (k != 1)
        return tilehybrid_status_set(st, TOPO_ERR_INFEASIBLE, "procs", -1);
    return tilehybrid_status_set(st, TOPO_ERR_INFEASIBLE, rest > ext[at] ? "extent" : "dep",
                                 at);
}

/* Fill the free entries of dims with the exact minimiser of V (the search
 * described above; P_i up to lim[i], NULL: up to X_i; faces extended by xf,
 * NULL: none): set up, seed, search, copy the best grid. */
TILEHYBRID__COLD int topo__comm_grid(int n, int64_t rest, const int64_t *ext,
                                     const int64_t *lim, const int64_t *dep,
                                     const int64_t (*xf)[TOPO_MAX_DIMS], int *dims,
                                     tilehybrid_status *st)
{
    topo__divs dv;
    topo__comm s;
    uint64_t ca, sa;
    int i;
    if (lim == NULL)
        lim = ext;
    topo__comm_init(&s, n, ext, lim, dep, xf, dims, &ca, &sa);
    if (s.k == 0) { /* everything fixed: nothing to choose */
        if (topo__volume(n, dims, ext, dep, xf) == TOPO__SAT)
            return tilehybrid_status_set(st, TOPO_ERR_OVERFLOW, "volume", -1);
        return TOPO_OK;
    }
    topo__comm_suffixes(&s);
    if (s.sufx[0] < rest)
        return topo__infeasible(n, rest, dims, ext, st);
    topo__divisors(rest, &dv);
    s.dv = &dv;
    /* a saturated seed volume is no usable bound: its true value is unknown */
    s.have_seed = topo__greedy(n, &dv, dims, ext, lim, dep, xf, &s.seedv) &&
                  s.seedv != TOPO__SAT;
    topo__comm_workspace(&s);
    if (s.k == 1)
        topo__comm_leaf(&s, s.fidx[0], rest, dv.count - 1, ca, sa);
    else
        topo__comm_dfs(&s, 0, rest, dv.count - 1, ca, sa);
    if (s.cdiv != NULL)
        TILEHYBRID_FREE(s.cdiv);
    if (!s.have)
        return topo__infeasible(n, rest, dims, ext, st);
    if (s.bestv == TOPO__SAT)
        return tilehybrid_status_set(st, TOPO_ERR_OVERFLOW, "volume", -1);
    for (i = 0; i < n; i++)
        dims[i] = s.best[i];
    return TOPO_OK;
}

/* The nest's extended faces, or NULL when every extension is 0 (the
 * searches then take their faster path). */
TILEHYBRID__COLD const int64_t (*topo__nest_xf(const topo_nest *nest))[TOPO_MAX_DIMS]
{
    int i, j;
    for (i = 0; i < nest->n; i++)
        for (j = 0; j < i; j++)
            if (nest->ext[i][j] != 0)
                return nest->ext;
    return NULL;
}

/* The largest P_i of a nest's grids: tiling.h refuses a block narrower
 * than d_i along a divided dimension (the ghost layers must come from one
 * neighbour), so P_i <= floor(X_i / d_i) when P_i > 1; X_i when d_i = 0. */
TILEHYBRID__COLD void topo__nest_lim(const topo_nest *nest, int64_t *lim)
{
    int i;
    for (i = 0; i < nest->n; i++) {
        lim[i] = nest->dep[i] > 1 ? nest->extent[i] / nest->dep[i] : nest->extent[i];
        if (lim[i] < 1)
            lim[i] = 1;
    }
}
#else
TILEHYBRID__COLD int topo__ndiv(const topo__divs *dv, int qi);
TILEHYBRID__COLD void topo__lists(topo__comm *s);
TILEHYBRID__COLD void topo__tables(topo__comm *s);
TILEHYBRID__COLD int topo__prune(const topo__comm *s, int t, int64_t q, int qi,
                                 uint64_t ca, uint64_t sa);
TILEHYBRID__COLD uint64_t topo__face(int n, const int *dims, const int64_t *ext,
                                     const int64_t *dep,
                                     const int64_t (*xf)[TOPO_MAX_DIMS], int i);
TILEHYBRID__COLD uint64_t topo__volume(int n, const int *dims,
                                       const int64_t *ext, const int64_t *dep,
                                       const int64_t (*xf)[TOPO_MAX_DIMS]);
TILEHYBRID__COLD void topo__comm_leaf(topo__comm *s, int dim, int64_t q,
                                      int qi, uint64_t ca, uint64_t sa);
TILEHYBRID__COLD void topo__comm_dfs(topo__comm *s, int t, int64_t q, int qi,
                                     uint64_t ca, uint64_t sa);
TILEHYBRID__COLD int topo__greedy(int n, const topo__divs *dv, const int *fixed,
                                  const int64_t *ext, const int64_t *lim, const int64_t *dep,
                                  const int64_t (*xf)[TOPO_MAX_DIMS], uint64_t *vol);
TILEHYBRID__COLD void topo__comm_init(topo__comm *s, int n, const int64_t *ext,
                                      const int64_t *lim, const int64_t *dep,
                                      const int64_t (*xf)[TOPO_MAX_DIMS],
                                      const int *dims, uint64_t *ca, uint64_t *sa);
TILEHYBRID__COLD void topo__comm_suffixes(topo__comm *s);
TILEHYBRID__COLD void topo__comm_workspace(topo__comm *s);
TILEHYBRID__COLD int topo__infeasible(int n, int64_t rest, const int *dims, const int64_t *ext,
                                      tilehybrid_status *st);
TILEHYBRID__COLD int topo__comm_grid(int n, int64_t rest, const int64_t *ext,
                                     const int64_t *lim, const int64_t *dep,
                                     const int64_t (*xf)[TOPO_MAX_DIMS], int *dims,
                                     tilehybrid_status *st);
TILEHYBRID__COLD const int64_t (*topo__nest_xf(const topo_nest *nest))[TOPO_MAX_DIMS];
TILEHYBRID__COLD void topo__nest_lim(const topo_nest *nest, int64_t *lim);
#endif

/* ---- the time policy ----------------------------------------------------
 *
 * WHAT IS MINIMISED.  The pipeline model of a grid (topo__time): every
 * process walks ceil(Z/h) tiles of h = min(z, Z) planes, the last one starts
 * F = sum over i with d_i > 0 of (P_i - 1) steps after the first, and a
 * step of the largest block costs its computation and its messages:
 *   T = (ceil(Z/h) + F) * (h t_comp prod_j c_j + m t_startup
 *                          + h elem_bytes S / bandwidth),
 * m the dimensions with P_i > 1 and d_i > 0 (one message each), S their
 * faces' elements per plane (extended faces included).  A dimension with
 * d_i = 0 sends nothing and waits for nothing.  T is computed in double by
 * one function, so equal inputs give equal times.
 *
 * WHAT IS SEARCHED.  Every grid, in lexicographic order, as for the volume
 * (topo__time_dfs: free dimensions in index order, divisors increasing); a
 * grid replaces the best one only with a strictly smaller T, so ties go to
 * the lexicographically smallest grid.  Two free dimensions i < j with the
 * same extent and width are interchangeable when no face is extended:
 * swapping P_i and P_j gives the same T, so the lexicographically smallest
 * optimum has P_i <= P_j, and only such grids are visited (otherwise a
 * symmetric space would have every permutation of its optimum searched).
 * Equal T here is equal computed T whenever the blocks and faces have
 * fewer than 2^53 points, where the arithmetic is exact.
 *
 * WHAT IS PRUNED.  A subtree whose lower bound, lowered by a relative
 * 1e-12 (far above the rounding error of a few dozen operations), is still
 * at least the best time found (its grids come later: a tie loses) or a
 * seed's (the volume-optimal and the balanced grids, real grids).  With ca, sa, m
 * and F of the assigned dimensions and q the product left for the open
 * ones, every grid of the subtree has prod c_j >= ca * cu, S >= sa * cu +
 * ca * gs (extensions only add) and F >= F_assigned + fo, where
 *  - with the workspace of the volume search (k >= 3): cu = the larger of
 *    mincu[t][q] (that search's table: the least product of the open
 *    ceilings, saturated at 2^63 - 1) and the quotient below, and
 *    two tables of its own by the same dynamic programming over the
 *    divisors, fo = minf[t][q] (the least fill of the open dimensions) and
 *    gs = mings[t][q] (a lower bound of the faces they send);
 *  - without it: cu = max(1, prod_{open} X_j / q) (a ceiling is at least
 *    the quotient, computed in double), gs = 0, and fo = u (floor(q^(1/u)) - 1) when all u
 *    open dimensions have d > 0 (AM-GM), else 0;
 * and m >= m_assigned + 1 when q > 1 and every open dimension has d > 0.
 * T grows with each of these, so the bound is a lower bound of T. */
typedef struct topo__tsearch {
    const topo_nest *nest;
    int64_t lim[TOPO_MAX_DIMS];       /* the largest P_i (topo__nest_lim) */
    topo__comm w;                     /* free dims, divisors, workspace */
    uint64_t *minf, *mings;           /* the time tables, or NULL */
    int have;                         /* a grid found by the search */
    double bestt;
    double seedt;                     /* a seed's time; < 0: none */
    int sufall[TOPO_MAX_DIMS + 1];    /* every open dim t..k-1 has d > 0 */
    int twin[TOPO_MAX_DIMS];          /* the previous free dim that is
                                         interchangeable with dim t, or -1 */
    double h, tiles;                  /* min(z, Z) and ceil(Z / h) */
} topo__tsearch;

#if TILEHYBRID__DEFINE
/* The pipeline model's time of grid dims (every entry >= 1); *steps gets
 * ceil(Z/h) + F (may be NULL), INT64_MAX where that passes it. */
TILEHYBRID__COLD double topo__time(const topo_nest *nest, const int *dims,
                                   int64_t *steps)
{
    int n = nest->n, i, j, m = 0;
    int64_t h = nest->tile_height < nest->zlen ? nest->tile_height : nest->zlen;
    int64_t st = topo__ceildiv(nest->zlen, h);
    double pts = 1.0, faces = 0.0;
    for (i = 0; i < n; i++)
        pts *= (double)topo__ceildiv(nest->extent[i], dims[i]);
    for (i = 0; i < n; i++) {
        double f = (double)nest->dep[i];
        if (nest->dep[i] == 0)
            continue;
        st = st <= INT64_MAX - (dims[i] - 1) ? st + (dims[i] - 1) : INT64_MAX;
        if (dims[i] == 1)
            continue;
        m++;
        for (j = 0; j < n; j++)
            if (j != i)
                f *= (double)topo__ceildiv(nest->extent[j], dims[j]) +
                     (j < i ? (double)nest->ext[i][j] : 0.0);
        faces += f;
    }
    if (steps != NULL)
        *steps = st;
    return (double)st * ((double)h * nest->tcomp * pts + (double)m * nest->tstartup +
                         (double)h * nest->elem_bytes * faces / nest->bandwidth);
}

/* A table entry as a double that is still a lower bound (a saturated
 * entry stands for more than 2^63 - 1). */
TILEHYBRID__COLD double topo__dbl(uint64_t v)
{
    return v >= TOPO__CAP ? (double)TOPO__CAP : (double)v;
}

/* The time tables for depths k-1 down to 1, from the volume search's
 * cdiv, mincu and lists:
 *   minf[t][q]  = min over p | q, p <= X of [d > 0] (p - 1) + minf[t+1][q/p],
 *   mings[t][q] = min over p of c(p) mings[t+1][q/p] + [p > 1] d mincu[t+1][q/p]
 * (the second a lower bound: its minima may come from different p). */
TILEHYBRID__COLD void topo__time_tables(topo__tsearch *s)
{
    const topo__comm *w = &s->w;
    const topo__divs *dv = w->dv;
    int cnt = dv->count, t, qi, j;
    size_t cells = (size_t)w->k * (size_t)cnt;
    if (w->mincu == NULL)
        return;
    s->minf = (uint64_t *)TILEHYBRID_MALLOC(2 * cells * sizeof(uint64_t));
    if (s->minf == NULL)
        return;
    s->mings = s->minf + cells;
    for (t = w->k - 1; t >= 1; t--) {
        uint64_t d = (uint64_t)w->dep[w->fidx[t]];
        const uint64_t *c = w->cdiv + (size_t)t * cnt, *cu1 = w->mincu + (size_t)(t + 1) * cnt;
        uint64_t *f = s->minf + (size_t)t * cnt, *g = s->mings + (size_t)t * cnt;
        for (qi = 0; qi < cnt; qi++) {
            uint64_t bf = 0, bg = 0, q = (uint64_t)dv->val[qi];
            int found = 0;
            if (t == w->k - 1) {
                f[qi] = c[qi] != 0 && d > 0 ? q - 1 : 0;
                g[qi] = c[qi] != 0 && q > 1 ? d : 0;
                continue;
            }
            for (j = w->off[qi]; j < w->off[qi + 1]; j++) {
                int pidx = dv->sidx[w->lst[j]], q2 = qi - pidx;
                uint64_t p = (uint64_t)dv->val[pidx], vf, vg;
                if (c[pidx] == 0)
                    break; /* p > X, and so are the larger ones */
                if (cu1[q2] == 0)
                    continue;
                vf = (d > 0 ? p - 1 : 0) + f[cnt + q2];
                vg = topo__add(topo__mul(c[pidx], g[cnt + q2]), p > 1 ? topo__mul(d, cu1[q2]) : 0);
                bf = !found || vf < bf ? vf : bf;
                bg = !found || vg < bg ? vg : bg;
                found = 1;
            }
            f[qi] = bf;
            g[qi] = bg;
        }
    }
}

/* 1 if the subtree at depth t >= 1 (open product q, mixed index qi) holds
 * no grid faster than the best or the seed; ca, sa, m, fill: the assigned
 * dimensions' part. */
TILEHYBRID__COLD int topo__time_prune(const topo__tsearch *s, int t, int64_t q, int qi,
                                      double ca, double sa, int m, int64_t fill)
{
    const topo_nest *nest = s->nest;
    size_t at = (size_t)t * (size_t)s->w.dv->count + (size_t)qi;
    int u = s->w.k - t;
    double cu, gs = 0.0, lb;
    if (s->w.sufx[t] < q)
        return 1; /* the open extents cannot hold q processes */
    if (q > 1 && s->sufall[t])
        m++;
    cu = s->w.sufxd[t] / (double)q;
    cu = cu < 1.0 ? 1.0 : cu;
    if (s->minf != NULL) {
        if (s->w.mincu[at] == 0)
            return 1; /* no assignment of the open dimensions fits */
        /* the larger bound: a saturated table entry says only 2^63 */
        cu = topo__dbl(s->w.mincu[at]) > cu ? topo__dbl(s->w.mincu[at]) : cu;
        gs = topo__dbl(s->mings[at]);
        fill += (int64_t)s->minf[at];
    } else {
        if (q > 1 && s->sufall[t]) {
            int64_t r = topo__root_ceil(q, u);
            if (!topo__pow_le(r, u, q))
                r--; /* floor(q^(1/u)) */
            fill += (int64_t)u * (r - 1);
        }
    }
    lb = (s->tiles + (double)fill) *
         (s->h * nest->tcomp * ca * cu + (double)m * nest->tstartup +
          s->h * nest->elem_bytes * (sa * cu + ca * gs) / nest->bandwidth);
    lb *= 1.0 - 1e-12; /* now surely below the exact bound */
    return (s->have && lb >= s->bestt) || (s->seedt >= 0.0 && lb >= s->seedt);
}

/* Leaf: the last free dimension takes the remaining product q. */
TILEHYBRID__COLD void topo__time_leaf(topo__tsearch *s, int t, int64_t q)
{
    int dim = s->w.fidx[t];
    double tt;
    if (q > s->lim[dim] || (s->twin[t] >= 0 && q < s->w.cur[s->twin[t]]))
        return;
    s->w.cur[dim] = (int)q;
    tt = topo__time(s->nest, s->w.cur, NULL);
    if (!s->have || tt < s->bestt) {
        s->have = 1;
        s->bestt = tt;
        memcpy(s->w.best, s->w.cur, sizeof s->w.best);
    }
}

/* Depth-first over the free dimensions t..k-2 (open product q, mixed
 * index qi), divisors in increasing order: grids in lexicographic order. */
TILEHYBRID__COLD void topo__time_dfs(topo__tsearch *s, int t, int64_t q, int qi,
                                     double ca, double sa, int m, int64_t fill)
{
    const topo__comm *w = &s->w;
    int dim = w->fidx[t];
    int64_t x = s->nest->extent[dim], d = s->nest->dep[dim], lim = s->lim[dim];
    int64_t low = s->twin[t] >= 0 ? s->w.cur[s->twin[t]] : 1; /* symmetry */
    int j = w->off != NULL ? w->off[qi] : 0;
    int end = w->off != NULL ? w->off[qi + 1] : w->dv->count;
    for (; j < end; j++) {
        int pos = w->off != NULL ? w->lst[j] : j;
        int64_t p = w->dv->sorted[pos], fill2 = fill + (d > 0 ? p - 1 : 0);
        int qi2 = qi - w->dv->sidx[pos], sends = p > 1 && d > 0;
        double c, ca2, sa2;
        if (p > q || p > lim)
            break;
        if (p < low || qi2 < 0 || (int64_t)w->dv->val[qi2] * p != q)
            continue; /* below its twin, or p does not divide q */
        s->w.cur[dim] = (int)p;
        c = (double)topo__ceildiv(x, p);
        ca2 = ca * c;
        sa2 = sa * c + (sends ? (double)d * ca : 0.0);
        if (topo__time_prune(s, t + 1, q / p, qi2, ca2, sa2, m + sends, fill2))
            continue;
        if (t + 1 == w->k - 1)
            topo__time_leaf(s, t + 1, q / p);
        else
            topo__time_dfs(s, t + 1, q / p, qi2, ca2, sa2, m + sends, fill2);
    }
}

/* The seed: the faster of the volume-optimal and the balanced grid with
 * the same fixed entries (real grids, so the optimum is at most their
 * time); -1 if neither fits. */
TILEHYBRID__COLD double topo__time_seed(const topo_nest *nest, const int64_t *lim,
                                        int64_t rest, const int *dims, int *at)
{
    int g[TOPO_MAX_DIMS], b[TOPO_MAX_DIMS], i, fits = 1;
    double best = -1.0;
    memcpy(g, dims, sizeof g);
    memcpy(b, dims, sizeof b);
    if (topo__comm_grid(nest->n, rest, nest->extent, lim, nest->dep, topo__nest_xf(nest),
                        g, NULL) == TOPO_OK) {
        best = topo__time(nest, g, NULL);
        memcpy(at, g, sizeof g);
    }
    topo__balanced(nest->n, rest, b);
    for (i = 0; i < nest->n; i++)
        fits &= b[i] <= lim[i];
    if (fits && (best < 0.0 || topo__time(nest, b, NULL) < best)) {
        best = topo__time(nest, b, NULL);
        memcpy(at, b, sizeof b);
    }
    return best;
}

/* The cost whose term of topo__time() on grid dims overflows a double
 * (the time is infinite): "tcomp" (the computation), "tstartup" (the
 * messages' start-ups), "elem_bytes" or "bandwidth" (their volume), or the
 * largest term's when only their sum overflows. */
TILEHYBRID__COLD const char *topo__time_cause(const topo_nest *nest, const int *dims)
{
    topo_nest one = *nest;
    double t[3], vol;
    int i, big = 0;
    one.tstartup = 0.0;            /* the computation term alone: tcomp */
    one.bandwidth = DBL_MAX;
    t[0] = topo__time(&one, dims, NULL);
    one.tcomp = DBL_MIN;           /* the start-ups alone */
    one.tstartup = nest->tstartup;
    t[1] = topo__time(&one, dims, NULL);
    one.tstartup = 0.0;            /* the volume (elem_bytes x faces, 1 B/s) */
    one.bandwidth = 1.0;
    vol = topo__time(&one, dims, NULL);
    one.bandwidth = nest->bandwidth;
    t[2] = topo__time(&one, dims, NULL);
    for (i = 0; i < 3; i++)
        if (!tilehybrid__finite(t[i]))
            return i == 0 ? "tcomp" : i == 1 ? "tstartup"
                   : tilehybrid__finite(vol) ? "bandwidth" : "elem_bytes";
    for (i = 1; i < 3; i++)
        if (t[i] > t[big])
            big = i;
    return big == 0 ? "tcomp" : big == 1 ? "tstartup" : "bandwidth";
}

/* Step 1 of topo__time_grid: the search state, the fixed dimensions' part
 * of the bound (*ca, *sa, *m, *fill). */
TILEHYBRID__COLD void topo__time_init(topo__tsearch *s, const topo_nest *nest, const int *dims,
                                      double *ca, double *sa, int *m, int64_t *fill)
{
    uint64_t ca_v, sa_v;
    int64_t h = nest->tile_height < nest->zlen ? nest->tile_height : nest->zlen;
    int i, t;
    memset(s, 0, sizeof *s);
    s->nest = nest;
    s->h = (double)h;
    s->tiles = (double)topo__ceildiv(nest->zlen, h);
    topo__nest_lim(nest, s->lim);
    topo__comm_init(&s->w, nest->n, nest->extent, s->lim, nest->dep, NULL, dims, &ca_v,
                    &sa_v);
    topo__comm_suffixes(&s->w);
    *ca = 1.0;
    *sa = 0.0;
    *m = 0;
    *fill = 0;
    for (i = 0; i < nest->n; i++) {
        double c, d = (double)nest->dep[i];
        if (dims[i] == 0)
            continue;
        c = (double)topo__ceildiv(nest->extent[i], dims[i]);
        *sa = *sa * c + (dims[i] > 1 && d > 0 ? d * *ca : 0.0);
        *ca *= c;
        *m += dims[i] > 1 && d > 0;
        *fill += d > 0 ? dims[i] - 1 : 0;
    }
    s->sufall[s->w.k] = 1;
    for (t = s->w.k - 1; t >= 0; t--)
        s->sufall[t] = s->sufall[t + 1] && nest->dep[s->w.fidx[t]] > 0;
    for (t = 0; t < s->w.k; t++) {
        int a = s->w.fidx[t], u;
        s->twin[t] = -1;
        for (u = t - 1; u >= 0 && topo__nest_xf(nest) == NULL; u--)
            if (nest->extent[s->w.fidx[u]] == nest->extent[a] &&
                nest->dep[s->w.fidx[u]] == nest->dep[a]) {
                s->twin[t] = s->w.fidx[u];
                break;
            }
    }
}

/* Fill the free entries of dims with the exact minimiser of the pipeline
 * time (the search described above): set up, seed, search, copy. */
TILEHYBRID__COLD int topo__time_grid(const topo_nest *nest, int64_t rest, int *dims,
                                     tilehybrid_status *st)
{
    topo__divs dv;
    topo__tsearch s;
    double ca, sa;
    int i, m, seed[TOPO_MAX_DIMS];
    int64_t fill;
    topo__time_init(&s, nest, dims, &ca, &sa, &m, &fill);
    if (s.w.k == 0) /* everything fixed: nothing to choose */
        return TOPO_OK;
    if (s.w.sufx[0] < rest)
        return topo__infeasible(nest->n, rest, dims, nest->extent, st);
    s.seedt = topo__time_seed(nest, s.lim, rest, dims, seed);
    topo__divisors(rest, &dv);
    s.w.dv = &dv;
    topo__comm_workspace(&s.w);
    topo__time_tables(&s);
    if (s.w.k == 1)
        topo__time_leaf(&s, 0, rest);
    else
        topo__time_dfs(&s, 0, rest, dv.count - 1, ca, sa, m, fill);
    if (s.minf != NULL)
        TILEHYBRID_FREE(s.minf);
    if (s.w.cdiv != NULL)
        TILEHYBRID_FREE(s.w.cdiv);
    /* a grid exists but its time overflows a double: the cost is at
     * fault, not the space (the search prunes every infinite time) */
    if (s.have && !tilehybrid__finite(s.bestt))
        return tilehybrid_status_set(st, TOPO_ERR_COST, topo__time_cause(nest, s.w.best), -1);
    if (!s.have && s.seedt >= 0.0 && !tilehybrid__finite(s.seedt))
        return tilehybrid_status_set(st, TOPO_ERR_COST, topo__time_cause(nest, seed), -1);
    if (!s.have)
        return topo__infeasible(nest->n, rest, dims, nest->extent, st);
    for (i = 0; i < nest->n; i++)
        dims[i] = s.w.best[i];
    return TOPO_OK;
}
#else
TILEHYBRID__COLD double topo__time(const topo_nest *nest, const int *dims,
                                   int64_t *steps);
TILEHYBRID__COLD double topo__dbl(uint64_t v);
TILEHYBRID__COLD void topo__time_tables(topo__tsearch *s);
TILEHYBRID__COLD int topo__time_prune(const topo__tsearch *s, int t, int64_t q, int qi,
                                      double ca, double sa, int m, int64_t fill);
TILEHYBRID__COLD void topo__time_leaf(topo__tsearch *s, int t, int64_t q);
TILEHYBRID__COLD void topo__time_dfs(topo__tsearch *s, int t, int64_t q, int qi,
                                     double ca, double sa, int m, int64_t fill);
TILEHYBRID__COLD double topo__time_seed(const topo_nest *nest, const int64_t *lim,
                                        int64_t rest, const int *dims, int *at);
TILEHYBRID__COLD const char *topo__time_cause(const topo_nest *nest, const int *dims);
TILEHYBRID__COLD void topo__time_init(topo__tsearch *s, const topo_nest *nest, const int *dims,
                                      double *ca, double *sa, int *m, int64_t *fill);
TILEHYBRID__COLD int topo__time_grid(const topo_nest *nest, int64_t rest, int *dims,
                                     tilehybrid_status *st);
#endif

/* ==== src/topology/20-api.h ==== */
#line 1 "src/topology/20-api.h"
/* ------------------------------------------------------------------------ */
/* Public API.                                                              */

#if TILEHYBRID__DEFINE
/**
 * topo_strerror() - a short English explanation of an error code.
 * @err: a value returned by any topo_ function.
 *
 * Return: a static, non-empty string, distinct for every code; one text
 * for every unknown code; never NULL.
 */
TILEHYBRID__COLD const char *topo_strerror(int err)
{
    switch (err) {
    case TOPO_OK: return "success";
    case TOPO_ERR_NULL: return "a required pointer argument is NULL";
    case TOPO_ERR_NDIMS:
        return "number of dimensions n must be in 1..TOPO_MAX_DIMS (16)";
    case TOPO_ERR_PROCS:
        return "process count must be in 1..2147483647 (and fit the grid)";
    case TOPO_ERR_EXTENT: return "an iteration-space extent is below 1";
    case TOPO_ERR_DEP: return "a dependence width is negative";
    case TOPO_ERR_FIXED:
        return "bad fixed grid entry: negative, larger than its extent, "
               "or the fixed entries do not divide the process count";
    case TOPO_ERR_INFEASIBLE:
        return "no grid fits: the count has no factorisation with "
               "P_i <= X_i in every dimension (a loop nest's grids also "
               "need P_i <= X_i / d_i where d_i > 1)";
    case TOPO_ERR_OVERFLOW:
        return "communication volume does not fit in 64 bits";
    case TOPO_ERR_THREADS: return "thread count must be in 1..2147483647";
    case TOPO_ERR_MISMATCH: return "MPI ranks passed different arguments";
    case TOPO_ERR_MPI: return "an MPI call failed";
    case TOPO_ERR_POLICY:
        return "unknown topo_policy value, or TOPO_POLICY_TIME without a cost "
               "model (use the topo_nest_* functions)";
    case TOPO_ERR_STENCIL:
        return "bad stencil: a vector reads a later point or the point itself, "
               "a direction is not +1 or -1, or a face extension ext[i][j] is "
               "outside 0..dep[j] (or set for j >= i)";
    case TOPO_ERR_COST:
        return "bad cost model: the tile height must be >= 1, elem_bytes, tcomp "
               "and bandwidth finite and > 0, tstartup finite and >= 0, and the "
               "predicted time of a grid finite (status->arg: the cost that overflows)";
    default: return "unknown topology error code";
    }
}

/**
 * topo_dims_create() - the balanced grid of MPI_Dims_create, as a pure
 * function (no MPI needed, extents ignored).
 * @procs:  number of processes, 1..INT_MAX.
 * @n:      number of dimensions, 1..TOPO_MAX_DIMS.
 * @dims:   in: 0 = free, > 0 = fixed; out: the grid.
 * @status: optional error detail (may be NULL).
 *
 * Free entries get the factorisation of procs / prod(fixed) that minimises
 * max - min (ties: the largest smallest entry, then the largest next one,
 * ...), in non-increasing order -- the answer of MPICH's MPI_Dims_create
 * (checked against MPICH 4.0 for N = 1..16 in tests/mpi_topology.c; other
 * MPI libraries may balance differently: Open MPI 4.1 returns a less
 * balanced grid in 102 of the 19240 cases tested, e.g. 12x6 for 72).
 *
 * Return: TOPO_OK, TOPO_ERR_NULL, TOPO_ERR_NDIMS, TOPO_ERR_PROCS or
 * TOPO_ERR_FIXED (negative entry, or the fixed product does not divide
 * procs, or -- stricter than MPI_Dims_create -- every entry is fixed and
 * their product is not procs); dims is unchanged on error.
 */
TILEHYBRID__COLD int topo_dims_create(int64_t procs, int n, int *dims,
                                      tilehybrid_status *status)
{
    int64_t rest;
    int i, rc, tmp[TOPO_MAX_DIMS];
    if (dims == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "dims", -1);
    if (n < 1 || n > TOPO_MAX_DIMS)
        return tilehybrid_status_set(status, TOPO_ERR_NDIMS, "n", -1);
    if (procs < 1 || procs > INT_MAX)
        return tilehybrid_status_set(status, TOPO_ERR_PROCS, "procs", -1);
    rc = topo__check_fixed(n, procs, dims, NULL, &rest, "dims", status);
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++)
        tmp[i] = dims[i];
    topo__balanced(n, rest, tmp);
    for (i = 0; i < n; i++)
        dims[i] = tmp[i];
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/* The latency policy's grid: tmp's fixed entries kept, the rest of the
 * processes or threads (rest) balanced over its free ones; infeasible
 * where an entry exceeds lim, naming the argument what (more processes or
 * threads than points), or "dep" where ext is given and the entry is at
 * most X_i (blocks narrower than the d_i layers a neighbour reads). */
TILEHYBRID__COLD int topo__latency_grid(int n, int64_t rest, const int64_t *lim,
                                        const int64_t *ext, int *tmp, const char *what,
                                        tilehybrid_status *st)
{
    int i;
    topo__balanced(n, rest, tmp);
    for (i = 0; i < n; i++)
        if (tmp[i] > lim[i])
            return tilehybrid_status_set(st, TOPO_ERR_INFEASIBLE,
                                         ext != NULL && tmp[i] <= ext[i] ? "dep" : what, i);
    return TOPO_OK;
}

/**
 * topo_grid_ex() - choose the process grid P1 x ... x PN for P processes.
 * @n:      number of distributed dimensions N, 1..TOPO_MAX_DIMS.
 * @procs:  number of processes P, 1..INT_MAX.
 * @extent: X_1..X_N (>= 1), the distributed extents (not Z).
 * @dep:    d_1..d_N (>= 0), dependence widths.
 * @policy: TOPO_POLICY_COMM: the grid minimising
 *          V = sum_i d_i prod_{j != i} ceil(X_j / P_j) over every
 *          factorisation with P_i <= X_i; ties go to the lexicographically
 *          smallest grid (smallest P1, then P2, ...).
 *          TOPO_POLICY_LATENCY: the MPI_Dims_create grid (topo_dims_create);
 *          it must fit the extents (P_i <= X_i).
 * @dims:   in: 0 = free, > 0 = fixed (kept, must be <= X_i); out: the grid.
 *          Unchanged on error.
 * @status: optional error detail (may be NULL).
 *
 * Cost: a pruned search over divisors; well under 1 ms for N = 4 and
 * P <= 2^20 (see bench/bench_topology.c).
 *
 * Return: TOPO_OK or TOPO_ERR_NULL / NDIMS / PROCS / POLICY / EXTENT / DEP /
 * FIXED / INFEASIBLE (nothing fits: status->arg "extent" and ->index the
 * dimension where one free dimension would need P_i > X_i, else "procs"
 * and -1; for the latency policy: its grid does not fit, "extent" and the
 * dimension) / OVERFLOW (the optimal V per Z-plane exceeds INT64_MAX).
 */
TILEHYBRID__COLD int topo_grid_ex(int n, int64_t procs, const int64_t *extent,
                                  const int64_t *dep, topo_policy policy,
                                  int *dims, tilehybrid_status *status)
{
    int64_t rest;
    int i, rc, tmp[TOPO_MAX_DIMS];
    if (dims == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "dims", -1);
    rc = topo__check_common(n, procs, extent, dep, policy, status);
    if (rc != TOPO_OK)
        return rc;
    rc = topo__check_fixed(n, procs, dims, extent, &rest, "dims", status);
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++)
        tmp[i] = dims[i];
    if (policy == TOPO_POLICY_LATENCY)
        rc = topo__latency_grid(n, rest, extent, NULL, tmp, "extent", status);
    else
        rc = topo__comm_grid(n, rest, extent, NULL, dep, NULL, tmp, status);
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++)
        dims[i] = tmp[i];
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/**
 * topo_grid() - topo_grid_ex() without the error detail.
 * @n, @procs, @extent, @dep, @policy, @dims: as for topo_grid_ex().
 *
 * Return: as topo_grid_ex().
 */
TILEHYBRID__COLD int topo_grid(int n, int64_t procs, const int64_t *extent,
                               const int64_t *dep, topo_policy policy, int *dims)
{
    return topo_grid_ex(n, procs, extent, dep, policy, dims, NULL);
}

/* The argument checks of topo_report_grid_ex(), in the documented order. */
TILEHYBRID__COLD int topo__check_report(int n, const int *dims,
                                        const int64_t *extent, int64_t zlen,
                                        const int64_t *dep, const topo_report *out,
                                        tilehybrid_status *st)
{
    int i, rc;
    if (dims == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "dims", -1);
    if (out == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "out", -1);
    if ((rc = topo__check_shape(n, extent, dep, 1, st)) != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++)
        if (dims[i] < 1)
            return tilehybrid_status_set(st, TOPO_ERR_FIXED, "dims", i);
    return topo__check_space(n, extent, &zlen, dep, st);
}

/* The volume model's report of a checked grid, faces extended by xf
 * (NULL: none); steps and seconds are left 0. */
TILEHYBRID__COLD int topo__report(int n, const int *dims, const int64_t *extent,
                                  int64_t zlen, const int64_t *dep,
                                  const int64_t (*xf)[TOPO_MAX_DIMS], topo_report *out,
                                  tilehybrid_status *status)
{
    topo_report r;
    uint64_t vol = 0, sent = 0, total = 0, procs = 1;
    int i, j;
    memset(&r, 0, sizeof r);
    r.n = n;
    r.feasible = 1;
    r.bad_index = -1;
    for (i = 0; i < n; i++) {
        uint64_t term = topo__face(n, dims, extent, dep, xf, i), whole = (uint64_t)dep[i];
        r.dims[i] = dims[i];
        for (j = 0; j < n; j++) /* sum over the blocks of (c_j + ext) */
            if (j != i)
                whole = topo__mul(whole, topo__add((uint64_t)extent[j],
                    j < i && xf != NULL ? topo__mul((uint64_t)dims[j], (uint64_t)xf[i][j]) : 0));
        vol = topo__add(vol, term);
        if (dims[i] > 1) {
            sent = topo__add(sent, term);
            total = topo__add(total, topo__mul(whole, (uint64_t)(dims[i] - 1)));
            r.messages++;
        }
        r.fill_steps += dims[i] - 1;
        procs = topo__mul(procs, (uint64_t)dims[i]);
        if (dims[i] > extent[i] && r.feasible) {
            r.feasible = 0;
            r.bad_index = i;
        }
    }
    vol = topo__mul(vol, (uint64_t)zlen);
    sent = topo__mul(sent, (uint64_t)zlen); /* sent <= vol */
    total = topo__mul(total, (uint64_t)zlen);
    if (vol == TOPO__SAT || total == TOPO__SAT || procs == TOPO__SAT)
        return tilehybrid_status_set(status, TOPO_ERR_OVERFLOW,
                                     vol == TOPO__SAT     ? "volume"
                                     : total == TOPO__SAT ? "total_volume"
                                                          : "dims",
                                     -1);
    r.volume = (int64_t)vol;
    r.volume_sent = (int64_t)sent;
    r.total_volume = (int64_t)total;
    r.procs = (int64_t)procs;
    *out = r;
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/**
 * topo_report_grid_ex() - evaluate a grid with the volume model.
 * @n:      number of dimensions, 1..TOPO_MAX_DIMS.
 * @dims:   the grid, every entry >= 1 (P_i > X_i is allowed and flagged in
 *          out->feasible).
 * @extent: X_1..X_N (>= 1).
 * @zlen:   Z (>= 1), the pipelined extent.
 * @dep:    d_1..d_N (>= 0).
 * @out:    the report (see struct topo_report); unchanged on error.
 * @status: optional error detail (may be NULL).
 *
 * Return: TOPO_OK or TOPO_ERR_NULL / NDIMS / EXTENT (index n means zlen) /
 * DEP / FIXED (a dims entry < 1) / OVERFLOW: status->arg names what does
 * not fit in INT64_MAX: "volume" (V * Z), "total_volume", or "dims" (their
 * product).
 */
TILEHYBRID__COLD int topo_report_grid_ex(int n, const int *dims,
                                         const int64_t *extent, int64_t zlen,
                                         const int64_t *dep, topo_report *out,
                                         tilehybrid_status *status)
{
    int rc = topo__check_report(n, dims, extent, zlen, dep, out, status);
    if (rc != TOPO_OK)
        return rc;
    return topo__report(n, dims, extent, zlen, dep, NULL, out, status);
}

/**
 * topo_report_grid() - topo_report_grid_ex() without the error detail.
 * @n, @dims, @extent, @zlen, @dep, @out: as for topo_report_grid_ex().
 *
 * Return: as topo_report_grid_ex().
 */
TILEHYBRID__COLD int topo_report_grid(int n, const int *dims,
                                      const int64_t *extent, int64_t zlen,
                                      const int64_t *dep, topo_report *out)
{
    return topo_report_grid_ex(n, dims, extent, zlen, dep, out, NULL);
}

/* The thread grid of topo_hybrid_grid_ex() inside the blocks of the
 * process grid pd: td in/out.  Its cost is the largest block's
 * (ceil(X_i / P_i)); every block must hold it, so T_i is at most the
 * smallest block's extent, floor(X_i / P_i). */
TILEHYBRID__COLD int topo__thread_grid(int n, int threads, const int64_t *extent,
                                       const int64_t *dep, topo_policy policy,
                                       const int *pd, int *td, tilehybrid_status *st)
{
    int64_t local[TOPO_MAX_DIMS], small[TOPO_MAX_DIMS], rest;
    int i, rc;
    for (i = 0; i < n; i++) {
        local[i] = topo__ceildiv(extent[i], pd[i]);
        small[i] = extent[i] / pd[i];
    }
    rc = topo__check_fixed(n, threads, td, small, &rest, "tdims", st);
    if (rc != TOPO_OK)
        return rc;
    if (policy == TOPO_POLICY_LATENCY)
        return topo__latency_grid(n, rest, small, NULL, td, "threads", st);
    rc = topo__comm_grid(n, rest, local, small, dep, NULL, td, st);
    if (rc == TOPO_ERR_INFEASIBLE)
        return tilehybrid_status_set(st, rc, "threads", -1);
    return rc;
}

/**
 * topo_hybrid_grid_ex() - process grid and, inside it, the thread grid for
 * P processes of T threads each.
 * @n, @procs, @extent, @dep, @policy: as for topo_grid_ex().
 * @threads: threads per process T, 1..INT_MAX.
 * @dims:    in/out process grid (0 = free), exactly as topo_grid_ex().
 * @tdims:   in/out thread grid T1 x ... x TN (0 = free, > 0 fixed), chosen
 *           by the same policy for the largest local block
 *           L_i = ceil(X_i / P_i): with TOPO_POLICY_COMM it minimises
 *           sum_i d_i prod_{j != i} ceil(L_j / T_j) with T_i <= l_i, where
 *           l_i = floor(X_i / P_i) is the smallest block's extent (every
 *           thread of every block gets at least one point along i).
 * @status:  optional error detail; errors about the thread grid name
 *           "threads" or "tdims".
 *
 * Both outputs are unchanged on error.
 *
 * Return: as topo_grid_ex(), plus TOPO_ERR_THREADS (T out of range) and
 * TOPO_ERR_INFEASIBLE with arg "threads" when T does not fit the block.
 */
TILEHYBRID__COLD int topo_hybrid_grid_ex(int n, int64_t procs, int threads,
                                         const int64_t *extent,
                                         const int64_t *dep, topo_policy policy,
                                         int *dims, int *tdims,
                                         tilehybrid_status *status)
{
    int pd[TOPO_MAX_DIMS], td[TOPO_MAX_DIMS], i, rc;
    if (dims == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "dims", -1);
    if (tdims == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "tdims", -1);
    if (threads < 1)
        return tilehybrid_status_set(status, TOPO_ERR_THREADS, "threads", -1);
    rc = topo__check_common(n, procs, extent, dep, policy, status);
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++) {
        pd[i] = dims[i];
        td[i] = tdims[i];
    }
    rc = topo_grid_ex(n, procs, extent, dep, policy, pd, status);
    if (rc != TOPO_OK)
        return rc;
    rc = topo__thread_grid(n, threads, extent, dep, policy, pd, td, status);
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++) {
        dims[i] = pd[i];
        tdims[i] = td[i];
    }
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/**
 * topo_hybrid_grid() - topo_hybrid_grid_ex() without the error detail.
 * @n, @procs, @threads, @extent, @dep, @policy, @dims, @tdims: as for
 *           topo_hybrid_grid_ex().
 *
 * Return: as topo_hybrid_grid_ex().
 */
TILEHYBRID__COLD int topo_hybrid_grid(int n, int64_t procs, int threads,
                                      const int64_t *extent, const int64_t *dep,
                                      topo_policy policy, int *dims, int *tdims)
{
    return topo_hybrid_grid_ex(n, procs, threads, extent, dep, policy, dims,
                               tdims, NULL);
}
#else
TILEHYBRID__COLD const char *topo_strerror(int err);
TILEHYBRID__COLD int topo_dims_create(int64_t procs, int n, int *dims,
                                      tilehybrid_status *status);
TILEHYBRID__COLD int topo__latency_grid(int n, int64_t rest, const int64_t *lim,
                                        const int64_t *ext, int *tmp, const char *what,
                                        tilehybrid_status *st);
TILEHYBRID__COLD int topo_grid_ex(int n, int64_t procs, const int64_t *extent,
                                  const int64_t *dep, topo_policy policy,
                                  int *dims, tilehybrid_status *status);
TILEHYBRID__COLD int topo_grid(int n, int64_t procs, const int64_t *extent,
                               const int64_t *dep, topo_policy policy, int *dims);
TILEHYBRID__COLD int topo__check_report(int n, const int *dims,
                                        const int64_t *extent, int64_t zlen,
                                        const int64_t *dep, const topo_report *out,
                                        tilehybrid_status *st);
TILEHYBRID__COLD int topo__report(int n, const int *dims, const int64_t *extent,
                                  int64_t zlen, const int64_t *dep,
                                  const int64_t (*xf)[TOPO_MAX_DIMS], topo_report *out,
                                  tilehybrid_status *status);
TILEHYBRID__COLD int topo_report_grid_ex(int n, const int *dims,
                                         const int64_t *extent, int64_t zlen,
                                         const int64_t *dep, topo_report *out,
                                         tilehybrid_status *status);
TILEHYBRID__COLD int topo_report_grid(int n, const int *dims,
                                      const int64_t *extent, int64_t zlen,
                                      const int64_t *dep, topo_report *out);
TILEHYBRID__COLD int topo__thread_grid(int n, int threads, const int64_t *extent,
                                       const int64_t *dep, topo_policy policy,
                                       const int *pd, int *td, tilehybrid_status *st);
TILEHYBRID__COLD int topo_hybrid_grid_ex(int n, int64_t procs, int threads,
                                         const int64_t *extent,
                                         const int64_t *dep, topo_policy policy,
                                         int *dims, int *tdims,
                                         tilehybrid_status *status);
TILEHYBRID__COLD int topo_hybrid_grid(int n, int64_t procs, int threads,
                                      const int64_t *extent, const int64_t *dep,
                                      topo_policy policy, int *dims, int *tdims);
#endif

/**
 * topo_block() - block distribution of @extent elements over @parts parts.
 * @extent: number of elements, >= 0.
 * @parts:  number of parts, >= 1.
 * @index:  the part, 0 <= index < parts.
 * @start:  out: the first element of part @index (may be NULL).
 * @len:    out: its length (may be NULL).
 *
 * The first extent % parts parts get one element more, so part 0 is the
 * largest (ceil(extent / parts)).  Out-of-range arguments give
 * start = len = 0; this function cannot fail.
 */
static inline void topo_block(int64_t extent, int parts, int index,
                              int64_t *start, int64_t *len)
{
    int64_t s = 0, l = 0;
    if (extent >= 0 && parts >= 1 && index >= 0 && index < parts) {
        int64_t base = extent / parts, rem = extent % parts;
        if (index < rem) {
            l = base + 1;
            s = (int64_t)index * (base + 1);
        } else {
            l = base;
            s = (int64_t)index * base + rem;
        }
    }
    if (start != NULL)
        *start = s;
    if (len != NULL)
        *len = l;
}

/* ---- loop nests: extended faces and the time policy -------------------- */

#if TILEHYBRID__DEFINE
/* 1 if x is a finite double (not NaN, not an infinity). */
TILEHYBRID__COLD int topo__finite(double x)
{
    return x == x && x - x == 0.0;
}

/* The cost model's values (topo__check_nest's last step). */
TILEHYBRID__COLD int topo__check_cost(const topo_nest *nest, tilehybrid_status *st)
{
    if (nest->tile_height < 1)
        return tilehybrid_status_set(st, TOPO_ERR_COST, "tile_height", -1);
    if (!topo__finite(nest->elem_bytes) || nest->elem_bytes <= 0.0)
        return tilehybrid_status_set(st, TOPO_ERR_COST, "elem_bytes", -1);
    if (!topo__finite(nest->tcomp) || nest->tcomp <= 0.0)
        return tilehybrid_status_set(st, TOPO_ERR_COST, "tcomp", -1);
    if (!topo__finite(nest->tstartup) || nest->tstartup < 0.0)
        return tilehybrid_status_set(st, TOPO_ERR_COST, "tstartup", -1);
    if (!topo__finite(nest->bandwidth) || nest->bandwidth <= 0.0)
        return tilehybrid_status_set(st, TOPO_ERR_COST, "bandwidth", -1);
    return TOPO_OK;
}

/* A nest not NULL, then every value of it, in the order of struct
 * topo_nest; an extension is named "ext" with the index i * n + j. */
TILEHYBRID__COLD int topo__check_nest(const topo_nest *nest, tilehybrid_status *st)
{
    int i, j, n, rc;
    if (nest == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "nest", -1);
    n = nest->n;
    if (n < 1 || n > TOPO_MAX_DIMS)
        return tilehybrid_status_set(st, TOPO_ERR_NDIMS, "n", -1);
    rc = topo__check_space(n, nest->extent, &nest->zlen, nest->dep, st);
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            if (nest->ext[i][j] < 0 || nest->ext[i][j] > (j < i ? nest->dep[j] : 0))
                return tilehybrid_status_set(st, TOPO_ERR_STENCIL, "ext", (int64_t)i * n + j);
    return topo__check_cost(nest, st);
}

/**
 * topo_nest_init() - describe a loop nest: plain faces, the default cost
 * model.
 * @nest:   out: the description (unchanged on error).
 * @n:      N, 1..TOPO_MAX_DIMS.
 * @extent: X_1..X_N.
 * @zlen:   Z.
 * @dep:    d_1..d_N, or NULL for all 0 (topo_nest_stencil() sets them).
 * @status: optional error detail (may be NULL).
 *
 * Copies the values as given (the functions that use a nest check every
 * value, so a caller may change fields after this); sets every ext[i][j]
 * to 0, the tile height to TOPO_DEFAULT_TILE_HEIGHT (100), elem_bytes to 8,
 * and the papers' cluster: tcomp 288e-9 s, tstartup 107e-6 s, bandwidth
 * 10e6 bytes/s (TOPO_DEFAULT_*).  Entries past n are 0.
 *
 * Return: TOPO_OK, TOPO_ERR_NULL ("nest", "extent") or TOPO_ERR_NDIMS.
 */
TILEHYBRID__COLD int topo_nest_init(topo_nest *nest, int n, const int64_t *extent,
                                    int64_t zlen, const int64_t *dep,
                                    tilehybrid_status *status)
{
    /* every field 0 but the cost model's: n, extent, zlen, dep, ext,
     * tile_height, elem_bytes, tcomp, tstartup, bandwidth */
    static const topo_nest defaults = { 0, {0}, 0, {0}, {{0}}, TOPO_DEFAULT_TILE_HEIGHT,
                                        TOPO_DEFAULT_ELEM_BYTES, TOPO_DEFAULT_TCOMP,
                                        TOPO_DEFAULT_TSTARTUP, TOPO_DEFAULT_BANDWIDTH };
    int i, rc;
    if (nest == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "nest", -1);
    if ((rc = topo__check_shape(n, extent, dep, 0, status)) != TOPO_OK)
        return rc;
    *nest = defaults;
    nest->n = n;
    nest->zlen = zlen;
    for (i = 0; i < n; i++) {
        nest->extent[i] = extent[i];
        nest->dep[i] = dep != NULL ? dep[i] : 0;
    }
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/* The widths and extensions of one stencil vector v (u = v * dir <= 0 in
 * every component, not all 0), merged into dep and ext; 0 if it is not. */
TILEHYBRID__COLD int topo__stencil_vector(int n, const int *v, const int *dir,
                                          int64_t *dep,
                                          int64_t (*ext)[TOPO_MAX_DIMS])
{
    int64_t u[TOPO_MAX_DIMS + 1];
    int i, j, nonzero = 0;
    for (i = 0; i <= n; i++) {
        u[i] = (int64_t)v[i] * (dir != NULL ? dir[i] : 1);
        if (u[i] > 0)
            return 0; /* a later point along dimension i */
        nonzero |= u[i] != 0;
        if (i < n && -u[i] > dep[i])
            dep[i] = -u[i];
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < i; j++)
            if (v[i] != 0 && v[j] != 0 && -u[j] > ext[i][j])
                ext[i][j] = -u[j];
    return nonzero;
}

/**
 * topo_nest_stencil() - set a nest's widths and extended faces from the
 * stencil the loop body reads, by tiling.h's rule.
 * @nest:   in: n; out: dep[] and ext[][] (unchanged on error).
 * @nvec:   the number of offset vectors, >= 1.
 * @vec:    the vectors: vector k is vec[k * stride + 0..n], its offsets
 *          (o_1, ..., o_N, o_Z) in the user's coordinates, as tiling.h's
 *          cfg.stencil and tile_config_stencil()'s text.
 * @stride: ints from one vector to the next, >= n + 1 (tiling.h:
 *          TILE_MAX_DIMS + 1).
 * @dir:    n + 1 loop directions, +1 upward and -1 downward (Z last), or
 *          NULL for all upward.
 * @status: optional error detail (may be NULL).
 *
 * Every vector must point to an earlier point of the sequential loop in
 * every dimension (u_i = o_i * dir_i <= 0, not all 0).  Then, as tiling.h
 * derives plan.deps: d_i = max over the vectors of -u_i (the papers'
 * D' = diag(d'_i)), and for j < i, ext[i][j] = max of -u_j over the vectors
 * that read along both i and j (o_i != 0 and o_j != 0): faces are sent
 * dimension by dimension, and the face along i carries the ghost layers of
 * the lower dimensions j that a diagonal read needs.  The Z offsets only
 * take part in the check.
 *
 * Return: TOPO_OK, TOPO_ERR_NULL ("nest", "vec"), TOPO_ERR_NDIMS, or
 * TOPO_ERR_STENCIL with status->arg "nvec", "stride", "dir" (index: the
 * dimension) or "stencil" (index: the vector).
 */
TILEHYBRID__COLD int topo_nest_stencil(topo_nest *nest, int nvec, const int *vec,
                                       int stride, const int *dir,
                                       tilehybrid_status *status)
{
    int64_t dep[TOPO_MAX_DIMS], ext[TOPO_MAX_DIMS][TOPO_MAX_DIMS];
    int i, k, n;
    if (nest == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "nest", -1);
    if (vec == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "vec", -1);
    n = nest->n;
    if (n < 1 || n > TOPO_MAX_DIMS)
        return tilehybrid_status_set(status, TOPO_ERR_NDIMS, "n", -1);
    if (nvec < 1)
        return tilehybrid_status_set(status, TOPO_ERR_STENCIL, "nvec", -1);
    if (stride < n + 1)
        return tilehybrid_status_set(status, TOPO_ERR_STENCIL, "stride", -1);
    for (i = 0; dir != NULL && i <= n; i++)
        if (dir[i] != 1 && dir[i] != -1)
            return tilehybrid_status_set(status, TOPO_ERR_STENCIL, "dir", i);
    memset(dep, 0, sizeof dep);
    memset(ext, 0, sizeof ext);
    for (k = 0; k < nvec; k++)
        if (!topo__stencil_vector(n, vec + (size_t)k * (size_t)stride, dir, dep, ext))
            return tilehybrid_status_set(status, TOPO_ERR_STENCIL, "stencil", k);
    memcpy(nest->dep, dep, sizeof dep);
    memcpy(nest->ext, ext, sizeof ext);
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/**
 * topo_nest_grid() - choose the process grid for a loop nest: the least
 * volume with its extended faces, the balanced grid, or the least
 * predicted time.
 * @nest:   the loop nest (every value checked).
 * @procs:  P, 1..INT_MAX.
 * @policy: TOPO_POLICY_COMM: the grid minimising V = sum_i d_i
 *          prod_{j<i} (c_j + ext[i][j]) prod_{j>i} c_j.  TOPO_POLICY_LATENCY:
 *          the balanced grid (topo_dims_create), which must be one of the
 *          nest's grids.  TOPO_POLICY_TIME: the grid minimising the
 *          pipeline model's time (struct topo_report, @seconds) at the
 *          nest's tile height and cost model: fill steps, messages and
 *          volume together.  The nest's grids are those tiling.h runs:
 *          P_i <= X_i, and P_i <= floor(X_i / d_i) when P_i > 1 (a block
 *          holds the d_i layers it sends).  COMM and TIME search all of
 *          them exactly; ties go to the lexicographically smallest grid.
 *          With ext all 0, COMM gives topo_grid_ex()'s grid whenever that
 *          one is a nest's grid.
 * @dims:   in: 0 = free, > 0 = fixed (one of the nest's grids' entries);
 *          out: the grid.  Unchanged on error.
 * @status: optional error detail (may be NULL).
 *
 * Return: TOPO_OK or TOPO_ERR_NULL ("dims", "nest") / NDIMS / PROCS /
 * POLICY / EXTENT ("extent", or "zlen" with index n) / DEP / STENCIL ("ext",
 * index i * n + j) / COST (the field's name) / FIXED / INFEASIBLE (the rule
 * broken: "extent" -- P_i > X_i -- or "dep" -- P_i > floor(X_i / d_i) --
 * with the dimension where one free dimension, or the latency policy's
 * grid, breaks it; "procs" and -1 where no factorisation over several
 * fits; topo_nest_explain() says it in words) / OVERFLOW (COMM: the
 * optimal V per plane exceeds INT64_MAX).
 */
TILEHYBRID__COLD int topo_nest_grid(const topo_nest *nest, int64_t procs,
                                    topo_policy policy, int *dims,
                                    tilehybrid_status *status)
{
    int64_t rest, lim[TOPO_MAX_DIMS] = { 0 };  /* (set by topo__nest_lim: gcc cannot see it) */
    int i, rc, n, tmp[TOPO_MAX_DIMS];
    if (dims == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "dims", -1);
    if ((rc = topo__check_nest(nest, status)) != TOPO_OK ||
        (rc = topo__check_run(procs, policy, 1, status)) != TOPO_OK)
        return rc;
    n = nest->n;
    topo__nest_lim(nest, lim);
    rc = topo__check_fixed(n, procs, dims, lim, &rest, "dims", status);
    if (rc != TOPO_OK)
        return rc;
    memset(tmp, 0, sizeof tmp);
    for (i = 0; i < n; i++)
        tmp[i] = dims[i];
    if (policy == TOPO_POLICY_LATENCY) {
        rc = topo__latency_grid(n, rest, lim, nest->extent, tmp, "extent", status);
    } else if (policy == TOPO_POLICY_COMM) {
        rc = topo__comm_grid(n, rest, nest->extent, lim, nest->dep, topo__nest_xf(nest), tmp,
                             status);
    } else {
        rc = topo__time_grid(nest, rest, tmp, status);
    }
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++)
        dims[i] = tmp[i];
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/**
 * topo_nest_report() - evaluate a grid for a loop nest: the volumes with
 * extended faces, and the pipeline model's steps and predicted seconds.
 * @nest:   the loop nest (every value checked).
 * @dims:   the grid, every entry >= 1 (P_i > X_i is allowed and flagged).
 * @out:    the report (struct topo_report, @steps and @seconds included;
 *          @feasible and @bad_index also flag a divided dimension whose
 *          blocks are narrower than d_i, which tiling.h refuses);
 *          unchanged on error.
 * @status: optional error detail (may be NULL).
 *
 * With ext all 0 the volumes are topo_report_grid_ex()'s.  Process 0 (the
 * largest block) sends volume_sent elements in all, which is what tiling.h
 * measures as its bytes sent divided by the element size.
 *
 * Return: TOPO_OK or TOPO_ERR_NULL ("dims", "out", "nest") / the nest's
 * errors as topo_nest_grid() / FIXED (a dims entry < 1) / OVERFLOW (as
 * topo_report_grid_ex()) / COST when the predicted time overflows a double
 * (status->arg names the cost at fault: "tcomp", "tstartup", "bandwidth"
 * or "elem_bytes").
 */
TILEHYBRID__COLD int topo_nest_report(const topo_nest *nest, const int *dims,
                                      topo_report *out, tilehybrid_status *status)
{
    topo_report r;
    int64_t lim[TOPO_MAX_DIMS];
    int i, rc;
    if (dims == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "dims", -1);
    if (out == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "out", -1);
    if ((rc = topo__check_nest(nest, status)) != TOPO_OK)
        return rc;
    for (i = 0; i < nest->n; i++)
        if (dims[i] < 1)
            return tilehybrid_status_set(status, TOPO_ERR_FIXED, "dims", i);
    rc = topo__report(nest->n, dims, nest->extent, nest->zlen, nest->dep,
                      topo__nest_xf(nest), &r, status);
    if (rc != TOPO_OK)
        return rc;
    topo__nest_lim(nest, lim);
    r.feasible = 1;
    r.bad_index = -1;
    for (i = 0; i < nest->n && r.feasible; i++)
        if (dims[i] > lim[i]) {
            r.feasible = 0;
            r.bad_index = i;
        }
    r.seconds = topo__time(nest, dims, &r.steps);
    if (!tilehybrid__finite(r.seconds))   /* costs in range whose model overflows */
        return tilehybrid_status_set(status, TOPO_ERR_COST, topo__time_cause(nest, dims), -1);
    *out = r;
    return TOPO_OK;
}
#else
TILEHYBRID__COLD int topo__finite(double x);
TILEHYBRID__COLD int topo__check_cost(const topo_nest *nest, tilehybrid_status *st);
TILEHYBRID__COLD int topo__check_nest(const topo_nest *nest, tilehybrid_status *st);
TILEHYBRID__COLD int topo_nest_init(topo_nest *nest, int n, const int64_t *extent,
                                    int64_t zlen, const int64_t *dep,
                                    tilehybrid_status *status);
TILEHYBRID__COLD int topo__stencil_vector(int n, const int *v, const int *dir,
                                          int64_t *dep,
                                          int64_t (*ext)[TOPO_MAX_DIMS]);
TILEHYBRID__COLD int topo_nest_stencil(topo_nest *nest, int nvec, const int *vec,
                                       int stride, const int *dir,
                                       tilehybrid_status *status);
TILEHYBRID__COLD int topo_nest_grid(const topo_nest *nest, int64_t procs,
                                    topo_policy policy, int *dims,
                                    tilehybrid_status *status);
TILEHYBRID__COLD int topo_nest_report(const topo_nest *nest, const int *dims,
                                      topo_report *out, tilehybrid_status *status);
#endif

/* ---- why no grid fits, in words ---------------------------------------- */

/** Bytes that always hold topo_nest_explain()'s sentence and its NUL. */
#define TOPO_EXPLAIN_SIZE 4096

TILEHYBRID__COLD void topo__cat(char *buf, size_t size, size_t *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#if TILEHYBRID__DEFINE
/* Append fmt's text to buf (size bytes, kept NUL-terminated; NULL when
 * size is 0) at *at; *at counts the whole text, as snprintf's result. */
TILEHYBRID__COLD void topo__cat(char *buf, size_t size, size_t *at, const char *fmt, ...)
{
    va_list ap;
    int k;
    va_start(ap, fmt);
    k = vsnprintf(*at < size ? buf + *at : NULL, *at < size ? size - *at : 0, fmt, ap);
    va_end(ap);
    if (k > 0)
        *at += (size_t)k;
}

/* What follows q (>= 2) in a text: its prime factors, " = 2 x 97",
 * " = 2^10 x 3", or " (a prime)". */
TILEHYBRID__COLD void topo__factors_text(char *buf, size_t size, size_t *at, int64_t q)
{
    int64_t p, m = q;
    int e, first = 1;
    for (p = 2; p <= m / p; p += p == 2 ? 1 : 2) {
        for (e = 0; m % p == 0; e++)
            m /= p;
        if (e > 0)
            topo__cat(buf, size, at, "%s%lld", first ? " = " : " x ", (long long)p);
        if (e > 1)
            topo__cat(buf, size, at, "^%d", e);
        first &= e == 0;
    }
    if (first)
        topo__cat(buf, size, at, " (a prime)");
    else if (m > 1)
        topo__cat(buf, size, at, " x %lld", (long long)m);
}

/* The largest P_i of the nest's grids (topo__nest_lim) and its rule, for
 * a list: "P_i <= X_i = 50", "P_i <= floor(150/3) = 50" or "P_i = 1 (d_i
 * = 5 > X_i = 3)".  Returns 1 where the widths' rule sets it. */
TILEHYBRID__COLD int topo__limit_text(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                      int i)
{
    long long x = (long long)nest->extent[i], d = (long long)nest->dep[i];
    if (d <= 1 || x == 1) {
        topo__cat(buf, size, at, "P_%d <= X_%d = %lld", i + 1, i + 1, x);
        return 0;
    }
    if (d > x)
        topo__cat(buf, size, at, "P_%d = 1 (d_%d = %lld > X_%d = %lld)", i + 1, i + 1, d, i + 1,
                  x);
    else
        topo__cat(buf, size, at, "P_%d <= floor(%lld/%lld) = %lld", i + 1, x, d, x / d);
    return 1;
}

/* Why P_i = v (above the limit lim) breaks a rule of the nest's grids:
 * the rule, the dimension and the numbers.  The one-point rule P_i <= X_i
 * is named where v breaks it, else the widths' rule. */
TILEHYBRID__COLD void topo__why_dim(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                   int i, int64_t v, int64_t lim)
{
    long long x = (long long)nest->extent[i], d = (long long)nest->dep[i];
    if (v > nest->extent[i] || d <= 1 || x == 1) {
        topo__cat(buf, size, at, "a block along dimension %d must hold at least one point, "
                  "so P_%d <= X_%d = %lld", i + 1, i + 1, i + 1, x);
        if (lim < nest->extent[i])
            topo__cat(buf, size, at, " (and the d_%d = %lld points its neighbour reads: "
                      "P_%d <= %lld)", i + 1, d, i + 1, (long long)lim);
    } else if (d > x) {
        topo__cat(buf, size, at, "a block along dimension %d must hold the d_%d = %lld points "
                  "its neighbour reads, more than X_%d = %lld, so dimension %d is not divided "
                  "(P_%d = 1)", i + 1, i + 1, d, i + 1, x, i + 1, i + 1);
    } else {
        topo__cat(buf, size, at, "a block along dimension %d must hold the d_%d = %lld points "
                  "its neighbour reads, so P_%d <= floor(X_%d/d_%d) = floor(%lld/%lld) = "
                  "%lld", i + 1, i + 1, d, i + 1, i + 1, i + 1, x, d, x / d);
    }
}

/* 1 if rest is a product of one factor per free (0) entry of dims, each
 * factor at most lim[i]: the quotients reachable dimension by dimension,
 * over the divisors of rest by mixed-radix index (topo__divs). */
TILEHYBRID__COLD int topo__fits(int n, int64_t rest, const int *dims, const int64_t *lim)
{
    topo__divs dv;
    unsigned char reach[TOPO__MAX_DIVS], next[TOPO__MAX_DIVS];
    int i, qi, j;
    topo__divisors(rest, &dv);
    memset(reach, 0, sizeof reach);
    reach[dv.count - 1] = 1; /* rest itself: every exponent at its top */
    for (i = 0; i < n; i++) {
        if (dims[i] != 0)
            continue;
        memset(next, 0, sizeof next);
        for (qi = 0; qi < dv.count; qi++) {
            int top[10], e[10] = {0}, pi = 0;
            if (!reach[qi])
                continue;
            for (j = 0; j < dv.np; j++)
                top[j] = qi / dv.stride[j] % (dv.expo[j] + 1);
            for (;;) { /* every divisor p of q (index pi): q / p has index qi - pi */
                if (dv.val[pi] <= lim[i])
                    next[qi - pi] = 1;
                for (j = 0; j < dv.np; j++) {
                    if (e[j] < top[j]) {
                        e[j]++;
                        pi += dv.stride[j];
                        break;
                    }
                    pi -= e[j] * dv.stride[j];
                    e[j] = 0;
                }
                if (j == dv.np)
                    break;
            }
        }
        memcpy(reach, next, sizeof reach);
    }
    return reach[0];
}

/* The free dimensions' limits as a list, with the rules they follow. */
TILEHYBRID__COLD void topo__limits_text(char *buf, size_t size, size_t *at,
                                        const topo_nest *nest, const int *dims)
{
    int i, first = 1, widths = 0;
    for (i = 0; i < nest->n; i++)
        if (dims[i] == 0) {
            topo__cat(buf, size, at, "%s", first ? "" : ", ");
            widths |= topo__limit_text(buf, size, at, nest, i);
            first = 0;
        }
    topo__cat(buf, size, at, "%s", widths ? " (a block holds at least one point, and the d_i "
              "points its neighbour reads where P_i > 1)" : " (a block holds at least one point)");
}

/* No factorisation of rest (procs over the fixed entries) fits the free
 * dimensions of dims: the one dimension's rule, the limits' product, or
 * the factors. */
TILEHYBRID__COLD void topo__why_rest(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                     int64_t procs, int64_t rest, const int *dims,
                                     const int64_t *lim)
{
    int i, k = 0, at1 = -1;
    int64_t cap = 1;
    char left[96];
    for (i = 0; i < nest->n; i++)
        if (dims[i] == 0) {
            k++;
            at1 = i;
            if (!tilehybrid_mul_ok(cap, lim[i], &cap))
                cap = INT64_MAX;
        }
    left[0] = '\0';
    if (rest != procs)
        snprintf(left, sizeof left, " (%lld over the fixed entries' product %lld)",
                 (long long)procs, (long long)(procs / rest));
    if (k == 1) {
        topo__cat(buf, size, at, "P_%d would be %lld%s, but ", at1 + 1, (long long)rest, left);
        topo__why_dim(buf, size, at, nest, at1, rest, lim[at1]);
        return;
    }
    if (cap < rest) {
        topo__cat(buf, size, at, "the limits allow at most %lld process%s, not %lld%s: ",
                  (long long)cap, cap == 1 ? "" : "es", (long long)rest, left);
    } else {
        topo__cat(buf, size, at, "no factorisation of %lld", (long long)rest);
        topo__factors_text(buf, size, at, rest);
        topo__cat(buf, size, at, "%s fits the limits ", left);
    }
    topo__limits_text(buf, size, at, nest, dims);
}

/* A fixed entry refused (topo__check_fixed's index i): negative, beyond
 * its limit, or the fixed entries' product. */
TILEHYBRID__COLD void topo__why_fixed(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                      int64_t procs, const int *dims, const int64_t *lim, int i)
{
    int64_t prod = 1;
    int j, nfree = 0, over = 0;
    if (i >= 0 && dims[i] < 0) {
        topo__cat(buf, size, at, "the fixed P_%d = %d is negative", i + 1, dims[i]);
        return;
    }
    if (i >= 0 && dims[i] > lim[i]) {
        topo__cat(buf, size, at, "P_%d = %d is fixed, but ", i + 1, dims[i]);
        topo__why_dim(buf, size, at, nest, i, dims[i], lim[i]);
        return;
    }
    for (j = 0; j < nest->n; j++) {
        nfree += dims[j] == 0;
        if (dims[j] > 0 && !tilehybrid_mul_ok(prod, dims[j], &prod))
            over = 1;
    }
    if (over)
        topo__cat(buf, size, at, "the fixed entries' product is more than %lld",
                  (long long)procs);
    else if (nfree == 0)
        topo__cat(buf, size, at, "the fixed grid has %lld processes, not %lld",
                  (long long)prod, (long long)procs);
    else
        topo__cat(buf, size, at, "the fixed entries' product %lld does not divide %lld",
                  (long long)prod, (long long)procs);
}

/**
 * topo_nest_explain() - why no grid of @procs processes fits a loop nest,
 * in words: the rule a block would break, the dimensions and the numbers.
 * @nest:   the loop nest (every value checked).
 * @procs:  P, 1..INT_MAX.
 * @policy: as for topo_nest_grid(); TOPO_POLICY_LATENCY asks whether the
 *          balanced grid fits, the others whether any of the nest's grids
 *          does.
 * @dims:   as topo_nest_grid()'s input: 0 = free, > 0 = fixed; NULL: all
 *          free.  Not changed.
 * @buf:    out: the sentence, NUL-terminated, cut to @size - 1 bytes
 *          (TOPO_EXPLAIN_SIZE bytes always hold it); "" when a grid fits,
 *          topo_strerror()'s text for the other errors.  NULL only with
 *          @size 0.
 * @size:   bytes at @buf.
 * @status: optional error detail (may be NULL): topo_nest_grid()'s.
 *
 * The nest's grids (topo_nest_grid()): P_i <= X_i, a block holds at least
 * one point; and P_i <= floor(X_i / d_i) where d_i > 1, a block of a
 * divided dimension holds the d_i layers its neighbour reads.  The
 * sentence, for 194 processes on X_1 = 571 with d_1 = 3:
 *     P_1 would be 194, but a block along dimension 1 must hold the d_1 =
 *     3 points its neighbour reads, so P_1 <= floor(X_1/d_1) =
 *     floor(571/3) = 190
 * with one free dimension (status->arg "dep", or "extent" where P_i > X_i
 * breaks the first rule; status->index the dimension); with several, "the
 * limits allow at most C processes, not P: P_1 <= ..., P_2 <= ..." or "no
 * factorisation of P = 2 x 97 fits the limits ..." (status->arg "procs",
 * index -1); under TOPO_POLICY_LATENCY "the balanced grid 2x2 has P_1 =
 * 2, but ..." (arg "extent" or "dep", the dimension); a fixed entry
 * "P_1 = 194 is fixed, but ..." (TOPO_ERR_FIXED, arg "dims"), with the
 * processes the fixed entries leave where they matter.  Callers add what
 * the sentence leaves out: the count, the space, where the values came
 * from.
 *
 * Cost: a pass over the divisors of P per free dimension (no search).
 *
 * Return: TOPO_ERR_INFEASIBLE or TOPO_ERR_FIXED when topo_nest_grid()
 * returns them for these arguments; TOPO_OK when a grid fits
 * (topo_nest_grid() may still return TOPO_ERR_OVERFLOW or TOPO_ERR_COST,
 * which its search finds); TOPO_ERR_NULL ("buf", "nest") or the other
 * argument errors of topo_nest_grid().
 */
TILEHYBRID__COLD int topo_nest_explain(const topo_nest *nest, int64_t procs, topo_policy policy,
                                       const int *dims, char *buf, size_t size,
                                       tilehybrid_status *status)
{
    int64_t rest = 1, lim[TOPO_MAX_DIMS] = { 0 };
    int g[TOPO_MAX_DIMS] = { 0 }, b[TOPO_MAX_DIMS], i, j, rc;
    size_t at = 0;
    tilehybrid_status st;
    if (buf == NULL && size > 0)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "buf", -1);
    if (size > 0)
        buf[0] = '\0';
    if ((rc = topo__check_nest(nest, &st)) != TOPO_OK ||
        (rc = topo__check_run(procs, policy, 1, &st)) != TOPO_OK) {
        topo__cat(buf, size, &at, "%s", topo_strerror(rc));
    } else {
        for (i = 0; dims != NULL && i < nest->n; i++)
            g[i] = dims[i];
        topo__nest_lim(nest, lim);
        rc = topo__check_fixed(nest->n, procs, g, lim, &rest, "dims", &st);
        memcpy(b, g, sizeof b);
        if (rc != TOPO_OK)
            topo__why_fixed(buf, size, &at, nest, procs, g, lim, (int)st.index);
        else if (policy == TOPO_POLICY_LATENCY)
            rc = topo__latency_grid(nest->n, rest, lim, nest->extent, b, "extent", &st);
        else if (!topo__fits(nest->n, rest, g, lim))
            rc = topo__infeasible(nest->n, rest, g, nest->extent, &st);
        if (rc == TOPO_ERR_INFEASIBLE && policy == TOPO_POLICY_LATENCY) {
            i = (int)st.index;
            topo__cat(buf, size, &at, "the balanced grid ");
            for (j = 0; j < nest->n; j++)
                topo__cat(buf, size, &at, "%s%d", j ? "x" : "", b[j]);
            topo__cat(buf, size, &at, " has P_%d = %d, but ", i + 1, b[i]);
            topo__why_dim(buf, size, &at, nest, i, b[i], lim[i]);
        } else if (rc == TOPO_ERR_INFEASIBLE) {
            topo__why_rest(buf, size, &at, nest, procs, rest, g, lim);
        } else if (rc == TOPO_OK) {
            tilehybrid_status_set(&st, TOPO_OK, "", -1);
        }
    }
    if (status != NULL)
        *status = st;
    return rc;
}
#else
TILEHYBRID__COLD void topo__factors_text(char *buf, size_t size, size_t *at, int64_t q);
TILEHYBRID__COLD int topo__limit_text(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                      int i);
TILEHYBRID__COLD void topo__why_dim(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                   int i, int64_t v, int64_t lim);
TILEHYBRID__COLD int topo__fits(int n, int64_t rest, const int *dims, const int64_t *lim);
TILEHYBRID__COLD void topo__limits_text(char *buf, size_t size, size_t *at,
                                        const topo_nest *nest, const int *dims);
TILEHYBRID__COLD void topo__why_rest(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                     int64_t procs, int64_t rest, const int *dims,
                                     const int64_t *lim);
TILEHYBRID__COLD void topo__why_fixed(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                      int64_t procs, const int *dims, const int64_t *lim, int i);
TILEHYBRID__COLD int topo_nest_explain(const topo_nest *nest, int64_t procs, topo_policy policy,
                                       const int *dims, char *buf, size_t size,
                                       tilehybrid_status *status);
#endif

/* ==== src/topology/30-mpi.h ==== */
#line 1 "src/topology/30-mpi.h"
/* ------------------------------------------------------------------------ */
/* MPI: the process grid as a Cartesian communicator                        */

#ifndef TILEHYBRID_NO_MPI

/* ---- topo_cart_create_ex and topo_nest_cart_create in three steps ------ */

/* Values every rank must share: n, policy, reorder; extent, dep and fixed
 * (TOPO_MAX_DIMS entries each, 0 past n); zlen, tile_height and the cost
 * model's four doubles (their bits); ext (TOPO_MAX_DIMS^2 entries). */
#define TOPO__NCOST 6
#define TOPO__NSHARED (3 + 3 * TOPO_MAX_DIMS + TOPO__NCOST + TOPO_MAX_DIMS * TOPO_MAX_DIMS)

#if TILEHYBRID__DEFINE
/* The failing rank's argument (w->arg) as one of the names a status of
 * this header can carry. */
TILEHYBRID__COLD const char *topo__known_arg(const tilehybrid_verdict *w)
{
    static const char *const names[] = {
        "n",    "procs",       "policy",     "extent", "dep",      "dims",     "cart",  "fixed",
        "reorder", "nest",     "zlen",       "tile_height", "elem_bytes", "tcomp",
        "tstartup", "bandwidth", "ext"};
    return tilehybrid_verdict_arg(w, names, (int)(sizeof names / sizeof names[0]),
                                  "another rank");
}

/* The values of v (TOPO__NSHARED, as 64-bit patterns of the caller's
 * values); nest NULL: only n, policy and reorder (this rank's arguments
 * are invalid). */
TILEHYBRID__COLD void topo__cart_values(int n, const topo_nest *nest, topo_policy policy,
                                        const int *fixed, int reorder, uint64_t *v)
{
    const int M = TOPO_MAX_DIMS;
    uint64_t *cost = v + 3 + 3 * M, *ext = cost + TOPO__NCOST;
    int i, j;
    memset(v, 0, sizeof(uint64_t) * TOPO__NSHARED);
    v[0] = (uint64_t)(int64_t)n;
    v[1] = (uint64_t)(int64_t)policy;
    v[2] = (uint64_t)(int64_t)reorder;
    if (nest == NULL)
        return;
    for (i = 0; i < n; i++) {
        v[3 + i] = (uint64_t)nest->extent[i];
        v[3 + M + i] = (uint64_t)nest->dep[i];
        v[3 + 2 * M + i] = (uint64_t)(int64_t)(fixed != NULL ? fixed[i] : 0);
        for (j = 0; j < n; j++)
            ext[i * M + j] = (uint64_t)nest->ext[i][j];
    }
    cost[0] = (uint64_t)nest->zlen;
    cost[1] = (uint64_t)nest->tile_height;
    cost[2] = tilehybrid_bits(nest->elem_bytes);
    cost[3] = tilehybrid_bits(nest->tcomp);
    cost[4] = tilehybrid_bits(nest->tstartup);
    cost[5] = tilehybrid_bits(nest->bandwidth);
}

/* The name and index of the first value that differs between ranks. */
TILEHYBRID__COLD int topo__mismatch(int64_t a, int n, tilehybrid_status *status)
{
    static const char *const first[3] = {"n", "policy", "reorder"};
    static const char *const table[3] = {"extent", "dep", "fixed"};
    static const char *const cost[TOPO__NCOST] = {"zlen",  "tile_height", "elem_bytes",
                                                  "tcomp", "tstartup",    "bandwidth"};
    const int64_t M = TOPO_MAX_DIMS;
    if (a < 3)
        return tilehybrid_status_set(status, TOPO_ERR_MISMATCH, first[a], -1);
    if (a < 3 + 3 * M)
        return tilehybrid_status_set(status, TOPO_ERR_MISMATCH, table[(a - 3) / M],
                                     (a - 3) % M);
    if (a < 3 + 3 * M + TOPO__NCOST)
        return tilehybrid_status_set(status, TOPO_ERR_MISMATCH, cost[a - 3 - 3 * M],
                                     a == 3 + 3 * M ? n : -1);
    a -= 3 + 3 * M + TOPO__NCOST;
    return tilehybrid_status_set(status, TOPO_ERR_MISMATCH, "ext", a / M * n + a % M);
}

/* An MPI call of a collective failed on this rank: the other ranks would
 * wait for it forever, and a failure on one rank cannot be agreed on, so
 * the headers' one path (tilehybrid_mpi_failed(): the call, the rank and
 * MPI's error text on stderr or to the installed hook, then MPI_Abort).
 * Returns TOPO_ERR_MPI (status names the call) only if MPI_Abort returns. */
TILEHYBRID__COLD int topo__mpi_failed(MPI_Comm comm, int mpirc, const char *call, const char *fn,
                                      tilehybrid_status *status)
{
    tilehybrid_mpi_failed(comm, mpirc, call, TOPO_ERR_MPI, "in topology.h's %s()", fn);
    tilehybrid_status_set(status, TOPO_ERR_MPI, call, -1);
    if (status != NULL)
        status->mpi_error = mpirc;
    return TOPO_ERR_MPI;
}

/* Step 2: one tilehybrid_agree().  Returns TOPO_OK when no rank failed and
 * every value is equal; else the code every rank returns, with *status
 * naming the failing rank's argument, index and rank, or the first value
 * that differs between ranks. */
TILEHYBRID__COLD int topo__cart_agree(MPI_Comm comm, int rc, const uint64_t *v,
                                      const tilehybrid_status *mine, const char *fn,
                                      tilehybrid_status *status)
{
    tilehybrid_verdict w;
    tilehybrid_agreement a;
    int mpirc;
    w.text[0] = '\0';
    mpirc = tilehybrid_agree_status(comm, rc, mine, v, TOPO__NSHARED, &w, &a);
    if (mpirc != MPI_SUCCESS)
        return topo__mpi_failed(comm, mpirc, a.call, fn, status);
    if (a.code != 0)
        return tilehybrid_verdict_status(status, &a, &w, topo__known_arg(&w));
    if (a.index < 0)
        return TOPO_OK;
    return topo__mismatch(a.index, (int)v[0], status);
}

/* Step 3: the same arguments everywhere, so the pure search gives the same
 * grid on every rank (topo_grid_ex's for the plain functions, legacy 1;
 * topo_nest_grid's otherwise); then MPI_Cart_create (periods all 0). */
TILEHYBRID__COLD int topo__cart_make(MPI_Comm comm, int size, const topo_nest *nest, int legacy,
                                     topo_policy policy, const int *fixed, int reorder,
                                     MPI_Comm *cart, int *dims, tilehybrid_status *status)
{
    int grid[TOPO_MAX_DIMS], periods[TOPO_MAX_DIMS], i, rc, mpirc, n = nest->n;
    MPI_Comm out = MPI_COMM_NULL;
    for (i = 0; i < n; i++) {
        grid[i] = fixed != NULL ? fixed[i] : 0;
        periods[i] = 0;
    }
    if (legacy)
        rc = topo_grid_ex(n, size, nest->extent, nest->dep, policy, grid, status);
    else
        rc = topo_nest_grid(nest, size, policy, grid, status);
    if (rc != TOPO_OK)
        return rc;
    mpirc = MPI_Cart_create(comm, n, grid, periods, reorder, &out);
    if (mpirc != MPI_SUCCESS)
        return topo__mpi_failed(comm, mpirc, "MPI_Cart_create",
                                legacy ? "topo_cart_create_ex" : "topo_nest_cart_create", status);
    for (i = 0; i < n; i++)
        dims[i] = grid[i];
    *cart = out;
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/* Step 1's common part: MPI_COMM_NULL reported on this rank only (it
 * cannot take part in a collective over comm), and the size of comm.  A
 * NULL cart is not reported here: the callers agree on it with the other
 * arguments. */
TILEHYBRID__COLD int topo__cart_begin(MPI_Comm comm, MPI_Comm *cart, int *size, const char *fn,
                                      tilehybrid_status *status)
{
    int mpirc, inter = 0;
    if (cart != NULL)
        *cart = MPI_COMM_NULL;
    if (comm == MPI_COMM_NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "comm", -1);
    mpirc = MPI_Comm_test_inter(comm, &inter);
    if (mpirc == MPI_SUCCESS && inter) {  /* bad input, the same on every rank */
        tilehybrid_status_set(status, TOPO_ERR_MPI, "comm", -1);
        if (status != NULL)
            status->mpi_error = MPI_ERR_COMM;
        return TOPO_ERR_MPI;
    }
    if (mpirc != MPI_SUCCESS)
        return topo__mpi_failed(comm, mpirc, "MPI_Comm_test_inter", fn, status);
    mpirc = MPI_Comm_size(comm, size);
    if (mpirc != MPI_SUCCESS)
        return topo__mpi_failed(comm, mpirc, "MPI_Comm_size", fn, status);
    return TOPO_OK;
}

/**
 * topo_cart_create_ex() - choose the grid and create the MPI Cartesian
 * communicator over all processes of @comm (collective).
 * @comm:    the communicator (its size is P); its error handler is used as
 *           is, and every MPI return code is checked.
 * @n, @extent, @dep, @policy: as for topo_grid_ex().
 * @fixed:   n entries, 0 = free, > 0 = fixed; NULL means all free.
 * @reorder: passed to MPI_Cart_create (periods are all 0).
 * @cart:    out: the new communicator (MPI_COMM_NULL on error).
 * @dims:    out: the grid, n entries (unchanged on error).
 * @status:  optional error detail (may be NULL), the same on every rank.
 *
 * Every rank must pass the same n, extent, dep, policy, fixed and reorder.
 * One tilehybrid_agree() checks it, and this rank's own argument checks
 * travel with it: if any rank's arguments are invalid, every rank returns
 * the code of the lowest such rank, and status->arg, ->index and ->rank
 * name its argument, dimension and rank; if the arguments differ between
 * ranks, every rank returns TOPO_ERR_MISMATCH and status->arg/index name
 * the first value that differs ("n", "policy", "reorder", or "extent",
 * "dep", "fixed" with the dimension; the values are the caller's own).
 * A NULL @cart or @dims is such an argument (TOPO_ERR_NULL naming "cart"
 * or "dims" and the rank, on every rank).  MPI_COMM_NULL @comm is reported
 * on this rank only, before any communication (that rank is not in the
 * collective); an intercommunicator on every rank as TOPO_ERR_MPI
 * (status->arg "comm", status->mpi_error MPI_ERR_COMM).
 *
 * An MPI call that fails on one rank (MPI_Comm_size, the agreement's
 * MPI_Allreduce or MPI_Bcast, MPI_Cart_create) cannot be agreed on: the
 * other ranks would wait for it forever.  That rank reports the call, its
 * rank and MPI's error text on stderr ("tilehybrid: rank 1:
 * MPI_Cart_create failed in topology.h's topo_cart_create_ex() (...);
 * aborting the job"), or hands that message to the hook installed with
 * tilehybrid_mpi_failure_swap(), then ends the job with MPI_Abort
 * (MPI_COMM_WORLD, errorcode TOPO_ERR_MPI): tilehybrid_mpi_failed().
 *
 * Return: the same code on every rank: TOPO_OK, an argument error or
 * TOPO_ERR_MISMATCH.  TOPO_ERR_MPI (status->arg names the call,
 * status->mpi_error holds the MPI code) only if MPI_Abort returns.
 */
TILEHYBRID__COLD int topo_cart_create_ex(MPI_Comm comm, int n,
                                         const int64_t *extent,
                                         const int64_t *dep, topo_policy policy,
                                         const int *fixed, int reorder,
                                         MPI_Comm *cart, int *dims,
                                         tilehybrid_status *status)
{
    uint64_t v[TOPO__NSHARED];
    tilehybrid_status mine;
    topo_nest nest;
    int size = 0, rc = topo__cart_begin(comm, cart, &size, "topo_cart_create_ex", status);
    if (rc != TOPO_OK)
        return rc;
    tilehybrid_status_set(&mine, TOPO_OK, "", -1);
    if (cart == NULL)
        rc = tilehybrid_status_set(&mine, TOPO_ERR_NULL, "cart", -1);
    else if (dims == NULL)
        rc = tilehybrid_status_set(&mine, TOPO_ERR_NULL, "dims", -1);
    else
        rc = topo__check_common(n, size, extent, dep, policy, &mine);
    if (rc == TOPO_OK) /* zlen 1 and the default cost: the same everywhere */
        rc = topo_nest_init(&nest, n, extent, 1, dep, &mine);
    topo__cart_values(n, rc == TOPO_OK ? &nest : NULL, policy, fixed, reorder, v);
    rc = topo__cart_agree(comm, rc, v, &mine, "topo_cart_create_ex", status);
    if (rc != TOPO_OK)
        return rc;
    return topo__cart_make(comm, size, &nest, 1, policy, fixed, reorder, cart, dims, status);
}

/**
 * topo_cart_create() - topo_cart_create_ex() without the error detail.
 * @comm, @n, @extent, @dep, @policy, @fixed, @reorder, @cart, @dims: as
 *           for topo_cart_create_ex().
 *
 * Return: as topo_cart_create_ex().
 */
TILEHYBRID__COLD int topo_cart_create(MPI_Comm comm, int n,
                                      const int64_t *extent, const int64_t *dep,
                                      topo_policy policy, const int *fixed,
                                      int reorder, MPI_Comm *cart, int *dims)
{
    return topo_cart_create_ex(comm, n, extent, dep, policy, fixed, reorder,
                               cart, dims, NULL);
}

/* Step 1 of topo_nest_cart_create(): this rank's verdict on its own
 * arguments, in topo_nest_grid()'s order (the fixed entries are checked in
 * step 3, on every rank alike). */
TILEHYBRID__COLD int topo__nest_local(const topo_nest *nest, int size, topo_policy policy,
                                      const MPI_Comm *cart, const int *dims,
                                      tilehybrid_status *mine)
{
    int rc;
    tilehybrid_status_set(mine, TOPO_OK, "", -1);
    if (cart == NULL)
        return tilehybrid_status_set(mine, TOPO_ERR_NULL, "cart", -1);
    if (dims == NULL)
        return tilehybrid_status_set(mine, TOPO_ERR_NULL, "dims", -1);
    rc = topo__check_nest(nest, mine);
    return rc != TOPO_OK ? rc : topo__check_run(size, policy, 1, mine);
}

/**
 * topo_nest_cart_create() - choose the grid of a loop nest by any policy
 * (topo_nest_grid()) and create the MPI Cartesian communicator over all
 * processes of @comm (collective).
 * @comm:    the communicator (its size is P).
 * @nest:    the loop nest, the same on every rank.
 * @policy:  TOPO_POLICY_COMM, TOPO_POLICY_LATENCY or TOPO_POLICY_TIME.
 * @fixed, @reorder, @cart, @dims, @status: as for topo_cart_create_ex().
 *
 * As topo_cart_create_ex(), with every value of the nest agreed on: a
 * mismatch names "extent", "dep", "fixed" (index: the dimension), "zlen"
 * (index n), "tile_height", "elem_bytes", "tcomp", "tstartup",
 * "bandwidth", or "ext" (index i * n + j).
 *
 * Return: the same code on every rank, as topo_cart_create_ex(); the
 * nest's own errors as topo_nest_grid().
 */
TILEHYBRID__COLD int topo_nest_cart_create(MPI_Comm comm, const topo_nest *nest,
                                           topo_policy policy, const int *fixed,
                                           int reorder, MPI_Comm *cart, int *dims,
                                           tilehybrid_status *status)
{
    uint64_t v[TOPO__NSHARED];
    tilehybrid_status mine;
    int size = 0, rc = topo__cart_begin(comm, cart, &size, "topo_nest_cart_create", status);
    if (rc != TOPO_OK)
        return rc;
    rc = topo__nest_local(nest, size, policy, cart, dims, &mine);
    topo__cart_values(nest != NULL ? nest->n : 0, rc == TOPO_OK ? nest : NULL, policy,
                      fixed, reorder, v);
    rc = topo__cart_agree(comm, rc, v, &mine, "topo_nest_cart_create", status);
    if (rc != TOPO_OK)
        return rc;
    return topo__cart_make(comm, size, nest, 0, policy, fixed, reorder, cart, dims, status);
}
#else
TILEHYBRID__COLD const char *topo__known_arg(const tilehybrid_verdict *w);
TILEHYBRID__COLD void topo__cart_values(int n, const topo_nest *nest, topo_policy policy,
                                        const int *fixed, int reorder, uint64_t *v);
TILEHYBRID__COLD int topo__mismatch(int64_t a, int n, tilehybrid_status *status);
TILEHYBRID__COLD int topo__mpi_failed(MPI_Comm comm, int mpirc, const char *call, const char *fn,
                                      tilehybrid_status *status);
TILEHYBRID__COLD int topo__cart_agree(MPI_Comm comm, int rc, const uint64_t *v,
                                      const tilehybrid_status *mine, const char *fn,
                                      tilehybrid_status *status);
TILEHYBRID__COLD int topo__cart_make(MPI_Comm comm, int size, const topo_nest *nest, int legacy,
                                     topo_policy policy, const int *fixed, int reorder,
                                     MPI_Comm *cart, int *dims, tilehybrid_status *status);
TILEHYBRID__COLD int topo__cart_begin(MPI_Comm comm, MPI_Comm *cart, int *size, const char *fn,
                                      tilehybrid_status *status);
TILEHYBRID__COLD int topo_cart_create_ex(MPI_Comm comm, int n,
                                         const int64_t *extent,
                                         const int64_t *dep, topo_policy policy,
                                         const int *fixed, int reorder,
                                         MPI_Comm *cart, int *dims,
                                         tilehybrid_status *status);
TILEHYBRID__COLD int topo_cart_create(MPI_Comm comm, int n,
                                      const int64_t *extent, const int64_t *dep,
                                      topo_policy policy, const int *fixed,
                                      int reorder, MPI_Comm *cart, int *dims);
TILEHYBRID__COLD int topo__nest_local(const topo_nest *nest, int size, topo_policy policy,
                                      const MPI_Comm *cart, const int *dims,
                                      tilehybrid_status *mine);
TILEHYBRID__COLD int topo_nest_cart_create(MPI_Comm comm, const topo_nest *nest,
                                           topo_policy policy, const int *fixed,
                                           int reorder, MPI_Comm *cart, int *dims,
                                           tilehybrid_status *status);
#endif

#endif /* TILEHYBRID_NO_MPI */

/* ==== src/topology/99-end.h ==== */
#line 1 "src/topology/99-end.h"
#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_TOPOLOGY_H */
