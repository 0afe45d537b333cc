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
