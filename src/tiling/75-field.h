/* ------------------------------------------------------------------------ */
/* Fields: distributed arrays whose owners stay put                         */

/*
 * A field is an array of D = 1 .. TILE_MAX_DIMS + 1 dimensions spread over
 * a Cartesian grid of processes for the program's life: each rank owns a
 * block (the first extent % P ranks along a dimension one point more) and
 * keeps @ghost layers around it on every side, in one allocation, row-major
 * (the last dimension contiguous).  Coordinates are the user's, global:
 * 0 .. extent - 1; a ghost layer past the array's edge holds the boundary's
 * values, which the user sets (tile_field_fill) and no exchange touches.
 * Map steps (76-map.h) read fields and write fields; they exchange the
 * ghost layers with the neighbours, nothing else.
 */

/**
 * struct tile_field_config - a field's shape (tile_field_config_init()).
 * @ndims:     D, its dimensions (1 .. TILE_MAX_DIMS + 1).
 * @extent:    the global points along each (coordinates 0 .. extent - 1).
 * @elem_size: bytes per element (default sizeof(double)).
 * @ghost:     the layers kept on each side of a rank's block along each
 *             dimension (default 0): the widest reach of the maps that
 *             read it.
 * @grid:      processes along each dimension; 0 (the default) lets the
 *             field choose: the grid with at most extent[i] processes
 *             along each i that exchanges the fewest ghost points; 1 keeps
 *             the dimension whole on every rank.  The product of the given
 *             ones must divide the communicator's size (equal it when all
 *             are given).
 */
typedef struct tile_field_config {
    int ndims;
    int64_t extent[TILE_MAX_DIMS + 1];
    size_t elem_size;
    int64_t ghost[TILE_MAX_DIMS + 1];
    int grid[TILE_MAX_DIMS + 1];
} tile_field_config;

/**
 * struct tile_field - a distributed array (tile_field_create()); read the
 * fields, do not write them.
 * @comm:      the grid's communicator (a Cartesian copy of the caller's).
 * @rank:      this rank in @comm; @size: its processes.
 * @ndims:     D.
 * @pdims:     processes along each dimension; @coords: this rank's place.
 * @extent:    the global points along each dimension.
 * @lo, @len:  this rank's block: points lo[i] .. lo[i] + len[i] - 1.
 * @ghost:     the ghost layers on each side.
 * @alen:      the allocation along each dimension (len + 2 ghost).
 * @stride:    elements from one point to the next along each dimension.
 * @elem_size: bytes per element.
 * @elems:     elements in the allocation.
 * @data:      the allocation (the block and its ghosts).
 * @code:      TILE_OK, or why tile_field_create() failed (the same on
 *             every rank); @errmsg says it in words.
 */
typedef struct tile_field {
    MPI_Comm comm;
    int rank, size, ndims;
    int pdims[TILE_MAX_DIMS + 1], coords[TILE_MAX_DIMS + 1];
    int64_t extent[TILE_MAX_DIMS + 1], lo[TILE_MAX_DIMS + 1], len[TILE_MAX_DIMS + 1];
    int64_t ghost[TILE_MAX_DIMS + 1], alen[TILE_MAX_DIMS + 1], stride[TILE_MAX_DIMS + 1];
    size_t elem_size;
    int64_t elems;
    unsigned char *data;
    int code;
    char errmsg[320];
} tile_field;

/**
 * tile_field_config_init() - a field configuration of @ndims dimensions
 * with the defaults: extents 1, elements of sizeof(double), no ghost
 * layers, the grid chosen.  An @ndims outside 1 .. TILE_MAX_DIMS + 1 is
 * kept and refused by tile_field_create().
 */
static inline void tile_field_config_init(tile_field_config *c, int ndims)
{
    int i;
    if (c == NULL)
        return;
    memset(c, 0, sizeof *c);
    c->ndims = ndims;
    c->elem_size = sizeof(double);
    for (i = 0; i <= TILE_MAX_DIMS; i++)
        c->extent[i] = 1;
}

/**
 * tile_field_at() - the element at global coordinates @c (D of them) of
 * this rank's block or its ghost layers; NULL elsewhere.  O(D).
 */
static inline void *tile_field_at(const tile_field *f, const int64_t *c)
{
    int64_t e = 0;
    int i;
    if (f == NULL || c == NULL || f->data == NULL)
        return NULL;
    for (i = 0; i < f->ndims; i++) {
        int64_t x = c[i] - f->lo[i] + f->ghost[i];
        if (x < 0 || x >= f->alen[i])
            return NULL;
        e += x * f->stride[i];
    }
    return f->data + (size_t)e * f->elem_size;
}

/**
 * tile_field_box() - this rank's block (global coordinates) in *@b.
 * Return: TILE_OK, or TILE_ERR_NULL.
 */
static inline int tile_field_box(const tile_field *f, tile_box *b)
{
    int i;
    if (f == NULL || b == NULL)
        return TILE_ERR_NULL;
    memset(b, 0, sizeof *b);
    b->ndims = f->ndims;
    for (i = 0; i < f->ndims; i++) {
        b->lo[i] = f->lo[i];
        b->len[i] = f->len[i];
    }
    return TILE_OK;
}

/* A field's block starts TILE__FIELD_HEAD bytes into its allocation; the
 * head counts the maps and plans that use the block (tile_map_create and
 * tile_output_to_field add one, tile_map_destroy and the plan's end of
 * output take it back), so that the block is not freed under them,
 * whichever handle destroys it. */
enum { TILE__FIELD_HEAD = 64 };
static inline int64_t *tile__field_maps(unsigned char *data)
{
    return (int64_t *)(void *)(data - TILE__FIELD_HEAD);
}

#if TILEHYBRID__DEFINE
/* The grid among the factorizations of left processes over dimensions i..D-1
 * (grid[i] where given, at most extent[i]) that sends the fewest ghost
 * points: sum over i of (p_i - 1) ghost[i] times the cut's area (the
 * product of the other extents); the earlier dimension cut more on a tie;
 * unless thin, only grids whose cut dimensions keep blocks at least as
 * wide as the ghost layers (a map of that reach can run on them).  *best:
 * the least so far (INT64_MAX: none); p the grid being built, q the best. */
TILEHYBRID__COLD void tile__field_grid_search(const tile_field_config *c, int i, int left,
                                              int *p, int *q, int64_t *best, int thin)
{
    int k;
    if (i == c->ndims) {
        int64_t cost = 0;
        int j, l;
        if (left != 1)
            return;
        for (j = 0; j < c->ndims; j++) {
            int64_t area = 1;
            for (l = 0; l < c->ndims; l++)
                if (l != j && !tilehybrid_mul_ok(area, c->extent[l], &area))
                    area = INT64_MAX / 4;
            if (!tilehybrid_mul_ok(area, (int64_t)(p[j] - 1) * (c->ghost[j] + 1), &area))
                area = INT64_MAX / 4;
            cost = cost > INT64_MAX / 2 - area ? INT64_MAX / 2 : cost + area;
        }
        if (cost < *best) {
            *best = cost;
            memcpy(q, p, sizeof(int) * (size_t)c->ndims);
        }
        return;
    }
    for (k = left; k >= 1; k--) {
        if (left % k != 0 || k > c->extent[i] || (c->grid[i] > 0 && k != c->grid[i]) ||
            (thin == 0 && k > 1 && c->extent[i] / k < c->ghost[i]))
            continue;
        p[i] = k;
        tile__field_grid_search(c, i + 1, left / k, p, q, best, thin);
    }
}

/* The field's grid (pdims): the given grid[i], the rest chosen by
 * tile__field_grid_search.  TILE_OK, or TILE_ERR_TOO_MANY when no grid fits. */
TILEHYBRID__COLD int tile__field_grid(const tile_field_config *c, int size, int *pdims)
{
    int p[TILE_MAX_DIMS + 1];
    int64_t best = INT64_MAX;
    tile__field_grid_search(c, 0, size, p, pdims, &best, 0);
    if (best == INT64_MAX)      /* no grid keeps the ghost layers' width: the others */
        tile__field_grid_search(c, 0, size, p, pdims, &best, 1);
    return best < INT64_MAX ? TILE_OK : TILE_ERR_TOO_MANY;
}

/* This rank's verdict on cfg (TILE_OK or the code; the message in f->errmsg). */
TILEHYBRID__COLD int tile__field_check(tile_field *f, const tile_field_config *c, int size)
{
    int i;
    int64_t procs = 1;
    if (c->ndims < 1 || c->ndims > TILE_MAX_DIMS + 1) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: ndims is %d: a field has 1 "
                 "to %d dimensions", c->ndims, TILE_MAX_DIMS + 1);
        return TILE_ERR_NDIMS;
    }
    if (c->elem_size == 0) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: elem_size is 0");
        return TILE_ERR_ELEM;
    }
    for (i = 0; i < c->ndims; i++) {
        if (c->extent[i] < 1) {
            snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: extent[%d] is %lld: it "
                     "must be >= 1", i, (long long)c->extent[i]);
            return TILE_ERR_EXTENT;
        }
        if (c->ghost[i] < 0 || c->ghost[i] > c->extent[i]) {
            snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: ghost[%d] is %lld: it "
                     "must be 0 to extent[%d] = %lld", i, (long long)c->ghost[i], i,
                     (long long)c->extent[i]);
            return TILE_ERR_RANGE;
        }
        if (c->grid[i] < 0 || (c->grid[i] > 0 && size % c->grid[i] != 0)) {
            snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: grid[%d] is %d: it must "
                     "be 0 (chosen) or divide the %d processes", i, c->grid[i], size);
            return TILE_ERR_GRID;
        }
        procs *= c->grid[i] > 0 ? c->grid[i] : 1;
    }
    for (i = 0; i < c->ndims && c->grid[i] > 0; i++)
        ;
    if (procs > size || size % procs != 0 || (i == c->ndims && procs != size)) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: the grid's given dimensions "
                 "multiply to %lld processes, %s the %d of the communicator", (long long)procs,
                 i == c->ndims ? "not" : "which does not divide", size);
        return TILE_ERR_GRID;
    }
    if (tile__field_grid(c, size, f->pdims) != TILE_OK) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: no grid of %d processes has "
                 "at most extent[i] along every dimension i (and the given grid[i])", size);
        return TILE_ERR_TOO_MANY;
    }
    return TILE_OK;
}

/* The block of the rank at grid coordinates c (D of them, f's extents and
 * grid): its first point blo[] and its lengths bl[]; returns its points. */
static inline int64_t tile__field_block(const tile_field *f, const int *c, int64_t *blo,
                                        int64_t *bl)
{
    int64_t n = 1, x, p;
    int i;
    for (i = 0; i < f->ndims; i++) {
        x = f->extent[i];
        p = f->pdims[i];
        bl[i] = x / p + (c[i] < x % p);
        blo[i] = c[i] * (x / p) + (c[i] < x % p ? c[i] : x % p);
        n *= bl[i];
    }
    return n;
}

/* The block and the allocation of this rank (f's grid made;
 * TILE_OK or the code, the message in f->errmsg). */
TILEHYBRID__COLD int tile__field_layout(tile_field *f, const tile_field_config *c)
{
    int i;
    int64_t elems = 1;
    for (i = 0; i < c->ndims; i++) {    /* (the grid has at most extent[i] along i) */
        f->extent[i] = c->extent[i];
        f->ghost[i] = c->ghost[i];
    }
    tile__field_block(f, f->coords, f->lo, f->len);
    for (i = c->ndims - 1; i >= 0; i--) {
        f->alen[i] = f->len[i] + 2 * f->ghost[i];
        f->stride[i] = elems;
        if (!tilehybrid_mul_ok(elems, f->alen[i], &elems)) {
            snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: the block overflows "
                     "64 bits");
            return TILE_ERR_OVERFLOW;
        }
    }
    f->elems = elems;
    if ((uint64_t)elems > (uint64_t)SIZE_MAX / c->elem_size) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: the block's bytes overflow");
        return TILE_ERR_OVERFLOW;
    }
    if ((size_t)elems * c->elem_size > SIZE_MAX - TILE__FIELD_HEAD) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: the block's bytes overflow");
        return TILE_ERR_OVERFLOW;
    }
    f->data = (unsigned char *)TILEHYBRID_MALLOC(TILE__FIELD_HEAD +
                                                 (size_t)elems * c->elem_size);
    if (f->data != NULL) {          /* its head: the maps that use it (tile__field_maps) */
        memset(f->data, 0, TILE__FIELD_HEAD);
        f->data += TILE__FIELD_HEAD;
    }
    if (f->data == NULL) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: out of memory for the "
                 "block (%lld elements of %llu bytes)", (long long)elems,
                 (unsigned long long)c->elem_size);
        return TILE_ERR_NOMEM;
    }
    memset(f->data, 0, (size_t)elems * c->elem_size);
    return TILE_OK;
}

/**
 * tile_field_destroy() - free the field's block and its communicator (not
 * collective; safe on a field whose creation failed, and twice).  A field
 * that a map or a plan's output still uses (through this handle or a copy
 * of it) is not freed: destroy the maps first, stop the plans' output.
 * Return: TILE_OK, TILE_ERR_NULL, or TILE_ERR_ARG (maps use it; the
 * message in f->errmsg).
 */
TILEHYBRID__COLD int tile_field_destroy(tile_field *f)
{
    if (f == NULL)
        return TILE_ERR_NULL;
    if (f->data != NULL && *tile__field_maps(f->data) > 0) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_destroy: %lld map(s) or plan(s) "
                 "still use the field: destroy them first (tile_map_destroy, "
                 "tile_plan_destroy; or stop a plan's tile_output_to_field)",
                 (long long)*tile__field_maps(f->data));
        return TILE_ERR_ARG;
    }
    if (f->data != NULL)
        TILEHYBRID_FREE(f->data - TILE__FIELD_HEAD);
    f->data = NULL;
    if (f->comm != MPI_COMM_NULL) {
        int fin = 0;
        MPI_Finalized(&fin);
        if (!fin)
            MPI_Comm_free(&f->comm);
    }
    f->comm = MPI_COMM_NULL;
    return TILE_OK;
}

/**
 * tile_field_create() - a field of @cfg's shape over the processes of
 * @comm, its elements zero.  Collective: every rank passes the same
 * configuration, and every rank gets the same verdict (the lowest failing
 * rank's code and message, in f->code and f->errmsg; a configuration that
 * differs between ranks is TILE_ERR_MISMATCH).
 * Return: TILE_OK; TILE_ERR_NULL, TILE_ERR_NDIMS, TILE_ERR_ELEM,
 * TILE_ERR_EXTENT, TILE_ERR_RANGE (a ghost wider than the extent),
 * TILE_ERR_GRID, TILE_ERR_TOO_MANY (more processes than points along a
 * dimension), TILE_ERR_OVERFLOW, TILE_ERR_NOMEM, TILE_ERR_MISMATCH or
 * TILE_ERR_MPI.  A failed field holds nothing; tile_field_destroy() is
 * safe on it.
 */
TILEHYBRID__COLD int tile_field_create(tile_field *f, MPI_Comm comm, const tile_field_config *cfg)
{
    uint64_t v[3 + 3 * (TILE_MAX_DIMS + 1)];
    tilehybrid_agreement a;
    int code = TILE_OK, i, n = 0, rc, periods[TILE_MAX_DIMS + 1] = {0};
    if (f == NULL)
        return TILE_ERR_NULL;
    memset(f, 0, sizeof *f);
    f->comm = MPI_COMM_NULL;
    if (cfg == NULL) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: cfg is NULL");
        return f->code = TILE_ERR_NULL;
    }
    if ((rc = MPI_Comm_size(comm, &f->size)) != MPI_SUCCESS ||
        (rc = MPI_Comm_rank(comm, &f->rank)) != MPI_SUCCESS) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: MPI_Comm_size/rank failed "
                 "(MPI error %d)", rc);
        return f->code = TILE_ERR_MPI;
    }
    code = tile__field_check(f, cfg, f->size);
    v[n++] = (uint64_t)cfg->ndims;
    v[n++] = (uint64_t)cfg->elem_size;
    for (i = 0; i <= TILE_MAX_DIMS; i++) {
        v[n++] = (uint64_t)cfg->extent[i];
        v[n++] = (uint64_t)cfg->ghost[i];
        v[n++] = (uint64_t)cfg->grid[i];
    }
    rc = tilehybrid_agree(comm, code, v, n, f->errmsg, sizeof f->errmsg, &a);
    if (rc != MPI_SUCCESS) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: %s failed (MPI error %d)",
                 a.call, rc);
        return f->code = TILE_ERR_MPI;
    }
    if (a.code != TILE_OK)
        return f->code = a.code;
    if (a.index >= 0) {
        static const char *const per[3] = { "extent", "ghost", "grid" };
        char what[32];
        if (a.index < 2)
            snprintf(what, sizeof what, "%s", a.index == 0 ? "ndims" : "elem_size");
        else
            snprintf(what, sizeof what, "%s[%d]", per[(a.index - 2) % 3], (a.index - 2) / 3);
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: %s differs between ranks "
                 "(%lld vs %lld)", what, (long long)a.lo, (long long)a.hi);
        return f->code = TILE_ERR_MISMATCH;
    }
    f->ndims = cfg->ndims;
    f->elem_size = cfg->elem_size;
    code = TILE_OK;                 /* (the grid: f->pdims, tile__field_check) */
    if ((rc = MPI_Cart_create(comm, cfg->ndims, f->pdims, periods, 0, &f->comm)) !=
        MPI_SUCCESS || f->comm == MPI_COMM_NULL)
        code = TILE_ERR_MPI;
    if (code == TILE_OK && (rc = MPI_Comm_rank(f->comm, &f->rank)) == MPI_SUCCESS)
        rc = MPI_Cart_coords(f->comm, f->rank, cfg->ndims, f->coords);
    if (code == TILE_OK && rc != MPI_SUCCESS)
        code = TILE_ERR_MPI;
    if (code == TILE_ERR_MPI)
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: making the grid failed "
                 "(MPI error %d)", rc);
    else
        code = tile__field_layout(f, cfg);
    rc = tilehybrid_agree(comm, code, NULL, 0, f->errmsg, sizeof f->errmsg, &a);
    if (rc == MPI_SUCCESS && a.code == TILE_OK)
        return f->code = TILE_OK;
    if (rc != MPI_SUCCESS)
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_create: %s failed (MPI error %d)",
                 a.call, rc);
    code = rc != MPI_SUCCESS ? TILE_ERR_MPI : a.code;
    tile_field_destroy(f);
    return f->code = code;
}

/**
 * tile_field_fill() - set every element this rank keeps (its block, and
 * with @ghosts 1 its ghost layers too, past the array's edge included: the
 * boundary's values) to what @fn writes: fn(ctx, c, elem) with c the
 * element's global coordinates (D of them) and elem the element.  Not
 * collective.  Return: TILE_OK, or TILE_ERR_NULL.
 */
TILEHYBRID__COLD int tile_field_fill(tile_field *f, void (*fn)(void *ctx, const int64_t *c,
                                                                 void *elem),
                                     void *ctx, int ghosts)
{
    int64_t c[TILE_MAX_DIMS + 1] = {0}, x[TILE_MAX_DIMS + 1] = {0}, e;
    int i, d;
    if (f == NULL || fn == NULL || f->data == NULL)
        return TILE_ERR_NULL;
    d = f->ndims;
    for (e = 0; e < f->elems; e++) {
        int inside = 1;
        for (i = 0; i < d; i++) {
            c[i] = f->lo[i] - f->ghost[i] + x[i];
            inside &= x[i] >= f->ghost[i] && x[i] < f->ghost[i] + f->len[i];
        }
        if (ghosts || inside)
            fn(ctx, c, f->data + (size_t)e * f->elem_size);
        for (i = d - 1; i >= 0 && ++x[i] == f->alen[i]; i--)
            x[i] = 0;
    }
    return TILE_OK;
}

/* The element of an array (strides stride[]) where row `row` of a block
 * of lengths bl[] starting at at[] begins (rows along the last dimension). */
static inline int64_t tile__field_rowat(const tile_field *f, const int64_t *bl,
                                        const int64_t *at, const int64_t *stride, int64_t row)
{
    int64_t e = 0;
    int i;
    for (i = f->ndims - 2; i >= 0; i--) {
        e += (at[i] + row % bl[i]) * stride[i];
        row /= bl[i];
    }
    return e + at[f->ndims - 1] * stride[f->ndims - 1];
}

/* Move n points of lengths bl[] (rows along the last) between the packed
 * buffer pack and the array arr, whose strides are stride[] and where the
 * block starts at at[]; to_pack 1: arr to pack. */
TILEHYBRID__COLD void tile__field_rows(const tile_field *f, const int64_t *bl, int64_t n,
                                       unsigned char *pack, unsigned char *arr,
                                       const int64_t *at, const int64_t *stride, int to_pack)
{
    int64_t row, rows = n / bl[f->ndims - 1];
    size_t rowb = (size_t)bl[f->ndims - 1] * f->elem_size;
    for (row = 0; row < rows; row++) {
        unsigned char *a = arr + (size_t)tile__field_rowat(f, bl, at, stride, row) * f->elem_size;
        if (to_pack)
            memcpy(pack + (size_t)row * rowb, a, rowb);
        else
            memcpy(a, pack + (size_t)row * rowb, rowb);
    }
}

/* The root's part of a gather: every block's bytes and place in counts[]
 * and displs[], the buffer for them all in *all; TILE_OK,
 * TILE_ERR_OVERFLOW or TILE_ERR_NOMEM. */
TILEHYBRID__COLD int tile__field_counts(const tile_field *f, int *counts, int *displs,
                                        unsigned char **all)
{
    int64_t off = 0, blo[TILE_MAX_DIMS + 1], bl[TILE_MAX_DIMS + 1];
    int c[TILE_MAX_DIMS + 1], r;
    for (r = 0; r < f->size; r++) {
        int64_t b;
        MPI_Cart_coords(f->comm, r, f->ndims, c);
        b = tile__field_block(f, c, blo, bl) * (int64_t)f->elem_size;
        counts[r] = b > INT_MAX ? 0 : (int)b;
        displs[r] = off > INT_MAX ? 0 : (int)off;
        off += b;
    }
    if (off > INT_MAX)
        return TILE_ERR_OVERFLOW;
    *all = (unsigned char *)TILEHYBRID_MALLOC(off > 0 ? (size_t)off : 1);
    return *all != NULL ? TILE_OK : TILE_ERR_NOMEM;
}

/* The gathered blocks (all, at displs[]) to their places in out, row-major. */
TILEHYBRID__COLD void tile__field_unpack(const tile_field *f, unsigned char *all,
                                         const int *displs, void *out)
{
    int64_t blo[TILE_MAX_DIMS + 1], bl[TILE_MAX_DIMS + 1], st[TILE_MAX_DIMS + 1], s = 1, n;
    int c[TILE_MAX_DIMS + 1], r, i;
    for (i = f->ndims - 1; i >= 0; i--) {
        st[i] = s;
        s *= f->extent[i];
    }
    for (r = 0; r < f->size; r++) {
        MPI_Cart_coords(f->comm, r, f->ndims, c);
        n = tile__field_block(f, c, blo, bl);
        tile__field_rows(f, bl, n, all + displs[r], (unsigned char *)out, blo, st, 0);
    }
}

/* tile_field_gather()'s checks on this rank; TILE_OK or the code, the
 * message in f->errmsg. */
TILEHYBRID__COLD int tile__field_gather_check(tile_field *f, int root, const void *out,
                                              int64_t bytes)
{
    if (root < 0 || root >= f->size) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_gather: root is %d: it must be 0 "
                 "to %d", root, f->size - 1);
        return TILE_ERR_RANGE;
    }
    if (f->rank == root && out == NULL) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_gather: out is NULL on the root");
        return TILE_ERR_NULL;
    }
    if (bytes > INT_MAX) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_gather: rank %d's block has %lld "
                 "bytes, past what one MPI message counts (INT_MAX)", f->rank,
                 (long long)bytes);
        return TILE_ERR_OVERFLOW;
    }
    return TILE_OK;
}

/**
 * tile_field_gather() - the whole field, row-major (the last dimension
 * contiguous), in @out on rank @root (extent[0] x ... elements; NULL on
 * the other ranks).  Collective.  Return: TILE_OK; TILE_ERR_NULL (f, or
 * out on the root), TILE_ERR_RANGE (root), TILE_ERR_OVERFLOW (a block
 * past INT_MAX bytes, MPI's count), TILE_ERR_NOMEM or TILE_ERR_MPI; the
 * same on every rank, the message in f->errmsg.
 */
TILEHYBRID__COLD int tile_field_gather(tile_field *f, int root, void *out)
{
    tilehybrid_agreement a;
    unsigned char *pack = NULL, *all = NULL;
    int *counts = NULL, *displs = NULL;
    int code, rc = MPI_SUCCESS, i;
    int64_t pts = 1, at[TILE_MAX_DIMS + 1];
    if (f == NULL || f->data == NULL)
        return TILE_ERR_NULL;
    for (i = 0; i < f->ndims; i++) {
        pts *= f->len[i];
        at[i] = f->ghost[i];
    }
    code = tile__field_gather_check(f, root, out, pts * (int64_t)f->elem_size);
    if (code == TILE_OK) {
        pack = (unsigned char *)TILEHYBRID_MALLOC(pts > 0 ? (size_t)pts * f->elem_size : 1);
        if (f->rank == root) {
            counts = (int *)TILEHYBRID_MALLOC(sizeof(int) * (size_t)f->size);
            displs = (int *)TILEHYBRID_MALLOC(sizeof(int) * (size_t)f->size);
        }
        if (pack == NULL || (f->rank == root && (counts == NULL || displs == NULL))) {
            snprintf(f->errmsg, sizeof f->errmsg, "tile_field_gather: out of memory");
            code = TILE_ERR_NOMEM;
        }
    }
    rc = tilehybrid_agree(f->comm, code, NULL, 0, f->errmsg, sizeof f->errmsg, &a);
    code = rc != MPI_SUCCESS ? TILE_ERR_MPI : a.code;
    if (code == TILE_OK) {
        tile__field_rows(f, f->len, pts, pack, f->data, at, f->stride, 1);
        if (f->rank == root)
            code = tile__field_counts(f, counts, displs, &all);
        if ((rc = MPI_Bcast(&code, 1, MPI_INT, root, f->comm)) != MPI_SUCCESS)
            code = TILE_ERR_MPI;
        if (code == TILE_OK &&
            (rc = MPI_Gatherv(pack, (int)(pts * (int64_t)f->elem_size), MPI_BYTE, all, counts,
                              displs, MPI_BYTE, root, f->comm)) != MPI_SUCCESS)
            code = TILE_ERR_MPI;
        if (code == TILE_OK && f->rank == root)
            tile__field_unpack(f, all, displs, out);
        if (code != TILE_OK)
            snprintf(f->errmsg, sizeof f->errmsg, "tile_field_gather: %s",
                     code == TILE_ERR_OVERFLOW ? "the field has more than INT_MAX bytes, past "
                     "what one MPI gather counts" : code == TILE_ERR_NOMEM ? "out of memory on "
                     "the root for the field" : "MPI_Bcast or MPI_Gatherv failed");
    } else if (rc != MPI_SUCCESS) {
        snprintf(f->errmsg, sizeof f->errmsg, "tile_field_gather: %s failed (MPI error %d)",
                 a.call, rc);
    }
    TILEHYBRID_FREE(pack);
    TILEHYBRID_FREE(all);
    TILEHYBRID_FREE(counts);
    TILEHYBRID_FREE(displs);
    return code;
}
#else
TILEHYBRID__COLD void tile__field_grid_search(const tile_field_config *c, int i, int left,
                                              int *p, int *q, int64_t *best, int thin);
TILEHYBRID__COLD int tile__field_grid(const tile_field_config *c, int size, int *pdims);
TILEHYBRID__COLD int tile__field_check(tile_field *f, const tile_field_config *c, int size);
TILEHYBRID__COLD int tile__field_layout(tile_field *f, const tile_field_config *c);
TILEHYBRID__COLD int tile_field_create(tile_field *f, MPI_Comm comm, const tile_field_config *cfg);
TILEHYBRID__COLD int tile_field_destroy(tile_field *f);
TILEHYBRID__COLD int tile_field_fill(tile_field *f, void (*fn)(void *ctx, const int64_t *c,
                                                                 void *elem),
                                     void *ctx, int ghosts);
TILEHYBRID__COLD void tile__field_rows(const tile_field *f, const int64_t *bl, int64_t n,
                                       unsigned char *pack, unsigned char *arr,
                                       const int64_t *at, const int64_t *stride, int to_pack);
TILEHYBRID__COLD int tile__field_counts(const tile_field *f, int *counts, int *displs,
                                        unsigned char **all);
TILEHYBRID__COLD void tile__field_unpack(const tile_field *f, unsigned char *all,
                                         const int *displs, void *out);
TILEHYBRID__COLD int tile__field_gather_check(tile_field *f, int root, const void *out,
                                              int64_t bytes);
TILEHYBRID__COLD int tile_field_gather(tile_field *f, int root, void *out);
#endif
