/* ------------------------------------------------------------------------ */
/* The public functions' definitions (each declared and documented in      */
/* 05-api.h), and the private helpers (topo__*) among them.                 */

#if TILEHYBRID__DEFINE
/* topo_strerror() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD const char *topo_strerror(int err)
{
    switch (err) {
    case TOPO_OK: return "success";
    case TOPO_ERR_NULL: return "a required pointer argument is NULL";
    case TOPO_ERR_NDIMS:
        return "number of dimensions n must be in 1..TOPO_MAX_DIMS (16)";
    case TOPO_ERR_PROCS:
        return "process count must be in 1..2147483647 (and fit the grid)";
    case TOPO_ERR_EXTENT: return "an iteration-space extent is below 1";
    case TOPO_ERR_DEP: return "a dependence width is negative";
    case TOPO_ERR_FIXED:
        return "bad fixed grid entry: negative, larger than its extent, "
               "or the fixed entries do not divide the process count";
    case TOPO_ERR_INFEASIBLE:
        return "no grid fits: the count has no factorisation with "
               "P_i <= X_i in every dimension (a loop nest's grids also "
               "need P_i <= X_i / d_i where d_i > 1)";
    case TOPO_ERR_OVERFLOW:
        return "communication volume does not fit in 64 bits";
    case TOPO_ERR_THREADS: return "thread count must be in 1..2147483647";
    case TOPO_ERR_MISMATCH: return "MPI ranks passed different arguments";
    case TOPO_ERR_MPI: return "an MPI call failed";
    case TOPO_ERR_POLICY:
        return "unknown topo_policy value, or TOPO_POLICY_TIME without a cost "
               "model (use the topo_nest_* functions)";
    case TOPO_ERR_STENCIL:
        return "bad stencil: a vector reads a later point or the point itself, "
               "a direction is not +1 or -1, or a face extension ext[i][j] is "
               "outside 0..dep[j] (or set for j >= i)";
    case TOPO_ERR_COST:
        return "bad cost model: the tile height must be >= 1, elem_bytes, tcomp "
               "and bandwidth finite and > 0, tstartup finite and >= 0, and the "
               "predicted time of a grid finite (status->arg: the cost that overflows)";
    default: return "unknown topology error code";
    }
}

/* topo_dims_create() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_dims_create(int64_t procs, int n, int *dims,
                                      tilehybrid_status *status)
{
    int64_t rest;
    int i, rc, tmp[TOPO_MAX_DIMS];
    if (dims == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "dims", -1);
    if (n < 1 || n > TOPO_MAX_DIMS)
        return tilehybrid_status_set(status, TOPO_ERR_NDIMS, "n", -1);
    if (procs < 1 || procs > INT_MAX)
        return tilehybrid_status_set(status, TOPO_ERR_PROCS, "procs", -1);
    rc = topo__check_fixed(n, procs, dims, NULL, &rest, "dims", status);
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++)
        tmp[i] = dims[i];
    topo__balanced(n, rest, tmp);
    for (i = 0; i < n; i++)
        dims[i] = tmp[i];
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/* The latency policy's grid: tmp's fixed entries kept, the rest of the
 * processes or threads (rest) balanced over its free ones; infeasible
 * where an entry exceeds lim, naming the argument what (more processes or
 * threads than points), or "dep" where ext is given and the entry is at
 * most X_i (blocks narrower than the d_i layers a neighbour reads). */
TILEHYBRID__COLD int topo__latency_grid(int n, int64_t rest, const int64_t *lim,
                                        const int64_t *ext, int *tmp, const char *what,
                                        tilehybrid_status *st)
{
    int i;
    topo__balanced(n, rest, tmp);
    for (i = 0; i < n; i++)
        if (tmp[i] > lim[i])
            return tilehybrid_status_set(st, TOPO_ERR_INFEASIBLE,
                                         ext != NULL && tmp[i] <= ext[i] ? "dep" : what, i);
    return TOPO_OK;
}

/* topo_grid_ex() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_grid_ex(int n, int64_t procs, const int64_t *extent,
                                  const int64_t *dep, topo_policy policy,
                                  int *dims, tilehybrid_status *status)
{
    int64_t rest;
    int i, rc, tmp[TOPO_MAX_DIMS];
    if (dims == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "dims", -1);
    rc = topo__check_common(n, procs, extent, dep, policy, status);
    if (rc != TOPO_OK)
        return rc;
    rc = topo__check_fixed(n, procs, dims, extent, &rest, "dims", status);
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++)
        tmp[i] = dims[i];
    if (policy == TOPO_POLICY_LATENCY)
        rc = topo__latency_grid(n, rest, extent, NULL, tmp, "extent", status);
    else
        rc = topo__comm_grid(n, rest, extent, NULL, dep, NULL, tmp, status);
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++)
        dims[i] = tmp[i];
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/* topo_grid() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_grid(int n, int64_t procs, const int64_t *extent,
                               const int64_t *dep, topo_policy policy, int *dims)
{
    return topo_grid_ex(n, procs, extent, dep, policy, dims, NULL);
}

/* The argument checks of topo_report_grid_ex(), in the documented order. */
TILEHYBRID__COLD int topo__check_report(int n, const int *dims,
                                        const int64_t *extent, int64_t zlen,
                                        const int64_t *dep, const topo_report *out,
                                        tilehybrid_status *st)
{
    int i, rc;
    if (dims == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "dims", -1);
    if (out == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "out", -1);
    if ((rc = topo__check_shape(n, extent, dep, 1, st)) != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++)
        if (dims[i] < 1)
            return tilehybrid_status_set(st, TOPO_ERR_FIXED, "dims", i);
    return topo__check_space(n, extent, &zlen, dep, st);
}

/* The volume model's report of a checked grid, faces extended by xf
 * (NULL: none); steps and seconds are left 0. */
TILEHYBRID__COLD int topo__report(int n, const int *dims, const int64_t *extent,
                                  int64_t zlen, const int64_t *dep,
                                  const int64_t (*xf)[TOPO_MAX_DIMS], topo_report *out,
                                  tilehybrid_status *status)
{
    topo_report r;
    uint64_t vol = 0, sent = 0, total = 0, procs = 1;
    int i, j;
    memset(&r, 0, sizeof r);
    r.n = n;
    r.feasible = 1;
    r.bad_index = -1;
    for (i = 0; i < n; i++) {
        uint64_t term = topo__face(n, dims, extent, dep, xf, i), whole = (uint64_t)dep[i];
        r.dims[i] = dims[i];
        for (j = 0; j < n; j++) /* sum over the blocks of (c_j + ext) */
            if (j != i)
                whole = topo__mul(whole, topo__add((uint64_t)extent[j],
                    j < i && xf != NULL ? topo__mul((uint64_t)dims[j], (uint64_t)xf[i][j]) : 0));
        vol = topo__add(vol, term);
        if (dims[i] > 1) {
            sent = topo__add(sent, term);
            total = topo__add(total, topo__mul(whole, (uint64_t)(dims[i] - 1)));
            r.messages++;
        }
        r.fill_steps += dims[i] - 1;
        procs = topo__mul(procs, (uint64_t)dims[i]);
        if (dims[i] > extent[i] && r.feasible) {
            r.feasible = 0;
            r.bad_index = i;
        }
    }
    vol = topo__mul(vol, (uint64_t)zlen);
    sent = topo__mul(sent, (uint64_t)zlen); /* sent <= vol */
    total = topo__mul(total, (uint64_t)zlen);
    if (vol == TOPO__SAT || total == TOPO__SAT || procs == TOPO__SAT)
        return tilehybrid_status_set(status, TOPO_ERR_OVERFLOW,
                                     vol == TOPO__SAT     ? "volume"
                                     : total == TOPO__SAT ? "total_volume"
                                                          : "dims",
                                     -1);
    r.volume = (int64_t)vol;
    r.volume_sent = (int64_t)sent;
    r.total_volume = (int64_t)total;
    r.procs = (int64_t)procs;
    *out = r;
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/* topo_report_grid_ex() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_report_grid_ex(int n, const int *dims,
                                         const int64_t *extent, int64_t zlen,
                                         const int64_t *dep, topo_report *out,
                                         tilehybrid_status *status)
{
    int rc = topo__check_report(n, dims, extent, zlen, dep, out, status);
    if (rc != TOPO_OK)
        return rc;
    return topo__report(n, dims, extent, zlen, dep, NULL, out, status);
}

/* topo_report_grid() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_report_grid(int n, const int *dims,
                                      const int64_t *extent, int64_t zlen,
                                      const int64_t *dep, topo_report *out)
{
    return topo_report_grid_ex(n, dims, extent, zlen, dep, out, NULL);
}

/* The thread grid of topo_hybrid_grid_ex() inside the blocks of the
 * process grid pd: td in/out.  Its cost is the largest block's
 * (ceil(X_i / P_i)); every block must hold it, so T_i is at most the
 * smallest block's extent, floor(X_i / P_i). */
TILEHYBRID__COLD int topo__thread_grid(int n, int threads, const int64_t *extent,
                                       const int64_t *dep, topo_policy policy,
                                       const int *pd, int *td, tilehybrid_status *st)
{
    int64_t local[TOPO_MAX_DIMS], small[TOPO_MAX_DIMS], rest;
    int i, rc;
    for (i = 0; i < n; i++) {
        local[i] = topo__ceildiv(extent[i], pd[i]);
        small[i] = extent[i] / pd[i];
    }
    rc = topo__check_fixed(n, threads, td, small, &rest, "tdims", st);
    if (rc != TOPO_OK)
        return rc;
    if (policy == TOPO_POLICY_LATENCY)
        return topo__latency_grid(n, rest, small, NULL, td, "threads", st);
    rc = topo__comm_grid(n, rest, local, small, dep, NULL, td, st);
    if (rc == TOPO_ERR_INFEASIBLE)
        return tilehybrid_status_set(st, rc, "threads", -1);
    return rc;
}

/* topo_hybrid_grid_ex() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_hybrid_grid_ex(int n, int64_t procs, int threads,
                                         const int64_t *extent,
                                         const int64_t *dep, topo_policy policy,
                                         int *dims, int *tdims,
                                         tilehybrid_status *status)
{
    int pd[TOPO_MAX_DIMS], td[TOPO_MAX_DIMS], i, rc;
    if (dims == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "dims", -1);
    if (tdims == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "tdims", -1);
    if (threads < 1)
        return tilehybrid_status_set(status, TOPO_ERR_THREADS, "threads", -1);
    rc = topo__check_common(n, procs, extent, dep, policy, status);
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++) {
        pd[i] = dims[i];
        td[i] = tdims[i];
    }
    rc = topo_grid_ex(n, procs, extent, dep, policy, pd, status);
    if (rc != TOPO_OK)
        return rc;
    rc = topo__thread_grid(n, threads, extent, dep, policy, pd, td, status);
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++) {
        dims[i] = pd[i];
        tdims[i] = td[i];
    }
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/* topo_hybrid_grid() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_hybrid_grid(int n, int64_t procs, int threads,
                                      const int64_t *extent, const int64_t *dep,
                                      topo_policy policy, int *dims, int *tdims)
{
    return topo_hybrid_grid_ex(n, procs, threads, extent, dep, policy, dims,
                               tdims, NULL);
}
#else
TILEHYBRID__COLD int topo__latency_grid(int n, int64_t rest, const int64_t *lim,
                                        const int64_t *ext, int *tmp, const char *what,
                                        tilehybrid_status *st);
TILEHYBRID__COLD int topo__check_report(int n, const int *dims,
                                        const int64_t *extent, int64_t zlen,
                                        const int64_t *dep, const topo_report *out,
                                        tilehybrid_status *st);
TILEHYBRID__COLD int topo__report(int n, const int *dims, const int64_t *extent,
                                  int64_t zlen, const int64_t *dep,
                                  const int64_t (*xf)[TOPO_MAX_DIMS], topo_report *out,
                                  tilehybrid_status *status);
TILEHYBRID__COLD int topo__thread_grid(int n, int threads, const int64_t *extent,
                                       const int64_t *dep, topo_policy policy,
                                       const int *pd, int *td, tilehybrid_status *st);
#endif

/* topo_block() -- documented at its declaration (05-api.h). */
static inline void topo_block(int64_t extent, int parts, int index,
                              int64_t *start, int64_t *len)
{
    int64_t s = 0, l = 0;
    if (extent >= 0 && parts >= 1 && index >= 0 && index < parts) {
        int64_t base = extent / parts, rem = extent % parts;
        if (index < rem) {
            l = base + 1;
            s = (int64_t)index * (base + 1);
        } else {
            l = base;
            s = (int64_t)index * base + rem;
        }
    }
    if (start != NULL)
        *start = s;
    if (len != NULL)
        *len = l;
}

/* ---- loop nests: extended faces and the time policy -------------------- */

#if TILEHYBRID__DEFINE
/* 1 if x is a finite double (not NaN, not an infinity). */
TILEHYBRID__COLD int topo__finite(double x)
{
    return x == x && x - x == 0.0;
}

/* The cost model's values (topo__check_nest's last step). */
TILEHYBRID__COLD int topo__check_cost(const topo_nest *nest, tilehybrid_status *st)
{
    if (nest->tile_height < 1)
        return tilehybrid_status_set(st, TOPO_ERR_COST, "tile_height", -1);
    if (!topo__finite(nest->elem_bytes) || nest->elem_bytes <= 0.0)
        return tilehybrid_status_set(st, TOPO_ERR_COST, "elem_bytes", -1);
    if (!topo__finite(nest->tcomp) || nest->tcomp <= 0.0)
        return tilehybrid_status_set(st, TOPO_ERR_COST, "tcomp", -1);
    if (!topo__finite(nest->tstartup) || nest->tstartup < 0.0)
        return tilehybrid_status_set(st, TOPO_ERR_COST, "tstartup", -1);
    if (!topo__finite(nest->bandwidth) || nest->bandwidth <= 0.0)
        return tilehybrid_status_set(st, TOPO_ERR_COST, "bandwidth", -1);
    return TOPO_OK;
}

/* A nest not NULL, then every value of it, in the order of struct
 * topo_nest; an extension is named "ext" with the index i * n + j. */
TILEHYBRID__COLD int topo__check_nest(const topo_nest *nest, tilehybrid_status *st)
{
    int i, j, n, rc;
    if (nest == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "nest", -1);
    n = nest->n;
    if (n < 1 || n > TOPO_MAX_DIMS)
        return tilehybrid_status_set(st, TOPO_ERR_NDIMS, "n", -1);
    rc = topo__check_space(n, nest->extent, &nest->zlen, nest->dep, st);
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            if (nest->ext[i][j] < 0 || nest->ext[i][j] > (j < i ? nest->dep[j] : 0))
                return tilehybrid_status_set(st, TOPO_ERR_STENCIL, "ext", (int64_t)i * n + j);
    return topo__check_cost(nest, st);
}

/* topo_nest_init() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_nest_init(topo_nest *nest, int n, const int64_t *extent,
                                    int64_t zlen, const int64_t *dep,
                                    tilehybrid_status *status)
{
    /* every field 0 but the cost model's: n, extent, zlen, dep, ext,
     * tile_height, elem_bytes, tcomp, tstartup, bandwidth */
    static const topo_nest defaults = { 0, {0}, 0, {0}, {{0}}, TOPO_DEFAULT_TILE_HEIGHT,
                                        TOPO_DEFAULT_ELEM_BYTES, TOPO_DEFAULT_TCOMP,
                                        TOPO_DEFAULT_TSTARTUP, TOPO_DEFAULT_BANDWIDTH };
    int i, rc;
    if (nest == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "nest", -1);
    if ((rc = topo__check_shape(n, extent, dep, 0, status)) != TOPO_OK)
        return rc;
    *nest = defaults;
    nest->n = n;
    nest->zlen = zlen;
    for (i = 0; i < n; i++) {
        nest->extent[i] = extent[i];
        nest->dep[i] = dep != NULL ? dep[i] : 0;
    }
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/* The widths and extensions of one stencil vector v (u = v * dir <= 0 in
 * every component, not all 0), merged into dep and ext; 0 if it is not. */
TILEHYBRID__COLD int topo__stencil_vector(int n, const int *v, const int *dir,
                                          int64_t *dep,
                                          int64_t (*ext)[TOPO_MAX_DIMS])
{
    int64_t u[TOPO_MAX_DIMS + 1];
    int i, j, nonzero = 0;
    for (i = 0; i <= n; i++) {
        u[i] = (int64_t)v[i] * (dir != NULL ? dir[i] : 1);
        if (u[i] > 0)
            return 0; /* a later point along dimension i */
        nonzero |= u[i] != 0;
        if (i < n && -u[i] > dep[i])
            dep[i] = -u[i];
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < i; j++)
            if (v[i] != 0 && v[j] != 0 && -u[j] > ext[i][j])
                ext[i][j] = -u[j];
    return nonzero;
}

/* topo_nest_stencil() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_nest_stencil(topo_nest *nest, int nvec, const int *vec,
                                       int stride, const int *dir,
                                       tilehybrid_status *status)
{
    int64_t dep[TOPO_MAX_DIMS], ext[TOPO_MAX_DIMS][TOPO_MAX_DIMS];
    int i, k, n;
    if (nest == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "nest", -1);
    if (vec == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "vec", -1);
    n = nest->n;
    if (n < 1 || n > TOPO_MAX_DIMS)
        return tilehybrid_status_set(status, TOPO_ERR_NDIMS, "n", -1);
    if (nvec < 1)
        return tilehybrid_status_set(status, TOPO_ERR_STENCIL, "nvec", -1);
    if (stride < n + 1)
        return tilehybrid_status_set(status, TOPO_ERR_STENCIL, "stride", -1);
    for (i = 0; dir != NULL && i <= n; i++)
        if (dir[i] != 1 && dir[i] != -1)
            return tilehybrid_status_set(status, TOPO_ERR_STENCIL, "dir", i);
    memset(dep, 0, sizeof dep);
    memset(ext, 0, sizeof ext);
    for (k = 0; k < nvec; k++)
        if (!topo__stencil_vector(n, vec + (size_t)k * (size_t)stride, dir, dep, ext))
            return tilehybrid_status_set(status, TOPO_ERR_STENCIL, "stencil", k);
    memcpy(nest->dep, dep, sizeof dep);
    memcpy(nest->ext, ext, sizeof ext);
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/* topo_nest_grid() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_nest_grid(const topo_nest *nest, int64_t procs,
                                    topo_policy policy, int *dims,
                                    tilehybrid_status *status)
{
    int64_t rest, lim[TOPO_MAX_DIMS] = { 0 };  /* (set by topo__nest_lim: gcc cannot see it) */
    int i, rc, n, tmp[TOPO_MAX_DIMS];
    if (dims == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "dims", -1);
    if ((rc = topo__check_nest(nest, status)) != TOPO_OK ||
        (rc = topo__check_run(procs, policy, 1, status)) != TOPO_OK)
        return rc;
    n = nest->n;
    topo__nest_lim(nest, lim);
    rc = topo__check_fixed(n, procs, dims, lim, &rest, "dims", status);
    if (rc != TOPO_OK)
        return rc;
    memset(tmp, 0, sizeof tmp);
    for (i = 0; i < n; i++)
        tmp[i] = dims[i];
    if (policy == TOPO_POLICY_LATENCY) {
        rc = topo__latency_grid(n, rest, lim, nest->extent, tmp, "extent", status);
    } else if (policy == TOPO_POLICY_COMM) {
        rc = topo__comm_grid(n, rest, nest->extent, lim, nest->dep, topo__nest_xf(nest), tmp,
                             status);
    } else {
        rc = topo__time_grid(nest, rest, tmp, status);
    }
    if (rc != TOPO_OK)
        return rc;
    for (i = 0; i < n; i++)
        dims[i] = tmp[i];
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/* topo_nest_report() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_nest_report(const topo_nest *nest, const int *dims,
                                      topo_report *out, tilehybrid_status *status)
{
    topo_report r;
    int64_t lim[TOPO_MAX_DIMS];
    int i, rc;
    if (dims == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "dims", -1);
    if (out == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "out", -1);
    if ((rc = topo__check_nest(nest, status)) != TOPO_OK)
        return rc;
    for (i = 0; i < nest->n; i++)
        if (dims[i] < 1)
            return tilehybrid_status_set(status, TOPO_ERR_FIXED, "dims", i);
    rc = topo__report(nest->n, dims, nest->extent, nest->zlen, nest->dep,
                      topo__nest_xf(nest), &r, status);
    if (rc != TOPO_OK)
        return rc;
    topo__nest_lim(nest, lim);
    r.feasible = 1;
    r.bad_index = -1;
    for (i = 0; i < nest->n && r.feasible; i++)
        if (dims[i] > lim[i]) {
            r.feasible = 0;
            r.bad_index = i;
        }
    r.seconds = topo__time(nest, dims, &r.steps);
    if (!tilehybrid__finite(r.seconds))   /* costs in range whose model overflows */
        return tilehybrid_status_set(status, TOPO_ERR_COST, topo__time_cause(nest, dims), -1);
    *out = r;
    return TOPO_OK;
}
#else
TILEHYBRID__COLD int topo__finite(double x);
TILEHYBRID__COLD int topo__check_cost(const topo_nest *nest, tilehybrid_status *st);
TILEHYBRID__COLD int topo__check_nest(const topo_nest *nest, tilehybrid_status *st);
TILEHYBRID__COLD int topo__stencil_vector(int n, const int *v, const int *dir,
                                          int64_t *dep,
                                          int64_t (*ext)[TOPO_MAX_DIMS]);
#endif

/* ---- why no grid fits, in words ---------------------------------------- */

TILEHYBRID__COLD void topo__cat(char *buf, size_t size, size_t *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#if TILEHYBRID__DEFINE
/* Append fmt's text to buf (size bytes, kept NUL-terminated; NULL when
 * size is 0) at *at; *at counts the whole text, as snprintf's result. */
TILEHYBRID__COLD void topo__cat(char *buf, size_t size, size_t *at, const char *fmt, ...)
{
    va_list ap;
    int k;
    va_start(ap, fmt);
    k = vsnprintf(*at < size ? buf + *at : NULL, *at < size ? size - *at : 0, fmt, ap);
    va_end(ap);
    if (k > 0)
        *at += (size_t)k;
}

/* What follows q (>= 2) in a text: its prime factors, " = 2 x 97",
 * " = 2^10 x 3", or " (a prime)". */
TILEHYBRID__COLD void topo__factors_text(char *buf, size_t size, size_t *at, int64_t q)
{
    int64_t p, m = q;
    int e, first = 1;
    for (p = 2; p <= m / p; p += p == 2 ? 1 : 2) {
        for (e = 0; m % p == 0; e++)
            m /= p;
        if (e > 0)
            topo__cat(buf, size, at, "%s%lld", first ? " = " : " x ", (long long)p);
        if (e > 1)
            topo__cat(buf, size, at, "^%d", e);
        first &= e == 0;
    }
    if (first)
        topo__cat(buf, size, at, " (a prime)");
    else if (m > 1)
        topo__cat(buf, size, at, " x %lld", (long long)m);
}

/* The largest P_i of the nest's grids (topo__nest_lim) and its rule, for
 * a list: "P_i <= X_i = 50", "P_i <= floor(150/3) = 50" or "P_i = 1 (d_i
 * = 5 > X_i = 3)".  Returns 1 where the widths' rule sets it. */
TILEHYBRID__COLD int topo__limit_text(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                      int i)
{
    long long x = (long long)nest->extent[i], d = (long long)nest->dep[i];
    if (d <= 1 || x == 1) {
        topo__cat(buf, size, at, "P_%d <= X_%d = %lld", i + 1, i + 1, x);
        return 0;
    }
    if (d > x)
        topo__cat(buf, size, at, "P_%d = 1 (d_%d = %lld > X_%d = %lld)", i + 1, i + 1, d, i + 1,
                  x);
    else
        topo__cat(buf, size, at, "P_%d <= floor(%lld/%lld) = %lld", i + 1, x, d, x / d);
    return 1;
}

/* Why P_i = v (above the limit lim) breaks a rule of the nest's grids:
 * the rule, the dimension and the numbers.  The one-point rule P_i <= X_i
 * is named where v breaks it, else the widths' rule. */
TILEHYBRID__COLD void topo__why_dim(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                   int i, int64_t v, int64_t lim)
{
    long long x = (long long)nest->extent[i], d = (long long)nest->dep[i];
    if (v > nest->extent[i] || d <= 1 || x == 1) {
        topo__cat(buf, size, at, "a block along dimension %d must hold at least one point, "
                  "so P_%d <= X_%d = %lld", i + 1, i + 1, i + 1, x);
        if (lim < nest->extent[i])
            topo__cat(buf, size, at, " (and the d_%d = %lld points its neighbour reads: "
                      "P_%d <= %lld)", i + 1, d, i + 1, (long long)lim);
    } else if (d > x) {
        topo__cat(buf, size, at, "a block along dimension %d must hold the d_%d = %lld points "
                  "its neighbour reads, more than X_%d = %lld, so dimension %d is not divided "
                  "(P_%d = 1)", i + 1, i + 1, d, i + 1, x, i + 1, i + 1);
    } else {
        topo__cat(buf, size, at, "a block along dimension %d must hold the d_%d = %lld points "
                  "its neighbour reads, so P_%d <= floor(X_%d/d_%d) = floor(%lld/%lld) = "
                  "%lld", i + 1, i + 1, d, i + 1, i + 1, i + 1, x, d, x / d);
    }
}

/* 1 if rest is a product of one factor per free (0) entry of dims, each
 * factor at most lim[i]: the quotients reachable dimension by dimension,
 * over the divisors of rest by mixed-radix index (topo__divs). */
TILEHYBRID__COLD int topo__fits(int n, int64_t rest, const int *dims, const int64_t *lim)
{
    topo__divs dv;
    unsigned char reach[TOPO__MAX_DIVS], next[TOPO__MAX_DIVS];
    int i, qi, j;
    topo__divisors(rest, &dv);
    memset(reach, 0, sizeof reach);
    reach[dv.count - 1] = 1; /* rest itself: every exponent at its top */
    for (i = 0; i < n; i++) {
        if (dims[i] != 0)
            continue;
        memset(next, 0, sizeof next);
        for (qi = 0; qi < dv.count; qi++) {
            int top[10], e[10] = {0}, pi = 0;
            if (!reach[qi])
                continue;
            for (j = 0; j < dv.np; j++)
                top[j] = qi / dv.stride[j] % (dv.expo[j] + 1);
            for (;;) { /* every divisor p of q (index pi): q / p has index qi - pi */
                if (dv.val[pi] <= lim[i])
                    next[qi - pi] = 1;
                for (j = 0; j < dv.np; j++) {
                    if (e[j] < top[j]) {
                        e[j]++;
                        pi += dv.stride[j];
                        break;
                    }
                    pi -= e[j] * dv.stride[j];
                    e[j] = 0;
                }
                if (j == dv.np)
                    break;
            }
        }
        memcpy(reach, next, sizeof reach);
    }
    return reach[0];
}

/* The free dimensions' limits as a list, with the rules they follow. */
TILEHYBRID__COLD void topo__limits_text(char *buf, size_t size, size_t *at,
                                        const topo_nest *nest, const int *dims)
{
    int i, first = 1, widths = 0;
    for (i = 0; i < nest->n; i++)
        if (dims[i] == 0) {
            topo__cat(buf, size, at, "%s", first ? "" : ", ");
            widths |= topo__limit_text(buf, size, at, nest, i);
            first = 0;
        }
    topo__cat(buf, size, at, "%s", widths ? " (a block holds at least one point, and the d_i "
              "points its neighbour reads where P_i > 1)" : " (a block holds at least one point)");
}

/* No factorisation of rest (procs over the fixed entries) fits the free
 * dimensions of dims: the one dimension's rule, the limits' product, or
 * the factors. */
TILEHYBRID__COLD void topo__why_rest(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                     int64_t procs, int64_t rest, const int *dims,
                                     const int64_t *lim)
{
    int i, k = 0, at1 = -1;
    int64_t cap = 1;
    char left[96];
    for (i = 0; i < nest->n; i++)
        if (dims[i] == 0) {
            k++;
            at1 = i;
            if (!tilehybrid_mul_ok(cap, lim[i], &cap))
                cap = INT64_MAX;
        }
    left[0] = '\0';
    if (rest != procs)
        snprintf(left, sizeof left, " (%lld over the fixed entries' product %lld)",
                 (long long)procs, (long long)(procs / rest));
    if (k == 1) {
        topo__cat(buf, size, at, "P_%d would be %lld%s, but ", at1 + 1, (long long)rest, left);
        topo__why_dim(buf, size, at, nest, at1, rest, lim[at1]);
        return;
    }
    if (cap < rest) {
        topo__cat(buf, size, at, "the limits allow at most %lld process%s, not %lld%s: ",
                  (long long)cap, cap == 1 ? "" : "es", (long long)rest, left);
    } else {
        topo__cat(buf, size, at, "no factorisation of %lld", (long long)rest);
        topo__factors_text(buf, size, at, rest);
        topo__cat(buf, size, at, "%s fits the limits ", left);
    }
    topo__limits_text(buf, size, at, nest, dims);
}

/* A fixed entry refused (topo__check_fixed's index i): negative, beyond
 * its limit, or the fixed entries' product. */
TILEHYBRID__COLD void topo__why_fixed(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                      int64_t procs, const int *dims, const int64_t *lim, int i)
{
    int64_t prod = 1;
    int j, nfree = 0, over = 0;
    if (i >= 0 && dims[i] < 0) {
        topo__cat(buf, size, at, "the fixed P_%d = %d is negative", i + 1, dims[i]);
        return;
    }
    if (i >= 0 && dims[i] > lim[i]) {
        topo__cat(buf, size, at, "P_%d = %d is fixed, but ", i + 1, dims[i]);
        topo__why_dim(buf, size, at, nest, i, dims[i], lim[i]);
        return;
    }
    for (j = 0; j < nest->n; j++) {
        nfree += dims[j] == 0;
        if (dims[j] > 0 && !tilehybrid_mul_ok(prod, dims[j], &prod))
            over = 1;
    }
    if (over)
        topo__cat(buf, size, at, "the fixed entries' product is more than %lld",
                  (long long)procs);
    else if (nfree == 0)
        topo__cat(buf, size, at, "the fixed grid has %lld processes, not %lld",
                  (long long)prod, (long long)procs);
    else
        topo__cat(buf, size, at, "the fixed entries' product %lld does not divide %lld",
                  (long long)prod, (long long)procs);
}

/* topo_nest_explain() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_nest_explain(const topo_nest *nest, int64_t procs, topo_policy policy,
                                       const int *dims, char *buf, size_t size,
                                       tilehybrid_status *status)
{
    int64_t rest = 1, lim[TOPO_MAX_DIMS] = { 0 };
    int g[TOPO_MAX_DIMS] = { 0 }, b[TOPO_MAX_DIMS], i, j, rc;
    size_t at = 0;
    tilehybrid_status st;
    if (buf == NULL && size > 0)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "buf", -1);
    if (size > 0)
        buf[0] = '\0';
    if ((rc = topo__check_nest(nest, &st)) != TOPO_OK ||
        (rc = topo__check_run(procs, policy, 1, &st)) != TOPO_OK) {
        topo__cat(buf, size, &at, "%s", topo_strerror(rc));
    } else {
        for (i = 0; dims != NULL && i < nest->n; i++)
            g[i] = dims[i];
        topo__nest_lim(nest, lim);
        rc = topo__check_fixed(nest->n, procs, g, lim, &rest, "dims", &st);
        memcpy(b, g, sizeof b);
        if (rc != TOPO_OK)
            topo__why_fixed(buf, size, &at, nest, procs, g, lim, (int)st.index);
        else if (policy == TOPO_POLICY_LATENCY)
            rc = topo__latency_grid(nest->n, rest, lim, nest->extent, b, "extent", &st);
        else if (!topo__fits(nest->n, rest, g, lim))
            rc = topo__infeasible(nest->n, rest, g, nest->extent, &st);
        if (rc == TOPO_ERR_INFEASIBLE && policy == TOPO_POLICY_LATENCY) {
            i = (int)st.index;
            topo__cat(buf, size, &at, "the balanced grid ");
            for (j = 0; j < nest->n; j++)
                topo__cat(buf, size, &at, "%s%d", j ? "x" : "", b[j]);
            topo__cat(buf, size, &at, " has P_%d = %d, but ", i + 1, b[i]);
            topo__why_dim(buf, size, &at, nest, i, b[i], lim[i]);
        } else if (rc == TOPO_ERR_INFEASIBLE) {
            topo__why_rest(buf, size, &at, nest, procs, rest, g, lim);
        } else if (rc == TOPO_OK) {
            tilehybrid_status_set(&st, TOPO_OK, "", -1);
        }
    }
    if (status != NULL)
        *status = st;
    return rc;
}
#else
TILEHYBRID__COLD void topo__factors_text(char *buf, size_t size, size_t *at, int64_t q);
TILEHYBRID__COLD int topo__limit_text(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                      int i);
TILEHYBRID__COLD void topo__why_dim(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                   int i, int64_t v, int64_t lim);
TILEHYBRID__COLD int topo__fits(int n, int64_t rest, const int *dims, const int64_t *lim);
TILEHYBRID__COLD void topo__limits_text(char *buf, size_t size, size_t *at,
                                        const topo_nest *nest, const int *dims);
TILEHYBRID__COLD void topo__why_rest(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                     int64_t procs, int64_t rest, const int *dims,
                                     const int64_t *lim);
TILEHYBRID__COLD void topo__why_fixed(char *buf, size_t size, size_t *at, const topo_nest *nest,
                                      int64_t procs, const int *dims, const int64_t *lim, int i);
#endif
