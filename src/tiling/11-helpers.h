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
