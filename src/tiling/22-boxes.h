/* ------------------------------------------------------------------------ */
/* Boxes: tile_get, the boxes of the data calls, packing                    */

/* The data calls (tile_get and the section "Data in and out") on a plan
 * that cannot serve them: TILE_OK if the plan was created, else the code
 * of its failed creation (TILE_ERR_NULL for a plan never created or
 * already destroyed).  The same on every rank, so the collective calls
 * return it before any collective. */
static inline int tile__data_refused(const tile_plan *p)
{
    if (p == NULL || p->comm == MPI_COMM_NULL)
        return TILE_ERR_NULL;
    if (!p->run.created)
        return p->status.code != TILE_OK ? p->status.code : TILE_ERR_NULL;
    return TILE_OK;
}

/* The refusals of the calls that must not run while the plan runs: those
 * of every data call, and TILE_ERR_BODY for a plan that is running on this
 * rank (a call from its body or one of its hooks) or whose last run a
 * return left unfinished.  The calls that set a hook, a target or a
 * reduction for the following runs would free or change what the run
 * uses; the collective ones (tile_gather, tile_exchange) would wait in a
 * collective for ranks that are inside the run, or meet the run's own
 * messages.  Local, and before any collective: the ranks that call from a
 * body or a hook need not be all of them. */
static inline int tile__busy_refused(const tile_plan *p)
{
    int rc = tile__data_refused(p);
    return rc == TILE_OK && p->run.active ? TILE_ERR_BODY : rc;
}

/* May the next run agree on nothing (cfg.agree)?  The same answer on every
 * rank: the plan settled at an agreed run (tile_run_finish; tile_plan_agree
 * and a failed start unsettle it), and no reduction is declared (agreed at
 * that run; tile_reduction_init and _drop refuse while it is settled). */
static inline int tile__run_lazy(const tile_plan *p)
{
    return p->cfg.agree == TILE_AGREE_WHEN_ASKED && p->run.settled &&
           (p->run.io == NULL || p->run.io->nred == 0);
}

/**
 * tile_get() - read a computed point after a run.
 * @plan:  the plan.
 * @coord: global coordinates x_1..x_N, z (the user's).
 * @out:   receives elem_size bytes (untouched unless TILE_OK).
 * Local.  Every rank may ask for any point; the one that owns it and still
 * stores it (always with TILE_STORE_FULL; the last planes of the window
 * otherwise) gets it.  With cfg.agree = TILE_AGREE_WHEN_ASKED "completed"
 * is this rank's outcome until tile_plan_agree(): its values may come
 * from a failed neighbour's faces until then.
 * Return: TILE_OK (copied), TILE_ERR_NULL, TILE_ERR_RANGE (a point outside
 * the space), TILE_ERR_NOT_STORED (another rank's point, one the window
 * dropped, or any before a run completed without an error: nothing, or a
 * failed run's values), TILE_ERR_BODY (from the running plan's body or
 * hooks), or the code of the plan's failed creation (TILE_ERR_NULL for a
 * plan never created or destroyed).  (Before 0.2 it
 * returned 1 when copied and 0 otherwise.)
 */
static inline int tile_get(const tile_plan *plan, const int64_t *coord, void *out)
{
    int64_t x[TILE_MAX_DIMS], g[TILE_MAX_DIMS + 1] = {0}, zlen, h, R, keep, z;
    int i;
    if (plan == NULL || coord == NULL || out == NULL)
        return TILE_ERR_NULL;
    if ((i = tile__busy_refused(plan)) != TILE_OK)
        return i;
    if (!tile__inside(plan, coord))
        return TILE_ERR_RANGE;
    if (!plan->run.completed || plan->status.code != TILE_OK)
        return TILE_ERR_NOT_STORED;     /* nothing computed, or a failed run's */
    zlen = plan->deps.size[plan->cfg.n];
    h = plan->cfg.tile_height < zlen ? plan->cfg.tile_height : zlen;
    R = plan->store.ring_planes;
    keep = R >= plan->ntiles * h ? zlen : R - h;
    tile__to_internal(plan, coord, g);
    z = g[plan->cfg.n];
    if (z < 0 || z >= zlen || z < zlen - keep)
        return TILE_ERR_NOT_STORED;
    for (i = 0; i < plan->cfg.n; i++) {
        x[i] = g[i] - plan->lo[i];
        if (x[i] < 0 || x[i] >= plan->len[i])
            return TILE_ERR_NOT_STORED;
    }
    memcpy(out, tile__plane(plan, z) + tile__offset(plan, x), plan->cfg.elem_size);
    return TILE_OK;
}

/** tile_box_points() - the points of a box (0 when empty). */
static inline int64_t tile_box_points(const tile_box *b)
{
    int64_t v = 1;
    int i;
    for (i = 0; i < b->ndims; i++)
        v *= b->len[i] > 0 ? b->len[i] : 0;
    return v;
}

/** tile_box_stride() - elements between neighbours along dimension i of an
 *  array over box b (Z last): the product of the lengths after i. */
static inline int64_t tile_box_stride(const tile_box *b, int i)
{
    int64_t s = 1;
    int j;
    for (j = i + 1; j < b->ndims; j++)
        s *= b->len[j];
    return s;
}

/**
 * tile_box_index() - where point c is in an array over box b.
 * @b: the box; @c: b->ndims user coordinates (Z last).
 * Return: the element index (row-major, Z last), or -1 when c is outside.
 */
static inline int64_t tile_box_index(const tile_box *b, const int64_t *c)
{
    int64_t idx = 0;
    int i;
    for (i = 0; i < b->ndims; i++) {
        if (c[i] < b->lo[i] || c[i] - b->lo[i] >= b->len[i])
            return -1;
        idx = idx * b->len[i] + (c[i] - b->lo[i]);
    }
    return idx;
}

/**
 * tile_box_intersect() - the common points of two boxes.
 * @a, @b: boxes of the same ndims; @out: receives the intersection.
 * Return: 1 if it is not empty, else 0 (out then has a 0 length).
 */
static inline int tile_box_intersect(const tile_box *a, const tile_box *b, tile_box *out)
{
    int i, ne = a->ndims == b->ndims;
    tile_box r;
    memset(&r, 0, sizeof r);
    r.ndims = a->ndims;
    for (i = 0; i < a->ndims && ne; i++) {
        int64_t lo = a->lo[i] > b->lo[i] ? a->lo[i] : b->lo[i];
        int64_t ha = a->lo[i] + (a->len[i] > 0 ? a->len[i] : 0);
        int64_t hb = b->lo[i] + (b->len[i] > 0 ? b->len[i] : 0);
        int64_t hi = ha < hb ? ha : hb;
        r.lo[i] = lo;
        r.len[i] = hi > lo ? hi - lo : 0;
        ne = hi > lo;
    }
    *out = r;
    return ne;
}

/**
 * tile_box_copy() - copy the common points of two arrays over boxes.
 * @from, @src: the source box and its array (row-major, Z last).
 * @to, @dst:   the destination box and its array.
 * @esz:        bytes per element.
 * @copied:     set to the points copied (0 when the boxes do not meet);
 *              NULL if not wanted.
 * A local copy, bit for bit (the output hook drops a tile into an array of
 * the block with it).
 * Return: TILE_OK; TILE_ERR_NULL (a box, or an array the copy needs, is
 * NULL); TILE_ERR_NDIMS (the boxes' ndims differ or are outside
 * 1..TILE_MAX_DIMS + 1).  Nothing is copied on an error.
 */
static inline int tile_box_copy(const tile_box *from, const void *src, const tile_box *to,
                                void *dst, size_t esz, int64_t *copied)
{
    tile_box c;
    int64_t x[TILE_MAX_DIMS + 1], n = 0;
    int d, i;
    if (copied != NULL)
        *copied = 0;
    if (from == NULL || to == NULL)
        return TILE_ERR_NULL;
    d = from->ndims;
    if (d < 1 || d > TILE_MAX_DIMS + 1 || to->ndims != d)
        return TILE_ERR_NDIMS;
    if (!tile_box_intersect(from, to, &c))
        return TILE_OK;
    if (src == NULL || dst == NULL)
        return TILE_ERR_NULL;
    for (i = 0; i < d; i++)
        x[i] = c.lo[i];
    for (;;) {
        int64_t is = tile_box_index(from, x), id = tile_box_index(to, x);
        memcpy((unsigned char *)dst + (size_t)id * esz,
               (const unsigned char *)src + (size_t)is * esz, (size_t)c.len[d - 1] * esz);
        n += c.len[d - 1];
        for (i = d - 2; i >= 0; i--) {
            if (++x[i] < c.lo[i] + c.len[i])
                break;
            x[i] = c.lo[i];
        }
        if (i < 0)
            break;
    }
    if (copied != NULL)
        *copied = n;
    return TILE_OK;
}

/* Does the plan run dimension i (< N) of the user's space downward?  Its
 * internal coordinates, its process coordinates included, then count from
 * the top: the process at Cartesian coordinate c along i sits at c' =
 * P_i - 1 - c in the pipeline and keeps the user's block that c has in any
 * plan over the same extents and grid (topo_block(X_i, P_i, c)), so that
 * a forward and a backward sweep hand their data over without a message.
 * (A skewed plan's dimensions are not the user's: never mirrored.) */
static inline int tile__mirrored(const tile_plan *p, int i)
{
    return p->deps.dir[i] < 0 && !p->deps.skewed;
}

/* Cartesian coordinates pc (MPI_Cart_coords) to pipeline coordinates, in
 * place (its own inverse). */
static inline void tile__cart_to_internal(const tile_plan *p, int *pc)
{
    int i;
    for (i = 0; i < p->cfg.n; i++)
        if (tile__mirrored(p, i))
            pc[i] = p->pdims[i] - 1 - pc[i];
}

/* The block along dimension i of the process at pipeline coordinate c, in
 * the plan's internal coordinates. */
static inline void tile__internal_block(const tile_plan *p, int i, int c, int64_t *lo,
                                        int64_t *len)
{
    int64_t ulo = 0, size = p->deps.size[i];
    if (!tile__mirrored(p, i)) {
        topo_block(size, p->pdims[i], c, lo, len);
        return;
    }
    topo_block(size, p->pdims[i], p->pdims[i] - 1 - c, &ulo, len);
    *lo = size - ulo - *len;
}

/* The block of the process at pipeline coordinates pc (plan->pcoords for
 * this rank), in the user's coordinates, over the whole of Z. */
static inline void tile__block_box(const tile_plan *p, const int *pc, tile_box *b)
{
    int i, n = p->cfg.n;
    memset(b, 0, sizeof *b);
    b->ndims = n + 1;
    for (i = 0; i < n; i++) {
        int64_t lo = 0, len = 0;
        tile__internal_block(p, i, pc[i], &lo, &len);
        b->lo[i] = p->deps.dir[i] > 0 ? lo : p->cfg.extent[i] - lo - len;
        b->len[i] = len;
    }
    b->lo[n] = 0;
    b->len[n] = p->cfg.zlen;
}

/* Internal planes [z0, z1) as the user's Z range: b->lo[N], b->len[N]. */
static inline void tile__zbox(const tile_plan *p, int64_t z0, int64_t z1, tile_box *b)
{
    int n = p->cfg.n;
    b->lo[n] = p->deps.dir[n] > 0 ? z0 : p->cfg.zlen - z1;
    b->len[n] = z1 - z0;
}

/**
 * tile_input_box() - the box of an input array that this rank needs.
 * @plan:  the plan (after tile_plan_create).
 * @tile:  TILE_ALL_TILES for the whole of Z, or a tile 0..plan->ntiles-1
 *         (its planes; tiles are numbered in the order the loop runs, so
 *         with cfg.dir[N] = -1 tile 0 holds the highest Z).
 * @reach: how far around each point the body reads the array (NULL: at
 *         the point only; tile_reach_stencil() gives the stencil's reach).
 * @box:   receives the box in the user's coordinates: this rank's block
 *         (the same in every direction) and the tile's planes, widened by
 *         the reach and clipped to the space (what lies outside is the
 *         boundary's business).
 * @st:    NULL, or the argument at fault.
 *
 * Local, no communication.  Allocate tile_box_points(box) elements, fill
 * them (from a file, a formula, tile_exchange()), and read them in the body
 * at tile_input_index(&it, &box), plus o * tile_box_stride(&box, i) for an
 * offset o along i.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_RANGE (a tile outside
 * TILE_ALL_TILES..ntiles-1, a reach outside 0..2^30), TILE_ERR_SKEWED (the
 * plan skews its stencil: a block is not a box of the user's space; give
 * such a plan its input through the boundary function, or read an array
 * over the whole space with tile_input_index()).
 */
static inline int tile_input_box(const tile_plan *plan, int64_t tile, const tile_reach *reach,
                                 tile_box *box, tilehybrid_status *st)
{
    int i, n;
    if (plan == NULL || box == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, plan == NULL ? "plan" : "box", -1);
    if ((i = tile__data_refused(plan)) != TILE_OK)
        return tilehybrid_status_set(st, i, "plan", -1);
    n = plan->cfg.n;
    if (plan->deps.skewed)
        return tilehybrid_status_set(st, TILE_ERR_SKEWED, "plan", -1);
    if (tile < TILE_ALL_TILES || tile >= plan->ntiles)
        return tilehybrid_status_set(st, TILE_ERR_RANGE, "tile", tile);
    for (i = 0; reach != NULL && i <= n; i++)
        if (reach->below[i] < 0 || reach->above[i] < 0 || reach->below[i] > (1 << 30) ||
            reach->above[i] > (1 << 30))
            return tilehybrid_status_set(st, TILE_ERR_RANGE, "reach", i);
    tile__block_box(plan, plan->pcoords, box);
    if (tile >= 0)
        tile__zbox(plan, tile__tile_z0(plan, tile), tile__tile_z1(plan, tile), box);
    for (i = 0; reach != NULL && i <= n; i++) {
        int64_t ext = i < n ? plan->cfg.extent[i] : plan->cfg.zlen;
        int64_t lo = box->lo[i] - reach->below[i], hi = box->lo[i] + box->len[i];
        hi = ext - hi > reach->above[i] ? hi + reach->above[i] : ext;
        box->lo[i] = lo > 0 ? lo : 0;
        box->len[i] = hi - box->lo[i];
    }
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}

#if TILEHYBRID__DEFINE
/**
 * tile_reach_stencil() - the reach of the plan's stencil: per dimension the
 * largest distance below and above the point that a declared vector (or
 * the widths dep[]/depz, read against the loop's direction) reads.
 * @plan: the plan; @reach: receives it.
 * Return: TILE_OK or TILE_ERR_NULL.
 */
TILEHYBRID__COLD int tile_reach_stencil(const tile_plan *plan, tile_reach *reach)
{
    int i, k, n;
    if (plan == NULL || reach == NULL)
        return TILE_ERR_NULL;
    if ((i = tile__data_refused(plan)) != TILE_OK)
        return i;
    memset(reach, 0, sizeof *reach);
    n = plan->cfg.n;
    for (i = 0; i <= n && plan->cfg.nstencil == 0; i++) {
        int d = i < n ? plan->deps.d[i] : plan->deps.dz;
        if (plan->deps.dir[i] > 0)
            reach->below[i] = d;
        else
            reach->above[i] = d;
    }
    for (k = 0; k < plan->cfg.nstencil; k++)
        for (i = 0; i <= n; i++) {
            int o = plan->cfg.stencil[k][i];
            if (-o > reach->below[i])
                reach->below[i] = -o;
            if (o > reach->above[i])
                reach->above[i] = o;
        }
    return TILE_OK;
}
#else
TILEHYBRID__COLD int tile_reach_stencil(const tile_plan *plan, tile_reach *reach);
#endif

#if TILEHYBRID__DEFINE
/**
 * tile_stored_zrange() - the Z range (user coordinates) that tile_gather()
 * and tile_get() can read now.
 * @plan: the plan.
 * @z0, @zlen: receive the range [z0, z0 + zlen).
 *
 * Only after a run that completed without error (until the next run
 * starts).  TILE_STORE_FULL keeps every plane; the Z window keeps the last
 * R - z planes the loop computed (R the window's planes, z the tile height;
 * every plane when the window covers Z): z >= Z - (R - z) when the loop
 * runs upward along Z, z < R - z when it runs downward.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_NOT_STORED (no completed
 * run; the range is then empty), or TILE_ERR_SKEWED (the plan skews its
 * stencil: what it stores is not a range of the user's Z; tile_get()
 * tells point by point).
 */
TILEHYBRID__COLD int tile_stored_zrange(const tile_plan *plan, int64_t *z0, int64_t *zlen)
{
    int64_t h, keep, Z;
    int refused;
    if (plan == NULL || z0 == NULL || zlen == NULL)
        return TILE_ERR_NULL;
    *z0 = *zlen = 0;
    if ((refused = tile__data_refused(plan)) != TILE_OK)
        return refused;
    if (plan->deps.skewed)
        return TILE_ERR_SKEWED;
    if (!plan->run.completed || plan->status.code != TILE_OK)
        return TILE_ERR_NOT_STORED;
    Z = plan->cfg.zlen;
    h = plan->cfg.tile_height < Z ? plan->cfg.tile_height : Z;
    /* the same rule as tile_get() */
    keep = plan->store.ring_planes >= plan->ntiles * h ? Z : plan->store.ring_planes - h;
    *z0 = plan->deps.dir[plan->cfg.n] > 0 ? Z - keep : 0;
    *zlen = keep;
    return TILE_OK;
}
#else
TILEHYBRID__COLD int tile_stored_zrange(const tile_plan *plan, int64_t *z0, int64_t *zlen);
#endif

/* Packing the stored block, in the user's coordinates: rows of the plan's
 * planes into an array over box (Z last or Z first). */
typedef struct tile__packer {
    const tile_plan *p;
    unsigned char *dst;
    const tile_box *box;
    int layout;
    int64_t plane;      /* points of one plane of the box */
} tile__packer;

static inline void tile__pack_row(void *ctx, unsigned char *row, ptrdiff_t rstep, int64_t cnt,
                                  const int64_t *x, int64_t z)
{
    const tile__packer *k = (const tile__packer *)ctx;
    const tile_plan *p = k->p;
    const tile_box *b = k->box;
    int n = p->cfg.n, i;
    size_t esz = p->cfg.elem_size;
    int64_t idx = 0, step;
    for (i = 0; i < n; i++)
        idx = idx * b->len[i] + (tile__user(p, i, p->lo[i] + x[i]) - b->lo[i]);
    if (k->layout == TILE_LAYOUT_Z_LAST) {
        idx = idx * b->len[n] + (tile__user(p, n, z) - b->lo[n]);
        step = b->len[n] * p->deps.dir[n - 1];
    } else {
        idx += (tile__user(p, n, z) - b->lo[n]) * k->plane;
        step = p->deps.dir[n - 1];
    }
    tile__copy_strided(k->dst + (size_t)idx * esz, (ptrdiff_t)(step * (int64_t)esz), row, rstep,
                       cnt, esz);
}

/* Pack this rank's block over internal planes [z0, z1) into dst, an array
 * over box (the block and the user's Z range of those planes). */
static inline void tile__pack_block(const tile_plan *p, int64_t z0, int64_t z1,
                                    const tile_box *box, int layout, void *dst)
{
    int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
    tile__packer k;
    int i;
    k.p = p;
    k.dst = (unsigned char *)dst;
    k.box = box;
    k.layout = layout;
    k.plane = 1;
    for (i = 0; i < p->cfg.n; i++) {
        hi[i] = p->len[i];
        k.plane *= box->len[i];
    }
    tile__for_rows(p, z0, z1, lo, hi, tile__pack_row, &k);
}
