/* ------------------------------------------------------------------------ */
/* The API: every public function, declared and documented here             */
/* ------------------------------------------------------------------------ */

/* The definitions follow, all static inline: 10-problems.h, then each
 * solver after its private helpers (names slb__*, 20-costs.h to
 * 60-rational.h), the orders (70-order.h) and the MPI side (80-mpi.h).
 * The public macros: SLB_VERSION (with the types, above), and the
 * switches of the top comment's OPTIONS: SLB_NO_LARGE_COUNT,
 * SLB_CALIBRATE_SECONDS and SLB_CALIBRATE_BUDGET (their defaults are
 * defined with the calibration, 80-mpi.h). */

/* ---- codes and names --------------------------------------------------- */

/**
 * slb_strerror() - the message for a return code.
 * @code: SLB_OK or an SLB_ERR_* code.
 *
 * Return: a static string, never NULL ("unknown scatterlb error code" for
 * other values).
 */
static inline const char *slb_strerror(int code);

/**
 * slb_method_name() - the name of a method.
 * @method: SLB_METHOD_*.
 *
 * Return: "exact", "heuristic" or "uniform", or NULL for an unknown value.
 */
static inline const char *slb_method_name(int method);

/* ---- problems: the costs of p processors ------------------------------- */

/**
 * slb_problem_affine() - a problem with affine costs.
 * @p:    number of processors.
 * @cost: cost[i] for processor i, 0 <= i < p (not copied).
 *
 * Return: the problem (checked when solved).
 */
static inline slb_problem slb_problem_affine(int64_t p, const slb_affine *cost);

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
                                            const double *comm);

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
                                               void *ctx);

/* ---- distributions ----------------------------------------------------- */

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
                            tilehybrid_status *st);

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
                                tilehybrid_status *st);

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
                               double *x, double *T, slb_info *info, tilehybrid_status *st);

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
                            tilehybrid_status *st);

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
                              tilehybrid_status *st);

/**
 * slb_solve() - solve with a method chosen at run time.
 * @pb, @n, @order, @counts, @finish, @info, @st: as for slb_exact().
 * @method: SLB_METHOD_EXACT, SLB_METHOD_HEURISTIC or SLB_METHOD_UNIFORM.
 *
 * Return: the method's code, or SLB_ERR_METHOD (st names "method").
 */
static inline int slb_solve(const slb_problem *pb, int64_t n, const int64_t *order, int method,
                            int64_t *counts, double *finish, slb_info *info,
                            tilehybrid_status *st);

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
                               tilehybrid_status *st);

/* ---- the sending order and the root ------------------------------------ */

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
                                      int64_t *order, tilehybrid_status *st);

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
                                   tilehybrid_status *st);

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
                                  slb_info *info, tilehybrid_status *st);

#ifndef TILEHYBRID_NO_MPI
/* ---- MPI: plans -------------------------------------------------------- */

/**
 * slb_options_default() - the default options.
 *
 * Return: exact, bandwidth order, large counts allowed.
 */
static inline slb_options slb_options_default(void);

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
                                  slb_plan *plan, tilehybrid_status *st);

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
                                        slb_plan *plan, tilehybrid_status *st);

/**
 * slb_plan_free() - release what a plan owns.
 * @pl: the plan (NULL allowed).
 *
 * Frees the reordered communicator and the arrays.  Safe on a plan that
 * failed to be created or was already freed.  Local.
 */
static inline void slb_plan_free(slb_plan *pl);

/* ---- MPI: the data, out and back --------------------------------------- */

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
                                    tilehybrid_status *st);

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
                                           void *recvbuf, tilehybrid_status *st);

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
                              tilehybrid_status *st);

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
                                   void *recvbuf, tilehybrid_status *st);

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
                               const slb_options *opts, slb_plan *plan, tilehybrid_status *st);

/* ---- MPI: calibration, the costs measured ------------------------------ */

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
                                slb_affine *mine, tilehybrid_status *st);

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
                                        double *comp0, double *mu, tilehybrid_status *st);

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
                                     tilehybrid_status *st);
#endif /* TILEHYBRID_NO_MPI */
