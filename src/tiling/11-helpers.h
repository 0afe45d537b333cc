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

#if TILEHYBRID__DEFINE
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
