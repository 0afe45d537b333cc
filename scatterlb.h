/* scatterlb.h -- load-balanced MPI_Scatterv for heterogeneous processors
 *
 * Part of tilehybrid (MIT licence).  Version SLB_VERSION, see the end of this
 * comment for the history.
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
 *   RR-4770 (2003), and performs the scatter with MPI_Scatterv:
 *
 *     slb_exact      the optimal integer distribution, fast (binary search on
 *                    the makespan, see EXACTNESS below): the paper's 817,101
 *                    rays on 16 processors take well under a millisecond;
 *     slb_dp         the paper's Algorithm 2 (dynamic programming, O(p n^2)
 *                    worst case), a reference;
 *     slb_alg1       the paper's Algorithm 1 (O(p n^2), any non-negative
 *                    costs), a reference;
 *     slb_heuristic  the paper's guaranteed heuristic for affine costs: the
 *                    optimal rational distribution (closed form of Theorems 1
 *                    and 2 for linear costs, an exact LP-free search for
 *                    affine ones), rounded so that every share moves by less
 *                    than one item; its makespan is within
 *                    sum_j Tcomm(j,1) + max_i Tcomp(i,1) of the optimum (eq. 4);
 *     slb_uniform    what MPI_Scatter does: n/p each;
 *     slb_order_bandwidth  the paper's ordering policy (Theorem 3): decreasing
 *                    bandwidth to the root (increasing lambda), root last;
 *     slb_choose_root      the choice of the root (Sec. 3.4);
 *     slb_scatterv / slb_gatherv / slb_plan_*   the MPI side: gather the
 *                    costs, compute counts, displacements and the order, build
 *                    a reordered communicator when needed, MPI_Scatterv /
 *                    MPI_Gatherv (MPI-4 large counts beyond INT_MAX);
 *     slb_calibrate*       measure the costs: mu by timing your per-item
 *                    function, lambda and the latency by timing root-to-rank
 *                    transfers (affine least-squares fits);
 *     and slb_solve (method chosen at run time), slb_evaluate (finish times
 *     of any distribution), slb_rational and slb_round (the heuristic's two
 *     halves), slb_gatherv_type (results of another datatype than the items).
 *
 * COST MODEL
 *   Processor i has a computation cost Tcomp(i,x) and a communication cost
 *   Tcomm(i,x) (the time to receive x items from the root), non-negative and,
 *   for every method but slb_alg1, non-decreasing in x.  A processor given no
 *   item costs nothing: Tcomp(i,0) = Tcomm(i,0) = 0.  The root's own share
 *   costs its Tcomm as given (zero in the paper).  Costs come as
 *     - affine:   Tcomp = comp0 + mu*x,  Tcomm = comm0 + lambda*x  (x > 0);
 *     - tables:   row i holds Tcomp(i,1..len) (and Tcomm likewise);
 *     - callbacks double f(void *ctx, int64_t proc, int64_t items), items >= 1,
 *                 deterministic and thread-safe if you share them.
 *   Every time is in one unit of your choice (seconds in the examples).
 *   Processors are numbered 0..p-1; a sending ORDER is an array order[0..p-1]
 *   of processor numbers, order[p-1] being the root; NULL means 0,1,..,p-1.
 *   Output arrays (counts, finish) are indexed by processor number.
 *
 * EXACTNESS
 *   The exact methods (slb_exact, slb_dp, slb_alg1) and slb_evaluate work in
 *   integer time: every cost is rounded to a multiple of a power-of-two tick
 *   tau <= U * 2^-59, U being the time the best single processor needs for
 *   all n items (an upper bound on the optimum whatever the order), and all
 *   sums are exact 64-bit integer sums.  Affine costs stay exactly affine:
 *   comp0, mu, comm0 and lambda are each rounded to whole ticks (for the
 *   paper's instance tau = 2^-48 s = 3.6e-15 s, moving mu by < 1e-12 relative).
 *   Hence the three exact methods return bitwise the same makespan for the
 *   same problem, and the makespan is bitwise the largest finish time.
 *   slb_info.tick reports tau.
 *
 *   How slb_exact works, and why it is exact.  Feasibility of a makespan T
 *   is monotone in T, so we binary-search the smallest feasible T in ticks.
 *   Let F_k(B) be the most items the processors served k-th and later can
 *   finish within a time B counted from the moment the k-th starts
 *   receiving; T is feasible iff F_1(T) >= n, and
 *       F_k(B) = max over e with Tcomm(k,e) + Tcomp(k,e) <= B of
 *                h(e) = e + F_{k+1}(B - Tcomm(k,e)).
 *   (1) Gain bound.  Let theta be the smallest one-item increase of Tcomm
 *   of the processors after k (of Tcomm+Tcomp for the last one).  Taking
 *   items one at a time from the first processor that has some lowers every
 *   finish time by at least theta, so F_{k+1}(B) - F_{k+1}(B-d) <=
 *   ceil(d/theta).  Consequently h(e+1) >= h(e) whenever
 *   Tcomm(k,e+1) - Tcomm(k,e) <= theta: where every further item of k costs
 *   at most theta to send, giving k as many items as fit is optimal.  In
 *   the paper's bandwidth order with linear costs this holds for every
 *   processor, and each test of T is a greedy pass (O(p log n) at most).
 *   (2) Elsewhere (other orders, latencies, tables) the other candidates e
 *   must be explored.  For affine costs each test of T first tries the
 *   greedy path, then sweeps the positions breadth first over states
 *   (items given so far, time left), dropping every state that has neither
 *   more items nor more time than another (Pareto); the candidates e of a
 *   state are those whose linear-relaxation bound e + (B - Tcomm(k,e)) / D
 *   still reaches n (F_{k+1}(B) <= B / D, D from Theorems 1-2 with
 *   comp0 = comm0 = 0).  Near the optimum only a few items around the
 *   greedy choice survive, so a test costs about p times a few states.
 *   For tables and callbacks a depth-first branch and bound uses the gain
 *   bound, e2 + F_{k+1}(B - Tcomm(k,e1)) on an interval [e1,e2] (F is
 *   non-decreasing), and (3) dominance: if processor k costs no more than
 *   the next one for every x, an idle k implies an idle successor (swap
 *   their shares).
 *   (4) In the depth-first search, F_k is a step function of B alone
 *   (neither T nor the path matter): each search records the least budget
 *   increase and decrease that would change one of its decisions; its value
 *   holds on that whole budget interval, which is cached.
 *   (5) For the same reason a failed test at T fails for every T' < T + s:
 *   the bisection jumps there.
 *   The search is exhaustive up to these proofs, so the result is the
 *   optimum; the test suite checks it against Algorithms 1 and 2 and brute
 *   force on thousands of random instances.  Should a search exceed
 *   4 (p+1)(n+1)(log2(n+1)+1) nodes or 2^22 states (adversarial instances:
 *   huge latencies in a bad order), it hands over to Algorithm 2, so the
 *   worst case stays polynomial: O(p n^2) time, 8 p n bytes.
 *   The heuristic computes its rational solution in double precision; its
 *   eq. 4 guarantee holds up to that rounding (the tests allow 1e-9).
 *   Do not compile with -ffast-math (finiteness checks rely on NaN != NaN).
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
 *       int i, rc = slb_order_bandwidth(&pb, 1000, 0, order);
 *       if (rc == SLB_OK)
 *           rc = slb_exact(&pb, 1000, order, counts, finish, &info);
 *       if (rc != SLB_OK) {
 *           fprintf(stderr, "slb: %s\n", slb_strerror(rc));
 *           return 1;
 *       }
 *       for (i = 0; i < 3; i++)
 *           printf("processor %d: %lld items, ends at %.3f s\n", (int)order[i],
 *                  (long long)counts[order[i]], finish[order[i]]);
 *       printf("makespan %.3f s\n", info.makespan);
 *       return 0;
 *   }
 *
 * USAGE (MPI; every rank calls, root holds the n items of sendbuf)
 *
 *   slb_affine mine;                        // this rank's costs
 *   slb_plan plan;
 *   slb_calibrate(MPI_COMM_WORLD, root, MPI_DOUBLE, work, ctx, 1000, 10000,
 *                 5, &mine);                // or fill mine yourself
 *   slb_plan_create(MPI_COMM_WORLD, root, n, MPI_DOUBLE, &mine, NULL, &plan);
 *   local = malloc(plan.counts[plan.rank] * sizeof(double));
 *   slb_plan_scatterv(&plan, items, local);  // rank r gets items
 *   ...                                      // [displs[r], displs[r]+counts[r])
 *   slb_gatherv(&plan, local, items);        // and back, same layout
 *   slb_plan_free(&plan);
 *
 *   Every call returns SLB_OK (0) or a negative code; slb_strerror(code) says
 *   what is wrong, slb_info.bad_proc / bad_items or slb_plan.bad_rank say
 *   where.  Nothing prints, nothing aborts.
 *
 * OPTIONS (#define before including)
 *   TILEHYBRID_NO_MPI       leave out the MPI part; <mpi.h> is not included.
 *   SLB_MALLOC(size), SLB_FREE(ptr)   allocator (both or neither; default
 *                           malloc/free).
 *   SLB_NO_LARGE_COUNT      never use the MPI-4 "_c" large-count calls;
 *                           counts beyond INT_MAX are then rejected
 *                           (SLB_ERR_INT).  The same per plan: slb_options.
 *   SLB_CALIBRATE_SECONDS   length of one calibration timing window
 *                           (default 0.02 s; transfers use a quarter).
 *
 * VERSION HISTORY
 *   0.1.0  first release: exact, Algorithm 1 and 2, heuristic, ordering,
 *          root choice, MPI plan/scatterv/gatherv, calibration.
 */
#ifndef TILEHYBRID_SCATTERLB_H
#define TILEHYBRID_SCATTERLB_H

#define SLB_VERSION "0.1.0"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef TILEHYBRID_NO_MPI
#include <mpi.h>
#endif

#if defined(SLB_MALLOC) != defined(SLB_FREE)
#error "scatterlb.h: define both SLB_MALLOC and SLB_FREE, or neither"
#endif
#ifndef SLB_MALLOC
#define SLB_MALLOC(size) malloc(size)
#define SLB_FREE(ptr) free(ptr)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Codes, options, problem description                                      */
/* ------------------------------------------------------------------------ */

/* Return codes.  SLB_OK is 0, errors are negative. */
enum {
    SLB_OK = 0,
    SLB_ERR_ARG = -1,      /* NULL pointer or invalid enum value */
    SLB_ERR_ITEMS = -2,    /* number of items n < 0 */
    SLB_ERR_NOPROC = -3,   /* no processor (p < 1) */
    SLB_ERR_COST = -4,     /* a cost is negative, NaN or infinite */
    SLB_ERR_MONOTONE = -5, /* a cost decreases when items are added */
    SLB_ERR_TABLE = -6,    /* a cost table is shorter than n */
    SLB_ERR_ORDER = -7,    /* order is not a permutation of 0..p-1 */
    SLB_ERR_ROOT = -8,     /* root outside 0..p-1 (or the communicator) */
    SLB_ERR_OVERFLOW = -9, /* a size does not fit in 64 bits / memory */
    SLB_ERR_INT = -10,     /* a count or displacement exceeds INT_MAX and
                              large counts are unavailable or disabled */
    SLB_ERR_NOMEM = -11,   /* out of memory */
    SLB_ERR_AFFINE = -12,  /* the method needs affine costs */
    SLB_ERR_METHOD = -13,  /* unknown method or order policy */
    SLB_ERR_COUNTS = -14,  /* a distribution has a negative count or does
                              not add up to n */
    SLB_ERR_MISMATCH = -15,/* ranks passed different n, root, datatype
                              size, method or sample sizes */
    SLB_ERR_CAPACITY = -16,/* a receive buffer is smaller than its count */
    SLB_ERR_MPI = -17      /* an MPI call returned an error */
};

/* Methods (slb_solve, slb_options.method). */
enum {
    SLB_METHOD_EXACT = 0,     /* slb_exact */
    SLB_METHOD_HEURISTIC = 1, /* slb_heuristic (affine costs only) */
    SLB_METHOD_UNIFORM = 2,   /* slb_uniform (what MPI_Scatter does) */
    SLB_METHOD_DP = 3,        /* slb_dp, the paper's Algorithm 2 */
    SLB_METHOD_ALG1 = 4       /* slb_alg1, the paper's Algorithm 1 */
};

/* Order policies (slb_options.order). */
enum {
    SLB_ORDER_BANDWIDTH = 0, /* increasing lambda, root last (Theorem 3) */
    SLB_ORDER_GIVEN = 1      /* processor (rank) order, root last */
};

/* Kinds of cost functions (slb_problem.kind). */
enum { SLB_KIND_AFFINE = 1, SLB_KIND_TABLE = 2, SLB_KIND_CALLBACK = 3 };

/* Affine costs of one processor: for x > 0 items,
 *   Tcomp(x) = comp0 + mu * x,   Tcomm(x) = comm0 + lambda * x,
 * and 0 for x = 0.  All four must be finite and >= 0. */
typedef struct slb_affine {
    double comp0;  /* a_i: fixed cost of computing (any x > 0) */
    double mu;     /* mu_i: time to compute one item */
    double comm0;  /* b_i: latency of the message from the root */
    double lambda; /* lambda_i: time to receive one item from the root */
} slb_affine;

/* A cost callback: the time processor proc (0..p-1) needs for items >= 1
 * items.  Must be deterministic; never called with items == 0. */
typedef double (*slb_cost_fn)(void *ctx, int64_t proc, int64_t items);

/* The costs of p processors.  Build it with slb_problem_affine,
 * slb_problem_table or slb_problem_callback; the arrays are not copied and
 * must outlive the calls that use the problem. */
typedef struct slb_problem {
    int kind;                 /* SLB_KIND_* */
    int64_t p;                /* number of processors */
    const slb_affine *affine; /* AFFINE: p entries */
    const double *comp_table; /* TABLE: p rows of table_len values, */
    const double *comm_table; /*   row i, column x-1 = cost of x items */
    int64_t table_len;        /* TABLE: largest x described */
    slb_cost_fn comp, comm;   /* CALLBACK */
    void *ctx;                /* CALLBACK: passed to comp and comm */
} slb_problem;

/* Details filled by the solvers (pass NULL if you do not need them). */
typedef struct slb_info {
    double makespan;        /* max_k T_k of the distribution returned */
    int64_t makespan_ticks; /* the same in ticks (exact integer) */
    double tick;            /* the time quantum tau (see EXACTNESS) */
    double rational;        /* heuristic / rational: makespan of the optimal
                               rational distribution (<= the optimum) */
    double bound;           /* heuristic: eq. 4 bound, sum_j Tcomm(j,1) +
                               max_i Tcomp(i,1): makespan <= optimum + bound */
    int guaranteed;         /* heuristic: 1 when the bound is proven (the
                               rational search completed) */
    int64_t work;           /* search nodes (exact; plus Algorithm 2's
                               iterations if it handed over), inner
                               iterations (dp, alg1), rational search nodes
                               (heuristic) */
    int64_t bad_proc;       /* on error: the processor at fault, else -1 */
    int64_t bad_items;      /* on error: the item count at which its cost is
                               bad, else -1 */
} slb_info;

/* The message for a return code (never NULL). */
static inline const char *slb_strerror(int code)
{
    switch (code) {
    case SLB_OK: return "success";
    case SLB_ERR_ARG: return "invalid argument (NULL pointer or unknown value)";
    case SLB_ERR_ITEMS: return "the number of items n is negative";
    case SLB_ERR_NOPROC: return "no processors (p < 1)";
    case SLB_ERR_COST: return "a cost is negative, NaN or infinite";
    case SLB_ERR_MONOTONE: return "a cost decreases when items are added (costs must be non-decreasing)";
    case SLB_ERR_TABLE: return "a cost table is shorter than the number of items";
    case SLB_ERR_ORDER: return "the order is not a permutation of the processors";
    case SLB_ERR_ROOT: return "the root is not one of the processors (outside the communicator)";
    case SLB_ERR_OVERFLOW: return "a size overflows 64-bit arithmetic";
    case SLB_ERR_INT: return "a count or displacement exceeds INT_MAX and MPI-4 large counts are not available or disabled";
    case SLB_ERR_NOMEM: return "out of memory";
    case SLB_ERR_AFFINE: return "this method needs affine costs";
    case SLB_ERR_METHOD: return "unknown method or order policy";
    case SLB_ERR_COUNTS: return "the counts are negative or do not add up to n";
    case SLB_ERR_MISMATCH: return "collective arguments differ across ranks (n, root, datatype size, method or sizes)";
    case SLB_ERR_CAPACITY: return "a receive buffer is smaller than the count it must hold";
    case SLB_ERR_MPI: return "an MPI call failed";
    default: return "unknown scatterlb error code";
    }
}

/* The name of a method ("exact", "heuristic", "uniform", "dp", "alg1"), or
 * NULL for an unknown value. */
static inline const char *slb_method_name(int method)
{
    switch (method) {
    case SLB_METHOD_EXACT: return "exact";
    case SLB_METHOD_HEURISTIC: return "heuristic";
    case SLB_METHOD_UNIFORM: return "uniform";
    case SLB_METHOD_DP: return "dp";
    case SLB_METHOD_ALG1: return "alg1";
    default: return NULL;
    }
}

/* A problem with affine costs: cost[i] for processor i, 0 <= i < p. */
static inline slb_problem slb_problem_affine(int64_t p, const slb_affine *cost)
{
    slb_problem pb;
    memset(&pb, 0, sizeof pb);
    pb.kind = SLB_KIND_AFFINE;
    pb.p = p;
    pb.affine = cost;
    return pb;
}

/* A problem with tabled costs: comp[i*len + x-1] and comm[i*len + x-1] are
 * the costs of x items (1 <= x <= len) on processor i.  len must be >= the
 * number of items later solved for. */
static inline slb_problem slb_problem_table(int64_t p, int64_t len, const double *comp,
                                            const double *comm)
{
    slb_problem pb;
    memset(&pb, 0, sizeof pb);
    pb.kind = SLB_KIND_TABLE;
    pb.p = p;
    pb.table_len = len;
    pb.comp_table = comp;
    pb.comm_table = comm;
    return pb;
}

/* A problem whose costs are computed by callbacks (see slb_cost_fn). */
static inline slb_problem slb_problem_callback(int64_t p, slb_cost_fn comp, slb_cost_fn comm,
                                               void *ctx)
{
    slb_problem pb;
    memset(&pb, 0, sizeof pb);
    pb.kind = SLB_KIND_CALLBACK;
    pb.p = p;
    pb.comp = comp;
    pb.comm = comm;
    pb.ctx = ctx;
    return pb;
}

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
    info->bad_proc = -1;
    info->bad_items = -1;
}

static inline void slb__info_bad(slb_info *info, int64_t proc, int64_t items)
{
    if (info != NULL) {
        info->bad_proc = proc;
        info->bad_items = items;
    }
}

static inline int slb__finite(double v)
{
    return v == v && v - v == 0.0;
}

/* 2^e as a double, -1022 <= e <= 1023. */
static inline double slb__pow2(int e)
{
    uint64_t bits = (uint64_t)(e + 1023) << 52;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* floor(log2(x)) for a normal x > 0 (-1023 for subnormals). */
static inline int slb__exponent(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return (int)((bits >> 52) & 0x7ff) - 1023;
}

/* Overflow-checked a*b for a, b >= 0. */
static inline int slb__mul_ok(int64_t a, int64_t b, int64_t *out)
{
    if (a < 0 || b < 0)
        return 0;
    if (a != 0 && b > INT64_MAX / a)
        return 0;
    *out = a * b;
    return 1;
}

static inline void *slb__alloc(int64_t count, size_t size)
{
    int64_t bytes;
    if (count < 1)
        count = 1;
    if (!slb__mul_ok(count, (int64_t)size, &bytes) || (uint64_t)bytes > (uint64_t)SIZE_MAX)
        return NULL;
    return SLB_MALLOC((size_t)bytes);
}

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

/* Validate the costs of pb for 0..n items; monotone: also require them
 * non-decreasing. */
static inline int slb__check_costs(const slb_problem *pb, int64_t n, int monotone,
                                   slb_info *info)
{
    int64_t i, x, cells;
    int c;
    switch (pb->kind) {
    case SLB_KIND_AFFINE:
        if (pb->affine == NULL)
            return SLB_ERR_ARG;
        for (i = 0; i < pb->p; i++) {
            const slb_affine *a = &pb->affine[i];
            if (!slb__finite(a->comp0) || !slb__finite(a->mu) || !slb__finite(a->comm0) ||
                !slb__finite(a->lambda) || a->comp0 < 0 || a->mu < 0 || a->comm0 < 0 ||
                a->lambda < 0) {
                slb__info_bad(info, i, -1);
                return SLB_ERR_COST;
            }
        }
        return SLB_OK;
    case SLB_KIND_TABLE:
        if (pb->comp_table == NULL || pb->comm_table == NULL || pb->table_len < 0)
            return SLB_ERR_ARG;
        if (pb->table_len < n)
            return SLB_ERR_TABLE;
        if (!slb__mul_ok(pb->p, pb->table_len, &cells))
            return SLB_ERR_OVERFLOW;
        break;
    case SLB_KIND_CALLBACK:
        if (pb->comp == NULL || pb->comm == NULL)
            return SLB_ERR_ARG;
        break;
    default:
        return SLB_ERR_ARG;
    }
    for (i = 0; i < pb->p; i++) {
        for (c = 0; c < 2; c++) {
            double prev = 0.0;
            for (x = 1; x <= n; x++) {
                double v = slb__costd(pb, i, x, c);
                if (!slb__finite(v) || v < 0) {
                    slb__info_bad(info, i, x);
                    return SLB_ERR_COST;
                }
                if (monotone && v < prev) {
                    slb__info_bad(info, i, x);
                    return SLB_ERR_MONOTONE;
                }
                prev = v;
            }
        }
    }
    return SLB_OK;
}

static inline void slb__model_free(slb__model *m)
{
    SLB_FREE(m->proc);
    SLB_FREE(m->q);
    m->proc = NULL;
    m->q = NULL;
}

/* Check the problem and the order, choose the tick, quantise affine costs. */
static inline int slb__model_init(slb__model *m, const slb_problem *pb, int64_t n,
                                  const int64_t *order, int monotone, slb_info *info)
{
    int64_t p, i, k;
    unsigned char *seen;
    double U;
    int e, rc;
    memset(m, 0, sizeof *m);
    if (pb == NULL)
        return SLB_ERR_ARG;
    p = pb->p;
    if (p < 1)
        return SLB_ERR_NOPROC;
    if (n < 0)
        return SLB_ERR_ITEMS;
    if (n >= SLB__CAP)
        return SLB_ERR_OVERFLOW;
    rc = slb__check_costs(pb, n, monotone, info);
    if (rc != SLB_OK)
        return rc;
    m->pb = pb;
    m->p = p;
    m->n = n;
    m->proc = (int64_t *)slb__alloc(p, sizeof(int64_t));
    seen = (unsigned char *)slb__alloc(p, 1);
    if (m->proc == NULL || seen == NULL) {
        SLB_FREE(seen);
        slb__model_free(m);
        return SLB_ERR_NOMEM;
    }
    memset(seen, 0, (size_t)p);
    for (k = 0; k < p; k++) {
        i = order ? order[k] : k;
        if (i < 0 || i >= p || seen[i]) {
            SLB_FREE(seen);
            slb__model_free(m);
            slb__info_bad(info, k, -1);
            return SLB_ERR_ORDER;
        }
        seen[i] = 1;
        m->proc[k] = i;
    }
    SLB_FREE(seen);
    /* U: the best single processor doing everything -- an upper bound on the
     * optimum whatever the order.  The tick makes U less than 2^60 ticks, so
     * every time that matters is below SLB__CAP = 2^61 and sums of two
     * saturated values cannot overflow. */
    U = 0.0;
    if (n > 0) {
        for (i = 0; i < p; i++) {
            double g = slb__costd(pb, i, n, 1) + slb__costd(pb, i, n, 0);
            if (i == 0 || g < U)
                U = g;
        }
    }
    if (!slb__finite(U)) {
        slb__model_free(m);
        return SLB_ERR_COST;
    }
    e = U > 0.0 ? slb__exponent(U) + 1 - 60 : -1000;
    if (e < -1000)
        e = -1000;
    if (e > 960)
        e = 960;
    m->tick = slb__pow2(e);
    m->scale = slb__pow2(-e);
    if (pb->kind == SLB_KIND_AFFINE) {
        m->q = (int64_t *)slb__alloc(4 * p, sizeof(int64_t));
        if (m->q == NULL) {
            slb__model_free(m);
            return SLB_ERR_NOMEM;
        }
        for (k = 0; k < p; k++) {
            const slb_affine *a = &pb->affine[m->proc[k]];
            m->q[4 * k + 0] = slb__q(m, a->comp0);
            m->q[4 * k + 1] = slb__q(m, a->mu);
            m->q[4 * k + 2] = slb__q(m, a->comm0);
            m->q[4 * k + 3] = slb__q(m, a->lambda);
        }
    }
    if (info != NULL)
        info->tick = m->tick;
    return SLB_OK;
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

/* Copy a distribution by position into the caller's arrays by processor,
 * with finish times and info. */
static inline int slb__output(const slb__model *m, const int64_t *cnt, int64_t *counts,
                              double *finish, slb_info *info)
{
    int64_t k, mk;
    int64_t *fin = (int64_t *)slb__alloc(m->p, sizeof(int64_t));
    if (fin == NULL)
        return SLB_ERR_NOMEM;
    mk = slb__eval(m, cnt, fin);
    for (k = 0; k < m->p; k++) {
        if (counts != NULL)
            counts[m->proc[k]] = cnt[k];
        if (finish != NULL)
            finish[m->proc[k]] = (double)fin[k] * m->tick;
    }
    SLB_FREE(fin);
    if (info != NULL) {
        info->makespan_ticks = mk;
        info->makespan = (double)mk * m->tick;
        info->tick = m->tick;
    }
    return SLB_OK;
}

/* ------------------------------------------------------------------------ */
/* Evaluation, uniform distribution                                         */
/* ------------------------------------------------------------------------ */

/* Finish times and makespan of a given distribution (eq. 1 and 2).
 *   pb      the costs (non-negative; monotonicity is not required)
 *   n       number of items; counts must be >= 0 and add up to n
 *   order   sending order (NULL: 0..p-1), order[p-1] is the root
 *   counts  [p] items per processor
 *   finish  [p] out (may be NULL): T_i per processor, in the costs' unit
 *   info    out (may be NULL): makespan, makespan_ticks, tick
 * Returns SLB_OK or an error (SLB_ERR_COUNTS names the processor in
 * info->bad_proc).  Times are computed in ticks, see EXACTNESS. */
static inline int slb_evaluate(const slb_problem *pb, int64_t n, const int64_t *order,
                               const int64_t *counts, double *finish, slb_info *info)
{
    slb__model m;
    int64_t *cnt;
    int64_t k, sum = 0;
    int rc;
    slb__info_reset(info);
    if (counts == NULL)
        return SLB_ERR_ARG;
    rc = slb__model_init(&m, pb, n, order, 0, info);
    if (rc != SLB_OK)
        return rc;
    cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (cnt == NULL) {
        slb__model_free(&m);
        return SLB_ERR_NOMEM;
    }
    for (k = 0; k < m.p; k++) {
        cnt[k] = counts[m.proc[k]];
        if (cnt[k] < 0 || cnt[k] > n - sum) {
            slb__info_bad(info, m.proc[k], cnt[k]);
            rc = SLB_ERR_COUNTS;
            break;
        }
        sum += cnt[k];
    }
    if (rc == SLB_OK && sum != n)
        rc = SLB_ERR_COUNTS;
    if (rc == SLB_OK)
        rc = slb__output(&m, cnt, NULL, finish, info);
    SLB_FREE(cnt);
    slb__model_free(&m);
    return rc;
}

/* The uniform distribution of MPI_Scatter: n/p items each, the n mod p
 * first processors in the sending order one more.  Arguments and results as
 * for slb_exact. */
static inline int slb_uniform(const slb_problem *pb, int64_t n, const int64_t *order,
                              int64_t *counts, double *finish, slb_info *info)
{
    slb__model m;
    int64_t *cnt;
    int64_t k;
    int rc;
    slb__info_reset(info);
    rc = slb__model_init(&m, pb, n, order, 0, info);
    if (rc != SLB_OK)
        return rc;
    cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (cnt == NULL) {
        slb__model_free(&m);
        return SLB_ERR_NOMEM;
    }
    for (k = 0; k < m.p; k++)
        cnt[k] = n / m.p + (k < n % m.p ? 1 : 0);
    rc = slb__output(&m, cnt, counts, finish, info);
    SLB_FREE(cnt);
    slb__model_free(&m);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The paper's Algorithms 1 and 2 (dynamic programming)                     */
/* ------------------------------------------------------------------------ */

/* Shared driver: cost[d] of the last position, then positions p-2..0. */
static inline int slb__dp(const slb_problem *pb, int64_t n, const int64_t *order,
                          int64_t *counts, double *finish, slb_info *info, int optimized)
{
    slb__model m;
    int64_t *next = NULL, *cur = NULL, *choice = NULL, *cnt = NULL;
    int64_t k, d, e, rows, cells, work = 0;
    int rc;
    slb__info_reset(info);
    rc = slb__model_init(&m, pb, n, order, optimized, info);
    if (rc != SLB_OK)
        return rc;
    rows = m.p - 1;
    if (!slb__mul_ok(rows, n + 1, &cells)) {
        slb__model_free(&m);
        return SLB_ERR_OVERFLOW;
    }
    next = (int64_t *)slb__alloc(n + 1, sizeof(int64_t));
    cur = (int64_t *)slb__alloc(n + 1, sizeof(int64_t));
    choice = (int64_t *)slb__alloc(cells, sizeof(int64_t));
    cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (next == NULL || cur == NULL || choice == NULL || cnt == NULL) {
        rc = SLB_ERR_NOMEM;
        goto out;
    }
    /* lines 1-6: the last processor takes everything that is left */
    for (d = 0; d <= n; d++)
        next[d] = slb__g(&m, m.p - 1, d);
    for (k = m.p - 2; k >= 0; k--) {
        int64_t *ch = choice + k * (n + 1);
        cur[0] = 0;
        ch[0] = 0;
        for (d = 1; d <= n; d++) {
            int64_t sol, mn, mm;
            if (!optimized) {
                /* Algorithm 1, lines 11-18 */
                sol = 0;
                mn = next[d];
                for (e = 1; e <= d; e++) {
                    int64_t t = slb__cost(&m, k, e, 0);
                    mm = slb__sat(slb__cost(&m, k, e, 1), t > next[d - e] ? t : next[d - e]);
                    work++;
                    if (mm < mn) {
                        sol = e;
                        mn = mm;
                    }
                }
            } else {
                /* Algorithm 2, lines 11-35 (Tcomp(k,0) = 0 = cost[0,k+1]) */
                if (next[d] == 0) {
                    sol = 0;
                    mn = 0;
                } else {
                    int64_t emin = 0, emax = d;
                    e = d / 2;
                    while (e != emin) {
                        if (slb__cost(&m, k, e, 0) < next[d - e])
                            emin = e;
                        else
                            emax = e;
                        e = (emin + emax) / 2;
                        work++;
                    }
                    sol = emax;
                    mn = slb__g(&m, k, emax);
                }
                for (e = sol - 1; e >= 0; e--) {
                    mm = slb__sat(slb__cost(&m, k, e, 1), next[d - e]);
                    work++;
                    if (mm < mn) {
                        sol = e;
                        mn = mm;
                    } else if (next[d - e] >= mn) {
                        break;
                    }
                }
            }
            cur[d] = mn;
            ch[d] = sol;
        }
        {
            int64_t *t = next;
            next = cur;
            cur = t;
        }
    }
    d = n;
    for (k = 0; k < m.p - 1; k++) {
        cnt[k] = choice[k * (n + 1) + d];
        d -= cnt[k];
    }
    cnt[m.p - 1] = d;
    rc = slb__output(&m, cnt, counts, finish, info);
    if (info != NULL)
        info->work = work;
out:
    SLB_FREE(next);
    SLB_FREE(cur);
    SLB_FREE(choice);
    SLB_FREE(cnt);
    slb__model_free(&m);
    return rc;
}

/* The paper's Algorithm 1: an optimal distribution by dynamic programming
 * in O(p n^2) time and O(p n) memory, for any non-negative costs (they need
 * not be monotone).  Arguments and results as for slb_exact; info->work
 * counts inner iterations.  A reference: use slb_exact. */
static inline int slb_alg1(const slb_problem *pb, int64_t n, const int64_t *order,
                           int64_t *counts, double *finish, slb_info *info)
{
    return slb__dp(pb, n, order, counts, finish, info, 0);
}

/* The paper's Algorithm 2: Algorithm 1 with the e-loop bounded by a binary
 * search and an early exit, valid for non-decreasing costs; O(p n) to
 * O(p n^2) time, O(p n) memory (8 p n bytes).  Arguments and results as for
 * slb_exact.  Same optimum as slb_exact, bitwise. */
static inline int slb_dp(const slb_problem *pb, int64_t n, const int64_t *order,
                         int64_t *counts, double *finish, slb_info *info)
{
    return slb__dp(pb, n, order, counts, finish, info, 1);
}

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
        SLB_FREE(X->stack);
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

/* Precompute s, th, dom, inv (see EXACTNESS in the header comment). */
static inline void slb__ex_prepare(slb__ex *X)
{
    const slb__model *m = X->m;
    int64_t p = m->p, n = m->n, k, x;
    X->th[p] = SLB__CAP;
    X->inv[p] = 0.0;
    for (k = p - 1; k >= 0; k--) {
        double l, lm;
        if (m->pb->kind != SLB_KIND_AFFINE) {
            X->inv[k] = 1e300;
            continue;
        }
        l = (double)m->q[4 * k + 3];
        lm = l + (double)m->q[4 * k + 1];
        if (lm <= 0.0 || X->inv[k + 1] >= 1e300)
            X->inv[k] = 1e300;
        else if (k == p - 1)
            X->inv[k] = 1.0 / lm;
        else if (l * X->inv[k + 1] < 1.0)
            X->inv[k] = (1.0 - l * X->inv[k + 1]) / lm + X->inv[k + 1];
        else
            X->inv[k] = X->inv[k + 1];
    }
    for (k = p - 1; k >= 0; k--) {
        int64_t th = X->th[k + 1], mc = SLB__CAP, s = 0;
        int last = (k == p - 1);
        if (m->pb->kind == SLB_KIND_AFFINE) {
            const int64_t *q = m->q + 4 * k;
            int64_t first = last ? slb__sat(slb__sat(q[0], q[1]), slb__sat(q[2], q[3]))
                                 : slb__sat(q[2], q[3]);
            int64_t rest = last ? slb__sat(q[1], q[3]) : q[3];
            if (n >= 2)
                mc = first < rest ? first : rest;
            else if (n == 1)
                mc = first;
            if (!last) {
                if (n >= 2 && !slb__safe_step(rest, th))
                    s = n;
                else if (n >= 1 && !slb__safe_step(first, th))
                    s = 1;
            }
        } else {
            int64_t prev = 0;
            for (x = 0; x < n; x++) {
                int64_t c1 = last ? slb__g(m, k, x + 1) : slb__cost(m, k, x + 1, 1);
                int64_t dlt;
                if (c1 >= SLB__CAP)
                    break;
                dlt = c1 - prev;
                if (dlt < mc)
                    mc = dlt;
                if (!last && !slb__safe_step(dlt, th))
                    s = x + 1;
                prev = c1;
            }
        }
        X->s[k] = last ? 0 : s;
        X->th[k] = mc < th ? mc : th;
        X->dom[k] = 0;
        if (!last) {
            if (m->pb->kind == SLB_KIND_AFFINE) {
                const int64_t *q = m->q + 4 * k;
                X->dom[k] = (unsigned char)(q[0] <= q[4] && q[1] <= q[5] && q[2] <= q[6] &&
                                            q[3] <= q[7]);
            } else {
                int ok = 1;
                for (x = 1; x <= n && ok; x++)
                    ok = slb__cost(m, k, x, 0) <= slb__cost(m, k + 1, x, 0) &&
                         slb__cost(m, k, x, 1) <= slb__cost(m, k + 1, x, 1);
                X->dom[k] = (unsigned char)ok;
            }
        }
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

static inline int64_t slb__branch(slb__ex *X, int64_t k, int64_t B, int64_t cap, int64_t u)
{
    const slb__model *m = X->m;
    int64_t cu = slb__cost(m, k, u, 1), th = X->th[k + 1];
    int64_t best, base = X->top;
    int64_t *slot, outer = X->slack, douter = X->dslack, lo, hi, j;
    if (X->memo == NULL) {
        /* first branching level: a cache of about 4 (p+1)(n+1) entries,
         * between 2^8 and 2^16 (at most 2 MiB) */
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
    }
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
    if (best < cap && !X->nomem && !X->over) {
        /* the same search, hence the same value, for budgets in [lo, hi] */
        lo = X->dslack >= B ? 0 : B - X->dslack + 1;
        hi = X->slack >= SLB__CAP - B ? SLB__CAP : B + X->slack - 1;
        if (X->shift[k] < 0) { /* buckets about as wide as this interval */
            int sh = 0;
            while (sh < 62 && ((int64_t)2 << sh) <= hi - lo + 1)
                sh++;
            X->shift[k] = sh;
        }
        /* store it under the (at most 4) buckets nearest to B it covers */
        for (j = -1; j <= 2; j++) {
            int64_t b = (B >> X->shift[k]) + j, blo;
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
        SLB_FREE(X->st);
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
    int64_t p = m->p, n = m->n, k, i, j, lv0, lv1, B, need, u;
    /* 1. the greedy path: most items everywhere (decides loose T at once) */
    B = T;
    need = n;
    for (k = 0; k < p; k++) {
        u = slb__umax(m, k, B, need, NULL, NULL);
        X->cnt[k] = u;
        B -= slb__cost(m, k, u, 1);
        need -= u;
    }
    if (need == 0)
        return 1;
    /* 2. breadth first */
    X->nst = 0;
    if (!slb__st_push(X, 0, T, -1, 0))
        return 0;
    lv0 = 0;
    lv1 = 1;
    for (k = 0; k < p; k++) {
        const int64_t *q = m->q + 4 * k;
        int64_t R = q[3]; /* lambda in ticks */
        int incr = k < p - 1 && (double)R * X->inv[k + 1] < 1.0;
        for (i = lv0; i < lv1; i++) {
            int64_t A = X->st[4 * i], e, lo_e;
            B = X->st[4 * i + 1];
            need = n - A;
            if (need == 0) {
                slb__st_witness(X, i, k, 0);
                return 1;
            }
            u = slb__umax(m, k, B, need, &X->slack, NULL);
            if (k == p - 1) {
                if (u == need) {
                    slb__st_witness(X, i, k, u);
                    return 1;
                }
                continue;
            }
            if (u > 0 && !slb__st_push(X, A + u, B - slb__cost(m, k, u, 1), i, u))
                return 0;
            if (u > 0 && X->s[k] == 0)
                continue; /* every step safe: u beats every smaller e */
            /* unsafe steps below min(s, u): e in [1, min(s, u) - 1] */
            lo_e = (X->s[k] < u ? X->s[k] : u) - 1;
            if (incr) { /* bound increasing in e: from the top down */
                for (e = lo_e; e >= 1; e--) {
                    int64_t Be = B - slb__cost(m, k, e, 1);
                    if (e + slb__linub(X, k + 1, Be) < need) {
                        slb__linub_slack(X, k + 1, Be, need - e - 1);
                        break;
                    }
                    if (!slb__st_push(X, A + e, Be, i, e))
                        return 0;
                }
            } else { /* bound non-increasing: from the bottom up */
                for (e = 1; e <= lo_e; e++) {
                    int64_t Be = B - slb__cost(m, k, e, 1);
                    if (e + slb__linub(X, k + 1, Be) < need) {
                        slb__linub_slack(X, k + 1, Be, need - e - 1);
                        break;
                    }
                    if (!slb__st_push(X, A + e, Be, i, e))
                        return 0;
                }
            }
            /* e = 0 (no latency paid) */
            if (slb__linub(X, k + 1, B) < need)
                slb__linub_slack(X, k + 1, B, need - 1);
            else if (!slb__st_push(X, A, B, i, 0))
                return 0;
            if (X->over)
                return 0;
        }
        if (k == p - 1)
            break;
        /* Pareto: sort the new level by A desc, B desc, keep strict B rises */
        {
            int64_t mlev = X->nst - lv1, kept = 0, bestB = -1, *tmp;
            if (mlev == 0)
                return 0;
            /* X->ord: indices [0, m), merge scratch / survivors [m, 2m),
             * survivor tuples [2m, 6m) */
            if (6 * mlev > X->capord) {
                SLB_FREE(X->ord);
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
        }
        lv0 = lv1;
        lv1 = X->nst;
    }
    return 0;
}

/* slb_exact with a node limit: max_nodes > 0 gives up the search after that
 * many nodes and runs Algorithm 2 instead, 0 never gives up, < 0 uses the
 * default 4 (p+1)(n+1)(log2(n+1)+1). */
static inline int slb__exact(const slb_problem *pb, int64_t n, const int64_t *order,
                             int64_t *counts, double *finish, slb_info *info, int64_t max_nodes)
{
    slb__model m;
    slb__ex X;
    int64_t *wit = NULL;
    int64_t k, kb = 0, lo, hi, gb = 0;
    int rc;
    slb__info_reset(info);
    rc = slb__model_init(&m, pb, n, order, 1, info);
    if (rc != SLB_OK)
        return rc;
    memset(&X, 0, sizeof X);
    X.m = &m;
    if (max_nodes < 0) {
        int64_t lg = 1, t = n + 1;
        while (t > 1) {
            t >>= 1;
            lg++;
        }
        if (!slb__mul_ok(4 * (m.p + 1), n + 1, &max_nodes) ||
            !slb__mul_ok(max_nodes, lg, &max_nodes))
            max_nodes = 0;
    }
    X.limit = max_nodes;
    X.cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    X.s = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    X.th = (int64_t *)slb__alloc(m.p + 1, sizeof(int64_t));
    X.dom = (unsigned char *)slb__alloc(m.p, 1);
    X.inv = (double *)slb__alloc(m.p + 1, sizeof(double));
    wit = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (X.cnt == NULL || X.s == NULL || X.th == NULL || X.dom == NULL || X.inv == NULL ||
        wit == NULL) {
        rc = SLB_ERR_NOMEM;
        goto out;
    }
    slb__ex_prepare(&X);
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
    hi = slb__eval(&m, wit, NULL);
    lo = -1; /* invariant: lo infeasible, hi feasible with witness wit */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2, got;
        X.slack = SLB__CAP;
        X.dslack = SLB__CAP;
        if (pb->kind == SLB_KIND_AFFINE)
            got = slb__bfs(&X, mid) ? n : 0;
        else
            got = slb__absorb(&X, 0, mid, n, 0);
        if (X.nomem) {
            rc = SLB_ERR_NOMEM;
            goto out;
        }
        if (X.over)
            break;
        if (got >= n) {
            memcpy(wit, X.cnt, (size_t)m.p * sizeof(int64_t));
            hi = slb__eval(&m, wit, NULL);
        } else {
            /* the same search, hence the same failure, for every budget
             * below mid + slack: jump to the next event */
            lo = X.slack < hi - mid ? mid + X.slack - 1 : hi - 1;
        }
    }
    if (X.over) {
        /* the search met an unusually hard instance: Algorithm 2 has a
         * polynomial bound and returns the same optimum */
        rc = slb__dp(pb, n, order, counts, finish, info, 1);
        if (rc == SLB_OK && info != NULL)
            info->work += X.nodes;
        goto out;
    }
    rc = slb__output(&m, wit, counts, finish, info);
    if (info != NULL)
        info->work = X.nodes;
out:
    SLB_FREE(X.cnt);
    SLB_FREE(X.s);
    SLB_FREE(X.th);
    SLB_FREE(X.dom);
    SLB_FREE(X.inv);
    SLB_FREE(X.stack);
    SLB_FREE(X.memo);
    SLB_FREE(X.shift);
    SLB_FREE(X.st);
    SLB_FREE(X.ord);
    SLB_FREE(wit);
    slb__model_free(&m);
    return rc;
}

/* An optimal distribution of n items (the smallest makespan), fast.
 *   pb      the costs, non-negative and non-decreasing
 *   n       number of items, >= 0
 *   order   sending order (NULL: 0..p-1), order[p-1] is the root
 *   counts  [p] out (may be NULL): items per processor (by processor number)
 *   finish  [p] out (may be NULL): finish time T_i per processor
 *   info    out (may be NULL): makespan, tick, work (search nodes), and on
 *           error bad_proc / bad_items
 * Returns SLB_OK or an error code.  See EXACTNESS for the method and the
 * proof; the makespan equals slb_alg1's and slb_dp's bitwise.  Should the
 * search exceed 4 (p+1)(n+1)(log2(n+1)+1) nodes or 2^22 states (only seen
 * on adversarial instances) it hands over to Algorithm 2, so the worst case
 * stays O(p n^2) time and 8 p n bytes.  Where several
 * distributions are optimal, any one of them is returned. */
static inline int slb_exact(const slb_problem *pb, int64_t n, const int64_t *order,
                            int64_t *counts, double *finish, slb_info *info)
{
    return slb__exact(pb, n, order, counts, finish, info, -1);
}

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

/* Rational optimum by position; d: 4 doubles per position. */
static inline int slb__rational(int64_t p, const double *d, double n, double *x, double *T,
                                int closed_form, int *guaranteed, int64_t *work)
{
    slb__rat R;
    int64_t k;
    int linear = 1, iter;
    double lo, hi;
    *guaranteed = 1;
    for (k = 0; k < p; k++) {
        x[k] = 0.0;
        if (d[4 * k] != 0.0 || d[4 * k + 2] != 0.0)
            linear = 0;
    }
    if (n <= 0.0) {
        *T = 0.0;
        return SLB_OK;
    }
    /* a processor that costs nothing takes everything at time 0 */
    for (k = 0; k < p; k++) {
        const double *q = d + 4 * k;
        if (q[0] + q[1] + q[2] + q[3] == 0.0) {
            x[k] = n;
            *T = 0.0;
            return SLB_OK;
        }
    }
    if (linear && closed_form) {
        /* Theorems 1 and 2: 1/D_k = (1 - lambda_k/D_{k+1})/(lambda_k+mu_k)
         * + 1/D_{k+1} when lambda_k < D_{k+1}, else processor k is dropped.
         * x[] holds 1/D_k on the way back. */
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
        if (work != NULL)
            *work = p;
        return SLB_OK;
    }
    memset(&R, 0, sizeof R);
    R.p = p;
    R.d = d;
    R.x = x;
    R.limit = 1000000 + 1000 * p;
    R.tol = 1e-11 * n;
    R.th = (double *)slb__alloc(p + 1, sizeof(double));
    R.inv = (double *)slb__alloc(p + 1, sizeof(double));
    R.dom = (unsigned char *)slb__alloc(p, 1);
    R.br = (unsigned char *)slb__alloc(p, 1);
    if (R.th == NULL || R.inv == NULL || R.dom == NULL || R.br == NULL) {
        SLB_FREE(R.th);
        SLB_FREE(R.inv);
        SLB_FREE(R.dom);
        SLB_FREE(R.br);
        return SLB_ERR_NOMEM;
    }
    R.th[p] = 1e300;
    R.inv[p] = 0.0;
    for (k = p - 1; k >= 0; k--) {
        const double *q = d + 4 * k;
        double mc = (k == p - 1) ? q[1] + q[3] : q[3], l = q[3], lm = q[1] + q[3];
        R.th[k] = mc < R.th[k + 1] ? mc : R.th[k + 1];
        /* Theorem 2 recursion on the linear parts (1e300: unbounded) */
        if (lm <= 0.0 || R.inv[k + 1] >= 1e300)
            R.inv[k] = 1e300;
        else if (k == p - 1)
            R.inv[k] = 1.0 / lm;
        else if (l * R.inv[k + 1] < 1.0)
            R.inv[k] = (1.0 - l * R.inv[k + 1]) / lm + R.inv[k + 1];
        else
            R.inv[k] = R.inv[k + 1];
        R.inv[k] *= 1.0 + 1e-12; /* keep it an upper bound despite rounding */
        R.dom[k] = 0;
        R.br[k] = 0;
        if (k < p - 1) {
            R.dom[k] = (unsigned char)(q[0] <= q[4] && q[1] <= q[5] && q[2] <= q[6] &&
                                       q[3] <= q[7]);
            R.br[k] = (unsigned char)!(q[2] == 0.0 && (q[3] == 0.0 || q[3] <= R.th[k + 1]));
        }
    }
    /* bisection on T between 0 and the best single processor */
    hi = -1.0;
    for (k = 0; k < p; k++) {
        const double *q = d + 4 * k;
        double g = q[0] + q[2] + (q[1] + q[3]) * n;
        if (hi < 0 || g < hi)
            hi = g;
    }
    lo = 0.0;
    for (iter = 0; iter < 200 && hi - lo > 1e-15 * hi; iter++) {
        double mid = lo + (hi - lo) / 2;
        if (mid <= lo || mid >= hi)
            break;
        if (slb__rat_rem(&R, 0, mid, n, 0) <= R.tol)
            hi = mid;
        else
            lo = mid;
    }
    (void)slb__rat_rem(&R, 0, hi, n, 0);
    *T = hi;
    *guaranteed = !R.over;
    if (work != NULL)
        *work = R.nodes;
    SLB_FREE(R.th);
    SLB_FREE(R.inv);
    SLB_FREE(R.dom);
    SLB_FREE(R.br);
    return SLB_OK;
}

/* The optimal rational distribution for affine costs (amounts may be
 * fractional), with the zero convention (an idle processor costs nothing).
 *   x     [p] out: amount per processor (indexed by processor), sum n
 *   T     out: its makespan, a lower bound on the integer optimum
 *   info  out (may be NULL): rational (= *T), guaranteed (0 if the search
 *         hit its node limit and fell back to the greedy choice), work
 * Linear costs (comp0 = comm0 = 0) use the closed form of Theorems 1-2
 * (processor k dropped when lambda_k >= D of the processors after it);
 * affine costs a bisection on T with an exact two-candidate search (see
 * slb__rat_rem).  Computed in double precision.  Returns SLB_OK or an
 * error (SLB_ERR_AFFINE for other kinds of costs). */
static inline int slb_rational(const slb_problem *pb, int64_t n, const int64_t *order,
                               double *x, double *T, slb_info *info)
{
    slb__model m;
    double *d = NULL, *xp = NULL;
    int64_t k;
    int rc, guaranteed = 1;
    slb__info_reset(info);
    if (x == NULL || T == NULL || pb == NULL)
        return SLB_ERR_ARG;
    if (pb->kind != SLB_KIND_AFFINE)
        return SLB_ERR_AFFINE;
    rc = slb__model_init(&m, pb, n, order, 1, info);
    if (rc != SLB_OK)
        return rc;
    d = (double *)slb__alloc(4 * m.p, sizeof(double));
    xp = (double *)slb__alloc(m.p, sizeof(double));
    if (d == NULL || xp == NULL) {
        rc = SLB_ERR_NOMEM;
        goto out;
    }
    for (k = 0; k < m.p; k++) {
        const slb_affine *a = &pb->affine[m.proc[k]];
        d[4 * k] = a->comp0;
        d[4 * k + 1] = a->mu;
        d[4 * k + 2] = a->comm0;
        d[4 * k + 3] = a->lambda;
    }
    rc = slb__rational(m.p, d, (double)n, xp, T, 1, &guaranteed, info ? &info->work : NULL);
    if (rc == SLB_OK) {
        for (k = 0; k < m.p; k++)
            x[m.proc[k]] = xp[k];
        if (info != NULL) {
            info->rational = *T;
            info->guaranteed = guaranteed;
        }
    }
out:
    SLB_FREE(d);
    SLB_FREE(xp);
    slb__model_free(&m);
    return rc;
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

/* The paper's rounding scheme (Sec. 3.3): integers counts[i] with
 * |counts[i] - x[i]| < 1 and sum counts = n.  First the x[i] nearest to an
 * integer is rounded to it; then, while the accumulated error is negative
 * (resp. positive), the remaining x[j] nearest to its ceiling (resp. floor)
 * is rounded up (resp. down); the last one cancels the accumulated error.  Integral x[i]
 * (in particular 0) stay as they are.
 *   p       number of values; x [p] >= 0 with sum within 1e-6 (n + p) of n
 * Returns SLB_OK, SLB_ERR_ARG (bad x) or SLB_ERR_NOMEM.  O(p log p). */
static inline int slb_round(int64_t p, const double *x, int64_t n, int64_t *counts)
{
    slb__frac *fr;
    int64_t i, m = 0, lo, hi, sum = 0;
    double err = 0.0, tot = 0.0;
    if (p < 1)
        return SLB_ERR_NOPROC;
    if (x == NULL || counts == NULL || n < 0)
        return SLB_ERR_ARG;
    for (i = 0; i < p; i++) {
        if (!slb__finite(x[i]) || x[i] < -1e-9 || x[i] >= 4e18)
            return SLB_ERR_ARG;
        tot += x[i];
    }
    if (tot - (double)n > 1e-6 * (double)(n + p) || (double)n - tot > 1e-6 * (double)(n + p))
        return SLB_ERR_ARG;
    fr = (slb__frac *)slb__alloc(p, sizeof(slb__frac));
    if (fr == NULL)
        return SLB_ERR_NOMEM;
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
    lo = 0;
    hi = m - 1;
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
    SLB_FREE(fr);
    for (i = 0; i < p; i++)
        sum += counts[i];
    /* floating-point slack only: move the difference onto the largest */
    if (sum != n) {
        int64_t big = 0;
        for (i = 1; i < p; i++)
            if (counts[i] > counts[big])
                big = i;
        counts[big] += n - sum;
        if (counts[big] < 0)
            return SLB_ERR_ARG;
    }
    return SLB_OK;
}

/* The paper's guaranteed heuristic for affine costs: the optimal rational
 * distribution (slb_rational) rounded by slb_round.  Its makespan T' obeys
 * (eq. 4)   T_opt <= T' <= T_opt + sum_j Tcomm(j,1) + max_i Tcomp(i,1),
 * reported in info->bound (info->rational is the rational makespan, a lower
 * bound on T_opt; info->guaranteed is 1 when the rational search was
 * exhaustive, which it always is for linear costs).  O(p log p) for linear
 * costs, O(p) per bisection step otherwise.  Arguments and results as for
 * slb_exact; SLB_ERR_AFFINE for non-affine costs. */
static inline int slb_heuristic(const slb_problem *pb, int64_t n, const int64_t *order,
                                int64_t *counts, double *finish, slb_info *info)
{
    slb__model m;
    double *d = NULL, *xp = NULL;
    int64_t *cnt = NULL;
    int64_t k;
    double T = 0, sumc = 0, maxt = 0;
    int rc, guaranteed = 1;
    int64_t work = 0;
    slb__info_reset(info);
    if (pb != NULL && pb->kind != SLB_KIND_AFFINE)
        return SLB_ERR_AFFINE;
    rc = slb__model_init(&m, pb, n, order, 1, info);
    if (rc != SLB_OK)
        return rc;
    d = (double *)slb__alloc(4 * m.p, sizeof(double));
    xp = (double *)slb__alloc(m.p, sizeof(double));
    cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (d == NULL || xp == NULL || cnt == NULL) {
        rc = SLB_ERR_NOMEM;
        goto out;
    }
    memset(cnt, 0, (size_t)m.p * sizeof(int64_t));
    for (k = 0; k < m.p; k++) {
        const slb_affine *a = &pb->affine[m.proc[k]];
        d[4 * k] = a->comp0;
        d[4 * k + 1] = a->mu;
        d[4 * k + 2] = a->comm0;
        d[4 * k + 3] = a->lambda;
        sumc += a->comm0 + a->lambda;
        if (a->comp0 + a->mu > maxt)
            maxt = a->comp0 + a->mu;
    }
    rc = slb__rational(m.p, d, (double)n, xp, &T, 1, &guaranteed, &work);
    if (rc == SLB_OK)
        rc = slb_round(m.p, xp, n, cnt);
    if (rc == SLB_OK)
        rc = slb__output(&m, cnt, counts, finish, info);
    if (rc == SLB_OK && info != NULL) {
        info->rational = T;
        info->bound = sumc + maxt;
        info->guaranteed = guaranteed;
        info->work = work;
    }
out:
    SLB_FREE(d);
    SLB_FREE(xp);
    SLB_FREE(cnt);
    slb__model_free(&m);
    return rc;
}

/* Solve with a method chosen at run time (SLB_METHOD_*); see the method's
 * own function for arguments and results. */
static inline int slb_solve(const slb_problem *pb, int64_t n, const int64_t *order, int method,
                            int64_t *counts, double *finish, slb_info *info)
{
    switch (method) {
    case SLB_METHOD_EXACT: return slb_exact(pb, n, order, counts, finish, info);
    case SLB_METHOD_HEURISTIC: return slb_heuristic(pb, n, order, counts, finish, info);
    case SLB_METHOD_UNIFORM: return slb_uniform(pb, n, order, counts, finish, info);
    case SLB_METHOD_DP: return slb_dp(pb, n, order, counts, finish, info);
    case SLB_METHOD_ALG1: return slb_alg1(pb, n, order, counts, finish, info);
    default: slb__info_reset(info); return SLB_ERR_METHOD;
    }
}

/* ------------------------------------------------------------------------ */
/* Ordering policy and choice of the root                                   */
/* ------------------------------------------------------------------------ */

/* Sort processors by increasing key (ties by number), root last:
 *   p      number of processors; key [p]; root in 0..p-1
 *   order  [p] out
 * Returns SLB_OK, SLB_ERR_NOPROC, SLB_ERR_ROOT, SLB_ERR_ARG, SLB_ERR_NOMEM. */
static inline int slb_order_by_key(int64_t p, const double *key, int64_t root, int64_t *order)
{
    slb__frac *v;
    int64_t i, m = 0;
    if (p < 1)
        return SLB_ERR_NOPROC;
    if (key == NULL || order == NULL)
        return SLB_ERR_ARG;
    if (root < 0 || root >= p)
        return SLB_ERR_ROOT;
    v = (slb__frac *)slb__alloc(p, sizeof(slb__frac));
    if (v == NULL)
        return SLB_ERR_NOMEM;
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
    SLB_FREE(v);
    return SLB_OK;
}

/* The paper's ordering policy (Theorem 3): the processors in decreasing
 * order of their bandwidth to the root, i.e. increasing time per item
 * (lambda for affine costs, Tcomm(i,n)/n otherwise), the root last.
 *   n      number of items (used for non-affine costs only)
 *   root   processor number of the root
 *   order  [p] out
 * Optimal for linear costs and rational distributions (Theorem 3; the test
 * suite checks it against every permutation).  Returns SLB_OK or an error. */
static inline int slb_order_bandwidth(const slb_problem *pb, int64_t n, int64_t root,
                                      int64_t *order)
{
    double *key;
    int64_t i, x;
    int rc;
    if (pb == NULL || order == NULL)
        return SLB_ERR_ARG;
    if (pb->p < 1)
        return SLB_ERR_NOPROC;
    if (root < 0 || root >= pb->p)
        return SLB_ERR_ROOT;
    rc = slb__check_costs(pb, 0, 0, NULL);
    if (rc != SLB_OK)
        return rc;
    key = (double *)slb__alloc(pb->p, sizeof(double));
    if (key == NULL)
        return SLB_ERR_NOMEM;
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
    rc = slb_order_by_key(pb->p, key, root, order);
    SLB_FREE(key);
    return rc;
}

/* Choice of the root (Sec. 3.4).  The data sit on one machine C; making
 * processor c the root costs move[c] (the time to bring the n items from C
 * to c, 0 for processors on C) plus the makespan with c as root.
 *   p        number of processors (candidates)
 *   cand     [p] problems: cand[c] holds the costs seen from root c (its
 *            Tcomm are transfers from c), all with the same p
 *   move     [p] transfer times from C (may be NULL: all 0)
 *   n, method  as for slb_solve; processors are ordered by
 *            slb_order_bandwidth for each candidate
 *   best     out: the best root; total (may be NULL) [p] out: move[c] +
 *            makespan for every candidate
 * Returns SLB_OK or the first error (info->bad_proc = candidate). */
static inline int slb_choose_root(int64_t p, const slb_problem *cand, const double *move,
                                  int64_t n, int method, int64_t *best, double *total,
                                  slb_info *info)
{
    int64_t *order, *counts;
    int64_t c;
    double bt = 0;
    int rc = SLB_OK;
    slb_info in;
    slb__info_reset(info);
    if (p < 1)
        return SLB_ERR_NOPROC;
    if (cand == NULL || best == NULL)
        return SLB_ERR_ARG;
    order = (int64_t *)slb__alloc(p, sizeof(int64_t));
    counts = (int64_t *)slb__alloc(p, sizeof(int64_t));
    if (order == NULL || counts == NULL) {
        SLB_FREE(order);
        SLB_FREE(counts);
        return SLB_ERR_NOMEM;
    }
    *best = -1;
    for (c = 0; c < p && rc == SLB_OK; c++) {
        double t;
        if (cand[c].p != p) {
            rc = SLB_ERR_ARG;
        } else {
            rc = slb_order_bandwidth(&cand[c], n, c, order);
            if (rc == SLB_OK)
                rc = slb_solve(&cand[c], n, order, method, counts, NULL, &in);
        }
        if (rc != SLB_OK) {
            slb__info_bad(info, c, -1);
            break;
        }
        t = (move ? move[c] : 0.0) + in.makespan;
        if (total != NULL)
            total[c] = t;
        if (*best < 0 || t < bt) {
            bt = t;
            *best = c;
        }
    }
    if (rc == SLB_OK && info != NULL)
        info->makespan = bt;
    SLB_FREE(order);
    SLB_FREE(counts);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* MPI: plans, scatter, gather, calibration                                 */
/* ------------------------------------------------------------------------ */
#ifndef TILEHYBRID_NO_MPI

#if defined(MPI_VERSION) && MPI_VERSION >= 4 && !defined(SLB_NO_LARGE_COUNT)
#define SLB__LARGE 1
#else
#define SLB__LARGE 0
#endif

/* Options of a plan (slb_options_default() gives the defaults). */
typedef struct slb_options {
    int method;      /* SLB_METHOD_* (default SLB_METHOD_EXACT) */
    int order;       /* SLB_ORDER_* (default SLB_ORDER_BANDWIDTH) */
    int large_count; /* 1 (default): counts beyond INT_MAX use the MPI-4
                        large-count calls when available; 0: rejected
                        (SLB_ERR_INT); 2: always use them when available */
} slb_options;

/* The default options: exact, bandwidth order, large counts allowed. */
static inline slb_options slb_options_default(void)
{
    slb_options o;
    o.method = SLB_METHOD_EXACT;
    o.order = SLB_ORDER_BANDWIDTH;
    o.large_count = 1;
    return o;
}

/* A scatter plan: who gets which items, in which order.  Identical on every
 * rank after slb_plan_create; release with slb_plan_free. */
typedef struct slb_plan {
    MPI_Comm comm;       /* the communicator given (not owned) */
    MPI_Comm ordered;    /* owned: comm's processes in sending order, or
                            MPI_COMM_NULL when comm itself is used */
    MPI_Datatype type;   /* item datatype */
    int size, rank;      /* in comm */
    int root;            /* in comm */
    int xfer_root;       /* the root in the transfer communicator */
    int method, policy;  /* options used */
    int large;           /* 1: transfers use the MPI-4 "_c" calls */
    int bad_rank;        /* on error: a rank at fault (or -1) */
    int64_t n;           /* number of items */
    int64_t *counts;     /* [size] items per rank of comm */
    int64_t *displs;     /* [size] first item of each rank: rank r holds
                            items displs[r] .. displs[r]+counts[r]-1 of the
                            root's buffer (ascending with r) */
    int *order;          /* [size] ranks of comm in the order served;
                            order[size-1] == root */
    double *finish;      /* [size] predicted finish time per rank */
    double makespan;     /* predicted makespan */
    void *xcounts;       /* counts and displacements in transfer-rank */
    void *xdispls;       /*   order (int, or MPI_Count / MPI_Aint) */
} slb_plan;

static inline void slb__plan_zero(slb_plan *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->comm = MPI_COMM_NULL;
    pl->ordered = MPI_COMM_NULL;
    pl->type = MPI_DATATYPE_NULL;
    pl->bad_rank = -1;
}

/* Release what a plan owns (the reordered communicator, the arrays).  Safe
 * on a plan that failed to be created or was already freed.  Local. */
static inline void slb_plan_free(slb_plan *pl)
{
    if (pl == NULL)
        return;
    if (pl->ordered != MPI_COMM_NULL)
        (void)MPI_Comm_free(&pl->ordered);
    SLB_FREE(pl->counts);
    SLB_FREE(pl->displs);
    SLB_FREE(pl->order);
    SLB_FREE(pl->finish);
    SLB_FREE(pl->xcounts);
    SLB_FREE(pl->xdispls);
    slb__plan_zero(pl);
}

/* Agree on the arguments: combine a local error code and the values that
 * must be equal on every rank.  Returns the agreed code (same on all). */
static inline int slb__agree(MPI_Comm comm, int local, int rank, int size, const int64_t *v,
                             int nv, int *bad_rank)
{
    int64_t buf[16], out[16];
    int i;
    buf[0] = local;
    buf[1] = local != SLB_OK ? rank : size;
    for (i = 0; i < nv; i++) {
        buf[2 + 2 * i] = v[i];
        buf[3 + 2 * i] = v[i] == INT64_MIN ? INT64_MAX : -v[i];
    }
    if (MPI_Allreduce(buf, out, 2 + 2 * nv, MPI_INT64_T, MPI_MIN, comm) != MPI_SUCCESS)
        return SLB_ERR_MPI;
    if (out[0] != SLB_OK) {
        *bad_rank = (int)out[1];
        return (int)out[0];
    }
    for (i = 0; i < nv; i++)
        if (out[2 + 2 * i] != -out[3 + 2 * i])
            return SLB_ERR_MISMATCH;
    return SLB_OK;
}

/* The common second half of plan creation: root has (or not) solved; share
 * the result, build displacements, the reordered communicator and the
 * transfer arrays. */
static inline int slb__plan_finish(slb_plan *pl, int rc_root, int64_t bad, const int64_t *ord64,
                                   const int64_t *cnt, const double *fin, double mk,
                                   int allow_large)
{
    int64_t *msg;
    double *dmsg;
    int64_t r, sum = 0, size = pl->size;
    int rc = SLB_OK, pos = 0, identity = 1, given = 1, t;
    msg = (int64_t *)slb__alloc(2 + 2 * size, sizeof(int64_t));
    dmsg = (double *)slb__alloc(1 + size, sizeof(double));
    pl->counts = (int64_t *)slb__alloc(size, sizeof(int64_t));
    pl->displs = (int64_t *)slb__alloc(size, sizeof(int64_t));
    pl->order = (int *)slb__alloc(size, sizeof(int));
    pl->finish = (double *)slb__alloc(size, sizeof(double));
    /* allocation failures are local: agree before any rooted collective */
    rc = (msg && dmsg && pl->counts && pl->displs && pl->order && pl->finish) ? SLB_OK
                                                                            : SLB_ERR_NOMEM;
    rc = slb__agree(pl->comm, rc, pl->rank, pl->size, NULL, 0, &pl->bad_rank);
    if (rc != SLB_OK)
        goto out;
    if (pl->rank == pl->root) {
        msg[0] = rc_root;
        msg[1] = bad;
        for (r = 0; r < size; r++) {
            msg[2 + r] = rc_root == SLB_OK ? ord64[r] : 0;
            msg[2 + size + r] = rc_root == SLB_OK ? cnt[r] : 0;
            dmsg[1 + r] = rc_root == SLB_OK ? fin[r] : 0.0;
        }
        dmsg[0] = mk;
    }
    if (MPI_Bcast(msg, (int)(2 + 2 * size), MPI_INT64_T, pl->root, pl->comm) != MPI_SUCCESS ||
        MPI_Bcast(dmsg, (int)(1 + size), MPI_DOUBLE, pl->root, pl->comm) != MPI_SUCCESS) {
        rc = SLB_ERR_MPI;
        goto out;
    }
    if (msg[0] != SLB_OK) {
        rc = (int)msg[0];
        pl->bad_rank = (int)msg[1];
        goto out;
    }
    pl->makespan = dmsg[0];
    for (r = 0; r < size; r++) {
        pl->order[r] = (int)msg[2 + r];
        pl->counts[r] = msg[2 + size + r];
        pl->finish[r] = dmsg[1 + r];
        pl->displs[r] = sum;
        sum += pl->counts[r];
        if (pl->order[r] == pl->rank)
            pos = (int)r;
    }
    /* beyond int? (deterministic: every rank decides the same) */
    pl->large = allow_large == 2 && SLB__LARGE;
    if (pl->n > INT_MAX) {
        if (!allow_large || !SLB__LARGE) {
            rc = SLB_ERR_INT;
            goto out;
        }
        pl->large = 1;
    }
    {
        int64_t bytes;
        int ts;
        if (MPI_Type_size(pl->type, &ts) != MPI_SUCCESS) {
            rc = SLB_ERR_MPI;
            goto out;
        }
        if (!slb__mul_ok(pl->n, ts, &bytes)) {
            rc = SLB_ERR_OVERFLOW;
            goto out;
        }
    }
    /* the transfer communicator: comm itself when its rank order (root's
     * own copy is local, wherever it sits) is the sending order */
    for (r = 0, t = 0; r < size; r++) {
        if (r == pl->root)
            continue;
        if (pl->order[t++] != r)
            given = 0;
    }
    identity = given;
    if (!identity) {
        if (MPI_Comm_split(pl->comm, 0, pos, &pl->ordered) != MPI_SUCCESS) {
            rc = SLB_ERR_MPI;
            goto out;
        }
        pl->xfer_root = (int)size - 1;
    } else {
        pl->xfer_root = pl->root;
    }
#if SLB__LARGE
    if (pl->large) {
        MPI_Count *xc = (MPI_Count *)slb__alloc(size, sizeof(MPI_Count));
        MPI_Aint *xd = (MPI_Aint *)slb__alloc(size, sizeof(MPI_Aint));
        pl->xcounts = xc;
        pl->xdispls = xd;
        if (xc != NULL && xd != NULL) {
            for (r = 0; r < size; r++) {
                int64_t w = identity ? r : pl->order[r];
                xc[r] = (MPI_Count)pl->counts[w];
                xd[r] = (MPI_Aint)pl->displs[w];
            }
        }
    } else
#endif
    {
        int *xc = (int *)slb__alloc(size, sizeof(int));
        int *xd = (int *)slb__alloc(size, sizeof(int));
        pl->xcounts = xc;
        pl->xdispls = xd;
        if (xc != NULL && xd != NULL) {
            for (r = 0; r < size; r++) {
                int64_t w = identity ? r : pl->order[r];
                xc[r] = (int)pl->counts[w];
                xd[r] = (int)pl->displs[w];
            }
        }
    }
    rc = (pl->xcounts != NULL && pl->xdispls != NULL) ? SLB_OK : SLB_ERR_NOMEM;
    rc = slb__agree(pl->comm, rc, pl->rank, pl->size, NULL, 0, &pl->bad_rank);
out:
    SLB_FREE(msg);
    SLB_FREE(dmsg);
    return rc;
}

/* Shared front of plan creation: checks and agreement. */
static inline int slb__plan_start(slb_plan *pl, MPI_Comm comm, int root, int64_t n,
                                  MPI_Datatype type, const slb_options *opts, int local,
                                  slb_options *o)
{
    int64_t v[5];
    int ts = 0, rc;
    slb__plan_zero(pl);
    *o = opts ? *opts : slb_options_default();
    if (comm == MPI_COMM_NULL)
        return SLB_ERR_ARG;
    if (MPI_Comm_size(comm, &pl->size) != MPI_SUCCESS ||
        MPI_Comm_rank(comm, &pl->rank) != MPI_SUCCESS)
        return SLB_ERR_MPI;
    pl->comm = comm;
    pl->type = type;
    pl->root = root;
    pl->n = n;
    pl->method = o->method;
    pl->policy = o->order;
    if (local == SLB_OK && n < 0)
        local = SLB_ERR_ITEMS;
    if (local == SLB_OK && (root < 0 || root >= pl->size))
        local = SLB_ERR_ROOT;
    if (local == SLB_OK && (slb_method_name(o->method) == NULL ||
                            (o->order != SLB_ORDER_BANDWIDTH && o->order != SLB_ORDER_GIVEN)))
        local = SLB_ERR_METHOD;
    if (local == SLB_OK && type == MPI_DATATYPE_NULL)
        local = SLB_ERR_ARG;
    if (local == SLB_OK && MPI_Type_size(type, &ts) != MPI_SUCCESS)
        local = SLB_ERR_MPI;
    v[0] = n;
    v[1] = root;
    v[2] = ts;
    v[3] = o->method * 16 + o->order;
    v[4] = o->large_count;
    rc = slb__agree(comm, local, pl->rank, pl->size, v, 5, &pl->bad_rank);
    return rc;
}

/* Solve at root for a problem indexed by rank. */
static inline int slb__plan_solve(const slb_problem *pb, int64_t n, int root, const slb_options *o,
                                  int64_t *ord, int64_t *cnt, double *fin, double *mk,
                                  int64_t *bad)
{
    slb_info in;
    int64_t r;
    int rc = SLB_OK;
    slb__info_reset(&in);
    if (o->order == SLB_ORDER_BANDWIDTH) {
        rc = slb_order_bandwidth(pb, n, root, ord);
    } else {
        int64_t t = 0;
        for (r = 0; r < pb->p; r++)
            if (r != root)
                ord[t++] = r;
        ord[pb->p - 1] = root;
    }
    if (rc == SLB_OK)
        rc = slb_solve(pb, n, ord, o->method, cnt, fin, &in);
    *mk = in.makespan;
    *bad = in.bad_proc;
    return rc;
}

/* Create a plan from costs known at the root only.  Collective over comm.
 *   comm   communicator; root its rank holding the items
 *   n      number of items (same on every rank)
 *   type   item datatype (same size on every rank)
 *   pb     significant at root only: the costs of every rank (processor i =
 *          rank i of comm, pb->p == size, else SLB_ERR_ARG), Tcomm being
 *          from root
 *   opts   NULL for slb_options_default()
 *   plan   out; free with slb_plan_free (also after an error)
 * Returns the same code on every rank: SLB_OK, SLB_ERR_MISMATCH when n,
 * root, the datatype size or the options differ, SLB_ERR_ROOT, ITEMS, COST
 * ..., with plan->bad_rank naming the rank at fault when known. */
static inline int slb_plan_create_costs(MPI_Comm comm, int root, int64_t n, MPI_Datatype type,
                                        const slb_problem *pb, const slb_options *opts,
                                        slb_plan *plan)
{
    slb_options o;
    int64_t *ord = NULL, *cnt = NULL, bad = -1;
    double *fin = NULL, mk = 0;
    int rc, rcr = SLB_OK;
    if (plan == NULL)
        return SLB_ERR_ARG;
    rc = slb__plan_start(plan, comm, root, n, type, opts, SLB_OK, &o);
    if (rc != SLB_OK)
        return rc;
    if (plan->rank == root) {
        ord = (int64_t *)slb__alloc(plan->size, sizeof(int64_t));
        cnt = (int64_t *)slb__alloc(plan->size, sizeof(int64_t));
        fin = (double *)slb__alloc(plan->size, sizeof(double));
        if (ord == NULL || cnt == NULL || fin == NULL)
            rcr = SLB_ERR_NOMEM;
        else if (pb == NULL)
            rcr = SLB_ERR_ARG;
        else if (pb->p != plan->size)
            rcr = SLB_ERR_ARG; /* one processor per rank */
        else
            rcr = slb__plan_solve(pb, n, root, &o, ord, cnt, fin, &mk, &bad);
    }
    rc = slb__plan_finish(plan, rcr, bad, ord, cnt, fin, mk, o.large_count);
    SLB_FREE(ord);
    SLB_FREE(cnt);
    SLB_FREE(fin);
    return rc;
}

/* Create a plan from every rank's own affine costs.  Collective over comm.
 *   mine   this rank's costs: comp0, mu (computing), comm0, lambda
 *          (receiving from root; the root's own is usually 0)
 * Other arguments and results as for slb_plan_create_costs; a rank with
 * invalid costs makes every rank return SLB_ERR_COST with bad_rank set. */
static inline int slb_plan_create(MPI_Comm comm, int root, int64_t n, MPI_Datatype type,
                                  const slb_affine *mine, const slb_options *opts,
                                  slb_plan *plan)
{
    slb_options o;
    slb_affine *all = NULL;
    double mc[4] = {0, 0, 0, 0};
    int64_t *ord = NULL, *cnt = NULL, bad = -1;
    double *fin = NULL, mk = 0;
    int rc, rcr = SLB_OK, local = SLB_OK;
    if (plan == NULL)
        return SLB_ERR_ARG;
    if (mine == NULL) {
        local = SLB_ERR_ARG;
    } else {
        slb_problem one = slb_problem_affine(1, mine);
        local = slb__check_costs(&one, 0, 0, NULL);
        mc[0] = mine->comp0;
        mc[1] = mine->mu;
        mc[2] = mine->comm0;
        mc[3] = mine->lambda;
    }
    rc = slb__plan_start(plan, comm, root, n, type, opts, local, &o);
    if (rc != SLB_OK)
        return rc;
    if (plan->rank == root) {
        all = (slb_affine *)slb__alloc(plan->size, sizeof(slb_affine));
        ord = (int64_t *)slb__alloc(plan->size, sizeof(int64_t));
        cnt = (int64_t *)slb__alloc(plan->size, sizeof(int64_t));
        fin = (double *)slb__alloc(plan->size, sizeof(double));
        if (all == NULL || ord == NULL || cnt == NULL || fin == NULL)
            local = SLB_ERR_NOMEM;
    }
    /* the root's allocation must succeed before the rooted gather */
    rc = slb__agree(comm, local, plan->rank, plan->size, NULL, 0, &plan->bad_rank);
    if (rc == SLB_OK && MPI_Gather(mc, 4, MPI_DOUBLE, all, 4, MPI_DOUBLE, root, comm) !=
                            MPI_SUCCESS) /* slb_affine is four doubles */
        rc = SLB_ERR_MPI;
    if (rc == SLB_OK) {
        if (plan->rank == root) {
            slb_problem pb = slb_problem_affine(plan->size, all);
            rcr = slb__plan_solve(&pb, n, root, &o, ord, cnt, fin, &mk, &bad);
        }
        rc = slb__plan_finish(plan, rcr, bad, ord, cnt, fin, mk, o.large_count);
    }
    SLB_FREE(all);
    SLB_FREE(ord);
    SLB_FREE(cnt);
    SLB_FREE(fin);
    return rc;
}

/* Scatter with a plan: MPI_Scatterv (MPI_Scatterv_c for large counts) over
 * the transfer communicator, so the root serves the ranks in plan->order.
 *   sendbuf  at root: the n items (significant at root only)
 *   recvbuf  room for plan->counts[plan->rank] items (may be NULL if 0)
 * Collective.  Returns SLB_OK, SLB_ERR_ARG (no plan) or SLB_ERR_MPI. */
static inline int slb_plan_scatterv(const slb_plan *plan, const void *sendbuf, void *recvbuf)
{
    MPI_Comm xc;
    int rc;
    if (plan == NULL || plan->counts == NULL)
        return SLB_ERR_ARG;
    xc = plan->ordered != MPI_COMM_NULL ? plan->ordered : plan->comm;
#if SLB__LARGE
    if (plan->large)
        rc = MPI_Scatterv_c(sendbuf, (const MPI_Count *)plan->xcounts,
                            (const MPI_Aint *)plan->xdispls, plan->type, recvbuf,
                            (MPI_Count)plan->counts[plan->rank], plan->type, plan->xfer_root, xc);
    else
#endif
        rc = MPI_Scatterv(sendbuf, (const int *)plan->xcounts, (const int *)plan->xdispls,
                          plan->type, recvbuf, (int)plan->counts[plan->rank], plan->type,
                          plan->xfer_root, xc);
    return rc == MPI_SUCCESS ? SLB_OK : SLB_ERR_MPI;
}

/* The matching gather with another datatype: every rank sends
 * plan->counts[rank] elements of type (one result per item it received),
 * the root receives n of them in recvbuf, in the scatter's layout (the
 * result of item i at index i).  Collective; type must have the same size on
 * every rank.  Returns SLB_OK, SLB_ERR_ARG or SLB_ERR_MPI. */
static inline int slb_gatherv_type(const slb_plan *plan, const void *sendbuf, MPI_Datatype type,
                                   void *recvbuf)
{
    MPI_Comm xc;
    int rc;
    if (plan == NULL || plan->counts == NULL || type == MPI_DATATYPE_NULL)
        return SLB_ERR_ARG;
    xc = plan->ordered != MPI_COMM_NULL ? plan->ordered : plan->comm;
#if SLB__LARGE
    if (plan->large)
        rc = MPI_Gatherv_c(sendbuf, (MPI_Count)plan->counts[plan->rank], type, recvbuf,
                           (const MPI_Count *)plan->xcounts, (const MPI_Aint *)plan->xdispls,
                           type, plan->xfer_root, xc);
    else
#endif
        rc = MPI_Gatherv(sendbuf, (int)plan->counts[plan->rank], type, recvbuf,
                         (const int *)plan->xcounts, (const int *)plan->xdispls, type,
                         plan->xfer_root, xc);
    return rc == MPI_SUCCESS ? SLB_OK : SLB_ERR_MPI;
}

/* The matching gather: every rank sends back its plan->counts[rank] items
 * (of the plan's datatype), the root receives all n items in recvbuf in the
 * scatter's layout.  Collective.  Returns SLB_OK, SLB_ERR_ARG or SLB_ERR_MPI. */
static inline int slb_gatherv(const slb_plan *plan, const void *sendbuf, void *recvbuf)
{
    if (plan == NULL)
        return SLB_ERR_ARG;
    return slb_gatherv_type(plan, sendbuf, plan->type, recvbuf);
}

/* One call: create the plan from every rank's affine costs, check that each
 * rank's buffer is large enough, and scatter.
 *   recvcap  capacity of recvbuf in items (checked on every rank)
 *   plan     out: keep it for slb_gatherv, then slb_plan_free
 * Other arguments as for slb_plan_create and slb_plan_scatterv; the same
 * code on every rank (SLB_ERR_CAPACITY names a rank in plan->bad_rank). */
static inline int slb_scatterv(const void *sendbuf, int64_t n, MPI_Datatype type, void *recvbuf,
                               int64_t recvcap, int root, MPI_Comm comm, const slb_affine *mine,
                               const slb_options *opts, slb_plan *plan)
{
    int rc = slb_plan_create(comm, root, n, type, mine, opts, plan);
    if (rc != SLB_OK)
        return rc;
    rc = plan->counts[plan->rank] <= recvcap && (recvbuf != NULL || plan->counts[plan->rank] == 0)
             ? SLB_OK : SLB_ERR_CAPACITY;
    rc = slb__agree(comm, rc, plan->rank, plan->size, NULL, 0, &plan->bad_rank);
    if (rc != SLB_OK)
        return rc;
    return slb_plan_scatterv(plan, sendbuf, recvbuf);
}

/* Per-item work to be timed by slb_calibrate_compute: process count items
 * of a representative sample (count <= the sample size you gave). */
typedef void (*slb_work_fn)(void *ctx, int64_t count);

/* Least-squares affine fit t = a + b x of m points, a, b >= 0 (a clamped
 * to 0 refits b through the origin). */
static inline void slb__fit(int m, const double *x, const double *t, double *a, double *b)
{
    double sx = 0, st = 0, sxx = 0, sxt = 0, den;
    int i;
    for (i = 0; i < m; i++) {
        sx += x[i];
        st += t[i];
        sxx += x[i] * x[i];
        sxt += x[i] * t[i];
    }
    den = m * sxx - sx * sx;
    if (m >= 2 && den > 0) {
        *b = (m * sxt - sx * st) / den;
        *a = (st - *b * sx) / m;
    } else {
        *a = 0;
        *b = -1;
    }
    if (*a < 0 || *b < 0) {
        *a = 0;
        *b = sxx > 0 ? sxt / sxx : 0;
    }
    if (*b < 0)
        *b = 0;
}

/* Seconds of every timing window of the calibrations (a measurement repeats
 * the work or the transfer until the window is full, so that timer
 * resolution and scheduler time slices average out). */
#ifndef SLB_CALIBRATE_SECONDS
#define SLB_CALIBRATE_SECONDS 0.02
#endif

/* Measure this process's computation cost: times work(ctx, k) for
 * k = sample/4, sample/2, sample -- each measurement repeats the call until
 * SLB_CALIBRATE_SECONDS have passed, the best of reps measurements is kept
 * -- and fits Tcomp = comp0 + mu*k by least squares (comp0, mu >= 0).
 * Local (no communication; MPI_Wtime).
 *   sample >= 1, reps >= 1; comp0, mu out (seconds)
 * Returns SLB_OK or SLB_ERR_ARG. */
static inline int slb_calibrate_compute(slb_work_fn work, void *ctx, int64_t sample, int reps,
                                        double *comp0, double *mu)
{
    double x[3], t[3];
    int i, r;
    if (work == NULL || sample < 1 || reps < 1 || comp0 == NULL || mu == NULL)
        return SLB_ERR_ARG;
    for (i = 0; i < 3; i++) {
        int64_t k = i == 0 ? sample / 4 : (i == 1 ? sample / 2 : sample);
        if (k < 1)
            k = 1;
        x[i] = (double)k;
        t[i] = -1;
        for (r = 0; r < reps; r++) {
            double t0 = MPI_Wtime(), dt;
            long calls = 0;
            do {
                work(ctx, k);
                calls++;
                dt = MPI_Wtime() - t0;
            } while (dt < SLB_CALIBRATE_SECONDS);
            dt /= (double)calls;
            if (t[i] < 0 || dt < t[i])
                t[i] = dt;
        }
    }
    slb__fit(3, x, t, comp0, mu);
    return SLB_OK;
}

/* Measure the root-to-rank communication costs: the root sends messages of
 * sample/4, sample/2 and sample items of type to every other rank in turn,
 * each followed by a 0-byte reply; a measurement repeats the exchange to
 * fill a window of SLB_CALIBRATE_SECONDS / 4, the best of reps is kept, and
 * Tcomm = comm0 + lambda*x is fitted per rank.  Collective over comm (on a
 * duplicate, so your messages are not disturbed).
 *   comm0, lambda  out on every rank: its own values (0 at the root)
 * Returns the same code on every rank (SLB_ERR_MISMATCH if root, sample,
 * reps or the datatype size differ). */
static inline int slb_calibrate_comm(MPI_Comm comm, int root, MPI_Datatype type, int64_t sample,
                                     int reps, double *comm0, double *lambda)
{
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Aint lb = 0, ext = 0;
    int size = 0, rank = 0, ts = 0, bad = -1, rc, local = SLB_OK, i, r, q, j;
    int64_t v[4], bytes = 0;
    char *buf = NULL;
    double *fit = NULL, mine[2] = {0, 0};
    const int tag = 7411;
    if (comm == MPI_COMM_NULL)
        return SLB_ERR_ARG;
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
        return SLB_ERR_MPI;
    if (comm0 == NULL || lambda == NULL || sample < 1 || reps < 1 || type == MPI_DATATYPE_NULL)
        local = SLB_ERR_ARG;
    else if (root < 0 || root >= size)
        local = SLB_ERR_ROOT;
    else if (MPI_Type_size(type, &ts) != MPI_SUCCESS ||
             MPI_Type_get_extent(type, &lb, &ext) != MPI_SUCCESS)
        local = SLB_ERR_MPI;
    else if (sample > INT_MAX || !slb__mul_ok(sample, (int64_t)(ext > ts ? ext : ts), &bytes))
        local = SLB_ERR_OVERFLOW;
    if (local == SLB_OK) {
        buf = (char *)slb__alloc(bytes, 1);
        fit = (double *)slb__alloc(2 * (int64_t)size, sizeof(double));
        if (buf == NULL || fit == NULL)
            local = SLB_ERR_NOMEM;
        else
            memset(buf, 0, (size_t)bytes);
    }
    v[0] = root;
    v[1] = sample;
    v[2] = reps;
    v[3] = ts;
    rc = slb__agree(comm, local, rank, size, v, 4, &bad);
    if (rc == SLB_OK && MPI_Comm_dup(comm, &dup) != MPI_SUCCESS)
        rc = SLB_ERR_MPI;
    for (r = 0; rc == SLB_OK && r < size; r++) {
        double x[3], t[3];
        if (r == root) {
            fit[2 * r] = fit[2 * r + 1] = 0;
            continue;
        }
        for (i = 0; i < 3 && rc == SLB_OK; i++) {
            int k = (int)(i == 0 ? sample / 4 : (i == 1 ? sample / 2 : sample));
            if (k < 1)
                k = 1;
            x[i] = k;
            t[i] = -1;
            for (q = 0; q < reps && rc == SLB_OK; q++) {
                /* one exchange to size the window, then m timed together;
                 * the root tells the partner m first */
                int m = 1;
                if (rank == root) {
                    double t0 = MPI_Wtime(), dt;
                    if (MPI_Send(buf, k, type, r, tag, dup) != MPI_SUCCESS ||
                        MPI_Recv(NULL, 0, MPI_BYTE, r, tag, dup, MPI_STATUS_IGNORE) != MPI_SUCCESS)
                        rc = SLB_ERR_MPI;
                    dt = MPI_Wtime() - t0;
                    if (dt < SLB_CALIBRATE_SECONDS / 4)
                        m = dt > 0 ? (int)(SLB_CALIBRATE_SECONDS / 4 / dt) + 1 : 1000;
                    if (m > 1000)
                        m = 1000;
                    if (rc == SLB_OK && MPI_Send(&m, 1, MPI_INT, r, tag, dup) != MPI_SUCCESS)
                        rc = SLB_ERR_MPI;
                    t0 = MPI_Wtime();
                    for (j = 0; j < m && rc == SLB_OK; j++)
                        if (MPI_Send(buf, k, type, r, tag, dup) != MPI_SUCCESS ||
                            MPI_Recv(NULL, 0, MPI_BYTE, r, tag, dup, MPI_STATUS_IGNORE) !=
                                MPI_SUCCESS)
                            rc = SLB_ERR_MPI;
                    dt = (MPI_Wtime() - t0) / m;
                    if (t[i] < 0 || dt < t[i])
                        t[i] = dt;
                } else if (rank == r) {
                    if (MPI_Recv(buf, k, type, root, tag, dup, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
                        MPI_Send(NULL, 0, MPI_BYTE, root, tag, dup) != MPI_SUCCESS ||
                        MPI_Recv(&m, 1, MPI_INT, root, tag, dup, MPI_STATUS_IGNORE) != MPI_SUCCESS)
                        rc = SLB_ERR_MPI;
                    for (j = 0; j < m && rc == SLB_OK; j++)
                        if (MPI_Recv(buf, k, type, root, tag, dup, MPI_STATUS_IGNORE) !=
                                MPI_SUCCESS ||
                            MPI_Send(NULL, 0, MPI_BYTE, root, tag, dup) != MPI_SUCCESS)
                            rc = SLB_ERR_MPI;
                }
            }
        }
        if (rank == root && rc == SLB_OK)
            slb__fit(3, x, t, &fit[2 * r], &fit[2 * r + 1]);
    }
    if (rc == SLB_OK &&
        MPI_Scatter(fit, 2, MPI_DOUBLE, mine, 2, MPI_DOUBLE, root, dup) != MPI_SUCCESS)
        rc = SLB_ERR_MPI;
    if (rc == SLB_OK) {
        *comm0 = mine[0];
        *lambda = mine[1];
    }
    if (dup != MPI_COMM_NULL)
        (void)MPI_Comm_free(&dup);
    SLB_FREE(buf);
    SLB_FREE(fit);
    return rc;
}

/* Both calibrations: fills mine with this rank's comp0, mu (timing work on
 * up to comp_sample items) and comm0, lambda (transfers of up to
 * comm_sample items of type from root).  Collective; same code everywhere. */
static inline int slb_calibrate(MPI_Comm comm, int root, MPI_Datatype type, slb_work_fn work,
                                void *ctx, int64_t comp_sample, int64_t comm_sample, int reps,
                                slb_affine *mine)
{
    int size = 0, rank = 0, bad = -1, local = SLB_OK, rc;
    if (comm == MPI_COMM_NULL)
        return SLB_ERR_ARG;
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
        return SLB_ERR_MPI;
    if (mine == NULL)
        local = SLB_ERR_ARG;
    else
        local = slb_calibrate_compute(work, ctx, comp_sample, reps, &mine->comp0, &mine->mu);
    rc = slb__agree(comm, local, rank, size, NULL, 0, &bad);
    if (rc != SLB_OK)
        return rc;
    return slb_calibrate_comm(comm, root, type, comm_sample, reps, &mine->comm0, &mine->lambda);
}

#endif /* TILEHYBRID_NO_MPI */

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_SCATTERLB_H */
