/* ------------------------------------------------------------------------ */
/* Evaluation, uniform distribution                                         */
/* ------------------------------------------------------------------------ */

/* Distribution by position from counts by processor; checked. */
static inline int slb__by_position(const slb__model *m, const int64_t *counts, int64_t *cnt,
                                   slb_info *info, tilehybrid_status *st)
{
    int64_t k, sum = 0;
    for (k = 0; k < m->p; k++) {
        cnt[k] = counts[m->proc[k]];
        if (cnt[k] < 0 || cnt[k] > m->n - sum) {
            if (info != NULL)
                info->bad_items = cnt[k];
            return tilehybrid_status_set(st, SLB_ERR_COUNTS, "counts", m->proc[k]);
        }
        sum += cnt[k];
    }
    if (sum != m->n)
        return tilehybrid_status_set(st, SLB_ERR_COUNTS, "counts", -1);
    return SLB_OK;
}

/* slb_evaluate() -- documented at its declaration (05-api.h). */
static inline int slb_evaluate(const slb_problem *pb, int64_t n, const int64_t *order,
                               const int64_t *counts, double *finish, slb_info *info,
                               tilehybrid_status *st)
{
    slb__model m;
    int64_t *cnt;
    int rc;
    slb__info_reset(info);
    slb__ok(st);
    if (counts == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "counts", -1);
    rc = slb__model_init(&m, pb, n, order, 0, info, st);
    if (rc != SLB_OK)
        return rc;
    cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (cnt == NULL)
        rc = tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    if (rc == SLB_OK)
        rc = slb__by_position(&m, counts, cnt, info, st);
    if (rc == SLB_OK)
        rc = slb__output(&m, cnt, NULL, finish, info, st);
    return slb__done(&m, cnt, NULL, rc);
}

/* slb_uniform() -- documented at its declaration (05-api.h). */
static inline int slb_uniform(const slb_problem *pb, int64_t n, const int64_t *order,
                              int64_t *counts, double *finish, slb_info *info,
                              tilehybrid_status *st)
{
    slb__model m;
    int64_t *cnt;
    int64_t k;
    int rc;
    rc = slb__begin(&m, pb, n, order, 0, info, st);
    if (rc != SLB_OK)
        return rc;
    cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (cnt == NULL)
        return slb__done(&m, NULL, NULL, tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1));
    for (k = 0; k < m.p; k++)
        cnt[k] = n / m.p + (k < n % m.p ? 1 : 0);
    rc = slb__output(&m, cnt, counts, finish, info, st);
    return slb__done(&m, cnt, NULL, rc);
}
