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
 * API (each function is declared and documented in the part "API" below,
 * src/topology/05-api.h, ahead of the private helpers)
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
