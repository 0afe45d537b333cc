/* ------------------------------------------------------------------------ */
/* Thread tiles and the schedule                                            */

/* The schedule record of tile k (valid while k is in flight). */
static inline int64_t tile__sigma(const tile_plan *p, int64_t k)
{
    return p->run.sigma[k % p->run.sched_w];
}

static inline int64_t *tile__bounds(const tile_plan *p, int64_t k)
{
    int ta = p->threads.bal_dim < 0 ? 1 : p->threads.dims[p->threads.bal_dim];
    return p->run.bounds + (size_t)(k % p->run.sched_w) * (size_t)(ta + 1);
}

/* Tile thread t computes at step s (and claim it), or -1. */
static inline int64_t tile__claim(tile_plan *p, int t, int64_t s)
{
    int64_t k;
    if (t < 0 || t >= p->cfg.threads)
        return -1;
    k = p->run.next_tile[8 * t];
    /* tile k was announced before its predecessor started (tile__advance),
     * so its record is stable by now */
    if (k >= p->ntiles || tile__sigma(p, k) + p->threads.delay[t] != s)
        return -1;
    p->run.next_tile[8 * t] = k + 1;
    return k;
}

/**
 * tile_thread_box() - the box of thread t in tile k.
 * @p: the plan; @t: the thread; @k: the tile (in flight).
 * @lo, @hi: receive local coordinates [lo, hi) per dimension.
 */
static inline void tile_thread_box(const tile_plan *p, int t, int64_t k, int64_t *lo,
                                   int64_t *hi)
{
    int i;
    for (i = 0; i < p->cfg.n; i++) {
        int c = p->threads.coord[t * p->cfg.n + i];
        const int64_t *b = i == p->threads.bal_dim ? tile__bounds(p, k) : p->threads.split[i];
        lo[i] = b[c];
        hi[i] = b[c + 1];
    }
}

/* The whole block, or its face in dimension i (last d_i layers, or the d_i
 * ghost layers below it), extended into the ghost layers of the dimensions
 * j < i that diagonal reads need (ext[i][j]). */
static inline void tile__block_face(const tile_plan *p, int i, int ghost, int64_t *lo,
                                    int64_t *hi)
{
    int j;
    for (j = 0; j < p->cfg.n; j++) {
        lo[j] = i > j ? -p->deps.ext[i][j] : 0;
        hi[j] = p->len[j];
    }
    if (i < 0)
        return;
    lo[i] = ghost ? -p->deps.d[i] : p->len[i] - p->deps.d[i];
    hi[i] = ghost ? 0 : p->len[i];
}

/**
 * tile_thread_face() - thread t's face in dimension i for tile k: the last
 * d_i layers of its box (@ghost 0, what it sends) or the d_i ghost layers
 * below it (@ghost 1, what it receives); a thread at the low edge of the
 * block along j < i also covers the ghost layers there that diagonal reads
 * need (the extended face, ext[i][j]).
 * @lo, @hi: receive the box (local coordinates).
 */
static inline void tile_thread_face(const tile_plan *p, int t, int64_t k, int i, int ghost,
                                    int64_t *lo, int64_t *hi)
{
    int j;
    tile_thread_box(p, t, k, lo, hi);
    for (j = 0; j < i; j++)
        if (lo[j] == 0)
            lo[j] = -p->deps.ext[i][j];
    if (ghost) {
        hi[i] = lo[i];
        lo[i] = lo[i] - p->deps.d[i];
    } else {
        lo[i] = hi[i] - p->deps.d[i];
    }
}

/** tile_box_bytes() - the bytes of box [lo, hi) over tile k's planes. */
static inline int64_t tile_box_bytes(const tile_plan *p, int64_t k, const int64_t *lo,
                                     const int64_t *hi)
{
    int64_t b = (int64_t)p->cfg.elem_size * (tile__tile_z1(p, k) - tile__tile_z0(p, k));
    int j;
    for (j = 0; j < p->cfg.n; j++)
        b *= hi[j] > lo[j] ? hi[j] - lo[j] : 0;
    return b;
}

/* Boundary values of the points row[a, b) (global along X_N) of a row
 * whose first point is at local x, plane z, points step bytes apart. */
static inline void tile__fill_span(const tile_plan *p, unsigned char *row, ptrdiff_t step,
                                   const int64_t *x, int64_t z, int64_t a, int64_t b)
{
    int n = p->cfg.n;
    int64_t first = p->lo[n - 1] + x[n - 1], xx[TILE_MAX_DIMS];
    if (b <= a)
        return;
    memcpy(xx, x, sizeof(int64_t) * (size_t)n);
    xx[n - 1] = a - p->lo[n - 1];
    tile__fill_along(p, n - 1, row + (a - first) * step, step, b - a, xx, z);
}

/* Fill the union of the intervals iv[0..m-1] ([lo, hi) along the row)
 * once (tile__holes_row). */
static inline void tile__fill_union(const tile_plan *p, unsigned char *row, ptrdiff_t step,
                                    const int64_t *x, int64_t z, int64_t (*iv)[2], int m)
{
    int i, j;
    int64_t lo, hi;
    for (i = 1; i < m; i++) {       /* by start (m <= TILE_MAX_STENCIL) */
        int64_t l = iv[i][0], h = iv[i][1];
        for (j = i; j > 0 && iv[j - 1][0] > l; j--) {
            iv[j][0] = iv[j - 1][0];
            iv[j][1] = iv[j - 1][1];
        }
        iv[j][0] = l;
        iv[j][1] = h;
    }
    for (i = 0; i < m; i = j) {
        lo = iv[i][0];
        hi = iv[i][1];
        for (j = i + 1; j < m && iv[j][0] <= hi; j++)
            hi = iv[j][1] > hi ? iv[j][1] : hi;
        tile__fill_span(p, row, step, x, z, lo, hi);
    }
}

/* A skewed plan, one row of a thread's tile: the points outside the space
 * that a real point reads (q + o' for a real q and an internal offset o')
 * get their boundary values, each once; the real points are computed.  The
 * readers of the row through stencil vector k lie on the row g - o'_k,
 * whose user coordinates are those of g less the vector's own (its user
 * offsets): one conversion to user coordinates per row. */
static inline void tile__holes_row(void *ctx, unsigned char *row, ptrdiff_t step, int64_t count,
                                   const int64_t *x, int64_t z)
{
    const tile_plan *p = (const tile_plan *)ctx;
    int n = p->cfg.n, i, k, nlo = 0, nhi = 0;
    int64_t g[TILE_MAX_DIMS + 1], u[TILE_MAX_DIMS + 1], uq[TILE_MAX_DIMS + 1];
    int64_t sv[TILE_MAX_DIMS + 1], a, b, t0, t1;
    int64_t lo_iv[TILE_MAX_STENCIL][2], hi_iv[TILE_MAX_STENCIL][2];
    int64_t gl = p->lo[n - 1] + x[n - 1], gh = gl + count;
    for (i = 0; i < n; i++)
        g[i] = p->lo[i] + x[i];
    g[n] = z;
    tile__to_user(p, g, u);
    for (i = 0; i <= n; i++)
        sv[i] = p->deps.inv[i][n - 1];      /* one step along the row, X_N */
    tile__clip(p, u, sv, &t0, &t1);
    a = g[n - 1] + t0;                      /* the real points: [a, b) */
    b = g[n - 1] + (t1 > t0 ? t1 : t0);
    for (k = 0; k < p->cfg.nstencil; k++) {
        int64_t lo1, hi1;
        for (i = 0; i <= n; i++)
            uq[i] = u[i] - p->cfg.stencil[k][i];
        tile__clip(p, uq, sv, &t0, &t1);
        if (t1 <= t0)
            continue;
        lo1 = g[n - 1] + t0 > gl ? g[n - 1] + t0 : gl;     /* the points they read */
        hi1 = g[n - 1] + t1 < gh ? g[n - 1] + t1 : gh;
        if (lo1 < (hi1 < a ? hi1 : a)) {
            lo_iv[nlo][0] = lo1;
            lo_iv[nlo++][1] = hi1 < a ? hi1 : a;
        }
        if ((lo1 > b ? lo1 : b) < hi1) {
            hi_iv[nhi][0] = lo1 > b ? lo1 : b;
            hi_iv[nhi++][1] = hi1;
        }
    }
    tile__fill_union(p, row, step, x, z, lo_iv, nlo);
    tile__fill_union(p, row, step, x, z, hi_iv, nhi);
}

/* Fill the global-boundary ghost layers of thread t for tile k. */
TILEHYBRID__WARM void tile__fill_boundary(tile_plan *p, int t, int64_t k);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile__fill_boundary(tile_plan *p, int t, int64_t k)
{
    int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
    int i;
    for (i = 0; i < p->cfg.n; i++) {
        if (p->deps.d[i] == 0 || p->pcoords[i] != 0 ||
            p->threads.coord[t * p->cfg.n + i] != 0)
            continue;
        tile_thread_face(p, t, k, i, 1, lo, hi);
        tile__fill_box(p, tile__tile_z0(p, k), tile__tile_z1(p, k), lo, hi);
    }
    if (p->deps.skewed) {
        tile_thread_box(p, t, k, lo, hi);
        tile__for_rows(p, tile__tile_z0(p, k), tile__tile_z1(p, k), lo, hi, tile__holes_row,
                       p);
    }
}
#endif

#if TILEHYBRID__DEFINE
/* Fill the d_Z planes below Z = 0 for the whole block and its ghosts. */
TILEHYBRID__COLD void tile__fill_zlow(tile_plan *p)
{
    int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
    int i;
    tile__block_face(p, -1, 0, lo, hi);
    for (i = 0; i < p->cfg.n; i++)
        lo[i] = -p->deps.d[i];      /* diagonal reads of z < 0 reach the ghosts */
    tile__fill_box(p, -(int64_t)p->deps.dz, 0, lo, hi);
}
#else
TILEHYBRID__COLD void tile__fill_zlow(tile_plan *p);
#endif

/* Give tile k its thread split (the balancing factor along bal_dim) and its
 * start step.  Called by one thread, for tiles no thread computes yet. */
static inline void tile__announce(tile_plan *p, int64_t k)
{
    int64_t *b = tile__bounds(p, k);
    int changed = 0, d = p->threads.bal_dim;
    if (d >= 0) {
        int ta = p->threads.dims[d], u;
        int64_t first = 0, count = 0;
        double f = p->run.balancing ? bal_policy_tile(&p->run.bal, k) : 1.0;
        b[0] = 0;
        for (u = 0; u < ta; u++) {
            bal_split_part(p->len[d], ta, f, u, &first, &count);
            b[u + 1] = first + count;
        }
        if (k > 0)
            changed = memcmp(b, tile__bounds(p, k - 1), sizeof(int64_t) * (size_t)(ta + 1)) != 0;
    }
    p->run.sigma[k % p->run.sched_w] = k == 0 ? 0 : tile__sigma(p, k - 1) + 1 +
                                                     (changed ? p->threads.skew : 0);
    p->run.bal_changes += changed;
    p->run.announced = k + 1;
    if (k == p->ntiles - 1) {
        int64_t n = tile__sigma(p, k) + p->threads.skew + 1;
#ifdef _OPENMP
#pragma omp critical(tile__nsteps_lock)
#endif
        p->run.nsteps = n;
    }
}

/** tile_nsteps() - the run's steps (INT64_MAX until the last tile is
 *  scheduled).  Read by every thread at the end of every step while the
 *  thread that does the messages may set it: a named critical section
 *  (gcc 12 misreports "omp atomic" operands as unused). */
static inline int64_t tile_nsteps(const tile_plan *p)
{
    int64_t v;
#ifdef _OPENMP
#pragma omp critical(tile__nsteps_lock)
#endif
    v = p->run.nsteps;
    return v;
}
