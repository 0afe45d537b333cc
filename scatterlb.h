/* scatterlb.h -- load-balanced scatter for heterogeneous processors.
 *
 * Part of tilehybrid (MIT licence), version SLB_VERSION (= TILEHYBRID_VERSION);
 * it includes tilehybrid.h, the base header: copy both.
 *
 * WHAT IT IS
 *   A root process holds n independent data items and scatters them; every
 *   process then works on its share.  The root sends to one process after the
 *   other (single port), so the process served k-th can only start receiving
 *   once the k-1 before it are served, and it ends its work at
 *
 *       T_k = Tcomm(1,n_1) + ... + Tcomm(k,n_k) + Tcomp(k,n_k)        (eq. 1)
 *
 *   with Tcomm(i,x) the time to send it x items and Tcomp(i,x) the time it
 *   needs to process them.  The root is served last (it computes only once it
 *   has sent everything).  This header chooses the shares n_1..n_p and the
 *   sending order that minimise the makespan max_k T_k, after Genaud, Giersch
 *   and Vivien, "Load-balancing scatter operations for grid computing", INRIA
 *   RR-4770 (2003), and performs the scatter:
 *
 *     slb_exact      the optimal integer distribution, fast (see EXACTNESS):
 *                    the paper's 817,101 rays on 16 processors take well
 *                    under a millisecond;
 *     slb_heuristic  the paper's guaranteed heuristic for affine costs: the
 *                    optimal rational distribution (slb_rational) rounded
 *                    (slb_round) so that every share moves by less than one
 *                    item; within sum_j Tcomm(j,1) + max_i Tcomp(i,1) of the
 *                    optimum (eq. 4);
 *     slb_uniform    what MPI_Scatter does: n/p each;
 *     slb_solve      one of the three, chosen at run time (SLB_METHOD_*);
 *     slb_evaluate   the finish times of any distribution;
 *     slb_order_bandwidth  the paper's ordering policy (Theorem 3):
 *                    decreasing bandwidth to the root, root last;
 *                    slb_order_by_key any other key;
 *     slb_choose_root      the choice of the root (Sec. 3.4);
 *     slb_plan_create, slb_plan_create_costs   the MPI side: gather the
 *                    costs, solve at the root, share counts, displacements
 *                    and the order;
 *     slb_plan_scatterv    scatter with MPI_Scatterv over a communicator in
 *                    sending order (MPI-4 large counts beyond INT_MAX);
 *     slb_plan_scatter_ordered  the same result with the root's sends issued
 *                    one after another in the plan's order, as the paper's
 *                    MPICH-G2 did (see WHICH SCATTER below);
 *     slb_gatherv, slb_gatherv_type   the results back, in the same layout;
 *     slb_scatterv   plan, buffer check and scatter in one call;
 *     slb_calibrate, slb_calibrate_compute, slb_calibrate_comm   measure the
 *                    costs: mu by timing your per-item function, lambda and
 *                    the latency by timed root-to-rank transfers, each within
 *                    a time budget (SLB_CALIBRATE_BUDGET).
 *   The paper's Algorithms 1 and 2, the references slb_exact is tested
 *   against, are in tests/slb_reference.h; Algorithm 2 stays inside as
 *   slb_exact's fallback.
 *
 * COST MODEL
 *   Processor i has a computation cost Tcomp(i,x) and a communication cost
 *   Tcomm(i,x) (the time to receive x items from the root), non-negative and
 *   non-decreasing in x (slb_evaluate and slb_uniform accept any
 *   non-negative costs).  A processor given no item costs nothing:
 *   Tcomp(i,0) = Tcomm(i,0) = 0.  The root's own share costs its Tcomm as
 *   given (zero in the paper).  Costs come as
 *     - affine:   Tcomp = comp0 + mu*x,  Tcomm = comm0 + lambda*x  (x > 0);
 *     - tables:   row i holds Tcomp(i,1..len) (and Tcomm likewise);
 *     - callbacks double f(void *ctx, int64_t proc, int64_t items), items >= 1,
 *                 deterministic and thread-safe if you share them.
 *   Every time is in one unit of your choice (seconds in the examples).
 *   Processors are numbered 0..p-1; a sending ORDER is an array order[0..p-1]
 *   of processor numbers, order[p-1] being the root; NULL means 0,1,..,p-1.
 *   Output arrays (counts, finish) are indexed by processor number.
 *   Only the equations count from 1, as the paper does: in eq. 1, the k-th
 *   processor served (T_k, n_k) is order[k-1].  Every index the API takes
 *   or reports (a processor, a position in the order, a tilehybrid_status
 *   index) counts from 0; slb_info.bad_items and the x of Tcomp(i,x) are
 *   item counts, not indices.
 *
 * EXACTNESS
 *   The exact method and slb_evaluate work in integer time: every cost is
 *   rounded to a multiple of a power-of-two tick tau <= U * 2^-59, U being
 *   the time the best single processor needs for all n items, and all sums
 *   are exact 64-bit integer sums (affine costs stay exactly affine: comp0,
 *   mu, comm0 and lambda are each rounded to whole ticks; slb_info.tick
 *   reports tau).  slb_exact binary-searches the smallest feasible makespan
 *   with a search that is exhaustive up to proven bounds, so its makespan is
 *   the optimum, bitwise equal to Algorithms 1 and 2 and to brute force
 *   (the tests check thousands of random instances), and bitwise the
 *   largest finish time.  Should a search exceed 4 (p+1)(n+1)(log2(n+1)+1)
 *   nodes or 2^22 states (adversarial instances) it hands over to
 *   Algorithm 2: the worst case stays O(p n^2) time, 8 p n bytes.  The
 *   proof: docs/scatterlb.md, "Why slb_exact is exact".  The heuristic
 *   works in double precision (its eq. 4 guarantee holds up to that
 *   rounding).  Do not compile with -ffast-math (NaN checks).
 *
 * ERRORS
 *   Every function that can fail returns SLB_OK (0) or a positive SLB_ERR_*
 *   code; slb_strerror(code) says what was wrong and never returns NULL.
 *   The last argument, a tilehybrid_status * (NULL allowed), names the
 *   argument at fault ("pb", "order", "counts", "n", "mine", ...), its
 *   index (a processor, a position in the order) and, for the MPI
 *   functions, the rank that found it; slb_info.bad_items adds the item
 *   count at which a tabled or callback cost is bad.  The plan and
 *   calibration functions return the same code and status on every rank,
 *   also when an argument is bad on one rank only.  An MPI call of theirs
 *   that fails on one rank cannot be agreed on (the other ranks would wait
 *   for it forever): that rank prints the call, its rank and MPI's error
 *   text on stderr ("tilehybrid: rank 1: MPI_Recv failed in
 *   scatterlb.h's calibration's transfers ... (...); aborting the job"),
 *   or hands that message to the hook installed with
 *   tilehybrid_mpi_failure_swap(), then ends the job with MPI_Abort
 *   (MPI_COMM_WORLD, errorcode SLB_ERR_MPI), as tiling.h does
 *   (tilehybrid_mpi_failed()); slb_scatterv() (plan and scatter in one
 *   call) too.  The data movers (slb_plan_scatterv,
 *   slb_plan_scatter_ordered, slb_gatherv*) return SLB_ERR_MPI where MPI
 *   reported it, on that rank only: the other ranks may wait in that
 *   collective forever, so on SLB_ERR_MPI from them end the job
 *   (MPI_Abort).  Nothing prints, nothing aborts on bad input.
 *
 * USAGE (pure functions; compile with -DTILEHYBRID_NO_MPI to skip MPI)
 *
 *   #include <stdio.h>
 *   #define TILEHYBRID_NO_MPI
 *   #include "scatterlb.h"
 *
 *   int main(void)
 *   {
 *       // comp0, mu, comm0, lambda (seconds); processor 0 is the root
 *       slb_affine cost[3] = {{0, 0.009288, 0, 0},
 *                             {0, 0.004629, 0, 1.00e-5},
 *                             {0, 0.009677, 0, 3.53e-5}};
 *       slb_problem pb = slb_problem_affine(3, cost);
 *       int64_t order[3], counts[3];
 *       double finish[3];
 *       slb_info info;
 *       tilehybrid_status st;
 *       int i, rc = slb_order_bandwidth(&pb, 1000, 0, order, &st);
 *       if (rc == SLB_OK)
 *           rc = slb_exact(&pb, 1000, order, counts, finish, &info, &st);
 *       if (rc != SLB_OK) {
 *           fprintf(stderr, "slb: %s (%s %lld)\n", slb_strerror(rc), st.arg,
 *                   (long long)st.index);
 *           return 1;
 *       }
 *       for (i = 0; i < 3; i++)
 *           printf("processor %d: %lld items, ends at %.3f s\n", (int)order[i],
 *                  (long long)counts[order[i]], finish[order[i]]);
 *       printf("makespan %.3f s\n", info.makespan);
 *       return 0;
 *   }
 *
 * USAGE (MPI; every rank calls, rank 0 holds the n items)
 *
 *   #include <stdio.h>
 *   #include <stdlib.h>
 *   #include "scatterlb.h"
 *
 *   static void work(void *ctx, int64_t count) // your per-item work, timed
 *   {
 *       double s = 0;
 *       int64_t i;
 *       for (i = 0; i < 1000 * count; i++)
 *           s += 1.0 / (double)(i + 1);
 *       *(volatile double *)ctx = s;    // a result, so that the loop runs
 *   }
 *
 *   int main(int argc, char **argv)
 *   {
 *       enum { N = 100000 };
 *       double *items = NULL, *mine = NULL, sink = 0;
 *       slb_affine cost;
 *       slb_plan plan;
 *       tilehybrid_status st;
 *       int rank, i, rc;
 *       MPI_Init(&argc, &argv);
 *       MPI_Comm_rank(MPI_COMM_WORLD, &rank);
 *       if (rank == 0 && (items = malloc(N * sizeof *items)) != NULL)
 *           for (i = 0; i < N; i++)
 *               items[i] = i;
 *       // measure this rank's costs (or fill cost yourself), then plan
 *       rc = slb_calibrate(MPI_COMM_WORLD, 0, MPI_DOUBLE, work, &sink, 1000, 10000,
 *                          3, &cost, &st);
 *       if (rc == SLB_OK)
 *           rc = slb_plan_create(MPI_COMM_WORLD, 0, N, MPI_DOUBLE, &cost, NULL,
 *                                &plan, &st);
 *       if (rc == SLB_OK) {
 *           mine = malloc((size_t)(plan.counts[rank] + 1) * sizeof *mine);
 *           // rank r gets items displs[r] .. displs[r] + counts[r] - 1
 *           rc = slb_plan_scatterv(&plan, items, mine, &st);
 *           for (i = 0; rc == SLB_OK && i < plan.counts[rank]; i++)
 *               mine[i] *= 2;
 *           if (rc == SLB_OK) // and back, in the same layout
 *               rc = slb_gatherv(&plan, mine, items, &st);
 *           slb_plan_free(&plan);
 *       }
 *       if (rc != SLB_OK && rank == 0) // the same code on every rank
 *           fprintf(stderr, "slb: %s (argument '%s', rank %d)\n",
 *                   slb_strerror(rc), st.arg, st.rank);
 *       free(items);
 *       free(mine);
 *       MPI_Finalize();
 *       return rc != SLB_OK;
 *   }
 *
 * WHICH SCATTER
 *   slb_plan_scatterv hands the counts to MPI_Scatterv over a communicator
 *   whose rank order is the sending order, and lets the MPI library move
 *   the data as it sees fit (usually every send posted at once, or a tree):
 *   use it by default, on clusters and wherever the root's link is not the
 *   bottleneck.  slb_plan_scatter_ordered issues the root's sends one after
 *   the other in the plan's order (point to point, tag
 *   TILEHYBRID_TAG_SCATTER on the plan's communicator), as eq. 1 assumes:
 *   use it where the root has a single port to slow or unequal links (a
 *   grid, a WAN, a simulated platform), where the order of Theorem 3 is
 *   meant to matter.  Both give every rank the same items, bitwise.
 *
 * OPTIONS (#define before including)
 *   TILEHYBRID_NO_MPI       leave out the MPI part; <mpi.h> is not included.
 *   TILEHYBRID_MALLOC(size), TILEHYBRID_FREE(ptr)   allocator (tilehybrid.h;
 *                           SLB_MALLOC/SLB_FREE are gone: an #error says so).
 *   TILEHYBRID_TAG_BASE     tags (tilehybrid.h): the calibration's transfers
 *                           and slb_plan_scatter_ordered use
 *                           TILEHYBRID_TAG_SCATTER on your communicator.
 *   SLB_NO_LARGE_COUNT      never use the MPI-4 "_c" large-count calls;
 *                           counts beyond INT_MAX are then rejected
 *                           (SLB_ERR_INT).  The same per plan: slb_options.
 *   SLB_CALIBRATE_SECONDS   length of one calibration timing window
 *                           (default 0.02 s; transfers use a quarter).
 *   SLB_CALIBRATE_BUDGET    seconds a computation calibration aims at, and
 *                           the transfer calibration for all ranks together
 *                           (default 1.0): samples shrink to fit, so a slow
 *                           work function ends in about that time (at least
 *                           the time of a few items).
 *
 * VERSION HISTORY
 *   0.2.0  one error convention: positive SLB_ERR_* codes, tilehybrid_status
 *          on every function that can fail (slb_info.bad_proc and
 *          slb_plan.bad_rank gone), SLB_ERR_TIME; tilehybrid.h's allocator,
 *          agreement, ping-pong, fit and tags; slb_plan_scatter_ordered;
 *          calibration within a time budget; Algorithms 1 and 2 (slb_alg1,
 *          slb_dp, SLB_METHOD_DP, SLB_METHOD_ALG1) moved to the tests.
 *   0.1.0  first release: exact, Algorithm 1 and 2, heuristic, ordering,
 *          root choice, MPI plan/scatterv/gatherv, calibration.
 */
/* Generated by make from the parts in src/scatterlb/ (tools/join.sh): edit them, not this file. */

/* ==== src/scatterlb/01-types.h ==== */
#line 1 "src/scatterlb/01-types.h"
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

/* ==== src/scatterlb/20-costs.h ==== */
#line 1 "src/scatterlb/20-costs.h"
/* ------------------------------------------------------------------------ */
/* Private helpers: ticks, cost evaluation                                  */
/* ------------------------------------------------------------------------ */

/* Largest tick value; every cost or sum at or above it is "too long". */
#define SLB__CAP ((int64_t)1 << 61)
#define SLB__CAPD 2305843009213693952.0

static inline void slb__info_reset(slb_info *info)
{
    if (info == NULL)
        return;
    memset(info, 0, sizeof *info);
    info->bad_items = -1;
}

/* The status of a call that has not failed (yet). */
static inline void slb__ok(tilehybrid_status *st)
{
    (void)tilehybrid_status_set(st, SLB_OK, "", -1);
}

static inline int slb__finite(double v)
{
    return v == v && v - v == 0.0;
}

/* 2^e as a double, -1022 <= e <= 1023. */
static inline double slb__pow2(int e)
{
    return tilehybrid_from_bits((uint64_t)(e + 1023) << 52);
}

/* floor(log2(x)) for a normal x > 0 (-1023 for subnormals). */
static inline int slb__exponent(double x)
{
    return (int)((tilehybrid_bits(x) >> 52) & 0x7ff) - 1023;
}

static inline void *slb__alloc(int64_t count, size_t size)
{
    int64_t bytes;
    if (count < 1)
        count = 1;
    if (!tilehybrid_mul_ok(count, (int64_t)size, &bytes) || (uint64_t)bytes > (uint64_t)SIZE_MAX)
        return NULL;
    return TILEHYBRID_MALLOC((size_t)bytes);
}

/* TILEHYBRID_FREE each of the n pointers of mem (NULL ones too). */
static inline void slb__free_each(void *const *mem, int n)
{
    int i;
    for (i = 0; i < n; i++)
        TILEHYBRID_FREE(mem[i]);
}

/* a + b saturated at SLB__CAP, for a, b in [0, SLB__CAP]: unlike
 * tilehybrid_add_ok() it does not fail, it caps -- every time at or beyond
 * the cap counts as "too long" and the searches compare such times. */
static inline int64_t slb__sat(int64_t a, int64_t b)
{
    int64_t s = a + b; /* a, b <= 2^61: no overflow */
    return s < SLB__CAP ? s : SLB__CAP;
}

static inline int64_t slb__ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Tick value of an affine cost A + R*x (x > 0), saturated at SLB__CAP. */
static inline int64_t slb__aff(int64_t A, int64_t R, int64_t x)
{
    if (x <= 0)
        return 0;
    if (R > 0 && x > (SLB__CAP - A) / R)
        return SLB__CAP;
    return slb__sat(A, R * x);
}

/* Cost of processor i in the problem's own unit (double), x >= 0. */
static inline double slb__costd(const slb_problem *pb, int64_t i, int64_t x, int comm)
{
    if (x <= 0)
        return 0.0;
    if (pb->kind == SLB_KIND_AFFINE) {
        const slb_affine *a = &pb->affine[i];
        return comm ? a->comm0 + a->lambda * (double)x : a->comp0 + a->mu * (double)x;
    }
    if (pb->kind == SLB_KIND_TABLE)
        return (comm ? pb->comm_table : pb->comp_table)[i * pb->table_len + x - 1];
    return (comm ? pb->comm : pb->comp)(pb->ctx, i, x);
}

/* A problem prepared for integer-time evaluation: processors by sending
 * position, costs in ticks. */
typedef struct slb__model {
    const slb_problem *pb;
    int64_t p, n;
    int64_t *proc; /* proc[k]: processor at sending position k */
    int64_t *q;    /* AFFINE: comp0, mu, comm0, lambda in ticks, 4 per position */
    double tick;   /* seconds (or your unit) per tick */
    double scale;  /* 1 / tick */
} slb__model;

/* Round v >= 0 to the nearest tick (ties to even), saturating. */
static inline int64_t slb__q(const slb__model *m, double v)
{
    double y, f;
    int64_t t;
    if (v != v)
        return SLB__CAP;
    if (v <= 0.0)
        return 0;
    y = v * m->scale;
    if (!(y < SLB__CAPD))
        return SLB__CAP;
    t = (int64_t)y;
    f = y - (double)t;
    if (f > 0.5 || (f == 0.5 && (t & 1)))
        t++;
    return t;
}

/* Cost at sending position k for x items, in ticks (comm = 1: Tcomm). */
static inline int64_t slb__cost(const slb__model *m, int64_t k, int64_t x, int comm)
{
    const slb_problem *pb = m->pb;
    int64_t i;
    if (x <= 0)
        return 0;
    if (pb->kind == SLB_KIND_AFFINE)
        return slb__aff(m->q[4 * k + 2 * comm], m->q[4 * k + 2 * comm + 1], x);
    i = m->proc[k];
    if (pb->kind == SLB_KIND_TABLE)
        return slb__q(m, (comm ? pb->comm_table : pb->comp_table)[i * pb->table_len + x - 1]);
    return slb__q(m, (comm ? pb->comm : pb->comp)(pb->ctx, i, x));
}

/* Tcomm + Tcomp at position k, in ticks. */
static inline int64_t slb__g(const slb__model *m, int64_t k, int64_t x)
{
    return slb__sat(slb__cost(m, k, x, 1), slb__cost(m, k, x, 0));
}

/* Largest e in [0, cap] with Tcomm(k,e) + Tcomp(k,e) <= B (B >= 0).  The
 * answer stays the same for budgets in [g(e), g(e+1)): when up (if not NULL)
 * is given, *up is lowered to g(e+1) - B (for e < cap) and *down to
 * B - g(e) + 1 (for e > 0). */
static inline int64_t slb__umax(const slb__model *m, int64_t k, int64_t B, int64_t cap,
                                int64_t *up, int64_t *down)
{
    int64_t lo, hi, e;
    if (cap <= 0)
        return 0;
    if (m->pb->kind == SLB_KIND_AFFINE) {
        const int64_t *q = m->q + 4 * k;
        int64_t A = slb__sat(q[0], q[2]), R = slb__sat(q[1], q[3]);
        if (slb__aff(A, R, 1) > B)
            e = 0;
        else if (R == 0)
            e = cap;
        else
            e = (B - A) / R < cap ? (B - A) / R : cap;
    } else if (slb__g(m, k, cap) <= B) {
        e = cap;
    } else {
        lo = 0;
        hi = cap; /* g(lo) <= B < g(hi) */
        while (hi - lo > 1) {
            int64_t mid = lo + (hi - lo) / 2;
            if (slb__g(m, k, mid) <= B)
                lo = mid;
            else
                hi = mid;
        }
        e = lo;
    }
    if (up != NULL && e < cap) {
        int64_t d = slb__g(m, k, e + 1) - B;
        if (d < *up)
            *up = d;
    }
    if (down != NULL && e > 0) {
        int64_t d = B - slb__g(m, k, e) + 1;
        if (d < *down)
            *down = d;
    }
    return e;
}

/* Affine costs: all four parameters finite and >= 0. */
static inline int slb__check_affine(const slb_problem *pb, tilehybrid_status *st)
{
    int64_t i;
    if (pb->affine == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "pb", -1);
    for (i = 0; i < pb->p; i++) {
        const slb_affine *a = &pb->affine[i];
        if (!slb__finite(a->comp0) || !slb__finite(a->mu) || !slb__finite(a->comm0) ||
            !slb__finite(a->lambda) || a->comp0 < 0 || a->mu < 0 || a->comm0 < 0 ||
            a->lambda < 0)
            return tilehybrid_status_set(st, SLB_ERR_COST, "pb", i);
    }
    return SLB_OK;
}

/* Validate the costs of pb for 0..n items; monotone: also require them
 * non-decreasing.  The status names the processor, info->bad_items the
 * item count. */
static inline int slb__check_costs(const slb_problem *pb, int64_t n, int monotone,
                                   slb_info *info, tilehybrid_status *st)
{
    int64_t i, x, cells;
    int c;
    switch (pb->kind) {
    case SLB_KIND_AFFINE:
        return slb__check_affine(pb, st);
    case SLB_KIND_TABLE:
        if (pb->comp_table == NULL || pb->comm_table == NULL || pb->table_len < 0)
            return tilehybrid_status_set(st, SLB_ERR_ARG, "pb", -1);
        if (pb->table_len < n)
            return tilehybrid_status_set(st, SLB_ERR_TABLE, "pb", -1);
        if (!tilehybrid_mul_ok(pb->p, pb->table_len, &cells))
            return tilehybrid_status_set(st, SLB_ERR_OVERFLOW, "pb", -1);
        break;
    case SLB_KIND_CALLBACK:
        if (pb->comp == NULL || pb->comm == NULL)
            return tilehybrid_status_set(st, SLB_ERR_ARG, "pb", -1);
        break;
    default:
        return tilehybrid_status_set(st, SLB_ERR_ARG, "pb", -1);
    }
    for (i = 0; i < pb->p; i++) {
        for (c = 0; c < 2; c++) {
            double prev = 0.0;
            for (x = 1; x <= n; x++) {
                double v = slb__costd(pb, i, x, c);
                int rc = !slb__finite(v) || v < 0 ? SLB_ERR_COST
                         : monotone && v < prev   ? SLB_ERR_MONOTONE
                                                  : SLB_OK;
                if (rc != SLB_OK) {
                    if (info != NULL)
                        info->bad_items = x;
                    return tilehybrid_status_set(st, rc, "pb", i);
                }
                prev = v;
            }
        }
    }
    return SLB_OK;
}

static inline void slb__model_free(slb__model *m)
{
    TILEHYBRID_FREE(m->proc);
    TILEHYBRID_FREE(m->q);
    m->proc = NULL;
    m->q = NULL;
}

/* The end of a solver: its arrays a and b (NULL allowed) and its model
 * freed.  Returns rc. */
static inline int slb__done(slb__model *m, void *a, void *b, int rc)
{
    TILEHYBRID_FREE(a);
    TILEHYBRID_FREE(b);
    slb__model_free(m);
    return rc;
}

/* m->proc from order (NULL: the identity), checked to be a permutation. */
static inline int slb__model_order(slb__model *m, const int64_t *order, tilehybrid_status *st)
{
    unsigned char *seen;
    int64_t i, k, p = m->p;
    m->proc = (int64_t *)slb__alloc(p, sizeof(int64_t));
    seen = (unsigned char *)slb__alloc(p, 1);
    if (m->proc == NULL || seen == NULL) {
        TILEHYBRID_FREE(seen);
        return tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    }
    memset(seen, 0, (size_t)p);
    for (k = 0; k < p; k++) {
        i = order ? order[k] : k;
        if (i < 0 || i >= p || seen[i]) {
            TILEHYBRID_FREE(seen);
            return tilehybrid_status_set(st, SLB_ERR_ORDER, "order", k);
        }
        seen[i] = 1;
        m->proc[k] = i;
    }
    TILEHYBRID_FREE(seen);
    return SLB_OK;
}

/* Choose the tick from U, the best single processor doing everything -- an
 * upper bound on the optimum whatever the order.  The tick makes U less
 * than 2^60 ticks, so every time that matters is below SLB__CAP = 2^61 and
 * sums of two saturated values cannot overflow.  U is infinite only when
 * every processor alone overflows: SLB_ERR_TIME names the one that is
 * fastest for one item. */
static inline int slb__model_tick(slb__model *m, tilehybrid_status *st)
{
    const slb_problem *pb = m->pb;
    double U = 0.0, g1 = 0.0;
    int64_t i, best1 = 0;
    int e;
    for (i = 0; m->n > 0 && i < m->p; i++) {
        double g = slb__costd(pb, i, m->n, 1) + slb__costd(pb, i, m->n, 0);
        double one = slb__costd(pb, i, 1, 1) + slb__costd(pb, i, 1, 0);
        if (i == 0 || g < U)
            U = g;
        if (i == 0 || one < g1) {
            g1 = one;
            best1 = i;
        }
    }
    if (!slb__finite(U))
        return tilehybrid_status_set(st, SLB_ERR_TIME, "pb", best1);
    e = U > 0.0 ? slb__exponent(U) + 1 - 60 : -1000;
    if (e < -1000)
        e = -1000;
    if (e > 960)
        e = 960;
    m->tick = slb__pow2(e);
    m->scale = slb__pow2(-e);
    return SLB_OK;
}

/* Affine costs in ticks, by position. */
static inline int slb__model_quantise(slb__model *m, tilehybrid_status *st)
{
    int64_t k;
    m->q = (int64_t *)slb__alloc(4 * m->p, sizeof(int64_t));
    if (m->q == NULL)
        return tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    for (k = 0; k < m->p; k++) {
        const slb_affine *a = &m->pb->affine[m->proc[k]];
        m->q[4 * k + 0] = slb__q(m, a->comp0);
        m->q[4 * k + 1] = slb__q(m, a->mu);
        m->q[4 * k + 2] = slb__q(m, a->comm0);
        m->q[4 * k + 3] = slb__q(m, a->lambda);
    }
    return SLB_OK;
}

/* Check the problem and the order, choose the tick, quantise affine costs. */
static inline int slb__model_init(slb__model *m, const slb_problem *pb, int64_t n,
                                  const int64_t *order, int monotone, slb_info *info,
                                  tilehybrid_status *st)
{
    int rc;
    memset(m, 0, sizeof *m);
    if (pb == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "pb", -1);
    if (pb->p < 1)
        return tilehybrid_status_set(st, SLB_ERR_NOPROC, "pb", -1);
    if (n < 0)
        return tilehybrid_status_set(st, SLB_ERR_ITEMS, "n", -1);
    if (n >= SLB__CAP)
        return tilehybrid_status_set(st, SLB_ERR_OVERFLOW, "n", -1);
    rc = slb__check_costs(pb, n, monotone, info, st);
    if (rc != SLB_OK)
        return rc;
    m->pb = pb;
    m->p = pb->p;
    m->n = n;
    rc = slb__model_order(m, order, st);
    if (rc == SLB_OK)
        rc = slb__model_tick(m, st);
    if (rc == SLB_OK && pb->kind == SLB_KIND_AFFINE)
        rc = slb__model_quantise(m, st);
    if (rc != SLB_OK) {
        slb__model_free(m);
        return rc;
    }
    if (info != NULL)
        info->tick = m->tick;
    return SLB_OK;
}

/* The start of a solver: info and st reset, then the model of pb (its
 * argument checks). */
static inline int slb__begin(slb__model *m, const slb_problem *pb, int64_t n,
                             const int64_t *order, int monotone, slb_info *info,
                             tilehybrid_status *st)
{
    slb__info_reset(info);
    slb__ok(st);
    return slb__model_init(m, pb, n, order, monotone, info, st);
}

/* Finish times (ticks, by position) and makespan of a distribution given by
 * position. */
static inline int64_t slb__eval(const slb__model *m, const int64_t *cnt, int64_t *fin)
{
    int64_t k, S = 0, mk = 0;
    for (k = 0; k < m->p; k++) {
        int64_t f;
        S = slb__sat(S, slb__cost(m, k, cnt[k], 1));
        f = slb__sat(S, slb__cost(m, k, cnt[k], 0));
        if (fin != NULL)
            fin[k] = f;
        if (f > mk)
            mk = f;
    }
    return mk;
}

/* Finish times in seconds (by position) from finish times in ticks.  A
 * saturated one (beyond 2^61 ticks: only a given distribution, never an
 * optimum, gets there) is recomputed in double precision; where that
 * overflows too, SLB_ERR_TIME names the processor. */
static inline int slb__seconds(const slb__model *m, const int64_t *cnt, const int64_t *fin,
                               double *sec, tilehybrid_status *st)
{
    double S = 0.0;
    int64_t k;
    for (k = 0; k < m->p; k++) {
        S += slb__costd(m->pb, m->proc[k], cnt[k], 1);
        sec[k] = (double)fin[k] * m->tick;
        if (fin[k] < SLB__CAP)
            continue;
        sec[k] = S + slb__costd(m->pb, m->proc[k], cnt[k], 0);
        if (!slb__finite(sec[k]))
            return tilehybrid_status_set(st, SLB_ERR_TIME, "pb", m->proc[k]);
    }
    return SLB_OK;
}

/* Copy a distribution by position into the caller's arrays by processor,
 * with finish times and info. */
static inline int slb__output(const slb__model *m, const int64_t *cnt, int64_t *counts,
                              double *finish, slb_info *info, tilehybrid_status *st)
{
    int64_t k, mk = 0;
    int64_t *fin = (int64_t *)slb__alloc(m->p, sizeof(int64_t));
    double *sec = (double *)slb__alloc(m->p, sizeof(double)), mks = 0.0;
    int rc = SLB_OK;
    if (fin == NULL || sec == NULL)
        rc = tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    if (rc == SLB_OK) {
        mk = slb__eval(m, cnt, fin);
        rc = slb__seconds(m, cnt, fin, sec, st);
    }
    for (k = 0; rc == SLB_OK && k < m->p; k++) {
        if (counts != NULL)
            counts[m->proc[k]] = cnt[k];
        if (finish != NULL)
            finish[m->proc[k]] = sec[k];
        if (sec[k] > mks)
            mks = sec[k];
    }
    if (rc == SLB_OK && info != NULL) {
        info->makespan_ticks = mk;
        info->makespan = mks;
        info->tick = m->tick;
    }
    TILEHYBRID_FREE(fin);
    TILEHYBRID_FREE(sec);
    return rc;
}

/* ==== src/scatterlb/30-uniform.h ==== */
#line 1 "src/scatterlb/30-uniform.h"
/* ------------------------------------------------------------------------ */
/* Evaluation, uniform distribution                                         */
/* ------------------------------------------------------------------------ */

/* Distribution by position from counts by processor; checked. */
static inline int slb__by_position(const slb__model *m, const int64_t *counts, int64_t *cnt,
                                   slb_info *info, tilehybrid_status *st)
{
    int64_t k, sum = 0;
    for (k = 0; k < m->p; k++) {
        cnt[k] = counts[m->proc[k]];
        if (cnt[k] < 0 || cnt[k] > m->n - sum) {
            if (info != NULL)
                info->bad_items = cnt[k];
            return tilehybrid_status_set(st, SLB_ERR_COUNTS, "counts", m->proc[k]);
        }
        sum += cnt[k];
    }
    if (sum != m->n)
        return tilehybrid_status_set(st, SLB_ERR_COUNTS, "counts", -1);
    return SLB_OK;
}

/**
 * slb_evaluate() - finish times and makespan of a given distribution.
 * @pb:     the costs (non-negative; monotonicity is not required).
 * @n:      number of items.
 * @order:  sending order (NULL: 0..p-1), order[p-1] is the root.
 * @counts: [p] items per processor, >= 0, adding up to n.
 * @finish: [p] out (may be NULL): T_i per processor (eq. 1), in the costs'
 *          unit.
 * @info:   out (may be NULL): makespan (eq. 2), makespan_ticks, tick.
 * @st:     out (may be NULL): on error, the argument and the processor.
 *
 * Times are computed in ticks (see EXACTNESS), so they compare bitwise with
 * the solvers'.
 * Return: SLB_OK, or SLB_ERR_COUNTS (st names the processor, bad_items the
 * count) or another code of the problem's checks.
 */
static inline int slb_evaluate(const slb_problem *pb, int64_t n, const int64_t *order,
                               const int64_t *counts, double *finish, slb_info *info,
                               tilehybrid_status *st)
{
    slb__model m;
    int64_t *cnt;
    int rc;
    slb__info_reset(info);
    slb__ok(st);
    if (counts == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "counts", -1);
    rc = slb__model_init(&m, pb, n, order, 0, info, st);
    if (rc != SLB_OK)
        return rc;
    cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (cnt == NULL)
        rc = tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    if (rc == SLB_OK)
        rc = slb__by_position(&m, counts, cnt, info, st);
    if (rc == SLB_OK)
        rc = slb__output(&m, cnt, NULL, finish, info, st);
    return slb__done(&m, cnt, NULL, rc);
}

/**
 * slb_uniform() - the uniform distribution of MPI_Scatter.
 * @pb, @n, @order, @counts, @finish, @info, @st: as for slb_exact().
 *
 * n/p items each, the n mod p first processors in the sending order one
 * more.  Any non-negative costs.
 * Return: SLB_OK or an error code, as for slb_exact().
 */
static inline int slb_uniform(const slb_problem *pb, int64_t n, const int64_t *order,
                              int64_t *counts, double *finish, slb_info *info,
                              tilehybrid_status *st)
{
    slb__model m;
    int64_t *cnt;
    int64_t k;
    int rc;
    rc = slb__begin(&m, pb, n, order, 0, info, st);
    if (rc != SLB_OK)
        return rc;
    cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (cnt == NULL)
        return slb__done(&m, NULL, NULL, tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1));
    for (k = 0; k < m.p; k++)
        cnt[k] = n / m.p + (k < n % m.p ? 1 : 0);
    rc = slb__output(&m, cnt, counts, finish, info, st);
    return slb__done(&m, cnt, NULL, rc);
}

/* ==== src/scatterlb/40-dp.h ==== */
#line 1 "src/scatterlb/40-dp.h"
/* ------------------------------------------------------------------------ */
/* Dynamic programming (the paper's Algorithm 2: slb_exact's fallback)      */
/* ------------------------------------------------------------------------ */

/* One cell of the dynamic programme: cost[d, k], the best makespan of d
 * items on positions k.., from next[] = cost[., k+1]; *sol receives the
 * items position k takes, *work counts inner iterations.  Algorithm 2's
 * cell is below; tests/slb_reference.h adds Algorithm 1's. */
typedef int64_t (*slb__dp_cell)(const slb__model *m, int64_t k, int64_t d, const int64_t *next,
                                int64_t *sol, int64_t *work);

/* Algorithm 2, lines 11-35 (Tcomp(k,0) = 0 = cost[0,k+1]): Algorithm 1's
 * minimum over e with the e-loop bounded by a binary search for the
 * crossing of Tcomp(k,e) and cost[d-e,k+1] and an early exit; valid for
 * non-decreasing costs. */
static inline int64_t slb__alg2_cell(const slb__model *m, int64_t k, int64_t d,
                                     const int64_t *next, int64_t *sol, int64_t *work)
{
    int64_t e, best, mn, mm;
    if (next[d] == 0) {
        *sol = 0;
        return 0;
    } else {
        int64_t emin = 0, emax = d;
        e = d / 2;
        while (e != emin) {
            if (slb__cost(m, k, e, 0) < next[d - e])
                emin = e;
            else
                emax = e;
            e = (emin + emax) / 2;
            (*work)++;
        }
        best = emax;
        mn = slb__g(m, k, emax);
    }
    for (e = best - 1; e >= 0; e--) {
        mm = slb__sat(slb__cost(m, k, e, 1), next[d - e]);
        (*work)++;
        if (mm < mn) {
            best = e;
            mn = mm;
        } else if (next[d - e] >= mn) {
            break;
        }
    }
    *sol = best;
    return mn;
}

/* The table: cost[d] of the last position, then positions p-2..0;
 * choice[k*(n+1) + d] = the items of position k for d items left. */
static inline void slb__dp_fill(const slb__model *m, int64_t *next, int64_t *cur,
                                int64_t *choice, slb__dp_cell cell, int64_t *work)
{
    int64_t k, d, n = m->n;
    /* lines 1-6: the last processor takes everything that is left */
    for (d = 0; d <= n; d++)
        next[d] = slb__g(m, m->p - 1, d);
    for (k = m->p - 2; k >= 0; k--) {
        int64_t *ch = choice + k * (n + 1), *t;
        cur[0] = 0;
        ch[0] = 0;
        for (d = 1; d <= n; d++)
            cur[d] = cell(m, k, d, next, &ch[d], work);
        t = next;
        next = cur;
        cur = t;
    }
}

/* The dynamic programme with the given cell (O(p n) memory); monotone: the
 * cell needs non-decreasing costs. */
static inline int slb__dp(const slb_problem *pb, int64_t n, const int64_t *order,
                          int64_t *counts, double *finish, slb_info *info,
                          tilehybrid_status *st, slb__dp_cell cell, int monotone)
{
    slb__model m;
    int64_t *next = NULL, *cur = NULL, *choice = NULL, *cnt = NULL;
    int64_t k, d, cells, work = 0;
    int rc;
    rc = slb__begin(&m, pb, n, order, monotone, info, st);
    if (rc != SLB_OK)
        return rc;
    if (!tilehybrid_mul_ok(m.p - 1, n + 1, &cells))
        return slb__done(&m, NULL, NULL, tilehybrid_status_set(st, SLB_ERR_OVERFLOW, "n", -1));
    next = (int64_t *)slb__alloc(n + 1, sizeof(int64_t));
    cur = (int64_t *)slb__alloc(n + 1, sizeof(int64_t));
    choice = (int64_t *)slb__alloc(cells, sizeof(int64_t));
    cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (next == NULL || cur == NULL || choice == NULL || cnt == NULL) {
        rc = tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    } else {
        slb__dp_fill(&m, next, cur, choice, cell, &work);
        for (d = n, k = 0; k < m.p - 1; k++) {
            cnt[k] = choice[k * (n + 1) + d];
            d -= cnt[k];
        }
        cnt[m.p - 1] = d;
        rc = slb__output(&m, cnt, counts, finish, info, st);
        if (info != NULL)
            info->work = work;
    }
    TILEHYBRID_FREE(next);
    TILEHYBRID_FREE(cur);
    return slb__done(&m, choice, cnt, rc);
}

/* ==== src/scatterlb/50-exact.h ==== */
#line 1 "src/scatterlb/50-exact.h"
/* ------------------------------------------------------------------------ */
/* The fast exact algorithm                                                 */
/* ------------------------------------------------------------------------ */

typedef struct slb__ex {
    const slb__model *m;
    int64_t *cnt;       /* by position: the distribution being built */
    int64_t *s;         /* steps e -> e+1 with e >= s[k] are "safe" */
    int64_t *th;        /* th[k]: gain-bound threshold of positions >= k */
    unsigned char *dom; /* dom[k]: position k costs <= position k+1 */
    double *inv;        /* affine: items per tick of the linear relaxation
                           of positions >= k (an upper bound), else 1e300 */
    int64_t *stack;     /* interval pool (pairs), grows on demand */
    int64_t top, cap;
    int64_t *memo;      /* direct-mapped cache: k, lo, hi, F_k on [lo, hi] */
    int64_t memo_mask;  /* entries - 1 (a power of two) */
    int *shift;         /* per position: log2 of the cache's bucket width */
    int64_t slack;      /* smallest budget increase that changes a decision */
    int64_t dslack;     /* smallest budget decrease that changes a decision */
    int64_t nodes;
    int64_t limit;      /* give up after this many nodes (0: never) */
    int nomem;
    int over;           /* the node limit was reached */
    int64_t *st;        /* breadth-first states: A, B, parent, e (4 each) */
    int64_t nst, capst; /* states used / allocated */
    int64_t *ord;       /* scratch: state indices for sorting */
    int64_t capord;
} slb__ex;

/* The cache slot of budget bucket b at position k. */
static inline int64_t *slb__memo_slot(const slb__ex *X, int64_t k, int64_t b)
{
    uint64_t h = (uint64_t)b * 0x9E3779B97F4A7C15ull ^ (uint64_t)k * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return X->memo + 4 * (int64_t)(h & (uint64_t)X->memo_mask);
}

static inline int slb__push(slb__ex *X, int64_t a, int64_t b)
{
    if (X->top + 2 > X->cap) {
        int64_t ncap = X->cap * 2 + 64;
        int64_t *ns = (int64_t *)slb__alloc(ncap, sizeof(int64_t));
        if (ns == NULL) {
            X->nomem = 1;
            return 0;
        }
        if (X->top > 0)
            memcpy(ns, X->stack, (size_t)X->top * sizeof(int64_t));
        TILEHYBRID_FREE(X->stack);
        X->stack = ns;
        X->cap = ncap;
    }
    X->stack[X->top++] = a;
    X->stack[X->top++] = b;
    return 1;
}

/* Is a one-item increase d of Tcomm "safe" against threshold th? */
static inline int slb__safe_step(int64_t d, int64_t th)
{
    return d == 0 || (th > 0 && d <= th);
}

/* An upper bound on F_k(B): the linear relaxation (affine costs without
 * comp0 and comm0, rational amounts, Theorems 1-2) absorbs B * inv[k]. */
static inline int64_t slb__linub(const slb__ex *X, int64_t k, int64_t B)
{
    double v = (double)B * X->inv[k] * (1.0 + 1e-9);
    return v < 4e18 ? (int64_t)v + 1 : INT64_MAX / 2;
}

/* A pruning "e2 + slb__linub(k, B) <= best" depends on the budget: record
 * (conservatively) how much B may grow before it would not prune, so that
 * the bisection's jump to the next event stays valid.  limit = best - e2. */
static inline void slb__linub_slack(slb__ex *X, int64_t k, int64_t B, int64_t limit)
{
    double w = X->inv[k] * (1.0 + 1e-9), bs, sl;
    int64_t d;
    if (!(w > 0.0) || w >= 1e300)
        return; /* the bound does not depend on B */
    bs = (double)limit / w;
    sl = bs - (double)B;
    sl -= 1e-6 * (bs > 0 ? bs : -bs) + 2.0; /* rounding margin */
    d = sl >= 1.0 ? (sl < 4e18 ? (int64_t)sl : INT64_MAX / 2) : 1;
    if (d < X->slack)
        X->slack = d;
}

/* Theorem 2's step from position k + 1 to k: the items per unit of time
 * of the linear relaxation of positions >= k, from next (that of the
 * positions after k, 1e300: unbounded), position k's linear communication
 * cost l and lm = l + its linear computation cost; last: k is the last
 * position.  Shared by the exact search and the rational solver. */
static inline double slb__inv(double l, double lm, double next, int last)
{
    if (lm <= 0.0 || next >= 1e300)
        return 1e300;
    if (last)
        return 1.0 / lm;
    if (l * next < 1.0)
        return (1.0 - l * next) / lm + next;
    return next;
}

/* inv[k]: items per tick of the linear relaxation of positions >= k
 * (affine costs without comp0 and comm0, Theorems 1-2): an upper bound on
 * F_k(B) / B; 1e300 (no bound) for other costs or a free position. */
static inline void slb__ex_relax(slb__ex *X)
{
    const slb__model *m = X->m;
    int64_t p = m->p, k;
    X->inv[p] = 0.0;
    for (k = p - 1; k >= 0; k--) {
        double l, lm;
        if (m->pb->kind != SLB_KIND_AFFINE) {
            X->inv[k] = 1e300;
            continue;
        }
        l = (double)m->q[4 * k + 3];
        lm = l + (double)m->q[4 * k + 1];
        X->inv[k] = slb__inv(l, lm, X->inv[k + 1], k == p - 1);
    }
}

/* Position k's smallest one-item cost increase (*mc: of Tcomm, of
 * Tcomm + Tcomp for the last position) and the count s from which its
 * steps are safe against the threshold th of the positions after it. */
static inline void slb__ex_steps(const slb__ex *X, int64_t k, int64_t th, int64_t *mc,
                                 int64_t *s)
{
    const slb__model *m = X->m;
    int64_t n = m->n, x, prev = 0;
    int last = k == m->p - 1;
    *mc = SLB__CAP;
    *s = 0;
    if (m->pb->kind == SLB_KIND_AFFINE) {
        const int64_t *q = m->q + 4 * k;
        int64_t first = last ? slb__sat(slb__sat(q[0], q[1]), slb__sat(q[2], q[3]))
                             : slb__sat(q[2], q[3]);
        int64_t rest = last ? slb__sat(q[1], q[3]) : q[3];
        if (n >= 2)
            *mc = first < rest ? first : rest;
        else if (n == 1)
            *mc = first;
        if (!last && n >= 2 && !slb__safe_step(rest, th))
            *s = n;
        else if (!last && n >= 1 && !slb__safe_step(first, th))
            *s = 1;
        return;
    }
    for (x = 0; x < n; x++) {
        int64_t c1 = last ? slb__g(m, k, x + 1) : slb__cost(m, k, x + 1, 1), dlt;
        if (c1 >= SLB__CAP)
            break;
        dlt = c1 - prev;
        if (dlt < *mc)
            *mc = dlt;
        if (!last && !slb__safe_step(dlt, th))
            *s = x + 1;
        prev = c1;
    }
}

/* Does position k cost no more than position k+1, for every count? */
static inline int slb__ex_dominates(const slb__model *m, int64_t k)
{
    int64_t x;
    if (m->pb->kind == SLB_KIND_AFFINE) {
        const int64_t *q = m->q + 4 * k;
        return q[0] <= q[4] && q[1] <= q[5] && q[2] <= q[6] && q[3] <= q[7];
    }
    for (x = 1; x <= m->n; x++)
        if (slb__cost(m, k, x, 0) > slb__cost(m, k + 1, x, 0) ||
            slb__cost(m, k, x, 1) > slb__cost(m, k + 1, x, 1))
            return 0;
    return 1;
}

/* Precompute inv, th, s and dom (see docs/scatterlb.md, "Why slb_exact is
 * exact"). */
static inline void slb__ex_prepare(slb__ex *X)
{
    int64_t p = X->m->p, k;
    slb__ex_relax(X);
    X->th[p] = SLB__CAP;
    for (k = p - 1; k >= 0; k--) {
        int64_t mc, s;
        slb__ex_steps(X, k, X->th[k + 1], &mc, &s);
        X->s[k] = k == p - 1 ? 0 : s;
        X->th[k] = mc < X->th[k + 1] ? mc : X->th[k + 1];
        X->dom[k] = (unsigned char)(k < p - 1 && slb__ex_dominates(X->m, k));
    }
}

static inline int64_t slb__absorb(slb__ex *X, int64_t k, int64_t B, int64_t cap, int forced);

/* A level with several candidates: u (the most items that fit) first, then
 * the unsafe low range [1, min(s,u)-1] by branch and bound, then 0. */
static inline int64_t slb__branch_search(slb__ex *X, int64_t k, int64_t B, int64_t cap,
                                         int64_t u, int64_t cu, int64_t th, int64_t base)
{
    const slb__model *m = X->m;
    int64_t hu, best, hi;
    X->cnt[k] = u;
    hu = u + slb__absorb(X, k + 1, B - cu, cap - u, 0);
    if (hu >= cap || X->over)
        return hu;
    best = hu;
    hi = (X->s[k] < u ? X->s[k] : u) - 1;
    if (hi >= 1 && !slb__push(X, 1, hi))
        return best;
    while (X->top > base && !X->over) {
        int64_t e2 = X->stack[--X->top], e1 = X->stack[--X->top];
        int64_t c1, f1, h1, mid;
        if (th > 0 && hu - (u - e2) + slb__ceil_div(cu - slb__cost(m, k, e1, 1), th) <= best)
            continue;
        c1 = slb__cost(m, k, e1, 1);
        if (e2 + slb__linub(X, k + 1, B - c1) <= best) {
            slb__linub_slack(X, k + 1, B - c1, best - e2);
            continue;
        }
        X->cnt[k] = e1;
        f1 = slb__absorb(X, k + 1, B - c1, cap - e1, 0);
        h1 = e1 + f1;
        if (h1 >= cap) {
            X->top = base;
            return cap;
        }
        if (h1 > best)
            best = h1;
        if (e2 + f1 <= best || e1 == e2)
            continue;
        mid = e1 + (e2 - e1) / 2;
        if (e1 + 1 <= mid && !slb__push(X, e1 + 1, mid))
            break;
        if (!slb__push(X, mid + 1, e2))
            break;
    }
    X->top = base;
    if (!X->over && !(th > 0 && hu - u + slb__ceil_div(cu, th) <= best) &&
        slb__linub(X, k + 1, B) <= best)
        slb__linub_slack(X, k + 1, B, best);
    else if (!X->over && !(th > 0 && hu - u + slb__ceil_div(cu, th) <= best)) {
        int64_t h0;
        X->cnt[k] = 0;
        h0 = slb__absorb(X, k + 1, B, cap, X->dom[k]);
        if (h0 >= cap)
            return cap;
        if (h0 > best)
            best = h0;
    }
    return best;
}

/* The cache, at the first branching level: about 4 (p+1)(n+1) entries,
 * between 2^8 and 2^16 (at most 2 MiB).  0 when out of memory. */
static inline int slb__memo_init(slb__ex *X)
{
    int64_t want = 4 * (X->m->p + 1) * (X->m->n + 1), i, e = 256;
    while (e < want && e < ((int64_t)1 << 16))
        e *= 2;
    X->memo = (int64_t *)slb__alloc(4 * e, sizeof(int64_t));
    X->shift = (int *)slb__alloc(X->m->p, sizeof(int));
    if (X->memo == NULL || X->shift == NULL) {
        X->nomem = 1;
        return 0;
    }
    X->memo_mask = e - 1;
    for (i = 0; i < 4 * e; i += 4)
        X->memo[i] = -1; /* no entry */
    for (i = 0; i < X->m->p; i++)
        X->shift[i] = -1; /* bucket width not chosen yet */
    return 1;
}

/* Cache F_k = best for every budget of [B - dslack + 1, B + slack - 1]
 * (the same search, hence the same value), under the (at most 4) buckets
 * nearest to B that this interval covers. */
static inline void slb__memo_store(slb__ex *X, int64_t k, int64_t B, int64_t best)
{
    int64_t lo = X->dslack >= B ? 0 : B - X->dslack + 1;
    int64_t hi = X->slack >= SLB__CAP - B ? SLB__CAP : B + X->slack - 1, j;
    if (X->shift[k] < 0) { /* buckets about as wide as this interval */
        int sh = 0;
        while (sh < 62 && ((int64_t)2 << sh) <= hi - lo + 1)
            sh++;
        X->shift[k] = sh;
    }
    for (j = -1; j <= 2; j++) {
        int64_t b = (B >> X->shift[k]) + j, blo, *slot;
        if (b < 0)
            continue;
        blo = b << X->shift[k];
        if (blo > hi || blo + ((int64_t)1 << X->shift[k]) - 1 < lo)
            continue;
        slot = slb__memo_slot(X, k, b);
        slot[0] = k;
        slot[1] = lo;
        slot[2] = hi;
        slot[3] = best;
    }
}

/* F_k(B) (at most cap) where position k has several candidates (u the
 * most that fit): from the cache when a cached budget interval holds B,
 * else by slb__branch_search (then cached).  Keeps the caller's slack. */
static inline int64_t slb__branch(slb__ex *X, int64_t k, int64_t B, int64_t cap, int64_t u)
{
    const slb__model *m = X->m;
    int64_t cu = slb__cost(m, k, u, 1), th = X->th[k + 1];
    int64_t best, base = X->top;
    int64_t *slot, outer = X->slack, douter = X->dslack;
    if (X->memo == NULL && !slb__memo_init(X))
        return 0;
    /* F_k is a step function of B alone (neither T nor the path matter): a
     * cached interval [lo, hi] around B on which F_k = v < cap answers at
     * once (a success needs its distribution: recompute) */
    if (X->shift[k] >= 0) {
        slot = slb__memo_slot(X, k, B >> X->shift[k]);
        if (slot[0] == k && slot[1] <= B && B <= slot[2] && slot[3] < cap) {
            if (slot[2] - B + 1 < X->slack)
                X->slack = slot[2] - B + 1;
            if (B - slot[1] + 1 < X->dslack)
                X->dslack = B - slot[1] + 1;
            return slot[3];
        }
    }
    X->slack = SLB__CAP;
    X->dslack = SLB__CAP;
    (void)slb__umax(X->m, k, B, cap, &X->slack, &X->dslack); /* u's own interval */
    best = slb__branch_search(X, k, B, cap, u, cu, th, base);
    if (best < cap && !X->nomem && !X->over)
        slb__memo_store(X, k, B, best);
    if (outer < X->slack)
        X->slack = outer;
    if (douter < X->dslack)
        X->dslack = douter;
    return best;
}

/* min(cap, F_k(B)): the most items positions k.. can finish within B; when
 * it returns cap, cnt[k..p-1] holds such a distribution.  forced: position
 * k must stay idle (dominance rule). */
static inline int64_t slb__absorb(slb__ex *X, int64_t k, int64_t B, int64_t cap, int forced)
{
    const slb__model *m = X->m;
    int64_t p = m->p, got = 0, u, j;
    for (;;) {
        X->nodes++;
        if (X->limit > 0 && X->nodes > X->limit) {
            X->over = 1;
            return 0;
        }
        if (cap == 0) {
            for (j = k; j < p; j++)
                X->cnt[j] = 0;
            return got;
        }
        if (k == p - 1) {
            u = slb__umax(m, k, B, cap, &X->slack, &X->dslack);
            X->cnt[k] = u;
            return got + u;
        }
        u = forced ? 0 : slb__umax(m, k, B, cap, &X->slack, &X->dslack);
        if (u == 0) {
            X->cnt[k] = 0;
            forced = X->dom[k];
            k++;
            continue;
        }
        if (X->s[k] == 0) {
            X->cnt[k] = u;
            B -= slb__cost(m, k, u, 1);
            cap -= u;
            got += u;
            k++;
            continue;
        }
        return got + slb__branch(X, k, B, cap, u);
    }
}

/* ---- breadth-first feasibility test (affine costs) ---- */

/* Append a state (items so far A, budget left B, parent index, items e
 * given at this position); 0 when out of memory or over the limits (at most
 * 2^22 states per test, then slb_exact hands over to Algorithm 2). */
static inline int slb__st_push(slb__ex *X, int64_t A, int64_t B, int64_t par, int64_t e)
{
    int64_t *q;
    if (X->nst >= ((int64_t)1 << 22)) { /* 128 MiB of states: hand over */
        X->over = 1;
        return 0;
    }
    if (X->nst == X->capst) {
        int64_t nc = X->capst * 2 + 256;
        int64_t *ns = (int64_t *)slb__alloc(4 * nc, sizeof(int64_t));
        if (ns == NULL) {
            X->nomem = 1;
            return 0;
        }
        if (X->nst > 0)
            memcpy(ns, X->st, (size_t)(4 * X->nst) * sizeof(int64_t));
        TILEHYBRID_FREE(X->st);
        X->st = ns;
        X->capst = nc;
    }
    q = X->st + 4 * X->nst++;
    q[0] = A;
    q[1] = B;
    q[2] = par;
    q[3] = e;
    X->nodes++;
    if (X->limit > 0 && X->nodes > X->limit)
        X->over = 1;
    return 1;
}

/* Sort state indices by A descending, then B descending (insertion sort on
 * small runs, else a simple merge sort on X->ord). */
static inline int slb__st_before(const slb__ex *X, int64_t i, int64_t j)
{
    const int64_t *a = X->st + 4 * i, *b = X->st + 4 * j;
    return a[0] > b[0] || (a[0] == b[0] && a[1] > b[1]);
}

static inline void slb__st_sort(slb__ex *X, int64_t *v, int64_t *tmp, int64_t m)
{
    int64_t w, i, j, k, lo, mid, hi;
    for (i = 1; i < m && m <= 16; i++) {
        int64_t x = v[i];
        for (j = i; j > 0 && slb__st_before(X, x, v[j - 1]); j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    if (m <= 16)
        return;
    for (w = 1; w < m; w *= 2) {
        for (lo = 0; lo < m; lo += 2 * w) {
            mid = lo + w < m ? lo + w : m;
            hi = lo + 2 * w < m ? lo + 2 * w : m;
            for (i = lo, j = mid, k = lo; k < hi; k++)
                tmp[k] = (j >= hi || (i < mid && !slb__st_before(X, v[j], v[i]))) ? v[i++]
                                                                                : v[j++];
        }
        memcpy(v, tmp, (size_t)m * sizeof(int64_t));
    }
}

/* Walk back from state i (at position k, whose own items are e) and write
 * the distribution into X->cnt. */
static inline void slb__st_witness(slb__ex *X, int64_t i, int64_t k, int64_t e)
{
    int64_t j;
    for (j = k + 1; j < X->m->p; j++)
        X->cnt[j] = 0;
    X->cnt[k] = e;
    for (j = k - 1; j >= 0; j--) {
        X->cnt[j] = X->st[4 * i + 3];
        i = X->st[4 * i + 2];
    }
}


/* The greedy path: most items everywhere (decides loose T at once); 1 when
 * it serves all n items (distribution in X->cnt). */
static inline int slb__bfs_greedy(slb__ex *X, int64_t T)
{
    const slb__model *m = X->m;
    int64_t k, u, B = T, need = m->n;
    for (k = 0; k < m->p; k++) {
        u = slb__umax(m, k, B, need, NULL, NULL);
        X->cnt[k] = u;
        B -= slb__cost(m, k, u, 1);
        need -= u;
    }
    return need == 0;
}

/* The unsafe candidates e in [1, hi] of state i = (A, B) at position k, in
 * the direction in which the bound e + linub(B - Tcomm(k,e)) decreases
 * (from the top when incr, else from the bottom): stop at the first that
 * cannot reach need.  0 when the search must stop. */
static inline int slb__bfs_range(slb__ex *X, int64_t k, int64_t i, int64_t A, int64_t B,
                                 int64_t need, int64_t hi, int incr)
{
    int64_t e = incr ? hi : 1;
    for (; incr ? e >= 1 : e <= hi; e += incr ? -1 : 1) {
        int64_t Be = B - slb__cost(X->m, k, e, 1);
        if (e + slb__linub(X, k + 1, Be) < need) {
            slb__linub_slack(X, k + 1, Be, need - e - 1);
            break;
        }
        if (!slb__st_push(X, A + e, Be, i, e))
            return 0;
    }
    return 1;
}

/* Expand state i at position k: its candidates u (the most that fits), the
 * unsafe e below min(s, u), and 0.  1: a witness was found (in X->cnt);
 * -1: the search must stop (limits, memory); 0: go on. */
static inline int slb__bfs_expand(slb__ex *X, int64_t k, int64_t i, int incr)
{
    const slb__model *m = X->m;
    int64_t A = X->st[4 * i], B = X->st[4 * i + 1], need = m->n - A, u;
    if (need == 0) {
        slb__st_witness(X, i, k, 0);
        return 1;
    }
    u = slb__umax(m, k, B, need, &X->slack, NULL);
    if (k == m->p - 1) {
        if (u == need) {
            slb__st_witness(X, i, k, u);
            return 1;
        }
        return 0;
    }
    if (u > 0 && !slb__st_push(X, A + u, B - slb__cost(m, k, u, 1), i, u))
        return -1;
    if (u > 0 && X->s[k] == 0)
        return 0; /* every step safe: u beats every smaller e */
    if (!slb__bfs_range(X, k, i, A, B, need, (X->s[k] < u ? X->s[k] : u) - 1, incr))
        return -1;
    /* e = 0 (no latency paid) */
    if (slb__linub(X, k + 1, B) < need)
        slb__linub_slack(X, k + 1, B, need - 1);
    else if (!slb__st_push(X, A, B, i, 0))
        return -1;
    return X->over ? -1 : 0;
}

/* Pareto: sort the new level [lv1, nst) by A desc, B desc and keep the
 * strict rises of B.  0 when the level is empty or memory runs out. */
static inline int slb__bfs_pareto(slb__ex *X, int64_t lv1)
{
    int64_t mlev = X->nst - lv1, kept = 0, bestB = -1, *tmp, j;
    if (mlev == 0)
        return 0;
    /* X->ord: indices [0, m), merge scratch / survivors [m, 2m), survivor
     * tuples [2m, 6m) */
    if (6 * mlev > X->capord) {
        TILEHYBRID_FREE(X->ord);
        X->capord = 6 * mlev + 64;
        X->ord = (int64_t *)slb__alloc(X->capord, sizeof(int64_t));
        if (X->ord == NULL) {
            X->nomem = 1;
            return 0;
        }
    }
    tmp = X->ord + mlev;
    for (j = 0; j < mlev; j++)
        X->ord[j] = lv1 + j;
    slb__st_sort(X, X->ord, tmp, mlev);
    /* compact the survivors to the end of the pool, in order */
    for (j = 0; j < mlev; j++) {
        int64_t s2 = X->ord[j];
        if (X->st[4 * s2 + 1] > bestB) {
            bestB = X->st[4 * s2 + 1];
            tmp[kept++] = s2;
        }
    }
    for (j = 0; j < kept; j++)
        memcpy(X->ord + 2 * mlev + 4 * j, X->st + 4 * tmp[j], 4 * sizeof(int64_t));
    memcpy(X->st + 4 * lv1, X->ord + 2 * mlev, (size_t)(4 * kept) * sizeof(int64_t));
    X->nst = lv1 + kept;
    return 1;
}

/* Is makespan T feasible?  1 yes (distribution in X->cnt), 0 no (X->slack:
 * the least increase of T that could change the answer).  Affine costs.
 * A state (A, B) at position k: A items given to positions < k, B the time
 * left from the moment position k starts receiving.  A state with no more
 * items and no more time than another is dropped (Pareto).  The candidates
 * of a state: u (the most that fits), and, where the step is not safe, the
 * e whose linear-relaxation bound e + B' / D_{k+1} still reaches n. */
static inline int slb__bfs(slb__ex *X, int64_t T)
{
    const slb__model *m = X->m;
    int64_t p = m->p, k, i, lv0 = 0, lv1 = 1;
    if (slb__bfs_greedy(X, T))
        return 1;
    X->nst = 0;
    if (!slb__st_push(X, 0, T, -1, 0))
        return 0;
    for (k = 0; k < p; k++) {
        /* is the bound e + linub(B - lambda e) increasing in e? */
        int incr = k < p - 1 && (double)m->q[4 * k + 3] * X->inv[k + 1] < 1.0;
        for (i = lv0; i < lv1; i++) {
            int r = slb__bfs_expand(X, k, i, incr);
            if (r != 0)
                return r > 0;
        }
        if (k == p - 1 || !slb__bfs_pareto(X, lv1))
            break;
        lv0 = lv1;
        lv1 = X->nst;
    }
    return 0;
}

static inline void slb__ex_free(slb__ex *X)
{
    void *const mem[] = { X->cnt, X->s,    X->th,    X->dom, X->inv,
                          X->stack, X->memo, X->shift, X->st, X->ord };
    slb__free_each(mem, (int)(sizeof mem / sizeof mem[0]));
}

/* Set up the search on model m: the node limit (max_nodes > 0: that many,
 * 0: none, < 0: 4 (p+1)(n+1)(log2(n+1)+1)), the arrays, the bounds. */
static inline int slb__ex_init(slb__ex *X, const slb__model *m, int64_t max_nodes)
{
    memset(X, 0, sizeof *X);
    X->m = m;
    if (max_nodes < 0) {
        int64_t lg = 1, t = m->n + 1;
        while (t > 1) {
            t >>= 1;
            lg++;
        }
        if (!tilehybrid_mul_ok(4 * (m->p + 1), m->n + 1, &max_nodes) ||
            !tilehybrid_mul_ok(max_nodes, lg, &max_nodes))
            max_nodes = 0;
    }
    X->limit = max_nodes;
    X->cnt = (int64_t *)slb__alloc(m->p, sizeof(int64_t));
    X->s = (int64_t *)slb__alloc(m->p, sizeof(int64_t));
    X->th = (int64_t *)slb__alloc(m->p + 1, sizeof(int64_t));
    X->dom = (unsigned char *)slb__alloc(m->p, 1);
    X->inv = (double *)slb__alloc(m->p + 1, sizeof(double));
    if (X->cnt == NULL || X->s == NULL || X->th == NULL || X->dom == NULL || X->inv == NULL)
        return SLB_ERR_NOMEM;
    slb__ex_prepare(X);
    return SLB_OK;
}

/* The bisection on the makespan in ticks, from hi, feasible with witness
 * wit (updated), down to the optimum.  Stops early on X->nomem or X->over. */
static inline void slb__ex_bisect(slb__ex *X, int64_t *wit, int64_t hi)
{
    const slb__model *m = X->m;
    int64_t lo = -1; /* invariant: lo infeasible, hi feasible with witness wit */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2, got;
        X->slack = SLB__CAP;
        X->dslack = SLB__CAP;
        if (m->pb->kind == SLB_KIND_AFFINE)
            got = slb__bfs(X, mid) ? m->n : 0;
        else
            got = slb__absorb(X, 0, mid, m->n, 0);
        if (X->nomem || X->over)
            return;
        if (got >= m->n) {
            memcpy(wit, X->cnt, (size_t)m->p * sizeof(int64_t));
            hi = slb__eval(m, wit, NULL);
        } else {
            /* the same search, hence the same failure, for every budget
             * below mid + slack: jump to the next event */
            lo = X->slack < hi - mid ? mid + X->slack - 1 : hi - 1;
        }
    }
}

/* slb_exact with a node limit: max_nodes > 0 gives up the search after that
 * many nodes and runs Algorithm 2 instead, 0 never gives up, < 0 uses the
 * default 4 (p+1)(n+1)(log2(n+1)+1). */
static inline int slb__exact(const slb_problem *pb, int64_t n, const int64_t *order,
                             int64_t *counts, double *finish, slb_info *info,
                             tilehybrid_status *st, int64_t max_nodes)
{
    slb__model m;
    slb__ex X;
    int64_t *wit = NULL, k, kb = 0, gb = 0;
    int rc;
    rc = slb__begin(&m, pb, n, order, 1, info, st);
    if (rc != SLB_OK)
        return rc;
    rc = slb__ex_init(&X, &m, max_nodes);
    wit = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (rc == SLB_OK && wit != NULL) {
        /* start: everything on the processor that is fastest alone */
        for (k = 0; k < m.p; k++) {
            int64_t g = slb__g(&m, k, n);
            if (k == 0 || g < gb) {
                gb = g;
                kb = k;
            }
            wit[k] = 0;
        }
        wit[kb] = n;
        slb__ex_bisect(&X, wit, slb__eval(&m, wit, NULL));
    }
    if (rc != SLB_OK || wit == NULL || X.nomem) {
        rc = tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    } else if (X.over) {
        /* the search met an unusually hard instance: Algorithm 2 has a
         * polynomial bound and returns the same optimum */
        rc = slb__dp(pb, n, order, counts, finish, info, st, slb__alg2_cell, 1);
        if (rc == SLB_OK && info != NULL)
            info->work += X.nodes;
    } else {
        rc = slb__output(&m, wit, counts, finish, info, st);
        if (info != NULL)
            info->work = X.nodes;
    }
    slb__ex_free(&X);
    return slb__done(&m, wit, NULL, rc);
}

/**
 * slb_exact() - an optimal distribution of n items (the smallest makespan).
 * @pb:     the costs, non-negative and non-decreasing.
 * @n:      number of items, >= 0 (below 2^61).
 * @order:  sending order (NULL: 0..p-1), order[p-1] is the root.
 * @counts: [p] out (may be NULL): items per processor (by processor number).
 * @finish: [p] out (may be NULL): finish time T_i per processor.
 * @info:   out (may be NULL): makespan, makespan_ticks, tick, work (search
 *          nodes), bad_items.
 * @st:     out (may be NULL): on error, the argument ("pb", "n", "order")
 *          and the processor or position at fault.
 *
 * Fast: a binary search on the makespan in integer ticks, each test an
 * exhaustive search pruned by proven bounds (see EXACTNESS; the proof is in
 * docs/scatterlb.md).  The makespan equals Algorithm 1's and 2's bitwise.
 * Should the search exceed 4 (p+1)(n+1)(log2(n+1)+1) nodes or 2^22 states
 * (only seen on adversarial instances) it hands over to Algorithm 2, so
 * the worst case stays O(p n^2) time and 8 p n bytes.  Where several
 * distributions are optimal, any one of them is returned.
 * Return: SLB_OK, SLB_ERR_ARG, SLB_ERR_NOPROC, SLB_ERR_ITEMS,
 * SLB_ERR_OVERFLOW, SLB_ERR_COST, SLB_ERR_MONOTONE, SLB_ERR_TABLE,
 * SLB_ERR_ORDER, SLB_ERR_TIME or SLB_ERR_NOMEM.
 */
static inline int slb_exact(const slb_problem *pb, int64_t n, const int64_t *order,
                            int64_t *counts, double *finish, slb_info *info,
                            tilehybrid_status *st)
{
    return slb__exact(pb, n, order, counts, finish, info, st, -1);
}

/* ==== src/scatterlb/60-rational.h ==== */
#line 1 "src/scatterlb/60-rational.h"
/* ------------------------------------------------------------------------ */
/* Rational solutions and the guaranteed heuristic (affine costs)           */
/* ------------------------------------------------------------------------ */

typedef struct slb__rat {
    int64_t p;
    const double *d;    /* 4 per position: comp0, mu, comm0, lambda */
    double *x;          /* by position */
    double *th;         /* gain-bound threshold of positions >= k */
    double *inv;        /* 1/D of positions >= k without comp0, comm0 */
    unsigned char *dom; /* position k costs <= position k+1 */
    unsigned char *br;  /* position k may need the "idle" branch */
    int64_t nodes, limit;
    double tol;         /* a remainder below tol counts as "all absorbed" */
    int over;
} slb__rat;

/* Most of x a position can take within B: comp0+comm0+(mu+lambda)x <= B. */
static inline double slb__rat_u(const double *d, double B)
{
    double f = d[0] + d[2], r = d[1] + d[3];
    if (B < f)
        return 0.0;
    if (r <= 0.0)
        return 1e300;
    return (B - f) / r;
}

/* The part of need that positions k.. cannot absorb within B (0 when all
 * fits; x[k..] then holds the amounts).  The optimal amount of a position is
 * 0 or as much as fits: its value e + N(B - comm0 - lambda e) is convex in e
 * because N, the absorbable amount of the others, is convex in B. */
static inline double slb__rat_rem(slb__rat *R, int64_t k, double B, double need, int forced)
{
    int64_t p = R->p, j;
    double u, xk, ru, r0;
    const double *d;
    for (;;) {
        R->nodes++;
        if (need <= R->tol) {
            for (j = k; j < p; j++)
                R->x[j] = 0.0;
            return need > 0.0 ? need : 0.0;
        }
        d = R->d + 4 * k;
        if (k == p - 1) {
            u = slb__rat_u(d, B);
            R->x[k] = u < need ? u : need;
            return need - R->x[k];
        }
        u = forced ? 0.0 : slb__rat_u(d, B);
        if (u <= 0.0) {
            R->x[k] = 0.0;
            forced = R->dom[k];
            k++;
            continue;
        }
        xk = u < need ? u : need;
        /* the idle branch cannot absorb more than xk when
         * (comm0 + lambda xk) / th <= xk (gain bound) */
        if (!R->br[k] || R->over ||
            (R->th[k + 1] > 0 && d[2] + d[3] * xk <= xk * R->th[k + 1]) ||
            (d[2] + d[3] * xk) * R->inv[k + 1] <= xk) {
            R->x[k] = xk;
            B -= d[2] + d[3] * xk;
            if (B < 0)
                B = 0;
            need -= xk;
            k++;
            continue;
        }
        break;
    }
    if (R->nodes > R->limit)
        R->over = 1;
    /* N, the amount positions k+1.. absorb, is convex and below the linear
     * relaxation B / D: its slope never exceeds inv = 1/D.  Hence a branch
     * that cannot reach need even so is skipped, and idling k gains at most
     * (comm0 + lambda xk) inv over using it. */
    {
        double inv = R->inv[k + 1], dlt = d[2] + d[3] * xk, Bu = B - dlt;
        int use_ok = xk + (Bu > 0 ? Bu : 0.0) * inv >= need - R->tol;
        int idle_ok = B * inv >= need - R->tol && xk < dlt * inv;
        if (!use_ok && !idle_ok)
            return need; /* both fail: some upper bound of the remainder */
        ru = need;
        if (use_ok) {
            R->x[k] = xk;
            ru = slb__rat_rem(R, k + 1, Bu, need - xk, 0);
            if (ru <= R->tol || !idle_ok)
                return ru;
        }
    }
    R->x[k] = 0.0;
    r0 = slb__rat_rem(R, k + 1, B, need, R->dom[k]);
    return r0 < ru ? r0 : ru;
}

/* Linear costs (comp0 = comm0 = 0), Theorems 1 and 2: 1/D_k = (1 -
 * lambda_k/D_{k+1})/(lambda_k+mu_k) + 1/D_{k+1} when lambda_k < D_{k+1},
 * else processor k is dropped.  x[] holds 1/D_k on the way back. */
static inline void slb__rat_closed(int64_t p, const double *d, double n, double *x, double *T)
{
    int64_t k;
    double B;
    x[p - 1] = 1.0 / (d[4 * (p - 1) + 1] + d[4 * (p - 1) + 3]);
    for (k = p - 2; k >= 0; k--) {
        double l = d[4 * k + 3], mu = d[4 * k + 1];
        if (l * x[k + 1] < 1.0)
            x[k] = (1.0 - l * x[k + 1]) / (l + mu) + x[k + 1];
        else
            x[k] = x[k + 1];
    }
    *T = n / x[0];
    B = *T;
    for (k = 0; k < p - 1; k++) {
        double l = d[4 * k + 3], mu = d[4 * k + 1], xk = 0.0;
        if (l * x[k + 1] < 1.0) {
            xk = B / (l + mu);
            B -= l * xk;
            if (B < 0)
                B = 0;
        }
        x[k] = xk;
    }
    x[p - 1] = B / (d[4 * (p - 1) + 1] + d[4 * (p - 1) + 3]);
}

static inline void slb__rat_free(slb__rat *R)
{
    void *const mem[] = { R->th, R->inv, R->dom, R->br };
    slb__free_each(mem, (int)(sizeof mem / sizeof mem[0]));
}

/* The search's bounds by position: th (gain bound), inv (Theorem 2 on the
 * linear parts, 1e300: unbounded), dom (dominance), br (idle branch). */
static inline int slb__rat_init(slb__rat *R, int64_t p, const double *d, double n, double *x)
{
    int64_t k;
    memset(R, 0, sizeof *R);
    R->p = p;
    R->d = d;
    R->x = x;
    R->limit = 1000000 + 1000 * p;
    R->tol = 1e-11 * n;
    R->th = (double *)slb__alloc(p + 1, sizeof(double));
    R->inv = (double *)slb__alloc(p + 1, sizeof(double));
    R->dom = (unsigned char *)slb__alloc(p, 1);
    R->br = (unsigned char *)slb__alloc(p, 1);
    if (R->th == NULL || R->inv == NULL || R->dom == NULL || R->br == NULL)
        return SLB_ERR_NOMEM;
    R->th[p] = 1e300;
    R->inv[p] = 0.0;
    for (k = p - 1; k >= 0; k--) {
        const double *q = d + 4 * k;
        double mc = (k == p - 1) ? q[1] + q[3] : q[3], l = q[3], lm = q[1] + q[3];
        R->th[k] = mc < R->th[k + 1] ? mc : R->th[k + 1];
        R->inv[k] = slb__inv(l, lm, R->inv[k + 1], k == p - 1);
        R->inv[k] *= 1.0 + 1e-12; /* keep it an upper bound despite rounding */
        R->dom[k] = 0;
        R->br[k] = 0;
        if (k < p - 1) {
            R->dom[k] = (unsigned char)(q[0] <= q[4] && q[1] <= q[5] && q[2] <= q[6] &&
                                        q[3] <= q[7]);
            R->br[k] = (unsigned char)!(q[2] == 0.0 && (q[3] == 0.0 || q[3] <= R->th[k + 1]));
        }
    }
    return SLB_OK;
}

/* Bisection on T between 0 and the best single processor; x (R->x) holds
 * the amounts of the smallest feasible T found, which is returned. */
static inline double slb__rat_bisect(slb__rat *R, double n)
{
    const double *d = R->d;
    double lo = 0.0, hi = -1.0;
    int64_t k;
    int iter;
    for (k = 0; k < R->p; k++) {
        const double *q = d + 4 * k;
        double g = q[0] + q[2] + (q[1] + q[3]) * n;
        if (hi < 0 || g < hi)
            hi = g;
    }
    for (iter = 0; iter < 200 && hi - lo > 1e-15 * hi; iter++) {
        double mid = lo + (hi - lo) / 2;
        if (mid <= lo || mid >= hi)
            break;
        if (slb__rat_rem(R, 0, mid, n, 0) <= R->tol)
            hi = mid;
        else
            lo = mid;
    }
    (void)slb__rat_rem(R, 0, hi, n, 0);
    return hi;
}

/* Rational optimum by position; d: 4 doubles per position.  closed_form:
 * use Theorems 1-2 for linear costs (the tests compare it with the
 * search). */
static inline int slb__rational(int64_t p, const double *d, double n, double *x, double *T,
                                int closed_form, int *guaranteed, int64_t *work)
{
    slb__rat R;
    int64_t k;
    int linear = 1;
    *guaranteed = 1;
    for (k = 0; k < p; k++) {
        x[k] = 0.0;
        if (d[4 * k] != 0.0 || d[4 * k + 2] != 0.0)
            linear = 0;
    }
    *T = 0.0;
    if (n <= 0.0)
        return SLB_OK;
    /* a processor that costs nothing takes everything at time 0 */
    for (k = 0; k < p; k++) {
        const double *q = d + 4 * k;
        if (q[0] + q[1] + q[2] + q[3] == 0.0) {
            x[k] = n;
            return SLB_OK;
        }
    }
    if (linear && closed_form) {
        slb__rat_closed(p, d, n, x, T);
        if (work != NULL)
            *work = p;
        return SLB_OK;
    }
    if (slb__rat_init(&R, p, d, n, x) != SLB_OK) {
        slb__rat_free(&R);
        return SLB_ERR_NOMEM;
    }
    *T = slb__rat_bisect(&R, n);
    *guaranteed = !R.over;
    if (work != NULL)
        *work = R.nodes;
    slb__rat_free(&R);
    return SLB_OK;
}

/* comp0, mu, comm0, lambda by position (4 doubles each). */
static inline void slb__rat_params(const slb__model *m, double *d)
{
    int64_t k;
    for (k = 0; k < m->p; k++) {
        const slb_affine *a = &m->pb->affine[m->proc[k]];
        d[4 * k] = a->comp0;
        d[4 * k + 1] = a->mu;
        d[4 * k + 2] = a->comm0;
        d[4 * k + 3] = a->lambda;
    }
}

/* The rational optimum of an affine problem (the core of slb_rational()
 * and slb_heuristic()): m set up, *d its positions' parameters
 * (slb__rat_params), *xp the amounts by position, *T the makespan, and
 * guaranteed and work as slb__rational() sets them.  Whatever it returns,
 * free *d, *xp (NULL when not allocated) and m after it. */
static inline int slb__rat_affine(slb__model *m, const slb_problem *pb, int64_t n,
                                  const int64_t *order, double **d, double **xp, double *T,
                                  int *guaranteed, int64_t *work, slb_info *info,
                                  tilehybrid_status *st)
{
    int rc;
    memset(m, 0, sizeof *m);
    *d = *xp = NULL;
    if (pb != NULL && pb->kind != SLB_KIND_AFFINE)
        return tilehybrid_status_set(st, SLB_ERR_AFFINE, "pb", -1);
    rc = slb__model_init(m, pb, n, order, 1, info, st);
    if (rc != SLB_OK)
        return rc;
    *d = (double *)slb__alloc(4 * m->p, sizeof(double));
    *xp = (double *)slb__alloc(m->p, sizeof(double));
    if (*d == NULL || *xp == NULL)
        return tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    slb__rat_params(m, *d);
    rc = slb__rational(m->p, *d, (double)n, *xp, T, 1, guaranteed, work);
    if (rc != SLB_OK)
        (void)tilehybrid_status_set(st, rc, "", -1);
    return rc;
}

/**
 * slb_rational() - the optimal rational distribution for affine costs.
 * @pb:    the costs (affine).
 * @n:     number of items, >= 0.
 * @order: sending order (NULL: 0..p-1), order[p-1] is the root.
 * @x:     [p] out: amount per processor (indexed by processor), sum n;
 *         amounts may be fractional.
 * @T:     out: its makespan, a lower bound on the integer optimum.
 * @info:  out (may be NULL): rational (= *T), guaranteed (0 if the search
 *         hit its node limit and fell back to the greedy choice), work.
 * @st:    out (may be NULL): on error, the argument and processor.
 *
 * With the zero convention (an idle processor costs nothing).  Linear costs
 * (comp0 = comm0 = 0) use the closed form of Theorems 1-2 (processor k is
 * dropped when lambda_k >= D of the processors after it); affine costs a
 * bisection on T with an exact two-candidate search (each processor takes 0
 * or as much as fits).  Computed in double precision.
 * Return: SLB_OK, SLB_ERR_AFFINE for other kinds of costs, or an error of
 * the problem's checks (as for slb_exact()).
 */
static inline int slb_rational(const slb_problem *pb, int64_t n, const int64_t *order,
                               double *x, double *T, slb_info *info, tilehybrid_status *st)
{
    slb__model m;
    double *d, *xp;
    int64_t k;
    int rc, guaranteed = 1;
    slb__info_reset(info);
    slb__ok(st);
    if (x == NULL || T == NULL || pb == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, x == NULL ? "x" : T == NULL ? "T" : "pb",
                                     -1);
    rc = slb__rat_affine(&m, pb, n, order, &d, &xp, T, &guaranteed, info ? &info->work : NULL,
                         info, st);
    if (rc == SLB_OK) {
        for (k = 0; k < m.p; k++)
            x[m.proc[k]] = xp[k];
        if (info != NULL) {
            info->rational = *T;
            info->guaranteed = guaranteed;
        }
    }
    return slb__done(&m, d, xp, rc);
}

typedef struct slb__frac {
    double f;
    int64_t i;
} slb__frac;

static inline int slb__frac_cmp(const void *a, const void *b)
{
    const slb__frac *x = (const slb__frac *)a, *y = (const slb__frac *)b;
    if (x->f != y->f)
        return x->f < y->f ? -1 : 1;
    return x->i < y->i ? -1 : (x->i > y->i ? 1 : 0);
}

/* slb_round's arguments: x finite, >= -1e-9, below 4e18, adding up to n
 * within 1e-6 (n + p). */
static inline int slb__round_check(int64_t p, const double *x, int64_t n, const int64_t *counts,
                                   tilehybrid_status *st)
{
    int64_t i;
    double tot = 0.0;
    if (p < 1)
        return tilehybrid_status_set(st, SLB_ERR_NOPROC, "p", -1);
    if (x == NULL || counts == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, x == NULL ? "x" : "counts", -1);
    if (n < 0)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "n", -1);
    for (i = 0; i < p; i++) {
        if (!slb__finite(x[i]) || x[i] < -1e-9 || x[i] >= 4e18)
            return tilehybrid_status_set(st, SLB_ERR_ARG, "x", i);
        tot += x[i];
    }
    if (tot - (double)n > 1e-6 * (double)(n + p) || (double)n - tot > 1e-6 * (double)(n + p))
        return tilehybrid_status_set(st, SLB_ERR_ARG, "x", -1);
    return SLB_OK;
}

/* The paper's scheme on the m fractional parts fr (sorted ascending):
 * while the accumulated error is negative (resp. positive), round up the
 * value nearest to its ceiling (resp. down the one nearest to its floor);
 * at zero, the one nearer to an integer; the last one cancels the error. */
static inline void slb__round_fracs(const slb__frac *fr, int64_t m, int64_t *counts)
{
    int64_t lo = 0, hi = m - 1;
    double err = 0.0;
    while (hi > lo) {
        /* round up the largest fraction, or down the smallest */
        int up;
        if (err < 0)
            up = 1;
        else if (err > 0)
            up = 0;
        else
            up = 1.0 - fr[hi].f < fr[lo].f;
        if (up) {
            counts[fr[hi].i] += 1;
            err += 1.0 - fr[hi].f;
            hi--;
        } else {
            err -= fr[lo].f;
            lo++;
        }
    }
    if (hi == lo) {
        /* the last one cancels the error: n'_k = n_k - err, an integer in
         * exact arithmetic (0 or 1 above the floor since |err| < 1) */
        double v = fr[lo].f - err;
        counts[fr[lo].i] += v >= 0.5 ? (int64_t)(v + 0.5) : 0;
    }
}

/**
 * slb_round() - the paper's rounding scheme (Sec. 3.3).
 * @p:      number of values, >= 1.
 * @x:      [p] values >= 0 (-1e-9 tolerated) adding up to n within
 *          1e-6 (n + p).
 * @n:      their sum, an integer >= 0.
 * @counts: [p] out: integers with |counts[i] - x[i]| < 1, adding up to n.
 * @st:     out (may be NULL): on error, the argument ("x") and its index.
 *
 * First the x[i] nearest to an integer is rounded to it; then, while the
 * accumulated error is negative (resp. positive), the remaining x[j]
 * nearest to its ceiling (resp. floor) is rounded up (resp. down); the last
 * one cancels the accumulated error.  Integral x[i] (in particular 0) stay
 * as they are.  O(p log p).
 * Return: SLB_OK, SLB_ERR_NOPROC, SLB_ERR_ARG or SLB_ERR_NOMEM.
 */
static inline int slb_round(int64_t p, const double *x, int64_t n, int64_t *counts,
                            tilehybrid_status *st)
{
    slb__frac *fr;
    int64_t i, m = 0, sum = 0, big = 0;
    int rc;
    slb__ok(st);
    rc = slb__round_check(p, x, n, counts, st);
    if (rc != SLB_OK)
        return rc;
    fr = (slb__frac *)slb__alloc(p, sizeof(slb__frac));
    if (fr == NULL)
        return tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    for (i = 0; i < p; i++) {
        double v = x[i] > 0 ? x[i] : 0.0;
        int64_t fl = (int64_t)v;
        counts[i] = fl;
        if (v - (double)fl > 0.0) {
            fr[m].f = v - (double)fl;
            fr[m].i = i;
            m++;
        }
    }
    qsort(fr, (size_t)m, sizeof *fr, slb__frac_cmp);
    slb__round_fracs(fr, m, counts);
    TILEHYBRID_FREE(fr);
    for (i = 0; i < p; i++)
        sum += counts[i];
    /* floating-point slack only: move the difference onto the largest */
    if (sum != n) {
        for (i = 1; i < p; i++)
            if (counts[i] > counts[big])
                big = i;
        counts[big] += n - sum;
        if (counts[big] < 0)
            return tilehybrid_status_set(st, SLB_ERR_ARG, "x", big);
    }
    return SLB_OK;
}

/**
 * slb_heuristic() - the paper's guaranteed heuristic for affine costs.
 * @pb, @n, @order, @counts, @finish, @st: as for slb_exact().
 * @info: out (may be NULL): as for slb_exact(), plus rational (the rational
 *        makespan, a lower bound on the optimum), bound (eq. 4) and
 *        guaranteed (1 when the rational search was exhaustive, which it
 *        always is for linear costs).
 *
 * The optimal rational distribution (slb_rational()) rounded by
 * slb_round().  Its makespan T' obeys (eq. 4)
 * T_opt <= T' <= T_opt + sum_j Tcomm(j,1) + max_i Tcomp(i,1).
 * O(p log p) for linear costs, O(p) per bisection step otherwise.
 * Return: as for slb_exact(), and SLB_ERR_AFFINE for non-affine costs.
 */
static inline int slb_heuristic(const slb_problem *pb, int64_t n, const int64_t *order,
                                int64_t *counts, double *finish, slb_info *info,
                                tilehybrid_status *st)
{
    slb__model m;
    double *d, *xp, T = 0, sumc = 0, maxt = 0;
    int64_t *cnt = NULL, k, work = 0;
    int rc, guaranteed = 1;
    slb__info_reset(info);
    slb__ok(st);
    rc = slb__rat_affine(&m, pb, n, order, &d, &xp, &T, &guaranteed, &work, info, st);
    if (rc == SLB_OK) {
        cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
        if (cnt == NULL)
            rc = tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    }
    if (rc == SLB_OK) {
        memset(cnt, 0, (size_t)m.p * sizeof(int64_t));
        for (k = 0; k < m.p; k++) {
            sumc += d[4 * k + 2] + d[4 * k + 3];
            if (d[4 * k] + d[4 * k + 1] > maxt)
                maxt = d[4 * k] + d[4 * k + 1];
        }
        rc = slb_round(m.p, xp, n, cnt, st);
    }
    if (rc == SLB_OK)
        rc = slb__output(&m, cnt, counts, finish, info, st);
    if (rc == SLB_OK && info != NULL) {
        info->rational = T;
        info->bound = sumc + maxt;
        info->guaranteed = guaranteed;
        info->work = work;
    }
    TILEHYBRID_FREE(d);
    return slb__done(&m, xp, cnt, rc);
}

/**
 * slb_solve() - solve with a method chosen at run time.
 * @pb, @n, @order, @counts, @finish, @info, @st: as for slb_exact().
 * @method: SLB_METHOD_EXACT, SLB_METHOD_HEURISTIC or SLB_METHOD_UNIFORM.
 *
 * Return: the method's code, or SLB_ERR_METHOD (st names "method").
 */
static inline int slb_solve(const slb_problem *pb, int64_t n, const int64_t *order, int method,
                            int64_t *counts, double *finish, slb_info *info,
                            tilehybrid_status *st)
{
    switch (method) {
    case SLB_METHOD_EXACT: return slb_exact(pb, n, order, counts, finish, info, st);
    case SLB_METHOD_HEURISTIC: return slb_heuristic(pb, n, order, counts, finish, info, st);
    case SLB_METHOD_UNIFORM: return slb_uniform(pb, n, order, counts, finish, info, st);
    default:
        slb__info_reset(info);
        return tilehybrid_status_set(st, SLB_ERR_METHOD, "method", -1);
    }
}

/* ==== src/scatterlb/70-order.h ==== */
#line 1 "src/scatterlb/70-order.h"
/* ------------------------------------------------------------------------ */
/* Ordering policy and choice of the root                                   */
/* ------------------------------------------------------------------------ */

/**
 * slb_order_by_key() - processors by increasing key, the root last.
 * @p:     number of processors, >= 1.
 * @key:   [p] the sort keys (NaN sorts last); ties by processor number.
 * @root:  processor number of the root, 0..p-1.
 * @order: [p] out: the sending order.
 * @st:    out (may be NULL): on error, the argument.
 *
 * Return: SLB_OK, SLB_ERR_NOPROC, SLB_ERR_ROOT, SLB_ERR_ARG or
 * SLB_ERR_NOMEM.
 */
static inline int slb_order_by_key(int64_t p, const double *key, int64_t root, int64_t *order,
                                   tilehybrid_status *st)
{
    slb__frac *v;
    int64_t i, m = 0;
    slb__ok(st);
    if (p < 1)
        return tilehybrid_status_set(st, SLB_ERR_NOPROC, "p", -1);
    if (key == NULL || order == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, key == NULL ? "key" : "order", -1);
    if (root < 0 || root >= p)
        return tilehybrid_status_set(st, SLB_ERR_ROOT, "root", -1);
    v = (slb__frac *)slb__alloc(p, sizeof(slb__frac));
    if (v == NULL)
        return tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    for (i = 0; i < p; i++) {
        if (i == root)
            continue;
        v[m].f = key[i] == key[i] ? key[i] : 1e308; /* NaN last */
        v[m].i = i;
        m++;
    }
    qsort(v, (size_t)m, sizeof *v, slb__frac_cmp);
    for (i = 0; i < m; i++)
        order[i] = v[i].i;
    order[p - 1] = root;
    TILEHYBRID_FREE(v);
    return SLB_OK;
}

/**
 * slb_order_bandwidth() - the paper's ordering policy (Theorem 3).
 * @pb:    the costs.
 * @n:     number of items (used for non-affine costs only).
 * @root:  processor number of the root.
 * @order: [p] out: the sending order.
 * @st:    out (may be NULL): on error, the argument and processor.
 *
 * The processors in decreasing order of their bandwidth to the root, i.e.
 * increasing time per item (lambda for affine costs, Tcomm(i,n)/n
 * otherwise), the root last.  Optimal for linear costs and rational
 * distributions (Theorem 3; the tests check it against every permutation).
 * Return: SLB_OK, SLB_ERR_ARG, SLB_ERR_NOPROC, SLB_ERR_ROOT, SLB_ERR_COST
 * or SLB_ERR_NOMEM.
 */
static inline int slb_order_bandwidth(const slb_problem *pb, int64_t n, int64_t root,
                                      int64_t *order, tilehybrid_status *st)
{
    double *key;
    int64_t i, x;
    int rc;
    slb__ok(st);
    if (pb == NULL || order == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, pb == NULL ? "pb" : "order", -1);
    if (pb->p < 1)
        return tilehybrid_status_set(st, SLB_ERR_NOPROC, "pb", -1);
    if (root < 0 || root >= pb->p)
        return tilehybrid_status_set(st, SLB_ERR_ROOT, "root", -1);
    rc = slb__check_costs(pb, 0, 0, NULL, st);
    if (rc != SLB_OK)
        return rc;
    key = (double *)slb__alloc(pb->p, sizeof(double));
    if (key == NULL)
        return tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    x = n > 0 ? n : 1;
    if (pb->kind == SLB_KIND_TABLE && x > pb->table_len)
        x = pb->table_len;
    for (i = 0; i < pb->p; i++) {
        if (pb->kind == SLB_KIND_AFFINE)
            key[i] = pb->affine[i].lambda;
        else if (x >= 1)
            key[i] = slb__costd(pb, i, x, 1) / (double)x;
        else
            key[i] = 0.0; /* an empty table says nothing: keep the numbering */
    }
    rc = slb_order_by_key(pb->p, key, root, order, st);
    TILEHYBRID_FREE(key);
    return rc;
}

/* Makespan with candidate root c: the bandwidth order, then the method. */
static inline int slb__root_try(const slb_problem *cand, int64_t p, int64_t c, int64_t n,
                                int method, int64_t *order, int64_t *counts, double *mk)
{
    slb_info in;
    int rc;
    if (cand[c].p != p)
        return SLB_ERR_ARG;
    rc = slb_order_bandwidth(&cand[c], n, c, order, NULL);
    if (rc == SLB_OK)
        rc = slb_solve(&cand[c], n, order, method, counts, NULL, &in, NULL);
    *mk = rc == SLB_OK ? in.makespan : 0.0;
    return rc;
}

/**
 * slb_choose_root() - the choice of the root (Sec. 3.4).
 * @p:      number of processors (candidates), >= 1.
 * @cand:   [p] problems: cand[c] holds the costs seen from root c (its
 *          Tcomm are transfers from c), all with the same p.
 * @move:   [p] (may be NULL: all 0): the time to bring the n items from the
 *          machine that holds them to candidate c.
 * @n:      number of items.
 * @method: as for slb_solve(); each candidate's processors are ordered by
 *          slb_order_bandwidth().
 * @best:   out: the best root.
 * @total:  [p] out (may be NULL): move[c] + makespan for every candidate.
 * @info:   out (may be NULL): makespan = the best total.
 * @st:     out (may be NULL): on error, "cand" and the candidate at fault.
 *
 * Return: SLB_OK or the first candidate's error code.
 */
static inline int slb_choose_root(int64_t p, const slb_problem *cand, const double *move,
                                  int64_t n, int method, int64_t *best, double *total,
                                  slb_info *info, tilehybrid_status *st)
{
    int64_t *order, *counts, c;
    double bt = 0;
    int rc = SLB_OK;
    slb__info_reset(info);
    slb__ok(st);
    if (p < 1)
        return tilehybrid_status_set(st, SLB_ERR_NOPROC, "p", -1);
    if (cand == NULL || best == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, cand == NULL ? "cand" : "best", -1);
    order = (int64_t *)slb__alloc(p, sizeof(int64_t));
    counts = (int64_t *)slb__alloc(p, sizeof(int64_t));
    if (order == NULL || counts == NULL)
        rc = tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    *best = -1;
    for (c = 0; c < p && rc == SLB_OK; c++) {
        double t;
        rc = slb__root_try(cand, p, c, n, method, order, counts, &t);
        if (rc != SLB_OK) {
            (void)tilehybrid_status_set(st, rc, "cand", c);
            break;
        }
        t += move ? move[c] : 0.0;
        if (total != NULL)
            total[c] = t;
        if (*best < 0 || t < bt) {
            bt = t;
            *best = c;
        }
    }
    if (rc == SLB_OK && info != NULL)
        info->makespan = bt;
    TILEHYBRID_FREE(order);
    TILEHYBRID_FREE(counts);
    return rc;
}

/* ==== src/scatterlb/80-mpi.h ==== */
#line 1 "src/scatterlb/80-mpi.h"
/* ------------------------------------------------------------------------ */
/* MPI: plans, scatter, gather, calibration                                 */
/* ------------------------------------------------------------------------ */
#ifndef TILEHYBRID_NO_MPI

#if defined(MPI_VERSION) && MPI_VERSION >= 4 && !defined(SLB_NO_LARGE_COUNT)
#define SLB__LARGE 1
#else
#define SLB__LARGE 0
#endif

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
 * slb_options_default() - the default options.
 *
 * Return: exact, bandwidth order, large counts allowed.
 */
static inline slb_options slb_options_default(void)
{
    slb_options o;
    o.method = SLB_METHOD_EXACT;
    o.order = SLB_ORDER_BANDWIDTH;
    o.large_count = 1;
    return o;
}

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

static inline void slb__plan_zero(slb_plan *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->comm = MPI_COMM_NULL;
    pl->ordered = MPI_COMM_NULL;
    pl->type = MPI_DATATYPE_NULL;
}

/**
 * slb_plan_free() - release what a plan owns.
 * @pl: the plan (NULL allowed).
 *
 * Frees the reordered communicator and the arrays.  Safe on a plan that
 * failed to be created or was already freed.  Local.
 */
static inline void slb_plan_free(slb_plan *pl)
{
    if (pl != NULL) {
        void *const mem[] = { pl->counts, pl->displs,  pl->order,
                              pl->finish, pl->xcounts, pl->xdispls };
        if (pl->ordered != MPI_COMM_NULL)
            (void)MPI_Comm_free(&pl->ordered);
        slb__free_each(mem, (int)(sizeof mem / sizeof mem[0]));
        slb__plan_zero(pl);
    }
}

/* ---- errors across ranks ---- */

/* The failing rank's argument (w->arg) as one of the names a status of
 * this header can carry ("" when it is none of them). */
static inline const char *slb__known_arg(const tilehybrid_verdict *w)
{
    static const char *const names[] = {
        "comm", "root", "n", "type", "opts.method", "opts.order", "opts.large_count",
        "mine", "pb", "plan", "recvbuf", "recvcap", "sample", "comp_sample", "comm_sample",
        "reps", "work", "comp0", "mu", "comm0", "lambda", "order", "counts", "sendbuf",
        "MPI_Type_size"}; /* SLB_ERR_MPI: the local call that failed, agreed on */
    return tilehybrid_verdict_arg(w, names, (int)(sizeof names / sizeof names[0]), "");
}

/* MPI call @call failed on this rank with @mpi_error: SLB_ERR_MPI, and st
 * (if not NULL) names the call (st->arg, as balance.h and topology.h do),
 * its code and the rank. */
static inline int slb__mpi_fail(tilehybrid_status *st, int mpi_error, const char *call, int rank)
{
    (void)tilehybrid_status_set(st, SLB_ERR_MPI, call, -1);
    if (st != NULL) {
        st->rank = rank;
        st->mpi_error = mpi_error;
    }
    return SLB_ERR_MPI;
}

/* An MPI call of a plan or calibration collective failed on this rank:
 * the other ranks would wait for it forever, and a failure on one rank
 * cannot be agreed on.  The headers' one path, tilehybrid_mpi_failed():
 * the call, the rank and MPI's error text on stderr (or to the hook of
 * tilehybrid_mpi_failure_swap()), then MPI_Abort.  Returns SLB_ERR_MPI
 * only if MPI_Abort returns. */
static inline int slb__mpi_abort(MPI_Comm comm, int mpi_error, const char *call,
                                 const char *what, tilehybrid_status *st, int rank)
{
    tilehybrid_mpi_failed(comm, mpi_error, call, SLB_ERR_MPI, "in scatterlb.h's %s", what);
    return slb__mpi_fail(st, mpi_error, call, rank);
}

/* One collective (tilehybrid_agree): every rank's verdict -- code, and
 * mine's argument, index and MPI error -- and nv values v that must be
 * equal on every rank (names[i] names v[i]).  Afterwards every rank holds
 * the same code and status: the lowest failing rank's, or SLB_ERR_MISMATCH
 * naming the first value that differs. */
static inline int slb__agree(MPI_Comm comm, int code, const tilehybrid_status *mine,
                             const uint64_t *v, const char *const *names, int nv,
                             tilehybrid_status *st)
{
    tilehybrid_verdict w;
    tilehybrid_agreement a;
    int rc, rank = -1;
    w.text[0] = '\0';
    rc = tilehybrid_agree_status(comm, code, mine, v, nv, &w, &a);
    if (rc != MPI_SUCCESS) {
        (void)MPI_Comm_rank(comm, &rank);
        return slb__mpi_abort(comm, rc, a.call, "agreement of the ranks' verdicts (tilehybrid_agree)",
                              st, rank);
    }
    if (a.code != 0)
        return tilehybrid_verdict_status(st, &a, &w, slb__known_arg(&w));
    if (a.index >= 0)
        return tilehybrid_status_set(st, SLB_ERR_MISMATCH, names[a.index], -1);
    return SLB_OK;
}

/* ---- plan creation ---- */

/* This rank's own checks of the plan's arguments. */
static inline int slb__plan_check(const slb_plan *pl, MPI_Datatype type, const slb_options *o,
                                  int *ts, tilehybrid_status *lst)
{
    int rc;
    if (pl->n < 0)
        return tilehybrid_status_set(lst, SLB_ERR_ITEMS, "n", -1);
    if (pl->root < 0 || pl->root >= pl->size)
        return tilehybrid_status_set(lst, SLB_ERR_ROOT, "root", -1);
    if (slb_method_name(o->method) == NULL)
        return tilehybrid_status_set(lst, SLB_ERR_METHOD, "opts.method", -1);
    if (o->order != SLB_ORDER_BANDWIDTH && o->order != SLB_ORDER_GIVEN)
        return tilehybrid_status_set(lst, SLB_ERR_METHOD, "opts.order", -1);
    if (type == MPI_DATATYPE_NULL)
        return tilehybrid_status_set(lst, SLB_ERR_ARG, "type", -1);
    rc = MPI_Type_size(type, ts);
    if (rc != MPI_SUCCESS)
        return slb__mpi_fail(lst, rc, "MPI_Type_size", pl->rank);
    return SLB_OK;
}

/* Shared front of plan creation: this rank's verdict (local, lst: e.g. on
 * its costs) and its checks, agreed with the values every rank must share. */
static inline int slb__plan_start(slb_plan *pl, MPI_Comm comm, int root, int64_t n,
                                  MPI_Datatype type, const slb_options *opts, int local,
                                  tilehybrid_status *lst, slb_options *o, tilehybrid_status *st)
{
    static const char *const names[6] = {"n",           "root",       "type",
                                          "opts.method", "opts.order", "opts.large_count"};
    uint64_t v[6];
    int ts = 0, rc;
    slb__plan_zero(pl);
    *o = opts ? *opts : slb_options_default();
    if (comm == MPI_COMM_NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "comm", -1);
    if ((rc = MPI_Comm_size(comm, &pl->size)) != MPI_SUCCESS)
        return slb__mpi_abort(comm, rc, "MPI_Comm_size", "plan creation, on comm", st, -1);
    if ((rc = MPI_Comm_rank(comm, &pl->rank)) != MPI_SUCCESS)
        return slb__mpi_abort(comm, rc, "MPI_Comm_rank", "plan creation, on comm", st, -1);
    pl->comm = comm;
    pl->type = type;
    pl->root = root;
    pl->n = n;
    pl->method = o->method;
    pl->policy = o->order;
    if (local == SLB_OK)
        local = slb__plan_check(pl, type, o, &ts, lst);
    v[0] = (uint64_t)n;
    v[1] = (uint64_t)(int64_t)root;
    v[2] = (uint64_t)(int64_t)ts;
    v[3] = (uint64_t)(int64_t)o->method;
    v[4] = (uint64_t)(int64_t)o->order;
    v[5] = (uint64_t)(int64_t)o->large_count;
    return slb__agree(comm, local, lst, v, names, 6, st);
}

/* Solve at the root for a problem indexed by rank. */
static inline int slb__plan_solve(const slb_problem *pb, int64_t n, int root,
                                  const slb_options *o, int64_t *ord, int64_t *cnt, double *fin,
                                  double *mk, tilehybrid_status *lst)
{
    slb_info in;
    int64_t r, t = 0;
    int rc = SLB_OK;
    slb__info_reset(&in);
    if (o->order == SLB_ORDER_BANDWIDTH) {
        rc = slb_order_bandwidth(pb, n, root, ord, lst);
    } else {
        for (r = 0; r < pb->p; r++)
            if (r != root)
                ord[t++] = r;
        ord[pb->p - 1] = root;
    }
    if (rc == SLB_OK)
        rc = slb_solve(pb, n, ord, o->method, cnt, fin, &in, lst);
    *mk = in.makespan;
    return rc;
}

/* The root's solution, broadcast (msg: 2 size int64, dmsg: 1 + size
 * doubles), becomes the plan's order, counts, displacements and finish
 * times on every rank. */
static inline int slb__plan_share(slb_plan *pl, int64_t *msg, double *dmsg, const int64_t *ord,
                                  const int64_t *cnt, const double *fin, double mk,
                                  tilehybrid_status *st)
{
    int64_t r, size = pl->size, sum = 0;
    int rc, rc2;
    if (pl->rank == pl->root) {
        for (r = 0; r < size; r++) {
            msg[r] = ord[r];
            msg[size + r] = cnt[r];
            dmsg[1 + r] = fin[r];
        }
        dmsg[0] = mk;
    }
    /* both broadcasts even if the first fails here: every rank must make
     * the same collective calls, in the same order, up to the agreement */
    rc = MPI_Bcast(msg, (int)(2 * size), MPI_INT64_T, pl->root, pl->comm);
    rc2 = MPI_Bcast(dmsg, (int)(1 + size), MPI_DOUBLE, pl->root, pl->comm);
    if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS)
        return slb__mpi_abort(pl->comm, rc != MPI_SUCCESS ? rc : rc2, "MPI_Bcast",
                              "plan creation, broadcasting the root's plan", st, pl->rank);
    pl->makespan = dmsg[0];
    for (r = 0; r < size; r++) {
        pl->order[r] = (int)msg[r];
        pl->counts[r] = msg[size + r];
        pl->finish[r] = dmsg[1 + r];
        pl->displs[r] = sum;
        sum += pl->counts[r];
    }
    return SLB_OK;
}

/* Large counts or not, the byte size, and the transfer communicator: comm
 * itself when its rank order (the root's own copy is local, wherever it
 * sits) is the sending order.  Every rank decides the same. */
static inline int slb__plan_layout(slb_plan *pl, int allow_large, tilehybrid_status *st)
{
    int64_t r, t, bytes, pos = 0;
    int rc, ts = 0, given = 1, local = SLB_OK;
    pl->large = allow_large == 2 && SLB__LARGE;
    if (pl->n > INT_MAX) { /* n and the type's size: the same on every rank */
        if (!allow_large || !SLB__LARGE)
            return tilehybrid_status_set(st, SLB_ERR_INT, "n", -1);
        pl->large = 1;
    }
    /* a failure of this local call is agreed on after the collective split */
    rc = MPI_Type_size(pl->type, &ts);
    if (rc != MPI_SUCCESS)
        local = slb__mpi_fail(st, rc, "MPI_Type_size", pl->rank);
    else if (!tilehybrid_mul_ok(pl->n, ts, &bytes))
        return tilehybrid_status_set(st, SLB_ERR_OVERFLOW, "n", -1);
    for (r = 0, t = 0; r < pl->size; r++) {
        if (pl->order[r] == pl->rank)
            pos = r;
        if (r != pl->root && pl->order[t++] != r)
            given = 0;
    }
    pl->xfer_root = pl->root;
    if (!given) {
        rc = MPI_Comm_split(pl->comm, 0, (int)pos, &pl->ordered);
        if (rc != MPI_SUCCESS)
            return slb__mpi_abort(pl->comm, rc, "MPI_Comm_split",
                                  "plan creation, ordering the ranks", st, pl->rank);
        pl->xfer_root = pl->size - 1;
    }
    return local;
}

/* Entry r of the transfer arrays: count c and displacement d, as
 * MPI_Count and MPI_Aint for a large plan, else as int. */
static inline void slb__xfer_set(slb_plan *pl, int64_t r, int64_t c, int64_t d)
{
#if SLB__LARGE
    if (pl->large) {
        ((MPI_Count *)pl->xcounts)[r] = (MPI_Count)c;
        ((MPI_Aint *)pl->xdispls)[r] = (MPI_Aint)d;
        return;
    }
#endif
    ((int *)pl->xcounts)[r] = (int)c;
    ((int *)pl->xdispls)[r] = (int)d;
}

/* Counts and displacements in transfer-rank order, for the v-collectives
 * (local: an allocation may fail on one rank). */
static inline int slb__plan_xfer(slb_plan *pl, tilehybrid_status *lst)
{
    int64_t r, size = pl->size;
    int direct = pl->ordered == MPI_COMM_NULL;
    size_t csize = sizeof(int), dsize = sizeof(int);
#if SLB__LARGE
    if (pl->large) {
        csize = sizeof(MPI_Count);
        dsize = sizeof(MPI_Aint);
    }
#endif
    pl->xcounts = slb__alloc(size, csize);
    pl->xdispls = slb__alloc(size, dsize);
    if (pl->xcounts == NULL || pl->xdispls == NULL)
        return tilehybrid_status_set(lst, SLB_ERR_NOMEM, "", -1);
    for (r = 0; r < size; r++) {
        int64_t w = direct ? r : pl->order[r];
        slb__xfer_set(pl, r, pl->counts[w], pl->displs[w]);
    }
    return SLB_OK;
}

/* The common second half of plan creation: agree on every rank's verdict
 * (local, lst; the root's includes its solve), share the root's solution,
 * build the layout and the transfer arrays.  Each collective step is
 * followed by an agreement, so that an MPI call or an allocation that fails
 * on one rank never leaves the others waiting in the next collective. */
static inline int slb__plan_finish(slb_plan *pl, int local, tilehybrid_status *lst,
                                   const int64_t *ord, const int64_t *cnt, const double *fin,
                                   double mk, int allow_large, tilehybrid_status *st)
{
    int64_t size = pl->size;
    int64_t *msg = (int64_t *)slb__alloc(2 * size, sizeof(int64_t));
    double *dmsg = (double *)slb__alloc(1 + size, sizeof(double));
    int rc;
    pl->counts = (int64_t *)slb__alloc(size, sizeof(int64_t));
    pl->displs = (int64_t *)slb__alloc(size, sizeof(int64_t));
    pl->order = (int *)slb__alloc(size, sizeof(int));
    pl->finish = (double *)slb__alloc(size, sizeof(double));
    /* allocation failures are local: agree before any rooted collective */
    if (local == SLB_OK &&
        !(msg && dmsg && pl->counts && pl->displs && pl->order && pl->finish))
        local = tilehybrid_status_set(lst, SLB_ERR_NOMEM, "", -1);
    rc = slb__agree(pl->comm, local, lst, NULL, NULL, 0, st);
    if (rc == SLB_OK) {
        local = slb__plan_share(pl, msg, dmsg, ord, cnt, fin, mk, lst);
        rc = slb__agree(pl->comm, local, lst, NULL, NULL, 0, st);
    }
    if (rc == SLB_OK) {
        local = slb__plan_layout(pl, allow_large, lst);
        if (local == SLB_OK)
            local = slb__plan_xfer(pl, lst);
        rc = slb__agree(pl->comm, local, lst, NULL, NULL, 0, st);
    }
    TILEHYBRID_FREE(msg);
    TILEHYBRID_FREE(dmsg);
    return rc;
}

/* The root's arrays for its solution. */
static inline int slb__root_arrays(int64_t size, int64_t **ord, int64_t **cnt, double **fin)
{
    *ord = (int64_t *)slb__alloc(size, sizeof(int64_t));
    *cnt = (int64_t *)slb__alloc(size, sizeof(int64_t));
    *fin = (double *)slb__alloc(size, sizeof(double));
    return *ord != NULL && *cnt != NULL && *fin != NULL;
}

/* The end of plan creation: the second half (slb__plan_finish) where the
 * start succeeded (rc), the root's arrays freed, and the plan freed where
 * it failed.  Returns the code of the plan's creation. */
static inline int slb__plan_end(slb_plan *plan, int rc, int local, tilehybrid_status *lst,
                                int64_t *ord, int64_t *cnt, double *fin, double mk,
                                int allow_large, tilehybrid_status *st)
{
    if (rc == SLB_OK)
        rc = slb__plan_finish(plan, local, lst, ord, cnt, fin, mk, allow_large, st);
    TILEHYBRID_FREE(ord);
    TILEHYBRID_FREE(cnt);
    TILEHYBRID_FREE(fin);
    if (rc != SLB_OK)
        slb_plan_free(plan);
    return rc;
}

/* This rank's affine costs, checked, as four doubles. */
static inline int slb__mine_check(const slb_affine *mine, double *mc, tilehybrid_status *lst)
{
    slb_problem one;
    slb__ok(lst);
    if (mine == NULL)
        return tilehybrid_status_set(lst, SLB_ERR_ARG, "mine", -1);
    one = slb_problem_affine(1, mine);
    if (slb__check_affine(&one, lst) != SLB_OK)
        return tilehybrid_status_set(lst, lst->code, "mine", -1);
    mc[0] = mine->comp0;
    mc[1] = mine->mu;
    mc[2] = mine->comm0;
    mc[3] = mine->lambda;
    return SLB_OK;
}

/* slb_plan_create_costs() (gather 0: pb, significant at the root) and
 * slb_plan_create() (gather 1: every rank's mine, gathered at the root) in
 * one: the agreement on the arguments, the root's solve, the shared plan. */
static inline int slb__plan_create(MPI_Comm comm, int root, int64_t n, MPI_Datatype type,
                                   const slb_problem *pb, const slb_affine *mine, int gather,
                                   const slb_options *opts, slb_plan *plan,
                                   tilehybrid_status *st)
{
    slb_options o;
    slb_plan scratch;
    tilehybrid_status lst;
    slb_affine *all = NULL;
    double mc[4] = {0, 0, 0, 0}, *fin = NULL, mk = 0;
    int64_t *ord = NULL, *cnt = NULL;
    int rc, local, mrc;
    slb__ok(st);
    slb__ok(&lst);
    local = gather ? slb__mine_check(mine, mc, &lst) : SLB_OK;
    if (plan == NULL) { /* agreed like any argument: the others are on their way in */
        local = tilehybrid_status_set(&lst, SLB_ERR_ARG, "plan", -1);
        plan = &scratch;
    }
    rc = slb__plan_start(plan, comm, root, n, type, opts, local, &lst, &o, st);
    if (rc == SLB_OK && plan->rank == root) {
        if (gather)
            all = (slb_affine *)slb__alloc(plan->size, sizeof(slb_affine));
        if ((gather && all == NULL) || !slb__root_arrays(plan->size, &ord, &cnt, &fin))
            local = tilehybrid_status_set(&lst, SLB_ERR_NOMEM, "", -1);
        else if (!gather && (pb == NULL || pb->p != plan->size)) /* one processor per rank */
            local = tilehybrid_status_set(&lst, SLB_ERR_ARG, "pb", -1);
    }
    /* the root's allocation must succeed before the rooted gather */
    if (gather && rc == SLB_OK)
        rc = slb__agree(comm, local, &lst, NULL, NULL, 0, st);
    if (gather && rc == SLB_OK) { /* slb_affine is four doubles */
        mrc = MPI_Gather(mc, 4, MPI_DOUBLE, all, 4, MPI_DOUBLE, root, comm);
        if (mrc != MPI_SUCCESS)
            local = slb__mpi_abort(comm, mrc, "MPI_Gather", "slb_plan_create(), gathering "
                                   "the ranks' costs", &lst, plan->rank);
    }
    if (rc == SLB_OK && local == SLB_OK && plan->rank == root) {
        slb_problem gathered;
        if (gather) {
            gathered = slb_problem_affine(plan->size, all);
            pb = &gathered;
        }
        local = slb__plan_solve(pb, n, root, &o, ord, cnt, fin, &mk, &lst);
        if (gather && local != SLB_OK && strcmp(lst.arg, "pb") == 0)
            lst.arg = "mine"; /* processor i's costs: rank i's mine */
    }
    TILEHYBRID_FREE(all);
    return slb__plan_end(plan, rc, local, &lst, ord, cnt, fin, mk, o.large_count, st);
}

/**
 * slb_plan_create_costs() - a plan from costs known at the root only.
 * @comm: the communicator; every rank calls.
 * @root: the rank that holds the items.
 * @n:    number of items (the same on every rank).
 * @type: item datatype (the same size on every rank).
 * @pb:   significant at root only: the costs of every rank (processor i =
 *        rank i of comm, pb->p == size), Tcomm being from root.
 * @opts: NULL for slb_options_default().
 * @plan: out: the plan, the same on every rank; release with
 *        slb_plan_free().  After an error it holds nothing.
 * @st:   out (may be NULL): the argument at fault, its index (a processor
 *        for the root's solve) and the rank that found it.
 *
 * Collective; one agreement on the arguments before anything rooted
 * happens, so bad or inconsistent arguments never hang: a NULL @plan too
 * (SLB_ERR_ARG naming "plan" and the rank, on every rank).  Only
 * MPI_COMM_NULL @comm is reported on this rank alone (it is not in the
 * collective).
 * Return: the same code on every rank: SLB_OK, SLB_ERR_MISMATCH (st names
 * the value that differs: "n", "root", "type", "opts.method", ...),
 * SLB_ERR_ROOT, SLB_ERR_ITEMS, SLB_ERR_METHOD, SLB_ERR_ARG, SLB_ERR_INT,
 * the codes of slb_exact(), SLB_ERR_NOMEM, or SLB_ERR_MPI when the type's
 * size cannot be read.  An MPI call that fails on one rank ends the job
 * (see ERRORS in the top comment).
 */
static inline int slb_plan_create_costs(MPI_Comm comm, int root, int64_t n, MPI_Datatype type,
                                        const slb_problem *pb, const slb_options *opts,
                                        slb_plan *plan, tilehybrid_status *st)
{
    return slb__plan_create(comm, root, n, type, pb, NULL, 0, opts, plan, st);
}

/**
 * slb_plan_create() - a plan from every rank's own affine costs.
 * @comm, @root, @n, @type, @opts, @plan: as for slb_plan_create_costs().
 * @mine: this rank's costs: comp0, mu (computing), comm0, lambda
 *        (receiving from root; the root's own are usually 0).
 * @st:   out (may be NULL): as for slb_plan_create_costs(); invalid costs
 *        on a rank give SLB_ERR_COST naming "mine" and that rank.
 *
 * Collective: gathers the costs at the root, solves there, shares the plan.
 * Return: as for slb_plan_create_costs(), the same code on every rank.
 */
static inline int slb_plan_create(MPI_Comm comm, int root, int64_t n, MPI_Datatype type,
                                  const slb_affine *mine, const slb_options *opts,
                                  slb_plan *plan, tilehybrid_status *st)
{
    return slb__plan_create(comm, root, n, type, NULL, mine, 1, opts, plan, st);
}

/* ---- scatter and gather ---- */

static inline MPI_Comm slb__xcomm(const slb_plan *plan)
{
    return plan->ordered != MPI_COMM_NULL ? plan->ordered : plan->comm;
}

/**
 * slb_plan_scatterv() - scatter with a plan, by MPI_Scatterv.
 * @plan:    a plan from slb_plan_create() or slb_plan_create_costs().
 * @sendbuf: at the root: the n items (significant at the root only).
 * @recvbuf: room for plan->counts[plan->rank] items (may be NULL if 0).
 * @st:      out (may be NULL): on error, the argument; for SLB_ERR_MPI the
 *           failed MPI call (st->arg) and its code (st->mpi_error).
 *
 * MPI_Scatterv (MPI_Scatterv_c for large counts) over the transfer
 * communicator, so the root serves the ranks in plan->order as far as the
 * MPI library serialises its sends (see WHICH SCATTER).  Collective.
 * Return: SLB_OK, SLB_ERR_ARG (no plan) or SLB_ERR_MPI.  Unlike the plan
 * functions, the data movers add no agreement: an MPI error comes back on
 * the ranks where MPI reported it (MPI's default error handler aborts),
 * and the other ranks may wait forever: on SLB_ERR_MPI, end the job.
 */
static inline int slb_plan_scatterv(const slb_plan *plan, const void *sendbuf, void *recvbuf,
                                    tilehybrid_status *st)
{
    const char *call;
    int rc;
    slb__ok(st);
    if (plan == NULL || plan->counts == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "plan", -1);
    call = plan->large ? "MPI_Scatterv_c" : "MPI_Scatterv"; /* large: 0 without MPI-4 */
#if SLB__LARGE
    if (plan->large)
        rc = MPI_Scatterv_c(sendbuf, (const MPI_Count *)plan->xcounts,
                            (const MPI_Aint *)plan->xdispls, plan->type, recvbuf,
                            (MPI_Count)plan->counts[plan->rank], plan->type, plan->xfer_root,
                            slb__xcomm(plan));
    else
#endif
        rc = MPI_Scatterv(sendbuf, (const int *)plan->xcounts, (const int *)plan->xdispls,
                          plan->type, recvbuf, (int)plan->counts[plan->rank], plan->type,
                          plan->xfer_root, slb__xcomm(plan));
    return rc == MPI_SUCCESS ? SLB_OK : slb__mpi_fail(st, rc, call, plan->rank);
}

/* One point-to-point transfer of the ordered scatter (blocking). */
static inline int slb__p2p(const slb_plan *plan, int send, const void *sbuf, void *rbuf,
                           int64_t count, int peer)
{
#if SLB__LARGE
    if (plan->large)
        return send ? MPI_Send_c(sbuf, (MPI_Count)count, plan->type, peer,
                                 TILEHYBRID_TAG_SCATTER, plan->comm)
                    : MPI_Recv_c(rbuf, (MPI_Count)count, plan->type, peer,
                                 TILEHYBRID_TAG_SCATTER, plan->comm, MPI_STATUS_IGNORE);
#endif
    return send ? MPI_Send(sbuf, (int)count, plan->type, peer, TILEHYBRID_TAG_SCATTER,
                           plan->comm)
                : MPI_Recv(rbuf, (int)count, plan->type, peer, TILEHYBRID_TAG_SCATTER,
                           plan->comm, MPI_STATUS_IGNORE);
}

/* The root's own share: a copy through MPI (any datatype). */
static inline int slb__self_copy(const slb_plan *plan, const void *from, void *to)
{
    int64_t c = plan->counts[plan->root];
#if SLB__LARGE
    if (plan->large)
        return MPI_Sendrecv_c(from, (MPI_Count)c, plan->type, plan->root, TILEHYBRID_TAG_SCATTER,
                              to, (MPI_Count)c, plan->type, plan->root, TILEHYBRID_TAG_SCATTER,
                              plan->comm, MPI_STATUS_IGNORE);
#endif
    return MPI_Sendrecv(from, (int)c, plan->type, plan->root, TILEHYBRID_TAG_SCATTER, to, (int)c,
                        plan->type, plan->root, TILEHYBRID_TAG_SCATTER, plan->comm,
                        MPI_STATUS_IGNORE);
}

/**
 * slb_plan_scatter_ordered() - scatter with a plan, the root's sends one
 * after another in the plan's order.
 * @plan:    a plan from slb_plan_create() or slb_plan_create_costs().
 * @sendbuf: at the root: the n items (significant at the root only).
 * @recvbuf: room for plan->counts[plan->rank] items (may be NULL if 0).
 * @st:      out (may be NULL): on error, the argument; for SLB_ERR_MPI the
 *           failed MPI call (st->arg) and its code (st->mpi_error).
 *
 * The root sends each rank its items with a blocking MPI_Send (MPI_Send_c
 * for large counts) in plan->order, ranks with no item skipped, and copies
 * its own share last, as eq. 1 models and the paper's MPICH-G2 did; every
 * other rank receives with one MPI_Recv.  The result is the same as
 * slb_plan_scatterv()'s, bitwise.  Point to point on plan->comm with tag
 * TILEHYBRID_TAG_SCATTER: no receive with that tag or MPI_ANY_TAG may be
 * pending on that communicator meanwhile.  Collective in effect (every
 * rank calls); see WHICH SCATTER for when to prefer it.
 * Return: SLB_OK, SLB_ERR_ARG (no plan) or SLB_ERR_MPI.  Unlike the plan
 * functions, the data movers add no agreement: an MPI error comes back on
 * the ranks where MPI reported it (MPI's default error handler aborts),
 * and the other ranks may wait forever: on SLB_ERR_MPI, end the job.
 */
static inline int slb_plan_scatter_ordered(const slb_plan *plan, const void *sendbuf,
                                           void *recvbuf, tilehybrid_status *st)
{
    MPI_Aint lb = 0, ext = 0;
    const char *call = "MPI_Type_get_extent";
    int k, rc;
    slb__ok(st);
    if (plan == NULL || plan->counts == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "plan", -1);
    rc = MPI_Type_get_extent(plan->type, &lb, &ext);
    if (plan->rank != plan->root) {
        if (rc == MPI_SUCCESS && plan->counts[plan->rank] > 0) {
            call = plan->large ? "MPI_Recv_c" : "MPI_Recv";
            rc = slb__p2p(plan, 0, NULL, recvbuf, plan->counts[plan->rank], plan->root);
        }
    } else {
        for (k = 0; k < plan->size - 1 && rc == MPI_SUCCESS; k++) {
            int r = plan->order[k];
            call = plan->large ? "MPI_Send_c" : "MPI_Send";
            if (plan->counts[r] > 0)
                rc = slb__p2p(plan, 1, (const char *)sendbuf + plan->displs[r] * (int64_t)ext,
                              NULL, plan->counts[r], r);
        }
        if (rc == MPI_SUCCESS && plan->counts[plan->root] > 0) {
            call = plan->large ? "MPI_Sendrecv_c" : "MPI_Sendrecv";
            rc = slb__self_copy(plan,
                                (const char *)sendbuf + plan->displs[plan->root] * (int64_t)ext,
                                recvbuf);
        }
    }
    return rc == MPI_SUCCESS ? SLB_OK : slb__mpi_fail(st, rc, call, plan->rank);
}

/**
 * slb_gatherv_type() - the matching gather, with another datatype.
 * @plan:    the plan of the scatter.
 * @sendbuf: plan->counts[rank] elements of type (one result per item this
 *           rank received).
 * @type:    their datatype (the same size on every rank).
 * @recvbuf: at the root: room for n elements of type, in the scatter's
 *           layout (the result of item i at index i).
 * @st:      out (may be NULL): on error, the argument; for SLB_ERR_MPI the
 *           failed MPI call (st->arg) and its code (st->mpi_error).
 *
 * Collective (MPI_Gatherv or MPI_Gatherv_c over the transfer communicator).
 * Return: SLB_OK, SLB_ERR_ARG or SLB_ERR_MPI (where MPI reported it, as
 * for slb_plan_scatterv()).
 */
static inline int slb_gatherv_type(const slb_plan *plan, const void *sendbuf, MPI_Datatype type,
                                   void *recvbuf, tilehybrid_status *st)
{
    const char *call;
    int rc;
    slb__ok(st);
    if (plan == NULL || plan->counts == NULL || type == MPI_DATATYPE_NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, plan == NULL || plan->counts == NULL
                                                          ? "plan" : "type", -1);
    call = plan->large ? "MPI_Gatherv_c" : "MPI_Gatherv";
#if SLB__LARGE
    if (plan->large)
        rc = MPI_Gatherv_c(sendbuf, (MPI_Count)plan->counts[plan->rank], type, recvbuf,
                           (const MPI_Count *)plan->xcounts, (const MPI_Aint *)plan->xdispls,
                           type, plan->xfer_root, slb__xcomm(plan));
    else
#endif
        rc = MPI_Gatherv(sendbuf, (int)plan->counts[plan->rank], type, recvbuf,
                         (const int *)plan->xcounts, (const int *)plan->xdispls, type,
                         plan->xfer_root, slb__xcomm(plan));
    return rc == MPI_SUCCESS ? SLB_OK : slb__mpi_fail(st, rc, call, plan->rank);
}

/**
 * slb_gatherv() - the matching gather of items of the plan's datatype.
 * @plan:    the plan of the scatter.
 * @sendbuf: this rank's plan->counts[rank] items.
 * @recvbuf: at the root: room for the n items, in the scatter's layout.
 * @st:      out (may be NULL): on error, the argument; for SLB_ERR_MPI the
 *           failed MPI call (st->arg) and its code (st->mpi_error).
 *
 * Collective.
 * Return: SLB_OK, SLB_ERR_ARG or SLB_ERR_MPI (where MPI reported it, as
 * for slb_plan_scatterv()).
 */
static inline int slb_gatherv(const slb_plan *plan, const void *sendbuf, void *recvbuf,
                              tilehybrid_status *st)
{
    if (plan == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "plan", -1);
    return slb_gatherv_type(plan, sendbuf, plan->type, recvbuf, st);
}

/**
 * slb_scatterv() - plan, check the receive buffers, scatter: one call.
 * @sendbuf: at the root: the n items (NULL at the root with n > 0:
 *           SLB_ERR_ARG naming "sendbuf" and the root, on every rank).
 * @n, @type, @root, @comm, @mine, @opts: as for slb_plan_create().
 * @recvbuf: room for recvcap items.
 * @recvcap: capacity of recvbuf in items (checked on every rank).
 * @plan:    out: keep it for slb_gatherv(), then slb_plan_free().
 * @st:      out (may be NULL): as for slb_plan_create(); SLB_ERR_CAPACITY
 *           names "recvcap" (or "recvbuf") and the rank.
 *
 * Collective; scatters with slb_plan_scatterv().  On SLB_ERR_CAPACITY the
 * plan stays valid (size your buffer from it); free it in any case.  An
 * MPI call that fails on one rank, in the plan's creation or in the
 * scatter itself, cannot be agreed on: that rank reports it and ends the
 * job (tilehybrid_mpi_failed(), see ERRORS in the top comment), unlike
 * slb_plan_scatterv() alone, which returns SLB_ERR_MPI to its caller.
 * Return: the same code on every rank: SLB_OK, SLB_ERR_CAPACITY,
 * SLB_ERR_ARG (sendbuf) or a code of slb_plan_create(); SLB_ERR_MPI (on that rank) only if MPI_Abort
 * returns.
 */
static inline int slb_scatterv(const void *sendbuf, int64_t n, MPI_Datatype type, void *recvbuf,
                               int64_t recvcap, int root, MPI_Comm comm, const slb_affine *mine,
                               const slb_options *opts, slb_plan *plan, tilehybrid_status *st)
{
    tilehybrid_status lst;
    int64_t c;
    int rc = slb_plan_create(comm, root, n, type, mine, opts, plan, st), local = SLB_OK;
    if (rc != SLB_OK)
        return rc;
    c = plan->counts[plan->rank];
    if (c > recvcap)
        local = tilehybrid_status_set(&lst, SLB_ERR_CAPACITY, "recvcap", -1);
    else if (recvbuf == NULL && c > 0)
        local = tilehybrid_status_set(&lst, SLB_ERR_CAPACITY, "recvbuf", -1);
    else if (plan->rank == plan->root && sendbuf == NULL && n > 0)
        local = tilehybrid_status_set(&lst, SLB_ERR_ARG, "sendbuf", -1);
    rc = slb__agree(comm, local, &lst, NULL, NULL, 0, st);
    if (rc != SLB_OK)
        return rc;
    rc = slb_plan_scatterv(plan, sendbuf, recvbuf, &lst);
    if (rc == SLB_ERR_MPI)  /* this rank's alone: the others would wait forever */
        return slb__mpi_abort(comm, lst.mpi_error,
                              plan->large ? "MPI_Scatterv_c" : "MPI_Scatterv",
                              "slb_scatterv(), scattering the items", st, plan->rank);
    if (st != NULL)
        *st = lst;
    return rc;
}

/* ---- calibration ---- */

/**
 * typedef slb_work_fn - per-item work to be timed by the calibration.
 *
 * Process count items of a representative sample (count <= the sample
 * size you gave).
 */
typedef void (*slb_work_fn)(void *ctx, int64_t count);

/* Seconds of every timing window of the calibrations (a measurement repeats
 * the work or the transfer until the window is full, so that timer
 * resolution and scheduler time slices average out). */
#ifndef SLB_CALIBRATE_SECONDS
#define SLB_CALIBRATE_SECONDS 0.02
#endif

/* Seconds a computation calibration aims at, and a transfer calibration
 * for all ranks together: the samples shrink to fit. */
#ifndef SLB_CALIBRATE_BUDGET
#define SLB_CALIBRATE_BUDGET 1.0
#endif

/* Least-squares t = a + b x with a, b >= 0: tilehybrid_fit_affine(), or,
 * when its intercept or slope is negative (or there is no fit), the line
 * through the origin. */
static inline void slb__fit_nonneg(const double *x, const double *t, int m, double *a, double *b)
{
    tilehybrid_fit f;
    if (tilehybrid_fit_affine(x, t, m, &f) == TILEHYBRID_OK && f.intercept >= 0 &&
        f.slope >= 0) {
        *a = f.intercept;
        *b = f.slope;
        return;
    }
    *a = 0;
    *b = tilehybrid_fit_origin(x, t, m, &f) == TILEHYBRID_OK && f.slope > 0 ? f.slope : 0;
}

/* Sample sizes within a time budget: t1 is the time of one item; reps
 * measurements of kmax/4, kmax/2 and kmax items cost about
 * reps * 1.75 kmax t1.  Lower kmax (to 2 at least), and reps to 1 first
 * when kmax would drop below 4, to fit. */
static inline void slb__budget(double t1, double budget, int64_t *kmax, int *reps)
{
    double per = 1.75 * t1, k;
    if (!(per > 0) || (double)*reps * per * (double)*kmax <= budget)
        return;
    k = budget / ((double)*reps * per);
    if (k < 4 && *reps > 1) {
        *reps = 1;
        k = budget / per;
    }
    if (k < 2)
        k = 2;
    if (k < (double)*kmax)
        *kmax = (int64_t)k;
}

/* The i-th of the three sample sizes (kmax/4, kmax/2, kmax, at least 1). */
static inline int64_t slb__cal_size(int64_t kmax, int i)
{
    int64_t k = i == 0 ? kmax / 4 : (i == 1 ? kmax / 2 : kmax);
    return k < 1 ? 1 : k;
}

/* One measurement of the work: repeat work(ctx, k) until the window is
 * full; seconds per call. */
static inline double slb__time_work(slb_work_fn work, void *ctx, int64_t k)
{
    double t0 = MPI_Wtime(), dt;
    long calls = 0;
    do {
        work(ctx, k);
        calls++;
        dt = MPI_Wtime() - t0;
    } while (dt < SLB_CALIBRATE_SECONDS);
    return dt / (double)calls;
}

static inline int slb__cal_compute(slb_work_fn work, void *ctx, int64_t sample, int reps,
                                   double *comp0, double *mu, const char *sname,
                                   tilehybrid_status *st)
{
    double x[3], t[3], t1;
    int64_t kmax = sample;
    int i, r;
    slb__ok(st);
    if (work == NULL || sample < 1 || reps < 1 || comp0 == NULL || mu == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG,
                                     work == NULL   ? "work"
                                     : sample < 1   ? sname
                                     : reps < 1     ? "reps"
                                     : comp0 == NULL ? "comp0"
                                                     : "mu",
                                     -1);
    t1 = MPI_Wtime();
    work(ctx, 1); /* one item: how many fit in the budget? */
    t1 = MPI_Wtime() - t1;
    slb__budget(t1, SLB_CALIBRATE_BUDGET, &kmax, &reps);
    for (i = 0; i < 3; i++) {
        x[i] = (double)slb__cal_size(kmax, i);
        t[i] = -1;
        for (r = 0; r < reps; r++) {
            double dt = slb__time_work(work, ctx, slb__cal_size(kmax, i));
            if (t[i] < 0 || dt < t[i])
                t[i] = dt;
        }
    }
    slb__fit_nonneg(x, t, 3, comp0, mu);
    return SLB_OK;
}

/**
 * slb_calibrate_compute() - measure this process's computation cost.
 * @work:   the per-item work (see slb_work_fn).
 * @ctx:    passed to work.
 * @sample: >= 1: the largest count to time (<= your sample's size).
 * @reps:   >= 1: measurements per size, the best kept.
 * @comp0:  out: the fixed cost (seconds), >= 0.
 * @mu:     out: the cost per item (seconds), >= 0.
 * @st:     out (may be NULL): on error, the argument.
 *
 * Times work(ctx, k) for k = sample/4, sample/2, sample -- each
 * measurement repeats the call until SLB_CALIBRATE_SECONDS have passed,
 * the best of reps measurements is kept -- and fits Tcomp = comp0 + mu*k by
 * least squares (tilehybrid_fit_affine(), clamped to comp0, mu >= 0).  One
 * item is timed first: when the whole would exceed SLB_CALIBRATE_BUDGET,
 * sample (and if need be reps) shrink to fit.  Local (MPI_Wtime only).
 * Return: SLB_OK or SLB_ERR_ARG.
 */
static inline int slb_calibrate_compute(slb_work_fn work, void *ctx, int64_t sample, int reps,
                                        double *comp0, double *mu, tilehybrid_status *st)
{
    return slb__cal_compute(work, ctx, sample, reps, comp0, mu, "sample", st);
}

/* One measurement between the root (leader) and peer: an exchange of bytes
 * sizes the window, the leader sends the count m of timed exchanges, then
 * m exchanges; *t (leader): seconds per exchange. */
static inline int slb__cal_measure(MPI_Comm comm, int peer, int leader, char *buf, int bytes,
                                   double *t, const char **call)
{
    const double window = SLB_CALIBRATE_SECONDS / 4;
    int64_t m = 1, j;
    double dt = 0, sum = 0;
    int rc = tilehybrid_pingpong_ex(comm, peer, leader, buf, bytes, 0, TILEHYBRID_TAG_SCATTER, &dt,
                                    call);
    if (leader) {
        if (dt < window)
            m = dt > 0 ? (int64_t)(window / dt) + 1 : 1000;
        if (m > 1000)
            m = 1000;
        if (rc == MPI_SUCCESS && (rc = MPI_Send(&m, 1, MPI_INT64_T, peer, TILEHYBRID_TAG_SCATTER,
                                                comm)) != MPI_SUCCESS)
            *call = "MPI_Send";
    } else if (rc == MPI_SUCCESS) {
        rc = MPI_Recv(&m, 1, MPI_INT64_T, peer, TILEHYBRID_TAG_SCATTER, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            *call = "MPI_Recv";
    }
    for (j = 0; j < m && rc == MPI_SUCCESS; j++) {
        rc = tilehybrid_pingpong_ex(comm, peer, leader, buf, bytes, 0, TILEHYBRID_TAG_SCATTER, &dt,
                                    call);
        sum += dt;
    }
    *t = sum / (double)m;
    return rc;
}

/* The transfers between the root and rank r, run by both: a probe of the
 * whole sample sizes it to the budget (the leader sends the sizes), then
 * reps measurements of three sizes; the leader fits fit[0] = comm0,
 * fit[1] = lambda.  On an MPI error, *call names the call that failed. */
static inline int slb__cal_pair(MPI_Comm comm, int root, int r, int rank, char *buf,
                                int64_t sample, int ts, int reps, double budget, double *fit,
                                const char **call)
{
    int leader = rank == root, peer = leader ? r : root, i, q, rc;
    int64_t ctl[2] = {0, 0};
    double x[3], t[3], tp = 0;
    rc = tilehybrid_pingpong_ex(comm, peer, leader, buf, (int)(sample * ts), 0,
                                TILEHYBRID_TAG_SCATTER, &tp, call);
    if (leader) {
        int rr = reps;
        ctl[0] = sample;
        slb__budget(tp / (double)sample, budget, &ctl[0], &rr);
        ctl[1] = rr;
        if (rc == MPI_SUCCESS && (rc = MPI_Send(ctl, 2, MPI_INT64_T, peer, TILEHYBRID_TAG_SCATTER,
                                                comm)) != MPI_SUCCESS)
            *call = "MPI_Send";
    } else if (rc == MPI_SUCCESS) {
        rc = MPI_Recv(ctl, 2, MPI_INT64_T, peer, TILEHYBRID_TAG_SCATTER, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            *call = "MPI_Recv";
    }
    for (i = 0; i < 3 && rc == MPI_SUCCESS; i++) {
        int64_t k = slb__cal_size(ctl[0], i);
        x[i] = (double)k;
        t[i] = -1;
        for (q = 0; q < ctl[1] && rc == MPI_SUCCESS; q++) {
            double dt = 0;
            rc = slb__cal_measure(comm, peer, leader, buf, (int)(k * ts), &dt, call);
            if (t[i] < 0 || dt < t[i])
                t[i] = dt;
        }
    }
    if (leader && rc == MPI_SUCCESS)
        slb__fit_nonneg(x, t, 3, &fit[0], &fit[1]);
    return rc;
}

/* This rank's checks of the transfer calibration's arguments. */
static inline int slb__cal_check(int root, int size, MPI_Datatype type, int64_t sample, int reps,
                                 const double *comm0, const double *lambda, int *ts,
                                 const char *sname, tilehybrid_status *lst)
{
    int rc;
    if (comm0 == NULL || lambda == NULL || sample < 1 || reps < 1 || type == MPI_DATATYPE_NULL)
        return tilehybrid_status_set(lst, SLB_ERR_ARG,
                                     comm0 == NULL    ? "comm0"
                                     : lambda == NULL ? "lambda"
                                     : sample < 1     ? sname
                                     : reps < 1       ? "reps"
                                                      : "type",
                                     -1);
    if (root < 0 || root >= size)
        return tilehybrid_status_set(lst, SLB_ERR_ROOT, "root", -1);
    rc = MPI_Type_size(type, ts);
    if (rc != MPI_SUCCESS)
        return slb__mpi_fail(lst, rc, "MPI_Type_size", -1);
    if (sample > INT_MAX / (*ts > 0 ? *ts : 1)) /* one message, in bytes */
        return tilehybrid_status_set(lst, SLB_ERR_INT, sname, -1);
    return SLB_OK;
}

/* Every pair (root, r) in turn; then the root scatters the fits. */
static inline int slb__cal_pairs(MPI_Comm comm, int root, int size, int rank, char *buf,
                                 int64_t sample, int ts, int reps, double *fit, double *mine,
                                 tilehybrid_status *st)
{
    tilehybrid_status lst;
    double budget = SLB_CALIBRATE_BUDGET / (size > 1 ? size - 1 : 1);
    const char *call = "";
    int r, rc = MPI_SUCCESS, local;
    for (r = 0; r < size && rc == MPI_SUCCESS; r++) {
        if (r == root)
            fit[2 * r] = fit[2 * r + 1] = 0;
        else if (rank == root || rank == r)
            rc = slb__cal_pair(comm, root, r, rank, buf, sample, ts, reps, budget, fit + 2 * r,
                               &call);
    }
    local = rc == MPI_SUCCESS ? SLB_OK
                              : slb__mpi_abort(comm, rc, call, "calibration's "
                                               "transfers between the root and a rank", &lst,
                                               rank);
    local = slb__agree(comm, local, &lst, NULL, NULL, 0, st);
    if (local != SLB_OK)
        return local;
    rc = MPI_Scatter(fit, 2, MPI_DOUBLE, mine, 2, MPI_DOUBLE, root, comm);
    local = rc == MPI_SUCCESS ? SLB_OK
                              : slb__mpi_abort(comm, rc, "MPI_Scatter", "calibration, "
                                               "scattering the fits", &lst, rank);
    return slb__agree(comm, local, &lst, NULL, NULL, 0, st); /* the same code everywhere */
}

static inline int slb__cal_comm(MPI_Comm comm, int root, MPI_Datatype type, int64_t sample,
                                int reps, double *comm0, double *lambda, const char *sname,
                                tilehybrid_status *st)
{
    const char *names[4];
    tilehybrid_status lst;
    uint64_t v[4];
    char *buf = NULL;
    double *fit = NULL, mine[2] = {0, 0};
    int size = 0, rank = 0, ts = 0, rc, local;
    slb__ok(st);
    if (comm == MPI_COMM_NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "comm", -1);
    if ((rc = MPI_Comm_size(comm, &size)) != MPI_SUCCESS)
        return slb__mpi_abort(comm, rc, "MPI_Comm_size", "calibration, on comm", st, -1);
    if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
        return slb__mpi_abort(comm, rc, "MPI_Comm_rank", "calibration, on comm", st, -1);
    local = slb__cal_check(root, size, type, sample, reps, comm0, lambda, &ts, sname, &lst);
    if (local == SLB_OK) {
        buf = (char *)slb__alloc(sample * ts, 1);
        fit = (double *)slb__alloc(2 * (int64_t)size, sizeof(double));
        if (buf == NULL || fit == NULL)
            local = tilehybrid_status_set(&lst, SLB_ERR_NOMEM, "", -1);
        else
            memset(buf, 0, (size_t)(sample * ts));
    }
    names[0] = "root";
    names[1] = sname;
    names[2] = "reps";
    names[3] = "type";
    v[0] = (uint64_t)(int64_t)root;
    v[1] = (uint64_t)sample;
    v[2] = (uint64_t)(int64_t)reps;
    v[3] = (uint64_t)(int64_t)ts;
    rc = slb__agree(comm, local, &lst, v, names, 4, st);
    if (rc == SLB_OK)
        rc = slb__cal_pairs(comm, root, size, rank, buf, sample, ts, reps, fit, mine, st);
    if (rc == SLB_OK) {
        *comm0 = mine[0];
        *lambda = mine[1];
    }
    TILEHYBRID_FREE(buf);
    TILEHYBRID_FREE(fit);
    return rc;
}

/**
 * slb_calibrate_comm() - measure the root-to-rank communication costs.
 * @comm:   the communicator; every rank calls.
 * @root:   the rank that will scatter.
 * @type:   the item datatype (timed as its size in bytes).
 * @sample: >= 1: the largest message, in items (sample times the type's
 *          size at most INT_MAX bytes).
 * @reps:   >= 1: measurements per size, the best kept.
 * @comm0:  out on every rank: its own latency (0 at the root).
 * @lambda: out on every rank: its own time per item (0 at the root).
 * @st:     out (may be NULL): the argument at fault and the rank.
 *
 * The root exchanges with every other rank in turn (tilehybrid_pingpong(),
 * tag TILEHYBRID_TAG_SCATTER on comm): messages of sample/4, sample/2 and
 * sample items, each answered by an empty reply; a measurement repeats the
 * exchange to fill a window of SLB_CALIBRATE_SECONDS / 4, the best of reps
 * is kept, and Tcomm = comm0 + lambda*x is fitted per rank (clamped to
 * >= 0).  A first exchange of the whole sample shrinks it (and reps) when
 * the ranks' share of SLB_CALIBRATE_BUDGET would be exceeded.  Collective.
 * Return: the same code on every rank: SLB_OK, SLB_ERR_MISMATCH when root,
 * sample, reps or the datatype size differ, SLB_ERR_ROOT, SLB_ERR_ARG,
 * SLB_ERR_INT, SLB_ERR_NOMEM, or SLB_ERR_MPI when the type's size cannot
 * be read.  An MPI call that fails on one rank (the transfers, the
 * agreements, MPI_Scatter) ends the job: see ERRORS in the top comment.
 */
static inline int slb_calibrate_comm(MPI_Comm comm, int root, MPI_Datatype type, int64_t sample,
                                     int reps, double *comm0, double *lambda,
                                     tilehybrid_status *st)
{
    return slb__cal_comm(comm, root, type, sample, reps, comm0, lambda, "sample", st);
}

/**
 * slb_calibrate() - both calibrations: this rank's affine costs.
 * @comm, @root, @type, @reps: as for slb_calibrate_comm().
 * @work, @ctx:  as for slb_calibrate_compute().
 * @comp_sample: the largest count to time work on.
 * @comm_sample: the largest message, in items.
 * @mine:        out: this rank's comp0, mu, comm0, lambda.
 * @st:          out (may be NULL): the argument at fault ("comp_sample",
 *               "comm_sample", ...) and the rank.
 *
 * slb_calibrate_compute() on every rank, one agreement, then
 * slb_calibrate_comm().  Collective.
 * Return: the same code on every rank (as for slb_calibrate_comm()).
 */
static inline int slb_calibrate(MPI_Comm comm, int root, MPI_Datatype type, slb_work_fn work,
                                void *ctx, int64_t comp_sample, int64_t comm_sample, int reps,
                                slb_affine *mine, tilehybrid_status *st)
{
    tilehybrid_status lst;
    int rc, local;
    slb__ok(st);
    if (comm == MPI_COMM_NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "comm", -1);
    if (mine == NULL)
        local = tilehybrid_status_set(&lst, SLB_ERR_ARG, "mine", -1);
    else
        local = slb__cal_compute(work, ctx, comp_sample, reps, &mine->comp0, &mine->mu,
                                 "comp_sample", &lst);
    rc = slb__agree(comm, local, &lst, NULL, NULL, 0, st);
    if (rc != SLB_OK)
        return rc;
    return slb__cal_comm(comm, root, type, comm_sample, reps, &mine->comm0, &mine->lambda,
                         "comm_sample", st);
}

#endif /* TILEHYBRID_NO_MPI */

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_SCATTERLB_H */
