/* ------------------------------------------------------------------------ */
/* Map steps: explicit stencils over fields                                 */

/*
 * A map computes each point of its domain from the old values of its input
 * fields at declared offsets (no flow dependence: the order of the points
 * does not matter) and writes it to its output fields.  It is made once
 * (tile_map_create: persistent requests for the ghost layers its reach
 * needs, one pair per neighbour and input field, subarray types, no
 * packing) and run many times (TILE_MAP_RUN).  A run starts the exchange,
 * computes the points whose reads stay in the rank's block while the
 * messages travel, waits, and computes the rest: neighbour messages only,
 * no collective.  Two maps that alternate two fields (A to B, B to A) are
 * a time loop.
 *
 * The body reads TILE_IN(it, k, o_1, ..., o_D), input field k at offset
 * o from the point, and writes TILE_OUT(it, k), output field k at the
 * point.  An offset past the declared reach (or a corner of a star map)
 * reads the point itself instead, and the map's state records the source
 * line (one OR per read and point, of a constant: the only cost); the next
 * tile_map_agree() fails with TILE_ERR_ACCESS naming it.
 */

/** TILE_MAP_MAX_FIELDS - the input (and the output) fields of one map. */
#define TILE_MAP_MAX_FIELDS 4

/** TILE_MAP_MAX_SUMS - the exact sums one map keeps (tile_map_config.nsums). */
#define TILE_MAP_MAX_SUMS 16

/**
 * struct tile_map_config - a map step (tile_map_config_init()).
 * @nin, @in:   its input fields (1 .. TILE_MAP_MAX_FIELDS), read at offsets.
 * @nout, @out: its output fields (1 .. TILE_MAP_MAX_FIELDS), written at the
 *              point.  Every field of a map has the same shape, grid,
 *              ghost layers and element size, and no field is both an
 *              input and an output (a map is not in place: alternate two).
 * @reach:      how far the body reads along each dimension (|o_i| <= reach[i]);
 *              at most the fields' ghost layers.
 * @star:       1: the body reads only offsets with one non-zero coordinate
 *              (a star stencil): the corners are not exchanged.
 * @lo, @hi:    the points computed: lo[i] <= c_i < hi[i]; a negative hi[i]
 *              (the default) is the extent (default the whole field); the
 *              others keep their values.
 * @threads:    OpenMP threads for a run (default 1): the points are shared
 *              among them (needs OpenMP; the master thread makes the MPI
 *              calls, outside the parallel loops).
 * @nsums:      exact sums the body feeds (0 .. TILE_MAP_MAX_SUMS, default
 *              0): TILE_SUM(it, k) += v in the body, tile_map_sums() to
 *              read them (a norm, a residual, a checksum).
 */
typedef struct tile_map_config {
    int nin, nout;
    tile_field *in[TILE_MAP_MAX_FIELDS];
    tile_field *out[TILE_MAP_MAX_FIELDS];
    int64_t reach[TILE_MAX_DIMS + 1];
    int star;
    int64_t lo[TILE_MAX_DIMS + 1], hi[TILE_MAX_DIMS + 1];
    int threads;
    int nsums;
} tile_map_config;

/* What a run's points read of their map (private; copied into the run, so
 * that the compiler keeps it in registers): the fields' shape, the reach,
 * each field's element of coordinates 0 (an index: idx0). */
typedef struct tile__mapview {
    int ndims, nin, star, threads, nsums;
    size_t esz;
    int64_t reach[TILE_MAX_DIMS + 1], stride[TILE_MAX_DIMS + 1];
    int64_t idx0;
    unsigned char *in[TILE_MAP_MAX_FIELDS], *out[TILE_MAP_MAX_FIELDS];
    int64_t sumlen;                       /* a row of a sum's terms (the longest row) */
} tile__mapview;

/**
 * struct tile_map - a map step (tile_map_create()); private fields but
 * @code and @errmsg: TILE_OK, or why the creation or a run failed (a run's
 * failure is this rank's until tile_map_agree()).
 */
typedef struct tile_map {
    tile__mapview v;
    MPI_Comm comm;
    int rank, size;
    int nbox[2];                          /* this run's boxes: part 0 the inner points, */
    int mbox[2];                          /* part 1 the rest; mbox: the map's */
    tile_box box[2][2 * (TILE_MAX_DIMS + 1)];
    int nreq, ntypes;
    MPI_Request *req;                     /* a receive and a send per neighbour and field */
    MPI_Status *st;                       /* (not MPI_STATUSES_IGNORE: gcc 12 warns on it) */
    MPI_Datatype *types;
    unsigned char *held[2 * TILE_MAP_MAX_FIELDS];  /* the fields' blocks it counts itself
                                           * in (tile__field_maps): not freed under it */
    int nheld;
    int live;                             /* its requests exist: every run starts them,
                                           * a failed one too (its neighbours wait) */
    int started;                          /* this run's are in flight */
    uint64_t bad;                         /* the runs' TILE_IN past the reach (lines) */
    int broke;                            /* a body left its point with break */
    const char *file;                     /* the body's file */
    int64_t runs;
    int yield;                            /* its waits yield the processor (12-wait.h) */
    double *sumbuf;                       /* threads x nsums x sumlen: the rows' values */
    tile_xsum *sums;                      /* threads x nsums: the exact sums so far */
    int code;
    char errmsg[320];
} tile_map;

/**
 * struct tile_map_cursor - the point a map's body computes (TILE_MAP_RUN
 * declares it; read it through TILE_IN, TILE_OUT and tile_map_coord).
 * Private fields.
 */
typedef struct tile_map_cursor {
    const tile__mapview *v;
    const int64_t *rc;                    /* the row's coordinates (all but the last) */
    int64_t x;                            /* the last coordinate */
    int64_t idx;                          /* the element, in every field of the map */
    uint64_t bad;                         /* this point's reads past the reach */
    double *srow;                         /* the row's terms of sum 0 (TILE_SUM), or NULL */
    int64_t sj;                           /* the point's place in the row */
} tile_map_cursor;

/**
 * tile_map_config_init() - a map from field @in to field @out: one input
 * and one output, reach 0, the whole field (lo 0, hi -1: tile_map_create
 * reads the fields' extents then), one thread.  The fields need not be
 * created yet.
 */
static inline void tile_map_config_init(tile_map_config *c, tile_field *in, tile_field *out)
{
    int i;
    if (c == NULL)
        return;
    memset(c, 0, sizeof *c);
    c->nin = c->nout = 1;
    c->in[0] = in;
    c->out[0] = out;
    c->threads = 1;
    for (i = 0; i <= TILE_MAX_DIMS; i++)
        c->hi[i] = -1;
}

/**
 * tile_map_coord() - in a map's body: global coordinate @i (0 .. D - 1:
 * another i reads nothing defined) of the point.
 */
TILE__ALWAYS_INLINE int64_t tile_map_coord(const tile_map_cursor *it, int i)
{
    return i == it->v->ndims - 1 ? it->x : it->rc[i];
}

/* A read's record: the source line, twice (line and its complement), so
 * that the OR of several lines shows it is several (tile_map_agree). */
TILE__ALWAYS_INLINE uint64_t tile__map_line(int line)
{
    return (uint64_t)(uint32_t)line << 32 | (uint32_t)~(uint32_t)line;
}

/* Is offset o along dimension i within the reach (0 past D)? */
TILE__ALWAYS_INLINE int tile__map_near(const tile__mapview *v, int i, int64_t o)
{
    return (o <= v->reach[i]) & (-o <= v->reach[i]);
}

/* TILE_IN: the address of input field k's element at offset o (cnt
 * offsets) from the cursor's point, for a type of size bytes (the run
 * checked it against the fields' element size).  An offset past the
 * reach, a star map's corner, a wrong count or field reads the point of
 * field 0, and the line goes into the cursor's record: a constant per
 * call site, which the compiler computes once. */
TILE__ALWAYS_INLINE unsigned char *tile__map_in(tile_map_cursor *it, int k, size_t size,
                                                int line, int cnt, int64_t o0, int64_t o1,
                                                int64_t o2, int64_t o3, int64_t o4,
                                                int64_t o5, int64_t o6, int64_t o7,
                                                int64_t o8)
{
    const tile__mapview *v = it->v;
    /* written out, not a loop: the compiler must see constants per site */
    int64_t const e = o0 * v->stride[0] + o1 * v->stride[1] + o2 * v->stride[2] +
                      o3 * v->stride[3] + o4 * v->stride[4] + o5 * v->stride[5] +
                      o6 * v->stride[6] + o7 * v->stride[7] + o8 * v->stride[8];
    int const nz = (o0 != 0) + (o1 != 0) + (o2 != 0) + (o3 != 0) + (o4 != 0) + (o5 != 0) +
                   (o6 != 0) + (o7 != 0) + (o8 != 0);
    int const ok = (cnt == v->ndims) & (k >= 0) & (k < v->nin) & tile__map_near(v, 0, o0) &
                   tile__map_near(v, 1, o1) & tile__map_near(v, 2, o2) &
                   tile__map_near(v, 3, o3) & tile__map_near(v, 4, o4) &
                   tile__map_near(v, 5, o5) & tile__map_near(v, 6, o6) &
                   tile__map_near(v, 7, o7) & tile__map_near(v, 8, o8) &
                   (!v->star | (nz <= 1));
    /* masks, not selects: a select of two loads becomes a branch */
    it->bad |= tile__map_line(line) & ((uint64_t)ok - 1);
    return v->in[ok ? k : 0] + (it->idx + (e & -(int64_t)ok)) * (int64_t)size;
}

/* TILE_OUT: output field k's element at the point (a wrong k: field 0's,
 * recorded as above). */
TILE__ALWAYS_INLINE unsigned char *tile__map_out(tile_map_cursor *it, int k, size_t size,
                                                 int line)
{
    int const kk = ((k >= 0) & (k < TILE_MAP_MAX_FIELDS)) ? k : 0;
    int const ok = (kk == k) & (it->v->out[kk] != NULL);
    it->bad |= tile__map_line(line) & ((uint64_t)ok - 1);
    return it->v->out[ok ? kk : 0] + it->idx * (int64_t)size;
}

/* The first D (<= TILE_MAX_DIMS + 1) of TILE_IN's offsets, the rest 0
 * (nine: tile__map_in's parameters, checked here when compiled). */
typedef char tile__map_nine[TILE_MAX_DIMS + 1 == 9 ? 1 : -1];
#define TILE__MAP_O9(a, b, c, d, e, f, g, h, i, ...) a, b, c, d, e, f, g, h, i

/**
 * TILE_IN() - in a map's body: input field @k's value at offset (@...: D
 * offsets, the last dimension's last) from the point, of the run's type
 * (an lvalue; do not write it).  Each argument evaluated once.
 */
#define TILE_IN(it, k, ...)                                                        \
    (*(const tile_mr_T_ *)tile__map_in(&(it), (k), sizeof(tile_mr_T_), __LINE__,    \
                                       TILE__NARG(__VA_ARGS__),                    \
                                       TILE__MAP_O9(__VA_ARGS__, 0, 0, 0, 0, 0, 0, 0, 0, 0)))

/**
 * TILE_OUT() - in a map's body: output field @k's element at the point, of
 * the run's type (an lvalue to write).
 */
#define TILE_OUT(it, k)                                                            \
    (*(tile_mr_T_ *)tile__map_out(&(it), (k), sizeof(tile_mr_T_), __LINE__))

/* TILE_SUM: the point's term of sum k (a wrong k: its term of sum 0, or
 * of no sum when there are none, the line recorded as a wrong field's: the
 * map fails).  Every point's term starts at 0. */
TILE__ALWAYS_INLINE double *tile__map_sum(tile_map_cursor *it, int k, int line)
{
    int const ok = (k >= 0) & (k < it->v->nsums);
    it->bad |= tile__map_line(line) & ((uint64_t)ok - 1);
    /* a mask, not a select: the store stays a vector store */
    return it->srow + ((k * it->v->sumlen) & -(int64_t)ok) + it->sj;
}

/**
 * TILE_SUM() - in a map's body: the point's term of exact sum @k (0 ..
 * nsums - 1 of tile_map_config), a double lvalue that starts at 0 at each
 * point: `TILE_SUM(it, 0) += r * r;`.  After each row the terms are added
 * into the running thread's sum exactly (tile_xsum), so the sums do not
 * depend on the order of the points, the threads or the processes: any
 * grid gives the same bits.  tile_map_sums() reads them.
 */
#define TILE_SUM(it, k) (*tile__map_sum(&(it), (k), __LINE__))

/* The run's loops are shared among threads (`omp parallel for`, the
 * records combined) and SIMD (`omp simd`) where the compiler takes OpenMP
 * pragmas; the points of a map do not depend on each other. */
#if defined(_OPENMP)
#define TILE__MAP_PAR                                                              \
    _Pragma("omp parallel for num_threads(tile_mr_v_.threads) if(tile_mr_v_.threads > 1) reduction(|:tile_mr_bad_) reduction(|:tile_mr_brk_)")
#else
#define TILE__MAP_PAR
#endif
#if (defined(_OPENMP) || defined(TILE_SIMD)) && !defined(TILE_NO_SIMD)
#define TILE__MAP_SIMD _Pragma("omp simd reduction(|:tile_mr_bad_) reduction(|:tile_mr_brk_)")
#else
#define TILE__MAP_SIMD
#endif

/**
 * TILE_MAP_RUN() - run map @map_ once: the body computes each point of the
 * domain, elements of type @T (the fields' elem_size; another size fails
 * the run with TILE_ERR_ACCESS and computes nothing), through the cursor
 * @it.  Not collective, but every rank of the fields must run it (the
 * ghost layers' messages).  In the body, `continue` ends the point;
 * `break` ends it too and fails the map (TILE_ERR_BODY); `return` and
 * `goto` out of it are not allowed (they leave the messages in flight).
 * A failure is this rank's until tile_map_agree(); a map that failed
 * computes nothing more but still exchanges its ghost layers (its
 * neighbours' runs wait for them), so that every rank reaches
 * tile_map_agree().
 */
#define TILE_MAP_RUN(map_, T, it, ...)                                             \
    do {                                                                           \
        typedef T tile_mr_T_;                                                      \
        tile_map *const tile_mr_m_ = (map_);                                       \
        tile__mapview const tile_mr_v_ = tile__map_start(tile_mr_m_, sizeof(tile_mr_T_)); \
        uint64_t tile_mr_bad_ = 0;                                                 \
        int tile_mr_brk_ = 0, tile_mr_p_, tile_mr_b_;                              \
        for (tile_mr_p_ = 0; tile_mr_p_ < 2; tile_mr_p_++) {                       \
            if (tile_mr_p_ == 1)                                                   \
                tile__map_wait(tile_mr_m_);                                        \
            for (tile_mr_b_ = 0; tile_mr_m_ != NULL && tile_mr_b_ < tile_mr_m_->nbox[tile_mr_p_]; \
                 tile_mr_b_++) {                                                   \
                const tile_box *const tile_mr_x_ = &tile_mr_m_->box[tile_mr_p_][tile_mr_b_]; \
                int64_t const tile_mr_rows_ = tile__map_rows(tile_mr_x_);           \
                int64_t tile_mr_r_;                                                \
                TILE__MAP_PAR                                                      \
                for (tile_mr_r_ = 0; tile_mr_r_ < tile_mr_rows_; tile_mr_r_++) {   \
                    tile__mapview const tile_mr_w_ = tile_mr_v_;  /* this thread's */ \
                    int64_t tile_mr_c_[TILE_MAX_DIMS + 1];                         \
                    int64_t const tile_mr_i0_ = tile__map_row(&tile_mr_w_, tile_mr_x_, \
                                                              tile_mr_r_, tile_mr_c_); \
                    int64_t const tile_mr_x0_ = tile_mr_x_->lo[tile_mr_w_.ndims - 1]; \
                    int64_t const tile_mr_n_ = tile_mr_x_->len[tile_mr_w_.ndims - 1]; \
                    int64_t tile_mr_j_;                                            \
                    double *const tile_mr_s_ = tile__map_sum_row(tile_mr_m_, tile_mr_n_); \
                    TILE__MAP_SIMD                                                 \
                    for (tile_mr_j_ = 0; tile_mr_j_ < tile_mr_n_; tile_mr_j_++) {  \
                        int tile_mr_end_ = 0;                                      \
                        tile_map_cursor it;                                        \
                        it.v = &tile_mr_w_;                                        \
                        it.rc = tile_mr_c_;                                        \
                        it.x = tile_mr_x0_ + tile_mr_j_;                           \
                        it.idx = tile_mr_i0_ + tile_mr_j_;                         \
                        it.bad = 0;                                                \
                        it.srow = tile_mr_s_;                                      \
                        it.sj = tile_mr_j_;                                        \
                        for (; !tile_mr_end_; tile_mr_end_ = 1) {                  \
                            __VA_ARGS__                                            \
                        }                                                          \
                        tile_mr_bad_ |= it.bad;                                    \
                        tile_mr_brk_ |= !tile_mr_end_;                             \
                    }                                                              \
                    tile__map_sum_add(tile_mr_m_, tile_mr_s_, tile_mr_n_);         \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        tile__map_finish(tile_mr_m_, tile_mr_bad_, tile_mr_brk_, __FILE__);        \
    } while (0)

/* The running thread's place in the map's tables. */
static inline int tile__map_thread(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* A row's start: the running thread's terms of the sums, the first n of
 * each set to 0 (a map without sums has one row that nothing reads). */
static inline double *tile__map_sum_row(const tile_map *m, int64_t n)
{
    double *row;
    int k;
    if (m == NULL || m->sumbuf == NULL)
        return NULL;
    row = m->sumbuf + (int64_t)tile__map_thread() * (m->v.nsums > 0 ? m->v.nsums : 1) *
                          m->v.sumlen;
    for (k = 0; k < m->v.nsums; k++)
        memset(row + k * m->v.sumlen, 0, sizeof(double) * (size_t)n);
    return row;
}

/* A row's end: its n terms of each sum into the running thread's exact
 * sums. */
static inline void tile__map_sum_add(tile_map *m, const double *row, int64_t n)
{
    tile_xsum *s = m->sums + (int64_t)tile__map_thread() * m->v.nsums;
    int64_t j;
    int k;
    for (k = 0; k < m->v.nsums; k++)
        for (j = 0; j < n; j++)
            tile_xsum_add(&s[k], row[k * m->v.sumlen + j]);
}

/* Rows of box b: the product of its lengths but the last's. */
static inline int64_t tile__map_rows(const tile_box *b)
{
    int64_t r = 1;
    int i;
    for (i = 0; i < b->ndims - 1; i++)
        r *= b->len[i];
    return b->len[b->ndims - 1] > 0 ? r : 0;
}

/* Row r of box b: its coordinates (all but the last) in c, and the index
 * of its first element. */
static inline int64_t tile__map_row(const tile__mapview *v, const tile_box *b, int64_t r,
                                    int64_t *c)
{
    int64_t e = v->idx0;
    int i;
    for (i = v->ndims - 2; i >= 0; i--) {
        c[i] = b->lo[i] + r % b->len[i];
        r /= b->len[i];
        e += c[i] * v->stride[i];
    }
    return e + b->lo[v->ndims - 1] * v->stride[v->ndims - 1];
}

/* Does this rank have a neighbour along dimension i on side s (-1, +1)? */
static inline int tile__map_nbr(const tile_field *f, int i, int s)
{
    return s < 0 ? f->coords[i] > 0 : f->coords[i] < f->pdims[i] - 1;
}

#if TILEHYBRID__DEFINE
/* The map's boxes: the domain within this rank's block, split into the
 * points whose reads stay in the block (part 0, computed while the ghost
 * layers travel) and the rest (part 1, at most 2 D slabs). */
TILEHYBRID__COLD void tile__map_boxes(tile_map *m, const tile_field *f, const int64_t *lo,
                                      const int64_t *hi)
{
    int64_t dlo[TILE_MAX_DIMS + 1], dhi[TILE_MAX_DIMS + 1];
    int64_t a[TILE_MAX_DIMS + 1], b[TILE_MAX_DIMS + 1];
    int d = f->ndims, i, j, s, empty = 0, inner = 1;
    m->mbox[0] = m->mbox[1] = 0;
    for (i = 0; i < d; i++) {
        dlo[i] = lo[i] > f->lo[i] ? lo[i] : f->lo[i];
        dhi[i] = hi[i] < f->lo[i] + f->len[i] ? hi[i] : f->lo[i] + f->len[i];
        empty |= dhi[i] <= dlo[i];
        a[i] = f->lo[i] + (tile__map_nbr(f, i, -1) ? m->v.reach[i] : 0);
        b[i] = f->lo[i] + f->len[i] - (tile__map_nbr(f, i, 1) ? m->v.reach[i] : 0);
        a[i] = a[i] > dlo[i] ? a[i] : dlo[i];
        b[i] = b[i] < dhi[i] ? b[i] : dhi[i];
        inner &= a[i] < b[i];
    }
    if (empty)
        return;
    if (!inner) {                       /* no inner point: the domain is the rest */
        tile_box *x = &m->box[1][m->mbox[1]++];
        x->ndims = d;
        for (i = 0; i < d; i++) {
            x->lo[i] = dlo[i];
            x->len[i] = dhi[i] - dlo[i];
        }
        return;
    }
    m->box[0][0].ndims = d;
    for (i = 0; i < d; i++) {
        m->box[0][0].lo[i] = a[i];
        m->box[0][0].len[i] = b[i] - a[i];
    }
    m->mbox[0] = 1;
    for (i = 0; i < d; i++)             /* slabs: before i inner, at i outside, after i all */
        for (s = 0; s < 2; s++) {
            tile_box *x = &m->box[1][m->mbox[1]];
            int64_t l = s == 0 ? dlo[i] : b[i], h = s == 0 ? a[i] : dhi[i];
            if (h <= l)
                continue;
            x->ndims = d;
            for (j = 0; j < d; j++) {
                x->lo[j] = j < i ? a[j] : j == i ? l : dlo[j];
                x->len[j] = j < i ? b[j] - a[j] : j == i ? h - l : dhi[j] - dlo[j];
            }
            m->mbox[1]++;
        }
}

/* The persistent requests of input field k: one receive into the ghost
 * layers and one send of the block's edge per neighbour within the reach
 * (a star map: the neighbours along one dimension only).  TILE_OK or the
 * code, the message in m->errmsg. */
TILEHYBRID__COLD int tile__map_requests(tile_map *m, const tile_field *f, int k, int nnb)
{
    int d = f->ndims, i, rc = MPI_SUCCESS, code = TILE_OK;
    int sizes[TILE_MAX_DIMS + 1], sub[TILE_MAX_DIMS + 1], st[TILE_MAX_DIMS + 1];
    int dir[TILE_MAX_DIMS + 1], c[TILE_MAX_DIMS + 1], t, side, nb, nz;
    MPI_Datatype el = MPI_DATATYPE_NULL;
    if ((rc = MPI_Type_contiguous((int)f->elem_size, MPI_BYTE, &el)) != MPI_SUCCESS)
        goto mpi;
    for (i = 0; i < d; i++)
        sizes[i] = (int)f->alen[i];
    for (t = 0; t < nnb && code == TILE_OK; t++) {
        int q = t, empty = 0;
        for (i = 0, nz = 0; i < d; i++) {    /* direction t: each of -1, 0, 1 */
            dir[i] = q % 3 - 1;
            q /= 3;
            nz += dir[i] != 0;
            c[i] = f->coords[i] + dir[i];
            empty |= (dir[i] != 0 && m->v.reach[i] == 0) || c[i] < 0 || c[i] >= f->pdims[i];
        }
        if (nz == 0 || empty || (m->v.star && nz > 1))
            continue;
        if ((rc = MPI_Cart_rank(m->comm, c, &nb)) != MPI_SUCCESS)
            goto mpi;
        for (side = 0; side < 2; side++) {  /* 0: receive the ghost layers, 1: send */
            MPI_Datatype ty;
            for (i = 0; i < d; i++) {
                int64_t g = f->ghost[i], r = m->v.reach[i], n = f->len[i];
                sub[i] = (int)(dir[i] == 0 ? n : r);
                st[i] = (int)(dir[i] == 0 ? g : dir[i] < 0 ? (side ? g : g - r)
                                                           : (side ? g + n - r : g + n));
            }
            if ((rc = MPI_Type_create_subarray(d, sizes, sub, st, MPI_ORDER_C, el, &ty)) !=
                    MPI_SUCCESS ||
                (rc = MPI_Type_commit(&ty)) != MPI_SUCCESS)
                goto mpi;
            m->types[m->ntypes++] = ty;
            rc = side ? MPI_Send_init(f->data, 1, ty, nb, k, m->comm, &m->req[m->nreq])
                      : MPI_Recv_init(f->data, 1, ty, nb, k, m->comm, &m->req[m->nreq]);
            if (rc != MPI_SUCCESS)
                goto mpi;
            m->nreq++;
        }
    }
    MPI_Type_free(&el);
    return code;
mpi:
    if (el != MPI_DATATYPE_NULL)
        MPI_Type_free(&el);
    snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: making the ghost layers' "
             "requests failed (MPI error %d)", rc);
    return TILE_ERR_MPI;
}

/* The fields of cfg: given, created, alike, each once (TILE_OK or the
 * code, the message in m->errmsg). */
TILEHYBRID__COLD int tile__map_check_fields(tile_map *m, const tile_map_config *c)
{
    const tile_field *f;
    int i, j, k, d, cmp;
    if (c->nin < 1 || c->nin > TILE_MAP_MAX_FIELDS || c->nout < 1 ||
        c->nout > TILE_MAP_MAX_FIELDS) {
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: nin is %d and nout %d: each "
                 "must be 1 to %d", c->nin, c->nout, TILE_MAP_MAX_FIELDS);
        return TILE_ERR_RANGE;
    }
    for (k = 0; k < c->nin + c->nout; k++) {
        const tile_field *g = k < c->nin ? c->in[k] : c->out[k - c->nin];
        const char *w = k < c->nin ? "in" : "out";
        int n = k < c->nin ? k : k - c->nin;
        if (g == NULL) {
            snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: %s[%d] is NULL", w, n);
            return TILE_ERR_NULL;
        }
        if (g->code != TILE_OK || g->data == NULL) {
            snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: %s[%d] is a field whose "
                     "creation failed (or destroyed)", w, n);
            return TILE_ERR_ARG;
        }
    }
    f = c->in[0];
    d = f->ndims;
    for (k = 1; k < c->nin + c->nout; k++) {
        const tile_field *g = k < c->nin ? c->in[k] : c->out[k - c->nin];
        int same = g->ndims == d && g->elem_size == f->elem_size;
        for (i = 0; same && i < d; i++)
            same = g->extent[i] == f->extent[i] && g->pdims[i] == f->pdims[i] &&
                   g->ghost[i] == f->ghost[i];
        if (!same || MPI_Comm_compare(g->comm, f->comm, &cmp) != MPI_SUCCESS ||
            (cmp != MPI_IDENT && cmp != MPI_CONGRUENT)) {
            snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: %s[%d] differs from in[0] "
                     "in its shape, grid, ghost layers, element size or processes: the fields "
                     "of a map have the same", k < c->nin ? "in" : "out",
                     k < c->nin ? k : k - c->nin);
            return TILE_ERR_ARG;
        }
        for (j = 0; j < k; j++) {
            const tile_field *h = j < c->nin ? c->in[j] : c->out[j - c->nin];
            if (h->data != g->data)
                continue;
            if ((j < c->nin) != (k < c->nin))
                snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: out[%d] is also "
                         "in[%d]: a map is not in place (its points read their neighbours' "
                         "old values): alternate two fields", k - c->nin, j);
            else
                snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: %s[%d] is also %s[%d]: "
                         "give each field once", k < c->nin ? "in" : "out",
                         k < c->nin ? k : k - c->nin, k < c->nin ? "in" : "out",
                         k < c->nin ? j : j - c->nin);
            return TILE_ERR_ARG;
        }
    }
    return TILE_OK;
}

/* This rank's verdict on cfg (TILE_OK or the code, the message in
 * m->errmsg). */
TILEHYBRID__COLD int tile__map_check(tile_map *m, const tile_map_config *c)
{
    const tile_field *f = c->in[0];
    int i, mode, code = tile__map_check_fields(m, c);
    if (code != TILE_OK)
        return code;
    for (i = 0; i < f->ndims; i++) {
        if (c->reach[i] < 0 || c->reach[i] > f->ghost[i]) {
            snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: reach[%d] is %lld: it must "
                     "be 0 to the fields' ghost[%d] = %lld", i, (long long)c->reach[i], i,
                     (long long)f->ghost[i]);
            return TILE_ERR_RANGE;
        }
        if ((tile__map_nbr(f, i, -1) || tile__map_nbr(f, i, 1)) && f->len[i] < c->reach[i]) {
            snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: this rank's block has "
                     "%lld points along dimension %d, fewer than reach[%d] = %lld: each block "
                     "must hold what its neighbours read (fewer processes along it, or set "
                     "the fields' grid)", (long long)f->len[i], i, i, (long long)c->reach[i]);
            return TILE_ERR_DEP_TOO_WIDE;
        }
        if (c->lo[i] < 0 || c->hi[i] > f->extent[i] ||
            c->lo[i] > (c->hi[i] < 0 ? f->extent[i] : c->hi[i])) {
            snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: lo[%d] = %lld, hi[%d] = "
                     "%lld: the domain must lie within 0 .. extent[%d] = %lld (a negative hi: "
                     "the extent)", i, (long long)c->lo[i], i, (long long)c->hi[i], i,
                     (long long)f->extent[i]);
            return TILE_ERR_RANGE;
        }
        if (f->alen[i] > INT_MAX) {
            snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: a block with its ghost "
                     "layers has %lld elements along dimension %d, past what an MPI subarray "
                     "counts (INT_MAX)", (long long)f->alen[i], i);
            return TILE_ERR_OVERFLOW;
        }
    }
    if (c->threads < 1 || c->threads > 1024) {
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: threads is %d: it must be 1 "
                 "to 1024", c->threads);
        return TILE_ERR_THREADS;
    }
    if (tile__wait_env(&mode) != TILE_OK) {
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: TILEHYBRID_WAIT = '%.40s': "
                 "not auto, spin or yield", getenv("TILEHYBRID_WAIT"));
        return TILE_ERR_RANGE;
    }
    if (c->nsums < 0 || c->nsums > TILE_MAP_MAX_SUMS) {
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: nsums is %d: it must be 0 "
                 "to TILE_MAP_MAX_SUMS = %d", c->nsums, TILE_MAP_MAX_SUMS);
        return TILE_ERR_RANGE;
    }
#ifndef _OPENMP
    if (c->threads > 1) {
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: threads is %d, but this file "
                 "is compiled without OpenMP", c->threads);
        return TILE_ERR_NO_OPENMP;
    }
#endif
    return TILE_OK;
}

/* Every rank's verdict on cfg (this rank's: code) and on its values being
 * the same everywhere; TILE_OK or the code, the message in m->errmsg.
 * Collective over the first input field's processes. */
TILEHYBRID__COLD int tile__map_agree_config(tile_map *m, const tile_map_config *cfg, int code)
{
    static const char *const name[6] = { "nin", "nout", "star", "threads", "ndims", "nsums" };
    static const char *const per[3] = { "reach", "lo", "hi" };
    uint64_t v[6 + 3 * (TILE_MAX_DIMS + 1)];
    tilehybrid_agreement a;
    const tile_field *f = cfg->in[0];
    char what[32], t[sizeof m->errmsg];
    int i, n = 0, rc;
    v[n++] = (uint64_t)cfg->nin;
    v[n++] = (uint64_t)cfg->nout;
    v[n++] = (uint64_t)cfg->star;
    v[n++] = (uint64_t)cfg->threads;
    v[n++] = (uint64_t)f->ndims;
    v[n++] = (uint64_t)cfg->nsums;
    for (i = 0; i <= TILE_MAX_DIMS; i++) {  /* (hi < 0 is the extent on every rank) */
        int d = i < f->ndims;
        v[n++] = d ? (uint64_t)cfg->reach[i] : 0;
        v[n++] = d ? (uint64_t)cfg->lo[i] : 0;
        v[n++] = d ? (uint64_t)(cfg->hi[i] < 0 ? f->extent[i] : cfg->hi[i]) : 0;
    }
    rc = tilehybrid_agree(f->comm, code, v, n, m->errmsg, sizeof m->errmsg, &a);
    if (rc != MPI_SUCCESS) {
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: %s failed (MPI error %d)",
                 a.call, rc);
        return TILE_ERR_MPI;
    }
    if (a.code != TILE_OK) {
        if (f->size > 1 && a.rank >= 0) {
            memcpy(t, m->errmsg, sizeof t);
            snprintf(m->errmsg, sizeof m->errmsg, "rank %d: %.300s", a.rank, t);
        }
        return a.code;
    }
    if (a.index < 0)
        return TILE_OK;
    if (a.index < 6)
        snprintf(what, sizeof what, "%s", name[a.index]);
    else
        snprintf(what, sizeof what, "%s[%d]", per[(a.index - 6) % 3], (a.index - 6) / 3);
    snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: %s differs between ranks (%lld vs "
             "%lld)", what, (long long)a.lo, (long long)a.hi);
    return TILE_ERR_MISMATCH;
}

/**
 * tile_map_destroy() - free the map's requests and types (not collective;
 * no run of it may be in flight; safe on a failed map, and twice).  Its
 * fields stay.
 */
TILEHYBRID__COLD void tile_map_destroy(tile_map *m)
{
    int i, fin = 0;
    if (m == NULL)
        return;
    MPI_Finalized(&fin);
    for (i = 0; !fin && m->req != NULL && i < m->nreq; i++)
        MPI_Request_free(&m->req[i]);
    for (i = 0; !fin && m->types != NULL && i < m->ntypes; i++)
        MPI_Type_free(&m->types[i]);
    TILEHYBRID_FREE(m->req);
    TILEHYBRID_FREE(m->st);
    TILEHYBRID_FREE(m->types);
    TILEHYBRID_FREE(m->sumbuf);
    TILEHYBRID_FREE(m->sums);
    m->req = NULL;
    m->st = NULL;
    m->types = NULL;
    m->sumbuf = NULL;
    m->sums = NULL;
    m->nreq = m->ntypes = 0;
    m->mbox[0] = m->mbox[1] = 0;
    m->live = 0;
    for (i = 0; i < m->nheld; i++)  /* its fields may be destroyed now */
        --*tile__field_maps(m->held[i]);
    m->nheld = 0;
    if (!fin && m->comm != MPI_COMM_NULL)
        MPI_Comm_free(&m->comm);
    m->comm = MPI_COMM_NULL;
    if (m->code == TILE_OK) {       /* a run or an agreement after this: an error */
        m->code = TILE_ERR_ARG;
        snprintf(m->errmsg, sizeof m->errmsg, "the map was destroyed (tile_map_destroy)");
    }
}

/* The tables of the sums: the rows' terms and the exact sums, per thread;
 * TILE_OK or TILE_ERR_NOMEM (the message in m->errmsg). */
TILEHYBRID__COLD int tile__map_sums_alloc(tile_map *m)
{
    int64_t t = m->v.threads, k, rows = t * m->v.nsums;
    int64_t terms = t * (m->v.nsums > 0 ? m->v.nsums : 1) * m->v.sumlen + 1;
    m->sumbuf = (double *)TILEHYBRID_MALLOC(sizeof(double) * (size_t)terms);
    m->sums = (tile_xsum *)TILEHYBRID_MALLOC(sizeof(tile_xsum) * (size_t)(rows + 1));
    if (m->sumbuf == NULL || m->sums == NULL) {
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: out of memory for %d sums of "
                 "%d threads", m->v.nsums, m->v.threads);
        return TILE_ERR_NOMEM;
    }
    for (k = 0; k < rows; k++)
        tile_xsum_init(&m->sums[k]);
    return TILE_OK;
}

/**
 * tile_map_create() - a map step of @cfg (struct tile_map_config): its
 * boxes and its persistent requests, made once.  Collective over the
 * fields' processes; every rank passes the same configuration (its own
 * fields) and gets the same verdict, in m->code and m->errmsg.
 * Return: TILE_OK; TILE_ERR_NULL, TILE_ERR_RANGE (counts, reach, domain),
 * TILE_ERR_ARG (fields that differ, a failed field, in place),
 * TILE_ERR_DEP_TOO_WIDE (a block narrower than the reach), TILE_ERR_THREADS,
 * TILE_ERR_NO_OPENMP, TILE_ERR_NOMEM, TILE_ERR_MISMATCH or TILE_ERR_MPI.
 * tile_map_destroy() is safe on a failed map.
 */
TILEHYBRID__COLD int tile_map_create(tile_map *m, const tile_map_config *cfg)
{
    int64_t hi[TILE_MAX_DIMS + 1];
    tilehybrid_agreement a;
    const tile_field *f;
    int code, i, k, nnb = 1, rc, nodes = 1, mode;
    if (m == NULL)
        return TILE_ERR_NULL;
    memset(m, 0, sizeof *m);
    m->comm = MPI_COMM_NULL;
    if (cfg == NULL || cfg->in[0] == NULL || cfg->in[0]->comm == MPI_COMM_NULL) {
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: %s is NULL (or a failed field)",
                 cfg == NULL ? "cfg" : "in[0]");
        return m->code = TILE_ERR_NULL;
    }
    f = cfg->in[0];
    if ((code = tile__map_agree_config(m, cfg, tile__map_check(m, cfg))) != TILE_OK)
        return m->code = code;
    if ((rc = MPI_Comm_dup(f->comm, &m->comm)) != MPI_SUCCESS) {  /* its own: the map's */
        m->comm = MPI_COMM_NULL;            /* messages outlive nothing of the field's */
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: MPI_Comm_dup failed (MPI "
                 "error %d)", rc);
        return m->code = TILE_ERR_MPI;
    }
    if ((rc = tile__node_size(m->comm, &nodes)) != MPI_SUCCESS) {
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: counting the ranks on this node "
                 "(MPI_Comm_split_type) failed (MPI error %d)", rc);
        code = TILE_ERR_MPI;
    }
    (void)tile__wait_env(&mode);                /* (checked: tile__map_check) */
    m->yield = tile__wait_yields(mode, nodes, cfg->threads, tile__online_cpus());
    m->rank = f->rank;
    m->size = f->size;
    m->v.ndims = f->ndims;
    m->v.nin = cfg->nin;
    m->v.star = cfg->star != 0;
    m->v.threads = cfg->threads;
    m->v.nsums = cfg->nsums;
    m->v.sumlen = f->len[f->ndims - 1];
    m->v.esz = f->elem_size;
    m->v.idx0 = 0;
    for (i = 0; i < f->ndims; i++) {
        m->v.reach[i] = cfg->reach[i];
        m->v.stride[i] = f->stride[i];
        m->v.idx0 += (f->ghost[i] - f->lo[i]) * f->stride[i];
        nnb *= 3;
    }
    for (k = 0; k < cfg->nin; k++)
        m->v.in[k] = cfg->in[k]->data;
    for (k = 0; k < cfg->nout; k++)
        m->v.out[k] = cfg->out[k]->data;
    for (i = 0; i < f->ndims; i++)
        hi[i] = cfg->hi[i] < 0 ? f->extent[i] : cfg->hi[i];
    tile__map_boxes(m, f, cfg->lo, hi);
    m->req = (MPI_Request *)TILEHYBRID_MALLOC(sizeof(MPI_Request) * 2 * (size_t)nnb *
                                              (size_t)cfg->nin);
    m->st = (MPI_Status *)TILEHYBRID_MALLOC(sizeof(MPI_Status) * 2 * (size_t)nnb *
                                            (size_t)cfg->nin);
    m->types = (MPI_Datatype *)TILEHYBRID_MALLOC(sizeof(MPI_Datatype) * 2 * (size_t)nnb *
                                                 (size_t)cfg->nin);
    if (m->req == NULL || m->st == NULL || m->types == NULL) {
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_create: out of memory for %d requests",
                 2 * nnb * cfg->nin);
        code = TILE_ERR_NOMEM;
    }
    if (code == TILE_OK && tile__map_sums_alloc(m) != TILE_OK)
        code = TILE_ERR_NOMEM;
    for (k = 0; k < cfg->nin && code == TILE_OK; k++)
        code = tile__map_requests(m, cfg->in[k], k, nnb);
    rc = tilehybrid_agree(f->comm, code, NULL, 0, m->errmsg, sizeof m->errmsg, &a);
    code = rc != MPI_SUCCESS ? TILE_ERR_MPI : a.code;
    m->code = code;
    if (code != TILE_OK) {
        tile_map_destroy(m);
        return code;
    }
    m->live = 1;
    for (k = 0; k < cfg->nin + cfg->nout; k++) {    /* (each block once: tile__map_check) */
        m->held[m->nheld] = k < cfg->nin ? cfg->in[k]->data : cfg->out[k - cfg->nin]->data;
        ++*tile__field_maps(m->held[m->nheld++]);
    }
    return code;
}

/**
 * tile_map_agree() - every rank's verdict on the map's runs so far: the
 * lowest failing rank's code and message (TILE_ERR_ACCESS naming the line
 * of a TILE_IN past the reach, TILE_ERR_BODY, TILE_ERR_MPI) on every
 * rank, in m->code and m->errmsg.  Collective (the one collective of a
 * chain of runs: call it when the program reads a result).
 * Return: the verdict, TILE_OK when every rank's runs were right.
 */
TILEHYBRID__COLD int tile_map_agree(tile_map *m)
{
    tilehybrid_agreement a;
    int rc;
    if (m == NULL)
        return TILE_ERR_NULL;
    if (m->comm == MPI_COMM_NULL)
        return m->code != TILE_OK ? m->code : TILE_ERR_NULL;
    /* (MPI_Iallreduce on every rank, its wait yielding with m->yield) */
    rc = tilehybrid__agree(m->comm, m->code, 0, NULL, 0, m->errmsg, sizeof m->errmsg, "msg", &a,
                           1 + m->yield);
    if (rc != MPI_SUCCESS) {
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_agree: %s failed (MPI error %d)",
                 a.call, rc);
        return m->code = TILE_ERR_MPI;
    }
    if (a.code != TILE_OK && m->size > 1 && strncmp(m->errmsg, "rank ", 5) != 0) {
        char t[sizeof m->errmsg];
        memcpy(t, m->errmsg, sizeof t);
        snprintf(m->errmsg, sizeof m->errmsg, "rank %d: %.300s", a.rank, t);
    }
    return m->code = a.code;
}

/* Rank-local sum k (its threads' merged) into buf: the non-finite counts,
 * then the limbs (carried: each below 2^32 but the top one's sign, so
 * that MPI_SUM over the ranks in two's complement is exact). */
TILEHYBRID__COLD void tile__map_sum_pack(const tile_map *m, int k, uint64_t *buf)
{
    tile_xsum s;
    int t;
    tile_xsum_init(&s);
    for (t = 0; t < m->v.threads; t++)
        tile_xsum_merge(&s, &m->sums[t * m->v.nsums + k]);
    tile__xsum_put(&s, buf);
}

/**
 * tile_map_sums() - read the map's exact sums (TILE_SUM): what every
 * rank's runs added since the map's creation or the last read, each
 * rounded once to the nearest double, the same bits on every rank and for
 * any grid or thread count; then the sums start again from 0.
 * @m:   the map (tile_map_config.nsums > 0).
 * @out: receives nsums doubles (NaN if a NaN was added, or +inf and -inf
 *       both; else an infinity if one was added).
 * Collective over the map's processes (one MPI_Allreduce; read them every
 * K runs, not every run, if K runs need one collective).  It is the
 * map's agreement too: when a run failed on any rank, every rank gets
 * tile_map_agree()'s verdict, and out is left as it was.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_RANGE (a map without sums),
 * TILE_ERR_NOMEM, TILE_ERR_MPI, or the failed run's code.
 */
TILEHYBRID__COLD int tile_map_sums(tile_map *m, double *out)
{
    const int w = 3 + TILE_XSUM_LIMBS;
    uint64_t *buf;
    int k, t, rc, ns;
    if (m == NULL || out == NULL)
        return TILE_ERR_NULL;
    if (m->comm == MPI_COMM_NULL)
        return m->code != TILE_OK ? m->code : TILE_ERR_NULL;
    if ((ns = m->v.nsums) == 0) {
        snprintf(m->errmsg, sizeof m->errmsg, "tile_map_sums: the map keeps no sums "
                 "(tile_map_config.nsums)");
        return TILE_ERR_RANGE;  /* the same on every rank: nsums was agreed */
    }
    buf = (uint64_t *)TILEHYBRID_MALLOC(sizeof(uint64_t) * (size_t)(2 * (ns * w + 1)));
    if (buf == NULL)
        return tile_map_agree(m) != TILE_OK ? m->code : TILE_ERR_NOMEM;
    for (k = 0; k < ns; k++)
        tile__map_sum_pack(m, k, buf + k * w);
    buf[ns * w] = m->code != TILE_OK;
    rc = MPI_Allreduce(buf, buf + ns * w + 1, ns * w + 1, MPI_UINT64_T, MPI_SUM, m->comm);
    if (rc != MPI_SUCCESS || buf[2 * (ns * w + 1) - 1] != 0) {
        TILEHYBRID_FREE(buf);
        if (rc != MPI_SUCCESS)
            return m->code = TILE_ERR_MPI;
        return tile_map_agree(m);     /* some rank failed: every rank asks why */
    }
    for (k = 0; k < ns; k++) {
        tile_xsum s;
        tile__xsum_get(&s, buf + ns * w + 1 + k * w);
        out[k] = tile_xsum_round(&s);
    }
    for (t = 0; t < m->v.threads * ns; t++)
        tile_xsum_init(&m->sums[t]);
    TILEHYBRID_FREE(buf);
    return TILE_OK;
}
#else
TILEHYBRID__COLD void tile__map_boxes(tile_map *m, const tile_field *f, const int64_t *lo,
                                      const int64_t *hi);
TILEHYBRID__COLD int tile__map_requests(tile_map *m, const tile_field *f, int k, int nnb);
TILEHYBRID__COLD int tile__map_check_fields(tile_map *m, const tile_map_config *c);
TILEHYBRID__COLD int tile__map_check(tile_map *m, const tile_map_config *c);
TILEHYBRID__COLD int tile__map_agree_config(tile_map *m, const tile_map_config *cfg, int code);
TILEHYBRID__COLD int tile__map_sums_alloc(tile_map *m);
TILEHYBRID__COLD int tile_map_create(tile_map *m, const tile_map_config *cfg);
TILEHYBRID__COLD void tile_map_destroy(tile_map *m);
TILEHYBRID__COLD int tile_map_agree(tile_map *m);
TILEHYBRID__COLD void tile__map_sum_pack(const tile_map *m, int k, uint64_t *buf);
TILEHYBRID__COLD int tile_map_sums(tile_map *m, double *out);
#endif

#if TILEHYBRID__DEFINE
/* A run's start: the exchange started, the view copied; a map that failed,
 * or a type of another size, runs no box (nbox 0) and no message. */
TILEHYBRID__COLD tile__mapview tile__map_start(tile_map *m, size_t size)
{
    tile__mapview none;
    int rc;
    memset(&none, 0, sizeof none);
    if (m == NULL)
        return none;
    m->nbox[0] = m->nbox[1] = 0;
    m->started = 0;
    if (!m->live)
        return none;
    if (m->code == TILE_OK && size != m->v.esz) {
        m->code = TILE_ERR_ACCESS;
        snprintf(m->errmsg, sizeof m->errmsg, "TILE_MAP_RUN: the type has %llu bytes but the "
                 "fields' elem_size is %llu", (unsigned long long)size,
                 (unsigned long long)m->v.esz);
    }
    if (m->nreq > 0 && (rc = MPI_Startall(m->nreq, m->req)) != MPI_SUCCESS) {
        m->live = 0;
        m->code = TILE_ERR_MPI;
        snprintf(m->errmsg, sizeof m->errmsg, "TILE_MAP_RUN: MPI_Startall failed (MPI error "
                 "%d)", rc);
        return none;
    }
    m->started = m->nreq > 0;
    if (m->code != TILE_OK)         /* a failed map: the messages only */
        return none;
    m->nbox[0] = m->mbox[0];
    m->nbox[1] = m->mbox[1];
    return m->v;
}

/* The inner points done: the ghost layers' messages complete. */
TILEHYBRID__COLD void tile__map_wait(tile_map *m)
{
    int rc;
    if (m == NULL || !m->started)
        return;
    m->started = 0;
    if ((rc = tile__waitall(m->nreq, m->req, m->st, m->yield)) != MPI_SUCCESS) {
        m->live = 0;
        m->code = TILE_ERR_MPI;
        m->nbox[1] = 0;
        snprintf(m->errmsg, sizeof m->errmsg, "TILE_MAP_RUN: %s failed (MPI error %d)",
                 m->yield ? "MPI_Testall" : "MPI_Waitall", rc);
    }
}

/* A run's end: its records into the map's. */
TILEHYBRID__COLD void tile__map_finish(tile_map *m, uint64_t bad, int brk, const char *file)
{
    if (m == NULL)
        return;
    m->runs++;
    m->bad |= bad;
    m->broke |= brk;
    if (bad != 0 && m->file == NULL)
        m->file = file;
    if (m->code != TILE_OK)
        return;
    if (bad != 0) {
        uint32_t hi = (uint32_t)(m->bad >> 32), lo = (uint32_t)m->bad;
        m->code = TILE_ERR_ACCESS;
        if (hi == (uint32_t)~lo)
            snprintf(m->errmsg, sizeof m->errmsg, "TILE_IN, TILE_OUT or TILE_SUM at %s:%u: an "
                     "offset past the map's reach%s, a wrong offset count or a field or sum "
                     "index out of range (read the point itself instead): declare the reach "
                     "(tile_map_config)", file, hi, m->v.star ? " or a corner of a star map" : "");
        else
            snprintf(m->errmsg, sizeof m->errmsg, "TILE_IN, TILE_OUT or TILE_SUM at several "
                     "lines of %s: offsets past the map's reach%s, wrong offset counts or "
                     "field or sum indices out of range: declare the reach (tile_map_config)",
                     file, m->v.star ? " or corners of a star map" : "");
    } else if (brk) {
        m->code = TILE_ERR_BODY;
        snprintf(m->errmsg, sizeof m->errmsg, "TILE_MAP_RUN at %s: the body left its point "
                 "with break (or goto): not allowed; use continue", file);
    }
}
#else
TILEHYBRID__COLD tile__mapview tile__map_start(tile_map *m, size_t size);
TILEHYBRID__COLD void tile__map_wait(tile_map *m);
TILEHYBRID__COLD void tile__map_finish(tile_map *m, uint64_t bad, int brk, const char *file);
#endif
