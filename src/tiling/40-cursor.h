/* ------------------------------------------------------------------------ */
/* The point cursor                                                         */

/* After thread t's part of a tile that ran the SIMD loop: add the lanes of
 * the SUM_U64 reductions to their slots (a sum modulo 2^64 does not depend
 * on the order) and report the calls that landed in the trash. */
static inline void tile__lanes_flush(tile_plan *p, int t)
{
    struct tile__io *io = p->run.io;
    tile__lanes *tr = &p->run.slot[t].trash;
    int64_t bad = 0;
    int k, l;
    for (k = 0; io != NULL && k < io->nred; k++) {
        tile__red_slot *s = &io->slots[k][t];
        for (l = 0; l < TILE__LANES; l++) {
            s->u64 += s->lanes.u64[l];
            s->count += s->lanes.cnt[l];
        }
        memset(&s->lanes, 0, sizeof s->lanes);
    }
    for (l = 0; l < TILE__LANES; l++)
        bad += tr->cnt[l];
    if (bad != 0) {
        memset(tr, 0, sizeof *tr);
        tile_thread_fail(p, t, TILE_ERR_REDUCE, "tile_reduce_u64: the reduction is not a "
                         "SUM_U64 reduction declared on this plan (tile_reduction_init)");
    }
}


/* The walk over thread t's box of tile k, before its first run (nothing
 * to walk when k < 0 or the box is empty).  Its loop levels: Z outermost
 * (not in Z inner order), the X dimensions in order but the row's (plane
 * order) or the two of the diagonals (hyperplane order), and the diagonal
 * innermost (hyperplane order). */
TILEHYBRID__WARM tile__walk tile__walk_begin(tile_plan *p, int t, int64_t k);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM tile__walk tile__walk_begin(tile_plan *p, int t, int64_t k)
{
    tile__walk w;
    int i, j, n = p->cfg.n;
    memset(&w, 0, sizeof w);
    w.plan = p;
    w.n = n;
    w.thread = t;
    w.esz = p->cfg.elem_size;
    w.order = p->store.order;
    w.nlev = -1;
    w.zchk = INT64_MIN;
    w.zleft = INT_MAX;
    w.dstop = INT64_MIN;
    w.hit0 = tile__fence_get(&p->store.fence);
    w.k = k;
    w.wrapz = k >= 0 ? tile__tile_z0(p, k) : 0;
    if (p->store.mirror || w.wrapz == 0 || w.wrapz % p->store.ring_planes != 0)
        w.wrapz = -1;   /* else its plane z - 1 is the ring's last */
    for (i = 0; i <= n; i++) {  /* a user step along i, in elements */
        w.ust[i] = tile__user_stride(p, i);
        /* at plane wrapz, internal Z step -1 is R - 1 planes up */
        w.wst[i] = w.ust[i] - (w.wrapz < 0 ? 0 : p->deps.m[n][i] * p->store.ring_planes *
                                                     p->store.plane_elems);
    }
    if (k < 0 || t >= p->cfg.threads || !p->run.ok)
        return w;
    tile_thread_box(p, t, k, w.blo, w.bhi);
    for (i = 0; i < n; i++)
        if (w.bhi[i] <= w.blo[i])
            return w;
    w.blo[n] = tile__tile_z0(p, k);
    w.bhi[n] = tile__tile_z1(p, k);
    w.pbase = tile__plane(p, w.blo[n]);
    w.sx[0] = -1;
    for (i = 0; i < n; i++)
        w.g0[i] = p->lo[i];
    for (i = 0; i <= n; i++) {
        w.vlo[i] = w.blo[i];
        w.vhi[i] = w.bhi[i];
    }
    tile__order_walk(&w, p);
    if (!p->store.fence.armed)      /* no fence: the checked loop runs every run (23-fence.h) */
        w.fast = w.contig = 0;
    w.jamok = n == 1 && w.order == TILE_ORDER_PLANES && w.contig && !p->deps.skewed &&
              !p->deps.at_all && !p->deps.at_far;
    for (i = 0; i <= n; i++)
        for (j = 0; j <= n; j++)
            w.udx[i] += p->deps.inv[i][j] * w.dx[j];
    p->run.stats[t].tiles++;
    return w;
}
#endif

/* The run at the walk's position (clipped to the real points on a plan
 * that skews); 1 if it has points.  Once per run: no division on a plan
 * that does not skew, and on one that skews only for a step of the user's
 * coordinates other than 0 and +-1 along the run (tile__clip). */
static inline int tile__walk_run(tile__walk *w)
{
    const tile_plan *p = w->plan;
    int n = w->n, i;
    int64_t g[TILE_MAX_DIMS + 1], e;
    tile__order_run(w);
    if (w->count <= 0)
        return 0;
    if (w->sx[0] < 0) {         /* the first run: every coordinate */
        for (i = 0; i <= n; i++) {
            g[i] = w->g0[i] + w->x[i];
            w->sx[i] = w->x[i];
        }
        tile__to_user(p, g, w->su);
    } else {                    /* from the last run: the columns of the moves */
        int k;
        for (k = 0; k <= n; k++) {
            int64_t dk = w->x[k] - w->sx[k];
            if (dk == 0)
                continue;
            w->sx[k] = w->x[k];
            for (i = 0; i <= n; i++)
                w->su[i] += p->deps.inv[i][k] * dk;
        }
    }
    if (p->deps.skewed) {
        int64_t t0, t1;
        tile__clip(p, w->su, w->udx, &t0, &t1);
        t0 = t0 > 0 ? t0 : 0;
        t1 = t1 < w->count ? t1 : w->count;
        if (t1 <= t0)
            return 0;
        for (i = 0; i <= n; i++) {
            w->x[i] += t0 * w->dx[i];
            w->ux[i] = w->su[i] + t0 * w->udx[i];
        }
        w->count = t1 - t0;
    } else {
        for (i = 0; i <= n; i++)
            w->ux[i] = w->su[i] + 0 * w->x[i];  /* (not a memcpy call) */
    }
    e = p->store.origin;
    for (i = 0; i < n; i++)
        e += (w->x[i] + p->deps.d[i]) * p->store.stride[i];
    w->run = w->pbase + (size_t)(w->x[n] - w->blo[n]) * p->store.plane_bytes +
             (size_t)e * w->esz;
    return 1;
}

/* The fence was hit while the walk's tile ran (23-fence.h): walk the tile
 * again from its start, every run through the checked loop, which names
 * the access that hit it (the tile's values are lost either way: the run
 * fails).  The hit is the plan's: the other threads whose tiles were in
 * flight walk theirs again too (slower, and their bodies run twice, but
 * the run fails all the same). */
static inline void tile__walk_again(tile__walk *w)
{
    tile_plan *p = w->plan;
    int t = w->thread;
    int64_t tiles = p->run.stats[t].tiles;
    *w = tile__walk_begin(p, t, w->k);
    p->run.stats[t].tiles = tiles;  /* the same tile: counted once */
    w->again = 1;
    w->fast = w->contig = w->jamok = 0;
}

static inline void tile__band_count(tile__walk *w, double now);

/* Advance the walk to its next run that has points; 0 at the end (the
 * general odometer over the loop levels, called at the start of a plane
 * in the hyperplane order). */
static inline int tile__walk_next_level(tile__walk *w)
{
    int j;
    w->bcount = 0;
    if (w->nlev < 0)
        return 0;
    if (!w->started) {
        for (j = 0; j < w->nlev; j++)
            w->x[w->lev[j]] = w->vlo[w->lev[j]];
        w->started = 1;
        j = 0;
    } else {
        j = -1;
    }
    for (;;) {
        if (j >= 0 && tile__walk_run(w)) {
            w->points += w->count;
            if (w->diag) {  /* the slice's next diagonals: tile__walk_next */
                w->dstop = w->vhi[w->n + 1] - 1;
                w->pair = w->x[w->pl] + 1 < w->vhi[w->pl] ? 2 : 0;
            }
            return 1;
        }
        for (j = w->nlev - 1; j >= 0; j--) {
            int l = w->lev[j];
            if (++w->x[l] < w->vhi[l])
                break;
            w->x[l] = w->vlo[l];
        }
        if (j < 0) {
            if (w->trial > 0)       /* a band's or rows' trial: timed to here */
                tile__band_count(w, tile_wtime());
            if (w->laned)
                tile__lanes_flush(w->plan, w->thread);
            if (!w->again && tile__fence_hit(w)) {
                tile__walk_again(w);
                return tile__walk_next_level(w);
            }
            w->nlev = -1;
            w->dstop = INT64_MIN;
            w->plan->run.stats[w->thread].points += w->points;
            return 0;
        }
    }
}

/* Has a run of the walk's current plane gone through the checked loop (or
 * need it not: zany)?  The fast loops run only then (tile__walk_simd,
 * tile__walk_contig). */
TILE__ALWAYS_INLINE int tile__walk_plane_checked(const tile__walk *w)
{
    return w->zany || w->x[w->n] == w->zchk;
}

/* May the walk's current run go through the SIMD loop?  Only in the
 * hyperplane order, and only after a run of the tile has gone through the
 * scalar loop, whose TILE_AT checks the type size and the offset count
 * (then they hold for every point: they do not depend on the point). */
TILE__ALWAYS_INLINE int tile__walk_simd(const tile__walk *w)
{
    return w->fast && w->checked && !w->bfirst && tile__walk_plane_checked(w);
}

/* Advance the walk to its next run that has points; 0 at the end.  In the
 * hyperplane order of a plan that does not skew, the next diagonal of the
 * same slice is the common case (hundreds per plane, each a few dozen
 * points at SIMD speed): it is computed inline from the last one
 * (tile__hyperplane_next, in the order's file), and only the start of a
 * slice goes through the odometer (which sets dstop).  The first point of
 * diagonal d is (max(d - (bhi_b - 1), blo_a), d - that).  A box has no
 * empty diagonal in [vlo, vhi), and sx[] follows x[] (no clipping).
 *
 * Slices in pairs (pair 1): a diagonal reads the one before it, and a
 * slice walked alone waits at every diagonal for the last one's stores.
 * Slice B = A + 1 reads only diagonals <= d of A at its own diagonal d
 * (every read is at offsets <= 0), so with A's diagonal d + 1 the walk
 * hands out B's diagonal d (brun, bcount, bsu: A's run before, one slice
 * up), which TILE__POINTS computes after it: A_0, A_1 B_0, ..., A_last
 * B_last-1, then B_last alone (A's count 0), and the odometer goes on from
 * slice B.  Only where the SIMD loop runs (tile__walk_simd), decided at
 * the slice's second diagonal (pair 2 until then), once the first run of
 * the tile has been checked. */
TILE__ALWAYS_INLINE int tile__walk_next(tile__walk *w)
{
    int64_t const d = w->x[w->n + 1] + 1;
    if (d <= w->dstop) {
        if (w->pair == 2)           /* B's first run goes through the checked loop */
            w->bfirst = w->pair = tile__walk_simd(w);
        tile__hyperplane_next(w, d);
        return 1;
    }
    if (w->pair == 1) {             /* B's last diagonal alone, then on from slice B */
        tile__hyperplane_pair_end(w);
        return 1;
    }
    return tile__walk_next_level(w);
}

/* The offsets the plan's body may read (struct tile__atset): rows 0..N of
 * the table (the rows past N, which a TILE_AT of more offsets reads, are
 * left unset: tile__at_test ANDs their bits with the count's test, 0 for
 * such a site; copying them would cost adi 1.7% more instructions). */
TILE__ALWAYS_INLINE tile__atset tile__atset_of(tile_plan *p)
{
    tile__atset a;
    a.plan = p;
    memcpy(a.m, p->deps.at_mask, sizeof a.m[0] * (size_t)(p->cfg.n + 1));
    a.any = (uint64_t)p->deps.at_all | (uint64_t)p->deps.at_far << 63;
    memcpy(a.code, p->deps.at_code, sizeof a.code);
    a.key = p->cfg.elem_size * (TILE_MAX_DIMS + 2) + (size_t)p->cfg.n + 1;
    a.trap = p->store.fence.trap;
    return a;
}

/* The view of a walk, before its first run. */
TILE__ALWAYS_INLINE tile__view tile__view_begin(const tile__walk *w)
{
    tile__view v;
    int i;
    v.w = w;
    v.plan = w->plan;
    v.esz = w->esz;
    v.n = w->n;
    v.thread = w->thread;
    v.wrap = 0;
    for (i = 0; i <= TILE_MAX_DIMS; i++) {
        v.ust[i] = w->ust[i];
        v.ux[i] = 0;
        v.udx[i] = w->udx[i];
        v.uz[i] = i <= w->n ? w->plan->deps.inv[i][w->n] : 0;
    }
    return v;
}

/* The user's coordinates of the walk's run's first point: su[] when diag
 * (tile__walk_next moves su[] only: no clipping), else ux[]. */
TILE__ALWAYS_INLINE const int64_t *tile__walk_ux(const tile__walk *w)
{
    return w->diag ? w->su : w->ux;
}

/* A run of walk w in view v: its first point's user coordinates ux, and
 * the strides of its plane, the walk's own or (wrap 1) those of the plane
 * that reads across the ring's wrap (private). */
TILE__ALWAYS_INLINE void tile__view_set(tile__view *v, const tile__walk *w, const int64_t *ux,
                                        int wrap)
{
    int i;
    for (i = 0; i <= w->n; i++)
        v->ux[i] = ux[i];
    if (wrap != v->wrap) {
        v->wrap = wrap;
        for (i = 0; i <= w->n; i++)
            v->ust[i] = wrap ? w->wst[i] : w->ust[i];
    }
}

/* The view of the walk's current run (always 1: a loop condition): its
 * first point, and the strides of its plane (the plane that reads across
 * the ring's wrap has its own, store.mirror). */
TILE__ALWAYS_INLINE int tile__view_run(tile__view *v, const tile__walk *w)
{
    tile__view_set(v, w, tile__walk_ux(w), w->x[w->n] == w->wrapz);
    return 1;
}

/* The view of B's run with the walk's (slices in pairs, tile__walk_next),
 * from A's view v: B's plane is A's, or the one above it, which is never
 * the plane that reads across the ring's wrap (the tile's first). */
TILE__ALWAYS_INLINE void tile__view_pair(tile__view *vb, const tile__view *v,
                                         const tile__walk *w)
{
    tile__view_set(vb, w, w->bsu, w->pl != w->n && v->wrap);
}

/* Point i of the run whose first point is at run, step bytes apart (the
 * scalar loop), on B's run of a pair when h is 1. */
TILE__ALWAYS_INLINE tile_cursor tile__cur_at(const tile__view *v, unsigned char *run,
                                             ptrdiff_t step, int64_t i, int h)
{
    tile_cursor c;
    c.at = run + i * step;
    c.k = 0;
    c.i = i;
    c.lane = 0;
    c.r = 0;
    c.v = v;
    c.simd = h << 1;
#ifdef TILE_CHECK_ACCESS
    c.used_file = NULL;
    c.used_line = 0;
#endif
    return c;
}

/* Point i of a contiguous run outside the SIMD loop: element i of run. */
TILE__ALWAYS_INLINE tile_cursor tile__cur_contig(const tile__view *v, unsigned char *run,
                                                 int64_t i)
{
    tile_cursor c;
    c.at = run;
    c.k = i;
    c.i = i;
    c.lane = 0;
    c.r = 0;
    c.v = v;
    c.simd = 0;
#ifdef TILE_CHECK_ACCESS
    c.used_file = NULL;
    c.used_line = 0;
#endif
    return c;
}

/* The run of the cursor's point, as tile__walk_coord's b names it. */
TILE__ALWAYS_INLINE int tile__cur_run(const tile_cursor *c)
{
    return ((c->simd & 2) != 0) | (int)(c->r << 1);
}

/* Point x of row r of a band (tile__walk_band), whose row starts at run:
 * element x of run, as in the contiguous loop (a TILE_AT of the wrong
 * type lands as near the fence's mirror as there: 23-fence.h). */
TILE__ALWAYS_INLINE tile_cursor tile__cur_band(const tile__view *v, unsigned char *run,
                                               int64_t x, int r)
{
    tile_cursor c = tile__cur_contig(v, run, x);
    c.r = r;
    return c;
}

/* Point i of a contiguous run (the SIMD loop): element i of run, in lane l
 * (i % TILE__LANES); h 1 on B's run of a pair. */
TILE__ALWAYS_INLINE tile_cursor tile__cur_simd(const tile__view *v, unsigned char *run, int64_t i,
                                               int64_t l, int h)
{
    tile_cursor c = tile__cur_contig(v, run, i);
    c.lane = l;
    c.simd = 1 | h << 1;
    return c;
}

/* May it go through the unchecked scalar loop?  In the plane and Z-inner
 * orders, when its points are consecutive elements (a row along a
 * contiguous X_N), after a checked run of the tile as above. */
TILE__ALWAYS_INLINE int tile__walk_contig(const tile__walk *w)
{
    return w->contig && w->checked && tile__walk_plane_checked(w);
}

/* The trials of each loop (a band; as many rows one by one) before a
 * thread chooses (tile__band_trial). */
#define TILE__BAND_TRIALS 32

/* Thread t's choice between bands and rows (TILEHYBRID_BAND auto): the
 * walk's run of g rows goes in a band (1) or as rows (0).  The first
 * TILE__BAND_TRIALS trials of each loop alternate (a band of up to
 * TILE__BAND rows, then as many rows in the contiguous loop), each timed
 * from its first run's call to the call after its last, or to the end of
 * the walk (a trial the tile's end cuts short counts the points it ran:
 * tile__band_count); then the thread keeps the loop of fewer seconds a
 * point for the plan's life.
 * Both give the same values (a band only reorders independent points;
 * reductions do not depend on the order): the choice is the speed only.
 * demos/p2p, whose rows wait for their left neighbour's store, runs 3-5x
 * faster in bands; demos/sw, whose body is long, 20% slower
 * (docs/RESULTS.md). */
/* The walk's trial (tile__band_trial) ends at now: counted in its
 * thread's slot, and, at the last trial, the thread's choice. */
static inline void tile__band_count(tile__walk *w, double now)
{
    tile__slot *s = &w->plan->run.slot[w->thread];
    s->tpts[w->tband] += w->tpts;
    s->tsec[w->tband] += now - w->t0;
    w->trial = 0;
    if (++s->trials >= 2 * TILE__BAND_TRIALS)
        s->band = s->tsec[1] * (double)s->tpts[0] <= s->tsec[0] * (double)s->tpts[1] ? 1 : -1;
}

static inline int tile__band_trial(tile__walk *w, int64_t g)
{
    tile__slot *s = &w->plan->run.slot[w->thread];
    int64_t const jam = g < TILE__BAND ? g : TILE__BAND;
    double const now = tile_wtime();
    if (w->trial > 0 && --w->trial == 0)            /* its last run has ended */
        tile__band_count(w, now);
    if (s->band != 0)
        return s->band > 0;
    if (w->trial == 0) {                            /* the next trial */
        w->tband = (s->trials & 1) == 0;
        w->trial = w->tband ? 1 : (int)jam;
        w->tpts = 0;
        w->t0 = now;
    }
    w->tpts += w->tband ? jam * w->count : w->count;
    return w->tband;
}

/* May the walk's current run go in a band with the rows above it (N = 1,
 * the plane order: tile__walk_begin's jamok)?  Then w->jam, 2 to
 * TILE__BAND, is the band's rows: the current one and those above it in
 * the tile, once the tile's checked rows have passed; never the plane
 * that reads across the ring's wrap (its strides are its own).  Each row
 * of a band starts a step after the one below it (TILE__POINTS): row r's
 * point x - 1 waits for its own x - 2 and row r - 1's x - 1, both a step
 * back, so the band's rows overlap where a row alone waits at every
 * point for the one before it.  Whether a thread uses bands: run.band
 * (TILEHYBRID_BAND), else measured (tile__band_trial). */
TILE__ALWAYS_INLINE int tile__walk_band(tile__walk *w)
{
    int64_t g = w->vhi[1] - w->x[1];
    int b = w->plan->run.band;
    if (!w->jamok || !w->checked || !w->zany || w->x[1] == w->wrapz || g < 2)
        return 0;
    if (b == 0)
        b = w->plan->run.slot[w->thread].band;
    if (b == 0)
        b = tile__band_trial(w, g) ? 1 : -1;
    w->jam = g < TILE__BAND ? (int)g : TILE__BAND;
    return b > 0;
}

/* After a band: the walk goes on from its last row. */
TILE__ALWAYS_INLINE void tile__walk_band_end(tile__walk *w)
{
    w->x[w->n] += w->jam - 1;
    w->points += (int64_t)(w->jam - 1) * w->count;
    w->jam = 0;
}

/* After a run of the scalar loop. */
static inline void tile__walk_checked(tile__walk *w)
{
    w->checked = w->plan->run.stats[w->thread].error == TILE_OK;
    w->plan->run.slot[w->thread].rows += w->n == 1 && w->checked;
    if (w->x[w->n] != w->zchk && --w->zleft <= 0)
        w->zany = 1;
    w->zchk = w->x[w->n];
    w->bfirst = 0;
}

/* Coordinate d (user's) of point i of the walk's current run, or of the
 * run b names: bit 0, B's run with it (slices in pairs); b >> 1, the row
 * of its band (tile__walk_band).  A cursor's b: tile__cur_run. */
static inline int64_t tile__walk_coord(const tile__walk *w, int b, int64_t i, int d)
{
    return ((b & 1) ? w->bsu : tile__walk_ux(w))[d] + i * w->udx[d] +
           (b >> 1) * w->plan->deps.inv[d][w->n];
}

/* The refusals a point loop makes (tile__walk_where, tile__walk_break,
 * tile__trap, tile__at_refuse) are static in every build, under
 * TILEHYBRID_SEPARATE too: they take the address of the loop's walk or
 * view, which would escape into a function of another file, and the
 * compiler would then reload the walk and the view after every store of
 * the body that may alias them (demos/sw, one process: 1.5x the
 * instructions).  They are small, and compiled only where a loop is. */

/* Point i of the walk's run b (tile__walk_coord) as "(c_1,...,c_N,z)" in buf. */
static inline const char *tile__walk_where(const tile__walk *w, int b, int64_t i, char *buf,
                                           size_t size)
{
    size_t o = 0;
    int d;
    for (d = 0; d <= w->n && o < size; d++)
        o += (size_t)snprintf(buf + o, size - o, "%s%lld%s", d ? "," : "(",
                              (long long)tile__walk_coord(w, b, i, d), d == w->n ? ")" : "");
    return buf;
}

/* The body left point i of the run b (tile__walk_coord) with break (or goto). */
static inline void tile__walk_break(const tile__walk *w, int b, int64_t i)
{
    char at[8 * (TILE_MAX_DIMS + 1) * 3];
    tile_thread_fail(w->plan, w->thread, TILE_ERR_BODY, "the body left its point %s with "
                     "break (or goto): not allowed; use continue",
                     tile__walk_where(w, b, i, at, sizeof at));
}

/** tile_coord() - global coordinate i (0..N-1, or N for Z) of the cursor's
 *  point, in the user's coordinates: one multiply-add (the run's first
 *  point's coordinates and their step along the run are computed once per
 *  run, and stay in registers along it).  Always inlined: a call left for
 *  later keeps the SIMD loop's cursor in memory, and its lanes scalar (demos/
 *  seidel under gcc 12, once the fence's test made its body larger). */
TILE__ALWAYS_INLINE int64_t tile_coord(const tile_cursor *it, int i)
{
    return it->v->ux[i] + it->i * it->v->udx[i] + it->r * it->v->uz[i];
}

/* After thread t's part of tile k: if the tile ends the ring, copy its box's
 * last d_Z planes to the mirror below the ring, where the next tile's
 * constant-stride reads of z - 1 ... z - d_Z land.  With one thread the box
 * is the block: the planes are copied whole (the ring's last d_Z planes
 * and the mirror are both contiguous), not row by row along a stride. */
typedef struct tile__mirror_ctx {
    const tile_plan *p;
    int64_t shift;      /* plane z goes to mirror plane z - shift (< 0) */
} tile__mirror_ctx;

static inline void tile__mirror_row(void *ctx, unsigned char *row, ptrdiff_t step,
                                    int64_t count, const int64_t *x, int64_t z)
{
    const tile__mirror_ctx *m = (const tile__mirror_ctx *)ctx;
    tile__copy_strided(tile__plane(m->p, z - m->shift) + tile__offset(m->p, x), step, row, step,
                       count, m->p->cfg.elem_size);
}

TILEHYBRID__WARM void tile__mirror(tile_plan *p, int t, int64_t k);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile__mirror(tile_plan *p, int t, int64_t k)
{
    int64_t z1 = tile__tile_z1(p, k), lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
    tile__mirror_ctx m;
    int i;
    if (!p->store.mirror || z1 % p->store.ring_planes != 0 || z1 >= p->deps.size[p->cfg.n])
        return;
    if (p->cfg.threads == 1) {  /* the whole planes, ghosts too: one contiguous copy */
        memcpy(tile__plane(p, -p->deps.dz), tile__plane(p, z1 - p->deps.dz),
               (size_t)p->deps.dz * p->store.plane_bytes);
        return;
    }
    m.p = p;
    m.shift = z1;
    tile_thread_box(p, t, k, lo, hi);
    for (i = 0; i < p->cfg.n; i++)
        if (lo[i] == 0)
            lo[i] = -p->deps.d[i];  /* the ghosts too: diagonal reads of z - a */
    tile__for_rows_along(p, z1 - p->deps.dz, z1, lo, hi, tile__row_dim(p, lo, hi),
                         tile__mirror_row, &m);
}
#endif

/** TILE_THREAD(it) - the OpenMP thread number of the cursor (0 in pure MPI). */
#define TILE_THREAD(it) ((it).v->thread)

/* A TILE_AT whose type does not have the element's size, or with other
 * than N + 1 offsets (cnt), at point i of the walk's run: the run's error,
 * and a scratch element of the thread for the access to land on (static
 * in every build: see tile__walk_where). */
static inline void *tile__trap(const tile__walk *w, int64_t i, size_t size, int cnt,
                               const char *file, int line)
{
    tile_plan *p = w->plan;
    char at[8 * (TILE_MAX_DIMS + 1) * 3];
    if (cnt != w->n + 1)
        tile_thread_fail(p, w->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: %d "
                         "offsets, the plan has N + 1 = %d dimensions", file, line,
                         tile__walk_where(w, 0, i, at, sizeof at), cnt, w->n + 1);
    else
        tile_thread_fail(p, w->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: the "
                         "type has %llu bytes but cfg.elem_size is %llu", file, line,
                         tile__walk_where(w, 0, i, at, sizeof at), (unsigned long long)size,
                         (unsigned long long)w->esz);
    return tile__scratch(p, w->thread, size);
}

/* The stencil as text, for a refused TILE_AT's message: its vectors, or
 * the widths of the shorthand (into buf, size bytes). */
TILEHYBRID__COLD const char *tile__stencil_text(const tile_plan *p, char *buf, size_t size);

/* A TILE_AT the checked loop refuses at point c->i of its run: other than
 * N + 1 offsets (cnt), a type without the element's size, or an offset o
 * the plan does not deliver (not declared): the run's TILE_ERR_ACCESS,
 * naming the source line, the point, the offset and the stencil.  Returns
 * 0 (the access lands on the thread's scratch element).  Static in every
 * build (see tile__walk_where). */
static inline int tile__at_refuse(const tile__view *v, int b, int64_t i, size_t size,
                                  int cnt, const int64_t *o, const char *file, int line);

#if TILEHYBRID__DEFINE
TILEHYBRID__COLD const char *tile__stencil_text(const tile_plan *p, char *buf, size_t size)
{
    size_t w = 0;
    int k, i, n = p->cfg.n;
    buf[0] = '\0';
    for (k = 0; k < p->cfg.nstencil && w < size; k++)
        for (i = 0; i <= n && w < size; i++)
            w += (size_t)snprintf(buf + w, size - w, "%s%d%s", i ? "," : k ? " (" : "(",
                                  p->cfg.stencil[k][i], i == n ? ")" : "");
    if (p->cfg.nstencil == 0) {
        w += (size_t)snprintf(buf, size, "the widths dep[] = (");
        for (i = 0; i < n && w < size; i++)
            w += (size_t)snprintf(buf + w, size - w, "%s%d", i ? "," : "", p->deps.d[i]);
        if (w < size)
            w += (size_t)snprintf(buf + w, size - w, "), depz = %d", p->deps.dz);
    }
    if (w >= size && size > 4)      /* cut: say so */
        memcpy(buf + size - 4, "...", 4);
    return buf;
}

#endif

static inline int tile__at_refuse(const tile__view *v, int b, int64_t i, size_t size,
                                  int cnt, const int64_t *o, const char *file, int line)
{
    const tile__walk *w = v->w;
    tile_plan *p = v->plan;
    char at[8 * (TILE_MAX_DIMS + 1) * 3], off[24 * (TILE_MAX_DIMS + 1)], st[200];
    size_t k = 0;
    int d;
    if (p->run.stats[v->thread].error != TILE_OK)
        return 0;               /* the run failed already: no message to make */
    tile__walk_where(w, b, i, at, sizeof at);
    for (d = 0; d < cnt && k < sizeof off; d++)
        k += (size_t)snprintf(off + k, sizeof off - k, "%s%lld%s", d ? "," : "(",
                              (long long)o[d], d == cnt - 1 ? ")" : "");
    if (cnt != w->n + 1)
        tile_thread_fail(p, w->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: %d "
                         "offsets %s, the plan has N + 1 = %d dimensions", file, line, at, cnt,
                         off, w->n + 1);
    else if (size != w->esz)
        tile_thread_fail(p, w->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: the "
                         "type has %llu bytes but cfg.elem_size is %llu", file, line, at,
                         (unsigned long long)size, (unsigned long long)w->esz);
    else if (p->cfg.nstencil > 0)
        tile_thread_fail(p, w->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: offset "
                         "%s is not declared, so the plan does not deliver it: add it to the "
                         "stencil (tile_config_stencil), now %s", file, line, at, off,
                         tile__stencil_text(p, st, sizeof st));
    else
        tile_thread_fail(p, w->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: offset "
                         "%s is not declared, so the plan does not deliver it: %s give "
                         "axis-aligned offsets only; declare a stencil (tile_config_stencil)",
                         file, line, at, off, tile__stencil_text(p, st, sizeof st));
    return 0;
}

/* One offset o_i of TILE_AT in its code: 7 bits at 7 i (o_i + 64, for
 * |o_i| <= 63), or bit 63 (farther: "far").  Offsets that are constants at
 * the call site make a constant code. */
TILE__ALWAYS_INLINE uint64_t tile__at_pk(int64_t x, int i)
{
    return (uint64_t)(x + 63) <= 126 ? (uint64_t)(x + 64) << (7 * i) : (uint64_t)1 << 63;
}

/* The code of the point itself (cnt offsets 0): a site the plan always
 * delivers, whose fence test the compiler leaves out. */
TILE__ALWAYS_INLINE uint64_t tile__at_center(int cnt)
{
    uint64_t c = 0;
    int i;
    for (i = 0; i < cnt; i++)
        c |= (uint64_t)64 << (7 * i);
    return c;
}

/* Its column in tile__atset.m: x + 7 for |x| <= 7, else 15. */
TILE__ALWAYS_INLINE int tile__at_ix(int64_t x)
{
    return (uint64_t)(x + 7) <= 14 ? (int)(x + 7) : 15;
}

/* Does the plan deliver the offset whose code is code (some offset beyond
 * +-7, so that tile__atset.m cannot tell)?  One of the plan's sorted codes
 * (a binary search), or far when the plan declares a far offset, or any
 * (at_all).  Costs a search at each use: only sites with such offsets. */
static inline int tile__at_far_ok(const tile__atset *as, uint64_t code)
{
    const uint64_t *a = as->code;
    size_t lo = 0, hi = TILE__AT_CODES;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < TILE__AT_CODES && a[lo] == code) | (int)(as->any & 1) |
           (int)((code & as->any) >> 63);
}

/* Does the plan deliver the offset o (cnt offsets, code, near: every
 * |o_i| <= 7, hit: the AND of their columns of tile__atset.m)? */
TILE__ALWAYS_INLINE int tile__at_ok(const tile__atset *as, int near, uint64_t hit,
                                    uint64_t code)
{
    return near ? (hit != 0) | (int)(as->any & 1) : tile__at_far_ok(as, code);
}

/* TILE_AT at point i of view v's run, element k of at (the cursor's
 * fields): the address of the lvalue of T (size bytes) at element offset
 * e, for the offsets o (cnt of them, their code, near and hit as for
 * tile__at_ok).  The checked loop (chk 1) tests the type's size, the count
 * and the offset, and a refusal is the run's error at once (the access
 * goes to the thread's scratch element).  The fast loops (chk 0: the
 * contiguous and the SIMD loop) make the same test, once per site and run
 * (hoisted), and send a refused access to the element's mirror in the
 * fence (23-fence.h): a select, not a branch, and the point itself (the
 * plan always delivers it) not even that.  The select's form matters:
 * `e + (ok ? 0 : trap / size)` is 7-10% more instructions than before the
 * fence on demos adi, de and seidel; a load from a two-entry table by ok
 * was 14-26% (docs/RESULTS.md, "The fence"). */
TILE__ALWAYS_INLINE void *tile__at_test(unsigned char *at, int64_t k, const tile__view *v,
                                        int64_t i, int simd, int chk, const tile__atset *as,
                                        size_t size, const char *file, int line, int cnt,
                                        uint64_t code, int near, uint64_t hit, int64_t e,
                                        const int64_t *o)
{
    int const ok = tile__at_ok(as, near, hit, code) &
                   (size * (TILE_MAX_DIMS + 2) + (size_t)cnt == as->key);
    if (chk && !ok && !tile__at_refuse(v, (simd & 2) != 0, i, size, cnt, o, file, line))
        return tile__scratch(v->plan, v->thread, size);
    if (!chk && code != tile__at_center(cnt))   /* the fast loops: to the fence (23-fence.h), */
        e = near ? e + (ok ? 0 : as->trap / (int64_t)size)  /* the offset's own mirror, */
                 : (ok ? e : as->trap / (int64_t)size);     /* a far one's the point's */
    return at + (k + e) * (int64_t)size;
}

/* TILE_AT of 2 to 9 offsets (TILE__AT2 ... TILE__AT9): each offset
 * evaluated once, here. */
TILE__ALWAYS_INLINE void *tile__at2(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1)
{
    const int64_t *u = v->ust;
    int64_t o[2];
    o[0] = o0;
    o[1] = o1;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 2,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)],
                         o0 * u[0] + o1 * u[1], o);
}

TILE__ALWAYS_INLINE void *tile__at3(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2)
{
    const int64_t *u = v->ust;
    int64_t o[3];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 3,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2], o);
}

TILE__ALWAYS_INLINE void *tile__at4(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2, int64_t o3)
{
    const int64_t *u = v->ust;
    int64_t o[4];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    o[3] = o3;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 4,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2) | tile__at_pk(o3, 3),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15 && tile__at_ix(o3) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)] &
                         as->m[3][tile__at_ix(o3)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2] + o3 * u[3], o);
}

TILE__ALWAYS_INLINE void *tile__at5(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2, int64_t o3, int64_t o4)
{
    const int64_t *u = v->ust;
    int64_t o[5];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    o[3] = o3;
    o[4] = o4;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 5,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2) | tile__at_pk(o3, 3) |
                         tile__at_pk(o4, 4),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15 && tile__at_ix(o3) < 15 &&
                         tile__at_ix(o4) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)] &
                         as->m[3][tile__at_ix(o3)] &
                         as->m[4][tile__at_ix(o4)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2] + o3 * u[3] +
                         o4 * u[4], o);
}

TILE__ALWAYS_INLINE void *tile__at6(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2, int64_t o3, int64_t o4,
                               int64_t o5)
{
    const int64_t *u = v->ust;
    int64_t o[6];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    o[3] = o3;
    o[4] = o4;
    o[5] = o5;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 6,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2) | tile__at_pk(o3, 3) |
                         tile__at_pk(o4, 4) | tile__at_pk(o5, 5),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15 && tile__at_ix(o3) < 15 &&
                         tile__at_ix(o4) < 15 && tile__at_ix(o5) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)] &
                         as->m[3][tile__at_ix(o3)] &
                         as->m[4][tile__at_ix(o4)] &
                         as->m[5][tile__at_ix(o5)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2] + o3 * u[3] +
                         o4 * u[4] + o5 * u[5], o);
}

TILE__ALWAYS_INLINE void *tile__at7(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2, int64_t o3, int64_t o4,
                               int64_t o5, int64_t o6)
{
    const int64_t *u = v->ust;
    int64_t o[7];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    o[3] = o3;
    o[4] = o4;
    o[5] = o5;
    o[6] = o6;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 7,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2) | tile__at_pk(o3, 3) |
                         tile__at_pk(o4, 4) | tile__at_pk(o5, 5) |
                         tile__at_pk(o6, 6),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15 && tile__at_ix(o3) < 15 &&
                         tile__at_ix(o4) < 15 && tile__at_ix(o5) < 15 &&
                         tile__at_ix(o6) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)] &
                         as->m[3][tile__at_ix(o3)] &
                         as->m[4][tile__at_ix(o4)] &
                         as->m[5][tile__at_ix(o5)] &
                         as->m[6][tile__at_ix(o6)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2] + o3 * u[3] +
                         o4 * u[4] + o5 * u[5] + o6 * u[6], o);
}

TILE__ALWAYS_INLINE void *tile__at8(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2, int64_t o3, int64_t o4,
                               int64_t o5, int64_t o6, int64_t o7)
{
    const int64_t *u = v->ust;
    int64_t o[8];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    o[3] = o3;
    o[4] = o4;
    o[5] = o5;
    o[6] = o6;
    o[7] = o7;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 8,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2) | tile__at_pk(o3, 3) |
                         tile__at_pk(o4, 4) | tile__at_pk(o5, 5) |
                         tile__at_pk(o6, 6) | tile__at_pk(o7, 7),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15 && tile__at_ix(o3) < 15 &&
                         tile__at_ix(o4) < 15 && tile__at_ix(o5) < 15 &&
                         tile__at_ix(o6) < 15 && tile__at_ix(o7) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)] &
                         as->m[3][tile__at_ix(o3)] &
                         as->m[4][tile__at_ix(o4)] &
                         as->m[5][tile__at_ix(o5)] &
                         as->m[6][tile__at_ix(o6)] &
                         as->m[7][tile__at_ix(o7)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2] + o3 * u[3] +
                         o4 * u[4] + o5 * u[5] + o6 * u[6] + o7 * u[7], o);
}

TILE__ALWAYS_INLINE void *tile__at9(unsigned char *at, int64_t k, const tile__view *v,
                                 int64_t i, int simd, int chk, const tile__atset *as,
                               size_t size, const char *file,
                               int line, int64_t o0, int64_t o1,
                               int64_t o2, int64_t o3, int64_t o4,
                               int64_t o5, int64_t o6, int64_t o7,
                               int64_t o8)
{
    const int64_t *u = v->ust;
    int64_t o[9];
    o[0] = o0;
    o[1] = o1;
    o[2] = o2;
    o[3] = o3;
    o[4] = o4;
    o[5] = o5;
    o[6] = o6;
    o[7] = o7;
    o[8] = o8;
    return tile__at_test(at, k, v, i, simd, chk, as, size, file, line, 9,
                         tile__at_pk(o0, 0) | tile__at_pk(o1, 1) |
                         tile__at_pk(o2, 2) | tile__at_pk(o3, 3) |
                         tile__at_pk(o4, 4) | tile__at_pk(o5, 5) |
                         tile__at_pk(o6, 6) | tile__at_pk(o7, 7) |
                         tile__at_pk(o8, 8),
                         tile__at_ix(o0) < 15 && tile__at_ix(o1) < 15 &&
                         tile__at_ix(o2) < 15 && tile__at_ix(o3) < 15 &&
                         tile__at_ix(o4) < 15 && tile__at_ix(o5) < 15 &&
                         tile__at_ix(o6) < 15 && tile__at_ix(o7) < 15 &&
                         tile__at_ix(o8) < 15,
                         as->m[0][tile__at_ix(o0)] &
                         as->m[1][tile__at_ix(o1)] &
                         as->m[2][tile__at_ix(o2)] &
                         as->m[3][tile__at_ix(o3)] &
                         as->m[4][tile__at_ix(o4)] &
                         as->m[5][tile__at_ix(o5)] &
                         as->m[6][tile__at_ix(o6)] &
                         as->m[7][tile__at_ix(o7)] &
                         as->m[8][tile__at_ix(o8)],
                         o0 * u[0] + o1 * u[1] + o2 * u[2] + o3 * u[3] +
                         o4 * u[4] + o5 * u[5] + o6 * u[6] + o7 * u[7] +
                         o8 * u[8], o);
}

#ifdef TILE_CHECK_ACCESS
/* Is o (user offsets) a read the plan delivers: a declared stencil vector
 * (or, with the shorthand, an axis-aligned offset within the widths), or
 * the point itself? */
static inline int tile__declared(const tile_plan *p, const int64_t *o)
{
    int n = p->cfg.n, i, k, nz = 0;
    if (p->cfg.nstencil == 0) {
        for (i = 0; i <= n; i++) {
            int64_t u = o[i] * p->deps.dir[i], d = i < n ? p->deps.d[i] : p->deps.dz;
            nz += o[i] != 0;
            if (u > 0 || u < -d)
                return 0;
        }
        return nz <= 1;
    }
    for (i = 0; i <= n; i++)
        nz += o[i] != 0;
    if (nz == 0)
        return 1;
    for (k = 0; k < p->cfg.nstencil; k++) {
        for (i = 0; i <= n && o[i] == p->cfg.stencil[k][i]; i++)
            ;
        if (i > n)
            return 1;
    }
    return 0;
}

/* The poison pattern of the current point (TILE_CHECK_ACCESS): bytes
 * A5 A5 F5 FF repeated, a NaN as a float or a double (little-endian). */
static inline unsigned char tile__poison_byte(size_t i)
{
    static const unsigned char pat[4] = { 0xA5, 0xA5, 0xF5, 0xFF };
    return pat[i % 4];
}

/* Before the body: poison the cursor's point. */
static inline void tile__cur_poison(tile_cursor *c)
{
    unsigned char *e = c->at + c->k * (int64_t)c->v->esz;
    size_t i;
    for (i = 0; i < c->v->esz; i++)
        e[i] = tile__poison_byte(i);
    c->used_file = NULL;
    c->used_line = 0;
}

/* Does the element at e hold the poison pattern, every byte? */
static inline int tile__poisoned(const unsigned char *e, size_t esz)
{
    size_t i;
    for (i = 0; i < esz && e[i] == tile__poison_byte(i); i++)
        ;
    return i == esz;
}

/* A TILE_AT of the current point itself (offset 0) at file:line, element
 * e: the second use of the point while it still holds the poison is a
 * read before the write (the first may be the write: `TILE_AT(...) = v`
 * evaluates the lvalue before it stores), the run's TILE_ERR_ACCESS
 * naming both lines. */
static inline void tile__cur_used(tile_cursor *c, const unsigned char *e, const char *file,
                                  int line)
{
    char at[8 * (TILE_MAX_DIMS + 1) * 3];
    if (!tile__poisoned(e, c->v->esz))
        return;
    if (c->used_file == NULL) {
        c->used_file = file;
        c->used_line = line;
        return;
    }
    tile_thread_fail(c->v->plan, c->v->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: "
                     "the point itself (offset 0), used at %s:%d before the body wrote it: a "
                     "read of the point before its write (TILE_CHECK_ACCESS)", file, line,
                     tile__walk_where(c->v->w, tile__cur_run(c), c->i, at, sizeof at), c->used_file, c->used_line);
}

/* Does the double at e hold the poison quieted (bit 51 set: what an
 * arithmetic operation on the signalling poison returns, its payload
 * kept)?  Then the body computed its value from the poison. */
static inline int tile__poison_quieted(const unsigned char *e, size_t esz)
{
    static const unsigned char q[8] = { 0xA5, 0xA5, 0xF5, 0xFF, 0xA5, 0xA5, 0xFD, 0xFF };
    return esz == 8 && memcmp(e, q, 8) == 0;
}

/* After the body (normal end or continue): the body must have written its
 * point; every byte still the poison pattern is the run's TILE_ERR_BODY,
 * the poison quieted (`TILE_AT(...) += v`: one use, a read before the
 * write) TILE_ERR_ACCESS. */
static inline void tile__cur_written(tile_cursor *c)
{
    const unsigned char *e = c->at + c->k * (int64_t)c->v->esz;
    char at[8 * (TILE_MAX_DIMS + 1) * 3];
    if (tile__poison_quieted(e, c->v->esz))
        tile_thread_fail(c->v->plan, c->v->thread, TILE_ERR_ACCESS, "the body computed its point "
                         "%s from the point's own value before writing it (it holds the poison's "
                         "NaN: `TILE_AT(..., 0) += v` reads the point; TILE_CHECK_ACCESS)",
                         tile__walk_where(c->v->w, tile__cur_run(c), c->i, at, sizeof at));
    else if (tile__poisoned(e, c->v->esz))
        tile_thread_fail(c->v->plan, c->v->thread, TILE_ERR_BODY, "the body did not write its point "
                         "%s (TILE_CHECK_ACCESS: it still holds the poison pattern)",
                         tile__walk_where(c->v->w, tile__cur_run(c), c->i, at, sizeof at));
}

/* Checked access: N + 1 offsets, declared, and a type of the element's
 * size; anything else is the run's error (naming the offset, the point and
 * the source line) and lands on a scratch element. */
static inline void *tile__checked(tile_cursor *c, size_t size, int cnt, const int64_t *o,
                                  const char *file, int line)
{
    char at[8 * (TILE_MAX_DIMS + 1) * 3], off[24 * (TILE_MAX_DIMS + 1)];
    int64_t e = 0;
    size_t w = 0;
    int i;
    if (size != c->v->esz)
        return tile__trap(c->v->w, c->i, size, c->v->n + 1, file, line);
    for (i = 0; i < cnt && w < sizeof off; i++)
        w += (size_t)snprintf(off + w, sizeof off - w, "%s%lld%s", i ? "," : "(",
                              (long long)o[i], i == cnt - 1 ? ")" : "");
    if (cnt != c->v->n + 1) {
        tile_thread_fail(c->v->plan, c->v->thread, TILE_ERR_ACCESS, "TILE_AT at %s:%d, point %s: %d "
                         "offsets %s, the plan has N + 1 = %d dimensions", file, line,
                         tile__walk_where(c->v->w, tile__cur_run(c), c->i, at, sizeof at), cnt, off, c->v->n + 1);
        return tile__scratch(c->v->plan, c->v->thread, size);
    }
    if (!tile__declared(c->v->plan, o)) {
        (void)tile__at_refuse(c->v, tile__cur_run(c), c->i, size, cnt, o, file, line);
        return tile__scratch(c->v->plan, c->v->thread, size);
    }
    for (i = 0; i <= c->v->n; i++)
        e += o[i] * c->v->ust[i];
    for (i = 0; i <= c->v->n && o[i] == 0; i++)
        ;
    if (i > c->v->n)
        tile__cur_used(c, c->at + c->k * (int64_t)c->v->esz, file, line);
    return c->at + (c->k + e) * (int64_t)c->v->esz;
}
#endif

/**
 * TILE_AT(T, it, o_1, ..., o_N, o_Z) - lvalue of type T at offset o from the
 * cursor's point, in the user's coordinates and directions.
 * @T:  the element type; sizeof(T) must be cfg.elem_size.
 * @it: the cursor (the step macro's cursor name).
 * @o_1, ..., o_N, o_Z: the offsets, exactly N + 1 of them; each evaluated
 *      at most once.  One offset, or 10 to 16, does not compile (outside
 *      TILE_CHECK_ACCESS, which reports it at run time) ("TILE_AT_needs_one_offset_per_dimension_then_one_for_Z"
 *      or "TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets" undeclared).
 *
 * Checked in every build: the offset (a vector of the stencil, or with
 * the shorthand axis-aligned within the widths, or the point itself: what
 * the plan delivers), the type's size and the number of offsets, at every
 * point of the runs that go through TILE__POINTS' checked loop: each
 * tile's first run of each plane (Z) -- in the hyperplane order also B's
 * first run when it walks two planes at once; with N = 1, where a plane
 * is one row, the tile's first two planes only (both parities of z) --
 * and every run whose points are not consecutive elements.  The others go
 * through loops without a test per point (the SIMD loop among them): there
 * the test's outcome chooses where the access goes, the element or its
 * mirror in the fence (23-fence.h), whose fault hands the run to the
 * checked loop.  The offsets' test is a few loads and ANDs of constant
 * indices where the offsets are constants, which the compiler hoists out
 * of the loop over the points.  So a TILE_AT is refused at the first point
 * that reaches it, wherever that is.  A refusal is the run's TILE_ERR_ACCESS
 * naming the source line, the point, the offset and the stencil, and the
 * access lands on a scratch element.  Under TILE_CHECK_ACCESS every
 * access of every point is checked, and the body must write its own point
 * (see TILE_CHECK_ACCESS above).
 */
#define TILE__NARG(...)                                                            \
    TILE__NARG_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TILE__NARG_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16,  \
                    N, ...)                                                        \
    N
#define TILE__CAT(a, b) TILE__CAT_(a, b)
#define TILE__CAT_(a, b) a##b
#ifdef TILE_CHECK_ACCESS
#define TILE_AT(T, it, ...)                                                        \
    (*(T *)tile__checked(&(it), sizeof(T), TILE__NARG(__VA_ARGS__),              \
                         (const int64_t[]){__VA_ARGS__}, __FILE__, __LINE__))
#else
#define TILE_AT(T, it, ...) TILE__CAT(TILE__AT, TILE__NARG(__VA_ARGS__))(T, it, __VA_ARGS__)
#endif
/* An offset count no plan has (1, or 10 to 16) is a
 * compile error whose message is the rule: "'TILE_AT_needs_one_offset_
 * per_dimension_then_one_for_Z' undeclared" (the count the plan has, N + 1,
 * is checked when the body runs). */
#define TILE__AT1(T, it, z) (*(T *)TILE_AT_needs_one_offset_per_dimension_then_one_for_Z)
#define TILE__AT10(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT11(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT12(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT13(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT14(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT15(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT16(T, it, ...) (*(T *)TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets)
#define TILE__AT2(T, it, a, z)                                                            \
    (*(T *)tile__at2((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (z)))
#define TILE__AT3(T, it, a, b, z)                                                         \
    (*(T *)tile__at3((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (z)))
#define TILE__AT4(T, it, a, b, c, z)                                                      \
    (*(T *)tile__at4((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (c), (z)))
#define TILE__AT5(T, it, a, b, c, d, z)                                                   \
    (*(T *)tile__at5((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (c), (d), (z)))
#define TILE__AT6(T, it, a, b, c, d, e, z)                                                \
    (*(T *)tile__at6((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (c), (d), (e), (z)))
#define TILE__AT7(T, it, a, b, c, d, e, f, z)                                             \
    (*(T *)tile__at7((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (c), (d), (e), (f), (z)))
#define TILE__AT8(T, it, a, b, c, d, e, f, g, z)                                          \
    (*(T *)tile__at8((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (c), (d), (e), (f), (g), (z)))
#define TILE__AT9(T, it, a, b, c, d, e, f, g, h, z)                                       \
    (*(T *)tile__at9((it).at, (it).k, (it).v, (it).i, (it).simd, tile__at_checked, &tile_pt_as_,   \
                     sizeof(T), __FILE__, __LINE__,   \
                                (a), (b), (c), (d), (e), (f), (g), (h), (z)))

/* TILE_AT's checks of the offset, the type size and the offset count: on,
 * except in the SIMD loop and the contiguous loop of TILE__POINTS, which
 * declare their own tile__at_checked = 0 (the checked scalar loop has run
 * the plane's first run: tile__walk_simd, tile__walk_contig). */
enum { tile__at_checked = 1 };

/* The innermost loop of the hyperplane order is `omp simd` where the
 * compiler takes OpenMP pragmas: under -fopenmp, or with TILE_SIMD defined
 * (-fopenmp-simd: the SIMD pragmas without the OpenMP runtime); not under
 * TILE_CHECK_ACCESS or TILE_NO_SIMD. */
#if (defined(_OPENMP) || defined(TILE_SIMD)) && !defined(TILE_CHECK_ACCESS) && \
    !defined(TILE_NO_SIMD)
#define TILE__SIMD _Pragma("omp simd")
#else
#define TILE__SIMD
#endif

/* The points of thread t's tile k, with the body in place: run by run
 * (struct tile__walk), each point with its own cursor it.  The body sits
 * in a one-trip loop, so that `continue` and `break` end the point and the
 * loop around can tell them apart (break is the run's error).  It is
 * expanded three times: a scalar loop with TILE_AT checked; once that
 * loop has run one of the tile's runs, for the rows of the plane and
 * Z-inner orders whose points are consecutive elements, a scalar loop
 * without the checks whose cursor's address moves by one element (a
 * compile-time step; demos/sw, GCC -O2: 40 instructions per point, 48
 * in the checked loop); and for the diagonals of the hyperplane
 * order, the same loop under `omp simd` (the points of a diagonal do not
 * depend on each other).  Under TILE_CHECK_ACCESS each point is
 * poisoned before the body and checked after it (in the one-trip loop's
 * increment, which `continue` reaches too), and no loop is SIMD. */
#ifdef TILE_CHECK_ACCESS
#define TILE__POINT_BEGIN(it) tile__cur_poison(&(it));
#define TILE__POINT_END(it) tile__cur_written(&(it)),
#else
#define TILE__POINT_BEGIN(it)
#define TILE__POINT_END(it)
#endif
/* The SIMD loop of TILE__POINTS: the n points of the run at r (the walk
 * w's, or with h 1 the run of B of its pair), each a lane with its own
 * cursor it on view v, the body in place in a one-trip loop, as in
 * TILE__POINTS (private; every argument evaluated once). */
#define TILE__SIMD_RUN(w, v, r, n, h, it, ...)                                  \
    {                                                                           \
        tile__walk *const tile_sr_w_ = (w);                                     \
        const tile__view *const tile_sr_v_ = (v);                               \
        unsigned char *const tile_sr_r_ = (r);                                  \
        int64_t const tile_sr_n_ = (n);                                         \
        int const tile_sr_h_ = (h);                                             \
        int64_t tile_sr_j0_, tile_sr_l_;                                        \
        for (tile_sr_j0_ = 0; tile_sr_j0_ < tile_sr_n_; tile_sr_j0_ += TILE__LANES) { \
            int64_t const tile_sr_m_ = tile_sr_n_ - tile_sr_j0_ < TILE__LANES   \
                                       ? tile_sr_n_ - tile_sr_j0_ : TILE__LANES; \
            TILE__SIMD                                                          \
            for (tile_sr_l_ = 0; tile_sr_l_ < tile_sr_m_; tile_sr_l_++) {       \
                int tile_sr_end_ = 0;                                           \
                for (tile_cursor it = tile__cur_simd(tile_sr_v_, tile_sr_r_,    \
                                                     tile_sr_j0_ + tile_sr_l_, tile_sr_l_, \
                                                     tile_sr_h_);               \
                     !tile_sr_end_; tile_sr_end_ = 1) { \
                    __VA_ARGS__                                                 \
                }                                                               \
                if (!tile_sr_end_)                                              \
                    tile__walk_break(tile_sr_w_, tile_sr_h_, tile_sr_j0_ + tile_sr_l_); \
            }                                                                   \
        }                                                                       \
    }

#define TILE__POINTS(plan_, t_, k_, it, ...)                                       \
    for (tile__atset const tile_pt_as_ = tile__atset_of((plan_)),                  \
                           *tile_pt_aonce_ = &tile_pt_as_;                         \
         tile_pt_aonce_; tile_pt_aonce_ = NULL)                                    \
    for (tile__walk tile_pt_w_ = tile__walk_begin(tile_pt_as_.plan, (t_), (k_)),   \
                    *tile_pt_once_ = &tile_pt_w_;                                  \
         tile_pt_once_; tile_pt_once_ = NULL)                                      \
        for (tile__view tile_pt_v_ = tile__view_begin(&tile_pt_w_), tile_pt_vb_ = tile_pt_v_; \
             tile__walk_next(&tile_pt_w_) && tile__view_run(&tile_pt_v_, &tile_pt_w_);) \
            if (tile__walk_band(&tile_pt_w_)) {                                    \
                enum { tile__at_checked = 0 };                                     \
                unsigned char *const tile_pt_r_ = tile_pt_w_.run;                  \
                int64_t const tile_pt_n_ = tile_pt_w_.count;                       \
                int const tile_pt_g_ = tile_pt_w_.jam;                             \
                ptrdiff_t const tile_pt_pb_ = (ptrdiff_t)tile_pt_as_.plan->store.plane_bytes; \
                unsigned char *tile_pt_a_;                                         \
                int64_t tile_pt_i_, tile_pt_x_;                                    \
                int tile_pt_j_;                                                    \
                for (tile_pt_i_ = 0; tile_pt_i_ < tile_pt_n_ + tile_pt_g_ - 1;     \
                     tile_pt_i_++) {    /* step i: row j's point i - j */        \
                    int const tile_pt_j0_ = tile_pt_i_ < tile_pt_n_                \
                                            ? 0 : (int)(tile_pt_i_ - tile_pt_n_ + 1); \
                    int const tile_pt_j1_ = tile_pt_i_ < tile_pt_g_                \
                                            ? (int)tile_pt_i_ + 1 : tile_pt_g_;    \
                    for (tile_pt_j_ = tile_pt_j0_, tile_pt_x_ = tile_pt_i_ - tile_pt_j0_, \
                         tile_pt_a_ = tile_pt_r_ + tile_pt_j0_ * tile_pt_pb_;      \
                         tile_pt_j_ < tile_pt_j1_;                                 \
                         tile_pt_j_++, tile_pt_x_--, tile_pt_a_ += tile_pt_pb_) {  \
                        int tile_pt_end_ = 0;                                      \
                        for (tile_cursor it = tile__cur_band(&tile_pt_v_, tile_pt_a_,  \
                                                             tile_pt_x_, tile_pt_j_); \
                             !tile_pt_end_; tile_pt_end_ = 1) {                    \
                            __VA_ARGS__                                            \
                        }                                                          \
                        if (!tile_pt_end_)                                         \
                            tile__walk_break(&tile_pt_w_, tile_pt_j_ << 1, tile_pt_x_); \
                    }                                                              \
                }                                                                  \
                tile__walk_band_end(&tile_pt_w_);                                  \
            } else if (tile__walk_contig(&tile_pt_w_)) {                           \
                enum { tile__at_checked = 0 };                                     \
                unsigned char *const tile_pt_r_ = tile_pt_w_.run;                  \
                int64_t const tile_pt_n_ = tile_pt_w_.count;                       \
                int64_t tile_pt_i_;                                                \
                for (tile_pt_i_ = 0; tile_pt_i_ < tile_pt_n_; tile_pt_i_++) {      \
                    int tile_pt_end_ = 0;                                          \
                    for (tile_cursor it = tile__cur_contig(&tile_pt_v_, tile_pt_r_, \
                                                           tile_pt_i_);            \
                         !tile_pt_end_; tile_pt_end_ = 1) { \
                        __VA_ARGS__                                                \
                    }                                                              \
                    if (!tile_pt_end_)                                             \
                        tile__walk_break(&tile_pt_w_, 0, tile_pt_i_);              \
                }                                                                  \
            } else if (!tile__walk_simd(&tile_pt_w_)) {                            \
                ptrdiff_t const tile_pt_s_ = tile_pt_w_.step;                      \
                int tile_pt_h_;                                                    \
                for (tile_pt_h_ = 0; tile_pt_h_ <= (tile_pt_w_.bcount > 0); tile_pt_h_++) { \
                    unsigned char *const tile_pt_r_ = tile_pt_h_ ? tile_pt_w_.brun : tile_pt_w_.run; \
                    int64_t const tile_pt_n_ = tile_pt_h_ ? tile_pt_w_.bcount : tile_pt_w_.count; \
                    int64_t tile_pt_i_;                                            \
                    if (tile_pt_h_)     /* B's run of a pair (tile__walk_next): its view */ \
                        tile__view_set(&tile_pt_v_, &tile_pt_w_, tile_pt_w_.bsu,   \
                                       tile_pt_w_.pl != tile_pt_w_.n && tile_pt_v_.wrap); \
                    for (tile_pt_i_ = 0; tile_pt_i_ < tile_pt_n_; tile_pt_i_++) {  \
                        int tile_pt_end_ = 0;                                      \
                        for (tile_cursor it = tile__cur_at(&tile_pt_v_, tile_pt_r_, tile_pt_s_, \
                                                           tile_pt_i_, tile_pt_h_); \
                             !tile_pt_end_; tile_pt_end_ = (TILE__POINT_END(it) 1)) { \
                            TILE__POINT_BEGIN(it)                                  \
                            __VA_ARGS__                                            \
                        }                                                          \
                        if (!tile_pt_end_)                                         \
                            tile__walk_break(&tile_pt_w_, tile_pt_h_, tile_pt_i_); \
                    }                                                              \
                }                                                                  \
                tile__walk_checked(&tile_pt_w_);                                   \
            } else {                                                            \
                enum { tile__at_checked = 0 };                                  \
                tile_pt_w_.laned = 1;                                           \
                TILE__SIMD_RUN(&tile_pt_w_, &tile_pt_v_, tile_pt_w_.run, tile_pt_w_.count, 0, \
                               it, __VA_ARGS__)                                 \
                if (tile_pt_w_.bcount > 0) {       /* B of a pair: tile__walk_next */ \
                    tile__view_pair(&tile_pt_vb_, &tile_pt_v_, &tile_pt_w_);    \
                    TILE__SIMD_RUN(&tile_pt_w_, &tile_pt_vb_, tile_pt_w_.brun,  \
                                   tile_pt_w_.bcount, 1, it, __VA_ARGS__)       \
                }                                                               \
            }
