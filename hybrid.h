/* hybrid.h -- MPI+OpenMP models for tiled loop nests: fine-grain,
 * coarse-grain funneled and coarse-grain multiple.  Part of tilehybrid (MIT
 * licence), version HYBRID_VERSION.
 *
 * A plan from tiling.h (tile_plan_create) splits each process's block into
 * a T_1 x ... x T_N grid of thread tiles; this header runs them with OpenMP
 * threads.  Threads follow the hyperplane schedule: at step s thread t
 * computes the tile thread 0 started t_1 + ... + t_N steps earlier, so a
 * thread's neighbours below have finished what it needs one step before,
 * and one barrier per step is all the synchronisation there is.
 *
 *   fine      MPI outside an OpenMP parallel region opened every step
 *             (needs MPI_THREAD_FUNNELED);
 *   funneled  one parallel region for the run; the master thread packs,
 *             sends, receives and unpacks for every thread, one message per
 *             tile and direction (the whole face, once every face thread has
 *             computed it); it computes a share bal/T of the points (the
 *             other threads (T - bal) / (T (T - 1)) each), applied along the
 *             dimension with the most threads.  cfg.balance (balance.h)
 *             chooses the factor: fixed, constant or variable (eq. 1),
 *             adaptive (Lemma 2), or your function per tile.  A new factor
 *             applies from the next tile, which starts S steps later (a
 *             drain) so that no point is computed out of order
 *             (MPI_THREAD_FUNNELED);
 *   multiple  one parallel region; every thread sends and receives its own
 *             part of each face, with its coordinates in the tag
 *             (MPI_THREAD_MULTIPLE); even split, no balancing.  With
 *             cfg.messages = TILE_MESSAGES_PARTITIONED and an MPI-4 library
 *             (TILE_HAVE_PARTITIONED; MPICH 4 has it, Open MPI 4.1 does
 *             not: it then falls back to persistent requests), each face
 *             is one partitioned message per step, each thread marking its
 *             own part ready (MPI_Pready) and waiting for its own
 *             (MPI_Parrived).
 *
 * Every model's face messages are persistent requests made once per plan
 * and started with one MPI_Startall per step and thread (tiling.h, "Face
 * messages"); cfg.messages = TILE_MESSAGES_NONBLOCKING posts MPI_Isend and
 * MPI_Irecv per tile instead.
 *
 * The models call tiling.h's public step functions (tile_step_enter,
 * tile_run_start, tile_pack, tile_waitall, ...; the multiple model also
 * tile_post and, for partitioned messages, tile_parted_ready,
 * tile_parted_arrive, tile_parted_cycle and tile_parted_finish: the plan
 * makes every model's requests, so they live in tiling.h) and its models'
 * interface (tiling.h, "The models' interface"): tile_face_message and
 * tile_face_start (a face message on the plan's requests, and their
 * MPI_Startall), tile_part_sends, tile_part_receives, tile_part_tag (the
 * multiple model's face parts) and tile_face_tile (the tile a failure
 * names); no private name of tiling.h.
 *
 * A complete program, the ADI kernel under the model named on the command
 * line (mpicc -fopenmp; mpiexec -n 2 ./adi funneled 2):
 *
 *     #include <stdio.h>
 *     #include "hybrid.h"
 *
 *     static void edge(void *out, const int64_t *c, void *ctx)
 *     {   (void)ctx; *(double *)out = (double)((31*c[0] + 17*c[1] + 7*c[2]
 *                                               + 1000003) % 97) / 97.0;  }
 *
 *     int main(int argc, char **argv)
 *     {
 *         tile_config cfg;
 *         tile_plan plan;
 *         int model = TILE_MODEL_FUNNELED, threads = 2, failed;
 *         int64_t t;
 *         if (argc > 2 && tilehybrid_parse_i64(argv[2], 1, 1024, &t) == TILEHYBRID_OK)
 *             threads = (int)t;
 *         if (argc > 1)
 *             for (model = 0; model < 4; model++)
 *                 if (strcmp(argv[1], tile_model_name(model)) == 0)
 *                     break;
 *         if (model == 4) {
 *             fprintf(stderr, "%s: no model '%s' (mpi, fine, funneled, multiple)\n",
 *                     argv[0], argv[1]);
 *             return 2;
 *         }
 *         if (hybrid_init(&argc, &argv, model, threads, NULL) != TILE_OK)
 *             return 1;                            // (finalize MPI if it started)
 *         tile_config_init(&cfg, 2);
 *         cfg.extent[0] = 64;  cfg.extent[1] = 256;  cfg.zlen = 4096;
 *         cfg.tile_height = 100;
 *         cfg.boundary = edge;
 *         cfg.model = model;
 *         cfg.threads = model == TILE_MODEL_MPI ? 1 : threads;
 *         if (tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) == TILE_OK)
 *             HYBRID_RUN(&plan, it, {
 *                 TILE_AT(double, it, 0, 0, 0) =
 *                     ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0))
 *                      + TILE_AT(double, it, 0, 0, -1)) / 3.0;
 *             });
 *         failed = tile_plan_status(&plan) != TILE_OK;   // the same on every rank
 *         if (failed && plan.rank == 0)
 *             fprintf(stderr, "%s\n", plan.errmsg);
 *         else if (plan.rank == 0)
 *             printf("%s: %.3f s\n", tile_model_name(model), plan.run.seconds);
 *         tile_plan_destroy(&plan);
 *         MPI_Finalize();
 *         return failed;
 *     }
 *
 * HYBRID_RUN() picks the model at run time (the body is written once;
 * HYBRID_RUN_EACH_STEP() also calls a function after every step).  Or write
 * the step loop yourself, which reads like the papers' algorithms:
 *
 *     TILE_FOREACH_GROUP(&plan, g)               // Alg. 3, fine grain
 *         HYBRID_FINE_STEP(g, it, BODY);
 *
 *     #pragma omp parallel num_threads(plan.cfg.threads)
 *     TILE_FOREACH_GROUP(&plan, g)               // Alg. 4, funneled
 *         HYBRID_FUNNELED_STEP(g, it, BODY);
 *
 *     #pragma omp parallel num_threads(plan.cfg.threads)
 *     TILE_FOREACH_GROUP(&plan, g)               // Alg. 5, multiple
 *         HYBRID_MULTIPLE_STEP(g, it, BODY);
 *
 * Start MPI with hybrid_init() (or MPI_Init_thread with the level of
 * tile_model_thread_level()); tile_plan_create() refuses a model whose thread
 * level MPI does not provide.  Without OpenMP the threaded models run with
 * one thread (cfg.threads must be 1).
 *
 * Compile time: HYBRID_RUN expands the body three times (pure MPI, fine
 * grain, and one loop for both coarse-grain models);
 * TILEHYBRID_SEPARATE and TILEHYBRID_IMPLEMENTATION (tilehybrid.h,
 * "COMPILING THE COLD CODE ONCE") compile hybrid_init and tiling.h's cold
 * code once per program.
 *
 * Body rules (continue, break, return) are those of tiling.h.  Sums, minima,
 * maxima and checksums: a declared reduction (tile_reduce, tile_reduce_u64);
 * other per-thread results: index arrays by TILE_THREAD(it).  Errors:
 * tiling.h's codes.
 */
#ifndef TILEHYBRID_HYBRID_H
#define TILEHYBRID_HYBRID_H

#include "tiling.h"
#if TILEHYBRID__MODE != defined(TILEHYBRID_SEPARATE) + defined(TILEHYBRID_IMPLEMENTATION)
#error "hybrid.h: TILEHYBRID_SEPARATE or TILEHYBRID_IMPLEMENTATION changed after the first tilehybrid header was included: define them before it"
#endif

#define HYBRID_VERSION TILEHYBRID_VERSION

#ifdef __cplusplus
extern "C" {
#endif

#ifdef _OPENMP
#define HYBRID__PRAGMA(x) _Pragma(x)
#else
#define HYBRID__PRAGMA(x)
#endif

#if TILEHYBRID__DEFINE
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
TILEHYBRID__COLD int hybrid_init(int *argc, char ***argv, int model, int threads, int *provided)
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
#else
TILEHYBRID__COLD int hybrid_init(int *argc, char ***argv, int model, int threads, int *provided);
#endif

static inline int hybrid__num_threads(void)
{
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

static inline void hybrid__barrier(void)
{
#ifdef _OPENMP
#pragma omp barrier
#endif
}

/* ------------------------------------------------------------------------ */
/* The multiple model: every thread sends and receives its own face parts   */
/* One message per part and step, the thread's coordinates (t_i dropped) in
 * the tag (tiling.h's tile_part_tag; the parts' places in the face
 * buffers and their persistent requests are made with the plan).  Step s
 * sends what thread t computed at step s-1 and receives what it needs at
 * step s+1 (sigma(k) = k: no rebalancing in this model).  With partitioned
 * messages (run.messaging), one message per face and step instead, each
 * thread's part a partition (tiling.h's tile_parted_*). */

/* The tile of thread t's part in the messages of step s, or -1. */
static inline int64_t hybrid__part_tile(const tile_plan *p, int t, int64_t s)
{
    int64_t k = s - p->threads.delay[t];
    return (k >= 0 && k < p->ntiles) ? k : -1;
}

/* Pack and send thread t's parts computed at step s-1. */
static inline void hybrid__post_sends(tile_plan *p, int64_t s, int t)
{
    int i;
    int64_t k = hybrid__part_tile(p, t, s - 1);
    for (i = 0; i < p->cfg.n && k >= 0; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, bytes;
        unsigned char *buf = p->store.sbuf[i] + p->run.seg[i * p->cfg.threads + t];
        if (p->nbr_hi[i] == MPI_PROC_NULL || !tile_part_sends(p, t, i))
            continue;
        tile_thread_face(p, t, k, i, 0, lo, hi);
        bytes = tile_pack(p, k, lo, hi, buf, 1);
        if (bytes == 0)
            continue;
        tile_face_message(p, t, 1, buf, bytes, p->nbr_hi[i], tile_part_tag(p, t, i), k, i);
        p->run.stats[t].bytes_sent += bytes;
        p->run.stats[t].messages++;
    }
}

/* Post the receives of thread t's parts needed at step s. */
static inline void hybrid__post_recvs(tile_plan *p, int64_t s, int t)
{
    int i;
    int64_t k = hybrid__part_tile(p, t, s);
    for (i = 0; i < p->cfg.n && k >= 0; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, bytes;
        if (p->nbr_lo[i] == MPI_PROC_NULL || !tile_part_receives(p, t, i))
            continue;
        tile_thread_face(p, t, k, i, 1, lo, hi);
        bytes = tile_box_bytes(p, k, lo, hi);
        if (bytes == 0)
            continue;
        tile_face_message(p, t, 0, p->store.rbuf[i] + p->run.seg[i * p->cfg.threads + t],
                          bytes, p->nbr_lo[i], tile_part_tag(p, t, i), k, i);
    }
}

/* Unpack thread t's parts received for step s into the ghost layers. */
static inline void hybrid__unpack(tile_plan *p, int64_t s, int t)
{
    int i;
    int64_t k = hybrid__part_tile(p, t, s);
    for (i = 0; i < p->cfg.n && k >= 0; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
        if (p->nbr_lo[i] == MPI_PROC_NULL || !tile_part_receives(p, t, i))
            continue;
        tile_thread_face(p, t, k, i, 1, lo, hi);
        tile_pack(p, k, lo, hi, p->store.rbuf[i] + p->run.seg[i * p->cfg.threads + t], 0);
    }
}

/* Wait for thread t's messages and unpack what its step s needs
 * (partitioned: its partitions of the message step s - 1 waits for). */
TILEHYBRID__WARM void hybrid__multiple_wait(tile_plan *p, int64_t s, int t);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void hybrid__multiple_wait(tile_plan *p, int64_t s, int t)
{
    double t0;
#if TILE_HAVE_PARTITIONED
    if (p->run.messaging == TILE_MESSAGES_PARTITIONED) {
        tile_parted_arrive(p, s - 1, t);
        return;
    }
#endif
    tile_waitall(p, t, hybrid__part_tile(p, t, s));
    t0 = tile_wtime();
    hybrid__unpack(p, s, t);
    p->run.stats[t].comm += tile_wtime() - t0;
}
#endif

/* Thread t's messages that open step s (its parts computed at step s - 1;
 * with @recv, the receives of what step s + 1 needs too), started at once
 * (MPI_Startall), or its partitions marked ready. */
TILEHYBRID__WARM void hybrid__multiple_post(tile_plan *p, int64_t s, int t, int recv);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void hybrid__multiple_post(tile_plan *p, int64_t s, int t, int recv)
{
    double t0 = tile_wtime();
    int from = p->run.nreq[t];
#if TILE_HAVE_PARTITIONED
    if (p->run.messaging == TILE_MESSAGES_PARTITIONED) {
        tile_parted_ready(p, s, t);
        p->run.stats[t].comm += tile_wtime() - t0;
        return;
    }
#endif
    hybrid__post_sends(p, s, t);
    if (recv)
        hybrid__post_recvs(p, s + 1, t);
    tile_face_start(p, t, from, hybrid__part_tile(p, t, s - 1) >= 0
                                    ? s - 1 - p->threads.delay[t]
                                    : s + 1 - p->threads.delay[t]);
    p->run.stats[t].comm += tile_wtime() - t0;
}
#endif

/* The master's part of the partitioned messages at the end of step s
 * (before the step's barrier; s = -1: the prologue). */
static inline void hybrid__multiple_cycle(tile_plan *p, int64_t s)
{
#if TILE_HAVE_PARTITIONED
    if (p->run.messaging == TILE_MESSAGES_PARTITIONED)
        tile_parted_cycle(p, s);
#else
    (void)p;
    (void)s;
#endif
}

/* ------------------------------------------------------------------------ */
/* Runs of the coarse-grain models: one parallel region for the run         */

/* Step 0 of a coarse-grain model, by every thread of the region: the master
 * starts the run (collective); one barrier; a thread that finds the run not
 * started leaves with every other.  The multiple model: each thread then
 * receives what its first step needs. */
static inline int hybrid__coarse_enter(tile_group *g, int model)
{
    tile_plan *p = g->plan;
    g->thread = tilehybrid_thread_num();
    if (g->step > 0)
        return 1;
    if (g->thread == 0 && tile_run_start(p, model, hybrid__num_threads()) &&
        model == TILE_MODEL_MULTIPLE)
        hybrid__multiple_cycle(p, -1);
    hybrid__barrier();
    if (!p->run.ok) {
        g->done = 1;
        return 0;
    }
    g->step = p->run.first_step;    /* past a checkpoint's step: no prologue */
    if (model == TILE_MODEL_MULTIPLE && g->step == 0) {    /* the prologue: what step 0 needs */
        if (p->run.messaging != TILE_MESSAGES_PARTITIONED) {
            int from = p->run.nreq[g->thread];
            hybrid__post_recvs(p, 0, g->thread);
            tile_face_start(p, g->thread, from, 0);
        }
        hybrid__multiple_wait(p, 0, g->thread);
    }
    return 1;
}

/* After the step's barrier: if it was the last step, send the last faces
 * (the master's whole faces, or each thread's parts), finish the run on the
 * master, and leave together. */
TILEHYBRID__WARM void hybrid__coarse_leave(tile_group *g, int model);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void hybrid__coarse_leave(tile_group *g, int model)
{
    tile_plan *p = g->plan;
    int64_t nsteps = tile_nsteps(p);   /* written by the master before the barrier */
    if (tile__ckpt_at(p) == g->step + 1) {     /* this rank's cut: nothing in flight */
        if (g->thread == 0)
            tile__ckpt_cut(p, g->step);
        hybrid__barrier();
    }
    if (g->step + 1 < nsteps)
        return;
    if (model == TILE_MODEL_MULTIPLE) {
        hybrid__multiple_post(p, nsteps, g->thread, 0);
        tile_waitall(p, g->thread, hybrid__part_tile(p, g->thread, nsteps - 1));
        hybrid__barrier();
#if TILE_HAVE_PARTITIONED
        if (g->thread == 0 && p->run.messaging == TILE_MESSAGES_PARTITIONED)
            tile_parted_finish(p);
#endif
        if (g->thread == 0)
            tile_run_finish(p);
    } else if (g->thread == 0) {
        tile_comm_begin(p, nsteps);
        tile_waitall(p, 0, tile_face_tile(p));
        tile_run_finish(p);
    }
    hybrid__barrier();
    g->done = 1;
}
#endif

/* The funneled master's end of step s: wait and unpack, let the balancing
 * policy see the step, schedule the next tiles. */
TILEHYBRID__WARM void hybrid__funneled_end(tile_plan *p, int64_t s);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void hybrid__funneled_end(tile_plan *p, int64_t s)
{
    const tile_stats *m = &p->run.stats[0];
    tile_comm_end(p, s);
    if (p->run.balancing)
        bal_policy_step(&p->run.bal, m->compute, m->comm, m->points);
    tile_schedule(p, s);
}
#endif


/* ... and close it: wait, unpack what step s + 1 needs; the master
 * schedules (and cycles the partitioned messages). */
static inline void hybrid__multiple_end(tile_plan *p, int64_t s, int t)
{
    hybrid__multiple_wait(p, s + 1, t);
    if (t == 0) {
        hybrid__multiple_cycle(p, s);
        tile_schedule(p, s);
    }
}

/* The messages that open step s of a coarse-grain model for thread t: the
 * funneled master sends the previous step's boundary of all threads and
 * posts the receives; in the multiple model each thread sends what it
 * computed at step s - 1 and posts the receives of what step s + 1 needs. */
TILEHYBRID__WARM void hybrid__coarse_begin(tile_plan *p, int model, int64_t s, int t);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void hybrid__coarse_begin(tile_plan *p, int model, int64_t s, int t)
{
    if (model == TILE_MODEL_MULTIPLE)
        hybrid__multiple_post(p, s, t, 1);
    else if (t == 0)
        tile_comm_begin(p, s);
}
#endif

/* ... and close it, before the step's barrier: hybrid__multiple_end(), or
 * the funneled master's hybrid__funneled_end(). */
TILEHYBRID__WARM void hybrid__coarse_end(tile_plan *p, int model, int64_t s, int t);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void hybrid__coarse_end(tile_plan *p, int model, int64_t s, int t)
{
    if (model == TILE_MODEL_MULTIPLE)
        hybrid__multiple_end(p, s, t);
    else if (t == 0)
        hybrid__funneled_end(p, s);
}
#endif

/* ------------------------------------------------------------------------ */
/* The step macros                                                          */

/**
 * HYBRID_FINE_STEP(g, it, body...) - one step of the fine-grain model
 * (Alg. 3): the calling thread sends the previous step's boundary and posts
 * the receives, then an OpenMP parallel region of plan.cfg.threads threads
 * computes the step's thread tiles, then the calling thread waits and
 * unpacks.  Use it as the body of TILE_FOREACH_GROUP outside any parallel
 * region.  If OpenMP gives the region fewer threads (OMP_THREAD_LIMIT,
 * OMP_DYNAMIC, nesting), each thread computes the tiles of the missing ones
 * too: the tiles of one step are independent.
 * @g:    the tile_group of TILE_FOREACH_GROUP.
 * @it:   the cursor name for TILE_AT (declared here, private per thread).
 * @body: the point update; `continue` skips to the next point, `break`
 *        is reported as TILE_ERR_BODY, `return`/`goto` out are not allowed
 *        (refused under OpenMP; without, tiling.h's "The body").
 */
#define HYBRID_FINE_STEP(g, it, ...)                                               \
    do {                                                                           \
        tile_group *const hybrid_fn_g_ = &(g);                                     \
        tile_plan *const hybrid_fn_p_ = hybrid_fn_g_->plan;                        \
        hybrid_fn_g_->thread = tilehybrid_thread_num();                            \
        if (tile_step_enter(hybrid_fn_g_, TILE_MODEL_FINE,                         \
                            tilehybrid_in_parallel())) {                           \
            int64_t const hybrid_fn_s_ = hybrid_fn_g_->step; /* (after a restart) */ \
            tile_comm_begin(hybrid_fn_p_, hybrid_fn_s_);                           \
            HYBRID__PRAGMA("omp parallel num_threads(hybrid_fn_p_->cfg.threads)")  \
            {                                                                      \
                int hybrid_fn_t_;                                                  \
                for (hybrid_fn_t_ = tilehybrid_thread_num();                       \
                     hybrid_fn_t_ < hybrid_fn_p_->cfg.threads;                     \
                     hybrid_fn_t_ += hybrid__num_threads())                        \
                    TILE_COMPUTE(hybrid_fn_p_, hybrid_fn_t_, hybrid_fn_s_, it, __VA_ARGS__); \
            }                                                                      \
            tile_comm_end(hybrid_fn_p_, hybrid_fn_s_);                             \
            tile_schedule(hybrid_fn_p_, hybrid_fn_s_);                             \
            tile_step_leave(hybrid_fn_g_);                                         \
        }                                                                          \
    } while (0)

/* One step of a coarse-grain model (HYBRID_FUNNELED_STEP,
 * HYBRID_MULTIPLE_STEP), executed by every thread of the enclosing parallel
 * region: step 0 starts the run, then the step's messages open, the thread
 * computes its tile, the messages close, one barrier, and the last step
 * ends the run. */
#define HYBRID__COARSE_STEP(g, it, model, ...)                                     \
    do {                                                                           \
        tile_group *const hybrid_cs_g_ = &(g);                                     \
        tile_plan *const hybrid_cs_p_ = hybrid_cs_g_->plan;                        \
        int const hybrid_cs_m_ = (model);                                          \
        if (hybrid__coarse_enter(hybrid_cs_g_, hybrid_cs_m_)) {                    \
            int const hybrid_cs_t_ = hybrid_cs_g_->thread;                         \
            hybrid__coarse_begin(hybrid_cs_p_, hybrid_cs_m_, hybrid_cs_g_->step,   \
                                 hybrid_cs_t_);                                    \
            TILE_COMPUTE(hybrid_cs_p_, hybrid_cs_t_, hybrid_cs_g_->step, it, __VA_ARGS__); \
            hybrid__coarse_end(hybrid_cs_p_, hybrid_cs_m_, hybrid_cs_g_->step,     \
                               hybrid_cs_t_);                                      \
            hybrid__barrier();                                                     \
            hybrid__coarse_leave(hybrid_cs_g_, hybrid_cs_m_);                      \
        }                                                                          \
    } while (0)

/**
 * HYBRID_FUNNELED_STEP(g, it, body...) - one step of the coarse-grain
 * funneled model (Alg. 4), executed by every thread of the enclosing
 * parallel region: the master packs and sends the previous step's boundary
 * of all threads and posts the receives, every thread computes its tile of
 * the hyperplane schedule (the master a share bal/T), the master waits,
 * unpacks for all threads and lets the balancing policy see the step, and
 * one barrier ends the step.
 * @g:    the tile_group of TILE_FOREACH_GROUP (private to each thread).
 * @it:   the cursor name for TILE_AT.
 * @body: the point update; `continue` skips to the next point, `break`
 *        is reported as TILE_ERR_BODY, `return`/`goto` out are not allowed
 *        (refused under OpenMP; without, tiling.h's "The body").
 */
#define HYBRID_FUNNELED_STEP(g, it, ...)                                           \
    HYBRID__COARSE_STEP(g, it, TILE_MODEL_FUNNELED, __VA_ARGS__)

/**
 * HYBRID_MULTIPLE_STEP(g, it, body...) - one step of the coarse-grain
 * multiple model (Alg. 5), executed by every thread of the enclosing
 * parallel region: each thread on a face sends its own part of the previous
 * step's boundary and posts the receive of its own part for the next step
 * (thread coordinates in the tag), computes its tile, waits, unpacks; one
 * barrier.
 * Needs MPI_THREAD_MULTIPLE.
 * @g:    the tile_group of TILE_FOREACH_GROUP (private to each thread).
 * @it:   the cursor name for TILE_AT.
 * @body: the point update; `continue` skips to the next point, `break`
 *        is reported as TILE_ERR_BODY, `return`/`goto` out are not allowed
 *        (refused under OpenMP; without, tiling.h's "The body").
 */
#define HYBRID_MULTIPLE_STEP(g, it, ...)                                           \
    HYBRID__COARSE_STEP(g, it, TILE_MODEL_MULTIPLE, __VA_ARGS__)

/* A step hook that does nothing: HYBRID_RUN's. */
static inline void hybrid__no_step(const tile_plan *plan, int thread)
{
    (void)plan;
    (void)thread;
}

/**
 * HYBRID_RUN(plan, it, body...) - run the whole computation under the
 * plan's model (cfg.model), opening the parallel region where the model
 * needs one.  The body is expanded more than once (three times: see
 * HYBRID_RUN_EACH_STEP), so it must not define labels, and `static`
 * variables in it exist once per expansion.  A body may
 * use _Pragma("omp simd") but not a #pragma line (it is a macro argument).
 * @plan: pointer to a tile_plan (evaluated once).
 * @it:   the cursor name for TILE_AT.
 * @body: the point update.
 * Collective over the plan's communicator.  Check tile_plan_status() after.
 */
#define HYBRID_RUN(plan, it, ...) HYBRID_RUN_EACH_STEP(plan, hybrid__no_step, it, __VA_ARGS__)

/* HYBRID_RUN_EACH_STEP's loop: every group through the step macro step,
 * then the after-step call (its locals hybrid_run_p_, hybrid_run_f_). */
#define HYBRID__RUN_GROUPS(step, it, ...)                                          \
    TILE_FOREACH_GROUP(hybrid_run_p_, hybrid_run_g_) {                             \
        step(hybrid_run_g_, it, __VA_ARGS__);                                      \
        hybrid_run_f_(hybrid_run_p_, hybrid_run_g_.thread);                        \
    }

/* HYBRID_RUN_EACH_STEP's step of the coarse-grain models, funneled or
 * multiple, the plan's model a run-time value (its local hybrid_run_m_). */
#define HYBRID__RUN_COARSE_STEP(g, it, ...)                                        \
    HYBRID__COARSE_STEP(g, it, hybrid_run_m_, __VA_ARGS__)

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
 *
 * The body is expanded three times: TILE_MPI_STEP's, HYBRID_FINE_STEP's,
 * and one for both coarse-grain models (HYBRID_FUNNELED_STEP's and
 * HYBRID_MULTIPLE_STEP's code, the model a run-time value); each model runs
 * as its own step macro does.  (The pure MPI model keeps its own: in the
 * fine-grain model's parallel region, an inactive one, the body would run
 * in OpenMP's outlined function and read the caller's variables through a
 * pointer: demos/sw, one process, 2.4% more instructions.)
 */
#define HYBRID_RUN_EACH_STEP(plan, after_step, it, ...)                            \
    do {                                                                           \
        tile_plan *const hybrid_run_p_ = (plan);                                   \
        void (*const hybrid_run_f_)(const tile_plan *, int) = (after_step);        \
        int const hybrid_run_m_ = hybrid_run_p_->cfg.model;                        \
        switch (hybrid_run_m_) {                                                   \
        case TILE_MODEL_MPI:                                                       \
            HYBRID__RUN_GROUPS(TILE_MPI_STEP, it, __VA_ARGS__)                     \
            break;                                                                 \
        case TILE_MODEL_FINE:                                                      \
            HYBRID__RUN_GROUPS(HYBRID_FINE_STEP, it, __VA_ARGS__)                  \
            break;                                                                 \
        case TILE_MODEL_FUNNELED:                                                  \
        case TILE_MODEL_MULTIPLE:                                                  \
            HYBRID__PRAGMA("omp parallel num_threads(hybrid_run_p_->cfg.threads)") \
            HYBRID__RUN_GROUPS(HYBRID__RUN_COARSE_STEP, it, __VA_ARGS__)           \
            break;                                                                 \
        default: /* tile_plan_create refuses unknown models */                     \
            break;                                                                 \
        }                                                                          \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_HYBRID_H */
