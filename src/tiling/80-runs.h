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
    if (p->run.ckpt != NULL)
        tile__ckpt_tick(p, s);
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
        p->run.slot[t].rows = 0;
        memset(&p->run.slot[t].trash, 0, sizeof p->run.slot[t].trash);
        p->run.nreq[t] = p->run.nreq[p->cfg.threads + t] = 0;
        p->run.next_tile[8 * t] = 0;
    }
    p->run.bytes_sent = p->run.messages = 0;
    p->run.announced = p->run.send_next = p->run.recv_next = 0;
    p->run.recv_pending = -1;
    p->run.nsteps = INT64_MAX;
    p->run.bal_changes = 0;
    p->run.first_step = p->run.ckpt_at = 0;
    p->run.ckpt_stop = 0;
    if (p->run.balancing)
        bal_policy_start(&p->run.bal);
}

/* A run that agrees on nothing (cfg.agree) with the wrong step macro or
 * thread count on this rank: the other ranks run it and wait for this
 * one's faces, and no collective can tell them, so the job ends, as for a
 * failed MPI call. */
TILEHYBRID__COLD void tile__lazy_refused(tile_plan *p, int model, int nthreads)
{
    char msg[300];
    snprintf(msg, sizeof msg, "tiling.h: rank %d: a run of a plan with cfg.agree = "
             "TILE_AGREE_WHEN_ASKED started with the step macro of model '%s' and %d thread(s), "
             "the plan being '%s' with %d: the other ranks run it and wait for this one",
             p->rank, tile_model_name(model), nthreads, tile_model_name(p->cfg.model),
             p->cfg.threads);
    tilehybrid_mpi_abort(msg, p->cfg.on_mpi_failure, p->cfg.on_mpi_failure_ctx,
                         model != p->cfg.model ? TILE_ERR_MODEL : TILE_ERR_THREADS);
}

/* The run's start once it may go on (the thread that does the messages). */
TILEHYBRID__COLD int tile__run_begin(tile_plan *p)
{
    p->run.ok = 1;
    tile__run_reset(p);
    tile__fence_arm(p);
    p->run.active = 1;
    tile__io_start(p);
    tile__fill_zlow(p);
    tile_schedule(p, -1);
    if (p->run.resume != NULL)      /* a checkpoint's run: its state, its next step */
        tile__ckpt_resume_load(p);
    p->run.start = tile_wtime();
    return 1;
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
    p->run.lazy = tile__run_lazy(p);
    if (p->run.lazy && !p->run.active && model == p->cfg.model && nthreads == p->cfg.threads)
        return tile__run_begin(p);  /* this rank's outcome stays its own (cfg.agree) */
    if (p->run.lazy && !p->run.active && p->size > 1)
        tile__lazy_refused(p, model, nthreads);    /* the others run: the job ends */
    p->run.lazy = 0;
    /* a run that failed does not stop the next (every rank has the same
     * status): each starts afresh, unless MPI failed or a run is unfinished;
     * with cfg.agree = TILE_AGREE_WHEN_ASKED once tile_plan_agree() gave
     * the failure (until then no run starts, on any rank) */
    if (p->run.created && !p->run.active && p->status.code != TILE_OK &&
        p->status.code != TILE_ERR_MPI &&
        (p->cfg.agree != TILE_AGREE_WHEN_ASKED || p->run.acked)) {
        p->run.acked = 0;
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
    tile__height_apply(p);          /* the height the first run chose (or a checkpoint) */
    tile__ckpt_resume_check(p);
    p->run.stage = 1;
    p->run.ok = tile__agree(p, NULL) == TILE_OK;
    if (!p->run.ok) {
        p->run.settled = 0;
        return 0;
    }
    return tile__run_begin(p);
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
    int t, hit;
    double wall;
    tile__io_step(p, INT64_MAX);    /* hand out the last tiles */
    wall = tile_wtime() - p->run.start;
    p->run.seconds = wall;
    p->run.active = 0;
    p->run.stage = 2;
    hit = tile__fence_disarm(p);
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
    if (hit && p->status.code == TILE_OK)
        tile__fail(p, TILE_ERR_ACCESS, "", -1, "a TILE_AT of the body reached an offset the "
                   "plan does not deliver (the fast loops sent it to the fence), and the checked "
                   "loop, given the tile again, did not reach it (the body's branches depend "
                   "on values?): build with TILE_CHECK_ACCESS to name it, and declare the offset "
                   "(tile_config_stencil)");
    if (p->run.lazy) {              /* this rank's outcome (tile_plan_agree) */
        p->run.completed = p->status.code == TILE_OK;
        if (!p->run.completed && p->run.failmsg[0] == '\0')   /* (data calls may */
            snprintf(p->run.failmsg, sizeof p->run.failmsg, "%s", p->errmsg);  /* overwrite) */
        return;
    }
    tile__io_finish(p);             /* agrees the outcome, combines the reductions */
    tile__height_timed(p);          /* the first run times the body for the model */
    p->run.settled = p->run.completed && p->height.next == p->cfg.tile_height &&
                     (p->height.origin != TILE_HEIGHT_MODEL ||
                      p->height.tcomp_origin != TILE_COST_MEASURED || p->height.timed);
}

/**
 * tile_plan_agree() - every rank's outcome of the runs since the last
 * agreement (cfg.agree = TILE_AGREE_WHEN_ASKED): the lowest failing rank's
 * code and message on every rank, in plan->status and plan->errmsg.
 * @plan: the plan (not running).
 * Collective over the plan's communicator: the one collective of a chain
 * of runs that agree on nothing; call it where the program reads a result
 * (a rank's failure in a run that agreed on nothing stays that rank's
 * until then; the runs after it still send their faces, so that no rank
 * waits; a failure that a run's own agreement found, the first run's,
 * stops the runs that follow on every rank until this call).  With
 * TILE_AGREE_EACH_RUN every run has agreed already: it returns the same
 * status.  After it gave a failure, the next run agrees again and starts
 * afresh, as after any failed run.
 * The next run agrees again (declare or drop reductions between this call
 * and it: on a settled plan tile_reduction_init() and _drop() refuse).
 * Return: the verdict, TILE_OK when every rank's runs went right;
 * TILE_ERR_NULL (no plan, or a destroyed one); TILE_ERR_BODY (the plan is
 * running: nothing agreed); or the code of the plan's failed creation.
 */
TILEHYBRID__COLD int tile_plan_agree(tile_plan *plan)
{
    int rc;
    if (plan == NULL || plan->comm == MPI_COMM_NULL)
        return TILE_ERR_NULL;
    if (plan->run.active)
        return TILE_ERR_BODY;
    if (!plan->run.created)
        return plan->status.code;
    if (plan->status.code != TILE_OK && plan->run.failmsg[0] != '\0')
        snprintf(plan->errmsg, sizeof plan->errmsg, "%s", plan->run.failmsg);
    plan->run.failmsg[0] = '\0';
    plan->run.stage = 2;
    rc = tile__agree(plan, NULL);
    plan->run.settled = 0;          /* the next run agrees: reductions may change now */
    if (rc != TILE_OK) {
        plan->run.completed = 0;
        plan->run.acked = 1;
    }
    return rc;
}
#else
TILEHYBRID__COLD void tile__run_reset(tile_plan *p);
TILEHYBRID__COLD void tile__lazy_refused(tile_plan *p, int model, int nthreads);
TILEHYBRID__COLD int tile__run_begin(tile_plan *p);
TILEHYBRID__COLD int tile_run_start(tile_plan *p, int model, int nthreads);
TILEHYBRID__COLD void tile_run_finish(tile_plan *p);
TILEHYBRID__COLD int tile_plan_agree(tile_plan *plan);
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
    g->step = p->run.first_step;    /* past a checkpoint's step (no prologue then) */
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
    if (p->run.ckpt_at == g->step + 1)
        tile__ckpt_cut(p, g->step);         /* nothing in flight, no other thread */
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
