/* ------------------------------------------------------------------------ */
/* Dynamic programming (the paper's Algorithm 2: slb_exact's fallback)      */
/* ------------------------------------------------------------------------ */

/* One cell of the dynamic programme: cost[d, k], the best makespan of d
 * items on positions k.., from next[] = cost[., k+1]; *sol receives the
 * items position k takes, *work counts inner iterations.  Algorithm 2's
 * cell is below; tests/slb_reference.h adds Algorithm 1's. */
typedef int64_t (*slb__dp_cell)(const slb__model *m, int64_t k, int64_t d, const int64_t *next,
                                int64_t *sol, int64_t *work);

/* Algorithm 2, lines 11-35 (Tcomp(k,0) = 0 = cost[0,k+1]): Algorithm 1's
 * minimum over e with the e-loop bounded by a binary search for the
 * crossing of Tcomp(k,e) and cost[d-e,k+1] and an early exit; valid for
 * non-decreasing costs. */
static inline int64_t slb__alg2_cell(const slb__model *m, int64_t k, int64_t d,
                                     const int64_t *next, int64_t *sol, int64_t *work)
{
    int64_t e, best, mn, mm;
    if (next[d] == 0) {
        *sol = 0;
        return 0;
    } else {
        int64_t emin = 0, emax = d;
        e = d / 2;
        while (e != emin) {
            if (slb__cost(m, k, e, 0) < next[d - e])
                emin = e;
            else
                emax = e;
            e = (emin + emax) / 2;
            (*work)++;
        }
        best = emax;
        mn = slb__g(m, k, emax);
    }
    for (e = best - 1; e >= 0; e--) {
        mm = slb__sat(slb__cost(m, k, e, 1), next[d - e]);
        (*work)++;
        if (mm < mn) {
            best = e;
            mn = mm;
        } else if (next[d - e] >= mn) {
            break;
        }
    }
    *sol = best;
    return mn;
}

/* The table: cost[d] of the last position, then positions p-2..0;
 * choice[k*(n+1) + d] = the items of position k for d items left. */
static inline void slb__dp_fill(const slb__model *m, int64_t *next, int64_t *cur,
                                int64_t *choice, slb__dp_cell cell, int64_t *work)
{
    int64_t k, d, n = m->n;
    /* lines 1-6: the last processor takes everything that is left */
    for (d = 0; d <= n; d++)
        next[d] = slb__g(m, m->p - 1, d);
    for (k = m->p - 2; k >= 0; k--) {
        int64_t *ch = choice + k * (n + 1), *t;
        cur[0] = 0;
        ch[0] = 0;
        for (d = 1; d <= n; d++)
            cur[d] = cell(m, k, d, next, &ch[d], work);
        t = next;
        next = cur;
        cur = t;
    }
}

/* The dynamic programme with the given cell (O(p n) memory); monotone: the
 * cell needs non-decreasing costs. */
static inline int slb__dp(const slb_problem *pb, int64_t n, const int64_t *order,
                          int64_t *counts, double *finish, slb_info *info,
                          tilehybrid_status *st, slb__dp_cell cell, int monotone)
{
    slb__model m;
    int64_t *next = NULL, *cur = NULL, *choice = NULL, *cnt = NULL;
    int64_t k, d, cells, work = 0;
    int rc;
    rc = slb__begin(&m, pb, n, order, monotone, info, st);
    if (rc != SLB_OK)
        return rc;
    if (!tilehybrid_mul_ok(m.p - 1, n + 1, &cells))
        return slb__done(&m, NULL, NULL, tilehybrid_status_set(st, SLB_ERR_OVERFLOW, "n", -1));
    next = (int64_t *)slb__alloc(n + 1, sizeof(int64_t));
    cur = (int64_t *)slb__alloc(n + 1, sizeof(int64_t));
    choice = (int64_t *)slb__alloc(cells, sizeof(int64_t));
    cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (next == NULL || cur == NULL || choice == NULL || cnt == NULL) {
        rc = tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    } else {
        slb__dp_fill(&m, next, cur, choice, cell, &work);
        for (d = n, k = 0; k < m.p - 1; k++) {
            cnt[k] = choice[k * (n + 1) + d];
            d -= cnt[k];
        }
        cnt[m.p - 1] = d;
        rc = slb__output(&m, cnt, counts, finish, info, st);
        if (info != NULL)
            info->work = work;
    }
    TILEHYBRID_FREE(next);
    TILEHYBRID_FREE(cur);
    return slb__done(&m, choice, cnt, rc);
}
