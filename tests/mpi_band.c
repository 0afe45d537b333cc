/* tests/mpi_band.c -- rows in bands (N = 1, the plane order:
 * tile__walk_band, src/tiling/40-cursor.h): a band runs up to TILE__BAND
 * rows of a tile at once, each row a step behind the one below it.  The
 * order of the points changes; nothing else may.
 *
 * Under TILEHYBRID_BAND=on, off and auto (the test sets it before each
 * plan), in every model, at tile heights 3, 8, 13 and the plan's own, on
 * a 29 x 61 space (odd: bands of fewer rows at every tile's top) at the
 * process count tests/run.sh gives (1-4):
 *   values    a p2p-like recurrence with a nonlinear term, bit for bit
 *             the plain double loop's;
 *   coords    each point stores tile_coord()'s x and z: its own;
 *   maxloc    a MAXLOC reduction of values with many ties: the first
 *             point in row-major order, as the plain loop finds it;
 *   order     each point stores its thread's visit count: under on, some
 *             point (x, z) is visited before (x + 2, z - 1) of its own
 *             tile (the bands ran); under off never (rows one by one);
 *   break     a body that leaves the point (x, z) = (21, 37) with break:
 *             TILE_ERR_BODY on every rank naming that point (in a band,
 *             its row's own coordinates).
 * Under on, also each direction along x and z (cfg.dir), a read two
 * planes back (the mirror below the ring: d_Z = 2), and window storage
 * (the values checked by a SUM_U64 checksum of their bits, order-free),
 * in the mpi and funneled models at heights 3 and 8.  Under auto, every
 * thread of a run of 500 tiles of 8 rows has chosen (the trials a tile's
 * end cuts short count).  A malformed TILEHYBRID_BAND is refused, naming
 * the variable.
 */
#define _POSIX_C_SOURCE 200112L
#include <mpi.h>

#include "../hybrid.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

#define XL 29
#define ZL 61
#define BX 21       /* the break's point */
#define BZ 37

/* A variant of the loop: directions along x and z (+1, -1), a read two
 * planes back (depz 2), window storage (checked by a checksum of the
 * values' bits, a SUM_U64 reduction). */
typedef struct variant {
    int sx, sz, far, window;
} variant;
static const variant plain_variant = { 1, 1, 0, 0 };

typedef struct bpoint {
    double v;
    double x, z;        /* tile_coord() at the point */
    double seq;         /* the thread's visit count */
    double who;         /* its rank and thread */
} bpoint;

static int nprocs, myrank;

/* The boundary: a value from the coordinates, zero order and coordinates. */
static void bedge(void *out, const int64_t *c, void *ctx)
{
    bpoint *p = (bpoint *)out;
    (void)ctx;
    p->v = 1.0 + 0.001 * (double)(c[0] * 7 + c[1] * 3);
    p->x = (double)c[0];
    p->z = (double)c[1];
    p->seq = -1.0;
    p->who = -1.0;
}

/* The recurrence of the body and the plain loop. */
static double step(double l, double d, double ld)
{
    double v = l + d - 0.5 * ld;
    return v > 50.0 ? v * 0.25 : v;
}

/* The key the MAXLOC reduction gets: few values, many ties, and -1 below
 * x = 10 or z = 20 (the first best is then a point well inside the space,
 * in a band's upper row at most heights). */
static double key(double v, int64_t x, int64_t z)
{
    return x < 10 || z < 20 ? -1.0 : (double)((int64_t)(v * 4.0) % 5);
}

/* The value at (x, z) of the plain loop's array a (x, z in range), else
 * the boundary's. */
static double at_or_edge(const double *a, int64_t x, int64_t z)
{
    int64_t c[2];
    bpoint e;
    if (x >= 0 && x < XL && z >= 0 && z < ZL)
        return a[x * ZL + z];
    c[0] = x;
    c[1] = z;
    bedge(&e, c, NULL);
    return e.v;
}

/* A point's value from its neighbours back along the loop's directions
 * (and two planes back with far). */
static double step_v(const variant *vr, double l, double d, double ld, double d2)
{
    return vr->far ? step(l, d, ld) + 0.125 * d2 : step(l, d, ld);
}

/* The checksum of a value at (x, z): its bits times an odd number of the
 * point (a sum modulo 2^64 does not depend on the order). */
static uint64_t bits_at(double v, int64_t x, int64_t z)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b * (uint64_t)(2 * (x * ZL + z) + 1);
}

/* The plain loop of variant vr: values want[x * ZL + z], the MAXLOC's
 * first point in row-major order, and the checksum. */
static void plain(const variant *vr, double *want, int64_t *best, uint64_t *sum)
{
    int64_t i, j, x, z;
    double kbest = -1.0;
    for (i = 0; i < XL; i++)
        for (j = 0; j < ZL; j++) {
            x = vr->sx > 0 ? i : XL - 1 - i;
            z = vr->sz > 0 ? j : ZL - 1 - j;
            want[x * ZL + z] = step_v(vr, at_or_edge(want, x - vr->sx, z),
                                      at_or_edge(want, x, z - vr->sz),
                                      at_or_edge(want, x - vr->sx, z - vr->sz),
                                      at_or_edge(want, x, z - 2 * vr->sz));
        }
    *sum = 0;
    for (x = 0; x < XL; x++)          /* row-major: x, then z (the plan's order of ties) */
        for (z = 0; z < ZL; z++) {
            *sum += bits_at(want[x * ZL + z], x, z);
            if (key(want[x * ZL + z], x, z) > kbest) {
                kbest = key(want[x * ZL + z], x, z);
                best[0] = x;
                best[1] = z;
            }
        }
}

static double *seqs;    /* the threads' visit counts (one cache line each) */

static void run_body(tile_plan *p, tile_reduction *r, tile_reduction *sum, const variant *vr,
                     int brk)
{
    int64_t const sx = vr->sx, sz = vr->sz;
    HYBRID_RUN(p, it, {
        bpoint c;
        double *n = &seqs[8 * TILE_THREAD(it)];
        if (brk && tile_coord(&it, 0) == BX && tile_coord(&it, 1) == BZ)
            break;
        c.v = step_v(vr, TILE_AT(bpoint, it, -sx, 0).v, TILE_AT(bpoint, it, 0, -sz).v,
                     TILE_AT(bpoint, it, -sx, -sz).v,
                     vr->far ? TILE_AT(bpoint, it, 0, -2 * sz).v : 0.0);
        c.x = (double)tile_coord(&it, 0);
        c.z = (double)tile_coord(&it, 1);
        c.seq = (*n)++;
        c.who = (double)(myrank * 64 + TILE_THREAD(it));
        TILE_AT(bpoint, it, 0, 0) = c;
        tile_reduce(&it, r, key(c.v, tile_coord(&it, 0), tile_coord(&it, 1)));
        tile_reduce_u64(&it, sum, bits_at(c.v, tile_coord(&it, 0), tile_coord(&it, 1)));
    });
}

/* One run: TILEHYBRID_BAND = mode, model m, height h (0: the plan's).
 * Returns 1 when it is right; *inorder: some point came before the one
 * a row below and two columns on, in its tile (a band ran); msg: what failed. */
static int run_one(const char *mode, int m, int64_t h, int brk, const variant *vr,
                   const double *want, const int64_t *best, uint64_t want_sum, int *banded,
                   char *msg, size_t size)
{
    tile_config cfg;
    tile_plan p;
    tile_reduction r, sum;
    int rc, ok = 1;
    int64_t c[2];
    char st[64];
    setenv("TILEHYBRID_BAND", mode, 1);
    check_config(&cfg, 1, XL, 0, ZL);
    cfg.elem_size = sizeof(bpoint);
    cfg.boundary = bedge;
    cfg.boundary_ctx = NULL;
    snprintf(st, sizeof st, "%d,0 0,%d %d,%d%s", -vr->sx, -vr->sz, -vr->sx, -vr->sz,
             vr->far ? (vr->sz > 0 ? " 0,-2" : " 0,2") : "");
    tile_config_stencil(&cfg, st, NULL);
    cfg.dir[0] = vr->sx;
    cfg.dir[1] = vr->sz;
    cfg.model = m;
    cfg.threads = m == TILE_MODEL_MPI ? 1 : 2;
    cfg.tile_height = h;
    cfg.storage = vr->window ? TILE_STORE_WINDOW : TILE_STORE_FULL;
    msg[0] = '\0';
    *banded = 0;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &cfg);
    if (rc != TILE_OK) {
        snprintf(msg, size, "creation: %s", p.errmsg);
        tile_plan_destroy(&p);
        return 0;
    }
    memset(seqs, 0, sizeof(double) * 8 * 2);
    tile_reduction_init(&p, &r, TILE_REDUCE_MAXLOC, NULL);
    tile_reduction_init(&p, &sum, TILE_REDUCE_SUM_U64, NULL);
    run_body(&p, &r, &sum, vr, brk);
    rc = tile_plan_status(&p);
    if (brk) {
        char at[40];
        snprintf(at, sizeof at, "point (%d,%d)", BX, BZ);
        ok = rc == TILE_ERR_BODY && strstr(p.errmsg, at) != NULL &&
             strstr(p.errmsg, "break") != NULL;
        if (!ok)
            snprintf(msg, size, "break: status %d: %s", rc, p.errmsg);
        tile_plan_destroy(&p);
        return ok;
    }
    if (rc != TILE_OK) {
        snprintf(msg, size, "status %d: %s", rc, p.errmsg);
        tile_plan_destroy(&p);
        return 0;
    }
    if (r.count < 1 || r.coord[0] != best[0] || r.coord[1] != best[1]) {
        snprintf(msg, size, "maxloc at (%lld,%lld), the plain loop's (%lld,%lld)",
                 (long long)r.coord[0], (long long)r.coord[1], (long long)best[0],
                 (long long)best[1]);
        ok = 0;
    }
    if (ok && sum.u64 != want_sum) {
        snprintf(msg, size, "the values' checksum differs from the plain loop's");
        ok = 0;
    }
    for (c[0] = 0; c[0] < XL && ok && !vr->window; c[0]++)
        for (c[1] = 0; c[1] < ZL && ok; c[1]++) {
            bpoint v, u;
            int64_t d[2];
            if (tile_get(&p, c, &v) != TILE_OK)
                continue;
            if (memcmp(&v.v, &want[c[0] * ZL + c[1]], sizeof v.v) != 0 ||
                v.x != (double)c[0] || v.z != (double)c[1]) {
                snprintf(msg, size, "point (%lld,%lld): value %.17g (plain %.17g), coords "
                         "(%g,%g)", (long long)c[0], (long long)c[1], v.v,
                         want[c[0] * ZL + c[1]], v.x, v.z);
                ok = 0;
            }
            d[0] = c[0] + 2;      /* (x + 2, z - 1), the same tile and thread's */
            d[1] = c[1] - 1;
            if (d[1] >= 0 && d[1] / p.cfg.tile_height == c[1] / p.cfg.tile_height &&
                tile_get(&p, d, &u) == TILE_OK && v.seq < u.seq && v.who == u.who)
                *banded = 1;
        }
    tile_plan_destroy(&p);
    return ok;
}

/* Under TILEHYBRID_BAND=auto every thread of a long run of tiles of 8
 * rows (each a band at most: its trials end at the tile's end) has chosen
 * (the slot's band, private: 1 bands, -1 rows). */
static void check_auto_decides(void)
{
    tile_config cfg;
    tile_plan p;
    int m, t, decided = 1, runs = 0;
    setenv("TILEHYBRID_BAND", "auto", 1);
    for (m = TILE_MODEL_MPI; m <= TILE_MODEL_FUNNELED; m += TILE_MODEL_FUNNELED - TILE_MODEL_MPI) {
        check_config(&cfg, 1, 64, 0, 4000);
        tile_config_stencil(&cfg, "-1,0 0,-1 -1,-1", NULL);
        cfg.model = m;
        cfg.threads = m == TILE_MODEL_MPI ? 1 : 2;
        cfg.tile_height = 8;
        if (tile_plan_create(&p, MPI_COMM_WORLD, &cfg) != TILE_OK) {
            decided = 0;
            tile_plan_destroy(&p);
            continue;
        }
        HYBRID_RUN(&p, it, {
            TILE_AT(double, it, 0, 0) = TILE_AT(double, it, -1, 0) + TILE_AT(double, it, 0, -1) -
                                        0.5 * TILE_AT(double, it, -1, -1);
        });
        runs++;
        for (t = 0; t < p.cfg.threads; t++)
            decided &= tile_plan_status(&p) == TILE_OK && p.run.slot[t].band != 0;
        tile_plan_destroy(&p);
    }
    check_mpi(MPI_COMM_WORLD, decided && runs == 2, "TILEHYBRID_BAND=auto: every thread chose "
              "bands or rows within a run of 500 tiles of 8 rows (mpi and funneled models)");
}

/* The variants under TILEHYBRID_BAND=on: window storage, each direction,
 * a read two planes back; models mpi and funneled; heights 3 and 8. */
static void check_variants(double *want, int provided)
{
    int v, m, hi, runs = 0, all_ok = 1, banded;
    char first[600] = "", msg[400];
    (void)provided;
    for (v = 0; v < 16; v++) {
        variant vr;
        int64_t best[2] = { 0, 0 };
        uint64_t sum = 0;
        vr.sx = v & 1 ? -1 : 1;
        vr.sz = v & 2 ? -1 : 1;
        vr.far = (v & 4) != 0;
        vr.window = (v & 8) != 0;
        plain(&vr, want, best, &sum);
        for (m = TILE_MODEL_MPI; m <= TILE_MODEL_FUNNELED;
             m += TILE_MODEL_FUNNELED - TILE_MODEL_MPI)
            for (hi = 3; hi <= 8; hi += 5) {
                int good = run_one("on", m, hi, 0, &vr, want, best, sum, &banded, msg,
                                   sizeof msg);
                runs++;
                all_ok &= good;
                if (!good && first[0] == 0)
                    snprintf(first, sizeof first, "dir (%d,%d)%s%s, %s model, height %d: %s",
                             vr.sx, vr.sz, vr.far ? ", reads z - 2" : "",
                             vr.window ? ", window" : "", tile_model_name(m), hi, msg);
            }
    }
    check_mpi(MPI_COMM_WORLD, all_ok, "TILEHYBRID_BAND=on: every direction along x and z, "
              "a read two planes back, window and full storage: bitwise the plain loop, "
              "MAXLOC its first point (%d runs)%s%s", runs, first[0] ? "; FIRST FAILURE: " : "",
              first);
}

int main(int argc, char **argv)
{
    static const char *const modes[3] = { "on", "off", "auto" };
    static const int64_t heights[4] = { 3, 8, 13, 0 };
    int provided = 0, m, k, hi, all_ok = 1, runs = 0, banded_on = 0, banded_off = 0;
    int breaks = 0, breaks_ok = 1;
    double *want = (double *)malloc(sizeof(double) * XL * ZL);
    int64_t best[2] = { 0, 0 };
    uint64_t sum = 0;
    char first[600] = "", msg[400];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    seqs = (double *)calloc(8 * 2, sizeof(double));
    plain(&plain_variant, want, best, &sum);
    for (k = 0; k < 3; k++)
        for (m = TILE_MODEL_MPI; m <= TILE_MODEL_MULTIPLE; m++)
            for (hi = 0; hi < 4; hi++) {
                int banded = 0, good;
                if (m == TILE_MODEL_MULTIPLE && provided < MPI_THREAD_MULTIPLE)
                    continue;
                good = run_one(modes[k], m, heights[hi], 0, &plain_variant, want, best, sum,
                               &banded, msg, sizeof msg);
                runs++;
                banded_on |= k == 0 && banded;
                banded_off |= k == 1 && banded;
                if (!good && first[0] == 0)
                    snprintf(first, sizeof first, "TILEHYBRID_BAND=%s, %s model, height "
                             "%lld: %s", modes[k], tile_model_name(m),
                             (long long)heights[hi], msg);
                all_ok &= good;
                if (hi == 1) {
                    breaks++;
                    good = run_one(modes[k], m, heights[hi], 1, &plain_variant, want, best,
                                   sum, &banded, msg, sizeof msg);
                    if (!good && breaks_ok)
                        snprintf(first + strlen(first), sizeof first - strlen(first),
                                 " [TILEHYBRID_BAND=%s, %s: %s]", modes[k],
                                 tile_model_name(m), msg);
                    breaks_ok &= good;
                }
            }
    check_mpi(MPI_COMM_WORLD, all_ok, "N = 1 in bands, rows and measured (TILEHYBRID_BAND on, "
              "off, auto), every model, heights 3, 8, 13 and the plan's: values bitwise the "
              "plain loop's, tile_coord() the point's, MAXLOC the plain loop's first point "
              "(%d runs)%s%s", runs, first[0] ? "; FIRST FAILURE: " : "", first);
    check_mpi(MPI_COMM_WORLD, breaks_ok, "break at (%d,%d): TILE_ERR_BODY naming the point "
              "(%d runs)", BX, BZ, breaks);
    MPI_Allreduce(MPI_IN_PLACE, &banded_on, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &banded_off, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    check_mpi(MPI_COMM_WORLD, banded_on, "TILEHYBRID_BAND=on: some point came before the "
              "point a row below and two columns on in its tile (the bands ran)");
    check_mpi(MPI_COMM_WORLD, !banded_off, "TILEHYBRID_BAND=off: rows one by one (no point "
              "before the one a row below and two columns on)");
    check_variants(want, provided);
    check_auto_decides();
    {
        tile_config cfg;
        tile_plan p;
        int rc;
        setenv("TILEHYBRID_BAND", "sometimes", 1);
        check_config(&cfg, 1, XL, 0, ZL);
        rc = tile_plan_create(&p, MPI_COMM_WORLD, &cfg);
        check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_RANGE &&
                  strstr(p.errmsg, "TILEHYBRID_BAND = 'sometimes'") != NULL,
                  "TILEHYBRID_BAND=sometimes refused: status %d, \"%s\"", rc, p.errmsg);
        tile_plan_destroy(&p);
        unsetenv("TILEHYBRID_BAND");
    }
    free(want);
    free(seqs);
    return check_mpi_exit();
}
