/* tests/unit_topology.c -- topology.h without MPI: published grids, exact
 * search against brute force, latency grid, hybrid grid, reports, blocks,
 * every error path and overflow. */
#define TILEHYBRID_NO_MPI

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The search's bound tables come from this hook, so the fallback path
 * (no tables) can be tested too. */
static int test_fail_malloc;
static void *test_malloc(size_t size)
{
    return test_fail_malloc ? NULL : malloc(size);
}
#define TILEHYBRID_MALLOC(size) test_malloc(size)
#define TILEHYBRID_FREE(ptr) free(ptr)

#include "topology.h"
#include "tests/check.h"

/* ---- helpers ------------------------------------------------------------ */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd(uint64_t bound) /* uniform-ish in [0, bound) */
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (rng_state >> 33) % bound;
}

/* The codes some test provoked (checked at the end: every code is). */
static int seen_code[TOPO_ERR_COST + 1];

/* A call returns want, with st (the caller's tilehybrid_status) naming
 * the argument name and the index idx; the code counts as provoked. */
#define EXPECT(call, want, idx, name)                                        \
    do {                                                                     \
        int expect_rc_ = (call);                                             \
        seen_code[want] = 1;                                                 \
        check(expect_rc_ == (want) && st.code == (want) &&                   \
                  st.index == (idx) && !strcmp(st.arg, name),                \
              "%s -> %s, index %d, arg %s (got %d, %d, %s)", #call, #want,   \
              idx, name, expect_rc_, (int)st.index, st.arg);                 \
    } while (0)

static int same(const int *a, const int *b, int n)
{
    return memcmp(a, b, (size_t)n * sizeof(int)) == 0;
}

static const char *fmt_grid(const int *d, int n, char *buf)
{
    int i, off = 0;
    for (i = 0; i < n; i++)
        off += sprintf(buf + off, i ? "x%d" : "%d", d[i]);
    return buf;
}

/* V per Z-plane in plain arithmetic (small inputs only). */
static int64_t ref_volume(int n, const int *p, const int64_t *x,
                          const int64_t *d)
{
    int64_t v = 0;
    int i, j;
    for (i = 0; i < n; i++) {
        int64_t t = d[i];
        for (j = 0; j < n; j++)
            if (j != i)
                t *= (x[j] + p[j] - 1) / p[j];
        v += t;
    }
    return v;
}

/* Brute force: every grid in lexicographic order (P_1 slowest), product P,
 * P_i <= X_i (or <= lim_i), fixed entries kept; the first one with the
 * smallest V. */
struct ref {
    int n;
    int64_t procs;
    const int64_t *x, *d, *lim;
    const int *fixed;
    int cur[TOPO_MAX_DIMS], best[TOPO_MAX_DIMS];
    int64_t bestv;
    int found;
};

static void ref_rec(struct ref *r, int i, int64_t rest)
{
    int64_t p;
    if (i == r->n) {
        if (rest == 1) {
            int64_t v = ref_volume(r->n, r->cur, r->x, r->d);
            if (!r->found || v < r->bestv) {
                r->found = 1;
                r->bestv = v;
                memcpy(r->best, r->cur, sizeof r->cur);
            }
        }
        return;
    }
    for (p = 1; p <= rest && p <= (r->lim != NULL ? r->lim[i] : r->x[i]); p++) {
        if (rest % p != 0 || (r->fixed[i] > 0 && p != r->fixed[i]))
            continue;
        r->cur[i] = (int)p;
        ref_rec(r, i + 1, rest / p);
    }
}

static int ref_grid_lim(int n, int64_t procs, const int64_t *x, const int64_t *lim,
                        const int64_t *d, const int *fixed, int *out)
{
    struct ref r = { .n = n, .procs = procs, .x = x, .d = d, .lim = lim, .fixed = fixed };
    ref_rec(&r, 0, procs);
    if (r.found)
        memcpy(out, r.best, (size_t)n * sizeof(int));
    return r.found;
}

static int ref_grid(int n, int64_t procs, const int64_t *x, const int64_t *d,
                    const int *fixed, int *out)
{
    return ref_grid_lim(n, procs, x, NULL, d, fixed, out);
}

/* Most balanced factorisation by brute force: min (max - min), ties to the
 * largest smallest entry, then the next; returned non-increasing. */
static void ref_balanced_rec(int k, int i, int64_t rest, int64_t lo,
                             int64_t *cur, int64_t *best, int64_t *bestbal)
{
    int64_t f;
    if (i == k - 1) {
        int j, better = 0;
        if (rest < lo)
            return;
        cur[i] = rest;
        if (*bestbal < 0 || rest - cur[0] < *bestbal) {
            better = 1;
        } else if (rest - cur[0] == *bestbal) {
            for (j = 0; j < k && cur[j] == best[j]; j++)
                ;
            better = j < k && cur[j] > best[j];
        }
        if (better) {
            *bestbal = rest - cur[0];
            memcpy(best, cur, (size_t)k * sizeof(int64_t));
        }
        return;
    }
    for (f = lo; f <= rest; f++) {
        if (rest % f != 0)
            continue;
        cur[i] = f;
        ref_balanced_rec(k, i + 1, rest / f, f, cur, best, bestbal);
    }
}

/* ---- published grids --------------------------------------------------- */

/* The published grids of 16 and 12 processes, and of 8 processes x 2 threads,
 * over {16..256} x 256. */
static void test_published_small(void)
{
    static const int64_t x1[5] = {16, 32, 64, 128, 256};
    static const int want16[5][2] = {{1, 16}, {1, 16}, {2, 8}, {2, 8}, {4, 4}};
    static const int want12[5][2] = {{1, 12}, {1, 12}, {2, 6}, {2, 6}, {3, 4}};
    static const int want8[5][2] = {{1, 8}, {1, 8}, {1, 8}, {2, 4}, {2, 4}};
    int64_t d[2] = {1, 1};
    int i, ok16 = 1, ok12 = 1, ok8 = 1, lat = 1;
    char b1[64], b2[64];
    for (i = 0; i < 5; i++) {
        int64_t x[2];
        int g[2] = {0, 0}, h[2] = {0, 0}, l[2] = {0, 0};
        x[0] = x1[i];
        x[1] = 256;
        if (topo_grid(2, 16, x, d, TOPO_POLICY_COMM, g) != TOPO_OK ||
            !same(g, want16[i], 2)) {
            ok16 = 0;
            check_note("16 procs, %lldx256: got %s", (long long)x[0],
                       fmt_grid(g, 2, b1));
        }
        if (topo_grid(2, 16, x, d, TOPO_POLICY_LATENCY, l) != TOPO_OK ||
            l[0] != 4 || l[1] != 4)
            lat = 0;
        g[0] = g[1] = 0;
        if (topo_grid(2, 12, x, d, TOPO_POLICY_COMM, g) != TOPO_OK ||
            !same(g, want12[i], 2)) {
            ok12 = 0;
            check_note("12 procs, %lldx256: got %s", (long long)x[0],
                       fmt_grid(g, 2, b1));
        }
        g[0] = g[1] = 0;
        if (topo_hybrid_grid(2, 8, 2, x, d, TOPO_POLICY_COMM, g, h) !=
                TOPO_OK || !same(g, want8[i], 2)) {
            ok8 = 0;
            check_note("8x2 hybrid, %lldx256: got %s / %s", (long long)x[0],
                       fmt_grid(g, 2, b1), fmt_grid(h, 2, b2));
        }
    }
    check(ok16, "16 procs, {16..256}x256, d=(1,1): 1x16 1x16 2x8 2x8 4x4 "
                "(topology paper Sec. 6.1)");
    check(lat, "16 procs: latency grid 4x4 for every space");
    check(ok12, "12 procs, {16..256}x256, d=(1,1): 1x12 1x12 2x6 2x6 3x4 "
                "(communication-aware paper Fig. 3)");
    check(ok8, "8 procs x 2 threads: process grids 1x8 1x8 1x8 2x4 2x4 "
               "(hybrid balancing paper Table 1, hybrid column)");
}

/* 65536 processes: X1 = 4*X2, X1 = X2, X1 = 2*X2 (a tie). */
static void test_published_large(void)
{
    int64_t d[2] = {1, 1}, sq[2] = {4096, 4096}, half[2] = {2048, 1024};
    int64_t xs[4][2] = {{4096, 1024}, {16384, 4096}, {1 << 20, 1 << 18},
                        {(int64_t)1 << 40, (int64_t)1 << 38}};
    int i, ok = 1, g[2], h[2] = {0, 0}, r1, r2;
    for (i = 0; i < 4; i++) {
        g[0] = g[1] = 0;
        if (topo_grid(2, 65536, xs[i], d, TOPO_POLICY_COMM, g) != TOPO_OK ||
            g[0] != 512 || g[1] != 128)
            ok = 0;
    }
    check(ok, "65536 procs, X1 = 4*X2: 512x128 (topology paper Sec. 4)");
    g[0] = g[1] = 0;
    r1 = topo_grid(2, 65536, sq, d, TOPO_POLICY_COMM, g);
    r2 = topo_grid(2, 65536, half, d, TOPO_POLICY_COMM, h);
    check(r1 == TOPO_OK && g[0] == 256 && g[1] == 256,
          "65536 procs, X1 = X2: 256x256");
    check(r2 == TOPO_OK && h[0] == 256 && h[1] == 256 &&
              ref_volume(2, h, half, d) ==
                  ref_volume(2, (const int[]){512, 128}, half, d),
          "65536 procs, X1 = 2*X2: 512x128 and 256x256 tie, the "
          "lexicographically smaller 256x256 wins");
}

/* The topology paper's Fig. 1: X1 = 4*X2, 16 procs: 8x2 beats 4x4; the
 * paper's ~27% is the total volume, 11 X2 Z against 15 X2 Z. */
static void test_published_fig1(void)
{
    int64_t d[2] = {1, 1}, x[2] = {1024, 256};
    int g[2] = {0, 0}, l[2] = {4, 4};
    topo_report a, b;
    int rc = topo_grid(2, 16, x, d, TOPO_POLICY_COMM, g);
    rc |= topo_report_grid(2, g, x, 100, d, &a);
    rc |= topo_report_grid(2, l, x, 100, d, &b);
    check(rc == TOPO_OK && g[0] == 8 && g[1] == 2 &&
              a.total_volume * 15 == b.total_volume * 11,
          "16 procs, X1 = 4*X2: 8x2, total volume 11/15 of 4x4 "
          "(topology paper Fig. 1, about 27%% less)");
}

/* The grids the papers publish. */
static void test_published(void)
{
    test_published_small();
    test_published_large();
    test_published_fig1();
}

/* ---- exact search against brute force ---------------------------------- */

static void random_case(int n, int64_t *x, int64_t *d, int *fixed,
                        int64_t *procs, int with_fixed)
{
    int i;
    *procs = 1 + (int64_t)rnd(rnd(4) == 0 ? 720 : 96);
    for (i = 0; i < n; i++) {
        x[i] = 1 + (int64_t)rnd(rnd(3) == 0 ? 8 : 60);
        d[i] = (int64_t)rnd(5);
        fixed[i] = 0;
        if (with_fixed && rnd(3) == 0) /* a divisor of procs, or junk */
            fixed[i] = rnd(6) == 0 ? 1 + (int)rnd(7) : 0;
        if (with_fixed && fixed[i] == 0 && rnd(4) == 0) {
            int64_t f = 1 + (int64_t)rnd((uint64_t)*procs);
            while (*procs % f != 0)
                f--;
            fixed[i] = (int)f;
        }
    }
}

static void test_brute_force(int with_fixed, int no_tables, int cases)
{
    int c, bad = 0, infeasible = 0, fixed_err = 0, found = 0;
    test_fail_malloc = no_tables;
    for (c = 0; c < cases; c++) {
        int n = 1 + (int)rnd(4), i, rc, g[TOPO_MAX_DIMS], r[TOPO_MAX_DIMS];
        int fixed[TOPO_MAX_DIMS];
        int64_t x[TOPO_MAX_DIMS], d[TOPO_MAX_DIMS], procs, rest = 1;
        int fixed_ok = 1;
        random_case(n, x, d, fixed, &procs, with_fixed);
        for (i = 0; i < n; i++) {
            g[i] = fixed[i];
            if (fixed[i] > 0) {
                if (fixed[i] > x[i])
                    fixed_ok = 0;
                rest *= fixed[i];
            }
        }
        if (procs % rest != 0)
            fixed_ok = 0;
        rc = topo_grid(n, procs, x, d, TOPO_POLICY_COMM, g);
        if (!fixed_ok) {
            fixed_err++;
            if (rc != TOPO_ERR_FIXED)
                bad++;
            continue;
        }
        {
            int all_fixed = 1;
            for (i = 0; i < n; i++)
                all_fixed &= fixed[i] > 0;
            if (all_fixed && rest != procs) {
                fixed_err++;
                bad += rc != TOPO_ERR_FIXED;
                continue;
            }
        }
        if (!ref_grid(n, procs, x, d, fixed, r)) {
            infeasible++;
            if (rc != TOPO_ERR_INFEASIBLE)
                bad++;
            continue;
        }
        found++;
        if (rc != TOPO_OK || !same(g, r, n)) {
            char b1[128], b2[128];
            if (bad++ < 5)
                check_note("n=%d P=%lld: got rc %d %s, want %s", n,
                           (long long)procs, rc, fmt_grid(g, n, b1),
                           fmt_grid(r, n, b2));
        }
    }
    test_fail_malloc = 0;
    check(bad == 0,
          "exact grid = brute force (lexicographic ties), %d random cases "
          "N=1..4%s%s (%d solved, %d infeasible, %d bad fixed)",
          cases, with_fixed ? ", with fixed dims" : "",
          no_tables ? ", search without bound tables" : "", found,
          infeasible, fixed_err);
}

/* Larger N with small P: the bound tables matter there. */
static void test_brute_force_wide(void)
{
    int c, bad = 0;
    for (c = 0; c < 300; c++) {
        int n = 5 + (int)rnd(2), i, g[TOPO_MAX_DIMS], r[TOPO_MAX_DIMS];
        int fixed[TOPO_MAX_DIMS];
        int64_t x[TOPO_MAX_DIMS], d[TOPO_MAX_DIMS];
        static const int64_t ps[6] = {24, 36, 48, 60, 64, 72};
        int64_t procs = ps[rnd(6)];
        for (i = 0; i < n; i++) {
            x[i] = 1 + (int64_t)rnd(30);
            d[i] = (int64_t)rnd(4);
            fixed[i] = g[i] = 0;
        }
        if (!ref_grid(n, procs, x, d, fixed, r)) {
            bad += topo_grid(n, procs, x, d, TOPO_POLICY_COMM, g) !=
                   TOPO_ERR_INFEASIBLE;
            continue;
        }
        if (topo_grid(n, procs, x, d, TOPO_POLICY_COMM, g) != TOPO_OK ||
            !same(g, r, n))
            bad++;
    }
    check(bad == 0, "exact grid = brute force, 300 random cases N=5..6");
}

/* ---- latency grid -------------------------------------------------------- */

static void test_latency(void)
{
    int p, k, bad = 0, order = 0;
    char b1[64];
    int g[4] = {0, 0};
    for (k = 1; k <= 4; k++) {
        for (p = 1; p <= 400; p++) {
            int d[TOPO_MAX_DIMS] = {0}, i;
            int64_t cur[TOPO_MAX_DIMS], best[TOPO_MAX_DIMS], bestbal = -1;
            int64_t prod = 1;
            if (topo_dims_create(p, k, d, NULL) != TOPO_OK) {
                bad++;
                continue;
            }
            ref_balanced_rec(k, 0, p, 1, cur, best, &bestbal);
            for (i = 0; i < k; i++) {
                prod *= d[i];
                if (i > 0 && d[i] > d[i - 1])
                    order++;
                if (d[i] != best[k - 1 - i])
                    bad++;
            }
            if (prod != p)
                bad++;
        }
    }
    check(bad == 0 && order == 0,
          "latency grid: product P, non-increasing, most balanced (brute "
          "force incl. tie rule), P=1..400, N=1..4");
    {
        int d[3] = {0, 2, 0}, e[3] = {0, 0, 0};
        int r1 = topo_dims_create(24, 3, d, NULL);
        int r2 = topo_dims_create(12, 2, e, NULL);
        check(r1 == TOPO_OK && d[0] == 4 && d[1] == 2 && d[2] == 3 &&
                  r2 == TOPO_OK && e[0] == 4 && e[1] == 3,
              "latency grid with a fixed entry: 24 = 4x[2]x3; 12 = 4x3");
    }
    {
        int64_t x[2] = {2, 1000}, dep[2] = {1, 1};
        tilehybrid_status st;
        int rc = topo_grid_ex(2, 16, x, dep, TOPO_POLICY_LATENCY, g, &st);
        check(rc == TOPO_ERR_INFEASIBLE && st.index == 0 && g[0] == 0,
              "latency grid 4x4 does not fit 2x1000: infeasible, dim 0, "
              "dims unchanged");
        rc = topo_grid(2, 16, x, dep, TOPO_POLICY_COMM, g);
        check(rc == TOPO_OK && g[0] == 1 && g[1] == 16,
              "the communication grid for the same case is %s",
              fmt_grid(g, 2, b1));
    }
    {
        /* the communication grid never has more volume than the latency one */
        int c, worse = 0;
        for (c = 0; c < 2000; c++) {
            int n = 1 + (int)rnd(3), i, a[3] = {0, 0, 0}, l[3] = {0, 0, 0};
            int64_t x[3], dep[3], procs = 1 + (int64_t)rnd(200);
            for (i = 0; i < n; i++) {
                x[i] = 200 + (int64_t)rnd(2000);
                dep[i] = (int64_t)rnd(4);
            }
            if (topo_grid(n, procs, x, dep, TOPO_POLICY_COMM, a) != TOPO_OK ||
                topo_grid(n, procs, x, dep, TOPO_POLICY_LATENCY, l) != TOPO_OK ||
                ref_volume(n, a, x, dep) > ref_volume(n, l, x, dep))
                worse++;
        }
        check(worse == 0, "V(communication grid) <= V(latency grid), 2000 "
                          "random cases");
    }
}

/* ---- hybrid ------------------------------------------------------------- */

static void test_hybrid(void)
{
    int c, bad = 0;
    for (c = 0; c < 1500; c++) {
        int n = 1 + (int)rnd(3), i, p[3] = {0, 0, 0}, t[3] = {0, 0, 0};
        int gp[3] = {0, 0, 0}, rt[3], zero[3] = {0, 0, 0}, rc;
        int64_t x[3], d[3], local[3], small[3], procs = 1 + (int64_t)rnd(64);
        int threads = 1 + (int)rnd(16);
        for (i = 0; i < n; i++) {
            x[i] = 1 + (int64_t)rnd(100);
            d[i] = (int64_t)rnd(4);
        }
        rc = topo_hybrid_grid(n, procs, threads, x, d, TOPO_POLICY_COMM, p, t);
        if (topo_grid(n, procs, x, d, TOPO_POLICY_COMM, gp) != TOPO_OK) {
            bad += rc == TOPO_OK;
            continue;
        }
        for (i = 0; i < n; i++) {
            local[i] = (x[i] + gp[i] - 1) / gp[i];
            small[i] = x[i] / gp[i];
        }
        if (!ref_grid_lim(n, threads, local, small, d, zero, rt)) {
            bad += rc != TOPO_ERR_INFEASIBLE;
            continue;
        }
        if (rc != TOPO_OK || !same(p, gp, n) || !same(t, rt, n))
            bad++;
    }
    check(bad == 0, "hybrid: process grid = topo_grid, thread grid = brute "
                    "force on the largest block, at most the smallest block's points "
                    "along each dimension, 1500 random cases");
    {
        /* 2-D cases on x0 x 256 points, d = (1, 1): the _ex form (naming
         * the argument at fault) where arg is given; a failure leaves the
         * outputs as they were */
        static const struct {
            int64_t x0, procs;
            int threads, policy, fixed_t1, want, p0, p1, t0, t1;
            const char *arg;
            int index;
            const char *name;
        } cases[] = {
            /* block 16x32: 1x2 threads gives 16+16, 2x1 gives 32+8 */
            {16, 8, 2, TOPO_POLICY_COMM, 0, TOPO_OK, 1, 8, 1, 2, NULL, -1,
             "hybrid 16x256, 8 procs x 2 threads: 1x8 processes, 1x2 threads"},
            {16, 16, 64, TOPO_POLICY_LATENCY, 0, TOPO_ERR_INFEASIBLE, 0, 0, 0, 0, NULL, -1,
             "hybrid latency 16x256, 16x64: 8x8 threads do not fit the "
             "4x64 block of the 4x4 grid: infeasible, outputs unchanged"},
            {64, 16, 4, TOPO_POLICY_LATENCY, 0, TOPO_OK, 4, 4, 2, 2, NULL, -1,
             "hybrid latency 64x256, 16x4: 4x4 processes, 2x2 threads"},
            {64, 16, 4, TOPO_POLICY_COMM, 3, TOPO_ERR_FIXED, 0, 0, 0, 3, "tdims", 1,
             "hybrid: fixed thread entry 3 does not divide 4: "
             "TOPO_ERR_FIXED, tdims[1]"},
            {16, 16, 512, TOPO_POLICY_COMM, 0, TOPO_ERR_INFEASIBLE, 0, 0, 0, 0, "threads", -1,
             "hybrid: 512 threads do not fit the 16x16 block of 1x16: "
             "infeasible, arg threads"},
        };
        size_t k;
        for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            int64_t x[2], d[2] = {1, 1};
            int p[2] = {0, 0}, t[2], rc;
            tilehybrid_status st;
            x[0] = cases[k].x0;
            x[1] = 256;
            t[0] = 0;
            t[1] = cases[k].fixed_t1;
            if (cases[k].arg == NULL)
                rc = topo_hybrid_grid(2, cases[k].procs, cases[k].threads, x, d,
                                      cases[k].policy, p, t);
            else
                rc = topo_hybrid_grid_ex(2, cases[k].procs, cases[k].threads, x, d,
                                         cases[k].policy, p, t, &st);
            check(rc == cases[k].want && p[0] == cases[k].p0 && p[1] == cases[k].p1 &&
                      t[0] == cases[k].t0 && t[1] == cases[k].t1 &&
                      (cases[k].arg == NULL || strcmp(st.arg, cases[k].arg) == 0) &&
                      (cases[k].index < 0 || st.index == cases[k].index),
                  "%s", cases[k].name);
        }
    }
}

/* ---- report ------------------------------------------------------------- */

/* Did topo_report_grid() return TOPO_OK and these figures? */
static int report_is(int rc, const topo_report *r, int64_t volume, int64_t sent,
                     int64_t total, int messages, int64_t fill_steps)
{
    return rc == TOPO_OK && r->volume == volume && r->volume_sent == sent &&
           r->total_volume == total && r->messages == messages && r->fill_steps == fill_steps;
}

static void test_report(void)
{
    topo_report r;
    int rc;
    {
        int64_t x[2] = {64, 256}, d[2] = {1, 1};
        int g[2] = {2, 8};
        rc = topo_report_grid(2, g, x, 16384, d, &r);
        check(report_is(rc, &r, 1048576, 1048576, 11534336, 2, 8) && r.procs == 16 &&
                  r.feasible == 1 && r.bad_index == -1 && r.n == 2 &&
                  r.dims[0] == 2 && r.dims[1] == 8,
              "report 2x8 on 64x256x16384: V 1048576, sent 1048576, total "
              "11534336, 2 messages, 8 fill steps");
    }
    {
        int64_t x[2] = {10, 7}, d[2] = {2, 1};
        int g[2] = {3, 2};
        rc = topo_report_grid(2, g, x, 5, d, &r);
        /* blocks 4 x 4: V = 5*(2*4 + 1*4); total = 5*(2*2*7 + 1*1*10) */
        check(report_is(rc, &r, 60, 60, 190, 2, 3),
              "report 3x2 on 10x7x5, d=(2,1): ceilings, V 60, total 190");
    }
    {
        int64_t x[2] = {16, 256}, d[2] = {1, 1};
        int g[2] = {1, 4};
        rc = topo_report_grid(2, g, x, 16384, d, &r);
        /* blocks 16 x 64: V = Z*(64 + 16); sent only along dim 2: Z*16 */
        check(report_is(rc, &r, 1310720, 262144, 786432, 1, 3),
              "report 1x4 on 16x256x16384: V 1310720, sent 262144 (one "
              "dim), total 786432, 1 message");
    }
    {
        int64_t x[3] = {2, 5, 9}, d[3] = {0, 3, 1};
        int g[3] = {4, 1, 2};
        rc = topo_report_grid(3, g, x, 1, d, &r);
        /* blocks 1 x 5 x 5: V = 0*25 + 3*5 + 1*5 = 20, sent = 0 + 5 */
        check(report_is(rc, &r, 20, 5, 0 * 3 * 45 + 1 * 1 * 10, 2, 4) && r.feasible == 0 &&
                  r.bad_index == 0,
              "report 4x1x2 on 2x5x9, d=(0,3,1): infeasible dim 0, V 20, "
              "sent 5, total 10");
    }
}

/* ---- blocks ------------------------------------------------------------- */

static void test_block(void)
{
    int bad = 0, parts, i;
    int64_t e, s, l, next;
    for (e = 0; e <= 40; e++)
        for (parts = 1; parts <= 12; parts++) {
            next = 0;
            for (i = 0; i < parts; i++) {
                topo_block(e, parts, i, &s, &l);
                if (s != next || l != e / parts + (i < e % parts))
                    bad++;
                next = s + l;
            }
            if (next != e)
                bad++;
        }
    check(bad == 0, "topo_block: contiguous, covers the extent, first "
                    "extent %% parts parts one longer");
    topo_block(INT64_MAX, 3, 2, &s, &l);
    next = s + l;
    topo_block(INT64_MAX, 3, 0, NULL, &e);
    check(next == INT64_MAX && e == INT64_MAX / 3 + 1,
          "topo_block near INT64_MAX: last part ends at the extent, part 0 "
          "largest");
    s = l = 7;
    topo_block(10, 0, 0, &s, &l);
    e = s + l;
    topo_block(10, 3, 3, &s, &l);
    e += s + l;
    topo_block(-1, 3, 0, &s, &l);
    e += s + l;
    topo_block(10, 3, -1, &s, &l);
    check(e + s + l == 0, "topo_block: bad arguments give start = len = 0");
}

/* ---- errors ------------------------------------------------------------- */

/* Arguments refused: NULL pointers, a dimension count, a process count, a
 * policy or an extent out of range. */
static void test_errors_arguments(void)
{
    int64_t x[3] = {10, 10, 10}, d[3] = {1, 1, 1};
    int g[3] = {0, 0, 0};
    tilehybrid_status st;

    EXPECT(topo_grid_ex(3, 8, NULL, d, TOPO_POLICY_COMM, g, &st),
           TOPO_ERR_NULL, -1, "extent");
    EXPECT(topo_grid_ex(3, 8, x, NULL, TOPO_POLICY_COMM, g, &st),
           TOPO_ERR_NULL, -1, "dep");
    EXPECT(topo_grid_ex(3, 8, x, d, TOPO_POLICY_COMM, NULL, &st),
           TOPO_ERR_NULL, -1, "dims");
    EXPECT(topo_report_grid_ex(3, g, x, 1, d, NULL, &st), TOPO_ERR_NULL, -1,
           "out");
    EXPECT(topo_hybrid_grid_ex(3, 8, 2, x, d, TOPO_POLICY_COMM, g, NULL, &st),
           TOPO_ERR_NULL, -1, "tdims");
    EXPECT(topo_grid_ex(0, 8, x, d, TOPO_POLICY_COMM, g, &st),
           TOPO_ERR_NDIMS, -1, "n");
    EXPECT(topo_grid_ex(TOPO_MAX_DIMS + 1, 8, x, d, TOPO_POLICY_COMM, g, &st),
           TOPO_ERR_NDIMS, -1, "n");
    EXPECT(topo_dims_create(8, -1, g, &st), TOPO_ERR_NDIMS, -1, "n");
    EXPECT(topo_grid_ex(3, 0, x, d, TOPO_POLICY_COMM, g, &st),
           TOPO_ERR_PROCS, -1, "procs");
    EXPECT(topo_grid_ex(3, (int64_t)INT_MAX + 1, x, d, TOPO_POLICY_COMM, g,
                        &st),
           TOPO_ERR_PROCS, -1, "procs");
    EXPECT(topo_grid_ex(3, 8, x, d, (topo_policy)2, g, &st), TOPO_ERR_POLICY,
           -1, "policy");
    x[1] = 0;
    EXPECT(topo_grid_ex(3, 8, x, d, TOPO_POLICY_COMM, g, &st),
           TOPO_ERR_EXTENT, 1, "extent");
}

/* Grids refused: fixed entries that cannot hold, a zero Z, a negative
 * width, no factorisation, a volume past 2^63, no threads. */
static void test_errors_grids(void)
{
    int64_t x[3] = {10, 10, 10}, d[3] = {1, 1, 1};
    int g[3] = {0, 0, 0}, t[3] = {0, 0, 0};
    topo_report r;
    tilehybrid_status st;

    EXPECT(topo_report_grid_ex(2, t + 0, x, 1, d, &r, &st), TOPO_ERR_FIXED, 0,
           "dims");
    g[0] = g[1] = 1;
    EXPECT(topo_report_grid_ex(2, g, x, 0, d, &r, &st), TOPO_ERR_EXTENT, 2,
           "zlen");
    g[0] = g[1] = 0;
    d[2] = -1;
    EXPECT(topo_grid_ex(3, 8, x, d, TOPO_POLICY_COMM, g, &st), TOPO_ERR_DEP,
           2, "dep");
    d[2] = 1;
    g[1] = -2;
    EXPECT(topo_grid_ex(3, 8, x, d, TOPO_POLICY_COMM, g, &st), TOPO_ERR_FIXED,
           1, "dims");
    g[1] = 3;
    EXPECT(topo_grid_ex(3, 8, x, d, TOPO_POLICY_COMM, g, &st), TOPO_ERR_FIXED,
           1, "dims");
    g[1] = 16;
    EXPECT(topo_grid_ex(3, 16, x, d, TOPO_POLICY_LATENCY, g, &st),
           TOPO_ERR_FIXED, 1, "dims");
    g[0] = 2;
    g[1] = 2;
    g[2] = 2;
    EXPECT(topo_grid_ex(3, 16, x, d, TOPO_POLICY_COMM, g, &st), TOPO_ERR_FIXED,
           2, "dims");
    g[0] = g[1] = g[2] = 0;
    x[0] = 2;
    x[1] = 3;
    EXPECT(topo_grid_ex(2, 7, x, d, TOPO_POLICY_COMM, g, &st),
           TOPO_ERR_INFEASIBLE, -1, "procs");
    EXPECT(topo_grid_ex(2, 4, x, d, TOPO_POLICY_COMM, g, &st),
           TOPO_OK, -1, "");
    check(g[0] == 2 && g[1] == 2, "4 procs on 2x3: 2x2");
    g[0] = g[1] = 0;
    EXPECT(topo_grid_ex(2, 5, x, d, TOPO_POLICY_COMM, g, &st),
           TOPO_ERR_INFEASIBLE, -1, "procs");
    x[0] = x[1] = (int64_t)1 << 62;
    EXPECT(topo_grid_ex(2, 1, x, d, TOPO_POLICY_COMM, g, &st),
           TOPO_ERR_OVERFLOW, -1, "volume");
    EXPECT(topo_hybrid_grid_ex(2, 8, 0, x, d, TOPO_POLICY_COMM, g, t, &st),
           TOPO_ERR_THREADS, -1, "threads");
}

/* The refusals, a distinct text for each code, the dims left alone on an
 * error. */
static void test_errors(void)
{
    int64_t d[3] = {1, 1, 1};
    int i, j, distinct = 1, rc;

    test_errors_arguments();
    test_errors_grids();
    for (i = 0; i <= TOPO_ERR_COST + 1; i++)
        for (j = 0; j < i; j++)
            if (!*topo_strerror(i) || !strcmp(topo_strerror(i), topo_strerror(j)))
                distinct = 0;
    check(distinct && topo_strerror(-5) != NULL &&
              !strcmp(topo_strerror(-5), topo_strerror(999)),
          "topo_strerror: distinct non-empty text for every code, one text "
          "for unknown codes");
    {
        int before[3] = {0, 0, 0};
        int64_t xx[2] = {2, 3};
        rc = topo_grid(2, 7, xx, d, TOPO_POLICY_COMM, before);
        check(rc == TOPO_ERR_INFEASIBLE && before[0] == 0 && before[1] == 0,
              "dims unchanged on error");
    }
}

/* ---- overflow ----------------------------------------------------------- */

static void test_overflow(void)
{
    int64_t big = (int64_t)1 << 62, x[3], d[3] = {1, 1, 1};
    int g[3] = {0, 0, 0}, rc;
    topo_report r;
    x[0] = x[1] = big;
    rc = topo_grid(2, 2, x, d, TOPO_POLICY_COMM, g);
    /* 1x2 and 2x1 both give 2^62 + 2^61: the tie goes to 1x2 */
    check(rc == TOPO_OK && g[0] == 1 && g[1] == 2,
          "X = 2^62 x 2^62, 2 procs: 1x2 (V = 3*2^61 fits)");
    rc = topo_report_grid(2, g, x, 1, d, &r);
    check(rc == TOPO_OK && r.volume == big + big / 2 &&
              r.total_volume == big,
          "report at X = 2^62: V = 3*2^61, total 2^62");
    check(topo_report_grid(2, g, x, 2, d, &r) == TOPO_ERR_OVERFLOW,
          "report with Z = 2 overflows: TOPO_ERR_OVERFLOW");
    {
        /* the status names what overflows: V * Z, or only the total */
        tilehybrid_status st;
        int64_t y[2] = {big, 4}, e[2] = {0, 2};
        int h[2] = {2, 2};
        rc = topo_report_grid_ex(2, g, x, 2, d, &r, &st);
        check(rc == TOPO_ERR_OVERFLOW && !strcmp(st.arg, "volume"),
              "report overflow of V * Z names \"volume\" (got %s)", st.arg);
        /* 2x2 over 2^62 x 4, d = (0, 2): V = 2 * ceil(2^62 / 2) = 2^62
         * fits, the total 2 * (2 - 1) * 2^62 = 2^63 does not */
        rc = topo_report_grid_ex(2, h, y, 1, e, &r, &st);
        check(rc == TOPO_ERR_OVERFLOW && !strcmp(st.arg, "total_volume"),
              "report where only the total overflows names \"total_volume\" "
              "(got %d, %s)", rc, st.arg);
    }
    x[2] = big;
    g[0] = g[1] = g[2] = 0;
    check(topo_grid(3, 1 << 20, x, d, TOPO_POLICY_COMM, g) == TOPO_ERR_OVERFLOW,
          "3-D X = 2^62 each: every V exceeds 2^63, TOPO_ERR_OVERFLOW");
    {
        /* most grids overflow, a few fit: the search must find one that
         * fits, comparing saturated volumes safely */
        int64_t y[2] = {big, 4}, e[2] = {1, 5};
        int h[2] = {0, 0};
        rc = topo_grid(2, 4, y, e, TOPO_POLICY_COMM, h);
        /* V = ceil(4/P2) + 5 * ceil(2^62/P1): only P1 = 4 stays below 2^63 */
        check(rc == TOPO_OK && h[0] == 4 && h[1] == 1,
              "huge d2: only 4x1 has a volume below 2^63 and it is found");
    }
    {
        int64_t y[2] = {INT64_MAX, INT64_MAX}, e[2] = {0, 0};
        int h[2] = {0, 0};
        rc = topo_grid(2, INT_MAX, y, e, TOPO_POLICY_COMM, h);
        check(rc == TOPO_OK && h[0] == 1 && h[1] == INT_MAX,
              "X = INT64_MAX, d = 0, P = 2^31-1: all volumes 0, 1x(2^31-1)");
    }
}

/* ---- larger searches (sanity, no timing here) --------------------------- */

static void test_large(void)
{
    int64_t x[8], d[8];
    int g[8], i, rc, ok = 1;
    int64_t prod;
    for (i = 0; i < 8; i++) {
        x[i] = 64;
        d[i] = 1 + (i % 3);
        g[i] = 0;
    }
    rc = topo_grid(8, 720720, x, d, TOPO_POLICY_COMM, g);
    prod = 1;
    for (i = 0; i < 8; i++) {
        prod *= g[i];
        if (g[i] > 64)
            ok = 0;
    }
    check(rc == TOPO_OK && prod == 720720 && ok,
          "N=8, P=720720, X=64 each: a grid of product P within the extents");
    {
        /* same problem without the bound tables gives the same grid */
        int h[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        test_fail_malloc = 1;
        rc = topo_grid(8, 720720, x, d, TOPO_POLICY_COMM, h);
        test_fail_malloc = 0;
        check(rc == TOPO_OK && same(g, h, 8),
              "N=8, P=720720: same grid without the bound tables");
    }
    for (i = 0; i < 4; i++) {
        x[i] = (int64_t)1 << 20;
        d[i] = 1;
        g[i] = 0;
    }
    rc = topo_grid(4, 1 << 20, x, d, TOPO_POLICY_COMM, g);
    check(rc == TOPO_OK && g[0] == 32 && g[1] == 32 && g[2] == 32 &&
              g[3] == 32,
          "N=4 cube 2^20, P=2^20: 32x32x32x32");
}

/* ---- loop nests: stencils, extended faces ------------------------------ */

/* One stencil's widths and extensions (N = n) against the expected ones. */
static int stencil_is(int n, int nvec, const int *vec, const int *dir,
                      const int64_t *want_dep, const int64_t *want_ext)
{
    int64_t x[TOPO_MAX_DIMS];
    topo_nest m;
    int i, j;
    for (i = 0; i < n; i++)
        x[i] = 10;
    if (topo_nest_init(&m, n, x, 5, NULL, NULL) != TOPO_OK ||
        topo_nest_stencil(&m, nvec, vec, n + 1, dir, NULL) != TOPO_OK)
        return 0;
    for (i = 0; i < n; i++) {
        if (m.dep[i] != want_dep[i])
            return 0;
        for (j = 0; j < n; j++)
            if (m.ext[i][j] != (j < i ? want_ext[i * n + j] : 0))
                return 0;
    }
    return 1;
}

static void test_stencil(void)
{
    static const int sw[3][2] = {{-1, -1}, {0, -1}, {-1, 0}};
    static const int d2[3][3] = {{-1, -1, 0}, {-1, 0, 0}, {0, -1, 0}};
    static const int wide[2][3] = {{-2, -1, 0}, {0, 0, -3}};
    static const int down[2][3] = {{1, -1, 0}, {0, -1, -1}};
    static const int zdiag[1][3] = {{-1, 0, -1}};
    static const int d3[3][4] = {{-3, -2, -1, 0}, {0, -1, -1, -2}, {-1, 0, 0, 0}};
    static const int dirs[3] = {-1, 1, 1};
    static const int64_t dep1[1] = {1}, e1[1] = {0};
    static const int64_t dep2[2] = {1, 1}, e2[4] = {0, 0, 1, 0};
    static const int64_t depw[2] = {2, 1}, ew[4] = {0, 0, 2, 0};
    static const int64_t depz[2] = {1, 0}, ez[4] = {0, 0, 0, 0};
    static const int64_t dep3[3] = {3, 2, 1}, e3[9] = {0, 0, 0, 3, 0, 0, 3, 2, 0};
    static const struct {
        int n, nvec;
        const int *vec, *dir;
        const int64_t *dep, *ext;
    } cases[] = {
        {1, 3, &sw[0][0], NULL, dep1, e1},    {2, 3, &d2[0][0], NULL, dep2, e2},
        {2, 2, &wide[0][0], NULL, depw, ew},  {2, 2, &down[0][0], dirs, dep2, e2},
        {2, 1, &zdiag[0][0], NULL, depz, ez}, {3, 3, &d3[0][0], NULL, dep3, e3},
    };
    static const char *const names[] = {
        "Smith-Waterman \"-1,-1 0,-1 -1,0\", N = 1: width 1, nothing to extend",
        "2-D diagonal \"-1,-1,0 -1,0,0 0,-1,0\": widths 1,1, ext[2][1] = 1",
        "\"-2,-1,0 0,0,-3\": widths 2,1, ext[2][1] = 2 (the distance along "
        "the lower dimension); Z offsets take no part",
        "a downward first dimension: \"1,-1,0 0,-1,-1\" with dir -1,1,1 is "
        "\"-1,-1,0 0,-1,-1\" mirrored: widths 1,1, ext[2][1] = 1",
        "a diagonal with Z only (\"-1,0,-1\"): width 1,0, no extension",
        "3-D \"-3,-2,-1,0 0,-1,-1,-2 -1,0,0,0\": widths 3,2,1, ext[2][1] = 3, "
        "ext[3][1] = 3, ext[3][2] = 2",
    };
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
        check(stencil_is(cases[k].n, cases[k].nvec, cases[k].vec, cases[k].dir, cases[k].dep,
                         cases[k].ext),
              "%s", names[k]);
}

/* The bytes the engine's faces hold, summed over every process of grid p
 * by its own block (topo_block): the face along i of a process with an
 * upper neighbour is d_i prod_{j<i} (len_j + ext[i][j]) prod_{j>i} len_j
 * per plane.  *first gets process 0's, *inner the face sum with c_j. */
static int64_t ref_faces(const topo_nest *m, const int *p, int64_t *first, int64_t *inner)
{
    int64_t total = 0, nproc = 1, r;
    int n = m->n, i, j, coord[TOPO_MAX_DIMS];
    for (i = 0; i < n; i++)
        nproc *= p[i];
    *inner = *first = 0;
    for (r = 0; r < nproc; r++) {
        int64_t rest = r, len[TOPO_MAX_DIMS], mine = 0, all = 0;
        for (i = n - 1; i >= 0; i--) {
            coord[i] = (int)(rest % p[i]);
            rest /= p[i];
            topo_block(m->extent[i], p[i], coord[i], NULL, &len[i]);
        }
        for (i = 0; i < n; i++) {
            int64_t f = m->dep[i];
            for (j = 0; j < n; j++)
                if (j != i)
                    f *= len[j] + (j < i ? m->ext[i][j] : 0);
            all += f;
            if (coord[i] < p[i] - 1)
                mine += f;
        }
        total += mine;
        if (r == 0) {
            *first = mine;
            *inner = all;
        }
    }
    return total;
}

/* A random nest: n dims, extents <= xmax, widths 0..3, random extensions
 * (0..dep[j]) on about half the pairs. */
static void random_nest(topo_nest *m, int n, int64_t xmax)
{
    int64_t x[TOPO_MAX_DIMS], d[TOPO_MAX_DIMS];
    int i, j;
    for (i = 0; i < n; i++) {
        x[i] = 1 + (int64_t)rnd((uint64_t)xmax);
        d[i] = (int64_t)rnd(4);
    }
    topo_nest_init(m, n, x, 1 + (int64_t)rnd(50), d, NULL);
    for (i = 0; i < n; i++)
        for (j = 0; j < i; j++)
            if (rnd(2) == 0)
                m->ext[i][j] = (int64_t)rnd((uint64_t)d[j] + 1);
}

static void test_faces_report(void)
{
    int c, bad = 0, extended = 0;
    for (c = 0; c < 2000; c++) {
        topo_nest m;
        topo_report r;
        int n = 1 + (int)rnd(3), p[TOPO_MAX_DIMS], i;
        int64_t first, inner, total, procs = 1;
        random_nest(&m, n, 9);
        for (i = 0; i < n; i++) {
            p[i] = 1 + (int)rnd((uint64_t)m.extent[i]);
            procs *= p[i];
        }
        if (topo_nest_report(&m, p, &r, NULL) != TOPO_OK) {
            bad++;
            continue;
        }
        total = ref_faces(&m, p, &first, &inner);
        if (r.volume_sent != first * m.zlen || r.total_volume != total * m.zlen ||
            r.volume != inner * m.zlen || r.procs != procs) {
            if (bad++ < 3)
                check_note("n=%d: sent %lld/%lld total %lld/%lld volume %lld/%lld", n,
                           (long long)r.volume_sent, (long long)(first * m.zlen),
                           (long long)r.total_volume, (long long)(total * m.zlen),
                           (long long)r.volume, (long long)(inner * m.zlen));
        }
        topo_report_grid(n, p, m.extent, m.zlen, m.dep, &r);
        extended += r.volume_sent != first * m.zlen;
    }
    check(bad == 0 && extended > 100,
          "extended faces: volume, volume_sent (process 0) and total_volume equal the "
          "faces of every process's own block summed, 2000 random grids N=1..3 (%d where "
          "the extension changes process 0's volume)", extended);
    {
        /* 2-D, 12x10, Z = 5, 2x2, d = (1,1), ext[2][1] = 1: blocks 6x5;
         * the face along 2 carries c_1 + 1 = 7 values per plane */
        int64_t x[2] = {12, 10}, d[2] = {1, 1};
        int g[2] = {2, 2};
        topo_nest m;
        topo_report r;
        topo_nest_init(&m, 2, x, 5, d, NULL);
        m.ext[1][0] = 1;
        check(topo_nest_report(&m, g, &r, NULL) == TOPO_OK && r.volume == 5 * (5 + 7) &&
                  r.volume_sent == 60 && r.total_volume == 5 * (1 * 10 + 1 * (12 + 2)),
              "12x10x5 on 2x2 with ext[2][1] = 1: V = 5 (5 + 7) = 60, total 5 (10 + 14)");
    }
}

/* V per plane with extended faces, in plain arithmetic (small inputs). */
static int64_t ref_volume_ext(const topo_nest *m, const int *p)
{
    int64_t v = 0;
    int i, j, n = m->n;
    for (i = 0; i < n; i++) {
        int64_t t = m->dep[i];
        for (j = 0; j < n; j++)
            if (j != i)
                t *= (m->extent[j] + p[j] - 1) / p[j] + (j < i ? m->ext[i][j] : 0);
        v += t;
    }
    return v;
}

/* The elements per plane of the face along i, d_i prod_{j != i} (c_j +
 * ext[i][j] for j < i), c_j = ceil(X_j / P_j), multiplied in j order. */
static double ref_face(const topo_nest *m, const int *p, int i)
{
    double f = (double)m->dep[i];
    int j;
    for (j = 0; j < m->n; j++)
        if (j != i)
            f *= (double)((m->extent[j] + p[j] - 1) / p[j]) +
                 (j < i ? (double)m->ext[i][j] : 0.0);
    return f;
}

/* The pipeline time, written out here in the order topology.h documents
 * (so that equal grids give equal bits): the steps count every dimension
 * with d_i > 0, the messages and faces those with P_i > 1 too. */
static double ref_time(const topo_nest *m, const int *p)
{
    int64_t h = m->tile_height < m->zlen ? m->tile_height : m->zlen;
    int64_t steps = (m->zlen + h - 1) / h;
    double pts = 1.0, faces = 0.0;
    int i, msgs = 0;
    for (i = 0; i < m->n; i++)
        pts *= (double)((m->extent[i] + p[i] - 1) / p[i]);
    for (i = 0; i < m->n; i++) {
        if (m->dep[i] != 0)
            steps += p[i] - 1;
        if (m->dep[i] != 0 && p[i] != 1) {
            msgs++;
            faces += ref_face(m, p, i);
        }
    }
    return (double)steps * ((double)h * m->tcomp * pts + (double)msgs * m->tstartup +
                            (double)h * m->elem_bytes * faces / m->bandwidth);
}

/* Brute force over every grid in lexicographic order: the first with the
 * least volume (policy COMM) or time (TIME). */
struct nref {
    const topo_nest *m;
    topo_policy policy;
    const int *fixed;
    int cur[TOPO_MAX_DIMS], best[TOPO_MAX_DIMS], found;
    double bestv;
};

static void nref_rec(struct nref *r, int i, int64_t rest)
{
    int64_t p;
    if (i == r->m->n) {
        double v;
        if (rest != 1)
            return;
        v = r->policy == TOPO_POLICY_TIME ? ref_time(r->m, r->cur)
                                          : (double)ref_volume_ext(r->m, r->cur);
        if (!r->found || v < r->bestv) {
            r->found = 1;
            r->bestv = v;
            memcpy(r->best, r->cur, sizeof r->cur);
        }
        return;
    }
    for (p = 1; p <= rest && p <= r->m->extent[i]; p++) {
        if (rest % p != 0 || (r->fixed[i] > 0 && p != r->fixed[i]))
            continue;
        if (p > 1 && r->m->dep[i] > r->m->extent[i] / p)
            continue; /* tiling.h's rule: a block holds the d_i layers it sends */
        r->cur[i] = (int)p;
        nref_rec(r, i + 1, rest / p);
    }
}

/* Run the brute force of nest m on procs processes into *r. */
static void nref_solve(struct nref *r, const topo_nest *m, topo_policy policy, const int *fixed,
                       int64_t procs)
{
    r->m = m;
    r->policy = policy;
    r->fixed = fixed;
    r->found = 0;
    r->bestv = 0;
    nref_rec(r, 0, procs);
}

/* A random cost model where fill, messages and volume all matter. */
static void random_cost(topo_nest *m)
{
    m->zlen = 1 + (int64_t)rnd(5000);
    m->tile_height = 1 + (int64_t)rnd((uint64_t)m->zlen + 20);
    m->elem_bytes = (double)(1 + rnd(16));
    m->tcomp = 1e-9 * (double)(1 + rnd(1000));
    m->tstartup = 1e-7 * (double)rnd(1000);
    m->bandwidth = 1e6 * (double)(1 + rnd(10000));
}

/* The exact searches with extended faces (COMM) and of the time (TIME)
 * against brute force, with and without fixed entries and tables. */
static void test_nest_brute(topo_policy policy, int no_tables, int cases)
{
    int c, bad = 0, solved = 0, differ = 0;
    test_fail_malloc = no_tables;
    for (c = 0; c < cases; c++) {
        topo_nest m;
        struct nref r;
        int n = 1 + (int)rnd(4), fixed[TOPO_MAX_DIMS], g[TOPO_MAX_DIMS], i, rc;
        int64_t procs = 1 + (int64_t)rnd(rnd(4) == 0 ? 720 : 96), rest = 1;
        random_nest(&m, n, rnd(3) == 0 ? 8 : 40);
        random_cost(&m);
        for (i = 0; i < n; i++) { /* fixed entries dividing P, the last one free */
            int64_t f = m.dep[i] > 1 ? m.extent[i] / m.dep[i] : m.extent[i];
            f = f < 1 ? 1 : f; /* the largest P_i whose blocks hold d_i */
            fixed[i] = g[i] = 0;
            if (i < n - 1 && rnd(5) == 0 && procs % (rest * f) == 0) {
                fixed[i] = g[i] = (int)f;
                rest *= f;
            }
        }
        nref_solve(&r, &m, policy, fixed, procs);
        rc = topo_nest_grid(&m, procs, policy, g, NULL);
        if (!r.found) {
            if (rc != TOPO_ERR_INFEASIBLE && bad++ < 5)
                check_note("n=%d P=%lld: no grid, but rc %d", n, (long long)procs, rc);
            continue;
        }
        solved++;
        if (rc != TOPO_OK || !same(g, r.best, n)) {
            char b1[128], b2[128];
            if (bad++ < 5)
                check_note("n=%d P=%lld: got rc %d %s, want %s", n, (long long)procs, rc,
                           fmt_grid(g, n, b1), fmt_grid(r.best, n, b2));
            continue;
        }
        if (policy == TOPO_POLICY_TIME) {
            int v[TOPO_MAX_DIMS] = {0};
            topo_nest_grid(&m, procs, TOPO_POLICY_COMM, v, NULL);
            differ += !same(v, g, n);
        }
    }
    test_fail_malloc = 0;
    if (policy == TOPO_POLICY_TIME)
        check(bad == 0 && differ > cases / 20,
              "least predicted time = brute force (lexicographic ties), %d random nests "
              "N=1..4 with extended faces%s (%d solved; %d not the least volume)", cases,
              no_tables ? ", search without tables" : "", solved, differ);
    else
        check(bad == 0, "least extended volume = brute force (lexicographic ties), %d random "
              "nests N=1..4%s (%d solved)", cases, no_tables ? ", search without tables" : "",
              solved);
}

/* Larger N, small P: the tables and the symmetry rule matter there. */
static void test_nest_brute_wide(void)
{
    static const int64_t ps[6] = {24, 36, 48, 60, 64, 72};
    int c, bad = 0;
    for (c = 0; c < 300; c++) {
        topo_nest m;
        struct nref r;
        int n = 5 + (int)rnd(2), fixed[TOPO_MAX_DIMS] = {0}, g[TOPO_MAX_DIMS] = {0}, i;
        int64_t procs = ps[rnd(6)];
        topo_policy policy = rnd(2) ? TOPO_POLICY_TIME : TOPO_POLICY_COMM;
        random_nest(&m, n, c % 2 ? 30 : 6);
        random_cost(&m);
        if (c % 3 == 0) /* symmetric: equal extents and widths, no extension */
            for (i = 0; i < n; i++) {
                m.extent[i] = m.extent[0];
                m.dep[i] = m.dep[0];
                memset(m.ext[i], 0, sizeof m.ext[i]);
            }
        nref_solve(&r, &m, policy, fixed, procs);
        if (!r.found)
            bad += topo_nest_grid(&m, procs, policy, g, NULL) != TOPO_ERR_INFEASIBLE;
        else
            bad += topo_nest_grid(&m, procs, policy, g, NULL) != TOPO_OK || !same(g, r.best, n);
    }
    check(bad == 0, "least extended volume and least time = brute force, 300 random "
                    "nests N=5..6 (a third of them symmetric)");
}

/* 1 if every block of grid p holds the d_i layers it sends (tiling.h's
 * rule: P_i = 1 or d_i <= floor(X_i / P_i)). */
static int runnable(int n, const int *p, const int64_t *x, const int64_t *d)
{
    int i;
    for (i = 0; i < n; i++)
        if (p[i] > 1 && d[i] > x[i] / p[i])
            return 0;
    return 1;
}

/* Extended faces change the volume-optimal grid; ext = 0 is the old
 * search wherever its grid is one tiling.h runs. */
static void test_nest_comm(void)
{
    int64_t x[3] = {7, 4, 4}, d[3] = {1, 1, 1};
    int g[3] = {0, 0, 0}, h[3] = {0, 0, 0}, c, bad = 0, narrow = 0;
    topo_nest m;
    topo_report a, b;
    topo_nest_init(&m, 3, x, 10, d, NULL);
    m.ext[1][0] = m.ext[2][0] = m.ext[2][1] = 1;
    topo_grid(3, 4, x, d, TOPO_POLICY_COMM, h);
    check(topo_nest_grid(&m, 4, TOPO_POLICY_COMM, g, NULL) == TOPO_OK && g[0] == 2 &&
              g[1] == 1 && g[2] == 2 && h[0] == 1 && h[1] == 2 && h[2] == 2 &&
              topo_nest_report(&m, g, &a, NULL) == TOPO_OK &&
              topo_nest_report(&m, h, &b, NULL) == TOPO_OK && a.volume == 430 &&
              b.volume == 440,
          "7x4x4 on 4 processes, every face extended by 1: 2x1x2 (V 430), not the "
          "plain model's 1x2x2 (440 with extensions)");
    for (c = 0; c < 3000; c++) {
        int64_t y[TOPO_MAX_DIMS], e[TOPO_MAX_DIMS], procs = 1 + (int64_t)rnd(720);
        int n = 1 + (int)rnd(4), i, p[TOPO_MAX_DIMS] = {0}, q[TOPO_MAX_DIMS] = {0};
        int rp, rq;
        for (i = 0; i < n; i++) {
            y[i] = 1 + (int64_t)rnd(60);
            e[i] = (int64_t)rnd(5);
        }
        topo_nest_init(&m, n, y, 1, e, NULL);
        rp = topo_grid(n, procs, y, e, TOPO_POLICY_COMM, p);
        rq = topo_nest_grid(&m, procs, TOPO_POLICY_COMM, q, NULL);
        if (rp == TOPO_OK && runnable(n, p, y, e)) {
            bad += rq != TOPO_OK || !same(p, q, n);
            continue;
        }
        narrow++; /* then the nest's grid is runnable and sends no less */
        bad += rq == TOPO_OK && (!runnable(n, q, y, e) ||
                                 (rp == TOPO_OK && ref_volume(n, q, y, e) < ref_volume(n, p, y, e)));
        bad += rq != TOPO_OK && rq != TOPO_ERR_INFEASIBLE;
    }
    check(bad == 0 && narrow > 0, "without extensions topo_nest_grid is topo_grid where that "
          "grid is one tiling.h runs; in the other %d of 3000 random cases (a block narrower "
          "than d_i, or no grid) a runnable grid that sends no less, or INFEASIBLE", narrow);
}

/* ---- the time policy ----------------------------------------------------- */

/* The time policy's grid for X1 x X2 x Z, widths d, tile height z, on the
 * papers' cluster (the defaults) or another cost model. */
static void time_grid(int64_t procs, int64_t x1, int64_t x2, int64_t zlen, int64_t d,
                      int64_t z, int *g)
{
    int64_t x[2], dep[2];
    topo_nest m;
    x[0] = x1;
    x[1] = x2;
    dep[0] = dep[1] = d;
    g[0] = g[1] = 0;
    topo_nest_init(&m, 2, x, zlen, dep, NULL);
    m.tile_height = z;
    if (topo_nest_grid(&m, procs, TOPO_POLICY_TIME, g, NULL) != TOPO_OK)
        g[0] = g[1] = -1;
}

/* The papers' cluster (288 ns, 107 us, 10 MB/s, doubles) at tile heights
 * 50 and 100: the published grids where the papers' claim holds in
 * simulation (X1 = 16, 32, 64), the balanced one where it does not. */
static void test_time_published(void)
{
    static const int64_t x1[5] = {16, 32, 64, 128, 256};
    static const int want16[5][2] = {{1, 16}, {1, 16}, {2, 8}, {4, 4}, {4, 4}};
    static const int want12[5][2] = {{1, 12}, {1, 12}, {2, 6}, {3, 4}, {3, 4}};
    static const int64_t zs[2] = {50, 100};
    int i, k, ok16 = 1, ok12 = 1, okde = 1, g[2];
    char b[64];
    for (k = 0; k < 2; k++)
        for (i = 0; i < 5; i++) {
            time_grid(16, x1[i], 256, 16384, 1, zs[k], g);
            if (!same(g, want16[i], 2)) {
                ok16 = 0;
                check_note("ADI 16 procs %lldx256 z=%lld: %s", (long long)x1[i],
                           (long long)zs[k], fmt_grid(g, 2, b));
            }
            time_grid(12, x1[i], 256, 16384, 1, zs[k], g);
            if (!same(g, want12[i], 2)) {
                ok12 = 0;
                check_note("ADI 12 procs %lldx256 z=%lld: %s", (long long)x1[i],
                           (long long)zs[k], fmt_grid(g, 2, b));
            }
            time_grid(16, x1[i], 256, 16384, 3, zs[k], g);
            if (!same(g, want16[i], 2)) {
                okde = 0;
                check_note("DE 16 procs %lldx256 z=%lld: %s", (long long)x1[i],
                           (long long)zs[k], fmt_grid(g, 2, b));
            }
        }
    check(ok16, "time policy, papers' cluster, z = 50 and 100, ADI 16 procs: 1x16 1x16 2x8 "
                "(published) 4x4 4x4 (128x256: equal volumes, the shorter fill; simulated "
                "4x4 is faster there too)");
    check(ok12, "time policy, ADI 12 procs: 1x12 1x12 2x6 (published) 3x4 3x4");
    check(okde, "time policy, DE (widths 3,3) 16 procs: 1x16 1x16 2x8 4x4 4x4");
}

/* The 2-D nest x (Z = 2048), d on the modern cluster of issue 15: tiles
 * of 64 planes, 6.4 ns a point, 1 us a message, 12.5 GB/s. */
static void modern_nest(topo_nest *m, const int64_t *x, const int64_t *d)
{
    topo_nest_init(m, 2, x, 2048, d, NULL);
    m->tile_height = 64;
    m->tcomp = 6.4e-9;
    m->tstartup = 1e-6;
    m->bandwidth = 12.5e9;
}

static void test_time_scale(void)
{
    int64_t x[2] = {64, 1024}, d[2] = {1, 1};
    int g[2] = {0, 0}, v[2] = {0, 0};
    topo_nest m;
    topo_report r, rv;
    modern_nest(&m, x, d);
    check(topo_nest_grid(&m, 1024, TOPO_POLICY_TIME, g, NULL) == TOPO_OK && g[0] == 32 &&
              g[1] == 32 && topo_nest_grid(&m, 1024, TOPO_POLICY_COMM, v, NULL) == TOPO_OK &&
              v[0] == 8 && v[1] == 128,
          "64x1024x2048 on 1024 ranks of the modern cluster (issue 15): time 32x32, "
          "volume 8x128");
    /* 32x32: blocks 2x32, 32 + 62 steps, 2 messages of 8 * 64 * (32 + 2) bytes:
     * 94 * (64 * 64 * 6.4e-9 + 2e-6 + 8 * 64 * 34 / 12.5e9) */
    topo_nest_report(&m, g, &r, NULL);
    topo_nest_report(&m, v, &rv, NULL);
    check(r.steps == 94 && rv.steps == 32 + 7 + 127 &&
              fabs(r.seconds - 94 * (64 * 64 * 6.4e-9 + 2e-6 + 8.0 * 64 * 34 / 12.5e9)) <
                  1e-15 &&
              rv.seconds > 1.7 * r.seconds,
          "report: 32x32 takes 94 steps, %.9f s predicted; 8x128 166 steps, %.9f s",
          r.seconds, rv.seconds);
}

/* A dimension without dependence costs no fill and sends nothing. */
static void test_time_narrow(void)
{
    int64_t x[2] = {64, 1024}, d[2] = {3, 3};
    int g[2] = {0, 0}, v[2] = {0, 0}, bad[2] = {32, 32}, fixed[2] = {32, 0};
    topo_nest m;
    topo_report r;
    tilehybrid_status st;
    modern_nest(&m, x, d);
    check(topo_nest_grid(&m, 1024, TOPO_POLICY_TIME, g, NULL) == TOPO_OK && g[0] == 16 &&
              g[1] == 64 && topo_nest_grid(&m, 1024, TOPO_POLICY_COMM, v, NULL) == TOPO_OK &&
              v[0] == 8 && v[1] == 128 && topo_nest_report(&m, bad, &r, NULL) == TOPO_OK &&
              r.feasible == 0 && r.bad_index == 0,
          "DE widths 3,3 on 64x1024 at 1024 ranks: time 16x64, volume 8x128; 32x32 (blocks "
          "2 wide along X1, d_1 = 3) is reported infeasible and never chosen");
    check(topo_nest_grid(&m, 1024, TOPO_POLICY_TIME, fixed, &st) == TOPO_ERR_FIXED &&
              !strcmp(st.arg, "dims") && st.index == 0,
          "a fixed P_1 = 32 whose blocks are narrower than d_1: TOPO_ERR_FIXED, dims[0]");
}

static void test_time_nodep(void)
{
    int64_t x[2] = {8, 64}, d[2] = {0, 1};
    int g[2] = {0, 0}, h[2] = {8, 1};
    topo_nest m;
    topo_report r;
    topo_nest_init(&m, 2, x, 100, d, NULL);
    topo_nest_report(&m, h, &r, NULL);
    check(topo_nest_grid(&m, 8, TOPO_POLICY_TIME, g, NULL) == TOPO_OK && g[0] == 8 &&
              g[1] == 1 && r.steps == 1 && r.fill_steps == 7 && r.messages == 1,
          "d = (0, 1) on 8x64: 8x1, no fill and no message (steps 1; fill_steps, "
          "messages count every P_i > 1 as before)");
}

/* Hard cases finish (a timeout guards the run, no timing here) and give
 * a grid of product P within the extents. */
static void test_time_large(void)
{
    static const int64_t procs[3] = {720720, 1048576, 2095133040};
    static const int ns[3] = {8, 8, 4};
    int c, ok = 1;
    for (c = 0; c < 3; c++) {
        int64_t x[8], d[8], prod = 1;
        int g[8] = {0}, i;
        topo_nest m;
        for (i = 0; i < ns[c]; i++) {
            x[i] = c == 2 ? (int64_t)1 << 40 : 64 + 7 * i;
            d[i] = 1 + i % 3;
        }
        memset(&m, 0, sizeof m);
        topo_nest_init(&m, ns[c], x, 1 << 20, d, NULL);
        for (i = 0; i < ns[c]; i++)
            m.ext[i][0] = i > 0;
        if (topo_nest_grid(&m, procs[c], TOPO_POLICY_TIME, g, NULL) != TOPO_OK)
            ok = 0;
        for (i = 0; i < ns[c]; i++) {
            prod *= g[i];
            ok &= g[i] >= 1 && g[i] <= x[i];
        }
        ok &= prod == procs[c];
    }
    check(ok, "time policy: N=8 P=720720 and 2^20, N=4 P=2095133040, extended faces: "
              "a grid of product P within the extents");
}

static void test_nest_errors(void)
{
    int64_t x[3] = {10, 10, 10}, d[3] = {1, 1, 1};
    int g[3] = {0, 0, 0}, h[3] = {0, 0, 0}, t[3] = {0, 0, 0}, v[4] = {-1, -1, 0, 0};
    static const int later[2][4] = {{-1, 0, 0, 0}, {0, 1, -1, 0}};
    static const int zero[1][4] = {{0, 0, 0, 0}};
    static const int bad_dir[4] = {1, 0, 1, 1};
    topo_nest m, before;
    topo_report r;
    tilehybrid_status st;
    memset(&m, 0, sizeof m);
    EXPECT(topo_nest_init(NULL, 3, x, 5, d, &st), TOPO_ERR_NULL, -1, "nest");
    EXPECT(topo_nest_init(&m, 3, NULL, 5, d, &st), TOPO_ERR_NULL, -1, "extent");
    EXPECT(topo_nest_init(&m, 17, x, 5, d, &st), TOPO_ERR_NDIMS, -1, "n");
    EXPECT(topo_nest_init(&m, 3, x, 5, d, &st), TOPO_OK, -1, "");
    before = m;
    EXPECT(topo_nest_stencil(&m, 2, &later[0][0], 4, NULL, &st), TOPO_ERR_STENCIL, 1,
           "stencil");
    EXPECT(topo_nest_stencil(&m, 1, &zero[0][0], 4, NULL, &st), TOPO_ERR_STENCIL, 0,
           "stencil");
    EXPECT(topo_nest_stencil(&m, 1, v, 4, bad_dir, &st), TOPO_ERR_STENCIL, 1, "dir");
    EXPECT(topo_nest_stencil(&m, 0, v, 4, NULL, &st), TOPO_ERR_STENCIL, -1, "nvec");
    EXPECT(topo_nest_stencil(&m, 1, v, 3, NULL, &st), TOPO_ERR_STENCIL, -1, "stride");
    EXPECT(topo_nest_stencil(&m, 1, NULL, 4, NULL, &st), TOPO_ERR_NULL, -1, "vec");
    check(memcmp(&m, &before, sizeof m) == 0, "a refused stencil leaves the nest unchanged");
    EXPECT(topo_nest_grid(&m, 8, TOPO_POLICY_TIME, NULL, &st), TOPO_ERR_NULL, -1, "dims");
    EXPECT(topo_nest_grid(NULL, 8, TOPO_POLICY_TIME, g, &st), TOPO_ERR_NULL, -1, "nest");
    EXPECT(topo_nest_report(&m, g, &r, &st), TOPO_ERR_FIXED, 0, "dims");
    EXPECT(topo_nest_report(&m, h, NULL, &st), TOPO_ERR_NULL, -1, "out");
    EXPECT(topo_nest_grid(&m, 0, TOPO_POLICY_TIME, g, &st), TOPO_ERR_PROCS, -1, "procs");
    EXPECT(topo_nest_grid(&m, 8, (topo_policy)3, g, &st), TOPO_ERR_POLICY, -1, "policy");
    EXPECT(topo_grid_ex(3, 8, x, d, TOPO_POLICY_TIME, g, &st), TOPO_ERR_POLICY, -1,
           "policy");
    EXPECT(topo_hybrid_grid_ex(3, 8, 2, x, d, TOPO_POLICY_TIME, g, t, &st),
           TOPO_ERR_POLICY, -1, "policy");
    m.ext[1][0] = 2; /* more than dep[0] = 1 */
    EXPECT(topo_nest_grid(&m, 8, TOPO_POLICY_COMM, g, &st), TOPO_ERR_STENCIL, 3, "ext");
    m.ext[1][0] = 0;
    m.ext[0][1] = 1; /* j >= i */
    EXPECT(topo_nest_grid(&m, 8, TOPO_POLICY_COMM, g, &st), TOPO_ERR_STENCIL, 1, "ext");
    m.ext[0][1] = 0;
    m.ext[2][1] = -1;
    EXPECT(topo_nest_report(&m, h, &r, &st), TOPO_ERR_STENCIL, 7, "ext");
    m = before;
    m.zlen = 0;
    EXPECT(topo_nest_grid(&m, 8, TOPO_POLICY_TIME, g, &st), TOPO_ERR_EXTENT, 3, "zlen");
    m = before;
    m.tile_height = 0;
    EXPECT(topo_nest_grid(&m, 8, TOPO_POLICY_TIME, g, &st), TOPO_ERR_COST, -1,
           "tile_height");
    m = before;
    m.tcomp = 0.0;
    EXPECT(topo_nest_grid(&m, 8, TOPO_POLICY_TIME, g, &st), TOPO_ERR_COST, -1, "tcomp");
    m = before;
    m.tstartup = -1e-6;
    EXPECT(topo_nest_grid(&m, 8, TOPO_POLICY_TIME, g, &st), TOPO_ERR_COST, -1, "tstartup");
    m = before;
    m.bandwidth = HUGE_VAL;
    EXPECT(topo_nest_grid(&m, 8, TOPO_POLICY_TIME, g, &st), TOPO_ERR_COST, -1, "bandwidth");
    m = before;
    m.elem_bytes = NAN;
    EXPECT(topo_nest_report(&m, h, &r, &st), TOPO_ERR_COST, -1, "elem_bytes");
    check(g[0] == 0 && g[1] == 0 && g[2] == 0, "dims unchanged on every error");
}

/* topo_nest_explain(nest, procs, policy, fixed) has the text want, and the
 * code and status of topo_nest_grid() for the same arguments. */
static void expect_explain(const topo_nest *m, int64_t procs, topo_policy policy,
                           const int *fixed, int want, const char *arg, int index,
                           const char *text, const char *name)
{
    char buf[TOPO_EXPLAIN_SIZE];
    int g[TOPO_MAX_DIMS] = {0}, i, rc, rg;
    tilehybrid_status st, sg;
    for (i = 0; fixed != NULL && i < m->n; i++)
        g[i] = fixed[i];
    rc = topo_nest_explain(m, procs, policy, fixed, buf, sizeof buf, &st);
    rg = topo_nest_grid(m, procs, policy, g, &sg);
    seen_code[want] = 1;
    check(rc == want && rg == want && st.code == want && st.index == index &&
              sg.index == index && !strcmp(st.arg, arg) && !strcmp(sg.arg, arg) &&
              !strcmp(buf, text),
          "%s: code %d, arg %s, index %d, and the text (got %d/%d, %s/%s, %d/%d: '%s')", name,
          want, arg, index, rc, rg, st.arg, sg.arg, (int)st.index, (int)sg.index, buf);
}

/* One dimension: the width rule and the extent named, under each policy,
 * with P_1 fixed; a dimension its width leaves undivided. */
static void test_explain_one_dim(void)
{
    int64_t x1[1] = {571}, d3[1] = {3}, d1[1] = {1}, x3[1] = {3}, d5[1] = {5};
    int f194[1] = {194}, g[TOPO_MAX_DIMS] = {0};
    topo_nest m;
    tilehybrid_status st;
    topo_nest_init(&m, 1, x1, 16384, d3, NULL);
    expect_explain(&m, 194, TOPO_POLICY_COMM, NULL, TOPO_ERR_INFEASIBLE, "dep", 0,
                   "P_1 would be 194, but a block along dimension 1 must hold the d_1 = 3 "
                   "points its neighbour reads, so P_1 <= floor(X_1/d_1) = floor(571/3) = 190",
                   "194 processes on 571, d 3 (194 <= 571: the width rule refuses it)");
    expect_explain(&m, 194, TOPO_POLICY_TIME, NULL, TOPO_ERR_INFEASIBLE, "dep", 0,
                   "P_1 would be 194, but a block along dimension 1 must hold the d_1 = 3 "
                   "points its neighbour reads, so P_1 <= floor(X_1/d_1) = floor(571/3) = 190",
                   "the same under the time policy");
    expect_explain(&m, 194, TOPO_POLICY_LATENCY, NULL, TOPO_ERR_INFEASIBLE, "dep", 0,
                   "the balanced grid 194 has P_1 = 194, but a block along dimension 1 must "
                   "hold the d_1 = 3 points its neighbour reads, so P_1 <= floor(X_1/d_1) = "
                   "floor(571/3) = 190", "the same under the latency policy");
    expect_explain(&m, 600, TOPO_POLICY_COMM, NULL, TOPO_ERR_INFEASIBLE, "extent", 0,
                   "P_1 would be 600, but a block along dimension 1 must hold at least one "
                   "point, so P_1 <= X_1 = 571 (and the d_1 = 3 points its neighbour reads: "
                   "P_1 <= 190)", "600 processes on 571, d 3: P_1 > X_1 named first");
    expect_explain(&m, 190, TOPO_POLICY_COMM, NULL, TOPO_OK, "", -1, "",
                   "190 processes on 571, d 3 fit");
    expect_explain(&m, 194, TOPO_POLICY_COMM, f194, TOPO_ERR_FIXED, "dims", 0,
                   "P_1 = 194 is fixed, but a block along dimension 1 must hold the d_1 = 3 "
                   "points its neighbour reads, so P_1 <= floor(X_1/d_1) = floor(571/3) = 190",
                   "a fixed P_1 = 194 on 571, d 3");
    topo_nest_init(&m, 1, x1, 16384, d1, NULL);
    expect_explain(&m, 600, TOPO_POLICY_COMM, NULL, TOPO_ERR_INFEASIBLE, "extent", 0,
                   "P_1 would be 600, but a block along dimension 1 must hold at least one "
                   "point, so P_1 <= X_1 = 571", "600 processes on 571, d 1: P_1 <= X_1");
    EXPECT(topo_grid_ex(1, 600, x1, d1, TOPO_POLICY_COMM, g, &st), TOPO_ERR_INFEASIBLE, 0,
           "extent");
    EXPECT(topo_grid_ex(1, 194, x1, d3, TOPO_POLICY_COMM, g, &st), TOPO_OK, -1, "");
    topo_nest_init(&m, 1, x3, 10, d5, NULL);
    expect_explain(&m, 2, TOPO_POLICY_COMM, NULL, TOPO_ERR_INFEASIBLE, "dep", 0,
                   "P_1 would be 2, but a block along dimension 1 must hold the d_1 = 5 points "
                   "its neighbour reads, more than X_1 = 3, so dimension 1 is not divided "
                   "(P_1 = 1)", "2 processes on 3, d 5: the dimension is not divided");
}

/* Two dimensions: no factorisation, the width rule with an entry fixed and
 * under the latency policy, too many processes, a fixed product that does
 * not divide. */
static void test_explain_two_dims(void)
{
    int64_t x2[2] = {150, 150}, d33[2] = {3, 3}, x5[2] = {50, 50}, d11[2] = {1, 1};
    int64_t xa[2] = {2, 100}, da[2] = {2, 1};
    int f02[2] = {0, 2}, f30[2] = {3, 0};
    topo_nest m;
    topo_nest_init(&m, 2, x2, 100, d33, NULL);
    expect_explain(&m, 194, TOPO_POLICY_COMM, NULL, TOPO_ERR_INFEASIBLE, "procs", -1,
                   "no factorisation of 194 = 2 x 97 fits the limits P_1 <= floor(150/3) = 50, "
                   "P_2 <= floor(150/3) = 50 (a block holds at least one point, and the d_i "
                   "points its neighbour reads where P_i > 1)", "194 on 150x150, d 3,3: no factorisation");
    expect_explain(&m, 194, TOPO_POLICY_COMM, f02, TOPO_ERR_INFEASIBLE, "dep", 0,
                   "P_1 would be 97 (194 over the fixed entries' product 2), but a block along "
                   "dimension 1 must hold the d_1 = 3 points its neighbour reads, so P_1 <= "
                   "floor(X_1/d_1) = floor(150/3) = 50", "the same with P_2 = 2 fixed");
    expect_explain(&m, 194, TOPO_POLICY_LATENCY, NULL, TOPO_ERR_INFEASIBLE, "dep", 0,
                   "the balanced grid 97x2 has P_1 = 97, but a block along dimension 1 must "
                   "hold the d_1 = 3 points its neighbour reads, so P_1 <= floor(X_1/d_1) = "
                   "floor(150/3) = 50", "the same under the latency policy: 97x2");
    topo_nest_init(&m, 2, x5, 100, d11, NULL);
    expect_explain(&m, 5000, TOPO_POLICY_COMM, NULL, TOPO_ERR_INFEASIBLE, "procs", -1,
                   "the limits allow at most 2500 processes, not 5000: P_1 <= X_1 = 50, P_2 <= "
                   "X_2 = 50 (a block holds at least one point)", "5000 on 50x50: at most 2500");
    expect_explain(&m, 5000, TOPO_POLICY_COMM, f30, TOPO_ERR_FIXED, "dims", 0,
                   "the fixed entries' product 3 does not divide 5000", "a fixed 3 of 5000");
    topo_nest_init(&m, 2, xa, 10, da, NULL);
    expect_explain(&m, 4, TOPO_POLICY_LATENCY, NULL, TOPO_ERR_INFEASIBLE, "dep", 0,
                   "the balanced grid 2x2 has P_1 = 2, but a block along dimension 1 must hold "
                   "the d_1 = 2 points its neighbour reads, so P_1 <= floor(X_1/d_1) = "
                   "floor(2/2) = 1", "the balanced 2x2 on 2x100, d 2,1 (1x4 fits)");
    expect_explain(&m, 4, TOPO_POLICY_COMM, NULL, TOPO_OK, "", -1, "", "1x4 fits 2x100, d 2,1");
}

/* The text's buffer: cut, never overrun; NULL only with size 0; other
 * errors: topo_strerror's text. */
static void test_explain_buffer(void)
{
    int64_t x1[1] = {571}, d3[1] = {3};
    int c;
    char buf[TOPO_EXPLAIN_SIZE], small[16];
    topo_nest m;
    tilehybrid_status st;
    topo_nest_init(&m, 1, x1, 16384, d3, NULL);
    memset(small, 'z', sizeof small);
    c = topo_nest_explain(&m, 194, TOPO_POLICY_COMM, NULL, small, 8, NULL);
    check(c == TOPO_ERR_INFEASIBLE && !strcmp(small, "P_1 wou") && small[8] == 'z' &&
              topo_nest_explain(&m, 194, TOPO_POLICY_COMM, NULL, NULL, 0, NULL) ==
                  TOPO_ERR_INFEASIBLE,
          "a short buffer holds the first size - 1 bytes (got '%s'); NULL with size 0", small);
    EXPECT(topo_nest_explain(&m, 194, TOPO_POLICY_COMM, NULL, NULL, 4, &st), TOPO_ERR_NULL, -1,
           "buf");
    EXPECT(topo_nest_explain(NULL, 194, TOPO_POLICY_COMM, NULL, buf, sizeof buf, &st),
           TOPO_ERR_NULL, -1, "nest");
    EXPECT(topo_nest_explain(&m, 0, TOPO_POLICY_COMM, NULL, buf, sizeof buf, &st),
           TOPO_ERR_PROCS, -1, "procs");
    check(!strcmp(buf, topo_strerror(TOPO_ERR_PROCS)), "other errors: topo_strerror's text");
}

/* The longest texts fit TOPO_EXPLAIN_SIZE: 16 dimensions of 2^63 - 1 points
 * with widths that allow one process each. */
static void test_explain_longest(void)
{
    int64_t xx[TOPO_MAX_DIMS], dd[TOPO_MAX_DIMS];
    size_t longest = 0;
    int c, bad = 0, i;
    char buf[TOPO_EXPLAIN_SIZE];
    topo_nest m;
    for (c = 0; c < 3; c++) {
        for (i = 0; i < TOPO_MAX_DIMS; i++) {
            xx[i] = INT64_MAX - (c == 2);
            dd[i] = c == 0 ? INT64_MAX - 1 : INT64_MAX;
        }
        topo_nest_init(&m, TOPO_MAX_DIMS, xx, 1, dd, NULL);
        bad += topo_nest_explain(&m, c == 1 ? 2 : 2147483646, TOPO_POLICY_COMM, NULL, buf,
                                 sizeof buf, NULL) != TOPO_ERR_INFEASIBLE;
        longest = strlen(buf) > longest ? strlen(buf) : longest;
    }
    check(bad == 0 && longest > 1000 && longest < TOPO_EXPLAIN_SIZE - 1,
          "16 dimensions of 2^63 - 1 points, one process each: %d texts, the longest %d "
          "bytes, within TOPO_EXPLAIN_SIZE", c, (int)longest);
}

/* Random nests: the same verdict and status as topo_nest_grid, a text
 * exactly when there is no grid, and no grid exactly when brute force finds
 * none within the limits (topo__nest_lim's rule, written out). */
static void test_explain_random(void)
{
    int c, bad = 0, infeasible = 0, one = 0, i;
    char buf[TOPO_EXPLAIN_SIZE];
    topo_nest m;
    tilehybrid_status st;
    for (c = 0; c < 4000; c++) {
        int64_t y[TOPO_MAX_DIMS], e[TOPO_MAX_DIMS], lim[TOPO_MAX_DIMS], procs = 1 + (int64_t)rnd(720);
        int n = 1 + (int)rnd(4), fixed[TOPO_MAX_DIMS] = {0}, p[TOPO_MAX_DIMS] = {0};
        int q[TOPO_MAX_DIMS] = {0}, rc, rg, found, nfree = 0, last = -1;
        int64_t rest = procs;
        topo_policy policy = c % 3 == 0 ? TOPO_POLICY_LATENCY : TOPO_POLICY_COMM;
        const char *rule = "";
        tilehybrid_status sg;
        for (i = 0; i < n; i++) {
            y[i] = 1 + (int64_t)rnd(60);
            e[i] = (int64_t)rnd(6);
            lim[i] = e[i] > 1 ? y[i] / e[i] : y[i];
            lim[i] = lim[i] < 1 ? 1 : lim[i];
            fixed[i] = q[i] = rnd(4) == 0 ? 1 + (int)rnd(6) : 0;
            nfree += fixed[i] == 0;
            last = fixed[i] == 0 ? i : last;
            rest = fixed[i] > 0 ? rest / fixed[i] : rest;
        }
        if (nfree == 1) /* one free dimension: the rule it breaks */
            rule = rest > y[last] ? "extent" : "dep";
        topo_nest_init(&m, n, y, 1, e, NULL);
        rc = topo_nest_explain(&m, procs, policy, fixed, buf, sizeof buf, &st);
        rg = topo_nest_grid(&m, procs, policy, q, &sg);
        found = ref_grid_lim(n, procs, y, lim, e, fixed, p);
        infeasible += rc == TOPO_ERR_INFEASIBLE;
        one += rc == TOPO_ERR_INFEASIBLE && nfree == 1;
        if (rc != rg || st.code != sg.code || st.index != sg.index || strcmp(st.arg, sg.arg) ||
            (rc == TOPO_OK) != (buf[0] == '\0') ||
            (policy == TOPO_POLICY_COMM && (rc == TOPO_OK) != found) ||
            (rc == TOPO_ERR_INFEASIBLE && policy == TOPO_POLICY_COMM && nfree == 1 &&
             (strcmp(st.arg, rule) || st.index != last))) {
            if (bad++ < 5)
                check_note("n=%d P=%lld: explain %d %s %d '%s', grid %d %s %d, brute force %d",
                           n, (long long)procs, rc, st.arg, (int)st.index, buf, rg, sg.arg,
                           (int)sg.index, found);
        }
    }
    check(bad == 0 && infeasible > 100 && one > 20,
          "topo_nest_explain = topo_nest_grid's verdict and status on 4000 random nests "
          "N=1..4 with fixed entries (%d infeasible, %d with one free dimension), and = brute "
          "force under P_i <= X_i, P_i <= floor(X_i/d_i)", infeasible, one);
}

/* Why no grid fits, in words (issue 34: it said "no grid fits: ... P_i <=
 * X_i" for 194 processes on X_1 = 571 with d_1 = 3, where P_1 = 194 <= 571
 * and the width rule refused it): the status names the rule and the
 * dimension, the text the rule and the numbers. */
static void test_explain(void)
{
    test_explain_one_dim();
    test_explain_two_dims();
    test_explain_buffer();
    test_explain_longest();
    test_explain_random();
}

/* Every code provoked by some test (MISMATCH and MPI: tests/mpi_topology.c). */
static void test_codes_seen(void)
{
    int i, all = 1;
    seen_code[TOPO_ERR_MISMATCH] = seen_code[TOPO_ERR_MPI] = 1;
    for (i = 0; i <= TOPO_ERR_COST; i++)
        if (!seen_code[i]) {
            all = 0;
            check_note("error code %d never provoked", i);
        }
    check(all, "every error code TOPO_OK..TOPO_ERR_COST is provoked by a test");
}

int main(void)
{
    check(strcmp(TOPO_VERSION, TILEHYBRID_VERSION) == 0,
          "TOPO_VERSION is TILEHYBRID_VERSION (%s)", TOPO_VERSION);
    test_published();
    test_brute_force(0, 0, 10000);
    test_brute_force(1, 0, 10000);
    test_brute_force(1, 1, 3000);
    test_brute_force_wide();
    test_latency();
    test_hybrid();
    test_report();
    test_block();
    test_errors();
    test_overflow();
    test_large();
    test_stencil();
    test_faces_report();
    test_nest_comm();
    test_nest_brute(TOPO_POLICY_COMM, 0, 3000);
    test_nest_brute(TOPO_POLICY_COMM, 1, 1000);
    test_nest_brute(TOPO_POLICY_TIME, 0, 3000);
    test_nest_brute(TOPO_POLICY_TIME, 1, 1000);
    test_nest_brute_wide();
    test_time_published();
    test_time_scale();
    test_time_narrow();
    test_time_nodep();
    test_time_large();
    test_nest_errors();
    test_explain();
    test_codes_seen();
    return check_exit();
}
