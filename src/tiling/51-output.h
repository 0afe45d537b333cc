/* ------------------------------------------------------------------------ */
/* The output hook                                                          */

#if TILEHYBRID__DEFINE
/**
 * tile_output_set() - have fn(ctx, plan, piece) receive each finished tile
 * of this rank's block during the following runs.
 * @plan:   the plan (not running).
 * @fn:     the hook, or NULL to stop.
 * @ctx:    passed to fn.
 * @layout: enum tile_layout of piece->data: TILE_LAYOUT_Z_LAST (the
 *          global array's layout: each row of h points along Z is
 *          contiguous in the global array's file too, one MPI_File_write_at
 *          per row, as the example in docs/REFERENCE.md) or TILE_LAYOUT_Z_FIRST (plane
 *          after plane).
 * @st:     NULL, or the argument at fault.
 *
 * Local: ranks may set different hooks or none.  The hook is called on
 * the thread that does the messages (the one that called MPI_Init, in
 * every model), for tiles 0, 1, ... in order, each once, shortly after
 * every thread has finished it (at the end of the next step; the last
 * tiles at the end of the run), while the other threads go on computing.
 * The data is a copy in a buffer of one tile, so memory does not grow
 * with Z.  It may call MPI, but no collective over ranks that run the
 * pipeline: ranks reach tile k at different times, and a rank waiting in
 * a collective for the last rank would keep its next faces from it (use
 * independent calls such as MPI_File_write_at, or copy the tile and
 * finish after the run).  Its time counts as idle in plan->run.stats.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_RANGE (layout),
 * TILE_ERR_OVERFLOW, TILE_ERR_NOMEM, TILE_ERR_SKEWED (a plan that skews its
 * stencil: its tiles are not boxes of the user's space), TILE_ERR_BODY (the
 * plan is running: a call from its body or a hook), or the code of the
 * plan's failed creation.
 */
TILEHYBRID__COLD int tile_output_set(tile_plan *plan, tile_output_fn fn, void *ctx, int layout,
                                     tilehybrid_status *st)
{
    struct tile__io *io;
    int64_t bytes = 0, h;
    tile_box b;
    int refused = tile__busy_refused(plan);
    if (refused != TILE_OK)
        return tilehybrid_status_set(st, refused, "plan", -1);
    if (layout != TILE_LAYOUT_Z_LAST && layout != TILE_LAYOUT_Z_FIRST)
        return tilehybrid_status_set(st, TILE_ERR_RANGE, "layout", layout);
    io = tile__io_get(plan);
    if (io == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
    TILEHYBRID_FREE(io->out_buf);
    io->out_buf = NULL;
    io->out_fn = NULL;
    if (fn == NULL)
        return tilehybrid_status_set(st, TILE_OK, "", -1);
    if (plan->deps.skewed)
        return tilehybrid_status_set(st, TILE_ERR_SKEWED, "plan", -1);
    tile__block_box(plan, plan->pcoords, &b);
    h = plan->cfg.tile_height < plan->cfg.zlen ? plan->cfg.tile_height : plan->cfg.zlen;
    b.len[plan->cfg.n] = h;
    if (!tilehybrid_mul_ok(tile_box_points(&b), (int64_t)plan->cfg.elem_size, &bytes) ||
        (uint64_t)bytes > (uint64_t)SIZE_MAX)
        return tilehybrid_status_set(st, TILE_ERR_OVERFLOW, "tile_height", -1);
    io->out_buf = (unsigned char *)TILEHYBRID_MALLOC((size_t)bytes);
    if (io->out_buf == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
    io->out_fn = fn;
    io->out_ctx = ctx;
    io->out_layout = layout;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}
#else
TILEHYBRID__COLD int tile_output_set(tile_plan *plan, tile_output_fn fn, void *ctx, int layout,
                                     tilehybrid_status *st);
#endif

/**
 * tile_output_to() - have each finished tile of this rank's block copied
 * straight into a user array during the following runs: one copy from the
 * plan's window, no hook and no buffer in between.
 * @plan: the plan (not running).
 * @box:  the array's box (user coordinates, Z last), which must hold this
 *        rank's block over all of Z (tile_input_box(plan, TILE_ALL_TILES,
 *        NULL) or wider: the input box of a chained plan with the same
 *        blocks, whose halo points are left as they are); NULL to stop.
 * @dst:  the array, tile_box_points(box) elements of cfg.elem_size bytes.
 * @st:   NULL, or the argument at fault.
 *
 * Local.  Tile k is written at the time the output hook would get it
 * (tile_output_set(); a hook set too is called after).  This is the
 * one-copy hand-over of chained plans: when the next plan has the same
 * blocks (the same grid: a plan's blocks do not depend on its
 * directions), its body reads dst itself
 * (tile_input_index(&it, box)); when its blocks differ
 * (another grid) or it reads a halo, tile_exchange() from dst moves what
 * lies on other ranks.
 * Return: TILE_OK, TILE_ERR_NULL (dst with a box), TILE_ERR_RANGE (a box
 * that does not hold the block), TILE_ERR_NOMEM, TILE_ERR_SKEWED,
 * TILE_ERR_BODY (the plan is running: a call from its body or a hook), or
 * the code of the plan's failed creation.
 */
static inline int tile_output_to(tile_plan *plan, const tile_box *box, void *dst,
                                 tilehybrid_status *st)
{
    struct tile__io *io;
    tile_box b, c;
    int refused = tile__busy_refused(plan);
    if (refused != TILE_OK)
        return tilehybrid_status_set(st, refused, "plan", -1);
    if (box != NULL && dst == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, "dst", -1);
    if (box != NULL && plan->deps.skewed)
        return tilehybrid_status_set(st, TILE_ERR_SKEWED, "plan", -1);
    if (box != NULL) {
        tile__block_box(plan, plan->pcoords, &b);
        if (box->ndims != b.ndims || !tile_box_intersect(box, &b, &c) ||
            tile_box_points(&c) != tile_box_points(&b))
            return tilehybrid_status_set(st, TILE_ERR_RANGE, "box", -1);
    }
    io = tile__io_get(plan);
    if (io == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NOMEM, "", -1);
    if (io->out_held != NULL)   /* a field's block no more (tile_output_to_field) */
        --*io->out_held;
    io->out_held = NULL;
    io->out_dst = box != NULL ? (unsigned char *)dst : NULL;
    if (box != NULL)
        io->out_box = *box;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}

/* Hand tile k to the output hook (the thread that does the messages). */
static inline void tile__output(tile_plan *p, int64_t k)
{
    struct tile__io *io = p->run.io;
    tile_piece pc;
    int64_t z0 = tile__tile_z0(p, k), z1 = tile__tile_z1(p, k);
    int rc;
    if (io->out_dst != NULL)
        tile__pack_block(p, z0, z1, &io->out_box, TILE_LAYOUT_Z_LAST, io->out_dst);
    if (io->out_fn == NULL || io->out_failed || p->run.stats[0].error != TILE_OK)
        return;
    tile__block_box(p, p->pcoords, &pc.box);
    tile__zbox(p, z0, z1, &pc.box);
    tile__pack_block(p, z0, z1, &pc.box, io->out_layout, io->out_buf);
    pc.tile = k;
    pc.layout = io->out_layout;
    pc.elem_size = p->cfg.elem_size;
    pc.bytes = (size_t)tile_box_points(&pc.box) * pc.elem_size;
    pc.data = io->out_buf;
    rc = io->out_fn(io->out_ctx, p, &pc);
    if (rc != 0) {
        io->out_failed = 1;
        tile_thread_fail(p, 0, TILE_ERR_OUTPUT, "the output hook returned %d for tile %lld "
                         "(z = %lld..%lld); it was not called again", rc, (long long)k,
                         (long long)pc.box.lo[p->cfg.n],
                         (long long)(pc.box.lo[p->cfg.n] + pc.box.len[p->cfg.n] - 1));
    }
}
