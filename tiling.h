/* tiling.h -- tiled, pipelined MPI execution of loop nests with flow
 * dependencies.  Part of tilehybrid (MIT licence), version TILE_VERSION.
 *
 * You have a loop nest over X_1 x ... x X_N x Z whose point update reads
 * only earlier points along the axes: A(x - a e_i) for 1 <= a <= d_i and
 * A(z - a) for 1 <= a <= d_Z.  Write that update once; tiling.h runs it on a
 * grid of MPI processes.  Each process owns a block of the X dimensions (the
 * grid comes from topology.h) and walks its column of tiles along Z, tile
 * height z: per tile it sends the boundary of the previous tile to its +dir
 * neighbours (nonblocking), posts receives for the next tile, computes the
 * current one, waits and unpacks (Algorithm 2 of the papers).  hybrid.h adds
 * the three MPI+OpenMP models on top of the same plan and the same body.
 *
 * The toolkit owns the local block, its ghost layers (width d_i on the low
 * side of every dimension, d_Z planes below) and all packing; the body reads
 * and writes points through TILE_AT().  Only a window of the Z dimension is
 * kept ((S + 2 + ceil(d_Z/z)) tiles of z planes, S the hyperplane skew of the
 * thread grid, plus d_Z mirror planes), so memory does not grow with Z; ask
 * for TILE_STORE_FULL to keep every plane.
 *
 * Example: the ADI kernel A[x][y][z] = (A[x-1][y][z] + A[x][y-1][z]
 * + A[x][y][z-1]) / 3 on 64 x 256 x 16384 (compile with mpicc):
 *
 *     #include "tiling.h"
 *
 *     static void edge(void *out, const int64_t *c, void *ctx)
 *     {   (void)ctx; *(double *)out = (double)((31*c[0] + 17*c[1] + 7*c[2]
 *                                               + 1000003) % 97) / 97.0;  }
 *
 *     int main(int argc, char **argv)
 *     {
 *         tile_config cfg;
 *         tile_plan plan;
 *         MPI_Init(&argc, &argv);
 *         tile_config_init(&cfg, 2);                 // N = 2, plus Z
 *         cfg.extent[0] = 64;  cfg.extent[1] = 256;  cfg.zlen = 16384;
 *         cfg.dep[0] = 1;  cfg.dep[1] = 1;  cfg.depz = 1;
 *         cfg.tile_height = 100;
 *         cfg.elem_size = sizeof(double);
 *         cfg.boundary = edge;
 *         if (tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) != TILE_OK) {
 *             fprintf(stderr, "%s\n", plan.errmsg);    // same error on every rank
 *             MPI_Finalize();
 *             return 1;
 *         }
 *         TILE_FOREACH_GROUP(&plan, g)
 *             TILE_MPI_STEP(g, it, {
 *                 TILE_AT(double, it, 0, 0, 0) =
 *                     ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0))
 *                      + TILE_AT(double, it, 0, 0, -1)) / 3.0;
 *             });
 *         tile_plan_destroy(&plan);
 *         MPI_Finalize();
 *         return 0;
 *     }
 *
 * The body
 *   - reads and writes through TILE_AT(type, it, o_1, ..., o_N, o_Z): the
 *     point at offset o from the current one.  Offsets must be axis-aligned
 *     (at most one non-zero) with -d_i <= o_i <= 0 (-d_Z <= o_Z <= 0): that is
 *     the dependence model, and the only data the pipeline delivers.  Define
 *     TILE_CHECK_ACCESS to have every access checked (slow; errors are
 *     reported by tile_plan_status()).
 *   - must write the current point before reading it (points are recycled
 *     as the Z window slides);
 *   - may read its global coordinates with tile_coord(&it, i) (i = N is Z)
 *     and its OpenMP thread number with TILE_THREAD(it) (for per-thread
 *     accumulators: the fine-grain model opens the parallel region itself);
 *   - `continue` skips to the next point.  `break`, `return` and `goto` out
 *     of the body are not allowed: they would leave a tile half computed
 *     and the neighbours waiting.  A `break` is detected and reported by
 *     tile_plan_status() as TILE_ERR_BODY; the others cannot be detected.
 *
 * Iteration order inside a tile: by default Z outermost, then X_1 ... X_N
 * with the last dimension innermost and contiguous in memory; with
 * cfg.order = TILE_ORDER_Z_INNER, Z innermost (faster for kernels whose
 * recurrence along Z is cheap).  Any order consistent with the dependences
 * gives bitwise the same values, because every point is computed from the
 * same operands by the same expression.
 *
 * Options (#define before including):
 *   TILE_CHECK_ACCESS   validate every TILE_AT offset (debugging aid; C only,
 *                       it uses a compound literal).
 *   TILE_SIM_FLOPS      under SimGrid SMPI only (smpicc): the simulated flops
 *                       charged per computed point (default 1; 0 = let SMPI
 *                       time the real computation).  See tile__sim_begin().
 *
 * Requires MPI (any version >= 2.2) and C99.  OpenMP is optional here
 * (needed only for threaded models in hybrid.h).
 */
#ifndef TILEHYBRID_TILING_H
#define TILEHYBRID_TILING_H

#define TILE_VERSION "0.1.0"

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "balance.h"
#include "topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest N (distributed dimensions); the space has N + 1 dimensions. */
#define TILE_MAX_DIMS 8
/** Largest dependence distance d_Z along the pipelined dimension. */
#define TILE_MAX_DEPZ 63

/** Error codes.  tile_strerror() gives the text, plan->errmsg the detail. */
enum tile_error {
    TILE_OK = 0,
    TILE_ERR_NULL,          /* a required pointer is NULL */
    TILE_ERR_NDIMS,         /* N outside 1..TILE_MAX_DIMS */
    TILE_ERR_EXTENT,        /* an extent X_i or Z below 1 */
    TILE_ERR_DEP,           /* a dependence d_i < 0 or d_Z outside 0..TILE_MAX_DEPZ */
    TILE_ERR_TILE_HEIGHT,   /* tile height below 1 */
    TILE_ERR_ELEM,          /* element size 0 */
    TILE_ERR_GRID,          /* process grid impossible or not matching the process count */
    TILE_ERR_THREADS,       /* thread count or thread grid invalid */
    TILE_ERR_TOO_MANY,      /* more processes or threads than points along a dimension */
    TILE_ERR_DEP_TOO_WIDE,  /* a dependence wider than a process's block */
    TILE_ERR_MISMATCH,      /* arguments differ between ranks */
    TILE_ERR_THREAD_LEVEL,  /* MPI does not provide the thread support the model needs */
    TILE_ERR_NO_OPENMP,     /* threads requested but compiled without OpenMP */
    TILE_ERR_MODEL,         /* unknown model, or a step macro of another model */
    TILE_ERR_BAL,           /* balancing factor outside [0, 1] */
    TILE_ERR_NOMEM,         /* allocation failed */
    TILE_ERR_OVERFLOW,      /* sizes overflow 64-bit or a message exceeds INT_MAX bytes */
    TILE_ERR_MPI,           /* an MPI call failed */
    TILE_ERR_BODY,          /* the body used break, or an invalid TILE_AT offset */
    TILE_ERR_REMOTE,        /* another rank rejected its arguments */
    TILE_ERR_BALANCE,       /* invalid balancing policy or cost model */
    TILE_ERR_STORAGE,       /* storage not a tile_storage */
    TILE_ERR_COUNT_
};

/** Parallel programming models (hybrid.h implements the last three). */
enum tile_model {
    TILE_MODEL_MPI = 0,      /* pure MPI, Alg. 2 */
    TILE_MODEL_FINE,         /* fine-grain hybrid (masteronly), Alg. 3 */
    TILE_MODEL_FUNNELED,     /* coarse-grain funneled hybrid, Alg. 4 */
    TILE_MODEL_MULTIPLE      /* coarse-grain multiple hybrid, Alg. 5 */
};

/** How the process grid is chosen when cfg.grid is not fully given. */
enum tile_grid_policy { TILE_GRID_COMM = 0, TILE_GRID_LATENCY = 1 };

/** Balancing policy of the funneled model (balance.h computes the factors). */
enum tile_balance {
    TILE_BAL_FIXED = 0,   /* cfg.bal for every process (1 = no balancing) */
    TILE_BAL_CONSTANT,    /* eq. 1 for a process that sends in every dimension */
    TILE_BAL_VARIABLE,    /* eq. 1 for each process's own sending directions */
    TILE_BAL_ADAPTIVE,    /* Lemma 2 on measured master times, re-evaluated */
    TILE_BAL_CUSTOM       /* cfg.bal_fn gives the factor of every tile */
};

struct tile_plan;
/** A custom balancing policy: the master's factor in [0,1] for tile k
 *  (called by the master thread, in tile order, before the tile starts). */
typedef double (*tile_bal_fn)(const struct tile_plan *plan, int64_t k, void *ctx);

/** Order of the points inside a tile (any order gives the same bits). */
enum tile_order {
    TILE_ORDER_PLANES = 0,  /* Z outermost, the last X dimension innermost */
    TILE_ORDER_Z_INNER = 1  /* Z innermost (kernels whose Z recurrence is cheap) */
};

/** Storage of the Z dimension. */
enum tile_storage { TILE_STORE_WINDOW = 0, TILE_STORE_FULL = 1 };

/** Boundary values: write the value of the point at global coordinates
 *  coord[0..N] (coord[N] is Z; exactly one coordinate is negative) to out. */
typedef void (*tile_boundary_fn)(void *out, const int64_t *coord, void *ctx);

/** What to compute and how.  Fill with tile_config_init(), then set fields. */
typedef struct tile_config {
    int n;                          /* N, distributed dimensions (1..TILE_MAX_DIMS) */
    int64_t extent[TILE_MAX_DIMS];  /* X_1..X_N (>= 1) */
    int64_t zlen;                   /* Z (>= 1) */
    int dep[TILE_MAX_DIMS];         /* d_1..d_N (>= 0) */
    int depz;                       /* d_Z (0..TILE_MAX_DEPZ) */
    int64_t tile_height;            /* z (>= 1; larger than Z is fine) */
    size_t elem_size;               /* bytes per point (default sizeof(double)) */
    int model;                      /* enum tile_model (default TILE_MODEL_MPI) */
    int threads;                    /* T threads per process (default 1) */
    int grid[TILE_MAX_DIMS];        /* process grid: 0 = free, > 0 = fixed */
    int grid_policy;                /* enum tile_grid_policy for free entries */
    int tgrid[TILE_MAX_DIMS];       /* thread grid, all 0 = chosen by topo_hybrid_grid */
    double bal;                     /* funneled: master share factor in [0,1], default 1
                                       (the fixed factor, or where adaptive starts) */
    int balance;                    /* funneled: enum tile_balance (default TILE_BAL_FIXED) */
    double tcomp;                   /* cost model for constant/variable balancing: seconds */
    double tstartup;                /*   per point, per message, and bytes per second; */
    double bandwidth;               /*   0 = TILEHYBRID_* environment, else measured */
    int64_t adapt_sample;           /* adaptive: sampling steps (0 = 2PT) */
    int64_t adapt_period;           /* adaptive: re-evaluate every (0 = sample, -1 = once) */
    double adapt_smoothing;         /* adaptive: weight of a new estimate (0 = 0.5) */
    tile_bal_fn bal_fn;             /* TILE_BAL_CUSTOM: the factor of each tile */
    void *bal_ctx;
    int storage;                    /* enum tile_storage */
    int order;                      /* enum tile_order (default TILE_ORDER_PLANES) */
    tile_boundary_fn boundary;      /* NULL: boundary values are 0 */
    void *boundary_ctx;
} tile_config;

/** Per-thread instrumentation, in seconds and bytes (padded to a cache line). */
typedef struct tile_stats {
    double compute;     /* computing points (and boundary values) */
    double comm;        /* packing, posting MPI calls, unpacking */
    double idle;        /* the rest of the run: MPI_Waitall, barriers, no tile */
    double wait;        /* the part of idle spent in MPI_Waitall */
    int64_t points;     /* points computed */
    int64_t bytes_sent; /* message bytes sent by this thread */
    int64_t messages;   /* messages sent by this thread */
    int64_t tiles;      /* tiles (thread tiles) computed */
    int error;          /* first error met by this thread (TILE_OK if none) */
    char pad_[60];      /* 128 bytes: threads do not share cache lines */
} tile_stats;

/** A process's share of the computation.  Created collectively by
 *  tile_plan_create(); read-only for the user (except through the API). */
typedef struct tile_plan {
    tile_config cfg;
    int n, threads;
    MPI_Comm comm;                      /* Cartesian communicator (owned) */
    int rank, size;
    int pdims[TILE_MAX_DIMS], pcoords[TILE_MAX_DIMS];
    int nbr_lo[TILE_MAX_DIMS], nbr_hi[TILE_MAX_DIMS]; /* MPI_PROC_NULL when none */
    int64_t lo[TILE_MAX_DIMS], len[TILE_MAX_DIMS];    /* global start, extent L_i */
    int tdims[TILE_MAX_DIMS];           /* thread grid */
    int bal_dim;                        /* dimension the balancing factor splits (-1: none) */
    int64_t *tsplit[TILE_MAX_DIMS];     /* tsplit[i][0..T_i]: thread box bounds */
    int *tcoord;                        /* tcoord[t*n + i]: coordinates of thread t */
    int *tskew;                         /* sum of thread coordinates */
    int64_t ntiles, nsteps;             /* K = ceil(Z/z); steps of the run */
    int64_t skew;                       /* S = sum (T_i - 1) */
    /* The tile schedule: tile k starts at step sigma(k) (on thread 0) and
     * thread t computes it at sigma(k) + skew(t); sigma(k+1) = sigma(k) + 1,
     * plus S drain steps when the thread split changes (adaptive balancing).
     * Ring of W records: sigma and the bounds along bal_dim. */
    int whole_face;                     /* 1: one message per tile and direction */
    int sched_w;
    int64_t *sched_sigma, *sched_bounds;
    int64_t announced, send_next, recv_next, recv_pending;
    int64_t *next_tile;                 /* per thread, 8 apart (no false sharing) */
    double bal_now, bal_first;          /* factor for tiles announced now; at start */
    int64_t bal_changes;                /* split changes during the run */
    int bal_clamped;                    /* eq. 1 asked for a factor outside [0,1] */
    int bal_uncalibrated;               /* the network could not be measured: bal = 1 */
    bal_model model;                    /* constant/variable: the cost model used */
    bal_adaptive adapt;
    double last_comp, last_comm;        /* master's totals at the end of the last step */
    int64_t ring_planes;                /* R */
    int64_t plane_elems;
    int64_t stride[TILE_MAX_DIMS];      /* element strides within a plane */
    size_t plane_bytes;
    unsigned char *ring;
    unsigned char *sbuf[TILE_MAX_DIMS], *rbuf[TILE_MAX_DIMS];
    int64_t *seg;                       /* seg[i*T + t]: byte offset of thread t's part */
    MPI_Request *req;                   /* 2N per thread */
    int *nreq;
    tile_stats *stats;                  /* one per thread */
    int64_t bytes_sent, messages;       /* this process, whole run */
    double seconds;                     /* wall time of the last run */
    double run_start;
    int run_ok;                         /* set by the collective start of a run */
    int err;
    char errmsg[256];
} tile_plan;

/** A time step (hyperplane group) of a process; declared by
 *  TILE_FOREACH_GROUP, passed to the step macros. */
typedef struct tile_group {
    tile_plan *plan;
    int64_t step;       /* local step s: thread t computes tile s - skew(t) */
    int thread;
} tile_group;

/** The point being computed: declared by the step macros, read through
 *  TILE_AT, tile_coord and TILE_THREAD. */
typedef struct tile_cursor {
    unsigned char *base;                  /* plane of the pass (plane order) or of z0 */
    ptrdiff_t off;                        /* byte offset of the point from base */
    ptrdiff_t step;                       /* bytes from one point of a row to the next */
    int64_t xl, xend;                     /* innermost coordinate, end of the row */
    int64_t st[TILE_MAX_DIMS + 1];        /* element strides; st[N] is a plane */
    size_t esz;
    int n, depz, thread, inner;           /* inner: n - 1 (plane order) or n (Z) */
    int64_t z, z1;                        /* passes: planes, or one pass for Z inner */
    int64_t x[TILE_MAX_DIMS];             /* local coordinates of the other dims */
    int64_t blo[TILE_MAX_DIMS + 1], bhi[TILE_MAX_DIMS + 1]; /* box; [N]: the tile's Z */
    int done;
    tile_plan *plan;
} tile_cursor;

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

/** Text for an error code (never NULL). */
static inline const char *tile_strerror(int err)
{
    static const char *const msg[] = {
        "success",
        "a required pointer argument is NULL",
        "number of dimensions N out of range",
        "an extent (X_i or Z) is below 1",
        "a dependence distance is negative or too large",
        "tile height below 1",
        "element size is 0",
        "process grid impossible or not matching the number of processes",
        "invalid thread count or thread grid",
        "more processes or threads than points along a dimension",
        "a dependence is wider than a process's block (data would come from a non-neighbour)",
        "arguments differ between MPI ranks",
        "MPI does not provide the thread support level this model needs",
        "threads requested but the program was compiled without OpenMP",
        "unknown model, or a step macro that does not match the plan's model",
        "balancing factor outside [0, 1]",
        "out of memory",
        "size overflow (64-bit, or a message larger than INT_MAX bytes)",
        "an MPI call failed",
        "the loop body used break or an invalid TILE_AT offset",
        "another rank rejected its arguments",
        "invalid balancing policy or cost model",
        "storage or order is not one of its enum values",
    };
    if (err < 0 || err >= TILE_ERR_COUNT_)
        return "unknown tilehybrid error";
    return msg[err];
}

/** Fill cfg with defaults for n distributed dimensions: extents, Z and tile
 *  height 1, dependences 1 (d_Z = 1), doubles, pure MPI, one thread,
 *  communication-optimal grid, bal = 1, windowed storage, zero boundary. */
static inline void tile_config_init(tile_config *cfg, int n)
{
    int i;
    memset(cfg, 0, sizeof *cfg);
    cfg->n = n;
    for (i = 0; i < TILE_MAX_DIMS; i++) {
        cfg->extent[i] = 1;
        cfg->dep[i] = 1;
    }
    cfg->zlen = 1;
    cfg->depz = 1;
    cfg->tile_height = 1;
    cfg->elem_size = sizeof(double);
    cfg->model = TILE_MODEL_MPI;
    cfg->threads = 1;
    cfg->grid_policy = TILE_GRID_COMM;
    cfg->bal = 1.0;
    cfg->storage = TILE_STORE_WINDOW;
}

/** Name of a model ("mpi", "fine", "funneled", "multiple"), or NULL. */
static inline const char *tile_model_name(int model)
{
    switch (model) {
    case TILE_MODEL_MPI: return "mpi";
    case TILE_MODEL_FINE: return "fine";
    case TILE_MODEL_FUNNELED: return "funneled";
    case TILE_MODEL_MULTIPLE: return "multiple";
    default: return NULL;
    }
}

/** MPI thread support level a model needs. */
static inline int tile_model_thread_level(int model, int threads)
{
    if (model == TILE_MODEL_MULTIPLE)
        return MPI_THREAD_MULTIPLE;
    if (model == TILE_MODEL_MPI || threads <= 1)
        return MPI_THREAD_SINGLE;
    return MPI_THREAD_FUNNELED;
}

/* ------------------------------------------------------------------------ */
/* Small private helpers                                                    */

static inline double tile__now(void)
{
#ifdef _OPENMP
    return omp_get_wtime();
#else
    return MPI_Wtime();
#endif
}

/*
 * Simulation hook, active only under SimGrid SMPI (smpicc; SMPI's mpi.h
 * defines SMPI_SAMPLE_FLOPS).  SMPI normally times the real computation
 * between MPI calls and scales it, which makes simulated times as noisy as
 * the machine running the simulation.  Around each tile's points
 * (TILE__COMPUTE), tile__sim_begin() stops SMPI's timer and
 * tile__sim_end(points) charges points * TILE_SIM_FLOPS flops to the
 * simulated host instead, then restarts the timer.  With one flop per point
 * (the default), the platform's host speed is points per second (1 / t_comp).
 * Run with --cfg=smpi/simulate-computation:no so that the code between MPI
 * calls (packing, boundary values) costs nothing either: a simulation then
 * repeats exactly.  The values computed are the same as under any MPI.
 * TILE_SIM_FLOPS 0 leaves SMPI's own timing on.  Elsewhere both do nothing.
 */
#ifdef SMPI_SAMPLE_FLOPS
#ifndef TILE_SIM_FLOPS
#define TILE_SIM_FLOPS 1.0
#endif
static inline void tile__sim_begin(void)
{
    if (TILE_SIM_FLOPS > 0)
        smpi_bench_end();
}

static inline void tile__sim_end(int64_t points)
{
    if (TILE_SIM_FLOPS > 0) {
        smpi_execute_flops((double)points * (TILE_SIM_FLOPS));
        smpi_bench_begin();
    }
}
#else
static inline void tile__sim_begin(void) {}
static inline void tile__sim_end(int64_t points) { (void)points; }
#endif

static inline int tile__thread_num(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* a * b for non-negative a, b; returns -1 on overflow. */
static inline int64_t tile__mul(int64_t a, int64_t b)
{
    if (a < 0 || b < 0)
        return -1;
    if (a != 0 && b > INT64_MAX / a)
        return -1;
    return a * b;
}

static inline int tile__fail(tile_plan *p, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static inline int tile__fail(tile_plan *p, int code, const char *fmt, ...)
{
    va_list ap;
    if (p->err != TILE_OK)
        return p->err;
    p->err = code;
    va_start(ap, fmt);
    vsnprintf(p->errmsg, sizeof p->errmsg, fmt, ap);
    va_end(ap);
    return code;
}

/* Record the first error of a thread during a run. */
static inline void tile__thread_error(tile_plan *p, int t, int code)
{
    if (p->stats[t].error == TILE_OK)
        p->stats[t].error = code;
}

/* Plane z (z >= -d_Z).  The ring holds R planes, R a multiple of the tile
 * height, so a tile never wraps; d_Z mirror planes in front of it hold the
 * planes below z = 0, and later copies of the ring's last d_Z planes, so that
 * plane z - j is always j plane strides below plane z inside a tile. */
static inline unsigned char *tile__plane(const tile_plan *p, int64_t z)
{
    int64_t slot = p->cfg.depz + (z >= 0 ? z % p->ring_planes : z);
    return p->ring + (size_t)slot * p->plane_bytes;
}

/* Byte offset within a plane of local coordinates x[0..n-1] (ghosts < 0). */
static inline ptrdiff_t tile__offset(const tile_plan *p, const int64_t *x)
{
    int64_t e = 0;
    int i;
    for (i = 0; i < p->n; i++)
        e += (x[i] + p->cfg.dep[i]) * p->stride[i];
    return (ptrdiff_t)(e * (int64_t)p->cfg.elem_size);
}

/* p->nsteps is written by the thread that schedules tiles and read by all
 * threads at the top of every step (a named critical section: once a step;
 * gcc 12 misreports "omp atomic write" operands as unused). */
static inline int64_t tile__nsteps(const tile_plan *p)
{
    int64_t v;
#ifdef _OPENMP
#pragma omp critical(tile__nsteps_lock)
#endif
    v = p->nsteps;
    return v;
}

static inline void tile__set_nsteps(tile_plan *p, int64_t v)
{
#ifdef _OPENMP
#pragma omp critical(tile__nsteps_lock)
#endif
    p->nsteps = v;
}

/* The schedule record of tile k (valid while k is in flight). */
static inline int64_t tile__sigma(const tile_plan *p, int64_t k)
{
    return p->sched_sigma[k % p->sched_w];
}

static inline int64_t *tile__bounds(const tile_plan *p, int64_t k)
{
    int ta = p->bal_dim < 0 ? 1 : p->tdims[p->bal_dim];
    return p->sched_bounds + (size_t)(k % p->sched_w) * (size_t)(ta + 1);
}

/* Tile thread t computes at step s (and claim it), or -1. */
static inline int64_t tile__claim(tile_plan *p, int t, int64_t s)
{
    int64_t k;
    if (t < 0 || t >= p->threads)
        return -1;
    k = p->next_tile[8 * t];
    /* tile k was announced before its predecessor started (tile__advance),
     * so its record is stable by now */
    if (k >= p->ntiles || tile__sigma(p, k) + p->tskew[t] != s)
        return -1;
    p->next_tile[8 * t] = k + 1;
    return k;
}

/* Tile of thread t's face part in the message of step s (multiple model:
 * sigma(k) = k, one message per thread part), or -1. */
static inline int64_t tile__part_tile(const tile_plan *p, int t, int64_t s)
{
    int64_t k = s - p->tskew[t];
    return (k >= 0 && k < p->ntiles) ? k : -1;
}

static inline int64_t tile__tile_z0(const tile_plan *p, int64_t k)
{
    return k * p->cfg.tile_height;
}

static inline int64_t tile__tile_z1(const tile_plan *p, int64_t k)
{
    int64_t z1 = (k + 1) * p->cfg.tile_height;
    return z1 < p->cfg.zlen ? z1 : p->cfg.zlen;
}

/* Box of thread t for tile k (local coordinates [lo, hi) per dimension). */
static inline void tile__thread_box(const tile_plan *p, int t, int64_t k, int64_t *lo,
                                    int64_t *hi)
{
    int i;
    for (i = 0; i < p->n; i++) {
        int c = p->tcoord[t * p->n + i];
        const int64_t *b = i == p->bal_dim ? tile__bounds(p, k) : p->tsplit[i];
        lo[i] = b[c];
        hi[i] = b[c + 1];
    }
}

/* The whole block, or its face in dimension i (last d_i layers, or the d_i
 * ghost layers below it). */
static inline void tile__block_face(const tile_plan *p, int i, int ghost, int64_t *lo,
                                    int64_t *hi)
{
    int j;
    for (j = 0; j < p->n; j++) {
        lo[j] = 0;
        hi[j] = p->len[j];
    }
    if (i < 0)
        return;
    lo[i] = ghost ? -p->cfg.dep[i] : p->len[i] - p->cfg.dep[i];
    hi[i] = ghost ? 0 : p->len[i];
}

/* Visit the rows (innermost dimension) of box [lo,hi) x planes [z0,z1):
 * calls fn(ctx, plane_base + row_offset, row_bytes, coords) per row. */
typedef void (*tile__row_fn)(void *ctx, unsigned char *row, size_t bytes,
                             const int64_t *x, int64_t z);

static inline void tile__for_rows(const tile_plan *p, int64_t z0, int64_t z1,
                                  const int64_t *lo, const int64_t *hi,
                                  tile__row_fn fn, void *ctx)
{
    int n = p->n, i;
    int64_t x[TILE_MAX_DIMS], z;
    size_t bytes;
    for (i = 0; i < n; i++)
        if (hi[i] <= lo[i])
            return;
    bytes = (size_t)(hi[n - 1] - lo[n - 1]) * p->cfg.elem_size;
    for (z = z0; z < z1; z++) {
        unsigned char *base = tile__plane(p, z);
        for (i = 0; i < n; i++)
            x[i] = lo[i];
        for (;;) {
            fn(ctx, base + tile__offset(p, x), bytes, x, z);
            for (i = n - 2; i >= 0; i--) {
                if (++x[i] < hi[i])
                    break;
                x[i] = lo[i];
            }
            if (i < 0)
                break;
        }
    }
}

typedef struct tile__copy_ctx {
    unsigned char *buf;
    int to_buf;
} tile__copy_ctx;

static inline void tile__copy_row(void *ctx, unsigned char *row, size_t bytes,
                                  const int64_t *x, int64_t z)
{
    tile__copy_ctx *c = (tile__copy_ctx *)ctx;
    (void)x;
    (void)z;
    if (c->to_buf)
        memcpy(c->buf, row, bytes);
    else
        memcpy(row, c->buf, bytes);
    c->buf += bytes;
}

/* memset that the compiler cannot merge with the malloc before it */
static void *(*volatile const tile__memset_v)(void *, int, size_t) = memset;

typedef struct tile__fill_ctx {
    const tile_plan *p;
} tile__fill_ctx;

static inline void tile__fill_row(void *ctx, unsigned char *row, size_t bytes,
                                  const int64_t *x, int64_t z)
{
    const tile_plan *p = ((tile__fill_ctx *)ctx)->p;
    int64_t c[TILE_MAX_DIMS + 1];
    size_t e, esz = p->cfg.elem_size, n = bytes / esz;
    int i;
    if (p->cfg.boundary == NULL) {
        memset(row, 0, bytes);
        return;
    }
    for (i = 0; i < p->n; i++)
        c[i] = p->lo[i] + x[i];
    c[p->n] = z;
    for (e = 0; e < n; e++) {
        p->cfg.boundary(row + e * esz, c, p->cfg.boundary_ctx);
        c[p->n - 1]++;
    }
}

/* Face region of thread t's box in dimension i: the last d_i layers (send)
 * or the d_i ghost layers below the box (receive). */
static inline void tile__face(const tile_plan *p, int t, int64_t k, int i, int ghost,
                              int64_t *lo, int64_t *hi)
{
    tile__thread_box(p, t, k, lo, hi);
    if (ghost) {
        hi[i] = lo[i];
        lo[i] = lo[i] - p->cfg.dep[i];
    } else {
        lo[i] = hi[i] - p->cfg.dep[i];
    }
}

/* Bytes of thread t's face in dimension i for tile k. */
static inline int64_t tile__face_bytes(const tile_plan *p, int t, int i, int64_t k)
{
    int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, b;
    int j;
    tile__face(p, t, k, i, 0, lo, hi);
    b = (int64_t)p->cfg.elem_size * (tile__tile_z1(p, k) - tile__tile_z0(p, k));
    for (j = 0; j < p->n; j++)
        b *= hi[j] - lo[j];
    return b;
}

/* Fill the global-boundary ghost layers of thread t for tile k. */
static inline void tile__fill_boundary(const tile_plan *p, int t, int64_t k)
{
    int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
    tile__fill_ctx fc;
    int i;
    fc.p = p;
    for (i = 0; i < p->n; i++) {
        if (p->cfg.dep[i] == 0 || p->pcoords[i] != 0 || p->tcoord[t * p->n + i] != 0)
            continue;
        tile__face(p, t, k, i, 1, lo, hi);
        tile__for_rows(p, tile__tile_z0(p, k), tile__tile_z1(p, k), lo, hi,
                       tile__fill_row, &fc);
    }
}

/* ------------------------------------------------------------------------ */
/* Multiple model: thread t sends and receives its own part of each face,
 * one message per part and step, its coordinates (t_i dropped) in the tag.
 * Step s sends what thread t computed at step s-1 and receives what it needs
 * at step s (sigma(k) = k: no rebalancing in this model). */

static inline int tile__is_sender(const tile_plan *p, int t, int i)
{
    return p->tcoord[t * p->n + i] == p->tdims[i] - 1;
}

static inline int tile__is_receiver(const tile_plan *p, int t, int i)
{
    return p->tcoord[t * p->n + i] == 0;
}

/* Tag of thread t's part in dimension i: its coordinates with t_i dropped. */
static inline int tile__tag(const tile_plan *p, int t, int i)
{
    int j, tag = 0;
    for (j = 0; j < p->n; j++)
        if (j != i)
            tag = tag * p->tdims[j] + p->tcoord[t * p->n + j];
    return tag;
}

static inline int tile__mpi_check(tile_plan *p, int t, int rc)
{
    if (rc != MPI_SUCCESS)
        tile__thread_error(p, t, TILE_ERR_MPI);
    return rc;
}

/* Pack and send thread t's parts computed at step s-1. */
static inline void tile__post_sends(tile_plan *p, int64_t s, int t)
{
    int i;
    int64_t k = tile__part_tile(p, t, s - 1);
    for (i = 0; i < p->n && k >= 0; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, bytes;
        unsigned char *buf = p->sbuf[i] + p->seg[i * p->threads + t];
        MPI_Request *r = &p->req[t * 2 * p->n + p->nreq[t]];
        tile__copy_ctx cc;
        if (p->nbr_hi[i] == MPI_PROC_NULL || !tile__is_sender(p, t, i))
            continue;
        tile__face(p, t, k, i, 0, lo, hi);
        cc.buf = buf;
        cc.to_buf = 1;
        tile__for_rows(p, tile__tile_z0(p, k), tile__tile_z1(p, k), lo, hi, tile__copy_row, &cc);
        bytes = (int64_t)(cc.buf - buf);
        if (bytes == 0)
            continue;
        if (tile__mpi_check(p, t, MPI_Isend(buf, (int)bytes, MPI_BYTE, p->nbr_hi[i],
                                            tile__tag(p, t, i), p->comm, r)) == MPI_SUCCESS)
            p->nreq[t]++;
        p->stats[t].bytes_sent += bytes;
        p->stats[t].messages++;
    }
}

/* Post the receives of thread t's parts needed at step s. */
static inline void tile__post_recvs(tile_plan *p, int64_t s, int t)
{
    int i;
    int64_t k = tile__part_tile(p, t, s);
    for (i = 0; i < p->n && k >= 0; i++) {
        int64_t bytes;
        MPI_Request *r = &p->req[t * 2 * p->n + p->nreq[t]];
        if (p->nbr_lo[i] == MPI_PROC_NULL || !tile__is_receiver(p, t, i))
            continue;
        bytes = tile__face_bytes(p, t, i, k);
        if (bytes == 0)
            continue;
        if (tile__mpi_check(p, t, MPI_Irecv(p->rbuf[i] + p->seg[i * p->threads + t], (int)bytes,
                                            MPI_BYTE, p->nbr_lo[i], tile__tag(p, t, i), p->comm,
                                            r)) == MPI_SUCCESS)
            p->nreq[t]++;
    }
}

/* Unpack thread t's parts received for step s into the ghost layers. */
static inline void tile__unpack(tile_plan *p, int64_t s, int t)
{
    int i;
    int64_t k = tile__part_tile(p, t, s);
    for (i = 0; i < p->n && k >= 0; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
        tile__copy_ctx cc;
        if (p->nbr_lo[i] == MPI_PROC_NULL || !tile__is_receiver(p, t, i))
            continue;
        tile__face(p, t, k, i, 1, lo, hi);
        cc.buf = p->rbuf[i] + p->seg[i * p->threads + t];
        cc.to_buf = 0;
        tile__for_rows(p, tile__tile_z0(p, k), tile__tile_z1(p, k), lo, hi, tile__copy_row, &cc);
    }
}

/* Complete thread me's requests; the time goes to stats.wait. */
static inline void tile__waitall(tile_plan *p, int me)
{
    MPI_Status st[2 * TILE_MAX_DIMS];  /* not MPI_STATUSES_IGNORE: gcc 12 warns on it */
    double t0;
    if (p->nreq[me] == 0)
        return;
    t0 = tile__now();
    tile__mpi_check(p, me, MPI_Waitall(p->nreq[me], &p->req[me * 2 * p->n], st));
    p->nreq[me] = 0;
    p->stats[me].wait += tile__now() - t0;
}

/* --- the tile schedule ---------------------------------------------------- */

/* Give tile k its thread split (the current factor along bal_dim) and its
 * start step.  Called by one thread, for tiles no thread computes yet. */
static inline void tile__announce(tile_plan *p, int64_t k)
{
    int64_t *b = tile__bounds(p, k);
    int changed = 0;
    if (p->cfg.balance == TILE_BAL_CUSTOM && p->cfg.model == TILE_MODEL_FUNNELED) {
        double f = p->cfg.bal_fn(p, k, p->cfg.bal_ctx);
        p->bal_now = f > 1.0 ? 1.0 : f >= 0.0 ? f : 0.0;   /* NaN and below 0: 0 */
    }
    if (p->bal_dim >= 0) {
        int ta = p->tdims[p->bal_dim], u;
        int64_t first = 0, count = 0;
        b[0] = 0;
        for (u = 0; u < ta; u++) {
            bal_split_part(p->len[p->bal_dim], ta, p->bal_now, u, &first, &count);
            b[u + 1] = first + count;
        }
        if (k > 0)
            changed = memcmp(b, tile__bounds(p, k - 1), sizeof(int64_t) * (size_t)(ta + 1)) != 0;
    }
    p->sched_sigma[k % p->sched_w] = k == 0 ? 0 : tile__sigma(p, k - 1) + 1 +
                                                  (changed ? p->skew : 0);
    if (changed)
        p->bal_changes++;
    p->announced = k + 1;
    if (k == p->ntiles - 1)
        tile__set_nsteps(p, tile__sigma(p, k) + p->skew + 1);
}

/* Announce every tile whose predecessor starts by step s + 1, so that the
 * receive for it can be posted in time (end of step s, one thread). */
static inline void tile__advance(tile_plan *p, int64_t s)
{
    if (p->announced == 0 && p->ntiles > 0)
        tile__announce(p, 0);
    while (p->announced < p->ntiles && tile__sigma(p, p->announced - 1) <= s + 1)
        tile__announce(p, p->announced);
}

/* The master's share: constant/variable factor once t_comp is known, the
 * adaptive rule every step (end of step, master thread, funneled model). */
static inline void tile__rebalance(tile_plan *p)
{
    const tile_stats *m = &p->stats[0];
    /* t_comm of Lemma 2 is the master's communication work: packing, MPI
     * calls, unpacking.  Time blocked in MPI_Waitall is mostly waiting for
     * the upstream neighbour, which moving work between threads cannot
     * shorten, so it is left out. */
    double comp = m->compute - p->last_comp, comm = m->comm - p->last_comm;
    p->last_comp = m->compute;
    p->last_comm = m->comm;
    if (p->cfg.model != TILE_MODEL_FUNNELED || p->threads == 1)
        return;
    if (p->cfg.balance == TILE_BAL_ADAPTIVE) {
        if (bal_adaptive_step(&p->adapt, comp, comm) == 1)
            p->bal_now = p->adapt.bal;
    } else if ((p->cfg.balance == TILE_BAL_CONSTANT || p->cfg.balance == TILE_BAL_VARIABLE) &&
               p->model.tcomp <= 0.0 && m->points > 0 && m->compute > 0.0) {
        /* t_comp measured on the master's first tile(s) of the user's body */
        double f = 1.0;
        int64_t dep64[TILE_MAX_DIMS];
        int i, clamped = 0;
        p->model.tcomp = m->compute / (double)m->points;
        for (i = 0; i < p->n; i++)
            dep64[i] = p->cfg.dep[i];
        if (bal_factor(&p->model, p->n, p->pdims,
                       p->cfg.balance == TILE_BAL_VARIABLE ? p->pcoords : NULL, p->threads,
                       p->cfg.extent, p->cfg.tile_height, dep64, &f, &clamped) == BAL_OK) {
            p->bal_now = f;
            p->bal_clamped = clamped;
        }
    }
}

/* --- whole-face messages (models mpi, fine, funneled) ---------------------- */

/* At step s: send the face of the tile every face thread finished at step
 * s - 1 (tile k with sigma(k) + S + 1 == s), post the receive for the tile
 * that starts at step s + 1. */
static inline void tile__wf_begin(tile_plan *p, int64_t s)
{
    int i;
    int64_t k = p->send_next, r = p->recv_next;
    int do_send = k < p->ntiles && k < p->announced && tile__sigma(p, k) + p->skew + 1 == s;
    int do_recv = r < p->ntiles && r < p->announced && tile__sigma(p, r) - 1 == s;
    for (i = 0; i < p->n; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, bytes;
        MPI_Request *q = &p->req[p->nreq[0]];
        if (do_send && p->nbr_hi[i] != MPI_PROC_NULL) {
            tile__copy_ctx cc;
            tile__block_face(p, i, 0, lo, hi);
            cc.buf = p->sbuf[i];
            cc.to_buf = 1;
            tile__for_rows(p, tile__tile_z0(p, k), tile__tile_z1(p, k), lo, hi, tile__copy_row,
                           &cc);
            bytes = (int64_t)(cc.buf - p->sbuf[i]);
            if (tile__mpi_check(p, 0, MPI_Isend(p->sbuf[i], (int)bytes, MPI_BYTE, p->nbr_hi[i], 0,
                                                p->comm, q)) == MPI_SUCCESS)
                p->nreq[0]++;
            p->stats[0].bytes_sent += bytes;
            p->stats[0].messages++;
        }
        if (do_recv && p->nbr_lo[i] != MPI_PROC_NULL) {
            int j;
            q = &p->req[p->nreq[0]];
            tile__block_face(p, i, 1, lo, hi);
            bytes = (int64_t)p->cfg.elem_size * (tile__tile_z1(p, r) - tile__tile_z0(p, r));
            for (j = 0; j < p->n; j++)
                bytes *= hi[j] - lo[j];
            if (tile__mpi_check(p, 0, MPI_Irecv(p->rbuf[i], (int)bytes, MPI_BYTE, p->nbr_lo[i], 0,
                                                p->comm, q)) == MPI_SUCCESS)
                p->nreq[0]++;
        }
    }
    if (do_send)
        p->send_next++;
    if (do_recv) {
        p->recv_pending = r;
        p->recv_next++;
    }
}

/* End of step s: wait, unpack the tile received, then schedule ahead. */
static inline void tile__wf_end(tile_plan *p, int64_t s)
{
    double t0;
    int i;
    tile__waitall(p, 0);
    t0 = tile__now();
    if (p->recv_pending >= 0) {
        int64_t k = p->recv_pending;
        for (i = 0; i < p->n; i++) {
            int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
            tile__copy_ctx cc;
            if (p->nbr_lo[i] == MPI_PROC_NULL)
                continue;
            tile__block_face(p, i, 1, lo, hi);
            cc.buf = p->rbuf[i];
            cc.to_buf = 0;
            tile__for_rows(p, tile__tile_z0(p, k), tile__tile_z1(p, k), lo, hi, tile__copy_row,
                           &cc);
        }
        p->recv_pending = -1;
    }
    p->stats[0].comm += tile__now() - t0;
    if (s >= 0)
        tile__rebalance(p);
    tile__advance(p, s);
}

/* One communication phase of step s for thread me: whole faces (thread 0),
 * or thread me's own parts (multiple model): send what the previous step
 * computed, post receives for what the next step needs. */
static inline void tile__comm_begin(tile_plan *p, int64_t s, int me)
{
    double t0;
    if (s == 0) {
        /* the prologue: receive what step 0 needs.  Done here, after the step
         * macro has checked the model, so that a wrong macro sends nothing and
         * waits for nothing on every rank. */
        if (p->whole_face) {
            tile__wf_begin(p, -1);
            tile__wf_end(p, -1);
        } else {
            tile__post_recvs(p, 0, me);
            tile__waitall(p, me);
            tile__unpack(p, 0, me);
        }
    }
    /* (the prologue's wait counts as wait, its unpacking as comm, above) */
    t0 = tile__now();
    if (p->whole_face) {
        tile__wf_begin(p, s);
    } else {
        tile__post_sends(p, s, me);
        tile__post_recvs(p, s + 1, me);
    }
    p->stats[me].comm += tile__now() - t0;
}

/* Wait for step s's messages and unpack what step s+1 needs. */
static inline void tile__comm_end(tile_plan *p, int64_t s, int me)
{
    double t0;
    if (p->whole_face) {
        tile__wf_end(p, s);
        return;
    }
    tile__waitall(p, me);
    t0 = tile__now();
    tile__unpack(p, s + 1, me);
    p->stats[me].comm += tile__now() - t0;
    if (me == 0)
        tile__advance(p, s);
}

/* Fill the d_Z planes below Z = 0 for the whole block. */
static inline void tile__fill_zlow(tile_plan *p)
{
    int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
    tile__fill_ctx fc;
    fc.p = p;
    tile__block_face(p, -1, 0, lo, hi);
    tile__for_rows(p, -(int64_t)p->cfg.depz, 0, lo, hi, tile__fill_row, &fc);
}

/* ------------------------------------------------------------------------ */
/* Runs: start, the group loop, the end                                     */

/* Collective start of a run (called by one thread per process: the master).
 * Checks that every rank runs the plan with the right number of threads and
 * the same model, resets the statistics.  Sets p->run_ok. */
static inline void tile__run_start(tile_plan *p, int nthreads, int model)
{
    int mine, all, t, rc;
    mine = (p->err == TILE_OK && nthreads == p->threads && model == p->cfg.model) ? 1 : 0;
    rc = MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, p->comm);
    p->run_ok = (rc == MPI_SUCCESS && all == 1);
    if (!p->run_ok) {
        if (p->err == TILE_OK) {
            if (rc != MPI_SUCCESS)
                tile__fail(p, TILE_ERR_MPI, "MPI_Allreduce failed at the start of a run");
            else if (model != p->cfg.model)  /* (cannot happen: the loop reads the plan) */
                tile__fail(p, TILE_ERR_MODEL, "the step macro is for model '%s' but the plan was "
                           "created for model '%s'", tile_model_name(model),
                           tile_model_name(p->cfg.model));
            else if (nthreads != p->threads)
                tile__fail(p, TILE_ERR_THREADS, "the plan needs %d threads but the parallel region "
                           "has %d (use num_threads(plan.threads))", p->threads, nthreads);
            else
                tile__fail(p, TILE_ERR_REMOTE, "another rank could not start the run");
        }
        return;
    }
    for (t = 0; t < p->threads; t++) {
        memset(&p->stats[t], 0, sizeof p->stats[t]);
        p->nreq[t] = 0;
        p->next_tile[8 * t] = 0;
    }
    p->bytes_sent = p->messages = 0;
    /* the schedule and the master's first factor */
    p->announced = p->send_next = p->recv_next = 0;
    p->recv_pending = -1;
    tile__set_nsteps(p, INT64_MAX);
    p->bal_changes = 0;
    p->last_comp = p->last_comm = 0.0;
    p->bal_now = 1.0;
    if (p->cfg.model == TILE_MODEL_FUNNELED && p->threads > 1) {
        p->bal_now = p->cfg.bal;
        if (p->cfg.balance == TILE_BAL_ADAPTIVE) {
            int64_t sample = p->cfg.adapt_sample, period = p->cfg.adapt_period;
            if (sample <= 0 && bal_sampling_steps(p->size, p->threads, &sample) != BAL_OK)
                sample = 2 * (int64_t)p->size * p->threads;
            period = period == 0 ? sample : period < 0 ? 0 : period;
            bal_adaptive_init(&p->adapt, p->cfg.bal, p->threads, sample, period,
                              p->cfg.adapt_smoothing > 0.0 ? p->cfg.adapt_smoothing : 0.5);
        } else if (p->cfg.balance != TILE_BAL_FIXED && p->model.tcomp > 0.0) {
            int64_t dep64[TILE_MAX_DIMS];
            double f = 1.0;
            int i;
            for (i = 0; i < p->n; i++)
                dep64[i] = p->cfg.dep[i];
            if (bal_factor(&p->model, p->n, p->pdims,
                           p->cfg.balance == TILE_BAL_VARIABLE ? p->pcoords : NULL, p->threads,
                           p->cfg.extent, p->cfg.tile_height, dep64, &f, &p->bal_clamped) ==
                BAL_OK)
                p->bal_now = f;
        }
    }
    tile__advance(p, -1);
    p->bal_first = p->bal_now;
    p->run_start = tile__now();
}

static inline void tile__barrier(void)
{
#ifdef _OPENMP
#pragma omp barrier
#endif
}

/* End of a run (master): totals, and the run's error on every rank (a rank
 * whose run went wrong must not leave the others reporting success). */
static inline void tile__run_finish(tile_plan *p)
{
    int t, mine, worst = TILE_OK;
    double wall = tile__now() - p->run_start;
    p->seconds = wall;
    for (t = 0; t < p->threads; t++) {
        tile_stats *s = &p->stats[t];
        s->idle = wall - s->compute - s->comm;
        if (s->idle < 0)
            s->idle = 0;
        p->bytes_sent += s->bytes_sent;
        p->messages += s->messages;
        if (s->error != TILE_OK && p->err == TILE_OK)
            tile__fail(p, s->error, "thread %d: %s", t, tile_strerror(s->error));
    }
    mine = p->err;
    if (MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, p->comm) != MPI_SUCCESS)
        tile__fail(p, TILE_ERR_MPI, "MPI_Allreduce failed at the end of a run");
    else if (worst != TILE_OK && p->err == TILE_OK)
        tile__fail(p, TILE_ERR_REMOTE, "the run failed on another rank (%s)",
                   tile_strerror(worst));
}

/* Start of a run for the calling thread, in the model's way: the collective
 * check, the planes below Z = 0, and the receive of what step 0 needs. */
static inline tile_group tile__group_begin(tile_plan *p)
{
    tile_group g;
    int model = p->cfg.model;
    int t = tile__thread_num(), nt = 1;
    g.plan = p;
    g.thread = t;
    g.step = 0;
    if (model == TILE_MODEL_FUNNELED || model == TILE_MODEL_MULTIPLE) {
        /* coarse grain: we are inside the user's parallel region */
#ifdef _OPENMP
        nt = omp_get_num_threads();
#endif
        if (t == 0) {
            tile__run_start(p, nt, model);
            if (p->run_ok)
                tile__fill_zlow(p);
        }
#ifdef _OPENMP
#pragma omp barrier
#endif
        if (!p->run_ok) {
            g.step = INT64_MAX;
            return g;
        }
    } else {
        /* pure MPI and fine grain: called outside any parallel region */
#ifdef _OPENMP
        if (omp_in_parallel()) {
            /* every thread would call MPI: refuse, without any MPI call */
            if (t == 0)
                tile__fail(p, TILE_ERR_THREADS, "the %s model's loop must not run inside an "
                           "OpenMP parallel region", tile_model_name(model));
            p->run_ok = 0;
            g.step = INT64_MAX;
            return g;
        }
        nt = model == TILE_MODEL_FINE ? p->threads : omp_get_num_threads();
#endif
        tile__run_start(p, nt, model);
        if (!p->run_ok) {
            g.step = INT64_MAX;
            return g;
        }
        tile__fill_zlow(p);
    }
    return g;
}

/* Condition of the group loop; after the last step sends the last tile's
 * faces and closes the run. */
static inline int tile__group_more(tile_group *g)
{
    tile_plan *p = g->plan;
    int model = p->cfg.model;
    int64_t nsteps = tile__nsteps(p);
    if (g->step < nsteps)
        return 1;
    if (!p->run_ok)
        return 0;
    if (g->step == INT64_MAX) {
        /* a step macro of another model ended the loop: report, no messages */
        int coarse = model == TILE_MODEL_FUNNELED || model == TILE_MODEL_MULTIPLE;
        if (coarse)
            tile__barrier();
        if (g->thread == 0)
            tile__run_finish(p);
        if (coarse)
            tile__barrier();
        return 0;
    }
    if (model == TILE_MODEL_MULTIPLE) {
        double t0 = tile__now();
        tile__post_sends(p, nsteps, g->thread);
        p->stats[g->thread].comm += tile__now() - t0;
        tile__waitall(p, g->thread);
#ifdef _OPENMP
#pragma omp barrier
#endif
        if (g->thread == 0)
            tile__run_finish(p);
#ifdef _OPENMP
#pragma omp barrier
#endif
    } else {
        if (g->thread == 0) {
            tile__comm_begin(p, nsteps, 0);
            tile__waitall(p, 0);
            tile__run_finish(p);
        }
        if (model == TILE_MODEL_FUNNELED)
            tile__barrier();
    }
    g->step = INT64_MAX;
    return 0;
}

/* A step macro checks that the plan is of its model; if not, it records
 * TILE_ERR_MODEL and ends the group loop (every rank and thread does the
 * same, so nothing waits for anyone). */
static inline int tile__step_ok(tile_group *g, int model)
{
    tile_plan *p = g->plan;
    if (p->cfg.model == model)
        return 1;
    tile__thread_error(p, g->thread < p->threads ? g->thread : 0, TILE_ERR_MODEL);
    g->step = INT64_MAX - 1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The point cursor                                                         */

/* Start of the row at the current coordinates x[] (all but `inner`). */
static inline void tile__cur_row(tile_cursor *c)
{
    int64_t e = 0;
    int i;
    for (i = 0; i < c->n; i++)
        e += ((i == c->inner ? c->blo[i] : c->x[i]) + c->plan->cfg.dep[i]) * c->st[i];
    c->off = (ptrdiff_t)(e * (int64_t)c->esz);
    c->xl = c->blo[c->inner];
    c->xend = c->bhi[c->inner];
}

/* Cursor over thread t's box of tile k (empty when k < 0 or the box is). */
static inline tile_cursor tile__cur_begin(tile_plan *p, int t, int64_t k)
{
    tile_cursor c;
    int i;
    c.plan = p;
    c.n = p->n;
    c.depz = p->cfg.depz;
    c.thread = t;
    c.esz = p->cfg.elem_size;
    c.inner = p->cfg.order == TILE_ORDER_Z_INNER ? p->n : p->n - 1;
    c.done = 0;
    c.off = 0;
    c.base = p->ring;
    c.xl = c.xend = 0;
    for (i = 0; i < p->n; i++)
        c.st[i] = p->stride[i];
    c.st[p->n] = p->plane_elems;
    c.step = c.inner == p->n ? (ptrdiff_t)p->plane_bytes : (ptrdiff_t)c.esz;
    c.z = c.z1 = 0;
    if (k < 0 || t >= p->threads || !p->run_ok)
        return c;
    tile__thread_box(p, t, k, c.blo, c.bhi);
    for (i = 0; i < p->n; i++)
        if (c.bhi[i] <= c.blo[i])
            return c;
    c.blo[p->n] = tile__tile_z0(p, k);
    c.bhi[p->n] = tile__tile_z1(p, k);
    /* passes: one per plane, or a single one when Z is the inner loop */
    c.z = c.blo[p->n];
    c.z1 = c.inner == p->n ? c.z + 1 : c.bhi[p->n];
    p->stats[t].tiles++;
    return c;
}

static inline int tile__cur_zmore(tile_cursor *c)
{
    if (c->z >= c->z1)
        return 0;
    c->base = tile__plane(c->plan, c->z);
    return 1;
}

static inline void tile__cur_znext(tile_cursor *c)
{
    c->z++;
}

static inline void tile__cur_rbegin(tile_cursor *c)
{
    int i;
    for (i = 0; i < c->n; i++)
        c->x[i] = c->blo[i];
    c->done = 0;
    tile__cur_row(c);
}

static inline int tile__cur_rmore(const tile_cursor *c)
{
    return !c->done;
}

static inline void tile__cur_rnext(tile_cursor *c)
{
    int i;
    if (c->xl != c->xend)
        tile__thread_error(c->plan, c->thread, TILE_ERR_BODY);
    c->plan->stats[c->thread].points += c->xend - c->blo[c->inner];
    for (i = c->n - 1; i >= 0; i--) {
        if (i == c->inner)
            continue;
        if (++c->x[i] < c->bhi[i])
            break;
        c->x[i] = c->blo[i];
    }
    if (i < 0)
        c->done = 1;
    else
        tile__cur_row(c);
}

/** Global coordinate i (0..N-1, or N for Z) of the cursor's point. */
static inline int64_t tile_coord(const tile_cursor *it, int i)
{
    if (i == it->inner)
        return i == it->n ? it->xl : it->plan->lo[i] + it->xl;
    if (i == it->n)
        return it->z;
    return it->plan->lo[i] + it->x[i];
}

/* After thread t's part of tile k: if the tile ends the ring, copy its box's
 * last d_Z planes to the mirror below the ring, where the next tile's
 * constant-stride reads of z - 1 ... z - d_Z land. */
typedef struct tile__mirror_ctx {
    const tile_plan *p;
    int64_t shift;      /* plane z goes to mirror plane z - shift (< 0) */
} tile__mirror_ctx;

static inline void tile__mirror_row(void *ctx, unsigned char *row, size_t bytes,
                                    const int64_t *x, int64_t z)
{
    const tile__mirror_ctx *m = (const tile__mirror_ctx *)ctx;
    memcpy(tile__plane(m->p, z - m->shift) + tile__offset(m->p, x), row, bytes);
}

static inline void tile__mirror(tile_plan *p, int t, int64_t k)
{
    int64_t z1 = tile__tile_z1(p, k), lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
    tile__mirror_ctx m;
    if (p->cfg.depz == 0 || z1 % p->ring_planes != 0 || z1 >= p->cfg.zlen)
        return;
    m.p = p;
    m.shift = z1;
    tile__thread_box(p, t, k, lo, hi);
    tile__for_rows(p, z1 - p->cfg.depz, z1, lo, hi, tile__mirror_row, &m);
}

/** OpenMP thread number of the cursor (0 in pure MPI). */
#define TILE_THREAD(it) ((it).thread)

#ifdef TILE_CHECK_ACCESS
/* Checked access: offsets o[0..cnt-1] must be axis-aligned, within the
 * dependence widths, and there must be N + 1 of them. */
static inline void *tile__checked(tile_cursor *c, int cnt, const int64_t *o)
{
    int i, nz = 0, bad = cnt != c->n + 1;
    for (i = 0; i < cnt && !bad; i++) {
        int64_t d = i < c->n ? c->plan->cfg.dep[i] : c->depz;
        if (o[i] != 0)
            nz++;
        if (o[i] > 0 || o[i] < -d)
            bad = 1;
    }
    if (bad || nz > 1) {
        tile__thread_error(c->plan, c->thread, TILE_ERR_BODY);
        return c->base + c->off;
    }
    {
        int64_t e = 0;
        for (i = 0; i <= c->n; i++)
            e += o[i] * c->st[i];
        return c->base + c->off + e * (int64_t)c->esz;
    }
}
#endif

/* TILE_AT(T, it, o_1, ..., o_N, o_Z): lvalue of type T at offset o from the
 * cursor's point.  Each offset is evaluated once. */
#define TILE__NARG(...) TILE__NARG_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TILE__NARG_(a1, a2, a3, a4, a5, a6, a7, a8, a9, N, ...) N
#define TILE__CAT(a, b) TILE__CAT_(a, b)
#define TILE__CAT_(a, b) a##b
#define TILE__P(T, it) ((T *)((it).base + (it).off))

#ifdef TILE_CHECK_ACCESS
#define TILE__CHK(T, it, ...)                                                      \
    (*(T *)tile__checked(&(it), TILE__NARG(__VA_ARGS__),                         \
                         (const int64_t[]){__VA_ARGS__}))
#define TILE_AT(T, it, ...) TILE__CHK(T, it, __VA_ARGS__)
#else
#define TILE_AT(T, it, ...) TILE__CAT(TILE__AT, TILE__NARG(__VA_ARGS__))(T, it, __VA_ARGS__)
#endif
#define TILE__AT2(T, it, a, z) (TILE__P(T, it)[(a) * (it).st[0] + (z) * (it).st[1]])
#define TILE__AT3(T, it, a, b, z)                                                  \
    (TILE__P(T, it)[(a) * (it).st[0] + (b) * (it).st[1] + (z) * (it).st[2]])
#define TILE__AT4(T, it, a, b, c, z)                                               \
    (TILE__P(T, it)[(a) * (it).st[0] + (b) * (it).st[1] + (c) * (it).st[2] +       \
                    (z) * (it).st[3]])
#define TILE__AT5(T, it, a, b, c, d, z)                                            \
    (TILE__P(T, it)[(a) * (it).st[0] + (b) * (it).st[1] + (c) * (it).st[2] +       \
                    (d) * (it).st[3] + (z) * (it).st[4]])
#define TILE__AT6(T, it, a, b, c, d, e, z)                                         \
    (TILE__P(T, it)[(a) * (it).st[0] + (b) * (it).st[1] + (c) * (it).st[2] +       \
                    (d) * (it).st[3] + (e) * (it).st[4] + (z) * (it).st[5]])
#define TILE__AT7(T, it, a, b, c, d, e, f, z)                                      \
    (TILE__P(T, it)[(a) * (it).st[0] + (b) * (it).st[1] + (c) * (it).st[2] +       \
                    (d) * (it).st[3] + (e) * (it).st[4] + (f) * (it).st[5] +       \
                    (z) * (it).st[6]])
#define TILE__AT8(T, it, a, b, c, d, e, f, g, z)                                   \
    (TILE__P(T, it)[(a) * (it).st[0] + (b) * (it).st[1] + (c) * (it).st[2] +       \
                    (d) * (it).st[3] + (e) * (it).st[4] + (f) * (it).st[5] +       \
                    (g) * (it).st[6] + (z) * (it).st[7]])
#define TILE__AT9(T, it, a, b, c, d, e, f, g, h, z)                                \
    (TILE__P(T, it)[(a) * (it).st[0] + (b) * (it).st[1] + (c) * (it).st[2] +       \
                    (d) * (it).st[3] + (e) * (it).st[4] + (f) * (it).st[5] +       \
                    (g) * (it).st[6] + (h) * (it).st[7] + (z) * (it).st[8]])

/* The points of thread t's tile at step s, with the body in place.  Used by
 * every step macro; `it` is the user's cursor name. */
#define TILE__POINTS(plan_, t_, k_, it, ...)                                       \
    for (tile_cursor it = tile__cur_begin((plan_), (t_), (k_));                    \
         tile__cur_zmore(&(it)); tile__cur_znext(&(it)))                           \
        for (tile__cur_rbegin(&(it)); tile__cur_rmore(&(it)); tile__cur_rnext(&(it))) \
            for (; (it).xl < (it).xend; (it).xl++, (it).off += (it).step) {        \
                __VA_ARGS__                                                        \
            }

/* Compute thread t's tile of step s (boundary values first), timed. */
#define TILE__COMPUTE(plan_, t_, s_, it, ...)                                      \
    do {                                                                           \
        tile_plan *const tile_cp_p_ = (plan_);                                     \
        int const tile_cp_t_ = (t_);                                               \
        int64_t const tile_cp_s_ = (s_);                                           \
        double const tile_cp_t0_ = tile__now();                                    \
        int64_t const tile_cp_k_ = tile__claim(tile_cp_p_, tile_cp_t_, tile_cp_s_);  \
        if (tile_cp_k_ >= 0 && tile_cp_p_->run_ok) {                               \
            int64_t const tile_cp_n0_ = tile_cp_p_->stats[tile_cp_t_].points;      \
            tile__sim_begin();                                                     \
            tile__fill_boundary(tile_cp_p_, tile_cp_t_, tile_cp_k_);               \
            TILE__POINTS(tile_cp_p_, tile_cp_t_, tile_cp_k_, it, __VA_ARGS__)      \
            tile__mirror(tile_cp_p_, tile_cp_t_, tile_cp_k_);                      \
            tile__sim_end(tile_cp_p_->stats[tile_cp_t_].points - tile_cp_n0_);     \
            tile_cp_p_->stats[tile_cp_t_].compute += tile__now() - tile_cp_t0_;    \
        }                                                                          \
    } while (0)

/**
 * TILE_FOREACH_GROUP(plan, g) - iterate over the time steps (hyperplane
 * groups) of this process.
 * @plan: pointer to a tile_plan from tile_plan_create (evaluated once).
 * @g:    name of the loop variable (a tile_group) it declares, passed to
 *        the step macro that forms the loop body.
 *
 * A bare `for` header: the body follows, and must run exactly one step macro
 * of the plan's model (TILE_MPI_STEP, HYBRID_FINE_STEP, HYBRID_FUNNELED_STEP
 * or HYBRID_MULTIPLE_STEP) per iteration; a block may add statements after
 * it (HYBRID_RUN_EACH_STEP calls its hook there).  The first iteration receives what the first
 * step needs; the last sends the last tile's boundary and completes the run.
 * For the coarse-grain models put it directly inside
 * `#pragma omp parallel num_threads(plan.threads)`.  Do not `break` out of
 * it: the pipeline must run to the end on every rank.  The loop is
 * collective over the plan's communicator; if any rank cannot run (wrong
 * model or thread count), no rank runs and tile_plan_status() says why.
 */
#define TILE_FOREACH_GROUP(plan, g)                                                \
    for (tile_group g = tile__group_begin((plan)); tile__group_more(&(g)); (g).step++)

/**
 * TILE_MPI_STEP(g, it, body...) - one step of the pure MPI model (Alg. 2):
 * send the previous tile's boundary to the +dir neighbours, post receives for
 * the next tile, compute the current tile with `body` for every point, wait,
 * unpack.
 * @g:    the tile_group of TILE_FOREACH_GROUP.
 * @it:   name of the cursor the body uses with TILE_AT (declared here).
 * @body: the point update, a statement list (commas are fine);
 *        `continue` skips to the next point, `break` is reported as
 *        TILE_ERR_BODY, `return`/`goto` out of it are not allowed.
 */
#define TILE_MPI_STEP(g, it, ...)                                                  \
    do {                                                                           \
        tile_group *const tile_ms_g_ = &(g);                                       \
        if (!tile__step_ok(tile_ms_g_, TILE_MODEL_MPI))                            \
            break;                                                                 \
        tile__comm_begin(tile_ms_g_->plan, tile_ms_g_->step, 0);                   \
        TILE__COMPUTE(tile_ms_g_->plan, 0, tile_ms_g_->step, it, __VA_ARGS__);     \
        tile__comm_end(tile_ms_g_->plan, tile_ms_g_->step, 0);                     \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Plan creation                                                            */

/* Validate cfg locally (no communication). */
static inline int tile__validate(tile_plan *p, const tile_config *c)
{
    int i;
    if (c->n < 1 || c->n > TILE_MAX_DIMS)
        return tile__fail(p, TILE_ERR_NDIMS, "N = %d: the space must have 1 to %d distributed "
                          "dimensions plus Z", c->n, TILE_MAX_DIMS);
    for (i = 0; i < c->n; i++) {
        if (c->extent[i] < 1)
            return tile__fail(p, TILE_ERR_EXTENT, "extent X_%d = %lld: must be at least 1",
                              i + 1, (long long)c->extent[i]);
        if (c->dep[i] < 0)
            return tile__fail(p, TILE_ERR_DEP, "dependence d_%d = %d: must be >= 0", i + 1,
                              c->dep[i]);
        if (c->grid[i] < 0)
            return tile__fail(p, TILE_ERR_GRID, "grid entry %d = %d: must be >= 0 (0 = free)",
                              i + 1, c->grid[i]);
        if (c->tgrid[i] < 0)
            return tile__fail(p, TILE_ERR_THREADS, "thread grid entry %d = %d: must be >= 0",
                              i + 1, c->tgrid[i]);
    }
    if (c->zlen < 1)
        return tile__fail(p, TILE_ERR_EXTENT, "Z = %lld: must be at least 1", (long long)c->zlen);
    if (c->depz < 0 || c->depz > TILE_MAX_DEPZ)
        return tile__fail(p, TILE_ERR_DEP, "dependence d_Z = %d: must be in 0..%d", c->depz,
                          TILE_MAX_DEPZ);
    if (c->tile_height < 1)
        return tile__fail(p, TILE_ERR_TILE_HEIGHT, "tile height = %lld: must be at least 1",
                          (long long)c->tile_height);
    if (c->elem_size < 1)
        return tile__fail(p, TILE_ERR_ELEM, "element size is 0");
    if (tile_model_name(c->model) == NULL)
        return tile__fail(p, TILE_ERR_MODEL, "model = %d: not a tile_model", c->model);
    if (c->threads < 1)
        return tile__fail(p, TILE_ERR_THREADS, "threads = %d: must be at least 1", c->threads);
    if (c->model == TILE_MODEL_MPI && c->threads != 1)
        return tile__fail(p, TILE_ERR_THREADS, "threads = %d: the pure MPI model runs one "
                          "thread per process", c->threads);
#ifndef _OPENMP
    if (c->threads > 1)
        return tile__fail(p, TILE_ERR_NO_OPENMP, "threads = %d: compile with OpenMP (-fopenmp) "
                          "to run more than one thread", c->threads);
#endif
    if (!(c->bal >= 0.0 && c->bal <= 1.0))
        return tile__fail(p, TILE_ERR_BAL, "bal = %g: the balancing factor must be in [0, 1]",
                          c->bal);
    if (c->balance < TILE_BAL_FIXED || c->balance > TILE_BAL_CUSTOM ||
        (c->balance == TILE_BAL_CUSTOM && c->bal_fn == NULL))
        return tile__fail(p, TILE_ERR_BALANCE, "balance = %d: not a tile_balance policy "
                          "(or TILE_BAL_CUSTOM without bal_fn)", c->balance);
    if (!(c->tcomp >= 0.0) || !(c->tstartup >= 0.0) || !(c->bandwidth >= 0.0) ||
        !(c->adapt_smoothing >= 0.0 && c->adapt_smoothing <= 1.0) || c->adapt_sample < 0 ||
        c->adapt_period < -1)
        return tile__fail(p, TILE_ERR_BALANCE, "cost model or adaptive parameters out of range "
                          "(times, bandwidth >= 0; smoothing in [0,1]; sample >= 0; "
                          "period >= -1)");
    if (c->order != TILE_ORDER_PLANES && c->order != TILE_ORDER_Z_INNER)
        return tile__fail(p, TILE_ERR_STORAGE, "order = %d: not a tile_order", c->order);
    if (c->storage != TILE_STORE_WINDOW && c->storage != TILE_STORE_FULL)
        return tile__fail(p, TILE_ERR_STORAGE, "storage = %d: not a tile_storage", c->storage);
    if (c->grid_policy != TILE_GRID_COMM && c->grid_policy != TILE_GRID_LATENCY)
        return tile__fail(p, TILE_ERR_GRID, "grid policy = %d: not a tile_grid_policy",
                          c->grid_policy);
    return TILE_OK;
}

/* Every rank must pass the same configuration. */
static inline int tile__agree(tile_plan *p, const tile_config *c)
{
    enum { NV = 18 + 4 * TILE_MAX_DIMS };
    static const char *const what[18] = { "N", "Z", "d_Z", "tile height", "element size",
                                          "model", "threads", "grid policy", "bal", "storage",
                                          "balance", "adaptive sample", "adaptive period",
                                          "order", "tcomp", "tstartup", "bandwidth",
                                          "adaptive smoothing" };
    const double dv[4] = { c->tcomp, c->tstartup, c->bandwidth, c->adapt_smoothing };
    int64_t v[NV], neg[NV], mn[NV], mx[NV];
    int i, k = 0;
    v[k++] = c->n;
    v[k++] = c->zlen;
    v[k++] = c->depz;
    v[k++] = c->tile_height;
    v[k++] = (int64_t)c->elem_size;
    v[k++] = c->model;
    v[k++] = c->threads;
    v[k++] = c->grid_policy;
    v[k++] = (int64_t)(c->bal * 1e15);   /* in [0,1] after validation */
    v[k++] = c->storage;
    v[k++] = c->balance;
    v[k++] = c->adapt_sample;
    v[k++] = c->adapt_period;
    v[k++] = c->order;
    for (i = 0; i < 4; i++) {       /* doubles compared by bit pattern */
        uint64_t u;
        memcpy(&u, &dv[i], sizeof u);
        v[k++] = (int64_t)(u >> 1);
    }
    for (i = 0; i < TILE_MAX_DIMS; i++) {
        v[k++] = c->extent[i];
        v[k++] = c->dep[i];
        v[k++] = c->grid[i];
        v[k++] = c->tgrid[i];
    }
    for (i = 0; i < NV; i++)
        neg[i] = -v[i];
    if (MPI_Allreduce(v, mn, NV, MPI_INT64_T, MPI_MIN, p->comm) != MPI_SUCCESS ||
        MPI_Allreduce(neg, mx, NV, MPI_INT64_T, MPI_MIN, p->comm) != MPI_SUCCESS)
        return tile__fail(p, TILE_ERR_MPI, "MPI_Allreduce failed while comparing arguments");
    for (i = 0; i < NV; i++) {
        if (mn[i] != -mx[i]) {
            static const char *const dimwhat[4] = { "extent X", "dependence d", "grid entry ",
                                                    "thread grid entry " };
            if (i < 18)
                return tile__fail(p, TILE_ERR_MISMATCH, "argument '%s' differs between ranks "
                                  "(%lld vs %lld)", what[i], (long long)mn[i], (long long)-mx[i]);
            return tile__fail(p, TILE_ERR_MISMATCH, "argument '%s%d' differs between ranks "
                              "(%lld vs %lld)", dimwhat[(i - 18) % 4], (i - 18) / 4 + 1,
                              (long long)mn[i], (long long)-mx[i]);
        }
    }
    return TILE_OK;
}

static inline void tile__free(tile_plan *p)
{
    int i;
    for (i = 0; i < TILE_MAX_DIMS; i++) {
        free(p->tsplit[i]);
        free(p->sbuf[i]);
        free(p->rbuf[i]);
        p->tsplit[i] = NULL;
        p->sbuf[i] = p->rbuf[i] = NULL;
    }
    free(p->tcoord);
    free(p->tskew);
    free(p->ring);
    free(p->seg);
    free(p->req);
    free(p->nreq);
    free(p->stats);
    free(p->next_tile);
    free(p->sched_sigma);
    free(p->sched_bounds);
    p->next_tile = p->sched_sigma = p->sched_bounds = NULL;
    p->tcoord = p->tskew = p->nreq = NULL;
    p->ring = NULL;
    p->seg = NULL;
    p->req = NULL;
    p->stats = NULL;
}

/* Everything after validation; rank-local except the grid choice. */
static inline int tile__setup(tile_plan *p)
{
    const tile_config *c = &p->cfg;
    int n = c->n, i, t, T = c->threads, rc;
    int periods[TILE_MAX_DIMS];
    int64_t skew = 0, ring, bytes;

    /* the process grid */
    {
        int fixed = 1;
        for (i = 0; i < n; i++) {
            p->pdims[i] = c->grid[i];
            if (c->grid[i] == 0)
                fixed = 0;
        }
        if (fixed) {
            int64_t prod = 1;
            for (i = 0; i < n; i++)
                prod *= p->pdims[i] <= p->size ? p->pdims[i] : (int64_t)p->size + 1;
            if (prod != p->size)
                return tile__fail(p, TILE_ERR_GRID, "grid has %lld processes but the "
                                  "communicator has %d", (long long)prod, p->size);
        } else {
            int64_t dep64[TILE_MAX_DIMS];
            for (i = 0; i < n; i++)
                dep64[i] = c->dep[i];
            rc = topo_grid(n, p->size, c->extent, dep64,
                           c->grid_policy == TILE_GRID_LATENCY ? TOPO_POLICY_LATENCY
                                                               : TOPO_POLICY_COMM,
                           p->pdims);
            if (rc != TOPO_OK)
                return tile__fail(p, rc == TOPO_ERR_INFEASIBLE ? TILE_ERR_TOO_MANY : TILE_ERR_GRID,
                                  "no process grid for %d processes: %s", p->size,
                                  topo_strerror(rc));
        }
    }
    for (i = 0; i < n; i++) {
        if (p->pdims[i] > c->extent[i])
            return tile__fail(p, TILE_ERR_TOO_MANY, "%d processes along dimension %d but only "
                              "%lld points", p->pdims[i], i + 1, (long long)c->extent[i]);
        if (p->pdims[i] > 1 && c->dep[i] > c->extent[i] / p->pdims[i])
            return tile__fail(p, TILE_ERR_DEP_TOO_WIDE, "dependence d_%d = %d is wider than the "
                              "smallest block (%lld points) along dimension %d", i + 1, c->dep[i],
                              (long long)(c->extent[i] / p->pdims[i]), i + 1);
        periods[i] = 0;
    }

    /* the thread grid */
    {
        int given = 0;
        for (i = 0; i < n; i++)
            if (c->tgrid[i] != 0)
                given = 1;
        if (given) {
            int64_t prod = 1;
            for (i = 0; i < n; i++) {
                if (c->tgrid[i] < 1)
                    return tile__fail(p, TILE_ERR_THREADS, "thread grid entry %d is 0: give "
                                      "all entries or none", i + 1);
                prod *= c->tgrid[i] <= T ? c->tgrid[i] : (int64_t)T + 1;
                p->tdims[i] = c->tgrid[i];
            }
            if (prod != T)
                return tile__fail(p, TILE_ERR_THREADS, "thread grid has %lld threads, "
                                  "threads = %d", (long long)prod, T);
        } else if (T == 1) {
            for (i = 0; i < n; i++)
                p->tdims[i] = 1;
        } else {
            int64_t local[TILE_MAX_DIMS] = {0}, dep64[TILE_MAX_DIMS] = {0};
            int pd[TILE_MAX_DIMS];
            for (i = 0; i < n; i++) {
                local[i] = c->extent[i] / p->pdims[i];
                dep64[i] = c->dep[i];
                pd[i] = 0;
                p->tdims[i] = 0;
            }
            rc = topo_hybrid_grid(n, 1, T, local, dep64, TOPO_POLICY_COMM, pd, p->tdims);
            if (c->model == TILE_MODEL_FUNNELED) {
                /* balancing splits one dimension: put every thread along the
                 * longest block dimension, so the master alone gets bal/T */
                int best = 0;
                for (i = 1; i < n; i++)
                    if (local[i] > local[best])
                        best = i;
                if (local[best] >= T) {
                    for (i = 0; i < n; i++)
                        p->tdims[i] = i == best ? T : 1;
                    rc = TOPO_OK;
                }
            }
            if (rc != TOPO_OK)
                return tile__fail(p, TILE_ERR_TOO_MANY, "no thread grid of %d threads fits the "
                                  "local block: %s", T, topo_strerror(rc));
        }
        for (i = 0; i < n; i++)
            if (p->tdims[i] > c->extent[i] / p->pdims[i])
                return tile__fail(p, TILE_ERR_TOO_MANY, "%d threads along dimension %d but a "
                                  "block has only %lld points", p->tdims[i], i + 1,
                                  (long long)(c->extent[i] / p->pdims[i]));
    }

    /* the Cartesian communicator, neighbours and the local block */
    {
        MPI_Comm cart;
        if (MPI_Cart_create(p->comm, n, p->pdims, periods, 0, &cart) != MPI_SUCCESS)
            return tile__fail(p, TILE_ERR_MPI, "MPI_Cart_create failed");
        if (MPI_Comm_free(&p->comm) != MPI_SUCCESS) {
            MPI_Comm_free(&cart);
            return tile__fail(p, TILE_ERR_MPI, "MPI_Comm_free failed");
        }
        p->comm = cart;
        if (MPI_Comm_set_errhandler(p->comm, MPI_ERRORS_RETURN) != MPI_SUCCESS ||
            MPI_Comm_rank(p->comm, &p->rank) != MPI_SUCCESS ||
            MPI_Cart_coords(p->comm, p->rank, n, p->pcoords) != MPI_SUCCESS)
            return tile__fail(p, TILE_ERR_MPI, "MPI_Cart_coords failed");
        for (i = 0; i < n; i++) {
            if (MPI_Cart_shift(p->comm, i, 1, &p->nbr_lo[i], &p->nbr_hi[i]) != MPI_SUCCESS)
                return tile__fail(p, TILE_ERR_MPI, "MPI_Cart_shift failed");
            if (c->dep[i] == 0)
                p->nbr_lo[i] = p->nbr_hi[i] = MPI_PROC_NULL;
            topo_block(c->extent[i], p->pdims[i], p->pcoords[i], &p->lo[i], &p->len[i]);
        }
    }

    /* threads: boxes, coordinates, skew */
    p->bal_dim = -1;
    for (i = 0; i < n; i++)
        if (p->tdims[i] > 1 && (p->bal_dim < 0 || p->tdims[i] > p->tdims[p->bal_dim]))
            p->bal_dim = i;
    for (i = 0; i < n; i++) {
        p->tsplit[i] = (int64_t *)malloc(sizeof(int64_t) * (size_t)(p->tdims[i] + 1));
        if (p->tsplit[i] == NULL)
            return tile__fail(p, TILE_ERR_NOMEM, "out of memory for the thread grid");
        {
            int u;
            int64_t first = 0, count = 0;
            p->tsplit[i][0] = 0;
            for (u = 0; u < p->tdims[i]; u++) {
                bal_split_part(p->len[i], p->tdims[i], 1.0, u, &first, &count);
                p->tsplit[i][u + 1] = first + count;
            }
        }
        skew += p->tdims[i] - 1;
    }
    p->tcoord = (int *)malloc(sizeof(int) * (size_t)T * (size_t)n);
    p->tskew = (int *)malloc(sizeof(int) * (size_t)T);
    p->nreq = (int *)calloc((size_t)T, sizeof(int));
    p->req = (MPI_Request *)malloc(sizeof(MPI_Request) * (size_t)T * 2 * (size_t)n);
    p->stats = (tile_stats *)calloc((size_t)T, sizeof(tile_stats));
    p->seg = (int64_t *)calloc((size_t)T * (size_t)n, sizeof(int64_t));
    p->next_tile = (int64_t *)calloc((size_t)T * 8, sizeof(int64_t));
    p->skew = skew;
    p->sched_w = (int)(2 * skew + 8);
    {
        int ta = p->bal_dim < 0 ? 1 : p->tdims[p->bal_dim], w;
        p->sched_sigma = (int64_t *)calloc((size_t)p->sched_w, sizeof(int64_t));
        p->sched_bounds = (int64_t *)calloc((size_t)p->sched_w * (size_t)(ta + 1),
                                            sizeof(int64_t));
        if (p->sched_bounds != NULL && p->bal_dim >= 0)
            for (w = 0; w < p->sched_w; w++)
                memcpy(p->sched_bounds + (size_t)w * (size_t)(ta + 1), p->tsplit[p->bal_dim],
                       sizeof(int64_t) * (size_t)(ta + 1));
    }
    if (!p->tcoord || !p->tskew || !p->nreq || !p->req || !p->stats || !p->seg ||
        !p->next_tile || !p->sched_sigma || !p->sched_bounds)
        return tile__fail(p, TILE_ERR_NOMEM, "out of memory for thread tables");
    p->whole_face = c->model != TILE_MODEL_MULTIPLE;
    for (t = 0; t < T; t++) {
        int r = t;
        p->tskew[t] = 0;
        for (i = n - 1; i >= 0; i--) {
            p->tcoord[t * n + i] = r % p->tdims[i];
            r /= p->tdims[i];
            p->tskew[t] += p->tcoord[t * n + i];
        }
    }

    /* tiles, steps and the plane ring */
    {
        int64_t h = c->tile_height < c->zlen ? c->tile_height : c->zlen; /* no overflow */
        p->ntiles = (c->zlen + h - 1) / h;
    }
    p->nsteps = INT64_MAX;     /* known once the last tile is scheduled */
    {
        /* the window: the tiles in flight across the thread skew, the d_Z
         * planes they read below, one tile of slack (the master unpacks while
         * threads compute), rounded to whole tiles; full storage: every tile */
        int64_t h = c->tile_height < c->zlen ? c->tile_height : c->zlen;
        int64_t m = skew + 2 + (c->depz + h - 1) / h;
        ring = tile__mul(p->ntiles, h);
        if (c->storage == TILE_STORE_WINDOW && m < p->ntiles)
            ring = m * h;
        if (ring < 0)
            return tile__fail(p, TILE_ERR_OVERFLOW, "the Z storage is too large");
    }
    p->ring_planes = ring;
    p->plane_elems = 1;
    for (i = n - 1; i >= 0; i--) {
        p->stride[i] = p->plane_elems;
        p->plane_elems = tile__mul(p->plane_elems, p->len[i] + c->dep[i]);
        if (p->plane_elems < 0)
            return tile__fail(p, TILE_ERR_OVERFLOW, "the local block is too large");
    }
    bytes = tile__mul(tile__mul(p->plane_elems, (int64_t)c->elem_size), ring + c->depz);
    if (bytes < 0 || (uint64_t)bytes > (uint64_t)SIZE_MAX)
        return tile__fail(p, TILE_ERR_OVERFLOW, "the Z window (%lld planes) is too large",
                          (long long)ring);
    p->plane_bytes = (size_t)(p->plane_elems * (int64_t)c->elem_size);
    p->ring = (unsigned char *)malloc((size_t)bytes);
    if (p->ring == NULL)
        return tile__fail(p, TILE_ERR_NOMEM, "out of memory for the Z window (%lld bytes); "
                          "lower the tile height", (long long)bytes);
    /* touch every page now: otherwise the thread that runs ahead in the
     * hyperplane schedule takes all the page faults inside the timed run.
     * Through a volatile pointer: compilers turn malloc + memset(0) into
     * calloc, whose zero pages are faulted in only when first written. */
    tile__memset_v(p->ring, 0, (size_t)bytes);

    /* message buffers: a whole face of a tile, or (multiple model) a
     * segment for each thread's part */
    for (i = 0; i < n; i++) {
        int64_t total = 0;
        if (p->nbr_lo[i] == MPI_PROC_NULL && p->nbr_hi[i] == MPI_PROC_NULL)
            continue;
        if (p->whole_face) {
            int j;
            total = (int64_t)c->elem_size * c->dep[i] *
                    (c->tile_height < c->zlen ? c->tile_height : c->zlen);
            for (j = 0; j < n && total >= 0 && total <= INT_MAX; j++)
                if (j != i)
                    total = tile__mul(total, p->len[j]);
            if (total < 0 || total > INT_MAX)
                return tile__fail(p, TILE_ERR_OVERFLOW, "a message along dimension %d would "
                                  "exceed INT_MAX bytes; lower the tile height", i + 1);
        }
        for (t = 0; t < T && !p->whole_face; t++) {
            int64_t part;
            p->seg[i * T + t] = total;
            if (!tile__is_sender(p, t, i) && !tile__is_receiver(p, t, i))
                continue;
            part = tile__face_bytes(p, t, i, 0);
            total += part;
            if (part < 0 || total > INT_MAX)
                return tile__fail(p, TILE_ERR_OVERFLOW, "a message along dimension %d would "
                                  "exceed INT_MAX bytes; lower the tile height", i + 1);
        }
        if (p->nbr_hi[i] != MPI_PROC_NULL &&
            (p->sbuf[i] = (unsigned char *)malloc((size_t)total + 1)) == NULL)
            return tile__fail(p, TILE_ERR_NOMEM, "out of memory for message buffers");
        if (p->nbr_lo[i] != MPI_PROC_NULL &&
            (p->rbuf[i] = (unsigned char *)malloc((size_t)total + 1)) == NULL)
            return tile__fail(p, TILE_ERR_NOMEM, "out of memory for message buffers");
    }
    return TILE_OK;
}

/* The cost model of constant and variable balancing (funneled model): the
 * cfg fields, else the TILEHYBRID_* environment variables (balance.h), else
 * measured: t_startup and the bandwidth by a ping-pong between rank pairs
 * now (collective), t_comp on the master's first tile during the run. */
static inline int tile__cost_model(tile_plan *p)
{
    const tile_config *c = &p->cfg;
    bal_model env;
    int found = 0, rc;
    memset(&p->model, 0, sizeof p->model);
    if (c->model != TILE_MODEL_FUNNELED || c->threads < 2 ||
        (c->balance != TILE_BAL_CONSTANT && c->balance != TILE_BAL_VARIABLE))
        return TILE_OK;
    p->model.tcomp = c->tcomp;
    p->model.tstartup = c->tstartup;
    p->model.bandwidth = c->bandwidth;
    p->model.elem_bytes = (double)c->elem_size;
    memset(&env, 0, sizeof env);
    rc = bal_model_from_env(&env, &found);
    if (rc == BAL_OK) {
        if (p->model.tcomp <= 0.0 && (found & BAL_HAVE_TCOMP))
            p->model.tcomp = env.tcomp;
        if (c->tstartup <= 0.0 && c->bandwidth <= 0.0 && (found & BAL_HAVE_TSTARTUP))
            p->model.tstartup = env.tstartup;
        if (p->model.bandwidth <= 0.0 && (found & BAL_HAVE_BANDWIDTH))
            p->model.bandwidth = env.bandwidth;
    }
    /* the environment may differ between ranks: agree on its errors and on
     * whether to measure (a collective) before anything else */
    {
        int mine[2], lo[2], hi[2];
        mine[0] = rc != BAL_OK;
        mine[1] = p->model.bandwidth <= 0.0;
        if (MPI_Allreduce(mine, lo, 2, MPI_INT, MPI_MIN, p->comm) != MPI_SUCCESS ||
            MPI_Allreduce(mine, hi, 2, MPI_INT, MPI_MAX, p->comm) != MPI_SUCCESS)
            return tile__fail(p, TILE_ERR_MPI, "MPI_Allreduce failed (balancing model)");
        if (rc != BAL_OK)
            return tile__fail(p, TILE_ERR_BALANCE, "%s", bal_strerror(rc));
        if (hi[0] != 0)
            return tile__fail(p, TILE_ERR_REMOTE, "another rank rejected its TILEHYBRID_* "
                              "environment");
        if (lo[1] != hi[1])
            return tile__fail(p, TILE_ERR_MISMATCH, "TILEHYBRID_BANDWIDTH is set on some ranks "
                              "only: the network would be measured by some ranks only");
    }
    if (p->model.bandwidth <= 0.0) {
        if (p->size == 1) {
            p->model.bandwidth = 1e300;   /* one process sends nothing */
        } else {
            bal_fit fit;
            int64_t face = 0, i;
            /* the largest face of the largest block: the same on every rank */
            for (i = 0; i < p->n; i++) {
                int64_t b = (int64_t)c->elem_size * c->dep[i] *
                            (tile__tile_z1(p, 0) - tile__tile_z0(p, 0)), j;
                for (j = 0; j < p->n && b <= (4 << 20); j++)
                    if (j != i)
                        b *= (c->extent[j] + p->pdims[j] - 1) / p->pdims[j];
                face = b > face ? b : face;
            }
            /* at least 64 KiB: the slope (bandwidth) is invisible in tiny messages */
            face = face < (64 << 10) ? (64 << 10) : face > (4 << 20) ? (4 << 20) : face;
            rc = bal_calibrate_comm_all(p->comm, (int)face, 3, &fit);
            if (rc == BAL_OK)
                rc = bal_model_set_comm(&p->model, &fit);
            if (rc == BAL_EFIT || (rc != BAL_OK && rc != BAL_EMPI)) {
                /* too noisy to fit (the same answer on every rank): no cost
                 * model, no balancing; bal_uncalibrated says so */
                p->model.tstartup = 0.0;
                p->model.bandwidth = 1e300;
                p->bal_uncalibrated = 1;
            } else if (rc != BAL_OK) {
                return tile__fail(p, TILE_ERR_MPI, "MPI failed while measuring the network "
                                  "for balancing (%s)", bal_strerror(rc));
            }
        }
    }
    return TILE_OK;
}

/**
 * tile_plan_create() - set up a process's share of a tiled computation.
 * @plan: the plan to fill (destroy it with tile_plan_destroy, also on error).
 * @comm: the processes that take part (duplicated; not modified).
 * @cfg:  what to compute (see tile_config); every rank must pass the same.
 *
 * Collective over comm.  Checks the arguments, agrees across ranks (every
 * rank returns the same error code), chooses the process grid (cfg.grid
 * entries that are 0 with cfg.grid_policy, through topology.h) and the thread
 * grid, checks MPI's thread support for cfg.model, and allocates the local
 * block with its ghost layers and the Z window.
 *
 * Return: TILE_OK, or an error code with a message naming the argument in
 * plan->errmsg (on the rank that found it; other ranks get TILE_ERR_REMOTE
 * unless they found an error themselves).
 */
static inline int tile_plan_create(tile_plan *plan, MPI_Comm comm, const tile_config *cfg)
{
    int rc, mine, worst, provided = MPI_THREAD_SINGLE;
    if (plan == NULL)
        return TILE_ERR_NULL;
    memset(plan, 0, sizeof *plan);
    plan->comm = MPI_COMM_NULL;
    if (cfg == NULL)
        return tile__fail(plan, TILE_ERR_NULL, "cfg is NULL");
    plan->cfg = *cfg;
    plan->n = cfg->n;
    plan->threads = cfg->threads;
    if (MPI_Comm_dup(comm, &plan->comm) != MPI_SUCCESS)
        return tile__fail(plan, TILE_ERR_MPI, "MPI_Comm_dup failed (is comm valid?)");
    if (MPI_Comm_set_errhandler(plan->comm, MPI_ERRORS_RETURN) != MPI_SUCCESS ||
        MPI_Comm_size(plan->comm, &plan->size) != MPI_SUCCESS ||
        MPI_Comm_rank(plan->comm, &plan->rank) != MPI_SUCCESS)
        return tile__fail(plan, TILE_ERR_MPI, "MPI_Comm_size/rank failed on the duplicate of comm");

    rc = tile__validate(plan, cfg);
    if (rc == TILE_OK && MPI_Query_thread(&provided) != MPI_SUCCESS)
        rc = tile__fail(plan, TILE_ERR_MPI, "MPI_Query_thread failed (is MPI initialised?)");
    if (rc == TILE_OK) {
        if (provided < tile_model_thread_level(cfg->model, cfg->threads))
            rc = tile__fail(plan, TILE_ERR_THREAD_LEVEL, "model '%s' needs MPI thread support "
                            "%s but MPI provides %s; initialise MPI with "
                            "MPI_Init_thread (see hybrid_init)", tile_model_name(cfg->model),
                            tile_model_thread_level(cfg->model, cfg->threads) ==
                                    MPI_THREAD_MULTIPLE ? "MPI_THREAD_MULTIPLE"
                                                        : "MPI_THREAD_FUNNELED",
                            provided == MPI_THREAD_SINGLE ? "MPI_THREAD_SINGLE"
                            : provided == MPI_THREAD_FUNNELED ? "MPI_THREAD_FUNNELED"
                            : "MPI_THREAD_SERIALIZED");
    }
    mine = rc;
    if (MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, plan->comm) != MPI_SUCCESS)
        return tile__fail(plan, TILE_ERR_MPI, "MPI_Allreduce failed");
    if (worst != TILE_OK)
        return rc != TILE_OK ? rc
                             : tile__fail(plan, TILE_ERR_REMOTE, "another rank rejected its "
                                          "arguments (%s)", tile_strerror(worst));
    if ((rc = tile__agree(plan, cfg)) != TILE_OK)
        return rc;
    rc = tile__setup(plan);     /* same outcome on every rank, except memory */
    mine = rc;
    if (MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, plan->comm) != MPI_SUCCESS)
        return tile__fail(plan, TILE_ERR_MPI, "MPI_Allreduce failed");
    if (worst != TILE_OK)
        return rc != TILE_OK ? rc
                             : tile__fail(plan, TILE_ERR_REMOTE, "another rank failed to set up "
                                          "(%s)", tile_strerror(worst));
    rc = tile__cost_model(plan);
    mine = rc;
    if (MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, plan->comm) != MPI_SUCCESS)
        return tile__fail(plan, TILE_ERR_MPI, "MPI_Allreduce failed");
    if (worst != TILE_OK && rc == TILE_OK)
        return tile__fail(plan, TILE_ERR_REMOTE, "another rank failed to set up (%s)",
                          tile_strerror(worst));
    return rc;
}

/** Free everything a plan holds (safe on a failed or zeroed plan). */
static inline void tile_plan_destroy(tile_plan *plan)
{
    if (plan == NULL)
        return;
    tile__free(plan);
    if (plan->comm != MPI_COMM_NULL && plan->comm != 0)
        (void)MPI_Comm_free(&plan->comm);   /* nothing to report from a destructor */
    plan->comm = MPI_COMM_NULL;
}

/** The plan's error state: TILE_OK, or the first error of creation or of
 *  the last run (message in plan->errmsg). */
static inline int tile_plan_status(const tile_plan *plan)
{
    return plan == NULL ? TILE_ERR_NULL : plan->err;
}

/**
 * tile_get() - read a computed point after a run.
 * @plan:  the plan.
 * @coord: global coordinates x_1..x_N, z.
 * @out:   receives elem_size bytes.
 * Return: 1 if this rank owns the point and still stores it (always with
 * TILE_STORE_FULL; the last planes of the window otherwise), else 0.
 */
static inline int tile_get(const tile_plan *plan, const int64_t *coord, void *out)
{
    int64_t x[TILE_MAX_DIMS];
    int64_t h = plan->cfg.tile_height < plan->cfg.zlen ? plan->cfg.tile_height : plan->cfg.zlen;
    int64_t z = coord[plan->n];
    int64_t keep = plan->ring_planes >= plan->ntiles * h ? plan->cfg.zlen : plan->ring_planes - h;
    int i;
    if (z < 0 || z >= plan->cfg.zlen || z < plan->cfg.zlen - keep)
        return 0;
    for (i = 0; i < plan->n; i++) {
        x[i] = coord[i] - plan->lo[i];
        if (x[i] < 0 || x[i] >= plan->len[i])
            return 0;
    }
    memcpy(out, tile__plane(plan, z) + tile__offset(plan, x), plan->cfg.elem_size);
    return 1;
}

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_TILING_H */
