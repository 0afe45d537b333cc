/* ------------------------------------------------------------------------ */
/* Sweeps over fields: a plan whose blocks are a field's                    */

/*
 * A plan that does not skew gives each rank the same block of the user's
 * space whatever its directions (22-boxes.h, tile__mirrored): a forward
 * and a backward sweep over the same extents and grid keep their points on
 * the same rank.  A field of the plan's shape (tile_field_config_plan())
 * is then the program's home for the sweep's data: the body reads the
 * field at its own point (tile_field_here()) and the plan writes each
 * finished tile into it (tile_output_to_field()), with no message beyond
 * the pipeline's faces.  A map step (76-map.h) over the same field runs
 * between the sweeps.
 */

/**
 * tile_field_config_plan() - a field configuration shaped as a plan's
 * space: D = N + 1 dimensions (Z last), the plan's extents and element
 * size, the plan's process grid (one process along Z), no ghost layers
 * (set @c->ghost before tile_field_create() for maps that read it).
 * @c:    receives the configuration.
 * @plan: the plan (created, not skewed).
 * Create the field on the communicator the plan was created on, so that
 * rank r of both has the same block.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_SKEWED (a skewed plan's blocks
 * are not boxes of the user's space), or the code of the plan's failed
 * creation.
 */
static inline int tile_field_config_plan(tile_field_config *c, const tile_plan *plan)
{
    int i, n;
    if (c == NULL || plan == NULL)
        return TILE_ERR_NULL;
    if (plan->status.code != TILE_OK)
        return plan->status.code;
    if (plan->deps.skewed)
        return TILE_ERR_SKEWED;
    n = plan->cfg.n;
    tile_field_config_init(c, n + 1);
    for (i = 0; i < n; i++) {
        c->extent[i] = plan->cfg.extent[i];
        c->grid[i] = plan->pdims[i];
    }
    c->extent[n] = plan->cfg.zlen;
    c->grid[n] = 1;
    c->elem_size = plan->cfg.elem_size;
    return TILE_OK;
}

/**
 * tile_field_here() - in the body: the field's element at the point being
 * computed (the plan's user coordinates, Z last).
 * @it: the cursor (&it).
 * @f:  a field of the plan's shape that holds this rank's block of the
 *      plan: made with tile_field_config_plan() on the plan's communicator,
 *      and checked once with tile_field_fits() (tile_output_to_field()
 *      checks the field it writes).  Not checked here in the fast loops
 *      (another field's element would be read: a wrong number); under
 *      TILE_CHECK_ACCESS a point outside the field's block fails the run
 *      with TILE_ERR_ACCESS, naming the point.
 * O(N) integer arithmetic.  Read the field only at the point itself when
 * the plan writes it (tile_output_to_field()): a neighbour's value is the
 * old or the new one depending on when its tile was written out.  The
 * neighbours' new values are the plan's own (TILE_AT); a field the plan
 * does not write may be read anywhere in this rank's block and ghosts
 * (offset o along dimension i: o * f->stride[i] elements away).
 */
#ifdef TILE_CHECK_ACCESS
/* A point outside field f's block (TILE_CHECK_ACCESS): the run's error,
 * and a scratch element to read. */
static inline void *tile__field_outside(const tile_cursor *it, const tile_field *f)
{
    char at[24 * (TILE_MAX_DIMS + 1)];
    size_t w = 0;
    int i;
    for (i = 0; i <= it->v->n && w < sizeof at; i++)
        w += (size_t)snprintf(at + w, sizeof at - w, "%s%lld", i ? "," : "",
                              (long long)tile_coord(it, i));
    tile_thread_fail(it->v->plan, it->v->thread, TILE_ERR_ACCESS, "tile_field_here: the point "
                     "(%s) is outside this rank's block of the field (%d dimensions, elements "
                     "of %zu bytes): give it the plan's shape and grid (tile_field_config_plan, "
                     "on the plan's communicator; tile_field_fits checks it)", at, f->ndims,
                     f->elem_size);
    return tile__scratch(it->v->plan, it->v->thread, f->elem_size);
}
#endif

TILE__ALWAYS_INLINE void *tile_field_here(const tile_cursor *it, const tile_field *f)
{
    int64_t e = 0;
    int i;
#ifdef TILE_CHECK_ACCESS
    if (f->ndims != it->v->n + 1)
        return tile__field_outside(it, f);
    for (i = 0; i <= it->v->n; i++)
        if (tile_coord(it, i) < f->lo[i] || tile_coord(it, i) >= f->lo[i] + f->len[i])
            return tile__field_outside(it, f);
#endif
    for (i = 0; i <= it->v->n; i++)
        e += (tile_coord(it, i) - f->lo[i] + f->ghost[i]) * f->stride[i];
    return f->data + (size_t)e * f->elem_size;
}

#if TILEHYBRID__DEFINE
/* Does field f hold plan p's block of this rank (the user's coordinates,
 * all of Z)?  0, or 1 with the reason in why[size]. */
TILEHYBRID__COLD int tile__field_misfit(const tile_plan *p, const tile_field *f, char *why,
                                        size_t size)
{
    int i, n = p->cfg.n;
    tile_box b;
    if (f->data == NULL || f->code != TILE_OK) {
        snprintf(why, size, "rank %d: the field was not created (or was destroyed)", p->rank);
        return 1;
    }
    if (f->ndims != n + 1 || f->elem_size != p->cfg.elem_size) {
        snprintf(why, size, "rank %d: the field has %d dimensions of %zu-byte elements, the "
                 "plan N + 1 = %d of %zu bytes (tile_field_config_plan)", p->rank, f->ndims,
                 f->elem_size, n + 1, p->cfg.elem_size);
        return 1;
    }
    tile__block_box(p, p->pcoords, &b);
    for (i = 0; i <= n; i++) {
        int64_t ext = i < n ? p->cfg.extent[i] : p->cfg.zlen;
        if (f->extent[i] != ext || b.lo[i] < f->lo[i] ||
            b.lo[i] + b.len[i] > f->lo[i] + f->len[i]) {
            snprintf(why, size, "rank %d: along dimension %d the plan's block is %lld..%lld "
                     "of %lld points, the field's %lld..%lld of %lld (give the field the "
                     "plan's grid: tile_field_config_plan, on the plan's communicator)",
                     p->rank, i + 1, (long long)b.lo[i], (long long)(b.lo[i] + b.len[i] - 1),
                     (long long)ext, (long long)f->lo[i],
                     (long long)(f->lo[i] + f->len[i] - 1), (long long)f->extent[i]);
            return 1;
        }
    }
    return 0;
}

/**
 * tile_field_fits() - does field @f hold plan @plan's block on every rank
 * (so that the body may read it at its points with tile_field_here())?
 * @plan: the plan (created, not skewed); @f: the field.
 * @st:   NULL, or the argument at fault.
 * Collective over the plan's ranks: every rank gets the same verdict, and
 * when it is no, the lowest failing rank's reason (the dimension, both
 * blocks) in plan->errmsg on every rank.  Call it once per field the
 * body reads, after creating the field.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_SKEWED, TILE_ERR_RANGE (the
 * field does not hold some rank's block), TILE_ERR_MPI, TILE_ERR_BODY
 * (the plan is running), or the code of the plan's failed creation.
 */
TILEHYBRID__COLD int tile_field_fits(tile_plan *plan, const tile_field *f, tilehybrid_status *st)
{
    char why[sizeof plan->errmsg] = "";
    int rc, bad[2], worst[2];
    if (plan == NULL || f == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, plan == NULL ? "plan" : "f", -1);
    if ((rc = tile__busy_refused(plan)) != TILE_OK)
        return tilehybrid_status_set(st, rc, "plan", -1);
    if (plan->deps.skewed)
        return tilehybrid_status_set(st, TILE_ERR_SKEWED, "plan", -1);
    bad[0] = tile__field_misfit(plan, f, why, sizeof why);
    bad[1] = bad[0] ? plan->size - plan->rank : 0;   /* the lowest such rank wins */
    if (MPI_Allreduce(bad, worst, 2, MPI_INT, MPI_MAX, plan->comm) != MPI_SUCCESS ||
        (worst[0] && MPI_Bcast(why, (int)sizeof why, MPI_CHAR, plan->size - worst[1],
                               plan->comm) != MPI_SUCCESS)) {
        snprintf(plan->errmsg, sizeof plan->errmsg, "tile_field_fits: an MPI call failed "
                 "while the ranks agreed");
        return tilehybrid_status_set(st, TILE_ERR_MPI, "f", -1);
    }
    if (!worst[0])
        return tilehybrid_status_set(st, TILE_OK, "", -1);
    snprintf(plan->errmsg, sizeof plan->errmsg, "%s", why);
    return tilehybrid_status_set(st, TILE_ERR_RANGE, "f", -1);
}

/**
 * tile_output_to_field() - have each finished tile of this rank's block
 * written into a field during the following runs (tile_output_to() into
 * the field's block: one copy, no message).
 * @plan: the plan (not running, not skewed).
 * @f:    a field that holds this rank's block of the plan on every rank
 *        (tile_field_config_plan()), or NULL to stop.
 * @st:   NULL, or the argument at fault.
 *
 * Collective over the plan's ranks: every rank gets the same answer (a
 * field that does not fit on one rank is refused on all: tile_field_fits(),
 * the reason in plan->errmsg).  The field
 * counts the plan as a user until the output stops or the plan is
 * destroyed: tile_field_destroy() refuses it meanwhile.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_SKEWED, TILE_ERR_RANGE (the
 * field does not hold the block somewhere), TILE_ERR_NOMEM, TILE_ERR_MPI,
 * TILE_ERR_BODY (the plan is running), or the code of the plan's failed
 * creation.
 */
TILEHYBRID__COLD int tile_output_to_field(tile_plan *plan, tile_field *f, tilehybrid_status *st)
{
    int rc, i;
    tile_box ab;
    if (plan == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, "plan", -1);
    if ((rc = tile__busy_refused(plan)) != TILE_OK)
        return tilehybrid_status_set(st, rc, "plan", -1);
    if (f == NULL) {
        rc = tile_output_to(plan, NULL, NULL, st);
        return rc;
    }
    if ((rc = tile_field_fits(plan, f, st)) != TILE_OK)
        return rc;
    memset(&ab, 0, sizeof ab);
    ab.ndims = f->ndims;
    for (i = 0; i < f->ndims; i++) {
        ab.lo[i] = f->lo[i] - f->ghost[i];
        ab.len[i] = f->alen[i];
    }
    if ((rc = tile_output_to(plan, &ab, f->data, st)) != TILE_OK)
        return rc;
    plan->run.io->out_held = tile__field_maps(f->data);
    ++*plan->run.io->out_held;
    return TILE_OK;
}
#else
TILEHYBRID__COLD int tile__field_misfit(const tile_plan *p, const tile_field *f, char *why,
                                        size_t size);
TILEHYBRID__COLD int tile_field_fits(tile_plan *plan, const tile_field *f, tilehybrid_status *st);
TILEHYBRID__COLD int tile_output_to_field(tile_plan *plan, tile_field *f, tilehybrid_status *st);
#endif
