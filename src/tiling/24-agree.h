/* ------------------------------------------------------------------------ */
/* What every rank must agree on, and the agreement                         */

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
    static const char *const grid[3] = { "TILE_GRID_COMM", "TILE_GRID_LATENCY",
                                         "TILE_GRID_TIME" };
    static const char *const bal[5] = { "BAL_POLICY_FIXED", "BAL_POLICY_CONSTANT",
                                        "BAL_POLICY_VARIABLE", "BAL_POLICY_ADAPTIVE",
                                        "BAL_POLICY_CUSTOM" };
    static const char *const agree[2] = { "TILE_AGREE_EACH_RUN", "TILE_AGREE_WHEN_ASKED" };
    static const struct tile__enum_field {
        const char *arg;
        int count;
        const char *const *names;
    } fields[6] = { { "storage", 2, storage }, { "grid_policy", 3, grid },
                    { "balance.policy", 5, bal }, { "messages", 3, messages },
                    { "reduction", 6, reduce }, { "agree", 2, agree } };
    int k;
    if (strcmp(arg, "order") == 0)      /* the orders name their own (15-order.h) */
        return v == TILE_ORDER_AUTO ? "TILE_ORDER_AUTO"
               : v >= 0 && v < TILE_ORDER_AUTO ? tile__order_traits_of((int)v).constant : NULL;
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
    else if (strcmp(a->arg[i], "reduction") == 0 && a->index[i] >= TILE__RED_NAMED)
        snprintf(buf, size, "fingerprint %016llx", (unsigned long long)bits);
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
 * between ranks (status.rank -1: no one rank is at fault).  Collective: one
 * MPI_Iallreduce on every rank (its wait yields with run.yield, 12-wait.h). */
TILEHYBRID__COLD int tile__agree(tile_plan *p, const tile__agreed *a)
{
    tilehybrid_agreement r;
    tilehybrid_verdict w;
    char lo[32], hi[32];
    int rc;
    snprintf(w.text, sizeof w.text, "%s", p->errmsg);
    rc = tilehybrid__agree_status(p->comm, p->status.code, &p->status, a ? a->v : NULL,
                                  a ? a->count : 0, &w, &r, 1 + p->run.yield);
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
#else
TILEHYBRID__COLD void tile__agreed_add(tile__agreed *a, const char *name, int i, int j,
                                       uint64_t v, int is_double);
#endif
