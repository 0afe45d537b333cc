#ifndef TILEHYBRID_SCATTERLB_H
#define TILEHYBRID_SCATTERLB_H

#include "tilehybrid.h"

#define SLB_VERSION TILEHYBRID_VERSION

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SLB_MALLOC) || defined(SLB_FREE)
#error "scatterlb.h: SLB_MALLOC/SLB_FREE are gone (0.2.0): define TILEHYBRID_MALLOC and TILEHYBRID_FREE"
#endif

/* ------------------------------------------------------------------------ */
/* Codes, options, problem description                                      */
/* ------------------------------------------------------------------------ */

/** Return codes: SLB_OK (0) or a positive error (text: slb_strerror()). */
enum slb_error {
    SLB_OK = 0,
    SLB_ERR_ARG,      /* NULL pointer or invalid value */
    SLB_ERR_ITEMS,    /* number of items n < 0 */
    SLB_ERR_NOPROC,   /* no processor (p < 1) */
    SLB_ERR_COST,     /* a cost is negative, NaN or infinite */
    SLB_ERR_MONOTONE, /* a cost decreases when items are added */
    SLB_ERR_TABLE,    /* a cost table is shorter than n */
    SLB_ERR_ORDER,    /* order is not a permutation of 0..p-1 */
    SLB_ERR_ROOT,     /* root outside 0..p-1 (or the communicator) */
    SLB_ERR_OVERFLOW, /* a size does not fit in 64 bits / memory */
    SLB_ERR_INT,      /* a count, displacement or message exceeds INT_MAX
                         and large counts are unavailable or disabled */
    SLB_ERR_NOMEM,    /* out of memory */
    SLB_ERR_AFFINE,   /* the method needs affine costs */
    SLB_ERR_METHOD,   /* unknown method or order policy */
    SLB_ERR_COUNTS,   /* a distribution has a negative count or does not
                         add up to n */
    SLB_ERR_MISMATCH, /* ranks passed different n, root, datatype size,
                         options or sample sizes */
    SLB_ERR_CAPACITY, /* a receive buffer is smaller than its count */
    SLB_ERR_MPI,      /* an MPI call returned an error */
    SLB_ERR_TIME      /* a finish time overflows a double (for the
                         solvers: every processor alone overflows) */
};

/** Methods (slb_solve(), slb_options.method). */
enum slb_method {
    SLB_METHOD_EXACT = 0,     /* slb_exact */
    SLB_METHOD_HEURISTIC = 1, /* slb_heuristic (affine costs only) */
    SLB_METHOD_UNIFORM = 2    /* slb_uniform (what MPI_Scatter does) */
};

/** Order policies (slb_options.order). */
enum slb_order_policy {
    SLB_ORDER_BANDWIDTH = 0, /* increasing lambda, root last (Theorem 3) */
    SLB_ORDER_GIVEN = 1      /* processor (rank) order, root last */
};

/** Kinds of cost functions (slb_problem.kind). */
enum slb_kind { SLB_KIND_AFFINE = 1, SLB_KIND_TABLE = 2, SLB_KIND_CALLBACK = 3 };

/**
 * struct slb_affine - the affine costs of one processor.
 * @comp0:  a_i, fixed cost of computing (any x > 0).
 * @mu:     mu_i, time to compute one item.
 * @comm0:  b_i, latency of the message from the root.
 * @lambda: lambda_i, time to receive one item from the root.
 *
 * For x > 0 items Tcomp(x) = comp0 + mu * x and Tcomm(x) = comm0 +
 * lambda * x; both are 0 for x = 0.  All four must be finite and >= 0.
 */
typedef struct slb_affine {
    double comp0;
    double mu;
    double comm0;
    double lambda;
} slb_affine;

/**
 * typedef slb_cost_fn - a cost callback.
 *
 * The time processor proc (0..p-1) needs for items >= 1 items (computing
 * or receiving).  Must be deterministic; never called with items == 0.
 */
typedef double (*slb_cost_fn)(void *ctx, int64_t proc, int64_t items);

/**
 * struct slb_problem - the costs of p processors.
 * @kind:       SLB_KIND_*.
 * @p:          number of processors.
 * @affine:     AFFINE: p entries.
 * @comp_table: TABLE: p rows of table_len values, row i, column x-1 =
 *              Tcomp(i, x);
 * @comm_table: TABLE: likewise Tcomm(i, x).
 * @table_len:  TABLE: largest x described.
 * @comp, @comm: CALLBACK: the two cost functions.
 * @ctx:        CALLBACK: passed to comp and comm.
 *
 * Build it with slb_problem_affine(), slb_problem_table() or
 * slb_problem_callback(); the arrays are not copied and must outlive the
 * calls that use the problem.
 */
typedef struct slb_problem {
    int kind;
    int64_t p;
    const slb_affine *affine;
    const double *comp_table;
    const double *comm_table;
    int64_t table_len;
    slb_cost_fn comp, comm;
    void *ctx;
} slb_problem;

/**
 * struct slb_info - details filled by the solvers (pass NULL if unneeded).
 * @makespan:       max_k T_k of the distribution returned.
 * @makespan_ticks: the same in ticks (an exact integer; for a given
 *                  distribution whose makespan is beyond 2^61 ticks, 2^61,
 *                  and makespan is then computed in double precision).
 * @tick:           the time quantum tau (see EXACTNESS).
 * @rational:       heuristic, slb_rational(): makespan of the optimal
 *                  rational distribution (<= the optimum).
 * @bound:          heuristic: eq. 4 bound, sum_j Tcomm(j,1) +
 *                  max_i Tcomp(i,1): makespan <= optimum + bound.  The
 *                  solvers never add these costs: the sum can overflow to
 *                  +infinity (no finite guarantee) while every finish time
 *                  is finite.
 * @guaranteed:     heuristic: 1 when the bound is proven (the rational
 *                  search completed).
 * @work:           search nodes (exact; plus Algorithm 2's iterations if it
 *                  handed over), rational search nodes (heuristic).
 * @bad_items:      on SLB_ERR_COST, SLB_ERR_MONOTONE or SLB_ERR_COUNTS, the
 *                  item count at which the cost (or the count) of the
 *                  processor the status names is bad; else -1.
 */
typedef struct slb_info {
    double makespan;
    int64_t makespan_ticks;
    double tick;
    double rational;
    double bound;
    int guaranteed;
    int64_t work;
    int64_t bad_items;
} slb_info;

/* ---- the MPI side: a plan's options, the plan, the work timed ---------- */
#ifndef TILEHYBRID_NO_MPI

/**
 * struct slb_options - options of a plan (slb_options_default()).
 * @method:      SLB_METHOD_* (default SLB_METHOD_EXACT).
 * @order:       SLB_ORDER_* (default SLB_ORDER_BANDWIDTH).
 * @large_count: 1 (default): counts beyond INT_MAX use the MPI-4
 *               large-count calls when available; 0: rejected
 *               (SLB_ERR_INT); 2: always use them when available.
 */
typedef struct slb_options {
    int method;
    int order;
    int large_count;
} slb_options;

/**
 * struct slb_plan - who gets which items, in which order.
 * @comm:      the communicator given (not owned).
 * @ordered:   owned: comm's processes in sending order, or MPI_COMM_NULL
 *             when comm itself is in sending order.
 * @type:      the item datatype.
 * @size, @rank: in comm.
 * @root:      the root, in comm.
 * @xfer_root: the root in the transfer communicator (ordered or comm).
 * @method, @policy: the options used.
 * @large:     1: transfers use the MPI-4 "_c" calls.
 * @n:         number of items.
 * @counts:    [size] items per rank of comm.
 * @displs:    [size] first item of each rank: rank r holds items displs[r]
 *             .. displs[r]+counts[r]-1 of the root's buffer (ascending with
 *             r, whatever the sending order).
 * @order:     [size] ranks of comm in the order served; order[size-1] is
 *             the root.
 * @finish:    [size] predicted finish time per rank.
 * @makespan:  predicted makespan.
 * @xcounts, @xdispls: counts and displacements in transfer-rank order (int,
 *             or MPI_Count / MPI_Aint).
 *
 * Identical on every rank after slb_plan_create(); release with
 * slb_plan_free().
 */
typedef struct slb_plan {
    MPI_Comm comm;
    MPI_Comm ordered;
    MPI_Datatype type;
    int size, rank;
    int root;
    int xfer_root;
    int method, policy;
    int large;
    int64_t n;
    int64_t *counts;
    int64_t *displs;
    int *order;
    double *finish;
    double makespan;
    void *xcounts;
    void *xdispls;
} slb_plan;

/**
 * typedef slb_work_fn - per-item work to be timed by the calibration.
 *
 * Process count items of a representative sample (count <= the sample
 * size you gave).
 */
typedef void (*slb_work_fn)(void *ctx, int64_t count);

#endif /* TILEHYBRID_NO_MPI */
