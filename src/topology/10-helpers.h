/* ------------------------------------------------------------------------ */
/* Private helpers (names topo__*).                                         */

/* Number of divisors of any n <= 2^31-1 is at most 1600 (2095133040). */
#define TOPO__MAX_DIVS 1600

/* The search's own arithmetic, a different thing from tilehybrid_mul_ok():
 * it never fails but saturates -- any value above INT64_MAX becomes
 * TOPO__SAT, which then stays TOPO__SAT (times zero is zero) -- so that the
 * lower bounds of a subtree and the volumes of grids that overflow can
 * still be compared: a saturated bound is still a bound, and a saturated
 * volume loses to every volume that fits. */
#define TOPO__SAT UINT64_MAX
#define TOPO__CAP ((uint64_t)INT64_MAX)

#if TILEHYBRID__DEFINE
TILEHYBRID__COLD uint64_t topo__mul(uint64_t a, uint64_t b)
{
    if ((a | b) < ((uint64_t)1 << 31))
        return a * b; /* the common case: no division needed */
    if (a == 0 || b == 0)
        return 0;
    if (a > TOPO__CAP || b > TOPO__CAP || a > TOPO__CAP / b)
        return TOPO__SAT;
    return a * b;
}

TILEHYBRID__COLD uint64_t topo__add(uint64_t a, uint64_t b)
{
    if (a > TOPO__CAP || b > TOPO__CAP || a > TOPO__CAP - b)
        return TOPO__SAT;
    return a + b;
}

/* ceil(x / p) for x >= 0, p >= 1, without overflow. */
TILEHYBRID__COLD int64_t topo__ceildiv(int64_t x, int64_t p)
{
    return x / p + (x % p != 0);
}
#else
TILEHYBRID__COLD uint64_t topo__mul(uint64_t a, uint64_t b);
TILEHYBRID__COLD uint64_t topo__add(uint64_t a, uint64_t b);
TILEHYBRID__COLD int64_t topo__ceildiv(int64_t x, int64_t p);
#endif

/* The divisors of r (1 <= r <= INT_MAX), two ways: sorted[] in increasing
 * order, and val[] by mixed-radix index (index = sum_i e_i * stride[i] for
 * the divisor prod_i prime[i]^e_i), so that the index of q / p is
 * index(q) - index(p).  sidx[i] is the mixed-radix index of sorted[i]. */
typedef struct topo__divs {
    int count, np;
    int32_t prime[10]; /* 2*3*5*...*29 > 2^31: at most 9 distinct primes */
    int expo[10], stride[10];
    int32_t sorted[TOPO__MAX_DIVS];
    int32_t val[TOPO__MAX_DIVS];
    int16_t sidx[TOPO__MAX_DIVS];
} topo__divs;

#if TILEHYBRID__DEFINE
TILEHYBRID__COLD void topo__divisors(int64_t r, topo__divs *dv)
{
    int64_t m = r, p;
    int i, j, gi;
    static const int gaps[7] = {301, 132, 57, 23, 10, 4, 1}; /* Ciura */
    dv->np = 0;
    for (p = 2; p * p <= m; p += (p == 2) ? 1 : 2) {
        if (m % p == 0) {
            dv->prime[dv->np] = (int32_t)p;
            dv->expo[dv->np] = 0;
            while (m % p == 0) {
                m /= p;
                dv->expo[dv->np]++;
            }
            dv->np++;
        }
    }
    if (m > 1) {
        dv->prime[dv->np] = (int32_t)m;
        dv->expo[dv->np++] = 1;
    }
    dv->count = 1;
    for (i = 0; i < dv->np; i++) {
        dv->stride[i] = dv->count;
        dv->count *= dv->expo[i] + 1;
    }
    /* val[] by index: val[idx + e*stride] = val[idx] * prime^e */
    dv->val[0] = 1;
    for (i = 0; i < dv->np; i++)
        for (j = dv->stride[i]; j < dv->stride[i] * (dv->expo[i] + 1); j++)
            dv->val[j] = dv->val[j - dv->stride[i]] * dv->prime[i];
    for (i = 0; i < dv->count; i++) {
        dv->sorted[i] = dv->val[i];
        dv->sidx[i] = (int16_t)i;
    }
    for (gi = 0; gi < 7; gi++) { /* Shell sort, count <= 1600 */
        int gap = gaps[gi];
        for (i = gap; i < dv->count; i++) {
            int32_t v = dv->sorted[i];
            int16_t x = dv->sidx[i];
            for (j = i; j >= gap && dv->sorted[j - gap] > v; j -= gap) {
                dv->sorted[j] = dv->sorted[j - gap];
                dv->sidx[j] = dv->sidx[j - gap];
            }
            dv->sorted[j] = v;
            dv->sidx[j] = x;
        }
    }
}

/* The loop nest's sizes, in the documented order: extent[i] >= 1, zlen
 * >= 1 (when given; its index is n), dep[i] >= 0.  The step every argument
 * check of this header ends with. */
TILEHYBRID__COLD int topo__check_space(int n, const int64_t *extent, const int64_t *zlen,
                                       const int64_t *dep, tilehybrid_status *st)
{
    int i;
    for (i = 0; i < n; i++)
        if (extent[i] < 1)
            return tilehybrid_status_set(st, TOPO_ERR_EXTENT, "extent", i);
    if (zlen != NULL && *zlen < 1)
        return tilehybrid_status_set(st, TOPO_ERR_EXTENT, "zlen", n);
    for (i = 0; i < n; i++)
        if (dep[i] < 0)
            return tilehybrid_status_set(st, TOPO_ERR_DEP, "dep", i);
    return TOPO_OK;
}

/* The first checks of a space: extent (and, where need_dep, dep) not
 * NULL, then n. */
TILEHYBRID__COLD int topo__check_shape(int n, const int64_t *extent, const int64_t *dep,
                                       int need_dep, tilehybrid_status *st)
{
    if (extent == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "extent", -1);
    if (need_dep && dep == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "dep", -1);
    if (n < 1 || n > TOPO_MAX_DIMS)
        return tilehybrid_status_set(st, TOPO_ERR_NDIMS, "n", -1);
    return TOPO_OK;
}

/* The number of processes (1..INT_MAX) and the policy (with_time: the
 * nest's TOPO_POLICY_TIME too). */
TILEHYBRID__COLD int topo__check_run(int64_t procs, topo_policy policy, int with_time,
                                     tilehybrid_status *st)
{
    if (procs < 1 || procs > INT_MAX)
        return tilehybrid_status_set(st, TOPO_ERR_PROCS, "procs", -1);
    if (policy != TOPO_POLICY_COMM && policy != TOPO_POLICY_LATENCY &&
        !(with_time && policy == TOPO_POLICY_TIME))
        return tilehybrid_status_set(st, TOPO_ERR_POLICY, "policy", -1);
    return TOPO_OK;
}

/* Argument checks shared by the grid searches. */
TILEHYBRID__COLD int topo__check_common(int n, int64_t procs,
                                        const int64_t *extent, const int64_t *dep,
                                        topo_policy policy, tilehybrid_status *st)
{
    int rc = topo__check_shape(n, extent, dep, 1, st);
    if (rc == TOPO_OK)
        rc = topo__check_run(procs, policy, 0, st);
    if (rc == TOPO_OK)
        rc = topo__check_space(n, extent, NULL, dep, st);
    return rc;
}

/* Fixed entries: each >= 0 and <= extent (when extent given), their
 * product divides procs; *rest = procs / product.  If every entry is fixed
 * the product must equal procs.  name is "dims" or "tdims". */
TILEHYBRID__COLD int topo__check_fixed(int n, int64_t procs, const int *dims,
                                       const int64_t *extent, int64_t *rest,
                                       const char *name, tilehybrid_status *st)
{
    int i, nfree = 0, last = -1;
    int64_t prod = 1;
    for (i = 0; i < n; i++) {
        if (dims[i] < 0)
            return tilehybrid_status_set(st, TOPO_ERR_FIXED, name, i);
        if (dims[i] == 0) {
            nfree++;
            continue;
        }
        if (extent != NULL && dims[i] > extent[i])
            return tilehybrid_status_set(st, TOPO_ERR_FIXED, name, i);
        last = i;
        if (dims[i] > procs / prod) /* product would exceed procs */
            return tilehybrid_status_set(st, TOPO_ERR_FIXED, name, i);
        prod *= dims[i];
    }
    if (procs % prod != 0 || (nfree == 0 && prod != procs))
        return tilehybrid_status_set(st, TOPO_ERR_FIXED, name, last);
    *rest = procs / prod;
    return TOPO_OK;
}

/* ---- latency-optimal (balanced) factorisation ------------------------- */

/* Smallest x >= 1 with x^r >= q (q >= 1, r >= 1). */
TILEHYBRID__COLD int64_t topo__root_ceil(int64_t q, int r)
{
    int64_t lo = 1, hi = q;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2, pw = 1;
        int k, big = 0;
        for (k = 0; k < r; k++) {
            if (pw > q / mid) {
                big = 1;
                break;
            }
            pw *= mid;
        }
        if (big || pw >= q)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* 1 if x^r <= q (x >= 1). */
TILEHYBRID__COLD int topo__pow_le(int64_t x, int r, int64_t q)
{
    int64_t pw = 1;
    int k;
    for (k = 0; k < r; k++) {
        if (pw > q / x)
            return 0;
        pw *= x;
    }
    return 1;
}
#else
TILEHYBRID__COLD void topo__divisors(int64_t r, topo__divs *dv);
TILEHYBRID__COLD int topo__check_space(int n, const int64_t *extent, const int64_t *zlen,
                                       const int64_t *dep, tilehybrid_status *st);
TILEHYBRID__COLD int topo__check_shape(int n, const int64_t *extent, const int64_t *dep,
                                       int need_dep, tilehybrid_status *st);
TILEHYBRID__COLD int topo__check_run(int64_t procs, topo_policy policy, int with_time,
                                     tilehybrid_status *st);
TILEHYBRID__COLD int topo__check_common(int n, int64_t procs,
                                        const int64_t *extent, const int64_t *dep,
                                        topo_policy policy, tilehybrid_status *st);
TILEHYBRID__COLD int topo__check_fixed(int n, int64_t procs, const int *dims,
                                       const int64_t *extent, int64_t *rest,
                                       const char *name, tilehybrid_status *st);
TILEHYBRID__COLD int64_t topo__root_ceil(int64_t q, int r);
TILEHYBRID__COLD int topo__pow_le(int64_t x, int r, int64_t q);
#endif

typedef struct topo__bal {
    int k;                       /* number of factors */
    const topo__divs *dv;        /* divisors of the product */
    int64_t cur[TOPO_MAX_DIMS];  /* non-decreasing */
    int64_t best[TOPO_MAX_DIMS];
    int64_t bestbal;             /* -1: none yet */
} topo__bal;

#if TILEHYBRID__DEFINE
/* Choose cur[t] (>= cur[t-1]) for the remaining product q.  Sequences are
 * visited in decreasing order of (cur[0], cur[1], ...), so the first one
 * found with the best balance max - min is also the one MPI_Dims_create
 * prefers: among equally balanced factorisations the largest smallest
 * factor, then the largest next one, and so on. */
TILEHYBRID__COLD void topo__bal_dfs(topo__bal *b, int t, int64_t q)
{
    int r = b->k - t, i, j;
    int64_t lo = t > 0 ? b->cur[t - 1] : 1;
    if (r == 1) {
        int64_t bal;
        if (q < lo)
            return;
        b->cur[t] = q;
        bal = q - b->cur[0];
        if (b->bestbal < 0 || bal < b->bestbal) {
            b->bestbal = bal;
            for (i = 0; i < b->k; i++)
                b->best[i] = b->cur[i];
        }
        return;
    }
    for (i = b->dv->count - 1; i >= 0; i--) {
        int64_t f = b->dv->sorted[i], q2, mx;
        if (f < lo)
            break;
        if (q % f != 0 || !topo__pow_le(f, r, q))
            continue;
        q2 = q / f;
        /* the largest factor is at least f, ceil(q2^(1/(r-1))) and the
         * largest prime dividing q2; later sequences with the same balance
         * lose the tie, so skip >= */
        mx = topo__root_ceil(q2, r - 1);
        if (mx < f)
            mx = f;
        for (j = b->dv->np - 1; j >= 0; j--)
            if (q2 % b->dv->prime[j] == 0) {
                if (mx < b->dv->prime[j])
                    mx = b->dv->prime[j];
                break;
            }
        if (b->bestbal >= 0 && mx - (t > 0 ? b->cur[0] : f) >= b->bestbal)
            continue;
        b->cur[t] = f;
        topo__bal_dfs(b, t + 1, q2);
    }
}

/* Fill the free (0) entries of dims with the balanced factorisation of
 * rest, in non-increasing order, as MPI_Dims_create does. */
TILEHYBRID__COLD void topo__balanced(int n, int64_t rest, int *dims)
{
    topo__divs dv;
    topo__bal b;
    int i, k = 0, j;
    for (i = 0; i < n; i++)
        k += dims[i] == 0;
    if (k == 0)
        return;
    topo__divisors(rest, &dv);
    b.k = k;
    b.dv = &dv;
    b.bestbal = -1;
    topo__bal_dfs(&b, 0, rest);
    for (i = 0, j = k - 1; i < n; i++)
        if (dims[i] == 0)
            dims[i] = (int)b.best[j--];
}
#else
TILEHYBRID__COLD void topo__bal_dfs(topo__bal *b, int t, int64_t q);
TILEHYBRID__COLD void topo__balanced(int n, int64_t rest, int *dims);
#endif

/* ---- communication-optimal search --------------------------------------
 *
 * WHAT IS SEARCHED.  Every grid: the free dimensions are assigned in index
 * order, each taking a divisor p <= X of the processes still to place, the
 * smallest p first (topo__comm_dfs), so grids come in lexicographic order.
 * A grid replaces the best one only with a strictly smaller V, so the first
 * grid of least V -- the one the tie rule wants -- is the answer.
 *
 * WHAT IS PRUNED.  At depth t the free dims 0..t-1 (and the fixed ones) are
 * assigned, with
 *   ca = prod_{assigned j} c_j,  sa = sum_{assigned i} d_i prod_{assigned
 *   j != i} c_j,
 * and the open dims t..k-1 must multiply to q.  If the open dims get
 *   cu = prod_{open j} c_j,  g = sum_{open i} d_i prod_{open j != i} c_j,
 * every grid of the subtree has V = sa * cu + ca * g.  topo__prune() skips
 * the subtree when a LOWER bound on that V
 *   - is >= the best V found so far: every grid of the subtree comes later
 *     in lexicographic order, so even a tie would lose; or
 *   - is > the V of the greedy seed grid (topo__greedy: a real grid, so the
 *     optimum is at most its V; only "greater", as the subtree may hold a
 *     grid of exactly that V); or
 *   - when no assignment of the open dims fits (P_j <= X_j).
 * The lower bounds:
 *  (1) tables: mincu[t][q] = min cu, ming[t][q] <= min g over every
 *      assignment of the open dims with product q and P_j <= X_j (0 in
 *      mincu marks "no assignment fits"), by dynamic programming over the
 *      divisors (topo__tables); V >= sa*mincu + ca*ming.
 *  (2) continuous: cu >= W = prod X_j / q, and by the AM-GM inequality over
 *      the u open dims with d_i > 0 (product D), g >= u (D W^(u-1))^(1/u);
 *      tested in double with a relative margin of 1e-9, far above the
 *      rounding error, so rounding can only keep a subtree, never drop one.
 *
 * WHY THE RESULT IS STILL EXACT.  A subtree is dropped only when every grid
 * in it is provably no better than a grid already known, and the saturating
 * arithmetic keeps every bound a bound; so the search returns the grid full
 * enumeration returns (tests/unit_topology.c compares the two on 23,000
 * random cases, with and without the tables).
 *
 * EXTENDED FACES (xf != NULL).  Extending a face only adds elements, so the
 * volume without extensions is a lower bound of the volume with them: the
 * bounds above stay bounds, and only a leaf whose plain V could still win
 * is evaluated exactly (topo__volume with xf). */
typedef struct topo__comm {
    int n, k;
    int fidx[TOPO_MAX_DIMS];          /* free dimensions, increasing */
    const int64_t *ext, *dep;
    const int64_t *lim;                  /* the largest P_i (ext, or the
                                            engine's X_i / d_i) */
    const int64_t (*xf)[TOPO_MAX_DIMS];  /* extended faces, or NULL */
    const topo__divs *dv;
    /* Workspace (one allocation, NULL if there is none; k >= 3 only),
     * rows indexed [t * count + mixed index]:
     *   cdiv:  ceil(X_{f_t} / p) for the divisor p, 0 if p > X_{f_t};
     *   mincu, ming: the tables of bound (1), rows t >= 1;
     *   off, lst: the divisors of q (mixed index qi), increasing, are
     *         sorted[lst[off[qi]]] .. sorted[lst[off[qi + 1] - 1]]. */
    uint64_t *cdiv, *mincu, *ming;
    int32_t *off;
    int16_t *lst;
    int64_t sufx[TOPO_MAX_DIMS + 1];  /* saturated product of lim over
                                         free dims t..k-1 */
    double sufxd[TOPO_MAX_DIMS + 1];  /* the same in double */
    double sufd[TOPO_MAX_DIMS + 1];   /* product of positive dep, t..k-1 */
    int sufu[TOPO_MAX_DIMS + 1];      /* number of positive dep, t..k-1 */
    int cur[TOPO_MAX_DIMS];
    int best[TOPO_MAX_DIMS];
    int have;                         /* a grid found by the search */
    uint64_t bestv;
    int have_seed;                    /* upper bound from the greedy seed */
    uint64_t seedv;
} topo__comm;

#if TILEHYBRID__DEFINE
/* Number of divisors of the divisor with mixed index qi. */
TILEHYBRID__COLD int topo__ndiv(const topo__divs *dv, int qi)
{
    int i, c = 1;
    for (i = 0; i < dv->np; i++)
        c *= (qi / dv->stride[i]) % (dv->expo[i] + 1) + 1;
    return c;
}

/* Fill off[] and lst[]: for every divisor q, its divisors in increasing
 * order (positions in sorted[]).  Walks p upwards and appends p to the list
 * of every multiple q = p * m, m | r / p. */
TILEHYBRID__COLD void topo__lists(topo__comm *s)
{
    const topo__divs *dv = s->dv;
    int cnt = dv->count, qi, pos, i, start = 0;
    /* off[qi + 1] starts at the beginning of q's list and is the fill
     * cursor; when all is filled it is the end of q's list */
    s->off[0] = 0;
    for (qi = 0; qi < cnt; qi++) {
        s->off[qi + 1] = start;
        start += topo__ndiv(dv, qi);
    }
    for (pos = 0; pos < cnt; pos++) {
        int pidx = dv->sidx[pos], room[10], f[10], midx = 0;
        for (i = 0; i < dv->np; i++) {
            room[i] = dv->expo[i] - (pidx / dv->stride[i]) % (dv->expo[i] + 1);
            f[i] = 0;
        }
        for (;;) { /* every m (index midx) dividing r / p */
            int q = pidx + midx;
            s->lst[s->off[q + 1]++] = (int16_t)pos;
            for (i = 0; i < dv->np; i++) {
                if (f[i] < room[i]) {
                    f[i]++;
                    midx += dv->stride[i];
                    break;
                }
                midx -= f[i] * dv->stride[i];
                f[i] = 0;
            }
            if (i == dv->np)
                break;
        }
    }
}

/* Fill cdiv, then the tables of bound (1) for depths k-1 down to 1:
 *   mincu[t][q] = min over p | q, p <= X of c(p) * mincu[t+1][q/p],
 *   ming[t][q]  = min over p of c(p) * ming[t+1][q/p] + d * mincu[t+1][q/p]
 * (a lower bound: the two minima may come from different p). */
TILEHYBRID__COLD void topo__tables(topo__comm *s)
{
    const topo__divs *dv = s->dv;
    int t, qi, j, cnt = dv->count;
    for (t = 0; t < s->k; t++) {
        int64_t x = s->ext[s->fidx[t]], lim = s->lim[s->fidx[t]];
        for (qi = 0; qi < cnt; qi++)
            s->cdiv[(size_t)t * cnt + qi] =
                dv->val[qi] <= lim ? (uint64_t)topo__ceildiv(x, dv->val[qi])
                                   : 0;
    }
    for (t = s->k - 1; t >= 1; t--) {
        uint64_t d = (uint64_t)s->dep[s->fidx[t]];
        const uint64_t *c = s->cdiv + (size_t)t * cnt;
        uint64_t *cu = s->mincu + (size_t)t * cnt;
        uint64_t *g = s->ming + (size_t)t * cnt;
        const uint64_t *cu1 = cu + cnt, *g1 = g + cnt;
        for (qi = 0; qi < cnt; qi++) {
            uint64_t bcu = 0, bg = 0; /* bcu 0: nothing fits */
            int found = 0;
            if (t == s->k - 1) {
                cu[qi] = c[qi];
                g[qi] = c[qi] != 0 ? d : 0;
                continue;
            }
            for (j = s->off[qi]; j < s->off[qi + 1]; j++) {
                int pidx = dv->sidx[s->lst[j]], q2 = qi - pidx;
                uint64_t vcu, vg;
                if (c[pidx] == 0)
                    break; /* p > X, and so are the larger ones */
                if (cu1[q2] == 0)
                    continue;
                vcu = topo__mul(c[pidx], cu1[q2]);
                vg = topo__add(topo__mul(c[pidx], g1[q2]),
                               topo__mul(d, cu1[q2]));
                if (!found || vcu < bcu)
                    bcu = vcu;
                if (!found || vg < bg)
                    bg = vg;
                found = 1;
            }
            cu[qi] = bcu;
            g[qi] = bg;
        }
    }
}

/* 1 if the subtree at depth t (open dims t..k-1, product q with mixed
 * index qi) can be skipped: it holds no grid (tables), or its lower bound
 * is >= the best grid found so far (all its grids come later in
 * lexicographic order, so a tie loses), or > the greedy seed's volume. */
TILEHYBRID__COLD int topo__prune(const topo__comm *s, int t, int64_t q, int qi,
                                 uint64_t ca, uint64_t sa)
{
    const double margin = 1.0 + 1e-9;
    double w, first, thr, rem, y, lhs, rhs;
    int u = s->sufu[t], i, pass;
    if (s->mincu != NULL) {
        uint64_t cu = s->mincu[(size_t)t * s->dv->count + qi], lb;
        if (cu == 0)
            return 1;
        lb = topo__add(topo__mul(sa, cu),
                       topo__mul(ca, s->ming[(size_t)t * s->dv->count + qi]));
        if ((s->have && lb >= s->bestv) || (s->have_seed && lb > s->seedv))
            return 1;
    } else if (s->sufx[t] < q) {
        return 1; /* the rest cannot fit in the open extents */
    }
    /* bound (2) in double; the relative margin 1e-9 is far above the
     * rounding error, so only subtrees that surely lose are skipped.
     * Tested without roots: ca*u*(D W^(u-1))^(1/u) >= rem iff
     * D W^(u-1) >= (rem / (ca u))^u. */
    w = s->sufxd[t] / (double)q;
    if (w < 1.0)
        w = 1.0;
    first = w * (double)sa;
    for (pass = 0; pass < 2; pass++) {
        int strict = pass == 1;
        if (!(strict ? s->have_seed : s->have))
            continue;
        thr = (double)(strict ? s->seedv : s->bestv) * margin;
        if (strict ? first > thr : first >= thr)
            return 1;
        if (u == 0)
            continue;
        rem = thr - first;
        y = rem / ((double)ca * (double)u);
        lhs = s->sufd[t];
        for (i = 1; i < u; i++)
            lhs *= w;
        rhs = 1.0;
        for (i = 0; i < u; i++)
            rhs *= y;
        if (strict ? lhs > rhs : lhs >= rhs)
            return 1;
    }
    return 0;
}

/* Elements per Z-plane of the face a block of the grid's largest blocks
 * sends along i: d_i prod_{j<i} (c_j + xf[i][j]) prod_{j>i} c_j
 * (saturated; xf NULL: no extension). */
TILEHYBRID__COLD uint64_t topo__face(int n, const int *dims, const int64_t *ext,
                                     const int64_t *dep,
                                     const int64_t (*xf)[TOPO_MAX_DIMS], int i)
{
    uint64_t t = (uint64_t)dep[i];
    int j;
    for (j = 0; j < n; j++) {
        uint64_t c = (uint64_t)topo__ceildiv(ext[j], dims[j]);
        if (j == i)
            continue;
        if (j < i && xf != NULL)
            c = topo__add(c, (uint64_t)xf[i][j]);
        t = topo__mul(t, c);
    }
    return t;
}

/* Saturated model volume per Z-plane: sum_i d_i prod_{j != i} c_j, each
 * face extended by xf (NULL: none). */
TILEHYBRID__COLD uint64_t topo__volume(int n, const int *dims,
                                       const int64_t *ext, const int64_t *dep,
                                       const int64_t (*xf)[TOPO_MAX_DIMS])
{
    uint64_t ca = 1, sa = 0;
    int i;
    if (xf != NULL) {
        for (i = 0; i < n; i++)
            sa = topo__add(sa, topo__face(n, dims, ext, dep, xf, i));
        return sa;
    }
    for (i = 0; i < n; i++) {
        uint64_t c = (uint64_t)topo__ceildiv(ext[i], dims[i]);
        sa = topo__add(topo__mul(sa, c), topo__mul((uint64_t)dep[i], ca));
        ca = topo__mul(ca, c);
    }
    return sa;
}

/* Leaf: the last free dimension takes the remaining product q. */
TILEHYBRID__COLD void topo__comm_leaf(topo__comm *s, int dim, int64_t q,
                                      int qi, uint64_t ca, uint64_t sa)
{
    uint64_t c, v;
    int j;
    if (s->cdiv != NULL) {
        c = s->cdiv[(size_t)(s->k - 1) * s->dv->count + qi];
        if (c == 0)
            return;
    } else {
        if (q > s->lim[dim])
            return;
        c = (uint64_t)topo__ceildiv(s->ext[dim], q);
    }
    v = topo__add(topo__mul(sa, c), topo__mul((uint64_t)s->dep[dim], ca));
    /* leaves come in lexicographic order: only a strictly smaller V wins
     * (and extended faces only add to v) */
    if (s->have && v >= s->bestv)
        return;
    s->cur[dim] = (int)q;
    if (s->xf != NULL)
        v = topo__volume(s->n, s->cur, s->ext, s->dep, s->xf);
    if (!s->have || v < s->bestv) {
        s->have = 1;
        s->bestv = v;
        for (j = 0; j < s->n; j++)
            s->best[j] = s->cur[j];
    }
}

/* Depth-first search over the free dimensions in index order, each taking
 * the divisors of the remaining product in increasing order, so grids are
 * visited in lexicographic order. */
TILEHYBRID__COLD void topo__comm_dfs(topo__comm *s, int t, int64_t q, int qi,
                                     uint64_t ca, uint64_t sa)
{
    int dim = s->fidx[t];
    int64_t x = s->ext[dim], lim = s->lim[dim];
    uint64_t d = (uint64_t)s->dep[dim];
    int last = t + 1 == s->k - 1; /* the children are leaves */
    /* with the workspace: only the divisors of q; without: every divisor
     * of r, skipping those that do not divide q */
    int j = s->off != NULL ? s->off[qi] : 0;
    int end = s->off != NULL ? s->off[qi + 1] : s->dv->count;
    for (; j < end; j++) {
        int pos = s->off != NULL ? s->lst[j] : j;
        int64_t p = s->dv->sorted[pos];
        int qi2 = qi - s->dv->sidx[pos];
        uint64_t c, ca2, sa2;
        if (s->cdiv != NULL) {
            c = s->cdiv[(size_t)t * s->dv->count + s->dv->sidx[pos]];
            if (c == 0)
                break; /* p > its limit, and so are the larger ones */
        } else {
            if (p > q || p > lim)
                break;
            /* p divides q iff the index difference is the index of q / p
             * (no borrow between the mixed-radix digits) */
            if (qi2 < 0 || (int64_t)s->dv->val[qi2] * p != q)
                continue;
            c = (uint64_t)topo__ceildiv(x, p);
        }
        ca2 = topo__mul(ca, c);
        sa2 = topo__add(topo__mul(sa, c), topo__mul(d, ca));
        s->cur[dim] = (int)p;
        if (last)
            topo__comm_leaf(s, s->fidx[t + 1], q / p, qi2, ca2, sa2);
        else if (!topo__prune(s, t + 1, q / p, qi2, ca2, sa2))
            topo__comm_dfs(s, t + 1, q / p, qi2, ca2, sa2);
    }
}

/* Greedy seed: hand out the prime factors of rest, largest first, each to
 * the free dimension (within its limit) where it raises V least.  Its
 * volume bounds the exact search from above; returns 0 if it gets stuck. */
TILEHYBRID__COLD int topo__greedy(int n, const topo__divs *dv, const int *fixed,
                                  const int64_t *ext, const int64_t *lim, const int64_t *dep,
                                  const int64_t (*xf)[TOPO_MAX_DIMS], uint64_t *vol)
{
    int g[TOPO_MAX_DIMS], i, j, e;
    for (i = 0; i < n; i++)
        g[i] = fixed[i] > 0 ? fixed[i] : 1;
    for (j = dv->np - 1; j >= 0; j--) {
        int64_t pr = dv->prime[j];
        for (e = 0; e < dv->expo[j]; e++) {
            int bi = -1;
            uint64_t bv = 0;
            for (i = 0; i < n; i++) {
                uint64_t v;
                if (fixed[i] > 0 || (int64_t)g[i] * pr > lim[i])
                    continue;
                g[i] = (int)(g[i] * pr);
                v = topo__volume(n, g, ext, dep, xf);
                g[i] = (int)(g[i] / pr);
                if (bi < 0 || v < bv) {
                    bi = i;
                    bv = v;
                }
            }
            if (bi < 0)
                return 0;
            g[bi] = (int)(g[bi] * pr);
        }
    }
    *vol = topo__volume(n, g, ext, dep, xf);
    return 1;
}

/* Step 1 of topo__comm_grid: the search state for the free (0) entries of
 * dims (P_i up to lim[i]); *ca and *sa get the fixed dimensions' part of
 * the volume. */
TILEHYBRID__COLD void topo__comm_init(topo__comm *s, int n, const int64_t *ext,
                                      const int64_t *lim, const int64_t *dep,
                                      const int64_t (*xf)[TOPO_MAX_DIMS],
                                      const int *dims, uint64_t *ca, uint64_t *sa)
{
    int i;
    s->n = n;
    s->k = 0;
    s->ext = ext;
    s->lim = lim;
    s->dep = dep;
    s->xf = xf;
    s->have = 0;
    s->bestv = 0;
    s->have_seed = 0;
    s->seedv = 0;
    s->cdiv = s->mincu = s->ming = NULL;
    s->off = NULL;
    s->lst = NULL;
    *ca = 1;
    *sa = 0;
    for (i = 0; i < n; i++) {
        s->cur[i] = dims[i];
        if (dims[i] == 0) {
            s->fidx[s->k++] = i;
        } else {
            uint64_t c = (uint64_t)topo__ceildiv(ext[i], dims[i]);
            *sa = topo__add(topo__mul(*sa, c), topo__mul((uint64_t)dep[i], *ca));
            *ca = topo__mul(*ca, c);
        }
    }
}

/* Step 2: the suffix products of the open extents and widths (bound (2))
 * and of the open limits (the "does the rest fit" test). */
TILEHYBRID__COLD void topo__comm_suffixes(topo__comm *s)
{
    int t;
    s->sufx[s->k] = 1;
    s->sufxd[s->k] = 1.0;
    s->sufd[s->k] = 1.0;
    s->sufu[s->k] = 0;
    for (t = s->k - 1; t >= 0; t--) {
        int dim = s->fidx[t];
        uint64_t px = topo__mul((uint64_t)s->sufx[t + 1], (uint64_t)s->lim[dim]);
        s->sufx[t] = px == TOPO__SAT ? INT64_MAX : (int64_t)px;
        s->sufxd[t] = s->sufxd[t + 1] * (double)s->ext[dim];
        s->sufd[t] = s->sufd[t + 1] * (s->dep[dim] > 0 ? (double)s->dep[dim] : 1.0);
        s->sufu[t] = s->sufu[t + 1] + (s->dep[dim] > 0);
    }
}

/* Step 3: for k >= 3 free dimensions, the workspace and the tables of
 * bound (1) in one block (cdiv, mincu, ming: k rows each; off; lst).
 * Without it (allocation failed) the search is the same, only slower. */
TILEHYBRID__COLD void topo__comm_workspace(topo__comm *s)
{
    const topo__divs *dv = s->dv;
    size_t cells = (size_t)s->k * (size_t)dv->count, pairs = 0;
    uint64_t *ws;
    int i;
    if (s->k < 3)
        return;
    for (i = 0; i < dv->count; i++)
        pairs += (size_t)topo__ndiv(dv, i);
    ws = (uint64_t *)TILEHYBRID_MALLOC(3 * cells * sizeof(uint64_t) +
                                       ((size_t)dv->count + 1) * sizeof(int32_t) +
                                       pairs * sizeof(int16_t));
    if (ws == NULL)
        return;
    s->cdiv = ws;
    s->mincu = ws + cells;
    s->ming = ws + 2 * cells;
    s->off = (int32_t *)(void *)(ws + 3 * cells);
    s->lst = (int16_t *)(void *)(s->off + dv->count + 1);
    topo__lists(s);
    topo__tables(s);
}

/* No grid fits: the rest processes have no factorisation over the free
 * (0) entries of dims with P_i <= lim[i].  One free dimension i names the
 * rule it breaks: "extent" when rest > X_i (a block would hold no point),
 * else "dep" (a block would hold fewer than the d_i layers its neighbour
 * reads); several free dimensions name "procs" (index -1). */
TILEHYBRID__COLD int topo__infeasible(int n, int64_t rest, const int *dims, const int64_t *ext,
                                      tilehybrid_status *st)
{
    int i, k = 0, at = -1;
    for (i = 0; i < n; i++)
        if (dims[i] == 0) {
            k++;
            at = i;
        }
    if (k != 1)
        return tilehybrid_status_set(st, TOPO_ERR_INFEASIBLE, "procs", -1);
    return tilehybrid_status_set(st, TOPO_ERR_INFEASIBLE, rest > ext[at] ? "extent" : "dep",
                                 at);
}

/* Fill the free entries of dims with the exact minimiser of V (the search
 * described above; P_i up to lim[i], NULL: up to X_i; faces extended by xf,
 * NULL: none): set up, seed, search, copy the best grid. */
TILEHYBRID__COLD int topo__comm_grid(int n, int64_t rest, const int64_t *ext,
                                     const int64_t *lim, const int64_t *dep,
                                     const int64_t (*xf)[TOPO_MAX_DIMS], int *dims,
                                     tilehybrid_status *st)
{
    topo__divs dv;
    topo__comm s;
    uint64_t ca, sa;
    int i;
    if (lim == NULL)
        lim = ext;
    topo__comm_init(&s, n, ext, lim, dep, xf, dims, &ca, &sa);
    if (s.k == 0) { /* everything fixed: nothing to choose */
        if (topo__volume(n, dims, ext, dep, xf) == TOPO__SAT)
            return tilehybrid_status_set(st, TOPO_ERR_OVERFLOW, "volume", -1);
        return TOPO_OK;
    }
    topo__comm_suffixes(&s);
    if (s.sufx[0] < rest)
        return topo__infeasible(n, rest, dims, ext, st);
    topo__divisors(rest, &dv);
    s.dv = &dv;
    /* a saturated seed volume is no usable bound: its true value is unknown */
    s.have_seed = topo__greedy(n, &dv, dims, ext, lim, dep, xf, &s.seedv) &&
                  s.seedv != TOPO__SAT;
    topo__comm_workspace(&s);
    if (s.k == 1)
        topo__comm_leaf(&s, s.fidx[0], rest, dv.count - 1, ca, sa);
    else
        topo__comm_dfs(&s, 0, rest, dv.count - 1, ca, sa);
    if (s.cdiv != NULL)
        TILEHYBRID_FREE(s.cdiv);
    if (!s.have)
        return topo__infeasible(n, rest, dims, ext, st);
    if (s.bestv == TOPO__SAT)
        return tilehybrid_status_set(st, TOPO_ERR_OVERFLOW, "volume", -1);
    for (i = 0; i < n; i++)
        dims[i] = s.best[i];
    return TOPO_OK;
}

/* The nest's extended faces, or NULL when every extension is 0 (the
 * searches then take their faster path). */
TILEHYBRID__COLD const int64_t (*topo__nest_xf(const topo_nest *nest))[TOPO_MAX_DIMS]
{
    int i, j;
    for (i = 0; i < nest->n; i++)
        for (j = 0; j < i; j++)
            if (nest->ext[i][j] != 0)
                return nest->ext;
    return NULL;
}

/* The largest P_i of a nest's grids: tiling.h refuses a block narrower
 * than d_i along a divided dimension (the ghost layers must come from one
 * neighbour), so P_i <= floor(X_i / d_i) when P_i > 1; X_i when d_i = 0. */
TILEHYBRID__COLD void topo__nest_lim(const topo_nest *nest, int64_t *lim)
{
    int i;
    for (i = 0; i < nest->n; i++) {
        lim[i] = nest->dep[i] > 1 ? nest->extent[i] / nest->dep[i] : nest->extent[i];
        if (lim[i] < 1)
            lim[i] = 1;
    }
}
#else
TILEHYBRID__COLD int topo__ndiv(const topo__divs *dv, int qi);
TILEHYBRID__COLD void topo__lists(topo__comm *s);
TILEHYBRID__COLD void topo__tables(topo__comm *s);
TILEHYBRID__COLD int topo__prune(const topo__comm *s, int t, int64_t q, int qi,
                                 uint64_t ca, uint64_t sa);
TILEHYBRID__COLD uint64_t topo__face(int n, const int *dims, const int64_t *ext,
                                     const int64_t *dep,
                                     const int64_t (*xf)[TOPO_MAX_DIMS], int i);
TILEHYBRID__COLD uint64_t topo__volume(int n, const int *dims,
                                       const int64_t *ext, const int64_t *dep,
                                       const int64_t (*xf)[TOPO_MAX_DIMS]);
TILEHYBRID__COLD void topo__comm_leaf(topo__comm *s, int dim, int64_t q,
                                      int qi, uint64_t ca, uint64_t sa);
TILEHYBRID__COLD void topo__comm_dfs(topo__comm *s, int t, int64_t q, int qi,
                                     uint64_t ca, uint64_t sa);
TILEHYBRID__COLD int topo__greedy(int n, const topo__divs *dv, const int *fixed,
                                  const int64_t *ext, const int64_t *lim, const int64_t *dep,
                                  const int64_t (*xf)[TOPO_MAX_DIMS], uint64_t *vol);
TILEHYBRID__COLD void topo__comm_init(topo__comm *s, int n, const int64_t *ext,
                                      const int64_t *lim, const int64_t *dep,
                                      const int64_t (*xf)[TOPO_MAX_DIMS],
                                      const int *dims, uint64_t *ca, uint64_t *sa);
TILEHYBRID__COLD void topo__comm_suffixes(topo__comm *s);
TILEHYBRID__COLD void topo__comm_workspace(topo__comm *s);
TILEHYBRID__COLD int topo__infeasible(int n, int64_t rest, const int *dims, const int64_t *ext,
                                      tilehybrid_status *st);
TILEHYBRID__COLD int topo__comm_grid(int n, int64_t rest, const int64_t *ext,
                                     const int64_t *lim, const int64_t *dep,
                                     const int64_t (*xf)[TOPO_MAX_DIMS], int *dims,
                                     tilehybrid_status *st);
TILEHYBRID__COLD const int64_t (*topo__nest_xf(const topo_nest *nest))[TOPO_MAX_DIMS];
TILEHYBRID__COLD void topo__nest_lim(const topo_nest *nest, int64_t *lim);
#endif

/* ---- the time policy ----------------------------------------------------
 *
 * WHAT IS MINIMISED.  The pipeline model of a grid (topo__time): every
 * process walks ceil(Z/h) tiles of h = min(z, Z) planes, the last one starts
 * F = sum over i with d_i > 0 of (P_i - 1) steps after the first, and a
 * step of the largest block costs its computation and its messages:
 *   T = (ceil(Z/h) + F) * (h t_comp prod_j c_j + m t_startup
 *                          + h elem_bytes S / bandwidth),
 * m the dimensions with P_i > 1 and d_i > 0 (one message each), S their
 * faces' elements per plane (extended faces included).  A dimension with
 * d_i = 0 sends nothing and waits for nothing.  T is computed in double by
 * one function, so equal inputs give equal times.
 *
 * WHAT IS SEARCHED.  Every grid, in lexicographic order, as for the volume
 * (topo__time_dfs: free dimensions in index order, divisors increasing); a
 * grid replaces the best one only with a strictly smaller T, so ties go to
 * the lexicographically smallest grid.  Two free dimensions i < j with the
 * same extent and width are interchangeable when no face is extended:
 * swapping P_i and P_j gives the same T, so the lexicographically smallest
 * optimum has P_i <= P_j, and only such grids are visited (otherwise a
 * symmetric space would have every permutation of its optimum searched).
 * Equal T here is equal computed T whenever the blocks and faces have
 * fewer than 2^53 points, where the arithmetic is exact.
 *
 * WHAT IS PRUNED.  A subtree whose lower bound, lowered by a relative
 * 1e-12 (far above the rounding error of a few dozen operations), is still
 * at least the best time found (its grids come later: a tie loses) or a
 * seed's (the volume-optimal and the balanced grids, real grids).  With ca, sa, m
 * and F of the assigned dimensions and q the product left for the open
 * ones, every grid of the subtree has prod c_j >= ca * cu, S >= sa * cu +
 * ca * gs (extensions only add) and F >= F_assigned + fo, where
 *  - with the workspace of the volume search (k >= 3): cu = the larger of
 *    mincu[t][q] (that search's table: the least product of the open
 *    ceilings, saturated at 2^63 - 1) and the quotient below, and
 *    two tables of its own by the same dynamic programming over the
 *    divisors, fo = minf[t][q] (the least fill of the open dimensions) and
 *    gs = mings[t][q] (a lower bound of the faces they send);
 *  - without it: cu = max(1, prod_{open} X_j / q) (a ceiling is at least
 *    the quotient, computed in double), gs = 0, and fo = u (floor(q^(1/u)) - 1) when all u
 *    open dimensions have d > 0 (AM-GM), else 0;
 * and m >= m_assigned + 1 when q > 1 and every open dimension has d > 0.
 * T grows with each of these, so the bound is a lower bound of T. */
typedef struct topo__tsearch {
    const topo_nest *nest;
    int64_t lim[TOPO_MAX_DIMS];       /* the largest P_i (topo__nest_lim) */
    topo__comm w;                     /* free dims, divisors, workspace */
    uint64_t *minf, *mings;           /* the time tables, or NULL */
    int have;                         /* a grid found by the search */
    double bestt;
    double seedt;                     /* a seed's time; < 0: none */
    int sufall[TOPO_MAX_DIMS + 1];    /* every open dim t..k-1 has d > 0 */
    int twin[TOPO_MAX_DIMS];          /* the previous free dim that is
                                         interchangeable with dim t, or -1 */
    double h, tiles;                  /* min(z, Z) and ceil(Z / h) */
} topo__tsearch;

#if TILEHYBRID__DEFINE
/* The pipeline model's time of grid dims (every entry >= 1); *steps gets
 * ceil(Z/h) + F (may be NULL), INT64_MAX where that passes it. */
TILEHYBRID__COLD double topo__time(const topo_nest *nest, const int *dims,
                                   int64_t *steps)
{
    int n = nest->n, i, j, m = 0;
    int64_t h = nest->tile_height < nest->zlen ? nest->tile_height : nest->zlen;
    int64_t st = topo__ceildiv(nest->zlen, h);
    double pts = 1.0, faces = 0.0;
    for (i = 0; i < n; i++)
        pts *= (double)topo__ceildiv(nest->extent[i], dims[i]);
    for (i = 0; i < n; i++) {
        double f = (double)nest->dep[i];
        if (nest->dep[i] == 0)
            continue;
        st = st <= INT64_MAX - (dims[i] - 1) ? st + (dims[i] - 1) : INT64_MAX;
        if (dims[i] == 1)
            continue;
        m++;
        for (j = 0; j < n; j++)
            if (j != i)
                f *= (double)topo__ceildiv(nest->extent[j], dims[j]) +
                     (j < i ? (double)nest->ext[i][j] : 0.0);
        faces += f;
    }
    if (steps != NULL)
        *steps = st;
    return (double)st * ((double)h * nest->tcomp * pts + (double)m * nest->tstartup +
                         (double)h * nest->elem_bytes * faces / nest->bandwidth);
}

/* A table entry as a double that is still a lower bound (a saturated
 * entry stands for more than 2^63 - 1). */
TILEHYBRID__COLD double topo__dbl(uint64_t v)
{
    return v >= TOPO__CAP ? (double)TOPO__CAP : (double)v;
}

/* The time tables for depths k-1 down to 1, from the volume search's
 * cdiv, mincu and lists:
 *   minf[t][q]  = min over p | q, p <= X of [d > 0] (p - 1) + minf[t+1][q/p],
 *   mings[t][q] = min over p of c(p) mings[t+1][q/p] + [p > 1] d mincu[t+1][q/p]
 * (the second a lower bound: its minima may come from different p). */
TILEHYBRID__COLD void topo__time_tables(topo__tsearch *s)
{
    const topo__comm *w = &s->w;
    const topo__divs *dv = w->dv;
    int cnt = dv->count, t, qi, j;
    size_t cells = (size_t)w->k * (size_t)cnt;
    if (w->mincu == NULL)
        return;
    s->minf = (uint64_t *)TILEHYBRID_MALLOC(2 * cells * sizeof(uint64_t));
    if (s->minf == NULL)
        return;
    s->mings = s->minf + cells;
    for (t = w->k - 1; t >= 1; t--) {
        uint64_t d = (uint64_t)w->dep[w->fidx[t]];
        const uint64_t *c = w->cdiv + (size_t)t * cnt, *cu1 = w->mincu + (size_t)(t + 1) * cnt;
        uint64_t *f = s->minf + (size_t)t * cnt, *g = s->mings + (size_t)t * cnt;
        for (qi = 0; qi < cnt; qi++) {
            uint64_t bf = 0, bg = 0, q = (uint64_t)dv->val[qi];
            int found = 0;
            if (t == w->k - 1) {
                f[qi] = c[qi] != 0 && d > 0 ? q - 1 : 0;
                g[qi] = c[qi] != 0 && q > 1 ? d : 0;
                continue;
            }
            for (j = w->off[qi]; j < w->off[qi + 1]; j++) {
                int pidx = dv->sidx[w->lst[j]], q2 = qi - pidx;
                uint64_t p = (uint64_t)dv->val[pidx], vf, vg;
                if (c[pidx] == 0)
                    break; /* p > X, and so are the larger ones */
                if (cu1[q2] == 0)
                    continue;
                vf = (d > 0 ? p - 1 : 0) + f[cnt + q2];
                vg = topo__add(topo__mul(c[pidx], g[cnt + q2]), p > 1 ? topo__mul(d, cu1[q2]) : 0);
                bf = !found || vf < bf ? vf : bf;
                bg = !found || vg < bg ? vg : bg;
                found = 1;
            }
            f[qi] = bf;
            g[qi] = bg;
        }
    }
}

/* 1 if the subtree at depth t >= 1 (open product q, mixed index qi) holds
 * no grid faster than the best or the seed; ca, sa, m, fill: the assigned
 * dimensions' part. */
TILEHYBRID__COLD int topo__time_prune(const topo__tsearch *s, int t, int64_t q, int qi,
                                      double ca, double sa, int m, int64_t fill)
{
    const topo_nest *nest = s->nest;
    size_t at = (size_t)t * (size_t)s->w.dv->count + (size_t)qi;
    int u = s->w.k - t;
    double cu, gs = 0.0, lb;
    if (s->w.sufx[t] < q)
        return 1; /* the open extents cannot hold q processes */
    if (q > 1 && s->sufall[t])
        m++;
    cu = s->w.sufxd[t] / (double)q;
    cu = cu < 1.0 ? 1.0 : cu;
    if (s->minf != NULL) {
        if (s->w.mincu[at] == 0)
            return 1; /* no assignment of the open dimensions fits */
        /* the larger bound: a saturated table entry says only 2^63 */
        cu = topo__dbl(s->w.mincu[at]) > cu ? topo__dbl(s->w.mincu[at]) : cu;
        gs = topo__dbl(s->mings[at]);
        fill += (int64_t)s->minf[at];
    } else {
        if (q > 1 && s->sufall[t]) {
            int64_t r = topo__root_ceil(q, u);
            if (!topo__pow_le(r, u, q))
                r--; /* floor(q^(1/u)) */
            fill += (int64_t)u * (r - 1);
        }
    }
    lb = (s->tiles + (double)fill) *
         (s->h * nest->tcomp * ca * cu + (double)m * nest->tstartup +
          s->h * nest->elem_bytes * (sa * cu + ca * gs) / nest->bandwidth);
    lb *= 1.0 - 1e-12; /* now surely below the exact bound */
    return (s->have && lb >= s->bestt) || (s->seedt >= 0.0 && lb >= s->seedt);
}

/* Leaf: the last free dimension takes the remaining product q. */
TILEHYBRID__COLD void topo__time_leaf(topo__tsearch *s, int t, int64_t q)
{
    int dim = s->w.fidx[t];
    double tt;
    if (q > s->lim[dim] || (s->twin[t] >= 0 && q < s->w.cur[s->twin[t]]))
        return;
    s->w.cur[dim] = (int)q;
    tt = topo__time(s->nest, s->w.cur, NULL);
    if (!s->have || tt < s->bestt) {
        s->have = 1;
        s->bestt = tt;
        memcpy(s->w.best, s->w.cur, sizeof s->w.best);
    }
}

/* Depth-first over the free dimensions t..k-2 (open product q, mixed
 * index qi), divisors in increasing order: grids in lexicographic order. */
TILEHYBRID__COLD void topo__time_dfs(topo__tsearch *s, int t, int64_t q, int qi,
                                     double ca, double sa, int m, int64_t fill)
{
    const topo__comm *w = &s->w;
    int dim = w->fidx[t];
    int64_t x = s->nest->extent[dim], d = s->nest->dep[dim], lim = s->lim[dim];
    int64_t low = s->twin[t] >= 0 ? s->w.cur[s->twin[t]] : 1; /* symmetry */
    int j = w->off != NULL ? w->off[qi] : 0;
    int end = w->off != NULL ? w->off[qi + 1] : w->dv->count;
    for (; j < end; j++) {
        int pos = w->off != NULL ? w->lst[j] : j;
        int64_t p = w->dv->sorted[pos], fill2 = fill + (d > 0 ? p - 1 : 0);
        int qi2 = qi - w->dv->sidx[pos], sends = p > 1 && d > 0;
        double c, ca2, sa2;
        if (p > q || p > lim)
            break;
        if (p < low || qi2 < 0 || (int64_t)w->dv->val[qi2] * p != q)
            continue; /* below its twin, or p does not divide q */
        s->w.cur[dim] = (int)p;
        c = (double)topo__ceildiv(x, p);
        ca2 = ca * c;
        sa2 = sa * c + (sends ? (double)d * ca : 0.0);
        if (topo__time_prune(s, t + 1, q / p, qi2, ca2, sa2, m + sends, fill2))
            continue;
        if (t + 1 == w->k - 1)
            topo__time_leaf(s, t + 1, q / p);
        else
            topo__time_dfs(s, t + 1, q / p, qi2, ca2, sa2, m + sends, fill2);
    }
}

/* The seed: the faster of the volume-optimal and the balanced grid with
 * the same fixed entries (real grids, so the optimum is at most their
 * time); -1 if neither fits. */
TILEHYBRID__COLD double topo__time_seed(const topo_nest *nest, const int64_t *lim,
                                        int64_t rest, const int *dims, int *at)
{
    int g[TOPO_MAX_DIMS], b[TOPO_MAX_DIMS], i, fits = 1;
    double best = -1.0;
    memcpy(g, dims, sizeof g);
    memcpy(b, dims, sizeof b);
    if (topo__comm_grid(nest->n, rest, nest->extent, lim, nest->dep, topo__nest_xf(nest),
                        g, NULL) == TOPO_OK) {
        best = topo__time(nest, g, NULL);
        memcpy(at, g, sizeof g);
    }
    topo__balanced(nest->n, rest, b);
    for (i = 0; i < nest->n; i++)
        fits &= b[i] <= lim[i];
    if (fits && (best < 0.0 || topo__time(nest, b, NULL) < best)) {
        best = topo__time(nest, b, NULL);
        memcpy(at, b, sizeof b);
    }
    return best;
}

/* The cost whose term of topo__time() on grid dims overflows a double
 * (the time is infinite): "tcomp" (the computation), "tstartup" (the
 * messages' start-ups), "elem_bytes" or "bandwidth" (their volume), or the
 * largest term's when only their sum overflows. */
TILEHYBRID__COLD const char *topo__time_cause(const topo_nest *nest, const int *dims)
{
    topo_nest one = *nest;
    double t[3], vol;
    int i, big = 0;
    one.tstartup = 0.0;            /* the computation term alone: tcomp */
    one.bandwidth = DBL_MAX;
    t[0] = topo__time(&one, dims, NULL);
    one.tcomp = DBL_MIN;           /* the start-ups alone */
    one.tstartup = nest->tstartup;
    t[1] = topo__time(&one, dims, NULL);
    one.tstartup = 0.0;            /* the volume (elem_bytes x faces, 1 B/s) */
    one.bandwidth = 1.0;
    vol = topo__time(&one, dims, NULL);
    one.bandwidth = nest->bandwidth;
    t[2] = topo__time(&one, dims, NULL);
    for (i = 0; i < 3; i++)
        if (!tilehybrid__finite(t[i]))
            return i == 0 ? "tcomp" : i == 1 ? "tstartup"
                   : tilehybrid__finite(vol) ? "bandwidth" : "elem_bytes";
    for (i = 1; i < 3; i++)
        if (t[i] > t[big])
            big = i;
    return big == 0 ? "tcomp" : big == 1 ? "tstartup" : "bandwidth";
}

/* Step 1 of topo__time_grid: the search state, the fixed dimensions' part
 * of the bound (*ca, *sa, *m, *fill). */
TILEHYBRID__COLD void topo__time_init(topo__tsearch *s, const topo_nest *nest, const int *dims,
                                      double *ca, double *sa, int *m, int64_t *fill)
{
    uint64_t ca_v, sa_v;
    int64_t h = nest->tile_height < nest->zlen ? nest->tile_height : nest->zlen;
    int i, t;
    memset(s, 0, sizeof *s);
    s->nest = nest;
    s->h = (double)h;
    s->tiles = (double)topo__ceildiv(nest->zlen, h);
    topo__nest_lim(nest, s->lim);
    topo__comm_init(&s->w, nest->n, nest->extent, s->lim, nest->dep, NULL, dims, &ca_v,
                    &sa_v);
    topo__comm_suffixes(&s->w);
    *ca = 1.0;
    *sa = 0.0;
    *m = 0;
    *fill = 0;
    for (i = 0; i < nest->n; i++) {
        double c, d = (double)nest->dep[i];
        if (dims[i] == 0)
            continue;
        c = (double)topo__ceildiv(nest->extent[i], dims[i]);
        *sa = *sa * c + (dims[i] > 1 && d > 0 ? d * *ca : 0.0);
        *ca *= c;
        *m += dims[i] > 1 && d > 0;
        *fill += d > 0 ? dims[i] - 1 : 0;
    }
    s->sufall[s->w.k] = 1;
    for (t = s->w.k - 1; t >= 0; t--)
        s->sufall[t] = s->sufall[t + 1] && nest->dep[s->w.fidx[t]] > 0;
    for (t = 0; t < s->w.k; t++) {
        int a = s->w.fidx[t], u;
        s->twin[t] = -1;
        for (u = t - 1; u >= 0 && topo__nest_xf(nest) == NULL; u--)
            if (nest->extent[s->w.fidx[u]] == nest->extent[a] &&
                nest->dep[s->w.fidx[u]] == nest->dep[a]) {
                s->twin[t] = s->w.fidx[u];
                break;
            }
    }
}

/* Fill the free entries of dims with the exact minimiser of the pipeline
 * time (the search described above): set up, seed, search, copy. */
TILEHYBRID__COLD int topo__time_grid(const topo_nest *nest, int64_t rest, int *dims,
                                     tilehybrid_status *st)
{
    topo__divs dv;
    topo__tsearch s;
    double ca, sa;
    int i, m, seed[TOPO_MAX_DIMS];
    int64_t fill;
    topo__time_init(&s, nest, dims, &ca, &sa, &m, &fill);
    if (s.w.k == 0) /* everything fixed: nothing to choose */
        return TOPO_OK;
    if (s.w.sufx[0] < rest)
        return topo__infeasible(nest->n, rest, dims, nest->extent, st);
    s.seedt = topo__time_seed(nest, s.lim, rest, dims, seed);
    topo__divisors(rest, &dv);
    s.w.dv = &dv;
    topo__comm_workspace(&s.w);
    topo__time_tables(&s);
    if (s.w.k == 1)
        topo__time_leaf(&s, 0, rest);
    else
        topo__time_dfs(&s, 0, rest, dv.count - 1, ca, sa, m, fill);
    if (s.minf != NULL)
        TILEHYBRID_FREE(s.minf);
    if (s.w.cdiv != NULL)
        TILEHYBRID_FREE(s.w.cdiv);
    /* a grid exists but its time overflows a double: the cost is at
     * fault, not the space (the search prunes every infinite time) */
    if (s.have && !tilehybrid__finite(s.bestt))
        return tilehybrid_status_set(st, TOPO_ERR_COST, topo__time_cause(nest, s.w.best), -1);
    if (!s.have && s.seedt >= 0.0 && !tilehybrid__finite(s.seedt))
        return tilehybrid_status_set(st, TOPO_ERR_COST, topo__time_cause(nest, seed), -1);
    if (!s.have)
        return topo__infeasible(nest->n, rest, dims, nest->extent, st);
    for (i = 0; i < nest->n; i++)
        dims[i] = s.w.best[i];
    return TOPO_OK;
}
#else
TILEHYBRID__COLD double topo__time(const topo_nest *nest, const int *dims,
                                   int64_t *steps);
TILEHYBRID__COLD double topo__dbl(uint64_t v);
TILEHYBRID__COLD void topo__time_tables(topo__tsearch *s);
TILEHYBRID__COLD int topo__time_prune(const topo__tsearch *s, int t, int64_t q, int qi,
                                      double ca, double sa, int m, int64_t fill);
TILEHYBRID__COLD void topo__time_leaf(topo__tsearch *s, int t, int64_t q);
TILEHYBRID__COLD void topo__time_dfs(topo__tsearch *s, int t, int64_t q, int qi,
                                     double ca, double sa, int m, int64_t fill);
TILEHYBRID__COLD double topo__time_seed(const topo_nest *nest, const int64_t *lim,
                                        int64_t rest, const int *dims, int *at);
TILEHYBRID__COLD const char *topo__time_cause(const topo_nest *nest, const int *dims);
TILEHYBRID__COLD void topo__time_init(topo__tsearch *s, const topo_nest *nest, const int *dims,
                                      double *ca, double *sa, int *m, int64_t *fill);
TILEHYBRID__COLD int topo__time_grid(const topo_nest *nest, int64_t rest, int *dims,
                                     tilehybrid_status *st);
#endif
