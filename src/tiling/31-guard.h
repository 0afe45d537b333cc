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
    tile__fence_release(&p->store.fence);    /* the handler the run found, back */
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
