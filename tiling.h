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
 *              [65-plan]; tile_plan_status, tile_strerror, tile_model_name,
 *              tile_model_thread_level [10-errors]; tile_plane_layout
 *              [60-create]
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
 *              tile_reduction_init, tile_reduction_drop [50-reductions]
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
 *     offsets (TILE_ERR_ACCESS too).  All three are checked in every build,
 *     at every point of the runs that go through the checked loop: each
 *     tile's first run of each plane (of its first two when N = 1), and
 *     every run whose points are not consecutive; not in the fast loops
 *     that run the rest (see TILE_AT).
 *     Define TILE_CHECK_ACCESS to have every access checked (slow).
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
/* Generated by make from the parts in src/tiling/ (tools/join.sh): edit them, not this file. */

/* ==== src/tiling/01-types.h ==== */
#line 1 "src/tiling/01-types.h"
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
#if defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__))
#include <unistd.h>     /* sysconf: the physical memory (cfg.mem_limit) */
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
    char pad_[8];
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
    int node_ranks;                 /* the plan's ranks on this node: they share the default
                                     * memory limit (tile__mem_limit) */
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
} tile_height_info;

/**
 * struct tile_plan - a process's share of the computation, created
 * collectively by tile_plan_create().  Read-only for the user.
 * Fixed at creation: @cfg (as given, but for cfg.tile_height: see
 * below), @comm (the plan's Cartesian communicator, owned), @rank, @size,
 * the process grid @pdims and this process's @pcoords, its neighbours
 * @nbr_lo/@nbr_hi (MPI_PROC_NULL when none), its block (global start @lo,
 * extent @len per dimension) and the thread split @threads (threads.dims
 * is the thread grid).  Fixed for a tile height: cfg.tile_height, @ntiles,
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
    size_t key;                           /* esz (TILE_MAX_DIMS + 2) + N + 1: TILE_AT's test */
    int n, thread;
    int64_t ust[TILE_MAX_DIMS + 1];       /* = w->ust, or w->wst at plane w->wrapz */
    int wrap;                             /* which of the two */
    int64_t ux[TILE_MAX_DIMS + 1];        /* = w->ux, the run's first point */
    int64_t udx[TILE_MAX_DIMS + 1];       /* = w->udx */
} tile__view;

/* The offsets the body may read (private): a copy of the plan's
 * deps.at_mask; any, bit 0: every offset passes (at_all), bit 63: an
 * offset beyond +-63 passes (at_far); code: the plan's deps.at_code.
 * TILE__POINTS keeps it in a local of its own, tile_pt_as_, that TILE_AT
 * names directly: its address is never stored, nothing writes it after
 * its start, and TILE_AT reads it at constant indices where the offsets
 * are constants (nothing that could trap), so the compiler knows that the
 * body leaves it alone and hoists TILE_AT's test (tile__at_ok) out of the
 * loops over the points and the runs: once per site and tile. */
typedef struct tile__atset {
    const uint64_t (*m)[16];
    uint64_t any;
    const uint64_t *code;
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
    const tile__view *v;
    int simd;                             /* bit 0: the SIMD loop (the reductions' lanes);
                                           * bit 1: B's run of a pair (their places) */
#ifdef TILE_CHECK_ACCESS
    const char *used_file;                /* the first TILE_AT of the point while */
    int used_line;                        /* it held the poison (NULL: none yet) */
#endif
} tile_cursor;

/* ==== src/tiling/02-xsum.h ==== */
#line 1 "src/tiling/02-xsum.h"
/* ------------------------------------------------------------------------ */
/* The exact sum of doubles                                                 */

/** Limbs of a tile_xsum: 32 bits each from 2^-1074 up, with room above
 *  2^1024 for 2^60 additions. */
#define TILE_XSUM_LIMBS 72

/**
 * struct tile_xsum - an exact sum of doubles (a fixed-point accumulator
 * covering the whole double range): the sum does not depend on the order
 * of the additions, and tile_xsum_round() rounds it once, to nearest (ties
 * to even).  Initialise with tile_xsum_init().  About 600 bytes.
 * @limb:    the value sum limb[i] 2^(32 i - 1074) (private).
 * @pending: additions since the carries were last propagated (private).
 * @nan, @pinf, @ninf: NaNs, +inf and -inf added (private).
 */
typedef struct tile_xsum {
    int64_t limb[TILE_XSUM_LIMBS];
    int64_t pending;
    int64_t nan, pinf, ninf;
} tile_xsum;

/** tile_xsum_init() - an empty sum (its value is +0.0). */
static inline void tile_xsum_init(tile_xsum *x)
{
    memset(x, 0, sizeof *x);
}

/* Propagate the carries: every limb but the top one in [0, 2^32), the top
 * one carrying the sign. */
static inline void tile__xsum_carry(tile_xsum *x)
{
    int i;
    for (i = 0; i < TILE_XSUM_LIMBS - 1; i++) {
        int64_t low = x->limb[i] & (int64_t)0xffffffff;     /* two's complement */
        x->limb[i + 1] += (x->limb[i] - low) / ((int64_t)1 << 32);
        x->limb[i] = low;
    }
    x->pending = 0;
}

/**
 * tile_xsum_add() - add v exactly.
 * @x: the sum; @v: any double (a NaN or an infinity is counted apart, and
 *     +0.0 and -0.0 add nothing).
 */
static inline void tile_xsum_add(tile_xsum *x, double v)
{
    uint64_t b, m, r;
    int64_t d0, d1, d2;
    int e, pos, j, sh;
    memcpy(&b, &v, sizeof b);
    e = (int)((b >> 52) & 0x7ff);
    m = b & (((uint64_t)1 << 52) - 1);
    if (e == 0x7ff) {
        x->nan += m != 0;
        x->pinf += m == 0 && !(b >> 63);
        x->ninf += m == 0 && (b >> 63);
        return;
    }
    if (e == 0 && m == 0)
        return;
    if (e != 0)
        m |= (uint64_t)1 << 52;
    pos = e != 0 ? e - 1 : 0;      /* v = m 2^(pos - 1074) */
    j = pos >> 5;
    sh = pos & 31;
    r = sh != 0 ? m >> (32 - sh) : m >> 32;
    d0 = (int64_t)((m << sh) & 0xffffffffu);
    d1 = (int64_t)(r & 0xffffffffu);
    d2 = (int64_t)(r >> 32);
    if (b >> 63) {
        d0 = -d0;
        d1 = -d1;
        d2 = -d2;
    }
    x->limb[j] += d0;
    x->limb[j + 1] += d1;
    x->limb[j + 2] += d2;
    if (++x->pending >= ((int64_t)1 << 20))
        tile__xsum_carry(x);
}

/** tile_xsum_merge() - x += y, exactly. */
static inline void tile_xsum_merge(tile_xsum *x, const tile_xsum *y)
{
    int i;
    if (x->pending > 0)
        tile__xsum_carry(x);
    for (i = 0; i < TILE_XSUM_LIMBS; i++)   /* y's limbs stay below 2^53 */
        x->limb[i] += y->limb[i];
    x->pending = y->pending + 1;
    x->nan += y->nan;
    x->pinf += y->pinf;
    x->ninf += y->ninf;
    tile__xsum_carry(x);
}

/* Bit `pos` of the magnitude (limbs carried, all non-negative). */
static inline uint64_t tile__xsum_bit(const tile_xsum *x, int pos)
{
    return pos < 0 ? 0 : ((uint64_t)x->limb[pos >> 5] >> (pos & 31)) & 1u;
}

/* The double nearest to the magnitude in x (carried, non-negative, not
 * zero), msb its top bit: 53 bits, round to nearest, ties to even. */
static inline uint64_t tile__xsum_bits(const tile_xsum *x, int msb)
{
    uint64_t mant = 0, round, sticky = 0;
    int i, p = msb - 53;
    if (msb < 52) {             /* below 2^-1022: a subnormal, exact */
        for (i = msb; i >= 0; i--)
            mant = (mant << 1) | tile__xsum_bit(x, i);
        return mant;
    }
    for (i = msb; i >= msb - 52; i--)
        mant = (mant << 1) | tile__xsum_bit(x, i);
    round = tile__xsum_bit(x, p);
    if (p > 0) {
        sticky = ((uint64_t)x->limb[p >> 5] & (((uint64_t)1 << (p & 31)) - 1)) != 0;
        for (i = 0; i < (p >> 5) && !sticky; i++)
            sticky = x->limb[i] != 0;
    }
    if (round && (sticky || (mant & 1))) {
        mant++;
        if (mant >> 53) {
            mant >>= 1;
            msb++;
        }
    }
    if (msb - 51 >= 0x7ff)      /* overflow: infinity */
        return (uint64_t)0x7ff << 52;
    return ((uint64_t)(msb - 51) << 52) | (mant & (((uint64_t)1 << 52) - 1));
}

/**
 * tile_xsum_round() - the sum, rounded once to the nearest double (ties
 * to even).
 * @in: the sum (not changed).
 * An exact zero is +0.0; a sum beyond the double range is +-inf; with a
 * NaN, or both infinities, added: NaN (0x7ff8000000000000); else with an
 * infinity added: that infinity.  The same bits for any order of the
 * additions and merges.
 * Return: the rounded sum.
 */
static inline double tile_xsum_round(const tile_xsum *in)
{
    tile_xsum x = *in;
    uint64_t b;
    int neg, i, h, msb;
    double v;
    if (x.nan > 0 || (x.pinf > 0 && x.ninf > 0))
        b = (uint64_t)0x7ff8 << 48;
    else if (x.pinf > 0 || x.ninf > 0)
        b = ((uint64_t)0x7ff << 52) | ((uint64_t)(x.ninf > 0) << 63);
    else {
        tile__xsum_carry(&x);
        neg = x.limb[TILE_XSUM_LIMBS - 1] < 0;
        for (i = 0; neg && i < TILE_XSUM_LIMBS; i++)
            x.limb[i] = -x.limb[i];
        if (neg)
            tile__xsum_carry(&x);
        for (h = TILE_XSUM_LIMBS - 1; h >= 0 && x.limb[h] == 0; h--)
            ;
        if (h < 0)
            return 0.0;
        for (msb = 32 * h + 31; !tile__xsum_bit(&x, msb); msb--)
            ;
        b = tile__xsum_bits(&x, msb) | ((uint64_t)neg << 63);
    }
    memcpy(&v, &b, sizeof v);
    return v;
}

/* ==== src/tiling/03-data-types.h ==== */
#line 1 "src/tiling/03-data-types.h"
/* ======================================================================== */
/* Data in and out                                                          */
/*                                                                          */
/* The toolkit owns the plan's arrays; this section moves data across that  */
/* border, always in the user's coordinates and bit for bit:                */
/*   - input: tile_input_box() says which box of an input array a rank      */
/*     needs (its block, a reach around it, one tile's planes or all of Z); */
/*     the body indexes a local array of that box with tile_input_index();  */
/*     or tile_input_set() has a hook fill each tile's input just before   */
/*     the tile is computed (memory flat in Z; tile_input() in the body);  */
/*   - output: tile_gather() copies the stored result (all of Z under       */
/*     TILE_STORE_FULL, the last planes of the window otherwise) into the   */
/*     global row-major array on a root or on every rank; tile_output_set() */
/*     hands each finished tile of the block to a function during the run  */
/*     (memory independent of Z);                                          */
/*   - tile_exchange() moves user arrays between ranks box to box: a       */
/*     plan's result to the next plan's input, with halos, in another      */
/*     direction (chained sweeps);                                         */
/*   - reductions declared on a plan (tile_reduction_init, tile_reduce):   */
/*     sum (exact), min, max, max and min with location, and a 64-bit      */
/*     integer sum, combined at the end of the run into the same bits for  */
/*     every model, grid and thread count.                                 */
/* Layout: a box's array is row-major over its dimensions X_1 .. X_N, Z    */
/* (Z last, contiguous), unless a function says otherwise.                 */
/* On a plan whose creation failed, every call here (and tile_get) does    */
/* nothing and returns the creation's code (TILE_ERR_NULL for a plan never */
/* created or already destroyed), on every rank, before any collective.    */
/* ======================================================================== */

/** TILE_ALL_TILES - tile_input_box()'s tile for every plane of Z. */
#define TILE_ALL_TILES (-1)
/** TILE_ROOT_ALL - tile_gather()'s root for "every rank receives". */
#define TILE_ROOT_ALL (-1)
/** TILE_MAX_REDUCTIONS - reductions declared on one plan at a time. */
#define TILE_MAX_REDUCTIONS 8

/** Layout of an array over a box (both row-major in the user's coordinates). */
enum tile_layout {
    TILE_LAYOUT_Z_LAST = 0,   /* [x_1]...[x_N][z]: the global array's layout */
    TILE_LAYOUT_Z_FIRST = 1   /* [z][x_1]...[x_N]: plane after plane */
};

/**
 * struct tile_box - a box of the space in the user's coordinates.
 * @ndims: the dimensions, N + 1 (X_1 .. X_N, then Z).
 * @lo:    the first point along each dimension.
 * @len:   the points along each dimension (0 anywhere: the box is empty).
 * An array over a box holds its points row-major, Z last:
 * tile_box_index().
 */
typedef struct tile_box {
    int ndims;
    int64_t lo[TILE_MAX_DIMS + 1];
    int64_t len[TILE_MAX_DIMS + 1];
} tile_box;

/**
 * struct tile_reach - how far around a point the body reads an input
 * array, per dimension (N + 1 entries, Z last), in the user's
 * coordinates: from -below[i] to +above[i] (both >= 0).  Zero it for
 * reads at the point itself; tile_reach_stencil() gives the stencil's.
 */
typedef struct tile_reach {
    int below[TILE_MAX_DIMS + 1];
    int above[TILE_MAX_DIMS + 1];
} tile_reach;

/* ------------------------------------------------------------------------ */
/* Declared reductions: the types                                           */

/** Reduction operations (tile_reduction_init). */
enum tile_reduce_op {
    TILE_REDUCE_SUM = 0,    /* sum of doubles, exact, rounded once */
    TILE_REDUCE_MIN,        /* the least double (IEEE 754 totalOrder: -0.0 < +0.0) */
    TILE_REDUCE_MAX,        /* the greatest double (totalOrder) */
    TILE_REDUCE_MAXLOC,     /* the greatest, and the first point that has it */
    TILE_REDUCE_MINLOC,     /* the least, and the first point that has it */
    TILE_REDUCE_SUM_U64,    /* sum of uint64_t modulo 2^64 (checksums of bit patterns) */
    TILE_REDUCE_COUNT_
};

/* A thread's part of a reduction (private; padded so that threads do not
 * share the cache lines they write): the SIMD loop's lanes of a SUM_U64
 * too (struct tile__lanes). */
typedef struct tile__red_slot {
    tile_xsum sum;
    uint64_t u64, key;
    int64_t at[TILE_MAX_DIMS + 1];
    int64_t count;
    char pad_[64];
    tile__lanes lanes;
    char pad2_[64];
} tile__red_slot;

/**
 * struct tile_reduction - a reduction declared on a plan
 * (tile_reduction_init) and fed in the body (tile_reduce,
 * tile_reduce_u64).  At the end of each run every rank has the result:
 * @op:    enum tile_reduce_op.
 * @value: SUM: the exact sum rounded once; MIN, MAX, MINLOC, MAXLOC: the
 *         value, bit for bit (0.0 when no point contributed).
 * @u64:   SUM_U64: the sum modulo 2^64.
 * @coord: MINLOC, MAXLOC: the user coordinates (X_1 .. X_N, Z) of the
 *         first point in row-major order (the global array's order) that
 *         has the value; -1 when no point contributed.
 * @count: the points that contributed, over every rank.
 * After a run that failed: count 0, value and u64 0, coord -1.
 * The rest is private.  The result does not depend on the model, the
 * process grid, the thread count or the tile height: a sum is exact until
 * its one rounding, and min and max follow a total order (totalOrder:
 * -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN) with ties broken on
 * the coordinates.
 */
typedef struct tile_reduction {
    int op;
    double value;
    uint64_t u64;
    int64_t coord[TILE_MAX_DIMS + 1];
    int64_t count;
    /* private */
    tile_plan *plan_;
    const tile_plan *u64_plan_;     /* plan_ if op is SUM_U64, else NULL (one test) */
    tile__red_slot *slot_;
} tile_reduction;

/* ------------------------------------------------------------------------ */
/* The output hook                                                          */

/**
 * struct tile_piece - what the output hook receives: one finished tile of
 * this rank's block.
 * @tile:      the tile, 0..plan->ntiles-1, in the order the loop runs.
 * @box:       its points in the user's coordinates: the block, and the
 *             tile's planes along Z.
 * @layout:    enum tile_layout of @data (tile_output_set's choice).
 * @elem_size: bytes per point.
 * @bytes:     tile_box_points(&box) * elem_size.
 * @data:      the values, bit for bit, row-major over @box: Z last
 *             (tile_box_index) or Z first (plane after plane, each plane
 *             row-major over X_1 .. X_N).  Valid during the call only.
 */
typedef struct tile_piece {
    int64_t tile;
    tile_box box;
    int layout;
    size_t elem_size;
    size_t bytes;
    const void *data;
} tile_piece;

/**
 * typedef tile_output_fn - the output hook: int fn(void *ctx, const
 * tile_plan *plan, const tile_piece *piece).  Return 0 to go on; any other
 * value is an error: the hook is not called again on this rank, the run
 * goes on to its end (the pipeline must finish on every rank) and then
 * fails on every rank with TILE_ERR_OUTPUT naming the value, the tile and
 * the rank.
 */
typedef int (*tile_output_fn)(void *ctx, const tile_plan *plan, const tile_piece *piece);

/**
 * typedef tile_input_fn - the input hook: int fn(void *ctx, const tile_plan
 * *plan, const tile_box *box, void *data).  Fill data, an array over box
 * (row-major in the user's coordinates, Z last: tile_box_index()) of the
 * element size given to tile_input_set(), with the input the body reads
 * for one tile: box is tile_input_box(plan, tile, &reach).  Return 0 to go
 * on; any other value is an error, handled as the output hook's
 * (TILE_ERR_OUTPUT at the end of the run, on every rank, naming the input
 * hook, the value, the tile and the rank).
 */
typedef int (*tile_input_fn)(void *ctx, const tile_plan *plan, const tile_box *box,
                             void *data);

/* The state of the data calls that live across runs (private). */
struct tile__io {
    tile_output_fn out_fn;
    void *out_ctx;
    int out_layout;
    int out_failed;
    int64_t out_next;               /* the next tile to hand out */
    unsigned char *out_dst;         /* tile_output_to: an array over out_box */
    tile_box out_box;
    unsigned char *out_buf;         /* one tile of the block */
    tile_input_fn in_fn;            /* the input hook (tile_input_set) */
    void *in_ctx;
    size_t in_esz;
    tile_reach in_reach;
    int in_failed;
    int in_w;                       /* slots: the tiles in flight, S + 2 */
    int64_t in_next;                /* the next tile to fill */
    size_t in_slot_bytes;
    unsigned char *in_buf;          /* in_w slots of in_slot_bytes */
    tile_box *in_box;               /* per slot: the box of the tile it holds */
    int nred;                       /* reductions declared */
    tile_reduction *red[TILE_MAX_REDUCTIONS];
    tile__red_slot *slots[TILE_MAX_REDUCTIONS];     /* per reduction, per thread */
};

/* The plan's data state, created on first use; NULL if out of memory. */
static inline struct tile__io *tile__io_get(tile_plan *p)
{
    if (p->run.io == NULL) {
        p->run.io = (struct tile__io *)TILEHYBRID_MALLOC(sizeof *p->run.io);
        if (p->run.io != NULL)
            memset(p->run.io, 0, sizeof *p->run.io);
    }
    return p->run.io;
}

/* ==== src/tiling/10-errors.h ==== */
#line 1 "src/tiling/10-errors.h"
/* ------------------------------------------------------------------------ */
/* Errors, names, defaults                                                  */

#if TILEHYBRID__DEFINE
/** tile_strerror() - the text of an error code (never NULL). */
TILEHYBRID__COLD const char *tile_strerror(int err)
{
    static const char *const msg[] = {
        "success",
        "a required pointer argument is NULL",
        "number of dimensions N out of range",
        "an extent (X_i or Z) is below 1",
        "a dependence distance is negative or too large",
        "tile height below 1",
        "element size 0 or above 2^30 bytes",
        "process grid impossible or not matching the number of processes",
        "invalid thread count or thread grid",
        "more processes or threads than points along a dimension",
        "a dependence is wider than a process's block (data would come from a non-neighbour)",
        "arguments differ between MPI ranks",
        "MPI does not provide the thread support level this model needs",
        "threads requested but the program was compiled without OpenMP",
        "unknown model, or a step macro that does not match the plan's model",
        "balancing factor outside [0, 1]",
        "out of memory, or the plan would pass its memory limit (cfg.mem_limit)",
        "size overflow (above 2^63, or a count above what MPI can send)",
        "an MPI call failed",
        ("the loop body left its point with break, left its point unwritten, or did not "
         "finish a run (return); or a call that needs the plan idle came from its body or "
         "a hook"),
        "invalid balancing policy or cost model",
        "storage or order is not one of its enum values",
        "a stencil vector or loop direction that the plan cannot run",
        "TILE_AT with a type whose size is not the element size, or an undeclared offset",
        "a tile, Z range, box, root or option outside its range",
        "the data asked for is not stored (no completed run, or planes the Z window dropped)",
        "the output hook returned an error",
        "a reduction used on a plan it is not declared on, or with the wrong operation",
        "the plan skews its stencil: its blocks are not boxes of the user's space",
        "configuration fields that exclude each other are both set",
    };
    if (err < 0 || err >= TILE_ERR_COUNT_)
        return "unknown tiling error code";
    return msg[err];
}

/**
 * tile_config_init() - the defaults for n distributed dimensions.
 * @cfg: the configuration to fill.
 * @n:   N.
 * Extents, Z and tile height 1, dependences 1 (d_Z = 1), no stencil, every
 * loop upward, doubles, pure MPI,
 * one thread, communication-optimal grid, an even thread split, windowed
 * storage, the order the plan chooses (TILE_ORDER_AUTO), zero boundary.
 */
TILEHYBRID__COLD void tile_config_init(tile_config *cfg, int n)
{
    int i;
    memset(cfg, 0, sizeof *cfg);
    cfg->n = n;
    for (i = 0; i < TILE_MAX_DIMS; i++) {
        cfg->extent[i] = 1;
        cfg->dep[i] = 1;
    }
    for (i = 0; i <= TILE_MAX_DIMS; i++) {
        cfg->dir[i] = 1;
        cfg->loop_order[i] = -1;
    }
    cfg->zlen = 1;
    cfg->depz = 1;
    cfg->tile_height = 0;
    cfg->elem_size = sizeof(double);
    cfg->model = TILE_MODEL_MPI;
    cfg->threads = 1;
    cfg->grid_policy = TILE_GRID_COMM;
    bal_config_init(&cfg->balance);
    cfg->storage = TILE_STORE_WINDOW;
    cfg->order = TILE_ORDER_AUTO;
}

/**
 * tile_config_stencil() - declare the stencil from text.
 * @cfg:  the configuration (cfg->n already set).
 * @text: the offset vectors the body reads, separated by spaces, each N + 1
 *        whole numbers separated by commas, in the user's coordinates
 *        (o_1, ..., o_N, o_Z): "-1,-1,0 -1,0,0 0,-1,0 0,0,-1".
 * @st:   NULL, or receives the vector at fault (index = its number).
 *
 * Sets cfg->nstencil and cfg->stencil, and dep[] and depz to 0 (the
 * stencil replaces the axis-aligned shorthand).  Whether the vectors can
 * run (each earlier than the point in the loop order, cfg->loop_order and
 * cfg->dir; one later along some dimension makes the plan skew) is checked
 * by tile_plan_create.  On error cfg is unchanged.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_NDIMS (cfg->n out of range) or
 * TILE_ERR_STENCIL (a vector without N + 1 numbers, a number that is not a
 * whole number in -2^30..2^30, no vector, more than TILE_MAX_STENCIL).
 */
TILEHYBRID__COLD int tile_config_stencil(tile_config *cfg, const char *text, tilehybrid_status *st)
{
    int v[TILE_MAX_STENCIL][TILE_MAX_DIMS + 1], k = 0, i;
    const char *s = text;
    memset(v, 0, sizeof v);
    if (cfg == NULL || text == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, cfg == NULL ? "cfg" : "text", -1);
    if (cfg->n < 1 || cfg->n > TILE_MAX_DIMS)
        return tilehybrid_status_set(st, TILE_ERR_NDIMS, "n", -1);
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        if (*s == '\0')
            break;
        if (k == TILE_MAX_STENCIL)
            return tilehybrid_status_set(st, TILE_ERR_STENCIL, "text", k);
        for (i = 0; i <= cfg->n; i++) {
            char num[24];
            size_t len = 0;
            int64_t x;
            while (s[len] != '\0' && s[len] != ',' && s[len] != ' ' && s[len] != '\t' &&
                   s[len] != '\n' && len < sizeof num - 1)
                len++;
            memcpy(num, s, len);
            num[len] = '\0';
            if (tilehybrid_parse_i64(num, -(1 << 30), 1 << 30, &x) != TILEHYBRID_OK ||
                (i < cfg->n && s[len] != ',') ||
                (i == cfg->n && s[len] != '\0' && s[len] != ' ' && s[len] != '\t' &&
                 s[len] != '\n'))
                return tilehybrid_status_set(st, TILE_ERR_STENCIL, "text", k);
            v[k][i] = (int)x;
            s += len + (i < cfg->n);
        }
        k++;
    }
    if (k == 0)
        return tilehybrid_status_set(st, TILE_ERR_STENCIL, "text", -1);
    memset(cfg->stencil, 0, sizeof cfg->stencil);
    memcpy(cfg->stencil, v, sizeof v[0] * (size_t)k);
    cfg->nstencil = k;
    for (i = 0; i < TILE_MAX_DIMS; i++)
        cfg->dep[i] = 0;
    cfg->depz = 0;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}
#else
TILEHYBRID__COLD const char *tile_strerror(int err);
TILEHYBRID__COLD void tile_config_init(tile_config *cfg, int n);
TILEHYBRID__COLD int tile_config_stencil(tile_config *cfg, const char *text, tilehybrid_status *st);
#endif

/** tile_model_name() - "mpi", "fine", "funneled", "multiple", or NULL. */
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

#if TILEHYBRID__DEFINE
/** tile_model_thread_level() - the MPI thread support a model needs. */
TILEHYBRID__COLD int tile_model_thread_level(int model, int threads)
{
    if (model == TILE_MODEL_MULTIPLE)
        return MPI_THREAD_MULTIPLE;
    if (model == TILE_MODEL_MPI || threads <= 1)
        return MPI_THREAD_SINGLE;
    return MPI_THREAD_FUNNELED;
}
#else
TILEHYBRID__COLD int tile_model_thread_level(int model, int threads);
#endif

/** tile_plan_status() - TILE_OK, or the error of the creation or the last
 *  run (plan.errmsg says more).  A run that failed does not stop the next
 *  one, which starts afresh; a failed creation, an MPI failure or a run
 *  left unfinished by a `return` out of the body does (create the plan
 *  again).  That return is TILE_ERR_BODY here with one process (under
 *  GCC, Clang and C++; elsewhere from the next run on); with more it
 *  ended the job (see "The body" above). */
static inline int tile_plan_status(const tile_plan *plan)
{
    return plan == NULL ? TILE_ERR_NULL : plan->status.code;
}

/* ==== src/tiling/11-helpers.h ==== */
#line 1 "src/tiling/11-helpers.h"
/* ------------------------------------------------------------------------ */
/* Small private helpers                                                    */

/** tile_wtime() - the clock of the statistics, in seconds (OpenMP's
 *  omp_get_wtime when compiled with OpenMP: any thread may call it; else
 *  MPI_Wtime). */
static inline double tile_wtime(void)
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
 * TILE_SIM_FLOPS 0 (or below: a double, which #if cannot test) leaves
 * SMPI's own timing on.  Elsewhere both do nothing.
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

TILEHYBRID__COLD int tile__fail(tile_plan *p, int code, const char *arg, int64_t index,
                                const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#if TILEHYBRID__DEFINE
/* Record the plan's first error: code, the argument at fault, its message. */
TILEHYBRID__COLD int tile__fail(tile_plan *p, int code, const char *arg, int64_t index,
                                const char *fmt, ...)
{
    va_list ap;
    if (p->status.code != TILE_OK)
        return p->status.code;
    snprintf(p->errarg, sizeof p->errarg, "%s", arg != NULL ? arg : "");
    tilehybrid_status_set(&p->status, code, p->errarg, index);
    p->status.rank = p->rank;
    va_start(ap, fmt);
    vsnprintf(p->errmsg, sizeof p->errmsg, fmt, ap);
    va_end(ap);
    return code;
}

/** tile_thread_error() - record thread t's first error of the run (it
 *  becomes the run's error when the run finishes). */
TILEHYBRID__COLD void tile_thread_error(tile_plan *p, int t, int code)
{
    if (p->run.stats[t].error == TILE_OK)
        p->run.stats[t].error = code;
}
#else
TILEHYBRID__COLD int tile__fail(tile_plan *p, int code, const char *arg, int64_t index,
                                const char *fmt, ...);
TILEHYBRID__COLD void tile_thread_error(tile_plan *p, int t, int code);
#endif

TILEHYBRID__COLD void tile_thread_fail(tile_plan *p, int t, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#if TILEHYBRID__DEFINE
/**
 * tile_thread_fail() - tile_thread_error() with a message (printf format)
 * that the run's error message quotes.
 * @p: the plan; @t: the thread; @code: a TILE_ERR_* code; @fmt: the message.
 */
TILEHYBRID__COLD void tile_thread_fail(tile_plan *p, int t, int code, const char *fmt, ...)
{
    va_list ap;
    if (p->run.stats[t].error != TILE_OK)
        return;
    p->run.stats[t].error = code;
    va_start(ap, fmt);
    vsnprintf(p->run.slot[t].msg, sizeof p->run.slot[t].msg, fmt, ap);
    va_end(ap);
}
#else
TILEHYBRID__COLD void tile_thread_fail(tile_plan *p, int t, int code, const char *fmt, ...);
#endif

/*
 * MPI failures.  A failed MPI call on one rank would leave its neighbours
 * waiting for its messages, and the other ranks in the next collective,
 * forever.  So every call of the engine on the plan's communicator (the
 * face messages, MPI_Waitall, the collectives of creation, runs and
 * reductions) that fails goes through tile__mpi_failed(): it reports the
 * call, the rank (and thread) and the tile or stage, with MPI's error text,
 * on stderr (or hands that message to cfg.on_mpi_failure), then aborts the
 * job (MPI_Abort, errorcode TILE_ERR_MPI), as PETSc does.  On
 * MPI_COMM_WORLD, not the plan's communicator: MPICH and Open MPI end the
 * whole job either way, but MPICH 4.0's abort of another communicator
 * waits forever once the other ranks are in MPI_Finalize (they are when
 * the failed call was the last one they needed from this rank).
 * With ULFM (TILE__ULFM) it revokes the communicator instead: every rank's
 * pending and later calls on it fail at once (MPIX_ERR_REVOKED), each rank
 * records TILE_ERR_MPI (its message says that another rank failed first),
 * and the run ends on every rank with that code; the program can go on.
 */
#if !defined(TILE_NO_ULFM) && (defined(TILE_ULFM) || \
                               (defined(OMPI_HAVE_MPI_EXT_FTMPI) && OMPI_HAVE_MPI_EXT_FTMPI))
#ifndef MPIX_ERR_REVOKED
#error "TILE_ULFM: this MPI has no ULFM (no MPIX_ERR_REVOKED): leave TILE_ULFM undefined"
#endif
#define TILE__ULFM 1
#else
#define TILE__ULFM 0
#endif

TILEHYBRID__COLD void tile__mpi_failed(tile_plan *p, int t, int rc, const char *call,
                                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#if TILEHYBRID__DEFINE
/* Record the failure as thread t's error of the run (t >= 0) or as the
 * plan's (t < 0: creation, agreements). */
TILEHYBRID__COLD void tile__mpi_record(tile_plan *p, int t, const char *msg)
{
    if (t >= 0)
        tile_thread_fail(p, t, TILE_ERR_MPI, "%s", msg);
    else
        tile__fail(p, TILE_ERR_MPI, "", -1, "%s", msg);
}

/* MPI call @call of thread @t (-1: outside the threads of a run) returned
 * @rc; fmt says what it was doing (the tile, the peer).  Returns only
 * under ULFM, or if MPI_Abort returns. */
TILEHYBRID__COLD void tile__mpi_failed(tile_plan *p, int t, int rc, const char *call,
                                       const char *fmt, ...)
{
    char what[160], err[MPI_MAX_ERROR_STRING], who[48], msg[480];
    int cls = MPI_ERR_OTHER;
    va_list ap;
    va_start(ap, fmt);
    tilehybrid__mpi_texts(what, sizeof what, fmt, ap, rc, err);
    va_end(ap);
    (void)MPI_Error_class(rc, &cls);
    if (t >= 0 && p->cfg.threads > 1)
        snprintf(who, sizeof who, "rank %d, thread %d", p->rank, t);
    else
        snprintf(who, sizeof who, "rank %d", p->rank);
#if TILE__ULFM
    if (cls == MPIX_ERR_REVOKED || cls == MPIX_ERR_PROC_FAILED) {
        /* another rank failed first and revoked the communicator */
        snprintf(msg, sizeof msg, "tiling.h: %s: %s failed %s: another rank failed first and "
                 "revoked the plan's communicator (its message, on its stderr, names it)",
                 who, call, what);
        tile__mpi_record(p, t, msg);
        return;
    }
#endif
    snprintf(msg, sizeof msg, "tiling.h: %s: %s failed %s (%.120s)", who, call, what, err);
    tile__mpi_record(p, t, msg);
#if TILE__ULFM
    if (p->cfg.on_mpi_failure != NULL)
        p->cfg.on_mpi_failure(msg, p->cfg.on_mpi_failure_ctx);
    else
        fprintf(stderr, "%s; revoking the plan's communicator\n", msg);
    if (MPIX_Comm_revoke(p->comm) == MPI_SUCCESS)
        return;
#endif
    /* the headers' one abort path (tilehybrid.h): the hook or stderr, a
     * pause, MPI_Abort on MPI_COMM_WORLD (not p->comm: see "MPI failures") */
    tilehybrid_mpi_abort(msg, p->cfg.on_mpi_failure, p->cfg.on_mpi_failure_ctx, TILE_ERR_MPI);
}
#else
TILEHYBRID__COLD void tile__mpi_record(tile_plan *p, int t, const char *msg);
TILEHYBRID__COLD void tile__mpi_failed(tile_plan *p, int t, int rc, const char *call,
                                       const char *fmt, ...);
#endif

/* Thread t's scratch element of at least size bytes, where a refused
 * access lands: the slot's own 256 bytes, or memory of the thread's own
 * beyond that.  If that memory cannot be had, the access has nowhere to
 * land: the process stops with a message (MPI_Abort). */
static inline void *tile__scratch(tile_plan *p, int t, size_t size)
{
    tile__slot *sl = &p->run.slot[t];
    if (size <= sizeof sl->spare)
        return sl->spare;
    if (sl->scratch_bytes < size) {
        void *q = TILEHYBRID_MALLOC(size);
        if (q == NULL) {
            fprintf(stderr, "tiling.h: rank %d, thread %d: out of memory for the %llu-byte "
                    "scratch element of a refused TILE_AT (%s)\n", p->rank, t,
                    (unsigned long long)size, sl->msg);
            MPI_Abort(MPI_COMM_WORLD, 1);
            return sl->spare;
        }
        TILEHYBRID_FREE(sl->scratch);
        sl->scratch = q;
        sl->scratch_bytes = size;
    }
    return sl->scratch;
}

#if TILEHYBRID__DEFINE
/* "a x b x c": n sizes as text in buf. */
TILEHYBRID__COLD const char *tile__sizes_text(char *buf, size_t size, const int64_t *v, int n)
{
    size_t len = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%lld", i > 0 ? " x " : "",
                                (long long)v[i]);
    return buf;
}

/* The product of n sizes as text: the number, or "more than 2^63". */
TILEHYBRID__COLD const char *tile__product_text(char *buf, size_t size, const int64_t *v, int n)
{
    int64_t prod = 1;
    int i;
    for (i = 0; i < n; i++)
        if (!tilehybrid_mul_ok(prod, v[i], &prod)) {
            snprintf(buf, size, "more than 2^63");
            return buf;
        }
    snprintf(buf, size, "%lld", (long long)prod);
    return buf;
}

/* A byte count as text: the number, or "more than 2^63" (INT64_MAX: a
 * size that overflowed). */
TILEHYBRID__COLD const char *tile__bytes_text(char *buf, size_t size, int64_t bytes)
{
    if (bytes == INT64_MAX)
        snprintf(buf, size, "more than 2^63");
    else
        snprintf(buf, size, "%lld", (long long)bytes);
    return buf;
}
#else
TILEHYBRID__COLD const char *tile__sizes_text(char *buf, size_t size, const int64_t *v, int n);
TILEHYBRID__COLD const char *tile__product_text(char *buf, size_t size, const int64_t *v, int n);
TILEHYBRID__COLD const char *tile__bytes_text(char *buf, size_t size, int64_t bytes);
#endif

/* The values every rank must agree on: for each, the argument's name and
 * index (status.arg, status.index) and its full name for the message. */
typedef struct tile__agreed {
    int count;
    uint64_t v[64 + 5 * TILE_MAX_DIMS + TILE_MAX_STENCIL * (TILE_MAX_DIMS + 1)];
    int is_double[64 + 5 * TILE_MAX_DIMS + TILE_MAX_STENCIL * (TILE_MAX_DIMS + 1)];
    const char *arg[64 + 5 * TILE_MAX_DIMS + TILE_MAX_STENCIL * (TILE_MAX_DIMS + 1)];
    int index[64 + 5 * TILE_MAX_DIMS + TILE_MAX_STENCIL * (TILE_MAX_DIMS + 1)];
    char name[64 + 5 * TILE_MAX_DIMS + TILE_MAX_STENCIL * (TILE_MAX_DIMS + 1)]
             [TILEHYBRID_ARG_MAX];
} tile__agreed;

/* The longest name the ranks agree on (tile__io_finish); the names, with
 * their indices ("stencil[31][3]"), must fit TILEHYBRID_ARG_MAX whole: a
 * mismatch message and the status's arg name them (checked here when
 * compiled: a negative array size otherwise). */
#define TILE__NRED_NAME "number of reductions declared (tile_reduction_init)"
typedef char tile__arg_max_fits[sizeof TILE__NRED_NAME <= TILEHYBRID_ARG_MAX ? 1 : -1];

#if TILEHYBRID__DEFINE
/* The name a user writes for value v of the enum field @arg (storage,
 * order, grid_policy, balance.policy, messages, a reduction's operation),
 * or NULL. */
TILEHYBRID__COLD const char *tile__enum_name(const char *arg, int64_t v)
{
    static const char *const reduce[6] = { "TILE_REDUCE_SUM", "TILE_REDUCE_MIN",
                                           "TILE_REDUCE_MAX", "TILE_REDUCE_MAXLOC",
                                           "TILE_REDUCE_MINLOC", "TILE_REDUCE_SUM_U64" };
    static const char *const messages[3] = { "TILE_MESSAGES_PERSISTENT",
                                             "TILE_MESSAGES_NONBLOCKING",
                                             "TILE_MESSAGES_PARTITIONED" };
    static const char *const storage[2] = { "TILE_STORE_WINDOW", "TILE_STORE_FULL" };
    static const char *const order[4] = { "TILE_ORDER_PLANES", "TILE_ORDER_Z_INNER",
                                          "TILE_ORDER_HYPERPLANE", "TILE_ORDER_AUTO" };
    static const char *const grid[3] = { "TILE_GRID_COMM", "TILE_GRID_LATENCY",
                                         "TILE_GRID_TIME" };
    static const char *const bal[5] = { "BAL_POLICY_FIXED", "BAL_POLICY_CONSTANT",
                                        "BAL_POLICY_VARIABLE", "BAL_POLICY_ADAPTIVE",
                                        "BAL_POLICY_CUSTOM" };
    static const struct tile__enum_field {
        const char *arg;
        int count;
        const char *const *names;
    } fields[6] = { { "storage", 2, storage }, { "order", 4, order },
                    { "grid_policy", 3, grid }, { "balance.policy", 5, bal },
                    { "messages", 3, messages }, { "reduction", 6, reduce } };
    int k;
    for (k = 0; k < 6; k++)
        if (strcmp(arg, fields[k].arg) == 0)
            return v >= 0 && v < fields[k].count ? fields[k].names[v] : NULL;
    return NULL;
}

/* Value i of a as the user wrote it: a double in the fewest digits that
 * read back as the same double (0.6, not 0.59999999999999998), a model by
 * its name, the other enum fields by their constants (TILE_STORE_FULL),
 * the boundary as "set" or "NULL", other values as numbers. */
TILEHYBRID__COLD void tile__value_text(const tile__agreed *a, int i, uint64_t bits, char *buf,
                                       size_t size)
{
    int64_t v = (int64_t)bits;
    if (a->is_double[i]) {
        tilehybrid_double_text(tilehybrid_from_bits(bits), buf, size);
    } else if (strcmp(a->arg[i], "model") == 0 && tile_model_name((int)v) != NULL)
        snprintf(buf, size, "%s", tile_model_name((int)v));
    else if (strncmp(a->arg[i], "boundary", 8) == 0)
        snprintf(buf, size, "%s", v ? "set" : "NULL");
    else if (tile__enum_name(a->arg[i], v) != NULL)
        snprintf(buf, size, "%s", tile__enum_name(a->arg[i], v));
    else
        snprintf(buf, size, "%lld", (long long)v);
}

/* Adopt the failing rank's verdict (rank @rank, @code) on every rank. */
TILEHYBRID__COLD int tile__adopt(tile_plan *p, int code, int rank, const tilehybrid_verdict *w)
{
    p->status.code = TILE_OK;
    if (p->size > 1 && strncmp(w->text, "rank ", 5) != 0)   /* (named once: a message
                                                                 adopted twice has it) */
        tile__fail(p, code, w->arg, w->index, "rank %d: %s", rank, w->text);
    else
        tile__fail(p, code, w->arg, w->index, "%s", w->text);
    p->status.rank = rank;
    return code;
}

/* Every rank ends with the same code, argument, index and message: the
 * lowest failing rank's (its rank in front when there are several ranks),
 * or, when no rank failed, the first of a's values (if any) that differs
 * between ranks (status.rank -1: no one rank is at fault).  Collective. */
TILEHYBRID__COLD int tile__agree(tile_plan *p, const tile__agreed *a)
{
    tilehybrid_agreement r;
    tilehybrid_verdict w;
    char lo[32], hi[32];
    int rc;
    snprintf(w.text, sizeof w.text, "%s", p->errmsg);
    rc = tilehybrid_agree_status(p->comm, p->status.code, &p->status, a ? a->v : NULL,
                                 a ? a->count : 0, &w, &r);
    if (rc != MPI_SUCCESS) {
        if (p->status.code != TILE_ERR_MPI) /* (ULFM) keep this rank's own failure */
            p->status.code = TILE_OK;
        tile__mpi_failed(p, -1, rc, r.call, "in tilehybrid_agree(), "
                         "while the ranks agreed on %s", p->run.stage == 0 ? "the plan's creation"
                         : p->run.stage == 1 ? "the start of a run" : "the outcome of a run");
        return p->status.code;
    }
    if (r.code != TILE_OK)
        return tile__adopt(p, r.code, r.rank, &w);
    if (r.index < 0)
        return TILE_OK;
    tile__value_text(a, r.index, r.lo, lo, sizeof lo);
    tile__value_text(a, r.index, r.hi, hi, sizeof hi);
    tile__fail(p, TILE_ERR_MISMATCH, a->arg[r.index], a->index[r.index],
               "argument '%s' differs between ranks (%s vs %s)", a->name[r.index], lo, hi);
    p->status.rank = -1;
    return TILE_ERR_MISMATCH;
}
#else
TILEHYBRID__COLD const char *tile__enum_name(const char *arg, int64_t v);
TILEHYBRID__COLD void tile__value_text(const tile__agreed *a, int i, uint64_t bits, char *buf,
                                       size_t size);
TILEHYBRID__COLD int tile__adopt(tile_plan *p, int code, int rank, const tilehybrid_verdict *w);
TILEHYBRID__COLD int tile__agree(tile_plan *p, const tile__agreed *a);
#endif

#if TILEHYBRID__DEFINE
/* One value of the configuration for tile__check_all (name, index i, j). */
TILEHYBRID__COLD void tile__agreed_add(tile__agreed *a, const char *name, int i, int j,
                                       uint64_t v, int is_double)
{
    if (i < 0)
        snprintf(a->name[a->count], sizeof a->name[0], "%s", name);
    else if (j < 0)
        snprintf(a->name[a->count], sizeof a->name[0], "%s[%d]", name, i);
    else
        snprintf(a->name[a->count], sizeof a->name[0], "%s[%d][%d]", name, i, j);
    a->arg[a->count] = name;
    a->index[a->count] = i;
    a->v[a->count] = v;
    a->is_double[a->count++] = is_double;
}

/* Allocate n bytes, zeroed; NULL after a failure recorded in the plan. */
TILEHYBRID__COLD void *tile__alloc(tile_plan *p, size_t n, const char *what)
{
    void *q = TILEHYBRID_MALLOC(n > 0 ? n : 1);
    if (q == NULL)
        tile__fail(p, TILE_ERR_NOMEM, "", -1, "out of memory for %s (%llu bytes)", what,
                   (unsigned long long)n);
    else
        memset(q, 0, n);
    return q;
}
#else
TILEHYBRID__COLD void tile__agreed_add(tile__agreed *a, const char *name, int i, int j,
                                       uint64_t v, int is_double);
TILEHYBRID__COLD void *tile__alloc(tile_plan *p, size_t n, const char *what);
#endif

/* TILE__ALWAYS_INLINE: a function the compiler inlines even into a large
 * body (the step macros expand the body twice): the cursor's view must not
 * reach a function that is not inlined (struct tile__view), and the
 * reductions' fast path outside the SIMD loop is a few instructions. */
#if defined(__GNUC__)
#define TILE__ALWAYS_INLINE static inline __attribute__((always_inline, unused))
#else
#define TILE__ALWAYS_INLINE static inline
#endif

/* ==== src/tiling/15-order.h ==== */
#line 1 "src/tiling/15-order.h"
/* ------------------------------------------------------------------------ */
/* In-tile orders: what an order is                                         */

/* An in-tile order (enum tile_order) is the path a thread's walk takes
 * through the points of its tile (struct tile__walk, "The point cursor").
 * Each is one file, NN-order-NAME.h, that provides:
 *   tile__NAME_traits()  what the rest of the plan must know of it
 *                        (struct tile__order_traits);
 *   tile__NAME_walk()    the walk's loop levels (w->lev, outermost first),
 *                        the step of a run (w->dx, w->step) and its flags
 *                        (w->contig: a run's points are consecutive
 *                        elements; the SIMD loop's w->fast and w->diag);
 *   tile__NAME_run()     the run at the walk's position: its first point
 *                        (w->x) and its points (w->count), once per run;
 * and, where its plane is not row-major, its layout (the hyperplane
 * order's tile__hyperplane_layout); where it steps from one run to the
 * next without the walk's odometer, that step (the hyperplane order's
 * next diagonal and planes in pairs, tile__hyperplane_next, which
 * tile__walk_next calls inline where its walk set w->dstop).  19-orders.h
 * dispatches to them: a new order is one file and one case in each of its
 * dispatchers. */

/**
 * struct tile__order_traits - what the plan must know of an in-tile order
 * (private).
 * @name:   its name, for messages.
 * @min_n:  the least N it runs at (below it the plan runs the plane order).
 * @rows:   its plane is row-major, X_N contiguous (the rows of a face
 *          message run along X_N: tile__row_dim).
 * @mirror: the reads of z - 1 at a tile's first plane need the mirror below
 *          the ring even at d_Z = 1 (a run crosses the planes).
 * @llc:    the height's cache bound is the last-level cache, not a core's
 *          (tile__cache_bytes).
 * @pairs:  the N at which the walk hands out planes in pairs where the plan
 *          does not skew (tile_plane_pairs), or 0.
 */
typedef struct tile__order_traits {
    const char *name;
    int min_n;
    int rows;
    int mirror;
    int llc;
    int pairs;
} tile__order_traits;

/* ==== src/tiling/16-order-planes.h ==== */
#line 1 "src/tiling/16-order-planes.h"
/* ------------------------------------------------------------------------ */
/* In-tile order: planes (TILE_ORDER_PLANES)                                */

/* Z outermost, then the X dimensions in order; a run is a row along X_N,
 * its points consecutive elements of the row-major plane.  (An order is
 * one file like this one: 15-order.h.) */
static inline tile__order_traits tile__planes_traits(void)
{
    tile__order_traits t = { "planes", 1, 1, 0, 0, 0 };
    return t;
}

/* Its walk's loop levels (Z, then X_1 .. X_{N-1}) and its run's step (one
 * row's element: the contiguous loop runs it). */
static inline void tile__planes_walk(tile__walk *w, const tile_plan *p)
{
    int i, n = w->n;
    w->lev[w->nlev++] = n;
    for (i = 0; i < n - 1; i++)
        w->lev[w->nlev++] = i;
    w->dx[n - 1] = 1;
    w->step = (ptrdiff_t)(p->store.stride[n - 1] * (int64_t)w->esz);
#ifndef TILE_CHECK_ACCESS
    w->contig = w->step == (ptrdiff_t)w->esz;
#endif
}

/* The run at the walk's position: the row along X_N. */
static inline void tile__planes_run(tile__walk *w)
{
    int n = w->n;
    w->x[n - 1] = w->blo[n - 1];
    w->count = w->bhi[n - 1] - w->blo[n - 1];
}

/* ==== src/tiling/17-order-zinner.h ==== */
#line 1 "src/tiling/17-order-zinner.h"
/* ------------------------------------------------------------------------ */
/* In-tile order: Z inner (TILE_ORDER_Z_INNER)                              */

/* The X dimensions in order, Z innermost: a run is the tile's column along
 * Z (kernels whose Z recurrence is cheap), its points a plane's size apart.
 * The reads of z - 1 at a tile's first plane land in the ring's last
 * planes: the plan keeps a mirror of them even at d_Z = 1.  The height's
 * cache bound is the last-level cache, not a core's (tile__cache_bytes): a
 * run is a column of z points, which the level-2 bound would cut to a point
 * or two (ADI 64x256x16384, one process: 0.044 G points/s at z = 1 against
 * 0.12 at the last-level bound).  The plan never chooses it itself. */
static inline tile__order_traits tile__zinner_traits(void)
{
    tile__order_traits t = { "Z inner", 1, 1, 1, 1, 0 };
    return t;
}

/* Its walk's loop levels (X_1 .. X_N) and its run's step (one plane). */
static inline void tile__zinner_walk(tile__walk *w, const tile_plan *p)
{
    int i, n = w->n;
    for (i = 0; i < n; i++)
        w->lev[w->nlev++] = i;
    w->dx[n] = 1;
    w->step = (ptrdiff_t)p->store.plane_bytes;
#ifndef TILE_CHECK_ACCESS
    w->contig = w->step == (ptrdiff_t)w->esz;
#endif
    w->zany = 1;        /* a run crosses the planes: the first is checked */
}

/* The run at the walk's position: the column along Z. */
static inline void tile__zinner_run(tile__walk *w)
{
    int n = w->n;
    w->x[n] = w->blo[n];
    w->count = w->bhi[n] - w->blo[n];
}

/* ==== src/tiling/18-order-hyperplane.h ==== */
#line 1 "src/tiling/18-order-hyperplane.h"
/* ------------------------------------------------------------------------ */
/* In-tile order: hyperplane (TILE_ORDER_HYPERPLANE)                        */

/* Z outermost, then the X dimensions but two, a = wave[0] and b = wave[1],
 * then the anti-diagonals x_a + x_b = d of those two: the points of a
 * diagonal do not depend on each other, so the SIMD loop runs them.  The
 * plane is diagonal-major in a and b (tile__hyperplane_layout), so that a
 * diagonal is contiguous and every offset a constant stride.  Where it
 * does not skew and N = 2, the walk hands out planes z and z + 1 in pairs
 * (tile__walk_next), and the plan's height is at least 2. */
static inline tile__order_traits tile__hyperplane_traits(void)
{
    tile__order_traits t = { "hyperplane", 2, 0, 0, 0, 2 };
    return t;
}

/* Does the order suit a plan whose thread tiles are e[] points wide, the
 * second widest along a (TILE_ORDER_AUTO's choice)?  Where its diagonals
 * hold several points: N >= 2 and at least 8 along a (from the global
 * extents, so that every rank chooses alike). */
static inline int tile__hyperplane_suits(int n, const int64_t *e, int a)
{
    return n >= 2 && e[a] >= 8;
}

/* Its two dimensions: of the two widest, a and b, the one with the longer
 * local extent L falls along a diagonal (wave[1]), so that a
 * diagonal-major plane holds at most twice the points of a row-major one. */
static inline void tile__hyperplane_wave(int a, int b, const int64_t *L, tile_store *s)
{
    if (L[a] > L[b]) {
        int i = a;
        a = b;
        b = i;
    }
    s->wave[0] = a;
    s->wave[1] = b;
}

/* R, the distance between two diagonals of L points shifted by o: L + o
 * rounded up to whole lines of @line elements, one line more when that is
 * a multiple of 256 bytes; 0 on overflow. */
static inline int64_t tile__diag_stride(int64_t L, int64_t o, int64_t line, int64_t esz)
{
    int64_t R = 0;
    if (!tilehybrid_add_ok(L, o + line - 1, &R))
        return 0;
    R = R / line * line;
    if ((uint64_t)(R % 256) * (uint64_t)(esz % 256) % 256 == 0 &&   /* R esz % 256 */
        !tilehybrid_add_ok(R, line, &R))
        return 0;
    return R;
}

/* The diagonal-major slices of a plane (tile_plane_layout() says the
 * layout): t->diag = R, the strides along a (R + 1) and b (R), *o the
 * origin's shift and *pe the slice's elements (its diagonals and three
 * lines); the local extents L (ghosts included), d_a = dep_a, @line
 * elements a 64-byte line.  TILE_ERR_OVERFLOW past 2^63. */
static inline int tile__hyperplane_layout(const int64_t *L, int dep_a, int64_t line, int64_t esz,
                                          tile_store *t, int64_t *pe, int64_t *o)
{
    int a = t->wave[0], b = t->wave[1];
    int64_t R0 = tile__diag_stride(L[a], 0, line, esz), R, w = 0;
    *o = (line - dep_a % line) % line;     /* x_a = d_a at a line's start */
    R = tile__diag_stride(L[a], *o, line, esz);
    if (R <= 0 || R - R0 > R0 / 8) {     /* (more than 9/8 of R0, or overflow) */
        *o = 0;
        R = R0;
    }
    if (!(R > 0 && tilehybrid_add_ok(L[a], L[b] - 1, &w) && tilehybrid_mul_ok(w, R, pe) &&
          tilehybrid_add_ok(*pe, 3 * line, pe) && tilehybrid_add_ok(R, 1, &w)))
        return TILE_ERR_OVERFLOW;
    t->diag = R;
    t->stride[a] = w;        /* R + 1 */
    t->stride[b] = R;
    return TILE_OK;
}

/* Its walk's loop levels (Z, the X dimensions but a and b, the diagonal)
 * and the diagonals' constants: the step along a diagonal (+1 along a, -1
 * along b), the pair's plane step, and where the diagonals turn
 * (tile__walk_next). */
static inline void tile__hyperplane_walk(tile__walk *w, const tile_plan *p)
{
    int i, n = w->n, a = p->store.wave[0], b = p->store.wave[1];
    w->lev[w->nlev++] = n;
    for (i = 0; i < n; i++)
        if (i != a && i != b)
            w->lev[w->nlev++] = i;
    w->lev[w->nlev++] = n + 1;
    w->vlo[n + 1] = w->blo[a] + w->blo[b];
    w->vhi[n + 1] = w->bhi[a] + w->bhi[b] - 1;
    w->dx[a] = 1;
    w->dx[b] = -1;
    w->step = (ptrdiff_t)((p->store.stride[a] - p->store.stride[b]) * (int64_t)w->esz);
#ifndef TILE_CHECK_ACCESS
    w->fast = w->step == (ptrdiff_t)w->esz;
#endif
    w->diag = !p->deps.skewed;
    w->pl = w->lev[w->nlev - 2];
    w->pstep = (ptrdiff_t)((w->pl == n ? p->store.plane_elems : p->store.stride[w->pl]) *
                           (int64_t)w->esz);
    for (i = 0; i <= n; i++)
        w->pcol[i] = p->deps.inv[i][w->pl];
    w->wa = a;
    w->wb = b;
    w->dturn = w->bhi[b] - 1 + w->blo[a];
    w->sa = (ptrdiff_t)(p->store.stride[a] * (int64_t)w->esz);
    w->sb = (ptrdiff_t)(p->store.stride[b] * (int64_t)w->esz);
    for (i = 0; i <= n; i++) {
        w->ia[i] = p->deps.inv[i][a];
        w->ib[i] = p->deps.inv[i][b];
    }
}

/* The run at the walk's position: diagonal d = x[N + 1] of the slice, from
 * its first point (max(d - (bhi_b - 1), blo_a), d - that) on. */
static inline void tile__hyperplane_run(tile__walk *w)
{
    int a = w->wa, b = w->wb;
    int64_t d = w->x[w->n + 1], last = d - w->blo[b] < w->bhi[a] - 1 ? d - w->blo[b]
                                                                    : w->bhi[a] - 1;
    w->x[a] = d - (w->bhi[b] - 1) > w->blo[a] ? d - (w->bhi[b] - 1) : w->blo[a];
    w->x[b] = d - w->x[a];
    w->count = last - w->x[a] + 1;
}

/* Slices in pairs: B's run with the walk's is the walk's A run one slice
 * up (tile__walk_next; private). */
TILE__ALWAYS_INLINE void tile__walk_pair_b(tile__walk *w)
{
    int i;
    w->brun = w->run + w->pstep;
    w->bcount = w->count;
    w->points += w->count;
    for (i = 0; i <= w->n; i++)
        w->bsu[i] = w->su[i] + w->pcol[i];
}

/* The walk's next diagonal d of the same slice (tile__walk_next: the
 * common case, inline), from the last one: its first point moves one up
 * along wave[1] while d <= dturn, then one up along wave[0], so the address
 * and the user coordinates move by one of two constants; with the pairs,
 * B's diagonal d - 1 first. */
TILE__ALWAYS_INLINE void tile__hyperplane_next(tile__walk *w, int64_t d)
{
    int const n = w->n, a = w->wa, b = w->wb;
    int64_t const last = d - w->blo[b] < w->bhi[a] - 1 ? d - w->blo[b] : w->bhi[a] - 1;
    int64_t const *col;
    int64_t xa;
    int i;
    if (w->pair)                /* B's diagonal d - 1 */
        tile__walk_pair_b(w);
    w->x[n + 1] = d;
    if (d > w->dturn) {
        xa = w->sx[a] = ++w->x[a];
        col = w->ia;
        w->run += w->sa;
    } else {
        xa = w->x[a];
        w->sx[b] = ++w->x[b];
        col = w->ib;
        w->run += w->sb;
    }
    w->count = last - xa + 1;
    for (i = 0; i <= n; i++)    /* ux[] = su[] without clipping: tile__view_run */
        w->su[i] += col[i];
    w->points += w->count;
}

/* After the slice's last diagonal with the pairs: B's last diagonal alone
 * (A's count 0), then the walk goes on from slice B. */
TILE__ALWAYS_INLINE void tile__hyperplane_pair_end(tile__walk *w)
{
    int i;
    w->pair = 0;
    tile__walk_pair_b(w);
    w->count = 0;
    w->sx[w->pl] = ++w->x[w->pl];
    for (i = 0; i <= w->n; i++)
        w->su[i] = w->bsu[i];
}

/* ==== src/tiling/19-orders.h ==== */
#line 1 "src/tiling/19-orders.h"
/* ------------------------------------------------------------------------ */
/* In-tile orders: the dispatch                                             */

/* The traits of order o (enum tile_order; TILE_ORDER_AUTO: the plane
 * order's, which a plan runs when nothing else suits). */
static inline tile__order_traits tile__order_traits_of(int o)
{
    switch (o) {
    case TILE_ORDER_Z_INNER:
        return tile__zinner_traits();
    case TILE_ORDER_HYPERPLANE:
        return tile__hyperplane_traits();
    default:
        return tile__planes_traits();
    }
}

/* The order a plan runs (s->order) and, for the hyperplane order, the two
 * dimensions of its diagonals (s->wave): order itself, or for
 * TILE_ORDER_AUTO the hyperplane order where it suits
 * (tile__hyperplane_suits), else the plane order; an order that needs a
 * larger N than n runs as the plane order.  The widths e[i] are the points
 * per thread tile, from the global extents size (so that every rank
 * chooses alike); a and b the two widest (the later on a tie); L the
 * local extents. */
static inline void tile__order_choose(int n, const int64_t *size, const int *pdims,
                                      const int *tdims, const int64_t *L, int order,
                                      tile_store *s)
{
    int i, a = -1, b = -1;
    int64_t e[TILE_MAX_DIMS] = {0};
    for (i = 0; i < n; i++) {
        e[i] = size[i] / ((int64_t)pdims[i] * tdims[i]);
        if (b < 0 || e[i] >= e[b]) {
            a = b;
            b = i;
        } else if (a < 0 || e[i] >= e[a]) {
            a = i;
        }
    }
    s->order = order;
    if (s->order == TILE_ORDER_AUTO)
        s->order = tile__hyperplane_suits(n, e, a) ? TILE_ORDER_HYPERPLANE : TILE_ORDER_PLANES;
    if (n < tile__order_traits_of(s->order).min_n)
        s->order = TILE_ORDER_PLANES;
    s->wave[0] = s->wave[1] = -1;
    if (s->order == TILE_ORDER_HYPERPLANE)
        tile__hyperplane_wave(a, b, L, s);
}

/* The order's part of a walk (tile__walk_begin), after its box: the loop
 * levels, the run's step and flags; then which runs the checked loop runs:
 * the first of each plane (tile__walk_plane_checked), but with N = 1,
 * where a plane is one row and checking each would check every point (sw:
 * twice the instructions), the tile's first two rows (both parities of z:
 * a body's half-steps); an order whose run crosses the planes says so
 * itself (w->zany: its first run is checked). */
static inline void tile__order_walk(tile__walk *w, const tile_plan *p)
{
    w->nlev = 0;
    switch (w->order) {
    case TILE_ORDER_Z_INNER:
        tile__zinner_walk(w, p);
        break;
    case TILE_ORDER_HYPERPLANE:
        tile__hyperplane_walk(w, p);
        break;
    default:
        tile__planes_walk(w, p);
        break;
    }
    if (!w->zany && w->n == 1)
        w->zleft = 2;
}

/* The run at the walk's position (w->x, w->count), once per run. */
static inline void tile__order_run(tile__walk *w)
{
    switch (w->order) {
    case TILE_ORDER_Z_INNER:
        tile__zinner_run(w);
        break;
    case TILE_ORDER_HYPERPLANE:
        tile__hyperplane_run(w);
        break;
    default:
        tile__planes_run(w);
        break;
    }
}

/* ==== src/tiling/20-storage.h ==== */
#line 1 "src/tiling/20-storage.h"
/* ------------------------------------------------------------------------ */
/* Storage: planes, rows, packing                                           */

/* Plane z (z >= -d_Z).  The ring holds R planes, R a multiple of the tile
 * height, so a tile never wraps; d_Z mirror planes in front of it hold the
 * planes below z = 0, and, where store.mirror is set, later copies of the
 * ring's last d_Z planes, so that plane z - j is always j plane strides
 * below plane z inside a tile (without the copies, d_Z = 1: the ring's
 * first plane finds plane z - 1 R - 1 strides above it, tile__view_run). */
static inline unsigned char *tile__plane(const tile_plan *p, int64_t z)
{
    int64_t slot = p->deps.dz + (z >= 0 ? z % p->store.ring_planes : z);
    return p->store.ring + (size_t)slot * p->store.plane_bytes;
}

/* Byte offset within a plane of local coordinates x[0..n-1] (ghosts < 0). */
static inline ptrdiff_t tile__offset(const tile_plan *p, const int64_t *x)
{
    int64_t e = 0;
    int i;
    for (i = 0; i < p->cfg.n; i++)
        e += (x[i] + p->deps.d[i]) * p->store.stride[i];
    return (ptrdiff_t)((e + p->store.origin) * (int64_t)p->cfg.elem_size);
}

static inline int64_t tile__tile_z0(const tile_plan *p, int64_t k)
{
    return k * p->cfg.tile_height;
}

static inline int64_t tile__tile_z1(const tile_plan *p, int64_t k)
{
    int64_t z1 = (k + 1) * p->cfg.tile_height;
    return z1 < p->deps.size[p->cfg.n] ? z1 : p->deps.size[p->cfg.n];
}

/* Visit the rows along dimension rd of box [lo,hi) x planes [z0,z1):
 * calls fn(ctx, first point, bytes from a point to the next, points,
 * coords, z) per row (the other dimensions in row-major order around it).
 * Along the last dimension X_N the row is contiguous (step = elem_size) in
 * the row-major planes; any other is strided. */
typedef void (*tile__row_fn)(void *ctx, unsigned char *row, ptrdiff_t step, int64_t count,
                             const int64_t *x, int64_t z);

static inline void tile__for_rows_along(const tile_plan *p, int64_t z0, int64_t z1,
                                        const int64_t *lo, const int64_t *hi, int rd,
                                        tile__row_fn fn, void *ctx)
{
    int n = p->cfg.n, i;
    int64_t x[TILE_MAX_DIMS], z, count;
    ptrdiff_t step = (ptrdiff_t)(p->store.stride[rd] * (int64_t)p->cfg.elem_size);
    for (i = 0; i < n; i++)
        if (hi[i] <= lo[i])
            return;
    count = hi[rd] - lo[rd];
    for (z = z0; z < z1; z++) {
        unsigned char *base = tile__plane(p, z);
        for (i = 0; i < n; i++)
            x[i] = lo[i];
        for (;;) {
            fn(ctx, base + tile__offset(p, x), step, count, x, z);
            for (i = n - 1; i >= 0; i--) {
                if (i == rd)
                    continue;
                if (++x[i] < hi[i])
                    break;
                x[i] = lo[i];
            }
            if (i < 0)
                break;
        }
    }
}

/* The rows along the last dimension X_N (the order of tile_pack()'s
 * buffers and of the output). */
static inline void tile__for_rows(const tile_plan *p, int64_t z0, int64_t z1,
                                  const int64_t *lo, const int64_t *hi,
                                  tile__row_fn fn, void *ctx)
{
    tile__for_rows_along(p, z0, z1, lo, hi, p->cfg.n - 1, fn, ctx);
}

/* The dimension of the rows of a visit of box [lo, hi) whose order does
 * not matter: X_N where it is contiguous (the row-major planes of the
 * plane and Z-inner orders) and at least two cache lines of points long,
 * a memcpy per row; else the dimension with the most points (the last on
 * a tie), the fewest rows (a ghost face one point wide along X_N is one
 * row, not a row a point).  It depends on the box's extents and on the
 * plan's order only, so the two ends of a face message agree on it. */
static inline int tile__row_dim(const tile_plan *p, const int64_t *lo, const int64_t *hi)
{
    int i, rd = p->cfg.n - 1;
    int64_t lines2 = p->cfg.elem_size < 64 ? 128 / (int64_t)p->cfg.elem_size : 2;
    if (tile__order_traits_of(p->store.order).rows && hi[rd] - lo[rd] >= lines2)
        return rd;
    for (i = 0; i < p->cfg.n; i++)
        if (hi[i] - lo[i] > hi[rd] - lo[rd])
            rd = i;
    return rd;
}

/* Copy count elements of esz bytes, src_step and dst_step bytes apart.
 * A strided copy (the rows of the hyperplane layout run along a stride,
 * faces and mirror planes are copied row by row) moves each element with
 * a memcpy of constant size for the common sizes, which the compiler turns
 * into one load and one store (a library call per element costs more than
 * the point's computation). */
static inline void tile__copy_strided(unsigned char *dst, ptrdiff_t dst_step,
                                      const unsigned char *src, ptrdiff_t src_step,
                                      int64_t count, size_t esz)
{
    int64_t e;
    if (dst_step == (ptrdiff_t)esz && src_step == (ptrdiff_t)esz) {
        memcpy(dst, src, (size_t)count * esz);
        return;
    }
#define TILE__COPY_EACH(size)                                                      \
    for (e = 0; e < count; e++)                                                    \
        memcpy(dst + e * dst_step, src + e * src_step, (size))
    switch (esz) {
    case 4: TILE__COPY_EACH(4); break;
    case 8: TILE__COPY_EACH(8); break;
    case 16: TILE__COPY_EACH(16); break;
    default: TILE__COPY_EACH(esz); break;
    }
#undef TILE__COPY_EACH
}

typedef struct tile__copy_ctx {
    unsigned char *buf;
    size_t esz;
    int to_buf;
} tile__copy_ctx;

static inline void tile__copy_row(void *ctx, unsigned char *row, ptrdiff_t step, int64_t count,
                                  const int64_t *x, int64_t z)
{
    tile__copy_ctx *c = (tile__copy_ctx *)ctx;
    ptrdiff_t e = (ptrdiff_t)c->esz;
    (void)x;
    (void)z;
    if (c->to_buf)
        tile__copy_strided(c->buf, e, row, step, count, c->esz);
    else
        tile__copy_strided(row, step, c->buf, e, count, c->esz);
    c->buf += (size_t)count * c->esz;
}

/* Copy box [lo, hi) of tile k's planes to or from buf, rows along rd. */
static inline int64_t tile__pack_along(const tile_plan *p, int64_t k, const int64_t *lo,
                                       const int64_t *hi, int rd, unsigned char *buf, int to_buf)
{
    tile__copy_ctx cc;
    cc.buf = buf;
    cc.esz = p->cfg.elem_size;
    cc.to_buf = to_buf;
    tile__for_rows_along(p, tile__tile_z0(p, k), tile__tile_z1(p, k), lo, hi, rd,
                         tile__copy_row, &cc);
    return (int64_t)(cc.buf - buf);
}

/**
 * tile_pack() - copy a box of tile k's planes to or from a buffer.
 * @p:      the plan.
 * @k:      the tile (its planes z0..z1-1).
 * @lo, @hi: the box in local coordinates ([lo, hi) per dimension; ghost
 *          layers are below 0).
 * @buf:    the buffer: the box's points plane by plane, each plane in
 *          row-major order (X_N innermost).
 * @to_buf: 1 to pack (plane -> buffer), 0 to unpack.
 * Return: the bytes copied.  A building block of the models (messages;
 * the engine's own face messages may take the rows along another
 * dimension, the same at both ends).
 */
static inline int64_t tile_pack(const tile_plan *p, int64_t k, const int64_t *lo,
                                const int64_t *hi, unsigned char *buf, int to_buf)
{
    return tile__pack_along(p, k, lo, hi, p->cfg.n - 1, buf, to_buf);
}

/* tile_pack() for the engine's face messages: the rows along
 * tile__row_dim(), so that a face one point wide along X_N is a row, not a
 * row a point.  Both ends of a message pack and unpack
 * boxes of the same extents, hence in the same order. */
static inline int64_t tile__pack_face(const tile_plan *p, int64_t k, const int64_t *lo,
                                      const int64_t *hi, unsigned char *buf, int to_buf)
{
    return tile__pack_along(p, k, lo, hi, tile__row_dim(p, lo, hi), buf, to_buf);
}

/* y = a x + b over the indices 0..n (a and b: one of struct tile_deps'
 * maps). */
static inline void tile__affine(int n, const int64_t (*a)[TILE_MAX_DIMS + 1], const int64_t *b,
                                const int64_t *x, int64_t *y)
{
    int i, k;
    for (i = 0; i <= n; i++) {
        int64_t s = b[i];
        for (k = 0; k <= n; k++)
            s += a[i][k] * x[k];
        y[i] = s;
    }
}

/* The user's coordinates u[0..N] of internal global coordinates g[0..N]
 * (u = inv g + cinv: struct tile_deps). */
static inline void tile__to_user(const tile_plan *p, const int64_t *g, int64_t *u)
{
    tile__affine(p->cfg.n, p->deps.inv, p->deps.cinv, g, u);
}

/* The internal global coordinates g[0..N] of user coordinates u[0..N]
 * (g = m u + c). */
static inline void tile__to_internal(const tile_plan *p, const int64_t *u, int64_t *g)
{
    tile__affine(p->cfg.n, p->deps.m, p->deps.c, u, g);
}

/* For a plan that does not skew (internal dimension i is the user's
 * dimension i, reversed where the loop runs downward): the user's
 * coordinate along i of internal coordinate g. */
static inline int64_t tile__user(const tile_plan *p, int i, int64_t g)
{
    return p->deps.inv[i][i] * g + p->deps.cinv[i];
}

/* Is the user point u inside the space? */
static inline int tile__inside(const tile_plan *p, const int64_t *u)
{
    int n = p->cfg.n, i;
    for (i = 0; i <= n; i++)
        if (u[i] < 0 || u[i] >= (i < n ? p->cfg.extent[i] : p->cfg.zlen))
            return 0;
    return 1;
}

/* Division rounded down and up (b != 0). */
static inline int64_t tile__floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static inline int64_t tile__ceil_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) == (b < 0)) ? q + 1 : q;
}

/* floor(a / 2^k) and ceil(a / 2^k) (0 <= k < 62) by shifts of
 * non-negative values. */
static inline int64_t tile__floor_shift(int64_t a, int k)
{
    return a >= 0 ? a >> k : -((-a + ((int64_t)1 << k) - 1) >> k);
}

static inline int64_t tile__ceil_shift(int64_t a, int k)
{
    return a >= 0 ? (a + ((int64_t)1 << k) - 1) >> k : -((-a) >> k);
}

/* log2 |s| if |s| >= 2 is a power of two (below 2^62), else -1. */
static inline int tile__pow2(int64_t s)
{
    int k = 0;
    if (s < 0)
        s = -s;
    if (s < 2 || s > ((int64_t)1 << 61) || (s & (s - 1)) != 0)
        return -1;
    while (((int64_t)1 << k) != s)
        k++;
    return k;
}

/* The real points of a line whose first point has user coordinates u and
 * whose user coordinates move by s per step: the points t in [*a, *b)
 * (empty: *a >= *b), where every user coordinate stays in 0..E_i - 1.
 * The coordinates that do not move are tested first (a line outside the
 * space along one of them ends the test); steps of +-1 need no division,
 * steps of +-2^k a shift. */
static inline void tile__clip(const tile_plan *p, const int64_t *u, const int64_t *s,
                              int64_t *a, int64_t *b)
{
    int64_t lo = INT64_MIN / 4, hi = INT64_MAX / 4;
    int n = p->cfg.n, i;
    *a = *b = 0;
    for (i = 0; i <= n; i++)
        if (s[i] == 0 && (u[i] < 0 || u[i] >= (i < n ? p->cfg.extent[i] : p->cfg.zlen)))
            return;
    for (i = 0; i <= n; i++) {
        int64_t e = i < n ? p->cfg.extent[i] : p->cfg.zlen, base = u[i], l, h;
        int k;
        if (s[i] == 0)
            continue;
        /* 0 <= base + s t <= e - 1 */
        if (s[i] == 1) {
            l = -base;
            h = e - 1 - base;
        } else if (s[i] == -1) {
            l = base - (e - 1);
            h = base;
        } else if ((k = tile__pow2(s[i])) >= 0) {
            if (s[i] > 0) {
                l = tile__ceil_shift(-base, k);
                h = tile__floor_shift(e - 1 - base, k);
            } else {        /* s = -2^k: base - 2^k t in [0, e - 1] */
                l = tile__ceil_shift(base - (e - 1), k);
                h = tile__floor_shift(base, k);
            }
        } else if (s[i] > 0) {
            l = tile__ceil_div(-base, s[i]);
            h = tile__floor_div(e - 1 - base, s[i]);
        } else {
            l = tile__ceil_div(e - 1 - base, s[i]);
            h = tile__floor_div(-base, s[i]);
        }
        lo = l > lo ? l : lo;
        hi = h + 1 < hi ? h + 1 : hi;
    }
    *a = lo;
    *b = hi > lo ? hi : lo;
}

#if TILEHYBRID__DEFINE
/* The real points of the line through internal global g along the
 * internal direction v: the points g + t v, t in [*a, *b) (empty: *a >= *b).
 * Each user coordinate moves by inv v per step and must stay in 0..E_i - 1. */
TILEHYBRID__COLD void tile__real_line(const tile_plan *p, const int64_t *g, const int64_t *v,
                                      int64_t *a, int64_t *b)
{
    int64_t u[TILE_MAX_DIMS + 1], s[TILE_MAX_DIMS + 1];
    int n = p->cfg.n, i, k;
    tile__to_user(p, g, u);
    for (i = 0; i <= n; i++) {
        s[i] = 0;
        for (k = 0; k <= n; k++)
            s[i] += p->deps.inv[i][k] * v[k];
    }
    tile__clip(p, u, s, a, b);
}

/* The real points of the row through internal global g along internal
 * dimension k: g_k in [*a, *b) (empty: *a >= *b). */
TILEHYBRID__COLD void tile__real_span(const tile_plan *p, const int64_t *g, int k, int64_t *a,
                                      int64_t *b)
{
    int64_t v[TILE_MAX_DIMS + 1] = {0};
    v[k] = 1;
    tile__real_line(p, g, v, a, b);
    *a += g[k];
    *b += g[k];
}
#else
TILEHYBRID__COLD void tile__real_line(const tile_plan *p, const int64_t *g, const int64_t *v,
                                      int64_t *a, int64_t *b);
TILEHYBRID__COLD void tile__real_span(const tile_plan *p, const int64_t *g, int k, int64_t *a,
                                      int64_t *b);
#endif

/* memset that the compiler cannot merge with the malloc before it */
static void *(*volatile const tile__memset_v)(void *, int, size_t) = memset;

/* The boundary values of a row along dimension rd: count points from
 * local x, plane z, step bytes apart (zeros without a callback). */
static inline void tile__fill_along(const tile_plan *p, int rd, unsigned char *row,
                                    ptrdiff_t step, int64_t count, const int64_t *x, int64_t z)
{
    int64_t c[TILE_MAX_DIMS + 1], g[TILE_MAX_DIMS + 1], s[TILE_MAX_DIMS + 1], e;
    int i;
    if (count <= 0)
        return;
    if (p->cfg.boundary == NULL && p->cfg.boundary_row == NULL) {
        for (e = 0; e < count; e++)
            memset(row + e * step, 0, p->cfg.elem_size);
        return;
    }
    for (i = 0; i < p->cfg.n; i++)
        g[i] = p->lo[i] + x[i];
    g[p->cfg.n] = z;
    tile__to_user(p, g, c);
    for (i = 0; i <= p->cfg.n; i++)   /* one step along the row */
        s[i] = p->deps.inv[i][rd];
    if (p->cfg.boundary_row != NULL) {
        p->cfg.boundary_row(row, step, count, c, s, p->cfg.boundary_ctx);
        return;
    }
    for (e = 0; e < count; e++) {
        p->cfg.boundary(row + e * step, c, p->cfg.boundary_ctx);
        for (i = 0; i <= p->cfg.n; i++)
            c[i] += s[i];
    }
}

/* tile__fill_along() as a row visitor (ctx: struct tile__fill_ctx). */
typedef struct tile__fill_ctx {
    const tile_plan *p;
    int rd;
} tile__fill_ctx;

static inline void tile__fill_row(void *ctx, unsigned char *row, ptrdiff_t step, int64_t count,
                                  const int64_t *x, int64_t z)
{
    const tile__fill_ctx *f = (const tile__fill_ctx *)ctx;
    tile__fill_along(f->p, f->rd, row, step, count, x, z);
}

/* The boundary values of box [lo, hi) x planes [z0, z1), in rows along
 * tile__row_dim() (a ghost column of a plane is one call, not one a
 * point). */
static inline void tile__fill_box(const tile_plan *p, int64_t z0, int64_t z1, const int64_t *lo,
                                  const int64_t *hi)
{
    tile__fill_ctx f;
    f.p = p;
    f.rd = tile__row_dim(p, lo, hi);
    tile__for_rows_along(p, z0, z1, lo, hi, f.rd, tile__fill_row, &f);
}

/* ==== src/tiling/21-schedule.h ==== */
#line 1 "src/tiling/21-schedule.h"
/* ------------------------------------------------------------------------ */
/* Thread tiles and the schedule                                            */

/* The schedule record of tile k (valid while k is in flight). */
static inline int64_t tile__sigma(const tile_plan *p, int64_t k)
{
    return p->run.sigma[k % p->run.sched_w];
}

static inline int64_t *tile__bounds(const tile_plan *p, int64_t k)
{
    int ta = p->threads.bal_dim < 0 ? 1 : p->threads.dims[p->threads.bal_dim];
    return p->run.bounds + (size_t)(k % p->run.sched_w) * (size_t)(ta + 1);
}

/* Tile thread t computes at step s (and claim it), or -1. */
static inline int64_t tile__claim(tile_plan *p, int t, int64_t s)
{
    int64_t k;
    if (t < 0 || t >= p->cfg.threads)
        return -1;
    k = p->run.next_tile[8 * t];
    /* tile k was announced before its predecessor started (tile__advance),
     * so its record is stable by now */
    if (k >= p->ntiles || tile__sigma(p, k) + p->threads.delay[t] != s)
        return -1;
    p->run.next_tile[8 * t] = k + 1;
    return k;
}

/**
 * tile_thread_box() - the box of thread t in tile k.
 * @p: the plan; @t: the thread; @k: the tile (in flight).
 * @lo, @hi: receive local coordinates [lo, hi) per dimension.
 */
static inline void tile_thread_box(const tile_plan *p, int t, int64_t k, int64_t *lo,
                                   int64_t *hi)
{
    int i;
    for (i = 0; i < p->cfg.n; i++) {
        int c = p->threads.coord[t * p->cfg.n + i];
        const int64_t *b = i == p->threads.bal_dim ? tile__bounds(p, k) : p->threads.split[i];
        lo[i] = b[c];
        hi[i] = b[c + 1];
    }
}

/* The whole block, or its face in dimension i (last d_i layers, or the d_i
 * ghost layers below it), extended into the ghost layers of the dimensions
 * j < i that diagonal reads need (ext[i][j]). */
static inline void tile__block_face(const tile_plan *p, int i, int ghost, int64_t *lo,
                                    int64_t *hi)
{
    int j;
    for (j = 0; j < p->cfg.n; j++) {
        lo[j] = i > j ? -p->deps.ext[i][j] : 0;
        hi[j] = p->len[j];
    }
    if (i < 0)
        return;
    lo[i] = ghost ? -p->deps.d[i] : p->len[i] - p->deps.d[i];
    hi[i] = ghost ? 0 : p->len[i];
}

/**
 * tile_thread_face() - thread t's face in dimension i for tile k: the last
 * d_i layers of its box (@ghost 0, what it sends) or the d_i ghost layers
 * below it (@ghost 1, what it receives); a thread at the low edge of the
 * block along j < i also covers the ghost layers there that diagonal reads
 * need (the extended face, ext[i][j]).
 * @lo, @hi: receive the box (local coordinates).
 */
static inline void tile_thread_face(const tile_plan *p, int t, int64_t k, int i, int ghost,
                                    int64_t *lo, int64_t *hi)
{
    int j;
    tile_thread_box(p, t, k, lo, hi);
    for (j = 0; j < i; j++)
        if (lo[j] == 0)
            lo[j] = -p->deps.ext[i][j];
    if (ghost) {
        hi[i] = lo[i];
        lo[i] = lo[i] - p->deps.d[i];
    } else {
        lo[i] = hi[i] - p->deps.d[i];
    }
}

/** tile_box_bytes() - the bytes of box [lo, hi) over tile k's planes. */
static inline int64_t tile_box_bytes(const tile_plan *p, int64_t k, const int64_t *lo,
                                     const int64_t *hi)
{
    int64_t b = (int64_t)p->cfg.elem_size * (tile__tile_z1(p, k) - tile__tile_z0(p, k));
    int j;
    for (j = 0; j < p->cfg.n; j++)
        b *= hi[j] > lo[j] ? hi[j] - lo[j] : 0;
    return b;
}

/* Boundary values of the points row[a, b) (global along X_N) of a row
 * whose first point is at local x, plane z, points step bytes apart. */
static inline void tile__fill_span(const tile_plan *p, unsigned char *row, ptrdiff_t step,
                                   const int64_t *x, int64_t z, int64_t a, int64_t b)
{
    int n = p->cfg.n;
    int64_t first = p->lo[n - 1] + x[n - 1], xx[TILE_MAX_DIMS];
    if (b <= a)
        return;
    memcpy(xx, x, sizeof(int64_t) * (size_t)n);
    xx[n - 1] = a - p->lo[n - 1];
    tile__fill_along(p, n - 1, row + (a - first) * step, step, b - a, xx, z);
}

/* Fill the union of the intervals iv[0..m-1] ([lo, hi) along the row)
 * once (tile__holes_row). */
static inline void tile__fill_union(const tile_plan *p, unsigned char *row, ptrdiff_t step,
                                    const int64_t *x, int64_t z, int64_t (*iv)[2], int m)
{
    int i, j;
    int64_t lo, hi;
    for (i = 1; i < m; i++) {       /* by start (m <= TILE_MAX_STENCIL) */
        int64_t l = iv[i][0], h = iv[i][1];
        for (j = i; j > 0 && iv[j - 1][0] > l; j--) {
            iv[j][0] = iv[j - 1][0];
            iv[j][1] = iv[j - 1][1];
        }
        iv[j][0] = l;
        iv[j][1] = h;
    }
    for (i = 0; i < m; i = j) {
        lo = iv[i][0];
        hi = iv[i][1];
        for (j = i + 1; j < m && iv[j][0] <= hi; j++)
            hi = iv[j][1] > hi ? iv[j][1] : hi;
        tile__fill_span(p, row, step, x, z, lo, hi);
    }
}

/* A skewed plan, one row of a thread's tile: the points outside the space
 * that a real point reads (q + o' for a real q and an internal offset o')
 * get their boundary values, each once; the real points are computed.  The
 * readers of the row through stencil vector k lie on the row g - o'_k,
 * whose user coordinates are those of g less the vector's own (its user
 * offsets): one conversion to user coordinates per row. */
static inline void tile__holes_row(void *ctx, unsigned char *row, ptrdiff_t step, int64_t count,
                                   const int64_t *x, int64_t z)
{
    const tile_plan *p = (const tile_plan *)ctx;
    int n = p->cfg.n, i, k, nlo = 0, nhi = 0;
    int64_t g[TILE_MAX_DIMS + 1], u[TILE_MAX_DIMS + 1], uq[TILE_MAX_DIMS + 1];
    int64_t sv[TILE_MAX_DIMS + 1], a, b, t0, t1;
    int64_t lo_iv[TILE_MAX_STENCIL][2], hi_iv[TILE_MAX_STENCIL][2];
    int64_t gl = p->lo[n - 1] + x[n - 1], gh = gl + count;
    for (i = 0; i < n; i++)
        g[i] = p->lo[i] + x[i];
    g[n] = z;
    tile__to_user(p, g, u);
    for (i = 0; i <= n; i++)
        sv[i] = p->deps.inv[i][n - 1];      /* one step along the row, X_N */
    tile__clip(p, u, sv, &t0, &t1);
    a = g[n - 1] + t0;                      /* the real points: [a, b) */
    b = g[n - 1] + (t1 > t0 ? t1 : t0);
    for (k = 0; k < p->cfg.nstencil; k++) {
        int64_t lo1, hi1;
        for (i = 0; i <= n; i++)
            uq[i] = u[i] - p->cfg.stencil[k][i];
        tile__clip(p, uq, sv, &t0, &t1);
        if (t1 <= t0)
            continue;
        lo1 = g[n - 1] + t0 > gl ? g[n - 1] + t0 : gl;     /* the points they read */
        hi1 = g[n - 1] + t1 < gh ? g[n - 1] + t1 : gh;
        if (lo1 < (hi1 < a ? hi1 : a)) {
            lo_iv[nlo][0] = lo1;
            lo_iv[nlo++][1] = hi1 < a ? hi1 : a;
        }
        if ((lo1 > b ? lo1 : b) < hi1) {
            hi_iv[nhi][0] = lo1 > b ? lo1 : b;
            hi_iv[nhi++][1] = hi1;
        }
    }
    tile__fill_union(p, row, step, x, z, lo_iv, nlo);
    tile__fill_union(p, row, step, x, z, hi_iv, nhi);
}

/* Fill the global-boundary ghost layers of thread t for tile k. */
TILEHYBRID__WARM void tile__fill_boundary(tile_plan *p, int t, int64_t k);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile__fill_boundary(tile_plan *p, int t, int64_t k)
{
    int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
    int i;
    for (i = 0; i < p->cfg.n; i++) {
        if (p->deps.d[i] == 0 || p->pcoords[i] != 0 ||
            p->threads.coord[t * p->cfg.n + i] != 0)
            continue;
        tile_thread_face(p, t, k, i, 1, lo, hi);
        tile__fill_box(p, tile__tile_z0(p, k), tile__tile_z1(p, k), lo, hi);
    }
    if (p->deps.skewed) {
        tile_thread_box(p, t, k, lo, hi);
        tile__for_rows(p, tile__tile_z0(p, k), tile__tile_z1(p, k), lo, hi, tile__holes_row,
                       p);
    }
}
#endif

#if TILEHYBRID__DEFINE
/* Fill the d_Z planes below Z = 0 for the whole block and its ghosts. */
TILEHYBRID__COLD void tile__fill_zlow(tile_plan *p)
{
    int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
    int i;
    tile__block_face(p, -1, 0, lo, hi);
    for (i = 0; i < p->cfg.n; i++)
        lo[i] = -p->deps.d[i];      /* diagonal reads of z < 0 reach the ghosts */
    tile__fill_box(p, -(int64_t)p->deps.dz, 0, lo, hi);
}
#else
TILEHYBRID__COLD void tile__fill_zlow(tile_plan *p);
#endif

/* Give tile k its thread split (the balancing factor along bal_dim) and its
 * start step.  Called by one thread, for tiles no thread computes yet. */
static inline void tile__announce(tile_plan *p, int64_t k)
{
    int64_t *b = tile__bounds(p, k);
    int changed = 0, d = p->threads.bal_dim;
    if (d >= 0) {
        int ta = p->threads.dims[d], u;
        int64_t first = 0, count = 0;
        double f = p->run.balancing ? bal_policy_tile(&p->run.bal, k) : 1.0;
        b[0] = 0;
        for (u = 0; u < ta; u++) {
            bal_split_part(p->len[d], ta, f, u, &first, &count);
            b[u + 1] = first + count;
        }
        if (k > 0)
            changed = memcmp(b, tile__bounds(p, k - 1), sizeof(int64_t) * (size_t)(ta + 1)) != 0;
    }
    p->run.sigma[k % p->run.sched_w] = k == 0 ? 0 : tile__sigma(p, k - 1) + 1 +
                                                     (changed ? p->threads.skew : 0);
    p->run.bal_changes += changed;
    p->run.announced = k + 1;
    if (k == p->ntiles - 1) {
        int64_t n = tile__sigma(p, k) + p->threads.skew + 1;
#ifdef _OPENMP
#pragma omp critical(tile__nsteps_lock)
#endif
        p->run.nsteps = n;
    }
}

/** tile_nsteps() - the run's steps (INT64_MAX until the last tile is
 *  scheduled).  Read by every thread at the end of every step while the
 *  thread that does the messages may set it: a named critical section
 *  (gcc 12 misreports "omp atomic" operands as unused). */
static inline int64_t tile_nsteps(const tile_plan *p)
{
    int64_t v;
#ifdef _OPENMP
#pragma omp critical(tile__nsteps_lock)
#endif
    v = p->run.nsteps;
    return v;
}

/* ==== src/tiling/22-boxes.h ==== */
#line 1 "src/tiling/22-boxes.h"
/* ------------------------------------------------------------------------ */
/* Boxes: tile_get, the boxes of the data calls, packing                    */

/* The data calls (tile_get and the section "Data in and out") on a plan
 * that cannot serve them: TILE_OK if the plan was created, else the code
 * of its failed creation (TILE_ERR_NULL for a plan never created or
 * already destroyed).  The same on every rank, so the collective calls
 * return it before any collective. */
static inline int tile__data_refused(const tile_plan *p)
{
    if (p == NULL || p->comm == MPI_COMM_NULL)
        return TILE_ERR_NULL;
    if (!p->run.created)
        return p->status.code != TILE_OK ? p->status.code : TILE_ERR_NULL;
    return TILE_OK;
}

/* The refusals of the calls that must not run while the plan runs: those
 * of every data call, and TILE_ERR_BODY for a plan that is running on this
 * rank (a call from its body or one of its hooks) or whose last run a
 * return left unfinished.  The calls that set a hook, a target or a
 * reduction for the following runs would free or change what the run
 * uses; the collective ones (tile_gather, tile_exchange) would wait in a
 * collective for ranks that are inside the run, or meet the run's own
 * messages.  Local, and before any collective: the ranks that call from a
 * body or a hook need not be all of them. */
static inline int tile__busy_refused(const tile_plan *p)
{
    int rc = tile__data_refused(p);
    return rc == TILE_OK && p->run.active ? TILE_ERR_BODY : rc;
}

/**
 * tile_get() - read a computed point after a run.
 * @plan:  the plan.
 * @coord: global coordinates x_1..x_N, z (the user's).
 * @out:   receives elem_size bytes (untouched unless TILE_OK).
 * Local.  Every rank may ask for any point; the one that owns it and still
 * stores it (always with TILE_STORE_FULL; the last planes of the window
 * otherwise) gets it.
 * Return: TILE_OK (copied), TILE_ERR_NULL, TILE_ERR_RANGE (a point outside
 * the space), TILE_ERR_NOT_STORED (another rank's point, one the window
 * dropped, or any before a run completed without an error: nothing, or a
 * failed run's values), TILE_ERR_BODY (from the running plan's body or
 * hooks), or the code of the plan's failed creation (TILE_ERR_NULL for a
 * plan never created or destroyed).  (Before 0.2 it
 * returned 1 when copied and 0 otherwise.)
 */
static inline int tile_get(const tile_plan *plan, const int64_t *coord, void *out)
{
    int64_t x[TILE_MAX_DIMS], g[TILE_MAX_DIMS + 1] = {0}, zlen, h, R, keep, z;
    int i;
    if (plan == NULL || coord == NULL || out == NULL)
        return TILE_ERR_NULL;
    if ((i = tile__busy_refused(plan)) != TILE_OK)
        return i;
    if (!tile__inside(plan, coord))
        return TILE_ERR_RANGE;
    if (!plan->run.completed || plan->status.code != TILE_OK)
        return TILE_ERR_NOT_STORED;     /* nothing computed, or a failed run's */
    zlen = plan->deps.size[plan->cfg.n];
    h = plan->cfg.tile_height < zlen ? plan->cfg.tile_height : zlen;
    R = plan->store.ring_planes;
    keep = R >= plan->ntiles * h ? zlen : R - h;
    tile__to_internal(plan, coord, g);
    z = g[plan->cfg.n];
    if (z < 0 || z >= zlen || z < zlen - keep)
        return TILE_ERR_NOT_STORED;
    for (i = 0; i < plan->cfg.n; i++) {
        x[i] = g[i] - plan->lo[i];
        if (x[i] < 0 || x[i] >= plan->len[i])
            return TILE_ERR_NOT_STORED;
    }
    memcpy(out, tile__plane(plan, z) + tile__offset(plan, x), plan->cfg.elem_size);
    return TILE_OK;
}

/** tile_box_points() - the points of a box (0 when empty). */
static inline int64_t tile_box_points(const tile_box *b)
{
    int64_t v = 1;
    int i;
    for (i = 0; i < b->ndims; i++)
        v *= b->len[i] > 0 ? b->len[i] : 0;
    return v;
}

/** tile_box_stride() - elements between neighbours along dimension i of an
 *  array over box b (Z last): the product of the lengths after i. */
static inline int64_t tile_box_stride(const tile_box *b, int i)
{
    int64_t s = 1;
    int j;
    for (j = i + 1; j < b->ndims; j++)
        s *= b->len[j];
    return s;
}

/**
 * tile_box_index() - where point c is in an array over box b.
 * @b: the box; @c: b->ndims user coordinates (Z last).
 * Return: the element index (row-major, Z last), or -1 when c is outside.
 */
static inline int64_t tile_box_index(const tile_box *b, const int64_t *c)
{
    int64_t idx = 0;
    int i;
    for (i = 0; i < b->ndims; i++) {
        if (c[i] < b->lo[i] || c[i] - b->lo[i] >= b->len[i])
            return -1;
        idx = idx * b->len[i] + (c[i] - b->lo[i]);
    }
    return idx;
}

/**
 * tile_box_intersect() - the common points of two boxes.
 * @a, @b: boxes of the same ndims; @out: receives the intersection.
 * Return: 1 if it is not empty, else 0 (out then has a 0 length).
 */
static inline int tile_box_intersect(const tile_box *a, const tile_box *b, tile_box *out)
{
    int i, ne = a->ndims == b->ndims;
    tile_box r;
    memset(&r, 0, sizeof r);
    r.ndims = a->ndims;
    for (i = 0; i < a->ndims && ne; i++) {
        int64_t lo = a->lo[i] > b->lo[i] ? a->lo[i] : b->lo[i];
        int64_t ha = a->lo[i] + (a->len[i] > 0 ? a->len[i] : 0);
        int64_t hb = b->lo[i] + (b->len[i] > 0 ? b->len[i] : 0);
        int64_t hi = ha < hb ? ha : hb;
        r.lo[i] = lo;
        r.len[i] = hi > lo ? hi - lo : 0;
        ne = hi > lo;
    }
    *out = r;
    return ne;
}

/**
 * tile_box_copy() - copy the common points of two arrays over boxes.
 * @from, @src: the source box and its array (row-major, Z last).
 * @to, @dst:   the destination box and its array.
 * @esz:        bytes per element.
 * @copied:     set to the points copied (0 when the boxes do not meet);
 *              NULL if not wanted.
 * A local copy, bit for bit (the output hook drops a tile into an array of
 * the block with it).
 * Return: TILE_OK; TILE_ERR_NULL (a box, or an array the copy needs, is
 * NULL); TILE_ERR_NDIMS (the boxes' ndims differ or are outside
 * 1..TILE_MAX_DIMS + 1).  Nothing is copied on an error.
 */
static inline int tile_box_copy(const tile_box *from, const void *src, const tile_box *to,
                                void *dst, size_t esz, int64_t *copied)
{
    tile_box c;
    int64_t x[TILE_MAX_DIMS + 1], n = 0;
    int d, i;
    if (copied != NULL)
        *copied = 0;
    if (from == NULL || to == NULL)
        return TILE_ERR_NULL;
    d = from->ndims;
    if (d < 1 || d > TILE_MAX_DIMS + 1 || to->ndims != d)
        return TILE_ERR_NDIMS;
    if (!tile_box_intersect(from, to, &c))
        return TILE_OK;
    if (src == NULL || dst == NULL)
        return TILE_ERR_NULL;
    for (i = 0; i < d; i++)
        x[i] = c.lo[i];
    for (;;) {
        int64_t is = tile_box_index(from, x), id = tile_box_index(to, x);
        memcpy((unsigned char *)dst + (size_t)id * esz,
               (const unsigned char *)src + (size_t)is * esz, (size_t)c.len[d - 1] * esz);
        n += c.len[d - 1];
        for (i = d - 2; i >= 0; i--) {
            if (++x[i] < c.lo[i] + c.len[i])
                break;
            x[i] = c.lo[i];
        }
        if (i < 0)
            break;
    }
    if (copied != NULL)
        *copied = n;
    return TILE_OK;
}

/* The block of the process at Cartesian coordinates pc, in the user's
 * coordinates, over the whole of Z. */
static inline void tile__block_box(const tile_plan *p, const int *pc, tile_box *b)
{
    int i, n = p->cfg.n;
    memset(b, 0, sizeof *b);
    b->ndims = n + 1;
    for (i = 0; i < n; i++) {
        int64_t lo = 0, len = 0;
        topo_block(p->cfg.extent[i], p->pdims[i], pc[i], &lo, &len);
        b->lo[i] = p->deps.dir[i] > 0 ? lo : p->cfg.extent[i] - lo - len;
        b->len[i] = len;
    }
    b->lo[n] = 0;
    b->len[n] = p->cfg.zlen;
}

/* Internal planes [z0, z1) as the user's Z range: b->lo[N], b->len[N]. */
static inline void tile__zbox(const tile_plan *p, int64_t z0, int64_t z1, tile_box *b)
{
    int n = p->cfg.n;
    b->lo[n] = p->deps.dir[n] > 0 ? z0 : p->cfg.zlen - z1;
    b->len[n] = z1 - z0;
}

/**
 * tile_input_box() - the box of an input array that this rank needs.
 * @plan:  the plan (after tile_plan_create).
 * @tile:  TILE_ALL_TILES for the whole of Z, or a tile 0..plan->ntiles-1
 *         (its planes; tiles are numbered in the order the loop runs, so
 *         with cfg.dir[N] = -1 tile 0 holds the highest Z).
 * @reach: how far around each point the body reads the array (NULL: at
 *         the point only; tile_reach_stencil() gives the stencil's reach).
 * @box:   receives the box in the user's coordinates: this rank's block
 *         (mirrored where cfg.dir is -1) and the tile's planes, widened by
 *         the reach and clipped to the space (what lies outside is the
 *         boundary's business).
 * @st:    NULL, or the argument at fault.
 *
 * Local, no communication.  Allocate tile_box_points(box) elements, fill
 * them (from a file, a formula, tile_exchange()), and read them in the body
 * at tile_input_index(&it, &box), plus o * tile_box_stride(&box, i) for an
 * offset o along i.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_RANGE (a tile outside
 * TILE_ALL_TILES..ntiles-1, a reach outside 0..2^30), TILE_ERR_SKEWED (the
 * plan skews its stencil: a block is not a box of the user's space; give
 * such a plan its input through the boundary function, or read an array
 * over the whole space with tile_input_index()).
 */
static inline int tile_input_box(const tile_plan *plan, int64_t tile, const tile_reach *reach,
                                 tile_box *box, tilehybrid_status *st)
{
    int i, n;
    if (plan == NULL || box == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, plan == NULL ? "plan" : "box", -1);
    if ((i = tile__data_refused(plan)) != TILE_OK)
        return tilehybrid_status_set(st, i, "plan", -1);
    n = plan->cfg.n;
    if (plan->deps.skewed)
        return tilehybrid_status_set(st, TILE_ERR_SKEWED, "plan", -1);
    if (tile < TILE_ALL_TILES || tile >= plan->ntiles)
        return tilehybrid_status_set(st, TILE_ERR_RANGE, "tile", tile);
    for (i = 0; reach != NULL && i <= n; i++)
        if (reach->below[i] < 0 || reach->above[i] < 0 || reach->below[i] > (1 << 30) ||
            reach->above[i] > (1 << 30))
            return tilehybrid_status_set(st, TILE_ERR_RANGE, "reach", i);
    tile__block_box(plan, plan->pcoords, box);
    if (tile >= 0)
        tile__zbox(plan, tile__tile_z0(plan, tile), tile__tile_z1(plan, tile), box);
    for (i = 0; reach != NULL && i <= n; i++) {
        int64_t ext = i < n ? plan->cfg.extent[i] : plan->cfg.zlen;
        int64_t lo = box->lo[i] - reach->below[i], hi = box->lo[i] + box->len[i];
        hi = ext - hi > reach->above[i] ? hi + reach->above[i] : ext;
        box->lo[i] = lo > 0 ? lo : 0;
        box->len[i] = hi - box->lo[i];
    }
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}

#if TILEHYBRID__DEFINE
/**
 * tile_reach_stencil() - the reach of the plan's stencil: per dimension the
 * largest distance below and above the point that a declared vector (or
 * the widths dep[]/depz, read against the loop's direction) reads.
 * @plan: the plan; @reach: receives it.
 * Return: TILE_OK or TILE_ERR_NULL.
 */
TILEHYBRID__COLD int tile_reach_stencil(const tile_plan *plan, tile_reach *reach)
{
    int i, k, n;
    if (plan == NULL || reach == NULL)
        return TILE_ERR_NULL;
    if ((i = tile__data_refused(plan)) != TILE_OK)
        return i;
    memset(reach, 0, sizeof *reach);
    n = plan->cfg.n;
    for (i = 0; i <= n && plan->cfg.nstencil == 0; i++) {
        int d = i < n ? plan->deps.d[i] : plan->deps.dz;
        if (plan->deps.dir[i] > 0)
            reach->below[i] = d;
        else
            reach->above[i] = d;
    }
    for (k = 0; k < plan->cfg.nstencil; k++)
        for (i = 0; i <= n; i++) {
            int o = plan->cfg.stencil[k][i];
            if (-o > reach->below[i])
                reach->below[i] = -o;
            if (o > reach->above[i])
                reach->above[i] = o;
        }
    return TILE_OK;
}
#else
TILEHYBRID__COLD int tile_reach_stencil(const tile_plan *plan, tile_reach *reach);
#endif

#if TILEHYBRID__DEFINE
/**
 * tile_stored_zrange() - the Z range (user coordinates) that tile_gather()
 * and tile_get() can read now.
 * @plan: the plan.
 * @z0, @zlen: receive the range [z0, z0 + zlen).
 *
 * Only after a run that completed without error (until the next run
 * starts).  TILE_STORE_FULL keeps every plane; the Z window keeps the last
 * R - z planes the loop computed (R the window's planes, z the tile height;
 * every plane when the window covers Z): z >= Z - (R - z) when the loop
 * runs upward along Z, z < R - z when it runs downward.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_NOT_STORED (no completed
 * run; the range is then empty), or TILE_ERR_SKEWED (the plan skews its
 * stencil: what it stores is not a range of the user's Z; tile_get()
 * tells point by point).
 */
TILEHYBRID__COLD int tile_stored_zrange(const tile_plan *plan, int64_t *z0, int64_t *zlen)
{
    int64_t h, keep, Z;
    int refused;
    if (plan == NULL || z0 == NULL || zlen == NULL)
        return TILE_ERR_NULL;
    *z0 = *zlen = 0;
    if ((refused = tile__data_refused(plan)) != TILE_OK)
        return refused;
    if (plan->deps.skewed)
        return TILE_ERR_SKEWED;
    if (!plan->run.completed || plan->status.code != TILE_OK)
        return TILE_ERR_NOT_STORED;
    Z = plan->cfg.zlen;
    h = plan->cfg.tile_height < Z ? plan->cfg.tile_height : Z;
    /* the same rule as tile_get() */
    keep = plan->store.ring_planes >= plan->ntiles * h ? Z : plan->store.ring_planes - h;
    *z0 = plan->deps.dir[plan->cfg.n] > 0 ? Z - keep : 0;
    *zlen = keep;
    return TILE_OK;
}
#else
TILEHYBRID__COLD int tile_stored_zrange(const tile_plan *plan, int64_t *z0, int64_t *zlen);
#endif

/* Packing the stored block, in the user's coordinates: rows of the plan's
 * planes into an array over box (Z last or Z first). */
typedef struct tile__packer {
    const tile_plan *p;
    unsigned char *dst;
    const tile_box *box;
    int layout;
    int64_t plane;      /* points of one plane of the box */
} tile__packer;

static inline void tile__pack_row(void *ctx, unsigned char *row, ptrdiff_t rstep, int64_t cnt,
                                  const int64_t *x, int64_t z)
{
    const tile__packer *k = (const tile__packer *)ctx;
    const tile_plan *p = k->p;
    const tile_box *b = k->box;
    int n = p->cfg.n, i;
    size_t esz = p->cfg.elem_size;
    int64_t idx = 0, step;
    for (i = 0; i < n; i++)
        idx = idx * b->len[i] + (tile__user(p, i, p->lo[i] + x[i]) - b->lo[i]);
    if (k->layout == TILE_LAYOUT_Z_LAST) {
        idx = idx * b->len[n] + (tile__user(p, n, z) - b->lo[n]);
        step = b->len[n] * p->deps.dir[n - 1];
    } else {
        idx += (tile__user(p, n, z) - b->lo[n]) * k->plane;
        step = p->deps.dir[n - 1];
    }
    tile__copy_strided(k->dst + (size_t)idx * esz, (ptrdiff_t)(step * (int64_t)esz), row, rstep,
                       cnt, esz);
}

/* Pack this rank's block over internal planes [z0, z1) into dst, an array
 * over box (the block and the user's Z range of those planes). */
static inline void tile__pack_block(const tile_plan *p, int64_t z0, int64_t z1,
                                    const tile_box *box, int layout, void *dst)
{
    int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
    tile__packer k;
    int i;
    k.p = p;
    k.dst = (unsigned char *)dst;
    k.box = box;
    k.layout = layout;
    k.plane = 1;
    for (i = 0; i < p->cfg.n; i++) {
        hi[i] = p->len[i];
        k.plane *= box->len[i];
    }
    tile__for_rows(p, z0, z1, lo, hi, tile__pack_row, &k);
}

/* ==== src/tiling/30-faces.h ==== */
#line 1 "src/tiling/30-faces.h"
/* ------------------------------------------------------------------------ */
/* Whole-face messages (models mpi, fine, funneled)                         */

#if TILEHYBRID__DEFINE
/**
 * tile_mpi_check() - an MPI call of thread @t in a run: a failure is the
 * run's error, handled as the engine's own (see "MPI failures": reported,
 * then the plan's communicator is aborted).
 * @p:    the plan.
 * @t:    the calling thread (0 outside a parallel region).
 * @rc:   the call's return code.
 * @call: the call's name for the message ("MPI_Isend").
 * Return: @rc.
 */
TILEHYBRID__COLD int tile_mpi_check(tile_plan *p, int t, int rc, const char *call)
{
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, t, rc, call != NULL ? call : "an MPI call", "in a run");
    return rc;
}
#else
TILEHYBRID__COLD int tile_mpi_check(tile_plan *p, int t, int rc, const char *call);
#endif

/* A message of @bytes as (count, type): bytes of MPI_BYTE up to
 * TILE_MSG_MAX, else one element of a derived datatype (whole blocks of
 * TILE_MSG_MAX bytes, then the rest), which *big holds (free it after
 * posting; MPI_DATATYPE_NULL when none).  Returns an MPI code; *call names
 * the call that failed. */
static inline int tile__msg_type(int64_t bytes, int *count, MPI_Datatype *type,
                                 MPI_Datatype *big, const char **call)
{
    int64_t B = TILE_MSG_MAX, nb = bytes / B, rest = bytes % B;
    MPI_Datatype blk = MPI_DATATYPE_NULL, types[2];
    int lens[2], rc;
    MPI_Aint disp[2];
    *big = MPI_DATATYPE_NULL;
    *count = (int)bytes;
    *type = MPI_BYTE;
    if (bytes <= B)
        return MPI_SUCCESS;
    lens[0] = (int)nb;      /* nb <= INT_MAX: tile__face_size checked it */
    lens[1] = (int)rest;
    disp[0] = 0;
    disp[1] = (MPI_Aint)(nb * B);
    *call = "MPI_Type_contiguous";
    rc = MPI_Type_contiguous((int)B, MPI_BYTE, &blk);
    if (rc == MPI_SUCCESS) {
        types[0] = blk;
        types[1] = MPI_BYTE;
        *call = "MPI_Type_create_struct";
        rc = MPI_Type_create_struct(rest > 0 ? 2 : 1, lens, disp, types, big);
        (void)MPI_Type_free(&blk);  /* the struct type keeps what it needs */
    }
    if (rc == MPI_SUCCESS) {
        *call = "MPI_Type_commit";
        rc = MPI_Type_commit(big);
        if (rc != MPI_SUCCESS)
            (void)MPI_Type_free(big);
    }
    if (rc != MPI_SUCCESS)
        *big = MPI_DATATYPE_NULL;
    *count = 1;
    *type = *big;
    return rc;
}

/* Post (@persistent 0: MPI_Isend / MPI_Irecv) or make (1: MPI_Send_init /
 * MPI_Recv_init) the request *q of a face message of @bytes at @buf, to or
 * from @peer with @tag, as tile__msg_type() says.  Returns an MPI code;
 * *call names the call (the one that failed). */
static inline int tile__msg_request(tile_plan *p, int persistent, int send, void *buf,
                                    int64_t bytes, int peer, int tag, MPI_Request *q,
                                    const char **call)
{
    static const char *const name[2][2] = { { "MPI_Irecv", "MPI_Isend" },
                                            { "MPI_Recv_init", "MPI_Send_init" } };
    int count = 0, rc;
    MPI_Datatype type = MPI_BYTE, big = MPI_DATATYPE_NULL;
    *call = name[persistent][send];
    rc = tile__msg_type(bytes, &count, &type, &big, call);
    if (rc == MPI_SUCCESS) {
        *call = name[persistent][send];
        if (persistent)
            rc = send ? MPI_Send_init(buf, count, type, peer, tag, p->comm, q)
                      : MPI_Recv_init(buf, count, type, peer, tag, p->comm, q);
        else
            rc = send ? MPI_Isend(buf, count, type, peer, tag, p->comm, q)
                      : MPI_Irecv(buf, count, type, peer, tag, p->comm, q);
    }
    if (big != MPI_DATATYPE_NULL)
        (void)MPI_Type_free(&big);  /* a pending request completes normally */
    return rc;
}

/**
 * tile_post() - post thread t's nonblocking send (@send 1) or receive of
 * a face message: @bytes at @buf to or from rank @peer with @tag on the
 * plan's communicator, request in *q.  Messages above TILE_MSG_MAX bytes
 * go as one element of a derived datatype.  A failure is handled as the
 * engine's (reported naming the call, the rank, thread t and tile @k,
 * then the communicator is aborted; "MPI failures").
 * @p: the plan; @t: the thread; @k: the tile (for the message).
 * Return: 1 if the request was posted (count it), else 0.
 */
static inline int tile_post(tile_plan *p, int t, int send, void *buf, int64_t bytes, int peer,
                            int tag, MPI_Request *q, int64_t k)
{
    const char *call;
    int rc = tile__msg_request(p, 0, send, buf, bytes, peer, tag, q, &call);
    if (rc == MPI_SUCCESS)
        return 1;
    tile__mpi_failed(p, t, rc, call, "%s tile %lld's face (%lld bytes) %s rank %d",
                     send ? "sending" : "receiving", (long long)k, (long long)bytes,
                     send ? "to" : "from", peer);
    return 0;
}

/* The persistent request of thread t's message along dimension i: @last
 * for the last tile when it is shorter than the others, @send 1 to send.
 * MPI_REQUEST_NULL where there is none (no neighbour, an empty part, no
 * shorter last tile, or its creation failed). */
static inline MPI_Request *tile__preq(const tile_plan *p, int t, int last, int send, int i)
{
    return &p->run.preq[((t * 2 + last) * 2 + send) * p->cfg.n + i];
}

/* 1 if tile k is the last and shorter than tile 0 (its own requests). */
static inline int tile__short(const tile_plan *p, int64_t k)
{
    return k == p->ntiles - 1 && k > 0 &&
           tile__tile_z1(p, k) - tile__tile_z0(p, k) != tile__tile_z1(p, 0);
}

/* Thread t's face message of tile k along dimension i (@bytes at @buf, to
 * or from @peer with @tag): posted now (TILE_MESSAGES_NONBLOCKING), or its
 * persistent request (made with the same buffer, size, peer and tag)
 * queued for tile__start.  The list keeps the sends first. */
static inline void tile__msg(tile_plan *p, int t, int send, void *buf, int64_t bytes, int peer,
                             int tag, int64_t k, int i)
{
    MPI_Request *q = &p->run.req[t * 2 * p->cfg.n + p->run.nreq[t]];
    int posted;
    if (p->run.messaging == TILE_MESSAGES_NONBLOCKING) {
        posted = tile_post(p, t, send, buf, bytes, peer, tag, q, k);
    } else {
        *q = *tile__preq(p, t, tile__short(p, k), send, i);
        posted = *q != MPI_REQUEST_NULL;
    }
    p->run.nreq[t] += posted;
    p->run.nreq[p->cfg.threads + t] += posted && send;
}

/* Start thread t's persistent requests queued from position @from on, with
 * one MPI_Startall (nothing to do for nonblocking messages, already
 * posted); @k names the tile if it fails (handled as the engine's). */
TILEHYBRID__WARM void tile__start(tile_plan *p, int t, int from, int64_t k);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile__start(tile_plan *p, int t, int from, int64_t k)
{
    int n = p->run.nreq[t] - from, rc;
    if (n <= 0 || p->run.messaging == TILE_MESSAGES_NONBLOCKING)
        return;
    rc = MPI_Startall(n, &p->run.req[t * 2 * p->cfg.n + from]);
    if (rc == MPI_SUCCESS)
        return;
    p->run.nreq[t] = from;      /* nothing of these to wait for */
    if (p->run.nreq[p->cfg.threads + t] > from)
        p->run.nreq[p->cfg.threads + t] = from;
    tile__mpi_failed(p, t, rc, "MPI_Startall", "starting %d face message%s of tile %lld", n,
                     n == 1 ? "" : "s", (long long)k);
}
#endif

/* Send the face of tile k in every dimension with a successor. */
static inline void tile__wf_send(tile_plan *p, int64_t k)
{
    int i;
    for (i = 0; i < p->cfg.n; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, bytes;
        if (p->nbr_hi[i] == MPI_PROC_NULL)
            continue;
        tile__block_face(p, i, 0, lo, hi);
        bytes = tile__pack_face(p, k, lo, hi, p->store.sbuf[i], 1);
        tile__msg(p, 0, 1, p->store.sbuf[i], bytes, p->nbr_hi[i], 0, k, i);
        p->run.stats[0].bytes_sent += bytes;
        p->run.stats[0].messages++;
    }
}

/* Post the receives of tile k's ghost faces. */
static inline void tile__wf_recv(tile_plan *p, int64_t k)
{
    int i;
    for (i = 0; i < p->cfg.n; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
        if (p->nbr_lo[i] == MPI_PROC_NULL)
            continue;
        tile__block_face(p, i, 1, lo, hi);
        tile__msg(p, 0, 0, p->store.rbuf[i], tile_box_bytes(p, k, lo, hi), p->nbr_lo[i], 0, k,
                  i);
    }
}

/* At step s: send the face of the tile every face thread finished at step
 * s - 1 (tile k with sigma(k) + S + 1 == s), post the receive for the tile
 * that starts at step s + 1; one MPI_Startall for both. */
TILEHYBRID__WARM void tile__wf_begin(tile_plan *p, int64_t s);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile__wf_begin(tile_plan *p, int64_t s)
{
    int64_t k = p->run.send_next, r = p->run.recv_next, named = -1;
    int from = p->run.nreq[0];
    if (k < p->ntiles && k < p->run.announced && tile__sigma(p, k) + p->threads.skew + 1 == s) {
        tile__wf_send(p, k);
        p->run.send_next++;
        named = k;
    }
    if (r < p->ntiles && r < p->run.announced && tile__sigma(p, r) - 1 == s) {
        tile__wf_recv(p, r);
        p->run.recv_pending = r;
        p->run.recv_next++;
        named = named < 0 ? r : named;
    }
    tile__start(p, 0, from, named);
}
#endif

/**
 * tile_waitall() - complete thread @me's requests; the time goes to its
 * stats.wait.  @p: the plan; @k: the tile whose messages they are (for the
 * message if MPI_Waitall fails: handled as the engine's, "MPI failures").
 */
TILEHYBRID__WARM void tile_waitall(tile_plan *p, int me, int64_t k);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile_waitall(tile_plan *p, int me, int64_t k)
{
    MPI_Status st[2 * TILE_MAX_DIMS];  /* not MPI_STATUSES_IGNORE: gcc 12 warns on it */
    double t0;
    int rc, n = p->run.nreq[me];
    if (n == 0)
        return;
    t0 = tile_wtime();
    rc = MPI_Waitall(n, &p->run.req[me * 2 * p->cfg.n], st);
    p->run.nreq[me] = p->run.nreq[p->cfg.threads + me] = 0;
    p->run.stats[me].wait += tile_wtime() - t0;
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, me, rc, "MPI_Waitall", "completing %d face message%s of tile %lld",
                         n, n == 1 ? "" : "s", (long long)k);
}
#endif

/* Whether this rank has a neighbour to send to or receive from. */
static inline int tile__talks(const tile_plan *p)
{
    int i;
    for (i = 0; i < p->cfg.n; i++)
        if (p->nbr_lo[i] != MPI_PROC_NULL || p->nbr_hi[i] != MPI_PROC_NULL)
            return 1;
    return 0;
}

/* The tile of the whole-face messages in flight: the one received, else
 * the one sent. */
static inline int64_t tile__wf_tile(const tile_plan *p)
{
    return p->run.recv_pending >= 0 ? p->run.recv_pending : p->run.send_next - 1;
}

/* Wait for the step's messages, unpack the tile received. */
TILEHYBRID__WARM void tile__wf_end(tile_plan *p);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile__wf_end(tile_plan *p)
{
    double t0;
    int i;
    tile_waitall(p, 0, tile__wf_tile(p));
    if (p->run.recv_pending >= 0) {
        t0 = tile_wtime();
        for (i = 0; i < p->cfg.n; i++) {
            int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
            if (p->nbr_lo[i] == MPI_PROC_NULL)
                continue;
            tile__block_face(p, i, 1, lo, hi);
            tile__pack_face(p, p->run.recv_pending, lo, hi, p->store.rbuf[i], 0);
        }
        p->run.recv_pending = -1;
        p->run.stats[0].comm += tile_wtime() - t0;
    }
}
#endif


/* ==== src/tiling/31-guard.h ==== */
#line 1 "src/tiling/31-guard.h"
/* ------------------------------------------------------------------------ */
/* The body's guard: a return out of the body                               */

#if TILEHYBRID__DEFINE
/*
 * A `return` (or a `goto`) out of the body leaves this rank's run half
 * done: its tile unfinished, its next faces never sent.  With one process
 * nothing waits for it: the plan records TILE_ERR_BODY (tile_plan_status()
 * reports it, the next run is refused).  With more, the other ranks wait
 * for its messages forever and no error can reach them: the job ends the
 * way an MPI call that fails on one rank ends it (tile__mpi_failed(): the
 * message to cfg.on_mpi_failure or stderr, then MPI_Abort, errorcode
 * TILE_ERR_BODY).  Seen when it happens where the compiler runs code on
 * leaving a scope (TILE__GUARD below: GCC, Clang and C++), else at the
 * first tile_plan_destroy() or next run start of the plan on that rank
 * (before any collective).
 */
TILEHYBRID__COLD void tile__left_body(tile_plan *p)
{
    char msg[200];
    if (p->run.left)
        return;                     /* reported once */
    p->run.left = 1;
    if (p->size > 1) {
        snprintf(msg, sizeof msg, "tiling.h: rank %d: a return (or goto) left the body of a "
                 "run: the other ranks wait for its messages", p->rank);
        tilehybrid_mpi_abort(msg, p->cfg.on_mpi_failure, p->cfg.on_mpi_failure_ctx,
                             TILE_ERR_BODY);
    }
    p->status.code = TILE_OK;       /* whatever the unfinished run recorded */
    tile__fail(p, TILE_ERR_BODY, "", -1, "a return (or goto) left the body of the previous run "
               "of this plan: the run did not finish on this rank (create the plan again)");
}
#else
TILEHYBRID__COLD void tile__left_body(tile_plan *p);
#endif

/* The body's guard (TILE_COMPUTE): armed while the body runs, disarmed
 * after its tile; a guard still armed when its scope is left means a
 * return or goto left the body (tile__left_body()).  A destructor in C++,
 * the cleanup attribute under GCC and Clang; elsewhere nothing (the plan's
 * next run or its destruction sees it). */
#if !defined(TILE__NO_GUARD) && (defined(__cplusplus) || defined(__GNUC__) || \
                                 defined(__clang__))
#define TILE__HAVE_GUARD 1          /* (TILE__NO_GUARD: the tests' way to try without) */
#else
#define TILE__HAVE_GUARD 0
#endif
typedef struct tile__guard {
    tile_plan *p;
    int armed;
#if TILE__HAVE_GUARD && defined(__cplusplus)
    ~tile__guard()
    {
        if (armed && p->run.active)
            tile__left_body(p);
    }
#endif
} tile__guard;

#if TILE__HAVE_GUARD && defined(__cplusplus)
#define TILE__GUARD(name, plan) tile__guard name = { (plan), 1 }
#define TILE__GUARD_OFF(name) ((name).armed = 0)
#elif TILE__HAVE_GUARD
static inline void tile__guard_end(tile__guard *g)
{
    if (g->armed && g->p->run.active)
        tile__left_body(g->p);
}
#define TILE__GUARD(name, plan) \
    __attribute__((cleanup(tile__guard_end))) tile__guard name = { (plan), 1 }
#define TILE__GUARD_OFF(name) ((name).armed = 0)
#else
#define TILE__GUARD(name, plan) tile__guard name = { (plan), 1 }
#define TILE__GUARD_OFF(name) ((void)(name))
#endif

/* ==== src/tiling/35-requests.h ==== */
#line 1 "src/tiling/35-requests.h"
/* ------------------------------------------------------------------------ */
/* Face messages: persistent and partitioned requests                       */

/* The multiple model's parts of a face: thread t sends its part along i if
 * it is last along i, receives one if it is first; its partition (and tag)
 * is its coordinates with t_i dropped, in 0 .. prod_{j != i} T_j - 1. */
static inline int tile__is_sender(const tile_plan *p, int t, int i)
{
    return p->threads.coord[t * p->cfg.n + i] == p->threads.dims[i] - 1;
}

static inline int tile__is_receiver(const tile_plan *p, int t, int i)
{
    return p->threads.coord[t * p->cfg.n + i] == 0;
}

static inline int tile__part_index(const tile_plan *p, int t, int i)
{
    int j, idx = 0;
    for (j = 0; j < p->cfg.n; j++)
        if (j != i)
            idx = idx * p->threads.dims[j] + p->threads.coord[t * p->cfg.n + j];
    return idx;
}

#if TILEHYBRID__DEFINE
/* Offsets of the threads' parts in the face buffers (multiple model): the
 * senders' parts tile the send buffer, the receivers' the receive buffer (a
 * thread that is both, T_i = 1, has the same offset in both).  Tile 0 is
 * the tallest; the model does not rebalance, so the boxes hold for every
 * tile (the schedule's bounds start as the even split). */
TILEHYBRID__COLD void tile__part_offsets(tile_plan *p)
{
    int n = p->cfg.n, T = p->cfg.threads, i, t;
    for (i = 0; i < n; i++) {
        int64_t sent = 0, recvd = 0;
        for (t = 0; t < T; t++) {
            int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, part;
            int snd = tile__is_sender(p, t, i), rcv = tile__is_receiver(p, t, i);
            tile_thread_face(p, t, 0, i, 0, lo, hi);
            part = tile_box_bytes(p, 0, lo, hi);
            p->run.seg[i * T + t] = snd ? sent : recvd;
            sent += snd ? part : 0;
            recvd += rcv ? part : 0;
        }
    }
}

/* Make the persistent request *q of a face message (MPI_Send_init or
 * MPI_Recv_init; above TILE_MSG_MAX bytes one element of a derived
 * datatype, which the request keeps).  A failure is handled as the
 * engine's (*q stays MPI_REQUEST_NULL). */
TILEHYBRID__COLD void tile__pinit(tile_plan *p, int send, void *buf, int64_t bytes, int peer,
                                  int tag, int i, MPI_Request *q)
{
    const char *call;
    int rc = tile__msg_request(p, 1, send, buf, bytes, peer, tag, q, &call);
    if (rc == MPI_SUCCESS)
        return;
    *q = MPI_REQUEST_NULL;
    tile__mpi_failed(p, -1, rc, call, "creating the plan's persistent %s of %lld-byte faces "
                     "along dimension %d %s rank %d", send ? "send" : "receive",
                     (long long)bytes, i + 1, send ? "to" : "from", peer);
}

/* The whole-face requests (models mpi, fine, funneled: thread 0), for tile
 * 0 and, if shorter, the last tile. */
TILEHYBRID__COLD void tile__wf_requests(tile_plan *p, int last)
{
    int64_t k = last ? p->ntiles - 1 : 0;
    int i;
    for (i = 0; i < p->cfg.n && p->status.code == TILE_OK; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
        if (p->nbr_hi[i] != MPI_PROC_NULL) {
            tile__block_face(p, i, 0, lo, hi);
            tile__pinit(p, 1, p->store.sbuf[i], tile_box_bytes(p, k, lo, hi), p->nbr_hi[i], 0,
                        i, tile__preq(p, 0, last, 1, i));
        }
        if (p->nbr_lo[i] != MPI_PROC_NULL && p->status.code == TILE_OK) {
            tile__block_face(p, i, 1, lo, hi);
            tile__pinit(p, 0, p->store.rbuf[i], tile_box_bytes(p, k, lo, hi), p->nbr_lo[i], 0,
                        i, tile__preq(p, 0, last, 0, i));
        }
    }
}

/* The multiple model's requests: each thread's parts (not the empty ones),
 * its coordinates in the tag. */
TILEHYBRID__COLD void tile__part_requests(tile_plan *p, int last)
{
    int64_t k = last ? p->ntiles - 1 : 0;
    int T = p->cfg.threads, t, i, g;
    for (t = 0; t < T; t++)
        for (i = 0; i < p->cfg.n && p->status.code == TILE_OK; i++)
            for (g = 0; g < 2; g++) {
                int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, bytes;
                int peer = g ? p->nbr_lo[i] : p->nbr_hi[i];
                unsigned char *buf = g ? p->store.rbuf[i] : p->store.sbuf[i];
                if (peer == MPI_PROC_NULL || !(g ? tile__is_receiver(p, t, i)
                                                 : tile__is_sender(p, t, i)))
                    continue;
                tile_thread_face(p, t, 0, i, g, lo, hi);
                bytes = tile_box_bytes(p, k, lo, hi);
                if (bytes > 0 && p->status.code == TILE_OK)
                    tile__pinit(p, !g, buf + p->run.seg[i * T + t], bytes, peer,
                                tile__part_index(p, t, i), i, tile__preq(p, t, last, !g, i));
            }
}
#else
TILEHYBRID__COLD void tile__part_offsets(tile_plan *p);
TILEHYBRID__COLD void tile__pinit(tile_plan *p, int send, void *buf, int64_t bytes, int peer,
                                  int tag, int i, MPI_Request *q);
TILEHYBRID__COLD void tile__wf_requests(tile_plan *p, int last);
TILEHYBRID__COLD void tile__part_requests(tile_plan *p, int last);
#endif

/* The multiple model's partitioned messages (TILE_MESSAGES_PARTITIONED):
 * along dimension i, the m-th message carries one partition per thread on
 * the face (tile__part_index), each sender thread's part of the tile it
 * computed at step m + T_i - 1, marked ready at step m + T_i; each
 * receiver thread waits at the end of step m - 1 for its part of the tile
 * it computes at step m (the same tile: the receiver's delay is the
 * sender's minus T_i - 1).  msgs[i] = ntiles + sum_{j != i} (T_j - 1)
 * messages a run, each of parts[i] partitions of pbytes[i] bytes (the
 * largest part; the last tile's are shorter).  Message m uses request and
 * buffer m % 2: thread 0 completes message m - 2 and starts message m
 * before the barrier of the step before the one where the other threads
 * touch it (tile__parted_cycle), and on[][][] says which are started. */
typedef struct tile__parted {
    MPI_Request req[2][2][TILE_MAX_DIMS];   /* [m % 2][send][i] */
    int on[2][2][TILE_MAX_DIMS];
    unsigned char *buf[2][2][TILE_MAX_DIMS];
    int64_t pbytes[TILE_MAX_DIMS];
    int parts[TILE_MAX_DIMS];
    int64_t msgs[TILE_MAX_DIMS];
} tile__parted;

#if TILE_HAVE_PARTITIONED
#if TILEHYBRID__DEFINE
/* Make the partitioned request of message parity m along i (@send 1: to
 * the successor), its buffer first; failures as the engine's. */
TILEHYBRID__COLD void tile__parted_init(tile_plan *p, int send, int i, int m)
{
    tile__parted *pa = p->run.part;
    const char *call = send ? "MPI_Psend_init" : "MPI_Precv_init";
    int count = 0, rc, peer = send ? p->nbr_hi[i] : p->nbr_lo[i];
    int64_t total = 0;
    MPI_Datatype type = MPI_BYTE, big = MPI_DATATYPE_NULL;
    MPI_Request *q = &pa->req[m][send][i];
    if (!tilehybrid_mul_ok(pa->pbytes[i], pa->parts[i], &total) ||
        (pa->buf[m][send][i] = (unsigned char *)tile__alloc(p, (size_t)total,
                                                            "the partitioned messages")) == NULL) {
        if (p->status.code == TILE_OK)
            tile__fail(p, TILE_ERR_OVERFLOW, "messages", i, "the partitioned message along "
                       "dimension %d is too large", i + 1);
        return;
    }
    rc = tile__msg_type(pa->pbytes[i], &count, &type, &big, &call);
    if (rc == MPI_SUCCESS) {
        call = send ? "MPI_Psend_init" : "MPI_Precv_init";
        rc = send ? MPI_Psend_init(pa->buf[m][send][i], pa->parts[i], count, type, peer, m,
                                   p->comm, MPI_INFO_NULL, q)
                  : MPI_Precv_init(pa->buf[m][send][i], pa->parts[i], count, type, peer, m,
                                   p->comm, MPI_INFO_NULL, q);
    }
    if (big != MPI_DATATYPE_NULL)
        (void)MPI_Type_free(&big);
    if (rc == MPI_SUCCESS)
        return;
    *q = MPI_REQUEST_NULL;
    tile__mpi_failed(p, -1, rc, call, "creating the plan's partitioned %s of faces along "
                     "dimension %d (%d partitions of %lld bytes) %s rank %d",
                     send ? "send" : "receive", i + 1, pa->parts[i], (long long)pa->pbytes[i],
                     send ? "to" : "from", peer);
}
#else
TILEHYBRID__COLD void tile__parted_init(tile_plan *p, int send, int i, int m);
#endif
#endif

#if TILEHYBRID__DEFINE
/* Set up the partitioned messages: sizes, buffers, requests. */
TILEHYBRID__COLD void tile__parted_setup(tile_plan *p)
{
    tile__parted *pa = (tile__parted *)tile__alloc(p, sizeof(tile__parted),
                                                   "the partitioned messages");
    int i, j, t, m, g;
    if ((p->run.part = pa) == NULL)
        return;
    for (m = 0; m < 2; m++)
        for (g = 0; g < 2; g++)
            for (i = 0; i < TILE_MAX_DIMS; i++)
                pa->req[m][g][i] = MPI_REQUEST_NULL;
    for (i = 0; i < p->cfg.n; i++) {
        pa->parts[i] = 1;
        pa->msgs[i] = p->ntiles;
        for (j = 0; j < p->cfg.n; j++)
            if (j != i) {
                pa->parts[i] *= p->threads.dims[j];
                pa->msgs[i] += p->threads.dims[j] - 1;
            }
        for (t = 0; t < p->cfg.threads; t++) {
            int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, b;
            tile_thread_face(p, t, 0, i, 0, lo, hi);
            b = tile_box_bytes(p, 0, lo, hi);
            if (tile__is_sender(p, t, i) && b > pa->pbytes[i])
                pa->pbytes[i] = b;
        }
#if TILE_HAVE_PARTITIONED
        for (m = 0; m < 2 && pa->pbytes[i] > 0 && p->status.code == TILE_OK; m++)
            for (g = 0; g < 2 && p->status.code == TILE_OK; g++)
                if ((g ? p->nbr_hi[i] : p->nbr_lo[i]) != MPI_PROC_NULL)
                    tile__parted_init(p, g, i, m);
#endif
    }
}

/* Make the plan's requests (at the end of tile_plan_create): the runs'
 * method (run.messaging), the multiple model's part offsets, then the
 * persistent or partitioned requests. */
TILEHYBRID__COLD void tile__messages_setup(tile_plan *p)
{
    int multiple = p->cfg.model == TILE_MODEL_MULTIPLE;
    p->run.messaging = p->cfg.messages;
    if (p->run.messaging == TILE_MESSAGES_PARTITIONED && (!multiple || !TILE_HAVE_PARTITIONED))
        p->run.messaging = TILE_MESSAGES_PERSISTENT;
#ifdef SMPI_SAMPLE_FLOPS
    /* SimGrid 3.32's SMPI reports a deadlock on the restarted persistent
     * face requests (2 ranks, 2 tiles); under SMPI the plan sends per-tile
     * messages, the ones the simulations in sim/ were validated with. */
    if (p->run.messaging == TILE_MESSAGES_PERSISTENT)
        p->run.messaging = TILE_MESSAGES_NONBLOCKING;
#endif
    if (multiple)
        tile__part_offsets(p);
    if (p->run.messaging == TILE_MESSAGES_PARTITIONED) {
        tile__parted_setup(p);
        return;
    }
    if (p->run.messaging != TILE_MESSAGES_PERSISTENT || p->ntiles < 1)
        return;
    (multiple ? tile__part_requests : tile__wf_requests)(p, 0);
    if (tile__short(p, p->ntiles - 1))
        (multiple ? tile__part_requests : tile__wf_requests)(p, 1);
}

/* Complete the requests a run left in flight (a `return` out of the loop,
 * an MPI failure under ULFM): cancel and complete the receives (their
 * buffers are about to be freed), let go of the sends (MPI_Request_free:
 * MPI completes them). */
TILEHYBRID__COLD void tile__messages_drain(tile_plan *p)
{
    int T = p->cfg.threads, t, j;
    for (t = 0; t < T && p->run.req != NULL && p->run.nreq != NULL; t++) {
        MPI_Request *r = &p->run.req[t * 2 * p->cfg.n];
        for (j = 0; j < p->run.nreq[t]; j++) {
            MPI_Request q = r[j];
            if (j >= p->run.nreq[T + t]) {
                (void)MPI_Cancel(&q);
                (void)MPI_Wait(&q, MPI_STATUS_IGNORE);
            } else if (p->run.messaging == TILE_MESSAGES_NONBLOCKING) {
                (void)MPI_Request_free(&q);
            }   /* a persistent send: freed with the plan's requests */
        }
        p->run.nreq[t] = p->run.nreq[T + t] = 0;
    }
}

/* Free request *q (MPI_Request_free; a failure is the engine's). */
TILEHYBRID__COLD void tile__request_free(tile_plan *p, MPI_Request *q, const char *what)
{
    int rc;
    if (*q == MPI_REQUEST_NULL)
        return;
    rc = MPI_Request_free(q);
    *q = MPI_REQUEST_NULL;
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, -1, rc, "MPI_Request_free", "freeing the plan's %s in "
                         "tile_plan_destroy()", what);
}

/* Free the plan's requests and the partitioned buffers (tile_plan_destroy),
 * after completing what a run left in flight. */
TILEHYBRID__COLD void tile__messages_free(tile_plan *p)
{
    tile__parted *pa = p->run.part;
    int i, m, g, n = p->cfg.n * 4 * p->cfg.threads;
    if (p->comm == MPI_COMM_NULL || p->comm == 0)
        return;
    tile__messages_drain(p);
    for (i = 0; p->run.preq != NULL && i < n; i++)
        tile__request_free(p, &p->run.preq[i], "persistent face request");
    /* a partitioned request still active (a run left by a `return`) can be
     * neither cancelled nor freed: it and its buffer are left to MPI */
    for (m = 0; pa != NULL && m < 2; m++)
        for (g = 0; g < 2; g++)
            for (i = 0; i < TILE_MAX_DIMS; i++)
                if (!pa->on[m][g][i]) {
                    tile__request_free(p, &pa->req[m][g][i], "partitioned face request");
                    TILEHYBRID_FREE(pa->buf[m][g][i]);
                    pa->buf[m][g][i] = NULL;
                }
}
#else
TILEHYBRID__COLD void tile__parted_setup(tile_plan *p);
TILEHYBRID__COLD void tile__messages_setup(tile_plan *p);
TILEHYBRID__COLD void tile__messages_drain(tile_plan *p);
TILEHYBRID__COLD void tile__request_free(tile_plan *p, MPI_Request *q, const char *what);
TILEHYBRID__COLD void tile__messages_free(tile_plan *p);
#endif

#if TILE_HAVE_PARTITIONED
/* The partitioned message along i that step s readies (sends, m = s - T_i)
 * or waits for (receives, m = s + 1); -1 if none. */
static inline int64_t tile__parted_msg(const tile_plan *p, int send, int i, int64_t s)
{
    int64_t m = send ? s - p->threads.dims[i] : s + 1;
    const tile__parted *pa = p->run.part;
    return m >= 0 && m < pa->msgs[i] && pa->parts[i] > 0 && pa->pbytes[i] > 0 ? m : -1;
}

/**
 * tile_parted_ready() - the partitioned messages that open step s for
 * thread t (multiple model): pack its parts computed at step s - 1 into
 * their partitions and mark them ready (MPI_Pready), also where it had no
 * tile (the message needs every partition).
 * @p: the plan; @s: the step; @t: the thread.
 */
TILEHYBRID__WARM void tile_parted_ready(tile_plan *p, int64_t s, int t);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile_parted_ready(tile_plan *p, int64_t s, int t)
{
    tile__parted *pa = p->run.part;
    int64_t k = s - 1 - p->threads.delay[t];
    int i;
    for (i = 0; i < p->cfg.n; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, m, bytes;
        int idx = tile__part_index(p, t, i), rc;
        unsigned char *buf;
        if (p->nbr_hi[i] == MPI_PROC_NULL || !tile__is_sender(p, t, i) ||
            (m = tile__parted_msg(p, 1, i, s)) < 0 || !pa->on[m % 2][1][i])
            continue;
        buf = pa->buf[m % 2][1][i] + (size_t)idx * (size_t)pa->pbytes[i];
        if (k >= 0 && k < p->ntiles) {
            tile_thread_face(p, t, k, i, 0, lo, hi);
            bytes = tile__pack_face(p, k, lo, hi, buf, 1);
            p->run.stats[t].bytes_sent += bytes;
            p->run.stats[t].messages++;
        }
        rc = MPI_Pready(idx, pa->req[m % 2][1][i]);
        if (rc != MPI_SUCCESS && k >= 0 && k < p->ntiles)
            tile__mpi_failed(p, t, rc, "MPI_Pready", "marking partition %d of face message "
                             "%lld to rank %d ready (thread %d's tile %lld)", idx,
                             (long long)m, p->nbr_hi[i], t, (long long)k);
        else if (rc != MPI_SUCCESS)
            tile__mpi_failed(p, t, rc, "MPI_Pready", "marking partition %d of face message "
                             "%lld to rank %d ready (thread %d has no tile in it)", idx,
                             (long long)m, p->nbr_hi[i], t);
    }
}
#endif

/**
 * tile_parted_arrive() - the end of step s for thread t (multiple model):
 * wait for its parts of the tile it computes at step s + 1 (MPI_Parrived)
 * and unpack them.  The time waiting goes to its stats.wait.
 * @p: the plan; @s: the step (-1: the prologue); @t: the thread.
 */
TILEHYBRID__WARM void tile_parted_arrive(tile_plan *p, int64_t s, int t);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile_parted_arrive(tile_plan *p, int64_t s, int t)
{
    tile__parted *pa = p->run.part;
    int64_t k = s + 1 - p->threads.delay[t];
    int i;
    for (i = 0; i < p->cfg.n && k >= 0 && k < p->ntiles; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, m;
        int idx = tile__part_index(p, t, i), rc = MPI_SUCCESS, flag = 0;
        double t0 = tile_wtime();
        if (p->nbr_lo[i] == MPI_PROC_NULL || !tile__is_receiver(p, t, i) ||
            (m = tile__parted_msg(p, 0, i, s)) < 0 || !pa->on[m % 2][0][i])
            continue;
        while (rc == MPI_SUCCESS && !flag)
            rc = MPI_Parrived(pa->req[m % 2][0][i], idx, &flag);
        p->run.stats[t].wait += tile_wtime() - t0;
        if (rc != MPI_SUCCESS) {
            tile__mpi_failed(p, t, rc, "MPI_Parrived", "waiting for partition %d of tile "
                             "%lld's face from rank %d", idx, (long long)k, p->nbr_lo[i]);
            continue;
        }
        t0 = tile_wtime();
        tile_thread_face(p, t, k, i, 1, lo, hi);
        tile__pack_face(p, k, lo, hi,
                        pa->buf[m % 2][0][i] + (size_t)idx * (size_t)pa->pbytes[i], 0);
        p->run.stats[t].comm += tile_wtime() - t0;
    }
}
#endif

/* Collect into q the requests of messages @ms (send) and @mr (receive) along
 * every dimension that are (@on 1) or are not (@on 0) started. */
static inline int tile__parted_pick(tile_plan *p, int64_t ms, int64_t mr, int on, MPI_Request *q)
{
    tile__parted *pa = p->run.part;
    int i, g, n = 0;
    for (i = 0; i < p->cfg.n; i++)
        for (g = 0; g < 2; g++) {
            int64_t m = (g ? ms - p->threads.dims[i] : mr);
            int *act;
            if (m < 0 || m >= pa->msgs[i] || pa->req[m % 2][g][i] == MPI_REQUEST_NULL)
                continue;
            act = &pa->on[m % 2][g][i];
            if (*act == on) {
                q[n++] = pa->req[m % 2][g][i];
                *act = !on;
            }
        }
    return n;
}

/**
 * tile_parted_cycle() - thread 0 at the end of step s (before the step's
 * barrier; s = -1: the prologue, before the first barrier): complete the
 * messages of their parity that the threads are done with and start the
 * ones the next step uses: along each i, the send readied at step s - 1
 * then the one of step s + 1, the receive waited for at step s - 1 then the
 * one of step s + 1.  @p: the plan; @s: the step.
 */
TILEHYBRID__WARM void tile_parted_cycle(tile_plan *p, int64_t s);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile_parted_cycle(tile_plan *p, int64_t s)
{
    MPI_Request q[4 * TILE_MAX_DIMS];
    MPI_Status st[4 * TILE_MAX_DIMS];
    double t0 = tile_wtime();
    int n, rc;
    n = tile__parted_pick(p, s - 1, s, 1, q);
    rc = n > 0 ? MPI_Waitall(n, q, st) : MPI_SUCCESS;
    p->run.stats[0].wait += tile_wtime() - t0;
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, 0, rc, "MPI_Waitall", "completing %d partitioned face message%s "
                         "at step %lld", n, n == 1 ? "" : "s", (long long)s);
    n = tile__parted_pick(p, s + 1, s + 2, 0, q);
    if (s < 0)      /* the prologue: also the receive that the prologue waits for */
        n += tile__parted_pick(p, INT64_MIN / 2, 0, 0, q + n);
    rc = n > 0 ? MPI_Startall(n, q) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, 0, rc, "MPI_Startall", "starting %d partitioned face message%s "
                         "at step %lld", n, n == 1 ? "" : "s", (long long)s);
}
#endif

/**
 * tile_parted_finish() - thread 0 after the last step's barrier: complete
 * every partitioned message still in flight.  @p: the plan.
 */
static inline void tile_parted_finish(tile_plan *p)
{
    tile__parted *pa = p->run.part;
    MPI_Request q[4 * TILE_MAX_DIMS];
    MPI_Status st[4 * TILE_MAX_DIMS];
    int i, g, m, n = 0, rc;
    for (m = 0; m < 2; m++)
        for (g = 0; g < 2; g++)
            for (i = 0; i < p->cfg.n; i++)
                if (pa->on[m][g][i]) {
                    q[n++] = pa->req[m][g][i];
                    pa->on[m][g][i] = 0;
                }
    rc = n > 0 ? MPI_Waitall(n, q, st) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, 0, rc, "MPI_Waitall", "completing the last %d partitioned face "
                         "messages", n);
}
#endif

/* ==== src/tiling/40-cursor.h ==== */
#line 1 "src/tiling/40-cursor.h"
/* ------------------------------------------------------------------------ */
/* The point cursor                                                         */

/* After thread t's part of a tile that ran the SIMD loop: add the lanes of
 * the SUM_U64 reductions to their slots (a sum modulo 2^64 does not depend
 * on the order) and report the calls that landed in the trash. */
static inline void tile__lanes_flush(tile_plan *p, int t)
{
    struct tile__io *io = p->run.io;
    tile__lanes *tr = &p->run.slot[t].trash;
    int64_t bad = 0;
    int k, l;
    for (k = 0; io != NULL && k < io->nred; k++) {
        tile__red_slot *s = &io->slots[k][t];
        for (l = 0; l < TILE__LANES; l++) {
            s->u64 += s->lanes.u64[l];
            s->count += s->lanes.cnt[l];
        }
        memset(&s->lanes, 0, sizeof s->lanes);
    }
    for (l = 0; l < TILE__LANES; l++)
        bad += tr->cnt[l];
    if (bad != 0) {
        memset(tr, 0, sizeof *tr);
        tile_thread_fail(p, t, TILE_ERR_REDUCE, "tile_reduce_u64: the reduction is not a "
                         "SUM_U64 reduction declared on this plan (tile_reduction_init)");
    }
}


/* The walk over thread t's box of tile k, before its first run (nothing
 * to walk when k < 0 or the box is empty).  Its loop levels: Z outermost
 * (not in Z inner order), the X dimensions in order but the row's (plane
 * order) or the two of the diagonals (hyperplane order), and the diagonal
 * innermost (hyperplane order). */
TILEHYBRID__WARM tile__walk tile__walk_begin(tile_plan *p, int t, int64_t k);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM tile__walk tile__walk_begin(tile_plan *p, int t, int64_t k)
{
    tile__walk w;
    int i, j, n = p->cfg.n;
    memset(&w, 0, sizeof w);
    w.plan = p;
    w.n = n;
    w.thread = t;
    w.esz = p->cfg.elem_size;
    w.order = p->store.order;
    w.nlev = -1;
    w.zchk = INT64_MIN;
    w.zleft = INT_MAX;
    w.dstop = INT64_MIN;
    w.wrapz = k >= 0 ? tile__tile_z0(p, k) : 0;
    if (p->store.mirror || w.wrapz == 0 || w.wrapz % p->store.ring_planes != 0)
        w.wrapz = -1;   /* else its plane z - 1 is the ring's last */
    for (i = 0; i <= n; i++) {  /* a user step along i, in elements */
        for (j = 0; j <= n; j++)
            w.ust[i] += p->deps.m[j][i] * (j < n ? p->store.stride[j] : p->store.plane_elems);
        /* at plane wrapz, internal Z step -1 is R - 1 planes up */
        w.wst[i] = w.ust[i] - (w.wrapz < 0 ? 0 : p->deps.m[n][i] * p->store.ring_planes *
                                                     p->store.plane_elems);
    }
    if (k < 0 || t >= p->cfg.threads || !p->run.ok)
        return w;
    tile_thread_box(p, t, k, w.blo, w.bhi);
    for (i = 0; i < n; i++)
        if (w.bhi[i] <= w.blo[i])
            return w;
    w.blo[n] = tile__tile_z0(p, k);
    w.bhi[n] = tile__tile_z1(p, k);
    w.pbase = tile__plane(p, w.blo[n]);
    w.sx[0] = -1;
    for (i = 0; i < n; i++)
        w.g0[i] = p->lo[i];
    for (i = 0; i <= n; i++) {
        w.vlo[i] = w.blo[i];
        w.vhi[i] = w.bhi[i];
    }
    tile__order_walk(&w, p);
    for (i = 0; i <= n; i++)
        for (j = 0; j <= n; j++)
            w.udx[i] += p->deps.inv[i][j] * w.dx[j];
    p->run.stats[t].tiles++;
    return w;
}
#endif

/* The run at the walk's position (clipped to the real points on a plan
 * that skews); 1 if it has points.  Once per run: no division on a plan
 * that does not skew, and on one that skews only for a step of the user's
 * coordinates other than 0 and +-1 along the run (tile__clip). */
static inline int tile__walk_run(tile__walk *w)
{
    const tile_plan *p = w->plan;
    int n = w->n, i;
    int64_t g[TILE_MAX_DIMS + 1], e;
    tile__order_run(w);
    if (w->count <= 0)
        return 0;
    if (w->sx[0] < 0) {         /* the first run: every coordinate */
        for (i = 0; i <= n; i++) {
            g[i] = w->g0[i] + w->x[i];
            w->sx[i] = w->x[i];
        }
        tile__to_user(p, g, w->su);
    } else {                    /* from the last run: the columns of the moves */
        int k;
        for (k = 0; k <= n; k++) {
            int64_t dk = w->x[k] - w->sx[k];
            if (dk == 0)
                continue;
            w->sx[k] = w->x[k];
            for (i = 0; i <= n; i++)
                w->su[i] += p->deps.inv[i][k] * dk;
        }
    }
    if (p->deps.skewed) {
        int64_t t0, t1;
        tile__clip(p, w->su, w->udx, &t0, &t1);
        t0 = t0 > 0 ? t0 : 0;
        t1 = t1 < w->count ? t1 : w->count;
        if (t1 <= t0)
            return 0;
        for (i = 0; i <= n; i++) {
            w->x[i] += t0 * w->dx[i];
            w->ux[i] = w->su[i] + t0 * w->udx[i];
        }
        w->count = t1 - t0;
    } else {
        for (i = 0; i <= n; i++)
            w->ux[i] = w->su[i] + 0 * w->x[i];  /* (not a memcpy call) */
    }
    e = p->store.origin;
    for (i = 0; i < n; i++)
        e += (w->x[i] + p->deps.d[i]) * p->store.stride[i];
    w->run = w->pbase + (size_t)(w->x[n] - w->blo[n]) * p->store.plane_bytes +
             (size_t)e * w->esz;
    return 1;
}

/* Advance the walk to its next run that has points; 0 at the end (the
 * general odometer over the loop levels, called at the start of a plane
 * in the hyperplane order). */
static inline int tile__walk_next_level(tile__walk *w)
{
    int j;
    w->bcount = 0;
    if (w->nlev < 0)
        return 0;
    if (!w->started) {
        for (j = 0; j < w->nlev; j++)
            w->x[w->lev[j]] = w->vlo[w->lev[j]];
        w->started = 1;
        j = 0;
    } else {
        j = -1;
    }
    for (;;) {
        if (j >= 0 && tile__walk_run(w)) {
            w->points += w->count;
            if (w->diag) {  /* the slice's next diagonals: tile__walk_next */
                w->dstop = w->vhi[w->n + 1] - 1;
                w->pair = w->x[w->pl] + 1 < w->vhi[w->pl] ? 2 : 0;
            }
            return 1;
        }
        for (j = w->nlev - 1; j >= 0; j--) {
            int l = w->lev[j];
            if (++w->x[l] < w->vhi[l])
                break;
            w->x[l] = w->vlo[l];
        }
        if (j < 0) {
            w->nlev = -1;
            w->dstop = INT64_MIN;
            w->plan->run.stats[w->thread].points += w->points;
            if (w->laned)
                tile__lanes_flush(w->plan, w->thread);
            return 0;
        }
    }
}

/* Has a run of the walk's current plane gone through the checked loop (or
 * need it not: zany)?  The fast loops run only then (tile__walk_simd,
 * tile__walk_contig). */
TILE__ALWAYS_INLINE int tile__walk_plane_checked(const tile__walk *w)
{
    return w->zany || w->x[w->n] == w->zchk;
}

/* May the walk's current run go through the SIMD loop?  Only in the
 * hyperplane order, and only after a run of the tile has gone through the
 * scalar loop, whose TILE_AT checks the type size and the offset count
 * (then they hold for every point: they do not depend on the point). */
TILE__ALWAYS_INLINE int tile__walk_simd(const tile__walk *w)
{
    return w->fast && w->checked && !w->bfirst && tile__walk_plane_checked(w);
}

/* Advance the walk to its next run that has points; 0 at the end.  In the
 * hyperplane order of a plan that does not skew, the next diagonal of the
 * same slice is the common case (hundreds per plane, each a few dozen
 * points at SIMD speed): it is computed inline from the last one
 * (tile__hyperplane_next, in the order's file), and only the start of a
 * slice goes through the odometer (which sets dstop).  The first point of
 * diagonal d is (max(d - (bhi_b - 1), blo_a), d - that).  A box has no
 * empty diagonal in [vlo, vhi), and sx[] follows x[] (no clipping).
 *
 * Slices in pairs (pair 1): a diagonal reads the one before it, and a
 * slice walked alone waits at every diagonal for the last one's stores.
 * Slice B = A + 1 reads only diagonals <= d of A at its own diagonal d
 * (every read is at offsets <= 0), so with A's diagonal d + 1 the walk
 * hands out B's diagonal d (brun, bcount, bsu: A's run before, one slice
 * up), which TILE__POINTS computes after it: A_0, A_1 B_0, ..., A_last
 * B_last-1, then B_last alone (A's count 0), and the odometer goes on from
 * slice B.  Only where the SIMD loop runs (tile__walk_simd), decided at
 * the slice's second diagonal (pair 2 until then), once the first run of
 * the tile has been checked. */
TILE__ALWAYS_INLINE int tile__walk_next(tile__walk *w)
{
    int64_t const d = w->x[w->n + 1] + 1;
    if (d <= w->dstop) {
        if (w->pair == 2)           /* B's first run goes through the checked loop */
            w->bfirst = w->pair = tile__walk_simd(w);
        tile__hyperplane_next(w, d);
        return 1;
    }
    if (w->pair == 1) {             /* B's last diagonal alone, then on from slice B */
        tile__hyperplane_pair_end(w);
        return 1;
    }
    return tile__walk_next_level(w);
}

/* The offsets the plan's body may read (struct tile__atset). */
TILE__ALWAYS_INLINE tile__atset tile__atset_of(tile_plan *p)
{
    tile__atset a;
    a.plan = p;
    a.m = (const uint64_t (*)[16])p->deps.at_mask;
    a.any = (uint64_t)p->deps.at_all | (uint64_t)p->deps.at_far << 63;
    a.code = p->deps.at_code;
    return a;
}

/* The view of a walk, before its first run. */
TILE__ALWAYS_INLINE tile__view tile__view_begin(const tile__walk *w)
{
    tile__view v;
    int i;
    v.w = w;
    v.plan = w->plan;
    v.esz = w->esz;
    v.key = w->esz * (TILE_MAX_DIMS + 2) + (size_t)w->n + 1;
    v.n = w->n;
    v.thread = w->thread;
    v.wrap = 0;
    for (i = 0; i <= TILE_MAX_DIMS; i++) {
        v.ust[i] = w->ust[i];
        v.ux[i] = 0;
        v.udx[i] = w->udx[i];
    }
    return v;
}

/* The user's coordinates of the walk's run's first point: su[] when diag
 * (tile__walk_next moves su[] only: no clipping), else ux[]. */
TILE__ALWAYS_INLINE const int64_t *tile__walk_ux(const tile__walk *w)
{
    return w->diag ? w->su : w->ux;
}

/* A run of walk w in view v: its first point's user coordinates ux, and
 * the strides of its plane, the walk's own or (wrap 1) those of the plane
 * that reads across the ring's wrap (private). */
TILE__ALWAYS_INLINE void tile__view_set(tile__view *v, const tile__walk *w, const int64_t *ux,
                                        int wrap)
{
    int i;
    for (i = 0; i <= w->n; i++)
        v->ux[i] = ux[i];
    if (wrap != v->wrap) {
        v->wrap = wrap;
        for (i = 0; i <= w->n; i++)
            v->ust[i] = wrap ? w->wst[i] : w->ust[i];
    }
}

/* The view of the walk's current run (always 1: a loop condition): its
 * first point, and the strides of its plane (the plane that reads across
 * the ring's wrap has its own, store.mirror). */
TILE__ALWAYS_INLINE int tile__view_run(tile__view *v, const tile__walk *w)
{
    tile__view_set(v, w, tile__walk_ux(w), w->x[w->n] == w->wrapz);
    return 1;
}

/* The view of B's run with the walk's (slices in pairs, tile__walk_next),
 * from A's view v: B's plane is A's, or the one above it, which is never
 * the plane that reads across the ring's wrap (the tile's first). */
TILE__ALWAYS_INLINE void tile__view_pair(tile__view *vb, const tile__view *v,
                                         const tile__walk *w)
{
    tile__view_set(vb, w, w->bsu, w->pl != w->n && v->wrap);
}

/* Point i of the run whose first point is at run, step bytes apart (the
 * scalar loop), on B's run of a pair when h is 1. */
TILE__ALWAYS_INLINE tile_cursor tile__cur_at(const tile__view *v, unsigned char *run,
                                             ptrdiff_t step, int64_t i, int h)
{
    tile_cursor c;
    c.at = run + i * step;
    c.k = 0;
    c.i = i;
    c.lane = 0;
    c.v = v;
    c.simd = h << 1;
#ifdef TILE_CHECK_ACCESS
    c.used_file = NULL;
    c.used_line = 0;
#endif
    return c;
}

/* Point i of a contiguous run outside the SIMD loop: element i of run. */
TILE__ALWAYS_INLINE tile_cursor tile__cur_contig(const tile__view *v, unsigned char *run,
                                                 int64_t i)
{
    tile_cursor c;
    c.at = run;
    c.k = i;
    c.i = i;
    c.lane = 0;
    c.v = v;
    c.simd = 0;
#ifdef TILE_CHECK_ACCESS
    c.used_file = NULL;
    c.used_line = 0;
#endif
    return c;
}

/* Point i of a contiguous run (the SIMD loop): element i of run, in lane l
 * (i % TILE__LANES); h 1 on B's run of a pair. */
TILE__ALWAYS_INLINE tile_cursor tile__cur_simd(const tile__view *v, unsigned char *run, int64_t i,
                                               int64_t l, int h)
{
    tile_cursor c = tile__cur_contig(v, run, i);
    c.lane = l;
    c.simd = 1 | h << 1;
    return c;
}

/* May it go through the unchecked scalar loop?  In the plane and Z-inner
 * orders, when its points are consecutive elements (a row along a
 * contiguous X_N), after a checked run of the tile as above. */
TILE__ALWAYS_INLINE int tile__walk_contig(const tile__walk *w)
{
    return w->contig && w->checked && tile__walk_plane_checked(w);
}

/* After a run of the scalar loop. */
static inline void tile__walk_checked(tile__walk *w)
{
    w->checked = w->plan->run.stats[w->thread].error == TILE_OK;
    if (w->x[w->n] != w->zchk && --w->zleft <= 0)
        w->zany = 1;
    w->zchk = w->x[w->n];
    w->bfirst = 0;
}

/* Coordinate d (user's) of point i of the walk's current run, or (b 1)
 * of B's run with it (slices in pairs). */
static inline int64_t tile__walk_coord(const tile__walk *w, int b, int64_t i, int d)
{
    return (b ? w->bsu : tile__walk_ux(w))[d] + i * w->udx[d];
}

/* The refusals a point loop makes (tile__walk_where, tile__walk_break,
 * tile__trap, tile__at_refuse) are static in every build, under
 * TILEHYBRID_SEPARATE too: they take the address of the loop's walk or
 * view, which would escape into a function of another file, and the
 * compiler would then reload the walk and the view after every store of
 * the body that may alias them (demos/sw, one process: 1.5x the
 * instructions).  They are small, and compiled only where a loop is. */

/* Point i of the walk's run (b: B's) as "(c_1,...,c_N,z)" in buf. */
static inline const char *tile__walk_where(const tile__walk *w, int b, int64_t i, char *buf,
                                           size_t size)
{
    size_t o = 0;
    int d;
    for (d = 0; d <= w->n && o < size; d++)
        o += (size_t)snprintf(buf + o, size - o, "%s%lld%s", d ? "," : "(",
                              (long long)tile__walk_coord(w, b, i, d), d == w->n ? ")" : "");
    return buf;
}

/* The body left point i of the run (b: B's) with break (or goto). */
static inline void tile__walk_break(const tile__walk *w, int b, int64_t i)
{
    char at[8 * (TILE_MAX_DIMS + 1) * 3];
    tile_thread_fail(w->plan, w->thread, TILE_ERR_BODY, "the body left its point %s with "
                     "break (or goto): not allowed; use continue",
                     tile__walk_where(w, b, i, at, sizeof at));
}

/** tile_coord() - global coordinate i (0..N-1, or N for Z) of the cursor's
 *  point, in the user's coordinates: one multiply-add (the run's first
 *  point's coordinates and their step along the run are computed once per
 *  run, and stay in registers along it). */
static inline int64_t tile_coord(const tile_cursor *it, int i)
{
    return it->v->ux[i] + it->i * it->v->udx[i];
}

/* After thread t's part of tile k: if the tile ends the ring, copy its box's
 * last d_Z planes to the mirror below the ring, where the next tile's
 * constant-stride reads of z - 1 ... z - d_Z land.  With one thread the box
 * is the block: the planes are copied whole (the ring's last d_Z planes
 * and the mirror are both contiguous), not row by row along a stride. */
typedef struct tile__mirror_ctx {
    const tile_plan *p;
    int64_t shift;      /* plane z goes to mirror plane z - shift (< 0) */
} tile__mirror_ctx;

static inline void tile__mirror_row(void *ctx, unsigned char *row, ptrdiff_t step,
                                    int64_t count, const int64_t *x, int64_t z)
{
    const tile__mirror_ctx *m = (const tile__mirror_ctx *)ctx;
    tile__copy_strided(tile__plane(m->p, z - m->shift) + tile__offset(m->p, x), step, row, step,
                       count, m->p->cfg.elem_size);
}

TILEHYBRID__WARM void tile__mirror(tile_plan *p, int t, int64_t k);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile__mirror(tile_plan *p, int t, int64_t k)
{
    int64_t z1 = tile__tile_z1(p, k), lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
    tile__mirror_ctx m;
    int i;
    if (!p->store.mirror || z1 % p->store.ring_planes != 0 || z1 >= p->deps.size[p->cfg.n])
        return;
    if (p->cfg.threads == 1) {  /* the whole planes, ghosts too: one contiguous copy */
        memcpy(tile__plane(p, -p->deps.dz), tile__plane(p, z1 - p->deps.dz),
               (size_t)p->deps.dz * p->store.plane_bytes);
        return;
    }
    m.p = p;
    m.shift = z1;
    tile_thread_box(p, t, k, lo, hi);
    for (i = 0; i < p->cfg.n; i++)
        if (lo[i] == 0)
            lo[i] = -p->deps.d[i];  /* the ghosts too: diagonal reads of z - a */
    tile__for_rows_along(p, z1 - p->deps.dz, z1, lo, hi, tile__row_dim(p, lo, hi),
                         tile__mirror_row, &m);
}
#endif

/** TILE_THREAD(it) - the OpenMP thread number of the cursor (0 in pure MPI). */
#define TILE_THREAD(it) ((it).v->thread)

/* A TILE_AT whose type does not have the element's size, or with other
 * than N + 1 offsets (cnt), at point i of the walk's run: the run's error,
 * and a scratch element of the thread for the access to land on (static
 * in every build: see tile__walk_where). */
static inline void *tile__trap(const tile__walk *w, int64_t i, size_t size, int cnt,
                               const char *file, int line)
{
    tile_plan *p = w->plan;
    char at[8 * (TILE_MAX_DIMS + 1) * 3];
    if (cnt != w->n + 1)
        tile_thread_fail(p, w->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: %d "
                         "offsets, the plan has N + 1 = %d dimensions", file, line,
                         tile__walk_where(w, 0, i, at, sizeof at), cnt, w->n + 1);
    else
        tile_thread_fail(p, w->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: the "
                         "type has %llu bytes but cfg.elem_size is %llu", file, line,
                         tile__walk_where(w, 0, i, at, sizeof at), (unsigned long long)size,
                         (unsigned long long)w->esz);
    return tile__scratch(p, w->thread, size);
}

/* The stencil as text, for a refused TILE_AT's message: its vectors, or
 * the widths of the shorthand (into buf, size bytes). */
TILEHYBRID__COLD const char *tile__stencil_text(const tile_plan *p, char *buf, size_t size);

/* A TILE_AT the checked loop refuses at point c->i of its run: other than
 * N + 1 offsets (cnt), a type without the element's size, or an offset o
 * the plan does not deliver (not declared): the run's TILE_ERR_ACCESS,
 * naming the source line, the point, the offset and the stencil.  Returns
 * 0 (the access lands on the thread's scratch element).  Static in every
 * build (see tile__walk_where). */
static inline int tile__at_refuse(const tile__view *v, int b, int64_t i, size_t size,
                                  int cnt, const int64_t *o, const char *file, int line);

#if TILEHYBRID__DEFINE
TILEHYBRID__COLD const char *tile__stencil_text(const tile_plan *p, char *buf, size_t size)
{
    size_t w = 0;
    int k, i, n = p->cfg.n;
    buf[0] = '\0';
    for (k = 0; k < p->cfg.nstencil && w < size; k++)
        for (i = 0; i <= n && w < size; i++)
            w += (size_t)snprintf(buf + w, size - w, "%s%d%s", i ? "," : k ? " (" : "(",
                                  p->cfg.stencil[k][i], i == n ? ")" : "");
    if (p->cfg.nstencil == 0) {
        w += (size_t)snprintf(buf, size, "the widths dep[] = (");
        for (i = 0; i < n && w < size; i++)
            w += (size_t)snprintf(buf + w, size - w, "%s%d", i ? "," : "", p->deps.d[i]);
        if (w < size)
            w += (size_t)snprintf(buf + w, size - w, "), depz = %d", p->deps.dz);
    }
    if (w >= size && size > 4)      /* cut: say so */
        memcpy(buf + size - 4, "...", 4);
    return buf;
}

#endif

static inline int tile__at_refuse(const tile__view *v, int b, int64_t i, size_t size,
                                  int cnt, const int64_t *o, const char *file, int line)
{
    const tile__walk *w = v->w;
    tile_plan *p = v->plan;
    char at[8 * (TILE_MAX_DIMS + 1) * 3], off[24 * (TILE_MAX_DIMS + 1)], st[200];
    size_t k = 0;
    int d;
    if (p->run.stats[v->thread].error != TILE_OK)
        return 0;               /* the run failed already: no message to make */
    tile__walk_where(w, b, i, at, sizeof at);
    for (d = 0; d < cnt && k < sizeof off; d++)
        k += (size_t)snprintf(off + k, sizeof off - k, "%s%lld%s", d ? "," : "(",
                              (long long)o[d], d == cnt - 1 ? ")" : "");
    if (cnt != w->n + 1)
        tile_thread_fail(p, w->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: %d "
                         "offsets %s, the plan has N + 1 = %d dimensions", file, line, at, cnt,
                         off, w->n + 1);
    else if (size != w->esz)
        tile_thread_fail(p, w->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: the "
                         "type has %llu bytes but cfg.elem_size is %llu", file, line, at,
                         (unsigned long long)size, (unsigned long long)w->esz);
    else if (p->cfg.nstencil > 0)
        tile_thread_fail(p, w->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: offset "
                         "%s is not declared, so the plan does not deliver it: add it to the "
                         "stencil (tile_config_stencil), now %s", file, line, at, off,
                         tile__stencil_text(p, st, sizeof st));
    else
        tile_thread_fail(p, w->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: offset "
                         "%s is not declared, so the plan does not deliver it: %s give "
                         "axis-aligned offsets only; declare a stencil (tile_config_stencil)",
                         file, line, at, off, tile__stencil_text(p, st, sizeof st));
    return 0;
}

/* One offset o_i of TILE_AT in its code: 7 bits at 7 i (o_i + 64, for
 * |o_i| <= 63), or bit 63 (farther: "far").  Offsets that are constants at
 * the call site make a constant code. */
TILE__ALWAYS_INLINE uint64_t tile__at_pk(int64_t x, int i)
{
    return (uint64_t)(x + 63) <= 126 ? (uint64_t)(x + 64) << (7 * i) : (uint64_t)1 << 63;
}

/* Its column in tile__atset.m: x + 7 for |x| <= 7, else 15. */
TILE__ALWAYS_INLINE int tile__at_ix(int64_t x)
{
    return (uint64_t)(x + 7) <= 14 ? (int)(x + 7) : 15;
}

/* Does the plan deliver the offset whose code is code (some offset beyond
 * +-7, so that tile__atset.m cannot tell)?  One of the plan's sorted codes
 * (a binary search), or far when the plan declares a far offset, or any
 * (at_all).  Costs a search at each use: only sites with such offsets. */
static inline int tile__at_far_ok(const tile__atset *as, uint64_t code)
{
    const uint64_t *a = as->code;
    size_t lo = 0, hi = TILE__AT_CODES;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < TILE__AT_CODES && a[lo] == code) | (int)(as->any & 1) |
           (int)((code & as->any) >> 63);
}

/* Does the plan deliver the offset o (cnt offsets, code, near: every
 * |o_i| <= 7, hit: the AND of their columns of tile__atset.m)? */
TILE__ALWAYS_INLINE int tile__at_ok(const tile__atset *as, int near, uint64_t hit,
                                    uint64_t code)
{
    return near ? (hit != 0) | (int)(as->any & 1) : tile__at_far_ok(as, code);
}

/* TILE_AT at point i of view v's run, element k of at (the cursor's
 * fields): the address of the lvalue of T (size bytes) at element offset
 * e, for the offsets o (cnt of them, their code, near and hit as for
 * tile__at_ok).  The checked loop (chk 1) tests the type's size, the count
 * and the offset, and a refusal is the run's error at once (the access
 * goes to the thread's scratch element).  The unchecked loops (chk 0: the
 * contiguous and the SIMD loop) test nothing: they run only on runs like
 * those the checked loop has run (tile__walk_simd, tile__walk_contig). */
TILE__ALWAYS_INLINE void *tile__at_test(unsigned char *at, int64_t k, const tile__view *v,
                                        int64_t i, int simd, int chk, const tile__atset *as,
                                        size_t size, const char *file, int line, int cnt,
                                        uint64_t code, int near, uint64_t hit, int64_t e,
                                        const int64_t *o)
{
    if (chk && !(tile__at_ok(as, near, hit, code) &
                 (size * (TILE_MAX_DIMS + 2) + (size_t)cnt == v->key)) &&
        !tile__at_refuse(v, (simd & 2) != 0, i, size, cnt, o, file, line))
        return tile__scratch(v->plan, v->thread, size);
    return at + (k + e) * (int64_t)size;
}

/* TILE_AT of 2 to 9 offsets (TILE__AT2 ... TILE__AT9): each offset
 * evaluated once, here. */
TILE__ALWAYS_INLINE void *tile__at2(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1)
{
    const int64_t *u = v->ust;
    int64_t o[2];
    o[0] = o0;
    o[1] = o1;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 2,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)],
                         o0 * u[0] + o1 * u[1], o);
}

TILE__ALWAYS_INLINE void *tile__at3(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2)
{
    const int64_t *u = v->ust;
    int64_t o[3];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 3,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2], o);
}

TILE__ALWAYS_INLINE void *tile__at4(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2, int64_t o3)
{
    const int64_t *u = v->ust;
    int64_t o[4];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    o[3] = o3;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 4,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2) | tile__at_pk(o3, 3),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15 && tile__at_ix(o3) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)] &
                         as->m[3][tile__at_ix(o3)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2] + o3 * u[3], o);
}

TILE__ALWAYS_INLINE void *tile__at5(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2, int64_t o3, int64_t o4)
{
    const int64_t *u = v->ust;
    int64_t o[5];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    o[3] = o3;
    o[4] = o4;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 5,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2) | tile__at_pk(o3, 3) |
                         tile__at_pk(o4, 4),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15 && tile__at_ix(o3) < 15 &&
                         tile__at_ix(o4) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)] &
                         as->m[3][tile__at_ix(o3)] &
                         as->m[4][tile__at_ix(o4)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2] + o3 * u[3] +
                         o4 * u[4], o);
}

TILE__ALWAYS_INLINE void *tile__at6(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2, int64_t o3, int64_t o4,
                               int64_t o5)
{
    const int64_t *u = v->ust;
    int64_t o[6];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    o[3] = o3;
    o[4] = o4;
    o[5] = o5;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 6,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2) | tile__at_pk(o3, 3) |
                         tile__at_pk(o4, 4) | tile__at_pk(o5, 5),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15 && tile__at_ix(o3) < 15 &&
                         tile__at_ix(o4) < 15 && tile__at_ix(o5) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)] &
                         as->m[3][tile__at_ix(o3)] &
                         as->m[4][tile__at_ix(o4)] &
                         as->m[5][tile__at_ix(o5)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2] + o3 * u[3] +
                         o4 * u[4] + o5 * u[5], o);
}

TILE__ALWAYS_INLINE void *tile__at7(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2, int64_t o3, int64_t o4,
                               int64_t o5, int64_t o6)
{
    const int64_t *u = v->ust;
    int64_t o[7];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    o[3] = o3;
    o[4] = o4;
    o[5] = o5;
    o[6] = o6;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 7,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2) | tile__at_pk(o3, 3) |
                         tile__at_pk(o4, 4) | tile__at_pk(o5, 5) |
                         tile__at_pk(o6, 6),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15 && tile__at_ix(o3) < 15 &&
                         tile__at_ix(o4) < 15 && tile__at_ix(o5) < 15 &&
                         tile__at_ix(o6) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)] &
                         as->m[3][tile__at_ix(o3)] &
                         as->m[4][tile__at_ix(o4)] &
                         as->m[5][tile__at_ix(o5)] &
                         as->m[6][tile__at_ix(o6)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2] + o3 * u[3] +
                         o4 * u[4] + o5 * u[5] + o6 * u[6], o);
}

TILE__ALWAYS_INLINE void *tile__at8(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2, int64_t o3, int64_t o4,
                               int64_t o5, int64_t o6, int64_t o7)
{
    const int64_t *u = v->ust;
    int64_t o[8];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    o[3] = o3;
    o[4] = o4;
    o[5] = o5;
    o[6] = o6;
    o[7] = o7;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 8,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2) | tile__at_pk(o3, 3) |
                         tile__at_pk(o4, 4) | tile__at_pk(o5, 5) |
                         tile__at_pk(o6, 6) | tile__at_pk(o7, 7),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15 && tile__at_ix(o3) < 15 &&
                         tile__at_ix(o4) < 15 && tile__at_ix(o5) < 15 &&
                         tile__at_ix(o6) < 15 && tile__at_ix(o7) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)] &
                         as->m[3][tile__at_ix(o3)] &
                         as->m[4][tile__at_ix(o4)] &
                         as->m[5][tile__at_ix(o5)] &
                         as->m[6][tile__at_ix(o6)] &
                         as->m[7][tile__at_ix(o7)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2] + o3 * u[3] +
                         o4 * u[4] + o5 * u[5] + o6 * u[6] + o7 * u[7], o);
}

TILE__ALWAYS_INLINE void *tile__at9(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2, int64_t o3, int64_t o4,
                               int64_t o5, int64_t o6, int64_t o7,
                               int64_t o8)
{
    const int64_t *u = v->ust;
    int64_t o[9];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    o[3] = o3;
    o[4] = o4;
    o[5] = o5;
    o[6] = o6;
    o[7] = o7;
    o[8] = o8;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 9,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2) | tile__at_pk(o3, 3) |
                         tile__at_pk(o4, 4) | tile__at_pk(o5, 5) |
                         tile__at_pk(o6, 6) | tile__at_pk(o7, 7) |
                         tile__at_pk(o8, 8),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15 && tile__at_ix(o3) < 15 &&
                         tile__at_ix(o4) < 15 && tile__at_ix(o5) < 15 &&
                         tile__at_ix(o6) < 15 && tile__at_ix(o7) < 15 &&
                         tile__at_ix(o8) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)] &
                         as->m[3][tile__at_ix(o3)] &
                         as->m[4][tile__at_ix(o4)] &
                         as->m[5][tile__at_ix(o5)] &
                         as->m[6][tile__at_ix(o6)] &
                         as->m[7][tile__at_ix(o7)] &
                         as->m[8][tile__at_ix(o8)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2] + o3 * u[3] +
                         o4 * u[4] + o5 * u[5] + o6 * u[6] + o7 * u[7] +
                         o8 * u[8], o);
}

#ifdef TILE_CHECK_ACCESS
/* Is o (user offsets) a read the plan delivers: a declared stencil vector
 * (or, with the shorthand, an axis-aligned offset within the widths), or
 * the point itself? */
static inline int tile__declared(const tile_plan *p, const int64_t *o)
{
    int n = p->cfg.n, i, k, nz = 0;
    if (p->cfg.nstencil == 0) {
        for (i = 0; i <= n; i++) {
            int64_t u = o[i] * p->deps.dir[i], d = i < n ? p->deps.d[i] : p->deps.dz;
            nz += o[i] != 0;
            if (u > 0 || u < -d)
                return 0;
        }
        return nz <= 1;
    }
    for (i = 0; i <= n; i++)
        nz += o[i] != 0;
    if (nz == 0)
        return 1;
    for (k = 0; k < p->cfg.nstencil; k++) {
        for (i = 0; i <= n && o[i] == p->cfg.stencil[k][i]; i++)
            ;
        if (i > n)
            return 1;
    }
    return 0;
}

/* The poison pattern of the current point (TILE_CHECK_ACCESS): bytes
 * A5 A5 F5 FF repeated, a NaN as a float or a double (little-endian). */
static inline unsigned char tile__poison_byte(size_t i)
{
    static const unsigned char pat[4] = { 0xA5, 0xA5, 0xF5, 0xFF };
    return pat[i % 4];
}

/* Before the body: poison the cursor's point. */
static inline void tile__cur_poison(tile_cursor *c)
{
    unsigned char *e = c->at + c->k * (int64_t)c->v->esz;
    size_t i;
    for (i = 0; i < c->v->esz; i++)
        e[i] = tile__poison_byte(i);
    c->used_file = NULL;
    c->used_line = 0;
}

/* Does the element at e hold the poison pattern, every byte? */
static inline int tile__poisoned(const unsigned char *e, size_t esz)
{
    size_t i;
    for (i = 0; i < esz && e[i] == tile__poison_byte(i); i++)
        ;
    return i == esz;
}

/* A TILE_AT of the current point itself (offset 0) at file:line, element
 * e: the second use of the point while it still holds the poison is a
 * read before the write (the first may be the write: `TILE_AT(...) = v`
 * evaluates the lvalue before it stores), the run's TILE_ERR_ACCESS
 * naming both lines. */
static inline void tile__cur_used(tile_cursor *c, const unsigned char *e, const char *file,
                                  int line)
{
    char at[8 * (TILE_MAX_DIMS + 1) * 3];
    if (!tile__poisoned(e, c->v->esz))
        return;
    if (c->used_file == NULL) {
        c->used_file = file;
        c->used_line = line;
        return;
    }
    tile_thread_fail(c->v->plan, c->v->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: "
                     "the point itself (offset 0), used at %s:%d before the body wrote it: a "
                     "read of the point before its write (TILE_CHECK_ACCESS)", file, line,
                     tile__walk_where(c->v->w, (c->simd & 2) != 0, c->i, at, sizeof at), c->used_file, c->used_line);
}

/* Does the double at e hold the poison quieted (bit 51 set: what an
 * arithmetic operation on the signalling poison returns, its payload
 * kept)?  Then the body computed its value from the poison. */
static inline int tile__poison_quieted(const unsigned char *e, size_t esz)
{
    static const unsigned char q[8] = { 0xA5, 0xA5, 0xF5, 0xFF, 0xA5, 0xA5, 0xFD, 0xFF };
    return esz == 8 && memcmp(e, q, 8) == 0;
}

/* After the body (normal end or continue): the body must have written its
 * point; every byte still the poison pattern is the run's TILE_ERR_BODY,
 * the poison quieted (`TILE_AT(...) += v`: one use, a read before the
 * write) TILE_ERR_ACCESS. */
static inline void tile__cur_written(tile_cursor *c)
{
    const unsigned char *e = c->at + c->k * (int64_t)c->v->esz;
    char at[8 * (TILE_MAX_DIMS + 1) * 3];
    if (tile__poison_quieted(e, c->v->esz))
        tile_thread_fail(c->v->plan, c->v->thread, TILE_ERR_ACCESS, "the body computed its point "
                         "%s from the point's own value before writing it (it holds the poison's "
                         "NaN: `TILE_AT(..., 0) += v` reads the point; TILE_CHECK_ACCESS)",
                         tile__walk_where(c->v->w, (c->simd & 2) != 0, c->i, at, sizeof at));
    else if (tile__poisoned(e, c->v->esz))
        tile_thread_fail(c->v->plan, c->v->thread, TILE_ERR_BODY, "the body did not write its point "
                         "%s (TILE_CHECK_ACCESS: it still holds the poison pattern)",
                         tile__walk_where(c->v->w, (c->simd & 2) != 0, c->i, at, sizeof at));
}

/* Checked access: N + 1 offsets, declared, and a type of the element's
 * size; anything else is the run's error (naming the offset, the point and
 * the source line) and lands on a scratch element. */
static inline void *tile__checked(tile_cursor *c, size_t size, int cnt, const int64_t *o,
                                  const char *file, int line)
{
    char at[8 * (TILE_MAX_DIMS + 1) * 3], off[24 * (TILE_MAX_DIMS + 1)];
    int64_t e = 0;
    size_t w = 0;
    int i;
    if (size != c->v->esz)
        return tile__trap(c->v->w, c->i, size, c->v->n + 1, file, line);
    for (i = 0; i < cnt && w < sizeof off; i++)
        w += (size_t)snprintf(off + w, sizeof off - w, "%s%lld%s", i ? "," : "(",
                              (long long)o[i], i == cnt - 1 ? ")" : "");
    if (cnt != c->v->n + 1) {
        tile_thread_fail(c->v->plan, c->v->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: %d "
                         "offsets %s, the plan has N + 1 = %d dimensions", file, line,
                         tile__walk_where(c->v->w, (c->simd & 2) != 0, c->i, at, sizeof at), cnt, off, c->v->n + 1);
        return tile__scratch(c->v->plan, c->v->thread, size);
    }
    if (!tile__declared(c->v->plan, o)) {
        (void)tile__at_refuse(c->v, (c->simd & 2) != 0, c->i, size, cnt, o, file, line);
        return tile__scratch(c->v->plan, c->v->thread, size);
    }
    for (i = 0; i <= c->v->n; i++)
        e += o[i] * c->v->ust[i];
    for (i = 0; i <= c->v->n && o[i] == 0; i++)
        ;
    if (i > c->v->n)
        tile__cur_used(c, c->at + c->k * (int64_t)c->v->esz, file, line);
    return c->at + (c->k + e) * (int64_t)c->v->esz;
}
#endif

/**
 * TILE_AT(T, it, o_1, ..., o_N, o_Z) - lvalue of type T at offset o from the
 * cursor's point, in the user's coordinates and directions.
 * @T:  the element type; sizeof(T) must be cfg.elem_size.
 * @it: the cursor (the step macro's cursor name).
 * @o_1, ..., o_N, o_Z: the offsets, exactly N + 1 of them; each evaluated
 *      at most once.  One offset, or 10 to 16, does not compile (outside
 *      TILE_CHECK_ACCESS, which reports it at run time) ("TILE_AT_needs_one_offset_per_dimension_then_one_for_Z"
 *      or "TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets" undeclared).
 *
 * Checked in every build: the offset (a vector of the stencil, or with
 * the shorthand axis-aligned within the widths, or the point itself: what
 * the plan delivers), the type's size and the number of offsets, at every
 * point of the runs that go through TILE__POINTS' checked loop: each
 * tile's first run of each plane (Z) -- in the hyperplane order also B's
 * first run when it walks two planes at once; with N = 1, where a plane
 * is one row, the tile's first two planes only (both parities of z) --
 * and every run whose points are not consecutive elements.  (The others go through loops without the
 * tests, the SIMD loop among them, where a test per TILE_AT would cost a
 * compare and a mask per point.)  The offsets' test is a few loads and
 * ANDs of constant indices where the offsets are constants, which the
 * compiler hoists out of the loop.  So a TILE_AT that the body reaches at
 * every point, or at every point of some planes (a condition on z), is
 * refused at the first point that reaches it; one that the body reaches
 * only at some points of a plane (a condition on x or on a value) only if
 * a checked run reaches it.  A refusal is the run's TILE_ERR_ACCESS
 * naming the source line, the point, the offset and the stencil, and the
 * access lands on a scratch element.  Under TILE_CHECK_ACCESS every
 * access of every point is checked, and the body must write its own point
 * (see TILE_CHECK_ACCESS above).
 */
#define TILE__NARG(...)                                                            \
    TILE__NARG_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TILE__NARG_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16,  \
                    N, ...)                                                        \
    N
#define TILE__CAT(a, b) TILE__CAT_(a, b)
#define TILE__CAT_(a, b) a##b
#ifdef TILE_CHECK_ACCESS
#define TILE_AT(T, it, ...)                                                        \
    (*(T *)tile__checked(&(it), sizeof(T), TILE__NARG(__VA_ARGS__),              \
                         (const int64_t[]){__VA_ARGS__}, __FILE__, __LINE__))
#else
#define TILE_AT(T, it, ...) TILE__CAT(TILE__AT, TILE__NARG(__VA_ARGS__))(T, it, __VA_ARGS__)
#endif
/* An offset count no plan has (1, or 10 to 16) is a
 * compile error whose message is the rule: "'TILE_AT_needs_one_offset_
 * per_dimension_then_one_for_Z' undeclared" (the count the plan has, N + 1,
 * is checked when the body runs). */
#define TILE__AT1(T, it, z) (*(T *)TILE_AT_needs_one_offset_per_dimension_then_one_for_Z)
#define TILE__AT10(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT11(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT12(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT13(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT14(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT15(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT16(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT2(T, it, a, z)                                                            \
    (*(T *)tile__at2((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (z)))
#define TILE__AT3(T, it, a, b, z)                                                         \
    (*(T *)tile__at3((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (z)))
#define TILE__AT4(T, it, a, b, c, z)                                                      \
    (*(T *)tile__at4((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (c), (z)))
#define TILE__AT5(T, it, a, b, c, d, z)                                                   \
    (*(T *)tile__at5((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (c), (d), (z)))
#define TILE__AT6(T, it, a, b, c, d, e, z)                                                \
    (*(T *)tile__at6((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (c), (d), (e), (z)))
#define TILE__AT7(T, it, a, b, c, d, e, f, z)                                             \
    (*(T *)tile__at7((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (c), (d), (e), (f), (z)))
#define TILE__AT8(T, it, a, b, c, d, e, f, g, z)                                          \
    (*(T *)tile__at8((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (c), (d), (e), (f), (g), (z)))
#define TILE__AT9(T, it, a, b, c, d, e, f, g, h, z)                                       \
    (*(T *)tile__at9((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (c), (d), (e), (f), (g), (h), (z)))

/* TILE_AT's checks of the offset, the type size and the offset count: on,
 * except in the SIMD loop and the contiguous loop of TILE__POINTS, which
 * declare their own tile__at_checked = 0 (the checked scalar loop has run
 * the plane's first run: tile__walk_simd, tile__walk_contig). */
enum { tile__at_checked = 1 };

/* The innermost loop of the hyperplane order is `omp simd` where the
 * compiler takes OpenMP pragmas: under -fopenmp, or with TILE_SIMD defined
 * (-fopenmp-simd: the SIMD pragmas without the OpenMP runtime); not under
 * TILE_CHECK_ACCESS or TILE_NO_SIMD. */
#if (defined(_OPENMP) || defined(TILE_SIMD)) && !defined(TILE_CHECK_ACCESS) && \
    !defined(TILE_NO_SIMD)
#define TILE__SIMD _Pragma("omp simd")
#else
#define TILE__SIMD
#endif

/* The points of thread t's tile k, with the body in place: run by run
 * (struct tile__walk), each point with its own cursor it.  The body sits
 * in a one-trip loop, so that `continue` and `break` end the point and the
 * loop around can tell them apart (break is the run's error).  It is
 * expanded three times: a scalar loop with TILE_AT checked; once that
 * loop has run one of the tile's runs, for the rows of the plane and
 * Z-inner orders whose points are consecutive elements, a scalar loop
 * without the checks whose cursor's address moves by one element (a
 * compile-time step; demos/sw, GCC -O2: 40 instructions per point, 48
 * in the checked loop); and for the diagonals of the hyperplane
 * order, the same loop under `omp simd` (the points of a diagonal do not
 * depend on each other).  Under TILE_CHECK_ACCESS each point is
 * poisoned before the body and checked after it (in the one-trip loop's
 * increment, which `continue` reaches too), and no loop is SIMD. */
#ifdef TILE_CHECK_ACCESS
#define TILE__POINT_BEGIN(it) tile__cur_poison(&(it));
#define TILE__POINT_END(it) tile__cur_written(&(it)),
#else
#define TILE__POINT_BEGIN(it)
#define TILE__POINT_END(it)
#endif
/* The SIMD loop of TILE__POINTS: the n points of the run at r (the walk
 * w's, or with h 1 the run of B of its pair), each a lane with its own
 * cursor it on view v, the body in place in a one-trip loop, as in
 * TILE__POINTS (private; every argument evaluated once). */
#define TILE__SIMD_RUN(w, v, r, n, h, it, ...)                                  \
    {                                                                           \
        tile__walk *const tile_sr_w_ = (w);                                     \
        const tile__view *const tile_sr_v_ = (v);                               \
        unsigned char *const tile_sr_r_ = (r);                                  \
        int64_t const tile_sr_n_ = (n);                                         \
        int const tile_sr_h_ = (h);                                             \
        int64_t tile_sr_j0_, tile_sr_l_;                                        \
        for (tile_sr_j0_ = 0; tile_sr_j0_ < tile_sr_n_; tile_sr_j0_ += TILE__LANES) { \
            int64_t const tile_sr_m_ = tile_sr_n_ - tile_sr_j0_ < TILE__LANES   \
                                       ? tile_sr_n_ - tile_sr_j0_ : TILE__LANES; \
            TILE__SIMD                                                          \
            for (tile_sr_l_ = 0; tile_sr_l_ < tile_sr_m_; tile_sr_l_++) {       \
                int tile_sr_end_ = 0;                                           \
                for (tile_cursor it = tile__cur_simd(tile_sr_v_, tile_sr_r_,    \
                                                     tile_sr_j0_ + tile_sr_l_, tile_sr_l_, \
                                                     tile_sr_h_);               \
                     !tile_sr_end_; tile_sr_end_ = 1) { \
                    __VA_ARGS__                                                 \
                }                                                               \
                if (!tile_sr_end_)                                              \
                    tile__walk_break(tile_sr_w_, tile_sr_h_, tile_sr_j0_ + tile_sr_l_); \
            }                                                                   \
        }                                                                       \
    }

#define TILE__POINTS(plan_, t_, k_, it, ...)                                       \
    for (tile__atset const tile_pt_as_ = tile__atset_of((plan_)),                  \
                           *tile_pt_aonce_ = &tile_pt_as_;                         \
         tile_pt_aonce_; tile_pt_aonce_ = NULL)                                    \
    for (tile__walk tile_pt_w_ = tile__walk_begin(tile_pt_as_.plan, (t_), (k_)),   \
                    *tile_pt_once_ = &tile_pt_w_;                                  \
         tile_pt_once_; tile_pt_once_ = NULL)                                      \
        for (tile__view tile_pt_v_ = tile__view_begin(&tile_pt_w_), tile_pt_vb_ = tile_pt_v_; \
             tile__walk_next(&tile_pt_w_) && tile__view_run(&tile_pt_v_, &tile_pt_w_);) \
            if (tile__walk_contig(&tile_pt_w_)) {                                  \
                enum { tile__at_checked = 0 };                                     \
                unsigned char *const tile_pt_r_ = tile_pt_w_.run;                  \
                int64_t const tile_pt_n_ = tile_pt_w_.count;                       \
                int64_t tile_pt_i_;                                                \
                for (tile_pt_i_ = 0; tile_pt_i_ < tile_pt_n_; tile_pt_i_++) {      \
                    int tile_pt_end_ = 0;                                          \
                    for (tile_cursor it = tile__cur_contig(&tile_pt_v_, tile_pt_r_, \
                                                           tile_pt_i_);            \
                         !tile_pt_end_; tile_pt_end_ = 1) { \
                        __VA_ARGS__                                                \
                    }                                                              \
                    if (!tile_pt_end_)                                             \
                        tile__walk_break(&tile_pt_w_, 0, tile_pt_i_);              \
                }                                                                  \
            } else if (!tile__walk_simd(&tile_pt_w_)) {                            \
                ptrdiff_t const tile_pt_s_ = tile_pt_w_.step;                      \
                int tile_pt_h_;                                                    \
                for (tile_pt_h_ = 0; tile_pt_h_ <= (tile_pt_w_.bcount > 0); tile_pt_h_++) { \
                    unsigned char *const tile_pt_r_ = tile_pt_h_ ? tile_pt_w_.brun : tile_pt_w_.run; \
                    int64_t const tile_pt_n_ = tile_pt_h_ ? tile_pt_w_.bcount : tile_pt_w_.count; \
                    int64_t tile_pt_i_;                                            \
                    if (tile_pt_h_)     /* B's run of a pair (tile__walk_next): its view */ \
                        tile__view_set(&tile_pt_v_, &tile_pt_w_, tile_pt_w_.bsu,   \
                                       tile_pt_w_.pl != tile_pt_w_.n && tile_pt_v_.wrap); \
                    for (tile_pt_i_ = 0; tile_pt_i_ < tile_pt_n_; tile_pt_i_++) {  \
                        int tile_pt_end_ = 0;                                      \
                        for (tile_cursor it = tile__cur_at(&tile_pt_v_, tile_pt_r_, tile_pt_s_, \
                                                           tile_pt_i_, tile_pt_h_); \
                             !tile_pt_end_; tile_pt_end_ = (TILE__POINT_END(it) 1)) { \
                            TILE__POINT_BEGIN(it)                                  \
                            __VA_ARGS__                                            \
                        }                                                          \
                        if (!tile_pt_end_)                                         \
                            tile__walk_break(&tile_pt_w_, tile_pt_h_, tile_pt_i_); \
                    }                                                              \
                }                                                                  \
                tile__walk_checked(&tile_pt_w_);                                   \
            } else {                                                            \
                enum { tile__at_checked = 0 };                                  \
                tile_pt_w_.laned = 1;                                           \
                TILE__SIMD_RUN(&tile_pt_w_, &tile_pt_v_, tile_pt_w_.run, tile_pt_w_.count, 0, \
                               it, __VA_ARGS__)                                 \
                if (tile_pt_w_.bcount > 0) {       /* B of a pair: tile__walk_next */ \
                    tile__view_pair(&tile_pt_vb_, &tile_pt_v_, &tile_pt_w_);    \
                    TILE__SIMD_RUN(&tile_pt_w_, &tile_pt_vb_, tile_pt_w_.brun,  \
                                   tile_pt_w_.bcount, 1, it, __VA_ARGS__)       \
                }                                                               \
            }

/* ==== src/tiling/45-height.h ==== */
#line 1 "src/tiling/45-height.h"
/* ------------------------------------------------------------------------ */
/* The tile height: the pipeline's model                                    */

/*
 * A process walks ceil(Z/z) tiles; the last process starts F = sum_i (P_i -
 * 1) tile steps after the first (over the dimensions with d_i > 0), and its
 * threads S = sum (T_i - 1) steps after that; each step computes z planes
 * of a block and sends its faces:
 *     T(z) = (ceil(Z/z) + F + S) * (z t_plane + t_msg(z) + t_sync)
 *            - (ceil(Z/z) z - Z) * (t_plane + t_msg'),
 *     t_plane = t_comp * (points of the largest block's plane) / T,
 *     t_msg(z) = m t_startup + z * elem_bytes * (face elements per plane) / B,
 * m the messages of a step -- topology.h's pipeline model (the one
 * TILE_GRID_TIME minimises over grids: topo_nest_report()), with the
 * thread skew added, t_comp shared by the T threads, and t_sync the
 * threads' barrier at the end of a step (measured at creation; 0 with one
 * thread); t_msg' its growth per plane.  The second line is the last
 * step's due: the last process's last tile, of Z - (ceil(Z/z) - 1) z
 * planes, computes and sends only those.  Small z pays F + S fill steps
 * less but m t_startup + t_sync more often; the continuous minimum is
 * z* = sqrt(Z (t_msg(0) + t_sync) / ((F + S) (t_plane + t_msg'))).
 * tile_height_best() finds the exact integer minimum of T over
 * 1 <= z <= min(Z, zmax): for a given ceil(Z/z) = k, T grows with z by
 * (F + S) (t_plane + t_msg') per plane (with F + S = 0, it ties), so the
 * smallest height of k tiles, ceil(Z/k), is best (the most even tiles);
 * it evaluates those outward from z* until (Z/z + F + S)(A z + B), a lower
 * bound of T that grows away from z*, passes the best found (times within
 * a relative 1e-12 tie, and a tie goes to the larger z: fewer tiles, whose
 * per-tile costs the model leaves out).
 *
 * The cache bound: a Z window of z planes per tile holds at most (S + 3) z
 * + 2 d_Z planes (tile__sizes: S + 2 + ceil(d_Z/z) tiles of z planes, and
 * the d_Z mirror planes); zmax is the largest z whose window fits in the
 * caches of the process's cores: T times the cache of one core
 * (TILEHYBRID_CACHE_BYTES, else the level-2 size, else a core's share of
 * the level 3, else 2 MiB: tile_height_cache_bytes(), the sizes from
 * Linux's sysfs, else sysconf), and with T > 1 threads (no TILEHYBRID_CACHE_BYTES) at least a
 * quarter of their share of the level-3 cache (tile_height_window_bytes():
 * their barrier each step costs more than a taller window's level-2
 * misses); when even z = 1 does not fit: 1 on one process with one thread
 * (no pipeline: every height ties in the model, and the smallest window
 * misses least), else the largest z whose window fits the last-level cache
 * (tile_height_llc_bytes()); when not even that, 1 (no cache gains from
 * taller tiles then, and one process, whose heights all tie, would
 * otherwise keep all of Z); and at least 2 where a tile's planes go in
 * pairs (tile_plane_pairs(): a pair gains more than the window's misses
 * cost); tile_height_zmax().  A plan forced to the Z-inner order
 * uses the last-level cache from the start (tile__cache_bytes()).  Why the
 * level-2 caches first: each new plane is written over the slot of a plane
 * ring_planes planes back, and a slot still in the core's own cache costs
 * no refill.  On this project's 2-core test machine (an Intel Xeon, 1 MiB
 * of level 2 per core, 36 MiB of level 3 shared with the host), ADI
 * 64x256x4096 on one process ran z = 1-3 at 0.72-0.81 G points/s and
 * z = 16-64 at 0.33-0.47 (CPU time, 3 runs each, a busy machine); at 2
 * processes (docs/results/height-sweep.csv) the times are flat from z = 1
 * to 32 and rise from 64, where the windows pass the level-3 cache: the
 * level-2 bound is the safe side of both.
 */

/* Bound on the heights tile_height_best() evaluates (each one a
 * topo_nest_report()); far more than the search needs in practice: the
 * candidates where the lower bound stays under the best are a few dozen. */
#define TILE__MODEL_EVALS 1000000

#if TILEHYBRID__DEFINE
/* A topology.h code of the model as a tiling.h code (the argument stays). */
TILEHYBRID__COLD int tile__model_code(int rc, tilehybrid_status *st)
{
    int code = rc == TOPO_ERR_COST ? TILE_ERR_BALANCE : rc == TOPO_ERR_OVERFLOW
               ? TILE_ERR_OVERFLOW : TILE_ERR_RANGE;
    return tilehybrid_status_set(st, code, st != NULL ? st->arg : "model",
                                 st != NULL ? st->index : -1);
}

/* One tile step of model m (not NULL) at height z over Z planes (m's, or
 * fewer): *step = z t_plane + t_msg(z) (topo_nest_report(), t_comp shared
 * by the threads; no t_sync) and *steps = ceil(Z/z) + F + S.  Checks the
 * rest of the model for tile_height_time(). */
TILEHYBRID__COLD int tile__height_step(const tile_height_model *m, int64_t z, int64_t Z,
                                       double *step, int64_t *steps, tilehybrid_status *st)
{
    topo_nest nest;
    topo_report r;
    int rc;
    if (z < 1)
        return tilehybrid_status_set(st, TILE_ERR_TILE_HEIGHT, "z", -1);
    if (m->threads < 1 || m->skew < 0)
        return tilehybrid_status_set(st, TILE_ERR_THREADS, m->threads < 1 ? "threads" : "skew",
                                     -1);
    if (!(m->tsync >= 0.0 && m->tsync < 1e300))
        return tilehybrid_status_set(st, TILE_ERR_BALANCE, "tsync", -1);
    nest = m->nest;
    nest.zlen = Z;
    nest.tile_height = z;
    nest.tcomp = m->nest.tcomp / m->threads;
    rc = topo_nest_report(&nest, m->dims, &r, st);
    if (rc != TOPO_OK)
        return tile__model_code(rc, st);
    if (r.steps < 1 || !tilehybrid_add_ok(r.steps, m->skew, steps))
        return tilehybrid_status_set(st, TILE_ERR_OVERFLOW, "skew", -1);
    *step = r.seconds / (double)r.steps;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}

/**
 * tile_height_time() - the model's predicted time of a run at tile height z.
 * @m:       the model (struct tile_height_model).
 * @z:       the tile height (>= 1; above Z counts as Z).
 * @seconds: receives T(z) (may be NULL): the steps at height z, but the
 *           last one at the height of the last tile, Z - (ceil(Z/z) - 1) z
 *           (the last step is the last process's last tile, which is short
 *           when z does not divide Z).
 * @steps:   receives the tile steps ceil(Z/z) + F + S (may be NULL).
 * @st:      NULL, or receives the argument at fault.
 * Return: TILE_OK; TILE_ERR_NULL; TILE_ERR_TILE_HEIGHT (z < 1);
 * TILE_ERR_THREADS (threads < 1 or skew < 0); TILE_ERR_BALANCE (a cost out
 * of range: tcomp, tstartup, bandwidth, elem_bytes); TILE_ERR_OVERFLOW (the
 * steps pass 2^63); TILE_ERR_RANGE (another value of the nest or the grid).
 */
TILEHYBRID__COLD int tile_height_time(const tile_height_model *m, int64_t z, double *seconds,
                                     int64_t *steps, tilehybrid_status *st)
{
    int64_t all = 0, Z, last, n = 0;
    double step = 0.0, lstep = 0.0;
    int rc;
    if (m == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, "m", -1);
    Z = m->nest.zlen;
    if ((rc = tile__height_step(m, z, Z, &step, &all, st)) != TILE_OK)
        return rc;
    last = z < Z ? Z - (tile__ceil_div(Z, z) - 1) * z : Z;   /* the last tile's height */
    lstep = step;       /* its step: one tile of `last` planes (no count to overflow) */
    if (last < z && (rc = tile__height_step(m, last, last, &lstep, &n, st)) != TILE_OK)
        return rc;
    if (seconds != NULL)
        *seconds = (step + m->tsync) * (double)(all - 1) + lstep + m->tsync;
    if (steps != NULL)
        *steps = all;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}
#else
TILEHYBRID__COLD int tile__model_code(int rc, tilehybrid_status *st);
TILEHYBRID__COLD int tile__height_step(const tile_height_model *m, int64_t z, int64_t Z,
                                       double *step, int64_t *steps, tilehybrid_status *st);
TILEHYBRID__COLD int tile_height_time(const tile_height_model *m, int64_t z, double *seconds,
                                     int64_t *steps, tilehybrid_status *st);
#endif

/* The search of tile_height_best(): the model, Z, the per-step time A z + B
 * and the fill F + S (from the model itself, at z = 1 and 2), the best. */
typedef struct tile__zsearch {
    const tile_height_model *m;
    int64_t Z, zh, best, evals;
    double A, B, fill, bestt;
} tile__zsearch;

#if TILEHYBRID__DEFINE
/* Evaluate candidate z: a smaller time wins (by more than a relative
 * 1e-12, the rounding of the model's few operations); a tie goes to the
 * larger z (fewer tiles: the per-tile costs the model leaves out; with F +
 * S = 0 and no per-step cost every height ties). */
TILEHYBRID__COLD int tile__zeval(tile__zsearch *s, int64_t z)
{
    double t = 0.0;
    int rc = tile_height_time(s->m, z, &t, NULL, NULL);
    s->evals++;
    if (rc == TILE_OK && (s->best < 1 || t < s->bestt * (1.0 - 1e-12) ||
                          (t <= s->bestt * (1.0 + 1e-12) && z > s->best))) {
        s->best = z;
        s->bestt = t;
    }
    return rc;
}

/* The lower bound of T at z: (Z/z + fill) (A z + B) <= T(z). */
TILEHYBRID__COLD int tile__zpruned(const tile__zsearch *s, int64_t z)
{
    double lb = ((double)s->Z / (double)z + s->fill) * (s->A * (double)z + s->B);
    return lb > s->bestt * (1.0 + 1e-9) || s->evals >= TILE__MODEL_EVALS;
}

/* The square root of x >= 0 by Newton's method (no <math.h>, no -lm):
 * only the search's starting point depends on it. */
TILEHYBRID__COLD double tile__sqrt(double x)
{
    double r = x > 1.0 ? x : 1.0, prev = 0.0;
    int i;
    if (!(x > 0.0) || x > 1e300)
        return x > 1e300 ? 1e150 : 0.0;
    for (i = 0; i < 2100 && r != prev; i++) {
        prev = r;
        r = 0.5 * (r + x / r);
    }
    return r;
}

/* A, B and the fill from T(1) and T(2); the start: the left end (the
 * smallest z of its ceil(Z/z)) of the block of the continuous minimum. */
TILEHYBRID__COLD int64_t tile__zstart(tile__zsearch *s)
{
    double t1 = 0, t2 = 0, zs;
    int64_t n1 = 0, n2 = 0, z, k;
    (void)tile__height_step(s->m, 1, s->Z, &t1, &n1, NULL);
    (void)tile__height_step(s->m, 2, s->Z, &t2, &n2, NULL);
    t1 += s->m->tsync;
    t2 += s->m->tsync;
    s->A = t2 - t1;
    s->B = t1 - s->A;
    s->A = s->A > 0.0 ? s->A : 0.0;
    s->B = s->B > 0.0 ? s->B : 0.0;
    s->fill = (double)(n1 - s->Z);
    zs = s->fill > 0.0 && s->A > 0.0 ? tile__sqrt((double)s->Z * s->B / (s->fill * s->A))
                                     : (double)s->zh;
    z = zs >= (double)s->zh ? s->zh : zs < 1.0 ? 1 : (int64_t)zs;
    k = tile__ceil_div(s->Z, z);        /* (no overflow near 2^63) */
    return tile__ceil_div(s->Z, k);
}

/**
 * tile_height_best() - the tile height of least predicted time.
 * @m:       the model (struct tile_height_model; its zmax bounds z).
 * @z:       receives the height, 1 <= z <= min(Z, zmax).
 * @seconds: receives T(z) (may be NULL).
 * @st:      NULL, or receives the argument at fault.
 * The exact minimum of tile_height_time() over the integers (times within
 * a relative 1e-12 tie; the largest such z of the form ceil(Z/k)), found as "The tile height" above explains, evaluating
 * at most TILE__MODEL_EVALS heights (past that, the best found).
 * Return: TILE_OK, or a tile_height_time() code (@z unchanged).
 */
TILEHYBRID__COLD int tile_height_best(const tile_height_model *m, int64_t *z, double *seconds,
                                     tilehybrid_status *st)
{
    tile__zsearch s;
    int64_t c, k, zn;
    int rc;
    if (m == NULL || z == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, m == NULL ? "m" : "z", -1);
    if ((rc = tile_height_time(m, 1, NULL, NULL, st)) != TILE_OK)
        return rc;
    memset(&s, 0, sizeof s);
    s.m = m;
    s.Z = m->nest.zlen;
    s.zh = m->zmax >= 1 && m->zmax < s.Z ? m->zmax : s.Z;
    c = s.zh > 1 ? tile__zstart(&s) : 1;
    if ((rc = tile__zeval(&s, c)) != TILE_OK)
        return tile_height_time(m, c, NULL, NULL, st);
    for (zn = c; zn < s.zh; ) {         /* upward: the next left end */
        k = tile__ceil_div(s.Z, zn);
        zn = k > 1 ? tile__ceil_div(s.Z, k - 1) : s.zh + 1;
        if (zn > s.zh || tile__zpruned(&s, zn))
            break;
        tile__zeval(&s, zn);
    }
    for (zn = c; zn > 1; ) {            /* downward: the left end below */
        k = tile__ceil_div(s.Z, zn - 1);
        zn = tile__ceil_div(s.Z, k);
        if (tile__zpruned(&s, zn))
            break;
        tile__zeval(&s, zn);
    }
    *z = s.best;
    if (seconds != NULL)
        *seconds = s.bestt;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}

/**
 * tile_height_efficiency() - the predicted parallel efficiency of a run.
 * @m:       the model.
 * @seconds: its predicted time (tile_height_time(); > 0).
 * @eff:     receives t_comp * X_1 ... X_N * Z / (P * T * @seconds): the
 *           sequential time over the time of all P * T cores.
 * Return: TILE_OK, TILE_ERR_NULL or TILE_ERR_RANGE (@seconds not > 0).
 */
TILEHYBRID__COLD int tile_height_efficiency(const tile_height_model *m, double seconds, double *eff)
{
    double work, cores;
    int i;
    if (m == NULL || eff == NULL)
        return TILE_ERR_NULL;
    if (!(seconds > 0.0))
        return TILE_ERR_RANGE;
    work = m->nest.tcomp * (double)m->nest.zlen;
    cores = (double)m->threads;
    for (i = 0; i < m->nest.n; i++) {
        work *= (double)m->nest.extent[i];
        cores *= (double)m->dims[i];
    }
    *eff = work / (cores * seconds);
    return TILE_OK;
}

/* The online processors (sysconf), at least 1. */
TILEHYBRID__COLD long tile__online_cpus(void)
{
    long cpus = 1;
#if defined(_SC_NPROCESSORS_ONLN)
    cpus = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    return cpus > 1 ? cpus : 1;
}

/* The first line of a small file (its newline cut) in buf, else 0. */
TILEHYBRID__COLD int tile__read_line(const char *path, char *buf, int size)
{
    FILE *f = fopen(path, "r");
    int ok = f != NULL && fgets(buf, size, f) != NULL;
    if (f != NULL)
        fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

/* The CPUs of a Linux cpu list ("0-3,8-11", "5"), else 0 (malformed). */
TILEHYBRID__COLD int64_t tile__cpu_list_count(const char *list)
{
    int64_t count = 0;
    const char *q = list;
    while (*q != '\0') {
        char *end = NULL;
        long lo = strtol(q, &end, 10), hi = lo;
        if (end == q || lo < 0)
            return 0;
        q = end;
        if (*q == '-') {
            hi = strtol(q + 1, &end, 10);
            if (end == q + 1 || hi < lo)
                return 0;
            q = end;
        }
        count += (int64_t)hi - lo + 1;
        if (*q == ',')
            q++;
        else if (*q != '\0')
            return 0;
    }
    return count;
}

/* The size of cpu0's data or unified cache of @level as the Linux kernel
 * reports it (/sys/devices/system/cpu/cpu0/cache/index<i>/: level, type,
 * size as "<n>K", and shared_cpu_list: the CPUs that share it, in
 * *@sharers when not NULL, 0 if unreadable; @dir: that directory, or a
 * test's), else 0 (not Linux, no such cache, or a size that is no cache's:
 * above 2^50 bytes).  Preferred to sysconf(): glibc's level-3 size on an
 * AMD EPYC virtual machine was the whole package's (320 MiB) where the
 * kernel and lscpu saw the 32 MiB its two vCPUs share, and the threaded
 * cache bound grew tenfold (ADI 64x256x16384, funneled 1 x 2: z = 29 in
 * 0.160 s where z = 10 takes 0.120). */
TILEHYBRID__COLD int64_t tile__sysfs_cache_at(const char *dir, int level, int64_t *sharers)
{
    char path[512], lv[16], type[32], size[32], cpus[256], *end = NULL;
    long long v;
    int64_t unit;
    int i;
    if (sharers != NULL)
        *sharers = 0;
    if (strlen(dir) > sizeof path - 32)
        return 0;
    for (i = 0; i < 16; i++) {
        snprintf(path, sizeof path, "%s/index%d/level", dir, i);
        if (!tile__read_line(path, lv, (int)sizeof lv))
            return 0;       /* the last cache was seen */
        snprintf(path, sizeof path, "%s/index%d/type", dir, i);
        if (atoi(lv) != level || !tile__read_line(path, type, (int)sizeof type) ||
            strcmp(type, "Instruction") == 0)
            continue;
        snprintf(path, sizeof path, "%s/index%d/size", dir, i);
        if (!tile__read_line(path, size, (int)sizeof size))
            continue;
        v = strtoll(size, &end, 10);    /* (out of range: LLONG_MAX, refused below) */
        unit = strcmp(end, "K") == 0 || strcmp(end, "k") == 0 ? 1024
               : strcmp(end, "M") == 0 ? (int64_t)1 << 20 : *end == '\0' ? 1 : 0;
        if (v <= 0 || unit == 0 || v > ((int64_t)1 << 50) / unit)
            continue;
        snprintf(path, sizeof path, "%s/index%d/shared_cpu_list", dir, i);
        if (sharers != NULL && tile__read_line(path, cpus, (int)sizeof cpus))
            *sharers = tile__cpu_list_count(cpus);
        return (int64_t)v * unit;
    }
    return 0;
}

/* TILEHYBRID_CACHE_DIR when set (a directory laid out as Linux's
 * /sys/devices/system/cpu/cpu0/cache: another machine's caches, for
 * tilectl plan on a login node or for a test), else NULL. */
TILEHYBRID__COLD const char *tile__cache_dir(void)
{
    static int said;
    const char *dir = getenv("TILEHYBRID_CACHE_DIR");
    if (dir == NULL || *dir == '\0')
        return NULL;
    if (!said) {            /* a path that holds no description: said, once */
        char path[4096];
        FILE *f;
        said = 1;
        snprintf(path, sizeof path, "%s/index0/level", dir);
        if ((f = fopen(path, "r")) != NULL)
            fclose(f);
        else
            fprintf(stderr, "tiling.h: warning: TILEHYBRID_CACHE_DIR=%s describes no cache "
                    "(no %s): the plan takes every cache size as unknown\n", dir, path);
    }
    return dir;
}

TILEHYBRID__COLD int64_t tile__sysfs_cache(int level, int64_t *sharers)
{
    const char *dir = tile__cache_dir();
    return tile__sysfs_cache_at(dir != NULL ? dir : "/sys/devices/system/cpu/cpu0/cache", level,
                                sharers);
}

/* The level-3 cache (tile__sysfs_cache(), else sysconf's), else 0; and
 * in *@sharers, when not NULL, the CPUs that share it (its shared_cpu_list,
 * else the online processors, else 1 under TILEHYBRID_CACHE_DIR): a
 * core's share of it is its size over these.  Under TILEHYBRID_CACHE_DIR
 * the directory alone describes the caches: nothing of this machine's. */
TILEHYBRID__COLD int64_t tile__llc(int64_t *sharers)
{
    long c = -1;
    int64_t n = 0, v = tile__sysfs_cache(3, &n);
    if (sharers != NULL)
        *sharers = n > 0 ? n : tile__cache_dir() != NULL ? 1 : (int64_t)tile__online_cpus();
    if (v > 0 || tile__cache_dir() != NULL)
        return v;
#if defined(_SC_LEVEL3_CACHE_SIZE)
    c = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    return c > 0 ? (int64_t)c : 0;
}

/**
 * tile_height_llc_bytes() - the last-level cache: the cache bound's
 * fallback when a window of one plane per tile does not fit the level-2
 * caches, and the bound of a forced Z-inner order.
 * @bytes: receives the level-3 cache the kernel reports for cpu0 (Linux:
 *         /sys/devices/system/cpu/cpu0/cache, or the directory
 *         TILEHYBRID_CACHE_DIR names, laid out the same), else sysconf's
 *         level-3 size (not under TILEHYBRID_CACHE_DIR), else 32 MiB.
 * Return: TILE_OK.
 */
TILEHYBRID__COLD int tile_height_llc_bytes(int64_t *bytes)
{
    *bytes = tile__llc(NULL);
    if (*bytes <= 0)
        *bytes = (int64_t)32 << 20;
    return TILE_OK;
}

/**
 * tile_height_cache_bytes() - the cache of one core, for the Z window
 * (a process of T threads gets T times it; see "The tile height").
 * @bytes: receives TILEHYBRID_CACHE_BYTES if set, else the level-2 cache
 *         (the kernel's figure for cpu0 on Linux, or TILEHYBRID_CACHE_DIR's,
 *         else sysconf's), else one
 *         core's share of the level-3 cache (its size over the processors
 *         that share it, else over the online ones: a shared cache must
 *         not count T times), else 2 MiB (the default stays on error).
 * Return: TILE_OK, or TILE_ERR_RANGE (TILEHYBRID_CACHE_BYTES is not a whole
 * number >= 1).
 */
TILEHYBRID__COLD int tile_height_cache_bytes(int64_t *bytes)
{
    const char *env = getenv("TILEHYBRID_CACHE_BYTES");
    int64_t v = 0, sharers = 1;
    *bytes = (int64_t)2 << 20;
    if (env != NULL) {
        if (tilehybrid_parse_i64(env, 1, INT64_MAX, &v) != TILEHYBRID_OK)
            return TILE_ERR_RANGE;
        *bytes = v;
        return TILE_OK;
    }
    v = tile__sysfs_cache(2, NULL);
#if defined(_SC_LEVEL2_CACHE_SIZE)
    if (v <= 0 && tile__cache_dir() == NULL)
        v = (int64_t)sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    if (v <= 0 && (v = tile__llc(&sharers)) > 0)
        v /= sharers;
    if (v > 0)
        *bytes = v;
    return TILE_OK;
}

/**
 * tile_height_tsync_env() - TILEHYBRID_TSYNC: the threads' barrier per tile
 * step the model takes instead of timing it (a plan; tilectl plan's
 * --tsync default).
 * @seconds: receives its value when it is set and valid (else unchanged).
 * @found:   receives 1 when it is set, else 0.
 * Return: TILE_OK; TILE_ERR_NULL; TILE_ERR_RANGE (set, but not a number of
 * seconds in [0, 1e6]).
 */
TILEHYBRID__COLD int tile_height_tsync_env(double *seconds, int *found)
{
    const char *env = getenv("TILEHYBRID_TSYNC");
    if (seconds == NULL || found == NULL)
        return TILE_ERR_NULL;
    *found = env != NULL;
    if (env != NULL && tilehybrid_parse_double(env, 0.0, 1e6, seconds) != TILEHYBRID_OK)
        return TILE_ERR_RANGE;
    return TILE_OK;
}

/**
 * tile_height_window_bytes() - the cache a process's Z window may fill.
 * @core_bytes: the cache of one core (tile_height_cache_bytes()).
 * @threads:    T, the process's threads (>= 1).
 * @llc_bytes:  the last-level cache (tile_height_llc_bytes()).
 * @given:      1 if @core_bytes was given (TILEHYBRID_CACHE_BYTES, tilectl
 *              plan --cache-bytes): then T times it, as given.
 * Return: T @core_bytes; with T > 1 threads (and @core_bytes not given) at
 * least a quarter of the threads' share of the last-level cache, T / (the
 * processors that share it: its shared_cpu_list in Linux's sysfs, else the
 * online processors) of @llc_bytes, over 4 (saturated at 2^63 - 1).  Why:
 * the threads end every step at a barrier, whose cost (a few microseconds
 * with the waits it brings, not the 0.2 of an idle barrier) the level-2
 * bound multiplies by Z/z steps, while the level-2 misses of a taller
 * window cost less: ADI 64x256x16384, funneled 1 x 2 on this project's
 * test machine (an Intel Xeon, 1 MiB of level 2 per core, 36 MiB of level
 * 3), 3 rounds: z = 2 (the level-2 bound) 0.19 s, z = 8 0.16-0.17,
 * z = 12-16 0.15-0.16, z = 24 0.16-0.17, z = 32 0.18-0.24; one thread is
 * flat from z = 1 to 16 and 2 processes are fastest at z = 2
 * (docs/RESULTS.md, "The tile height of threaded plans").  The quarter
 * keeps the window well inside a shared level-3 cache, which other
 * processes use too (the times rise from z = 32, windows of 13-17 MB).
 */
TILEHYBRID__COLD int64_t tile_height_window_bytes(int64_t core_bytes, int threads,
                                                  int64_t llc_bytes,
                                                  int given)
{
    int64_t w = INT64_MAX, share, cpus;
    if (core_bytes < 1 || threads < 1)
        return core_bytes;
    if (!tilehybrid_mul_ok(core_bytes, (int64_t)threads, &w))
        w = INT64_MAX;
    if (given || threads == 1 || llc_bytes < 1)
        return w;
    (void)tile__llc(&cpus);
    if (cpus < threads)
        cpus = threads;
    share = llc_bytes / cpus / 4;
    if (!tilehybrid_mul_ok(share, (int64_t)threads, &share))
        share = INT64_MAX;
    return share > w ? share : w;
}

/**
 * tile_height_cache_bound() - the largest z whose Z window fits in a cache.
 * @plane_bytes: one plane of the local block with its ghost layers (>= 1).
 * @skew:        S, the thread skew (>= 0).
 * @depz:        d_Z (>= 0).
 * @cache_bytes: the cache (>= 1).
 * Return: the largest z >= 1 with ((S + 3) z + 2 d_Z) @plane_bytes <=
 * @cache_bytes, or INT64_MAX (no bound) when not even z = 1 fits or an
 * argument is out of range.
 */
TILEHYBRID__COLD int64_t tile_height_cache_bound(int64_t plane_bytes, int64_t skew, int depz,
                                                int64_t cache_bytes)
{
    int64_t planes, z;
    if (plane_bytes < 1 || skew < 0 || depz < 0 || cache_bytes < 1 || skew > INT64_MAX / 4)
        return INT64_MAX;
    planes = cache_bytes / plane_bytes;
    if (planes < 2 * (int64_t)depz)
        return INT64_MAX;
    z = (planes - 2 * (int64_t)depz) / (skew + 3);
    return z >= 1 ? z : INT64_MAX;
}

/**
 * tile_height_zmax() - the bound on the tile height of a model (its zmax):
 * the cache bound of its windows, with the fallbacks a plan takes.
 * @m:           the model (its dims, the process grid, and skew).
 * @plane_bytes: one plane of the largest block with its ghost layers.
 * @depz:        d_Z.
 * @cache_bytes: the cache the window should fit (tile_height_window_bytes()).
 * @llc_bytes:   the last-level cache (tile_height_llc_bytes()), or 0.
 * Return: tile_height_cache_bound() in @cache_bytes; when not even z = 1
 * fits there: 1 on one process with one thread (no pipeline: the model's
 * heights all tie, and the smallest window misses least: ADI 128x128,
 * whose 5-plane window passes a 1 MiB level-2 cache, ran at 1.03 G
 * points/s at z = 1 and 0.62 at the last-level bound 32), else the bound in
 * @llc_bytes (a pipeline's fill against its steps), else 1.  At least 2
 * when @m->pairs: the walk pairs a tile's planes (tile_plane_pairs()), and
 * a pair is worth more than the window's misses (one process, -O2
 * -march=native on the Zen 4 test machine: ADI 64x256, whose window fits
 * 1 MiB at z = 1 only, ran 7% faster at z = 2; 128x128, whose window fits
 * at no z, 5%).  Never 0 or INT64_MAX: an argument out of range
 * (@plane_bytes or @cache_bytes below 1, @depz below 0, a negative skew)
 * gives 1 (or 2 with pairs), as tile_height_cache_bound() gives no bound
 * for it.
 */
TILEHYBRID__COLD int64_t tile_height_zmax(const tile_height_model *m, int64_t plane_bytes, int depz,
                                          int64_t cache_bytes, int64_t llc_bytes)
{
    int64_t const skew = m != NULL ? m->skew : 0;
    int64_t z = tile_height_cache_bound(plane_bytes, skew, depz, cache_bytes);
    int i, pipeline = m == NULL || skew > 0;
    for (i = 0; m != NULL && i < m->nest.n && i < TILE_MAX_DIMS; i++)
        pipeline |= m->dims[i] > 1;
    if (z == INT64_MAX && pipeline && llc_bytes > 0)
        z = tile_height_cache_bound(plane_bytes, skew, depz, llc_bytes);
    if (z == INT64_MAX)
        z = 1;
    return m != NULL && m->pairs && z < 2 ? 2 : z;
}

/**
 * tile_plane_pairs() - do a tile's planes go in pairs?  In the hyperplane
 * order (@order, as tile_plane_layout() chose it) of a plan that does not
 * skew (@skewed 0) with N = 2 (@n), the walk interleaves the diagonals of
 * planes z and z + 1 of a tile (struct tile__walk): a plane's diagonal
 * waits for the stores of the one before it, and the other plane's runs
 * in the meantime.  With N > 2 the pairs are slices along an X dimension,
 * and any height has them.  A plan takes the pairs into its height bound
 * only where a height of 2 fits its memory limit (plan.height.pairs).
 * Return: 1 or 0.
 */
TILEHYBRID__COLD int tile_plane_pairs(int order, int skewed, int n)
{
    tile__order_traits t = tile__order_traits_of(order);
    return !skewed && t.pairs != 0 && n == t.pairs;
}
#else
TILEHYBRID__COLD int tile__zeval(tile__zsearch *s, int64_t z);
TILEHYBRID__COLD int tile__zpruned(const tile__zsearch *s, int64_t z);
TILEHYBRID__COLD double tile__sqrt(double x);
TILEHYBRID__COLD int64_t tile__zstart(tile__zsearch *s);
TILEHYBRID__COLD int tile_height_best(const tile_height_model *m, int64_t *z, double *seconds,
                                     tilehybrid_status *st);
TILEHYBRID__COLD int tile_height_efficiency(const tile_height_model *m, double seconds,
                                            double *eff);
TILEHYBRID__COLD long tile__online_cpus(void);
TILEHYBRID__COLD int tile__read_line(const char *path, char *buf, int size);
TILEHYBRID__COLD int64_t tile__cpu_list_count(const char *list);
TILEHYBRID__COLD int64_t tile__sysfs_cache_at(const char *dir, int level, int64_t *sharers);
TILEHYBRID__COLD const char *tile__cache_dir(void);
TILEHYBRID__COLD int64_t tile__sysfs_cache(int level, int64_t *sharers);
TILEHYBRID__COLD int64_t tile__llc(int64_t *sharers);
TILEHYBRID__COLD int tile_height_llc_bytes(int64_t *bytes);
TILEHYBRID__COLD int tile_height_cache_bytes(int64_t *bytes);
TILEHYBRID__COLD int tile_height_tsync_env(double *seconds, int *found);
TILEHYBRID__COLD int64_t tile_height_window_bytes(int64_t core_bytes, int threads,
                                                  int64_t llc_bytes,
                                                  int given);
TILEHYBRID__COLD int64_t tile_height_cache_bound(int64_t plane_bytes, int64_t skew, int depz,
                                                int64_t cache_bytes);
TILEHYBRID__COLD int64_t tile_height_zmax(const tile_height_model *m, int64_t plane_bytes, int depz,
                                          int64_t cache_bytes, int64_t llc_bytes);
TILEHYBRID__COLD int tile_plane_pairs(int order, int skewed, int n);
#endif

/* ==== src/tiling/50-reductions.h ==== */
#line 1 "src/tiling/50-reductions.h"
/* ------------------------------------------------------------------------ */
/* Declared reductions                                                      */

/* The 64-bit key of v in totalOrder (unsigned comparison), and back. */
static inline uint64_t tile__order_key(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return (b >> 63) ? ~b : b | ((uint64_t)1 << 63);
}

#if TILEHYBRID__DEFINE
TILEHYBRID__COLD double tile__from_key(uint64_t k)
{
    uint64_t b = (k >> 63) ? k ^ ((uint64_t)1 << 63) : ~k;
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

TILEHYBRID__COLD const char *tile__reduce_name(int op)
{
    static const char *const name[TILE_REDUCE_COUNT_] = { "sum", "min", "max", "maxloc",
                                                          "minloc", "sum_u64" };
    return op >= 0 && op < TILE_REDUCE_COUNT_ ? name[op] : "unknown";
}

/* Forget the reductions declared on p that were declared on another plan
 * since (their plan_ no longer points to p): they belong to that plan now,
 * and p's runs must neither combine into them nor count them. */
TILEHYBRID__COLD void tile__red_prune(tile_plan *p)
{
    struct tile__io *io = p->run.io;
    int k, j = 0;
    if (io == NULL)
        return;
    for (k = 0; k < io->nred; k++) {
        if (io->red[k]->plan_ != p || io->red[k]->slot_ != io->slots[k]) {
            TILEHYBRID_FREE(io->slots[k]);
            continue;
        }
        io->red[j] = io->red[k];
        io->slots[j++] = io->slots[k];
    }
    io->nred = j;
}

/**
 * tile_reduction_init() - declare a reduction on a plan: its result is
 * combined at the end of every run that follows.
 * @plan: the plan (not running).
 * @r:    the reduction; the plan keeps its address and every later run
 *        writes its result there, so it must stay alive at that address
 *        until tile_reduction_drop() or tile_plan_destroy(): a reduction on
 *        a function's stack must be dropped before the function returns
 *        (undefined behaviour otherwise: the next run writes into a dead
 *        frame).  Declaring it again changes its operation; declaring it on
 *        another plan moves it there (the first plan forgets it: its runs
 *        no longer write its result).
 * @op:   enum tile_reduce_op.
 * @st:   NULL, or the argument at fault.
 *
 * Local; but every rank must declare the same operations in the same
 * order: the end of the run checks it (TILE_ERR_MISMATCH on every rank
 * otherwise).  Each of the plan's threads gets its own slot (the plan
 * frees them).  In the body, feed it with tile_reduce(&it, &r, v) (or
 * tile_reduce_u64()) in any model: each thread adds to its own slot; at
 * the end of the run the slots are combined in a fixed way, then across
 * ranks.  Up to TILE_MAX_REDUCTIONS per plan.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_REDUCE (an unknown operation,
 * too many reductions), TILE_ERR_NOMEM, TILE_ERR_BODY (the plan is
 * running: a call from its body or a hook changes nothing), or the code of
 * the plan's failed creation.
 */
TILEHYBRID__COLD int tile_reduction_init(tile_plan *plan, tile_reduction *r, int op,
                                         tilehybrid_status *st)
{
    struct tile__io *io;
    int i, k;
    if (plan == NULL || r == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, plan == NULL ? "plan" : "r", -1);
    if ((k = tile__busy_refused(plan)) != TILE_OK)
        return tilehybrid_status_set(st, k, "plan", -1);
    if (op < 0 || op >= TILE_REDUCE_COUNT_)
        return tilehybrid_status_set(st, TILE_ERR_REDUCE, "op", op);
    io = tile__io_get(plan);
    if (io == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
    tile__red_prune(plan);
    for (k = 0; k < io->nred && io->red[k] != r; k++)
        ;
    if (k == TILE_MAX_REDUCTIONS)
        return tilehybrid_status_set(st, TILE_ERR_REDUCE, "r", k);
    if (k == io->nred) {
        io->slots[k] = (tile__red_slot *)TILEHYBRID_MALLOC(sizeof(tile__red_slot) *
                                                           (size_t)plan->cfg.threads);
        if (io->slots[k] == NULL)
            return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
        memset(io->slots[k], 0, sizeof(tile__red_slot) * (size_t)plan->cfg.threads);
        io->red[k] = r;
        io->nred++;
    }
    memset(r, 0, sizeof *r);
    r->op = op;
    for (i = 0; i <= TILE_MAX_DIMS; i++)
        r->coord[i] = -1;
    r->plan_ = plan;
    r->u64_plan_ = op == TILE_REDUCE_SUM_U64 ? plan : NULL;
    r->slot_ = io->slots[k];
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}

/**
 * tile_reduction_drop() - take a reduction off a plan (local; every rank
 * must drop the same ones before the next run).  @plan: the plan (not
 * running); @r: the reduction.  Return: TILE_OK, TILE_ERR_NULL,
 * TILE_ERR_REDUCE (not declared on this plan, or declared on another plan
 * since: it stays there), TILE_ERR_BODY (the plan is running: a call from
 * its body or a hook changes nothing), or the code of the plan's failed
 * creation.
 */
TILEHYBRID__COLD int tile_reduction_drop(tile_plan *plan, tile_reduction *r)
{
    struct tile__io *io = plan != NULL ? plan->run.io : NULL;
    int k;
    if (plan == NULL || r == NULL)
        return TILE_ERR_NULL;
    if ((k = tile__busy_refused(plan)) != TILE_OK)
        return k;
    tile__red_prune(plan);
    for (k = 0; io != NULL && k < io->nred && io->red[k] != r; k++)
        ;
    if (io == NULL || k == io->nred)
        return TILE_ERR_REDUCE;
    TILEHYBRID_FREE(io->slots[k]);
    for (; k + 1 < io->nred; k++) {
        io->red[k] = io->red[k + 1];
        io->slots[k] = io->slots[k + 1];
    }
    io->nred--;
    r->plan_ = NULL;
    r->u64_plan_ = NULL;
    r->slot_ = NULL;
    return TILE_OK;
}

/* A reduction fed on a plan it is not declared on, or with the wrong
 * function: the run's error (the thread's first). */
TILEHYBRID__COLD void tile__reduce_misuse(const tile__walk *w, const tile_reduction *r,
                                          const char *fn)
{
    if (r->plan_ != w->plan)
        tile_thread_fail(w->plan, w->thread, TILE_ERR_REDUCE, "%s: the reduction is not "
                         "declared on this plan (tile_reduction_init)", fn);
    else
        tile_thread_fail(w->plan, w->thread, TILE_ERR_REDUCE, "%s on a '%s' reduction: use %s",
                         fn, tile__reduce_name(r->op), r->op == TILE_REDUCE_SUM_U64
                         ? "tile_reduce_u64" : "tile_reduce");
}
#else
TILEHYBRID__COLD double tile__from_key(uint64_t k);
TILEHYBRID__COLD const char *tile__reduce_name(int op);
TILEHYBRID__COLD void tile__red_prune(tile_plan *p);
TILEHYBRID__COLD int tile_reduction_init(tile_plan *plan, tile_reduction *r, int op,
                                         tilehybrid_status *st);
TILEHYBRID__COLD int tile_reduction_drop(tile_plan *plan, tile_reduction *r);
TILEHYBRID__COLD void tile__reduce_misuse(const tile__walk *w, const tile_reduction *r,
                                          const char *fn);
#endif

/* Does point j of the walk's run come before user coordinates `at` in
 * row-major order (X_1 first, Z last)? */
static inline int tile__point_before(const tile__walk *w, int b, int64_t j, const int64_t *at)
{
    int i;
    for (i = 0; i <= w->n; i++) {
        int64_t c = tile__walk_coord(w, b, j, i);
        if (c != at[i])
            return c < at[i];
    }
    return 0;
}

/* A candidate for min/max: better than the slot's? */
static inline int tile__red_better(int op, uint64_t key, uint64_t best)
{
    return op == TILE_REDUCE_MIN || op == TILE_REDUCE_MINLOC ? key < best : key > best;
}

/* TILE__OUT_OF_LINE: a function the compiler does not inline.  The
 * reductions' updates are such calls: in the SIMD loop of the hyperplane
 * order the points of a diagonal are lanes that run at once, and a call
 * the compiler cannot see into runs whole, lane after lane, so the lanes
 * never share an update of the slot (the call also keeps that loop
 * scalar).  A slot's result does not depend on the order of its points. */
#if defined(__GNUC__)
#define TILE__OUT_OF_LINE static __attribute__((noinline, unused))
#elif defined(_MSC_VER)
#define TILE__OUT_OF_LINE static __declspec(noinline)
#else
#define TILE__OUT_OF_LINE static inline
#endif

/* tile_reduce()'s update of the walk's thread's slot, at point j of its
 * run (b 1: of B's run with it; the walk, not the cursor: the cursor's
 * view stays in registers). */
TILE__OUT_OF_LINE void tile__reduce_slot(const tile__walk *w, int b, int64_t j,
                                         tile_reduction *r, double v)
{
    tile__red_slot *s;
    uint64_t key;
    int i, loc;
    if (r->plan_ != w->plan || r->op == TILE_REDUCE_SUM_U64) {
        tile__reduce_misuse(w, r, "tile_reduce");
        return;
    }
    s = &r->slot_[w->thread];
    if (r->op == TILE_REDUCE_SUM) {
        s->count++;
        tile_xsum_add(&s->sum, v);
        return;
    }
    key = tile__order_key(v);
    loc = r->op == TILE_REDUCE_MAXLOC || r->op == TILE_REDUCE_MINLOC;
    if (s->count++ == 0 || tile__red_better(r->op, key, s->key) ||
        (loc && key == s->key && tile__point_before(w, b, j, s->at))) {
        s->key = key;
        for (i = 0; loc && i <= w->n; i++)
            s->at[i] = tile__walk_coord(w, b, j, i);
    }
}

/* tile_reduce_u64()'s update of thread t's slot. */
TILE__OUT_OF_LINE void tile__reduce_slot_u64(const tile__walk *w, tile_reduction *r,
                                             uint64_t v)
{
    if (r->plan_ != w->plan || r->op != TILE_REDUCE_SUM_U64) {
        tile__reduce_misuse(w, r, "tile_reduce_u64");
        return;
    }
    r->slot_[w->thread].count++;
    r->slot_[w->thread].u64 += v;
}

/**
 * tile_reduce() - in the body: feed v, at the point being computed, to a
 * reduction of operation SUM, MIN, MAX, MAXLOC or MINLOC.
 * @it: the cursor (&it); @r: a reduction declared on the plan; @v: any
 *      double (a sum with a NaN is NaN).
 * Any number of times per point (a location is the point's).  Thread-safe:
 * each thread writes its own slot.  Safe in every in-tile order: the
 * result does not depend on the order of the points (sums are exact, ties
 * of MAXLOC and MINLOC go to the first point in row-major order), and in
 * the SIMD loop of the hyperplane order each call updates the slot whole
 * (an out-of-line call: a body that feeds such a reduction runs that loop
 * scalar).  MIN, MAX, MINLOC and MAXLOC test inline first: a value that
 * cannot beat the thread's best so far (an equal one of MIN or MAX
 * neither) only counts, about 10 instructions with gcc -O2, no call.  This,
 * not a variable of your own that the body adds to, is how a body
 * accumulates.  Used on another plan or with SUM_U64, it does nothing and
 * the run fails with TILE_ERR_REDUCE.
 */
TILE__ALWAYS_INLINE void tile_reduce(const tile_cursor *it, tile_reduction *r, double v)
{
    int op = r->op;
    if (r->plan_ == it->v->plan && op >= TILE_REDUCE_MIN && op <= TILE_REDUCE_MINLOC) {
        tile__red_slot *s = &r->slot_[it->v->thread];
        uint64_t key = tile__order_key(v);
        int low = op == TILE_REDUCE_MIN || op == TILE_REDUCE_MINLOC;
        int loc = op == TILE_REDUCE_MAXLOC || op == TILE_REDUCE_MINLOC;
        if (s->count > 0 && ((low ? key > s->key : key < s->key) || (!loc && key == s->key))) {
            s->count++;         /* cannot win: no call */
            return;
        }
    }
    tile__reduce_slot(it->v->w, (it->simd & 2) != 0, it->i, r, v);
}

/**
 * tile_reduce_u64() - in the body: add v to a SUM_U64 reduction (modulo
 * 2^64: a checksum of bit patterns, the same in any order; safe in every
 * in-tile order, as tile_reduce()).
 * @it: the cursor (&it); @r: the reduction; @v: the value.
 * Inline everywhere, no call: outside the SIMD loop of the hyperplane
 * order a test and two additions to the thread's slot (about 7
 * instructions with gcc -O2); in that loop two additions to the slot's
 * lane of the point (TILE__LANES lanes, added to the slot when the
 * thread's part of the tile ends), so the points that run at once never
 * share an accumulator and the loop stays SIMD.  A body that feeds only
 * SUM_U64 reductions therefore vectorises; feed it every point with a
 * value of 0 where it must not count (tile_coord(&it, N) == last ? bits :
 * 0), not under an if, which is control flow the vectoriser may refuse.
 * On a reduction that is not a SUM_U64 of this plan: nothing, and the run
 * fails with TILE_ERR_REDUCE.
 */
TILE__ALWAYS_INLINE void tile_reduce_u64(const tile_cursor *it, tile_reduction *r, uint64_t v)
{
    int ok = r->u64_plan_ == it->v->plan;
    if (!(it->simd & 1)) {
        if (ok) {               /* outside the SIMD loop: the slot */
            tile__red_slot *s = &r->slot_[it->v->thread];
            s->count++;
            s->u64 += v;
        } else {
            tile__reduce_slot_u64(it->v->w, r, v);  /* the misuse's message */
        }
    } else {                    /* the SIMD loop: the point's lane (a misuse: the trash) */
        /* chosen on integers, both computed: a select, not a branch, which
         * the vectoriser would take for control flow */
        uintptr_t mine = (uintptr_t)r->slot_ + (uintptr_t)it->v->thread * sizeof(tile__red_slot)
                         + offsetof(tile__red_slot, lanes);
        uintptr_t trash = (uintptr_t)&it->v->plan->run.slot[it->v->thread].trash;
        tile__lanes *ln = (tile__lanes *)(ok ? mine : trash);
        ln->u64[it->lane] += v;
        ln->cnt[it->lane]++;
    }
}

#if TILEHYBRID__DEFINE
/* Are coordinates a before b in row-major order? */
TILEHYBRID__COLD int tile__at_before(const int64_t *a, const int64_t *b, int nd)
{
    int i;
    for (i = 0; i < nd; i++)
        if (a[i] != b[i])
            return a[i] < b[i];
    return 0;
}

/* Merge slot s into `into` for operation op: sums add, candidates by the
 * total order, ties (MINLOC, MAXLOC) to the first point.  The result does
 * not depend on the order of the merges. */
TILEHYBRID__COLD void tile__red_merge(int op, int nd, tile__red_slot *into, const tile__red_slot *s)
{
    int loc = op == TILE_REDUCE_MAXLOC || op == TILE_REDUCE_MINLOC;
    if (s->count == 0)
        return;
    if (op == TILE_REDUCE_SUM)
        tile_xsum_merge(&into->sum, &s->sum);
    into->u64 += s->u64;
    if (into->count == 0 || tile__red_better(op, s->key, into->key) ||
        (loc && s->key == into->key && tile__at_before(s->at, into->at, nd))) {
        into->key = s->key;
        memcpy(into->at, s->at, sizeof into->at);
    }
    into->count += s->count;
}
#else
TILEHYBRID__COLD int tile__at_before(const int64_t *a, const int64_t *b, int nd);
TILEHYBRID__COLD void tile__red_merge(int op, int nd, tile__red_slot *into,
                                      const tile__red_slot *s);
#endif

/* Values per reduction in the buffers of the combination: summed
 * (count, u64, the exact sum) and gathered (has one, key, coordinates). */
#define TILE__RED_SUMS (5 + TILE_XSUM_LIMBS)
#define TILE__RED_CANDS (2 + TILE_MAX_DIMS + 1)

#if TILEHYBRID__DEFINE
/* This rank's slot of reduction k: its threads' slots merged. */
TILEHYBRID__COLD void tile__red_local(const tile_plan *p, int k, tile__red_slot *m)
{
    const struct tile__io *io = p->run.io;
    int t;
    memset(m, 0, sizeof *m);
    for (t = 0; t < p->cfg.threads; t++)
        tile__red_merge(io->red[k]->op, p->cfg.n + 1, m, &io->slots[k][t]);
    tile__xsum_carry(&m->sum);
}

/* Pack rank-local slots into the buffers of the combination. */
TILEHYBRID__COLD void tile__red_pack(const tile_plan *p, uint64_t *sums, uint64_t *cands)
{
    int k, i;
    for (k = 0; k < p->run.io->nred; k++) {
        tile__red_slot m;
        uint64_t *s = sums + k * TILE__RED_SUMS, *c = cands + k * TILE__RED_CANDS;
        tile__red_local(p, k, &m);
        s[0] = (uint64_t)m.count;
        s[1] = m.u64;
        s[2] = (uint64_t)m.sum.nan;
        s[3] = (uint64_t)m.sum.pinf;
        s[4] = (uint64_t)m.sum.ninf;
        for (i = 0; i < TILE_XSUM_LIMBS; i++)      /* two's complement sums are exact */
            s[5 + i] = (uint64_t)m.sum.limb[i];
        c[0] = m.count > 0;
        c[1] = m.key;
        for (i = 0; i <= TILE_MAX_DIMS; i++)
            c[2 + i] = (uint64_t)m.at[i];
    }
}

/* Reduction k's result from the summed values and every rank's candidate. */
TILEHYBRID__COLD void tile__red_result(const tile_plan *p, int k, const uint64_t *s,
                                       const uint64_t *cands)
{
    tile_reduction *r = p->run.io->red[k];
    tile__red_slot best, c;
    int i, q, nd = p->cfg.n + 1, stride = p->run.io->nred * TILE__RED_CANDS;
    memset(&best, 0, sizeof best);
    for (q = 0; q < p->size; q++) {          /* every rank's best, in a total order */
        const uint64_t *x = cands + q * stride + k * TILE__RED_CANDS;
        memset(&c, 0, sizeof c);
        c.count = (int64_t)x[0];
        c.key = x[1];
        for (i = 0; i < nd; i++)
            c.at[i] = (int64_t)x[2 + i];
        tile__red_merge(r->op, nd, &best, &c);
    }
    r->count = (int64_t)s[0];
    r->u64 = s[1];
    tile_xsum_init(&best.sum);
    best.sum.nan = (int64_t)s[2];
    best.sum.pinf = (int64_t)s[3];
    best.sum.ninf = (int64_t)s[4];
    for (i = 0; i < TILE_XSUM_LIMBS; i++)
        best.sum.limb[i] = (int64_t)s[5 + i];
    r->value = r->op == TILE_REDUCE_SUM ? tile_xsum_round(&best.sum)
               : r->count > 0 && r->op != TILE_REDUCE_SUM_U64 ? tile__from_key(best.key) : 0.0;
    for (i = 0; i <= TILE_MAX_DIMS; i++)
        r->coord[i] = r->count > 0 && i < nd && (r->op == TILE_REDUCE_MAXLOC ||
                                                 r->op == TILE_REDUCE_MINLOC) ? best.at[i] : -1;
}

/* Combine every reduction over the ranks (collective; the ranks agreed on
 * the operations): one MPI_Allreduce of the sums, one MPI_Allgather of
 * the candidates.  buf: 2 TILE__RED_SUMS + (P + 1) TILE__RED_CANDS values
 * per reduction.  Returns an MPI code. */
TILEHYBRID__COLD int tile__red_combine(tile_plan *p, uint64_t *buf, const char **call)
{
    int nred = p->run.io->nred, k, rc;
    uint64_t *sums = buf, *total = buf + nred * TILE__RED_SUMS;
    uint64_t *cands = total + nred * TILE__RED_SUMS, *all = cands + nred * TILE__RED_CANDS;
    tile__red_pack(p, sums, cands);
    *call = "MPI_Allreduce";
    rc = MPI_Allreduce(sums, total, nred * TILE__RED_SUMS, MPI_UINT64_T, MPI_SUM, p->comm);
    if (rc == MPI_SUCCESS) {
        *call = "MPI_Allgather";
        rc = MPI_Allgather(cands, nred * TILE__RED_CANDS, MPI_UINT64_T, all,
                           nred * TILE__RED_CANDS, MPI_UINT64_T, p->comm);
    }
    for (k = 0; rc == MPI_SUCCESS && k < nred; k++)
        tile__red_result(p, k, total + k * TILE__RED_SUMS, all);
    return rc;
}
#else
TILEHYBRID__COLD void tile__red_local(const tile_plan *p, int k, tile__red_slot *m);
TILEHYBRID__COLD void tile__red_pack(const tile_plan *p, uint64_t *sums, uint64_t *cands);
TILEHYBRID__COLD void tile__red_result(const tile_plan *p, int k, const uint64_t *s,
                                       const uint64_t *cands);
TILEHYBRID__COLD int tile__red_combine(tile_plan *p, uint64_t *buf, const char **call);
#endif

/* ==== src/tiling/51-output.h ==== */
#line 1 "src/tiling/51-output.h"
/* ------------------------------------------------------------------------ */
/* The output hook                                                          */

#if TILEHYBRID__DEFINE
/**
 * tile_output_set() - have fn(ctx, plan, piece) receive each finished tile
 * of this rank's block during the following runs.
 * @plan:   the plan (not running).
 * @fn:     the hook, or NULL to stop.
 * @ctx:    passed to fn.
 * @layout: enum tile_layout of piece->data: TILE_LAYOUT_Z_LAST (the
 *          global array's layout: each row of h points along Z is
 *          contiguous in the global array's file too, one MPI_File_write_at
 *          per row, as the example in docs/REFERENCE.md) or TILE_LAYOUT_Z_FIRST (plane
 *          after plane).
 * @st:     NULL, or the argument at fault.
 *
 * Local: ranks may set different hooks or none.  The hook is called on
 * the thread that does the messages (the one that called MPI_Init, in
 * every model), for tiles 0, 1, ... in order, each once, shortly after
 * every thread has finished it (at the end of the next step; the last
 * tiles at the end of the run), while the other threads go on computing.
 * The data is a copy in a buffer of one tile, so memory does not grow
 * with Z.  It may call MPI, but no collective over ranks that run the
 * pipeline: ranks reach tile k at different times, and a rank waiting in
 * a collective for the last rank would keep its next faces from it (use
 * independent calls such as MPI_File_write_at, or copy the tile and
 * finish after the run).  Its time counts as idle in plan->run.stats.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_RANGE (layout),
 * TILE_ERR_OVERFLOW, TILE_ERR_NOMEM, TILE_ERR_SKEWED (a plan that skews its
 * stencil: its tiles are not boxes of the user's space), TILE_ERR_BODY (the
 * plan is running: a call from its body or a hook), or the code of the
 * plan's failed creation.
 */
TILEHYBRID__COLD int tile_output_set(tile_plan *plan, tile_output_fn fn, void *ctx, int layout,
                                     tilehybrid_status *st)
{
    struct tile__io *io;
    int64_t bytes = 0, h;
    tile_box b;
    int refused = tile__busy_refused(plan);
    if (refused != TILE_OK)
        return tilehybrid_status_set(st, refused, "plan", -1);
    if (layout != TILE_LAYOUT_Z_LAST && layout != TILE_LAYOUT_Z_FIRST)
        return tilehybrid_status_set(st, TILE_ERR_RANGE, "layout", layout);
    io = tile__io_get(plan);
    if (io == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
    TILEHYBRID_FREE(io->out_buf);
    io->out_buf = NULL;
    io->out_fn = NULL;
    if (fn == NULL)
        return tilehybrid_status_set(st, TILE_OK, "", -1);
    if (plan->deps.skewed)
        return tilehybrid_status_set(st, TILE_ERR_SKEWED, "plan", -1);
    tile__block_box(plan, plan->pcoords, &b);
    h = plan->cfg.tile_height < plan->cfg.zlen ? plan->cfg.tile_height : plan->cfg.zlen;
    b.len[plan->cfg.n] = h;
    if (!tilehybrid_mul_ok(tile_box_points(&b), (int64_t)plan->cfg.elem_size, &bytes) ||
        (uint64_t)bytes > (uint64_t)SIZE_MAX)
        return tilehybrid_status_set(st, TILE_ERR_OVERFLOW, "tile_height", -1);
    io->out_buf = (unsigned char *)TILEHYBRID_MALLOC((size_t)bytes);
    if (io->out_buf == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
    io->out_fn = fn;
    io->out_ctx = ctx;
    io->out_layout = layout;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}
#else
TILEHYBRID__COLD int tile_output_set(tile_plan *plan, tile_output_fn fn, void *ctx, int layout,
                                     tilehybrid_status *st);
#endif

/**
 * tile_output_to() - have each finished tile of this rank's block copied
 * straight into a user array during the following runs: one copy from the
 * plan's window, no hook and no buffer in between.
 * @plan: the plan (not running).
 * @box:  the array's box (user coordinates, Z last), which must hold this
 *        rank's block over all of Z (tile_input_box(plan, TILE_ALL_TILES,
 *        NULL) or wider: the input box of a chained plan with the same
 *        blocks, whose halo points are left as they are); NULL to stop.
 * @dst:  the array, tile_box_points(box) elements of cfg.elem_size bytes.
 * @st:   NULL, or the argument at fault.
 *
 * Local.  Tile k is written at the time the output hook would get it
 * (tile_output_set(); a hook set too is called after).  This is the
 * one-copy hand-over of chained plans: when the next plan has the same
 * blocks (the same directions and grid), its body reads dst itself
 * (tile_input_index(&it, box)); when its blocks differ (a mirrored
 * direction, another grid), tile_exchange() from dst moves what lies on
 * other ranks.
 * Return: TILE_OK, TILE_ERR_NULL (dst with a box), TILE_ERR_RANGE (a box
 * that does not hold the block), TILE_ERR_NOMEM, TILE_ERR_SKEWED,
 * TILE_ERR_BODY (the plan is running: a call from its body or a hook), or
 * the code of the plan's failed creation.
 */
static inline int tile_output_to(tile_plan *plan, const tile_box *box, void *dst,
                                 tilehybrid_status *st)
{
    struct tile__io *io;
    tile_box b, c;
    int refused = tile__busy_refused(plan);
    if (refused != TILE_OK)
        return tilehybrid_status_set(st, refused, "plan", -1);
    if (box != NULL && dst == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, "dst", -1);
    if (box != NULL && plan->deps.skewed)
        return tilehybrid_status_set(st, TILE_ERR_SKEWED, "plan", -1);
    if (box != NULL) {
        tile__block_box(plan, plan->pcoords, &b);
        if (box->ndims != b.ndims || !tile_box_intersect(box, &b, &c) ||
            tile_box_points(&c) != tile_box_points(&b))
            return tilehybrid_status_set(st, TILE_ERR_RANGE, "box", -1);
    }
    io = tile__io_get(plan);
    if (io == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
    io->out_dst = box != NULL ? (unsigned char *)dst : NULL;
    if (box != NULL)
        io->out_box = *box;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}

/* Hand tile k to the output hook (the thread that does the messages). */
static inline void tile__output(tile_plan *p, int64_t k)
{
    struct tile__io *io = p->run.io;
    tile_piece pc;
    int64_t z0 = tile__tile_z0(p, k), z1 = tile__tile_z1(p, k);
    int rc;
    if (io->out_dst != NULL)
        tile__pack_block(p, z0, z1, &io->out_box, TILE_LAYOUT_Z_LAST, io->out_dst);
    if (io->out_fn == NULL || io->out_failed || p->run.stats[0].error != TILE_OK)
        return;
    tile__block_box(p, p->pcoords, &pc.box);
    tile__zbox(p, z0, z1, &pc.box);
    tile__pack_block(p, z0, z1, &pc.box, io->out_layout, io->out_buf);
    pc.tile = k;
    pc.layout = io->out_layout;
    pc.elem_size = p->cfg.elem_size;
    pc.bytes = (size_t)tile_box_points(&pc.box) * pc.elem_size;
    pc.data = io->out_buf;
    rc = io->out_fn(io->out_ctx, p, &pc);
    if (rc != 0) {
        io->out_failed = 1;
        tile_thread_fail(p, 0, TILE_ERR_OUTPUT, "the output hook returned %d for tile %lld "
                         "(z = %lld..%lld); it was not called again", rc, (long long)k,
                         (long long)pc.box.lo[p->cfg.n],
                         (long long)(pc.box.lo[p->cfg.n] + pc.box.len[p->cfg.n] - 1));
    }
}

/* ==== src/tiling/52-input.h ==== */
#line 1 "src/tiling/52-input.h"
/* ------------------------------------------------------------------------ */
/* The input hook: input per tile, memory flat in Z                         */

/**
 * tile_input_index() - in the body: the index of the point being computed
 * in an array over box b (row-major, Z last).
 * @it: the cursor (&it); @b: a box from tile_input_box() that holds every
 *      point of the block the body reads (not checked: an index outside
 *      the array is the caller's bug).
 * O(N) integer arithmetic.  A neighbour at offset o along dimension i is
 * o * tile_box_stride(b, i) elements away (compute the strides before the
 * run).
 */
static inline int64_t tile_input_index(const tile_cursor *it, const tile_box *b)
{
    int64_t idx = 0;
    int i;
    for (i = 0; i <= it->v->n; i++)
        idx = idx * b->len[i] + (tile_coord(it, i) - b->lo[i]);
    return idx;
}

#if TILEHYBRID__DEFINE
/* Free the input hook's slots and stop it. */
TILEHYBRID__COLD void tile__input_free(struct tile__io *io)
{
    TILEHYBRID_FREE(io->in_buf);
    TILEHYBRID_FREE(io->in_box);
    io->in_buf = NULL;
    io->in_box = NULL;
    io->in_fn = NULL;
}

/* The bytes of one slot: the largest box of a tile with the reach (the
 * block widened by it, h + below + above planes, clipped); 0 on overflow. */
TILEHYBRID__COLD size_t tile__input_slot(const tile_plan *p, const tile_reach *reach, size_t esz)
{
    tile_box b;
    int n = p->cfg.n;
    int64_t h = p->cfg.tile_height < p->cfg.zlen ? p->cfg.tile_height : p->cfg.zlen, bytes = 0;
    if (tile_input_box(p, TILE_ALL_TILES, reach, &b, NULL) != TILE_OK)
        return 0;   /* (the caller checked the plan and the reach) */
    if (reach != NULL && h + reach->below[n] + reach->above[n] < b.len[n])
        b.len[n] = h + reach->below[n] + reach->above[n];
    else if (reach == NULL)
        b.len[n] = h;
    if (!tilehybrid_mul_ok(tile_box_points(&b), (int64_t)esz, &bytes) ||
        (uint64_t)bytes > (uint64_t)SIZE_MAX)
        return 0;
    return (size_t)bytes;
}

/**
 * tile_input_set() - have fn(ctx, plan, box, data) fill each tile's input
 * just before the tile is computed, so that no rank holds more than the
 * tiles in flight: memory independent of Z.
 * @plan:  the plan (not running).
 * @fn:    the hook (tile_input_fn), or NULL to stop.
 * @ctx:   passed to fn.
 * @esz:   bytes per element of the input array, 1..2^30 (any type: it need
 *         not be the plan's element).
 * @reach: how far around each point the body reads it (NULL: at the point
 *         only; tile_reach_stencil() gives the stencil's).
 * @st:    NULL, or the argument at fault.
 *
 * Local: ranks may set different hooks or none.  During the following
 * runs, fn fills tile k's input, an array over tile_input_box(plan, k,
 * reach) (this rank's block and the tile's planes, widened by the reach
 * and clipped to the space; row-major, Z last), on the thread that does
 * the messages, at the end of the step before the tile's first thread
 * starts it (tile 0: when the run starts), for tiles 0, 1, ... in order,
 * each once per run.  In the body, tile_input(&it) points to the point's
 * element and tile_input_stride(&it, i) is the distance to its neighbour
 * along i (in elements).  The plan keeps S + 2 such arrays (S: the thread
 * skew; the tiles in flight), reused round robin.  The hook may call MPI,
 * but no collective over the plan's ranks (see tile_output_set()).
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_ELEM (esz), TILE_ERR_RANGE (a
 * reach outside 0..2^30), TILE_ERR_OVERFLOW, TILE_ERR_NOMEM,
 * TILE_ERR_SKEWED (a plan that skews its stencil), TILE_ERR_BODY (the plan
 * is running: a call from its body or a hook), or the code of the plan's
 * failed creation.  A refusal before the allocation (all but
 * TILE_ERR_OVERFLOW and TILE_ERR_NOMEM) leaves the hook set before in
 * place; after those two no hook is set.
 */
TILEHYBRID__COLD int tile_input_set(tile_plan *plan, tile_input_fn fn, void *ctx, size_t esz,
                                    const tile_reach *reach, tilehybrid_status *st)
{
    struct tile__io *io;
    tile_box b;
    size_t slot;
    int64_t bytes;
    int rc = tile__busy_refused(plan), w;
    if (rc != TILE_OK)
        return tilehybrid_status_set(st, rc, "plan", -1);
    if (fn != NULL && (esz < 1 || esz > ((size_t)1 << 30)))
        return tilehybrid_status_set(st, TILE_ERR_ELEM, "esz", (int64_t)esz);
    if (fn != NULL && (rc = tile_input_box(plan, 0, reach, &b, st)) != TILE_OK)
        return rc;
    io = tile__io_get(plan);
    if (io == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
    tile__input_free(io);
    if (fn == NULL)
        return tilehybrid_status_set(st, TILE_OK, "", -1);
    w = (int)plan->threads.skew + 2;
    slot = tile__input_slot(plan, reach, esz);
    if (slot == 0 || slot > (size_t)INT64_MAX || !tilehybrid_mul_ok((int64_t)slot, w, &bytes) ||
        (uint64_t)bytes > (uint64_t)SIZE_MAX)
        return tilehybrid_status_set(st, TILE_ERR_OVERFLOW, "esz", (int64_t)esz);
    io->in_buf = (unsigned char *)TILEHYBRID_MALLOC((size_t)bytes);
    io->in_box = (tile_box *)TILEHYBRID_MALLOC(sizeof(tile_box) * (size_t)w);
    if (io->in_buf == NULL || io->in_box == NULL) {
        tile__input_free(io);
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
    }
    memset(io->in_box, 0, sizeof(tile_box) * (size_t)w);
    memset(&io->in_reach, 0, sizeof io->in_reach);
    if (reach != NULL)
        io->in_reach = *reach;
    io->in_fn = fn;
    io->in_ctx = ctx;
    io->in_esz = esz;
    io->in_w = w;
    io->in_slot_bytes = slot;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}
#else
TILEHYBRID__COLD void tile__input_free(struct tile__io *io);
TILEHYBRID__COLD size_t tile__input_slot(const tile_plan *p, const tile_reach *reach, size_t esz);
TILEHYBRID__COLD int tile_input_set(tile_plan *plan, tile_input_fn fn, void *ctx, size_t esz,
                                    const tile_reach *reach, tilehybrid_status *st);
#endif

/* Fill tile k's slot (the thread that does the messages; no thread reads
 * the slot: its last tile, k - w, was finished steps ago). */
static inline void tile__input(tile_plan *p, int64_t k)
{
    struct tile__io *io = p->run.io;
    int slot = (int)(k % io->in_w), rc;
    tile_box *b = &io->in_box[slot];
    tile_input_box(p, k, &io->in_reach, b, NULL);
    if (io->in_failed || p->run.stats[0].error != TILE_OK)
        return;
    rc = io->in_fn(io->in_ctx, p, b, io->in_buf + (size_t)slot * io->in_slot_bytes);
    if (rc != 0) {
        io->in_failed = 1;
        tile_thread_fail(p, 0, TILE_ERR_OUTPUT, "the input hook returned %d for tile %lld "
                         "(z = %lld..%lld); it was not called again", rc, (long long)k,
                         (long long)b->lo[p->cfg.n],
                         (long long)(b->lo[p->cfg.n] + b->len[p->cfg.n] - 1));
    }
}

/* At the end of step s (tile_schedule; s = -1 before the first): fill the
 * tiles whose first thread starts by step s + 1. */
static inline void tile__io_input(tile_plan *p, int64_t s)
{
    struct tile__io *io = p->run.io;
    if (io == NULL || io->in_fn == NULL)
        return;
    while (io->in_next < p->run.announced && io->in_next < p->ntiles &&
           tile__sigma(p, io->in_next) <= s + 1)
        tile__input(p, io->in_next++);
}

/* The slot of the cursor's tile. */
static inline int tile__input_slot_of(const tile_cursor *it)
{
    const tile__walk *w = it->v->w;
    int64_t z = w->x[w->n] + it->i * w->dx[w->n];
    return (int)(z / w->plan->cfg.tile_height % w->plan->run.io->in_w);
}

/**
 * tile_input() - in the body: the point's element of its tile's input
 * (tile_input_set()); NULL when no input hook is set.
 * @it: the cursor (&it).
 * A neighbour at offset o along dimension i (within the reach) is
 * o * tile_input_stride(&it, i) elements away.  O(N) integer operations.
 */
static inline void *tile_input(const tile_cursor *it)
{
    const struct tile__io *io = it->v->plan->run.io;
    int slot;
    if (io == NULL || io->in_fn == NULL)
        return NULL;
    slot = tile__input_slot_of(it);
    return io->in_buf + (size_t)slot * io->in_slot_bytes +
           (size_t)tile_input_index(it, &io->in_box[slot]) * io->in_esz;
}

/**
 * tile_input_stride() - in the body: elements between neighbours along
 * dimension i (0..N, Z last) of the point's tile input; 0 when no input
 * hook is set.  @it: the cursor (&it); @i: the dimension.
 */
static inline int64_t tile_input_stride(const tile_cursor *it, int i)
{
    const struct tile__io *io = it->v->plan->run.io;
    if (io == NULL || io->in_fn == NULL)
        return 0;
    return tile_box_stride(&io->in_box[tile__input_slot_of(it)], i);
}

/* ==== src/tiling/53-io.h ==== */
#line 1 "src/tiling/53-io.h"
/* ------------------------------------------------------------------------ */
/* The run's hooks (called by the engine; the thread that does the messages) */

#if TILEHYBRID__DEFINE
/* At the start of a run: nothing stored any more, no tile handed out. */
TILEHYBRID__COLD void tile__io_start(tile_plan *p)
{
    struct tile__io *io = p->run.io;
    int k;
    p->run.completed = 0;
    if (io == NULL)
        return;
    io->out_next = 0;
    io->out_failed = 0;
    io->in_next = 0;
    io->in_failed = 0;
    tile__red_prune(p);
    for (k = 0; k < io->nred; k++)
        memset(io->slots[k], 0, sizeof(tile__red_slot) * (size_t)p->cfg.threads);
}
#else
TILEHYBRID__COLD void tile__io_start(tile_plan *p);
#endif

/* At the end of step s (the schedule's call; INT64_MAX: the run's end):
 * hand out every tile every thread finished by step s - 1, that is tile
 * k with sigma(k) + S + 1 <= s.  The threads may compute step s meanwhile,
 * on tiles at most S + 1 ahead, in other slots of the window (it holds
 * S + 2 tiles and more), and the ghost layers they receive are not part of
 * the block: the tile's points do not change while it is packed. */
static inline void tile__io_step(tile_plan *p, int64_t s)
{
    struct tile__io *io = p->run.io;
    if (io == NULL || (io->out_fn == NULL && io->out_dst == NULL))
        return;
    while (io->out_next < p->run.announced && io->out_next < p->ntiles &&
           tile__sigma(p, io->out_next) + p->threads.skew + 1 <= s) {
        tile__output(p, io->out_next);
        io->out_next++;
    }
}

#if TILEHYBRID__DEFINE
/* At the end of a run (collective, after the totals): every rank agrees
 * on the run's outcome and on the reductions declared (their number and
 * operations: v[]), then the reductions are combined. */
TILEHYBRID__COLD void tile__io_finish(tile_plan *p)
{
    int nred = p->run.io != NULL ? p->run.io->nred : 0, k, i, agreed, rc;
    const char *call = "";
    tile__agreed *a = (tile__agreed *)TILEHYBRID_MALLOC(sizeof *a);
    uint64_t *buf = NULL;
    if (a == NULL)
        tile__fail(p, TILE_ERR_NOMEM, "", -1, "out of memory to agree on the reductions");
    if (nred > 0) {     /* before the agreement: a failure here stops every rank */
        buf = (uint64_t *)TILEHYBRID_MALLOC(sizeof(uint64_t) * (size_t)nred *
                                            (2 * TILE__RED_SUMS +
                                             ((size_t)p->size + 1) * TILE__RED_CANDS));
        if (buf == NULL)
            tile__fail(p, TILE_ERR_NOMEM, "", -1, "out of memory to combine the reductions");
    }
    if (a != NULL) {
        a->count = 0;
        tile__agreed_add(a, TILE__NRED_NAME, -1, -1, (uint64_t)nred, 0);
        for (k = 0; k < TILE_MAX_REDUCTIONS; k++) {
            tile__agreed_add(a, "reduction", k, -1,
                             k < nred ? (uint64_t)p->run.io->red[k]->op : ~(uint64_t)0, 0);
            snprintf(a->name[a->count - 1], sizeof a->name[0], "operation of reduction %c "
                     "(enum tile_reduce_op)", (char)('0' + k));   /* k < 8: 46 characters */
        }
    }
    agreed = tile__agree(p, a) == TILE_OK;
    TILEHYBRID_FREE(a);
    if (agreed && nred > 0 && (rc = tile__red_combine(p, buf, &call)) != MPI_SUCCESS) {
        tile__mpi_failed(p, -1, rc, call, "while combining the reductions at the end of a "
                         "run");
        tile__agree(p, NULL);
    }
    TILEHYBRID_FREE(buf);
    p->run.completed = p->status.code == TILE_OK;
    for (k = 0; !p->run.completed && k < nred; k++) {  /* no stale result of a run before */
        tile_reduction *r = p->run.io->red[k];
        r->count = 0;
        r->value = 0.0;
        r->u64 = 0;
        for (i = 0; i <= TILE_MAX_DIMS; i++)
            r->coord[i] = -1;
    }
}

TILEHYBRID__COLD void tile__io_free(tile_plan *p)
{
    int k;
    if (p->run.io == NULL)
        return;
    for (k = 0; k < p->run.io->nred; k++)   /* (the reductions may be gone: not touched) */
        TILEHYBRID_FREE(p->run.io->slots[k]);
    TILEHYBRID_FREE(p->run.io->out_buf);
    tile__input_free(p->run.io);
    TILEHYBRID_FREE(p->run.io);
    p->run.io = NULL;
}

/* Is an output or an input hook set (their buffers hold one tile: the
 * tile height's re-choice waits)? */
TILEHYBRID__COLD int tile__io_hooked(const tile_plan *p)
{
    return p->run.io != NULL && (p->run.io->out_fn != NULL || p->run.io->in_fn != NULL);
}
#else
TILEHYBRID__COLD void tile__io_finish(tile_plan *p);
TILEHYBRID__COLD void tile__io_free(tile_plan *p);
TILEHYBRID__COLD int tile__io_hooked(const tile_plan *p);
#endif

/* ==== src/tiling/60-create.h ==== */
#line 1 "src/tiling/60-create.h"
/* ------------------------------------------------------------------------ */
/* Plan creation                                                            */

#if TILEHYBRID__DEFINE
/* Validate the configuration locally (no communication). */
TILEHYBRID__COLD int tile__validate_space(tile_plan *p, const tile_config *c)
{
    int i;
    if (c->n < 1 || c->n > TILE_MAX_DIMS)
        return tile__fail(p, TILE_ERR_NDIMS, "n", -1, "N = %d: the space must have 1 to %d "
                          "distributed dimensions plus Z", c->n, TILE_MAX_DIMS);
    for (i = 0; i < c->n; i++) {
        if (c->extent[i] < 1)
            return tile__fail(p, TILE_ERR_EXTENT, "extent", i, "extent X_%d = %lld: must be at "
                              "least 1", i + 1, (long long)c->extent[i]);
        if (c->dep[i] < 0)
            return tile__fail(p, TILE_ERR_DEP, "dep", i, "dependence d_%d = %d: must be >= 0",
                              i + 1, c->dep[i]);
        if (c->grid[i] < 0)
            return tile__fail(p, TILE_ERR_GRID, "grid", i, "grid entry %d = %d: must be >= 0 "
                              "(0 = free)", i + 1, c->grid[i]);
        if (c->tgrid[i] < 0)
            return tile__fail(p, TILE_ERR_THREADS, "tgrid", i, "thread grid entry %d = %d: must "
                              "be >= 0", i + 1, c->tgrid[i]);
    }
    if (c->zlen < 1)
        return tile__fail(p, TILE_ERR_EXTENT, "zlen", -1, "Z = %lld: must be at least 1",
                          (long long)c->zlen);
    if (c->depz < 0 || c->depz > TILE_MAX_DEPZ)
        return tile__fail(p, TILE_ERR_DEP, "depz", -1, "dependence d_Z = %d: must be in 0..%d",
                          c->depz, TILE_MAX_DEPZ);
    if (c->tile_height < 0)
        return tile__fail(p, TILE_ERR_TILE_HEIGHT, "tile_height", -1, "tile height = %lld: must "
                          "be at least 1, or 0 (the plan chooses)", (long long)c->tile_height);
    if (c->elem_size < 1 || c->elem_size > ((size_t)1 << 30))
        return tile__fail(p, TILE_ERR_ELEM, "elem_size", -1, "element size = %llu: must be in "
                          "1..2^30 bytes", (unsigned long long)c->elem_size);
    return TILE_OK;
}

/* "(o_1,...,o_N,o_Z)" of stencil vector v, in buf. */
TILEHYBRID__COLD const char *tile__vec(char *buf, size_t size, const int *v, int n)
{
    size_t o = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i <= n && o < size; i++)
        o += (size_t)snprintf(buf + o, size - o, "%s%d%s", i ? "," : "(", v[i], i == n ? ")" : "");
    return buf;
}

/* The loop order (outermost first) in lo[0..N]: cfg.loop_order, or the
 * default (Z, then X_1 ... X_N) when it is all -1. */
TILEHYBRID__COLD int tile__loop_order(tile_plan *p, const tile_config *c, int *lo)
{
    int n = c->n, i, seen[TILE_MAX_DIMS + 1] = {0}, unset = 1;
    for (i = 0; i <= n; i++)
        unset &= c->loop_order[i] == -1;
    if (unset) {
        lo[0] = n;
        for (i = 0; i < n; i++)
            lo[i + 1] = i;
        return TILE_OK;
    }
    for (i = 0; i <= n; i++) {
        if (c->loop_order[i] < 0 || c->loop_order[i] > n || seen[c->loop_order[i]]++)
            return tile__fail(p, TILE_ERR_STENCIL, "loop_order", i, "loop_order[%d] = %d: the "
                              "loop order must list each of 0..%d once (value i is dimension "
                              "i + 1, %d is Z), "
                              "outermost first, or be all -1", i, c->loop_order[i], n, n);
        lo[i] = c->loop_order[i];
    }
    return TILE_OK;
}

/* Check stencil vector k: in range, not the point itself, and earlier in
 * the sequential loop (lexicographically, in loop order lo and the
 * directions).  *later is set if it is later along some dimension. */
TILEHYBRID__COLD int tile__check_vector(tile_plan *p, const tile_config *c, const int *lo, int k,
                                        int *later)
{
    const int *v = c->stencil[k];
    char buf[12 * (TILE_MAX_DIMS + 1) + 4];
    int n = c->n, i, first = 0, fdim = 0;
    for (i = 0; i <= n; i++) {
        int lim = i < n ? INT_MAX / 2 : TILE_MAX_DEPZ;
        if (v[i] < -lim || v[i] > lim)   /* before any arithmetic (INT_MIN) */
            return tile__fail(p, TILE_ERR_DEP, "stencil", k, "stencil vector %d %s: a "
                              "distance of %d is too large%s (at most %d%s)", k + 1,
                              tile__vec(buf, sizeof buf, v, n), v[i], i < n ? "" : " along Z",
                              lim, i < n ? "" : ", TILE_MAX_DEPZ");
    }
    for (i = 0; i <= n; i++) {
        int u = v[lo[i]] * p->deps.dir[lo[i]];   /* > 0: later along lo[i] */
        *later |= u > 0;
        if (first == 0) {
            first = u;
            fdim = lo[i];
        }
    }
    if (first == 0)
        return tile__fail(p, TILE_ERR_STENCIL, "stencil", k, "stencil vector %d %s is the "
                          "point itself: the current point is written, not read as a "
                          "dependence", k + 1, tile__vec(buf, sizeof buf, v, n));
    if (first > 0)   /* the first non-zero distance, in loop order, is forward */
        return tile__fail(p, TILE_ERR_STENCIL, "stencil", k, "stencil vector %d %s reads a "
                          "later point along dimension %d (the loop runs %s there): in the "
                          "loop order every read must be at an earlier point (a read ahead "
                          "would read a value not yet written)", k + 1,
                          tile__vec(buf, sizeof buf, v, n), fdim + 1,
                          p->deps.dir[fdim] > 0 ? "upward" : "downward");
    return TILE_OK;
}

/* Apply the factors f[pp][.] at loop position pp: the skewed distances
 * dd[k][pp] and the skewed extent sz[pp] (len: the unskewed one). */
TILEHYBRID__COLD int tile__skew_apply(tile_plan *p, int ns, int64_t dd[][TILE_MAX_DIMS + 1],
                                      int64_t len, const int64_t *f, int64_t *sz, int pp)
{
    int64_t s = len - 1, t;
    int k, q;
    for (q = 0; q < pp; q++)
        if (!tilehybrid_mul_ok(f[q], sz[q] - 1, &t) || !tilehybrid_add_ok(s, t, &s))
            return tile__fail(p, TILE_ERR_OVERFLOW, "stencil", -1, "the skewed space is too "
                              "large for 64-bit sizes");
    if (!tilehybrid_add_ok(s, 1, &sz[pp]))
        return tile__fail(p, TILE_ERR_OVERFLOW, "stencil", -1, "the skewed space is too "
                          "large for 64-bit sizes");
    for (k = 0; k < ns; k++)
        for (q = 0; q < pp; q++)
            if (!tilehybrid_mul_ok(f[q], dd[k][q], &t) || !tilehybrid_add_ok(dd[k][pp], t, &t) ||
                t > INT_MAX / 2)
                return tile__fail(p, TILE_ERR_OVERFLOW, "stencil", k, "stencil vector %d: its "
                                  "skewed distance is too large", k + 1);
            else
                dd[k][pp] = t;
    return TILE_OK;
}

/* The cheapest factors at loop position pp (the least growth of its
 * extent) among 0..dmax each that make every skewed distance dd[.][pp]
 * non-negative; beyond 4096 candidates, a simple sufficient choice (dmax
 * on the first positive outer distance of each vector that needs it). */
TILEHYBRID__COLD void tile__skew_choose(int ns, int64_t dd[][TILE_MAX_DIMS + 1], const int64_t *sz,
                                        int pp, int64_t dmax, int64_t *f)
{
    double best = -1.0;
    int64_t cand = 1, t, g[TILE_MAX_DIMS + 1];
    int q, k;
    for (q = 0; q < pp && cand <= 4096; q++)
        cand *= dmax + 1;
    for (t = 0; cand <= 4096 && t < cand; t++) {
        int64_t r = t;
        double cost = 0.0;
        int ok = 1;
        for (q = 0; q < pp; q++, r /= dmax + 1) {
            g[q] = r % (dmax + 1);
            cost += (double)g[q] * (double)sz[q];
        }
        for (k = 0; k < ns && ok; k++) {
            int64_t y = dd[k][pp];
            for (q = 0; q < pp; q++)
                y += g[q] * dd[k][q];
            ok = y >= 0;
        }
        if (ok && (best < 0 || cost < best)) {
            best = cost;
            memcpy(f, g, sizeof(int64_t) * (size_t)pp);
        }
    }
    for (k = 0; best < 0 && k < ns; k++)
        for (q = 0; dd[k][pp] < 0 && q < pp; q++)
            if (dd[k][q] > 0) {
                f[q] = dmax;
                break;
            }
}

/* The skew: factors f[p][q] (q < p, loop positions) for the distances dd
 * (dd[k][p]: vector k's distance along the loop's p-th dimension, in its
 * direction; skewed on return) and the skewed extents sz[p]. */
TILEHYBRID__COLD int tile__skew(tile_plan *p, int ns, int64_t dd[][TILE_MAX_DIMS + 1],
                                const int64_t *len, int64_t f[][TILE_MAX_DIMS + 1], int64_t *sz)
{
    int n = p->cfg.n, k, pp;
    for (pp = 0; pp <= n; pp++) {
        int64_t dmax = 0;
        for (k = 0; k < ns; k++)
            dmax = -dd[k][pp] > dmax ? -dd[k][pp] : dmax;
        memset(f[pp], 0, sizeof f[pp]);
        if (dmax > 0)
            tile__skew_choose(ns, dd, sz, pp, dmax, f[pp]);
        if (tile__skew_apply(p, ns, dd, len[pp], f[pp], sz, pp) != TILE_OK)
            return p->status.code;
    }
    return TILE_OK;
}

/* The maps between user and internal coordinates (struct tile_deps): with
 * the skew f in loop order lo (skewed), or the reversal alone.  Internal
 * dimension kk is loop position kp[kk]. */
TILEHYBRID__COLD int tile__fma_ok(int64_t *acc, int64_t a, int64_t b)
{
    int64_t t;
    return tilehybrid_mul_ok(a, b, &t) && tilehybrid_add_ok(*acc, t, acc);
}

TILEHYBRID__COLD int tile__map(tile_plan *p, const int *lo, int64_t f[][TILE_MAX_DIMS + 1],
                               const int *kp)
{
    tile_deps *d = &p->deps;
    int n = p->cfg.n, i, kk, pp, q;
    int64_t a[TILE_MAX_DIMS + 1][TILE_MAX_DIMS + 1], a0[TILE_MAX_DIMS + 1];
    int64_t b[TILE_MAX_DIMS + 1][TILE_MAX_DIMS + 1];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    /* y'_p = y_p + sum f_pq y'_q, y_p = u or E - 1 - u along lo[p] */
    for (pp = 0; pp <= n; pp++) {
        int u = lo[pp];
        int64_t len = u < n ? p->cfg.extent[u] : p->cfg.zlen;
        a[pp][u] = d->dir[u];
        a0[pp] = d->dir[u] > 0 ? 0 : len - 1;
        for (q = 0; q < pp; q++) {
            int ok = tile__fma_ok(&a0[pp], f[pp][q], a0[q]);
            for (i = 0; i <= n; i++)
                ok &= tile__fma_ok(&a[pp][i], f[pp][q], a[q][i]);
            if (!ok)
                return tile__fail(p, TILE_ERR_OVERFLOW, "stencil", -1, "the skew of this "
                                  "stencil is too large for 64-bit coordinates");
        }
        /* inverse: y_p = y'_p - sum f_pq y'_q, in terms of y' */
        b[pp][pp] = 1;
        for (q = 0; q < pp; q++)
            b[pp][q] = -f[pp][q];
    }
    for (kk = 0; kk <= n; kk++) {
        memcpy(d->m[kk], a[kp[kk]], sizeof d->m[kk]);
        d->c[kk] = a0[kp[kk]];
    }
    for (pp = 0; pp <= n; pp++) {
        int u = lo[pp];
        int64_t len = u < n ? p->cfg.extent[u] : p->cfg.zlen;
        for (kk = 0; kk <= n; kk++)
            d->inv[u][kk] = d->dir[u] * b[pp][kp[kk]];
        d->cinv[u] = d->dir[u] > 0 ? 0 : len - 1;
    }
    return TILE_OK;
}

/* The internal offsets of every stencil vector, the ghost widths d', d'_Z
 * and the face extensions. */
TILEHYBRID__COLD int tile__widths(tile_plan *p, const tile_config *c)
{
    tile_deps *d = &p->deps;
    int n = c->n, i, j, k;
    for (k = 0; k < c->nstencil; k++) {
        for (j = 0; j <= n; j++) {
            int64_t o = 0;
            for (i = 0; i <= n; i++)
                o += d->m[j][i] * c->stencil[k][i];
            d->off[k][j] = o;
            if (-o > (j < n ? INT_MAX / 2 : TILE_MAX_DEPZ))
                return tile__fail(p, TILE_ERR_DEP, "stencil", k, "stencil vector %d: its "
                                  "distance along %sdimension %d is %lld, too large (at most "
                                  "%d%s)", k + 1, d->skewed ? "skewed " : "", j + 1, (long long)-o,
                                  j < n ? INT_MAX / 2 : TILE_MAX_DEPZ,
                                  j < n ? "" : ", TILE_MAX_DEPZ");
            if (j < n && -o > d->d[j])
                d->d[j] = (int)-o;
            if (j == n && -o > d->dz)
                d->dz = (int)-o;
        }
        for (i = 0; i < n; i++)
            for (j = 0; j < i; j++)
                if (d->off[k][i] != 0 && d->off[k][j] != 0 && -d->off[k][j] > d->ext[i][j])
                    d->ext[i][j] = (int)-d->off[k][j];
    }
    return TILE_OK;
}

/* The internal order of the loop positions: unskewed, the user's own
 * dimensions; skewed, the longest skewed dimension (the user's Z on a tie)
 * as Z and the others in loop order. */
TILEHYBRID__COLD void tile__internal_order(const tile_plan *p, const int *lo, const int64_t *sz,
                                           int *kp)
{
    int n = p->cfg.n, pp, z = -1, kk = 0;
    if (!p->deps.skewed) {
        for (pp = 0; pp <= n; pp++)
            kp[lo[pp]] = pp;
        return;
    }
    for (pp = 0; pp <= n; pp++)
        if (z < 0 || sz[pp] > sz[z] || (sz[pp] == sz[z] && lo[pp] == n))
            z = pp;
    for (pp = 0; pp <= n; pp++)
        if (pp != z)
            kp[kk++] = pp;
    kp[n] = z;
}

/* Validate the dependences (widths or stencil, directions, loop order) and
 * derive the internal coordinates (struct tile_deps). */
TILEHYBRID__COLD int tile__check_shorthand(tile_plan *p, const tile_config *c)
{
    int i;
    if (c->nstencil < 0 || c->nstencil > TILE_MAX_STENCIL)
        return tile__fail(p, TILE_ERR_STENCIL, "nstencil", -1, "nstencil = %d: must be in "
                          "0..%d", c->nstencil, TILE_MAX_STENCIL);
    if (c->nstencil == 0)
        return TILE_OK;
    for (i = 0; i < c->n; i++)
        if (c->dep[i] != 0)
            return tile__fail(p, TILE_ERR_DEP, "dep", i, "dep[%d] = %d with a stencil: give "
                              "the stencil or the widths, not both (tile_config_stencil sets "
                              "dep[] and depz to 0)", i, c->dep[i]);
    if (c->depz != 0)
        return tile__fail(p, TILE_ERR_DEP, "depz", -1, "depz = %d with a stencil: give the "
                          "stencil or the widths, not both (tile_config_stencil sets dep[] "
                          "and depz to 0)", c->depz);
    return TILE_OK;
}

TILEHYBRID__COLD int tile__validate_deps(tile_plan *p, const tile_config *c)
{
    tile_deps *d = &p->deps;
    int64_t dd[TILE_MAX_STENCIL][TILE_MAX_DIMS + 1], f[TILE_MAX_DIMS + 1][TILE_MAX_DIMS + 1];
    int64_t len[TILE_MAX_DIMS + 1], sz[TILE_MAX_DIMS + 1];
    int i, k, n = c->n, lo[TILE_MAX_DIMS + 1], kp[TILE_MAX_DIMS + 1], later = 0;
    memset(d, 0, sizeof *d);
    memset(f, 0, sizeof f);
    for (i = 0; i <= n; i++) {
        if (c->dir[i] != 1 && c->dir[i] != -1)
            return tile__fail(p, TILE_ERR_STENCIL, "dir", i, "dir[%d] = %d: the loop direction "
                              "must be +1 (upward) or -1 (downward)", i, c->dir[i]);
        d->dir[i] = c->dir[i];
    }
    if (tile__loop_order(p, c, lo) != TILE_OK || tile__check_shorthand(p, c) != TILE_OK)
        return p->status.code;
    for (k = 0; k < c->nstencil; k++)
        if (tile__check_vector(p, c, lo, k, &later) != TILE_OK)
            return p->status.code;
    for (i = 0; i <= n; i++) {
        len[i] = lo[i] < n ? c->extent[lo[i]] : c->zlen;
        sz[i] = len[i];
        for (k = 0; k < c->nstencil; k++)
            dd[k][i] = -(int64_t)c->stencil[k][lo[i]] * d->dir[lo[i]];
    }
    d->skewed = later;
    if (later && tile__skew(p, c->nstencil, dd, len, f, sz) != TILE_OK)
        return p->status.code;
    tile__internal_order(p, lo, sz, kp);
    if (tile__map(p, lo, f, kp) != TILE_OK)
        return p->status.code;
    for (i = 0; i <= n; i++)
        d->size[i] = sz[kp[i]];
    if (c->nstencil == 0) {
        for (i = 0; i < n; i++)
            d->d[i] = c->dep[i];
        d->dz = c->depz;
        return TILE_OK;
    }
    return tile__widths(p, c);
}

/**
 * tile_config_deps() - the internal coordinates a plan derives from @cfg's
 * space and dependences, without MPI and without creating the plan: the
 * ghost widths d'_i and d'_Z, the extended faces, whether the plan skews
 * the space and the extents of the space it tiles (struct tile_deps).
 * Tools and models use it to price the loop nest the plan will run (tilectl
 * topo and plan do: topology.h's nest over @deps->size and @deps->d).
 * @cfg:  the configuration; its space (n, extent, zlen, elem_size,
 *        tile_height, grid) and dependences (dep/depz or the stencil, dir,
 *        loop_order) are checked as tile_plan_create() checks them, with
 *        the same codes and messages; the other fields are not read.
 * @deps: filled on success (unchanged otherwise).
 * @msg, @size: on failure the plan's message (naming the argument and the
 *        offending vector), truncated to @size bytes; NULL/0 for none.
 * Returns TILE_OK, the TILE_ERR_* code of the first error, TILE_ERR_NULL
 * (@cfg or @deps NULL) or TILE_ERR_NOMEM (a plan's scratch record, about
 * sizeof(tile_plan) bytes, cannot be allocated).
 */
TILEHYBRID__COLD int tile_config_deps(const tile_config *cfg, tile_deps *deps, char *msg,
                                      size_t size)
{
    tile_plan *p;
    int rc;
    if (msg != NULL && size > 0)
        msg[0] = '\0';
    if (cfg == NULL || deps == NULL) {
        if (msg != NULL && size > 0)
            snprintf(msg, size, "tile_config_deps: %s is NULL", cfg == NULL ? "cfg" : "deps");
        return TILE_ERR_NULL;
    }
    p = (tile_plan *)TILEHYBRID_MALLOC(sizeof *p);
    if (p == NULL) {
        if (msg != NULL && size > 0)
            snprintf(msg, size, "tile_config_deps: out of memory (%llu bytes)",
                     (unsigned long long)sizeof *p);
        return TILE_ERR_NOMEM;
    }
    memset(p, 0, sizeof *p);
    p->cfg = *cfg;
    rc = tile__validate_space(p, cfg);
    if (rc == TILE_OK)
        rc = tile__validate_deps(p, cfg);
    if (rc == TILE_OK)
        *deps = p->deps;
    else if (msg != NULL && size > 0)
        snprintf(msg, size, "%s", p->errmsg);
    TILEHYBRID_FREE(p);
    return rc;
}

/* The model, the threads and the options. */
TILEHYBRID__COLD int tile__validate_run(tile_plan *p, const tile_config *c)
{
    int rc;
    if (tile_model_name(c->model) == NULL)
        return tile__fail(p, TILE_ERR_MODEL, "model", -1, "model = %d: not a tile_model",
                          c->model);
    if (c->threads < 1)
        return tile__fail(p, TILE_ERR_THREADS, "threads", -1, "threads = %d: must be at "
                          "least 1", c->threads);
    if (c->model == TILE_MODEL_MPI && c->threads != 1)
        return tile__fail(p, TILE_ERR_THREADS, "threads", -1, "threads = %d: the pure MPI "
                          "model runs one thread per process", c->threads);
#ifndef _OPENMP
    if (c->threads > 1)
        return tile__fail(p, TILE_ERR_NO_OPENMP, "threads", -1, "threads = %d: compile with "
                          "OpenMP (-fopenmp) to run more than one thread", c->threads);
#endif
    rc = bal_config_check(&c->balance);
    if (rc == BAL_ERR_BAL)
        return tile__fail(p, TILE_ERR_BAL, "balance.bal", -1, "bal = %g: the balancing factor "
                          "must be in [0, 1]", c->balance.bal);
    if (rc != BAL_OK)
        return tile__fail(p, TILE_ERR_BALANCE, "balance", -1, "balance: %s", bal_strerror(rc));
    if (c->order < TILE_ORDER_PLANES || c->order > TILE_ORDER_AUTO)
        return tile__fail(p, TILE_ERR_STORAGE, "order", -1, "order = %d: not a tile_order",
                          c->order);
    if (c->storage != TILE_STORE_WINDOW && c->storage != TILE_STORE_FULL)
        return tile__fail(p, TILE_ERR_STORAGE, "storage", -1, "storage = %d: not a "
                          "tile_storage", c->storage);
    if (c->grid_policy != TILE_GRID_COMM && c->grid_policy != TILE_GRID_LATENCY &&
        c->grid_policy != TILE_GRID_TIME)
        return tile__fail(p, TILE_ERR_GRID, "grid_policy", -1, "grid policy = %d: not a "
                          "tile_grid_policy", c->grid_policy);
    if (c->mem_limit < -1)
        return tile__fail(p, TILE_ERR_RANGE, "mem_limit", -1, "mem_limit = %lld: must be -1 "
                          "(no limit), 0 (the default) or a number of bytes", (long long)c->mem_limit);
    if (c->messages < TILE_MESSAGES_PERSISTENT || c->messages > TILE_MESSAGES_PARTITIONED)
        return tile__fail(p, TILE_ERR_RANGE, "messages", -1, "messages = %d: not a "
                          "tile_messages", c->messages);
    if (c->boundary != NULL && c->boundary_row != NULL)
        return tile__fail(p, TILE_ERR_ARG, "boundary_row", -1, "boundary and boundary_row "
                          "are both set: set one (boundary_row gives a row of points per "
                          "call the values boundary gives one by one)");
    return TILE_OK;
}

TILEHYBRID__COLD const char *tile__level_name(int level)
{
    return level == MPI_THREAD_SINGLE     ? "MPI_THREAD_SINGLE"
           : level == MPI_THREAD_FUNNELED ? "MPI_THREAD_FUNNELED"
           : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
                                            : "MPI_THREAD_MULTIPLE";
}

/* MPI's thread support for the model. */
TILEHYBRID__COLD int tile__check_level(tile_plan *p)
{
    int provided = MPI_THREAD_SINGLE, need;
    if (MPI_Query_thread(&provided) != MPI_SUCCESS)
        return tile__fail(p, TILE_ERR_MPI, "", -1, "MPI_Query_thread failed (is MPI "
                          "initialised?)");
    need = tile_model_thread_level(p->cfg.model, p->cfg.threads);
    if (provided < need)
        return tile__fail(p, TILE_ERR_THREAD_LEVEL, "model", -1, "model '%s' needs MPI thread "
                          "support %s but MPI provides %s; initialise MPI with "
                          "MPI_Init_thread (see hybrid_init)", tile_model_name(p->cfg.model),
                          tile__level_name(need), tile__level_name(provided));
    return TILE_OK;
}

/* Every rank must pass the same configuration: one collective compares
 * every value (and carries the first error of any rank). */
TILEHYBRID__COLD int tile__check_all(tile_plan *p)
{
    static const char *const iname[18] = {
        "n", "zlen", "depz", "tile_height", "elem_size", "model", "threads", "grid_policy",
        "storage", "order", "balance.policy", "balance.adapt_sample", "balance.adapt_period",
        "nstencil", "boundary (set or NULL)", "boundary_row (set or NULL)", "mem_limit",
        "messages" };
    static const char *const dname[5] = { "balance.bal", "balance.tcomp", "balance.tstartup",
                                          "balance.bandwidth", "balance.adapt_smoothing" };
    const tile_config *c = &p->cfg;
    const bal_config *b = &c->balance;
    const int64_t iv[18] = { c->n, c->zlen, c->depz, c->tile_height, (int64_t)c->elem_size,
                             c->model, c->threads, c->grid_policy, c->storage, c->order,
                             b->policy, b->adapt_sample, b->adapt_period, c->nstencil,
                             c->boundary != NULL, c->boundary_row != NULL, c->mem_limit,
                             c->messages };
    const double dv[5] = { b->bal, b->tcomp, b->tstartup, b->bandwidth, b->adapt_smoothing };
    tile__agreed *a;
    int i, j, rc;
    if (p->status.code == TILE_OK)
        tile__validate_space(p, c);
    if (p->status.code == TILE_OK)
        tile__validate_deps(p, c);
    if (p->status.code == TILE_OK)
        tile__validate_run(p, c);
    if (p->status.code == TILE_OK)
        tile__check_level(p);
    a = (tile__agreed *)TILEHYBRID_MALLOC(sizeof *a);
    if (a == NULL) {
        tile__fail(p, TILE_ERR_NOMEM, "", -1, "out of memory while checking the arguments");
        return tile__agree(p, NULL);
    }
    a->count = 0;
    for (i = 0; i < 18; i++)
        tile__agreed_add(a, iname[i], -1, -1, (uint64_t)iv[i], 0);
    for (i = 0; i < 5; i++)
        tile__agreed_add(a, dname[i], -1, -1, tilehybrid_bits(dv[i]), 1);
    for (i = 0; i < TILE_MAX_DIMS; i++) {
        tile__agreed_add(a, "extent", i, -1, (uint64_t)c->extent[i], 0);
        tile__agreed_add(a, "dep", i, -1, (uint64_t)(int64_t)c->dep[i], 0);
        tile__agreed_add(a, "grid", i, -1, (uint64_t)(int64_t)c->grid[i], 0);
        tile__agreed_add(a, "tgrid", i, -1, (uint64_t)(int64_t)c->tgrid[i], 0);
    }
    for (i = 0; i <= TILE_MAX_DIMS; i++)
        tile__agreed_add(a, "dir", i, -1, (uint64_t)(int64_t)c->dir[i], 0);
    for (i = 0; i <= TILE_MAX_DIMS; i++)
        tile__agreed_add(a, "loop_order", i, -1, (uint64_t)(int64_t)(i <= c->n ? c->loop_order[i]
                                                                                : -1), 0);
    /* a fixed count on every rank (one collective); entries out of use as 0 */
    for (i = 0; i < TILE_MAX_STENCIL; i++)
        for (j = 0; j <= TILE_MAX_DIMS; j++)
            tile__agreed_add(a, "stencil", i, j, i < c->nstencil && j <= c->n
                             ? (uint64_t)(int64_t)c->stencil[i][j] : 0, 0);
    rc = tile__agree(p, a);
    TILEHYBRID_FREE(a);
    return rc;
}

/* The loop nest as topology.h sees it: the internal extents, the ghost
 * widths with extended faces, and under TILE_GRID_TIME the pipeline's
 * costs (cfg.balance's where given, else the TILEHYBRID_* environment,
 * else TOPO_DEFAULT_*, the papers' cluster).  Returns a BAL_ERR_ENV_* code
 * when a variable is malformed (the defaults then stand, so that every
 * rank still takes part in the collective that follows). */
TILEHYBRID__COLD int tile__nest(const tile_plan *p, topo_nest *nest)
{
    const tile_config *c = &p->cfg;
    int64_t ext[TILE_MAX_DIMS], dep[TILE_MAX_DIMS];
    bal_model m;
    int i, j, rc = BAL_OK, found = 0;
    for (i = 0; i < c->n; i++) {
        ext[i] = p->deps.size[i];
        dep[i] = p->deps.d[i];
    }
    topo_nest_init(nest, c->n, ext, p->deps.size[c->n], dep, NULL);
    for (i = 0; i < c->n; i++)
        for (j = 0; j < i; j++)
            nest->ext[i][j] = p->deps.ext[i][j];
    /* a height the model will choose (0): the grid is chosen at the
     * demos' 100 (TOPO_DEFAULT_TILE_HEIGHT), then z for that grid */
    nest->tile_height = c->tile_height > 0 ? c->tile_height : TOPO_DEFAULT_TILE_HEIGHT;
    nest->elem_bytes = (double)c->elem_size;
    if (c->grid_policy != TILE_GRID_TIME)
        return BAL_OK;
    m.tcomp = TOPO_DEFAULT_TCOMP;
    m.tstartup = TOPO_DEFAULT_TSTARTUP;
    m.bandwidth = TOPO_DEFAULT_BANDWIDTH;
    m.elem_bytes = nest->elem_bytes;
    rc = bal_model_from_env(&m, &found);
    if (rc == BAL_OK) {
        nest->tcomp = m.tcomp;
        nest->tstartup = m.tstartup;
        nest->bandwidth = m.bandwidth;
    }
    if (c->balance.tcomp > 0)
        nest->tcomp = c->balance.tcomp;
    if (c->balance.tstartup > 0)
        nest->tstartup = c->balance.tstartup;
    if (c->balance.bandwidth > 0)
        nest->bandwidth = c->balance.bandwidth;
    return rc;
}

/* "dimension" or, on a plan that skews, "skewed dimension": the process
 * and thread grids (cfg.grid, cfg.tgrid) divide the skewed space's. */
TILEHYBRID__COLD const char *tile__dim_word(const tile_plan *p)
{
    return p->deps.skewed ? "skewed dimension" : "dimension";
}

/* Is dependence i wider than the smallest block of P_i processes (a face
 * would need data from beyond the neighbour)?  Fails the plan if so. */
TILEHYBRID__COLD int tile__too_wide(tile_plan *p, int i, int procs)
{
    if (procs <= 1 || p->deps.d[i] <= p->deps.size[i] / procs)
        return 0;
    tile__fail(p, TILE_ERR_DEP_TOO_WIDE, "dep", i, "dependence d_%d = %d is wider than the "
               "smallest block (%lld points) along %s %d", i + 1, p->deps.d[i],
               (long long)(p->deps.size[i] / procs), tile__dim_word(p), i + 1);
    return 1;
}

/* topology.h found no grid: rc TOPO_ERR_INFEASIBLE, or TOPO_ERR_FIXED for
 * an entry of cfg.grid.  TILE_ERR_TOO_MANY when no grid has P_i <= X_i, or
 * the policy's grid (the balanced one) has more processes than points
 * along a dimension; else TILE_ERR_DEP_TOO_WIDE (a block would be
 * narrower than the d_i layers its neighbour reads).  The message says why
 * in topology.h's words (topo_nest_explain(): the rule a block would
 * break, the dimensions, the numbers), the status index the dimension
 * where one decides. */
TILEHYBRID__COLD int tile__no_grid(tile_plan *p, const topo_nest *nest, int rc)
{
    static const topo_policy policy[3] = { TOPO_POLICY_COMM, TOPO_POLICY_LATENCY,
                                           TOPO_POLICY_TIME };
    topo_nest flat = *nest;
    tilehybrid_status st;
    int dims[TILE_MAX_DIMS], i, at = 0, many;
    char ext[TILE_MAX_DIMS * 24], dep[TILE_MAX_DIMS * 12], why[TOPO_EXPLAIN_SIZE];
    memset(flat.dep, 0, sizeof flat.dep);
    memset(flat.ext, 0, sizeof flat.ext);
    for (i = 0; i < p->cfg.n; i++)
        dims[i] = p->cfg.grid[i];
    if (topo_nest_grid(&flat, p->size, TOPO_POLICY_COMM, dims, NULL) != TOPO_OK)
        return tile__fail(p, TILE_ERR_TOO_MANY, "grid", -1, "no process grid for %d processes "
                          "on the extents %s (%s): %s", p->size,
                          tile__sizes_text(ext, sizeof ext, p->deps.size, p->cfg.n),
                          p->deps.skewed ? "the skewed space's distributed dimensions, which "
                          "cfg.grid's entries divide" : "cfg.extent; the demos' --space",
                          topo_strerror(rc));
    /* a grid with P_i <= X_i exists: the width rule refused it, or the
     * balanced grid has too many processes along a dimension */
    topo_nest_explain(nest, p->size, policy[p->cfg.grid_policy], p->cfg.grid, why, sizeof why,
                      &st);
    for (i = 0; i < p->cfg.n; i++)
        at += snprintf(dep + at, sizeof dep - (size_t)at, "%s%d", i > 0 ? "," : "",
                       p->deps.d[i]);
    many = strcmp(st.arg, "extent") == 0;
    return tile__fail(p, many ? TILE_ERR_TOO_MANY : TILE_ERR_DEP_TOO_WIDE, many ? "grid" : "dep",
                      st.index, "no %sprocess grid for %d processes on the extents %s with "
                      "widths %s (%s): %s",
                      p->cfg.grid_policy == TILE_GRID_LATENCY ? "balanced " : "", p->size,
                      tile__sizes_text(ext, sizeof ext, p->deps.size, p->cfg.n), dep,
                      p->deps.skewed ? "the skewed space's distributed dimensions, which "
                      "cfg.grid's entries divide" : "cfg.extent; the demos' --space", why);
}

/* The time policy's search found grids, but the predicted time of every
 * one overflows a double: name the cost (topology.h's status arg) and its
 * value, where it comes from, and which way to move it. */
TILEHYBRID__COLD int tile__cost_overflow(tile_plan *p, const topo_nest *nest, const char *arg,
                                         const char *what)
{
    int bw = strcmp(arg, "bandwidth") == 0, eb = strcmp(arg, "elem_bytes") == 0;
    double v = bw ? nest->bandwidth : eb ? nest->elem_bytes
               : strcmp(arg, "tstartup") == 0 ? nest->tstartup : nest->tcomp;
    return tile__fail(p, TILE_ERR_BALANCE, eb ? "elem_size" : "balance", -1, "the "
                      "%s's cost model overflows: with %s = %g (%s%s; the demos' --%s) "
                      "the predicted time of %s passes the largest double (%g s); %s it",
                      what, arg, v, eb ? "cfg.elem_size" : "cfg.balance.", eb ? "" : arg,
                      eb ? "elem-bytes" : arg, strcmp(what, "time policy") == 0 ? "every grid"
                      : "the run", DBL_MAX, bw ? "raise" : "lower");
}

/* A grid the user fixed (cfg.grid, every entry > 0): it must have as many
 * processes as the communicator, at most one per point and blocks at least
 * as wide as the dependences.  TILE_OK where no entry is fixed. */
TILEHYBRID__COLD int tile__grid_fixed(tile_plan *p)
{
    const tile_config *c = &p->cfg;
    int n = c->n, i, fixed = 1;
    int64_t prod = 1;
    for (i = 0; i < n; i++) {
        fixed &= c->grid[i] > 0;
        /* saturated at -1 (more than 2^63 - 1) */
        if (prod < 0 || c->grid[i] < 1 || !tilehybrid_mul_ok(prod, c->grid[i], &prod))
            prod = -1;
    }
    if (!fixed)
        return TILE_OK;
    if (prod != p->size) {
        char text[TILE_MAX_DIMS * 12], num[24];
        int at = 0;
        for (i = 0; i < n && at < (int)sizeof text - 12; i++)
            at += snprintf(text + at, sizeof text - (size_t)at, "%s%d", i ? "x" : "",
                           c->grid[i]);
        if (prod < 0)
            snprintf(num, sizeof num, "more than 2^63");
        else
            snprintf(num, sizeof num, "%lld", (long long)prod);
        return tile__fail(p, TILE_ERR_GRID, "grid", -1, "the grid %s (cfg.grid; the demos' "
                          "--grid) has %s processes but the communicator has %d", text, num,
                          p->size);
    }
    for (i = 0; i < n; i++)
        if (c->grid[i] > p->deps.size[i])
            return tile__fail(p, TILE_ERR_TOO_MANY, "grid", i, "%d processes along %s %d "
                              "but only %lld points", c->grid[i], tile__dim_word(p), i + 1,
                              (long long)p->deps.size[i]);
    for (i = 0; i < n; i++)
        if (tile__too_wide(p, i, c->grid[i]))
            return TILE_ERR_DEP_TOO_WIDE;
    return TILE_OK;
}

/* topology.h's refusal rc of the grid (st: its status; env: the time
 * policy's cost model as read from the environment) as the plan's error. */
TILEHYBRID__COLD int tile__grid_refused(tile_plan *p, const topo_nest *nest, int rc, int env,
                                        const tilehybrid_status *st)
{
    int n = p->cfg.n;
    if (rc == TOPO_ERR_OVERFLOW) {
        char all[(TILE_MAX_DIMS + 1) * 24], prod_text[24];
        return tile__fail(p, TILE_ERR_OVERFLOW, "extent", -1, "no process grid for %d "
                          "processes: the communication volume of the space %s (the "
                          "extents X_1 x ... x X_N x Z; product %s points) does not fit "
                          "in 64 bits", p->size, tile__sizes_text(all, sizeof all,
                                                                  p->deps.size, n + 1),
                          tile__product_text(prod_text, sizeof prod_text, p->deps.size, n + 1));
    }
    if (rc == TOPO_ERR_INFEASIBLE || rc == TOPO_ERR_FIXED)
        return tile__no_grid(p, nest, rc);
    if (rc == TOPO_ERR_COST && env == BAL_OK)
        return tile__cost_overflow(p, nest, st->arg, "time policy");
    if (rc == TOPO_ERR_MISMATCH)
        return tile__fail(p, TILE_ERR_MISMATCH, "grid", -1, "the process grid's %s%s differs "
                          "between ranks (its cost model under TILE_GRID_TIME: cfg.balance "
                          "or the TILEHYBRID_* environment)", st->arg,
                          st->index >= 0 ? "[]" : "");
    if (rc == TOPO_ERR_MPI) {
        tile__mpi_failed(p, -1, st->mpi_error, st->arg, "in topology.h's "
                         "topo_nest_cart_create(), making the plan's process grid");
        return p->status.code;
    }
    return tile__fail(p, TILE_ERR_GRID, "grid", -1, "no process grid for %d processes: "
                      "%s%s%s", p->size, topo_strerror(rc),
                      st->arg[0] != '\0' ? " -- " : "", st->arg);
}

/* On the plan's grid communicator: this rank, its coordinates, its
 * neighbours (none along a dimension without dependence) and its block. */
TILEHYBRID__COLD int tile__grid_place(tile_plan *p)
{
    int n = p->cfg.n, i;
    if (MPI_Comm_set_errhandler(p->comm, MPI_ERRORS_RETURN) != MPI_SUCCESS)
        return tile__fail(p, TILE_ERR_MPI, "", -1, "rank %d: MPI_Comm_set_errhandler failed on "
                          "the plan's grid communicator", p->rank);
    if (MPI_Comm_rank(p->comm, &p->rank) != MPI_SUCCESS)
        return tile__fail(p, TILE_ERR_MPI, "", -1, "rank %d: MPI_Comm_rank failed on the "
                          "plan's grid communicator", p->rank);
    if (MPI_Cart_coords(p->comm, p->rank, n, p->pcoords) != MPI_SUCCESS)
        return tile__fail(p, TILE_ERR_MPI, "", -1, "rank %d: MPI_Cart_coords failed on the "
                          "plan's grid communicator", p->rank);
    for (i = 0; i < n; i++) {
        if (MPI_Cart_shift(p->comm, i, 1, &p->nbr_lo[i], &p->nbr_hi[i]) != MPI_SUCCESS)
            return tile__fail(p, TILE_ERR_MPI, "", -1, "rank %d: MPI_Cart_shift failed in "
                              "dimension %d", p->rank, i + 1);
        if (p->deps.d[i] == 0)
            p->nbr_lo[i] = p->nbr_hi[i] = MPI_PROC_NULL;
        topo_block(p->deps.size[i], p->pdims[i], p->pcoords[i], &p->lo[i], &p->len[i]);
    }
    return TILE_OK;
}

/* The process grid (topology.h, by cfg.grid_policy), the Cartesian
 * communicator, the block. */
TILEHYBRID__COLD int tile__grid(tile_plan *p)
{
    static const topo_policy policy[3] = { TOPO_POLICY_COMM, TOPO_POLICY_LATENCY,
                                           TOPO_POLICY_TIME };
    const tile_config *c = &p->cfg;
    int rc, env;
    MPI_Comm cart = MPI_COMM_NULL;
    tilehybrid_status st;
    topo_nest nest;
    tile_mpi_failure_fn hook;
    void *hook_ctx;
    if ((rc = tile__grid_fixed(p)) != TILE_OK)
        return rc;
    env = tile__nest(p, &nest);
    hook = c->on_mpi_failure;   /* topology.h's own MPI failures: the plan's policy */
    hook_ctx = c->on_mpi_failure_ctx;
    tilehybrid_mpi_failure_swap(&hook, &hook_ctx);
    rc = topo_nest_cart_create(p->comm, &nest, policy[c->grid_policy], c->grid, 0, &cart,
                               p->pdims, &st);
    tilehybrid_mpi_failure_swap(&hook, &hook_ctx);
    if (rc != TOPO_OK)
        return tile__grid_refused(p, &nest, rc, env, &st);
    (void)MPI_Comm_free(&p->comm);
    p->comm = cart;
    if (env != BAL_OK)  /* (after the collective, which ran with the defaults) */
        return tile__fail(p, TILE_ERR_BALANCE, "grid_policy", -1, "the time policy's cost "
                          "model: %s", bal_strerror(env));
    return tile__grid_place(p);
}

/* The thread grid: given, one thread, funneled (every thread along the
 * longest block dimension, so that the master alone gets bal/T), or the
 * communication-optimal grid inside the block (topology.h). */
TILEHYBRID__COLD int tile__thread_grid(tile_plan *p)
{
    const tile_config *c = &p->cfg;
    int n = c->n, T = c->threads, i, rc, given = 0, best = 0;
    int64_t prod = 1, small[TILE_MAX_DIMS] = {0}, ext[TILE_MAX_DIMS] = {0}, dep[TILE_MAX_DIMS] = {0};
    int *td = p->threads.dims, pd[TILE_MAX_DIMS];
    char txt[TILE_MAX_DIMS * 24];
    for (i = 0; i < n; i++) {
        given |= c->tgrid[i] != 0;
        small[i] = p->deps.size[i] / p->pdims[i];          /* the smallest block */
        best = small[i] > small[best] ? i : best;
        td[i] = given ? c->tgrid[i] : T == 1 ? 1 : 0;
        ext[i] = p->deps.size[i];
        dep[i] = p->deps.d[i];
        pd[i] = p->pdims[i];
    }
    if (given) {
        for (i = 0; i < n; i++) {
            if (c->tgrid[i] < 1)
                return tile__fail(p, TILE_ERR_THREADS, "tgrid", i, "thread grid entry %d is 0: "
                                  "give all entries or none", i + 1);
            prod *= c->tgrid[i] <= T ? c->tgrid[i] : (int64_t)T + 1;
            prod = prod > T ? (int64_t)T + 1 : prod;
        }
        if (prod != T)
            return tile__fail(p, TILE_ERR_THREADS, "tgrid", -1, "the thread grid has %s%lld "
                              "threads, threads = %d", prod > T ? "more than " : "",
                              (long long)(prod > T ? T : prod), T);
    } else if (T > 1 && c->model == TILE_MODEL_FUNNELED && small[best] >= T) {
        for (i = 0; i < n; i++)
            td[i] = i == best ? T : 1;
    } else if (T > 1) {
        rc = topo_hybrid_grid(n, p->size, T, ext, dep, TOPO_POLICY_COMM, pd, td);
        if (rc != TOPO_OK)
            return tile__fail(p, TILE_ERR_TOO_MANY, "threads", -1, "no thread grid of %d "
                              "threads fits the local block of %s points%s: %s", T,
                              tile__sizes_text(txt, sizeof txt, small, n),
                              p->deps.skewed ? " (in the skewed space)" : "", topo_strerror(rc));
    }
    for (i = 0; i < n; i++)
        if (td[i] > small[i])
            return tile__fail(p, TILE_ERR_TOO_MANY, "threads", i, "%d threads along %s %d "
                              "but a block has only %lld points", td[i], tile__dim_word(p), i + 1,
                              (long long)small[i]);
    return TILE_OK;
}

/* The memory limit of one rank, in bytes (INT64_MAX: none), and in *why
 * where it comes from. */
TILEHYBRID__COLD int tile__mem_limit(tile_plan *p, int64_t *limit, const char **why)
{
    const char *env = getenv("TILEHYBRID_MEM_LIMIT");
    *limit = INT64_MAX;
    *why = "no limit";
    if (p->cfg.mem_limit > 0) {
        *limit = p->cfg.mem_limit;
        *why = "cfg.mem_limit";
    } else if (p->cfg.mem_limit == 0 && env != NULL) {
        int prc = tilehybrid_parse_i64(env, 1, INT64_MAX, limit);
        if (prc == TILEHYBRID_ERR_RANGE && env[0] != '-' && env[0] != '0')
            return tile__fail(p, TILE_ERR_RANGE, "mem_limit", -1, "TILEHYBRID_MEM_LIMIT = "
                              "'%.40s': out of range (1 to %lld bytes)", env,
                              (long long)INT64_MAX);
        if (prc != TILEHYBRID_OK)
            return tile__fail(p, TILE_ERR_RANGE, "mem_limit", -1, "TILEHYBRID_MEM_LIMIT = "
                              "'%.40s': not a whole number of bytes >= 1", env);
        *why = "TILEHYBRID_MEM_LIMIT";
    } else if (p->cfg.mem_limit == 0) {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
        long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
        int64_t phys = 0;
        if (pages > 0 && psize > 0 && tilehybrid_mul_ok(pages, psize, &phys)) {
            /* the ranks on this node share it */
            *limit = phys / 2 / (p->run.node_ranks > 1 ? p->run.node_ranks : 1);
            *why = "half the physical memory";
        }
#endif
    }
    return TILE_OK;
}

/* What may bring a plan under its memory limit (of origin why). */
TILEHYBRID__COLD const char *tile__memory_advice(const tile_plan *p, const char *why)
{
    /* the default limit is the node's: more ranks on it share the same
     * memory; a tile height of 1 (or Z = 1) cannot be lowered */
    int node = strcmp(why, "half the physical memory") == 0;
    int low = (p->cfg.tile_height < p->deps.size[p->cfg.n] ? p->cfg.tile_height
                                                           : p->deps.size[p->cfg.n]) > 1;
    if (p->cfg.storage == TILE_STORE_FULL)
        return node ? "TILE_STORE_FULL keeps every plane: use the window, a shorter Z or more "
                      "nodes" : "TILE_STORE_FULL keeps every plane: use the window "
                      "(TILE_STORE_WINDOW), a shorter Z or more processes";
    if (low)
        return node ? "lower the tile height or use more nodes"
                    : "lower the tile height or use more processes";
    return node ? "use more nodes" : "use more processes";
}

/* Refuse a plan whose storage (ring bytes, then the message buffers and
 * tables: rest) would pass the memory limit: the message names the Z
 * window and the limit. */
TILEHYBRID__COLD int tile__check_memory(tile_plan *p, int64_t ring_bytes, int64_t rest)
{
    const tile_store *s = &p->store;
    const char *why = "";
    char need[24], lim[192];
    int64_t limit = 0, total = 0;
    int full = p->cfg.storage == TILE_STORE_FULL;
    if (tile__mem_limit(p, &limit, &why) != TILE_OK)
        return p->status.code;
    if (!tilehybrid_add_ok(ring_bytes, rest, &total))
        total = INT64_MAX;
    if (total <= limit && total < INT64_MAX)
        return TILE_OK;
    if (limit == INT64_MAX)
        snprintf(lim, sizeof lim, "this machine's addresses");
    else if (strcmp(why, "half the physical memory") == 0 && p->run.node_ranks > 1)
        snprintf(lim, sizeof lim, "its memory limit of %lld bytes (half the physical memory, "
                 "shared by the %d ranks on this node: cfg.mem_limit, TILEHYBRID_MEM_LIMIT)",
                 (long long)limit, p->run.node_ranks);
    else
        snprintf(lim, sizeof lim, "its memory limit of %lld bytes (%s%s)", (long long)limit, why,
                 strcmp(why, "half the physical memory") == 0
                     ? ": cfg.mem_limit, TILEHYBRID_MEM_LIMIT" : "");
    return tile__fail(p, TILE_ERR_NOMEM, full ? "storage" : "tile_height", -1,
                      "the plan needs %s bytes on this rank (a Z window of %lld planes of "
                      "%lld points of %llu bytes), above %s; %s",
                      tile__bytes_text(need, sizeof need, total),
                      (long long)(s->ring_planes + p->deps.dz), (long long)s->plane_elems,
                      (unsigned long long)p->cfg.elem_size, lim, tile__memory_advice(p, why));
}

/* The bytes of a face message along dimension i at tile height h in *b;
 * 0 past 2^63 (private). */
TILEHYBRID__COLD int tile__face_bytes(const tile_plan *p, int i, int64_t h, int64_t *b)
{
    int j, ok;
    /* elem_size < 2^30 and d_i >= 0 are checked: their product fits */
    ok = tilehybrid_mul_ok((int64_t)p->cfg.elem_size * p->deps.d[i], h, b);
    for (j = 0; j < p->cfg.n && ok; j++)
        if (j != i)
            ok = tilehybrid_mul_ok(*b, p->len[j] + (j < i ? p->deps.ext[i][j] : 0), b);
    return ok;
}

/* The face buffers along dimension i: one per neighbour (private). */
TILEHYBRID__COLD int64_t tile__face_buffers(const tile_plan *p, int i)
{
    return (p->nbr_lo[i] != MPI_PROC_NULL) + (p->nbr_hi[i] != MPI_PROC_NULL);
}

/* The face message along dimension i and its buffers: face_bytes[i],
 * checked (the message goes in blocks of TILE_MSG_MAX bytes: at most
 * INT_MAX blocks); *bufs += the buffers' bytes. */
TILEHYBRID__COLD int tile__face_size(tile_plan *p, int i, int64_t h, int64_t *bufs)
{
    int64_t b = 0, nbuf = tile__face_buffers(p, i);
    int ok = tile__face_bytes(p, i, h, &b);
    p->store.face_bytes[i] = ok ? b : INT64_MAX;
    if (nbuf == 0)
        return TILE_OK;
    if (!ok || b / TILE_MSG_MAX > INT_MAX || !tilehybrid_add_ok(b, 1, &b) ||
        !tilehybrid_mul_ok(b, nbuf, &b) || !tilehybrid_add_ok(*bufs, b, bufs))
        return tile__fail(p, TILE_ERR_OVERFLOW, "tile_height", i, "a message along dimension %d "
                          "would be more than %lld bytes (INT_MAX blocks of TILE_MSG_MAX = %lld "
                          "bytes); lower the tile height", i + 1,
                          (long long)INT_MAX * TILE_MSG_MAX, (long long)TILE_MSG_MAX);
    return TILE_OK;
}

/**
 * tile_plane_layout() - how a plan stores one plane of its block: the
 * in-tile order it runs, and the plane's layout with its ghost layers and
 * padding (the size the Z window and the tile height's cache bound count).
 * @n:         N, 1..TILE_MAX_DIMS.
 * @size:      the extents X_1..X_N of the space the plan tiles
 *             (plan.deps.size: on a plan that skews, the skewed extents).
 * @pdims:     the processes along each dimension (plan.pdims), >= 1.
 * @tdims:     the threads along each dimension (plan.threads.dims), >= 1.
 * @len:       the block's extents (plan.len: this rank's), >= 1.
 * @dep:       the ghost widths d_i (plan.deps.d), >= 0.
 * @elem_size: bytes per point (cfg.elem_size), >= 1.
 * @order:     enum tile_order (cfg.order; TILE_ORDER_AUTO: the plan's
 *             choice, as in tile_config's documentation).
 * @s:         receives order, wave, stride, diag, origin and plane_elems
 *             (what struct tile_store says of them) on success; its other
 *             fields, and all of it on an error, untouched.
 * Pure: a plan's creation calls it with its own values, and tilectl plan
 * with the largest block's.  The layout: row-major (the last dimension
 * contiguous), or, in the hyperplane order, diagonal-major in the two
 * dimensions a = wave[0], b = wave[1] (L_i = len_i + d_i points along i,
 * ghosts shifted to 0): point (x_a, x_b) of a slice at (x_a + x_b) R + x_a
 * + o, so a diagonal x_a + x_b = w is contiguous and every offset a
 * constant stride (R + 1 along a, R along b); the other dimensions
 * row-major around the slices.  o (s->origin) puts x_a = d_a, where the
 * points of most diagonals start, at the start of a 64-byte line (the
 * planes start at lines): the SIMD loop's stores and its reads of plane
 * z - 1 and of x_b - 1 are then aligned (ADI 64x256x16384, one process,
 * -march=native (AVX-512): 1.11x faster); o is 0 where the element size
 * does not divide 64 (no whole lines), and where the shift would make R
 * more than 9/8 of what it is without it (narrow diagonals: a block 17
 * points wide would take R = 40 for 24).  R is L_a + o rounded up
 * to whole lines, one line more when that is a multiple of 256 bytes, and
 * each slice has three lines more than its diagonals: strides away from
 * powers of two, which would put the diagonals a point reads in the same
 * cache sets.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_RANGE (an argument out of its
 * range) or TILE_ERR_OVERFLOW (a plane of more than 2^63 points).
 */
TILEHYBRID__COLD int tile_plane_layout(int n, const int64_t *size, const int *pdims,
                                       const int *tdims, const int64_t *len, const int *dep,
                                       size_t elem_size, int order, tile_store *s)
{
    int i, a, b;
    int64_t L[TILE_MAX_DIMS], esz = (int64_t)elem_size, line, pe = 1, o = 0;
    tile_store t;
    if (size == NULL || pdims == NULL || tdims == NULL || len == NULL || dep == NULL ||
        s == NULL)
        return TILE_ERR_NULL;
    if (n < 1 || n > TILE_MAX_DIMS || elem_size < 1 || elem_size > ((size_t)1 << 30) ||
        order < TILE_ORDER_PLANES || order > TILE_ORDER_AUTO)
        return TILE_ERR_RANGE;
    for (i = 0; i < n; i++) {
        if (size[i] < 1 || pdims[i] < 1 || tdims[i] < 1 || len[i] < 1 || dep[i] < 0)
            return TILE_ERR_RANGE;
        if (!tilehybrid_add_ok(len[i], dep[i], &L[i]))
            return TILE_ERR_OVERFLOW;
    }
    memset(&t, 0, sizeof t);
    tile__order_choose(n, size, pdims, tdims, L, order, &t);
    line = esz <= 64 && 64 % esz == 0 ? 64 / esz : 1;
    a = t.wave[0];
    b = t.wave[1];
    if (a >= 0 && tile__hyperplane_layout(L, dep[a], line, esz, &t, &pe, &o) != TILE_OK)
        return TILE_ERR_OVERFLOW;
    for (i = n - 1; i >= 0; i--) {
        if (i == a || i == b)
            continue;
        t.stride[i] = pe;
        if (!tilehybrid_mul_ok(pe, L[i], &pe))
            return TILE_ERR_OVERFLOW;
    }
    s->order = t.order;
    s->wave[0] = t.wave[0];
    s->wave[1] = t.wave[1];
    s->diag = t.diag;
    s->origin = o;
    s->plane_elems = pe;
    memcpy(s->stride, t.stride, sizeof s->stride);
    return TILE_OK;
}

/* The plan's order and plane layout (tile_plane_layout() with its own
 * values): store.order, wave, stride, diag, plane_elems. */
TILEHYBRID__COLD int tile__layout(tile_plan *p)
{
    char txt[TILE_MAX_DIMS * 24];
    if (tile_plane_layout(p->cfg.n, p->deps.size, p->pdims, p->threads.dims, p->len, p->deps.d,
                          p->cfg.elem_size, p->cfg.order, &p->store) != TILE_OK)
        return tile__fail(p, TILE_ERR_OVERFLOW, "extent", -1, "a plane of the local block "
                          "(%s points, and its ghost layers) has more than 2^63 points",
                          tile__sizes_text(txt, sizeof txt, p->len, p->cfg.n));
    return TILE_OK;
}

/* The planes of the Z window at tile height h (1 <= h <= Z), without the
 * d_Z mirror planes: the tiles in flight across the thread skew, the d_Z
 * planes they read below, one tile of slack (the master unpacks while
 * threads compute), rounded to whole tiles; full storage: every tile
 * (private). */
TILEHYBRID__COLD int64_t tile__window_planes(const tile_plan *p, int64_t h)
{
    int64_t ntiles = (p->deps.size[p->cfg.n] + h - 1) / h;
    int64_t m = p->threads.skew + 2 + (p->deps.dz + h - 1) / h;
    return p->cfg.storage == TILE_STORE_WINDOW && m < ntiles ? m * h : ntiles * h;
}

/* The bytes of the per-thread tables, and the alignment of the Z window
 * (tile__storage), that the memory limit counts besides the window and
 * the face buffers (private). */
TILEHYBRID__COLD int64_t tile__table_bytes(const tile_plan *p)
{
    return (int64_t)(sizeof(tile_stats) + sizeof(tile__slot)) * p->cfg.threads + 64;
}

/* Would the storage of tile height h fit this rank's memory limit: the
 * Z window and the face buffers as tile__sizes counts them (after
 * tile__layout)?  1 or 0 (0 past 2^63 bytes); no failure recorded. */
TILEHYBRID__COLD int tile__height_fits(tile_plan *p, int64_t h)
{
    const char *why = "";
    int64_t Z = p->deps.size[p->cfg.n], limit = 0, planes = 0, bytes = 0, b = 0;
    int i, ok;
    h = h < Z ? h : Z;
    if (h < 1 || tile__mem_limit(p, &limit, &why) != TILE_OK)
        return 0;
    ok = tilehybrid_add_ok(tile__window_planes(p, h), p->deps.dz, &planes) &&
         tilehybrid_mul_ok(p->store.plane_elems, (int64_t)p->cfg.elem_size, &bytes) &&
         tilehybrid_mul_ok(bytes, planes, &bytes) &&
         tilehybrid_add_ok(bytes, tile__table_bytes(p), &bytes);
    for (i = 0; i < p->cfg.n && ok; i++)    /* the face buffers, as tile__face_size */
        ok = tile__face_bytes(p, i, h, &b) && tilehybrid_add_ok(b, 1, &b) &&
             tilehybrid_mul_ok(b, tile__face_buffers(p, i), &b) &&
             tilehybrid_add_ok(bytes, b, &bytes);
    return ok && bytes <= limit;
}

/* The sizes of the storage, every one checked before anything is
 * allocated: the plane, the Z window, a face message per dimension, and
 * their sum against the memory limit. */
TILEHYBRID__COLD int tile__sizes(tile_plan *p, int64_t *ring_bytes)
{
    const tile_config *c = &p->cfg;
    tile_store *s = &p->store;
    int n = c->n, i;
    int64_t h = c->tile_height < p->deps.size[c->n] ? c->tile_height : p->deps.size[c->n]; /* no overflow */
    int64_t planes = 0, pbytes = 0, rest = tile__table_bytes(p);
    char txt[TILE_MAX_DIMS * 24];
    p->ntiles = (p->deps.size[c->n] + h - 1) / h;
    s->ring_planes = tile__window_planes(p, h);   /* <= zlen + h: fits */
    if (tile__layout(p) != TILE_OK)
        return p->status.code;
    s->mirror = p->deps.dz > 1 || (p->deps.dz == 1 && tile__order_traits_of(s->order).mirror);
    if (!tilehybrid_mul_ok(s->plane_elems, (int64_t)c->elem_size, &pbytes))
        return tile__fail(p, TILE_ERR_OVERFLOW, "extent", -1, "a plane of the local block (%s "
                          "points, and its ghost layers) is %lld points of %llu bytes: more "
                          "than 2^63 bytes", tile__sizes_text(txt, sizeof txt, p->len, n),
                          (long long)s->plane_elems, (unsigned long long)c->elem_size);
    if (!tilehybrid_add_ok(s->ring_planes, p->deps.dz, &planes) ||
        !tilehybrid_mul_ok(pbytes, planes, ring_bytes) ||
        (uint64_t)*ring_bytes > (uint64_t)SIZE_MAX - 64)     /* (tile__storage aligns it) */
        *ring_bytes = INT64_MAX;    /* above any limit: tile__check_memory names it */
    s->plane_bytes = (size_t)pbytes;
    for (i = 0; i < n; i++)
        if (tile__face_size(p, i, h, &rest) != TILE_OK)
            return p->status.code;
    return tile__check_memory(p, *ring_bytes, rest);
}

/* The shape of the thread grid: the balanced dimension, the skew S (no
 * allocation: the sizes depend on S). */
TILEHYBRID__COLD void tile__thread_shape(tile_plan *p)
{
    tile_threads *th = &p->threads;
    int i;
    th->bal_dim = -1;
    th->skew = 0;
    for (i = 0; i < p->cfg.n; i++) {
        if (th->dims[i] > 1 && (th->bal_dim < 0 || th->dims[i] > th->dims[th->bal_dim]))
            th->bal_dim = i;
        th->skew += th->dims[i] - 1;
    }
}

/* The thread tables: even split, coordinates, delays, the schedule ring,
 * requests, statistics. */
TILEHYBRID__COLD int tile__thread_tables(tile_plan *p)
{
    tile_threads *th = &p->threads;
    int n = p->cfg.n, T = p->cfg.threads, i, t, w, ta;
    for (i = 0; i < n; i++) {
        int u;
        int64_t first = 0, count = 0;
        th->split[i] = (int64_t *)tile__alloc(p, sizeof(int64_t) * (size_t)(th->dims[i] + 1),
                                              "the thread grid");
        if (th->split[i] == NULL)
            return p->status.code;
        for (u = 0; u < th->dims[i]; u++) {
            bal_split_part(p->len[i], th->dims[i], 1.0, u, &first, &count);
            th->split[i][u + 1] = first + count;
        }
    }
    ta = th->bal_dim < 0 ? 1 : th->dims[th->bal_dim];
    p->run.sched_w = (int)(2 * th->skew + 8);
    th->coord = (int *)tile__alloc(p, sizeof(int) * (size_t)T * (size_t)n, "thread tables");
    th->delay = (int *)tile__alloc(p, sizeof(int) * (size_t)T, "thread tables");
    p->run.nreq = (int *)tile__alloc(p, sizeof(int) * 2 * (size_t)T, "thread tables");
    p->run.req = (MPI_Request *)tile__alloc(p, sizeof(MPI_Request) * (size_t)T * 2 * (size_t)n,
                                            "thread tables");
    p->run.preq = (MPI_Request *)tile__alloc(p, sizeof(MPI_Request) * (size_t)T * 4 * (size_t)n,
                                             "thread tables");
    p->run.stats = (tile_stats *)tile__alloc(p, sizeof(tile_stats) * (size_t)T, "thread tables");
    p->run.slot = (tile__slot *)tile__alloc(p, sizeof(tile__slot) * (size_t)T, "thread tables");
    p->run.seg = (int64_t *)tile__alloc(p, sizeof(int64_t) * (size_t)T * (size_t)n,
                                        "thread tables");
    p->run.next_tile = (int64_t *)tile__alloc(p, sizeof(int64_t) * (size_t)T * 8,
                                              "thread tables");
    p->run.sigma = (int64_t *)tile__alloc(p, sizeof(int64_t) * (size_t)p->run.sched_w,
                                          "the schedule");
    p->run.bounds = (int64_t *)tile__alloc(p, sizeof(int64_t) * (size_t)p->run.sched_w *
                                                  (size_t)(ta + 1), "the schedule");
    for (w = 0; p->run.preq != NULL && w < T * 4 * n; w++)
        p->run.preq[w] = MPI_REQUEST_NULL;      /* (not all bits 0 in every MPI) */
    if (p->status.code != TILE_OK)
        return p->status.code;
    for (w = 0; w < p->run.sched_w && th->bal_dim >= 0; w++)
        memcpy(p->run.bounds + (size_t)w * (size_t)(ta + 1), th->split[th->bal_dim],
               sizeof(int64_t) * (size_t)(ta + 1));
    for (t = 0; t < T; t++) {
        int r = t;
        for (i = n - 1; i >= 0; i--) {
            th->coord[t * n + i] = r % th->dims[i];
            r /= th->dims[i];
            th->delay[t] += th->coord[t * n + i];
        }
    }
    return TILE_OK;
}

/* The Z window (every page touched now: otherwise the thread that runs
 * ahead in the hyperplane schedule takes all the page faults inside the
 * timed run; through a volatile pointer, because compilers turn malloc +
 * memset(0) into calloc, whose zero pages are faulted in only when first
 * written) and the message buffers. */
TILEHYBRID__COLD int tile__storage(tile_plan *p, int64_t ring_bytes)
{
    tile_store *s = &p->store;
    int i;
    s->ring_mem = (unsigned char *)TILEHYBRID_MALLOC((size_t)ring_bytes + 64);
    s->ring = s->ring_mem == NULL ? NULL
              : s->ring_mem + (64 - (uintptr_t)s->ring_mem % 64) % 64;   /* (a line) */
    if (s->ring == NULL)
        return tile__fail(p, TILE_ERR_NOMEM, p->cfg.storage == TILE_STORE_FULL ? "storage"
                          : "tile_height", -1, "out of memory for the Z window (%lld planes, "
                          "%lld bytes); %s", (long long)(s->ring_planes + p->deps.dz),
                          (long long)ring_bytes, tile__memory_advice(p, ""));
    tile__memset_v(s->ring, 0, (size_t)ring_bytes);
    for (i = 0; i < p->cfg.n; i++) {
        size_t b = (size_t)s->face_bytes[i] + 1;
        if (p->nbr_hi[i] != MPI_PROC_NULL &&
            (s->sbuf[i] = (unsigned char *)tile__alloc(p, b, "message buffers")) == NULL)
            return p->status.code;
        if (p->nbr_lo[i] != MPI_PROC_NULL &&
            (s->rbuf[i] = (unsigned char *)tile__alloc(p, b, "message buffers")) == NULL)
            return p->status.code;
    }
    return TILE_OK;
}

/* The cache of one rank's cores (tile_height_window_bytes(): the
 * per-core cache times the threads, with more than one thread at least a
 * quarter of their last-level share); a malformed TILEHYBRID_CACHE_BYTES
 * fails the plan.  The Z-inner order (forced: the plan never chooses it)
 * is bounded by the last-level cache instead (tile_height_llc_bytes(),
 * unless TILEHYBRID_CACHE_BYTES is set): its runs are columns of z
 * points, which the level-2 bound would cut to a point or two (ADI
 * 64x256x16384, one process: 0.044 G points/s at z = 1 against 0.12 at the
 * last-level bound). */
TILEHYBRID__COLD int tile__cache_bytes(tile_plan *p, int64_t *bytes)
{
    if (tile_height_cache_bytes(bytes) != TILE_OK)
        return tile__fail(p, TILE_ERR_RANGE, "TILEHYBRID_CACHE_BYTES", -1,
                          "TILEHYBRID_CACHE_BYTES = '%.40s': not a whole number of bytes "
                          ">= 1", getenv("TILEHYBRID_CACHE_BYTES"));
    (void)tile_height_llc_bytes(&p->height.llc_bytes);
    if (tile__order_traits_of(p->cfg.order).llc && getenv("TILEHYBRID_CACHE_BYTES") == NULL) {
        *bytes = p->height.llc_bytes;
        return TILE_OK;
    }
    *bytes = tile_height_window_bytes(*bytes, p->cfg.threads, p->height.llc_bytes,
                                      getenv("TILEHYBRID_CACHE_BYTES") != NULL);
    return TILE_OK;
}

/* The engine's stand-in for a body when nothing gives t_comp at creation:
 * a recurrence of three reads and a division per point (the demos' kind),
 * swept over 1023 points again and again for 2 ms; the fastest sweep
 * counts (a sweep the OS preempted on a busy machine would inflate a mean:
 * 5x was seen), else the mean when the clock's tick is not well below one
 * sweep.  The
 * first run then times the user's own body. */
TILEHYBRID__COLD double tile__probe_tcomp(void)
{
    double a[1024], best = 0.0, start, t0, t1;
    volatile double sink;
    int64_t reps = 0;
    int i;
    for (i = 0; i < 1024; i++)
        a[i] = (double)(i % 97) / 97.0;
    start = t1 = MPI_Wtime();
    do {
        t0 = t1;
        for (i = 1; i < 1024; i++)
            a[i] = (a[i - 1] + a[i] + a[(i + 512) & 1023]) / 3.0;
        reps++;
        t1 = MPI_Wtime();
        if (t1 > t0 && (best == 0.0 || t1 - t0 < best))
            best = t1 - t0;
    } while (t1 - start < 2e-3 && reps < 100000);
    sink = a[1023];
    (void)sink;
    if (best > 0.0 && MPI_Wtick() * 10.0 < best)
        return best / 1023.0;     /* (the clock times single sweeps) */
    return t1 > start ? (t1 - start) / ((double)reps * 1023.0) : TOPO_DEFAULT_TCOMP;
}

/* Whether a tile step ends with a barrier of the plan's threads: more than
 * one thread, a hybrid model, OpenMP.  Otherwise the model's t_sync is 0,
 * whatever value TILEHYBRID_TSYNC gives (a malformed one is still refused). */
TILEHYBRID__COLD int tile__has_tsync(const tile_plan *p)
{
#ifdef _OPENMP
    return p->cfg.threads > 1 && p->cfg.model != TILE_MODEL_MPI;
#else
    (void)p;
    return 0;
#endif
}

/* The cost of a barrier of the plan's threads, for the model's per-step
 * term: after 8 barriers (the team's start-up), 8 batches of 8, the least
 * batch mean (one preempted thread spoils a batch, not the figure), in a
 * parallel region of cfg.threads threads; 0 with one thread, in the pure
 * MPI model, without OpenMP, or inside a parallel region (a nested one
 * would not have the threads). */
TILEHYBRID__COLD double tile__probe_tsync(const tile_plan *p)
{
    double t = 0.0;
#ifdef _OPENMP
    if (tile__has_tsync(p) && !omp_in_parallel()) {
        _Pragma("omp parallel num_threads(p->cfg.threads)")
        {
            double t0 = 0.0, b;
            int i;
            for (i = 0; i <= 72; i++) {     /* batch ends at 16, 24, ..., 72 */
                if (i % 8 == 0) {
                    _Pragma("omp master")
                    {
                        b = (omp_get_wtime() - t0) / 8.0;
                        if (i >= 16 && (t == 0.0 || b < t))
                            t = b;
                        t0 = omp_get_wtime();
                    }
                }
                if (i < 72) {
                    _Pragma("omp barrier")
                }
            }
        }
    }
#else
    (void)p;
#endif
    return t > 0.0 ? t : 0.0;
}

/* This rank's costs (cfg.balance, else the TILEHYBRID_* environment, else
 * t_comp probed when the model chooses; the papers' cluster otherwise). */
TILEHYBRID__COLD int tile__height_costs(tile_plan *p, int given)
{
    const bal_config *b = &p->cfg.balance;
    tile_height_info *h = &p->height;
    bal_model env;
    int found = 0, rc;
    memset(&env, 0, sizeof env);
    rc = bal_model_from_env(&env, &found);
    if (rc != BAL_OK && !given)
        return tile__fail(p, TILE_ERR_BALANCE, "balance", -1, "the tile height's cost model: "
                          "%s", bal_strerror(rc));
    found = rc == BAL_OK ? found : 0;
    h->tcomp = TOPO_DEFAULT_TCOMP;
    h->tstartup = TOPO_DEFAULT_TSTARTUP;
    h->bandwidth = TOPO_DEFAULT_BANDWIDTH;
    h->tcomp_origin = h->comm_origin = TILE_COST_DEFAULT;
    if (b->tcomp > 0.0 || (found & BAL_HAVE_TCOMP)) {
        h->tcomp = b->tcomp > 0.0 ? b->tcomp : env.tcomp;
        h->tcomp_origin = b->tcomp > 0.0 ? TILE_COST_GIVEN : TILE_COST_ENV;
    } else if (!given) {
        h->tcomp = tile__probe_tcomp();
        h->tcomp_origin = TILE_COST_MEASURED;
    }
    if (b->tstartup > 0.0 || b->bandwidth > 0.0)
        h->comm_origin = TILE_COST_GIVEN;
    else if (found & (BAL_HAVE_TSTARTUP | BAL_HAVE_BANDWIDTH))
        h->comm_origin = TILE_COST_ENV;
    if (b->tstartup > 0.0 || (found & BAL_HAVE_TSTARTUP))
        h->tstartup = b->tstartup > 0.0 ? b->tstartup : env.tstartup;
    if (b->bandwidth > 0.0 || (found & BAL_HAVE_BANDWIDTH))
        h->bandwidth = b->bandwidth > 0.0 ? b->bandwidth : env.bandwidth;
    if (!given) {
        int found = 0;
        if (tile_height_tsync_env(&h->tsync, &found) != TILE_OK)
            return tile__fail(p, TILE_ERR_RANGE, "TILEHYBRID_TSYNC", -1, "TILEHYBRID_TSYNC = "
                              "'%.40s': not a number of seconds in [0, 1e6]",
                              getenv("TILEHYBRID_TSYNC"));
        if (!tile__has_tsync(p))
            h->tsync = 0.0;
        else if (!found)
            h->tsync = tile__probe_tsync(p);
    }
    return tile__cache_bytes(p, &h->cache_bytes);
}

/* Make v[0..n-1] the same on every rank: the largest (hi[i]) or the
 * smallest of each (non-negative doubles and integers compare as their
 * bit patterns).  Collective; errors first (tile__agree). */
TILEHYBRID__COLD int tile__agree_extremes(tile_plan *p, uint64_t *v, const int *hi, int n)
{
    tilehybrid_agreement r;
    int base = 0, i, rc;
    if (tile__agree(p, NULL) != TILE_OK)
        return p->status.code;
    while (base < n) {
        rc = tilehybrid_agree(p->comm, 0, v + base, n - base, NULL, 0, &r);
        if (rc != MPI_SUCCESS) {
            tile__mpi_failed(p, -1, rc, "MPI_Allreduce", "in tilehybrid_agree(), while the "
                             "ranks agreed on the tile height's costs");
            return p->status.code;
        }
        if (r.index < 0)
            break;
        i = base + r.index;
        v[i] = hi[i] ? r.hi : r.lo;
        base = i + 1;
    }
    return TILE_OK;
}

/* The network by a ping-pong (balance.h's, the same fit on every rank),
 * at the faces of a 100-plane tile; too noisy to fit: the defaults stand. */
TILEHYBRID__COLD int tile__height_pingpong(tile_plan *p)
{
    tile_height_info *h = &p->height;
    tilehybrid_status st;
    tilehybrid_fit fit;
    bal_model bm;
    bal_where w;
    int i, rc;
    memset(&w, 0, sizeof w);
    w.n = p->cfg.n;
    w.tile_height = 100;
    w.elem_bytes = (double)p->cfg.elem_size;
    for (i = 0; i < p->cfg.n; i++) {
        w.pdims[i] = p->pdims[i];
        w.extent[i] = p->deps.size[i];
        w.dep[i] = p->deps.d[i];
    }
    rc = bal_calibrate_comm_all_ex(p->comm, bal__policy_face(&w), 3, &fit, &st);
    memset(&bm, 0, sizeof bm);
    bm.elem_bytes = w.elem_bytes;
    if (rc == BAL_OK && bal_model_set_comm(&bm, &fit) == BAL_OK && bm.bandwidth > 0.0) {
        h->tstartup = bm.tstartup;
        h->bandwidth = bm.bandwidth;
        h->comm_origin = TILE_COST_MEASURED;
    } else if (rc == BAL_OK && fit.intercept > 0.0 && fit.intercept < 1.0) {
        /* no positive slope in the noise: the startup alone (no byte cost) */
        h->tstartup = fit.intercept;
        h->bandwidth = 1e12;
        h->comm_origin = TILE_COST_MEASURED;
    } else if (rc == BAL_ERR_MPI) {
        tile__mpi_failed(p, -1, st.mpi_error, st.arg, "in balance.h's "
                         "bal_calibrate_comm_all_ex(), measuring the network for the tile "
                         "height");
    }
    return p->status.code;
}

/* The model of this plan with the costs of plan.height (local). */
TILEHYBRID__COLD int tile__height_model(tile_plan *p, tile_height_model *m)
{
    tile_height_info *h = &p->height;
    int64_t pb = 0;
    int i;
    memset(m, 0, sizeof *m);
    (void)tile__nest(p, &m->nest);   /* (its TILE_GRID_TIME costs: tile__grid's) */
    m->nest.tcomp = h->tcomp;
    m->nest.tstartup = h->tstartup;
    m->nest.bandwidth = h->bandwidth;
    for (i = 0; i < p->cfg.n; i++)
        m->dims[i] = p->pdims[i];
    m->threads = p->cfg.threads;
    m->tsync = h->tsync;
    m->skew = p->threads.skew;
    m->pairs = h->pairs;
    pb = h->plane_bytes;    /* (tile__height: the largest rank's) */
    m->zmax = 1;    /* a plane of 2^63 bytes: one plane a tile */
    if (pb > 0 && pb < INT64_MAX)
        m->zmax = tile_height_zmax(m, pb, p->deps.dz, h->cache_bytes, h->llc_bytes);
    h->zmax = m->zmax < p->deps.size[p->cfg.n] ? m->zmax : p->deps.size[p->cfg.n];
    return TILE_OK;
}

/* The model's height (*z: the given one when @given) and its prediction in
 * plan.height (local). */
TILEHYBRID__COLD int tile__height_choose(tile_plan *p, int given, int64_t *z)
{
    tile_height_info *h = &p->height;
    tile_height_model m;
    tilehybrid_status st;
    int64_t Z = p->deps.size[p->cfg.n];
    double t = 0.0;
    int rc;
    if (tile__height_model(p, &m) != TILE_OK)
        return p->status.code;
    if (given)
        rc = tile_height_time(&m, *z < Z ? *z : Z, &t, NULL, &st);
    else
        rc = tile_height_best(&m, z, &t, &st);
    if (rc == TILE_ERR_BALANCE && !given &&
        (strcmp(st.arg, "tcomp") == 0 || strcmp(st.arg, "tstartup") == 0 ||
         strcmp(st.arg, "bandwidth") == 0 || strcmp(st.arg, "elem_bytes") == 0))
        return tile__cost_overflow(p, &m.nest, st.arg, "tile height");
    if (rc != TILE_OK && !given)
        return tile__fail(p, rc, st.arg, st.index, "the tile height's model: %s (t_comp %g s, "
                          "t_startup %g s, bandwidth %g B/s)", tile_strerror(rc), h->tcomp,
                          h->tstartup, h->bandwidth);
    h->seconds = rc == TILE_OK ? t : 0.0;
    h->efficiency = 0.0;
    if (rc == TILE_OK)
        (void)tile_height_efficiency(&m, t, &h->efficiency);
    return TILE_OK;
}

/* Every rank holds the same chosen height (it is computed from agreed
 * costs; a rank whose arithmetic differed would run other tiles). */
TILEHYBRID__COLD int tile__height_agree(tile_plan *p)
{
    tile__agreed *a = (tile__agreed *)TILEHYBRID_MALLOC(sizeof *a);
    int rc;
    if (a == NULL) {
        tile__fail(p, TILE_ERR_NOMEM, "", -1, "out of memory while agreeing on the tile height");
        return tile__agree(p, NULL);
    }
    a->count = 0;
    tile__agreed_add(a, "tile_height", -1, -1, (uint64_t)p->height.z, 0);
    snprintf(a->name[0], sizeof a->name[0], "tile_height (the model's choice)");
    rc = tile__agree(p, a);
    TILEHYBRID_FREE(a);
    return rc;
}

/* The tile height (before the sizes): cfg.tile_height > 0 as given, with
 * this rank's prediction; 0: the model's, on costs every rank agrees on
 * (the slowest rank's), the network measured when nothing gives it, and
 * the height agreed (tilehybrid_agree) -- collective then. */
TILEHYBRID__COLD int tile__height(tile_plan *p)
{
    static const int hi[11] = { 1, 1, 0, 0, 1, 1, 0, 1, 0, 1, 0 };
    tile_height_info *h = &p->height;
    int given = p->cfg.tile_height > 0;
    uint64_t v[11];
    int64_t z = p->cfg.tile_height;
    memset(h, 0, sizeof *h);
    h->origin = given ? TILE_HEIGHT_GIVEN : TILE_HEIGHT_MODEL;
    if (p->status.code == TILE_OK)
        tile__height_costs(p, given);
    if (p->status.code == TILE_OK && tile__layout(p) == TILE_OK &&
        !tilehybrid_mul_ok(p->store.plane_elems, (int64_t)p->cfg.elem_size, &h->plane_bytes))
        h->plane_bytes = INT64_MAX;
    /* planes in pairs, where two a tile fit the memory (else one, as before) */
    h->pairs = p->status.code == TILE_OK &&
               tile_plane_pairs(p->store.order, p->deps.skewed, p->cfg.n) &&
               tile__height_fits(p, 2);
    if (!given) {
        v[0] = tilehybrid_bits(h->tcomp);
        v[1] = tilehybrid_bits(h->tstartup);
        v[2] = tilehybrid_bits(h->bandwidth);
        v[3] = (uint64_t)h->cache_bytes;
        v[4] = h->comm_origin == TILE_COST_DEFAULT && p->size > 1;
        v[5] = v[6] = h->tcomp_origin == TILE_COST_MEASURED; /* timed later: on all or none */
        v[7] = tilehybrid_bits(h->tsync);
        v[8] = (uint64_t)h->llc_bytes;
        v[9] = (uint64_t)h->plane_bytes;    /* blocks differ: the largest plane's bound */
        v[10] = (uint64_t)h->pairs;         /* pairs only where every rank has the room */
        if (tile__agree_extremes(p, v, hi, 11) != TILE_OK)
            return p->status.code;
        if (v[5] != v[6]) /* the same verdict on every rank */
            return tile__fail(p, TILE_ERR_MISMATCH, "balance", -1, "TILEHYBRID_TCOMP is set on "
                              "some ranks only (and cfg.balance.tcomp is 0): t_comp would be "
                              "timed by some ranks only; set it on every rank or on none");
        h->tcomp = tilehybrid_from_bits(v[0]);
        h->tstartup = tilehybrid_from_bits(v[1]);
        h->bandwidth = tilehybrid_from_bits(v[2]);
        h->cache_bytes = (int64_t)v[3];
        h->tsync = tilehybrid_from_bits(v[7]);
        h->llc_bytes = (int64_t)v[8];
        h->plane_bytes = (int64_t)v[9];
        h->pairs = (int)v[10];
        if (v[4] && tile__height_pingpong(p) != TILE_OK)
            return p->status.code;
    }
    if (p->status.code == TILE_OK && tile__height_choose(p, given, &z) == TILE_OK)
        p->cfg.tile_height = z;
    h->z = h->next = p->cfg.tile_height;
    return given ? p->status.code : tile__height_agree(p);
}

/* After the first completed run of a plan whose model took t_comp from the
 * stand-in probe: the body's own t_comp (the slowest thread of the slowest
 * rank: computing time per point), and the height the next run will use
 * (plan.height.next).  Collective; the condition is the same on every
 * rank. */
TILEHYBRID__COLD void tile__height_timed(tile_plan *p)
{
    static const int hi[1] = { 1 };
    tile_height_info *h = &p->height;
    uint64_t v[1];
    double t = 0.0;
    int64_t z = 0;
    int k;
    if (h->origin != TILE_HEIGHT_MODEL || h->tcomp_origin != TILE_COST_MEASURED || h->timed ||
        !p->run.completed)
        return;
    for (k = 0; k < p->cfg.threads; k++)
        if (p->run.stats[k].points > 0 &&
            p->run.stats[k].compute / (double)p->run.stats[k].points > t)
            t = p->run.stats[k].compute / (double)p->run.stats[k].points;
    v[0] = tilehybrid_bits(t > 0.0 ? t : h->tcomp);
    if (tile__agree_extremes(p, v, hi, 1) != TILE_OK)
        return;
    h->timed = 1;
    h->tcomp = tilehybrid_from_bits(v[0]);
    h->tcomp_origin = TILE_COST_BODY;
    if (tile__height_choose(p, 0, &z) == TILE_OK)
        h->next = z;
    /* the prediction of the run that was timed, at its own height */
    z = h->z;
    (void)tile__height_choose(p, 1, &z);
    (void)tile__agree(p, NULL);
}

/* Before a run: the height plan.height.next, when the first run chose
 * another one (the Z window, the messages and the tile count re-sized;
 * not while an output or input hook of any rank holds buffers sized for
 * one tile: hooks are local, the decision is agreed).  Collective when
 * next != z (the same on every rank: tile__height_timed).  A failure
 * leaves the plan unusable (every later run fails with it). */
TILEHYBRID__COLD void tile__height_apply(tile_plan *p)
{
    static const int hi[1] = { 1 };
    tile_height_info *h = &p->height;
    int64_t ring_bytes = 0;
    uint64_t v[1];
    int i;
    if (h->next == h->z)
        return;
    v[0] = (uint64_t)(tile__io_hooked(p) || p->run.active);
    if (tile__agree_extremes(p, v, hi, 1) != TILE_OK)
        return;     /* an error of some rank, now every rank's: the run does not start */
    if (v[0] != 0) {
        h->next = h->z;
        return;
    }
    tile__messages_free(p);     /* the requests are bound to the buffers */
    TILEHYBRID_FREE(p->run.part);
    p->run.part = NULL;
    TILEHYBRID_FREE(p->store.ring_mem);
    p->store.ring = p->store.ring_mem = NULL;
    for (i = 0; i < TILE_MAX_DIMS; i++) {
        TILEHYBRID_FREE(p->store.sbuf[i]);
        TILEHYBRID_FREE(p->store.rbuf[i]);
        p->store.sbuf[i] = p->store.rbuf[i] = NULL;
    }
    p->cfg.tile_height = h->z = h->next;
    p->run.bal.where.tile_height = h->z < p->deps.size[p->cfg.n] ? h->z
                                   : p->deps.size[p->cfg.n];
    p->run.completed = 0;
    if (tile__sizes(p, &ring_bytes) == TILE_OK && tile__storage(p, ring_bytes) == TILE_OK)
        tile__messages_setup(p);
    if (p->status.code != TILE_OK)
        p->run.created = 0;
}

/* The funneled model's balancing policy (balance.h): bound to this process,
 * its cost model completed (collective). */
TILEHYBRID__COLD int tile__balancing(tile_plan *p)
{
    const tile_config *c = &p->cfg;
    tilehybrid_status bst;
    bal_where w;
    int i, rc;
    memset(&w, 0, sizeof w);
    tilehybrid_status_set(&bst, BAL_OK, "", -1);
    w.n = c->n;
    w.rank = p->rank;
    w.procs = p->size;
    w.threads = c->threads;
    w.tile_height = c->tile_height < p->deps.size[c->n] ? c->tile_height : p->deps.size[c->n];
    w.elem_bytes = (double)c->elem_size;
    for (i = 0; i < c->n; i++) {
        w.pdims[i] = p->pdims[i];
        w.pcoords[i] = p->pcoords[i];
        w.extent[i] = p->deps.size[i];
        w.dep[i] = p->deps.d[i];
    }
    p->run.balancing = c->model == TILE_MODEL_FUNNELED && c->threads > 1;
    rc = bal_policy_init(&p->run.bal, &c->balance, &w);
    if (rc == BAL_OK && p->run.balancing)
        rc = bal_policy_setup_ex(&p->run.bal, p->comm, &bst);
    /* the same code on every rank; the rank that found it tells why (the
     * agreement that follows carries its message to the others) */
    if (rc == BAL_OK || (bst.rank >= 0 && bst.rank != p->rank))
        return TILE_OK;
    if (rc == BAL_ERR_MISMATCH)
        return tile__fail(p, TILE_ERR_MISMATCH, "balance", -1, "%s is set on some ranks only: "
                          "the network would be measured by some ranks only", bst.arg);
    if (rc == BAL_ERR_MPI) {
        tile__mpi_failed(p, -1, bst.mpi_error, bst.arg, "in balance.h's "
                         "bal_policy_setup_ex(), setting up the balancing cost model "
                         "(the network's ping-pong)");
        return p->status.code;
    }
    return tile__fail(p, TILE_ERR_BALANCE, "balance", -1, "%s", bal_strerror(rc));
}
#else
TILEHYBRID__COLD int tile__validate_space(tile_plan *p, const tile_config *c);
TILEHYBRID__COLD const char *tile__vec(char *buf, size_t size, const int *v, int n);
TILEHYBRID__COLD int tile__loop_order(tile_plan *p, const tile_config *c, int *lo);
TILEHYBRID__COLD int tile__check_vector(tile_plan *p, const tile_config *c, const int *lo, int k,
                                        int *later);
TILEHYBRID__COLD int tile__skew_apply(tile_plan *p, int ns, int64_t dd[][TILE_MAX_DIMS + 1],
                                      int64_t len, const int64_t *f, int64_t *sz, int pp);
TILEHYBRID__COLD void tile__skew_choose(int ns, int64_t dd[][TILE_MAX_DIMS + 1], const int64_t *sz,
                                        int pp, int64_t dmax, int64_t *f);
TILEHYBRID__COLD int tile__skew(tile_plan *p, int ns, int64_t dd[][TILE_MAX_DIMS + 1],
                                const int64_t *len, int64_t f[][TILE_MAX_DIMS + 1], int64_t *sz);
TILEHYBRID__COLD int tile__fma_ok(int64_t *acc, int64_t a, int64_t b);
TILEHYBRID__COLD int tile__map(tile_plan *p, const int *lo, int64_t f[][TILE_MAX_DIMS + 1],
                               const int *kp);
TILEHYBRID__COLD int tile__widths(tile_plan *p, const tile_config *c);
TILEHYBRID__COLD void tile__internal_order(const tile_plan *p, const int *lo, const int64_t *sz,
                                           int *kp);
TILEHYBRID__COLD int tile__check_shorthand(tile_plan *p, const tile_config *c);
TILEHYBRID__COLD int tile__validate_deps(tile_plan *p, const tile_config *c);
TILEHYBRID__COLD int tile_config_deps(const tile_config *cfg, tile_deps *deps, char *msg,
                                      size_t size);
TILEHYBRID__COLD int tile__validate_run(tile_plan *p, const tile_config *c);
TILEHYBRID__COLD const char *tile__level_name(int level);
TILEHYBRID__COLD int tile__check_level(tile_plan *p);
TILEHYBRID__COLD int tile__check_all(tile_plan *p);
TILEHYBRID__COLD int tile__nest(const tile_plan *p, topo_nest *nest);
TILEHYBRID__COLD const char *tile__dim_word(const tile_plan *p);
TILEHYBRID__COLD int tile__too_wide(tile_plan *p, int i, int procs);
TILEHYBRID__COLD int tile__no_grid(tile_plan *p, const topo_nest *nest, int rc);
TILEHYBRID__COLD int tile__cost_overflow(tile_plan *p, const topo_nest *nest, const char *arg,
                                         const char *what);
TILEHYBRID__COLD int tile__grid_fixed(tile_plan *p);
TILEHYBRID__COLD int tile__grid_refused(tile_plan *p, const topo_nest *nest, int rc, int env,
                                        const tilehybrid_status *st);
TILEHYBRID__COLD int tile__grid_place(tile_plan *p);
TILEHYBRID__COLD int tile__grid(tile_plan *p);
TILEHYBRID__COLD int tile__thread_grid(tile_plan *p);
TILEHYBRID__COLD int tile__mem_limit(tile_plan *p, int64_t *limit, const char **why);
TILEHYBRID__COLD const char *tile__memory_advice(const tile_plan *p, const char *why);
TILEHYBRID__COLD int tile__check_memory(tile_plan *p, int64_t ring_bytes, int64_t rest);
TILEHYBRID__COLD int tile__face_bytes(const tile_plan *p, int i, int64_t h, int64_t *b);
TILEHYBRID__COLD int64_t tile__face_buffers(const tile_plan *p, int i);
TILEHYBRID__COLD int tile__face_size(tile_plan *p, int i, int64_t h, int64_t *bufs);
TILEHYBRID__COLD int tile_plane_layout(int n, const int64_t *size, const int *pdims,
                                       const int *tdims, const int64_t *len, const int *dep,
                                       size_t elem_size, int order, tile_store *s);
TILEHYBRID__COLD int tile__layout(tile_plan *p);
TILEHYBRID__COLD int64_t tile__window_planes(const tile_plan *p, int64_t h);
TILEHYBRID__COLD int64_t tile__table_bytes(const tile_plan *p);
TILEHYBRID__COLD int tile__height_fits(tile_plan *p, int64_t h);
TILEHYBRID__COLD int tile__sizes(tile_plan *p, int64_t *ring_bytes);
TILEHYBRID__COLD void tile__thread_shape(tile_plan *p);
TILEHYBRID__COLD int tile__thread_tables(tile_plan *p);
TILEHYBRID__COLD int tile__storage(tile_plan *p, int64_t ring_bytes);
TILEHYBRID__COLD int tile__cache_bytes(tile_plan *p, int64_t *bytes);
TILEHYBRID__COLD double tile__probe_tcomp(void);
TILEHYBRID__COLD int tile__has_tsync(const tile_plan *p);
TILEHYBRID__COLD double tile__probe_tsync(const tile_plan *p);
TILEHYBRID__COLD int tile__height_costs(tile_plan *p, int given);
TILEHYBRID__COLD int tile__agree_extremes(tile_plan *p, uint64_t *v, const int *hi, int n);
TILEHYBRID__COLD int tile__height_pingpong(tile_plan *p);
TILEHYBRID__COLD int tile__height_model(tile_plan *p, tile_height_model *m);
TILEHYBRID__COLD int tile__height_choose(tile_plan *p, int given, int64_t *z);
TILEHYBRID__COLD int tile__height_agree(tile_plan *p);
TILEHYBRID__COLD int tile__height(tile_plan *p);
TILEHYBRID__COLD void tile__height_timed(tile_plan *p);
TILEHYBRID__COLD void tile__height_apply(tile_plan *p);
TILEHYBRID__COLD int tile__balancing(tile_plan *p);
#endif

/* ==== src/tiling/65-plan.h ==== */
#line 1 "src/tiling/65-plan.h"
/* ------------------------------------------------------------------------ */
/* The plan: its tables, tile_plan_create, tile_plan_destroy                */

#if TILEHYBRID__DEFINE
/* The offsets the body may read, for TILE_AT's test (tile__at_ok): the
 * stencil's vectors (or, with the shorthand, the axis-aligned offsets
 * within the widths) and the point itself: their codes sorted, each once,
 * the rest of deps.at_code UINT64_MAX (no code is: a far one has bit 63
 * and a 0 field), and the bit of each in at_mask's columns of its
 * offsets.  More than TILE__AT_CODES of them (widths that add up to 64 or
 * more): at_all, every offset passes. */
TILEHYBRID__COLD void tile__at_table(tile_plan *p)
{
    uint64_t *a = p->deps.at_code;
    int n = p->cfg.n, i, k, u, m = 0;
    for (i = 0; i < TILE__AT_CODES; i++)
        a[i] = UINT64_MAX;
    memset(p->deps.at_mask, 0, sizeof p->deps.at_mask);
    p->deps.at_far = p->deps.at_all = 0;
    for (k = -1; k < (p->cfg.nstencil > 0 ? p->cfg.nstencil : n + 1); k++) {
        int reach = k < 0 || p->cfg.nstencil > 0 ? 1 : k < n ? p->deps.d[k] : p->deps.dz;
        for (u = 1; u <= reach; u++) {
            int64_t o[TILE_MAX_DIMS + 1];
            uint64_t c = 0;
            int j;
            for (i = 0; i <= n; i++) {
                o[i] = k < 0                   ? 0
                       : p->cfg.nstencil > 0  ? p->cfg.stencil[k][i]
                       : i == k               ? -(int64_t)u * p->deps.dir[i]
                                              : 0;
                c |= tile__at_pk(o[i], i);
            }
            if (c >> 63) {
                p->deps.at_far = 1;
                continue;
            }
            for (j = 0; j < m && a[j] < c; j++)     /* insert in order, once */
                ;
            if (j < m && a[j] == c)
                continue;
            if (m == TILE__AT_CODES) {
                p->deps.at_all = 1;
                return;
            }
            memmove(a + j + 1, a + j, (size_t)(m - j) * sizeof *a);
            a[j] = c;
            for (i = 0; i <= n; i++)
                p->deps.at_mask[i][tile__at_ix(o[i])] |= (uint64_t)1 << m;
            m++;
        }
    }
}

/* Everything after the agreement on the configuration. */
TILEHYBRID__COLD int tile__setup(tile_plan *p)
{
    int64_t ring_bytes = 0;
    /* every size is computed and checked before anything is allocated */
    if (tile__grid(p) == TILE_OK && tile__thread_grid(p) == TILE_OK)
        tile__thread_shape(p);
    tile__height(p);        /* collective when the model chooses */
    if (p->status.code == TILE_OK && tile__sizes(p, &ring_bytes) == TILE_OK &&
        tile__thread_tables(p) == TILE_OK)
        tile__storage(p, ring_bytes);
    tile__at_table(p);
    if (tile__agree(p, NULL) != TILE_OK)    /* memory may differ */
        return p->status.code;
    tile__balancing(p);
    if (p->status.code == TILE_OK)
        tile__messages_setup(p);
    return tile__agree(p, NULL);
}
#else
TILEHYBRID__COLD void tile__at_table(tile_plan *p);
TILEHYBRID__COLD int tile__setup(tile_plan *p);
#endif

TILEHYBRID__COLD void tile_plan_destroy(tile_plan *plan);

/* Floating-point contraction.  A compiler may contract a * b + c into one
 * fused multiply-add (one rounding instead of two): GCC does in its GNU
 * modes (-std=gnu99, the default: -ffp-contract=fast) wherever the target
 * has the instruction (-march=native, -mfma), and across statements once
 * it has inlined; clang under -ffp-contract=fast (its default, =on, gives
 * way to the headers' #pragma STDC FP_CONTRACT OFF).  The
 * body's results then may differ in the last bits from a loop compiled
 * with other flags, or even with the same flags, where the compiler
 * contracts another way (a vectorised body, a scalar loop).  The probe
 * runs in the caller's file (the macro tile_plan_create() below), with its
 * flags: (1 + 2^-30)(1 - 2^-30) - 1 is -2^-60 exactly, 0 rounded twice. */
#define TILE__FP_CONTRACTS 1
#define TILE__FP_STRICT 2
#ifdef TILE_STRICT
#define TILE__FP_STRICT_ON TILE__FP_STRICT
#else
#define TILE__FP_STRICT_ON 0
#endif

/**
 * tile_fp_contracts() - does the file that calls it contract a * b + c
 * into a fused multiply-add (with its compiler and flags)?
 * Return: 1 if it does, 0 if the product is rounded before the sum.
 */
static inline int tile_fp_contracts(void)
{
    volatile double a = 1.0 + 1.0 / 1073741824.0, b = 1.0 - 1.0 / 1073741824.0, c = -1.0;
    double x = a, y = b, z = c;
    return x * y + z != 0.0;
}

#define TILE__FP_TEXT                                                              \
    "this file contracts a * b + c into fused multiply-adds (-ffp-contract=fast, "   \
    "GCC's default in GNU modes, with FMA in -march), so the body's results may "   \
    "differ in the last bits from a loop built otherwise: build with "              \
    "-ffp-contract=off"

/* The warning on rank 0 of a plan whose caller's file contracts (once per
 * process). */
TILEHYBRID__COLD void tile__fp_warn(void);

#if TILEHYBRID__DEFINE
TILEHYBRID__COLD void tile__fp_warn(void)
{
    static int said;
    if (said)
        return;
    said = 1;
    fprintf(stderr, "tiling.h: rank 0: warning: %s (or define TILE_STRICT to have the plan "
            "refused)\n", TILE__FP_TEXT);
}
#endif

#if TILEHYBRID__DEFINE
/* How many of the plan's ranks share this node's memory (run.node_ranks):
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), collective, made by every
 * rank at the start of the creation (before any rank can fail). */
TILEHYBRID__COLD void tile__node_ranks(tile_plan *p)
{
    MPI_Comm node = MPI_COMM_NULL;
    const char *call = "MPI_Comm_split_type";
    int rc = MPI_Comm_split_type(p->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    p->run.node_ranks = 1;
    if (rc == MPI_SUCCESS && (rc = MPI_Comm_size(node, &p->run.node_ranks)) != MPI_SUCCESS)
        call = "MPI_Comm_size";
    if (rc == MPI_SUCCESS && (rc = MPI_Comm_free(&node)) != MPI_SUCCESS)
        call = "MPI_Comm_free";
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, -1, rc, call, "in tile_plan_create(), counting the ranks on this "
                         "node (the default memory limit)");
}

/* The plan's own communicator: a duplicate of comm that returns errors.  A
 * failed call goes through tile__mpi_failed() (the others wait in the
 * collective MPI_Comm_dup): on comm itself when the duplicate failed. */
TILEHYBRID__COLD int tile__dup(tile_plan *plan, MPI_Comm comm)
{
    const char *call = "MPI_Comm_dup";
    int rc;
    (void)MPI_Comm_rank(comm, &plan->rank);     /* for the message */
    rc = MPI_Comm_dup(comm, &plan->comm);
    if (rc != MPI_SUCCESS) {
        plan->comm = comm;      /* abort (revoke) comm: no duplicate to abort */
        tile__mpi_failed(plan, -1, rc, call, "in tile_plan_create(), duplicating comm");
        plan->comm = MPI_COMM_NULL;
        return plan->status.code;
    }
    if ((rc = MPI_Comm_set_errhandler(plan->comm, MPI_ERRORS_RETURN)) != MPI_SUCCESS)
        call = "MPI_Comm_set_errhandler";
    else if ((rc = MPI_Comm_size(plan->comm, &plan->size)) != MPI_SUCCESS)
        call = "MPI_Comm_size";
    else if ((rc = MPI_Comm_rank(plan->comm, &plan->rank)) != MPI_SUCCESS)
        call = "MPI_Comm_rank";
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(plan, -1, rc, call, "in tile_plan_create(), on the duplicate of comm");
    else
        tile__node_ranks(plan);
    return plan->status.code;
}

/* tile_plan_create() on a plan that exists; @why_null names a NULL
 * argument of the caller's (this rank then fails, but still takes part in
 * every collective, so the other ranks do not wait for it). */
TILEHYBRID__COLD int tile__create(tile_plan *plan, MPI_Comm comm, const tile_config *cfg,
                                  const char *why_null, int fp)
{
    memset(plan, 0, sizeof *plan);
    plan->comm = MPI_COMM_NULL;
    tilehybrid_status_set(&plan->status, TILE_OK, "", -1);
    if (cfg != NULL)
        plan->cfg = *cfg;
    else
        tile_config_init(&plan->cfg, 1);
    if (comm == MPI_COMM_NULL)
        return tile__fail(plan, TILE_ERR_NULL, "comm", -1, "comm is MPI_COMM_NULL");
    if (tile__dup(plan, comm) != TILE_OK)
        return plan->status.code;
    if (why_null != NULL)
        tile__fail(plan, TILE_ERR_NULL, why_null, -1, "%s is NULL", why_null);
    else if (fp == (TILE__FP_CONTRACTS | TILE__FP_STRICT))
        tile__fail(plan, TILE_ERR_ARG, "TILE_STRICT", -1, "refused under TILE_STRICT: %s",
                   TILE__FP_TEXT);
    if (tile__check_all(plan) != TILE_OK)
        return plan->status.code;
    plan->run.created = tile__setup(plan) == TILE_OK;
    if (plan->run.created && fp == TILE__FP_CONTRACTS && plan->rank == 0)
        tile__fp_warn();
    return plan->status.code;
}

/**
 * tile_plan_create() - set up a process's share of a tiled computation.
 * @plan: the plan to fill (destroy it with tile_plan_destroy, also on error).
 * @comm: the processes that take part (duplicated; not modified).
 * @cfg:  what to compute (see tile_config); every rank must pass the same.
 *
 * Collective over comm.  Checks the arguments and that every rank passed
 * the same, chooses the process grid (cfg.grid entries that are 0 with
 * cfg.grid_policy, through topology.h) and the thread grid, checks MPI's
 * thread support for cfg.model, computes every size and refuses what cannot
 * work before allocating the local block with its ghost layers and the Z
 * window, and sets up the funneled model's balancing (balance.h; a
 * ping-pong when the network must be measured).
 *
 * A NULL @plan or @cfg on one rank is TILE_ERR_NULL on every rank (that
 * rank still takes part in the collectives; with a NULL @plan, the other
 * ranks' message names it and this rank only gets the code).
 *
 * Return: TILE_OK, or an error code, the same on every rank, with a message
 * naming the argument (and the rank that found it) in plan->errmsg.
 */
TILEHYBRID__COLD int tile__plan_create_fp(tile_plan *plan, MPI_Comm comm, const tile_config *cfg,
                                          int fp, const void *abi);
TILEHYBRID__COLD int tile_plan_create(tile_plan *plan, MPI_Comm comm, const tile_config *cfg)
{
    return tile__plan_create_fp(plan, comm, cfg, 0, NULL);
}

/* tile_plan_create() with what the caller's file does to a * b + c (fp:
 * TILE__FP_CONTRACTS, TILE__FP_STRICT; the macro tile_plan_create()), and
 * under TILEHYBRID_SEPARATE the address of the caller's TILE__ABI, which
 * only makes the linker check that it exists. */
TILEHYBRID__COLD int tile__plan_create_fp(tile_plan *plan, MPI_Comm comm, const tile_config *cfg,
                                          int fp, const void *abi)
{
    (void)abi;
    if (plan == NULL) {
        /* a plan of our own for the collectives; the caller has none */
        tile_plan *own = (tile_plan *)TILEHYBRID_MALLOC(sizeof *own);
        if (own != NULL) {
            tile__create(own, comm, cfg, "plan", fp);
            tile_plan_destroy(own);
            TILEHYBRID_FREE(own);
        }
        return TILE_ERR_NULL;
    }
    return tile__create(plan, comm, cfg, cfg == NULL ? "cfg" : NULL, fp);
}

/** tile_plan_destroy() - free everything a plan holds (safe on a failed or
 *  zeroed plan).  On a plan whose run a `return` left unfinished with more
 *  than one process, it ends the job first (see "The body"). */
TILEHYBRID__COLD void tile_plan_destroy(tile_plan *plan)
{
    int i;
    if (plan == NULL)
        return;
    if (plan->run.active && plan->comm != MPI_COMM_NULL && plan->comm != 0)
        tile__left_body(plan);      /* a run left unfinished: ends the job at > 1 process */
    tile__messages_free(plan);      /* before the buffers and the communicator */
    for (i = 0; i < TILE_MAX_DIMS; i++) {
        TILEHYBRID_FREE(plan->threads.split[i]);
        TILEHYBRID_FREE(plan->store.sbuf[i]);
        TILEHYBRID_FREE(plan->store.rbuf[i]);
        plan->threads.split[i] = NULL;
        plan->store.sbuf[i] = plan->store.rbuf[i] = NULL;
    }
    TILEHYBRID_FREE(plan->threads.coord);
    TILEHYBRID_FREE(plan->threads.delay);
    TILEHYBRID_FREE(plan->store.ring_mem);
    TILEHYBRID_FREE(plan->run.seg);
    TILEHYBRID_FREE(plan->run.req);
    TILEHYBRID_FREE(plan->run.nreq);
    TILEHYBRID_FREE(plan->run.preq);
    TILEHYBRID_FREE(plan->run.part);
    plan->run.preq = NULL;
    plan->run.part = NULL;
    TILEHYBRID_FREE(plan->run.stats);
    for (i = 0; plan->run.slot != NULL && i < plan->cfg.threads; i++)
        TILEHYBRID_FREE(plan->run.slot[i].scratch);
    TILEHYBRID_FREE(plan->run.slot);
    TILEHYBRID_FREE(plan->run.next_tile);
    TILEHYBRID_FREE(plan->run.sigma);
    TILEHYBRID_FREE(plan->run.bounds);
    tile__io_free(plan);
    plan->threads.coord = plan->threads.delay = plan->run.nreq = NULL;
    plan->store.ring = plan->store.ring_mem = NULL;
    plan->run.seg = plan->run.next_tile = plan->run.sigma = plan->run.bounds = NULL;
    plan->run.req = NULL;
    plan->run.stats = NULL;
    if (plan->comm != MPI_COMM_NULL && plan->comm != 0)
        (void)MPI_Comm_free(&plan->comm);   /* nothing to report from a destructor */
    plan->comm = MPI_COMM_NULL;
}
#else
TILEHYBRID__COLD void tile__node_ranks(tile_plan *p);
TILEHYBRID__COLD int tile__dup(tile_plan *plan, MPI_Comm comm);
TILEHYBRID__COLD int tile__create(tile_plan *plan, MPI_Comm comm, const tile_config *cfg,
                                  const char *why_null, int fp);
TILEHYBRID__COLD int tile_plan_create(tile_plan *plan, MPI_Comm comm, const tile_config *cfg);
TILEHYBRID__COLD int tile__plan_create_fp(tile_plan *plan, MPI_Comm comm, const tile_config *cfg,
                                          int fp, const void *abi);
TILEHYBRID__COLD void tile_plan_destroy(tile_plan *plan);
#endif

/* ==== src/tiling/70-data.h ==== */
#line 1 "src/tiling/70-data.h"
/* ------------------------------------------------------------------------ */
/* Collective data calls: one verdict on every rank                         */

#if TILEHYBRID__DEFINE
/* A collective of data call @fn returned rc: a failure is handled as the
 * engine's ("MPI failures": reported, the communicator aborted); under ULFM
 * it returns, and plan->status keeps the last run's state.  Returns rc. */
TILEHYBRID__COLD int tile__data_mpi(tile_plan *p, int rc, const char *call, const char *fn)
{
    tilehybrid_status keep = p->status;
    char msg[sizeof p->errmsg];
    if (rc == MPI_SUCCESS)
        return rc;
    memcpy(msg, p->errmsg, sizeof msg);
    p->status.code = TILE_OK;
    tile__mpi_failed(p, -1, rc, call, "in %s()", fn);
    p->status = keep;
    memcpy(p->errmsg, msg, sizeof msg);
    return rc;
}

/* The end of a collective data call's checks: every rank gets the same
 * code and message (the lowest failing rank's, "rank R: " in front when
 * there are several ranks; or the first argument of v[] that differs
 * between ranks) in plan->errmsg, and st names the argument (the failing
 * rank's argn[argi], carried by tilehybrid_agree_status()).  plan->status, the state of the
 * creation and the last run, is not touched: a refused data call does not
 * stop the plan from running again.  Collective. */
TILEHYBRID__COLD int tile__data_agree(tile_plan *p, int code, int argi, const char *msg,
                                      const uint64_t *v, int nv, const char *const *argn,
                                      tilehybrid_status *st)
{
    tilehybrid_agreement a;
    tilehybrid_verdict w;
    tilehybrid_status mine;
    int rc, i;
    snprintf(w.text, sizeof w.text, "%s", msg);
    tilehybrid_status_set(&mine, code, argi >= 0 ? argn[argi] : "", -1);
    rc = tilehybrid_agree_status(p->comm, code, &mine, v, nv, &w, &a);
    if (rc != MPI_SUCCESS) {
        tile__data_mpi(p, rc, a.call, argn[0]);
        snprintf(p->errmsg, sizeof p->errmsg, "an MPI call failed while agreeing across ranks");
        return tilehybrid_status_set(st, TILE_ERR_MPI, "", -1);
    }
    if (a.code != 0) {
        if (p->size > 1)
            snprintf(p->errmsg, sizeof p->errmsg, "rank %d: %.300s", a.rank, w.text);
        else
            snprintf(p->errmsg, sizeof p->errmsg, "%s", w.text);
        /* w.arg is argn[argi] of the failing rank's call of this same
         * function (the same static argn on every rank), or "" */
        for (i = 0; w.arg[0] != '\0' && strcmp(argn[i], w.arg) != 0; i++)
            ;
        return tilehybrid_verdict_status(st, &a, &w, w.arg[0] != '\0' ? argn[i] : "");
    }
    if (a.index >= 0) {
        snprintf(p->errmsg, sizeof p->errmsg, "%.40s: argument '%s' differs between ranks "
                 "(%lld vs %lld)", argn[0], argn[a.index + 1], (long long)(int64_t)a.lo,
                 (long long)(int64_t)a.hi);
        return tilehybrid_status_set(st, TILE_ERR_MISMATCH, argn[a.index + 1], a.index);
    }
    if (p->status.code == TILE_OK)  /* an earlier refusal's message is stale now */
        p->errmsg[0] = '\0';
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}

/* Free n datatypes (those that are not MPI_DATATYPE_NULL) and the array. */
TILEHYBRID__COLD void tile__free_types(MPI_Datatype *t, int n)
{
    int i;
    for (i = 0; t != NULL && i < n; i++)
        if (t[i] != MPI_DATATYPE_NULL)
            (void)MPI_Type_free(&t[i]);
    TILEHYBRID_FREE(t);
}

/* The subarray type of box `part` inside an array over box `whole` (both
 * with lengths <= INT_MAX), elements of type elem; MPI_DATATYPE_NULL when
 * part is empty.  Returns an MPI code. */
TILEHYBRID__COLD int tile__subarray(const tile_box *whole, const tile_box *part, MPI_Datatype elem,
                                    MPI_Datatype *t)
{
    int sizes[TILE_MAX_DIMS + 1], sub[TILE_MAX_DIMS + 1], start[TILE_MAX_DIMS + 1], i, rc;
    *t = MPI_DATATYPE_NULL;
    if (tile_box_points(part) == 0)
        return MPI_SUCCESS;
    for (i = 0; i < whole->ndims; i++) {
        sizes[i] = (int)whole->len[i];
        sub[i] = (int)part->len[i];
        start[i] = (int)(part->lo[i] - whole->lo[i]);
    }
    rc = MPI_Type_create_subarray(whole->ndims, sizes, sub, start, MPI_ORDER_C, elem, t);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(t);
    return rc;
}

/* The arguments of tile_gather, checked on this rank: 0 or a code, with
 * the message in msg and the argument's index into its names in *argi. */
TILEHYBRID__COLD int tile__gather_check(const tile_plan *p, int64_t z0, int64_t zlen, int root,
                                        const void *out, char *msg, size_t len, int *argi)
{
    int64_t s0 = 0, sl = 0, pts = zlen;
    int i, recv = root == TILE_ROOT_ALL || root == p->rank;
    if (p->deps.skewed)
        return *argi = 5, snprintf(msg, len, "tile_gather: the plan skews its stencil, so a "
                                   "block is not a box of the user's space; read the result "
                                   "point by point with tile_get() (every point under "
                                   "TILE_STORE_FULL, else the last planes the loop computed)"),
               TILE_ERR_SKEWED;
    if (root < TILE_ROOT_ALL || root >= p->size)
        return *argi = 3, snprintf(msg, len, "tile_gather: root = %d is not a rank of the plan's "
                                   "communicator (0..%d) nor TILE_ROOT_ALL", root, p->size - 1),
               TILE_ERR_RANGE;
    if (z0 < 0 || zlen < 0 || z0 > p->cfg.zlen || zlen > p->cfg.zlen - z0)
        return *argi = 2, snprintf(msg, len, "tile_gather: the Z range z0 = %lld, zlen = %lld "
                                   "is not inside the space [0, %lld)", (long long)z0,
                                   (long long)zlen, (long long)p->cfg.zlen), TILE_ERR_RANGE;
    if (tile_stored_zrange(p, &s0, &sl) != TILE_OK)
        return *argi = 5, snprintf(msg, len, "tile_gather: the plan has no result: it has not "
                                   "run yet, or its last run failed"), TILE_ERR_NOT_STORED;
    if (zlen > 0 && (z0 < s0 || z0 + zlen > s0 + sl))
        return *argi = 2, snprintf(msg, len, "tile_gather: planes z = %lld..%lld are not stored:"
                                   " the Z window keeps z = %lld..%lld after a run; use "
                                   "TILE_STORE_FULL, or tile_output_set() to receive every "
                                   "tile during the run", (long long)z0,
                                   (long long)(z0 + zlen - 1), (long long)s0,
                                   (long long)(s0 + sl - 1)), TILE_ERR_NOT_STORED;
    if (recv && out == NULL && zlen > 0)
        return *argi = 4, snprintf(msg, len, "tile_gather: out is NULL on a receiving rank"),
               TILE_ERR_NULL;
    for (i = 0; i < p->cfg.n; i++)
        if (p->cfg.extent[i] > INT_MAX || !tilehybrid_mul_ok(pts, p->len[i], &pts))
            pts = (int64_t)INT_MAX + 1;
    if (zlen > INT_MAX || pts > INT_MAX)
        return *argi = 2, snprintf(msg, len, "tile_gather: an extent, the Z range or a block "
                                   "of it exceeds INT_MAX points (MPI counts); gather fewer "
                                   "planes at a time"), TILE_ERR_OVERFLOW;
    return TILE_OK;
}

/* The receive types of tile_gather: rank r's block over the Z range inside
 * the global array over `all`.  Returns an MPI code. */
TILEHYBRID__COLD int tile__gather_types(const tile_plan *p, const tile_box *all, MPI_Datatype elem,
                                        MPI_Datatype *rt)
{
    int r, rc = MPI_SUCCESS, pc[TILE_MAX_DIMS];
    for (r = 0; r < p->size && rc == MPI_SUCCESS; r++) {
        tile_box b;
        rc = MPI_Cart_coords(p->comm, r, p->cfg.n, pc);
        if (rc != MPI_SUCCESS)
            break;
        tile__block_box(p, pc, &b);
        b.lo[p->cfg.n] = all->lo[p->cfg.n];
        b.len[p->cfg.n] = all->len[p->cfg.n];
        rc = tile__subarray(all, &b, elem, &rt[r]);
    }
    return rc;
}
#else
TILEHYBRID__COLD int tile__data_mpi(tile_plan *p, int rc, const char *call, const char *fn);
TILEHYBRID__COLD int tile__data_agree(tile_plan *p, int code, int argi, const char *msg,
                                      const uint64_t *v, int nv, const char *const *argn,
                                      tilehybrid_status *st);
TILEHYBRID__COLD void tile__free_types(MPI_Datatype *t, int n);
TILEHYBRID__COLD int tile__subarray(const tile_box *whole, const tile_box *part, MPI_Datatype elem,
                                    MPI_Datatype *t);
TILEHYBRID__COLD int tile__gather_check(const tile_plan *p, int64_t z0, int64_t zlen, int root,
                                        const void *out, char *msg, size_t len, int *argi);
TILEHYBRID__COLD int tile__gather_types(const tile_plan *p, const tile_box *all, MPI_Datatype elem,
                                        MPI_Datatype *rt);
#endif

/* The arrays of an MPI_Alltoallw: counts, displacements, types. */
typedef struct tile__a2a {
    int *scount, *sdisp, *rcount, *rdisp;
    MPI_Datatype *stype, *rtype;
} tile__a2a;

#if TILEHYBRID__DEFINE
/* Allocate for P ranks, counts 0, every type `fill`; 0 or MPI_ERR_NO_MEM. */
TILEHYBRID__COLD int tile__a2a_alloc(tile__a2a *a, int P, MPI_Datatype fill)
{
    int r;
    a->scount = (int *)TILEHYBRID_MALLOC(sizeof(int) * 4 * (size_t)P);
    a->stype = (MPI_Datatype *)TILEHYBRID_MALLOC(sizeof(MPI_Datatype) * 2 * (size_t)P);
    if (a->scount == NULL || a->stype == NULL) {
        TILEHYBRID_FREE(a->scount);
        TILEHYBRID_FREE(a->stype);
        a->scount = NULL;
        a->stype = NULL;
        return MPI_ERR_NO_MEM;
    }
    a->sdisp = a->scount + P;
    a->rcount = a->scount + 2 * P;
    a->rdisp = a->scount + 3 * P;
    a->rtype = a->stype + P;
    for (r = 0; r < 4 * P; r++)
        a->scount[r] = 0;
    for (r = 0; r < 2 * P; r++)
        a->stype[r] = fill;
    return MPI_SUCCESS;
}

TILEHYBRID__COLD void tile__a2a_free(tile__a2a *a)
{
    TILEHYBRID_FREE(a->scount);
    TILEHYBRID_FREE(a->stype);
}
#else
TILEHYBRID__COLD int tile__a2a_alloc(tile__a2a *a, int P, MPI_Datatype fill);
TILEHYBRID__COLD void tile__a2a_free(tile__a2a *a);
#endif

/* A data movement by one MPI_Alltoallw: its arrays, the element type, the
 * subarray types it made, the packed send buffer. */
typedef struct tile__move {
    tile__a2a a;
    MPI_Datatype elem;
    MPI_Datatype *sub;      /* 2P: sent to rank r, received from rank r */
    unsigned char *buf;
} tile__move;

#if TILEHYBRID__DEFINE
/* Allocate the movement's arrays for P ranks and the element type of esz
 * bytes, with bufbytes of send buffer (local): an MPI code. */
TILEHYBRID__COLD int tile__move_init(tile__move *m, int P, size_t esz, size_t bufbytes)
{
    int r, rc;
    memset(m, 0, sizeof *m);
    m->elem = MPI_DATATYPE_NULL;
    m->sub = (MPI_Datatype *)TILEHYBRID_MALLOC(sizeof(MPI_Datatype) * 2 * (size_t)P);
    m->buf = (unsigned char *)TILEHYBRID_MALLOC(bufbytes > 0 ? bufbytes : 1);
    for (r = 0; m->sub != NULL && r < 2 * P; r++)
        m->sub[r] = MPI_DATATYPE_NULL;
    rc = m->sub == NULL || m->buf == NULL ? MPI_ERR_NO_MEM : tile__a2a_alloc(&m->a, P, MPI_BYTE);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_contiguous((int)esz, MPI_BYTE, &m->elem);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&m->elem);
    return rc;
}

TILEHYBRID__COLD void tile__move_free(tile__move *m, int P)
{
    tile__a2a_free(&m->a);
    if (m->elem != MPI_DATATYPE_NULL)
        (void)MPI_Type_free(&m->elem);
    tile__free_types(m->sub, m->sub == NULL ? 0 : 2 * P);
    TILEHYBRID_FREE(m->buf);
}

/* Local preparation of tile_gather's movement: pack the block over the Z
 * range of `all`, send it to the root (or every rank), receive (on a
 * receiving rank) each rank's block through a subarray type of the global
 * array: an MPI code. */
TILEHYBRID__COLD int tile__gather_prepare(const tile_plan *p, const tile_box *all, int root,
                                          tile__move *m)
{
    tile_box mine;
    int P = p->size, n = p->cfg.n, r, rc, recv = root == TILE_ROOT_ALL || root == p->rank;
    int64_t zi0 = p->deps.dir[n] > 0 ? all->lo[n] : p->cfg.zlen - all->lo[n] - all->len[n];
    tile__block_box(p, p->pcoords, &mine);
    mine.lo[n] = all->lo[n];
    mine.len[n] = all->len[n];
    rc = tile__move_init(m, P, p->cfg.elem_size,
                         (size_t)tile_box_points(&mine) * p->cfg.elem_size);
    if (rc == MPI_SUCCESS && recv)
        rc = tile__gather_types(p, all, m->elem, m->sub + P);
    if (rc != MPI_SUCCESS)
        return rc;
    tile__pack_block(p, zi0, zi0 + all->len[n], &mine, TILE_LAYOUT_Z_LAST, m->buf);
    for (r = 0; r < P; r++) {
        if (root == TILE_ROOT_ALL || root == r) {
            m->a.scount[r] = (int)tile_box_points(&mine);
            m->a.stype[r] = m->elem;
        }
        if (m->sub[P + r] != MPI_DATATYPE_NULL) {
            m->a.rcount[r] = 1;
            m->a.rtype[r] = m->sub[P + r];
        }
    }
    return MPI_SUCCESS;
}

/* A local step of a collective data call failed with MPI code rc (0 when
 * it did not): the code for tile__data_agree, the message in msg. */
TILEHYBRID__COLD int tile__mpi_code(int rc, const char *fn, const char *what, char *msg, size_t len)
{
    if (rc == MPI_SUCCESS)
        return TILE_OK;
    snprintf(msg, len, "%s: %s", fn, rc == MPI_ERR_NO_MEM ? "out of memory" : what);
    return rc == MPI_ERR_NO_MEM ? TILE_ERR_NOMEM : TILE_ERR_MPI;
}

/* The collective of tile_gather() and tile_exchange(): MPI_Alltoallw of
 * the prepared move m from sbuf to rbuf, then the agreement on its outcome
 * (a failure named after argn[0], the calling function). */
TILEHYBRID__COLD int tile__move_alltoallw(tile_plan *plan, const tile__move *m, const void *sbuf,
                                          void *rbuf, const char *const *argn,
                                          tilehybrid_status *st)
{
    char msg[sizeof plan->errmsg] = "";
    int code = tile__mpi_code(tile__data_mpi(plan, MPI_Alltoallw(sbuf, m->a.scount, m->a.sdisp,
                                                                 m->a.stype, rbuf, m->a.rcount,
                                                                 m->a.rdisp, m->a.rtype,
                                                                 plan->comm),
                                             "MPI_Alltoallw", argn[0]),
                              argn[0], "MPI_Alltoallw failed", msg, sizeof msg);
    return tile__data_agree(plan, code, -1, msg, NULL, 0, argn, st);
}

/**
 * tile_gather() - copy the plan's result into the global array, on one
 * rank or on every rank.
 * @plan: the plan, after a run that completed without error.
 * @z0, @zlen: the planes z0 .. z0 + zlen - 1 (user coordinates), which
 *        must be stored: every plane under TILE_STORE_FULL, else the
 *        range tile_stored_zrange() gives (the last planes the loop
 *        computed); zlen 0 gathers nothing.
 * @root: the rank of the plan's communicator that receives, or
 *        TILE_ROOT_ALL for every rank.
 * @out:  on a receiving rank, X_1 x ... x X_N x zlen elements of
 *        cfg.elem_size bytes: the global array, row-major in the user's
 *        coordinates with Z last (element (x, z) at
 *        ((x_1 X_2 + x_2) ... X_N + x_N) zlen + (z - z0)); ignored elsewhere
 *        (may be NULL).
 * @st:   NULL, or the argument at fault and the rank that found it.
 *
 * A NULL @plan is TILE_ERR_NULL on that rank only: without a plan there is
 * no communicator to tell the others, which wait in the collective forever
 * (a usage error the other ranks cannot detect: pass the plan everywhere).
 * Collective over the plan's communicator: every rank passes the same z0,
 * zlen and root (otherwise TILE_ERR_MISMATCH on every rank).  Not while
 * the plan runs: from its body or one of its hooks it returns
 * TILE_ERR_BODY at once, on the calling rank only, entering no collective
 * (the other ranks go on with the run, which ends normally; nor may a
 * body or hook call it on another plan: the ranks that run would not
 * join).  A copy, bit
 * for bit: the array equals the sequential loop's.  Each rank sends its
 * block (one message; MPI places it through a subarray type).  On error
 * every rank returns the same code with the same message in plan->errmsg;
 * plan->status keeps the state of the last run, and the plan can run
 * again.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_RANGE (root, Z range),
 * TILE_ERR_NOT_STORED (no completed run, or planes the window dropped),
 * TILE_ERR_MISMATCH, TILE_ERR_OVERFLOW (an extent, zlen or a block above
 * INT_MAX points), TILE_ERR_MPI, TILE_ERR_SKEWED (a plan that skews its
 * stencil: use tile_get()), TILE_ERR_BODY (the plan is running: a call
 * from its body or a hook; local), or the code of the plan's failed
 * creation.
 */
TILEHYBRID__COLD int tile_gather(tile_plan *plan, int64_t z0, int64_t zlen, int root, void *out,
                                 tilehybrid_status *st)
{
    static const char *const argn[6] = { "tile_gather", "z0", "zlen", "root", "out", "plan" };
    uint64_t v[3];
    char msg[sizeof plan->errmsg] = "";
    int code = TILE_OK, argi = -1, rc;
    tile_box all;
    tile__move m;
    if ((rc = tile__busy_refused(plan)) != TILE_OK)
        return tilehybrid_status_set(st, rc, "plan", -1);
    v[0] = (uint64_t)z0;
    v[1] = (uint64_t)zlen;
    v[2] = (uint64_t)(int64_t)root;
    rc = tile__data_agree(plan, TILE_OK, -1, "", v, 3, argn, st);
    if (rc != TILE_OK)
        return rc;
    code = tile__gather_check(plan, z0, zlen, root, out, msg, sizeof msg, &argi);
    rc = tile__data_agree(plan, code, argi, msg, NULL, 0, argn, st);
    if (rc != TILE_OK || zlen == 0)
        return rc;
    memset(&all, 0, sizeof all);
    all.ndims = plan->cfg.n + 1;
    for (argi = 0; argi < plan->cfg.n; argi++)
        all.len[argi] = plan->cfg.extent[argi];
    all.lo[plan->cfg.n] = z0;
    all.len[plan->cfg.n] = zlen;
    /* every rank allocates and builds its types first: a failure there
     * stops every rank before the collective */
    code = tile__mpi_code(tile__gather_prepare(plan, &all, root, &m), argn[0],
                          "a datatype call failed", msg, sizeof msg);
    rc = tile__data_agree(plan, code, -1, msg, NULL, 0, argn, st);
    if (rc == TILE_OK)
        rc = tile__move_alltoallw(plan, &m, m.buf, out, argn, st);
    tile__move_free(&m, plan->size);
    return rc;
}

/* A box that MPI can describe: 1..N+1 dimensions, lengths 0..INT_MAX, a
 * point count and an end that fit 64 bits; 1 if so. */
TILEHYBRID__COLD int tile__box_ok(const tile_box *b)
{
    int64_t v = 1, end = 0;
    int i;
    if (b->ndims < 1 || b->ndims > TILE_MAX_DIMS + 1)
        return 0;
    for (i = 0; i < b->ndims; i++)
        if (b->len[i] < 0 || b->len[i] > INT_MAX || !tilehybrid_mul_ok(v, b->len[i], &v) ||
            !tilehybrid_add_ok(b->lo[i], b->len[i], &end))
            return 0;
    return 1;
}

/* Do the byte ranges [a, a + na) and [b, b + nb) share a byte?  (As
 * addresses: arrays of different objects cannot be compared as pointers.) */
TILEHYBRID__COLD int tile__bytes_overlap(const void *a, size_t na, const void *b, size_t nb)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return na > 0 && nb > 0 && (x < y ? y - x < na : x - y < nb);
}

/* tile_exchange's arguments on this rank: 0 or a code, message, argument. */
TILEHYBRID__COLD int tile__exchange_check(size_t esz, const tile_box *have, const void *src,
                                          const tile_box *want, const void *dst, char *msg,
                                          size_t len, int *argi)
{
    if (have == NULL || want == NULL)
        return *argi = have == NULL ? 3 : 5, snprintf(msg, len, "tile_exchange: %s is NULL",
                                                      have == NULL ? "have" : "want"),
               TILE_ERR_NULL;
    if (esz < 1 || esz > ((size_t)1 << 30))
        return *argi = 1, snprintf(msg, len, "tile_exchange: elem_size = %llu: must be in "
                                   "1..2^30", (unsigned long long)esz), TILE_ERR_ELEM;
    if (!tile__box_ok(have) || !tile__box_ok(want) || have->ndims != want->ndims)
        return *argi = !tile__box_ok(have) ? 3 : 5,
               snprintf(msg, len, "tile_exchange: the %s box is invalid (1..%d dimensions, the "
                        "same for have and want; lengths 0..INT_MAX; sizes within 64 bits)",
                        !tile__box_ok(have) ? "have" : "want", TILE_MAX_DIMS + 1),
               TILE_ERR_RANGE;
    if ((src == NULL && tile_box_points(have) > 0) || (dst == NULL && tile_box_points(want) > 0))
        return *argi = src == NULL ? 4 : 6, snprintf(msg, len, "tile_exchange: %s is NULL but "
                                                     "its box is not empty",
                                                     src == NULL ? "src" : "dst"),
               TILE_ERR_NULL;
    if (tile_box_points(have) > 0 && tile_box_points(want) > 0 &&
        tile__bytes_overlap(src, (size_t)tile_box_points(have) * esz, dst,
                            (size_t)tile_box_points(want) * esz))
        return *argi = 6, snprintf(msg, len, "tile_exchange: dst overlaps src (%s): the array "
                                   "filled must not share memory with the array sent from; "
                                   "pass another array for dst (MPI forbids receiving into "
                                   "a send buffer)", src == dst ? "the same address" :
                                   "the arrays share bytes"), TILE_ERR_RANGE;
    return TILE_OK;
}

/* Every point of `want` must be in exactly one rank's have box: 0, or a
 * code and the message. */
TILEHYBRID__COLD int tile__exchange_cover(const tile_box *haves, int P, const tile_box *want,
                                          char *msg, size_t len)
{
    int64_t got = 0;
    int r, q;
    tile_box a, b, c;
    for (r = 0; r < P; r++)
        if (tile_box_intersect(&haves[r], want, &a)) {
            got += tile_box_points(&a);
            for (q = 0; q < r; q++)
                if (tile_box_intersect(&haves[q], &a, &b) && tile_box_intersect(&b, want, &c))
                    return snprintf(msg, len, "tile_exchange: points of the want box are in the "
                                    "have boxes of ranks %d and %d: the have boxes must not "
                                    "overlap where a rank wants data", q, r), TILE_ERR_RANGE;
        }
    if (got != tile_box_points(want))
        return snprintf(msg, len, "tile_exchange: the want box is not covered: %lld of its %lld "
                        "points are in no rank's have box", (long long)(tile_box_points(want) -
                                                                         got),
                        (long long)tile_box_points(want)), TILE_ERR_RANGE;
    return TILE_OK;
}

/* Local preparation of tile_exchange's movement from the boxes of every
 * rank (boxes[2r] have, boxes[2r + 1] want): coverage, then the subarray
 * types of what goes to and comes from each rank.  0 or a code. */
TILEHYBRID__COLD int tile__exchange_prepare(const tile_plan *p, size_t esz, const tile_box *boxes,
                                            tile__move *m, char *msg, size_t len)
{
    int P = p->size, me = p->rank, r, rc;
    tile_box *haves = (tile_box *)TILEHYBRID_MALLOC(sizeof(tile_box) * (size_t)P), c;
    rc = tile__move_init(m, P, esz, 0);
    if (haves == NULL || rc != MPI_SUCCESS) {
        TILEHYBRID_FREE(haves);
        return tile__mpi_code(haves == NULL ? MPI_ERR_NO_MEM : rc, "tile_exchange",
                              "MPI_Type_contiguous failed", msg, len);
    }
    for (r = 0; r < P; r++)
        haves[r] = boxes[2 * r];
    rc = tile__exchange_cover(haves, P, &boxes[2 * me + 1], msg, len);
    TILEHYBRID_FREE(haves);
    for (r = 0; r < P && rc == TILE_OK; r++) {
        int mpi;
        tile_box_intersect(&boxes[2 * me], &boxes[2 * r + 1], &c);
        mpi = tile__subarray(&boxes[2 * me], &c, m->elem, &m->sub[r]);
        tile_box_intersect(&boxes[2 * r], &boxes[2 * me + 1], &c);
        if (mpi == MPI_SUCCESS)
            mpi = tile__subarray(&boxes[2 * me + 1], &c, m->elem, &m->sub[P + r]);
        rc = tile__mpi_code(mpi, "tile_exchange", "a datatype call failed", msg, len);
        m->a.scount[r] = m->sub[r] != MPI_DATATYPE_NULL;
        m->a.stype[r] = m->a.scount[r] ? m->sub[r] : MPI_BYTE;
        m->a.rcount[r] = m->sub[P + r] != MPI_DATATYPE_NULL;
        m->a.rtype[r] = m->a.rcount[r] ? m->sub[P + r] : MPI_BYTE;
    }
    return rc;
}

/**
 * tile_exchange() - move user arrays between ranks, box to box: each rank
 * has an array over one box and gets an array over another.
 * @plan: a plan; its communicator carries the exchange (plans created on
 *        the same communicator number their ranks alike, so any plan of a
 *        chain will do).
 * @esz:  bytes per element (the same on every rank; it need not be the
 *        plan's element size).
 * @have, @src: the box this rank holds and its array (row-major in the
 *        user's coordinates, Z last); src may be NULL when the box is
 *        empty.  Where ranks want data, the have boxes must not overlap.
 * @want, @dst: the box this rank needs and its array, filled here; every
 *        point of it must be in some rank's have box.  dst must not
 *        share memory with src (MPI forbids receiving into a send buffer):
 *        TILE_ERR_RANGE naming dst, when both boxes are not empty.
 * @st:   NULL, or the argument at fault and the rank that found it.
 *
 * Collective over the plan's communicator, and not while the plan runs:
 * from its body or one of its hooks it returns TILE_ERR_BODY at once, on
 * the calling rank only, entering no collective (the other ranks go on
 * with the run, which ends normally; nor may a body or hook call it on
 * another plan: the ranks that run would not join).  The chain of two plans (a
 * result of one plan is the input of the next, maybe in another direction
 * or with a halo) is: tile_output_to() copies each finished tile into an
 * array over this rank's block (one copy), then tile_exchange() from
 * that block (tile_input_box(first, TILE_ALL_TILES, NULL)) to the box the
 * next plan reads (tile_input_box(next, TILE_ALL_TILES, &reach)).  Only
 * what lies on another rank travels; a bitwise copy.  The boxes may have
 * any number of dimensions up to N + 1 (the same for have and want, and on
 * every rank), lengths up to INT_MAX.  One MPI_Allgather of the boxes and
 * one MPI_Alltoallw with subarray types.  On error every rank returns the
 * same code and message (plan->errmsg); nothing is received.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_ELEM, TILE_ERR_RANGE (an
 * invalid box, a want box not covered or covered twice, dst overlapping
 * src), TILE_ERR_MISMATCH (esz or ndims differ), TILE_ERR_NOMEM,
 * TILE_ERR_MPI, TILE_ERR_BODY (the plan is running: a call from its body
 * or a hook; local), or the code of the plan's failed creation.
 */
TILEHYBRID__COLD int tile_exchange(tile_plan *plan, size_t esz, const tile_box *have,
                                   const void *src, const tile_box *want, void *dst,
                                   tilehybrid_status *st)
{
    static const char *const argn[7] = { "tile_exchange", "elem_size", "ndims", "have", "src",
                                         "want", "dst" };
    char msg[sizeof plan->errmsg] = "";
    int code, argi = -1, rc, P;
    uint64_t v[2];
    tile_box *boxes = NULL, two[2];
    tile__move m;
    if ((rc = tile__busy_refused(plan)) != TILE_OK)
        return tilehybrid_status_set(st, rc, "plan", -1);
    P = plan->size;
    memset(&m, 0, sizeof m);
    m.elem = MPI_DATATYPE_NULL;
    code = tile__exchange_check(esz, have, src, want, dst, msg, sizeof msg, &argi);
    v[0] = (uint64_t)esz;
    v[1] = (uint64_t)(int64_t)(have != NULL ? have->ndims : 0);
    boxes = (tile_box *)TILEHYBRID_MALLOC(sizeof(tile_box) * 2 * (size_t)P);
    if (code == TILE_OK && boxes == NULL)
        code = tile__mpi_code(MPI_ERR_NO_MEM, argn[0], "", msg, sizeof msg);
    rc = tile__data_agree(plan, code, argi, msg, v, 2, argn, st);
    if (rc == TILE_OK) {
        two[0] = *have;
        two[1] = *want;
        code = tile__mpi_code(tile__data_mpi(plan, MPI_Allgather(two, (int)sizeof two, MPI_BYTE,
                                                                 boxes, (int)sizeof two,
                                                                 MPI_BYTE, plan->comm),
                                             "MPI_Allgather", argn[0]),
                              argn[0], "MPI_Allgather failed", msg, sizeof msg);
        if (code == TILE_OK)
            code = tile__exchange_prepare(plan, esz, boxes, &m, msg, sizeof msg);
        rc = tile__data_agree(plan, code, -1, msg, NULL, 0, argn, st);
        if (rc == TILE_OK)
            rc = tile__move_alltoallw(plan, &m, src, dst, argn, st);
        tile__move_free(&m, P);
    }
    TILEHYBRID_FREE(boxes);
    return rc;
}
#else
TILEHYBRID__COLD int tile__move_init(tile__move *m, int P, size_t esz, size_t bufbytes);
TILEHYBRID__COLD void tile__move_free(tile__move *m, int P);
TILEHYBRID__COLD int tile__gather_prepare(const tile_plan *p, const tile_box *all, int root,
                                          tile__move *m);
TILEHYBRID__COLD int tile__mpi_code(int rc, const char *fn, const char *what, char *msg,
                                    size_t len);
TILEHYBRID__COLD int tile__move_alltoallw(tile_plan *plan, const tile__move *m, const void *sbuf,
                                          void *rbuf, const char *const *argn,
                                          tilehybrid_status *st);
TILEHYBRID__COLD int tile_gather(tile_plan *plan, int64_t z0, int64_t zlen, int root, void *out,
                                 tilehybrid_status *st);
TILEHYBRID__COLD int tile__box_ok(const tile_box *b);
TILEHYBRID__COLD int tile__bytes_overlap(const void *a, size_t na, const void *b, size_t nb);
TILEHYBRID__COLD int tile__exchange_check(size_t esz, const tile_box *have, const void *src,
                                          const tile_box *want, const void *dst, char *msg,
                                          size_t len, int *argi);
TILEHYBRID__COLD int tile__exchange_cover(const tile_box *haves, int P, const tile_box *want,
                                          char *msg, size_t len);
TILEHYBRID__COLD int tile__exchange_prepare(const tile_plan *p, size_t esz, const tile_box *boxes,
                                            tile__move *m, char *msg, size_t len);
TILEHYBRID__COLD int tile_exchange(tile_plan *plan, size_t esz, const tile_box *have,
                                   const void *src, const tile_box *want, void *dst,
                                   tilehybrid_status *st);
#endif

/* ==== src/tiling/80-runs.h ==== */
#line 1 "src/tiling/80-runs.h"
/* ------------------------------------------------------------------------ */
/* Runs: the step's schedule and messages, start, finish, the step macros   */

/**
 * tile_schedule() - announce every tile whose predecessor starts by step
 * s + 1, so that the receive for it can be posted in time.
 * @p: the plan; @s: the step that just ended (-1 before the first).
 * Called at the end of every step by the thread that does the messages
 * (after a balancing policy has seen the step: hybrid.h).
 */
TILEHYBRID__WARM void tile_schedule(tile_plan *p, int64_t s);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile_schedule(tile_plan *p, int64_t s)
{
    tile__io_step(p, s);
    if (p->run.announced == 0 && p->ntiles > 0)
        tile__announce(p, 0);
    while (p->run.announced < p->ntiles && tile__sigma(p, p->run.announced - 1) <= s + 1)
        tile__announce(p, p->run.announced);
    tile__io_input(p, s);
}
#endif

#if TILEHYBRID__DEFINE
/* Reset what a run changes (the thread that does the messages). */
TILEHYBRID__COLD void tile__run_reset(tile_plan *p)
{
    int t;
    for (t = 0; t < p->cfg.threads; t++) {
        memset(&p->run.stats[t], 0, sizeof p->run.stats[t]);
        p->run.slot[t].msg[0] = '\0';
        memset(&p->run.slot[t].trash, 0, sizeof p->run.slot[t].trash);
        p->run.nreq[t] = p->run.nreq[p->cfg.threads + t] = 0;
        p->run.next_tile[8 * t] = 0;
    }
    p->run.bytes_sent = p->run.messages = 0;
    p->run.announced = p->run.send_next = p->run.recv_next = 0;
    p->run.recv_pending = -1;
    p->run.nsteps = INT64_MAX;
    p->run.bal_changes = 0;
    if (p->run.balancing)
        bal_policy_start(&p->run.bal);
}

/**
 * tile_run_start() - the collective start of a run, by one thread per
 * process (the one that calls MPI).  A previous run a `return` left
 * unfinished on this rank is seen first, before any collective
 * (tile__left_body(): TILE_ERR_BODY with one process, the job ends with
 * more).
 * @p:        the plan.
 * @model:    the model of the step macro that runs.
 * @nthreads: the threads that will run the steps (the parallel region's
 *            size for the coarse-grain models, the plan's threads else).
 * The error of a previous run is forgotten first (not a failed creation,
 * an MPI failure or a run a `return` left unfinished).  Every rank checks
 * that the plan is of @model and has @nthreads threads; if any rank cannot
 * run, no rank runs and every rank records the same error.  Otherwise it resets the run, fills the planes below Z = 0 and
 * schedules the first tiles.
 * Return: 1 if the run goes on.
 */
TILEHYBRID__COLD int tile_run_start(tile_plan *p, int model, int nthreads)
{
    /* a run that failed does not stop the next (every rank has the same
     * status): each starts afresh, unless MPI failed or a run is unfinished */
    if (p->run.created && !p->run.active && p->status.code != TILE_OK &&
        p->status.code != TILE_ERR_MPI) {
        tilehybrid_status_set(&p->status, TILE_OK, "", -1);
        p->errmsg[0] = '\0';
        p->errarg[0] = '\0';
    }
    if (p->run.active) {
        /* before any collective: with more than one process, the others
         * wait in the unfinished run's messages (tile__left_body ends the
         * job) */
        if (!p->run.left)
            tile__left_body(p);
    } else if (p->status.code == TILE_OK && model != p->cfg.model)
        tile__fail(p, TILE_ERR_MODEL, "model", -1, "the step macro is for model '%s' but the "
                   "plan was created for model '%s'", tile_model_name(model),
                   tile_model_name(p->cfg.model));
    else if (p->status.code == TILE_OK && nthreads != p->cfg.threads)
        tile__fail(p, TILE_ERR_THREADS, "threads", -1, "the plan needs %d threads but the "
                   "parallel region has %d (use num_threads(plan.cfg.threads))", p->cfg.threads,
                   nthreads);
    tile__height_apply(p);          /* the height the first run chose */
    p->run.stage = 1;
    p->run.ok = tile__agree(p, NULL) == TILE_OK;
    if (!p->run.ok)
        return 0;
    tile__run_reset(p);
    p->run.active = 1;
    tile__io_start(p);
    tile__fill_zlow(p);
    tile_schedule(p, -1);
    p->run.start = tile_wtime();
    return 1;
}

/**
 * tile_run_finish() - the end of a run, by the thread that does the
 * messages, after every thread's last tile and message: the totals, and the
 * run's outcome on every rank (collective: a rank whose run went wrong must
 * not leave the others reporting success).
 * @p: the plan.
 */
TILEHYBRID__COLD void tile_run_finish(tile_plan *p)
{
    int t;
    double wall;
    tile__io_step(p, INT64_MAX);    /* hand out the last tiles */
    wall = tile_wtime() - p->run.start;
    p->run.seconds = wall;
    p->run.active = 0;
    p->run.stage = 2;
    for (t = 0; t < p->cfg.threads; t++) {
        tile_stats *s = &p->run.stats[t];
        s->idle = wall - s->compute - s->comm;
        if (s->idle < 0)
            s->idle = 0;
        p->run.bytes_sent += s->bytes_sent;
        p->run.messages += s->messages;
        if (s->error != TILE_OK)
            tile__fail(p, s->error, "", -1, "thread %d: %s", t,
                       p->run.slot[t].msg[0] ? p->run.slot[t].msg : tile_strerror(s->error));
    }
    tile__io_finish(p);             /* agrees the outcome, combines the reductions */
    tile__height_timed(p);          /* the first run times the body for the model */
}
#else
TILEHYBRID__COLD void tile__run_reset(tile_plan *p);
TILEHYBRID__COLD int tile_run_start(tile_plan *p, int model, int nthreads);
TILEHYBRID__COLD void tile_run_finish(tile_plan *p);
#endif

/**
 * tile_group_init() - a group positioned before the first step (no
 * communication; the step macros start the run).
 */
static inline tile_group tile_group_init(tile_plan *p)
{
    tile_group g;
    g.plan = p;
    g.step = 0;
    g.thread = 0;
    g.done = 0;
    return g;
}

/* TILE_FOREACH_GROUP's first group, tile_group_init()'s; it takes the
 * address of the caller's TILE__ABI under TILEHYBRID_SEPARATE, so that a
 * file whose step macros were built with other options than the
 * implementation file's, where the walk and the messages are compiled,
 * does not link (tile_plan_create() checks only the file that calls it). */
TILEHYBRID__WARM tile_group tile__group_begin(tile_plan *p, const void *abi);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM tile_group tile__group_begin(tile_plan *p, const void *abi)
{
    (void)abi;
    return tile_group_init(p);
}
#endif

/**
 * tile_comm_begin() - the messages that open step s (whole faces: the
 * thread that does the messages, thread 0): send the face of the tile
 * finished at step s - 1, post the receive for the tile that starts at step
 * s + 1.  At step 0 it first receives what step 0 needs (the prologue).
 * @p: the plan; @s: the step.
 */
TILEHYBRID__WARM void tile_comm_begin(tile_plan *p, int64_t s);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile_comm_begin(tile_plan *p, int64_t s)
{
    double t0;
    if (s == 0) {
        /* the prologue, after the step macro has checked the model: a wrong
         * macro sends nothing and waits for nothing on every rank */
        tile__wf_begin(p, -1);
        tile__wf_end(p);
        tile_schedule(p, -1);
    }
    /* (the prologue's wait counts as wait, its unpacking as comm, above;
     * a rank without neighbours has nothing to time: two clock reads a
     * step, 1.4% of ADI 64x256x16384 on one process at z = 1) */
    if (!tile__talks(p)) {
        tile__wf_begin(p, s);
        return;
    }
    t0 = tile_wtime();
    tile__wf_begin(p, s);
    p->run.stats[0].comm += tile_wtime() - t0;
}
#endif

/**
 * tile_comm_end() - the messages that close step s: wait, unpack the tile
 * received.  The caller then calls tile_schedule(p, s).
 * @p: the plan; @s: the step.
 */
TILEHYBRID__WARM void tile_comm_end(tile_plan *p, int64_t s);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile_comm_end(tile_plan *p, int64_t s)
{
    (void)s;
    tile__wf_end(p);
}
#endif

/**
 * TILE_COMPUTE(plan, t, s, it, body...) - thread t computes its tile of
 * step s (if it has one): the global-boundary values first, then every
 * point with @body, then the mirror planes; timed as computation.
 * @plan: the plan (evaluated once); @t: the thread; @s: the step.
 * @it:   the cursor name the body uses; @body: the point update.
 * A building block of the step macros.
 */
#define TILE_COMPUTE(plan, t, s, it, ...)                                          \
    do {                                                                           \
        tile_plan *const tile_cp_p_ = (plan);                                      \
        int const tile_cp_t_ = (t);                                                \
        double const tile_cp_t0_ = tile_wtime();                                    \
        int64_t const tile_cp_k_ = tile__claim(tile_cp_p_, tile_cp_t_, (s));       \
        if (tile_cp_k_ >= 0 && tile_cp_p_->run.ok) {                               \
            int64_t const tile_cp_n0_ = tile_cp_p_->run.stats[tile_cp_t_].points;  \
            TILE__GUARD(tile_cp_guard_, tile_cp_p_);                               \
            tile__sim_begin();                                                     \
            tile__fill_boundary(tile_cp_p_, tile_cp_t_, tile_cp_k_);               \
            TILE__POINTS(tile_cp_p_, tile_cp_t_, tile_cp_k_, it, __VA_ARGS__)      \
            TILE__GUARD_OFF(tile_cp_guard_);                                       \
            tile__mirror(tile_cp_p_, tile_cp_t_, tile_cp_k_);                      \
            tile__sim_end(tile_cp_p_->run.stats[tile_cp_t_].points - tile_cp_n0_); \
            tile_cp_p_->run.stats[tile_cp_t_].compute += tile_wtime() - tile_cp_t0_; \
        }                                                                          \
    } while (0)

/**
 * TILE_FOREACH_GROUP(plan, g) - iterate over the time steps (hyperplane
 * groups) of this process.
 * @plan: pointer to a tile_plan from tile_plan_create (evaluated once).
 * @g:    name of the loop variable (a tile_group) it declares, passed to
 *        the step macro that forms the loop body.
 *
 * A bare `for` header whose condition only reads g.done: the body follows,
 * and must run exactly one step macro of the plan's model (TILE_MPI_STEP,
 * HYBRID_FINE_STEP, HYBRID_FUNNELED_STEP or HYBRID_MULTIPLE_STEP) per
 * iteration; a block may add statements after it (HYBRID_RUN_EACH_STEP
 * calls its hook there).  The step macros start the run at the first step
 * and complete it at the last (see struct tile_group), so the loop is
 * collective over the plan's communicator; if any rank cannot run (wrong
 * model or thread count), no rank runs and tile_plan_status() says why.
 * For the coarse-grain models put it directly inside
 * `#pragma omp parallel num_threads(plan.cfg.threads)`.  Do not `break` out
 * of it: the pipeline must run to the end on every rank.
 */
#define TILE_FOREACH_GROUP(plan, g)                                                \
    for (tile_group g = tile__group_begin((plan), TILE__ABI_REF); !(g).done; (g).step++)

/**
 * tile_step_enter() - the prologue of a step of a model whose loop runs on
 * one thread (pure MPI, fine grain): at step 0 start the run, refused
 * inside a parallel region, where every thread would call MPI.
 * @g:           the group.
 * @model:       the step macro's model.
 * @in_parallel: whether the caller is inside an OpenMP parallel region.
 * Return: 1 if the step runs; 0 when the run cannot start (g->done is set,
 * on every rank alike).
 */
static inline int tile_step_enter(tile_group *g, int model, int in_parallel)
{
    tile_plan *p = g->plan;
    if (g->step > 0)
        return 1;
    if (in_parallel) {
        /* every thread would call MPI: refuse without any MPI call (every
         * rank and thread does the same, so nothing waits) */
        if (p->status.code == TILE_OK && g->thread == 0)
            tile__fail(p, TILE_ERR_THREADS, "model", -1, "the %s model's loop must not run "
                       "inside an OpenMP parallel region", tile_model_name(p->cfg.model));
        g->done = 1;
        return 0;
    }
    if (!tile_run_start(p, model, p->cfg.threads)) {
        g->done = 1;
        return 0;
    }
    return 1;
}

/**
 * tile_step_leave() - the epilogue of a step of a one-thread-loop model:
 * after the last step, send the last tile's faces and finish the run (sets
 * g->done).  @g: the group.
 */
TILEHYBRID__WARM void tile_step_leave(tile_group *g);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile_step_leave(tile_group *g)
{
    tile_plan *p = g->plan;
    if (g->step + 1 < tile_nsteps(p))
        return;
    tile_comm_begin(p, g->step + 1);
    tile_waitall(p, 0, tile__wf_tile(p));
    tile_run_finish(p);
    g->done = 1;
}
#endif

/**
 * TILE_MPI_STEP(g, it, body...) - one step of the pure MPI model (Alg. 2):
 * send the previous tile's boundary to the +dir neighbours, post receives for
 * the next tile, compute the current tile with `body` for every point, wait,
 * unpack.
 * @g:    the tile_group of TILE_FOREACH_GROUP.
 * @it:   name of the cursor the body uses with TILE_AT (declared here).
 * @body: the point update, a statement list (commas are fine);
 *        `continue` skips to the next point, `break` is reported as
 *        TILE_ERR_BODY, `return`/`goto` out of it are not allowed (one
 *        process: TILE_ERR_BODY; more: the job ends; see "The body").
 */
#define TILE_MPI_STEP(g, it, ...)                                                  \
    do {                                                                           \
        tile_group *const tile_ms_g_ = &(g);                                       \
        tile_ms_g_->thread = tilehybrid_thread_num();                              \
        if (tile_step_enter(tile_ms_g_, TILE_MODEL_MPI,                            \
                            tilehybrid_in_parallel())) {                           \
            tile_comm_begin(tile_ms_g_->plan, tile_ms_g_->step);                   \
            TILE_COMPUTE(tile_ms_g_->plan, 0, tile_ms_g_->step, it, __VA_ARGS__);  \
            tile_comm_end(tile_ms_g_->plan, tile_ms_g_->step);                     \
            tile_schedule(tile_ms_g_->plan, tile_ms_g_->step);                     \
            tile_step_leave(tile_ms_g_);                                           \
        }                                                                          \
    } while (0)

/* ==== src/tiling/85-models.h ==== */
#line 1 "src/tiling/85-models.h"
/* ------------------------------------------------------------------------ */
/* The models' interface: what hybrid.h's threaded models use of the plan  */
/* besides the step functions (tile_step_enter, tile_run_start, tile_pack, */
/* tile_waitall, tile_post, tile_parted_*, ...): the multiple model's face */
/* parts, a face message on the plan's requests and their start, and the   */
/* tile a failure of the whole-face messages names.                        */

/**
 * tile_part_sends() - does thread t send its own part of the face along
 * dimension i (the multiple model: it is the last thread along i)?
 * @p: the plan; @t: the thread; @i: the dimension, 0 .. N - 1.
 */
static inline int tile_part_sends(const tile_plan *p, int t, int i)
{
    return tile__is_sender(p, t, i);
}

/**
 * tile_part_receives() - does thread t receive its own part of the face
 * along dimension i (it is the first thread along i)?
 * @p: the plan; @t: the thread; @i: the dimension, 0 .. N - 1.
 */
static inline int tile_part_receives(const tile_plan *p, int t, int i)
{
    return tile__is_receiver(p, t, i);
}

/**
 * tile_part_tag() - thread t's part of the face along dimension i: its
 * partition of a partitioned message, and the tag of its own message (its
 * thread coordinates with t_i dropped, 0 .. prod_{j != i} T_j - 1).
 * @p: the plan; @t: the thread; @i: the dimension, 0 .. N - 1.
 */
static inline int tile_part_tag(const tile_plan *p, int t, int i)
{
    return tile__part_index(p, t, i);
}

/**
 * tile_face_message() - thread t's face message of tile k along dimension
 * i, on the plan's requests: posted at once (TILE_MESSAGES_NONBLOCKING), or
 * its persistent request (made once per buffer, size, peer and tag) queued
 * for tile_face_start().  Sends are kept before receives.
 * @p: the plan; @t: the thread; @send: 1 to send, 0 to receive;
 * @buf, @bytes: the message; @peer: the other rank; @tag: its tag
 * (tile_part_tag); @k: the tile (a failure names it); @i: the dimension.
 */
static inline void tile_face_message(tile_plan *p, int t, int send, void *buf, int64_t bytes,
                                     int peer, int tag, int64_t k, int i)
{
    tile__msg(p, t, send, buf, bytes, peer, tag, k, i);
}

/**
 * tile_face_start() - start thread t's persistent requests queued by
 * tile_face_message() from position @from of its list on (p->run.nreq[t]
 * before them), with one MPI_Startall; nothing for nonblocking messages.
 * @p: the plan; @t: the thread; @from: the first request to start;
 * @k: the tile a failure names (a failure is handled as the engine's own).
 */
static inline void tile_face_start(tile_plan *p, int t, int from, int64_t k)
{
    tile__start(p, t, from, k);
}

/**
 * tile_face_tile() - the tile of the whole-face messages in flight: the one
 * being received, else the one sent last (what tile_waitall's failure
 * names).
 * @p: the plan.
 */
static inline int64_t tile_face_tile(const tile_plan *p)
{
    return tile__wf_tile(p);
}

/* ==== src/tiling/99-end.h ==== */
#line 1 "src/tiling/99-end.h"
/* ------------------------------------------------------------------------ */
/* The end: C++ linkage, the options' symbol, tile_plan_create()            */

#ifdef __cplusplus
}
#endif

/* The options that change what the files of a program must agree on
 * (COMPILING THE COLD CODE ONCE, tilehybrid.h), in the name of a symbol:
 * the implementation file defines it, and every file's tile_plan_create()
 * passes its address, so a file built with other options than the
 * implementation's does not link ("undefined reference to
 * tilehybrid__abi_unchecked_omp_noulfm_part": that file's options).  The
 * others (TILEHYBRID_MALLOC, TILE_MSG_MAX, the MPI) cannot be checked so. */
#ifdef TILE_CHECK_ACCESS
#define TILE__ABI_A tilehybrid__abi_checked_
#else
#define TILE__ABI_A tilehybrid__abi_unchecked_
#endif
#ifdef _OPENMP
#define TILE__ABI_B omp_
#else
#define TILE__ABI_B noomp_
#endif
#if TILE__ULFM
#define TILE__ABI_C ulfm_
#else
#define TILE__ABI_C noulfm_
#endif
#if TILE_HAVE_PARTITIONED
#define TILE__ABI_D part
#else
#define TILE__ABI_D nopart
#endif
#define TILE__ABI_PASTE(a, b, c, d) a##b##c##d
#define TILE__ABI_NAME(a, b, c, d) TILE__ABI_PASTE(a, b, c, d)
#define TILE__ABI TILE__ABI_NAME(TILE__ABI_A, TILE__ABI_B, TILE__ABI_C, TILE__ABI_D)
#if TILEHYBRID__MODE != 0
#ifdef __cplusplus
extern "C" {
#endif
extern const char TILE__ABI;
#if TILEHYBRID__MODE == 2
const char TILE__ABI = 0;
#endif
#ifdef __cplusplus
}
#endif
#define TILE__ABI_REF ((const void *)&TILE__ABI)
#else
#define TILE__ABI_REF NULL
#endif

/* tile_plan_create() as called from the user's file: with what that file
 * does to a * b + c (tile_fp_contracts(): a warning on rank 0 where it
 * contracts, a refusal under TILE_STRICT) and, under TILEHYBRID_SEPARATE,
 * the check of its options (TILE__ABI).  (tile_plan_create) without the
 * macro is the function itself. */
#define tile_plan_create(plan, comm, cfg)                                          \
    tile__plan_create_fp((plan), (comm), (cfg),                                   \
                         tile_fp_contracts() | TILE__FP_STRICT_ON, TILE__ABI_REF)

#endif /* TILEHYBRID_TILING_H */
