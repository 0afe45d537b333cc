/* tiling.h -- tiled, pipelined execution of loop nests with flow
 * dependences: the plan, and the pure MPI model.  Part of tilehybrid (MIT
 * licence), version TILE_VERSION.
 *
 * You have a loop nest over X_1 x ... x X_N x Z whose point update reads
 * only earlier points: along the axes, A(x - a e_i) for 1 <= a <= d_i and
 * A(z - a) for 1 <= a <= d_Z (the widths cfg.dep[], cfg.depz), or any list
 * of constant offsets, diagonals included, each an earlier point of the
 * sequential loop (a declared stencil, tile_config_stencil(), in the loop
 * order cfg.loop_order: a read that is later along some dimension, as
 * Gauss-Seidel in time reads A(i+1, j-1, t-1), makes the plan skew).
 * Write that update once; tiling.h runs it on a grid of MPI processes.
 * Each process owns a block of the X dimensions (the
 * grid comes from topology.h) and walks its column of tiles along Z, tile
 * height z: per tile it sends the boundary of the previous tile to its +dir
 * neighbours (nonblocking), posts receives for the next tile, computes the
 * current one, waits and unpacks (Algorithm 2 of the papers).
 *
 * This header holds what every model shares -- the plan: the process grid,
 * the local block with its ghost layers, the split of the block into thread
 * tiles and their schedule, the storage, the face messages (all of their
 * requests, made once per plan: the persistent ones, and the multiple
 * model's MPI-4 partitioned ones with the calls its step makes on them,
 * tile_post and tile_parted_*) -- and the pure MPI model (TILE_MPI_STEP) --
 * and the calls that move data in and out of a plan (input boxes, gather,
 * exchange, the output hook, exact reductions).  hybrid.h adds the three
 * MPI+OpenMP models' steps on the same plan and the same body; balance.h
 * decides the funneled model's master share.
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
 *         cfg.elem_size = sizeof(double);
 *         cfg.boundary = edge;
 *         if (tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) != TILE_OK) {
 *             if (plan.rank == 0)                    // the same on every rank
 *                 fprintf(stderr, "%s\n", plan.errmsg);
 *             tile_plan_destroy(&plan);
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
 * The API at a glance (each name's kernel-doc is where it is defined; the
 * part of src/tiling/ in brackets):
 *   configure  tile_config_init, tile_config_stencil, tile_config_deps
 *              [10-errors, 60-create]; TILE_MAX_DIMS, TILE_MAX_DEPZ,
 *              TILE_MAX_STENCIL, TILE_MSG_MAX, TILE_HAVE_PARTITIONED,
 *              TILE_VERSION [01-types]
 *   the plan   tile_plan_create, tile_plan_destroy, tile_fp_contracts
 *              [65-plan]; tile_plan_agree [80-runs];
 *              tile_plan_status, tile_strerror, tile_model_name,
 *              tile_model_thread_level [10-errors]; tile_order_name,
 *              tile_order_parse [19-orders]; tile_plane_layout [60-create]
 *   run it     TILE_FOREACH_GROUP, TILE_MPI_STEP, TILE_COMPUTE,
 *              tile_group_init, tile_step_enter, tile_step_leave,
 *              tile_run_start, tile_run_finish, tile_schedule,
 *              tile_comm_begin, tile_comm_end [80-runs]; tile_nsteps
 *              [21-schedule]; tile_wtime, tile_thread_error,
 *              tile_thread_fail, TILE_SIM_FLOPS [11-helpers]
 *   the body   TILE_AT, TILE_THREAD, tile_coord [40-cursor]; tile_reduce,
 *              tile_reduce_u64 [50-reductions]; tile_input,
 *              tile_input_index, tile_input_stride [52-input]
 *   data in    tile_input_box, tile_reach_stencil, tile_stored_zrange,
 *   and out    tile_get, tile_box_points, tile_box_stride, tile_box_index,
 *              tile_box_intersect, tile_box_copy [22-boxes]; TILE_ALL_TILES,
 *              TILE_ROOT_ALL, TILE_MAX_REDUCTIONS [03-data-types];
 *              tile_input_set [52-input]; tile_output_set, tile_output_to
 *              [51-output]; tile_gather, tile_exchange [70-data];
 *              tile_route_create, tile_route_run, tile_route_destroy
 *              [71-route];
 *              tile_reduction_init, tile_reduction_drop [50-reductions]
 *   fields     tile_field_config_init, tile_field_create, tile_field_destroy,
 *              tile_field_at, tile_field_box, tile_field_fill,
 *              tile_field_gather [75-field]
 *   map steps  tile_map_config_init, tile_map_create, tile_map_destroy,
 *              tile_map_agree, TILE_MAP_RUN, TILE_IN, TILE_OUT, TILE_SUM,
 *              tile_map_sums, tile_map_coord, TILE_MAP_MAX_FIELDS,
 *              TILE_MAP_MAX_SUMS [76-map]
 *   sweeps over fields  tile_field_config_plan, tile_field_fits,
 *              tile_field_here, tile_output_to_field [77-field-plan]
 *   checkpoints tile_checkpoint_config_init, tile_checkpoint_create,
 *              tile_checkpoint_due, tile_checkpoint_write,
 *              tile_checkpoint_read, tile_checkpoint_destroy,
 *              TILE_CKPT_WRITE, TILE_CKPT_STOP, TILE_CKPT_EXIT,
 *              TILE_CKPT_MAX_FIELDS, TILE_CKPT_MAX_USER [78-checkpoint]
 *   the exact  tile_xsum_init, tile_xsum_add, tile_xsum_merge,
 *   sum        tile_xsum_round, TILE_XSUM_LIMBS [02-xsum]
 *   the height tile_height_time, tile_height_best, tile_height_efficiency,
 *              tile_height_llc_bytes, tile_height_cache_bytes,
 *              tile_height_tsync_env, tile_height_window_bytes,
 *              tile_height_cache_bound, tile_height_zmax, tile_plane_pairs
 *              [45-height]
 *   messages   tile_thread_box, tile_thread_face, tile_box_bytes
 *   (models)   [21-schedule]; tile_pack [20-storage]; tile_mpi_check,
 *              tile_post, tile_waitall [30-faces]; tile_parted_ready,
 *              tile_parted_arrive, tile_parted_cycle, tile_parted_finish
 *              [35-requests]; tile_part_sends, tile_part_receives,
 *              tile_part_tag, tile_face_message, tile_face_start,
 *              tile_face_tile [85-models]
 *
 * The body
 *   - reads and writes through TILE_AT(type, it, o_1, ..., o_N, o_Z): the
 *     point at offset o from the current one, in the user's coordinates.
 *     With the widths cfg.dep[]/depz, offsets are axis-aligned (at most one
 *     non-zero) with -d_i <= o_i <= 0; with a declared stencil
 *     (cfg.stencil, tile_config_stencil(): "-1,-1,0 0,-1,0 0,0,-1"), they
 *     are its vectors, diagonals included, each an earlier point of the
 *     sequential loop in cfg.loop_order and cfg.dir (-1 for a loop that
 *     runs downward, whose reads are then at +1).  That is the only data
 *     the pipeline delivers: any other offset is the run's TILE_ERR_ACCESS
 *     on every rank, naming the source line, the point, the offset and the
 *     stencil.  sizeof(type) must be cfg.elem_size and there must be N + 1
 *     offsets (TILE_ERR_ACCESS too).  All three are checked in every build
 *     at every point: tested where a run goes through the checked loop,
 *     and in the fast loops that run the rest sent to the fence, address
 *     space no page of which can be read, whose fault hands the run to the
 *     checked loop (23-fence.h: where sigaction is declared, for any
 *     offset, but one beyond +-63 where the stencil has one; elsewhere
 *     every run is checked).  Define
 *     TILE_CHECK_ACCESS to check also the reads of the point before its
 *     write (slow).
 *   - must write the current point before reading it: its old value is
 *     unspecified (points are recycled as the Z window slides).  Under
 *     TILE_CHECK_ACCESS the point holds a poison pattern when the body
 *     starts (bytes A5 A5 F5 FF repeated: a NaN as float or double); a
 *     second TILE_AT of the point itself while it still holds the pattern
 *     is a read before the write, the run's TILE_ERR_ACCESS naming both
 *     source lines (a single `TILE_AT(...) += x` is one use: with 8-byte
 *     points the result holds the poison's NaN, quieted, and that is a read
 *     before the write too), and a point the body leaves entirely
 *     unwritten is the run's TILE_ERR_BODY (so is a point the body writes
 *     the pattern itself into: with 1- or 2-byte points, a value of 0xA5
 *     or 0xA5A5 -- a limit of the check, not of the run without it);
 *   - may read its global coordinates with tile_coord(&it, i) (i = N is Z;
 *     one multiply-add)
 *     and its OpenMP thread number with TILE_THREAD(it) (for per-thread
 *     accumulators: the fine-grain model opens the parallel region itself);
 *   - `continue` skips to the next point.  `break`, `return` and `goto` out
 *     of the body are not allowed: they would leave a tile half computed
 *     and the neighbours waiting.  A `break` ends the point and is reported
 *     by tile_plan_status() as TILE_ERR_BODY.  In the threaded models
 *     under OpenMP the compiler refuses `return` and `goto` (they would
 *     leave an OpenMP region), and in the pure MPI model while the body is
 *     in an `omp simd` loop.  Where they get through, the rank's run is
 *     left unfinished: with one process the plan records TILE_ERR_BODY ("a
 *     return (or goto) left the body of the previous run"), which
 *     tile_plan_status() reports and the next run repeats; with more, the
 *     other ranks would wait for its messages forever, so the job ends as
 *     for a failed MPI call (see "MPI failures": "tiling.h: rank R: a
 *     return (or goto) left the body of a run: the other ranks wait for
 *     its messages" to cfg.on_mpi_failure or stderr, then MPI_Abort, error
 *     code TILE_ERR_BODY).  Under GCC, Clang and C++ that happens when the
 *     return leaves the body (a cleanup attribute or a destructor in the
 *     step macros); with other compilers at the rank's next
 *     tile_plan_destroy() or run of the plan, before any collective.
 *
 * Boundary values: the points outside the space that the body reads get
 * their values from cfg.boundary, one call per point (edge() above), or
 * from cfg.boundary_row, one call per row of points (tile_boundary_row_fn:
 * the first point's coordinates, the step between points, a count and a
 * stride), which pays once the body runs at SIMD speed: a call per ghost
 * point is then no longer small beside the points it feeds.  The
 * example's edge as a row (the remainder carried from point to point, the
 * same bits):
 *
 *     static void edge_row(void *out, ptrdiff_t stride, int64_t count,
 *                          const int64_t *c, const int64_t *s, void *ctx)
 *     {   int64_t e, r = (31*c[0] + 17*c[1] + 7*c[2] + 1000003) % 97;
 *         int64_t dr = ((31*s[0] + 17*s[1] + 7*s[2]) % 97 + 97) % 97;
 *         (void)ctx;
 *         for (e = 0; e < count; e++, r = (r + dr) % 97)
 *             *(double *)((unsigned char *)out + e * stride) = (double)r / 97.0; }
 *
 * (valid while 31x + 17y + 7z + 1000003 >= 0, as it is here: C's % of a
 * negative number is negative).  Set one of the two, not both.
 *
 * Iteration order inside a tile (cfg.order; plan.store.order says what
 * runs).  Any order consistent with the dependences gives bitwise the same
 * values, because every point is computed from the same operands by the
 * same expression:
 *   TILE_ORDER_PLANES      Z outermost, then X_1 ... X_N, the last
 *                          innermost and contiguous in memory;
 *   TILE_ORDER_Z_INNER     Z innermost (kernels whose Z recurrence is cheap);
 *   TILE_ORDER_HYPERPLANE  Z outermost, then, in each plane, the
 *                          anti-diagonals x_a + x_b = w of two X dimensions
 *                          in increasing w (the others outside, in order).
 *                          Every read is at internal offsets <= 0, not all
 *                          0, so the points of one diagonal read only
 *                          earlier diagonals and planes: the loop along a
 *                          diagonal carries no dependence.  The plane is
 *                          stored diagonal-major (each diagonal contiguous,
 *                          strides padded away from powers of two: about
 *                          twice the memory of a row-major plane, more for
 *                          blocks a few lines wide), so every
 *                          TILE_AT offset is a constant stride, the loop is
 *                          a counted loop over contiguous memory, and it
 *                          runs under `#pragma omp simd` (-fopenmp, or
 *                          -fopenmp-simd with TILE_SIMD): your scalar body
 *                          vectorises as written.  Each tile's first
 *                          diagonal runs in a scalar loop that checks
 *                          TILE_AT (type size, offset count).  Then the
 *                          walk takes slices in pairs: with N = 2 planes z
 *                          and z + 1 of a tile, whose diagonals interleave
 *                          (z's w + 1, then z + 1's w, which reads z only at
 *                          diagonals <= w), so a diagonal rarely waits for
 *                          the one just before it (tile_plane_pairs(); a
 *                          tile of one plane, or a tile's last of an odd
 *                          count, runs alone); with N > 2 two neighbouring
 *                          slices along the innermost other X dimension.
 *                          Only the SIMD loop pairs (not TILE_CHECK_ACCESS
 *                          builds).  With N = 1 it is the plane order;
 *   TILE_ORDER_AUTO        (the default) the hyperplane order when N >= 2
 *                          and a thread tile is at least 8 points wide
 *                          along two dimensions, else the plane order.
 * In the hyperplane order the points of a diagonal are SIMD lanes that run
 * at once: a body must not add to a variable shared by its points (a sum, a
 * counter, acc[TILE_THREAD(it)]); declare a reduction on the plan and feed
 * it with tile_reduce() / tile_reduce_u64() (exact, the same bits in every
 * order; such a body runs that loop scalar).  Inside the SIMD loop a
 * `break`, `return` or `goto` does not compile under OpenMP.
 *
 * Bitwise identity also needs no floating-point contraction (a * b + c
 * fused into one rounding in one loop and not in another): this header
 * sets `#pragma STDC FP_CONTRACT OFF` under clang; with GCC compile with
 * -ffp-contract=off (the Makefile does), which -std=c99 implies but
 * -std=gnu99 (GCC's default) does not.
 *
 * Tile height (cfg.tile_height; plan.height says what the plan chose).
 * A value > 0 is used as given.  0, the default, lets the plan choose z by
 * the pipeline's model T(z) = (ceil(Z/z) + sum_i (P_i - 1) + S) * (z t_plane
 * + t_msg(z) + t_sync), the last step at the last tile's height (topology.h's
 * model, the one TILE_GRID_TIME uses; S is the thread skew, t_sync the
 * threads' barrier that ends a step), minimised over 1 <= z <= Z and bounded by the cache: the
 * Z window stays in the level-2 caches of the process's cores where the
 * space allows, a bound of at least 2 where a tile's planes go in pairs
 * and two fit the memory limit (tile_height_best(), "The tile height"
 * section).  Its costs: t_comp per
 * point from cfg.balance.tcomp, else TILEHYBRID_TCOMP, else measured at
 * creation on a stand-in loop; t_startup and the bandwidth from
 * cfg.balance, else the TILEHYBRID_* environment, else a ping-pong at
 * creation (balance.h's).  Every rank takes the slowest rank's costs and
 * the ranks agree on the height (tilehybrid_agree); TILEHYBRID_TCOMP set on
 * some ranks only (cfg.balance.tcomp 0) is refused (TILE_ERR_MISMATCH).
 * When t_comp was
 * measured on the stand-in, the first run that completes times the user's
 * own body (its computing seconds per point) and the model chooses again:
 * the next run uses that height (plan.height.next; the Z window, the
 * message buffers and plan.ntiles are re-sized at that run's start, not
 * while an output or an input hook is set: their buffers hold one tile).  Give cfg.balance.tcomp (or a height) to
 * fix the height at creation.
 *
 * Data in and out (the section of that name near the end): tile_input_box()
 * gives the box of an input array a rank reads, tile_gather() the stored
 * result as the global array, tile_output_set() each finished tile during
 * the run, tile_exchange() moves user arrays between ranks (one plan's
 * result to the next plan's input), tile_reduction_init() and tile_reduce()
 * declare reductions whose results are the same bits in every model.
 *
 * Errors follow tilehybrid.h's convention: TILE_OK (0) or a positive
 * TILE_ERR_* code, tile_strerror(); a plan's creation and its runs are
 * collective and end with the same code and the same message (naming the
 * rank that found the error) on every rank: plan.status, plan.errmsg.
 * Every size is computed before anything is allocated; a plan above its
 * memory limit (cfg.mem_limit, TILEHYBRID_MEM_LIMIT, by default half the
 * physical memory shared by the plan's ranks on the node) is refused with
 * TILE_ERR_NOMEM and the sizes.
 *
 * Face messages (cfg.messages): the faces of a tile travel over requests
 * made once per plan (MPI_Send_init / MPI_Recv_init at tile_plan_create,
 * a second set for a last tile shorter than the tile height, freed by
 * tile_plan_destroy); each step starts its sends and receives with one
 * MPI_Startall and completes them with one MPI_Waitall.  The receive for
 * the next tile is started before the current one is computed.  In the
 * multiple model, with MPI-4 (TILE_HAVE_PARTITIONED), cfg.messages =
 * TILE_MESSAGES_PARTITIONED sends each face as one partitioned message
 * (MPI_Psend_init), each thread marking its own part ready (MPI_Pready);
 * without MPI-4 (Open MPI 4.1 is MPI 3.1) or in another model it falls
 * back to persistent requests (plan.run.messaging says which runs).
 * Under SimGrid's SMPI (3.32 reports a deadlock on restarted persistent
 * requests) the plan sends per-tile MPI_Isend / MPI_Irecv instead.
 *
 * MPI failures: an MPI call of the engine that fails on one rank (a face
 * message, MPI_Waitall, a collective of the creation, of a run or of its
 * reductions) would leave the other ranks waiting forever.  The engine
 * reports it on stderr ("tiling.h: rank 1: MPI_Isend failed sending tile
 * 3's face ... to rank 2 (MPI's error text)"), or hands that message to
 * cfg.on_mpi_failure, then calls MPI_Abort (on MPI_COMM_WORLD, errorcode
 * TILE_ERR_MPI), as PETSc does.  With ULFM (TILE_ULFM) it
 * revokes the communicator instead, and the run ends with TILE_ERR_MPI on
 * every rank.
 *
 * Options (#define before including):
 *   TILE_CHECK_ACCESS   validate every TILE_AT offset and poison the current
 *                       point before the body (debugging aid; C only, it
 *                       uses a compound literal: #error under C++).
 *   TILE_STRICT         tile_plan_create() refuses (TILE_ERR_ARG) when the
 *                       file that calls it fuses a * b + c into multiply-adds
 *                       (tile_fp_contracts()); without it, rank 0 warns.
 *   TILE_MSG_MAX        the largest face message sent as plain bytes
 *                       (default INT_MAX, the MPI count limit); a larger one
 *                       goes as one element of a derived datatype (blocks of
 *                       TILE_MSG_MAX bytes and the rest), on any MPI.
 *   TILE_ULFM           use ULFM (MPIX_Comm_revoke) on an MPI call that fails
 *                       (see "MPI failures" below); on by itself with Open
 *                       MPI's ULFM (include <mpi-ext.h> first), off elsewhere:
 *                       MPICH 4 declares MPIX_Comm_revoke but its default
 *                       device (ch4) does not implement it.  TILE_NO_ULFM:
 *                       never.
 *   TILE_NO_PARTITIONED never use MPI-4 partitioned communication (by
 *                       default TILE_HAVE_PARTITIONED is 1 where MPI_VERSION
 *                       >= 4, and cfg.messages may ask for it).
 *   TILE_SIMD           emit the hyperplane order's `omp simd` without
 *                       OpenMP (with -fopenmp-simd).
 *   TILE_NO_SIMD        never emit it (TILE_CHECK_ACCESS does not either).
 *   TILE_SIM_FLOPS      under SimGrid SMPI only (smpicc): the simulated flops
 *                       charged per computed point (default 1; 0 or a
 *                       negative value = let SMPI time the real
 *                       computation).  See tile__sim_begin().
 *   TILEHYBRID_SEPARATE, TILEHYBRID_IMPLEMENTATION
 *                       compile the cold code (plan creation and validation,
 *                       the height search, gather, the start and end of a
 *                       run, ...) once per program, in the one file that
 *                       defines TILEHYBRID_IMPLEMENTATION, instead of in
 *                       every file (see tilehybrid.h, "COMPILING THE COLD
 *                       CODE ONCE"); the step macros and TILE_AT stay
 *                       inline.  Default: header-only.
 *
 * Requires MPI (any version >= 2.2) and C99.  The threaded models are in
 * hybrid.h; this header asks OpenMP only whether it runs inside a parallel
 * region (to refuse the pure MPI loop there).
 */
