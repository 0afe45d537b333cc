/* ------------------------------------------------------------------------ */
/* In-tile order: planes (TILE_ORDER_PLANES)                                */

/* Z outermost, then the X dimensions in order; a run is a row along X_N,
 * its points consecutive elements of the row-major plane.  (An order is
 * one file like this one: 15-order.h.) */
static inline tile__order_traits tile__planes_traits(void)
{
    tile__order_traits t = { 1, 1, 0, 0, 0, "planes", "TILE_ORDER_PLANES" };
    return t;
}

/* Its walk's loop levels (Z, then X_1 .. X_{N-1}) and its run's step (one
 * row's element: the contiguous loop runs it). */
static inline void tile__planes_walk(tile__walk *w, const tile_plan *p)
{
    int i, n = w->n;
    w->lev[w->nlev++] = n;
    for (i = 0; i < n - 1; i++)
        w->lev[w->nlev++] = i;
    w->dx[n - 1] = 1;
    w->step = (ptrdiff_t)(p->store.stride[n - 1] * (int64_t)w->esz);
#ifndef TILE_CHECK_ACCESS
    w->contig = w->step == (ptrdiff_t)w->esz;
#endif
}

/* The run at the walk's position: the row along X_N. */
static inline void tile__planes_run(tile__walk *w)
{
    int n = w->n;
    w->x[n - 1] = w->blo[n - 1];
    w->count = w->bhi[n - 1] - w->blo[n - 1];
}
