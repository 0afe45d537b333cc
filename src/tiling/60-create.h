/* ------------------------------------------------------------------------ */
/* Plan creation                                                            */

#if TILEHYBRID__DEFINE
/* Validate the configuration locally (no communication). */
TILEHYBRID__COLD int tile__validate_space(tile_plan *p, const tile_config *c)
{
    int i;
    if (c->n < 1 || c->n > TILE_MAX_DIMS)
        return tile__fail(p, TILE_ERR_NDIMS, "n", -1, "N = %d: the space must have 1 to %d "
                          "distributed dimensions plus Z", c->n, TILE_MAX_DIMS);
    for (i = 0; i < c->n; i++) {
        if (c->extent[i] < 1)
            return tile__fail(p, TILE_ERR_EXTENT, "extent", i, "extent X_%d = %lld: must be at "
                              "least 1", i + 1, (long long)c->extent[i]);
        if (c->dep[i] < 0)
            return tile__fail(p, TILE_ERR_DEP, "dep", i, "dependence d_%d = %d: must be >= 0",
                              i + 1, c->dep[i]);
        if (c->grid[i] < 0)
            return tile__fail(p, TILE_ERR_GRID, "grid", i, "grid entry %d = %d: must be >= 0 "
                              "(0 = free)", i + 1, c->grid[i]);
        if (c->tgrid[i] < 0)
            return tile__fail(p, TILE_ERR_THREADS, "tgrid", i, "thread grid entry %d = %d: must "
                              "be >= 0", i + 1, c->tgrid[i]);
    }
    if (c->zlen < 1)
        return tile__fail(p, TILE_ERR_EXTENT, "zlen", -1, "Z = %lld: must be at least 1",
                          (long long)c->zlen);
    if (c->depz < 0 || c->depz > TILE_MAX_DEPZ)
        return tile__fail(p, TILE_ERR_DEP, "depz", -1, "dependence d_Z = %d: must be in 0..%d",
                          c->depz, TILE_MAX_DEPZ);
    if (c->tile_height < 0)
        return tile__fail(p, TILE_ERR_TILE_HEIGHT, "tile_height", -1, "tile height = %lld: must "
                          "be at least 1, or 0 (the plan chooses)", (long long)c->tile_height);
    if (c->elem_size < 1 || c->elem_size > ((size_t)1 << 30))
        return tile__fail(p, TILE_ERR_ELEM, "elem_size", -1, "element size = %llu: must be in "
                          "1..2^30 bytes", (unsigned long long)c->elem_size);
    return TILE_OK;
}

/* "(o_1,...,o_N,o_Z)" of stencil vector v, in buf. */
TILEHYBRID__COLD const char *tile__vec(char *buf, size_t size, const int *v, int n)
{
    size_t o = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i <= n && o < size; i++)
        o += (size_t)snprintf(buf + o, size - o, "%s%d%s", i ? "," : "(", v[i], i == n ? ")" : "");
    return buf;
}

/* The loop order (outermost first) in lo[0..N]: cfg.loop_order, or the
 * default (Z, then X_1 ... X_N) when it is all -1. */
TILEHYBRID__COLD int tile__loop_order(tile_plan *p, const tile_config *c, int *lo)
{
    int n = c->n, i, seen[TILE_MAX_DIMS + 1] = {0}, unset = 1;
    for (i = 0; i <= n; i++)
        unset &= c->loop_order[i] == -1;
    if (unset) {
        lo[0] = n;
        for (i = 0; i < n; i++)
            lo[i + 1] = i;
        return TILE_OK;
    }
    for (i = 0; i <= n; i++) {
        if (c->loop_order[i] < 0 || c->loop_order[i] > n || seen[c->loop_order[i]]++)
            return tile__fail(p, TILE_ERR_STENCIL, "loop_order", i, "loop_order[%d] = %d: the "
                              "loop order must list each of 0..%d once (value i is dimension "
                              "i + 1, %d is Z), "
                              "outermost first, or be all -1", i, c->loop_order[i], n, n);
        lo[i] = c->loop_order[i];
    }
    return TILE_OK;
}

/* Check stencil vector k: in range, not the point itself, and earlier in
 * the sequential loop (lexicographically, in loop order lo and the
 * directions).  *later is set if it is later along some dimension. */
TILEHYBRID__COLD int tile__check_vector(tile_plan *p, const tile_config *c, const int *lo, int k,
                                        int *later)
{
    const int *v = c->stencil[k];
    char buf[12 * (TILE_MAX_DIMS + 1) + 4];
    int n = c->n, i, first = 0, fdim = 0;
    for (i = 0; i <= n; i++) {
        int lim = i < n ? INT_MAX / 2 : TILE_MAX_DEPZ;
        if (v[i] < -lim || v[i] > lim)   /* before any arithmetic (INT_MIN) */
            return tile__fail(p, TILE_ERR_DEP, "stencil", k, "stencil vector %d %s: a "
                              "distance of %d is too large%s (at most %d%s)", k + 1,
                              tile__vec(buf, sizeof buf, v, n), v[i], i < n ? "" : " along Z",
                              lim, i < n ? "" : ", TILE_MAX_DEPZ");
    }
    for (i = 0; i <= n; i++) {
        int u = v[lo[i]] * p->deps.dir[lo[i]];   /* > 0: later along lo[i] */
        *later |= u > 0;
        if (first == 0) {
            first = u;
            fdim = lo[i];
        }
    }
    if (first == 0)
        return tile__fail(p, TILE_ERR_STENCIL, "stencil", k, "stencil vector %d %s is the "
                          "point itself: the current point is written, not read as a "
                          "dependence", k + 1, tile__vec(buf, sizeof buf, v, n));
    if (first > 0)   /* the first non-zero distance, in loop order, is forward */
        return tile__fail(p, TILE_ERR_STENCIL, "stencil", k, "stencil vector %d %s reads a "
                          "later point along dimension %d (the loop runs %s there): in the "
                          "loop order every read must be at an earlier point (a read ahead "
                          "would read a value not yet written)", k + 1,
                          tile__vec(buf, sizeof buf, v, n), fdim + 1,
                          p->deps.dir[fdim] > 0 ? "upward" : "downward");
    return TILE_OK;
}

/* Apply the factors f[pp][.] at loop position pp: the skewed distances
 * dd[k][pp] and the skewed extent sz[pp] (len: the unskewed one). */
TILEHYBRID__COLD int tile__skew_apply(tile_plan *p, int ns, int64_t dd[][TILE_MAX_DIMS + 1],
                                      int64_t len, const int64_t *f, int64_t *sz, int pp)
{
    int64_t s = len - 1, t;
    int k, q;
    for (q = 0; q < pp; q++)
        if (!tilehybrid_mul_ok(f[q], sz[q] - 1, &t) || !tilehybrid_add_ok(s, t, &s))
            return tile__fail(p, TILE_ERR_OVERFLOW, "stencil", -1, "the skewed space is too "
                              "large for 64-bit sizes");
    if (!tilehybrid_add_ok(s, 1, &sz[pp]))
        return tile__fail(p, TILE_ERR_OVERFLOW, "stencil", -1, "the skewed space is too "
                          "large for 64-bit sizes");
    for (k = 0; k < ns; k++)
        for (q = 0; q < pp; q++)
            if (!tilehybrid_mul_ok(f[q], dd[k][q], &t) || !tilehybrid_add_ok(dd[k][pp], t, &t) ||
                t > INT_MAX / 2)
                return tile__fail(p, TILE_ERR_OVERFLOW, "stencil", k, "stencil vector %d: its "
                                  "skewed distance is too large", k + 1);
            else
                dd[k][pp] = t;
    return TILE_OK;
}

/* The cheapest factors at loop position pp (the least growth of its
 * extent) among 0..dmax each that make every skewed distance dd[.][pp]
 * non-negative; beyond 4096 candidates, a simple sufficient choice (dmax
 * on the first positive outer distance of each vector that needs it). */
TILEHYBRID__COLD void tile__skew_choose(int ns, int64_t dd[][TILE_MAX_DIMS + 1], const int64_t *sz,
                                        int pp, int64_t dmax, int64_t *f)
{
    double best = -1.0;
    int64_t cand = 1, t, g[TILE_MAX_DIMS + 1];
    int q, k;
    for (q = 0; q < pp && cand <= 4096; q++)
        cand *= dmax + 1;
    for (t = 0; cand <= 4096 && t < cand; t++) {
        int64_t r = t;
        double cost = 0.0;
        int ok = 1;
        for (q = 0; q < pp; q++, r /= dmax + 1) {
            g[q] = r % (dmax + 1);
            cost += (double)g[q] * (double)sz[q];
        }
        for (k = 0; k < ns && ok; k++) {
            int64_t y = dd[k][pp];
            for (q = 0; q < pp; q++)
                y += g[q] * dd[k][q];
            ok = y >= 0;
        }
        if (ok && (best < 0 || cost < best)) {
            best = cost;
            memcpy(f, g, sizeof(int64_t) * (size_t)pp);
        }
    }
    for (k = 0; best < 0 && k < ns; k++)
        for (q = 0; dd[k][pp] < 0 && q < pp; q++)
            if (dd[k][q] > 0) {
                f[q] = dmax;
                break;
            }
}

/* The skew: factors f[p][q] (q < p, loop positions) for the distances dd
 * (dd[k][p]: vector k's distance along the loop's p-th dimension, in its
 * direction; skewed on return) and the skewed extents sz[p]. */
TILEHYBRID__COLD int tile__skew(tile_plan *p, int ns, int64_t dd[][TILE_MAX_DIMS + 1],
                                const int64_t *len, int64_t f[][TILE_MAX_DIMS + 1], int64_t *sz)
{
    int n = p->cfg.n, k, pp;
    for (pp = 0; pp <= n; pp++) {
        int64_t dmax = 0;
        for (k = 0; k < ns; k++)
            dmax = -dd[k][pp] > dmax ? -dd[k][pp] : dmax;
        memset(f[pp], 0, sizeof f[pp]);
        if (dmax > 0)
            tile__skew_choose(ns, dd, sz, pp, dmax, f[pp]);
        if (tile__skew_apply(p, ns, dd, len[pp], f[pp], sz, pp) != TILE_OK)
            return p->status.code;
    }
    return TILE_OK;
}

/* The maps between user and internal coordinates (struct tile_deps): with
 * the skew f in loop order lo (skewed), or the reversal alone.  Internal
 * dimension kk is loop position kp[kk]. */
TILEHYBRID__COLD int tile__fma_ok(int64_t *acc, int64_t a, int64_t b)
{
    int64_t t;
    return tilehybrid_mul_ok(a, b, &t) && tilehybrid_add_ok(*acc, t, acc);
}

TILEHYBRID__COLD int tile__map(tile_plan *p, const int *lo, int64_t f[][TILE_MAX_DIMS + 1],
                               const int *kp)
{
    tile_deps *d = &p->deps;
    int n = p->cfg.n, i, kk, pp, q;
    int64_t a[TILE_MAX_DIMS + 1][TILE_MAX_DIMS + 1], a0[TILE_MAX_DIMS + 1];
    int64_t b[TILE_MAX_DIMS + 1][TILE_MAX_DIMS + 1];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    /* y'_p = y_p + sum f_pq y'_q, y_p = u or E - 1 - u along lo[p] */
    for (pp = 0; pp <= n; pp++) {
        int u = lo[pp];
        int64_t len = u < n ? p->cfg.extent[u] : p->cfg.zlen;
        a[pp][u] = d->dir[u];
        a0[pp] = d->dir[u] > 0 ? 0 : len - 1;
        for (q = 0; q < pp; q++) {
            int ok = tile__fma_ok(&a0[pp], f[pp][q], a0[q]);
            for (i = 0; i <= n; i++)
                ok &= tile__fma_ok(&a[pp][i], f[pp][q], a[q][i]);
            if (!ok)
                return tile__fail(p, TILE_ERR_OVERFLOW, "stencil", -1, "the skew of this "
                                  "stencil is too large for 64-bit coordinates");
        }
        /* inverse: y_p = y'_p - sum f_pq y'_q, in terms of y' */
        b[pp][pp] = 1;
        for (q = 0; q < pp; q++)
            b[pp][q] = -f[pp][q];
    }
    for (kk = 0; kk <= n; kk++) {
        memcpy(d->m[kk], a[kp[kk]], sizeof d->m[kk]);
        d->c[kk] = a0[kp[kk]];
    }
    for (pp = 0; pp <= n; pp++) {
        int u = lo[pp];
        int64_t len = u < n ? p->cfg.extent[u] : p->cfg.zlen;
        for (kk = 0; kk <= n; kk++)
            d->inv[u][kk] = d->dir[u] * b[pp][kp[kk]];
        d->cinv[u] = d->dir[u] > 0 ? 0 : len - 1;
    }
    return TILE_OK;
}

/* The internal offsets of every stencil vector, the ghost widths d', d'_Z
 * and the face extensions. */
TILEHYBRID__COLD int tile__widths(tile_plan *p, const tile_config *c)
{
    tile_deps *d = &p->deps;
    int n = c->n, i, j, k;
    for (k = 0; k < c->nstencil; k++) {
        for (j = 0; j <= n; j++) {
            int64_t o = 0;
            for (i = 0; i <= n; i++)
                o += d->m[j][i] * c->stencil[k][i];
            d->off[k][j] = o;
            if (-o > (j < n ? INT_MAX / 2 : TILE_MAX_DEPZ))
                return tile__fail(p, TILE_ERR_DEP, "stencil", k, "stencil vector %d: its "
                                  "distance along %sdimension %d is %lld, too large (at most "
                                  "%d%s)", k + 1, d->skewed ? "skewed " : "", j + 1, (long long)-o,
                                  j < n ? INT_MAX / 2 : TILE_MAX_DEPZ,
                                  j < n ? "" : ", TILE_MAX_DEPZ");
            if (j < n && -o > d->d[j])
                d->d[j] = (int)-o;
            if (j == n && -o > d->dz)
                d->dz = (int)-o;
        }
        for (i = 0; i < n; i++)
            for (j = 0; j < i; j++)
                if (d->off[k][i] != 0 && d->off[k][j] != 0 && -d->off[k][j] > d->ext[i][j])
                    d->ext[i][j] = (int)-d->off[k][j];
    }
    return TILE_OK;
}

/* The internal order of the loop positions: unskewed, the user's own
 * dimensions; skewed, the longest skewed dimension (the user's Z on a tie)
 * as Z and the others in loop order. */
TILEHYBRID__COLD void tile__internal_order(const tile_plan *p, const int *lo, const int64_t *sz,
                                           int *kp)
{
    int n = p->cfg.n, pp, z = -1, kk = 0;
    if (!p->deps.skewed) {
        for (pp = 0; pp <= n; pp++)
            kp[lo[pp]] = pp;
        return;
    }
    for (pp = 0; pp <= n; pp++)
        if (z < 0 || sz[pp] > sz[z] || (sz[pp] == sz[z] && lo[pp] == n))
            z = pp;
    for (pp = 0; pp <= n; pp++)
        if (pp != z)
            kp[kk++] = pp;
    kp[n] = z;
}

/* Validate the dependences (widths or stencil, directions, loop order) and
 * derive the internal coordinates (struct tile_deps). */
TILEHYBRID__COLD int tile__check_shorthand(tile_plan *p, const tile_config *c)
{
    int i;
    if (c->nstencil < 0 || c->nstencil > TILE_MAX_STENCIL)
        return tile__fail(p, TILE_ERR_STENCIL, "nstencil", -1, "nstencil = %d: must be in "
                          "0..%d", c->nstencil, TILE_MAX_STENCIL);
    if (c->nstencil == 0)
        return TILE_OK;
    for (i = 0; i < c->n; i++)
        if (c->dep[i] != 0)
            return tile__fail(p, TILE_ERR_DEP, "dep", i, "dep[%d] = %d with a stencil: give "
                              "the stencil or the widths, not both (tile_config_stencil sets "
                              "dep[] and depz to 0)", i, c->dep[i]);
    if (c->depz != 0)
        return tile__fail(p, TILE_ERR_DEP, "depz", -1, "depz = %d with a stencil: give the "
                          "stencil or the widths, not both (tile_config_stencil sets dep[] "
                          "and depz to 0)", c->depz);
    return TILE_OK;
}

TILEHYBRID__COLD int tile__validate_deps(tile_plan *p, const tile_config *c)
{
    tile_deps *d = &p->deps;
    int64_t dd[TILE_MAX_STENCIL][TILE_MAX_DIMS + 1], f[TILE_MAX_DIMS + 1][TILE_MAX_DIMS + 1];
    int64_t len[TILE_MAX_DIMS + 1], sz[TILE_MAX_DIMS + 1];
    int i, k, n = c->n, lo[TILE_MAX_DIMS + 1], kp[TILE_MAX_DIMS + 1], later = 0;
    memset(d, 0, sizeof *d);
    memset(f, 0, sizeof f);
    for (i = 0; i <= n; i++) {
        if (c->dir[i] != 1 && c->dir[i] != -1)
            return tile__fail(p, TILE_ERR_STENCIL, "dir", i, "dir[%d] = %d: the loop direction "
                              "must be +1 (upward) or -1 (downward)", i, c->dir[i]);
        d->dir[i] = c->dir[i];
    }
    if (tile__loop_order(p, c, lo) != TILE_OK || tile__check_shorthand(p, c) != TILE_OK)
        return p->status.code;
    for (k = 0; k < c->nstencil; k++)
        if (tile__check_vector(p, c, lo, k, &later) != TILE_OK)
            return p->status.code;
    for (i = 0; i <= n; i++) {
        len[i] = lo[i] < n ? c->extent[lo[i]] : c->zlen;
        sz[i] = len[i];
        for (k = 0; k < c->nstencil; k++)
            dd[k][i] = -(int64_t)c->stencil[k][lo[i]] * d->dir[lo[i]];
    }
    d->skewed = later;
    if (later && tile__skew(p, c->nstencil, dd, len, f, sz) != TILE_OK)
        return p->status.code;
    tile__internal_order(p, lo, sz, kp);
    if (tile__map(p, lo, f, kp) != TILE_OK)
        return p->status.code;
    for (i = 0; i <= n; i++)
        d->size[i] = sz[kp[i]];
    if (c->nstencil == 0) {
        for (i = 0; i < n; i++)
            d->d[i] = c->dep[i];
        d->dz = c->depz;
        return TILE_OK;
    }
    return tile__widths(p, c);
}

/**
 * tile_config_deps() - the internal coordinates a plan derives from @cfg's
 * space and dependences, without MPI and without creating the plan: the
 * ghost widths d'_i and d'_Z, the extended faces, whether the plan skews
 * the space and the extents of the space it tiles (struct tile_deps).
 * Tools and models use it to price the loop nest the plan will run (tilectl
 * topo and plan do: topology.h's nest over @deps->size and @deps->d).
 * @cfg:  the configuration; its space (n, extent, zlen, elem_size,
 *        tile_height, grid) and dependences (dep/depz or the stencil, dir,
 *        loop_order) are checked as tile_plan_create() checks them, with
 *        the same codes and messages; the other fields are not read.
 * @deps: filled on success (unchanged otherwise).
 * @msg, @size: on failure the plan's message (naming the argument and the
 *        offending vector), truncated to @size bytes; NULL/0 for none.
 * Returns TILE_OK, the TILE_ERR_* code of the first error, TILE_ERR_NULL
 * (@cfg or @deps NULL) or TILE_ERR_NOMEM (a plan's scratch record, about
 * sizeof(tile_plan) bytes, cannot be allocated).
 */
TILEHYBRID__COLD int tile_config_deps(const tile_config *cfg, tile_deps *deps, char *msg,
                                      size_t size)
{
    tile_plan *p;
    int rc;
    if (msg != NULL && size > 0)
        msg[0] = '\0';
    if (cfg == NULL || deps == NULL) {
        if (msg != NULL && size > 0)
            snprintf(msg, size, "tile_config_deps: %s is NULL", cfg == NULL ? "cfg" : "deps");
        return TILE_ERR_NULL;
    }
    p = (tile_plan *)TILEHYBRID_MALLOC(sizeof *p);
    if (p == NULL) {
        if (msg != NULL && size > 0)
            snprintf(msg, size, "tile_config_deps: out of memory (%llu bytes)",
                     (unsigned long long)sizeof *p);
        return TILE_ERR_NOMEM;
    }
    memset(p, 0, sizeof *p);
    p->cfg = *cfg;
    rc = tile__validate_space(p, cfg);
    if (rc == TILE_OK)
        rc = tile__validate_deps(p, cfg);
    if (rc == TILE_OK)
        *deps = p->deps;
    else if (msg != NULL && size > 0)
        snprintf(msg, size, "%s", p->errmsg);
    TILEHYBRID_FREE(p);
    return rc;
}

/* The model, the threads and the options. */
TILEHYBRID__COLD int tile__validate_run(tile_plan *p, const tile_config *c)
{
    int rc;
    if (tile_model_name(c->model) == NULL)
        return tile__fail(p, TILE_ERR_MODEL, "model", -1, "model = %d: not a tile_model",
                          c->model);
    if (c->threads < 1)
        return tile__fail(p, TILE_ERR_THREADS, "threads", -1, "threads = %d: must be at "
                          "least 1", c->threads);
    if (c->model == TILE_MODEL_MPI && c->threads != 1)
        return tile__fail(p, TILE_ERR_THREADS, "threads", -1, "threads = %d: the pure MPI "
                          "model runs one thread per process", c->threads);
#ifndef _OPENMP
    if (c->threads > 1)
        return tile__fail(p, TILE_ERR_NO_OPENMP, "threads", -1, "threads = %d: compile with "
                          "OpenMP (-fopenmp) to run more than one thread", c->threads);
#endif
    rc = bal_config_check(&c->balance);
    if (rc == BAL_ERR_BAL)
        return tile__fail(p, TILE_ERR_BAL, "balance.bal", -1, "bal = %g: the balancing factor "
                          "must be in [0, 1]", c->balance.bal);
    if (rc != BAL_OK)
        return tile__fail(p, TILE_ERR_BALANCE, "balance", -1, "balance: %s", bal_strerror(rc));
    if (c->order < TILE_ORDER_PLANES || c->order > TILE_ORDER_AUTO)
        return tile__fail(p, TILE_ERR_STORAGE, "order", -1, "order = %d: not a tile_order",
                          c->order);
    if (c->storage != TILE_STORE_WINDOW && c->storage != TILE_STORE_FULL)
        return tile__fail(p, TILE_ERR_STORAGE, "storage", -1, "storage = %d: not a "
                          "tile_storage", c->storage);
    if (c->grid_policy != TILE_GRID_COMM && c->grid_policy != TILE_GRID_LATENCY &&
        c->grid_policy != TILE_GRID_TIME)
        return tile__fail(p, TILE_ERR_GRID, "grid_policy", -1, "grid policy = %d: not a "
                          "tile_grid_policy", c->grid_policy);
    if (c->mem_limit < -1)
        return tile__fail(p, TILE_ERR_RANGE, "mem_limit", -1, "mem_limit = %lld: must be -1 "
                          "(no limit), 0 (the default) or a number of bytes", (long long)c->mem_limit);
    if (c->messages < TILE_MESSAGES_PERSISTENT || c->messages > TILE_MESSAGES_PARTITIONED)
        return tile__fail(p, TILE_ERR_RANGE, "messages", -1, "messages = %d: not a "
                          "tile_messages", c->messages);
    if (c->agree != TILE_AGREE_EACH_RUN && c->agree != TILE_AGREE_WHEN_ASKED)
        return tile__fail(p, TILE_ERR_RANGE, "agree", -1, "agree = %d: not a tile_agree",
                          c->agree);
    if (c->boundary != NULL && c->boundary_row != NULL)
        return tile__fail(p, TILE_ERR_ARG, "boundary_row", -1, "boundary and boundary_row "
                          "are both set: set one (boundary_row gives a row of points per "
                          "call the values boundary gives one by one)");
    return TILE_OK;
}

TILEHYBRID__COLD const char *tile__level_name(int level)
{
    return level == MPI_THREAD_SINGLE     ? "MPI_THREAD_SINGLE"
           : level == MPI_THREAD_FUNNELED ? "MPI_THREAD_FUNNELED"
           : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
                                            : "MPI_THREAD_MULTIPLE";
}

/* MPI's thread support for the model. */
TILEHYBRID__COLD int tile__check_level(tile_plan *p)
{
    int provided = MPI_THREAD_SINGLE, need;
    if (MPI_Query_thread(&provided) != MPI_SUCCESS)
        return tile__fail(p, TILE_ERR_MPI, "", -1, "MPI_Query_thread failed (is MPI "
                          "initialised?)");
    need = tile_model_thread_level(p->cfg.model, p->cfg.threads);
    if (provided < need)
        return tile__fail(p, TILE_ERR_THREAD_LEVEL, "model", -1, "model '%s' needs MPI thread "
                          "support %s but MPI provides %s; initialise MPI with "
                          "MPI_Init_thread (see hybrid_init)", tile_model_name(p->cfg.model),
                          tile__level_name(need), tile__level_name(provided));
    return TILE_OK;
}

/* Whether N = 1 rows go in bands (run.band, tile__walk_band):
 * TILEHYBRID_BAND on, off, or auto (unset: each thread measures both
 * loops).  A malformed value is refused. */
TILEHYBRID__COLD int tile__band_setup(tile_plan *p)
{
    const char *env = getenv("TILEHYBRID_BAND");
    p->run.band = 0;
    if (env == NULL || strcmp(env, "auto") == 0)
        return TILE_OK;
    if (strcmp(env, "on") == 0 || strcmp(env, "off") == 0) {
        p->run.band = env[1] == 'n' ? 1 : -1;
        return TILE_OK;
    }
    return tile__fail(p, TILE_ERR_RANGE, "TILEHYBRID_BAND", -1, "TILEHYBRID_BAND = '%.40s': "
                      "not auto, on or off", env);
}

/* Whether the plan's waits yield (run.yield): TILEHYBRID_WAIT, else its
 * ranks on this node times its threads against the online processors
 * (12-wait.h).  A malformed TILEHYBRID_WAIT is refused. */
TILEHYBRID__COLD int tile__wait_setup(tile_plan *p)
{
    int mode;
    if (tile__wait_env(&mode) != TILE_OK)
        return tile__fail(p, TILE_ERR_RANGE, "TILEHYBRID_WAIT", -1, "TILEHYBRID_WAIT = "
                          "'%.40s': not auto, spin or yield", getenv("TILEHYBRID_WAIT"));
    p->run.yield = tile__wait_yields(mode, p->run.node_ranks, p->cfg.threads,
                                     tile__online_cpus());
    return tile__band_setup(p);
}

/* Every rank must pass the same configuration: one collective compares
 * every value (and carries the first error of any rank). */
TILEHYBRID__COLD int tile__check_all(tile_plan *p)
{
    static const char *const iname[19] = {
        "n", "zlen", "depz", "tile_height", "elem_size", "model", "threads", "grid_policy",
        "storage", "order", "balance.policy", "balance.adapt_sample", "balance.adapt_period",
        "nstencil", "boundary (set or NULL)", "boundary_row (set or NULL)", "mem_limit",
        "messages", "agree" };
    static const char *const dname[5] = { "balance.bal", "balance.tcomp", "balance.tstartup",
                                          "balance.bandwidth", "balance.adapt_smoothing" };
    const tile_config *c = &p->cfg;
    const bal_config *b = &c->balance;
    const int64_t iv[19] = { c->n, c->zlen, c->depz, c->tile_height, (int64_t)c->elem_size,
                             c->model, c->threads, c->grid_policy, c->storage, c->order,
                             b->policy, b->adapt_sample, b->adapt_period, c->nstencil,
                             c->boundary != NULL, c->boundary_row != NULL, c->mem_limit,
                             c->messages, c->agree };
    const double dv[5] = { b->bal, b->tcomp, b->tstartup, b->bandwidth, b->adapt_smoothing };
    tile__agreed *a;
    int i, j, rc;
    if (p->status.code == TILE_OK)
        tile__validate_space(p, c);
    if (p->status.code == TILE_OK)
        tile__validate_deps(p, c);
    if (p->status.code == TILE_OK)
        tile__validate_run(p, c);
    if (p->status.code == TILE_OK)
        tile__check_level(p);
    if (p->status.code == TILE_OK)
        tile__wait_setup(p);
    a = (tile__agreed *)TILEHYBRID_MALLOC(sizeof *a);
    if (a == NULL) {
        tile__fail(p, TILE_ERR_NOMEM, "", -1, "out of memory while checking the arguments");
        return tile__agree(p, NULL);
    }
    a->count = 0;
    for (i = 0; i < 19; i++)
        tile__agreed_add(a, iname[i], -1, -1, (uint64_t)iv[i], 0);
    for (i = 0; i < 5; i++)
        tile__agreed_add(a, dname[i], -1, -1, tilehybrid_bits(dv[i]), 1);
    for (i = 0; i < TILE_MAX_DIMS; i++) {
        tile__agreed_add(a, "extent", i, -1, (uint64_t)c->extent[i], 0);
        tile__agreed_add(a, "dep", i, -1, (uint64_t)(int64_t)c->dep[i], 0);
        tile__agreed_add(a, "grid", i, -1, (uint64_t)(int64_t)c->grid[i], 0);
        tile__agreed_add(a, "tgrid", i, -1, (uint64_t)(int64_t)c->tgrid[i], 0);
    }
    for (i = 0; i <= TILE_MAX_DIMS; i++)
        tile__agreed_add(a, "dir", i, -1, (uint64_t)(int64_t)c->dir[i], 0);
    for (i = 0; i <= TILE_MAX_DIMS; i++)
        tile__agreed_add(a, "loop_order", i, -1, (uint64_t)(int64_t)(i <= c->n ? c->loop_order[i]
                                                                                : -1), 0);
    /* a fixed count on every rank (one collective); entries out of use as 0 */
    for (i = 0; i < TILE_MAX_STENCIL; i++)
        for (j = 0; j <= TILE_MAX_DIMS; j++)
            tile__agreed_add(a, "stencil", i, j, i < c->nstencil && j <= c->n
                             ? (uint64_t)(int64_t)c->stencil[i][j] : 0, 0);
    rc = tile__agree(p, a);
    TILEHYBRID_FREE(a);
    return rc;
}

/* The loop nest as topology.h sees it: the internal extents, the ghost
 * widths with extended faces, and under TILE_GRID_TIME the pipeline's
 * costs (cfg.balance's where given, else the TILEHYBRID_* environment,
 * else TOPO_DEFAULT_*, the papers' cluster).  Returns a BAL_ERR_ENV_* code
 * when a variable is malformed (the defaults then stand, so that every
 * rank still takes part in the collective that follows). */
TILEHYBRID__COLD int tile__nest(const tile_plan *p, topo_nest *nest)
{
    const tile_config *c = &p->cfg;
    int64_t ext[TILE_MAX_DIMS], dep[TILE_MAX_DIMS];
    bal_model m;
    int i, j, rc = BAL_OK, found = 0;
    for (i = 0; i < c->n; i++) {
        ext[i] = p->deps.size[i];
        dep[i] = p->deps.d[i];
    }
    topo_nest_init(nest, c->n, ext, p->deps.size[c->n], dep, NULL);
    for (i = 0; i < c->n; i++)
        for (j = 0; j < i; j++)
            nest->ext[i][j] = p->deps.ext[i][j];
    /* a height the model will choose (0): the grid is chosen at the
     * demos' 100 (TOPO_DEFAULT_TILE_HEIGHT), then z for that grid */
    nest->tile_height = c->tile_height > 0 ? c->tile_height : TOPO_DEFAULT_TILE_HEIGHT;
    nest->elem_bytes = (double)c->elem_size;
    if (c->grid_policy != TILE_GRID_TIME)
        return BAL_OK;
    m.tcomp = TOPO_DEFAULT_TCOMP;
    m.tstartup = TOPO_DEFAULT_TSTARTUP;
    m.bandwidth = TOPO_DEFAULT_BANDWIDTH;
    m.elem_bytes = nest->elem_bytes;
    rc = bal_model_from_env(&m, &found);
    if (rc == BAL_OK) {
        nest->tcomp = m.tcomp;
        nest->tstartup = m.tstartup;
        nest->bandwidth = m.bandwidth;
    }
    if (c->balance.tcomp > 0)
        nest->tcomp = c->balance.tcomp;
    if (c->balance.tstartup > 0)
        nest->tstartup = c->balance.tstartup;
    if (c->balance.bandwidth > 0)
        nest->bandwidth = c->balance.bandwidth;
    return rc;
}

/* "dimension" or, on a plan that skews, "skewed dimension": the process
 * and thread grids (cfg.grid, cfg.tgrid) divide the skewed space's. */
TILEHYBRID__COLD const char *tile__dim_word(const tile_plan *p)
{
    return p->deps.skewed ? "skewed dimension" : "dimension";
}

/* Is dependence i wider than the smallest block of P_i processes (a face
 * would need data from beyond the neighbour)?  Fails the plan if so. */
TILEHYBRID__COLD int tile__too_wide(tile_plan *p, int i, int procs)
{
    if (procs <= 1 || p->deps.d[i] <= p->deps.size[i] / procs)
        return 0;
    tile__fail(p, TILE_ERR_DEP_TOO_WIDE, "dep", i, "dependence d_%d = %d is wider than the "
               "smallest block (%lld points) along %s %d", i + 1, p->deps.d[i],
               (long long)(p->deps.size[i] / procs), tile__dim_word(p), i + 1);
    return 1;
}

/* topology.h found no grid: rc TOPO_ERR_INFEASIBLE, or TOPO_ERR_FIXED for
 * an entry of cfg.grid.  TILE_ERR_TOO_MANY when no grid has P_i <= X_i, or
 * the policy's grid (the balanced one) has more processes than points
 * along a dimension; else TILE_ERR_DEP_TOO_WIDE (a block would be
 * narrower than the d_i layers its neighbour reads).  The message says why
 * in topology.h's words (topo_nest_explain(): the rule a block would
 * break, the dimensions, the numbers), the status index the dimension
 * where one decides. */
TILEHYBRID__COLD int tile__no_grid(tile_plan *p, const topo_nest *nest, int rc)
{
    static const topo_policy policy[3] = { TOPO_POLICY_COMM, TOPO_POLICY_LATENCY,
                                           TOPO_POLICY_TIME };
    topo_nest flat = *nest;
    tilehybrid_status st;
    int dims[TILE_MAX_DIMS], i, at = 0, many;
    char ext[TILE_MAX_DIMS * 24], dep[TILE_MAX_DIMS * 12], why[TOPO_EXPLAIN_SIZE];
    memset(flat.dep, 0, sizeof flat.dep);
    memset(flat.ext, 0, sizeof flat.ext);
    for (i = 0; i < p->cfg.n; i++)
        dims[i] = p->cfg.grid[i];
    if (topo_nest_grid(&flat, p->size, TOPO_POLICY_COMM, dims, NULL) != TOPO_OK)
        return tile__fail(p, TILE_ERR_TOO_MANY, "grid", -1, "no process grid for %d processes "
                          "on the extents %s (%s): %s", p->size,
                          tile__sizes_text(ext, sizeof ext, p->deps.size, p->cfg.n),
                          p->deps.skewed ? "the skewed space's distributed dimensions, which "
                          "cfg.grid's entries divide" : "cfg.extent; the demos' --space",
                          topo_strerror(rc));
    /* a grid with P_i <= X_i exists: the width rule refused it, or the
     * balanced grid has too many processes along a dimension */
    topo_nest_explain(nest, p->size, policy[p->cfg.grid_policy], p->cfg.grid, why, sizeof why,
                      &st);
    for (i = 0; i < p->cfg.n; i++)
        at += snprintf(dep + at, sizeof dep - (size_t)at, "%s%d", i > 0 ? "," : "",
                       p->deps.d[i]);
    many = strcmp(st.arg, "extent") == 0;
    return tile__fail(p, many ? TILE_ERR_TOO_MANY : TILE_ERR_DEP_TOO_WIDE, many ? "grid" : "dep",
                      st.index, "no %sprocess grid for %d processes on the extents %s with "
                      "widths %s (%s): %s",
                      p->cfg.grid_policy == TILE_GRID_LATENCY ? "balanced " : "", p->size,
                      tile__sizes_text(ext, sizeof ext, p->deps.size, p->cfg.n), dep,
                      p->deps.skewed ? "the skewed space's distributed dimensions, which "
                      "cfg.grid's entries divide" : "cfg.extent; the demos' --space", why);
}

/* The time policy's search found grids, but the predicted time of every
 * one overflows a double: name the cost (topology.h's status arg) and its
 * value, where it comes from, and which way to move it. */
TILEHYBRID__COLD int tile__cost_overflow(tile_plan *p, const topo_nest *nest, const char *arg,
                                         const char *what)
{
    int bw = strcmp(arg, "bandwidth") == 0, eb = strcmp(arg, "elem_bytes") == 0;
    double v = bw ? nest->bandwidth : eb ? nest->elem_bytes
               : strcmp(arg, "tstartup") == 0 ? nest->tstartup : nest->tcomp;
    return tile__fail(p, TILE_ERR_BALANCE, eb ? "elem_size" : "balance", -1, "the "
                      "%s's cost model overflows: with %s = %g (%s%s; the demos' --%s) "
                      "the predicted time of %s passes the largest double (%g s); %s it",
                      what, arg, v, eb ? "cfg.elem_size" : "cfg.balance.", eb ? "" : arg,
                      eb ? "elem-bytes" : arg, strcmp(what, "time policy") == 0 ? "every grid"
                      : "the run", DBL_MAX, bw ? "raise" : "lower");
}

/* A grid the user fixed (cfg.grid, every entry > 0): it must have as many
 * processes as the communicator, at most one per point and blocks at least
 * as wide as the dependences.  TILE_OK where no entry is fixed. */
TILEHYBRID__COLD int tile__grid_fixed(tile_plan *p)
{
    const tile_config *c = &p->cfg;
    int n = c->n, i, fixed = 1;
    int64_t prod = 1;
    for (i = 0; i < n; i++) {
        fixed &= c->grid[i] > 0;
        /* saturated at -1 (more than 2^63 - 1) */
        if (prod < 0 || c->grid[i] < 1 || !tilehybrid_mul_ok(prod, c->grid[i], &prod))
            prod = -1;
    }
    if (!fixed)
        return TILE_OK;
    if (prod != p->size) {
        char text[TILE_MAX_DIMS * 12], num[24];
        int at = 0;
        for (i = 0; i < n && at < (int)sizeof text - 12; i++)
            at += snprintf(text + at, sizeof text - (size_t)at, "%s%d", i ? "x" : "",
                           c->grid[i]);
        if (prod < 0)
            snprintf(num, sizeof num, "more than 2^63");
        else
            snprintf(num, sizeof num, "%lld", (long long)prod);
        return tile__fail(p, TILE_ERR_GRID, "grid", -1, "the grid %s (cfg.grid; the demos' "
                          "--grid) has %s processes but the communicator has %d", text, num,
                          p->size);
    }
    for (i = 0; i < n; i++)
        if (c->grid[i] > p->deps.size[i])
            return tile__fail(p, TILE_ERR_TOO_MANY, "grid", i, "%d processes along %s %d "
                              "but only %lld points", c->grid[i], tile__dim_word(p), i + 1,
                              (long long)p->deps.size[i]);
    for (i = 0; i < n; i++)
        if (tile__too_wide(p, i, c->grid[i]))
            return TILE_ERR_DEP_TOO_WIDE;
    return TILE_OK;
}

/* topology.h's refusal rc of the grid (st: its status; env: the time
 * policy's cost model as read from the environment) as the plan's error. */
TILEHYBRID__COLD int tile__grid_refused(tile_plan *p, const topo_nest *nest, int rc, int env,
                                        const tilehybrid_status *st)
{
    int n = p->cfg.n;
    if (rc == TOPO_ERR_OVERFLOW) {
        char all[(TILE_MAX_DIMS + 1) * 24], prod_text[24];
        return tile__fail(p, TILE_ERR_OVERFLOW, "extent", -1, "no process grid for %d "
                          "processes: the communication volume of the space %s (the "
                          "extents X_1 x ... x X_N x Z; product %s points) does not fit "
                          "in 64 bits", p->size, tile__sizes_text(all, sizeof all,
                                                                  p->deps.size, n + 1),
                          tile__product_text(prod_text, sizeof prod_text, p->deps.size, n + 1));
    }
    if (rc == TOPO_ERR_INFEASIBLE || rc == TOPO_ERR_FIXED)
        return tile__no_grid(p, nest, rc);
    if (rc == TOPO_ERR_COST && env == BAL_OK)
        return tile__cost_overflow(p, nest, st->arg, "time policy");
    if (rc == TOPO_ERR_MISMATCH)
        return tile__fail(p, TILE_ERR_MISMATCH, "grid", -1, "the process grid's %s%s differs "
                          "between ranks (its cost model under TILE_GRID_TIME: cfg.balance "
                          "or the TILEHYBRID_* environment)", st->arg,
                          st->index >= 0 ? "[]" : "");
    if (rc == TOPO_ERR_MPI) {
        tile__mpi_failed(p, -1, st->mpi_error, st->arg, "in topology.h's "
                         "topo_nest_cart_create(), making the plan's process grid");
        return p->status.code;
    }
    return tile__fail(p, TILE_ERR_GRID, "grid", -1, "no process grid for %d processes: "
                      "%s%s%s", p->size, topo_strerror(rc),
                      st->arg[0] != '\0' ? " -- " : "", st->arg);
}

/* On the plan's grid communicator: this rank, its coordinates, its
 * neighbours (none along a dimension without dependence) and its block. */
TILEHYBRID__COLD int tile__grid_place(tile_plan *p)
{
    int n = p->cfg.n, i;
    if (MPI_Comm_set_errhandler(p->comm, MPI_ERRORS_RETURN) != MPI_SUCCESS)
        return tile__fail(p, TILE_ERR_MPI, "", -1, "rank %d: MPI_Comm_set_errhandler failed on "
                          "the plan's grid communicator", p->rank);
    if (MPI_Comm_rank(p->comm, &p->rank) != MPI_SUCCESS)
        return tile__fail(p, TILE_ERR_MPI, "", -1, "rank %d: MPI_Comm_rank failed on the "
                          "plan's grid communicator", p->rank);
    if (MPI_Cart_coords(p->comm, p->rank, n, p->pcoords) != MPI_SUCCESS)
        return tile__fail(p, TILE_ERR_MPI, "", -1, "rank %d: MPI_Cart_coords failed on the "
                          "plan's grid communicator", p->rank);
    for (i = 0; i < n; i++) {
        if (MPI_Cart_shift(p->comm, i, 1, &p->nbr_lo[i], &p->nbr_hi[i]) != MPI_SUCCESS)
            return tile__fail(p, TILE_ERR_MPI, "", -1, "rank %d: MPI_Cart_shift failed in "
                              "dimension %d", p->rank, i + 1);
        if (tile__mirrored(p, i)) {   /* the pipeline starts at the grid's far end */
            int t = p->nbr_lo[i];
            p->nbr_lo[i] = p->nbr_hi[i];
            p->nbr_hi[i] = t;
        }
        if (p->deps.d[i] == 0)
            p->nbr_lo[i] = p->nbr_hi[i] = MPI_PROC_NULL;
    }
    tile__cart_to_internal(p, p->pcoords);
    for (i = 0; i < n; i++)
        tile__internal_block(p, i, p->pcoords[i], &p->lo[i], &p->len[i]);
    return TILE_OK;
}

/* The process grid (topology.h, by cfg.grid_policy), the Cartesian
 * communicator, the block. */
TILEHYBRID__COLD int tile__grid(tile_plan *p)
{
    static const topo_policy policy[3] = { TOPO_POLICY_COMM, TOPO_POLICY_LATENCY,
                                           TOPO_POLICY_TIME };
    const tile_config *c = &p->cfg;
    int rc, env;
    MPI_Comm cart = MPI_COMM_NULL;
    tilehybrid_status st;
    topo_nest nest;
    tile_mpi_failure_fn hook;
    void *hook_ctx;
    if ((rc = tile__grid_fixed(p)) != TILE_OK)
        return rc;
    env = tile__nest(p, &nest);
    hook = c->on_mpi_failure;   /* topology.h's own MPI failures: the plan's policy */
    hook_ctx = c->on_mpi_failure_ctx;
    tilehybrid_mpi_failure_swap(&hook, &hook_ctx);
    rc = topo_nest_cart_create(p->comm, &nest, policy[c->grid_policy], c->grid, 0, &cart,
                               p->pdims, &st);
    tilehybrid_mpi_failure_swap(&hook, &hook_ctx);
    if (rc != TOPO_OK)
        return tile__grid_refused(p, &nest, rc, env, &st);
    (void)MPI_Comm_free(&p->comm);
    p->comm = cart;
    if (env != BAL_OK)  /* (after the collective, which ran with the defaults) */
        return tile__fail(p, TILE_ERR_BALANCE, "grid_policy", -1, "the time policy's cost "
                          "model: %s", bal_strerror(env));
    return tile__grid_place(p);
}

/* The thread grid: given, one thread, funneled (every thread along the
 * longest block dimension, so that the master alone gets bal/T), or the
 * communication-optimal grid inside the block (topology.h). */
TILEHYBRID__COLD int tile__thread_grid(tile_plan *p)
{
    const tile_config *c = &p->cfg;
    int n = c->n, T = c->threads, i, rc, given = 0, best = 0;
    int64_t prod = 1, small[TILE_MAX_DIMS] = {0}, ext[TILE_MAX_DIMS] = {0}, dep[TILE_MAX_DIMS] = {0};
    int *td = p->threads.dims, pd[TILE_MAX_DIMS];
    char txt[TILE_MAX_DIMS * 24];
    for (i = 0; i < n; i++) {
        given |= c->tgrid[i] != 0;
        small[i] = p->deps.size[i] / p->pdims[i];          /* the smallest block */
        best = small[i] > small[best] ? i : best;
        td[i] = given ? c->tgrid[i] : T == 1 ? 1 : 0;
        ext[i] = p->deps.size[i];
        dep[i] = p->deps.d[i];
        pd[i] = p->pdims[i];
    }
    if (given) {
        for (i = 0; i < n; i++) {
            if (c->tgrid[i] < 1)
                return tile__fail(p, TILE_ERR_THREADS, "tgrid", i, "thread grid entry %d is 0: "
                                  "give all entries or none", i + 1);
            prod *= c->tgrid[i] <= T ? c->tgrid[i] : (int64_t)T + 1;
            prod = prod > T ? (int64_t)T + 1 : prod;
        }
        if (prod != T)
            return tile__fail(p, TILE_ERR_THREADS, "tgrid", -1, "the thread grid has %s%lld "
                              "threads, threads = %d", prod > T ? "more than " : "",
                              (long long)(prod > T ? T : prod), T);
    } else if (T > 1 && c->model == TILE_MODEL_FUNNELED && small[best] >= T) {
        for (i = 0; i < n; i++)
            td[i] = i == best ? T : 1;
    } else if (T > 1) {
        rc = topo_hybrid_grid(n, p->size, T, ext, dep, TOPO_POLICY_COMM, pd, td);
        if (rc != TOPO_OK)
            return tile__fail(p, TILE_ERR_TOO_MANY, "threads", -1, "no thread grid of %d "
                              "threads fits the local block of %s points%s: %s", T,
                              tile__sizes_text(txt, sizeof txt, small, n),
                              p->deps.skewed ? " (in the skewed space)" : "", topo_strerror(rc));
    }
    for (i = 0; i < n; i++)
        if (td[i] > small[i])
            return tile__fail(p, TILE_ERR_TOO_MANY, "threads", i, "%d threads along %s %d "
                              "but a block has only %lld points", td[i], tile__dim_word(p), i + 1,
                              (long long)small[i]);
    return TILE_OK;
}

/* The memory limit of one rank, in bytes (INT64_MAX: none), and in *why
 * where it comes from. */
TILEHYBRID__COLD int tile__mem_limit(tile_plan *p, int64_t *limit, const char **why)
{
    const char *env = getenv("TILEHYBRID_MEM_LIMIT");
    *limit = INT64_MAX;
    *why = "no limit";
    if (p->cfg.mem_limit > 0) {
        *limit = p->cfg.mem_limit;
        *why = "cfg.mem_limit";
    } else if (p->cfg.mem_limit == 0 && env != NULL) {
        int prc = tilehybrid_parse_i64(env, 1, INT64_MAX, limit);
        if (prc == TILEHYBRID_ERR_RANGE && env[0] != '-' && env[0] != '0')
            return tile__fail(p, TILE_ERR_RANGE, "mem_limit", -1, "TILEHYBRID_MEM_LIMIT = "
                              "'%.40s': out of range (1 to %lld bytes)", env,
                              (long long)INT64_MAX);
        if (prc != TILEHYBRID_OK)
            return tile__fail(p, TILE_ERR_RANGE, "mem_limit", -1, "TILEHYBRID_MEM_LIMIT = "
                              "'%.40s': not a whole number of bytes >= 1", env);
        *why = "TILEHYBRID_MEM_LIMIT";
    } else if (p->cfg.mem_limit == 0) {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
        long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
        int64_t phys = 0;
        if (pages > 0 && psize > 0 && tilehybrid_mul_ok(pages, psize, &phys)) {
            /* the ranks on this node share it */
            *limit = phys / 2 / (p->run.node_ranks > 1 ? p->run.node_ranks : 1);
            *why = "half the physical memory";
        }
#endif
    }
    return TILE_OK;
}

/* What may bring a plan under its memory limit (of origin why). */
TILEHYBRID__COLD const char *tile__memory_advice(const tile_plan *p, const char *why)
{
    /* the default limit is the node's: more ranks on it share the same
     * memory; a tile height of 1 (or Z = 1) cannot be lowered */
    int node = strcmp(why, "half the physical memory") == 0;
    int low = (p->cfg.tile_height < p->deps.size[p->cfg.n] ? p->cfg.tile_height
                                                           : p->deps.size[p->cfg.n]) > 1;
    if (p->cfg.storage == TILE_STORE_FULL)
        return node ? "TILE_STORE_FULL keeps every plane: use the window, a shorter Z or more "
                      "nodes" : "TILE_STORE_FULL keeps every plane: use the window "
                      "(TILE_STORE_WINDOW), a shorter Z or more processes";
    if (low)
        return node ? "lower the tile height or use more nodes"
                    : "lower the tile height or use more processes";
    return node ? "use more nodes" : "use more processes";
}

/* Refuse a plan whose storage (ring bytes, then the message buffers and
 * tables: rest) would pass the memory limit: the message names the Z
 * window and the limit. */
TILEHYBRID__COLD int tile__check_memory(tile_plan *p, int64_t ring_bytes, int64_t rest)
{
    const tile_store *s = &p->store;
    const char *why = "";
    char need[24], lim[192];
    int64_t limit = 0, total = 0;
    int full = p->cfg.storage == TILE_STORE_FULL;
    if (tile__mem_limit(p, &limit, &why) != TILE_OK)
        return p->status.code;
    if (!tilehybrid_add_ok(ring_bytes, rest, &total))
        total = INT64_MAX;
    if (total <= limit && total < INT64_MAX)
        return TILE_OK;
    if (limit == INT64_MAX)
        snprintf(lim, sizeof lim, "this machine's addresses");
    else if (strcmp(why, "half the physical memory") == 0 && p->run.node_ranks > 1)
        snprintf(lim, sizeof lim, "its memory limit of %lld bytes (half the physical memory, "
                 "shared by the %d ranks on this node: cfg.mem_limit, TILEHYBRID_MEM_LIMIT)",
                 (long long)limit, p->run.node_ranks);
    else
        snprintf(lim, sizeof lim, "its memory limit of %lld bytes (%s%s)", (long long)limit, why,
                 strcmp(why, "half the physical memory") == 0
                     ? ": cfg.mem_limit, TILEHYBRID_MEM_LIMIT" : "");
    return tile__fail(p, TILE_ERR_NOMEM, full ? "storage" : "tile_height", -1,
                      "the plan needs %s bytes on this rank (a Z window of %lld planes of "
                      "%lld points of %llu bytes), above %s; %s",
                      tile__bytes_text(need, sizeof need, total),
                      (long long)(s->ring_planes + p->deps.dz), (long long)s->plane_elems,
                      (unsigned long long)p->cfg.elem_size, lim, tile__memory_advice(p, why));
}

/* The bytes of a face message along dimension i at tile height h in *b;
 * 0 past 2^63 (private). */
TILEHYBRID__COLD int tile__face_bytes(const tile_plan *p, int i, int64_t h, int64_t *b)
{
    int j, ok;
    /* elem_size < 2^30 and d_i >= 0 are checked: their product fits */
    ok = tilehybrid_mul_ok((int64_t)p->cfg.elem_size * p->deps.d[i], h, b);
    for (j = 0; j < p->cfg.n && ok; j++)
        if (j != i)
            ok = tilehybrid_mul_ok(*b, p->len[j] + (j < i ? p->deps.ext[i][j] : 0), b);
    return ok;
}

/* The face buffers along dimension i: one per neighbour (private). */
TILEHYBRID__COLD int64_t tile__face_buffers(const tile_plan *p, int i)
{
    return (p->nbr_lo[i] != MPI_PROC_NULL) + (p->nbr_hi[i] != MPI_PROC_NULL);
}

/* The face message along dimension i and its buffers: face_bytes[i],
 * checked (the message goes in blocks of TILE_MSG_MAX bytes: at most
 * INT_MAX blocks); *bufs += the buffers' bytes. */
TILEHYBRID__COLD int tile__face_size(tile_plan *p, int i, int64_t h, int64_t *bufs)
{
    int64_t b = 0, nbuf = tile__face_buffers(p, i);
    int ok = tile__face_bytes(p, i, h, &b);
    p->store.face_bytes[i] = ok ? b : INT64_MAX;
    if (nbuf == 0)
        return TILE_OK;
    if (!ok || b / TILE_MSG_MAX > INT_MAX || !tilehybrid_add_ok(b, 1, &b) ||
        !tilehybrid_mul_ok(b, nbuf, &b) || !tilehybrid_add_ok(*bufs, b, bufs))
        return tile__fail(p, TILE_ERR_OVERFLOW, "tile_height", i, "a message along dimension %d "
                          "would be more than %lld bytes (INT_MAX blocks of TILE_MSG_MAX = %lld "
                          "bytes); lower the tile height", i + 1,
                          (long long)INT_MAX * TILE_MSG_MAX, (long long)TILE_MSG_MAX);
    return TILE_OK;
}

/**
 * tile_plane_layout() - how a plan stores one plane of its block: the
 * in-tile order it runs, and the plane's layout with its ghost layers and
 * padding (the size the Z window and the tile height's cache bound count).
 * @n:         N, 1..TILE_MAX_DIMS.
 * @size:      the extents X_1..X_N of the space the plan tiles
 *             (plan.deps.size: on a plan that skews, the skewed extents).
 * @pdims:     the processes along each dimension (plan.pdims), >= 1.
 * @tdims:     the threads along each dimension (plan.threads.dims), >= 1.
 * @len:       the block's extents (plan.len: this rank's), >= 1.
 * @dep:       the ghost widths d_i (plan.deps.d), >= 0.
 * @elem_size: bytes per point (cfg.elem_size), >= 1.
 * @order:     enum tile_order (cfg.order; TILE_ORDER_AUTO: the plan's
 *             choice, as in tile_config's documentation).
 * @s:         receives order, wave, stride, diag, origin and plane_elems
 *             (what struct tile_store says of them) on success; its other
 *             fields, and all of it on an error, untouched.
 * Pure: a plan's creation calls it with its own values, and tilectl plan
 * with the largest block's.  The layout: row-major (the last dimension
 * contiguous), or, in the hyperplane order, diagonal-major in the two
 * dimensions a = wave[0], b = wave[1] (L_i = len_i + d_i points along i,
 * ghosts shifted to 0): point (x_a, x_b) of a slice at (x_a + x_b) R + x_a
 * + o, so a diagonal x_a + x_b = w is contiguous and every offset a
 * constant stride (R + 1 along a, R along b); the other dimensions
 * row-major around the slices.  o (s->origin) puts x_a = d_a, where the
 * points of most diagonals start, at the start of a 64-byte line (the
 * planes start at lines): the SIMD loop's stores and its reads of plane
 * z - 1 and of x_b - 1 are then aligned (ADI 64x256x16384, one process,
 * -march=native (AVX-512): 1.11x faster); o is 0 where the element size
 * does not divide 64 (no whole lines), and where the shift would make R
 * more than 9/8 of what it is without it (narrow diagonals: a block 17
 * points wide would take R = 40 for 24).  R is L_a + o rounded up
 * to whole lines, one line more when that is a multiple of 256 bytes, and
 * each slice has three lines more than its diagonals: strides away from
 * powers of two, which would put the diagonals a point reads in the same
 * cache sets.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_RANGE (an argument out of its
 * range) or TILE_ERR_OVERFLOW (a plane of more than 2^63 points).
 */
TILEHYBRID__COLD int tile_plane_layout(int n, const int64_t *size, const int *pdims,
                                       const int *tdims, const int64_t *len, const int *dep,
                                       size_t elem_size, int order, tile_store *s)
{
    int i, a, b;
    int64_t L[TILE_MAX_DIMS], esz = (int64_t)elem_size, line, pe = 1, o = 0;
    tile_store t;
    if (size == NULL || pdims == NULL || tdims == NULL || len == NULL || dep == NULL ||
        s == NULL)
        return TILE_ERR_NULL;
    if (n < 1 || n > TILE_MAX_DIMS || elem_size < 1 || elem_size > ((size_t)1 << 30) ||
        order < TILE_ORDER_PLANES || order > TILE_ORDER_AUTO)
        return TILE_ERR_RANGE;
    for (i = 0; i < n; i++) {
        if (size[i] < 1 || pdims[i] < 1 || tdims[i] < 1 || len[i] < 1 || dep[i] < 0)
            return TILE_ERR_RANGE;
        if (!tilehybrid_add_ok(len[i], dep[i], &L[i]))
            return TILE_ERR_OVERFLOW;
    }
    memset(&t, 0, sizeof t);
    tile__order_choose(n, size, pdims, tdims, L, order, &t);
    line = esz <= 64 && 64 % esz == 0 ? 64 / esz : 1;
    a = t.wave[0];
    b = t.wave[1];
    if (tile__order_layout(L, dep, line, esz, &t, &pe, &o) != TILE_OK)
        return TILE_ERR_OVERFLOW;
    for (i = n - 1; i >= 0; i--) {
        if (i == a || i == b)
            continue;
        t.stride[i] = pe;
        if (!tilehybrid_mul_ok(pe, L[i], &pe))
            return TILE_ERR_OVERFLOW;
    }
    s->order = t.order;
    s->wave[0] = t.wave[0];
    s->wave[1] = t.wave[1];
    s->diag = t.diag;
    s->origin = o;
    s->plane_elems = pe;
    memcpy(s->stride, t.stride, sizeof s->stride);
    return TILE_OK;
}

/* The plan's order and plane layout (tile_plane_layout() with its own
 * values): store.order, wave, stride, diag, plane_elems. */
TILEHYBRID__COLD int tile__layout(tile_plan *p)
{
    char txt[TILE_MAX_DIMS * 24];
    if (tile_plane_layout(p->cfg.n, p->deps.size, p->pdims, p->threads.dims, p->len, p->deps.d,
                          p->cfg.elem_size, p->cfg.order, &p->store) != TILE_OK)
        return tile__fail(p, TILE_ERR_OVERFLOW, "extent", -1, "a plane of the local block "
                          "(%s points, and its ghost layers) has more than 2^63 points",
                          tile__sizes_text(txt, sizeof txt, p->len, p->cfg.n));
    return TILE_OK;
}

/* The planes of the Z window at tile height h (1 <= h <= Z), without the
 * d_Z mirror planes: the tiles in flight across the thread skew, the d_Z
 * planes they read below, one tile of slack (the master unpacks while
 * threads compute), rounded to whole tiles; full storage: every tile
 * (private). */
TILEHYBRID__COLD int64_t tile__window_planes(const tile_plan *p, int64_t h)
{
    int64_t ntiles = (p->deps.size[p->cfg.n] + h - 1) / h;
    int64_t m = p->threads.skew + 2 + (p->deps.dz + h - 1) / h;
    return p->cfg.storage == TILE_STORE_WINDOW && m < ntiles ? m * h : ntiles * h;
}

/* The bytes of the per-thread tables, and the alignment of the Z window
 * (tile__storage), that the memory limit counts besides the window and
 * the face buffers (private). */
TILEHYBRID__COLD int64_t tile__table_bytes(const tile_plan *p)
{
    return (int64_t)(sizeof(tile_stats) + sizeof(tile__slot)) * p->cfg.threads + 64;
}

/* Would the storage of tile height h fit this rank's memory limit: the
 * Z window and the face buffers as tile__sizes counts them (after
 * tile__layout)?  1 or 0 (0 past 2^63 bytes); no failure recorded. */
TILEHYBRID__COLD int tile__height_fits(tile_plan *p, int64_t h)
{
    const char *why = "";
    int64_t Z = p->deps.size[p->cfg.n], limit = 0, planes = 0, bytes = 0, b = 0;
    int i, ok;
    h = h < Z ? h : Z;
    if (h < 1 || tile__mem_limit(p, &limit, &why) != TILE_OK)
        return 0;
    ok = tilehybrid_add_ok(tile__window_planes(p, h), p->deps.dz, &planes) &&
         tilehybrid_mul_ok(p->store.plane_elems, (int64_t)p->cfg.elem_size, &bytes) &&
         tilehybrid_mul_ok(bytes, planes, &bytes) &&
         tilehybrid_add_ok(bytes, tile__table_bytes(p), &bytes);
    for (i = 0; i < p->cfg.n && ok; i++)    /* the face buffers, as tile__face_size */
        ok = tile__face_bytes(p, i, h, &b) && tilehybrid_add_ok(b, 1, &b) &&
             tilehybrid_mul_ok(b, tile__face_buffers(p, i), &b) &&
             tilehybrid_add_ok(bytes, b, &bytes);
    return ok && bytes <= limit;
}

/* The sizes of the storage, every one checked before anything is
 * allocated: the plane, the Z window, a face message per dimension, and
 * their sum against the memory limit. */
TILEHYBRID__COLD int tile__sizes(tile_plan *p, int64_t *ring_bytes)
{
    const tile_config *c = &p->cfg;
    tile_store *s = &p->store;
    int n = c->n, i;
    int64_t h = c->tile_height < p->deps.size[c->n] ? c->tile_height : p->deps.size[c->n]; /* no overflow */
    int64_t planes = 0, pbytes = 0, rest = tile__table_bytes(p);
    char txt[TILE_MAX_DIMS * 24];
    p->ntiles = (p->deps.size[c->n] + h - 1) / h;
    s->ring_planes = tile__window_planes(p, h);   /* <= zlen + h: fits */
    if (tile__layout(p) != TILE_OK)
        return p->status.code;
    s->mirror = p->deps.dz > 1 || (p->deps.dz == 1 && tile__order_traits_of(s->order).mirror);
    if (!tilehybrid_mul_ok(s->plane_elems, (int64_t)c->elem_size, &pbytes))
        return tile__fail(p, TILE_ERR_OVERFLOW, "extent", -1, "a plane of the local block (%s "
                          "points, and its ghost layers) is %lld points of %llu bytes: more "
                          "than 2^63 bytes", tile__sizes_text(txt, sizeof txt, p->len, n),
                          (long long)s->plane_elems, (unsigned long long)c->elem_size);
    if (!tilehybrid_add_ok(s->ring_planes, p->deps.dz, &planes) ||
        !tilehybrid_mul_ok(pbytes, planes, ring_bytes) ||
        (uint64_t)*ring_bytes > (uint64_t)SIZE_MAX - 64)     /* (tile__storage aligns it) */
        *ring_bytes = INT64_MAX;    /* above any limit: tile__check_memory names it */
    s->plane_bytes = (size_t)pbytes;
    for (i = 0; i < n; i++)
        if (tile__face_size(p, i, h, &rest) != TILE_OK)
            return p->status.code;
    return tile__check_memory(p, *ring_bytes, rest);
}

/* The shape of the thread grid: the balanced dimension, the skew S (no
 * allocation: the sizes depend on S). */
TILEHYBRID__COLD void tile__thread_shape(tile_plan *p)
{
    tile_threads *th = &p->threads;
    int i;
    th->bal_dim = -1;
    th->skew = 0;
    for (i = 0; i < p->cfg.n; i++) {
        if (th->dims[i] > 1 && (th->bal_dim < 0 || th->dims[i] > th->dims[th->bal_dim]))
            th->bal_dim = i;
        th->skew += th->dims[i] - 1;
    }
}

/* The thread tables: even split, coordinates, delays, the schedule ring,
 * requests, statistics. */
TILEHYBRID__COLD int tile__thread_tables(tile_plan *p)
{
    tile_threads *th = &p->threads;
    int n = p->cfg.n, T = p->cfg.threads, i, t, w, ta;
    for (i = 0; i < n; i++) {
        int u;
        int64_t first = 0, count = 0;
        th->split[i] = (int64_t *)tile__alloc(p, sizeof(int64_t) * (size_t)(th->dims[i] + 1),
                                              "the thread grid");
        if (th->split[i] == NULL)
            return p->status.code;
        for (u = 0; u < th->dims[i]; u++) {
            bal_split_part(p->len[i], th->dims[i], 1.0, u, &first, &count);
            th->split[i][u + 1] = first + count;
        }
    }
    ta = th->bal_dim < 0 ? 1 : th->dims[th->bal_dim];
    p->run.sched_w = (int)(2 * th->skew + 8);
    th->coord = (int *)tile__alloc(p, sizeof(int) * (size_t)T * (size_t)n, "thread tables");
    th->delay = (int *)tile__alloc(p, sizeof(int) * (size_t)T, "thread tables");
    p->run.nreq = (int *)tile__alloc(p, sizeof(int) * 2 * (size_t)T, "thread tables");
    p->run.req = (MPI_Request *)tile__alloc(p, sizeof(MPI_Request) * (size_t)T * 2 * (size_t)n,
                                            "thread tables");
    p->run.preq = (MPI_Request *)tile__alloc(p, sizeof(MPI_Request) * (size_t)T * 4 * (size_t)n,
                                             "thread tables");
    p->run.stats = (tile_stats *)tile__alloc(p, sizeof(tile_stats) * (size_t)T, "thread tables");
    p->run.slot = (tile__slot *)tile__alloc(p, sizeof(tile__slot) * (size_t)T, "thread tables");
    p->run.seg = (int64_t *)tile__alloc(p, sizeof(int64_t) * (size_t)T * (size_t)n,
                                        "thread tables");
    p->run.next_tile = (int64_t *)tile__alloc(p, sizeof(int64_t) * (size_t)T * 8,
                                              "thread tables");
    p->run.sigma = (int64_t *)tile__alloc(p, sizeof(int64_t) * (size_t)p->run.sched_w,
                                          "the schedule");
    p->run.bounds = (int64_t *)tile__alloc(p, sizeof(int64_t) * (size_t)p->run.sched_w *
                                                  (size_t)(ta + 1), "the schedule");
    for (w = 0; p->run.preq != NULL && w < T * 4 * n; w++)
        p->run.preq[w] = MPI_REQUEST_NULL;      /* (not all bits 0 in every MPI) */
    if (p->status.code != TILE_OK)
        return p->status.code;
    for (w = 0; w < p->run.sched_w && th->bal_dim >= 0; w++)
        memcpy(p->run.bounds + (size_t)w * (size_t)(ta + 1), th->split[th->bal_dim],
               sizeof(int64_t) * (size_t)(ta + 1));
    for (t = 0; t < T; t++) {
        int r = t;
        for (i = n - 1; i >= 0; i--) {
            th->coord[t * n + i] = r % th->dims[i];
            r /= th->dims[i];
            th->delay[t] += th->coord[t * n + i];
        }
    }
    return TILE_OK;
}

/* The Z window (every page touched now: otherwise the thread that runs
 * ahead in the hyperplane schedule takes all the page faults inside the
 * timed run; through a volatile pointer, because compilers turn malloc +
 * memset(0) into calloc, whose zero pages are faulted in only when first
 * written) and the message buffers. */
TILEHYBRID__COLD int tile__storage(tile_plan *p, int64_t ring_bytes)
{
    tile_store *s = &p->store;
    int i;
    s->ring_mem = (unsigned char *)TILEHYBRID_MALLOC((size_t)ring_bytes + 64);
    s->ring = s->ring_mem == NULL ? NULL
              : s->ring_mem + (64 - (uintptr_t)s->ring_mem % 64) % 64;   /* (a line) */
    if (s->ring == NULL)
        return tile__fail(p, TILE_ERR_NOMEM, p->cfg.storage == TILE_STORE_FULL ? "storage"
                          : "tile_height", -1, "out of memory for the Z window (%lld planes, "
                          "%lld bytes); %s", (long long)(s->ring_planes + p->deps.dz),
                          (long long)ring_bytes, tile__memory_advice(p, ""));
    tile__memset_v(s->ring, 0, (size_t)ring_bytes);
    tile__fence_make(p, ring_bytes);
    for (i = 0; i < p->cfg.n; i++) {
        size_t b = (size_t)s->face_bytes[i] + 1;
        if (p->nbr_hi[i] != MPI_PROC_NULL &&
            (s->sbuf[i] = (unsigned char *)tile__alloc(p, b, "message buffers")) == NULL)
            return p->status.code;
        if (p->nbr_lo[i] != MPI_PROC_NULL &&
            (s->rbuf[i] = (unsigned char *)tile__alloc(p, b, "message buffers")) == NULL)
            return p->status.code;
    }
    return TILE_OK;
}

/* The cache of one rank's cores (tile_height_window_bytes(): the
 * per-core cache times the threads, with more than one thread at least a
 * quarter of their last-level share); a malformed TILEHYBRID_CACHE_BYTES
 * fails the plan.  The Z-inner order (forced: the plan never chooses it)
 * is bounded by the last-level cache instead (tile_height_llc_bytes(),
 * unless TILEHYBRID_CACHE_BYTES is set): its runs are columns of z
 * points, which the level-2 bound would cut to a point or two (ADI
 * 64x256x16384, one process: 0.044 G points/s at z = 1 against 0.12 at the
 * last-level bound). */
TILEHYBRID__COLD int tile__cache_bytes(tile_plan *p, int64_t *bytes)
{
    if (tile_height_cache_bytes(bytes) != TILE_OK)
        return tile__fail(p, TILE_ERR_RANGE, "TILEHYBRID_CACHE_BYTES", -1,
                          "TILEHYBRID_CACHE_BYTES = '%.40s': not a whole number of bytes "
                          ">= 1", getenv("TILEHYBRID_CACHE_BYTES"));
    (void)tile_height_llc_bytes(&p->height.llc_bytes);
    if (tile__order_traits_of(p->cfg.order).llc && getenv("TILEHYBRID_CACHE_BYTES") == NULL) {
        *bytes = p->height.llc_bytes;
        return TILE_OK;
    }
    *bytes = tile_height_window_bytes(*bytes, p->cfg.threads, p->height.llc_bytes,
                                      getenv("TILEHYBRID_CACHE_BYTES") != NULL);
    return TILE_OK;
}

/* The engine's stand-in for a body when nothing gives t_comp at creation:
 * a recurrence of three reads and a division per point (the demos' kind),
 * swept over 1023 points again and again for 2 ms; the fastest sweep
 * counts (a sweep the OS preempted on a busy machine would inflate a mean:
 * 5x was seen), else the mean when the clock's tick is not well below one
 * sweep.  The
 * first run then times the user's own body. */
TILEHYBRID__COLD double tile__probe_tcomp(void)
{
    double a[1024], best = 0.0, start, t0, t1;
    volatile double sink;
    int64_t reps = 0;
    int i;
    for (i = 0; i < 1024; i++)
        a[i] = (double)(i % 97) / 97.0;
    start = t1 = MPI_Wtime();
    do {
        t0 = t1;
        for (i = 1; i < 1024; i++)
            a[i] = (a[i - 1] + a[i] + a[(i + 512) & 1023]) / 3.0;
        reps++;
        t1 = MPI_Wtime();
        if (t1 > t0 && (best == 0.0 || t1 - t0 < best))
            best = t1 - t0;
    } while (t1 - start < 2e-3 && reps < 100000);
    sink = a[1023];
    (void)sink;
    if (best > 0.0 && MPI_Wtick() * 10.0 < best)
        return best / 1023.0;     /* (the clock times single sweeps) */
    return t1 > start ? (t1 - start) / ((double)reps * 1023.0) : TOPO_DEFAULT_TCOMP;
}

/* Whether a tile step ends with a barrier of the plan's threads: more than
 * one thread, a hybrid model, OpenMP.  Otherwise the model's t_sync is 0,
 * whatever value TILEHYBRID_TSYNC gives (a malformed one is still refused). */
TILEHYBRID__COLD int tile__has_tsync(const tile_plan *p)
{
#ifdef _OPENMP
    return p->cfg.threads > 1 && p->cfg.model != TILE_MODEL_MPI;
#else
    (void)p;
    return 0;
#endif
}

/* The cost of a barrier of the plan's threads, for the model's per-step
 * term: after 8 barriers (the team's start-up), 8 batches of 8, the least
 * batch mean (one preempted thread spoils a batch, not the figure), in a
 * parallel region of cfg.threads threads; 0 with one thread, in the pure
 * MPI model, without OpenMP, or inside a parallel region (a nested one
 * would not have the threads). */
TILEHYBRID__COLD double tile__probe_tsync(const tile_plan *p)
{
    double t = 0.0;
#ifdef _OPENMP
    if (tile__has_tsync(p) && !omp_in_parallel()) {
        _Pragma("omp parallel num_threads(p->cfg.threads)")
        {
            double t0 = 0.0, b;
            int i;
            for (i = 0; i <= 72; i++) {     /* batch ends at 16, 24, ..., 72 */
                if (i % 8 == 0) {
                    _Pragma("omp master")
                    {
                        b = (omp_get_wtime() - t0) / 8.0;
                        if (i >= 16 && (t == 0.0 || b < t))
                            t = b;
                        t0 = omp_get_wtime();
                    }
                }
                if (i < 72) {
                    _Pragma("omp barrier")
                }
            }
        }
    }
#else
    (void)p;
#endif
    return t > 0.0 ? t : 0.0;
}

/* This rank's costs (cfg.balance, else the TILEHYBRID_* environment, else
 * t_comp probed when the model chooses; the papers' cluster otherwise). */
TILEHYBRID__COLD int tile__height_costs(tile_plan *p, int given)
{
    const bal_config *b = &p->cfg.balance;
    tile_height_info *h = &p->height;
    bal_model env;
    int found = 0, rc;
    memset(&env, 0, sizeof env);
    rc = bal_model_from_env(&env, &found);
    if (rc != BAL_OK && !given)
        return tile__fail(p, TILE_ERR_BALANCE, "balance", -1, "the tile height's cost model: "
                          "%s", bal_strerror(rc));
    found = rc == BAL_OK ? found : 0;
    h->tcomp = TOPO_DEFAULT_TCOMP;
    h->tstartup = TOPO_DEFAULT_TSTARTUP;
    h->bandwidth = TOPO_DEFAULT_BANDWIDTH;
    h->tcomp_origin = h->comm_origin = TILE_COST_DEFAULT;
    if (b->tcomp > 0.0 || (found & BAL_HAVE_TCOMP)) {
        h->tcomp = b->tcomp > 0.0 ? b->tcomp : env.tcomp;
        h->tcomp_origin = b->tcomp > 0.0 ? TILE_COST_GIVEN : TILE_COST_ENV;
    } else if (!given) {
        h->tcomp = tile__probe_tcomp();
        h->tcomp_origin = TILE_COST_MEASURED;
    }
    if (b->tstartup > 0.0 || b->bandwidth > 0.0)
        h->comm_origin = TILE_COST_GIVEN;
    else if (found & (BAL_HAVE_TSTARTUP | BAL_HAVE_BANDWIDTH))
        h->comm_origin = TILE_COST_ENV;
    if (b->tstartup > 0.0 || (found & BAL_HAVE_TSTARTUP))
        h->tstartup = b->tstartup > 0.0 ? b->tstartup : env.tstartup;
    if (b->bandwidth > 0.0 || (found & BAL_HAVE_BANDWIDTH))
        h->bandwidth = b->bandwidth > 0.0 ? b->bandwidth : env.bandwidth;
    if (!given) {
        int found = 0;
        if (tile_height_tsync_env(&h->tsync, &found) != TILE_OK)
            return tile__fail(p, TILE_ERR_RANGE, "TILEHYBRID_TSYNC", -1, "TILEHYBRID_TSYNC = "
                              "'%.40s': not a number of seconds in [0, 1e6]",
                              getenv("TILEHYBRID_TSYNC"));
        if (!tile__has_tsync(p))
            h->tsync = 0.0;
        else if (!found)
            h->tsync = tile__probe_tsync(p);
    }
    return tile__cache_bytes(p, &h->cache_bytes);
}

/* Make v[0..n-1] the same on every rank: the largest (hi[i]) or the
 * smallest of each (non-negative doubles and integers compare as their
 * bit patterns).  Collective; errors first (tile__agree). */
TILEHYBRID__COLD int tile__agree_extremes(tile_plan *p, uint64_t *v, const int *hi, int n)
{
    tilehybrid_agreement r;
    int base = 0, i, rc;
    if (tile__agree(p, NULL) != TILE_OK)
        return p->status.code;
    while (base < n) {
        rc = tilehybrid__agree(p->comm, 0, 0, v + base, n - base, NULL, 0, "msg", &r,
                               1 + p->run.yield);      /* (tile__agree's wait) */
        if (rc != MPI_SUCCESS) {
            tile__mpi_failed(p, -1, rc, "MPI_Allreduce", "in tilehybrid_agree(), while the "
                             "ranks agreed on the tile height's costs");
            return p->status.code;
        }
        if (r.index < 0)
            break;
        i = base + r.index;
        v[i] = hi[i] ? r.hi : r.lo;
        base = i + 1;
    }
    return TILE_OK;
}

/* The network by a ping-pong (balance.h's, the same fit on every rank),
 * at the faces of a 100-plane tile; too noisy to fit: the defaults stand. */
TILEHYBRID__COLD int tile__height_pingpong(tile_plan *p)
{
    tile_height_info *h = &p->height;
    tilehybrid_status st;
    tilehybrid_fit fit;
    bal_model bm;
    bal_where w;
    int i, rc;
    memset(&w, 0, sizeof w);
    w.n = p->cfg.n;
    w.tile_height = 100;
    w.elem_bytes = (double)p->cfg.elem_size;
    for (i = 0; i < p->cfg.n; i++) {
        w.pdims[i] = p->pdims[i];
        w.extent[i] = p->deps.size[i];
        w.dep[i] = p->deps.d[i];
    }
    rc = bal_calibrate_comm_all_ex(p->comm, bal__policy_face(&w), 3, &fit, &st);
    memset(&bm, 0, sizeof bm);
    bm.elem_bytes = w.elem_bytes;
    if (rc == BAL_OK && bal_model_set_comm(&bm, &fit) == BAL_OK && bm.bandwidth > 0.0) {
        h->tstartup = bm.tstartup;
        h->bandwidth = bm.bandwidth;
        h->comm_origin = TILE_COST_MEASURED;
    } else if (rc == BAL_OK && fit.intercept > 0.0 && fit.intercept < 1.0) {
        /* no positive slope in the noise: the startup alone (no byte cost) */
        h->tstartup = fit.intercept;
        h->bandwidth = 1e12;
        h->comm_origin = TILE_COST_MEASURED;
    } else if (rc == BAL_ERR_MPI) {
        tile__mpi_failed(p, -1, st.mpi_error, st.arg, "in balance.h's "
                         "bal_calibrate_comm_all_ex(), measuring the network for the tile "
                         "height");
    }
    return p->status.code;
}

/* The model of this plan with the costs of plan.height (local). */
TILEHYBRID__COLD int tile__height_model(tile_plan *p, tile_height_model *m)
{
    tile_height_info *h = &p->height;
    int64_t pb = 0;
    int i;
    memset(m, 0, sizeof *m);
    (void)tile__nest(p, &m->nest);   /* (its TILE_GRID_TIME costs: tile__grid's) */
    m->nest.tcomp = h->tcomp;
    m->nest.tstartup = h->tstartup;
    m->nest.bandwidth = h->bandwidth;
    for (i = 0; i < p->cfg.n; i++)
        m->dims[i] = p->pdims[i];
    m->threads = p->cfg.threads;
    m->tsync = h->tsync;
    m->skew = p->threads.skew;
    m->pairs = h->pairs;
    pb = h->plane_bytes;    /* (tile__height: the largest rank's) */
    m->zmax = 1;    /* a plane of 2^63 bytes: one plane a tile */
    if (pb > 0 && pb < INT64_MAX)
        m->zmax = tile_height_zmax(m, pb, p->deps.dz, h->cache_bytes, h->llc_bytes);
    if (h->bands && m->zmax < TILE__BAND)    /* rows in bands (tile__walk_band) */
        m->zmax = TILE__BAND;
    h->zmax = m->zmax < p->deps.size[p->cfg.n] ? m->zmax : p->deps.size[p->cfg.n];
    return TILE_OK;
}

/* The model's height (*z: the given one when @given) and its prediction in
 * plan.height (local). */
TILEHYBRID__COLD int tile__height_choose(tile_plan *p, int given, int64_t *z)
{
    tile_height_info *h = &p->height;
    tile_height_model m;
    tilehybrid_status st;
    int64_t Z = p->deps.size[p->cfg.n];
    double t = 0.0;
    int rc;
    if (tile__height_model(p, &m) != TILE_OK)
        return p->status.code;
    if (given)
        rc = tile_height_time(&m, *z < Z ? *z : Z, &t, NULL, &st);
    else
        rc = tile_height_best(&m, z, &t, &st);
    if (rc == TILE_ERR_BALANCE && !given &&
        (strcmp(st.arg, "tcomp") == 0 || strcmp(st.arg, "tstartup") == 0 ||
         strcmp(st.arg, "bandwidth") == 0 || strcmp(st.arg, "elem_bytes") == 0))
        return tile__cost_overflow(p, &m.nest, st.arg, "tile height");
    if (rc != TILE_OK && !given)
        return tile__fail(p, rc, st.arg, st.index, "the tile height's model: %s (t_comp %g s, "
                          "t_startup %g s, bandwidth %g B/s)", tile_strerror(rc), h->tcomp,
                          h->tstartup, h->bandwidth);
    h->seconds = rc == TILE_OK ? t : 0.0;
    h->efficiency = 0.0;
    if (rc == TILE_OK)
        (void)tile_height_efficiency(&m, t, &h->efficiency);
    return TILE_OK;
}

/* Every rank holds the same chosen height (it is computed from agreed
 * costs; a rank whose arithmetic differed would run other tiles). */
TILEHYBRID__COLD int tile__height_agree(tile_plan *p)
{
    tile__agreed *a = (tile__agreed *)TILEHYBRID_MALLOC(sizeof *a);
    int rc;
    if (a == NULL) {
        tile__fail(p, TILE_ERR_NOMEM, "", -1, "out of memory while agreeing on the tile height");
        return tile__agree(p, NULL);
    }
    a->count = 0;
    tile__agreed_add(a, "tile_height", -1, -1, (uint64_t)p->height.z, 0);
    snprintf(a->name[0], sizeof a->name[0], "tile_height (the model's choice)");
    rc = tile__agree(p, a);
    TILEHYBRID_FREE(a);
    return rc;
}

/* The tile height (before the sizes): cfg.tile_height > 0 as given, with
 * this rank's prediction; 0: the model's, on costs every rank agrees on
 * (the slowest rank's), the network measured when nothing gives it, and
 * the height agreed (tilehybrid_agree) -- collective then. */
TILEHYBRID__COLD int tile__height(tile_plan *p)
{
    static const int hi[11] = { 1, 1, 0, 0, 1, 1, 0, 1, 0, 1, 0 };
    tile_height_info *h = &p->height;
    int given = p->cfg.tile_height > 0;
    uint64_t v[11];
    int64_t z = p->cfg.tile_height;
    memset(h, 0, sizeof *h);
    h->origin = given ? TILE_HEIGHT_GIVEN : TILE_HEIGHT_MODEL;
    if (p->status.code == TILE_OK)
        tile__height_costs(p, given);
    if (p->status.code == TILE_OK && tile__layout(p) == TILE_OK &&
        !tilehybrid_mul_ok(p->store.plane_elems, (int64_t)p->cfg.elem_size, &h->plane_bytes))
        h->plane_bytes = INT64_MAX;
    /* planes in pairs, where two a tile fit the memory (else one, as before) */
    h->pairs = p->status.code == TILE_OK &&
               tile_plane_pairs(p->store.order, p->deps.skewed, p->cfg.n) &&
               tile__height_fits(p, 2);
    /* rows in bands (tile__walk_band), where a band a tile fits the memory */
    h->bands = p->status.code == TILE_OK && p->cfg.n == 1 && !p->deps.skewed &&
               p->store.order == TILE_ORDER_PLANES && p->run.band >= 0 &&
               tile__height_fits(p, TILE__BAND);
    if (!given) {
        v[0] = tilehybrid_bits(h->tcomp);
        v[1] = tilehybrid_bits(h->tstartup);
        v[2] = tilehybrid_bits(h->bandwidth);
        v[3] = (uint64_t)h->cache_bytes;
        v[4] = h->comm_origin == TILE_COST_DEFAULT && p->size > 1;
        v[5] = v[6] = h->tcomp_origin == TILE_COST_MEASURED; /* timed later: on all or none */
        v[7] = tilehybrid_bits(h->tsync);
        v[8] = (uint64_t)h->llc_bytes;
        v[9] = (uint64_t)h->plane_bytes;    /* blocks differ: the largest plane's bound */
        v[10] = (uint64_t)(h->pairs | h->bands << 1);   /* only where every rank has the
                                                         * room (never both: N 1 or 2) */
        if (tile__agree_extremes(p, v, hi, 11) != TILE_OK)
            return p->status.code;
        if (v[5] != v[6]) /* the same verdict on every rank */
            return tile__fail(p, TILE_ERR_MISMATCH, "balance", -1, "TILEHYBRID_TCOMP is set on "
                              "some ranks only (and cfg.balance.tcomp is 0): t_comp would be "
                              "timed by some ranks only; set it on every rank or on none");
        h->tcomp = tilehybrid_from_bits(v[0]);
        h->tstartup = tilehybrid_from_bits(v[1]);
        h->bandwidth = tilehybrid_from_bits(v[2]);
        h->cache_bytes = (int64_t)v[3];
        h->tsync = tilehybrid_from_bits(v[7]);
        h->llc_bytes = (int64_t)v[8];
        h->plane_bytes = (int64_t)v[9];
        h->pairs = v[10] == 1;
        h->bands = v[10] == 2;
        if (v[4] && tile__height_pingpong(p) != TILE_OK)
            return p->status.code;
    }
    if (p->status.code == TILE_OK && tile__height_choose(p, given, &z) == TILE_OK)
        p->cfg.tile_height = z;
    h->z = h->next = p->cfg.tile_height;
    return given ? p->status.code : tile__height_agree(p);
}

/* After the first completed run of a plan whose model took t_comp from the
 * stand-in probe: the body's own t_comp (the slowest thread of the slowest
 * rank: computing time per point), and the height the next run will use
 * (plan.height.next).  Collective; the condition is the same on every
 * rank. */
TILEHYBRID__COLD void tile__height_timed(tile_plan *p)
{
    static const int hi[1] = { 1 };
    tile_height_info *h = &p->height;
    uint64_t v[1];
    double t = 0.0;
    int64_t z = 0;
    int k;
    if (h->origin != TILE_HEIGHT_MODEL || h->tcomp_origin != TILE_COST_MEASURED || h->timed ||
        !p->run.completed)
        return;
    for (k = 0; k < p->cfg.threads; k++)
        if (p->run.stats[k].points > 0 &&
            p->run.stats[k].compute / (double)p->run.stats[k].points > t)
            t = p->run.stats[k].compute / (double)p->run.stats[k].points;
    v[0] = tilehybrid_bits(t > 0.0 ? t : h->tcomp);
    if (tile__agree_extremes(p, v, hi, 1) != TILE_OK)
        return;
    h->timed = 1;
    h->tcomp = tilehybrid_from_bits(v[0]);
    h->tcomp_origin = TILE_COST_BODY;
    if (tile__height_choose(p, 0, &z) == TILE_OK)
        h->next = z;
    /* the prediction of the run that was timed, at its own height */
    z = h->z;
    (void)tile__height_choose(p, 1, &z);
    (void)tile__agree(p, NULL);
}

/* Before a run: the height plan.height.next, when the first run chose
 * another one (the Z window, the messages and the tile count re-sized;
 * not while an output or input hook of any rank holds buffers sized for
 * one tile: hooks are local, the decision is agreed).  Collective when
 * next != z (the same on every rank: tile__height_timed).  A failure
 * leaves the plan unusable (every later run fails with it). */
TILEHYBRID__COLD void tile__height_apply(tile_plan *p)
{
    static const int hi[1] = { 1 };
    tile_height_info *h = &p->height;
    int64_t ring_bytes = 0;
    uint64_t v[1];
    int i;
    if (h->next == h->z)
        return;
    v[0] = (uint64_t)(tile__io_hooked(p) || p->run.active);
    if (tile__agree_extremes(p, v, hi, 1) != TILE_OK)
        return;     /* an error of some rank, now every rank's: the run does not start */
    if (v[0] != 0) {
        h->next = h->z;
        return;
    }
    tile__messages_free(p);     /* the requests are bound to the buffers */
    TILEHYBRID_FREE(p->run.part);
    p->run.part = NULL;
    tile__fence_free(p);
    TILEHYBRID_FREE(p->store.ring_mem);
    p->store.ring = p->store.ring_mem = NULL;
    for (i = 0; i < TILE_MAX_DIMS; i++) {
        TILEHYBRID_FREE(p->store.sbuf[i]);
        TILEHYBRID_FREE(p->store.rbuf[i]);
        p->store.sbuf[i] = p->store.rbuf[i] = NULL;
    }
    p->cfg.tile_height = h->z = h->next;
    p->run.bal.where.tile_height = h->z < p->deps.size[p->cfg.n] ? h->z
                                   : p->deps.size[p->cfg.n];
    p->run.completed = 0;
    if (tile__sizes(p, &ring_bytes) == TILE_OK && tile__storage(p, ring_bytes) == TILE_OK)
        tile__messages_setup(p);
    if (p->status.code != TILE_OK)
        p->run.created = 0;
}

/* The funneled model's balancing policy (balance.h): bound to this process,
 * its cost model completed (collective). */
TILEHYBRID__COLD int tile__balancing(tile_plan *p)
{
    const tile_config *c = &p->cfg;
    tilehybrid_status bst;
    bal_where w;
    int i, rc;
    memset(&w, 0, sizeof w);
    tilehybrid_status_set(&bst, BAL_OK, "", -1);
    w.n = c->n;
    w.rank = p->rank;
    w.procs = p->size;
    w.threads = c->threads;
    w.tile_height = c->tile_height < p->deps.size[c->n] ? c->tile_height : p->deps.size[c->n];
    w.elem_bytes = (double)c->elem_size;
    for (i = 0; i < c->n; i++) {
        w.pdims[i] = p->pdims[i];
        w.pcoords[i] = p->pcoords[i];
        w.extent[i] = p->deps.size[i];
        w.dep[i] = p->deps.d[i];
    }
    p->run.balancing = c->model == TILE_MODEL_FUNNELED && c->threads > 1;
    rc = bal_policy_init(&p->run.bal, &c->balance, &w);
    if (rc == BAL_OK && p->run.balancing)
        rc = bal_policy_setup_ex(&p->run.bal, p->comm, &bst);
    /* the same code on every rank; the rank that found it tells why (the
     * agreement that follows carries its message to the others) */
    if (rc == BAL_OK || (bst.rank >= 0 && bst.rank != p->rank))
        return TILE_OK;
    if (rc == BAL_ERR_MISMATCH)
        return tile__fail(p, TILE_ERR_MISMATCH, "balance", -1, "%s is set on some ranks only: "
                          "the network would be measured by some ranks only", bst.arg);
    if (rc == BAL_ERR_MPI) {
        tile__mpi_failed(p, -1, bst.mpi_error, bst.arg, "in balance.h's "
                         "bal_policy_setup_ex(), setting up the balancing cost model "
                         "(the network's ping-pong)");
        return p->status.code;
    }
    return tile__fail(p, TILE_ERR_BALANCE, "balance", -1, "%s", bal_strerror(rc));
}
#else
TILEHYBRID__COLD int tile__validate_space(tile_plan *p, const tile_config *c);
TILEHYBRID__COLD const char *tile__vec(char *buf, size_t size, const int *v, int n);
TILEHYBRID__COLD int tile__loop_order(tile_plan *p, const tile_config *c, int *lo);
TILEHYBRID__COLD int tile__check_vector(tile_plan *p, const tile_config *c, const int *lo, int k,
                                        int *later);
TILEHYBRID__COLD int tile__skew_apply(tile_plan *p, int ns, int64_t dd[][TILE_MAX_DIMS + 1],
                                      int64_t len, const int64_t *f, int64_t *sz, int pp);
TILEHYBRID__COLD void tile__skew_choose(int ns, int64_t dd[][TILE_MAX_DIMS + 1], const int64_t *sz,
                                        int pp, int64_t dmax, int64_t *f);
TILEHYBRID__COLD int tile__skew(tile_plan *p, int ns, int64_t dd[][TILE_MAX_DIMS + 1],
                                const int64_t *len, int64_t f[][TILE_MAX_DIMS + 1], int64_t *sz);
TILEHYBRID__COLD int tile__fma_ok(int64_t *acc, int64_t a, int64_t b);
TILEHYBRID__COLD int tile__map(tile_plan *p, const int *lo, int64_t f[][TILE_MAX_DIMS + 1],
                               const int *kp);
TILEHYBRID__COLD int tile__widths(tile_plan *p, const tile_config *c);
TILEHYBRID__COLD void tile__internal_order(const tile_plan *p, const int *lo, const int64_t *sz,
                                           int *kp);
TILEHYBRID__COLD int tile__check_shorthand(tile_plan *p, const tile_config *c);
TILEHYBRID__COLD int tile__validate_deps(tile_plan *p, const tile_config *c);
TILEHYBRID__COLD int tile_config_deps(const tile_config *cfg, tile_deps *deps, char *msg,
                                      size_t size);
TILEHYBRID__COLD int tile__validate_run(tile_plan *p, const tile_config *c);
TILEHYBRID__COLD const char *tile__level_name(int level);
TILEHYBRID__COLD int tile__check_level(tile_plan *p);
TILEHYBRID__COLD int tile__wait_setup(tile_plan *p);
TILEHYBRID__COLD int tile__band_setup(tile_plan *p);
TILEHYBRID__COLD int tile__check_all(tile_plan *p);
TILEHYBRID__COLD int tile__nest(const tile_plan *p, topo_nest *nest);
TILEHYBRID__COLD const char *tile__dim_word(const tile_plan *p);
TILEHYBRID__COLD int tile__too_wide(tile_plan *p, int i, int procs);
TILEHYBRID__COLD int tile__no_grid(tile_plan *p, const topo_nest *nest, int rc);
TILEHYBRID__COLD int tile__cost_overflow(tile_plan *p, const topo_nest *nest, const char *arg,
                                         const char *what);
TILEHYBRID__COLD int tile__grid_fixed(tile_plan *p);
TILEHYBRID__COLD int tile__grid_refused(tile_plan *p, const topo_nest *nest, int rc, int env,
                                        const tilehybrid_status *st);
TILEHYBRID__COLD int tile__grid_place(tile_plan *p);
TILEHYBRID__COLD int tile__grid(tile_plan *p);
TILEHYBRID__COLD int tile__thread_grid(tile_plan *p);
TILEHYBRID__COLD int tile__mem_limit(tile_plan *p, int64_t *limit, const char **why);
TILEHYBRID__COLD const char *tile__memory_advice(const tile_plan *p, const char *why);
TILEHYBRID__COLD int tile__check_memory(tile_plan *p, int64_t ring_bytes, int64_t rest);
TILEHYBRID__COLD int tile__face_bytes(const tile_plan *p, int i, int64_t h, int64_t *b);
TILEHYBRID__COLD int64_t tile__face_buffers(const tile_plan *p, int i);
TILEHYBRID__COLD int tile__face_size(tile_plan *p, int i, int64_t h, int64_t *bufs);
TILEHYBRID__COLD int tile_plane_layout(int n, const int64_t *size, const int *pdims,
                                       const int *tdims, const int64_t *len, const int *dep,
                                       size_t elem_size, int order, tile_store *s);
TILEHYBRID__COLD int tile__layout(tile_plan *p);
TILEHYBRID__COLD int64_t tile__window_planes(const tile_plan *p, int64_t h);
TILEHYBRID__COLD int64_t tile__table_bytes(const tile_plan *p);
TILEHYBRID__COLD int tile__height_fits(tile_plan *p, int64_t h);
TILEHYBRID__COLD int tile__sizes(tile_plan *p, int64_t *ring_bytes);
TILEHYBRID__COLD void tile__thread_shape(tile_plan *p);
TILEHYBRID__COLD int tile__thread_tables(tile_plan *p);
TILEHYBRID__COLD int tile__storage(tile_plan *p, int64_t ring_bytes);
TILEHYBRID__COLD int tile__cache_bytes(tile_plan *p, int64_t *bytes);
TILEHYBRID__COLD double tile__probe_tcomp(void);
TILEHYBRID__COLD int tile__has_tsync(const tile_plan *p);
TILEHYBRID__COLD double tile__probe_tsync(const tile_plan *p);
TILEHYBRID__COLD int tile__height_costs(tile_plan *p, int given);
TILEHYBRID__COLD int tile__agree_extremes(tile_plan *p, uint64_t *v, const int *hi, int n);
TILEHYBRID__COLD int tile__height_pingpong(tile_plan *p);
TILEHYBRID__COLD int tile__height_model(tile_plan *p, tile_height_model *m);
TILEHYBRID__COLD int tile__height_choose(tile_plan *p, int given, int64_t *z);
TILEHYBRID__COLD int tile__height_agree(tile_plan *p);
TILEHYBRID__COLD int tile__height(tile_plan *p);
TILEHYBRID__COLD void tile__height_timed(tile_plan *p);
TILEHYBRID__COLD void tile__height_apply(tile_plan *p);
TILEHYBRID__COLD int tile__balancing(tile_plan *p);
#endif
