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

/* Room for twice the reductions (8 at first); TILE_OK or TILE_ERR_NOMEM
 * (then nothing changed). */
TILEHYBRID__COLD int tile__red_grow(struct tile__io *io)
{
    int cap = io->cap > 0 ? 2 * io->cap : 8, k;
    tile_reduction **red;
    tile__red_slot **slots;
    if (cap <= io->cap)
        return TILE_ERR_NOMEM;
    red = (tile_reduction **)TILEHYBRID_MALLOC(sizeof *red * (size_t)cap);
    slots = (tile__red_slot **)TILEHYBRID_MALLOC(sizeof *slots * (size_t)cap);
    if (red == NULL || slots == NULL) {
        TILEHYBRID_FREE(red);
        TILEHYBRID_FREE(slots);
        return TILE_ERR_NOMEM;
    }
    for (k = 0; k < io->nred; k++) {
        red[k] = io->red[k];
        slots[k] = io->slots[k];
    }
    TILEHYBRID_FREE(io->red);
    TILEHYBRID_FREE(io->slots);
    io->red = red;
    io->slots = slots;
    io->cap = cap;
    return TILE_OK;
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
 * ranks.  Any number per plan.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_REDUCE (an unknown operation),
 * TILE_ERR_ARG (a plan with cfg.agree = TILE_AGREE_WHEN_ASKED that has
 * settled: call tile_plan_agree() first, then declare before the next run), TILE_ERR_NOMEM,
 * TILE_ERR_BODY (the plan is
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
    /* settled, cfg.agree: this rank alone would agree at the next run */
    if (plan->cfg.agree == TILE_AGREE_WHEN_ASKED && plan->run.settled)
        return tilehybrid_status_set(st, TILE_ERR_ARG, "plan", -1);
    if (op < 0 || op >= TILE_REDUCE_COUNT_)
        return tilehybrid_status_set(st, TILE_ERR_REDUCE, "op", op);
    io = tile__io_get(plan);
    if (io == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
    tile__red_prune(plan);
    for (k = 0; k < io->nred && io->red[k] != r; k++)
        ;
    if (k == io->cap && tile__red_grow(io) != TILE_OK)
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
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
 * since: it stays there), TILE_ERR_ARG (as tile_reduction_init()),
 * TILE_ERR_BODY (the plan is running: a call from its body or a hook
 * changes nothing), or the code of the plan's failed creation.
 */
TILEHYBRID__COLD int tile_reduction_drop(tile_plan *plan, tile_reduction *r)
{
    struct tile__io *io = plan != NULL ? plan->run.io : NULL;
    int k;
    if (plan == NULL || r == NULL)
        return TILE_ERR_NULL;
    if ((k = tile__busy_refused(plan)) != TILE_OK)
        return k;
    /* settled, cfg.agree: this rank alone would agree at the next run */
    if (plan->cfg.agree == TILE_AGREE_WHEN_ASKED && plan->run.settled)
        return TILE_ERR_ARG;
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
TILEHYBRID__COLD int tile__red_grow(struct tile__io *io);
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
    tile__reduce_slot(it->v->w, tile__cur_run(it), it->i, r, v);
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
        tile__xsum_put(&m.sum, s + 2);          /* two's complement sums are exact */
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
    tile__xsum_get(&best.sum, s + 2);
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
