#ifndef TILEHYBRID_TILING_H
#define TILEHYBRID_TILING_H

#if defined(TILE_CHECK_ACCESS) && defined(__cplusplus)
#error "TILE_CHECK_ACCESS needs C (TILE_AT then uses a compound literal): compile the file that includes tiling.h as C, or leave TILE_CHECK_ACCESS undefined"
#endif
#ifdef TILEHYBRID_NO_MPI
#error "tiling.h needs MPI: TILEHYBRID_NO_MPI is only for the MPI-free parts of tilehybrid.h, balance.h and topology.h"
#endif

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "tilehybrid.h"
#include "balance.h"
#include "topology.h"
#if TILEHYBRID__MODE != defined(TILEHYBRID_SEPARATE) + defined(TILEHYBRID_IMPLEMENTATION)
#error "tiling.h: TILEHYBRID_SEPARATE or TILEHYBRID_IMPLEMENTATION changed after the first tilehybrid header was included: define them before it"
#endif

#ifdef _OPENMP
#include <omp.h>
#endif
#include <signal.h>     /* the fence (23-fence.h): sig_atomic_t, its handler */
#if defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__))
#include <fcntl.h>      /* the fence: open /dev/zero where there is no MAP_ANON */
#include <sys/mman.h>   /* the fence: mmap, mprotect */
#include <unistd.h>     /* sysconf: the physical memory (cfg.mem_limit), the page */
#endif

#define TILE_VERSION TILEHYBRID_VERSION

#ifndef TILE_MSG_MAX
#define TILE_MSG_MAX INT_MAX
#endif

#if TILE_MSG_MAX < 1 || TILE_MSG_MAX > INT_MAX
#error "TILE_MSG_MAX must be in 1..INT_MAX"
#endif

/* Bitwise identity with the sequential loop needs each expression rounded
 * as written: no contraction of a * b + c into one fused multiply-add,
 * which a compiler may do in one loop (the SIMD one) and not in another.
 * Clang honours the standard pragma, for the rest of the translation unit
 * (your sequential reference too); GCC ignores it (and warns): compile with
 * -ffp-contract=off (GCC's default under -std=c99, but not under -std=gnu*,
 * where -march=native then contracts).  Clang also reports an `omp simd`
 * loop it cannot vectorise (-Wpass-failed): a body that calls a function
 * runs that loop scalar, correctly; the warning is turned off. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#if defined(__has_warning)
#if __has_warning("-Wpass-failed")
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Largest N (distributed dimensions); the space has N + 1 dimensions. */
#define TILE_MAX_DIMS 8
/** Largest dependence distance d_Z along the pipelined dimension. */
#define TILE_MAX_DEPZ 63
/** Most offset vectors in a declared stencil. */
#define TILE_MAX_STENCIL 32

/** Error codes: tile_strerror() gives the text, plan.errmsg the detail. */
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
    TILE_ERR_NOMEM,         /* allocation failed, or the plan would pass cfg.mem_limit */
    TILE_ERR_OVERFLOW,      /* sizes overflow 64-bit or a count exceeds what MPI can send */
    TILE_ERR_MPI,           /* an MPI call failed */
    TILE_ERR_BODY,          /* the body broke out, left its point unwritten (checked),
                               a run did not finish (a return, 1 process), or a call
                               that needs the plan idle (a hook set, a gather, an
                               exchange, a reduction declared) came from its body or
                               a hook */
    TILE_ERR_BALANCE,       /* invalid balancing policy or cost model */
    TILE_ERR_STORAGE,       /* storage or order not one of its enum values */
    TILE_ERR_STENCIL,       /* a stencil vector or a direction the plan cannot run */
    TILE_ERR_ACCESS,        /* TILE_AT with a wrong type size or an undeclared offset */
    TILE_ERR_RANGE,         /* a tile, Z range, box, root or option outside its range */
    TILE_ERR_NOT_STORED,    /* data asked for that the plan no longer (or not yet) stores */
    TILE_ERR_OUTPUT,        /* the output hook returned an error */
    TILE_ERR_REDUCE,        /* a reduction used on a plan it is not declared on, or wrongly */
    TILE_ERR_SKEWED,        /* a call that needs box-shaped blocks, on a plan that skews */
    TILE_ERR_ARG,           /* configuration fields that exclude each other are both set */
    TILE_ERR_CHECKPOINT,    /* a checkpoint refused (not this program's, truncated,
                               damaged) or its file not renamed into place */
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
enum tile_grid_policy {
    TILE_GRID_COMM = 0,     /* least communication volume (extended faces counted) */
    TILE_GRID_LATENCY = 1,  /* balanced: fewest pipeline fill steps */
    TILE_GRID_TIME = 2      /* least predicted pipeline time (topology.h's model; it
                               ignores processes sharing a node's link: check its
                               choice there, docs/RESULTS.md "Grid policies") */
};

/** Order of the points inside a tile, and the layout of a plane (any order
 *  gives the same bits; "Iteration order inside a tile" above). */
enum tile_order {
    TILE_ORDER_PLANES = 0,     /* Z outermost, the last X dimension innermost */
    TILE_ORDER_Z_INNER = 1,    /* Z innermost (kernels whose Z recurrence is cheap) */
    TILE_ORDER_HYPERPLANE = 2, /* Z outermost, then anti-diagonals of two X
                                  dimensions, stored contiguous (SIMD) */
    TILE_ORDER_AUTO = 3        /* the plan chooses (the default) */
};

/** Storage of the Z dimension. */
enum tile_storage { TILE_STORE_WINDOW = 0, TILE_STORE_FULL = 1 };

/** How the face messages travel (cfg.messages; "Face messages" above). */
enum tile_messages {
    TILE_MESSAGES_PERSISTENT = 0,   /* requests made once per plan, MPI_Startall
                                       per step (the default) */
    TILE_MESSAGES_NONBLOCKING = 1,  /* MPI_Isend / MPI_Irecv per face and tile */
    TILE_MESSAGES_PARTITIONED = 2   /* multiple model, MPI-4: one partitioned message
                                       per face, a partition per thread; else persistent */
};

/** When the ranks agree on a run's outcome (cfg.agree). */
enum tile_agree {
    TILE_AGREE_EACH_RUN = 0,    /* every run: its start and its end (the default) */
    TILE_AGREE_WHEN_ASKED = 1   /* runs without reductions, once the plan has settled,
                                   send their faces and nothing else: each rank keeps
                                   its own outcome until tile_plan_agree() */
};

/** 1 where this MPI offers MPI-4 partitioned communication (MPI_Psend_init,
 *  MPI_Pready, MPI_Parrived) and TILE_NO_PARTITIONED is not defined. */
#if defined(MPI_VERSION) && MPI_VERSION >= 4 && !defined(TILE_NO_PARTITIONED)
#define TILE_HAVE_PARTITIONED 1
#else
#define TILE_HAVE_PARTITIONED 0
#endif

/**
 * typedef tile_boundary_fn - boundary values: write the value of the point
 * at global coordinates coord[0..N] (coord[N] is Z; the user's coordinates:
 * at least one is below 0, or at or above its extent along a downward
 * dimension) to out (cfg.elem_size bytes).  In the threaded models several
 * threads call it at once (each for its own points): it must be
 * thread-safe (read-only use of ctx is).
 */
typedef void (*tile_boundary_fn)(void *out, const int64_t *coord, void *ctx);

/**
 * typedef tile_boundary_row_fn - boundary values, a row of points per call
 * (cfg.boundary_row, instead of cfg.boundary: once the body runs at SIMD
 * speed, one call per point is no longer small beside computing it).
 * @out:    where the first value goes; value e (0 <= e < @count) goes to
 *          (unsigned char *)out + e * @stride (cfg.elem_size bytes each).
 * @stride: bytes from one value to the next (not necessarily elem_size:
 *          the row may run across a diagonal-major plane).
 * @count:  the points of the row (>= 1).
 * @coord:  the global user coordinates of point 0 (coord[N] is Z), as
 *          tile_boundary_fn's @coord.
 * @step:   what each user coordinate changes by from one point to the next:
 *          point e is at coord[i] + e * step[i], i = 0..N.  On a plan
 *          that does not skew, one coordinate moves, by +1 (-1 where its
 *          loop runs downward); on a skewed plan (plan.deps.skewed) a step
 *          may move several coordinates at once.
 * @ctx:    cfg.boundary_ctx.
 * Every point of a row is outside the space; each value must be what
 * tile_boundary_fn would write for that point (the engine does not care
 * how: an incremental formula that gives the same bits is fine).  The
 * engine calls it with the rows it would have filled point by point, so
 * the same points get values.  Thread-safety as tile_boundary_fn's.
 */
typedef void (*tile_boundary_row_fn)(void *out, ptrdiff_t stride, int64_t count,
                                     const int64_t *coord, const int64_t *step, void *ctx);

/**
 * typedef tile_mpi_failure_fn - your policy for an MPI call of the engine
 * that failed on this rank (cfg.on_mpi_failure; see "MPI failures" in the
 * top comment).
 * @msg: the message: the call, this rank (and thread), the tile or the
 *       stage, MPI's error text ("tiling.h: rank 1: MPI_Isend failed ...").
 * @ctx: cfg.on_mpi_failure_ctx.
 * It replaces the engine's own report on stderr.  It may log or
 * checkpoint and return: the engine then aborts the job (revokes the
 * plan's communicator where ULFM is enabled).  A hook that does not return
 * must end with MPI_Abort, not exit(): the other ranks wait for this one,
 * and only MPI_Abort ends them.  It may run on any
 * thread that calls MPI (several at once in the multiple model).
 */
typedef tilehybrid_mpi_failure_fn tile_mpi_failure_fn;

/**
 * struct tile_config - what to compute and how.  Fill it with
 * tile_config_init(), then set the fields; every rank must pass the same.
 * @n:           N, the distributed dimensions (1..TILE_MAX_DIMS).
 * @extent:      X_1..X_N (>= 1).
 * @zlen:        Z (>= 1).
 * @dep, @depz:  d_1..d_N (>= 0) and d_Z (0..TILE_MAX_DEPZ): the body reads
 *               A(x - a e_i), 1 <= a <= d_i (the axis-aligned shorthand; 0
 *               when a stencil is given).
 * @nstencil, @stencil: the offset vectors (o_1, ..., o_N, o_Z) the body
 *               reads, in the user's coordinates (tile_config_stencil()
 *               sets them from text); 0 vectors: the shorthand @dep/@depz.
 *               Every vector must point to an earlier point of the
 *               sequential loop (in @loop_order and @dir, not all 0).  If
 *               each is earlier along every dimension (o_i * dir_i <= 0),
 *               the space is tiled as it is; otherwise (e.g. Gauss-Seidel
 *               in time reads A(i+1, j-1, t-1)) the plan skews it first
 *               (struct tile_deps).
 * @dir:         per dimension (N is Z), +1 if the user's sequential loop
 *               runs upward (default), -1 if it runs downward; offsets and
 *               coordinates stay the user's.
 * @loop_order:  the user's sequential loop nest, outermost first, as
 *               dimension numbers (N is Z): a permutation of 0..N.  All
 *               -1 (the default): Z outermost, then X_1 ... X_N.  It only
 *               matters for stencil vectors that are not earlier along
 *               every dimension (it says which reads are legal).
 * @tile_height: z (>= 1; larger than Z is one tile), or 0 (the default):
 *               the plan chooses it from the pipeline's model (see "Tile
 *               height" in the top comment; plan.height says what it chose,
 *               why, and the predicted parallel efficiency).
 * @elem_size:   bytes per point (default sizeof(double)).
 * @model:       enum tile_model (default TILE_MODEL_MPI).
 * @threads:     T threads per process (default 1).
 * @grid:        the process grid: 0 = free, > 0 = fixed.  On a plan that
 *               skews, its entries (and @tgrid's) divide the skewed space's
 *               distributed dimensions, the plan's X_1 ... X_N
 *               (plan.deps.size; tilectl topo and plan print them).
 * @grid_policy: enum tile_grid_policy for the free entries.
 * @tgrid:       the thread grid; all 0 = chosen (topology.h).
 * @balance:     funneled model: the master's share (balance.h; default an
 *               even split).
 * @storage:     enum tile_storage.
 * @order:       enum tile_order (default TILE_ORDER_AUTO: the plan chooses;
 *               plan.store.order says what it runs).
 * @boundary:    values outside the space (NULL: 0), with @boundary_ctx,
 *               one call per point (tile_boundary_fn).
 * @boundary_row: the same values a row of points per call
 *               (tile_boundary_row_fn), with @boundary_ctx: at most one of
 *               @boundary and @boundary_row may be set (both:
 *               TILE_ERR_ARG); every rank must set the same one.
 * @mem_limit:   the most bytes the plan may allocate on one rank (its Z
 *               window, message buffers and tables), checked before anything
 *               is allocated: 0 (default) = the environment variable
 *               TILEHYBRID_MEM_LIMIT (bytes) if set, else half the
 *               physical memory (sysconf(_SC_PHYS_PAGES)) divided by the
 *               plan's ranks on this node (MPI_Comm_split_type,
 *               MPI_COMM_TYPE_SHARED), else no limit; -1 = no limit.  Each
 *               rank checks its own share.  The input hook's arrays
 *               (tile_input_set) are not counted.
 * @messages:    enum tile_messages (default TILE_MESSAGES_PERSISTENT).
 * @agree:       enum tile_agree (default TILE_AGREE_EACH_RUN): with
 *               TILE_AGREE_WHEN_ASKED a run costs its faces' messages only
 *               (no collective) once a first run has completed on every
 *               rank and the tile height settled, while no reduction is
 *               declared; tile_plan_status() is then this rank's outcome
 *               until tile_plan_agree().
 * @on_mpi_failure: NULL (default: report on stderr, then abort), or your
 *               policy for a failed MPI call (tile_mpi_failure_fn), with
 *               @on_mpi_failure_ctx.  Not compared between ranks.
 */
typedef struct tile_config {
    int n;
    int64_t extent[TILE_MAX_DIMS];
    int64_t zlen;
    int dep[TILE_MAX_DIMS];
    int depz;
    int nstencil;
    int stencil[TILE_MAX_STENCIL][TILE_MAX_DIMS + 1];
    int dir[TILE_MAX_DIMS + 1];
    int loop_order[TILE_MAX_DIMS + 1];
    int64_t tile_height;
    size_t elem_size;
    int model;
    int threads;
    int grid[TILE_MAX_DIMS];
    int grid_policy;
    int tgrid[TILE_MAX_DIMS];
    bal_config balance;
    int storage;
    int order;
    tile_boundary_fn boundary;
    void *boundary_ctx;
    tile_boundary_row_fn boundary_row;
    int64_t mem_limit;
    int messages;
    int agree;
    tile_mpi_failure_fn on_mpi_failure;
    void *on_mpi_failure_ctx;
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

/**
 * struct tile_deps - the plan's internal coordinates and the dependences in
 * them; fixed at plan creation.
 *
 * The plan computes in internal coordinates g (g_0..g_{N-1} the
 * distributed dimensions, g_N the pipelined one, Z), in which every read is
 * at offsets <= 0.  Normally g is the user's coordinates u, with each
 * dimension whose loop runs downward reversed.  When a stencil vector is
 * earlier in the loop order but later along some dimension, the plan skews
 * instead: with y_p the direction-normalised coordinate of the loop's p-th
 * dimension (outermost first), y'_p = y_p + sum_{q<p} f_pq y'_q, the
 * smallest non-negative integers f_pq that make every read's offsets <= 0
 * (lower-triangular, as time skewing does); the longest y' becomes Z and
 * the others, in loop order, X_1 ... X_N.  Points of the skewed bounding
 * box outside the user's space are neither computed nor counted; those a
 * real point reads hold boundary values.  Either way g = m u + c and
 * u = inv g + cinv, exactly (integers).
 * @d, @dz: the ghost widths d'_i = max over the vectors of -o'_i, and d'_Z.
 * @ext:    ext[i][j] (j < i): how far the face sent along i reaches into
 *          the ghost layers of dimension j (extended faces: a diagonal
 *          value travels through the neighbour that shares it).
 * @dir:    the user's loop direction per dimension (N is Z).
 * @skewed: 1 if the plan skews (then not every point of the box is real).
 * @size:   the internal extents (size[N]: Z).
 * @m, @c, @inv, @cinv: the maps between user and internal coordinates.
 * @off:    off[k]: the internal offsets of stencil vector k.
 * @at_code, @at_mask, @at_far, @at_all: the offsets the body may read
 *          (the stencil's vectors, or the axis-aligned ones within the
 *          widths, and the point itself: at most TILE__AT_CODES), for
 *          TILE_AT's test in every build (tile__at_table): their codes
 *          (tile__at_pk: 7 bits per offset) in ascending order, the rest
 *          UINT64_MAX; at_mask[i][x + 7] the set (a bit each) of those
 *          whose offset i is x, for |x| <= 7, and at_mask[i][15] of those
 *          whose offset i is farther; at_far 1 when one of them has an
 *          offset beyond +-63 (then every such offset passes), at_all 1
 *          when they are more (then every offset passes: only the
 *          shorthand's widths can make so many).
 */
#define TILE__AT_CODES 64   /* TILE_AT's test: the most declared offsets (a bit each) */
typedef struct tile_deps {
    int d[TILE_MAX_DIMS];
    int dz;
    int ext[TILE_MAX_DIMS][TILE_MAX_DIMS];
    int dir[TILE_MAX_DIMS + 1];
    int skewed;
    int64_t size[TILE_MAX_DIMS + 1];
    int64_t m[TILE_MAX_DIMS + 1][TILE_MAX_DIMS + 1], c[TILE_MAX_DIMS + 1];
    int64_t inv[TILE_MAX_DIMS + 1][TILE_MAX_DIMS + 1], cinv[TILE_MAX_DIMS + 1];
    int64_t off[TILE_MAX_STENCIL][TILE_MAX_DIMS + 1];
    uint64_t at_code[TILE__AT_CODES];
    uint64_t at_mask[TILE_MAX_DIMS + 1][16];
    int at_far, at_all;
} tile_deps;

/**
 * struct tile_threads - the split of the block into thread tiles (fixed at
 * plan creation; one tile in the pure MPI model).
 * @dims:    T_1 x ... x T_N.
 * @bal_dim: the dimension the funneled factor splits (the one with the most
 *           threads), or -1.
 * @skew:    S = sum (T_i - 1): thread t starts a tile t_1 + ... + t_N steps
 *           after thread 0 (the hyperplane schedule).
 * @split:   split[i][0..T_i]: the even bounds of the thread boxes along i.
 * @coord:   coord[t * N + i]: the coordinates of thread t.
 * @delay:   delay[t] = t_1 + ... + t_N.
 */
typedef struct tile_threads {
    int dims[TILE_MAX_DIMS];
    int bal_dim;
    int64_t skew;
    int64_t *split[TILE_MAX_DIMS];
    int *coord;
    int *delay;
} tile_threads;

/**
 * struct tile_store - the storage of the block (sizes fixed at creation).
 * @ring_planes: R, the planes of the Z window (a multiple of the tile
 *               height; every plane under TILE_STORE_FULL).
 * @plane_elems, @plane_bytes: one plane with its ghost layers.
 * @stride:      element strides within a plane (ghosts included).
 * @ring:        d_Z mirror planes, then the R planes; at a 64-byte
 *               boundary inside the allocation @ring_mem (private).
 * @fence:       where the fast loops send an offset the plan does not
 *               deliver (private: 23-fence.h).
 * @sbuf, @rbuf: a send and a receive buffer per dimension (a face of a tile).
 * @face_bytes:  their size.
 * @order:       the order the plan runs: cfg.order, or what TILE_ORDER_AUTO
 *               chose (enum tile_order, never AUTO).
 * @wave:        TILE_ORDER_HYPERPLANE: the two dimensions of the
 *               anti-diagonals (wave[0] rises along a diagonal, wave[1]
 *               falls); a plane is stored diagonal-major, each diagonal
 *               contiguous, @diag elements apart.  -1 in the other orders
 *               (row-major planes).
 * @diag:        the distance between two diagonals, in elements.
 * @origin:      the element offset, within a plane, of the point whose
 *               coordinates are all at their lowest ghost: 0 in row-major
 *               planes; in the hyperplane order the shift that puts the
 *               first interior point of a diagonal along wave[0]
 *               (x_a = d_a) at the start of a 64-byte line (0 where the
 *               element size does not divide 64, or the shift would cost
 *               more than an eighth more plane: tile_plane_layout()).
 * @mirror:      1 when the last d_Z planes of the ring are copied to the
 *               mirror planes below it after the tile that ends the ring
 *               (d_Z > 1, or the Z-inner order, whose runs cross planes); 0
 *               when the reads of plane z - 1 at the ring's first plane
 *               take a step of R - 1 planes up instead (d_Z = 1 in the
 *               plane and hyperplane orders: each run lies in one plane,
 *               and its cursor's Z step is chosen per plane; no copy).
 */
/* The window's fence (private; 23-fence.h): len bytes at mem, mapped with
 * no access; trap: the bytes from the window to its mirror in it (the
 * fast loops' TILE_AT of an offset the plan does not deliver); hit: set by
 * the handler when a page of it faulted; armed: this run's handler is
 * installed (else the fast loops do not run). */
typedef struct tile__fence {
    unsigned char *mem;
    size_t len, page;
    int64_t trap;
    volatile sig_atomic_t hit;
    int armed;
} tile__fence;

typedef struct tile_store {
    int64_t ring_planes;
    int64_t plane_elems;
    int64_t stride[TILE_MAX_DIMS];
    int order;
    int wave[2];
    int64_t diag;
    int64_t origin;
    int mirror;
    size_t plane_bytes;
    unsigned char *ring, *ring_mem;
    tile__fence fence;
    unsigned char *sbuf[TILE_MAX_DIMS], *rbuf[TILE_MAX_DIMS];
    int64_t face_bytes[TILE_MAX_DIMS];
} tile_store;

/**
 * struct tile_run - what a run changes, and what the last run measured.
 * Readable after a run:
 * @stats:      per thread (cfg.threads entries).
 * @bytes_sent, @messages: this process, the whole run.
 * @seconds:    wall time of the run.
 * @bal:        the funneled model's balancing (first and last factor, ...).
 * @bal_changes: thread-split changes during the run.
 * @messaging:  how the face messages travel (enum tile_messages, fixed at
 *              creation): cfg.messages, or TILE_MESSAGES_PERSISTENT where
 *              partitioned messages were asked for but cannot be had;
 *              under SimGrid SMPI, TILE_MESSAGES_NONBLOCKING instead of
 *              persistent requests.
 * The rest is the schedule (private): tile k starts at step sigma(k) on
 * thread 0 and thread t computes it at sigma(k) + delay(t); sigma(k+1) =
 * sigma(k) + 1, plus S drain steps when the thread split changes
 * (balancing).  A ring of W records holds sigma and the split bounds along
 * bal_dim of the tiles in flight.
 */
/* The lanes of a SUM_U64 reduction in the SIMD loop of the hyperplane
 * order (private): point j of a run adds to lane j % TILE__LANES, so the
 * points that run at once never share an accumulator; the lanes are added
 * to the thread's slot when the thread's part of the tile ends. */
#define TILE__LANES 64
/* The rows of a band (tile__walk_band): N = 1, each row a recurrence whose
 * points wait for the one before; TILE__BAND rows in step overlap. */
#ifndef TILE__BAND
#define TILE__BAND 8
#endif
typedef struct tile__lanes {
    uint64_t u64[TILE__LANES];
    int64_t cnt[TILE__LANES];
} tile__lanes;

/* A thread's error message of the run, its scratch element, and the lanes
 * where a SIMD loop's tile_reduce_u64() on a reduction that is not a
 * SUM_U64 of this plan lands (reported at the end of the tile). */
typedef struct tile__slot {
    char msg[232];
    void *scratch;
    size_t scratch_bytes;
    int rows;           /* N = 1: rows the checked loop passed this run */
    int band;           /* bands (1) or rows (-1), measured (tile__band_trial); 0: not yet */
    int trials;         /* the trials so far (a band, then as many rows) */
    int64_t tpts[2];    /* their points, bands [1] and rows [0], */
    double tsec[2];     /* their seconds */
    char pad_[24];      /* 320 bytes so far: whole cache lines */
    double spare[32];   /* 256 bytes, 8-byte aligned */
    tile__lanes trash;
} tile__slot;

typedef struct tile_run {
    tile_stats *stats;
    int64_t bytes_sent, messages;
    double seconds;
    bal_policy bal;
    int64_t bal_changes;
    int messaging;
    /* private */
    int ok;                         /* the run started on every rank */
    int active;                     /* started and not finished on this rank */
    int left;                       /* a return or goto left its body (reported) */
    int balancing;                  /* the schedule asks bal for each tile */
    int64_t nsteps;                 /* INT64_MAX until the last tile is scheduled */
    int sched_w;
    int64_t *sigma, *bounds;
    int64_t announced, send_next, recv_next, recv_pending;
    int64_t *next_tile;             /* per thread, 8 apart (no false sharing) */
    MPI_Request *req;               /* 2N per thread: the requests in flight */
    int *nreq;                      /* T: how many; then T: how many of them send */
    MPI_Request *preq;              /* persistent: [thread][last tile][send][dim] */
    struct tile__parted *part;      /* partitioned (multiple model) */
    int64_t *seg;                   /* seg[i * T + t]: thread t's part of a face (multiple) */
    tile__slot *slot;               /* per thread: error message, scratch element */
    double start;
    struct tile__io *io;            /* output hook, reductions ("Data in and out") */
    int completed;                  /* the last run completed without error */
    int created;                    /* the creation succeeded: runs may start */
    int stage;                      /* agreeing on: 0 the creation, 1 a run's start, 2 its end */
    int settled;                    /* the last agreed run completed everywhere, nothing
                                     * collective pending (cfg.agree) */
    int lazy;                       /* this run agrees on nothing (cfg.agree) */
    int acked;                      /* tile_plan_agree() gave the failure (cfg.agree):
                                     * the next run starts afresh */
    char failmsg[320];              /* the first failed lazy run's message */
    struct tile_checkpoint *ckpt;   /* checkpoints inside the runs (78-checkpoint.h) */
    int64_t ckpt_at;                /* s + 1: the end of step s writes one (0: none) */
    int ckpt_stop;                  /* ... then the run stops (the signal) */
    int64_t first_step;             /* the run's first step: 0, or past a checkpoint's */
    unsigned char *resume;          /* a checkpoint's state for the next run, or NULL */
    size_t resume_bytes;
    int node_ranks;                 /* the plan's ranks on this node: they share the default
                                     * memory limit (tile__mem_limit) */
    int yield;                      /* the waits yield the processor (TILEHYBRID_WAIT,
                                     * 12-wait.h): an oversubscribed node */
    int band;                       /* rows in bands (TILEHYBRID_BAND, tile__walk_band):
                                     * 1 on, -1 off, 0 each thread measures */
} tile_run;

/** Where the plan's tile height comes from (plan.height.origin). */
enum tile_height_origin {
    TILE_HEIGHT_GIVEN = 0,  /* cfg.tile_height > 0: the user's */
    TILE_HEIGHT_MODEL = 1   /* cfg.tile_height == 0: the pipeline model's minimum */
};

/** Where a cost of the tile-height model comes from (plan.height.*_origin). */
enum tile_cost_origin {
    TILE_COST_GIVEN = 0,    /* cfg.balance.tcomp / tstartup / bandwidth */
    TILE_COST_ENV = 1,      /* TILEHYBRID_TCOMP / _TSTARTUP / _BANDWIDTH */
    TILE_COST_MEASURED = 2, /* t_comp: the engine's stand-in loop at creation;
                               network: a ping-pong at creation (balance.h) */
    TILE_COST_BODY = 3,     /* t_comp: the user's body, timed by the first run */
    TILE_COST_DEFAULT = 4   /* the papers' cluster (TOPO_DEFAULT_*): nothing
                               measured (a given height needs no costs) */
};

/**
 * struct tile_height_model - the pipeline model of the tile height (see "The tile
 * height" near tile_height_time()): T(z) = (ceil(Z/z) + F + S) *
 * (z t_plane + t_msg(z) + t_sync), the last step at the last tile's height.
 * @nest:    the space as topology.h's pipeline model sees it (extents,
 *           widths, extended faces, elem_bytes, and the costs: tcomp is
 *           seconds per point on ONE core, tstartup, bandwidth); its
 *           tile_height is ignored.
 * @dims:    the process grid P_1..P_N (>= 1 each).
 * @threads: T, threads per process (>= 1): a plane of a block costs
 *           t_plane = tcomp * points / T.
 * @skew:    S >= 0, the thread grid's hyperplane skew sum (T_i - 1).
 * @zmax:    the cache bound: the largest z considered (>= 1; Z or more:
 *           none).
 * @tsync:   seconds every tile step costs besides its points and messages:
 *           the threads' barrier that ends a step (>= 0; 0 with one thread).
 *           It is what makes a threaded run without messages prefer fewer,
 *           taller tiles (otherwise the thread skew's fill favours z = 1).
 * @pairs:   1 when a tile's planes go in pairs (tile_plane_pairs()): then
 *           tile_height_zmax() is at least 2.  0 (a zeroed model): not.
 */
typedef struct tile_height_model {
    topo_nest nest;
    int dims[TILE_MAX_DIMS];
    int threads;
    int64_t skew;
    int64_t zmax;
    double tsync;
    int pairs;
} tile_height_model;

/**
 * struct tile_height_info - how the plan chose its tile height (plan.height;
 * the same on every rank when the model chose).
 * @z:           the height in use (plan.cfg.tile_height holds it too).
 * @origin:      enum tile_height_origin.
 * @tcomp_origin, @comm_origin: enum tile_cost_origin of t_comp and of the
 *               network costs (tstartup, bandwidth).
 * @tcomp, @tstartup, @bandwidth: the costs of the model (seconds per point
 *               on one core, per message, bytes per second); when the model
 *               chose, the slowest rank's (the largest t_comp and t_startup,
 *               the smallest bandwidth).
 * @tsync:       the model's cost of a tile step's barrier (seconds):
 *               TILEHYBRID_TSYNC if set, else timed at creation (the least
 *               mean of 8 batches of 8 barriers of the plan's threads, the
 *               slowest rank's); 0 with one thread, in the pure MPI model,
 *               with a given height or without OpenMP (whatever value
 *               TILEHYBRID_TSYNC gives; a malformed one is still refused),
 *               and 0 unless TILEHYBRID_TSYNC is set when the plan is
 *               created inside a parallel region.
 * @cache_bytes: the cache the Z window should fit in: the per-core cache
 *               (tile_height_cache_bytes()) times the threads, with more
 *               than one thread at least a quarter of their share of
 *               @llc_bytes (tile_height_window_bytes()); a forced Z-inner
 *               order: @llc_bytes.
 * @llc_bytes:   the last-level cache (tile_height_llc_bytes()), the bound's
 *               fallback when even a window of z = 1 does not fit
 *               @cache_bytes and the run is a pipeline of more than one
 *               process or thread (tile_height_zmax()); the smallest rank's.
 * @plane_bytes: one plane of the block as the plan stores it (ghost
 *               layers and padding: tile_plane_layout()), the largest
 *               rank's when the model chose (INT64_MAX past 2^63 bytes).
 * @zmax:        the cache bound on z it gives: the largest z whose window
 *               of @plane_bytes planes fits @cache_bytes, else @llc_bytes,
 *               else 1 (a window that fits no cache gains nothing from
 *               taller tiles, and a process alone would otherwise take all
 *               of Z); at least 2 when @pairs.
 * @pairs:       1 when a tile's planes go in pairs (tile_plane_pairs())
 *               and a plan of height 2 fits the memory limit on every rank
 *               (cfg.mem_limit): the model's tile_height_model.pairs.
 * @bands:       1 when the rows of a plan of N = 1 may go in bands of
 *               TILE__BAND (8) rows (the plane order, no skew, TILEHYBRID_BAND
 *               not off) and a plan of that height fits the memory limit
 *               on every rank: then @zmax is at least 8 (a band's rows
 *               overlap; a tile of 2 rows holds a band of 2 at most).
 * @seconds:     the model's predicted time of a run, T(z).
 * @efficiency:  the predicted parallel efficiency, t_comp * points /
 *               (P * T * T(z)), in (0, 1].
 * @next:        the height the next run uses: @z, or the model's new choice
 *               once the first run has timed the user's body (t_comp
 *               measured at creation only); see tile_plan_create().
 * @timed:       1 once a run has timed the body for the model.
 */
typedef struct tile_height_info {
    int64_t z;
    int origin, tcomp_origin, comm_origin;
    double tcomp, tstartup, bandwidth, tsync;
    int64_t cache_bytes, llc_bytes, plane_bytes, zmax;
    double seconds, efficiency;
    int64_t next;
    int timed;
    int pairs;
    int bands;
} tile_height_info;

/**
 * struct tile_plan - a process's share of the computation, created
 * collectively by tile_plan_create().  Read-only for the user.
 * Fixed at creation: @cfg (as given, but for cfg.tile_height: see
 * below), @comm (the plan's Cartesian communicator, owned), @rank, @size,
 * the process grid @pdims and this process's @pcoords, its neighbours
 * @nbr_lo/@nbr_hi (MPI_PROC_NULL when none), its block (global start @lo,
 * extent @len per dimension) and the thread split @threads (threads.dims
 * is the thread grid).  @pcoords, @nbr_lo/@nbr_hi, @lo and @len are in the
 * plan's own coordinates, where the pipeline runs upward: along a
 * dimension the loop runs downward (cfg.dir -1) @pcoords[i] is
 * pdims[i] - 1 - MPI_Cart_coords()'s, the neighbours are swapped and @lo
 * counts from the top; tile_input_box() gives the block in the user's
 * coordinates.  Fixed for a tile height: cfg.tile_height, @ntiles,
 * the storage @store and the face requests; when the plan's model
 * re-chooses the height after the first run (@height.next, see
 * tile_plan_create()), the next run's start re-makes them
 * (tile__height_apply).  Changed by each run: @run.
 * @status: the first error of the creation or the last run (the same on
 * every rank; status.rank names the rank that found it).
 * @errmsg: its message, or the message of a collective data call that was
 * refused since (tile_gather, tile_exchange, the reductions: they leave
 * @status alone); a data call that succeeds on a plan whose status is
 * TILE_OK clears it.  Read it when a call returns an error.
 * @height: how the tile height was chosen, the model's predicted time and
 * parallel efficiency (struct tile_height_info).
 */
typedef struct tile_plan {
    tile_config cfg;
    MPI_Comm comm;
    int rank, size;
    int pdims[TILE_MAX_DIMS], pcoords[TILE_MAX_DIMS];
    int nbr_lo[TILE_MAX_DIMS], nbr_hi[TILE_MAX_DIMS];
    int64_t lo[TILE_MAX_DIMS], len[TILE_MAX_DIMS];
    int64_t ntiles;
    tile_deps deps;
    tile_threads threads;
    tile_store store;
    tile_run run;
    tilehybrid_status status;
    char errmsg[320];
    char errarg[TILEHYBRID_ARG_MAX];  /* status.arg points here (the same text on every rank) */
    tile_height_info height;
} tile_plan;

/**
 * struct tile_group - one step of a run as one thread sees it; declared by
 * TILE_FOREACH_GROUP and passed to the step macro that forms its body.
 * @plan:   the plan.
 * @step:   the local step s: thread t computes the tile that thread 0
 *          started t_1 + ... + t_N steps earlier.
 * @thread: the calling thread (set by the step macro).
 * @done:   the loop's only condition.  The step macros own the run's
 *          communication: the first step starts the run (collective: every
 *          rank checks the model and the thread count), the last step sends
 *          the last tile's faces and agrees the run's outcome across ranks;
 *          each then sets @done.  A run that cannot start sets it at once,
 *          on every rank and thread alike.
 */
typedef struct tile_group {
    tile_plan *plan;
    int64_t step;
    int thread;
    int done;
} tile_group;

/* The walk over thread t's part of tile k (private; declared by the step
 * macros): the points come in runs, each a counted loop over points a
 * constant byte step apart -- a row of the last X dimension (plane order),
 * a column along Z (Z inner), an anti-diagonal (hyperplane order, where the
 * step is one element).  The walk's loop levels, outermost first, iterate
 * variables of x[] (0..N-1 the X dimensions, N is Z, N + 1 the diagonal
 * w = x_a + x_b) over [vlo, vhi); each position gives one run, whose own
 * dimensions (the row's, the diagonal's) the run computes.  In the
 * hyperplane order of a plan that does not skew, slices A and B = A + 1 of
 * the level just outside the diagonals (Z when N = 2: two planes) can go
 * as a pair: a run of A then B's diagonal before it (tile__walk_next). */
typedef struct tile__walk {
    tile_plan *plan;
    unsigned char *run;                   /* the run's first point */
    ptrdiff_t step;                       /* bytes from a point of the run to the next */
    int64_t count;                        /* points in the run */
    int64_t x[TILE_MAX_DIMS + 2];         /* local coordinates of its first point; x[N]: z */
    int64_t dx[TILE_MAX_DIMS + 1];        /* their change from a point to the next */
    int64_t ust[TILE_MAX_DIMS + 1];       /* element strides along the user's dimensions */
    int64_t wst[TILE_MAX_DIMS + 1];       /* the same at plane wrapz (z - 1 is R - 1 up) */
    int64_t wrapz;                        /* the tile's plane that reads across the ring's
                                           * wrap without a mirror (store.mirror 0), or -1 */
    int64_t ux[TILE_MAX_DIMS + 1];        /* the user's coordinates of the run's first point
                                           * (= su[] when diag, which moves su[] only) */
    int64_t udx[TILE_MAX_DIMS + 1];       /* their change from a point to the next */
    int64_t blo[TILE_MAX_DIMS + 1], bhi[TILE_MAX_DIMS + 1]; /* the box; [N]: the tile's Z */
    int64_t vlo[TILE_MAX_DIMS + 2], vhi[TILE_MAX_DIMS + 2];
    int lev[TILE_MAX_DIMS + 2];           /* the variable of each loop level */
    int nlev;                             /* loop levels (-1: nothing to walk) */
    size_t esz;
    int n, thread, order, started;
    int fast;                             /* the run may go through the SIMD loop */
    int contig;                           /* or, in the other orders, the unchecked loop */
    int checked;                          /* a run passed the checks: SIMD, contig loops */
    int64_t zchk;                         /* the plane of the last checked run (x[N]) */
    int zleft;                            /* planes whose first run is still to check:
                                           * all, or (N = 1, a row each) the tile's
                                           * first two, or none (Z inner: runs cross
                                           * the planes); 0: zany */
    int zany;                             /* the fast loops may run on any plane */
    int bfirst;                           /* B's first run of a pair: the checked loop */
    int laned;                            /* the SIMD loop ran: reduction lanes to add up */
    unsigned char *pbase;                 /* the tile's first plane (a tile never wraps) */
    int diag;                             /* hyperplane order, no skew: tile__walk_next's */
    int wa, wb;                           /* fast step: store.wave[0], [1]; */
    int64_t dstop;                        /* while x[N + 1] < dstop (else INT64_MIN) */
    int64_t dturn;                        /* past it, a diagonal starts one up along wa */
    ptrdiff_t sa, sb;                     /* bytes along the two wave dimensions */
    int64_t ia[TILE_MAX_DIMS + 1], ib[TILE_MAX_DIMS + 1]; /* and their user-coordinate columns */
    int pair;                             /* slices in pairs: 1 this slice's, 2 undecided */
    int pl;                               /* the pairs' level (lev[nlev - 2]) */
    ptrdiff_t pstep;                      /* bytes from a slice to the next */
    int64_t pcol[TILE_MAX_DIMS + 1];      /* user coordinates from a slice to the next */
    unsigned char *brun;                  /* B's run with this one: its first point, */
    int64_t bcount;                       /* its points (0: none), */
    int64_t bsu[TILE_MAX_DIMS + 1];       /* its first point's user coordinates */
    int64_t g0[TILE_MAX_DIMS + 1];        /* internal global coordinates of local 0 */
    int64_t sx[TILE_MAX_DIMS + 1];        /* the last run's first point before clipping, */
    int64_t su[TILE_MAX_DIMS + 1];        /* and its user coordinates (sx[0] < 0: none) */
    int64_t points;                       /* points walked, not yet in the statistics */
    sig_atomic_t hit0;                    /* the fence's hit when the walk began */
    int64_t k;                            /* its tile (tile__walk_begin's k) */
    int again;                            /* walked again, every run checked: the fence
                                           * was hit (tile__walk_again) */
    int jamok;                            /* rows may go in bands (tile__walk_band) */
    int jam;                              /* the rows of the current band (2..TILE__BAND) */
    int trial;                            /* measuring: rows left in the trial (0: none) */
    int tband;                            /* the trial's loop: 1 bands, 0 rows */
    int64_t tpts;                         /* its points so far */
    double t0;                            /* its start (tile_wtime) */
} tile__walk;

/* What a point's cursor reads that does not change along a run (private):
 * a copy of the walk's strides, the run's first coordinates and their
 * step.  The step macros keep it in a local of their own that only the
 * cursors point to, never passed to a function that is not inlined (the
 * walk is: error reports), so the compiler knows that the body's stores
 * and calls leave it alone and keeps its values in registers across the
 * points of a run, instead of reloading them at every TILE_AT. */
typedef struct tile__view {
    const tile__walk *w;                  /* the walk (errors, reductions, input) */
    tile_plan *plan;
    size_t esz;
    int n, thread;
    int64_t ust[TILE_MAX_DIMS + 1];       /* = w->ust, or w->wst at plane w->wrapz */
    int wrap;                             /* which of the two */
    int64_t ux[TILE_MAX_DIMS + 1];        /* = w->ux, the run's first point */
    int64_t udx[TILE_MAX_DIMS + 1];       /* = w->udx */
    int64_t uz[TILE_MAX_DIMS + 1];        /* the change a plane up (a band's rows) */
} tile__view;

/* The offsets the body may read (private): a copy of the plan's
 * deps.at_mask (its rows 0..N); any, bit 0: every offset passes (at_all),
 * bit 63: an offset beyond +-63 passes (at_far); code: a copy of the
 * plan's deps.at_code.  TILE__POINTS keeps it in a local of its own,
 * tile_pt_as_, that TILE_AT names directly: its address is never stored,
 * nothing writes it after its start, and TILE_AT reads it at constant
 * indices where the offsets are constants (nothing that could trap), so
 * the compiler knows that the body leaves it alone and hoists TILE_AT's
 * test (tile__at_ok) out of the loops over the points and the runs: once
 * per site and tile.  Copies, not pointers to the plan: a body's stores
 * of 64-bit integers (a reduction's lanes) could be the plan's table, and
 * the test would be made again at every point (demos/adi: 2.8x the
 * instructions). */
typedef struct tile__atset {
    uint64_t m[TILE_MAX_DIMS + 1][16];
    uint64_t any;
    uint64_t code[TILE__AT_CODES];
    size_t key;                           /* esz (TILE_MAX_DIMS + 2) + N + 1: the type's test */
    int64_t trap;                         /* the fence's trap in bytes (the fast loops) */
    tile_plan *plan;                      /* the step macro's plan (evaluated once) */
} tile__atset;


/**
 * struct tile_cursor - the point being computed: declared by the step
 * macros (one per point, so that SIMD lanes do not share it), read through
 * TILE_AT, tile_coord, TILE_THREAD and the reductions.  Private fields.
 */
typedef struct tile_cursor {
    unsigned char *at;                    /* the point is element k of at */
    int64_t k;
    int64_t i;                            /* its index in the walk's run */
    int64_t lane;                         /* SIMD loop: i % TILE__LANES (the reductions) */
    int64_t r;                            /* its row in a band (tile__walk_band), else 0 */
    const tile__view *v;
    int simd;                             /* bit 0: the SIMD loop (the reductions' lanes);
                                           * bit 1: B's run of a pair (their places) */
#ifdef TILE_CHECK_ACCESS
    const char *used_file;                /* the first TILE_AT of the point while */
    int used_line;                        /* it held the poison (NULL: none yet) */
#endif
} tile_cursor;
