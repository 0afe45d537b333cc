/* ------------------------------------------------------------------------ */
/* The fast exact algorithm                                                 */
/* ------------------------------------------------------------------------ */

typedef struct slb__ex {
    const slb__model *m;
    int64_t *cnt;       /* by position: the distribution being built */
    int64_t *s;         /* steps e -> e+1 with e >= s[k] are "safe" */
    int64_t *th;        /* th[k]: gain-bound threshold of positions >= k */
    unsigned char *dom; /* dom[k]: position k costs <= position k+1 */
    double *inv;        /* affine: items per tick of the linear relaxation
                           of positions >= k (an upper bound), else 1e300 */
    int64_t *stack;     /* interval pool (pairs), grows on demand */
    int64_t top, cap;
    int64_t *memo;      /* direct-mapped cache: k, lo, hi, F_k on [lo, hi] */
    int64_t memo_mask;  /* entries - 1 (a power of two) */
    int *shift;         /* per position: log2 of the cache's bucket width */
    int64_t slack;      /* smallest budget increase that changes a decision */
    int64_t dslack;     /* smallest budget decrease that changes a decision */
    int64_t nodes;
    int64_t limit;      /* give up after this many nodes (0: never) */
    int nomem;
    int over;           /* the node limit was reached */
    int64_t *st;        /* breadth-first states: A, B, parent, e (4 each) */
    int64_t nst, capst; /* states used / allocated */
    int64_t *ord;       /* scratch: state indices for sorting */
    int64_t capord;
} slb__ex;

/* The cache slot of budget bucket b at position k. */
static inline int64_t *slb__memo_slot(const slb__ex *X, int64_t k, int64_t b)
{
    uint64_t h = (uint64_t)b * 0x9E3779B97F4A7C15ull ^ (uint64_t)k * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return X->memo + 4 * (int64_t)(h & (uint64_t)X->memo_mask);
}

static inline int slb__push(slb__ex *X, int64_t a, int64_t b)
{
    if (X->top + 2 > X->cap) {
        int64_t ncap = X->cap * 2 + 64;
        int64_t *ns = (int64_t *)slb__alloc(ncap, sizeof(int64_t));
        if (ns == NULL) {
            X->nomem = 1;
            return 0;
        }
        if (X->top > 0)
            memcpy(ns, X->stack, (size_t)X->top * sizeof(int64_t));
        TILEHYBRID_FREE(X->stack);
        X->stack = ns;
        X->cap = ncap;
    }
    X->stack[X->top++] = a;
    X->stack[X->top++] = b;
    return 1;
}

/* Is a one-item increase d of Tcomm "safe" against threshold th? */
static inline int slb__safe_step(int64_t d, int64_t th)
{
    return d == 0 || (th > 0 && d <= th);
}

/* An upper bound on F_k(B): the linear relaxation (affine costs without
 * comp0 and comm0, rational amounts, Theorems 1-2) absorbs B * inv[k]. */
static inline int64_t slb__linub(const slb__ex *X, int64_t k, int64_t B)
{
    double v = (double)B * X->inv[k] * (1.0 + 1e-9);
    return v < 4e18 ? (int64_t)v + 1 : INT64_MAX / 2;
}

/* A pruning "e2 + slb__linub(k, B) <= best" depends on the budget: record
 * (conservatively) how much B may grow before it would not prune, so that
 * the bisection's jump to the next event stays valid.  limit = best - e2. */
static inline void slb__linub_slack(slb__ex *X, int64_t k, int64_t B, int64_t limit)
{
    double w = X->inv[k] * (1.0 + 1e-9), bs, sl;
    int64_t d;
    if (!(w > 0.0) || w >= 1e300)
        return; /* the bound does not depend on B */
    bs = (double)limit / w;
    sl = bs - (double)B;
    sl -= 1e-6 * (bs > 0 ? bs : -bs) + 2.0; /* rounding margin */
    d = sl >= 1.0 ? (sl < 4e18 ? (int64_t)sl : INT64_MAX / 2) : 1;
    if (d < X->slack)
        X->slack = d;
}

/* Theorem 2's step from position k + 1 to k: the items per unit of time
 * of the linear relaxation of positions >= k, from next (that of the
 * positions after k, 1e300: unbounded), position k's linear communication
 * cost l and lm = l + its linear computation cost; last: k is the last
 * position.  Shared by the exact search and the rational solver. */
static inline double slb__inv(double l, double lm, double next, int last)
{
    if (lm <= 0.0 || next >= 1e300)
        return 1e300;
    if (last)
        return 1.0 / lm;
    if (l * next < 1.0)
        return (1.0 - l * next) / lm + next;
    return next;
}

/* inv[k]: items per tick of the linear relaxation of positions >= k
 * (affine costs without comp0 and comm0, Theorems 1-2): an upper bound on
 * F_k(B) / B; 1e300 (no bound) for other costs or a free position. */
static inline void slb__ex_relax(slb__ex *X)
{
    const slb__model *m = X->m;
    int64_t p = m->p, k;
    X->inv[p] = 0.0;
    for (k = p - 1; k >= 0; k--) {
        double l, lm;
        if (m->pb->kind != SLB_KIND_AFFINE) {
            X->inv[k] = 1e300;
            continue;
        }
        l = (double)m->q[4 * k + 3];
        lm = l + (double)m->q[4 * k + 1];
        X->inv[k] = slb__inv(l, lm, X->inv[k + 1], k == p - 1);
    }
}

/* Position k's smallest one-item cost increase (*mc: of Tcomm, of
 * Tcomm + Tcomp for the last position) and the count s from which its
 * steps are safe against the threshold th of the positions after it. */
static inline void slb__ex_steps(const slb__ex *X, int64_t k, int64_t th, int64_t *mc,
                                 int64_t *s)
{
    const slb__model *m = X->m;
    int64_t n = m->n, x, prev = 0;
    int last = k == m->p - 1;
    *mc = SLB__CAP;
    *s = 0;
    if (m->pb->kind == SLB_KIND_AFFINE) {
        const int64_t *q = m->q + 4 * k;
        int64_t first = last ? slb__sat(slb__sat(q[0], q[1]), slb__sat(q[2], q[3]))
                             : slb__sat(q[2], q[3]);
        int64_t rest = last ? slb__sat(q[1], q[3]) : q[3];
        if (n >= 2)
            *mc = first < rest ? first : rest;
        else if (n == 1)
            *mc = first;
        if (!last && n >= 2 && !slb__safe_step(rest, th))
            *s = n;
        else if (!last && n >= 1 && !slb__safe_step(first, th))
            *s = 1;
        return;
    }
    for (x = 0; x < n; x++) {
        int64_t c1 = last ? slb__g(m, k, x + 1) : slb__cost(m, k, x + 1, 1), dlt;
        if (c1 >= SLB__CAP)
            break;
        dlt = c1 - prev;
        if (dlt < *mc)
            *mc = dlt;
        if (!last && !slb__safe_step(dlt, th))
            *s = x + 1;
        prev = c1;
    }
}

/* Does position k cost no more than position k+1, for every count? */
static inline int slb__ex_dominates(const slb__model *m, int64_t k)
{
    int64_t x;
    if (m->pb->kind == SLB_KIND_AFFINE) {
        const int64_t *q = m->q + 4 * k;
        return q[0] <= q[4] && q[1] <= q[5] && q[2] <= q[6] && q[3] <= q[7];
    }
    for (x = 1; x <= m->n; x++)
        if (slb__cost(m, k, x, 0) > slb__cost(m, k + 1, x, 0) ||
            slb__cost(m, k, x, 1) > slb__cost(m, k + 1, x, 1))
            return 0;
    return 1;
}

/* Precompute inv, th, s and dom (see docs/scatterlb.md, "Why slb_exact is
 * exact"). */
static inline void slb__ex_prepare(slb__ex *X)
{
    int64_t p = X->m->p, k;
    slb__ex_relax(X);
    X->th[p] = SLB__CAP;
    for (k = p - 1; k >= 0; k--) {
        int64_t mc, s;
        slb__ex_steps(X, k, X->th[k + 1], &mc, &s);
        X->s[k] = k == p - 1 ? 0 : s;
        X->th[k] = mc < X->th[k + 1] ? mc : X->th[k + 1];
        X->dom[k] = (unsigned char)(k < p - 1 && slb__ex_dominates(X->m, k));
    }
}

static inline int64_t slb__absorb(slb__ex *X, int64_t k, int64_t B, int64_t cap, int forced);

/* A level with several candidates: u (the most items that fit) first, then
 * the unsafe low range [1, min(s,u)-1] by branch and bound, then 0. */
static inline int64_t slb__branch_search(slb__ex *X, int64_t k, int64_t B, int64_t cap,
                                         int64_t u, int64_t cu, int64_t th, int64_t base)
{
    const slb__model *m = X->m;
    int64_t hu, best, hi;
    X->cnt[k] = u;
    hu = u + slb__absorb(X, k + 1, B - cu, cap - u, 0);
    if (hu >= cap || X->over)
        return hu;
    best = hu;
    hi = (X->s[k] < u ? X->s[k] : u) - 1;
    if (hi >= 1 && !slb__push(X, 1, hi))
        return best;
    while (X->top > base && !X->over) {
        int64_t e2 = X->stack[--X->top], e1 = X->stack[--X->top];
        int64_t c1, f1, h1, mid;
        if (th > 0 && hu - (u - e2) + slb__ceil_div(cu - slb__cost(m, k, e1, 1), th) <= best)
            continue;
        c1 = slb__cost(m, k, e1, 1);
        if (e2 + slb__linub(X, k + 1, B - c1) <= best) {
            slb__linub_slack(X, k + 1, B - c1, best - e2);
            continue;
        }
        X->cnt[k] = e1;
        f1 = slb__absorb(X, k + 1, B - c1, cap - e1, 0);
        h1 = e1 + f1;
        if (h1 >= cap) {
            X->top = base;
            return cap;
        }
        if (h1 > best)
            best = h1;
        if (e2 + f1 <= best || e1 == e2)
            continue;
        mid = e1 + (e2 - e1) / 2;
        if (e1 + 1 <= mid && !slb__push(X, e1 + 1, mid))
            break;
        if (!slb__push(X, mid + 1, e2))
            break;
    }
    X->top = base;
    if (!X->over && !(th > 0 && hu - u + slb__ceil_div(cu, th) <= best) &&
        slb__linub(X, k + 1, B) <= best)
        slb__linub_slack(X, k + 1, B, best);
    else if (!X->over && !(th > 0 && hu - u + slb__ceil_div(cu, th) <= best)) {
        int64_t h0;
        X->cnt[k] = 0;
        h0 = slb__absorb(X, k + 1, B, cap, X->dom[k]);
        if (h0 >= cap)
            return cap;
        if (h0 > best)
            best = h0;
    }
    return best;
}

/* The cache, at the first branching level: about 4 (p+1)(n+1) entries,
 * between 2^8 and 2^16 (at most 2 MiB).  0 when out of memory. */
static inline int slb__memo_init(slb__ex *X)
{
    int64_t want = 4 * (X->m->p + 1) * (X->m->n + 1), i, e = 256;
    while (e < want && e < ((int64_t)1 << 16))
        e *= 2;
    X->memo = (int64_t *)slb__alloc(4 * e, sizeof(int64_t));
    X->shift = (int *)slb__alloc(X->m->p, sizeof(int));
    if (X->memo == NULL || X->shift == NULL) {
        X->nomem = 1;
        return 0;
    }
    X->memo_mask = e - 1;
    for (i = 0; i < 4 * e; i += 4)
        X->memo[i] = -1; /* no entry */
    for (i = 0; i < X->m->p; i++)
        X->shift[i] = -1; /* bucket width not chosen yet */
    return 1;
}

/* Cache F_k = best for every budget of [B - dslack + 1, B + slack - 1]
 * (the same search, hence the same value), under the (at most 4) buckets
 * nearest to B that this interval covers. */
static inline void slb__memo_store(slb__ex *X, int64_t k, int64_t B, int64_t best)
{
    int64_t lo = X->dslack >= B ? 0 : B - X->dslack + 1;
    int64_t hi = X->slack >= SLB__CAP - B ? SLB__CAP : B + X->slack - 1, j;
    if (X->shift[k] < 0) { /* buckets about as wide as this interval */
        int sh = 0;
        while (sh < 62 && ((int64_t)2 << sh) <= hi - lo + 1)
            sh++;
        X->shift[k] = sh;
    }
    for (j = -1; j <= 2; j++) {
        int64_t b = (B >> X->shift[k]) + j, blo, *slot;
        if (b < 0)
            continue;
        blo = b << X->shift[k];
        if (blo > hi || blo + ((int64_t)1 << X->shift[k]) - 1 < lo)
            continue;
        slot = slb__memo_slot(X, k, b);
        slot[0] = k;
        slot[1] = lo;
        slot[2] = hi;
        slot[3] = best;
    }
}

/* F_k(B) (at most cap) where position k has several candidates (u the
 * most that fit): from the cache when a cached budget interval holds B,
 * else by slb__branch_search (then cached).  Keeps the caller's slack. */
static inline int64_t slb__branch(slb__ex *X, int64_t k, int64_t B, int64_t cap, int64_t u)
{
    const slb__model *m = X->m;
    int64_t cu = slb__cost(m, k, u, 1), th = X->th[k + 1];
    int64_t best, base = X->top;
    int64_t *slot, outer = X->slack, douter = X->dslack;
    if (X->memo == NULL && !slb__memo_init(X))
        return 0;
    /* F_k is a step function of B alone (neither T nor the path matter): a
     * cached interval [lo, hi] around B on which F_k = v < cap answers at
     * once (a success needs its distribution: recompute) */
    if (X->shift[k] >= 0) {
        slot = slb__memo_slot(X, k, B >> X->shift[k]);
        if (slot[0] == k && slot[1] <= B && B <= slot[2] && slot[3] < cap) {
            if (slot[2] - B + 1 < X->slack)
                X->slack = slot[2] - B + 1;
            if (B - slot[1] + 1 < X->dslack)
                X->dslack = B - slot[1] + 1;
            return slot[3];
        }
    }
    X->slack = SLB__CAP;
    X->dslack = SLB__CAP;
    (void)slb__umax(X->m, k, B, cap, &X->slack, &X->dslack); /* u's own interval */
    best = slb__branch_search(X, k, B, cap, u, cu, th, base);
    if (best < cap && !X->nomem && !X->over)
        slb__memo_store(X, k, B, best);
    if (outer < X->slack)
        X->slack = outer;
    if (douter < X->dslack)
        X->dslack = douter;
    return best;
}

/* min(cap, F_k(B)): the most items positions k.. can finish within B; when
 * it returns cap, cnt[k..p-1] holds such a distribution.  forced: position
 * k must stay idle (dominance rule). */
static inline int64_t slb__absorb(slb__ex *X, int64_t k, int64_t B, int64_t cap, int forced)
{
    const slb__model *m = X->m;
    int64_t p = m->p, got = 0, u, j;
    for (;;) {
        X->nodes++;
        if (X->limit > 0 && X->nodes > X->limit) {
            X->over = 1;
            return 0;
        }
        if (cap == 0) {
            for (j = k; j < p; j++)
                X->cnt[j] = 0;
            return got;
        }
        if (k == p - 1) {
            u = slb__umax(m, k, B, cap, &X->slack, &X->dslack);
            X->cnt[k] = u;
            return got + u;
        }
        u = forced ? 0 : slb__umax(m, k, B, cap, &X->slack, &X->dslack);
        if (u == 0) {
            X->cnt[k] = 0;
            forced = X->dom[k];
            k++;
            continue;
        }
        if (X->s[k] == 0) {
            X->cnt[k] = u;
            B -= slb__cost(m, k, u, 1);
            cap -= u;
            got += u;
            k++;
            continue;
        }
        return got + slb__branch(X, k, B, cap, u);
    }
}

/* ---- breadth-first feasibility test (affine costs) ---- */

/* Append a state (items so far A, budget left B, parent index, items e
 * given at this position); 0 when out of memory or over the limits (at most
 * 2^22 states per test, then slb_exact hands over to Algorithm 2). */
static inline int slb__st_push(slb__ex *X, int64_t A, int64_t B, int64_t par, int64_t e)
{
    int64_t *q;
    if (X->nst >= ((int64_t)1 << 22)) { /* 128 MiB of states: hand over */
        X->over = 1;
        return 0;
    }
    if (X->nst == X->capst) {
        int64_t nc = X->capst * 2 + 256;
        int64_t *ns = (int64_t *)slb__alloc(4 * nc, sizeof(int64_t));
        if (ns == NULL) {
            X->nomem = 1;
            return 0;
        }
        if (X->nst > 0)
            memcpy(ns, X->st, (size_t)(4 * X->nst) * sizeof(int64_t));
        TILEHYBRID_FREE(X->st);
        X->st = ns;
        X->capst = nc;
    }
    q = X->st + 4 * X->nst++;
    q[0] = A;
    q[1] = B;
    q[2] = par;
    q[3] = e;
    X->nodes++;
    if (X->limit > 0 && X->nodes > X->limit)
        X->over = 1;
    return 1;
}

/* Sort state indices by A descending, then B descending (insertion sort on
 * small runs, else a simple merge sort on X->ord). */
static inline int slb__st_before(const slb__ex *X, int64_t i, int64_t j)
{
    const int64_t *a = X->st + 4 * i, *b = X->st + 4 * j;
    return a[0] > b[0] || (a[0] == b[0] && a[1] > b[1]);
}

static inline void slb__st_sort(slb__ex *X, int64_t *v, int64_t *tmp, int64_t m)
{
    int64_t w, i, j, k, lo, mid, hi;
    for (i = 1; i < m && m <= 16; i++) {
        int64_t x = v[i];
        for (j = i; j > 0 && slb__st_before(X, x, v[j - 1]); j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    if (m <= 16)
        return;
    for (w = 1; w < m; w *= 2) {
        for (lo = 0; lo < m; lo += 2 * w) {
            mid = lo + w < m ? lo + w : m;
            hi = lo + 2 * w < m ? lo + 2 * w : m;
            for (i = lo, j = mid, k = lo; k < hi; k++)
                tmp[k] = (j >= hi || (i < mid && !slb__st_before(X, v[j], v[i]))) ? v[i++]
                                                                                : v[j++];
        }
        memcpy(v, tmp, (size_t)m * sizeof(int64_t));
    }
}

/* Walk back from state i (at position k, whose own items are e) and write
 * the distribution into X->cnt. */
static inline void slb__st_witness(slb__ex *X, int64_t i, int64_t k, int64_t e)
{
    int64_t j;
    for (j = k + 1; j < X->m->p; j++)
        X->cnt[j] = 0;
    X->cnt[k] = e;
    for (j = k - 1; j >= 0; j--) {
        X->cnt[j] = X->st[4 * i + 3];
        i = X->st[4 * i + 2];
    }
}


/* The greedy path: most items everywhere (decides loose T at once); 1 when
 * it serves all n items (distribution in X->cnt). */
static inline int slb__bfs_greedy(slb__ex *X, int64_t T)
{
    const slb__model *m = X->m;
    int64_t k, u, B = T, need = m->n;
    for (k = 0; k < m->p; k++) {
        u = slb__umax(m, k, B, need, NULL, NULL);
        X->cnt[k] = u;
        B -= slb__cost(m, k, u, 1);
        need -= u;
    }
    return need == 0;
}

/* The unsafe candidates e in [1, hi] of state i = (A, B) at position k, in
 * the direction in which the bound e + linub(B - Tcomm(k,e)) decreases
 * (from the top when incr, else from the bottom): stop at the first that
 * cannot reach need.  0 when the search must stop. */
static inline int slb__bfs_range(slb__ex *X, int64_t k, int64_t i, int64_t A, int64_t B,
                                 int64_t need, int64_t hi, int incr)
{
    int64_t e = incr ? hi : 1;
    for (; incr ? e >= 1 : e <= hi; e += incr ? -1 : 1) {
        int64_t Be = B - slb__cost(X->m, k, e, 1);
        if (e + slb__linub(X, k + 1, Be) < need) {
            slb__linub_slack(X, k + 1, Be, need - e - 1);
            break;
        }
        if (!slb__st_push(X, A + e, Be, i, e))
            return 0;
    }
    return 1;
}

/* Expand state i at position k: its candidates u (the most that fits), the
 * unsafe e below min(s, u), and 0.  1: a witness was found (in X->cnt);
 * -1: the search must stop (limits, memory); 0: go on. */
static inline int slb__bfs_expand(slb__ex *X, int64_t k, int64_t i, int incr)
{
    const slb__model *m = X->m;
    int64_t A = X->st[4 * i], B = X->st[4 * i + 1], need = m->n - A, u;
    if (need == 0) {
        slb__st_witness(X, i, k, 0);
        return 1;
    }
    u = slb__umax(m, k, B, need, &X->slack, NULL);
    if (k == m->p - 1) {
        if (u == need) {
            slb__st_witness(X, i, k, u);
            return 1;
        }
        return 0;
    }
    if (u > 0 && !slb__st_push(X, A + u, B - slb__cost(m, k, u, 1), i, u))
        return -1;
    if (u > 0 && X->s[k] == 0)
        return 0; /* every step safe: u beats every smaller e */
    if (!slb__bfs_range(X, k, i, A, B, need, (X->s[k] < u ? X->s[k] : u) - 1, incr))
        return -1;
    /* e = 0 (no latency paid) */
    if (slb__linub(X, k + 1, B) < need)
        slb__linub_slack(X, k + 1, B, need - 1);
    else if (!slb__st_push(X, A, B, i, 0))
        return -1;
    return X->over ? -1 : 0;
}

/* Pareto: sort the new level [lv1, nst) by A desc, B desc and keep the
 * strict rises of B.  0 when the level is empty or memory runs out. */
static inline int slb__bfs_pareto(slb__ex *X, int64_t lv1)
{
    int64_t mlev = X->nst - lv1, kept = 0, bestB = -1, *tmp, j;
    if (mlev == 0)
        return 0;
    /* X->ord: indices [0, m), merge scratch / survivors [m, 2m), survivor
     * tuples [2m, 6m) */
    if (6 * mlev > X->capord) {
        TILEHYBRID_FREE(X->ord);
        X->capord = 6 * mlev + 64;
        X->ord = (int64_t *)slb__alloc(X->capord, sizeof(int64_t));
        if (X->ord == NULL) {
            X->nomem = 1;
            return 0;
        }
    }
    tmp = X->ord + mlev;
    for (j = 0; j < mlev; j++)
        X->ord[j] = lv1 + j;
    slb__st_sort(X, X->ord, tmp, mlev);
    /* compact the survivors to the end of the pool, in order */
    for (j = 0; j < mlev; j++) {
        int64_t s2 = X->ord[j];
        if (X->st[4 * s2 + 1] > bestB) {
            bestB = X->st[4 * s2 + 1];
            tmp[kept++] = s2;
        }
    }
    for (j = 0; j < kept; j++)
        memcpy(X->ord + 2 * mlev + 4 * j, X->st + 4 * tmp[j], 4 * sizeof(int64_t));
    memcpy(X->st + 4 * lv1, X->ord + 2 * mlev, (size_t)(4 * kept) * sizeof(int64_t));
    X->nst = lv1 + kept;
    return 1;
}

/* Is makespan T feasible?  1 yes (distribution in X->cnt), 0 no (X->slack:
 * the least increase of T that could change the answer).  Affine costs.
 * A state (A, B) at position k: A items given to positions < k, B the time
 * left from the moment position k starts receiving.  A state with no more
 * items and no more time than another is dropped (Pareto).  The candidates
 * of a state: u (the most that fits), and, where the step is not safe, the
 * e whose linear-relaxation bound e + B' / D_{k+1} still reaches n. */
static inline int slb__bfs(slb__ex *X, int64_t T)
{
    const slb__model *m = X->m;
    int64_t p = m->p, k, i, lv0 = 0, lv1 = 1;
    if (slb__bfs_greedy(X, T))
        return 1;
    X->nst = 0;
    if (!slb__st_push(X, 0, T, -1, 0))
        return 0;
    for (k = 0; k < p; k++) {
        /* is the bound e + linub(B - lambda e) increasing in e? */
        int incr = k < p - 1 && (double)m->q[4 * k + 3] * X->inv[k + 1] < 1.0;
        for (i = lv0; i < lv1; i++) {
            int r = slb__bfs_expand(X, k, i, incr);
            if (r != 0)
                return r > 0;
        }
        if (k == p - 1 || !slb__bfs_pareto(X, lv1))
            break;
        lv0 = lv1;
        lv1 = X->nst;
    }
    return 0;
}

static inline void slb__ex_free(slb__ex *X)
{
    void *const mem[] = { X->cnt, X->s,    X->th,    X->dom, X->inv,
                          X->stack, X->memo, X->shift, X->st, X->ord };
    slb__free_each(mem, (int)(sizeof mem / sizeof mem[0]));
}

/* Set up the search on model m: the node limit (max_nodes > 0: that many,
 * 0: none, < 0: 4 (p+1)(n+1)(log2(n+1)+1)), the arrays, the bounds. */
static inline int slb__ex_init(slb__ex *X, const slb__model *m, int64_t max_nodes)
{
    memset(X, 0, sizeof *X);
    X->m = m;
    if (max_nodes < 0) {
        int64_t lg = 1, t = m->n + 1;
        while (t > 1) {
            t >>= 1;
            lg++;
        }
        if (!tilehybrid_mul_ok(4 * (m->p + 1), m->n + 1, &max_nodes) ||
            !tilehybrid_mul_ok(max_nodes, lg, &max_nodes))
            max_nodes = 0;
    }
    X->limit = max_nodes;
    X->cnt = (int64_t *)slb__alloc(m->p, sizeof(int64_t));
    X->s = (int64_t *)slb__alloc(m->p, sizeof(int64_t));
    X->th = (int64_t *)slb__alloc(m->p + 1, sizeof(int64_t));
    X->dom = (unsigned char *)slb__alloc(m->p, 1);
    X->inv = (double *)slb__alloc(m->p + 1, sizeof(double));
    if (X->cnt == NULL || X->s == NULL || X->th == NULL || X->dom == NULL || X->inv == NULL)
        return SLB_ERR_NOMEM;
    slb__ex_prepare(X);
    return SLB_OK;
}

/* The bisection on the makespan in ticks, from hi, feasible with witness
 * wit (updated), down to the optimum.  Stops early on X->nomem or X->over. */
static inline void slb__ex_bisect(slb__ex *X, int64_t *wit, int64_t hi)
{
    const slb__model *m = X->m;
    int64_t lo = -1; /* invariant: lo infeasible, hi feasible with witness wit */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2, got;
        X->slack = SLB__CAP;
        X->dslack = SLB__CAP;
        if (m->pb->kind == SLB_KIND_AFFINE)
            got = slb__bfs(X, mid) ? m->n : 0;
        else
            got = slb__absorb(X, 0, mid, m->n, 0);
        if (X->nomem || X->over)
            return;
        if (got >= m->n) {
            memcpy(wit, X->cnt, (size_t)m->p * sizeof(int64_t));
            hi = slb__eval(m, wit, NULL);
        } else {
            /* the same search, hence the same failure, for every budget
             * below mid + slack: jump to the next event */
            lo = X->slack < hi - mid ? mid + X->slack - 1 : hi - 1;
        }
    }
}

/* slb_exact with a node limit: max_nodes > 0 gives up the search after that
 * many nodes and runs Algorithm 2 instead, 0 never gives up, < 0 uses the
 * default 4 (p+1)(n+1)(log2(n+1)+1). */
static inline int slb__exact(const slb_problem *pb, int64_t n, const int64_t *order,
                             int64_t *counts, double *finish, slb_info *info,
                             tilehybrid_status *st, int64_t max_nodes)
{
    slb__model m;
    slb__ex X;
    int64_t *wit = NULL, k, kb = 0, gb = 0;
    int rc;
    rc = slb__begin(&m, pb, n, order, 1, info, st);
    if (rc != SLB_OK)
        return rc;
    rc = slb__ex_init(&X, &m, max_nodes);
    wit = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
    if (rc == SLB_OK && wit != NULL) {
        /* start: everything on the processor that is fastest alone */
        for (k = 0; k < m.p; k++) {
            int64_t g = slb__g(&m, k, n);
            if (k == 0 || g < gb) {
                gb = g;
                kb = k;
            }
            wit[k] = 0;
        }
        wit[kb] = n;
        slb__ex_bisect(&X, wit, slb__eval(&m, wit, NULL));
    }
    if (rc != SLB_OK || wit == NULL || X.nomem) {
        rc = tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    } else if (X.over) {
        /* the search met an unusually hard instance: Algorithm 2 has a
         * polynomial bound and returns the same optimum */
        rc = slb__dp(pb, n, order, counts, finish, info, st, slb__alg2_cell, 1);
        if (rc == SLB_OK && info != NULL)
            info->work += X.nodes;
    } else {
        rc = slb__output(&m, wit, counts, finish, info, st);
        if (info != NULL)
            info->work = X.nodes;
    }
    slb__ex_free(&X);
    return slb__done(&m, wit, NULL, rc);
}

/* slb_exact() -- documented at its declaration (05-api.h). */
static inline int slb_exact(const slb_problem *pb, int64_t n, const int64_t *order,
                            int64_t *counts, double *finish, slb_info *info,
                            tilehybrid_status *st)
{
    return slb__exact(pb, n, order, counts, finish, info, st, -1);
}
