/* ------------------------------------------------------------------------ */
/* Private helpers: ticks, cost evaluation                                  */
/* ------------------------------------------------------------------------ */

/* Largest tick value; every cost or sum at or above it is "too long". */
#define SLB__CAP ((int64_t)1 << 61)
#define SLB__CAPD 2305843009213693952.0

static inline void slb__info_reset(slb_info *info)
{
    if (info == NULL)
        return;
    memset(info, 0, sizeof *info);
    info->bad_items = -1;
}

/* The status of a call that has not failed (yet). */
static inline void slb__ok(tilehybrid_status *st)
{
    (void)tilehybrid_status_set(st, SLB_OK, "", -1);
}

static inline int slb__finite(double v)
{
    return v == v && v - v == 0.0;
}

/* 2^e as a double, -1022 <= e <= 1023. */
static inline double slb__pow2(int e)
{
    return tilehybrid_from_bits((uint64_t)(e + 1023) << 52);
}

/* floor(log2(x)) for a normal x > 0 (-1023 for subnormals). */
static inline int slb__exponent(double x)
{
    return (int)((tilehybrid_bits(x) >> 52) & 0x7ff) - 1023;
}

static inline void *slb__alloc(int64_t count, size_t size)
{
    int64_t bytes;
    if (count < 1)
        count = 1;
    if (!tilehybrid_mul_ok(count, (int64_t)size, &bytes) || (uint64_t)bytes > (uint64_t)SIZE_MAX)
        return NULL;
    return TILEHYBRID_MALLOC((size_t)bytes);
}

/* TILEHYBRID_FREE each of the n pointers of mem (NULL ones too). */
static inline void slb__free_each(void *const *mem, int n)
{
    int i;
    for (i = 0; i < n; i++)
        TILEHYBRID_FREE(mem[i]);
}

/* a + b saturated at SLB__CAP, for a, b in [0, SLB__CAP]: unlike
 * tilehybrid_add_ok() it does not fail, it caps -- every time at or beyond
 * the cap counts as "too long" and the searches compare such times. */
static inline int64_t slb__sat(int64_t a, int64_t b)
{
    int64_t s = a + b; /* a, b <= 2^61: no overflow */
    return s < SLB__CAP ? s : SLB__CAP;
}

static inline int64_t slb__ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Tick value of an affine cost A + R*x (x > 0), saturated at SLB__CAP. */
static inline int64_t slb__aff(int64_t A, int64_t R, int64_t x)
{
    if (x <= 0)
        return 0;
    if (R > 0 && x > (SLB__CAP - A) / R)
        return SLB__CAP;
    return slb__sat(A, R * x);
}

/* Cost of processor i in the problem's own unit (double), x >= 0. */
static inline double slb__costd(const slb_problem *pb, int64_t i, int64_t x, int comm)
{
    if (x <= 0)
        return 0.0;
    if (pb->kind == SLB_KIND_AFFINE) {
        const slb_affine *a = &pb->affine[i];
        return comm ? a->comm0 + a->lambda * (double)x : a->comp0 + a->mu * (double)x;
    }
    if (pb->kind == SLB_KIND_TABLE)
        return (comm ? pb->comm_table : pb->comp_table)[i * pb->table_len + x - 1];
    return (comm ? pb->comm : pb->comp)(pb->ctx, i, x);
}

/* A problem prepared for integer-time evaluation: processors by sending
 * position, costs in ticks. */
typedef struct slb__model {
    const slb_problem *pb;
    int64_t p, n;
    int64_t *proc; /* proc[k]: processor at sending position k */
    int64_t *q;    /* AFFINE: comp0, mu, comm0, lambda in ticks, 4 per position */
    double tick;   /* seconds (or your unit) per tick */
    double scale;  /* 1 / tick */
} slb__model;

/* Round v >= 0 to the nearest tick (ties to even), saturating. */
static inline int64_t slb__q(const slb__model *m, double v)
{
    double y, f;
    int64_t t;
    if (v != v)
        return SLB__CAP;
    if (v <= 0.0)
        return 0;
    y = v * m->scale;
    if (!(y < SLB__CAPD))
        return SLB__CAP;
    t = (int64_t)y;
    f = y - (double)t;
    if (f > 0.5 || (f == 0.5 && (t & 1)))
        t++;
    return t;
}

/* Cost at sending position k for x items, in ticks (comm = 1: Tcomm). */
static inline int64_t slb__cost(const slb__model *m, int64_t k, int64_t x, int comm)
{
    const slb_problem *pb = m->pb;
    int64_t i;
    if (x <= 0)
        return 0;
    if (pb->kind == SLB_KIND_AFFINE)
        return slb__aff(m->q[4 * k + 2 * comm], m->q[4 * k + 2 * comm + 1], x);
    i = m->proc[k];
    if (pb->kind == SLB_KIND_TABLE)
        return slb__q(m, (comm ? pb->comm_table : pb->comp_table)[i * pb->table_len + x - 1]);
    return slb__q(m, (comm ? pb->comm : pb->comp)(pb->ctx, i, x));
}

/* Tcomm + Tcomp at position k, in ticks. */
static inline int64_t slb__g(const slb__model *m, int64_t k, int64_t x)
{
    return slb__sat(slb__cost(m, k, x, 1), slb__cost(m, k, x, 0));
}

/* Largest e in [0, cap] with Tcomm(k,e) + Tcomp(k,e) <= B (B >= 0).  The
 * answer stays the same for budgets in [g(e), g(e+1)): when up (if not NULL)
 * is given, *up is lowered to g(e+1) - B (for e < cap) and *down to
 * B - g(e) + 1 (for e > 0). */
static inline int64_t slb__umax(const slb__model *m, int64_t k, int64_t B, int64_t cap,
                                int64_t *up, int64_t *down)
{
    int64_t lo, hi, e;
    if (cap <= 0)
        return 0;
    if (m->pb->kind == SLB_KIND_AFFINE) {
        const int64_t *q = m->q + 4 * k;
        int64_t A = slb__sat(q[0], q[2]), R = slb__sat(q[1], q[3]);
        if (slb__aff(A, R, 1) > B)
            e = 0;
        else if (R == 0)
            e = cap;
        else
            e = (B - A) / R < cap ? (B - A) / R : cap;
    } else if (slb__g(m, k, cap) <= B) {
        e = cap;
    } else {
        lo = 0;
        hi = cap; /* g(lo) <= B < g(hi) */
        while (hi - lo > 1) {
            int64_t mid = lo + (hi - lo) / 2;
            if (slb__g(m, k, mid) <= B)
                lo = mid;
            else
                hi = mid;
        }
        e = lo;
    }
    if (up != NULL && e < cap) {
        int64_t d = slb__g(m, k, e + 1) - B;
        if (d < *up)
            *up = d;
    }
    if (down != NULL && e > 0) {
        int64_t d = B - slb__g(m, k, e) + 1;
        if (d < *down)
            *down = d;
    }
    return e;
}

/* Affine costs: all four parameters finite and >= 0. */
static inline int slb__check_affine(const slb_problem *pb, tilehybrid_status *st)
{
    int64_t i;
    if (pb->affine == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "pb", -1);
    for (i = 0; i < pb->p; i++) {
        const slb_affine *a = &pb->affine[i];
        if (!slb__finite(a->comp0) || !slb__finite(a->mu) || !slb__finite(a->comm0) ||
            !slb__finite(a->lambda) || a->comp0 < 0 || a->mu < 0 || a->comm0 < 0 ||
            a->lambda < 0)
            return tilehybrid_status_set(st, SLB_ERR_COST, "pb", i);
    }
    return SLB_OK;
}

/* Validate the costs of pb for 0..n items; monotone: also require them
 * non-decreasing.  The status names the processor, info->bad_items the
 * item count. */
static inline int slb__check_costs(const slb_problem *pb, int64_t n, int monotone,
                                   slb_info *info, tilehybrid_status *st)
{
    int64_t i, x, cells;
    int c;
    switch (pb->kind) {
    case SLB_KIND_AFFINE:
        return slb__check_affine(pb, st);
    case SLB_KIND_TABLE:
        if (pb->comp_table == NULL || pb->comm_table == NULL || pb->table_len < 0)
            return tilehybrid_status_set(st, SLB_ERR_ARG, "pb", -1);
        if (pb->table_len < n)
            return tilehybrid_status_set(st, SLB_ERR_TABLE, "pb", -1);
        if (!tilehybrid_mul_ok(pb->p, pb->table_len, &cells))
            return tilehybrid_status_set(st, SLB_ERR_OVERFLOW, "pb", -1);
        break;
    case SLB_KIND_CALLBACK:
        if (pb->comp == NULL || pb->comm == NULL)
            return tilehybrid_status_set(st, SLB_ERR_ARG, "pb", -1);
        break;
    default:
        return tilehybrid_status_set(st, SLB_ERR_ARG, "pb", -1);
    }
    for (i = 0; i < pb->p; i++) {
        for (c = 0; c < 2; c++) {
            double prev = 0.0;
            for (x = 1; x <= n; x++) {
                double v = slb__costd(pb, i, x, c);
                int rc = !slb__finite(v) || v < 0 ? SLB_ERR_COST
                         : monotone && v < prev   ? SLB_ERR_MONOTONE
                                                  : SLB_OK;
                if (rc != SLB_OK) {
                    if (info != NULL)
                        info->bad_items = x;
                    return tilehybrid_status_set(st, rc, "pb", i);
                }
                prev = v;
            }
        }
    }
    return SLB_OK;
}

static inline void slb__model_free(slb__model *m)
{
    TILEHYBRID_FREE(m->proc);
    TILEHYBRID_FREE(m->q);
    m->proc = NULL;
    m->q = NULL;
}

/* The end of a solver: its arrays a and b (NULL allowed) and its model
 * freed.  Returns rc. */
static inline int slb__done(slb__model *m, void *a, void *b, int rc)
{
    TILEHYBRID_FREE(a);
    TILEHYBRID_FREE(b);
    slb__model_free(m);
    return rc;
}

/* m->proc from order (NULL: the identity), checked to be a permutation. */
static inline int slb__model_order(slb__model *m, const int64_t *order, tilehybrid_status *st)
{
    unsigned char *seen;
    int64_t i, k, p = m->p;
    m->proc = (int64_t *)slb__alloc(p, sizeof(int64_t));
    seen = (unsigned char *)slb__alloc(p, 1);
    if (m->proc == NULL || seen == NULL) {
        TILEHYBRID_FREE(seen);
        return tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    }
    memset(seen, 0, (size_t)p);
    for (k = 0; k < p; k++) {
        i = order ? order[k] : k;
        if (i < 0 || i >= p || seen[i]) {
            TILEHYBRID_FREE(seen);
            return tilehybrid_status_set(st, SLB_ERR_ORDER, "order", k);
        }
        seen[i] = 1;
        m->proc[k] = i;
    }
    TILEHYBRID_FREE(seen);
    return SLB_OK;
}

/* Choose the tick from U, the best single processor doing everything -- an
 * upper bound on the optimum whatever the order.  The tick makes U less
 * than 2^60 ticks, so every time that matters is below SLB__CAP = 2^61 and
 * sums of two saturated values cannot overflow.  U is infinite only when
 * every processor alone overflows: SLB_ERR_TIME names the one that is
 * fastest for one item. */
static inline int slb__model_tick(slb__model *m, tilehybrid_status *st)
{
    const slb_problem *pb = m->pb;
    double U = 0.0, g1 = 0.0;
    int64_t i, best1 = 0;
    int e;
    for (i = 0; m->n > 0 && i < m->p; i++) {
        double g = slb__costd(pb, i, m->n, 1) + slb__costd(pb, i, m->n, 0);
        double one = slb__costd(pb, i, 1, 1) + slb__costd(pb, i, 1, 0);
        if (i == 0 || g < U)
            U = g;
        if (i == 0 || one < g1) {
            g1 = one;
            best1 = i;
        }
    }
    if (!slb__finite(U))
        return tilehybrid_status_set(st, SLB_ERR_TIME, "pb", best1);
    e = U > 0.0 ? slb__exponent(U) + 1 - 60 : -1000;
    if (e < -1000)
        e = -1000;
    if (e > 960)
        e = 960;
    m->tick = slb__pow2(e);
    m->scale = slb__pow2(-e);
    return SLB_OK;
}

/* Affine costs in ticks, by position. */
static inline int slb__model_quantise(slb__model *m, tilehybrid_status *st)
{
    int64_t k;
    m->q = (int64_t *)slb__alloc(4 * m->p, sizeof(int64_t));
    if (m->q == NULL)
        return tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    for (k = 0; k < m->p; k++) {
        const slb_affine *a = &m->pb->affine[m->proc[k]];
        m->q[4 * k + 0] = slb__q(m, a->comp0);
        m->q[4 * k + 1] = slb__q(m, a->mu);
        m->q[4 * k + 2] = slb__q(m, a->comm0);
        m->q[4 * k + 3] = slb__q(m, a->lambda);
    }
    return SLB_OK;
}

/* Check the problem and the order, choose the tick, quantise affine costs. */
static inline int slb__model_init(slb__model *m, const slb_problem *pb, int64_t n,
                                  const int64_t *order, int monotone, slb_info *info,
                                  tilehybrid_status *st)
{
    int rc;
    memset(m, 0, sizeof *m);
    if (pb == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "pb", -1);
    if (pb->p < 1)
        return tilehybrid_status_set(st, SLB_ERR_NOPROC, "pb", -1);
    if (n < 0)
        return tilehybrid_status_set(st, SLB_ERR_ITEMS, "n", -1);
    if (n >= SLB__CAP)
        return tilehybrid_status_set(st, SLB_ERR_OVERFLOW, "n", -1);
    rc = slb__check_costs(pb, n, monotone, info, st);
    if (rc != SLB_OK)
        return rc;
    m->pb = pb;
    m->p = pb->p;
    m->n = n;
    rc = slb__model_order(m, order, st);
    if (rc == SLB_OK)
        rc = slb__model_tick(m, st);
    if (rc == SLB_OK && pb->kind == SLB_KIND_AFFINE)
        rc = slb__model_quantise(m, st);
    if (rc != SLB_OK) {
        slb__model_free(m);
        return rc;
    }
    if (info != NULL)
        info->tick = m->tick;
    return SLB_OK;
}

/* The start of a solver: info and st reset, then the model of pb (its
 * argument checks). */
static inline int slb__begin(slb__model *m, const slb_problem *pb, int64_t n,
                             const int64_t *order, int monotone, slb_info *info,
                             tilehybrid_status *st)
{
    slb__info_reset(info);
    slb__ok(st);
    return slb__model_init(m, pb, n, order, monotone, info, st);
}

/* Finish times (ticks, by position) and makespan of a distribution given by
 * position. */
static inline int64_t slb__eval(const slb__model *m, const int64_t *cnt, int64_t *fin)
{
    int64_t k, S = 0, mk = 0;
    for (k = 0; k < m->p; k++) {
        int64_t f;
        S = slb__sat(S, slb__cost(m, k, cnt[k], 1));
        f = slb__sat(S, slb__cost(m, k, cnt[k], 0));
        if (fin != NULL)
            fin[k] = f;
        if (f > mk)
            mk = f;
    }
    return mk;
}

/* Finish times in seconds (by position) from finish times in ticks.  A
 * saturated one (beyond 2^61 ticks: only a given distribution, never an
 * optimum, gets there) is recomputed in double precision; where that
 * overflows too, SLB_ERR_TIME names the processor. */
static inline int slb__seconds(const slb__model *m, const int64_t *cnt, const int64_t *fin,
                               double *sec, tilehybrid_status *st)
{
    double S = 0.0;
    int64_t k;
    for (k = 0; k < m->p; k++) {
        S += slb__costd(m->pb, m->proc[k], cnt[k], 1);
        sec[k] = (double)fin[k] * m->tick;
        if (fin[k] < SLB__CAP)
            continue;
        sec[k] = S + slb__costd(m->pb, m->proc[k], cnt[k], 0);
        if (!slb__finite(sec[k]))
            return tilehybrid_status_set(st, SLB_ERR_TIME, "pb", m->proc[k]);
    }
    return SLB_OK;
}

/* Copy a distribution by position into the caller's arrays by processor,
 * with finish times and info. */
static inline int slb__output(const slb__model *m, const int64_t *cnt, int64_t *counts,
                              double *finish, slb_info *info, tilehybrid_status *st)
{
    int64_t k, mk = 0;
    int64_t *fin = (int64_t *)slb__alloc(m->p, sizeof(int64_t));
    double *sec = (double *)slb__alloc(m->p, sizeof(double)), mks = 0.0;
    int rc = SLB_OK;
    if (fin == NULL || sec == NULL)
        rc = tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    if (rc == SLB_OK) {
        mk = slb__eval(m, cnt, fin);
        rc = slb__seconds(m, cnt, fin, sec, st);
    }
    for (k = 0; rc == SLB_OK && k < m->p; k++) {
        if (counts != NULL)
            counts[m->proc[k]] = cnt[k];
        if (finish != NULL)
            finish[m->proc[k]] = sec[k];
        if (sec[k] > mks)
            mks = sec[k];
    }
    if (rc == SLB_OK && info != NULL) {
        info->makespan_ticks = mk;
        info->makespan = mks;
        info->tick = m->tick;
    }
    TILEHYBRID_FREE(fin);
    TILEHYBRID_FREE(sec);
    return rc;
}
