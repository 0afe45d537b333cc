/* topology.h -- communication-optimal process grids for tiled loop nests.
 * Part of tilehybrid (MIT licence), version TOPO_VERSION (=
 * TILEHYBRID_VERSION).  Header-only C99, also valid C++; needs tilehybrid.h
 * beside it.
 *
 * WHAT IT IS
 *   A loop nest over X1 x ... x XN x Z, whose iterations depend on the d_i
 *   previous planes along each of the first N dimensions, is run as a pipeline:
 *   the N outer dimensions are cut over a P1 x ... x PN grid of processes and
 *   every process walks along Z, one tile at a time, sending d_i planes of its
 *   block to its neighbour in each dimension i after each tile.  The grid
 *   decides how much data moves.  A process owning a block of
 *   c_1 x ... x c_N points, c_j = ceil(X_j / P_j), sends per Z-plane
 *
 *       V = sum_i  d_i * prod_{j != i} c_j                      (elements)
 *
 *   (Lemma 1 of the papers, with the ceilings kept).  topo_grid() returns the
 *   grid with product P that minimises V exactly -- a pruned search over all
 *   factorisations, not a rounding of the real-valued optimum -- with ties
 *   broken towards the lexicographically smallest grid.  For comparison it
 *   also gives the latency-optimal grid, the balanced one of MPI_Dims_create.
 *   topo_hybrid_grid() adds a thread grid inside each process's block,
 *   topo_report_grid() evaluates any grid (volumes, messages, pipeline fill),
 *   topo_block() is the block distribution behind c_j, and topo_cart_create()
 *   builds the MPI Cartesian communicator.
 *
 * USAGE (a complete program; build with mpicc, or define TILEHYBRID_NO_MPI)
 *
 *   #include <stdio.h>
 *   #include "topology.h"
 *
 *   int main(void)
 *   {
 *       int64_t extent[2] = {64, 256};      // X1 x X2; Z = 16384 below
 *       int64_t dep[2] = {1, 1};            // d1, d2
 *       int dims[2] = {0, 0};               // 0 = free, > 0 = fixed
 *       topo_report r;
 *       tilehybrid_status st;               // which argument, if one is bad
 *       int rc = topo_grid_ex(2, 16, extent, dep, TOPO_POLICY_COMM, dims, &st);
 *       if (rc != TOPO_OK) {
 *           fprintf(stderr, "topo_grid: %s: %s\n", st.arg, topo_strerror(rc));
 *           return 1;
 *       }
 *       rc = topo_report_grid(2, dims, extent, 16384, dep, &r);
 *       if (rc == TOPO_OK)                  // prints: grid 2x8, volume 1048576
 *           printf("grid %dx%d, volume %lld\n", dims[0], dims[1],
 *                  (long long)r.volume);
 *       return rc != TOPO_OK;
 *   }
 *
 *   With MPI (collective; every rank passes the same arguments, and learns
 *   with the same code when one does not):
 *       MPI_Comm cart;
 *       int pdims[2];
 *       rc = topo_cart_create(MPI_COMM_WORLD, 2, extent, dep,
 *                             TOPO_POLICY_COMM, NULL, 1, &cart, pdims);
 *
 * API (each function is documented where it is defined)
 *   int  topo_grid(n, procs, extent, dep, policy, dims)
 *   int  topo_dims_create(procs, n, dims, status)      MPI_Dims_create twin
 *   int  topo_hybrid_grid(n, procs, threads, extent, dep, policy, dims,
 *                         tdims)
 *   int  topo_report_grid(n, dims, extent, zlen, dep, report)
 *   void topo_block(extent, parts, index, &start, &len)
 *   int  topo_cart_create(comm, n, extent, dep, policy, fixed, reorder,
 *                         &cart, dims)
 *   const char *topo_strerror(code)
 *   topo_grid_ex, topo_hybrid_grid_ex, topo_report_grid_ex and
 *   topo_cart_create_ex take one more argument, tilehybrid_status *status.
 *
 * ERRORS (the convention of every tilehybrid header)
 *   A function that can fail returns TOPO_OK (0) or a positive TOPO_ERR_*
 *   code and leaves its outputs unchanged; topo_strerror() says what was
 *   wrong and never returns NULL.  The *_ex functions and topo_dims_create
 *   also fill an optional tilehybrid_status (NULL allowed) that names the
 *   argument, the dimension and, for topo_cart_create_ex, the rank.
 *   Nothing prints or aborts; there is no global state, so every function
 *   is thread-safe.
 *
 * OPTIONS (#define before including)
 *   TILEHYBRID_NO_MPI   leave out topo_cart_create*() and <mpi.h>.
 *   TILEHYBRID_MALLOC(size), TILEHYBRID_FREE(ptr)
 *                       replace malloc/free (tilehybrid.h).  The search for
 *                       N >= 3 free dimensions allocates one workspace (up to
 *                       about 1 MB for P near 2^31 with N = 16, under 64 KB
 *                       for N = 4 and P <= 2^20) and frees it before
 *                       returning; if the allocation fails it searches
 *                       without it: the same answer, more slowly.
 *
 * LIMITS
 *   1 <= N <= TOPO_MAX_DIMS, 1 <= P <= 2^31-1, X_i >= 1 (up to 2^63-1),
 *   d_i >= 0.  Volumes are computed with overflow checks; topo_grid() fails
 *   with TOPO_ERR_OVERFLOW only when the optimal V itself exceeds 2^63-1.
 *
 * VERSION
 *   0.2.0  tilehybrid.h's error convention: tilehybrid_status replaces
 *          topo_status (its index is int64_t; it adds rank), the
 *          TILEHYBRID_MALLOC/FREE hooks replace TOPO_MALLOC/FREE,
 *          topo_cart_create_ex agrees through tilehybrid_agree() (every
 *          rank learns the failing rank's code, argument, index and rank,
 *          not "another rank"), and an overflow in topo_report_grid_ex
 *          names "volume", "total_volume" or "dims".
 *   0.1.0  first release.
 */
#ifndef TILEHYBRID_TOPOLOGY_H
#define TILEHYBRID_TOPOLOGY_H

#include "tilehybrid.h"

#define TOPO_VERSION TILEHYBRID_VERSION

#ifdef __cplusplus
extern "C" {
#endif

/** Largest number of grid dimensions N. */
#define TOPO_MAX_DIMS 16

/** Error codes: every function returns TOPO_OK or one of these. */
enum topo_error {
    TOPO_OK = 0,
    TOPO_ERR_NULL,       /* a required pointer is NULL */
    TOPO_ERR_NDIMS,      /* n outside 1..TOPO_MAX_DIMS */
    TOPO_ERR_PROCS,      /* process count outside 1..INT_MAX */
    TOPO_ERR_EXTENT,     /* an extent X_i (or Z) below 1 */
    TOPO_ERR_DEP,        /* a dependence width d_i below 0 */
    TOPO_ERR_FIXED,      /* a fixed/given grid entry is negative, exceeds its
                            extent, or the fixed entries do not divide P */
    TOPO_ERR_INFEASIBLE, /* no grid with P_i <= X_i for all i */
    TOPO_ERR_OVERFLOW,   /* a volume does not fit in int64_t */
    TOPO_ERR_THREADS,    /* thread count outside 1..INT_MAX */
    TOPO_ERR_MISMATCH,   /* MPI ranks passed different arguments */
    TOPO_ERR_MPI,        /* an MPI call returned an error */
    TOPO_ERR_POLICY      /* unknown topo_policy value */
};

/** Which grid to choose. */
typedef enum topo_policy {
    TOPO_POLICY_COMM = 0,   /* minimal communication volume V (exact) */
    TOPO_POLICY_LATENCY = 1 /* balanced grid of MPI_Dims_create */
} topo_policy;

/**
 * struct topo_report - everything the volume model says about one grid
 * (all volumes in elements).
 * @n:            the number of dimensions;
 * @dims:         the grid (entries past n are 0);
 * @volume:       V * Z of a non-boundary process, every dimension counted;
 * @volume_sent:  what process (0,...,0), the largest block, really sends:
 *                like volume but only over dimensions with P_i > 1;
 * @total_volume: sum over all processes, Z * sum_i d_i (P_i - 1)
 *                prod_{j != i} X_j;
 * @fill_steps:   pipeline fill, sum_i (P_i - 1) tile steps before the last
 *                process starts;
 * @messages:     messages per tile of a non-boundary process (number of
 *                dimensions with P_i > 1);
 * @procs:        product of the dims;
 * @feasible:     1 if P_i <= X_i for every i (no empty blocks), else 0;
 * @bad_index:    the first i with P_i > X_i, or -1.
 */
typedef struct topo_report {
    int n;
    int dims[TOPO_MAX_DIMS];
    int64_t volume, volume_sent, total_volume, fill_steps;
    int messages;
    int64_t procs;
    int feasible;
    int bad_index;
} topo_report;

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

static inline uint64_t topo__mul(uint64_t a, uint64_t b)
{
    if ((a | b) < ((uint64_t)1 << 31))
        return a * b; /* the common case: no division needed */
    if (a == 0 || b == 0)
        return 0;
    if (a > TOPO__CAP || b > TOPO__CAP || a > TOPO__CAP / b)
        return TOPO__SAT;
    return a * b;
}

static inline uint64_t topo__add(uint64_t a, uint64_t b)
{
    if (a > TOPO__CAP || b > TOPO__CAP || a > TOPO__CAP - b)
        return TOPO__SAT;
    return a + b;
}

/* ceil(x / p) for x >= 0, p >= 1, without overflow. */
static inline int64_t topo__ceildiv(int64_t x, int64_t p)
{
    return x / p + (x % p != 0);
}

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

static inline void topo__divisors(int64_t r, topo__divs *dv)
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

/* Argument checks shared by the grid searches. */
static inline int topo__check_common(int n, int64_t procs,
                                     const int64_t *extent, const int64_t *dep,
                                     topo_policy policy, tilehybrid_status *st)
{
    int i;
    if (extent == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "extent", -1);
    if (dep == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "dep", -1);
    if (n < 1 || n > TOPO_MAX_DIMS)
        return tilehybrid_status_set(st, TOPO_ERR_NDIMS, "n", -1);
    if (procs < 1 || procs > INT_MAX)
        return tilehybrid_status_set(st, TOPO_ERR_PROCS, "procs", -1);
    if (policy != TOPO_POLICY_COMM && policy != TOPO_POLICY_LATENCY)
        return tilehybrid_status_set(st, TOPO_ERR_POLICY, "policy", -1);
    for (i = 0; i < n; i++)
        if (extent[i] < 1)
            return tilehybrid_status_set(st, TOPO_ERR_EXTENT, "extent", i);
    for (i = 0; i < n; i++)
        if (dep[i] < 0)
            return tilehybrid_status_set(st, TOPO_ERR_DEP, "dep", i);
    return TOPO_OK;
}

/* Fixed entries: each >= 0 and <= extent (when extent given), their
 * product divides procs; *rest = procs / product.  If every entry is fixed
 * the product must equal procs.  name is "dims" or "tdims". */
static inline int topo__check_fixed(int n, int64_t procs, const int *dims,
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
static inline int64_t topo__root_ceil(int64_t q, int r)
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
static inline int topo__pow_le(int64_t x, int r, int64_t q)
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

typedef struct topo__bal {
    int k;                       /* number of factors */
    const topo__divs *dv;        /* divisors of the product */
    int64_t cur[TOPO_MAX_DIMS];  /* non-decreasing */
    int64_t best[TOPO_MAX_DIMS];
    int64_t bestbal;             /* -1: none yet */
} topo__bal;

/* Choose cur[t] (>= cur[t-1]) for the remaining product q.  Sequences are
 * visited in decreasing order of (cur[0], cur[1], ...), so the first one
 * found with the best balance max - min is also the one MPI_Dims_create
 * prefers: among equally balanced factorisations the largest smallest
 * factor, then the largest next one, and so on. */
static inline void topo__bal_dfs(topo__bal *b, int t, int64_t q)
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
static inline void topo__balanced(int n, int64_t rest, int *dims)
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
 * random cases, with and without the tables). */
typedef struct topo__comm {
    int n, k;
    int fidx[TOPO_MAX_DIMS];          /* free dimensions, increasing */
    const int64_t *ext, *dep;
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
    int64_t sufx[TOPO_MAX_DIMS + 1];  /* saturated product of ext over
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

/* Number of divisors of the divisor with mixed index qi. */
static inline int topo__ndiv(const topo__divs *dv, int qi)
{
    int i, c = 1;
    for (i = 0; i < dv->np; i++)
        c *= (qi / dv->stride[i]) % (dv->expo[i] + 1) + 1;
    return c;
}

/* Fill off[] and lst[]: for every divisor q, its divisors in increasing
 * order (positions in sorted[]).  Walks p upwards and appends p to the list
 * of every multiple q = p * m, m | r / p. */
static inline void topo__lists(topo__comm *s)
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
static inline void topo__tables(topo__comm *s)
{
    const topo__divs *dv = s->dv;
    int t, qi, j, cnt = dv->count;
    for (t = 0; t < s->k; t++) {
        int64_t x = s->ext[s->fidx[t]];
        for (qi = 0; qi < cnt; qi++)
            s->cdiv[(size_t)t * cnt + qi] =
                dv->val[qi] <= x ? (uint64_t)topo__ceildiv(x, dv->val[qi])
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
static inline int topo__prune(const topo__comm *s, int t, int64_t q, int qi,
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

/* Leaf: the last free dimension takes the remaining product q. */
static inline void topo__comm_leaf(topo__comm *s, int dim, int64_t q,
                                   int qi, uint64_t ca, uint64_t sa)
{
    uint64_t c, v;
    int j;
    if (s->cdiv != NULL) {
        c = s->cdiv[(size_t)(s->k - 1) * s->dv->count + qi];
        if (c == 0)
            return;
    } else {
        if (q > s->ext[dim])
            return;
        c = (uint64_t)topo__ceildiv(s->ext[dim], q);
    }
    v = topo__add(topo__mul(sa, c), topo__mul((uint64_t)s->dep[dim], ca));
    /* leaves come in lexicographic order: only a strictly smaller V wins */
    if (!s->have || v < s->bestv) {
        s->cur[dim] = (int)q;
        s->have = 1;
        s->bestv = v;
        for (j = 0; j < s->n; j++)
            s->best[j] = s->cur[j];
    }
}

/* Depth-first search over the free dimensions in index order, each taking
 * the divisors of the remaining product in increasing order, so grids are
 * visited in lexicographic order. */
static inline void topo__comm_dfs(topo__comm *s, int t, int64_t q, int qi,
                                  uint64_t ca, uint64_t sa)
{
    int dim = s->fidx[t];
    int64_t x = s->ext[dim];
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
                break; /* p > X, and so are the larger ones */
        } else {
            if (p > q || p > x)
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

/* Saturated model volume per Z-plane: sum_i d_i prod_{j != i} c_j. */
static inline uint64_t topo__volume(int n, const int *dims,
                                    const int64_t *ext, const int64_t *dep)
{
    uint64_t ca = 1, sa = 0;
    int i;
    for (i = 0; i < n; i++) {
        uint64_t c = (uint64_t)topo__ceildiv(ext[i], dims[i]);
        sa = topo__add(topo__mul(sa, c), topo__mul((uint64_t)dep[i], ca));
        ca = topo__mul(ca, c);
    }
    return sa;
}

/* Greedy seed: hand out the prime factors of rest, largest first, each to
 * the free dimension (within its extent) where it raises V least.  Its
 * volume bounds the exact search from above; returns 0 if it gets stuck. */
static inline int topo__greedy(int n, const topo__divs *dv, const int *fixed,
                               const int64_t *ext, const int64_t *dep,
                               uint64_t *vol)
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
                if (fixed[i] > 0 || (int64_t)g[i] * pr > ext[i])
                    continue;
                g[i] = (int)(g[i] * pr);
                v = topo__volume(n, g, ext, dep);
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
    *vol = topo__volume(n, g, ext, dep);
    return 1;
}

/* Step 1 of topo__comm_grid: the search state for the free (0) entries of
 * dims; *ca and *sa get the fixed dimensions' part of the volume. */
static inline void topo__comm_init(topo__comm *s, int n, const int64_t *ext,
                                   const int64_t *dep, const int *dims,
                                   uint64_t *ca, uint64_t *sa)
{
    int i;
    s->n = n;
    s->k = 0;
    s->ext = ext;
    s->dep = dep;
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

/* Step 2: the suffix products of the open extents and widths (bound (2)
 * and the "does the rest fit" test). */
static inline void topo__comm_suffixes(topo__comm *s)
{
    int t;
    s->sufx[s->k] = 1;
    s->sufxd[s->k] = 1.0;
    s->sufd[s->k] = 1.0;
    s->sufu[s->k] = 0;
    for (t = s->k - 1; t >= 0; t--) {
        int dim = s->fidx[t];
        uint64_t px = topo__mul((uint64_t)s->sufx[t + 1], (uint64_t)s->ext[dim]);
        s->sufx[t] = px == TOPO__SAT ? INT64_MAX : (int64_t)px;
        s->sufxd[t] = s->sufxd[t + 1] * (double)s->ext[dim];
        s->sufd[t] = s->sufd[t + 1] * (s->dep[dim] > 0 ? (double)s->dep[dim] : 1.0);
        s->sufu[t] = s->sufu[t + 1] + (s->dep[dim] > 0);
    }
}

/* Step 3: for k >= 3 free dimensions, the workspace and the tables of
 * bound (1) in one block (cdiv, mincu, ming: k rows each; off; lst).
 * Without it (allocation failed) the search is the same, only slower. */
static inline void topo__comm_workspace(topo__comm *s)
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

/* Fill the free entries of dims with the exact minimiser of V (the search
 * described above): set up, seed, search, copy the best grid. */
static inline int topo__comm_grid(int n, int64_t rest, const int64_t *ext,
                                  const int64_t *dep, int *dims,
                                  tilehybrid_status *st)
{
    topo__divs dv;
    topo__comm s;
    uint64_t ca, sa;
    int i;
    topo__comm_init(&s, n, ext, dep, dims, &ca, &sa);
    if (s.k == 0) { /* everything fixed: nothing to choose */
        if (topo__volume(n, dims, ext, dep) == TOPO__SAT)
            return tilehybrid_status_set(st, TOPO_ERR_OVERFLOW, "volume", -1);
        return TOPO_OK;
    }
    topo__comm_suffixes(&s);
    if (s.sufx[0] < rest)
        return tilehybrid_status_set(st, TOPO_ERR_INFEASIBLE, "procs", -1);
    topo__divisors(rest, &dv);
    s.dv = &dv;
    /* a saturated seed volume is no usable bound: its true value is unknown */
    s.have_seed = topo__greedy(n, &dv, dims, ext, dep, &s.seedv) &&
                  s.seedv != TOPO__SAT;
    topo__comm_workspace(&s);
    if (s.k == 1)
        topo__comm_leaf(&s, s.fidx[0], rest, dv.count - 1, ca, sa);
    else
        topo__comm_dfs(&s, 0, rest, dv.count - 1, ca, sa);
    if (s.cdiv != NULL)
        TILEHYBRID_FREE(s.cdiv);
    if (!s.have)
        return tilehybrid_status_set(st, TOPO_ERR_INFEASIBLE, "procs", -1);
    if (s.bestv == TOPO__SAT)
        return tilehybrid_status_set(st, TOPO_ERR_OVERFLOW, "volume", -1);
    for (i = 0; i < n; i++)
        dims[i] = s.best[i];
    return TOPO_OK;
}

/* ------------------------------------------------------------------------ */
/* Public API.                                                              */

/**
 * topo_strerror() - a short English explanation of an error code.
 * @err: a value returned by any topo_ function.
 *
 * Return: a static, non-empty string, distinct for every code; one text
 * for every unknown code; never NULL.
 */
static inline const char *topo_strerror(int err)
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
               "P_i <= X_i in every dimension";
    case TOPO_ERR_OVERFLOW:
        return "communication volume does not fit in 64 bits";
    case TOPO_ERR_THREADS: return "thread count must be in 1..2147483647";
    case TOPO_ERR_MISMATCH: return "MPI ranks passed different arguments";
    case TOPO_ERR_MPI: return "an MPI call failed";
    case TOPO_ERR_POLICY: return "unknown topo_policy value";
    default: return "unknown topology error code";
    }
}

/**
 * topo_dims_create() - the balanced grid of MPI_Dims_create, as a pure
 * function (no MPI needed, extents ignored).
 * @procs:  number of processes, 1..INT_MAX.
 * @n:      number of dimensions, 1..TOPO_MAX_DIMS.
 * @dims:   in: 0 = free, > 0 = fixed; out: the grid.
 * @status: optional error detail (may be NULL).
 *
 * Free entries get the factorisation of procs / prod(fixed) that minimises
 * max - min (ties: the largest smallest entry, then the largest next one,
 * ...), in non-increasing order -- the answer of MPICH's MPI_Dims_create
 * (checked against MPICH 4.0 for N = 1..16 in tests/mpi_topology.c; other
 * MPI libraries may balance differently: Open MPI 4.1 returns a less
 * balanced grid in 102 of the 19240 cases tested, e.g. 12x6 for 72).
 *
 * Return: TOPO_OK, TOPO_ERR_NULL, TOPO_ERR_NDIMS, TOPO_ERR_PROCS or
 * TOPO_ERR_FIXED (negative entry, or the fixed product does not divide
 * procs, or -- stricter than MPI_Dims_create -- every entry is fixed and
 * their product is not procs); dims is unchanged on error.
 */
static inline int topo_dims_create(int64_t procs, int n, int *dims,
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

/**
 * topo_grid_ex() - choose the process grid P1 x ... x PN for P processes.
 * @n:      number of distributed dimensions N, 1..TOPO_MAX_DIMS.
 * @procs:  number of processes P, 1..INT_MAX.
 * @extent: X_1..X_N (>= 1), the distributed extents (not Z).
 * @dep:    d_1..d_N (>= 0), dependence widths.
 * @policy: TOPO_POLICY_COMM: the grid minimising
 *          V = sum_i d_i prod_{j != i} ceil(X_j / P_j) over every
 *          factorisation with P_i <= X_i; ties go to the lexicographically
 *          smallest grid (smallest P1, then P2, ...).
 *          TOPO_POLICY_LATENCY: the MPI_Dims_create grid (topo_dims_create);
 *          it must fit the extents (P_i <= X_i).
 * @dims:   in: 0 = free, > 0 = fixed (kept, must be <= X_i); out: the grid.
 *          Unchanged on error.
 * @status: optional error detail (may be NULL).
 *
 * Cost: a pruned search over divisors; well under 1 ms for N = 4 and
 * P <= 2^20 (see bench/bench_topology.c).
 *
 * Return: TOPO_OK or TOPO_ERR_NULL / NDIMS / PROCS / POLICY / EXTENT / DEP /
 * FIXED / INFEASIBLE (nothing fits; for the latency policy: its grid does
 * not fit, status->index is the dimension) / OVERFLOW (the optimal V per
 * Z-plane exceeds INT64_MAX).
 */
static inline int topo_grid_ex(int n, int64_t procs, const int64_t *extent,
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
    if (policy == TOPO_POLICY_LATENCY) {
        topo__balanced(n, rest, tmp);
        for (i = 0; i < n; i++)
            if (tmp[i] > extent[i])
                return tilehybrid_status_set(status, TOPO_ERR_INFEASIBLE, "extent", i);
    } else {
        rc = topo__comm_grid(n, rest, extent, dep, tmp, status);
        if (rc != TOPO_OK)
            return rc;
    }
    for (i = 0; i < n; i++)
        dims[i] = tmp[i];
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/**
 * topo_grid() - topo_grid_ex() without the error detail.
 * @n, @procs, @extent, @dep, @policy, @dims: as for topo_grid_ex().
 *
 * Return: as topo_grid_ex().
 */
static inline int topo_grid(int n, int64_t procs, const int64_t *extent,
                            const int64_t *dep, topo_policy policy, int *dims)
{
    return topo_grid_ex(n, procs, extent, dep, policy, dims, NULL);
}

/* The argument checks of topo_report_grid_ex(), in the documented order. */
static inline int topo__check_report(int n, const int *dims,
                                     const int64_t *extent, int64_t zlen,
                                     const int64_t *dep, const topo_report *out,
                                     tilehybrid_status *st)
{
    int i;
    if (dims == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "dims", -1);
    if (out == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "out", -1);
    if (extent == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "extent", -1);
    if (dep == NULL)
        return tilehybrid_status_set(st, TOPO_ERR_NULL, "dep", -1);
    if (n < 1 || n > TOPO_MAX_DIMS)
        return tilehybrid_status_set(st, TOPO_ERR_NDIMS, "n", -1);
    for (i = 0; i < n; i++)
        if (dims[i] < 1)
            return tilehybrid_status_set(st, TOPO_ERR_FIXED, "dims", i);
    for (i = 0; i < n; i++)
        if (extent[i] < 1)
            return tilehybrid_status_set(st, TOPO_ERR_EXTENT, "extent", i);
    if (zlen < 1)
        return tilehybrid_status_set(st, TOPO_ERR_EXTENT, "zlen", n);
    for (i = 0; i < n; i++)
        if (dep[i] < 0)
            return tilehybrid_status_set(st, TOPO_ERR_DEP, "dep", i);
    return TOPO_OK;
}

/**
 * topo_report_grid_ex() - evaluate a grid with the volume model.
 * @n:      number of dimensions, 1..TOPO_MAX_DIMS.
 * @dims:   the grid, every entry >= 1 (P_i > X_i is allowed and flagged in
 *          out->feasible).
 * @extent: X_1..X_N (>= 1).
 * @zlen:   Z (>= 1), the pipelined extent.
 * @dep:    d_1..d_N (>= 0).
 * @out:    the report (see struct topo_report); unchanged on error.
 * @status: optional error detail (may be NULL).
 *
 * Return: TOPO_OK or TOPO_ERR_NULL / NDIMS / EXTENT (index n means zlen) /
 * DEP / FIXED (a dims entry < 1) / OVERFLOW: status->arg names what does
 * not fit in INT64_MAX: "volume" (V * Z), "total_volume", or "dims" (their
 * product).
 */
static inline int topo_report_grid_ex(int n, const int *dims,
                                      const int64_t *extent, int64_t zlen,
                                      const int64_t *dep, topo_report *out,
                                      tilehybrid_status *status)
{
    topo_report r;
    uint64_t vol = 0, sent = 0, total = 0, procs = 1;
    int i, j, rc = topo__check_report(n, dims, extent, zlen, dep, out, status);
    if (rc != TOPO_OK)
        return rc;
    memset(&r, 0, sizeof r);
    r.n = n;
    r.feasible = 1;
    r.bad_index = -1;
    for (i = 0; i < n; i++) {
        uint64_t term = (uint64_t)dep[i], whole = (uint64_t)dep[i];
        r.dims[i] = dims[i];
        for (j = 0; j < n; j++) {
            if (j == i)
                continue;
            term = topo__mul(term, (uint64_t)topo__ceildiv(extent[j], dims[j]));
            whole = topo__mul(whole, (uint64_t)extent[j]);
        }
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

/**
 * topo_report_grid() - topo_report_grid_ex() without the error detail.
 * @n, @dims, @extent, @zlen, @dep, @out: as for topo_report_grid_ex().
 *
 * Return: as topo_report_grid_ex().
 */
static inline int topo_report_grid(int n, const int *dims,
                                   const int64_t *extent, int64_t zlen,
                                   const int64_t *dep, topo_report *out)
{
    return topo_report_grid_ex(n, dims, extent, zlen, dep, out, NULL);
}

/* The thread grid of topo_hybrid_grid_ex() inside the blocks of the
 * process grid pd: td in/out. */
static inline int topo__thread_grid(int n, int threads, const int64_t *extent,
                                    const int64_t *dep, topo_policy policy,
                                    const int *pd, int *td, tilehybrid_status *st)
{
    int64_t local[TOPO_MAX_DIMS], rest;
    int i, rc;
    for (i = 0; i < n; i++)
        local[i] = topo__ceildiv(extent[i], pd[i]);
    rc = topo__check_fixed(n, threads, td, local, &rest, "tdims", st);
    if (rc != TOPO_OK)
        return rc;
    if (policy == TOPO_POLICY_LATENCY) {
        topo__balanced(n, rest, td);
        for (i = 0; i < n; i++)
            if (td[i] > local[i])
                return tilehybrid_status_set(st, TOPO_ERR_INFEASIBLE, "threads", i);
        return TOPO_OK;
    }
    rc = topo__comm_grid(n, rest, local, dep, td, st);
    if (rc == TOPO_ERR_INFEASIBLE)
        return tilehybrid_status_set(st, rc, "threads", -1);
    return rc;
}

/**
 * topo_hybrid_grid_ex() - process grid and, inside it, the thread grid for
 * P processes of T threads each.
 * @n, @procs, @extent, @dep, @policy: as for topo_grid_ex().
 * @threads: threads per process T, 1..INT_MAX.
 * @dims:    in/out process grid (0 = free), exactly as topo_grid_ex().
 * @tdims:   in/out thread grid T1 x ... x TN (0 = free, > 0 fixed), chosen
 *           by the same policy for the largest local block
 *           L_i = ceil(X_i / P_i): with TOPO_POLICY_COMM it minimises
 *           sum_i d_i prod_{j != i} ceil(L_j / T_j) with T_i <= L_i.
 * @status:  optional error detail; errors about the thread grid name
 *           "threads" or "tdims".
 *
 * Both outputs are unchanged on error.
 *
 * Return: as topo_grid_ex(), plus TOPO_ERR_THREADS (T out of range) and
 * TOPO_ERR_INFEASIBLE with arg "threads" when T does not fit the block.
 */
static inline int topo_hybrid_grid_ex(int n, int64_t procs, int threads,
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

/**
 * topo_hybrid_grid() - topo_hybrid_grid_ex() without the error detail.
 * @n, @procs, @threads, @extent, @dep, @policy, @dims, @tdims: as for
 *           topo_hybrid_grid_ex().
 *
 * Return: as topo_hybrid_grid_ex().
 */
static inline int topo_hybrid_grid(int n, int64_t procs, int threads,
                                   const int64_t *extent, const int64_t *dep,
                                   topo_policy policy, int *dims, int *tdims)
{
    return topo_hybrid_grid_ex(n, procs, threads, extent, dep, policy, dims,
                               tdims, NULL);
}

/**
 * topo_block() - block distribution of @extent elements over @parts parts.
 * @extent: number of elements, >= 0.
 * @parts:  number of parts, >= 1.
 * @index:  the part, 0 <= index < parts.
 * @start:  out: the first element of part @index (may be NULL).
 * @len:    out: its length (may be NULL).
 *
 * The first extent % parts parts get one element more, so part 0 is the
 * largest (ceil(extent / parts)).  Out-of-range arguments give
 * start = len = 0; this function cannot fail.
 */
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

#ifndef TILEHYBRID_NO_MPI

/* ---- topo_cart_create_ex in three steps ------------------------------- */

/* Values every rank must share: n, policy, reorder, then extent, dep and
 * fixed (TOPO_MAX_DIMS entries each, 0 past n). */
#define TOPO__NSHARED (3 + 3 * TOPO_MAX_DIMS)

/* The argument names a status can carry to another rank (as text). */
static inline const char *topo__known_arg(const char *text, size_t len)
{
    static const char *const names[] = {"n",   "procs", "policy", "extent",
                                        "dep", "dims",  "fixed",  "reorder"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == len && strncmp(names[i], text, len) == 0)
            return names[i];
    return "another rank";
}

/* Step 1: this rank's verdict on its own arguments (*mine) and the values
 * that must be equal everywhere, as 64-bit patterns of the user's values. */
static inline int topo__cart_local(int size, int n, const int64_t *extent,
                                   const int64_t *dep, topo_policy policy,
                                   const int *fixed, int reorder, const int *dims,
                                   uint64_t *v, tilehybrid_status *mine)
{
    int i, rc;
    tilehybrid_status_set(mine, TOPO_OK, "", -1);
    if (dims == NULL)
        rc = tilehybrid_status_set(mine, TOPO_ERR_NULL, "dims", -1);
    else
        rc = topo__check_common(n, size, extent, dep, policy, mine);
    memset(v, 0, sizeof(uint64_t) * TOPO__NSHARED);
    v[0] = (uint64_t)(int64_t)n;
    v[1] = (uint64_t)(int64_t)policy;
    v[2] = (uint64_t)(int64_t)reorder;
    for (i = 0; rc == TOPO_OK && i < n; i++) {
        v[3 + i] = (uint64_t)extent[i];
        v[3 + TOPO_MAX_DIMS + i] = (uint64_t)dep[i];
        v[3 + 2 * TOPO_MAX_DIMS + i] = (uint64_t)(int64_t)(fixed != NULL ? fixed[i] : 0);
    }
    return rc;
}

/* The failing rank's argument and index as the text "arg index" (index
 * left out when -1), the message tilehybrid_agree() hands every rank. */
static inline void topo__encode_status(const tilehybrid_status *st, char *msg,
                                       size_t size)
{
    size_t len = 0;
    const char *a = st->arg;
    while (*a != '\0' && len + 4 < size)
        msg[len++] = *a++;
    msg[len++] = ' ';
    if (st->index >= 10 && st->index < 100)
        msg[len++] = (char)('0' + st->index / 10);
    if (st->index >= 0 && st->index < 100)
        msg[len++] = (char)('0' + st->index % 10);
    msg[len] = '\0';
}

/* Step 2: one tilehybrid_agree().  Returns TOPO_OK when no rank failed and
 * every value is equal; else the code every rank returns, with *status
 * naming the failing rank's argument, index and rank, or the first value
 * that differs between ranks. */
static inline int topo__cart_agree(MPI_Comm comm, int rc, const uint64_t *v,
                                   const tilehybrid_status *mine,
                                   tilehybrid_status *status)
{
    static const char *const first[3] = {"n", "policy", "reorder"};
    static const char *const table[3] = {"extent", "dep", "fixed"};
    char msg[64] = "";
    const char *sp;
    tilehybrid_agreement a;
    int64_t index = -1;
    int mpirc;
    if (rc != TOPO_OK)
        topo__encode_status(mine, msg, sizeof msg);
    mpirc = tilehybrid_agree(comm, rc, v, TOPO__NSHARED, msg, sizeof msg, &a);
    if (mpirc != MPI_SUCCESS) {
        tilehybrid_status_set(status, TOPO_ERR_MPI, "tilehybrid_agree", -1);
        if (status != NULL)
            status->mpi_error = mpirc;
        return TOPO_ERR_MPI;
    }
    if (a.code != 0) {
        sp = strchr(msg, ' ');
        if (sp == NULL)
            sp = msg + strlen(msg);
        else if (sp[1] != '\0')
            (void)tilehybrid_parse_i64(sp + 1, 0, 99, &index);
        tilehybrid_status_set(status, a.code, topo__known_arg(msg, (size_t)(sp - msg)), index);
        if (status != NULL)
            status->rank = a.rank;
        return a.code;
    }
    if (a.index < 0)
        return TOPO_OK;
    if (a.index < 3)
        return tilehybrid_status_set(status, TOPO_ERR_MISMATCH, first[a.index], -1);
    return tilehybrid_status_set(status, TOPO_ERR_MISMATCH,
                                 table[(a.index - 3) / TOPO_MAX_DIMS],
                                 (a.index - 3) % TOPO_MAX_DIMS);
}

/* Step 3: the same arguments everywhere, so the pure search gives the same
 * grid on every rank; then MPI_Cart_create (periods all 0). */
static inline int topo__cart_make(MPI_Comm comm, int size, int n,
                                  const int64_t *extent, const int64_t *dep,
                                  topo_policy policy, const int *fixed,
                                  int reorder, MPI_Comm *cart, int *dims,
                                  tilehybrid_status *status)
{
    int grid[TOPO_MAX_DIMS], periods[TOPO_MAX_DIMS], i, rc, mpirc;
    MPI_Comm out = MPI_COMM_NULL;
    for (i = 0; i < n; i++) {
        grid[i] = fixed != NULL ? fixed[i] : 0;
        periods[i] = 0;
    }
    rc = topo_grid_ex(n, size, extent, dep, policy, grid, status);
    if (rc != TOPO_OK)
        return rc;
    mpirc = MPI_Cart_create(comm, n, grid, periods, reorder, &out);
    if (mpirc != MPI_SUCCESS) {
        tilehybrid_status_set(status, TOPO_ERR_MPI, "MPI_Cart_create", -1);
        if (status != NULL)
            status->mpi_error = mpirc;
        return TOPO_ERR_MPI;
    }
    for (i = 0; i < n; i++)
        dims[i] = grid[i];
    *cart = out;
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/**
 * topo_cart_create_ex() - choose the grid and create the MPI Cartesian
 * communicator over all processes of @comm (collective).
 * @comm:    the communicator (its size is P); its error handler is used as
 *           is, and every MPI return code is checked.
 * @n, @extent, @dep, @policy: as for topo_grid_ex().
 * @fixed:   n entries, 0 = free, > 0 = fixed; NULL means all free.
 * @reorder: passed to MPI_Cart_create (periods are all 0).
 * @cart:    out: the new communicator (MPI_COMM_NULL on error).
 * @dims:    out: the grid, n entries (unchanged on error).
 * @status:  optional error detail (may be NULL), the same on every rank.
 *
 * Every rank must pass the same n, extent, dep, policy, fixed and reorder.
 * One tilehybrid_agree() checks it, and this rank's own argument checks
 * travel with it: if any rank's arguments are invalid, every rank returns
 * the code of the lowest such rank, and status->arg, ->index and ->rank
 * name its argument, dimension and rank; if the arguments differ between
 * ranks, every rank returns TOPO_ERR_MISMATCH and status->arg/index name
 * the first value that differs ("n", "policy", "reorder", or "extent",
 * "dep", "fixed" with the dimension; the values are the caller's own).
 * A NULL @cart or MPI_COMM_NULL @comm is reported on this rank only,
 * before any communication.
 *
 * Return: the same code on every rank: TOPO_OK, an argument error,
 * TOPO_ERR_MISMATCH, or TOPO_ERR_MPI (status->arg names the call,
 * status->mpi_error holds the MPI code).
 */
static inline int topo_cart_create_ex(MPI_Comm comm, int n,
                                      const int64_t *extent,
                                      const int64_t *dep, topo_policy policy,
                                      const int *fixed, int reorder,
                                      MPI_Comm *cart, int *dims,
                                      tilehybrid_status *status)
{
    uint64_t v[TOPO__NSHARED];
    tilehybrid_status mine;
    int size = 0, mpirc, rc;
    if (cart == NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "cart", -1);
    *cart = MPI_COMM_NULL;
    if (comm == MPI_COMM_NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "comm", -1);
    mpirc = MPI_Comm_size(comm, &size);
    if (mpirc != MPI_SUCCESS) {
        tilehybrid_status_set(status, TOPO_ERR_MPI, "MPI_Comm_size", -1);
        if (status != NULL)
            status->mpi_error = mpirc;
        return TOPO_ERR_MPI;
    }
    rc = topo__cart_local(size, n, extent, dep, policy, fixed, reorder, dims, v, &mine);
    rc = topo__cart_agree(comm, rc, v, &mine, status);
    if (rc != TOPO_OK)
        return rc;
    return topo__cart_make(comm, size, n, extent, dep, policy, fixed, reorder, cart,
                           dims, status);
}

/**
 * topo_cart_create() - topo_cart_create_ex() without the error detail.
 * @comm, @n, @extent, @dep, @policy, @fixed, @reorder, @cart, @dims: as
 *           for topo_cart_create_ex().
 *
 * Return: as topo_cart_create_ex().
 */
static inline int topo_cart_create(MPI_Comm comm, int n,
                                   const int64_t *extent, const int64_t *dep,
                                   topo_policy policy, const int *fixed,
                                   int reorder, MPI_Comm *cart, int *dims)
{
    return topo_cart_create_ex(comm, n, extent, dep, policy, fixed, reorder,
                               cart, dims, NULL);
}

#endif /* TILEHYBRID_NO_MPI */

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_TOPOLOGY_H */
