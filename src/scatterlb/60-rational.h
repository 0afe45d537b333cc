/* ------------------------------------------------------------------------ */
/* Rational solutions and the guaranteed heuristic (affine costs)           */
/* ------------------------------------------------------------------------ */

typedef struct slb__rat {
    int64_t p;
    const double *d;    /* 4 per position: comp0, mu, comm0, lambda */
    double *x;          /* by position */
    double *th;         /* gain-bound threshold of positions >= k */
    double *inv;        /* 1/D of positions >= k without comp0, comm0 */
    unsigned char *dom; /* position k costs <= position k+1 */
    unsigned char *br;  /* position k may need the "idle" branch */
    int64_t nodes, limit;
    double tol;         /* a remainder below tol counts as "all absorbed" */
    int over;
} slb__rat;

/* Most of x a position can take within B: comp0+comm0+(mu+lambda)x <= B. */
static inline double slb__rat_u(const double *d, double B)
{
    double f = d[0] + d[2], r = d[1] + d[3];
    if (B < f)
        return 0.0;
    if (r <= 0.0)
        return 1e300;
    return (B - f) / r;
}

/* The part of need that positions k.. cannot absorb within B (0 when all
 * fits; x[k..] then holds the amounts).  The optimal amount of a position is
 * 0 or as much as fits: its value e + N(B - comm0 - lambda e) is convex in e
 * because N, the absorbable amount of the others, is convex in B. */
static inline double slb__rat_rem(slb__rat *R, int64_t k, double B, double need, int forced)
{
    int64_t p = R->p, j;
    double u, xk, ru, r0;
    const double *d;
    for (;;) {
        R->nodes++;
        if (need <= R->tol) {
            for (j = k; j < p; j++)
                R->x[j] = 0.0;
            return need > 0.0 ? need : 0.0;
        }
        d = R->d + 4 * k;
        if (k == p - 1) {
            u = slb__rat_u(d, B);
            R->x[k] = u < need ? u : need;
            return need - R->x[k];
        }
        u = forced ? 0.0 : slb__rat_u(d, B);
        if (u <= 0.0) {
            R->x[k] = 0.0;
            forced = R->dom[k];
            k++;
            continue;
        }
        xk = u < need ? u : need;
        /* the idle branch cannot absorb more than xk when
         * (comm0 + lambda xk) / th <= xk (gain bound) */
        if (!R->br[k] || R->over ||
            (R->th[k + 1] > 0 && d[2] + d[3] * xk <= xk * R->th[k + 1]) ||
            (d[2] + d[3] * xk) * R->inv[k + 1] <= xk) {
            R->x[k] = xk;
            B -= d[2] + d[3] * xk;
            if (B < 0)
                B = 0;
            need -= xk;
            k++;
            continue;
        }
        break;
    }
    if (R->nodes > R->limit)
        R->over = 1;
    /* N, the amount positions k+1.. absorb, is convex and below the linear
     * relaxation B / D: its slope never exceeds inv = 1/D.  Hence a branch
     * that cannot reach need even so is skipped, and idling k gains at most
     * (comm0 + lambda xk) inv over using it. */
    {
        double inv = R->inv[k + 1], dlt = d[2] + d[3] * xk, Bu = B - dlt;
        int use_ok = xk + (Bu > 0 ? Bu : 0.0) * inv >= need - R->tol;
        int idle_ok = B * inv >= need - R->tol && xk < dlt * inv;
        if (!use_ok && !idle_ok)
            return need; /* both fail: some upper bound of the remainder */
        ru = need;
        if (use_ok) {
            R->x[k] = xk;
            ru = slb__rat_rem(R, k + 1, Bu, need - xk, 0);
            if (ru <= R->tol || !idle_ok)
                return ru;
        }
    }
    R->x[k] = 0.0;
    r0 = slb__rat_rem(R, k + 1, B, need, R->dom[k]);
    return r0 < ru ? r0 : ru;
}

/* Linear costs (comp0 = comm0 = 0), Theorems 1 and 2: 1/D_k = (1 -
 * lambda_k/D_{k+1})/(lambda_k+mu_k) + 1/D_{k+1} when lambda_k < D_{k+1},
 * else processor k is dropped.  x[] holds 1/D_k on the way back. */
static inline void slb__rat_closed(int64_t p, const double *d, double n, double *x, double *T)
{
    int64_t k;
    double B;
    x[p - 1] = 1.0 / (d[4 * (p - 1) + 1] + d[4 * (p - 1) + 3]);
    for (k = p - 2; k >= 0; k--) {
        double l = d[4 * k + 3], mu = d[4 * k + 1];
        if (l * x[k + 1] < 1.0)
            x[k] = (1.0 - l * x[k + 1]) / (l + mu) + x[k + 1];
        else
            x[k] = x[k + 1];
    }
    *T = n / x[0];
    B = *T;
    for (k = 0; k < p - 1; k++) {
        double l = d[4 * k + 3], mu = d[4 * k + 1], xk = 0.0;
        if (l * x[k + 1] < 1.0) {
            xk = B / (l + mu);
            B -= l * xk;
            if (B < 0)
                B = 0;
        }
        x[k] = xk;
    }
    x[p - 1] = B / (d[4 * (p - 1) + 1] + d[4 * (p - 1) + 3]);
}

static inline void slb__rat_free(slb__rat *R)
{
    void *const mem[] = { R->th, R->inv, R->dom, R->br };
    slb__free_each(mem, (int)(sizeof mem / sizeof mem[0]));
}

/* The search's bounds by position: th (gain bound), inv (Theorem 2 on the
 * linear parts, 1e300: unbounded), dom (dominance), br (idle branch). */
static inline int slb__rat_init(slb__rat *R, int64_t p, const double *d, double n, double *x)
{
    int64_t k;
    memset(R, 0, sizeof *R);
    R->p = p;
    R->d = d;
    R->x = x;
    R->limit = 1000000 + 1000 * p;
    R->tol = 1e-11 * n;
    R->th = (double *)slb__alloc(p + 1, sizeof(double));
    R->inv = (double *)slb__alloc(p + 1, sizeof(double));
    R->dom = (unsigned char *)slb__alloc(p, 1);
    R->br = (unsigned char *)slb__alloc(p, 1);
    if (R->th == NULL || R->inv == NULL || R->dom == NULL || R->br == NULL)
        return SLB_ERR_NOMEM;
    R->th[p] = 1e300;
    R->inv[p] = 0.0;
    for (k = p - 1; k >= 0; k--) {
        const double *q = d + 4 * k;
        double mc = (k == p - 1) ? q[1] + q[3] : q[3], l = q[3], lm = q[1] + q[3];
        R->th[k] = mc < R->th[k + 1] ? mc : R->th[k + 1];
        R->inv[k] = slb__inv(l, lm, R->inv[k + 1], k == p - 1);
        R->inv[k] *= 1.0 + 1e-12; /* keep it an upper bound despite rounding */
        R->dom[k] = 0;
        R->br[k] = 0;
        if (k < p - 1) {
            R->dom[k] = (unsigned char)(q[0] <= q[4] && q[1] <= q[5] && q[2] <= q[6] &&
                                        q[3] <= q[7]);
            R->br[k] = (unsigned char)!(q[2] == 0.0 && (q[3] == 0.0 || q[3] <= R->th[k + 1]));
        }
    }
    return SLB_OK;
}

/* Bisection on T between 0 and the best single processor; x (R->x) holds
 * the amounts of the smallest feasible T found, which is returned. */
static inline double slb__rat_bisect(slb__rat *R, double n)
{
    const double *d = R->d;
    double lo = 0.0, hi = -1.0;
    int64_t k;
    int iter;
    for (k = 0; k < R->p; k++) {
        const double *q = d + 4 * k;
        double g = q[0] + q[2] + (q[1] + q[3]) * n;
        if (hi < 0 || g < hi)
            hi = g;
    }
    for (iter = 0; iter < 200 && hi - lo > 1e-15 * hi; iter++) {
        double mid = lo + (hi - lo) / 2;
        if (mid <= lo || mid >= hi)
            break;
        if (slb__rat_rem(R, 0, mid, n, 0) <= R->tol)
            hi = mid;
        else
            lo = mid;
    }
    (void)slb__rat_rem(R, 0, hi, n, 0);
    return hi;
}

/* Rational optimum by position; d: 4 doubles per position.  closed_form:
 * use Theorems 1-2 for linear costs (the tests compare it with the
 * search). */
static inline int slb__rational(int64_t p, const double *d, double n, double *x, double *T,
                                int closed_form, int *guaranteed, int64_t *work)
{
    slb__rat R;
    int64_t k;
    int linear = 1;
    *guaranteed = 1;
    for (k = 0; k < p; k++) {
        x[k] = 0.0;
        if (d[4 * k] != 0.0 || d[4 * k + 2] != 0.0)
            linear = 0;
    }
    *T = 0.0;
    if (n <= 0.0)
        return SLB_OK;
    /* a processor that costs nothing takes everything at time 0 */
    for (k = 0; k < p; k++) {
        const double *q = d + 4 * k;
        if (q[0] + q[1] + q[2] + q[3] == 0.0) {
            x[k] = n;
            return SLB_OK;
        }
    }
    if (linear && closed_form) {
        slb__rat_closed(p, d, n, x, T);
        if (work != NULL)
            *work = p;
        return SLB_OK;
    }
    if (slb__rat_init(&R, p, d, n, x) != SLB_OK) {
        slb__rat_free(&R);
        return SLB_ERR_NOMEM;
    }
    *T = slb__rat_bisect(&R, n);
    *guaranteed = !R.over;
    if (work != NULL)
        *work = R.nodes;
    slb__rat_free(&R);
    return SLB_OK;
}

/* comp0, mu, comm0, lambda by position (4 doubles each). */
static inline void slb__rat_params(const slb__model *m, double *d)
{
    int64_t k;
    for (k = 0; k < m->p; k++) {
        const slb_affine *a = &m->pb->affine[m->proc[k]];
        d[4 * k] = a->comp0;
        d[4 * k + 1] = a->mu;
        d[4 * k + 2] = a->comm0;
        d[4 * k + 3] = a->lambda;
    }
}

/* The rational optimum of an affine problem (the core of slb_rational()
 * and slb_heuristic()): m set up, *d its positions' parameters
 * (slb__rat_params), *xp the amounts by position, *T the makespan, and
 * guaranteed and work as slb__rational() sets them.  Whatever it returns,
 * free *d, *xp (NULL when not allocated) and m after it. */
static inline int slb__rat_affine(slb__model *m, const slb_problem *pb, int64_t n,
                                  const int64_t *order, double **d, double **xp, double *T,
                                  int *guaranteed, int64_t *work, slb_info *info,
                                  tilehybrid_status *st)
{
    int rc;
    memset(m, 0, sizeof *m);
    *d = *xp = NULL;
    if (pb != NULL && pb->kind != SLB_KIND_AFFINE)
        return tilehybrid_status_set(st, SLB_ERR_AFFINE, "pb", -1);
    rc = slb__model_init(m, pb, n, order, 1, info, st);
    if (rc != SLB_OK)
        return rc;
    *d = (double *)slb__alloc(4 * m->p, sizeof(double));
    *xp = (double *)slb__alloc(m->p, sizeof(double));
    if (*d == NULL || *xp == NULL)
        return tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    slb__rat_params(m, *d);
    rc = slb__rational(m->p, *d, (double)n, *xp, T, 1, guaranteed, work);
    if (rc != SLB_OK)
        (void)tilehybrid_status_set(st, rc, "", -1);
    return rc;
}

/* slb_rational() -- documented at its declaration (05-api.h). */
static inline int slb_rational(const slb_problem *pb, int64_t n, const int64_t *order,
                               double *x, double *T, slb_info *info, tilehybrid_status *st)
{
    slb__model m;
    double *d, *xp;
    int64_t k;
    int rc, guaranteed = 1;
    slb__info_reset(info);
    slb__ok(st);
    if (x == NULL || T == NULL || pb == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, x == NULL ? "x" : T == NULL ? "T" : "pb",
                                     -1);
    rc = slb__rat_affine(&m, pb, n, order, &d, &xp, T, &guaranteed, info ? &info->work : NULL,
                         info, st);
    if (rc == SLB_OK) {
        for (k = 0; k < m.p; k++)
            x[m.proc[k]] = xp[k];
        if (info != NULL) {
            info->rational = *T;
            info->guaranteed = guaranteed;
        }
    }
    return slb__done(&m, d, xp, rc);
}

typedef struct slb__frac {
    double f;
    int64_t i;
} slb__frac;

static inline int slb__frac_cmp(const void *a, const void *b)
{
    const slb__frac *x = (const slb__frac *)a, *y = (const slb__frac *)b;
    if (x->f != y->f)
        return x->f < y->f ? -1 : 1;
    return x->i < y->i ? -1 : (x->i > y->i ? 1 : 0);
}

/* slb_round's arguments: x finite, >= -1e-9, below 4e18, adding up to n
 * within 1e-6 (n + p). */
static inline int slb__round_check(int64_t p, const double *x, int64_t n, const int64_t *counts,
                                   tilehybrid_status *st)
{
    int64_t i;
    double tot = 0.0;
    if (p < 1)
        return tilehybrid_status_set(st, SLB_ERR_NOPROC, "p", -1);
    if (x == NULL || counts == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, x == NULL ? "x" : "counts", -1);
    if (n < 0)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "n", -1);
    for (i = 0; i < p; i++) {
        if (!slb__finite(x[i]) || x[i] < -1e-9 || x[i] >= 4e18)
            return tilehybrid_status_set(st, SLB_ERR_ARG, "x", i);
        tot += x[i];
    }
    if (tot - (double)n > 1e-6 * (double)(n + p) || (double)n - tot > 1e-6 * (double)(n + p))
        return tilehybrid_status_set(st, SLB_ERR_ARG, "x", -1);
    return SLB_OK;
}

/* The paper's scheme on the m fractional parts fr (sorted ascending):
 * while the accumulated error is negative (resp. positive), round up the
 * value nearest to its ceiling (resp. down the one nearest to its floor);
 * at zero, the one nearer to an integer; the last one cancels the error. */
static inline void slb__round_fracs(const slb__frac *fr, int64_t m, int64_t *counts)
{
    int64_t lo = 0, hi = m - 1;
    double err = 0.0;
    while (hi > lo) {
        /* round up the largest fraction, or down the smallest */
        int up;
        if (err < 0)
            up = 1;
        else if (err > 0)
            up = 0;
        else
            up = 1.0 - fr[hi].f < fr[lo].f;
        if (up) {
            counts[fr[hi].i] += 1;
            err += 1.0 - fr[hi].f;
            hi--;
        } else {
            err -= fr[lo].f;
            lo++;
        }
    }
    if (hi == lo) {
        /* the last one cancels the error: n'_k = n_k - err, an integer in
         * exact arithmetic (0 or 1 above the floor since |err| < 1) */
        double v = fr[lo].f - err;
        counts[fr[lo].i] += v >= 0.5 ? (int64_t)(v + 0.5) : 0;
    }
}

/* slb_round() -- documented at its declaration (05-api.h). */
static inline int slb_round(int64_t p, const double *x, int64_t n, int64_t *counts,
                            tilehybrid_status *st)
{
    slb__frac *fr;
    int64_t i, m = 0, sum = 0, big = 0;
    int rc;
    slb__ok(st);
    rc = slb__round_check(p, x, n, counts, st);
    if (rc != SLB_OK)
        return rc;
    fr = (slb__frac *)slb__alloc(p, sizeof(slb__frac));
    if (fr == NULL)
        return tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    for (i = 0; i < p; i++) {
        double v = x[i] > 0 ? x[i] : 0.0;
        int64_t fl = (int64_t)v;
        counts[i] = fl;
        if (v - (double)fl > 0.0) {
            fr[m].f = v - (double)fl;
            fr[m].i = i;
            m++;
        }
    }
    qsort(fr, (size_t)m, sizeof *fr, slb__frac_cmp);
    slb__round_fracs(fr, m, counts);
    TILEHYBRID_FREE(fr);
    for (i = 0; i < p; i++)
        sum += counts[i];
    /* floating-point slack only: move the difference onto the largest */
    if (sum != n) {
        for (i = 1; i < p; i++)
            if (counts[i] > counts[big])
                big = i;
        counts[big] += n - sum;
        if (counts[big] < 0)
            return tilehybrid_status_set(st, SLB_ERR_ARG, "x", big);
    }
    return SLB_OK;
}

/* slb_heuristic() -- documented at its declaration (05-api.h). */
static inline int slb_heuristic(const slb_problem *pb, int64_t n, const int64_t *order,
                                int64_t *counts, double *finish, slb_info *info,
                                tilehybrid_status *st)
{
    slb__model m;
    double *d, *xp, T = 0, sumc = 0, maxt = 0;
    int64_t *cnt = NULL, k, work = 0;
    int rc, guaranteed = 1;
    slb__info_reset(info);
    slb__ok(st);
    rc = slb__rat_affine(&m, pb, n, order, &d, &xp, &T, &guaranteed, &work, info, st);
    if (rc == SLB_OK) {
        cnt = (int64_t *)slb__alloc(m.p, sizeof(int64_t));
        if (cnt == NULL)
            rc = tilehybrid_status_set(st, SLB_ERR_NOMEM, "", -1);
    }
    if (rc == SLB_OK) {
        memset(cnt, 0, (size_t)m.p * sizeof(int64_t));
        for (k = 0; k < m.p; k++) {
            sumc += d[4 * k + 2] + d[4 * k + 3];
            if (d[4 * k] + d[4 * k + 1] > maxt)
                maxt = d[4 * k] + d[4 * k + 1];
        }
        rc = slb_round(m.p, xp, n, cnt, st);
    }
    if (rc == SLB_OK)
        rc = slb__output(&m, cnt, counts, finish, info, st);
    if (rc == SLB_OK && info != NULL) {
        info->rational = T;
        info->bound = sumc + maxt;
        info->guaranteed = guaranteed;
        info->work = work;
    }
    TILEHYBRID_FREE(d);
    return slb__done(&m, xp, cnt, rc);
}

/* slb_solve() -- documented at its declaration (05-api.h). */
static inline int slb_solve(const slb_problem *pb, int64_t n, const int64_t *order, int method,
                            int64_t *counts, double *finish, slb_info *info,
                            tilehybrid_status *st)
{
    switch (method) {
    case SLB_METHOD_EXACT: return slb_exact(pb, n, order, counts, finish, info, st);
    case SLB_METHOD_HEURISTIC: return slb_heuristic(pb, n, order, counts, finish, info, st);
    case SLB_METHOD_UNIFORM: return slb_uniform(pb, n, order, counts, finish, info, st);
    default:
        slb__info_reset(info);
        return tilehybrid_status_set(st, SLB_ERR_METHOD, "method", -1);
    }
}
