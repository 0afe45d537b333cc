/* tests/unit_topology.c -- topology.h without MPI: published grids, exact
 * search against brute force, latency grid, hybrid grid, reports, blocks,
 * every error path and overflow. */
#define TILEHYBRID_NO_MPI

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
 * P_i <= X_i, fixed entries kept; the first one with the smallest V. */
struct ref {
    int n;
    int64_t procs;
    const int64_t *x, *d;
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
    for (p = 1; p <= rest && p <= r->x[i]; p++) {
        if (rest % p != 0 || (r->fixed[i] > 0 && p != r->fixed[i]))
            continue;
        r->cur[i] = (int)p;
        ref_rec(r, i + 1, rest / p);
    }
}

static int ref_grid(int n, int64_t procs, const int64_t *x, const int64_t *d,
                    const int *fixed, int *out)
{
    struct ref r;
    r.n = n;
    r.procs = procs;
    r.x = x;
    r.d = d;
    r.fixed = fixed;
    r.found = 0;
    r.bestv = 0;
    ref_rec(&r, 0, procs);
    if (r.found)
        memcpy(out, r.best, (size_t)n * sizeof(int));
    return r.found;
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

static void test_published(void)
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
    {
        int64_t xs[4][2] = {{4096, 1024}, {16384, 4096}, {1 << 20, 1 << 18},
                            {(int64_t)1 << 40, (int64_t)1 << 38}};
        int ok = 1, g[2];
        for (i = 0; i < 4; i++) {
            g[0] = g[1] = 0;
            if (topo_grid(2, 65536, xs[i], d, TOPO_POLICY_COMM, g) != TOPO_OK ||
                g[0] != 512 || g[1] != 128)
                ok = 0;
        }
        check(ok, "65536 procs, X1 = 4*X2: 512x128 (topology paper Sec. 4)");
    }
    {
        int64_t sq[2] = {4096, 4096}, half[2] = {2048, 1024};
        int g[2] = {0, 0}, h[2] = {0, 0};
        int r1 = topo_grid(2, 65536, sq, d, TOPO_POLICY_COMM, g);
        int r2 = topo_grid(2, 65536, half, d, TOPO_POLICY_COMM, h);
        check(r1 == TOPO_OK && g[0] == 256 && g[1] == 256,
              "65536 procs, X1 = X2: 256x256");
        check(r2 == TOPO_OK && h[0] == 256 && h[1] == 256 &&
                  ref_volume(2, h, half, d) ==
                      ref_volume(2, (const int[]){512, 128}, half, d),
              "65536 procs, X1 = 2*X2: 512x128 and 256x256 tie, the "
              "lexicographically smaller 256x256 wins");
    }
    {
        /* Fig. 1: X1 = 4*X2, 16 procs: 8x2 beats 4x4; the paper's ~27% is
         * the total volume, 11 X2 Z against 15 X2 Z. */
        int64_t x[2] = {1024, 256};
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
        int64_t x[3], d[3], local[3], procs = 1 + (int64_t)rnd(64);
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
        for (i = 0; i < n; i++)
            local[i] = (x[i] + gp[i] - 1) / gp[i];
        if (!ref_grid(n, threads, local, d, zero, rt)) {
            bad += rc != TOPO_ERR_INFEASIBLE;
            continue;
        }
        if (rc != TOPO_OK || !same(p, gp, n) || !same(t, rt, n))
            bad++;
    }
    check(bad == 0, "hybrid: process grid = topo_grid, thread grid = brute "
                    "force on the largest block, 1500 random cases");
    {
        int64_t x[2] = {16, 256}, d[2] = {1, 1};
        int p[2] = {0, 0}, t[2] = {0, 0}, rc;
        tilehybrid_status st;
        rc = topo_hybrid_grid(2, 8, 2, x, d, TOPO_POLICY_COMM, p, t);
        /* block 16x32: 1x2 threads gives 16+16, 2x1 gives 32+8 */
        check(rc == TOPO_OK && p[0] == 1 && p[1] == 8 && t[0] == 1 && t[1] == 2,
              "hybrid 16x256, 8 procs x 2 threads: 1x8 processes, 1x2 threads");
        p[0] = p[1] = 0;
        t[0] = 0;
        t[1] = 0;
        rc = topo_hybrid_grid(2, 16, 64, x, d, TOPO_POLICY_LATENCY, p, t);
        check(rc == TOPO_ERR_INFEASIBLE && p[0] == 0,
              "hybrid latency 16x256, 16x64: 8x8 threads do not fit the "
              "4x64 block of the 4x4 grid: infeasible, outputs unchanged");
        p[0] = p[1] = 0;
        t[0] = t[1] = 0;
        x[0] = 64;
        rc = topo_hybrid_grid(2, 16, 4, x, d, TOPO_POLICY_LATENCY, p, t);
        check(rc == TOPO_OK && p[0] == 4 && p[1] == 4 && t[0] == 2 && t[1] == 2,
              "hybrid latency 64x256, 16x4: 4x4 processes, 2x2 threads");
        p[0] = p[1] = 0;
        t[0] = 0;
        t[1] = 3;
        rc = topo_hybrid_grid_ex(2, 16, 4, x, d, TOPO_POLICY_COMM, p, t, &st);
        check(rc == TOPO_ERR_FIXED && st.index == 1 && !strcmp(st.arg, "tdims"),
              "hybrid: fixed thread entry 3 does not divide 4: "
              "TOPO_ERR_FIXED, tdims[1]");
        t[1] = 0;
        x[0] = 16;
        rc = topo_hybrid_grid_ex(2, 16, 512, x, d, TOPO_POLICY_COMM, p, t,
                                 &st);
        check(rc == TOPO_ERR_INFEASIBLE && !strcmp(st.arg, "threads"),
              "hybrid: 512 threads do not fit the 16x16 block of 1x16: "
              "infeasible, arg threads");
    }
}

/* ---- report ------------------------------------------------------------- */

static void test_report(void)
{
    topo_report r;
    int rc;
    {
        int64_t x[2] = {64, 256}, d[2] = {1, 1};
        int g[2] = {2, 8};
        rc = topo_report_grid(2, g, x, 16384, d, &r);
        check(rc == TOPO_OK && r.volume == 1048576 &&
                  r.volume_sent == 1048576 && r.total_volume == 11534336 &&
                  r.messages == 2 && r.fill_steps == 8 && r.procs == 16 &&
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
        check(rc == TOPO_OK && r.volume == 60 && r.volume_sent == 60 &&
                  r.total_volume == 190 && r.messages == 2 &&
                  r.fill_steps == 3,
              "report 3x2 on 10x7x5, d=(2,1): ceilings, V 60, total 190");
    }
    {
        int64_t x[2] = {16, 256}, d[2] = {1, 1};
        int g[2] = {1, 4};
        rc = topo_report_grid(2, g, x, 16384, d, &r);
        /* blocks 16 x 64: V = Z*(64 + 16); sent only along dim 2: Z*16 */
        check(rc == TOPO_OK && r.volume == 1310720 && r.volume_sent == 262144 &&
                  r.total_volume == 786432 && r.messages == 1 &&
                  r.fill_steps == 3,
              "report 1x4 on 16x256x16384: V 1310720, sent 262144 (one "
              "dim), total 786432, 1 message");
    }
    {
        int64_t x[3] = {2, 5, 9}, d[3] = {0, 3, 1};
        int g[3] = {4, 1, 2};
        rc = topo_report_grid(3, g, x, 1, d, &r);
        /* blocks 1 x 5 x 5: V = 0*25 + 3*5 + 1*5 = 20, sent = 0 + 5 */
        check(rc == TOPO_OK && r.feasible == 0 && r.bad_index == 0 &&
                  r.volume == 20 && r.volume_sent == 5 &&
                  r.total_volume == 0 * 3 * 45 + 1 * 1 * 10 &&
                  r.messages == 2 && r.fill_steps == 4,
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

static void test_errors(void)
{
    int64_t x[3] = {10, 10, 10}, d[3] = {1, 1, 1};
    int g[3] = {0, 0, 0}, t[3] = {0, 0, 0}, i, j, distinct = 1, rc;
    topo_report r;
    tilehybrid_status st;
    int seen[TOPO_ERR_POLICY + 1];
    memset(seen, 0, sizeof seen);

#define EXPECT(call, want, idx, name)                                        \
    do {                                                                     \
        int expect_rc_ = (call);                                             \
        seen[want] = 1;                                                      \
        check(expect_rc_ == (want) && st.code == (want) &&                   \
                  st.index == (idx) && !strcmp(st.arg, name),                \
              "%s -> %s, index %d, arg %s (got %d, %d, %s)", #call, #want,   \
              idx, name, expect_rc_, (int)st.index, st.arg);                      \
    } while (0)

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
    x[1] = 10;
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
    seen[TOPO_ERR_MISMATCH] = seen[TOPO_ERR_MPI] = 1; /* tests/mpi_topology.c */
    for (i = 0; i <= TOPO_ERR_POLICY; i++)
        if (!seen[i])
            check(0, "error code %d never provoked", i);
#undef EXPECT

    for (i = 0; i <= TOPO_ERR_POLICY + 1; i++)
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
    return check_exit();
}
