/* ------------------------------------------------------------------------ */
/* Ordering policy and choice of the root                                   */
/* ------------------------------------------------------------------------ */

/* slb_order_by_key() -- documented at its declaration (05-api.h). */
static inline int slb_order_by_key(int64_t p, const double *key, int64_t root, int64_t *order,
                                   tilehybrid_status *st)
{
    slb__frac *v;
    int64_t i, m = 0;
    slb__ok(st);
    if (p < 1)
        return tilehybrid_status_set(st, SLB_ERR_NOPROC, "p", -1);
    if (key == NULL || order == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, key == NULL ? "key" : "order", -1);
    if (root < 0 || root >= p)
        return tilehybrid_status_set(st, SLB_ERR_ROOT, "root", -1);
    v = (slb__frac *)slb__alloc(p, sizeof(slb__frac));
    if (v == NULL)
        return tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    for (i = 0; i < p; i++) {
        if (i == root)
            continue;
        v[m].f = key[i] == key[i] ? key[i] : 1e308; /* NaN last */
        v[m].i = i;
        m++;
    }
    qsort(v, (size_t)m, sizeof *v, slb__frac_cmp);
    for (i = 0; i < m; i++)
        order[i] = v[i].i;
    order[p - 1] = root;
    TILEHYBRID_FREE(v);
    return SLB_OK;
}

/* slb_order_bandwidth() -- documented at its declaration (05-api.h). */
static inline int slb_order_bandwidth(const slb_problem *pb, int64_t n, int64_t root,
                                      int64_t *order, tilehybrid_status *st)
{
    double *key;
    int64_t i, x;
    int rc;
    slb__ok(st);
    if (pb == NULL || order == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, pb == NULL ? "pb" : "order", -1);
    if (pb->p < 1)
        return tilehybrid_status_set(st, SLB_ERR_NOPROC, "pb", -1);
    if (root < 0 || root >= pb->p)
        return tilehybrid_status_set(st, SLB_ERR_ROOT, "root", -1);
    rc = slb__check_costs(pb, 0, 0, NULL, st);
    if (rc != SLB_OK)
        return rc;
    key = (double *)slb__alloc(pb->p, sizeof(double));
    if (key == NULL)
        return tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    x = n > 0 ? n : 1;
    if (pb->kind == SLB_KIND_TABLE && x > pb->table_len)
        x = pb->table_len;
    for (i = 0; i < pb->p; i++) {
        if (pb->kind == SLB_KIND_AFFINE)
            key[i] = pb->affine[i].lambda;
        else if (x >= 1)
            key[i] = slb__costd(pb, i, x, 1) / (double)x;
        else
            key[i] = 0.0; /* an empty table says nothing: keep the numbering */
    }
    rc = slb_order_by_key(pb->p, key, root, order, st);
    TILEHYBRID_FREE(key);
    return rc;
}

/* Makespan with candidate root c: the bandwidth order, then the method. */
static inline int slb__root_try(const slb_problem *cand, int64_t p, int64_t c, int64_t n,
                                int method, int64_t *order, int64_t *counts, double *mk)
{
    slb_info in;
    int rc;
    if (cand[c].p != p)
        return SLB_ERR_ARG;
    rc = slb_order_bandwidth(&cand[c], n, c, order, NULL);
    if (rc == SLB_OK)
        rc = slb_solve(&cand[c], n, order, method, counts, NULL, &in, NULL);
    *mk = rc == SLB_OK ? in.makespan : 0.0;
    return rc;
}

/* slb_choose_root() -- documented at its declaration (05-api.h). */
static inline int slb_choose_root(int64_t p, const slb_problem *cand, const double *move,
                                  int64_t n, int method, int64_t *best, double *total,
                                  slb_info *info, tilehybrid_status *st)
{
    int64_t *order, *counts, c;
    double bt = 0;
    int rc = SLB_OK;
    slb__info_reset(info);
    slb__ok(st);
    if (p < 1)
        return tilehybrid_status_set(st, SLB_ERR_NOPROC, "p", -1);
    if (cand == NULL || best == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, cand == NULL ? "cand" : "best", -1);
    order = (int64_t *)slb__alloc(p, sizeof(int64_t));
    counts = (int64_t *)slb__alloc(p, sizeof(int64_t));
    if (order == NULL || counts == NULL)
        rc = tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    *best = -1;
    for (c = 0; c < p && rc == SLB_OK; c++) {
        double t;
        rc = slb__root_try(cand, p, c, n, method, order, counts, &t);
        if (rc != SLB_OK) {
            (void)tilehybrid_status_set(st, rc, "cand", c);
            break;
        }
        t += move ? move[c] : 0.0;
        if (total != NULL)
            total[c] = t;
        if (*best < 0 || t < bt) {
            bt = t;
            *best = c;
        }
    }
    if (rc == SLB_OK && info != NULL)
        info->makespan = bt;
    TILEHYBRID_FREE(order);
    TILEHYBRID_FREE(counts);
    return rc;
}
