/* ------------------------------------------------------------------------
 * Static balancing: eq. 1
 * ------------------------------------------------------------------------ */

/* Block distribution: process c of p along an extent x owns x/p points, the
 * first x%p processes one more. */
static inline int64_t bal__local(int64_t x, int p, int c)
{
    return x / p + (c < x % p ? 1 : 0);
}

/* The first i < n with v[i] < min, or -1 (a per-dimension check). */
static inline int bal__first_below(const int64_t *v, int n, int64_t min)
{
    int i;
    for (i = 0; i < n; i++)
        if (v[i] < min)
            return i;
    return -1;
}

/* bal_factor_check() -- documented at its declaration (05-api.h). */
static inline int bal_factor_check(int n, const int *pdims, const int *coords, int threads,
                                   const int64_t *extent, int64_t tile_height,
                                   const int64_t *dep, tilehybrid_status *status)
{
    int i;
    if (pdims == NULL || extent == NULL || dep == NULL)
        return tilehybrid_status_set(status, BAL_ERR_NULL,
                                     pdims == NULL ? "pdims" : extent == NULL ? "extent" : "dep", -1);
    if (n < 1)
        return tilehybrid_status_set(status, BAL_ERR_DIMS, "n", -1);
    for (i = 0; i < n; i++)
        if (pdims[i] < 1)
            return tilehybrid_status_set(status, BAL_ERR_PDIMS, "pdims", i);
    for (i = 0; coords != NULL && i < n; i++)
        if (coords[i] < 0 || coords[i] >= pdims[i])
            return tilehybrid_status_set(status, BAL_ERR_COORDS, "coords", i);
    if (threads < 1)
        return tilehybrid_status_set(status, BAL_ERR_THREADS, "threads", -1);
    if ((i = bal__first_below(extent, n, 1)) >= 0)
        return tilehybrid_status_set(status, BAL_ERR_EXTENT, "extent", i);
    for (i = 0; i < n; i++)
        if (pdims[i] > extent[i])
            return tilehybrid_status_set(status, BAL_ERR_EMPTY, "pdims", i);
    if (tile_height < 1)
        return tilehybrid_status_set(status, BAL_ERR_TILEHEIGHT, "tile_height", -1);
    if ((i = bal__first_below(dep, n, 0)) >= 0)
        return tilehybrid_status_set(status, BAL_ERR_DEP, "dep", i);
    return tilehybrid_status_set(status, BAL_OK, "", -1);
}

/* Constant mode of bal__step_cost: V = Xz/P, message_i = d_i P_i (Xz/X_i)/P,
 * real-valued (the paper's average process, every dimension counted). */
static inline int bal__step_constant(const bal_model *m, int n, const int *pdims,
                                     const int64_t *extent, int64_t z, const int64_t *dep,
                                     double *iters, double *comm)
{
    int64_t xz = z, p = 1;
    double c = 0;
    int i;
    for (i = 0; i < n; i++)
        if (!tilehybrid_mul_ok(xz, extent[i], &xz) || !tilehybrid_mul_ok(p, pdims[i], &p))
            return BAL_ERR_OVERFLOW;
    *iters = (double)xz / (double)p;
    for (i = 0; i < n; i++)
        if (dep[i] != 0) /* xz / extent[i] is exact: z * prod_{j != i} X_j */
            c += bal_tcomm(m, (double)dep[i] * (double)pdims[i] * (double)(xz / extent[i]) /
                                  (double)p);
    *comm = c;
    return BAL_OK;
}

/* Variable mode: the process's own block, V = z * prod local_j, and
 * message_i = d_i * z * prod_{j != i} local_j along every dimension i where
 * it has a successor (P_i > 1, coords[i] < P_i - 1) and d_i > 0. */
static inline int bal__step_variable(const bal_model *m, int n, const int *pdims,
                                     const int *coords, const int64_t *extent, int64_t z,
                                     const int64_t *dep, double *iters, double *comm)
{
    int64_t v = z, msg;
    double c = 0;
    int i, j;
    for (i = 0; i < n; i++)
        if (!tilehybrid_mul_ok(v, bal__local(extent[i], pdims[i], coords[i]), &v))
            return BAL_ERR_OVERFLOW;
    *iters = (double)v;
    for (i = 0; i < n; i++) {
        if (pdims[i] == 1 || coords[i] >= pdims[i] - 1 || dep[i] == 0)
            continue;
        if (!tilehybrid_mul_ok(dep[i], z, &msg))
            return BAL_ERR_OVERFLOW;
        for (j = 0; j < n; j++)
            if (j != i && !tilehybrid_mul_ok(msg, bal__local(extent[j], pdims[j], coords[j]), &msg))
                return BAL_ERR_OVERFLOW;
        c += bal_tcomm(m, (double)msg);
    }
    *comm = c;
    return BAL_OK;
}

/* Points per step (*iters) and master communication seconds per step
 * (*comm) of the process at coords (NULL: the paper's average process that
 * sends along every dimension).  Arguments already validated. */
static inline int bal__step_cost(const bal_model *m, int n, const int *pdims, const int *coords,
                                 const int64_t *extent, int64_t z, const int64_t *dep,
                                 double *iters, double *comm)
{
    if (coords == NULL)
        return bal__step_constant(m, n, pdims, extent, z, dep, iters, comm);
    return bal__step_variable(m, n, pdims, coords, extent, z, dep, iters, comm);
}

/* bal_factor() -- documented at its declaration (05-api.h). */
static inline int bal_factor(const bal_model *m, int n, const int *pdims, const int *coords,
                             int threads, const int64_t *extent, int64_t tile_height,
                             const int64_t *dep, double *bal, int *clamped)
{
    double iters = 0, comm = 0, b;
    int rc;
    if (clamped != NULL)
        *clamped = 0;
    if ((rc = bal_model_check(m)) != BAL_OK)
        return rc;
    if ((rc = bal_factor_check(n, pdims, coords, threads, extent, tile_height, dep, NULL)) !=
        BAL_OK)
        return rc;
    if (bal == NULL)
        return BAL_ERR_NULL;
    if ((rc = bal__step_cost(m, n, pdims, coords, extent, tile_height, dep, &iters, &comm)) !=
        BAL_OK)
        return rc;
    if (threads == 1) {
        *bal = 1.0;
        return BAL_OK;
    }
    b = 1.0 - (double)(threads - 1) * comm / bal_tcomp(m, iters);
    if (!(b >= 0.0) || b > 1.0) { /* !(b >= 0) also catches -inf */
        b = b > 1.0 ? 1.0 : 0.0;
        if (clamped != NULL)
            *clamped = 1;
    }
    *bal = b;
    return BAL_OK;
}

#if TILEHYBRID__DEFINE
/* bal_tile_times() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int bal_tile_times(const bal_model *m, int n, const int *pdims, const int *coords,
                                    int threads, const int64_t *extent, int64_t tile_height,
                                    const int64_t *dep, double bal, double *t_master,
                                    double *t_other)
{
    double iters = 0, comm = 0;
    int rc;
    if ((rc = bal_model_check(m)) != BAL_OK)
        return rc;
    if ((rc = bal_factor_check(n, pdims, coords, threads, extent, tile_height, dep, NULL)) !=
        BAL_OK)
        return rc;
    if (!bal__finite(bal) || bal < 0 || bal > 1)
        return BAL_ERR_BAL;
    if (t_master == NULL || t_other == NULL)
        return BAL_ERR_NULL;
    if ((rc = bal__step_cost(m, n, pdims, coords, extent, tile_height, dep, &iters, &comm)) !=
        BAL_OK)
        return rc;
    *t_master = bal_tcomp(m, bal / threads * iters) + comm;
    *t_other = threads == 1 ? 0.0
                            : bal_tcomp(m, (threads - bal) / ((double)threads * (threads - 1)) *
                                               iters);
    return BAL_OK;
}
#endif
