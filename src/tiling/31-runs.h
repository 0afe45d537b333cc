/* ------------------------------------------------------------------------ */
/* Runs: start and finish                                                   */

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
