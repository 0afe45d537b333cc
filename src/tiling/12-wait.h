/* ------------------------------------------------------------------------ */
/* Waits: spin in MPI, or yield the processor on an oversubscribed node     */

/*
 * An MPI that busy-polls in MPI_Waitall (MPICH 4.0's ch4:ucx does) keeps
 * a waiting rank on its core for the whole of its time slice.  With more
 * ranks times threads on a node than online processors, the rank it waits
 * for is often the one that needs that core: heat's ADI at 4 processes on
 * 2 cores ran 20x slower than at 1.  So where the engine waits for
 * messages in a run's steps (the faces' MPI_Waitall, the partitioned
 * messages, a map's ghost layers, a route), a plan, map or route that
 * yields polls with MPI_Testall and gives the processor away between
 * polls (sched_yield()).
 *
 * TILEHYBRID_WAIT chooses, read when a plan or a map is created (a route
 * takes its plan's): "auto" (the default, unset) yields when the
 * processes on this node (MPI_COMM_TYPE_SHARED) times their threads
 * exceed the online processors, else waits in MPI as before (under
 * SimGrid's SMPI auto never yields: the ranks are simulated hosts', and
 * MPI_Test costs simulated time); "spin" never yields; "yield" always
 * does.  Anything else is refused at the
 * creation (TILE_ERR_RANGE, the message names the variable).  The result
 * is the same either way (the same messages complete; only who waits how
 * differs).
 *
 * The yield is tilehybrid.h's tilehybrid__yield() (sched_yield() where
 * it is declared, else nothing: plain MPI_Testall polling); the run's
 * agreements yield too (tilehybrid__agree_status, tilehybrid__allreduce).
 */
/* TILEHYBRID_WAIT's values. */
enum { TILE__WAIT_AUTO = 0, TILE__WAIT_SPIN = 1, TILE__WAIT_YIELD = 2 };

/* Whether to yield in waits, by @mode (TILE__WAIT_*): auto when @ranks
 * processes on this node of @threads threads each exceed @cpus online
 * processors. */
static inline int tile__wait_yields(int mode, int ranks, int threads, long cpus)
{
    if (mode != TILE__WAIT_AUTO)
        return mode == TILE__WAIT_YIELD;
#ifdef SMPI_SAMPLE_FLOPS
    /* Under SimGrid's SMPI the ranks are simulated hosts' processes, not
     * this machine's, and every MPI_Test costs simulated time: auto spins
     * (in MPI_Waitall, as the simulated machine would). */
    (void)ranks;
    (void)threads;
    (void)cpus;
    return 0;
#else
    return (double)(ranks > 1 ? ranks : 1) * (double)(threads > 1 ? threads : 1) >
           (double)(cpus > 1 ? cpus : 1);
#endif
}

#if TILEHYBRID__DEFINE
/* TILEHYBRID_WAIT in *mode (TILE__WAIT_AUTO when unset).
 * Return: TILE_OK, or TILE_ERR_RANGE (set, but not auto, spin or yield). */
TILEHYBRID__COLD int tile__wait_env(int *mode)
{
    const char *env = getenv("TILEHYBRID_WAIT");
    *mode = TILE__WAIT_AUTO;
    if (env == NULL || strcmp(env, "auto") == 0)
        return TILE_OK;
    if (strcmp(env, "spin") == 0)
        *mode = TILE__WAIT_SPIN;
    else if (strcmp(env, "yield") == 0)
        *mode = TILE__WAIT_YIELD;
    else
        return TILE_ERR_RANGE;
    return TILE_OK;
}

/* The processes of @comm on this node (MPI_COMM_TYPE_SHARED) in *n, 1 if
 * a call fails.  Collective.  Return: MPI's code (of the failed call). */
TILEHYBRID__COLD int tile__node_size(MPI_Comm comm, int *n)
{
    MPI_Comm node = MPI_COMM_NULL;
    int rc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    *n = 1;
    if (rc == MPI_SUCCESS && (rc = MPI_Comm_size(node, n)) != MPI_SUCCESS)
        *n = 1;
    if (node != MPI_COMM_NULL) {
        int rc2 = MPI_Comm_free(&node);
        rc = rc != MPI_SUCCESS ? rc : rc2;
    }
    return rc;
}

/* MPI_Waitall as MPI_Testall polls, the processor yielded between them. */
TILEHYBRID__WARM int tile__waitall_yield(int n, MPI_Request *req, MPI_Status *st)
{
    int flag = 0, rc;
    while ((rc = MPI_Testall(n, req, &flag, st)) == MPI_SUCCESS && !flag)
        tilehybrid__yield();
    return rc;
}

/* The same, one MPI_Test per request: for partitioned requests, which
 * MPICH 4.0.2's MPI_Testall fails (MPI_ERR_IN_STATUS, every status's
 * MPI_ERROR 0) while MPI_Test completes them.  At most 4N requests. */
TILEHYBRID__WARM int tile__waitall_yield_each(int n, MPI_Request *req, MPI_Status *st)
{
    int done[4 * TILE_MAX_DIMS] = {0}, left = n, i, rc = MPI_SUCCESS;
    while (left > 0) {
        for (i = 0; i < n && rc == MPI_SUCCESS; i++)
            if (!done[i] && (rc = MPI_Test(&req[i], &done[i], &st[i])) == MPI_SUCCESS && done[i])
                left--;
        if (rc != MPI_SUCCESS)
            return rc;
        if (left > 0)
            tilehybrid__yield();
    }
    return rc;
}
#else
TILEHYBRID__COLD int tile__wait_env(int *mode);
TILEHYBRID__COLD int tile__node_size(MPI_Comm comm, int *n);
TILEHYBRID__WARM int tile__waitall_yield(int n, MPI_Request *req, MPI_Status *st);
TILEHYBRID__WARM int tile__waitall_yield_each(int n, MPI_Request *req, MPI_Status *st);
#endif

/* MPI_Waitall, or with @yield the polls that yield (same result). */
static inline int tile__waitall(int n, MPI_Request *req, MPI_Status *st, int yield)
{
    return yield ? tile__waitall_yield(n, req, st) : MPI_Waitall(n, req, st);
}
