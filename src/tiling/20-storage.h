/* ------------------------------------------------------------------------ */
/* Storage: planes, rows, packing                                           */

/* A step of the user's coordinate i, in the plan's elements of storage:
 * sum_j m[j][i] times the stride of internal dimension j (the walks' ust,
 * the fence's margin). */
static inline int64_t tile__user_stride(const tile_plan *p, int i)
{
    int j, n = p->cfg.n;
    int64_t u = 0;
    for (j = 0; j <= n; j++)
        u += p->deps.m[j][i] * (j < n ? p->store.stride[j] : p->store.plane_elems);
    return u;
}

/* Plane z (z >= -d_Z).  The ring holds R planes, R a multiple of the tile
 * height, so a tile never wraps; d_Z mirror planes in front of it hold the
 * planes below z = 0, and, where store.mirror is set, later copies of the
 * ring's last d_Z planes, so that plane z - j is always j plane strides
 * below plane z inside a tile (without the copies, d_Z = 1: the ring's
 * first plane finds plane z - 1 R - 1 strides above it, tile__view_run). */
static inline unsigned char *tile__plane(const tile_plan *p, int64_t z)
{
    int64_t slot = p->deps.dz + (z >= 0 ? z % p->store.ring_planes : z);
    return p->store.ring + (size_t)slot * p->store.plane_bytes;
}

/* Byte offset within a plane of local coordinates x[0..n-1] (ghosts < 0). */
static inline ptrdiff_t tile__offset(const tile_plan *p, const int64_t *x)
{
    int64_t e = 0;
    int i;
    for (i = 0; i < p->cfg.n; i++)
        e += (x[i] + p->deps.d[i]) * p->store.stride[i];
    return (ptrdiff_t)((e + p->store.origin) * (int64_t)p->cfg.elem_size);
}

static inline int64_t tile__tile_z0(const tile_plan *p, int64_t k)
{
    return k * p->cfg.tile_height;
}

static inline int64_t tile__tile_z1(const tile_plan *p, int64_t k)
{
    int64_t z1 = (k + 1) * p->cfg.tile_height;
    return z1 < p->deps.size[p->cfg.n] ? z1 : p->deps.size[p->cfg.n];
}

/* Visit the rows along dimension rd of box [lo,hi) x planes [z0,z1):
 * calls fn(ctx, first point, bytes from a point to the next, points,
 * coords, z) per row (the other dimensions in row-major order around it).
 * Along the last dimension X_N the row is contiguous (step = elem_size) in
 * the row-major planes; any other is strided. */
typedef void (*tile__row_fn)(void *ctx, unsigned char *row, ptrdiff_t step, int64_t count,
                             const int64_t *x, int64_t z);

static inline void tile__for_rows_along(const tile_plan *p, int64_t z0, int64_t z1,
                                        const int64_t *lo, const int64_t *hi, int rd,
                                        tile__row_fn fn, void *ctx)
{
    int n = p->cfg.n, i;
    int64_t x[TILE_MAX_DIMS], z, count;
    ptrdiff_t step = (ptrdiff_t)(p->store.stride[rd] * (int64_t)p->cfg.elem_size);
    for (i = 0; i < n; i++)
        if (hi[i] <= lo[i])
            return;
    count = hi[rd] - lo[rd];
    for (z = z0; z < z1; z++) {
        unsigned char *base = tile__plane(p, z);
        for (i = 0; i < n; i++)
            x[i] = lo[i];
        for (;;) {
            fn(ctx, base + tile__offset(p, x), step, count, x, z);
            for (i = n - 1; i >= 0; i--) {
                if (i == rd)
                    continue;
                if (++x[i] < hi[i])
                    break;
                x[i] = lo[i];
            }
            if (i < 0)
                break;
        }
    }
}

/* The rows along the last dimension X_N (the order of tile_pack()'s
 * buffers and of the output). */
static inline void tile__for_rows(const tile_plan *p, int64_t z0, int64_t z1,
                                  const int64_t *lo, const int64_t *hi,
                                  tile__row_fn fn, void *ctx)
{
    tile__for_rows_along(p, z0, z1, lo, hi, p->cfg.n - 1, fn, ctx);
}

/* The dimension of the rows of a visit of box [lo, hi) whose order does
 * not matter: X_N where it is contiguous (the row-major planes of the
 * plane and Z-inner orders) and at least two cache lines of points long,
 * a memcpy per row; else the dimension with the most points (the last on
 * a tie), the fewest rows (a ghost face one point wide along X_N is one
 * row, not a row a point).  It depends on the box's extents and on the
 * plan's order only, so the two ends of a face message agree on it. */
static inline int tile__row_dim(const tile_plan *p, const int64_t *lo, const int64_t *hi)
{
    int i, rd = p->cfg.n - 1;
    int64_t lines2 = p->cfg.elem_size < 64 ? 128 / (int64_t)p->cfg.elem_size : 2;
    if (tile__order_traits_of(p->store.order).rows && hi[rd] - lo[rd] >= lines2)
        return rd;
    for (i = 0; i < p->cfg.n; i++)
        if (hi[i] - lo[i] > hi[rd] - lo[rd])
            rd = i;
    return rd;
}

/* Copy count elements of esz bytes, src_step and dst_step bytes apart.
 * A strided copy (the rows of the hyperplane layout run along a stride,
 * faces and mirror planes are copied row by row) moves each element with
 * a memcpy of constant size for the common sizes, which the compiler turns
 * into one load and one store (a library call per element costs more than
 * the point's computation). */
static inline void tile__copy_strided(unsigned char *dst, ptrdiff_t dst_step,
                                      const unsigned char *src, ptrdiff_t src_step,
                                      int64_t count, size_t esz)
{
    int64_t e;
    if (dst_step == (ptrdiff_t)esz && src_step == (ptrdiff_t)esz) {
        memcpy(dst, src, (size_t)count * esz);
        return;
    }
#define TILE__COPY_EACH(size)                                                      \
    for (e = 0; e < count; e++)                                                    \
        memcpy(dst + e * dst_step, src + e * src_step, (size))
    switch (esz) {
    case 4: TILE__COPY_EACH(4); break;
    case 8: TILE__COPY_EACH(8); break;
    case 16: TILE__COPY_EACH(16); break;
    default: TILE__COPY_EACH(esz); break;
    }
#undef TILE__COPY_EACH
}

typedef struct tile__copy_ctx {
    unsigned char *buf;
    size_t esz;
    int to_buf;
} tile__copy_ctx;

static inline void tile__copy_row(void *ctx, unsigned char *row, ptrdiff_t step, int64_t count,
                                  const int64_t *x, int64_t z)
{
    tile__copy_ctx *c = (tile__copy_ctx *)ctx;
    ptrdiff_t e = (ptrdiff_t)c->esz;
    (void)x;
    (void)z;
    if (c->to_buf)
        tile__copy_strided(c->buf, e, row, step, count, c->esz);
    else
        tile__copy_strided(row, step, c->buf, e, count, c->esz);
    c->buf += (size_t)count * c->esz;
}

/* Copy box [lo, hi) of tile k's planes to or from buf, rows along rd. */
static inline int64_t tile__pack_along(const tile_plan *p, int64_t k, const int64_t *lo,
                                       const int64_t *hi, int rd, unsigned char *buf, int to_buf)
{
    tile__copy_ctx cc;
    cc.buf = buf;
    cc.esz = p->cfg.elem_size;
    cc.to_buf = to_buf;
    tile__for_rows_along(p, tile__tile_z0(p, k), tile__tile_z1(p, k), lo, hi, rd,
                         tile__copy_row, &cc);
    return (int64_t)(cc.buf - buf);
}

/**
 * tile_pack() - copy a box of tile k's planes to or from a buffer.
 * @p:      the plan.
 * @k:      the tile (its planes z0..z1-1).
 * @lo, @hi: the box in local coordinates ([lo, hi) per dimension; ghost
 *          layers are below 0).
 * @buf:    the buffer: the box's points plane by plane, each plane in
 *          row-major order (X_N innermost).
 * @to_buf: 1 to pack (plane -> buffer), 0 to unpack.
 * Return: the bytes copied.  A building block of the models (messages;
 * the engine's own face messages may take the rows along another
 * dimension, the same at both ends).
 */
static inline int64_t tile_pack(const tile_plan *p, int64_t k, const int64_t *lo,
                                const int64_t *hi, unsigned char *buf, int to_buf)
{
    return tile__pack_along(p, k, lo, hi, p->cfg.n - 1, buf, to_buf);
}

/* tile_pack() for the engine's face messages: the rows along
 * tile__row_dim(), so that a face one point wide along X_N is a row, not a
 * row a point.  Both ends of a message pack and unpack
 * boxes of the same extents, hence in the same order. */
static inline int64_t tile__pack_face(const tile_plan *p, int64_t k, const int64_t *lo,
                                      const int64_t *hi, unsigned char *buf, int to_buf)
{
    return tile__pack_along(p, k, lo, hi, tile__row_dim(p, lo, hi), buf, to_buf);
}

/* y = a x + b over the indices 0..n (a and b: one of struct tile_deps'
 * maps). */
static inline void tile__affine(int n, const int64_t (*a)[TILE_MAX_DIMS + 1], const int64_t *b,
                                const int64_t *x, int64_t *y)
{
    int i, k;
    for (i = 0; i <= n; i++) {
        int64_t s = b[i];
        for (k = 0; k <= n; k++)
            s += a[i][k] * x[k];
        y[i] = s;
    }
}

/* The user's coordinates u[0..N] of internal global coordinates g[0..N]
 * (u = inv g + cinv: struct tile_deps). */
static inline void tile__to_user(const tile_plan *p, const int64_t *g, int64_t *u)
{
    tile__affine(p->cfg.n, p->deps.inv, p->deps.cinv, g, u);
}

/* The internal global coordinates g[0..N] of user coordinates u[0..N]
 * (g = m u + c). */
static inline void tile__to_internal(const tile_plan *p, const int64_t *u, int64_t *g)
{
    tile__affine(p->cfg.n, p->deps.m, p->deps.c, u, g);
}

/* For a plan that does not skew (internal dimension i is the user's
 * dimension i, reversed where the loop runs downward): the user's
 * coordinate along i of internal coordinate g. */
static inline int64_t tile__user(const tile_plan *p, int i, int64_t g)
{
    return p->deps.inv[i][i] * g + p->deps.cinv[i];
}

/* Is the user point u inside the space? */
static inline int tile__inside(const tile_plan *p, const int64_t *u)
{
    int n = p->cfg.n, i;
    for (i = 0; i <= n; i++)
        if (u[i] < 0 || u[i] >= (i < n ? p->cfg.extent[i] : p->cfg.zlen))
            return 0;
    return 1;
}

/* Division rounded down and up (b != 0). */
static inline int64_t tile__floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static inline int64_t tile__ceil_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) == (b < 0)) ? q + 1 : q;
}

/* floor(a / 2^k) and ceil(a / 2^k) (0 <= k < 62) by shifts of
 * non-negative values. */
static inline int64_t tile__floor_shift(int64_t a, int k)
{
    return a >= 0 ? a >> k : -((-a + ((int64_t)1 << k) - 1) >> k);
}

static inline int64_t tile__ceil_shift(int64_t a, int k)
{
    return a >= 0 ? (a + ((int64_t)1 << k) - 1) >> k : -((-a) >> k);
}

/* log2 |s| if |s| >= 2 is a power of two (below 2^62), else -1. */
static inline int tile__pow2(int64_t s)
{
    int k = 0;
    if (s < 0)
        s = -s;
    if (s < 2 || s > ((int64_t)1 << 61) || (s & (s - 1)) != 0)
        return -1;
    while (((int64_t)1 << k) != s)
        k++;
    return k;
}

/* The real points of a line whose first point has user coordinates u and
 * whose user coordinates move by s per step: the points t in [*a, *b)
 * (empty: *a >= *b), where every user coordinate stays in 0..E_i - 1.
 * The coordinates that do not move are tested first (a line outside the
 * space along one of them ends the test); steps of +-1 need no division,
 * steps of +-2^k a shift. */
static inline void tile__clip(const tile_plan *p, const int64_t *u, const int64_t *s,
                              int64_t *a, int64_t *b)
{
    int64_t lo = INT64_MIN / 4, hi = INT64_MAX / 4;
    int n = p->cfg.n, i;
    *a = *b = 0;
    for (i = 0; i <= n; i++)
        if (s[i] == 0 && (u[i] < 0 || u[i] >= (i < n ? p->cfg.extent[i] : p->cfg.zlen)))
            return;
    for (i = 0; i <= n; i++) {
        int64_t e = i < n ? p->cfg.extent[i] : p->cfg.zlen, base = u[i], l, h;
        int k;
        if (s[i] == 0)
            continue;
        /* 0 <= base + s t <= e - 1 */
        if (s[i] == 1) {
            l = -base;
            h = e - 1 - base;
        } else if (s[i] == -1) {
            l = base - (e - 1);
            h = base;
        } else if ((k = tile__pow2(s[i])) >= 0) {
            if (s[i] > 0) {
                l = tile__ceil_shift(-base, k);
                h = tile__floor_shift(e - 1 - base, k);
            } else {        /* s = -2^k: base - 2^k t in [0, e - 1] */
                l = tile__ceil_shift(base - (e - 1), k);
                h = tile__floor_shift(base, k);
            }
        } else if (s[i] > 0) {
            l = tile__ceil_div(-base, s[i]);
            h = tile__floor_div(e - 1 - base, s[i]);
        } else {
            l = tile__ceil_div(e - 1 - base, s[i]);
            h = tile__floor_div(-base, s[i]);
        }
        lo = l > lo ? l : lo;
        hi = h + 1 < hi ? h + 1 : hi;
    }
    *a = lo;
    *b = hi > lo ? hi : lo;
}

#if TILEHYBRID__DEFINE
/* The real points of the line through internal global g along the
 * internal direction v: the points g + t v, t in [*a, *b) (empty: *a >= *b).
 * Each user coordinate moves by inv v per step and must stay in 0..E_i - 1. */
TILEHYBRID__COLD void tile__real_line(const tile_plan *p, const int64_t *g, const int64_t *v,
                                      int64_t *a, int64_t *b)
{
    int64_t u[TILE_MAX_DIMS + 1], s[TILE_MAX_DIMS + 1];
    int n = p->cfg.n, i, k;
    tile__to_user(p, g, u);
    for (i = 0; i <= n; i++) {
        s[i] = 0;
        for (k = 0; k <= n; k++)
            s[i] += p->deps.inv[i][k] * v[k];
    }
    tile__clip(p, u, s, a, b);
}

/* The real points of the row through internal global g along internal
 * dimension k: g_k in [*a, *b) (empty: *a >= *b). */
TILEHYBRID__COLD void tile__real_span(const tile_plan *p, const int64_t *g, int k, int64_t *a,
                                      int64_t *b)
{
    int64_t v[TILE_MAX_DIMS + 1] = {0};
    v[k] = 1;
    tile__real_line(p, g, v, a, b);
    *a += g[k];
    *b += g[k];
}
#else
TILEHYBRID__COLD void tile__real_line(const tile_plan *p, const int64_t *g, const int64_t *v,
                                      int64_t *a, int64_t *b);
TILEHYBRID__COLD void tile__real_span(const tile_plan *p, const int64_t *g, int k, int64_t *a,
                                      int64_t *b);
#endif

/* memset that the compiler cannot merge with the malloc before it */
static void *(*volatile const tile__memset_v)(void *, int, size_t) = memset;

/* The boundary values of a row along dimension rd: count points from
 * local x, plane z, step bytes apart (zeros without a callback). */
static inline void tile__fill_along(const tile_plan *p, int rd, unsigned char *row,
                                    ptrdiff_t step, int64_t count, const int64_t *x, int64_t z)
{
    int64_t c[TILE_MAX_DIMS + 1], g[TILE_MAX_DIMS + 1], s[TILE_MAX_DIMS + 1], e;
    int i;
    if (count <= 0)
        return;
    if (p->cfg.boundary == NULL && p->cfg.boundary_row == NULL) {
        for (e = 0; e < count; e++)
            memset(row + e * step, 0, p->cfg.elem_size);
        return;
    }
    for (i = 0; i < p->cfg.n; i++)
        g[i] = p->lo[i] + x[i];
    g[p->cfg.n] = z;
    tile__to_user(p, g, c);
    for (i = 0; i <= p->cfg.n; i++)   /* one step along the row */
        s[i] = p->deps.inv[i][rd];
    if (p->cfg.boundary_row != NULL) {
        p->cfg.boundary_row(row, step, count, c, s, p->cfg.boundary_ctx);
        return;
    }
    for (e = 0; e < count; e++) {
        p->cfg.boundary(row + e * step, c, p->cfg.boundary_ctx);
        for (i = 0; i <= p->cfg.n; i++)
            c[i] += s[i];
    }
}

/* tile__fill_along() as a row visitor (ctx: struct tile__fill_ctx). */
typedef struct tile__fill_ctx {
    const tile_plan *p;
    int rd;
} tile__fill_ctx;

static inline void tile__fill_row(void *ctx, unsigned char *row, ptrdiff_t step, int64_t count,
                                  const int64_t *x, int64_t z)
{
    const tile__fill_ctx *f = (const tile__fill_ctx *)ctx;
    tile__fill_along(f->p, f->rd, row, step, count, x, z);
}

/* The boundary values of box [lo, hi) x planes [z0, z1), in rows along
 * tile__row_dim() (a ghost column of a plane is one call, not one a
 * point). */
static inline void tile__fill_box(const tile_plan *p, int64_t z0, int64_t z1, const int64_t *lo,
                                  const int64_t *hi)
{
    tile__fill_ctx f;
    f.p = p;
    f.rd = tile__row_dim(p, lo, hi);
    tile__for_rows_along(p, z0, z1, lo, hi, f.rd, tile__fill_row, &f);
}
