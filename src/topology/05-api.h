/* ------------------------------------------------------------------------ */
/* The API: every public function, declared and documented here.            */

/* The definitions follow the private helpers (names topo__*, 10-helpers.h):
 * 20-api.h, and 30-mpi.h for the MPI ones.  TILEHYBRID__COLD is static
 * inline in a header-only build; under TILEHYBRID_SEPARATE these are
 * external functions, compiled once (tilehybrid.h, "COMPILING THE COLD
 * CODE ONCE").  The public macros: TOPO_VERSION, TOPO_MAX_DIMS and the
 * TOPO_DEFAULT_* cost model (with the types, above), and TOPO_EXPLAIN_SIZE
 * (below, with topo_nest_explain()). */

/* ---- errors ------------------------------------------------------------ */

/**
 * topo_strerror() - a short English explanation of an error code.
 * @err: a value returned by any topo_ function.
 *
 * Return: a static, non-empty string, distinct for every code; one text
 * for every unknown code; never NULL.
 */
TILEHYBRID__COLD const char *topo_strerror(int err);

/* ---- process grids ----------------------------------------------------- */

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
                                  int *dims, tilehybrid_status *status);

/**
 * topo_grid() - topo_grid_ex() without the error detail.
 * @n, @procs, @extent, @dep, @policy, @dims: as for topo_grid_ex().
 *
 * Return: as topo_grid_ex().
 */
TILEHYBRID__COLD int topo_grid(int n, int64_t procs, const int64_t *extent,
                               const int64_t *dep, topo_policy policy, int *dims);

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
                                      tilehybrid_status *status);

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
                                         tilehybrid_status *status);

/**
 * topo_hybrid_grid() - topo_hybrid_grid_ex() without the error detail.
 * @n, @procs, @threads, @extent, @dep, @policy, @dims, @tdims: as for
 *           topo_hybrid_grid_ex().
 *
 * Return: as topo_hybrid_grid_ex().
 */
TILEHYBRID__COLD int topo_hybrid_grid(int n, int64_t procs, int threads,
                                      const int64_t *extent, const int64_t *dep,
                                      topo_policy policy, int *dims, int *tdims);

/* ---- a grid's volumes: the report -------------------------------------- */

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
                                         tilehybrid_status *status);

/**
 * topo_report_grid() - topo_report_grid_ex() without the error detail.
 * @n, @dims, @extent, @zlen, @dep, @out: as for topo_report_grid_ex().
 *
 * Return: as topo_report_grid_ex().
 */
TILEHYBRID__COLD int topo_report_grid(int n, const int *dims,
                                      const int64_t *extent, int64_t zlen,
                                      const int64_t *dep, topo_report *out);

/* ---- the block distribution -------------------------------------------- */

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
                              int64_t *start, int64_t *len);

/* ---- loop nests: extended faces and the time policy -------------------- */

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
                                    tilehybrid_status *status);

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
                                       tilehybrid_status *status);

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
                                    tilehybrid_status *status);

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
 * measures as its bytes sent divided by the element size.  Along a
 * dimension a plan runs downward, tiling.h keeps the upward blocks, so the
 * pipeline's first process holds the last block: when P_i does not divide
 * X_i it sends the volume_sent of X_i cut to P_i floor(X_i / P_i).
 *
 * Return: TOPO_OK or TOPO_ERR_NULL ("dims", "out", "nest") / the nest's
 * errors as topo_nest_grid() / FIXED (a dims entry < 1) / OVERFLOW (as
 * topo_report_grid_ex()) / COST when the predicted time overflows a double
 * (status->arg names the cost at fault: "tcomp", "tstartup", "bandwidth"
 * or "elem_bytes").
 */
TILEHYBRID__COLD int topo_nest_report(const topo_nest *nest, const int *dims,
                                      topo_report *out, tilehybrid_status *status);

/** Bytes that always hold topo_nest_explain()'s sentence and its NUL. */
#define TOPO_EXPLAIN_SIZE 4096

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
                                       tilehybrid_status *status);

/* ---- MPI: the grid as a Cartesian communicator (collective) ------------ */

#ifndef TILEHYBRID_NO_MPI
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
                                         tilehybrid_status *status);

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
                                      int reorder, MPI_Comm *cart, int *dims);

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
                                           tilehybrid_status *status);
#endif /* TILEHYBRID_NO_MPI */
