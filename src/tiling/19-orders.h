/* ------------------------------------------------------------------------ */
/* In-tile orders: the dispatch                                             */

/* The traits of order o (enum tile_order; TILE_ORDER_AUTO: the plane
 * order's, which a plan runs when nothing else suits). */
static inline tile__order_traits tile__order_traits_of(int o)
{
    switch (o) {
    case TILE_ORDER_Z_INNER:
        return tile__zinner_traits();
    case TILE_ORDER_HYPERPLANE:
        return tile__hyperplane_traits();
    default:
        return tile__planes_traits();
    }
}

/**
 * tile_order_name() - the word for in-tile order @order (enum tile_order):
 * "planes", "z" (TILE_ORDER_Z_INNER), "hyper" (TILE_ORDER_HYPERPLANE) or
 * "auto", the words the demos' and tilectl's --order take; NULL for any
 * other value.
 */
static inline const char *tile_order_name(int order)
{
    if (order == TILE_ORDER_AUTO)
        return "auto";
    return order >= 0 && order < TILE_ORDER_AUTO ? tile__order_traits_of(order).name : NULL;
}

/**
 * tile_order_parse() - the in-tile order (enum tile_order) whose
 * tile_order_name() is @word; -1 for any other word or NULL.
 */
static inline int tile_order_parse(const char *word)
{
    int o;
    for (o = 0; word != NULL && o <= TILE_ORDER_AUTO; o++)
        if (strcmp(word, tile_order_name(o)) == 0)
            return o;
    return -1;
}

/* The order a plan runs (s->order) and, for the hyperplane order, the two
 * dimensions of its diagonals (s->wave): order itself, or for
 * TILE_ORDER_AUTO the hyperplane order where it suits
 * (tile__hyperplane_suits), else the plane order; an order that needs a
 * larger N than n runs as the plane order.  The widths e[i] are the points
 * per thread tile, from the global extents size (so that every rank
 * chooses alike); a and b the two widest (the later on a tie); L the
 * local extents. */
static inline void tile__order_choose(int n, const int64_t *size, const int *pdims,
                                      const int *tdims, const int64_t *L, int order,
                                      tile_store *s)
{
    int i, a = -1, b = -1;
    int64_t e[TILE_MAX_DIMS] = {0};
    for (i = 0; i < n; i++) {
        e[i] = size[i] / ((int64_t)pdims[i] * tdims[i]);
        if (b < 0 || e[i] >= e[b]) {
            a = b;
            b = i;
        } else if (a < 0 || e[i] >= e[a]) {
            a = i;
        }
    }
    s->order = order;
    if (s->order == TILE_ORDER_AUTO)
        s->order = tile__hyperplane_suits(n, e, a) ? TILE_ORDER_HYPERPLANE : TILE_ORDER_PLANES;
    if (n < tile__order_traits_of(s->order).min_n)
        s->order = TILE_ORDER_PLANES;
    s->wave[0] = s->wave[1] = -1;
    if (s->order == TILE_ORDER_HYPERPLANE)
        tile__hyperplane_wave(a, b, L, s);
}

/* The layout of the order's plane where it is not row-major (t->order,
 * t->wave set: tile_plane_layout): its strides, t->diag, *pe the elements
 * of its own part and *o the origin's shift; nothing for a row-major one.
 * TILE_OK or TILE_ERR_OVERFLOW. */
static inline int tile__order_layout(const int64_t *L, const int *dep, int64_t line, int64_t esz,
                                     tile_store *t, int64_t *pe, int64_t *o)
{
    switch (t->order) {
    case TILE_ORDER_HYPERPLANE:
        return tile__hyperplane_layout(L, dep, line, esz, t, pe, o);
    default:
        return TILE_OK;
    }
}

/* The order's part of a walk (tile__walk_begin), after its box: the loop
 * levels, the run's step and flags; then which runs the checked loop runs:
 * the first of each plane (tile__walk_plane_checked), but with N = 1,
 * where a plane is one row and checking each would check every point (sw:
 * twice the instructions), the first two rows of the thread's first tile
 * of the run (both parities of z: a body's half-steps; p2p's tiles of two
 * rows at one process ran all of theirs checked); an order whose run
 * crosses the planes says so itself (w->zany: its first run is checked).
 * The fast loops' fence catches an access the checked rows did not meet
 * (23-fence.h). */
static inline void tile__order_walk(tile__walk *w, const tile_plan *p)
{
    w->nlev = 0;
    switch (w->order) {
    case TILE_ORDER_Z_INNER:
        tile__zinner_walk(w, p);
        break;
    case TILE_ORDER_HYPERPLANE:
        tile__hyperplane_walk(w, p);
        break;
    default:
        tile__planes_walk(w, p);
        break;
    }
    if (!w->zany && w->n == 1) {
        w->zleft = 2;
        if (p->run.slot[w->thread].rows >= 2)   /* the thread's first tile of the run */
            w->zany = w->checked = 1;
    }
}

/* The run at the walk's position (w->x, w->count), once per run. */
static inline void tile__order_run(tile__walk *w)
{
    switch (w->order) {
    case TILE_ORDER_Z_INNER:
        tile__zinner_run(w);
        break;
    case TILE_ORDER_HYPERPLANE:
        tile__hyperplane_run(w);
        break;
    default:
        tile__planes_run(w);
        break;
    }
}
