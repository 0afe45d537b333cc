/* ------------------------------------------------------------------------ */
/* In-tile order: hyperplane (TILE_ORDER_HYPERPLANE)                        */

/* Z outermost, then the X dimensions but two, a = wave[0] and b = wave[1],
 * then the anti-diagonals x_a + x_b = d of those two: the points of a
 * diagonal do not depend on each other, so the SIMD loop runs them.  The
 * plane is diagonal-major in a and b (tile__hyperplane_layout), so that a
 * diagonal is contiguous and every offset a constant stride.  Where it
 * does not skew and N = 2, the walk hands out planes z and z + 1 in pairs
 * (tile__walk_next), and the plan's height is at least 2. */
static inline tile__order_traits tile__hyperplane_traits(void)
{
    tile__order_traits t = { 2, 0, 0, 0, 2, "hyper", "TILE_ORDER_HYPERPLANE" };
    return t;
}

/* Does the order suit a plan whose thread tiles are e[] points wide, the
 * second widest along a (TILE_ORDER_AUTO's choice)?  Where its diagonals
 * hold several points: N >= 2 and at least 8 along a (from the global
 * extents, so that every rank chooses alike). */
static inline int tile__hyperplane_suits(int n, const int64_t *e, int a)
{
    return n >= 2 && e[a] >= 8;
}

/* Its two dimensions: of the two widest, a and b, the one with the longer
 * local extent L falls along a diagonal (wave[1]), so that a
 * diagonal-major plane holds at most twice the points of a row-major one. */
static inline void tile__hyperplane_wave(int a, int b, const int64_t *L, tile_store *s)
{
    if (L[a] > L[b]) {
        int i = a;
        a = b;
        b = i;
    }
    s->wave[0] = a;
    s->wave[1] = b;
}

/* R, the distance between two diagonals of L points shifted by o: L + o
 * rounded up to whole lines of @line elements, one line more when that is
 * a multiple of 256 bytes; 0 on overflow. */
static inline int64_t tile__diag_stride(int64_t L, int64_t o, int64_t line, int64_t esz)
{
    int64_t R = 0;
    if (!tilehybrid_add_ok(L, o + line - 1, &R))
        return 0;
    R = R / line * line;
    if ((uint64_t)(R % 256) * (uint64_t)(esz % 256) % 256 == 0 &&   /* R esz % 256 */
        !tilehybrid_add_ok(R, line, &R))
        return 0;
    return R;
}

/* The diagonal-major slices of a plane (tile_plane_layout() says the
 * layout): t->diag = R, the strides along a (R + 1) and b (R), *o the
 * origin's shift and *pe the slice's elements (its diagonals and three
 * lines); the local extents L (ghosts included), the ghost widths dep,
 * @line elements a 64-byte line.  TILE_ERR_OVERFLOW past 2^63. */
static inline int tile__hyperplane_layout(const int64_t *L, const int *dep, int64_t line,
                                          int64_t esz, tile_store *t, int64_t *pe, int64_t *o)
{
    int a = t->wave[0], b = t->wave[1];
    int64_t R0 = tile__diag_stride(L[a], 0, line, esz), R, w = 0;
    *o = (line - dep[a] % line) % line;     /* x_a = d_a at a line's start */
    R = tile__diag_stride(L[a], *o, line, esz);
    if (R <= 0 || R - R0 > R0 / 8) {     /* (more than 9/8 of R0, or overflow) */
        *o = 0;
        R = R0;
    }
    if (!(R > 0 && tilehybrid_add_ok(L[a], L[b] - 1, &w) && tilehybrid_mul_ok(w, R, pe) &&
          tilehybrid_add_ok(*pe, 3 * line, pe) && tilehybrid_add_ok(R, 1, &w)))
        return TILE_ERR_OVERFLOW;
    t->diag = R;
    t->stride[a] = w;        /* R + 1 */
    t->stride[b] = R;
    return TILE_OK;
}

/* Its walk's loop levels (Z, the X dimensions but a and b, the diagonal)
 * and the diagonals' constants: the step along a diagonal (+1 along a, -1
 * along b), the pair's plane step, and where the diagonals turn
 * (tile__walk_next). */
static inline void tile__hyperplane_walk(tile__walk *w, const tile_plan *p)
{
    int i, n = w->n, a = p->store.wave[0], b = p->store.wave[1];
    w->lev[w->nlev++] = n;
    for (i = 0; i < n; i++)
        if (i != a && i != b)
            w->lev[w->nlev++] = i;
    w->lev[w->nlev++] = n + 1;
    w->vlo[n + 1] = w->blo[a] + w->blo[b];
    w->vhi[n + 1] = w->bhi[a] + w->bhi[b] - 1;
    w->dx[a] = 1;
    w->dx[b] = -1;
    w->step = (ptrdiff_t)((p->store.stride[a] - p->store.stride[b]) * (int64_t)w->esz);
#ifndef TILE_CHECK_ACCESS
    w->fast = w->step == (ptrdiff_t)w->esz;
#endif
    w->diag = !p->deps.skewed;
    w->pl = w->lev[w->nlev - 2];
    w->pstep = (ptrdiff_t)((w->pl == n ? p->store.plane_elems : p->store.stride[w->pl]) *
                           (int64_t)w->esz);
    for (i = 0; i <= n; i++)
        w->pcol[i] = p->deps.inv[i][w->pl];
    w->wa = a;
    w->wb = b;
    w->dturn = w->bhi[b] - 1 + w->blo[a];
    w->sa = (ptrdiff_t)(p->store.stride[a] * (int64_t)w->esz);
    w->sb = (ptrdiff_t)(p->store.stride[b] * (int64_t)w->esz);
    for (i = 0; i <= n; i++) {
        w->ia[i] = p->deps.inv[i][a];
        w->ib[i] = p->deps.inv[i][b];
    }
}

/* The run at the walk's position: diagonal d = x[N + 1] of the slice, from
 * its first point (max(d - (bhi_b - 1), blo_a), d - that) on. */
static inline void tile__hyperplane_run(tile__walk *w)
{
    int a = w->wa, b = w->wb;
    int64_t d = w->x[w->n + 1], last = d - w->blo[b] < w->bhi[a] - 1 ? d - w->blo[b]
                                                                    : w->bhi[a] - 1;
    w->x[a] = d - (w->bhi[b] - 1) > w->blo[a] ? d - (w->bhi[b] - 1) : w->blo[a];
    w->x[b] = d - w->x[a];
    w->count = last - w->x[a] + 1;
}

/* Slices in pairs: B's run with the walk's is the walk's A run one slice
 * up (tile__walk_next; private). */
TILE__ALWAYS_INLINE void tile__walk_pair_b(tile__walk *w)
{
    int i;
    w->brun = w->run + w->pstep;
    w->bcount = w->count;
    w->points += w->count;
    for (i = 0; i <= w->n; i++)
        w->bsu[i] = w->su[i] + w->pcol[i];
}

/* The walk's next diagonal d of the same slice (tile__walk_next: the
 * common case, inline), from the last one: its first point moves one up
 * along wave[1] while d <= dturn, then one up along wave[0], so the address
 * and the user coordinates move by one of two constants; with the pairs,
 * B's diagonal d - 1 first. */
TILE__ALWAYS_INLINE void tile__hyperplane_next(tile__walk *w, int64_t d)
{
    int const n = w->n, a = w->wa, b = w->wb;
    int64_t const last = d - w->blo[b] < w->bhi[a] - 1 ? d - w->blo[b] : w->bhi[a] - 1;
    int64_t const *col;
    int64_t xa;
    int i;
    if (w->pair)                /* B's diagonal d - 1 */
        tile__walk_pair_b(w);
    w->x[n + 1] = d;
    if (d > w->dturn) {
        xa = w->sx[a] = ++w->x[a];
        col = w->ia;
        w->run += w->sa;
    } else {
        xa = w->x[a];
        w->sx[b] = ++w->x[b];
        col = w->ib;
        w->run += w->sb;
    }
    w->count = last - xa + 1;
    for (i = 0; i <= n; i++)    /* ux[] = su[] without clipping: tile__view_run */
        w->su[i] += col[i];
    w->points += w->count;
}

/* After the slice's last diagonal with the pairs: B's last diagonal alone
 * (A's count 0), then the walk goes on from slice B. */
TILE__ALWAYS_INLINE void tile__hyperplane_pair_end(tile__walk *w)
{
    int i;
    w->pair = 0;
    tile__walk_pair_b(w);
    w->count = 0;
    w->sx[w->pl] = ++w->x[w->pl];
    for (i = 0; i <= w->n; i++)
        w->su[i] = w->bsu[i];
}
