/* tests/unit_balance.c -- balance.h without MPI: the cost model, eq. 1
 * against hand computations, the split, Lemma 2, the adaptive state machine
 * on synthetic loads, the fits, the environment, and argument checking. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L /* setenv, unsetenv */
#endif
#define TILEHYBRID_NO_MPI
#include "balance.h"

#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the paper's machine (Sec. 6): 288 ns per point, 107 us per message,
 * 100 Mbit/s = 12.5e6 bytes/s, doubles */
static const bal_model paper = {288e-9, 107e-6, 12.5e6, 8.0};

static int close_to(double a, double b, double rel)
{
    double d = fabs(a - b), s = fabs(b) > 1 ? fabs(b) : 1;
    return d <= rel * s;
}

/* deterministic pseudo-random numbers (64-bit LCG, upper bits) */
static uint64_t rng_state = 42;
static uint64_t rng(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return rng_state >> 33;
}
static double urand(void) /* [0,1) */
{
    return (double)rng() / 2147483648.0;
}
static int64_t irand(int64_t lo, int64_t hi) /* [lo,hi] */
{
    return lo + (int64_t)(rng() % (uint64_t)(hi - lo + 1));
}

static void test_model(void)
{
    /* t_comm of a 3200-element message: 107e-6 + 3200*8/12.5e6 = 107e-6 + 2.048e-3 */
    check(close_to(bal_tcomm(&paper, 3200), 2.155e-3, 1e-12),
          "t_comm counts elements times elem_bytes against bytes/s: 3200 doubles = 2.155 ms");
    check(close_to(bal_tcomp(&paper, 1e6), 0.288, 1e-12), "t_comp(1e6) = 0.288 s");
    check(strcmp(BAL_VERSION, TILEHYBRID_VERSION) == 0, "BAL_VERSION is TILEHYBRID_VERSION (%s)",
          BAL_VERSION);
#ifdef BAL_PINGPONG_SIZES
    check(0, "TILEHYBRID_NO_MPI omits the MPI part");
#else
    check(1, "TILEHYBRID_NO_MPI omits the MPI part");
#endif
}

/* Fig. 2 of the paper: 4x2 processes, 2 threads, X1 = 4 X2, d = (1,1).
 * Space 256x64, z = 100, the paper's machine.  By hand:
 *   block per process 256/4 x 64/2 = 64 x 32, V = 64*32*100 = 204800 points,
 *   t_comp(V) = 204800 * 288e-9 = 0.0589824 s;
 *   along dim 1 (to p1+1) the face is d1 * z * 32 = 3200 elements,
 *     t_comm = 107e-6 + 3200*8/12.5e6 = 107e-6 + 2.048e-3 = 2.155e-3 s;
 *   along dim 2 (to p2+1) the face is d2 * z * 64 = 6400 elements,
 *     t_comm = 107e-6 + 6400*8/12.5e6 = 107e-6 + 4.096e-3 = 4.203e-3 s;
 *   T - 1 = 1, so
 *   (0,0) sends along both: bal = 1 - (2.155e-3 + 4.203e-3)/0.0589824
 *                               = 1 - 6.358e-3/0.0589824 = 0.89220513...
 *   (0,1) only along dim 1:  bal = 1 - 2.155e-3/0.0589824 = 0.96346368...
 *   (3,0) only along dim 2:  bal = 1 - 4.203e-3/0.0589824 = 0.92874146...
 *   (3,1) sends nothing:     bal = 1 exactly.
 *   Constant (every dimension, Xz/P = 256*64*100/8 = 204800, messages
 *   d_i P_i X z/(X_i P): 1*4*1638400/(256*8) = 3200 and 1*2*1638400/(64*8)
 *   = 6400) equals (0,0).  The paper quotes 87% vs 95% for its (unstated)
 *   z and space: the same pattern. */
static void test_fig2(void)
{
    int pdims[2] = {4, 2}, c00[2] = {0, 0}, c01[2] = {0, 1}, c30[2] = {3, 0}, c31[2] = {3, 1};
    int64_t extent[2] = {256, 64}, dep[2] = {1, 1};
    double con = -1, b00 = -1, b01 = -1, b30 = -1, b31 = -1;
    int cl = -1, cl00 = -1, cl31 = -1, rc = 0;
    rc |= bal_factor(&paper, 2, pdims, NULL, 2, extent, 100, dep, &con, &cl);
    rc |= bal_factor(&paper, 2, pdims, c00, 2, extent, 100, dep, &b00, &cl00);
    rc |= bal_factor(&paper, 2, pdims, c01, 2, extent, 100, dep, &b01, NULL);
    rc |= bal_factor(&paper, 2, pdims, c30, 2, extent, 100, dep, &b30, NULL);
    rc |= bal_factor(&paper, 2, pdims, c31, 2, extent, 100, dep, &b31, &cl31);
    check(rc == 0, "fig. 2: bal_factor succeeds");
    check(close_to(b00, 1 - 6.358e-3 / 0.0589824, 1e-12), "fig. 2: (0,0) = %.8f, hand 0.89220513",
          b00);
    check(close_to(b01, 1 - 2.155e-3 / 0.0589824, 1e-12), "fig. 2: (0,1) = %.8f, hand 0.96346368",
          b01);
    check(close_to(b30, 1 - 4.203e-3 / 0.0589824, 1e-12), "fig. 2: (3,0) = %.8f, hand 0.92874146",
          b30);
    check(b31 == 1.0 && cl31 == 0, "fig. 2: (3,1) sends nothing and gets exactly 1, not clamped");
    check(b00 < b01, "fig. 2: (0,0) gets a smaller factor than (0,1)");
    check(close_to(con, b00, 1e-12) && cl == 0 && cl00 == 0,
          "fig. 2: the constant factor equals the interior process's (%.8f)", con);
}

/* Non-divisible 3D case, T = 4, z = 2, dep = (1,2,3), model tcomp = 0.1 s,
 * tstartup = 1e-3 s, bandwidth = 1000 B/s, 4 bytes per element.
 * Space 10x7x5, grid 3x2x2.  Process (0,1,0):
 *   blocks: 10 over 3 -> 4,3,3 (coord 0: 4); 7 over 2 -> 4,3 (coord 1: 3);
 *           5 over 2 -> 3,2 (coord 0: 3); V = 4*3*3*2 = 72, t_comp = 7.2 s;
 *   sends along dim 1 (0 < 2) and dim 3 (0 < 1), not dim 2 (1 = P2-1):
 *     dim 1: 1*2*3*3 = 18 elements -> 1e-3 + 18*4/1000 = 0.073 s
 *     dim 3: 3*2*4*3 = 72 elements -> 1e-3 + 72*4/1000 = 0.289 s
 *   bal = 1 - 3*(0.073+0.289)/7.2 = 1 - 1.086/7.2 = 0.84916666...
 * Constant: X z = 700, P = 12, V = 700/12, messages d_i P_i (Xz/X_i)/P:
 *     dim 1: 1*3*70/12 = 17.5      -> 1e-3 + 0.070      = 0.071
 *     dim 2: 2*2*100/12 = 33.333.. -> 1e-3 + 0.13333..  = 0.134333..
 *     dim 3: 3*2*140/12 = 70       -> 1e-3 + 0.280      = 0.281
 *   bal = 1 - 3*0.48633../(70/12*0.1) = 1 - 1.459/5.8333.. = 0.74988571...
 * Process (2,0,1): blocks 3,4,2, V = 48, t_comp = 4.8 s; sends along dim 2
 *   only: 2*2*3*2 = 24 elements -> 1e-3 + 0.096 = 0.097;
 *   bal = 1 - 3*0.097/4.8 = 0.939375. */
static void test_3d_hand(void)
{
    bal_model m = {0.1, 1e-3, 1000.0, 4.0};
    int pdims[3] = {3, 2, 2}, c[3] = {0, 1, 0}, c2[3] = {2, 0, 1};
    int64_t extent[3] = {10, 7, 5}, dep[3] = {1, 2, 3};
    double v = -1, con = -1, v2 = -1;
    int rc = bal_factor(&m, 3, pdims, c, 4, extent, 2, dep, &v, NULL);
    rc |= bal_factor(&m, 3, pdims, NULL, 4, extent, 2, dep, &con, NULL);
    rc |= bal_factor(&m, 3, pdims, c2, 4, extent, 2, dep, &v2, NULL);
    check(rc == 0 && close_to(v, 1 - 3 * (0.073 + 0.289) / 7.2, 1e-12),
          "3D uneven blocks: variable factor of (0,1,0) = %.8f, hand 0.84916667", v);
    check(close_to(v2, 1 - 3 * 0.097 / 4.8, 1e-12),
          "3D uneven blocks: variable factor of (2,0,1) = %.8f, hand 0.939375", v2);
    check(close_to(con, 1 - 3 * (0.071 + (1e-3 + 400.0 / 3000.0) + 0.281) / (700.0 / 12 * 0.1),
                   1e-12),
          "3D: constant factor = %.8f, hand 0.74988571", con);
}

static void test_factor_edges(void)
{
    int pdims[2] = {4, 2}, c[2] = {1, 0}, one[1] = {1}, two[1] = {2}, c0[1] = {0};
    int64_t small[2] = {16, 8}, dep[2] = {1, 1}, ext1[1] = {1000}, dep0[2] = {0, 1};
    int64_t extent[2] = {256, 64};
    double b = -1;
    int cl = 0, rc;
    /* 16x8 over 4x2: blocks 4x2, z = 1: V = 8 points = 2.3 us of work, but
     * one message alone costs > 107 us: eq. 1 is far below 0. */
    rc = bal_factor(&paper, 2, pdims, c, 4, small, 1, dep, &b, &cl);
    check(rc == 0 && b == 0.0 && cl == 1, "clamped: communication-bound tile gives 0 and the flag");
    rc = bal_factor(&paper, 2, pdims, NULL, 4, small, 1, dep, &b, NULL);
    check(rc == 0 && b == 0.0, "clamped: the clamped pointer may be NULL");
    rc = bal_factor(&paper, 2, pdims, c, 1, small, 1, dep, &b, &cl);
    check(rc == 0 && b == 1.0 && cl == 0, "T = 1 gives 1 (nobody to hand work to)");
    /* one dimension, one process: no neighbour, variable factor 1; the
     * constant one still counts the dimension (the paper's "check omitted"):
     * V = 1000*10 points = 2.88e-3 s, message d*z = 10 elements:
     * bal = 1 - (107e-6 + 80/12.5e6)/2.88e-3 */
    rc = bal_factor(&paper, 1, one, c0, 2, ext1, 10, dep, &b, NULL);
    check(rc == 0 && b == 1.0, "P_i = 1: variable factor 1, no message");
    rc = bal_factor(&paper, 1, one, NULL, 2, ext1, 10, dep, &b, NULL);
    check(rc == 0 && close_to(b, 1 - (107e-6 + 80 / 12.5e6) / 2.88e-3, 1e-12),
          "P_i = 1: the constant factor counts every dimension (%.6f)", b);
    rc = bal_factor(&paper, 1, two, c0, 2, ext1, 10, dep, &b, NULL);
    check(rc == 0 && close_to(b, 1 - (107e-6 + 80 / 12.5e6) / 1.44e-3, 1e-12),
          "1D, 2 processes: hand value %.6f", b);
    /* d_1 = 0: no dependence along dimension 1, so (0,0) only sends along 2:
     * it gets the (3,0) value of fig. 2 */
    {
        int c00[2] = {0, 0};
        rc = bal_factor(&paper, 2, pdims, c00, 2, extent, 100, dep0, &b, NULL);
    }
    check(rc == 0 && close_to(b, 1 - 4.203e-3 / 0.0589824, 1e-12),
          "d_i = 0: no message along i (no startup cost either)");
}

/* Random grids: at the factor, the model's master and other-thread times
 * per step are equal (eq. 9 of the paper), unless clamped, where even 0
 * leaves the master last.  With divisible extents the variable factor of a
 * process that sends along every dimension equals the constant one, and
 * every other process gets at least as much. */
static void test_factor_random(void)
{
    int cases = 0, bad_eq = 0, bad_div = 0, clamps = 0, k;
    for (k = 0; k < 3000; k++) {
        int n = (int)irand(1, 4), T = (int)irand(1, 16), i, pdims[4], coords[4], allsend = 1;
        int64_t extent[4], dep[4], z = irand(1, 300);
        bal_model m;
        double b = -1, con = -1, tm = 0, to = 0;
        int cl, rc, divisible = (k % 2 == 0);
        m.tcomp = 1e-9 * (1 + 500 * urand());
        m.tstartup = 1e-6 * 200 * urand();
        m.bandwidth = 1e6 * (1 + 10000 * urand());
        m.elem_bytes = (double)(4 << (int)irand(0, 2));
        for (i = 0; i < n; i++) {
            pdims[i] = (int)irand(1, 6);
            extent[i] = divisible ? pdims[i] * irand(1, 64) : irand(pdims[i], 400);
            coords[i] = (int)irand(0, pdims[i] - 1);
            dep[i] = irand(0, 3);
            if (!(pdims[i] > 1 && coords[i] < pdims[i] - 1 && dep[i] > 0) && dep[i] > 0)
                allsend = 0;
        }
        rc = bal_factor(&m, n, pdims, coords, T, extent, z, dep, &b, &cl);
        rc |= bal_tile_times(&m, n, pdims, coords, T, extent, z, dep, b, &tm, &to);
        rc |= bal_factor(&m, n, pdims, NULL, T, extent, z, dep, &con, NULL);
        if (rc != 0 || b < 0 || b > 1) {
            bad_eq++;
            continue;
        }
        cases++;
        if (T > 1 && !cl && !close_to(tm, to, 1e-9 * (tm > 1 ? 1 : 1 / tm)))
            bad_eq++;
        if (cl) {
            clamps++;
            if (!(b == 0 && tm > to))
                bad_eq++;
        }
        if (divisible) {
            if (allsend && !close_to(b, con, 1e-12))
                bad_div++;
            if (b < con - 1e-12)
                bad_div++;
        }
    }
    check(bad_eq == 0 && cases == 3000,
          "eq. 1 equalises master and other-thread step times, %d random cases (%d clamped)",
          cases, clamps);
    check(bad_div == 0,
          "divisible extents: variable = constant for all-sending processes, >= otherwise");
}

/* bal_strerror(): every code names its argument; others are unknown. */
static void test_strerror(void)
{
    struct {
        int code;
        const char *word;
    } words[] = {{BAL_ERR_TCOMP, "tcomp"},          {BAL_ERR_TSTARTUP, "tstartup"},
                 {BAL_ERR_BANDWIDTH, "bandwidth"},  {BAL_ERR_ELEMBYTES, "elem_bytes"},
                 {BAL_ERR_DIMS, "n ("},             {BAL_ERR_PDIMS, "pdims[i]"},
                 {BAL_ERR_COORDS, "coords[i]"},     {BAL_ERR_THREADS, "threads"},
                 {BAL_ERR_EXTENT, "extent[i]"},     {BAL_ERR_EMPTY, "pdims[i] > extent[i]"},
                 {BAL_ERR_TILEHEIGHT, "tile_height"}, {BAL_ERR_DEP, "dep[i]"},
                 {BAL_ERR_BAL, "bal"},              {BAL_ERR_TOTAL, "total"},
                 {BAL_ERR_PARTS, "parts"},          {BAL_ERR_TIME, "tcomp_master"},
                 {BAL_ERR_SMOOTHING, "smoothing"},  {BAL_ERR_PERIOD, "period"},
                 {BAL_ERR_SAMPLESTEPS, "sample_steps"}, {BAL_ERR_ENV_TCOMP, "TILEHYBRID_TCOMP"},
                 {BAL_ERR_ENV_BANDWIDTH, "TILEHYBRID_BANDWIDTH"}, {BAL_ERR_NOPEER, "no peer"},
                 {BAL_ERR_NULL, "NULL"}};
    size_t i;
    int ok = 1;
    for (i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(bal_strerror(words[i].code), words[i].word) == NULL) {
            ok = 0;
            check_note("bal_strerror(%d) = '%s' lacks '%s'", words[i].code,
                       bal_strerror(words[i].code), words[i].word);
        }
    for (i = 0; i <= BAL_ERR_POLICY; i++)
        if (strstr(bal_strerror((int)i), "unknown") != NULL)
            ok = 0;
    check(ok && strstr(bal_strerror(BAL_ERR_POLICY + 1), "unknown") != NULL &&
              strstr(bal_strerror(-1), "unknown") != NULL,
          "bal_strerror names the argument for every code, 'unknown' for others");
}

/* Bad cost models and bad bal_factor() arguments. */
static void test_factor_errors(void)
{
    int pdims[2] = {4, 2}, coords[2] = {0, 1};
    int64_t extent[2] = {256, 64}, dep[2] = {1, 1};
    double b;
    bal_model m = paper;
    m.tcomp = -1;
    check(bal_factor(&m, 2, pdims, coords, 2, extent, 100, dep, &b, NULL) == BAL_ERR_TCOMP,
          "negative tcomp rejected: %s", bal_strerror(BAL_ERR_TCOMP));
    m = paper;
    m.tstartup = -1e-6;
    check(bal_factor(&m, 2, pdims, coords, 2, extent, 100, dep, &b, NULL) == BAL_ERR_TSTARTUP,
          "negative tstartup rejected");
    m = paper;
    m.bandwidth = 0;
    check(bal_factor(&m, 2, pdims, coords, 2, extent, 100, dep, &b, NULL) == BAL_ERR_BANDWIDTH,
          "zero bandwidth rejected: %s", bal_strerror(BAL_ERR_BANDWIDTH));
    m.bandwidth = -5;
    check(bal_model_check(&m) == BAL_ERR_BANDWIDTH, "negative bandwidth rejected");
    m = paper;
    m.elem_bytes = 0;
    check(bal_model_check(&m) == BAL_ERR_ELEMBYTES, "zero elem_bytes rejected");
    m = paper;
    m.tcomp = NAN;
    check(bal_model_check(&m) == BAL_ERR_TCOMP, "NaN tcomp rejected");
    m.tcomp = INFINITY;
    check(bal_model_check(&m) == BAL_ERR_TCOMP, "infinite tcomp rejected");
    check(bal_factor(NULL, 2, pdims, coords, 2, extent, 100, dep, &b, NULL) == BAL_ERR_NULL,
          "NULL model rejected");
    check(bal_factor(&paper, 2, pdims, coords, 0, extent, 100, dep, &b, NULL) == BAL_ERR_THREADS,
          "T = 0 rejected: %s", bal_strerror(BAL_ERR_THREADS));
    check(bal_factor(&paper, 2, pdims, coords, 2, extent, 0, dep, &b, NULL) == BAL_ERR_TILEHEIGHT,
          "tile_height 0 rejected");
    check(bal_factor(&paper, 0, pdims, coords, 2, extent, 1, dep, &b, NULL) == BAL_ERR_DIMS,
          "n = 0 rejected");
    check(bal_factor(&paper, 2, NULL, coords, 2, extent, 1, dep, &b, NULL) == BAL_ERR_NULL &&
              bal_factor(&paper, 2, pdims, coords, 2, NULL, 1, dep, &b, NULL) == BAL_ERR_NULL &&
              bal_factor(&paper, 2, pdims, coords, 2, extent, 1, NULL, &b, NULL) == BAL_ERR_NULL &&
              bal_factor(&paper, 2, pdims, coords, 2, extent, 1, dep, NULL, NULL) == BAL_ERR_NULL,
          "NULL pdims, extent, dep, bal rejected");
}

/* bal_factor_check() names the argument and the dimension at fault. */
static void test_factor_check(void)
{
    int pdims[2] = {4, 2}, coords[2] = {0, 1};
    tilehybrid_status st;
    int64_t extent[2] = {256, 64}, dep[2] = {1, 1};
    int p2[2] = {4, 0}, c2[2] = {0, 2}, c3[2] = {-1, 0}, k, rc;
    int64_t e2[2] = {256, 0}, d2[2] = {1, -1}, e3[2] = {3, 64};
    /* one bad argument each: the code, the argument and the index named */
    const struct {
        const int *pdims, *coords;
        const int64_t *extent, *dep;
        int code;
        const char *arg;
        int index;
        const char *what;
    } bad[] = {
        { p2, NULL, extent, dep, BAL_ERR_PDIMS, "pdims", 1, "pdims[1] = 0 rejected, index 1" },
        { pdims, c2, extent, dep, BAL_ERR_COORDS, "coords", 1,
          "coords[1] = P_2 rejected, index 1" },
        { pdims, c3, extent, dep, BAL_ERR_COORDS, "coords", 0,
          "coords[0] = -1 rejected, index 0" },
        { pdims, coords, e2, dep, BAL_ERR_EXTENT, "extent", 1, "extent[1] = 0 rejected, index 1" },
        { pdims, coords, e3, dep, BAL_ERR_EMPTY, "pdims", 0,
          "4 processes over 3 points rejected (BAL_ERR_EMPTY), index 0" },
        { pdims, coords, extent, d2, BAL_ERR_DEP, "dep", 1, "dep[1] = -1 rejected, index 1" },
    };
    for (k = 0; k < (int)(sizeof bad / sizeof bad[0]); k++) {
        rc = bal_factor_check(2, bad[k].pdims, bad[k].coords, 2, bad[k].extent, 1, bad[k].dep,
                              &st);
        check(rc == bad[k].code && st.index == bad[k].index && !strcmp(st.arg, bad[k].arg) &&
                  st.code == bad[k].code,
              "%s", bad[k].what);
    }
    check(bal_factor_check(2, pdims, coords, 2, extent, 1, dep, &st) == 0 && st.index == -1 &&
              st.code == BAL_OK,
          "valid arguments pass, index -1");
}

/* A block volume past int64 is an error, not garbage. */
static void test_factor_overflow(void)
{
    double b;
    int p1[3] = {1, 1, 1};
    int64_t huge[3] = {INT64_C(1) << 40, INT64_C(1) << 20, INT64_C(1) << 10};
    int64_t d3[3] = {1, 1, 1};
    int c0[3] = {0, 0, 0};
    check(bal_factor(&paper, 3, p1, c0, 2, huge, 2, d3, &b, NULL) == BAL_ERR_OVERFLOW &&
              bal_factor(&paper, 3, p1, NULL, 2, huge, 2, d3, &b, NULL) == BAL_ERR_OVERFLOW,
          "a block volume past int64 gives BAL_ERR_OVERFLOW, not garbage");
}

static void test_split(void)
{
    int64_t counts[70], c2[4], first, count;
    int k, bad = 0, badpart = 0, rc;
    for (k = 0; k < 20000; k++) {
        int parts = (int)irand(1, 64), i;
        int64_t total = k % 5 == 0 ? irand(0, 80) : irand(0, 2000000), sum = 0, mn, mx;
        double b = k % 7 == 0 ? (double)irand(0, 1) : urand(), ideal;
        if (k % 1000 == 1)
            total = INT64_C(1) << 50;
        ideal = b * (double)total / parts;
        if (bal_split(total, parts, b, counts) != 0) {
            bad++;
            continue;
        }
        mn = INT64_MAX;
        mx = -1;
        for (i = 0; i < parts; i++) {
            sum += counts[i];
            if (counts[i] < 0)
                bad++;
            if (i > 0 && counts[i] < mn)
                mn = counts[i];
            if (i > 0 && counts[i] > mx)
                mx = counts[i];
        }
        if (sum != total)
            bad++;
        if (parts == 1 && counts[0] != total)
            bad++;
        if (parts > 1) {
            if (fabs((double)counts[0] - ideal) >= 1.0)
                bad++;
            if (mx - mn > 1)
                bad++;
            /* no part gets 0 unless it must */
            if (total >= parts && (mn == 0 || (b > 0 && counts[0] == 0)))
                bad++;
        }
        /* bal_split_part gives the same counts and contiguous ranges */
        for (i = 0, sum = 0; i < parts; i++) {
            rc = bal_split_part(total, parts, b, i, &first, &count);
            if (rc != 0 || first != sum || count != counts[i])
                badpart++;
            sum += counts[i];
        }
        if (bad > 0 || badpart > 0) {
            check_note("split failed at total %lld parts %d bal %.17g", (long long)total, parts,
                       b);
            break;
        }
    }
    check(bad == 0, "bal_split: exact sum, master within 1 of bal*total/parts, others within 1 of "
                    "each other, no needless 0, %d random cases",
          k);
    check(badpart == 0, "bal_split_part agrees with bal_split and the ranges are contiguous");
    /* by hand: 10 over 4 at bal 1: ideal 2.5 -> 3 (half up), rest 7 -> 3,2,2 */
    rc = bal_split(10, 4, 1.0, c2);
    check(rc == 0 && c2[0] == 3 && c2[1] == 3 && c2[2] == 2 && c2[3] == 2,
          "bal_split(10, 4, 1) = 3,3,2,2");
    /* 2048 over 2 at bal 0.9: ideal 921.6 -> 922, other 1126 */
    rc = bal_split(2048, 2, 0.9, c2);
    check(rc == 0 && c2[0] == 922 && c2[1] == 1126, "bal_split(2048, 2, 0.9) = 922,1126");
    rc = bal_split(100, 4, 0.0, c2);
    check(rc == 0 && c2[0] == 0 && c2[1] == 34 && c2[2] == 33 && c2[3] == 33,
          "bal = 0: the master gets nothing, 34,33,33");
    rc = bal_split(100, 4, 0.001, c2);
    check(rc == 0 && c2[0] == 1, "bal = 0.001 on 100 points: the master still gets 1 point");
    rc = bal_split(3, 4, 1.0, c2);
    check(rc == 0 && c2[0] + c2[1] + c2[2] + c2[3] == 3, "total < parts: sum still exact");
    check(bal_split(-1, 4, 1, c2) == BAL_ERR_TOTAL && bal_split(10, 0, 1, c2) == BAL_ERR_PARTS &&
              bal_split(10, 4, 1.5, c2) == BAL_ERR_BAL && bal_split(10, 4, -0.1, c2) == BAL_ERR_BAL &&
              bal_split(10, 4, NAN, c2) == BAL_ERR_BAL && bal_split(10, 4, 1, NULL) == BAL_ERR_NULL &&
              bal_split_part(10, 4, 1, 4, &first, &count) == BAL_ERR_PART &&
              bal_split_part(10, 4, 1, -1, &first, &count) == BAL_ERR_PART,
          "bal_split rejects total < 0, parts < 1, bal outside [0,1] or NaN, NULL, bad part");
}

static void test_lemma2(void)
{
    double nx = -1;
    int rc, k, bad = 0;
    /* bal 0.9, T 2, master 0.45 s computing, 0.1 s communicating:
     * 1 - 0.9 * 1/2 * 0.1/0.45 = 1 - 0.1 = 0.9 */
    rc = bal_lemma2(0.9, 2, 0.45, 0.1, &nx);
    check(rc == 0 && close_to(nx, 0.9, 1e-14), "eq. 2 by hand: 0.9, T 2, 0.45/0.1 -> 0.9");
    /* bal 1, T 4, 0.25 s and 0.05 s: 1 - 1 * 3/4 * 0.2 = 0.85 */
    rc = bal_lemma2(1.0, 4, 0.25, 0.05, &nx);
    check(rc == 0 && close_to(nx, 0.85, 1e-14), "eq. 2 by hand: 1, T 4, 0.25/0.05 -> 0.85");
    rc = bal_lemma2(1.0, 2, 0.1, 1.0, &nx);
    check(rc == 0 && nx == 0.0, "eq. 2 clamps below 0 to 0");
    rc = bal_lemma2(0.5, 1, 0.1, 1.0, &nx);
    check(rc == 0 && nx == 1.0, "eq. 2 with T = 1 gives 1");
    rc = bal_lemma2(0.0, 2, 0.0, 1.0, &nx);
    check(rc == BAL_ERR_NOINFO && nx == 0.0, "eq. 2 with tcomp_master 0: BAL_ERR_NOINFO, bal kept");
    check(bal_lemma2(1.2, 2, 1, 1, &nx) == BAL_ERR_BAL && bal_lemma2(0.5, 0, 1, 1, &nx) == BAL_ERR_THREADS &&
              bal_lemma2(0.5, 2, -1, 1, &nx) == BAL_ERR_TIME &&
              bal_lemma2(0.5, 2, 1, -1e-9, &nx) == BAL_ERR_TIME &&
              bal_lemma2(0.5, 2, NAN, 1, &nx) == BAL_ERR_TIME &&
              bal_lemma2(0.5, 2, 1, 1, NULL) == BAL_ERR_NULL,
          "eq. 2 rejects bal outside [0,1], T = 0, negative or NaN times, NULL");
    /* Under its model (master computation proportional to bal, communication
     * fixed) eq. 2 lands on the optimum of eq. 1 from any starting bal. */
    for (k = 0; k < 2000; k++) {
        int T = (int)irand(2, 32);
        double work = 1e-3 * (0.1 + urand()), comm = work * urand() / T, b0 = 0.05 + 0.95 * urand();
        double opt = 1 - (T - 1) * comm / work;
        if (bal_lemma2(b0, T, b0 / T * work, comm, &nx) != 0 || !close_to(nx, opt, 1e-12))
            bad++;
    }
    check(bad == 0, "eq. 2 gives the eq. 1 optimum in one step under its model, 2000 random cases");
}

/* The synthetic process of the adaptive tests: each step updates `total`
 * points at t1 seconds each, split by bal_split over T threads; the master
 * computes counts[0] * t1 and communicates comm seconds, independent of the
 * split (Lemma 2's assumption).  Optimum: b* = 1 - (T-1) comm / (total t1),
 * clamped to [0,1]. */
static double opt_of(int T, double comm, double work)
{
    double b = 1 - (T - 1) * comm / work;
    return b < 0 ? 0 : (b > 1 ? 1 : b);
}

/* bal_adaptive_step() as the checks below read it: 1 when st->bal changed,
 * 0 when not, minus the error code on an error. */
static int step_changed(bal_adaptive *st, double tcomp_master, double tcomm_master)
{
    int rc = bal_adaptive_step(st, tcomp_master, tcomm_master);
    return rc != BAL_OK ? -rc : st->changed;
}

static int feed(bal_adaptive *st, int64_t total, double t1, double comm, double noise)
{
    int64_t counts[64] = {0};
    double f1 = 1, f2 = 1;
    bal_split(total, st->threads, st->bal, counts);
    if (noise > 0) {
        f1 = 1 + noise * (urand() - 0.5);
        f2 = 1 + noise * (urand() - 0.5);
    }
    return step_changed(st, (double)counts[0] * t1 * f1, comm * f2);
}

/* The sampling period, and the paper's scheme (one evaluation). */
static void test_adaptive_paper(void)
{
    bal_adaptive st;
    int64_t w = 0, s;
    int rc, changes = 0, bad = 0;
    const double work = 1e-3;

    check(bal_sampling_steps(8, 2, &w) == 0 && w == 32,
          "sampling period 2PT = 32 steps for P = 8, T = 2 (the paper's example)");
    check(bal_sampling_steps(0, 2, &w) == BAL_ERR_PROCS && bal_sampling_steps(8, 0, &w) == BAL_ERR_THREADS,
          "sampling period rejects procs or threads < 1");

    /* 1. The paper's scheme: sample 2PT steps from bal0 = 1, apply eq. 2 once.
     * Continuous master time bal/T * work, comm 2e-4, T 2: b* = 0.8. */
    rc = bal_adaptive_init(&st, 1.0, 2, 32, 0, 1.0);
    for (s = 1; s <= 200 && rc >= 0; s++) {
        rc = step_changed(&st, st.bal / 2 * work, 2e-4);
        if (rc == 1) {
            changes++;
            if (s != 32)
                bad++;
        }
    }
    check(rc >= 0 && changes == 1 && bad == 0 && close_to(st.bal, 0.8, 1e-12) && st.done,
          "paper mode: one change, at step 2PT = 32, straight to the optimum 0.8 (got %.12f)",
          st.bal);
}

/* Periodic smoothed evaluation: convergence, drift, a communication-bound
 * phase and the recovery (one state throughout). */
static void test_adaptive_tracking(void)
{
    bal_adaptive st;
    int64_t s;
    int rc;
    const int64_t total = 10000;
    const double t1 = 1e-7, work = 1e-3; /* total * t1 */
    double maxlag = 0, b;

    /* 2. Periodic, smoothed, integer split: T 4, comm 1.5e-4: b* = 0.55. */
    rc = bal_adaptive_init(&st, 1.0, 4, 16, 32, 0.5);
    for (s = 0; s < 2000 && rc >= 0; s++)
        rc = feed(&st, total, t1, 1.5e-4, 0);
    check(rc >= 0 && fabs(st.bal - 0.55) < 0.005,
          "smoothing 0.5, period 32: converges to the optimum 0.55 from 1 (got %.5f after %lld "
          "evaluations)",
          st.bal, (long long)st.evaluations);

    /* 3. Drift: comm ramps 1.5e-4 -> 2.5e-4 over 6400 steps (b* 0.55 -> 0.25);
     * the factor follows with a small lag, then settles. */
    for (s = 0; s < 6400 && rc >= 0; s++) {
        double c = 1.5e-4 + 1e-4 * (double)s / 6400;
        rc = feed(&st, total, t1, c, 0);
        if (s > 320 && fabs(st.bal - opt_of(4, c, work)) > maxlag)
            maxlag = fabs(st.bal - opt_of(4, c, work));
    }
    for (s = 0; s < 1000 && rc >= 0; s++)
        rc = feed(&st, total, t1, 2.5e-4, 0);
    check(rc >= 0 && maxlag < 0.02 && fabs(st.bal - 0.25) < 0.005,
          "drifting comm cost: tracked within %.4f during the ramp, settles at %.4f (b* 0.25)",
          maxlag, st.bal);

    /* 4. A jump to communication-bound (b* < 0): the factor stops at the
     * floor min_bal, the master still measures, and it recovers when the
     * communication drops again (b* = 1 - 3*1e-4/1e-3 = 0.7). */
    for (s = 0; s < 1000 && rc >= 0; s++)
        rc = feed(&st, total, t1, 1e-3, 0);
    b = st.bal;
    for (s = 0; s < 2000 && rc >= 0; s++)
        rc = feed(&st, total, t1, 1e-4, 0);
    check(rc >= 0 && b >= BAL_ADAPTIVE_MIN_BAL && b < BAL_ADAPTIVE_MIN_BAL + 0.003 &&
              fabs(st.bal - 0.7) < 0.005,
          "communication-bound phase: floor %.3f, then recovers to %.4f (b* 0.7)", b, st.bal);
}

/* A start at 0 and noisy timings. */
static void test_adaptive_start_noise(void)
{
    bal_adaptive st;
    int64_t s;
    int rc;
    const int64_t total = 10000;
    const double t1 = 1e-7;

    /* 5. Start at 0: the master computes nothing, eq. 2 has no information;
     * the factor is raised to the floor, then converges (T 2, comm 1e-4:
     * b* = 0.9). */
    rc = bal_adaptive_init(&st, 0.0, 2, 8, 8, 1.0);
    for (s = 0; s < 8 && rc >= 0; s++)
        rc = feed(&st, total, t1, 1e-4, 0);
    check(rc == 1 && st.bal == BAL_ADAPTIVE_MIN_BAL && st.last_target == -1.0,
          "start at 0: first evaluation raises the factor to the floor");
    for (s = 0; s < 200 && rc >= 0; s++)
        rc = feed(&st, total, t1, 1e-4, 0);
    check(rc >= 0 && fabs(st.bal - 0.9) < 0.002, "start at 0: then converges to 0.9 (got %.4f)",
          st.bal);

    /* 6. Noisy timings (+-5% each, deterministic): smoothing 0.3 keeps the
     * factor near b* = 0.55; mean and spread over the last 100 evaluations. */
    {
        double sum = 0, dev = 0;
        int ev = 0;
        rc = bal_adaptive_init(&st, 0.8, 4, 16, 16, 0.3);
        for (s = 0; s < 16 * 300 && rc >= 0; s++) {
            rc = feed(&st, total, t1, 1.5e-4, 0.1);
            if (s >= 16 * 200 && (s + 1) % 16 == 0) {
                sum += st.bal;
                ev++;
                if (fabs(st.bal - 0.55) > dev)
                    dev = fabs(st.bal - 0.55);
            }
        }
        check(rc >= 0 && fabs(sum / ev - 0.55) < 0.01 && dev < 0.05,
              "noisy times: mean %.4f (b* 0.55), max deviation %.4f over %d evaluations", sum / ev,
              dev, ev);
    }
}

/* The window between evaluations and the deadband. */
static void test_adaptive_window(void)
{
    bal_adaptive st;
    int64_t s;
    int rc;
    const double work = 1e-3;

    /* 7. The window: period 100, sample_steps 10.  After the first evaluation
     * (step 10) only steps 101..110 count for the second: steps 11..100 with
     * absurd communication must be ignored. */
    rc = bal_adaptive_init(&st, 1.0, 2, 10, 100, 1.0);
    for (s = 1; s <= 110 && rc >= 0; s++) {
        double c = (s > 10 && s <= 100) ? 1.0 : 2e-4;
        rc = step_changed(&st, st.bal / 2 * work, c);
    }
    check(rc >= 0 && st.evaluations == 2 && close_to(st.bal, 0.8, 1e-12),
          "period 100, window 10: steps between windows are ignored (bal %.6f, %lld evaluations)",
          st.bal, (long long)st.evaluations);

    /* 8. The deadband: a change smaller than it is not applied. */
    rc = bal_adaptive_init(&st, 0.8, 2, 4, 4, 1.0);
    for (s = 0; s < 4 && rc >= 0; s++)
        rc = step_changed(&st, 0.8 / 2 * work, 2.0005e-4); /* b* = 0.7999.. */
    check(rc == 0 && st.bal == 0.8 && st.changes == 0,
          "changes within the deadband (%.0e) are not applied", BAL_ADAPTIVE_DEADBAND);
}

/* Bad arguments and a bad state. */
static void test_adaptive_errors(void)
{
    bal_adaptive st;
    int64_t s;

    check(bal_adaptive_init(&st, 1.1, 2, 4, 4, 1) == BAL_ERR_BAL &&
              bal_adaptive_init(&st, 1, 0, 4, 4, 1) == BAL_ERR_THREADS &&
              bal_adaptive_init(&st, 1, 2, 0, 4, 1) == BAL_ERR_SAMPLESTEPS &&
              bal_adaptive_init(&st, 1, 2, 4, -1, 1) == BAL_ERR_PERIOD &&
              bal_adaptive_init(&st, 1, 2, 4, 4, 0) == BAL_ERR_SMOOTHING &&
              bal_adaptive_init(&st, 1, 2, 4, 4, 1.5) == BAL_ERR_SMOOTHING &&
              bal_adaptive_init(NULL, 1, 2, 4, 4, 1) == BAL_ERR_NULL,
          "bal_adaptive_init rejects bad bal0, threads, sample_steps, period, smoothing, NULL");
    bal_adaptive_init(&st, 1.0, 2, 4, 4, 1.0);
    s = st.step;
    check(bal_adaptive_step(&st, -1e-3, 0) == BAL_ERR_TIME && bal_adaptive_step(&st, 1e-3, NAN) == BAL_ERR_TIME &&
              st.step == s,
          "bal_adaptive_step rejects negative or NaN times and does not count the step");
    st.min_bal = 2;
    check(bal_adaptive_step(&st, 1e-3, 0) == BAL_ERR_STATE, "bal_adaptive_step rejects min_bal > 1");
}

static void test_fits(void)
{
    double x[8], y[8], tc = 0, secs[5], its[5];
    tilehybrid_fit f;
    int i, rc;
    /* exact affine data: y = 5e-6 + 2e-9 x */
    for (i = 0; i < 8; i++) {
        x[i] = i * 1000.0;
        y[i] = 5e-6 + 2e-9 * x[i];
    }
    rc = tilehybrid_fit_affine(x, y, 8, &f);
    check(rc == 0 && close_to(f.intercept, 5e-6, 1e-9) && close_to(f.slope, 2e-9, 1e-9) &&
              f.r2 > 1 - 1e-12 && f.max_resid < 1e-15 && f.n == 8,
          "affine fit of exact data: intercept 5e-6, slope 2e-9, r2 1");
    /* a kink (like an eager/rendezvous switch) shows in r2 and max_resid */
    y[7] += 2e-5;
    rc = tilehybrid_fit_affine(x, y, 8, &f);
    check(rc == 0 && f.r2 < 0.999 && f.max_resid > 5e-6,
          "affine fit reports a poor fit: r2 %.4f, max residual %.2e s", f.r2, f.max_resid);
    {
        bal_model m = paper;
        tilehybrid_fit g = {5e-6, 2e-9, 1, 0, 8};
        rc = bal_model_set_comm(&m, &g);
        check(rc == 0 && m.tstartup == 5e-6 && close_to(m.bandwidth, 5e8, 1e-12) &&
                  m.tcomp == paper.tcomp,
              "model from a comm fit: tstartup = intercept, bandwidth = 1/slope bytes/s");
        g.intercept = -1e-7;
        rc = bal_model_set_comm(&m, &g);
        check(rc == 0 && m.tstartup == 0, "a slightly negative intercept gives tstartup 0");
        g.slope = 0;
        check(bal_model_set_comm(&m, &g) == BAL_ERR_FIT && m.tstartup == 0,
              "a zero slope is rejected, model untouched");
    }
    check(tilehybrid_fit_affine(x, y, 1, &f) == TILEHYBRID_ERR_SAMPLES, "affine fit needs 2 samples");
    for (i = 0; i < 8; i++)
        x[i] = 3;
    check(tilehybrid_fit_affine(x, y, 8, &f) == TILEHYBRID_ERR_SAMPLES, "affine fit rejects all-equal x");
    /* t_comp(1): 288 ns per point, timed at several tile sizes */
    for (i = 0; i < 5; i++) {
        its[i] = 1000.0 * (i + 1);
        secs[i] = 288e-9 * its[i];
    }
    rc = bal_fit_tcomp(secs, its, 5, &tc, &f);
    check(rc == 0 && close_to(tc, 288e-9, 1e-12) && f.intercept == 0 && f.r2 > 1 - 1e-12,
          "t_comp fit through the origin recovers 288 ns");
    rc = bal_fit_tcomp(secs, its, 1, &tc, NULL);
    check(rc == 0 && close_to(tc, 288e-9, 1e-12), "t_comp from a single sample");
    its[2] = 0;
    check(bal_fit_tcomp(secs, its, 5, &tc, NULL) == BAL_ERR_SAMPLES, "t_comp fit rejects 0 iterations");
    its[2] = 3000;
    secs[1] = -1;
    check(bal_fit_tcomp(secs, its, 5, &tc, NULL) == BAL_ERR_SAMPLES, "t_comp fit rejects negative time");
    for (i = 0; i < 5; i++)
        secs[i] = 0;
    check(bal_fit_tcomp(secs, its, 5, &tc, NULL) == BAL_ERR_FIT,
          "t_comp fit rejects all-zero times (below the clock resolution)");
}

static void test_env(void)
{
    bal_model m = {1, 2, 3, 4};
    int found = -1, rc;
    double v;
    unsetenv("TILEHYBRID_TCOMP");
    unsetenv("TILEHYBRID_TSTARTUP");
    unsetenv("TILEHYBRID_BANDWIDTH");
    unsetenv("TILEHYBRID_ELEM_BYTES");
    rc = bal_model_from_env(&m, &found);
    check(rc == 0 && found == 0 && m.tcomp == 1 && m.elem_bytes == 4,
          "environment unset: model untouched");
    setenv("TILEHYBRID_TCOMP", "288e-9", 1);
    setenv("TILEHYBRID_BANDWIDTH", "12.5E6", 1);
    rc = bal_model_from_env(&m, &found);
    check(rc == 0 && found == (BAL_HAVE_TCOMP | BAL_HAVE_BANDWIDTH) && m.tcomp == 288e-9 &&
              m.bandwidth == 12.5e6 && m.tstartup == 2,
          "TILEHYBRID_TCOMP, TILEHYBRID_BANDWIDTH read; others untouched");
    setenv("TILEHYBRID_TSTARTUP", "0", 1);
    setenv("TILEHYBRID_ELEM_BYTES", "8", 1);
    rc = bal_model_from_env(&m, &found);
    check(rc == 0 && found == 15 && m.tstartup == 0 && m.elem_bytes == 8,
          "TILEHYBRID_TSTARTUP 0 allowed, TILEHYBRID_ELEM_BYTES read");
    setenv("TILEHYBRID_TCOMP", "288ns", 1);
    rc = bal_model_from_env(&m, NULL);
    check(rc == BAL_ERR_ENV_TCOMP, "TILEHYBRID_TCOMP=288ns rejected: %s", bal_strerror(rc));
    setenv("TILEHYBRID_TCOMP", "288e-9", 1);
    setenv("TILEHYBRID_BANDWIDTH", "0", 1);
    check(bal_model_from_env(&m, NULL) == BAL_ERR_ENV_BANDWIDTH, "TILEHYBRID_BANDWIDTH=0 rejected");
    setenv("TILEHYBRID_BANDWIDTH", "1e6", 1);
    setenv("TILEHYBRID_TSTARTUP", "-1e-6", 1);
    check(bal_model_from_env(&m, NULL) == BAL_ERR_ENV_TSTARTUP, "TILEHYBRID_TSTARTUP=-1e-6 rejected");
    setenv("TILEHYBRID_TSTARTUP", "1e-6", 1);
    setenv("TILEHYBRID_ELEM_BYTES", "", 1);
    check(bal_model_from_env(&m, NULL) == BAL_ERR_ENV_ELEM_BYTES, "empty TILEHYBRID_ELEM_BYTES rejected");
    unsetenv("TILEHYBRID_TCOMP");
    unsetenv("TILEHYBRID_TSTARTUP");
    unsetenv("TILEHYBRID_BANDWIDTH");
    unsetenv("TILEHYBRID_ELEM_BYTES");
    /* the one number rule (tilehybrid_parse_double) for every variable */
    {
        static const char *const bad[] = {" 1", "1 ", "0x10", "0x1p-3", "+1", "inf", "nan",
                                          "1e999", "1e-999", "1.2.3", "e5", "", "abc", "1e-400"};
        size_t k;
        int rejected = 0;
        for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            setenv("TILEHYBRID_TCOMP", bad[k], 1);
            if (bal_model_from_env(&m, NULL) == BAL_ERR_ENV_TCOMP)
                rejected++;
            else
                check_note("TILEHYBRID_TCOMP='%s' accepted", bad[k]);
        }
        check(rejected == (int)(sizeof bad / sizeof bad[0]),
              "TILEHYBRID_TCOMP: spaces, hex, '+', inf, nan, overflow, underflow, garbage "
              "rejected (%d of %d)", rejected, (int)(sizeof bad / sizeof bad[0]));
        setenv("TILEHYBRID_TCOMP", "1.5e-3", 1);
        setenv("TILEHYBRID_TSTARTUP", "1e-310", 1);
        rc = bal_model_from_env(&m, &found);
        v = m.tstartup;
        check(rc == 0 && m.tcomp == 1.5e-3 && v > 0 && v < 1e-300,
              "plain decimals read; a subnormal (1e-310) is a number");
        unsetenv("TILEHYBRID_TCOMP");
        unsetenv("TILEHYBRID_TSTARTUP");
    }
}

int main(void)
{
    test_model();
    test_fig2();
    test_3d_hand();
    test_factor_edges();
    test_factor_random();
    test_strerror();
    test_factor_errors();
    test_factor_check();
    test_factor_overflow();
    test_split();
    test_lemma2();
    test_adaptive_paper();
    test_adaptive_tracking();
    test_adaptive_start_noise();
    test_adaptive_window();
    test_adaptive_errors();
    test_fits();
    test_env();
    return check_exit();
}
