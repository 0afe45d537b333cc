/* hybrid.h -- MPI+OpenMP models for tiled loop nests: fine-grain,
 * coarse-grain funneled and coarse-grain multiple.  Part of tilehybrid (MIT
 * licence), version HYBRID_VERSION.
 *
 * The same plan (tiling.h) and the same point body run under four models;
 * set cfg.model and cfg.threads, and either
 *
 *   - let HYBRID_RUN() pick the model at run time (one macro, the body is
 *     written once; HYBRID_RUN_EACH_STEP() also calls a function after
 *     every step, as the demos do for their progress line):
 *
 *         HYBRID_RUN(&plan, it, {
 *             TILE_AT(double, it, 0, 0, 0) =
 *                 ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0))
 *                  + TILE_AT(double, it, 0, 0, -1)) / 3.0;
 *         });
 *
 *   - or write the step loop of the model yourself, which reads like the
 *     papers' algorithms; switching model is one word (and the parallel
 *     pragma for the coarse-grain models):
 *
 *         TILE_FOREACH_GROUP(&plan, g)               // Alg. 2, pure MPI
 *             TILE_MPI_STEP(g, it, BODY);
 *
 *         TILE_FOREACH_GROUP(&plan, g)               // Alg. 3, fine grain
 *             HYBRID_FINE_STEP(g, it, BODY);
 *
 *         #pragma omp parallel num_threads(plan.threads)
 *         TILE_FOREACH_GROUP(&plan, g)               // Alg. 4, funneled
 *             HYBRID_FUNNELED_STEP(g, it, BODY);
 *
 *         #pragma omp parallel num_threads(plan.threads)
 *         TILE_FOREACH_GROUP(&plan, g)               // Alg. 5, multiple
 *             HYBRID_MULTIPLE_STEP(g, it, BODY);
 *
 * Threads split each process's block into a T_1 x ... x T_N grid of thread
 * tiles and follow the hyperplane schedule: at step s thread t computes tile
 * s - (t_1 + ... + t_N) of its column, so a thread's neighbours below have
 * finished what it needs one step earlier, and one barrier per step is all
 * the synchronisation there is.
 *
 *   fine      MPI outside an OpenMP parallel region opened every step
 *             (needs MPI_THREAD_FUNNELED);
 *   funneled  one parallel region for the run; the master thread packs,
 *             sends, receives and unpacks for every thread, one message per
 *             tile and direction (the whole face, once every face thread has
 *             computed it); it computes a share bal/T of the points (the
 *             other threads (T - bal) / (T (T - 1)) each), applied along the
 *             dimension with the most threads.  cfg.balance chooses the
 *             factor: TILE_BAL_FIXED (cfg.bal; 1 = even split),
 *             TILE_BAL_CONSTANT and TILE_BAL_VARIABLE (eq. 1, balance.h, with
 *             a cost model given or measured), TILE_BAL_ADAPTIVE (Lemma 2 on
 *             the master's measured times, re-evaluated every period with
 *             smoothing), TILE_BAL_CUSTOM (your function per tile).  A new
 *             factor applies from the next tile, which starts S steps later
 *             (a drain) so that no point is computed out of order
 *             (MPI_THREAD_FUNNELED);
 *   multiple  one parallel region; every thread sends and receives its own
 *             part of each face, with its coordinates in the tag
 *             (MPI_THREAD_MULTIPLE); even split, no balancing.
 *
 * Start MPI with hybrid_init() (or MPI_Init_thread with the level of
 * tile_model_thread_level()); tile_plan_create() refuses a model whose thread
 * level MPI does not provide.  Without OpenMP the threaded models run with
 * one thread (cfg.threads must be 1).
 *
 * Body rules (continue, break, return) are those of tiling.h.  Per-thread
 * results: index arrays by TILE_THREAD(it).
 */
#ifndef TILEHYBRID_HYBRID_H
#define TILEHYBRID_HYBRID_H

#define HYBRID_VERSION "0.1.0"

#include "tiling.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef _OPENMP
#define HYBRID__PRAGMA(x) _Pragma(x)
#else
#define HYBRID__PRAGMA(x)
#endif

/**
 * hybrid_init() - initialise MPI with the thread support a model needs.
 * @argc, @argv: as for MPI_Init_thread (may be NULL).
 * @model:       enum tile_model.
 * @threads:     threads per process (the pure MPI model needs 1).
 * @provided:    receives the level MPI provides (may be NULL).
 *
 * Return: TILE_OK; TILE_ERR_THREAD_LEVEL when MPI started but provides less
 * than the model needs (MPI is initialised: finalize it); TILE_ERR_MODEL for
 * an unknown model; TILE_ERR_MPI if MPI_Init_thread failed.
 */
static inline int hybrid_init(int *argc, char ***argv, int model, int threads, int *provided)
{
    int need, got = MPI_THREAD_SINGLE;
    if (tile_model_name(model) == NULL)
        return TILE_ERR_MODEL;
    need = tile_model_thread_level(model, threads);
    /* funneled is the least a threaded program may ask for */
    if (MPI_Init_thread(argc, argv, need > MPI_THREAD_FUNNELED ? need : MPI_THREAD_FUNNELED,
                        &got) != MPI_SUCCESS)
        return TILE_ERR_MPI;
    if (provided != NULL)
        *provided = got;
    return got >= need ? TILE_OK : TILE_ERR_THREAD_LEVEL;
}

static inline int hybrid__num_threads(void)
{
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

/**
 * HYBRID_FINE_STEP(g, it, body...) - one step of the fine-grain model
 * (Alg. 3): the calling thread sends the previous step's boundary and posts
 * the receives, then an OpenMP parallel region of plan.threads threads
 * computes the step's thread tiles, then the calling thread waits and
 * unpacks.  Use it as the body of TILE_FOREACH_GROUP outside any parallel
 * region.  If OpenMP gives the region fewer threads (OMP_THREAD_LIMIT,
 * OMP_DYNAMIC, nesting), each thread computes the tiles of the missing ones
 * too: the tiles of one step are independent.
 * @g:    the tile_group of TILE_FOREACH_GROUP.
 * @it:   the cursor name for TILE_AT (declared here, private per thread).
 * @body: the point update; `continue` skips to the next point, `break`
 *        is reported as TILE_ERR_BODY, `return`/`goto` out are not allowed.
 */
#define HYBRID_FINE_STEP(g, it, ...)                                               \
    do {                                                                           \
        tile_group *const hybrid_fn_g_ = &(g);                                     \
        tile_plan *const hybrid_fn_p_ = hybrid_fn_g_->plan;                        \
        int64_t const hybrid_fn_s_ = hybrid_fn_g_->step;                           \
        if (!tile__step_ok(hybrid_fn_g_, TILE_MODEL_FINE))                         \
            break;                                                                 \
        tile__comm_begin(hybrid_fn_p_, hybrid_fn_s_, 0);                           \
        HYBRID__PRAGMA("omp parallel num_threads(hybrid_fn_p_->threads)")          \
        {                                                                          \
            int hybrid_fn_t_;                                                      \
            for (hybrid_fn_t_ = tile__thread_num(); hybrid_fn_t_ < hybrid_fn_p_->threads; \
                 hybrid_fn_t_ += hybrid__num_threads())                            \
                TILE__COMPUTE(hybrid_fn_p_, hybrid_fn_t_, hybrid_fn_s_, it, __VA_ARGS__); \
        }                                                                          \
        tile__comm_end(hybrid_fn_p_, hybrid_fn_s_, 0);                             \
    } while (0)

/**
 * HYBRID_FUNNELED_STEP(g, it, body...) - one step of the coarse-grain
 * funneled model (Alg. 4), executed by every thread of the enclosing
 * parallel region: the master packs and sends the previous step's boundary
 * of all threads and posts the receives, every thread computes its tile of
 * the hyperplane schedule (the master a share bal/T), the master waits and
 * unpacks for all threads, and one barrier ends the step.
 * @g:    the tile_group of TILE_FOREACH_GROUP (private to each thread).
 * @it:   the cursor name for TILE_AT.
 * @body: the point update; `continue` skips to the next point, `break`
 *        is reported as TILE_ERR_BODY, `return`/`goto` out are not allowed.
 */
#define HYBRID_FUNNELED_STEP(g, it, ...)                                           \
    do {                                                                           \
        tile_group *const hybrid_fs_g_ = &(g);                                     \
        tile_plan *const hybrid_fs_p_ = hybrid_fs_g_->plan;                        \
        if (!tile__step_ok(hybrid_fs_g_, TILE_MODEL_FUNNELED))                  \
            break;                                                                 \
        if (hybrid_fs_g_->thread == 0)                                             \
            tile__comm_begin(hybrid_fs_p_, hybrid_fs_g_->step, 0);             \
        TILE__COMPUTE(hybrid_fs_p_, hybrid_fs_g_->thread, hybrid_fs_g_->step, it,  \
                      __VA_ARGS__);                                                \
        if (hybrid_fs_g_->thread == 0)                                             \
            tile__comm_end(hybrid_fs_p_, hybrid_fs_g_->step, 0);               \
        tile__barrier();                                                         \
    } while (0)

/**
 * HYBRID_MULTIPLE_STEP(g, it, body...) - one step of the coarse-grain
 * multiple model (Alg. 5), executed by every thread of the enclosing
 * parallel region: each thread on a face sends its own part of the previous
 * step's boundary and receives its own part for the next step (thread
 * coordinates in the tag), computes its tile, waits, unpacks; one barrier.
 * Needs MPI_THREAD_MULTIPLE.
 * @g:    the tile_group of TILE_FOREACH_GROUP (private to each thread).
 * @it:   the cursor name for TILE_AT.
 * @body: the point update; `continue` skips to the next point, `break`
 *        is reported as TILE_ERR_BODY, `return`/`goto` out are not allowed.
 */
#define HYBRID_MULTIPLE_STEP(g, it, ...)                                           \
    do {                                                                           \
        tile_group *const hybrid_ms_g_ = &(g);                                     \
        tile_plan *const hybrid_ms_p_ = hybrid_ms_g_->plan;                        \
        int const hybrid_ms_t_ = hybrid_ms_g_->thread;                             \
        if (!tile__step_ok(hybrid_ms_g_, TILE_MODEL_MULTIPLE))                  \
            break;                                                                 \
        tile__comm_begin(hybrid_ms_p_, hybrid_ms_g_->step, hybrid_ms_t_); \
        TILE__COMPUTE(hybrid_ms_p_, hybrid_ms_t_, hybrid_ms_g_->step, it, __VA_ARGS__); \
        tile__comm_end(hybrid_ms_p_, hybrid_ms_g_->step, hybrid_ms_t_); \
        tile__barrier();                                                         \
    } while (0)

/* A step hook that does nothing: HYBRID_RUN's. */
static inline void hybrid__no_step(const tile_plan *plan, int thread)
{
    (void)plan;
    (void)thread;
}

/**
 * HYBRID_RUN(plan, it, body...) - run the whole computation under the
 * plan's model (cfg.model), opening the parallel region where the model
 * needs one.  The body is expanded once per model, so it must not define
 * labels, and `static` variables in it exist once per model.  A body may
 * use _Pragma("omp simd") but not a #pragma line (it is a macro argument).
 * @plan: pointer to a tile_plan (evaluated once).
 * @it:   the cursor name for TILE_AT.
 * @body: the point update.
 * Collective over the plan's communicator.  Check tile_plan_status() after.
 */
#define HYBRID_RUN(plan, it, ...) HYBRID_RUN_EACH_STEP(plan, hybrid__no_step, it, __VA_ARGS__)

/**
 * HYBRID_RUN_EACH_STEP(plan, after_step, it, body...) - HYBRID_RUN, and
 * after every step each thread calls after_step(plan, thread): a progress
 * report, a log line, a check.
 * @plan:       pointer to a tile_plan (evaluated once).
 * @after_step: a function void f(const tile_plan *, int thread), evaluated
 *              once; it runs inside the parallel region in the funneled and
 *              multiple models, so it must be thread-safe (or look at thread
 *              0 only, which is the thread that called MPI_Init).
 * @it, @body:  as for HYBRID_RUN.
 */
#define HYBRID_RUN_EACH_STEP(plan, after_step, it, ...)                            \
    do {                                                                           \
        tile_plan *const hybrid_run_p_ = (plan);                                   \
        void (*const hybrid_run_f_)(const tile_plan *, int) = (after_step);        \
        switch (hybrid_run_p_->cfg.model) {                                        \
        case TILE_MODEL_MPI:                                                       \
            TILE_FOREACH_GROUP(hybrid_run_p_, hybrid_run_g_) {                     \
                TILE_MPI_STEP(hybrid_run_g_, it, __VA_ARGS__);                     \
                hybrid_run_f_(hybrid_run_p_, hybrid_run_g_.thread);                \
            }                                                                      \
            break;                                                                 \
        case TILE_MODEL_FINE:                                                      \
            TILE_FOREACH_GROUP(hybrid_run_p_, hybrid_run_g_) {                     \
                HYBRID_FINE_STEP(hybrid_run_g_, it, __VA_ARGS__);                  \
                hybrid_run_f_(hybrid_run_p_, hybrid_run_g_.thread);                \
            }                                                                      \
            break;                                                                 \
        case TILE_MODEL_FUNNELED:                                                  \
            HYBRID__PRAGMA("omp parallel num_threads(hybrid_run_p_->threads)")     \
            TILE_FOREACH_GROUP(hybrid_run_p_, hybrid_run_g_) {                     \
                HYBRID_FUNNELED_STEP(hybrid_run_g_, it, __VA_ARGS__);              \
                hybrid_run_f_(hybrid_run_p_, hybrid_run_g_.thread);                \
            }                                                                      \
            break;                                                                 \
        case TILE_MODEL_MULTIPLE:                                                  \
            HYBRID__PRAGMA("omp parallel num_threads(hybrid_run_p_->threads)")     \
            TILE_FOREACH_GROUP(hybrid_run_p_, hybrid_run_g_) {                     \
                HYBRID_MULTIPLE_STEP(hybrid_run_g_, it, __VA_ARGS__);              \
                hybrid_run_f_(hybrid_run_p_, hybrid_run_g_.thread);                \
            }                                                                      \
            break;                                                                 \
        default:                                                                   \
            tile__fail(hybrid_run_p_, TILE_ERR_MODEL, "unknown model %d",          \
                       hybrid_run_p_->cfg.model);                                  \
        }                                                                          \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_HYBRID_H */
