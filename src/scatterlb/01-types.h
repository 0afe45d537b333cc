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

/**
 * slb_strerror() - the message for a return code.
 * @code: SLB_OK or an SLB_ERR_* code.
 *
 * Return: a static string, never NULL ("unknown scatterlb error code" for
 * other values).
 */
static inline const char *slb_strerror(int code)
{
    switch (code) {
    case SLB_OK: return "success";
    case SLB_ERR_ARG: return "invalid argument (NULL pointer or unknown value)";
    case SLB_ERR_ITEMS: return "the number of items n is negative";
    case SLB_ERR_NOPROC: return "no processors (p < 1)";
    case SLB_ERR_COST: return "a cost is negative, NaN or infinite";
    case SLB_ERR_MONOTONE:
        return "a cost decreases when items are added (costs must be non-decreasing)";
    case SLB_ERR_TABLE: return "a cost table is shorter than the number of items";
    case SLB_ERR_ORDER: return "the order is not a permutation of the processors";
    case SLB_ERR_ROOT: return "the root is not one of the processors (outside the communicator)";
    case SLB_ERR_OVERFLOW: return "a size overflows 64-bit arithmetic";
    case SLB_ERR_INT:
        return "a count, displacement or message size exceeds INT_MAX and MPI-4 large counts "
               "are not available, disabled or not used by this call";
    case SLB_ERR_NOMEM: return "out of memory";
    case SLB_ERR_AFFINE: return "this method needs affine costs";
    case SLB_ERR_METHOD: return "unknown method or order policy";
    case SLB_ERR_COUNTS: return "the counts are negative or do not add up to n";
    case SLB_ERR_MISMATCH:
        return "collective arguments differ across ranks (n, root, datatype size, options or "
               "sizes)";
    case SLB_ERR_CAPACITY: return "a receive buffer is smaller than the count it must hold";
    case SLB_ERR_MPI: return "an MPI call failed";
    case SLB_ERR_TIME:
        return "a finish time overflows (beyond the largest double, 1.8e308): fewer items or "
               "smaller costs";
    default: return "unknown scatterlb error code";
    }
}

/**
 * slb_method_name() - the name of a method.
 * @method: SLB_METHOD_*.
 *
 * Return: "exact", "heuristic" or "uniform", or NULL for an unknown value.
 */
static inline const char *slb_method_name(int method)
{
    switch (method) {
    case SLB_METHOD_EXACT: return "exact";
    case SLB_METHOD_HEURISTIC: return "heuristic";
    case SLB_METHOD_UNIFORM: return "uniform";
    default: return NULL;
    }
}

/* A problem of that kind on p processors, its costs still to be set. */
static inline slb_problem slb__problem(int kind, int64_t p)
{
    slb_problem pb;
    memset(&pb, 0, sizeof pb);
    pb.kind = kind;
    pb.p = p;
    return pb;
}

/**
 * slb_problem_affine() - a problem with affine costs.
 * @p:    number of processors.
 * @cost: cost[i] for processor i, 0 <= i < p (not copied).
 *
 * Return: the problem (checked when solved).
 */
static inline slb_problem slb_problem_affine(int64_t p, const slb_affine *cost)
{
    slb_problem pb = slb__problem(SLB_KIND_AFFINE, p);
    pb.affine = cost;
    return pb;
}

/**
 * slb_problem_table() - a problem with tabled costs.
 * @p:    number of processors.
 * @len:  columns per row, >= the number of items later solved for.
 * @comp: comp[i*len + x-1] = Tcomp(i, x), 1 <= x <= len (not copied).
 * @comm: comm[i*len + x-1] = Tcomm(i, x) (not copied).
 *
 * Return: the problem (checked when solved).
 */
static inline slb_problem slb_problem_table(int64_t p, int64_t len, const double *comp,
                                            const double *comm)
{
    slb_problem pb = slb__problem(SLB_KIND_TABLE, p);
    pb.table_len = len;
    pb.comp_table = comp;
    pb.comm_table = comm;
    return pb;
}

/**
 * slb_problem_callback() - a problem whose costs are computed by callbacks.
 * @p:    number of processors.
 * @comp: Tcomp (see slb_cost_fn).
 * @comm: Tcomm.
 * @ctx:  passed to both.
 *
 * Return: the problem (checked when solved: every cost of 1..n items is
 * evaluated once).
 */
static inline slb_problem slb_problem_callback(int64_t p, slb_cost_fn comp, slb_cost_fn comm,
                                               void *ctx)
{
    slb_problem pb = slb__problem(SLB_KIND_CALLBACK, p);
    pb.comp = comp;
    pb.comm = comm;
    pb.ctx = ctx;
    return pb;
}
