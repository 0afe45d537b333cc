/* ------------------------------------------------------------------------ */
/* In-tile order: Z inner (TILE_ORDER_Z_INNER)                              */

/* The X dimensions in order, Z innermost: a run is the tile's column along
 * Z (kernels whose Z recurrence is cheap), its points a plane's size apart.
 * The reads of z - 1 at a tile's first plane land in the ring's last
 * planes: the plan keeps a mirror of them even at d_Z = 1.  The height's
 * cache bound is the last-level cache, not a core's (tile__cache_bytes): a
 * run is a column of z points, which the level-2 bound would cut to a point
 * or two (ADI 64x256x16384, one process: 0.044 G points/s at z = 1 against
 * 0.12 at the last-level bound).  The plan never chooses it itself. */
static inline tile__order_traits tile__zinner_traits(void)
{
    tile__order_traits t = { 1, 1, 1, 1, 0, "z", "TILE_ORDER_Z_INNER" };
    return t;
}

/* Its walk's loop levels (X_1 .. X_N) and its run's step (one plane). */
static inline void tile__zinner_walk(tile__walk *w, const tile_plan *p)
{
    int i, n = w->n;
    for (i = 0; i < n; i++)
        w->lev[w->nlev++] = i;
    w->dx[n] = 1;
    w->step = (ptrdiff_t)p->store.plane_bytes;
#ifndef TILE_CHECK_ACCESS
    w->contig = w->step == (ptrdiff_t)w->esz;
#endif
    w->zany = 1;        /* a run crosses the planes: the first is checked */
}

/* The run at the walk's position: the column along Z. */
static inline void tile__zinner_run(tile__walk *w)
{
    int n = w->n;
    w->x[n] = w->blo[n];
    w->count = w->bhi[n] - w->blo[n];
}
