/* ------------------------------------------------------------------------ */
/* The input hook: input per tile, memory flat in Z                         */

/**
 * tile_input_index() - in the body: the index of the point being computed
 * in an array over box b (row-major, Z last).
 * @it: the cursor (&it); @b: a box from tile_input_box() that holds every
 *      point of the block the body reads (not checked: an index outside
 *      the array is the caller's bug).
 * O(N) integer arithmetic.  A neighbour at offset o along dimension i is
 * o * tile_box_stride(b, i) elements away (compute the strides before the
 * run).
 */
TILE__ALWAYS_INLINE int64_t tile_input_index(const tile_cursor *it, const tile_box *b)
{
    int64_t idx = 0;
    int i;
    for (i = 0; i <= it->v->n; i++)
        idx = idx * b->len[i] + (tile_coord(it, i) - b->lo[i]);
    return idx;
}

#if TILEHYBRID__DEFINE
/* Free the input hook's slots and stop it. */
TILEHYBRID__COLD void tile__input_free(struct tile__io *io)
{
    TILEHYBRID_FREE(io->in_buf);
    TILEHYBRID_FREE(io->in_box);
    io->in_buf = NULL;
    io->in_box = NULL;
    io->in_fn = NULL;
}

/* The bytes of one slot: the largest box of a tile with the reach (the
 * block widened by it, h + below + above planes, clipped); 0 on overflow. */
TILEHYBRID__COLD size_t tile__input_slot(const tile_plan *p, const tile_reach *reach, size_t esz)
{
    tile_box b;
    int n = p->cfg.n;
    int64_t h = p->cfg.tile_height < p->cfg.zlen ? p->cfg.tile_height : p->cfg.zlen, bytes = 0;
    if (tile_input_box(p, TILE_ALL_TILES, reach, &b, NULL) != TILE_OK)
        return 0;   /* (the caller checked the plan and the reach) */
    if (reach != NULL && h + reach->below[n] + reach->above[n] < b.len[n])
        b.len[n] = h + reach->below[n] + reach->above[n];
    else if (reach == NULL)
        b.len[n] = h;
    if (!tilehybrid_mul_ok(tile_box_points(&b), (int64_t)esz, &bytes) ||
        (uint64_t)bytes > (uint64_t)SIZE_MAX)
        return 0;
    return (size_t)bytes;
}

/**
 * tile_input_set() - have fn(ctx, plan, box, data) fill each tile's input
 * just before the tile is computed, so that no rank holds more than the
 * tiles in flight: memory independent of Z.
 * @plan:  the plan (not running).
 * @fn:    the hook (tile_input_fn), or NULL to stop.
 * @ctx:   passed to fn.
 * @esz:   bytes per element of the input array, 1..2^30 (any type: it need
 *         not be the plan's element).
 * @reach: how far around each point the body reads it (NULL: at the point
 *         only; tile_reach_stencil() gives the stencil's).
 * @st:    NULL, or the argument at fault.
 *
 * Local: ranks may set different hooks or none.  During the following
 * runs, fn fills tile k's input, an array over tile_input_box(plan, k,
 * reach) (this rank's block and the tile's planes, widened by the reach
 * and clipped to the space; row-major, Z last), on the thread that does
 * the messages, at the end of the step before the tile's first thread
 * starts it (tile 0: when the run starts), for tiles 0, 1, ... in order,
 * each once per run.  In the body, tile_input(&it) points to the point's
 * element and tile_input_stride(&it, i) is the distance to its neighbour
 * along i (in elements).  The plan keeps S + 2 such arrays (S: the thread
 * skew; the tiles in flight), reused round robin.  The hook may call MPI,
 * but no collective over the plan's ranks (see tile_output_set()).
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_ELEM (esz), TILE_ERR_RANGE (a
 * reach outside 0..2^30), TILE_ERR_OVERFLOW, TILE_ERR_NOMEM,
 * TILE_ERR_SKEWED (a plan that skews its stencil), TILE_ERR_BODY (the plan
 * is running: a call from its body or a hook), or the code of the plan's
 * failed creation.  A refusal before the allocation (all but
 * TILE_ERR_OVERFLOW and TILE_ERR_NOMEM) leaves the hook set before in
 * place; after those two no hook is set.
 */
TILEHYBRID__COLD int tile_input_set(tile_plan *plan, tile_input_fn fn, void *ctx, size_t esz,
                                    const tile_reach *reach, tilehybrid_status *st)
{
    struct tile__io *io;
    tile_box b;
    size_t slot;
    int64_t bytes;
    int rc = tile__busy_refused(plan), w;
    if (rc != TILE_OK)
        return tilehybrid_status_set(st, rc, "plan", -1);
    if (fn != NULL && (esz < 1 || esz > ((size_t)1 << 30)))
        return tilehybrid_status_set(st, TILE_ERR_ELEM, "esz", (int64_t)esz);
    if (fn != NULL && (rc = tile_input_box(plan, 0, reach, &b, st)) != TILE_OK)
        return rc;
    io = tile__io_get(plan);
    if (io == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
    tile__input_free(io);
    if (fn == NULL)
        return tilehybrid_status_set(st, TILE_OK, "", -1);
    w = (int)plan->threads.skew + 2;
    slot = tile__input_slot(plan, reach, esz);
    if (slot == 0 || slot > (size_t)INT64_MAX || !tilehybrid_mul_ok((int64_t)slot, w, &bytes) ||
        (uint64_t)bytes > (uint64_t)SIZE_MAX)
        return tilehybrid_status_set(st, TILE_ERR_OVERFLOW, "esz", (int64_t)esz);
    io->in_buf = (unsigned char *)TILEHYBRID_MALLOC((size_t)bytes);
    io->in_box = (tile_box *)TILEHYBRID_MALLOC(sizeof(tile_box) * (size_t)w);
    if (io->in_buf == NULL || io->in_box == NULL) {
        tile__input_free(io);
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
    }
    memset(io->in_box, 0, sizeof(tile_box) * (size_t)w);
    memset(&io->in_reach, 0, sizeof io->in_reach);
    if (reach != NULL)
        io->in_reach = *reach;
    io->in_fn = fn;
    io->in_ctx = ctx;
    io->in_esz = esz;
    io->in_w = w;
    io->in_slot_bytes = slot;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}
#else
TILEHYBRID__COLD void tile__input_free(struct tile__io *io);
TILEHYBRID__COLD size_t tile__input_slot(const tile_plan *p, const tile_reach *reach, size_t esz);
TILEHYBRID__COLD int tile_input_set(tile_plan *plan, tile_input_fn fn, void *ctx, size_t esz,
                                    const tile_reach *reach, tilehybrid_status *st);
#endif

/* Fill tile k's slot (the thread that does the messages; no thread reads
 * the slot: its last tile, k - w, was finished steps ago). */
static inline void tile__input(tile_plan *p, int64_t k)
{
    struct tile__io *io = p->run.io;
    int slot = (int)(k % io->in_w), rc;
    tile_box *b = &io->in_box[slot];
    tile_input_box(p, k, &io->in_reach, b, NULL);
    if (io->in_failed || p->run.stats[0].error != TILE_OK)
        return;
    rc = io->in_fn(io->in_ctx, p, b, io->in_buf + (size_t)slot * io->in_slot_bytes);
    if (rc != 0) {
        io->in_failed = 1;
        tile_thread_fail(p, 0, TILE_ERR_OUTPUT, "the input hook returned %d for tile %lld "
                         "(z = %lld..%lld); it was not called again", rc, (long long)k,
                         (long long)b->lo[p->cfg.n],
                         (long long)(b->lo[p->cfg.n] + b->len[p->cfg.n] - 1));
    }
}

/* At the end of step s (tile_schedule; s = -1 before the first): fill the
 * tiles whose first thread starts by step s + 1. */
static inline void tile__io_input(tile_plan *p, int64_t s)
{
    struct tile__io *io = p->run.io;
    if (io == NULL || io->in_fn == NULL)
        return;
    while (io->in_next < p->run.announced && io->in_next < p->ntiles &&
           tile__sigma(p, io->in_next) <= s + 1)
        tile__input(p, io->in_next++);
}

/* The slot of the cursor's tile. */
TILE__ALWAYS_INLINE int tile__input_slot_of(const tile_cursor *it)
{
    const tile__walk *w = it->v->w;
    int64_t z = w->x[w->n] + it->i * w->dx[w->n];
    return (int)(z / w->plan->cfg.tile_height % w->plan->run.io->in_w);
}

/**
 * tile_input() - in the body: the point's element of its tile's input
 * (tile_input_set()); NULL when no input hook is set.
 * @it: the cursor (&it).
 * A neighbour at offset o along dimension i (within the reach) is
 * o * tile_input_stride(&it, i) elements away.  O(N) integer operations.
 */
TILE__ALWAYS_INLINE void *tile_input(const tile_cursor *it)
{
    const struct tile__io *io = it->v->plan->run.io;
    int slot;
    if (io == NULL || io->in_fn == NULL)
        return NULL;
    slot = tile__input_slot_of(it);
    return io->in_buf + (size_t)slot * io->in_slot_bytes +
           (size_t)tile_input_index(it, &io->in_box[slot]) * io->in_esz;
}

/**
 * tile_input_stride() - in the body: elements between neighbours along
 * dimension i (0..N, Z last) of the point's tile input; 0 when no input
 * hook is set.  @it: the cursor (&it); @i: the dimension.
 */
TILE__ALWAYS_INLINE int64_t tile_input_stride(const tile_cursor *it, int i)
{
    const struct tile__io *io = it->v->plan->run.io;
    if (io == NULL || io->in_fn == NULL)
        return 0;
    return tile_box_stride(&io->in_box[tile__input_slot_of(it)], i);
}
