/* tests/mpi_tiling_height.c -- the tile height the plan chooses (issue 13).
 *
 *  - tile_height_best() against a brute-force sweep of tile_height_time()
 *    over every z (random spaces, grids, threads, costs, cache bounds);
 *  - a plan with cfg.tile_height = 0 whose ranks see different costs
 *    (TILEHYBRID_TCOMP differs per rank) still runs one height on every rank,
 *    the slowest rank's t_comp, the model's minimum for those costs;
 *  - with t_comp measured at creation, the first run times the body and the
 *    next run uses the model's new height (re-sized), the values still the
 *    sequential loop's bit for bit;
 *  - a given height is kept, with a prediction; a negative one is refused;
 *  - the caches read from a Linux sysfs tree (a fake one: data and unified
 *    caches, not instruction ones; K, M and plain sizes; garbage skipped).
 * Run at 1-4 processes by tests/run.sh. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L     /* setenv, unsetenv, mkdtemp */
#endif
#include <mpi.h>

#include "../tiling.h"
#include "check.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define X0 24
#define X1 40
#define ZL 300
#define SLOW 64     /* the slow body's extra operations per point */

static int nprocs, myrank;

static uint64_t rnd_state = 88172645463325252ULL;
static uint64_t rnd(uint64_t n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return n ? rnd_state % n : 0;
}

/* 10^(lo + (hi - lo) u), u uniform in [0, 1). */
static double rnd_log(double lo, double hi)
{
    double e = lo + (hi - lo) * (double)rnd(1000000) / 1e6, v = 1.0;
    int i;
    for (i = 0; i < (int)(e < 0 ? -e : e); i++)
        v = e < 0 ? v / 10.0 : v * 10.0;
    return v * (1.0 + 9.0 * (double)rnd(1000) / 1000.0);
}

static void random_model(tile_height_model *m)
{
    int64_t ext[3], dep[3];
    int n = 1 + (int)rnd(3), i;
    memset(m, 0, sizeof *m);
    for (i = 0; i < n; i++) {
        ext[i] = 1 + (int64_t)rnd(300);
        dep[i] = (int64_t)rnd(3);
        m->dims[i] = 1 + (int)rnd((uint64_t)(ext[i] < 6 ? ext[i] : 6));
    }
    topo_nest_init(&m->nest, n, ext, 1 + (int64_t)rnd(rnd(4) == 0 ? 20 : 2500), dep, NULL);
    m->nest.tcomp = rnd_log(-10, -6);
    m->nest.tstartup = rnd(5) == 0 ? 0.0 : rnd_log(-7, -3);
    m->nest.bandwidth = rnd_log(6, 11);
    m->threads = 1 + (int)rnd(4);
    m->skew = (int64_t)rnd(4);
    m->zmax = rnd(3) == 0 ? 1 + (int64_t)rnd(400) : INT64_MAX;
    m->tsync = rnd(2) == 0 ? 0.0 : rnd_log(-7, -4);
}

/* The sweep: the least time over every z, and the largest z of the form
 * ceil(Z/k) whose time is within a relative 1e-12 of it. */
static int sweep(const tile_height_model *m, int64_t *zb, double *tb)
{
    int64_t Z = m->nest.zlen, zh = m->zmax < Z ? m->zmax : Z, z;
    double t, best = 0.0;
    for (z = 1; z <= zh; z++) {
        if (tile_height_time(m, z, &t, NULL, NULL) != TILE_OK)
            return 0;
        if (z == 1 || t < best)
            best = t;
    }
    for (z = 1; z <= zh; z++) {
        int64_t k = (Z + z - 1) / z;
        tile_height_time(m, z, &t, NULL, NULL);
        if (t <= best * (1.0 + 1e-12) && z == (Z + k - 1) / k)
            *zb = z;
    }
    *tb = best;
    return 1;
}

static void test_best_vs_sweep(void)
{
    int c, bad = 0, ok;
    for (c = 0; c < 400; c++) {
        tile_height_model m;
        int64_t z = 0, zb = 0;
        double t = 0, tb = 0;
        random_model(&m);
        ok = sweep(&m, &zb, &tb) && tile_height_best(&m, &z, &t, NULL) == TILE_OK;
        if (!ok || z != zb || t > tb * (1.0 + 1e-12)) {
            if (bad++ < 5)
                check_note("case %d: Z %lld, zmax %lld: model z %lld (T %.17g), sweep z %lld "
                           "(T %.17g)", c, (long long)m.nest.zlen, (long long)m.zmax,
                           (long long)z, t, (long long)zb, tb);
        }
    }
    check(bad == 0, "tile_height_best() gives the sweep's minimum over every z in 400 "
          "random models (%d differ)", bad);
}

static void test_model_cases(void)
{
    tile_height_model m;
    int64_t ext[2] = { 64, 256 }, dep[2] = { 1, 1 }, z = 0;
    double t = 0, e = 0, t1 = 0;
    int ok;
    tilehybrid_status st;
    memset(&m, 0, sizeof m);
    memset(&st, 0, sizeof st);
    st.arg = "";
    topo_nest_init(&m.nest, 2, ext, 16384, dep, NULL);
    m.dims[0] = m.dims[1] = 1;
    m.threads = 1;
    m.zmax = INT64_MAX;
    /* one process: no fill, every height ties: the largest, Z */
    /* (each result computed before check(): its arguments are evaluated in
     * any order) */
    ok = tile_height_best(&m, &z, &t, NULL) == TILE_OK &&
         tile_height_efficiency(&m, t, &e) == TILE_OK;
    check(ok && z == 16384 && e > 0.999999 && e <= 1.0000001,
          "one process: z = Z (%lld), efficiency 1 (%.9f)", (long long)z, e);
    /* the cache bound: the fewest tiles under it, ceil(Z/1000) = 17, each
     * as even as can be (the last tile counts at its own height, so every z
     * of 17 tiles ties: the smallest, ceil(Z/17) = 964) */
    m.zmax = 1000;
    ok = tile_height_best(&m, &z, &t, NULL) == TILE_OK;
    check(ok && z == 964, "one process, cache bound 1000: 17 even tiles, z = 964 (%lld)",
          (long long)z);
    /* Z odd: the short last tile costs its own planes, so a height of 2
     * costs no more than 1 (it counted Z + 1 planes before, and lost) */
    m.nest.zlen = 16383;
    m.zmax = 2;
    ok = tile_height_best(&m, &z, &t, NULL) == TILE_OK &&
         tile_height_time(&m, 1, &t1, NULL, NULL) == TILE_OK;
    check(ok && z == 2 && t <= t1 * (1 + 1e-12) && t >= t1 * (1 - 1e-12),
          "one process, Z odd, bound 2: z = 2 (%lld), T(2) = T(1) "
          "(%.17g, %.17g)", (long long)z, t, t1);
    m.nest.zlen = 16384;
    /* two processes: the fill against the startups, z* = sqrt(Z B / (F A)) */
    m.zmax = INT64_MAX;
    m.dims[1] = 2;
    m.nest.tcomp = 1e-9;
    m.nest.tstartup = 1e-5;
    m.nest.bandwidth = 1e10;
    tile_height_time(&m, 1, &t1, NULL, NULL);
    ok = tile_height_best(&m, &z, &t, NULL) == TILE_OK;
    check(ok && z > 10 && z < 1000 && t < t1,
          "two processes: an inner minimum (z %lld, %.4g s against %.4g s at z = 1)",
          (long long)z, t, t1);
    ok = tile_height_time(&m, 0, &t, NULL, &st) == TILE_ERR_TILE_HEIGHT;
    check(ok && strcmp(st.arg, "z") == 0, "z = 0 is refused (%s)", st.arg);
    m.nest.tcomp = -1;
    ok = tile_height_best(&m, &z, &t, &st) == TILE_ERR_BALANCE;
    check(ok && strcmp(st.arg, "tcomp") == 0, "a negative t_comp is refused, naming it (%s)",
          st.arg);
    m.nest.tcomp = 1e-9;
    m.tsync = -1e-6;
    ok = tile_height_best(&m, &z, &t, &st) == TILE_ERR_BALANCE;
    check(ok && strcmp(st.arg, "tsync") == 0, "a negative t_sync is refused, naming it (%s)",
          st.arg);
    /* one process of two threads (skew 1), no messages: without a barrier
     * cost the skew's fill step favours z = 1; a barrier per step moves the
     * minimum inward, to about sqrt(Z t_sync / t_plane) */
    m.dims[1] = 1;
    m.threads = 2;
    m.skew = 1;
    m.tsync = 0.0;
    ok = tile_height_best(&m, &z, &t, NULL) == TILE_OK;
    check(ok && z == 1, "two threads, no barrier cost: z = 1 (%lld)", (long long)z);
    m.tsync = 2e-6;     /* t_plane = 1e-9 * 64 * 256 / 2 = 8.2e-6 s: z* = 63 */
    ok = tile_height_best(&m, &z, &t, NULL) == TILE_OK;
    check(ok && z >= 40 && z <= 100, "two threads, a 2 us barrier per step: z near "
          "sqrt(Z t_sync / t_plane) = 63 (%lld)", (long long)z);
    {   /* Z = 2^63 - 2 at z = 5: the short last tile (1 plane) is costed
         * as one step of its own, not as a run of Z tiles of 1 plane */
        tile_height_model h = m;
        int64_t e1[1] = { 4 }, d1[1] = { 1 }, steps = 0;
        topo_nest_init(&h.nest, 1, e1, INT64_MAX - 1, d1, NULL);
        h.nest.tcomp = 1e-9;
        h.nest.tstartup = 1e-5;
        h.nest.bandwidth = 1e10;
        h.dims[0] = 2;
        h.threads = 1;
        h.skew = 1;
        h.tsync = 0.0;
        ok = tile_height_time(&h, 5, &t, &steps, &st) == TILE_OK;
        check(ok && steps == (INT64_MAX - 2) / 5 + 1 + 2, "Z = 2^63 - 2, z = 5: TILE_OK, "
              "ceil(Z/5) + F + S steps (%lld; %s)", (long long)steps, ok ? "" : st.arg);
        /* the search's ceilings near 2^63 (they overflowed: a false "z"
         * error), one process row of 2 without skew: the z = 1 count fits */
        h.skew = 0;
        h.zmax = INT64_MAX;
        ok = tile_height_best(&h, &z, &t, &st) == TILE_OK;
        check(ok && z > 1 && z < INT64_MAX - 2, "Z = 2^63 - 2, 2 processes: the search "
              "finds z = %lld (%s)", (long long)z, ok ? "" : st.arg);
    }
    check(tile_height_cache_bound(1 << 20, 0, 1, 8 << 20) == 2 &&
          tile_height_cache_bound(1 << 20, 0, 1, 1 << 20) == INT64_MAX,
          "the cache bound: (S + 3) z + 2 d_Z planes fit, none when one plane does not");
    {
        tile_height_model w;
        int64_t z1, zp, zs, zf;
        memset(&w, 0, sizeof w);
        w.nest.n = 2;
        w.dims[0] = w.dims[1] = 1;
        z1 = tile_height_zmax(&w, 1 << 20, 1, 1 << 20, 16 << 20);  /* no pipeline */
        zf = tile_height_zmax(&w, 1 << 20, 1, 8 << 20, 16 << 20);  /* fits the cache */
        w.dims[1] = 2;
        zp = tile_height_zmax(&w, 1 << 20, 1, 1 << 20, 16 << 20);  /* 2 processes */
        w.dims[1] = 1;
        w.skew = 1;
        zs = tile_height_zmax(&w, 1 << 20, 1, 1 << 20, 16 << 20);  /* 2 threads */
        check(z1 == 1 && zf == 2 && zp == 4 && zs == 3 &&
              tile_height_zmax(&w, 1 << 20, 1, 1 << 20, 0) == 1 &&
              tile_height_zmax(&w, 1 << 20, 1, 1 << 20, 1 << 20) == 1,
              "tile_height_zmax: a window beyond the cache at z = 1 takes the last-level bound "
              "only with a pipeline (2 processes %lld, 2 threads %lld; one process %lld; fits "
              "the cache %lld; no last-level cache, or too small: 1)", (long long)zp,
              (long long)zs, (long long)z1, (long long)zf);
    }
    {
        tile_height_model w;
        memset(&w, 0, sizeof w);
        w.nest.n = 2;
        w.dims[0] = w.dims[1] = 1;
        w.pairs = 1;    /* planes in pairs: at least 2, never less than without */
        check(tile_height_zmax(&w, 1 << 20, 1, 1 << 20, 16 << 20) == 2 &&
              tile_height_zmax(&w, 1 << 20, 1, 6 << 20, 16 << 20) == 2 &&
              tile_height_zmax(&w, 1 << 20, 1, 8 << 20, 16 << 20) == 2 &&
              tile_height_zmax(&w, 1 << 20, 1, 11 << 20, 16 << 20) == 3 &&
              tile_height_zmax(&w, 0, 1, 1 << 20, 0) == 2,
              "tile_height_zmax with pairs: at least 2 (no bound, a bound of 1), else the bound");
        check(tile_plane_pairs(TILE_ORDER_HYPERPLANE, 0, 2) == 1 &&
              tile_plane_pairs(TILE_ORDER_HYPERPLANE, 1, 2) == 0 &&
              tile_plane_pairs(TILE_ORDER_HYPERPLANE, 0, 3) == 0 &&
              tile_plane_pairs(TILE_ORDER_PLANES, 0, 2) == 0 &&
              tile_plane_pairs(TILE_ORDER_Z_INNER, 0, 2) == 0,
              "tile_plane_pairs: the hyperplane order, no skew, N = 2 only");
    }
    {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        int64_t llc = (int64_t)36 << 20, share;
        cpus = cpus < 2 ? 2 : cpus;
        share = llc / cpus / 4 * 2;
        check(tile_height_window_bytes(1 << 20, 1, llc, 0) == 1 << 20 &&
              tile_height_window_bytes(1 << 20, 2, llc, 1) == 2 << 20 &&
              tile_height_window_bytes(1 << 20, 2, llc, 0) == (share > (2 << 20) ? share : 2 << 20) &&
              tile_height_window_bytes(1 << 20, 2, 0, 0) == 2 << 20 &&
              tile_height_window_bytes(INT64_MAX / 2, 4, llc, 1) == INT64_MAX,
              "the window's cache: T times a core's; with threads (a cache not given) at least "
              "a quarter of their level-3 share (%lld bytes of 36 MiB on %ld processors)",
              (long long)tile_height_window_bytes(1 << 20, 2, llc, 0), cpus);
    }
}

static double slow(double v)
{
    int i;
    for (i = 0; i < SLOW; i++)
        v = v * 1.0000001 / 1.0000001;
    return v;
}

/* The sequential loop's point: the ADI point, slowed down. */
static double point(const double *a, int64_t x1, int64_t zl, int64_t x, int64_t y, int64_t z)
{
    return slow(check_adi_point(a, x1, zl, x, y, z));
}

static void config(tile_config *c)
{
    tile_config_init(c, 2);
    c->extent[0] = X0;
    c->extent[1] = X1;
    c->zlen = ZL;
    c->storage = TILE_STORE_FULL;
    c->boundary = check_edge;
}

static void run(tile_plan *p)
{
    TILE_FOREACH_GROUP(p, g)
        TILE_MPI_STEP(g, it, {
            TILE_AT(double, it, 0, 0, 0) =
                slow(((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0)) +
                      TILE_AT(double, it, 0, 0, -1)) / 3.0);
        });
}

/* The model the plan used, rebuilt from its fields with the public calls. */
static void plan_model(const tile_plan *p, tile_height_model *m)
{
    int64_t ext[2], dep[2];
    int i;
    memset(m, 0, sizeof *m);
    for (i = 0; i < 2; i++) {
        ext[i] = p->deps.size[i];
        dep[i] = p->deps.d[i];
        m->dims[i] = p->pdims[i];
    }
    topo_nest_init(&m->nest, 2, ext, p->deps.size[2], dep, NULL);
    m->nest.tcomp = p->height.tcomp;
    m->nest.tstartup = p->height.tstartup;
    m->nest.bandwidth = p->height.bandwidth;
    m->threads = 1;
    m->zmax = p->height.zmax;
    m->tsync = p->height.tsync;
}

/* Every rank sees another t_comp: one height, the slowest rank's costs. */
static void test_agree(const double *a)
{
    tile_config c;
    tile_plan p;
    tile_height_model m;
    char v[32];
    int64_t zmin = 0, zmax = 0, zb = 0;
    int rc;
    snprintf(v, sizeof v, "%g", 1e-9 * (myrank + 1));
    setenv("TILEHYBRID_TCOMP", v, 1);
    setenv("TILEHYBRID_TSTARTUP", myrank % 2 ? "2e-6" : "1e-6", 1);
    setenv("TILEHYBRID_BANDWIDTH", "1e9", 1);
    config(&c);
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (rc != TILE_OK)
        check_note("rank %d: %s", myrank, p.errmsg);
    MPI_Allreduce(&p.height.z, &zmin, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&p.height.z, &zmax, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && zmin == zmax && zmin >= 1 &&
              p.cfg.tile_height == p.height.z && p.height.origin == TILE_HEIGHT_MODEL,
              "t_comp different on every rank: one height on every rank (%lld..%lld)",
              (long long)zmin, (long long)zmax);
    snprintf(v, sizeof v, "%g", 1e-9 * nprocs);    /* the last rank's, as it reads it */
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && p.height.tcomp == strtod(v, NULL) &&
              p.height.tcomp_origin == TILE_COST_ENV &&
              p.height.tstartup == (nprocs > 1 ? 2e-6 : 1e-6),
              "the slowest rank's costs: t_comp %g (expected %g), t_startup %g",
              p.height.tcomp, 1e-9 * nprocs, p.height.tstartup);
    plan_model(&p, &m);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && tile_height_best(&m, &zb, NULL, NULL) == TILE_OK &&
              zb == p.height.z && p.height.efficiency > 0 && p.height.efficiency <= 1.0,
              "the plan's height is the model's minimum for those costs (%lld, %lld), "
              "predicted efficiency %.3f", (long long)p.height.z, (long long)zb,
              p.height.efficiency);
    if (rc == TILE_OK)
        run(&p);
    check_mpi(MPI_COMM_WORLD, tile_plan_status(&p) == TILE_OK && check_same_3d(&p, a, X0, X1, ZL) &&
              p.height.next == p.height.z,
              "the chosen height runs the sequential loop's values; t_comp given: no "
              "re-choice");
    tile_plan_destroy(&p);
    unsetenv("TILEHYBRID_TCOMP");
}

/* t_comp measured at creation: the first run times the (slow) body, the
 * next one runs the model's height for it. */
static void test_rechoose(const double *a)
{
    tile_config c;
    tile_plan p;
    int64_t z0, next;
    double tcomp0;
    int rc;
    unsetenv("TILEHYBRID_TCOMP");
    config(&c);
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && p.height.tcomp_origin == TILE_COST_MEASURED &&
              !p.height.timed, "no t_comp given: measured at creation (%g s)", p.height.tcomp);
    z0 = p.height.z;
    tcomp0 = p.height.tcomp;
    if (rc == TILE_OK)
        run(&p);
    next = p.height.next;
    check_mpi(MPI_COMM_WORLD, tile_plan_status(&p) == TILE_OK && check_same_3d(&p, a, X0, X1, ZL) && p.height.timed &&
              p.height.tcomp_origin == TILE_COST_BODY && p.height.z == z0,
              "the first run times the body (t_comp %g s) and keeps its height %lld",
              p.height.tcomp, (long long)z0);
    if (nprocs > 1) {
        /* The heights are the model's minima for the probe's t_comp and for
         * the body's; which way they differ depends on this machine's
         * timing (a loaded machine may stretch the probe), so the check is
         * that the engine follows the model at both costs, and that the
         * second run below uses the new height. */
        int64_t zb0 = 0, zb = 0;
        tile_height_model m;
        plan_model(&p, &m);
        m.nest.tcomp = tcomp0;
        rc = tile_height_best(&m, &zb0, NULL, NULL);
        m.nest.tcomp = p.height.tcomp;
        if (rc == TILE_OK)
            rc = tile_height_best(&m, &zb, NULL, NULL);
        check_mpi(MPI_COMM_WORLD, rc == TILE_OK && z0 == zb0 && next == zb,
                  "a body %d operations slower: the model chooses again for the body's "
                  "t_comp (%g s, probe %g s): %lld -> %lld (the model: %lld -> %lld)", SLOW,
                  p.height.tcomp, tcomp0, (long long)z0, (long long)next, (long long)zb0,
                  (long long)zb);
        if (zb == zb0 && myrank == 0)
            check_note("the probe's and the body's t_comp give the same height here");
    } else    /* no pipeline: the whole Z (under the cache bound) whatever t_comp is */
        check(next == z0 && z0 == (ZL < p.height.zmax ? ZL : p.height.zmax),
              "one process: the height stays Z (or the cache bound): %lld -> %lld",
              (long long)z0, (long long)next);
    if (tile_plan_status(&p) == TILE_OK)
        run(&p);
    check_mpi(MPI_COMM_WORLD, tile_plan_status(&p) == TILE_OK && check_same_3d(&p, a, X0, X1, ZL) &&
              p.height.z == next && p.cfg.tile_height == next &&
              p.ntiles == (ZL + (next < ZL ? next : ZL) - 1) / (next < ZL ? next : ZL),
              "the second run uses height %lld (window re-sized, %lld tiles), bit for bit",
              (long long)p.height.z, (long long)p.ntiles);
    tile_plan_destroy(&p);
}

static int hook_nop(void *ctx, const tile_plan *p, const tile_piece *piece)
{
    (void)ctx;
    (void)p;
    (void)piece;
    return 0;
}

/* An output hook on rank 0 only (hooks are local): the re-choice waits on
 * every rank, not on rank 0 alone (the other ranks re-sized their window
 * and messages, and the second run aborted in MPI_Waitall). */
static void test_rechoose_hooked(const double *a)
{
    tile_config c;
    tile_plan p;
    int64_t z0;
    int rc, k;
    unsetenv("TILEHYBRID_TCOMP");
    config(&c);
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (rc == TILE_OK && myrank == 0)
        rc = tile_output_set(&p, hook_nop, NULL, TILE_LAYOUT_Z_LAST, NULL);
    z0 = p.height.z;
    for (k = 0; k < 2 && rc == TILE_OK; k++) {
        run(&p);
        rc = tile_plan_status(&p);
    }
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && check_same_3d(&p, a, X0, X1, ZL) &&
              p.height.z == z0 && p.height.next == z0 && p.cfg.tile_height == z0,
              "an output hook on rank 0 only: every rank keeps height %lld for the second "
              "run, bit for bit", (long long)z0);
    if (rc != TILE_OK)
        check_note("rank %d: %s", myrank, p.errmsg);
    tile_plan_destroy(&p);
}

static void test_given(void)
{
    tile_config c;
    tile_plan p;
    int rc;
    config(&c);
    c.tile_height = 7;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && p.height.z == 7 && p.cfg.tile_height == 7 &&
              p.height.origin == TILE_HEIGHT_GIVEN && p.height.seconds > 0 &&
              p.height.efficiency > 0 && p.height.efficiency <= 1.0,
              "a given height is kept, with its prediction (efficiency %.3f)",
              p.height.efficiency);
    tile_plan_destroy(&p);
    c.tile_height = -1;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_TILE_HEIGHT &&
              strstr(p.errmsg, "or 0 (the plan chooses)") != NULL,
              "a negative height is refused: %s", p.errmsg);
    tile_plan_destroy(&p);
}

#ifdef _OPENMP     /* these plans run two threads */
/* A window that does not fit the per-core cache even at z = 1 falls back
 * to the last-level cache on more than one process, never to "no bound":
 * one process, whose heights all tie, chose z = Z (the whole Z range in
 * memory) before; one process (one thread) takes 1, the smallest window. */
static void test_cache_fallback(void)
{
    tile_config c;
    tile_plan p;
    int64_t llc = 0, bound;
    int rc;
    tile_config_init(&c, 2);
    c.extent[0] = 64;
    c.extent[1] = 64;
    c.zlen = 5000;
    c.balance.tcomp = 1e-9;
    c.balance.tstartup = 1e-6;
    c.balance.bandwidth = 1e9;
    setenv("TILEHYBRID_CACHE_BYTES", "1000", 1);   /* less than one plane */
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    (void)tile_height_llc_bytes(&llc);
    bound = rc == TILE_OK ? tile_height_cache_bound(p.height.plane_bytes, p.threads.skew, 1,
                                                   llc) : -1;
    if (bound == INT64_MAX || nprocs == 1)
        bound = 1;
    if (rc == TILE_OK && tile_plane_pairs(p.store.order, p.deps.skewed, 2) && bound < 2)
        bound = 2;  /* planes in pairs */
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && p.height.z < 5000 && p.height.zmax == bound &&
              p.height.z <= bound && p.height.llc_bytes == llc,
              "a plane beyond TILEHYBRID_CACHE_BYTES: %s %lld (not Z): height %lld of Z = 5000",
              nprocs == 1 ? "one process, the smallest window (a pair of planes in the "
                            "hyperplane order): z" : "the last-level bound",
              (long long)bound, (long long)p.height.z);
    tile_plan_destroy(&p);
    /* T threads get T times the per-core cache */
    setenv("TILEHYBRID_CACHE_BYTES", "300000", 1);
    c.model = TILE_MODEL_FUNNELED;
    c.threads = 2;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && p.height.cache_bytes == 600000,
              "two threads: the window's cache is 2 x TILEHYBRID_CACHE_BYTES (%lld)",
              (long long)p.height.cache_bytes);
    tile_plan_destroy(&p);
    unsetenv("TILEHYBRID_CACHE_BYTES");
}
#endif /* _OPENMP */

/* Planes in pairs raise the bound to 2 only where a plan of height 2 fits
 * the memory limit: 64x256 on one process (planes of 185088 bytes) needs a
 * window of 4 planes at z = 1 and 7 at z = 2; a limit between the two
 * keeps z = 1 (the plan is not refused), a limit above both takes 2. */
static void test_pairs_memory(void)
{
    tile_config c;
    tile_plan p;
    int k;
    for (k = 0; k < 2; k++) {
        int rc;
        tile_config_init(&c, 2);
        c.extent[0] = 64;
        c.extent[1] = 256 * nprocs;
        c.zlen = 1000;
        c.grid[0] = 1;
        c.grid[1] = nprocs;
        c.balance.tcomp = 1e-9;
        c.balance.tstartup = 1e-6;
        c.balance.bandwidth = 1e9;
        c.order = TILE_ORDER_HYPERPLANE;
        setenv("TILEHYBRID_CACHE_BYTES", "1000000", 1);    /* a window of z = 1 only */
        c.mem_limit = k == 0 ? 1000000 : 100000000;
        rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
        check_mpi(MPI_COMM_WORLD, rc == TILE_OK && p.height.pairs == k &&
                  p.height.zmax == (k == 0 ? 1 : 2) && p.height.z <= p.height.zmax &&
                  (nprocs > 1 || p.height.z == p.height.zmax),
                  "planes in pairs, memory limit %s: bound %lld, height %lld (pairs %d)%s%s",
                  k == 0 ? "1000000 bytes (z = 2 does not fit): one plane a tile, as without "
                           "pairs" : "100000000 bytes: a pair a tile",
                  (long long)p.height.zmax, (long long)p.height.z, p.height.pairs,
                  rc == TILE_OK ? "" : ": ", rc == TILE_OK ? "" : p.errmsg);
        tile_plan_destroy(&p);
    }
    unsetenv("TILEHYBRID_CACHE_BYTES");
}

/* One cache of a fake sysfs tree: <dir>/index<i>/{level,type,size}. */
static void fake_cache(const char *dir, int i, const char *level, const char *type,
                       const char *size)
{
    const char *item[3] = { "level", "type", "size" }, *val[3];
    char path[600];
    int k;
    val[0] = level;
    val[1] = type;
    val[2] = size;
    snprintf(path, sizeof path, "%s/index%d", dir, i);
    (void)mkdir(path, 0700);
    for (k = 0; k < 3; k++) {
        FILE *f;
        if (val[k] == NULL)
            continue;
        snprintf(path, sizeof path, "%s/index%d/%s", dir, i, item[k]);
        f = fopen(path, "w");
        if (f != NULL) {
            fprintf(f, "%s\n", val[k]);
            fclose(f);
        }
    }
}

static void rm_fake(const char *dir)
{
    const char *item[3] = { "level", "type", "size" };
    char path[600];
    int i, k;
    for (i = 0; i < 8; i++) {
        for (k = 0; k < 3; k++) {
            snprintf(path, sizeof path, "%s/index%d/%s", dir, i, item[k]);
            (void)remove(path);
        }
        snprintf(path, sizeof path, "%s/index%d", dir, i);
        (void)rmdir(path);
    }
    (void)rmdir(dir);
}

/* The caches from Linux's sysfs (tile__sysfs_cache_at), which the plan
 * prefers to sysconf: glibc gave an AMD EPYC virtual machine's whole
 * package (320 MiB) as its level-3 size, the kernel the 32 MiB it has. */
static void test_sysfs_cache(void)
{
    char a[] = "/tmp/tilehybrid-sysfs-XXXXXX", b[] = "/tmp/tilehybrid-sysfs-XXXXXX";
    int64_t llc = 0;
    if (mkdtemp(a) == NULL || mkdtemp(b) == NULL) {
        check_skip("mkdtemp failed", "the sysfs cache reader");
        return;
    }
    fake_cache(a, 0, "1", "Data", "32K");
    fake_cache(a, 1, "1", "Instruction", "64K");
    fake_cache(a, 2, "2", "Unified", "1024K");
    fake_cache(a, 3, "3", "Unified", "32768K");
    check(tile__sysfs_cache_at(a, 1, NULL) == 32 << 10 && tile__sysfs_cache_at(a, 2, NULL) == 1 << 20 &&
          tile__sysfs_cache_at(a, 3, NULL) == (int64_t)32 << 20 && tile__sysfs_cache_at(a, 4, NULL) == 0,
          "sysfs caches: L1d 32K, L2 1024K, L3 32768K, no L4 (got %lld, %lld, %lld, %lld)",
          (long long)tile__sysfs_cache_at(a, 1, NULL), (long long)tile__sysfs_cache_at(a, 2, NULL),
          (long long)tile__sysfs_cache_at(a, 3, NULL), (long long)tile__sysfs_cache_at(a, 4, NULL));
    fake_cache(b, 0, "1", "Instruction", "64K");    /* an instruction cache is not counted */
    fake_cache(b, 1, "1", "Data", "48K");
    fake_cache(b, 2, "2", "Unified", "garbage");    /* skipped */
    fake_cache(b, 3, "2", "Unified", "2M");
    fake_cache(b, 4, "3", NULL, "8M");              /* no type: skipped */
    fake_cache(b, 5, "3", "Unified", "12345");
    fake_cache(b, 7, "4", "Unified", "1G");         /* after a gap: not seen */
    check(tile__sysfs_cache_at(b, 1, NULL) == 48 << 10 && tile__sysfs_cache_at(b, 2, NULL) == 2 << 20 &&
          tile__sysfs_cache_at(b, 3, NULL) == 12345 && tile__sysfs_cache_at(b, 4, NULL) == 0,
          "sysfs caches: the data cache, not the instruction one; a bad or typeless entry "
          "skipped; M and plain sizes; none after a gap (got %lld, %lld, %lld, %lld)",
          (long long)tile__sysfs_cache_at(b, 1, NULL), (long long)tile__sysfs_cache_at(b, 2, NULL),
          (long long)tile__sysfs_cache_at(b, 3, NULL), (long long)tile__sysfs_cache_at(b, 4, NULL));
    check(tile__sysfs_cache_at("/tmp/tilehybrid-no-such-dir", 2, NULL) == 0,
          "sysfs caches: a missing directory gives 0 (sysconf's figure then)");
    {
        char path[600];
        int64_t n2 = -1, n3 = -1, s3, s2;
        FILE *f;
        snprintf(path, sizeof path, "%s/index3/shared_cpu_list", a);
        if ((f = fopen(path, "w")) != NULL) {
            fputs("0-3,8-11,16\n", f);
            fclose(f);
        }
        s3 = tile__sysfs_cache_at(a, 3, &n3);
        s2 = tile__sysfs_cache_at(a, 2, &n2);
        check(s3 == (int64_t)32 << 20 && n3 == 9 && s2 == 1 << 20 && n2 == 0,
              "sysfs caches: the CPUs sharing a cache from shared_cpu_list (0-3,8-11,16: 9; "
              "none listed: 0) (got %lld, %lld)", (long long)n3, (long long)n2);
        check(tile__cpu_list_count("5") == 1 && tile__cpu_list_count("0-1") == 2 &&
              tile__cpu_list_count("") == 0 && tile__cpu_list_count("3-1") == 0 &&
              tile__cpu_list_count("0-1x") == 0 && tile__cpu_list_count("-1") == 0,
              "sysfs caches: cpu lists 5, 0-1 counted; empty, 3-1, 0-1x, -1 refused");
        (void)remove(path);
        fake_cache(b, 1, "1", "Data", "99999999999999999999K");     /* past strtoll */
        fake_cache(b, 3, "2", "Unified", "2000000000000M");          /* past 2^50 bytes */
        fake_cache(b, 5, "3", "Unified", "9223372036854775807");
        check(tile__sysfs_cache_at(b, 1, NULL) == 0 && tile__sysfs_cache_at(b, 2, NULL) == 0 &&
              tile__sysfs_cache_at(b, 3, NULL) == 0,
              "sysfs caches: sizes no cache has (past 2^50 bytes, or strtoll's range) are "
              "skipped (got %lld, %lld, %lld)", (long long)tile__sysfs_cache_at(b, 1, NULL),
              (long long)tile__sysfs_cache_at(b, 2, NULL),
              (long long)tile__sysfs_cache_at(b, 3, NULL));
    }
    rm_fake(a);
    rm_fake(b);
    (void)tile_height_llc_bytes(&llc);
    if (tile__sysfs_cache(3, NULL) > 0)
        check(llc == tile__sysfs_cache(3, NULL), "tile_height_llc_bytes() is the kernel's level-3 "
              "figure (%lld) where it has one", (long long)tile__sysfs_cache(3, NULL));
    else
        check_skip("no level-3 cache in /sys/devices/system/cpu/cpu0/cache",
                   "tile_height_llc_bytes() = the kernel's figure");
}

/* tile_plane_layout(): the layouts of the documentation, and its refusals. */
static void test_plane_layout(void)
{
    int64_t size[2] = { 64, 256 }, len[2] = { 64, 256 }, big[2] = { INT64_MAX / 2, 3 };
    int64_t huge[2] = { INT64_MAX, INT64_MAX };
    int pd[2] = { 1, 1 }, td[2] = { 1, 1 }, dep[2] = { 1, 1 }, zero[2] = { 0, 1 };
    int nodep[2] = { 0, 0 };
    tile_store s;
    int rc;
    memset(&s, 0, sizeof s);
    rc = tile_plane_layout(2, size, pd, td, len, dep, 8, TILE_ORDER_AUTO, &s);
    check(rc == TILE_OK && s.order == TILE_ORDER_HYPERPLANE && s.wave[0] == 0 &&
          s.wave[1] == 1 && s.diag == 72 && s.stride[0] == 73 && s.stride[1] == 72 &&
          s.plane_elems == (65 + 257 - 1) * 72 + 24 && s.origin == 7,
          "tile_plane_layout 64x256, d 1: diagonal-major, R = 72 (65 and the shift 7 "
          "that puts x = 1 at a line's start, rounded to lines), %lld elements",
          (long long)s.plane_elems);
    {
        int64_t l68[2] = { 68, 256 }, s68[2] = { 68, 256 };
        int d3[2] = { 3, 3 };
        rc = tile_plane_layout(2, s68, pd, td, l68, dep, 8, TILE_ORDER_AUTO, &s);
        check(rc == TILE_OK && s.diag == 80 && s.origin == 7 && s.stride[0] == 81,
              "tile_plane_layout 68x256, d 1: R = 80 (69 + 7 rounded to lines; one line more "
              "than without the shift)");
        rc = tile_plane_layout(2, size, pd, td, len, d3, 8, TILE_ORDER_AUTO, &s);
        check(rc == TILE_OK && s.diag == 72 && s.origin == 5,
              "tile_plane_layout 64x256, d 3: the shift 5 (x = 3 at a line's start), R = 72");
        rc = tile_plane_layout(2, size, pd, td, len, dep, 3, TILE_ORDER_AUTO, &s);
        check(rc == TILE_OK && s.origin == 0 && s.diag == 65,
              "tile_plane_layout, 3-byte points (no whole lines): no shift, R = 65");
        rc = tile_plane_layout(2, size, pd, td, len, dep, 8, TILE_ORDER_PLANES, &s);
        check(rc == TILE_OK && s.origin == 0, "tile_plane_layout, row-major planes: no shift");
        l68[0] = s68[0] = 17;
        l68[1] = s68[1] = 40;
        rc = tile_plane_layout(2, s68, pd, td, l68, dep, 8, TILE_ORDER_AUTO, &s);
        check(rc == TILE_OK && s.origin == 0 && s.diag == 24,
              "tile_plane_layout 17x40, d 1: no shift (it would make R 40 for 24), R = 24 "
              "(got shift %lld, R %lld)", (long long)s.origin, (long long)s.diag);
    }
    rc = tile_plane_layout(2, size, pd, td, len, dep, 8, TILE_ORDER_PLANES, &s);
    check(rc == TILE_OK && s.order == TILE_ORDER_PLANES && s.wave[0] == -1 &&
          s.stride[1] == 1 && s.stride[0] == 257 && s.plane_elems == 65 * 257,
          "tile_plane_layout, the plane order: row-major, 65 x 257");
    rc = tile_plane_layout(1, size, pd, td, len, dep, 8, TILE_ORDER_HYPERPLANE, &s);
    check(rc == TILE_OK && s.order == TILE_ORDER_PLANES && s.plane_elems == 65,
          "tile_plane_layout, N = 1: the hyperplane order is the plane order");
    check(tile_plane_layout(2, NULL, pd, td, len, dep, 8, 0, &s) == TILE_ERR_NULL &&
          tile_plane_layout(2, size, pd, td, len, dep, 8, 0, NULL) == TILE_ERR_NULL &&
          tile_plane_layout(0, size, pd, td, len, dep, 8, 0, &s) == TILE_ERR_RANGE &&
          tile_plane_layout(2, size, zero, td, len, dep, 8, 0, &s) == TILE_ERR_RANGE &&
          tile_plane_layout(2, size, pd, td, len, dep, 0, 0, &s) == TILE_ERR_RANGE &&
          tile_plane_layout(2, size, pd, td, len, dep, 8, 7, &s) == TILE_ERR_RANGE &&
          tile_plane_layout(2, size, pd, td, big, dep, 8, TILE_ORDER_PLANES, &s) ==
              TILE_ERR_OVERFLOW &&
          tile_plane_layout(2, size, pd, td, big, dep, 8, TILE_ORDER_HYPERPLANE, &s) ==
              TILE_ERR_OVERFLOW,
          "tile_plane_layout refuses NULL, N = 0, a dimension of 0 processes, an element "
          "of 0 bytes, an unknown order; a plane past 2^63 points overflows");
    /* R itself at 2^63 - 1 (3-byte points: no line rounding): R + 1, the
     * stride along a diagonal, overflows; nothing written */
    memset(&s, 0x5a, sizeof s);
    rc = tile_plane_layout(2, size, pd, td, huge, nodep, 3, TILE_ORDER_HYPERPLANE, &s);
    check(rc == TILE_ERR_OVERFLOW && s.order == 0x5a5a5a5a && s.diag == 0x5a5a5a5a5a5a5a5aLL,
          "tile_plane_layout, extents 2^63 - 1: TILE_ERR_OVERFLOW, the store untouched");
}

/* Blocks of different extents have planes of different sizes, so each
 * rank's own cache bound could differ, and with it the height: the model
 * takes the largest rank's plane (plan.height.plane_bytes) on every rank.
 * A cache that holds the window of z = 2 of the smallest plane but not of
 * the largest one failed the plan before ("tile_height (the model's
 * choice) differs between ranks (1 vs 2)"). */
static void test_uneven_planes(void)
{
    tile_config c;
    tile_plan p;
    int64_t pb = 0, pmin = 0, pmax = 0, zmin = 0, zmax = 0, want;
    double *a = NULL;
    char v[32];
    int rc, ok;
    tile_config_init(&c, 2);
    c.extent[0] = 67;               /* 33 + 34, 22 + 22 + 23, 16 + 17 + 17 + 17 */
    c.extent[1] = 40;
    c.zlen = 300;
    c.grid[0] = nprocs;
    c.grid[1] = 1;
    c.storage = TILE_STORE_FULL;
    c.boundary = check_edge;
    c.balance.tcomp = 1e-9;
    c.balance.tstartup = 1e-3;      /* messages dear: the tallest tile the cache allows */
    c.balance.bandwidth = 1e9;
    c.tile_height = 1;              /* first, a plan to read this rank's plane */
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    pb = rc == TILE_OK ? (int64_t)p.store.plane_bytes : 0;
    ok = rc == TILE_OK && p.height.plane_bytes == pb;
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && (uintptr_t)p.store.ring % 64 == 0 &&
              p.store.plane_bytes % 64 == 0,
              "the Z window starts at a 64-byte line and its planes are whole lines");
    tile_plan_destroy(&p);
    MPI_Allreduce(&pb, &pmin, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&pb, &pmax, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    check_mpi(MPI_COMM_WORLD, ok && pmin > 0 && (nprocs == 1 || pmin < pmax) &&
              5 * pmax <= 8 * pmin, "a given height: plan.height.plane_bytes is the rank's "
              "own plane (%lld..%lld bytes over the ranks)", (long long)pmin, (long long)pmax);
    /* z = 3 of the smallest only (the largest, at most 1.6 times as large: 1, or
     * 2 where the planes go in pairs) */
    snprintf(v, sizeof v, "%lld", (long long)(11 * pmin));
    setenv("TILEHYBRID_CACHE_BYTES", v, 1);
    c.tile_height = 0;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (rc != TILE_OK)
        check_note("rank %d: %s", myrank, p.errmsg);
    MPI_Allreduce(&p.height.z, &zmin, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&p.height.z, &zmax, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    want = tile_height_cache_bound(pmax, 0, 1, 11 * pmin);
    if (rc == TILE_OK && tile_plane_pairs(p.store.order, p.deps.skewed, 2) && want < 2)
        want = 2;
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && zmin == zmax &&
              p.height.plane_bytes == pmax && p.height.zmax == want &&
              p.height.z <= p.height.zmax && (nprocs == 1 || p.height.z == want),
              "uneven blocks: one height on every rank (%lld..%lld), the largest plane's "
              "bound (plane %lld bytes, bound %lld)", (long long)zmin, (long long)zmax,
              (long long)p.height.plane_bytes, (long long)p.height.zmax);
    a = check_seq_loop(67, 40, 300, point);
    if (rc == TILE_OK && a != NULL)
        run(&p);
    check_mpi(MPI_COMM_WORLD, a != NULL && tile_plan_status(&p) == TILE_OK &&
              check_same_3d(&p, a, 67, 40, 300),
              "uneven blocks: the sequential loop's values");
    free(a);
    tile_plan_destroy(&p);
    unsetenv("TILEHYBRID_CACHE_BYTES");
}

/* A 64x64x500 plan of the model and threads, with TILEHYBRID_TSYNC = env
 * (NULL: unset); its return code. */
static int tsync_plan(tile_plan *p, int model, int threads, const char *env)
{
    tile_config c;
    tile_config_init(&c, 2);
    c.extent[0] = 64;
    c.extent[1] = 64;
    c.zlen = 500;
    c.model = model;
    c.threads = threads;
    if (env != NULL)
        setenv("TILEHYBRID_TSYNC", env, 1);
    else
        unsetenv("TILEHYBRID_TSYNC");
    return tile_plan_create(p, MPI_COMM_WORLD, &c);
}

/* TILEHYBRID_TSYNC where no barrier ends a step: one thread, or the pure
 * MPI model (with or without OpenMP): t_sync 0 whatever value it gives; a
 * malformed value is still the plan's error. */
static void test_tsync_serial(void)
{
    tile_plan p;
    int rc = tsync_plan(&p, TILE_MODEL_FUNNELED, 1, "1.5e-5");
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && p.height.tsync == 0.0,
              "TILEHYBRID_TSYNC=1.5e-5 with one thread: t_sync 0 (%g)", p.height.tsync);
    tile_plan_destroy(&p);
    rc = tsync_plan(&p, TILE_MODEL_MPI, 1, "1.5e-5");
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && p.height.tsync == 0.0,
              "TILEHYBRID_TSYNC=1.5e-5 in the pure MPI model: t_sync 0 (%g)", p.height.tsync);
    tile_plan_destroy(&p);
    rc = tsync_plan(&p, TILE_MODEL_MPI, 1, "fast");
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_RANGE && strstr(p.errmsg, "TILEHYBRID_TSYNC") != NULL,
              "TILEHYBRID_TSYNC=fast is refused in the pure MPI model too, naming it: %s",
              p.errmsg);
    tile_plan_destroy(&p);
    rc = tsync_plan(&p, TILE_MODEL_MPI, 1, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && p.height.tsync == 0.0,
              "the pure MPI model: t_sync 0 (%g)", p.height.tsync);
    tile_plan_destroy(&p);
}

#ifdef _OPENMP     /* these plans run two threads */
/* The per-step barrier cost of two threads: TILEHYBRID_TSYNC as given (a
 * bad value is the plan's error), else probed (> 0), the same on every
 * rank. */
static void test_tsync(void)
{
    tile_plan p;
    double lo = 0, hi = 0;
    int rc = tsync_plan(&p, TILE_MODEL_FUNNELED, 2, "1.5e-5");
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && p.height.tsync == 1.5e-5,
              "TILEHYBRID_TSYNC=1.5e-5 is the model's t_sync (%g)", p.height.tsync);
    tile_plan_destroy(&p);
    rc = tsync_plan(&p, TILE_MODEL_FUNNELED, 2, "fast");
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_RANGE && strstr(p.errmsg, "TILEHYBRID_TSYNC") != NULL,
              "TILEHYBRID_TSYNC=fast is refused, naming it: %s", p.errmsg);
    tile_plan_destroy(&p);
    rc = tsync_plan(&p, TILE_MODEL_FUNNELED, 2, NULL);
    if (rc == TILE_OK) {
        MPI_Allreduce(&p.height.tsync, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(&p.height.tsync, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && lo == hi && p.height.tsync > 0.0 &&
              p.height.tsync < 1.0, "two threads: t_sync probed (%g s), the same on every "
              "rank", p.height.tsync);
    tile_plan_destroy(&p);
}
#endif /* _OPENMP */

int main(int argc, char **argv)
{
    double *a;
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    if (myrank == 0) {
        test_best_vs_sweep();
        test_model_cases();
        test_plane_layout();
        test_sysfs_cache();
    }
    a = check_seq_loop(X0, X1, ZL, point);
    if (a != NULL) {
        test_agree(a);
        test_rechoose(a);
        test_rechoose_hooked(a);
    }
    test_given();
    test_uneven_planes();
    test_pairs_memory();
    test_tsync_serial();
#ifdef _OPENMP
    if (provided >= MPI_THREAD_FUNNELED) {
        test_cache_fallback();
        test_tsync();
    } else if (myrank == 0) {
        check_skip("MPI_THREAD_FUNNELED not provided", "the cache fallback and t_sync tests");
    }
#else
    if (myrank == 0)    /* a plan of two threads needs OpenMP */
        check_skip("built without OpenMP", "the cache fallback and t_sync tests");
#endif
    free(a);
    return check_mpi_exit();
}
