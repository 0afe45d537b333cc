/* tests/mpi_data_calls.c -- the data calls one by one on small plans, in
 * every model: their results against plain sequential loops, bitwise, and
 * their refusals.
 *
 * The refusals: a tile outside the space, a Z range the window dropped, a
 * gather before any run or after a failed one, arguments that differ
 * between ranks (the same message on every rank, no hang), a want box that
 * no rank has or that two ranks have; every data call on a failed or a
 * destroyed plan, and from the running plan's body and hooks; the
 * reductions' misuses, a reduction moved to another plan, the lanes of the
 * hyperplane order's SIMD loop and the points of plane B of a pair.
 *
 * Input per tile (tile_input_set) equals the whole block's input array
 * bitwise; tile_output_to copies each tile into an array that a chained
 * run reads; a hook that fails (the output or the input hook) stops with
 * the same error on every rank; the memory of a long run with the hook
 * does not grow with Z.  tile_input_set's refusals (arguments, a running
 * plan, a skewed or failed plan).
 * A plan that skews its stencil: its reductions equal the sequential
 * loop's; the calls that need box-shaped blocks refuse it.
 *
 * The random plans, chained plans, the exact sum and MPI-IO:
 * tests/mpi_data.c (the two share tests/data_common.h).
 * Run at 1-4 processes by tests/run.sh.
 */
#include <mpi.h>

#include "../hybrid.h"
#include "check.h"

#include <string.h>

#include "data_common.h"

/* ---------------------------------------------------------------------- */
/* Checks                                                                  */

/* 1 on every rank when s is the same text on every rank. */
static int same_everywhere(const char *s)
{
    char buf[512];
    int same, all;
    snprintf(buf, sizeof buf, "%s", s);
    MPI_Bcast(buf, (int)sizeof buf, MPI_CHAR, 0, MPI_COMM_WORLD);
    same = strcmp(buf, s) == 0;
    MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
}

/* ---------------------------------------------------------------------- */
/* Refusals                                                                */

static void small_config(tile_config *c, ctx_t *cx)
{
    tile_config_init(c, 2);
    c->extent[0] = 7;
    c->extent[1] = 5;
    c->zlen = 23;
    c->tile_height = 3;
    c->boundary = edge;
    cx->n = 2;
    c->boundary_ctx = cx;
}

static void adi_run(tile_plan *p)
{
    HYBRID_RUN(p, it, {
        TILE_AT(double, it, 0, 0, 0) = ((TILE_AT(double, it, -1, 0, 0) +
                                         TILE_AT(double, it, 0, -1, 0)) +
                                        TILE_AT(double, it, 0, 0, -1)) / 3.0;
    });
}

/* The small plan in model m with t threads, Z in direction dz, every plane
 * stored: TILE_OK, or the creation's code (the plan then destroyed: more
 * threads than a block has points at this process count). */
static int model_plan(tile_plan *p, tile_config *c, ctx_t *cx, int m, int t, int dz)
{
    int rc;
    small_config(c, cx);
    c->model = m;
    c->threads = t;
    c->dir[2] = dz;
    c->storage = TILE_STORE_FULL;
    if ((rc = tile_plan_create(p, MPI_COMM_WORLD, c)) != TILE_OK)
        tile_plan_destroy(p);
    return rc;
}

/* One collective check: one(m, t, dz, why, len) in every model, 1..tmax
 * threads (1 for MPI), Z up and down, until one fails (1 or 0), and at
 * least min_runs plans were not refused (one() returns -1 for those).
 * what: the check's name, with one %d for the number of runs; the first
 * failure follows it. */
static void every_model(int (*one)(int, int, int, char *, size_t), int tmax, int min_runs,
                        const char *what)
{
    char why[400] = "", name[1024];
    int m, t, dz, ok = 1, rc, runs = 0;
    for (m = TILE_MODEL_MPI; m <= TILE_MODEL_MULTIPLE; m++)
        for (t = 1; t <= (m == TILE_MODEL_MPI ? 1 : tmax); t++)
            for (dz = -1; dz <= 1; dz += 2)
                if (ok && (rc = one(m, t, dz, why, sizeof why)) >= 0) {
                    ok = rc;
                    ++runs;
                }
    snprintf(name, sizeof name, what, runs);
    check_mpi(MPI_COMM_WORLD, ok && runs >= min_runs, "%s%s%s", name, why[0] ? ": " : "", why);
}

static void input_box_refusals(void)
{
    tile_config c;
    tile_plan p;
    tile_box b;
    tile_reach r;
    tilehybrid_status st;
    ctx_t cx;
    int rc1, rc2, rc3, rc4;
    int64_t k;
    small_config(&c, &cx);
    c.dir[2] = -1;
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    /* the widths' reach: 1 below along X_1, X_2; 1 above along Z (downward) */
    memset(&r, 0x55, sizeof r);
    check_mpi(MPI_COMM_WORLD, tile_reach_stencil(&p, &r) == TILE_OK && r.below[0] == 1 &&
                                  r.above[0] == 0 && r.below[1] == 1 && r.above[1] == 0 &&
                                  r.below[2] == 0 && r.above[2] == 1,
              "tile_reach_stencil: widths 1, 1, 1 with Z downward reach 1 below X_1 and X_2, "
              "1 above Z");
    memset(&r, 0, sizeof r);
    rc1 = tile_input_box(&p, p.ntiles, NULL, &b, &st);
    rc2 = tile_input_box(&p, -2, NULL, &b, NULL);
    r.below[1] = -1;
    rc3 = tile_input_box(&p, 0, &r, &b, NULL);
    rc4 = tile_input_box(&p, 0, NULL, NULL, NULL);
    check_mpi(MPI_COMM_WORLD, rc1 == TILE_ERR_RANGE && strcmp(st.arg, "tile") == 0 &&
              st.index == p.ntiles && rc2 == TILE_ERR_RANGE && rc3 == TILE_ERR_RANGE &&
              rc4 == TILE_ERR_NULL,
              "tile_input_box refuses tile = ntiles and -2, a negative reach, a NULL box "
              "(TILE_ERR_RANGE naming the tile, TILE_ERR_NULL)");
    /* tiles in loop order: with dir[Z] = -1 tile 0 holds the top planes */
    rc1 = 1;
    for (k = 0; k < p.ntiles; k++) {
        tile_input_box(&p, k, NULL, &b, NULL);
        rc1 &= b.len[2] == (k < p.ntiles - 1 ? 3 : 23 - 3 * (p.ntiles - 1)) &&
               b.lo[2] + b.len[2] == 23 - 3 * k;
    }
    check_mpi(MPI_COMM_WORLD, rc1 && p.ntiles == 8,
              "tile_input_box gives each tile's planes, in loop order (Z downward: tile 0 is "
              "z = 20..22, tile 7 z = 0..1)");
    tile_plan_destroy(&p);
}

/* tile_box_copy(): the one error convention, the points copied, nothing
 * written on an error or where the boxes do not meet. */
static void box_copy_codes(void)
{
    tile_box a, b, far, flat;
    double src[4 * 3], dst[3 * 5];
    int64_t n = -7;
    int i, ok = 1, rc[6];
    memset(&a, 0, sizeof a);
    a.ndims = 2;
    a.len[0] = 4;
    a.len[1] = 3;               /* points (0..3, 0..2) */
    b = a;
    b.lo[0] = 2;
    b.lo[1] = 1;
    b.len[0] = 3;
    b.len[1] = 5;               /* points (2..4, 1..5): 2 x 2 in common */
    far = b;
    far.lo[0] = 10;
    flat = a;
    flat.ndims = 3;
    for (i = 0; i < 12; i++)
        src[i] = i;
    for (i = 0; i < 15; i++)
        dst[i] = -1.0;
    rc[0] = tile_box_copy(&a, src, &b, dst, sizeof(double), &n);
    ok = rc[0] == TILE_OK && n == 4 && dst[0] == 7.0 && dst[1] == 8.0 && dst[5] == 10.0 &&
         dst[6] == 11.0 && dst[2] == -1.0;
    rc[1] = tile_box_copy(&a, src, &far, dst, sizeof(double), &n);
    rc[2] = tile_box_copy(&a, src, &flat, dst, sizeof(double), &n);
    rc[3] = tile_box_copy(NULL, src, &b, dst, sizeof(double), NULL);
    rc[4] = tile_box_copy(&a, NULL, &b, dst, sizeof(double), NULL);
    rc[5] = tile_box_copy(&a, src, &far, NULL, sizeof(double), NULL);
    check_mpi(MPI_COMM_WORLD, ok && rc[1] == TILE_OK && rc[2] == TILE_ERR_NDIMS && n == 0 &&
              rc[3] == TILE_ERR_NULL && rc[4] == TILE_ERR_NULL && rc[5] == TILE_OK,
              "tile_box_copy: TILE_OK and the 4 common points, TILE_OK and 0 for boxes that "
              "do not meet, TILE_ERR_NDIMS, TILE_ERR_NULL (got %d %d %d %d %d %d)", rc[0],
              rc[1], rc[2], rc[3], rc[4], rc[5]);
}

/* tile_get() follows the error convention: TILE_OK on the one rank that
 * owns and stores the point, TILE_ERR_NOT_STORED on the others and for a
 * plane the window dropped, TILE_ERR_RANGE outside the space, and
 * TILE_ERR_NULL; the value is the gathered one. */
static void get_codes(void)
{
    tile_config c;
    tile_plan p;
    ctx_t cx;
    int64_t x, y, z, mine = 0, all = 0, bad = 0, c3[3];
    double v, *g;
    int rc, ok, same;
    small_config(&c, &cx);
    c.storage = TILE_STORE_FULL;
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    adi_run(&p);
    g = (double *)malloc(sizeof(double) * 7 * 5 * 23);
    ok = g != NULL && tile_gather(&p, 0, 23, TILE_ROOT_ALL, g, NULL) == TILE_OK;
    for (x = 0; ok && x < 7; x++)
        for (y = 0; y < 5; y++)
            for (z = 0; z < 23; z++) {
                c3[0] = x, c3[1] = y, c3[2] = z;
                v = -1.0;
                rc = tile_get(&p, c3, &v);
                mine += rc == TILE_OK;
                bad += rc == TILE_OK ? bits(v) != bits(g[(x * 5 + y) * 23 + z])
                                     : rc != TILE_ERR_NOT_STORED || v != -1.0;
            }
    MPI_Allreduce(&mine, &all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    c3[0] = 7, c3[1] = 0, c3[2] = 0;
    ok = ok && tile_get(&p, c3, &v) == TILE_ERR_RANGE;
    c3[0] = 0, c3[2] = -1;
    ok = ok && tile_get(&p, c3, &v) == TILE_ERR_RANGE && tile_get(&p, NULL, &v) == TILE_ERR_NULL &&
         tile_get(NULL, c3, &v) == TILE_ERR_NULL;
    c3[2] = 0;
    ok = ok && tile_get(&p, c3, NULL) == TILE_ERR_NULL;
    check_mpi(MPI_COMM_WORLD, ok && bad == 0 && all == 7 * 5 * 23,
              "tile_get under TILE_STORE_FULL: TILE_OK with the gathered value on the one rank "
              "that owns each of the %lld points (%lld in all), TILE_ERR_NOT_STORED elsewhere "
              "(value untouched), TILE_ERR_RANGE outside the space, TILE_ERR_NULL",
              (long long)(7 * 5 * 23), (long long)all);
    /* check_same_3d (tests/check.h) passes on the gathered values, and not
     * where it compares nothing: no plane asked for, a destroyed plan */
    same = ok && check_same_3d(&p, g, 7, 5, 23) && !check_same_3d(&p, g, 7, 5, 0);
    tile_plan_destroy(&p);
    check_mpi(MPI_COMM_WORLD, same && !check_same_3d(&p, g, 7, 5, 23),
              "check_same_3d (tests/check.h): 1 on the run's own gathered values; 0 where it "
              "compares no point (zl = 0, a destroyed plan): nothing compared is not a pass");
    free(g);
    small_config(&c, &cx);     /* the window: plane 0 is gone, the last plane is kept */
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    adi_run(&p);
    mine = 0;
    for (x = 0; x < 7; x++)
        for (y = 0; y < 5; y++) {
            c3[0] = x, c3[1] = y, c3[2] = 0;
            bad += tile_get(&p, c3, &v) != TILE_ERR_NOT_STORED;
            c3[2] = 22;
            mine += tile_get(&p, c3, &v) == TILE_OK;
        }
    MPI_Allreduce(&mine, &all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    check_mpi(MPI_COMM_WORLD, bad == 0 && all == 7 * 5,
              "tile_get with the Z window: TILE_ERR_NOT_STORED on every rank for plane 0 (dropped), "
              "TILE_OK on one rank for each point of the last plane");
    tile_plan_destroy(&p);
}

/* The input hook of the tests: counts its calls in *ctx (an int), fills
 * the input values. */
static int input_hook(void *ctx, const tile_plan *plan, const tile_box *box, void *data)
{
    int *calls = (int *)ctx;
    (void)plan;
    ++*calls;
    fill_input(box, (double *)data);
    return 0;
}

/* Every data call on a plan whose creation failed returns the creation's
 * code (the same on every rank, no collective) and touches nothing; on a
 * destroyed plan, TILE_ERR_NULL. */
static int hook_never(void *ctx, const tile_plan *plan, const tile_piece *pc)
{
    (void)plan, (void)pc;
    ++*(int *)ctx;
    return 0;
}

static int refused_calls(tile_plan *p, int want, char *why, size_t len)
{
    tile_box b, have;
    tile_reach r;
    tile_reduction red;
    tilehybrid_status st;
    int64_t z0 = 5, zl = 5, c[3] = { 0, 0, 0 };
    double out[4] = { 1.0, 1.0, 1.0, 1.0 }, src[1] = { 2.0 };
    int calls = 0, rc[12], i, ok = 1;
    static const char *const name[12] = { "tile_input_box", "tile_reach_stencil",
                                          "tile_stored_zrange", "tile_gather", "tile_exchange",
                                          "tile_output_set", "tile_reduction_init",
                                          "tile_reduction_drop", "tile_get", "tile_gather st",
                                          "tile_input_set", "tile_output_to" };
    memset(&b, 0x5a, sizeof b);
    memset(&r, 0x5a, sizeof r);
    memset(&red, 0x5a, sizeof red);
    memset(&have, 0, sizeof have);
    have.ndims = 1;
    have.len[0] = 1;
    rc[0] = tile_input_box(p, TILE_ALL_TILES, NULL, &b, NULL);
    rc[1] = tile_reach_stencil(p, &r);
    rc[2] = tile_stored_zrange(p, &z0, &zl);
    rc[3] = tile_gather(p, 0, 1, TILE_ROOT_ALL, out, NULL);
    rc[4] = tile_exchange(p, sizeof(double), &have, src, &have, out, NULL);
    rc[5] = tile_output_set(p, hook_never, &calls, TILE_LAYOUT_Z_LAST, NULL);
    rc[6] = tile_reduction_init(p, &red, TILE_REDUCE_SUM, NULL);
    rc[7] = tile_reduction_drop(p, &red);
    rc[8] = tile_get(p, c, out);
    tile_gather(p, 0, 1, 0, out, &st);
    rc[9] = st.code;
    rc[10] = tile_input_set(p, input_hook, &calls, sizeof(double), NULL, NULL);
    rc[11] = tile_output_to(p, &have, out, NULL);
    for (i = 0; i < 12; i++)
        if (rc[i] != want && ok)
            ok = 0, snprintf(why, len, "%s returned %d, not %d", name[i], rc[i], want);
    for (i = 0; i < (int)sizeof b && ok; i++)
        if (((unsigned char *)&b)[i] != 0x5a || (i < (int)sizeof r &&
                                                 ((unsigned char *)&r)[i] != 0x5a) ||
            (i < (int)sizeof red && ((unsigned char *)&red)[i] != 0x5a))
            ok = 0, snprintf(why, len, "a box, reach or reduction was written");
    if (ok && (out[0] != 1.0 || out[1] != 1.0 || zl != 0 || calls != 0))
        ok = 0, snprintf(why, len, "out was written, or the Z range is not empty");
    return ok;
}

static void failed_plan_calls(void)
{
    tile_config c;
    tile_plan p;
    ctx_t cx;
    char why[200] = "", why2[200] = "";
    int code, ok, ok2;
    small_config(&c, &cx);
    c.extent[1] = 0;                    /* refused on every rank */
    code = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    ok = code != TILE_OK && code != TILE_ERR_NULL && refused_calls(&p, code, why, sizeof why);
    tile_plan_destroy(&p);
    small_config(&c, &cx);
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    adi_run(&p);
    tile_plan_destroy(&p);
    ok2 = refused_calls(&p, TILE_ERR_NULL, why2, sizeof why2);
    check_mpi(MPI_COMM_WORLD, ok, "on a plan whose creation failed (code %d, %s), tile_input_box, "
              "tile_reach_stencil, tile_stored_zrange, tile_gather, tile_exchange, "
              "tile_output_set, tile_output_to, tile_input_set, tile_reduction_init, "
              "tile_reduction_drop and tile_get return that code and write nothing%s%s", code, tile_strerror(code), why[0] ? ": " : "",
              why);
    check_mpi(MPI_COMM_WORLD, ok2, "on a destroyed plan they return TILE_ERR_NULL and write "
              "nothing%s%s", why2[0] ? ": " : "", why2);
}

/* A run that writes 1.0 at every point and feeds r with v there. */
static void feed_run(tile_plan *p, tile_reduction *r, double v)
{
    HYBRID_RUN(p, it, {
        TILE_AT(double, it, 0, 0, 0) = 1.0;
        tile_reduce(&it, r, v);
    });
}

/* The calls that need the plan idle (tile_gather, tile_exchange,
 * tile_reduction_init, tile_reduction_drop), made on some ranks only:
 * from the body (every thread's first point, on the odd ranks or the only
 * one), the output hook (rank 0) and the input hook (the last rank).  Each
 * returns TILE_ERR_BODY naming the plan, at once and on the calling rank
 * only (no collective: a hang otherwise), changes nothing (the buffers
 * untouched, the reductions as declared); the run ends normally with the
 * result of a run without the calls, bitwise, and a gather afterwards
 * works. */
typedef struct busy_ctx {
    tile_plan *p;
    tile_reduction *keep, *other;
    double *out;        /* a whole Z plane of the space: never written */
    int made, bad;      /* the calls made, those not refused as they must be */
    char why[160];
} busy_ctx;

static void busy_calls(busy_ctx *b, const char *where)
{
    static const char *const name[4] = { "tile_gather", "tile_exchange",
                                         "tile_reduction_init", "tile_reduction_drop" };
    tilehybrid_status st[4];
    tile_box one;
    double src = 1.0, dst = 2.0;
    int rc[4], i;
    memset(&one, 0, sizeof one);
    one.ndims = 3;
    one.len[0] = one.len[1] = one.len[2] = 1;
    rc[2] = tile_reduction_init(b->p, b->other, TILE_REDUCE_SUM, &st[2]);
    rc[3] = tile_reduction_drop(b->p, b->keep);
    tilehybrid_status_set(&st[3], rc[3], "plan", -1);
    rc[0] = tile_gather(b->p, 0, 1, TILE_ROOT_ALL, b->out, &st[0]);
    rc[1] = tile_exchange(b->p, sizeof(double), &one, &src, &one, &dst, &st[1]);
    for (i = 0; i < 4; i++) {
        b->made++;
        if ((rc[i] != TILE_ERR_BODY || strcmp(st[i].arg, "plan") != 0 || dst != 2.0) &&
            b->bad++ == 0)
            snprintf(b->why, sizeof b->why, "%s from %s returned %d (arg '%s'), not "
                     "TILE_ERR_BODY", name[i], where, rc[i], st[i].arg);
    }
}

static int busy_output(void *ctx, const tile_plan *plan, const tile_piece *pc)
{
    busy_ctx *b = (busy_ctx *)ctx;
    (void)plan;
    if (myrank == 0 && pc->tile == 0)
        busy_calls(b, "the output hook");
    return 0;
}

static int busy_input(void *ctx, const tile_plan *plan, const tile_box *box, void *data)
{
    busy_ctx *b = (busy_ctx *)ctx;
    (void)plan;
    if (myrank == nprocs - 1 && b->made < 1000)
        busy_calls(b, "the input hook");
    fill_input(box, (double *)data);
    return 0;
}

/* busy_case()'s run without the calls: the input values computed in the
 * body, not handed out by the input hook. */
static void busy_reference(tile_plan *q, int dz)
{
    HYBRID_RUN(q, it, {
        int64_t at[3];
        at[0] = tile_coord(&it, 0);
        at[1] = tile_coord(&it, 1);
        at[2] = tile_coord(&it, 2);
        TILE_AT(double, it, 0, 0, 0) = ((TILE_AT(double, it, -1, 0, 0) +
                                         TILE_AT(double, it, 0, -1, 0)) +
                                        TILE_AT(double, it, 0, 0, dz > 0 ? -1 : 1)) / 3.0 +
                                       input_value(at, 2);
    });
}

static int busy_case(int m, int t, int dz, char *why, size_t len)
{
    tile_config c;
    tile_plan p, q;
    ctx_t cx, cq;
    tile_reduction keep, other;
    busy_ctx b, body[3];
    double *g1, *g2, *out;
    int64_t pts = 7 * 5 * 23, i;
    int first[3] = { 1, 1, 1 }, ok, all, made = 0, caller = myrank % 2 == 1 || nprocs == 1;
    if (model_plan(&p, &c, &cx, m, t, dz) != TILE_OK)
        return -1;                          /* more threads than a block has points */
    model_plan(&q, &c, &cq, m, t, dz);
    g1 = (double *)malloc(sizeof(double) * (size_t)pts);
    g2 = (double *)malloc(sizeof(double) * (size_t)pts);
    out = (double *)malloc(sizeof(double) * (size_t)pts);
    for (i = 0; i < pts; i++)
        out[i] = -1.0;
    memset(&b, 0, sizeof b);
    b.p = &p;
    b.keep = &keep;
    b.other = &other;
    b.out = out;
    for (i = 0; i < 3; i++)
        body[i] = b;
    tile_reduction_init(&p, &keep, TILE_REDUCE_SUM, NULL);
    tile_output_set(&p, busy_output, &b, TILE_LAYOUT_Z_LAST, NULL);
    tile_input_set(&p, busy_input, &b, sizeof(double), NULL, NULL);
    HYBRID_RUN(&p, it, {
        int th = TILE_THREAD(it);
        if (caller && first[th]) {
            first[th] = 0;
            busy_calls(&body[th], "the body");
        }
        tile_reduce(&it, &keep, 1.0);
        TILE_AT(double, it, 0, 0, 0) = ((TILE_AT(double, it, -1, 0, 0) +
                                         TILE_AT(double, it, 0, -1, 0)) +
                                        TILE_AT(double, it, 0, 0, dz > 0 ? -1 : 1)) / 3.0 +
                                       *(const double *)tile_input(&it);
    });
    busy_reference(&q, dz);
    for (i = 0; i < 3; i++) {
        made += body[i].made;
        if (body[i].bad > 0 && b.bad++ == 0)
            snprintf(b.why, sizeof b.why, "%s", body[i].why);
    }
    made += b.made;
    ok = b.bad == 0 && tile_plan_status(&p) == TILE_OK && tile_plan_status(&q) == TILE_OK &&
         tile_gather(&p, 0, 23, TILE_ROOT_ALL, g1, NULL) == TILE_OK &&
         tile_gather(&q, 0, 23, TILE_ROOT_ALL, g2, NULL) == TILE_OK;
    if (!ok)
        snprintf(why, len, "%s T=%d: %s%s", tile_model_name(m), t, b.bad ? b.why : "a run or "
                 "a gather after it failed: ", b.bad ? "" : p.errmsg);
    else if (memcmp(g1, g2, sizeof(double) * (size_t)pts) != 0)
        ok = 0, snprintf(why, len, "%s T=%d: the result differs from a run without the calls",
                         tile_model_name(m), t);
    else if (keep.count != pts || keep.value != (double)pts ||
             tile_reduction_drop(&p, &other) != TILE_ERR_REDUCE)
        ok = 0, snprintf(why, len, "%s T=%d: the reductions changed: count %lld, value %g, the "
                         "other one declared", tile_model_name(m), t, (long long)keep.count,
                         keep.value);
    else if (made < (caller ? 4 : 0) + (myrank == 0 ? 4 : 0) + (myrank == nprocs - 1 ? 4 : 0))
        ok = 0, snprintf(why, len, "%s T=%d: only %d calls made", tile_model_name(m), t, made);
    for (i = 0; i < pts && ok; i++)
        if (out[i] != -1.0)
            ok = 0, snprintf(why, len, "%s T=%d: the refused gather wrote out",
                             tile_model_name(m), t);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (ok && !all)
        snprintf(why, len, "another rank failed");
    tile_plan_destroy(&p);
    tile_plan_destroy(&q);
    free(g1);
    free(g2);
    free(out);
    return all;
}

/* Two reductions declared on rank 0 and one elsewhere (the small plan of
 * c): TILE_ERR_MISMATCH on every rank, naming the number declared. */
static void reduce_count_differs(const tile_config *c)
{
    tile_plan p;
    tile_reduction r1, r2;
    int ok;
    tile_plan_create(&p, MPI_COMM_WORLD, c);
    tile_reduction_init(&p, &r1, TILE_REDUCE_SUM, NULL);
    if (myrank == 0)
        tile_reduction_init(&p, &r2, TILE_REDUCE_SUM, NULL);
    adi_run(&p);
    ok = nprocs == 1 ? tile_plan_status(&p) == TILE_OK
         : tile_plan_status(&p) == TILE_ERR_MISMATCH &&
           strstr(p.errmsg, "'number of reductions declared (tile_reduction_init)' differs "
                  "between ranks (1 vs 2)") && same_everywhere(p.errmsg) &&
           strcmp(p.status.arg, "number of reductions declared (tile_reduction_init)") == 0;
    check_mpi(MPI_COMM_WORLD, ok, "two reductions on rank 0, one elsewhere: TILE_ERR_MISMATCH "
              "on every rank, the longest name whole in the message and the status's arg "
              "('%s'): %s", p.status.arg, nprocs == 1 ? "(one rank)" : p.errmsg);
    tile_plan_destroy(&p);
}

/* The wrong feeding function on the small plan of c: tile_reduce on a
 * SUM_U64 reduction, tile_reduce_u64 on a sum or on another plan's (c then
 * holds the other plan's configuration). */
static void reduce_u64_refusals(tile_config *c)
{
    tile_plan p, q;
    tile_reduction r1, ru, rs;
    ctx_t cq;
    int ok2, which;
    uint64_t got;
    int64_t cnt2;
    /* the wrong feeding function */
    tile_plan_create(&p, MPI_COMM_WORLD, c);
    tile_reduction_init(&p, &r1, TILE_REDUCE_SUM_U64, NULL);
    feed_run(&p, &r1, 1.0);
    check_mpi(MPI_COMM_WORLD, tile_plan_status(&p) == TILE_ERR_REDUCE &&
              strstr(p.errmsg, "use tile_reduce_u64") && same_everywhere(p.errmsg),
              "tile_reduce on a sum_u64 reduction: TILE_ERR_REDUCE: %s", p.errmsg);
    /* tile_reduce_u64's inline path (outside the SIMD loop): the right
     * reduction is counted, a sum or one of another plan is refused */
    model_plan(&q, c, &cq, TILE_MODEL_MPI, 1, 1);
    tile_reduction_init(&p, &ru, TILE_REDUCE_SUM_U64, NULL);
    tile_reduction_init(&p, &rs, TILE_REDUCE_SUM, NULL);
    HYBRID_RUN(&p, it, {
        TILE_AT(double, it, 0, 0, 0) = 1.0;
        tile_reduce_u64(&it, &ru, 3);
    });
    got = ru.u64;
    cnt2 = ru.count;
    ok2 = tile_plan_status(&p) == TILE_OK && got == 3 * 7 * 5 * 23 && cnt2 == 7 * 5 * 23;
    for (which = 0; which < 2; which++) {
        tile_reduction *bad = which == 0 ? &rs : &ru;
        tile_plan *on = which == 0 ? &p : &q;
        HYBRID_RUN(on, it, {
            TILE_AT(double, it, 0, 0, 0) = 1.0;
            tile_reduce_u64(&it, bad, 3);
        });
        ok2 = ok2 && tile_plan_status(on) == TILE_ERR_REDUCE && same_everywhere(on->errmsg) &&
              strstr(on->errmsg, which == 0 ? "tile_reduce_u64 on a 'sum' reduction: use "
                     "tile_reduce" : "tile_reduce_u64: the reduction is not declared on "
                     "this plan") != NULL;
    }
    check_mpi(MPI_COMM_WORLD, ok2, "tile_reduce_u64 sums 3 per point (%llu, count %lld); on a "
              "sum reduction and on one of another plan: TILE_ERR_REDUCE naming the misuse: "
              "%s / %s", (unsigned long long)got, (long long)cnt2, p.errmsg,
              q.errmsg);
    tile_plan_destroy(&q);
    tile_plan_destroy(&p);
}

static void reduce_refusals(void)
{
    tile_config c;
    tile_plan p, q;
    tile_reduction r1, many[21];
    ctx_t cx;
    int rc1, rc2, i, ok;
    double first;
    int64_t cnt;
    small_config(&c, &cx);
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    tile_plan_create(&q, MPI_COMM_WORLD, &c);
    rc1 = tile_reduction_init(&p, &r1, 99, NULL);
    /* any number of reductions: 21, sums and maxima, each fed its own values */
    for (i = 0, rc2 = TILE_OK; i < 21 && rc2 == TILE_OK; i++)
        rc2 = tile_reduction_init(&q, &many[i], i % 3 == 2 ? TILE_REDUCE_MAX : TILE_REDUCE_SUM,
                                  NULL);
    HYBRID_RUN(&q, it, {
        int k;
        double x = (double)tile_coord(&it, 0) + 0.25 * (double)tile_coord(&it, 2);
        TILE_AT(double, it, 0, 0, 0) = 1.0;
        for (k = 0; k < 21; k++)
            tile_reduce(&it, &many[k], x * (double)(k + 1));
    });
    ok = rc2 == TILE_OK && tile_plan_status(&q) == TILE_OK;
    for (i = 0; ok && i < 21; i++)   /* x sums to 21 * 5 * 23 + 0.25 * 253 * 7 * 5; max 6 + 5.5 */
        ok = many[i].count == 7 * 5 * 23 &&
             many[i].value == (i % 3 == 2 ? 11.5 : 4628.75) * (double)(i + 1);
    check_mpi(MPI_COMM_WORLD, rc1 == TILE_ERR_REDUCE && ok,
              "tile_reduction_init refuses an unknown operation (TILE_ERR_REDUCE) and takes "
              "any number: 21 sums and maxima on one plan, each exact (status %d)",
              tile_plan_status(&q));
    /* the 13th declared differently on rank 0: named with those after the 8th */
    tile_reduction_init(&q, &many[12], myrank == 0 ? TILE_REDUCE_MIN : TILE_REDUCE_SUM, NULL);
    adi_run(&q);
    ok = nprocs == 1 ? tile_plan_status(&q) == TILE_OK
         : tile_plan_status(&q) == TILE_ERR_MISMATCH &&
           strstr(q.errmsg, "'operations of reductions 8 and later' differs between ranks") &&
           same_everywhere(q.errmsg);
    check_mpi(MPI_COMM_WORLD, ok, "the 13th of 21 reductions declared min on rank 0 and sum "
              "elsewhere: TILE_ERR_MISMATCH on every rank: %s",
              nprocs == 1 ? "(one rank)" : q.errmsg);
    for (i = 0; i < 21; i++)
        tile_reduction_drop(&q, &many[i]);
    /* declared on p, fed in q's body */
    tile_reduction_init(&p, &r1, TILE_REDUCE_SUM, NULL);
    feed_run(&q, &r1, 1.0);
    check_mpi(MPI_COMM_WORLD, tile_plan_status(&q) == TILE_ERR_REDUCE &&
              strstr(q.errmsg, "not declared on this plan") && same_everywhere(q.errmsg),
              "a reduction fed in another plan's body: TILE_ERR_REDUCE on every rank: %s",
              q.errmsg);
    tile_plan_destroy(&q);
    /* a sum over two runs: reset at each run */
    feed_run(&p, &r1, 0.1);
    first = r1.value;
    cnt = r1.count;
    feed_run(&p, &r1, 0.1);
    check_mpi(MPI_COMM_WORLD, tile_plan_status(&p) == TILE_OK && cnt == 7 * 5 * 23 &&
              r1.count == cnt && first == r1.value && first == 80.5,
              "a sum of 805 x 0.1 is 80.5 (exact, rounded once; %.17g), the same in a second run "
              "of the plan (reset at each run)", first);
    /* declared differently on different ranks */
    tile_reduction_init(&p, &r1, myrank == 0 ? TILE_REDUCE_MAX : TILE_REDUCE_SUM, NULL);
    adi_run(&p);
    ok = nprocs == 1 ? tile_plan_status(&p) == TILE_OK
         : tile_plan_status(&p) == TILE_ERR_MISMATCH && r1.count == 0 && r1.value == 0.0 &&
           strstr(p.errmsg, "'operation of reduction 0 (enum tile_reduce_op)' differs between "
                  "ranks (TILE_REDUCE_SUM vs TILE_REDUCE_MAX)") && same_everywhere(p.errmsg);
    check_mpi(MPI_COMM_WORLD, ok, "a reduction declared max on rank 0 and sum elsewhere: "
              "TILE_ERR_MISMATCH on every rank, no hang: %s",
              nprocs == 1 ? "(one rank)" : p.errmsg);
    tile_reduction_drop(&p, &r1);
    tile_reduction_init(&p, &r1, TILE_REDUCE_SUM, NULL);
    feed_run(&p, &r1, 0.1);
    check_mpi(MPI_COMM_WORLD, tile_plan_status(&p) == TILE_OK && r1.count == cnt &&
                                  r1.value == first,
              "declared alike again, the next run of that plan gives the sum (%.17g): %s",
              r1.value, p.errmsg);
    tile_plan_destroy(&p);
    reduce_count_differs(&c);
    reduce_u64_refusals(&c);
}

/* A reduction declared on plan A, then on plan B, belongs to B: B's runs
 * give it B's result, A's runs no longer write it (nor count it among A's
 * reductions), dropping it from A is refused and leaves it on B, and A
 * feeding it fails the run with TILE_ERR_REDUCE. */
static void sum_run(tile_plan *p, tile_reduction *r, double scale)
{
    HYBRID_RUN(p, it, {
        double v = ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0)) +
                    TILE_AT(double, it, 0, 0, -1)) / 3.0;
        TILE_AT(double, it, 0, 0, 0) = v;
        tile_reduce(&it, r, v * scale);
    });
}

static void reduction_moves(void)
{
    tile_config c;
    tile_plan a, b;
    tile_reduction r, other;
    ctx_t cx;
    double first;
    int64_t count;
    int ok1, ok2, ok3, ok4;
    small_config(&c, &cx);
    tile_plan_create(&a, MPI_COMM_WORLD, &c);
    c.model = TILE_MODEL_FUNNELED;
    c.threads = 2;
    tile_plan_create(&b, MPI_COMM_WORLD, &c);
    tile_reduction_init(&a, &r, TILE_REDUCE_SUM, NULL);
    tile_reduction_init(&b, &r, TILE_REDUCE_SUM, NULL);     /* moves to b */
    sum_run(&b, &r, 2.0);
    first = r.value;
    count = r.count;
    ok1 = tile_plan_status(&b) == TILE_OK && count == 7 * 5 * 23 && first != 0.0;
    adi_run(&a);                /* a no longer writes r */
    ok2 = tile_plan_status(&a) == TILE_OK && bits(r.value) == bits(first) && r.count == count;
    /* a declares another one: one reduction on a, the same on every rank */
    tile_reduction_init(&a, &other, TILE_REDUCE_SUM, NULL);
    sum_run(&a, &other, 1.0);
    ok2 = ok2 && tile_plan_status(&a) == TILE_OK && other.count == count &&
          bits(other.value * 2.0) == bits(first) && bits(r.value) == bits(first);
    ok3 = tile_reduction_drop(&a, &r) == TILE_ERR_REDUCE;
    sum_run(&b, &r, 2.0);
    ok3 = ok3 && tile_plan_status(&b) == TILE_OK && bits(r.value) == bits(first);
    sum_run(&a, &r, 1.0);
    ok4 = tile_plan_status(&a) == TILE_ERR_REDUCE &&
          strstr(a.errmsg, "not declared on this plan") != NULL;
    check_mpi(MPI_COMM_WORLD, ok1 && ok2, "a reduction declared on plan A, then on plan B, "
              "belongs to B: B's run gives it B's sum; A's runs no longer overwrite it, and A's "
              "own reduction declared next is combined as usual");
    check_mpi(MPI_COMM_WORLD, ok3 && ok4, "tile_reduction_drop(A, r) after the move is "
              "TILE_ERR_REDUCE and leaves r on B; A's body feeding r fails A's run with "
              "TILE_ERR_REDUCE");
    tile_plan_destroy(&a);
    tile_plan_destroy(&b);
}

static void gather_refusals(void)
{
    tile_config c;
    tile_plan p;
    ctx_t cx;
    double *out = (double *)malloc(sizeof(double) * 7 * 5 * 23);
    int rc, rc2;
    small_config(&c, &cx);
    c.storage = TILE_STORE_FULL;
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    rc = tile_gather(&p, 0, 23, 0, out, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_NOT_STORED && strstr(p.errmsg, "has not run") &&
              same_everywhere(p.errmsg),
              "tile_gather before any run: TILE_ERR_NOT_STORED, the same message on every rank: "
              "%s", p.errmsg);
    adi_run(&p);
    rc = tile_gather(&p, myrank == 0 ? 0 : 1, 2, 0, out, NULL);
    check_mpi(MPI_COMM_WORLD, nprocs == 1 ? rc == TILE_OK
              : rc == TILE_ERR_MISMATCH && strstr(p.errmsg, "argument 'z0' differs") &&
              same_everywhere(p.errmsg),
              "tile_gather with z0 = 0 on rank 0 and 1 elsewhere: TILE_ERR_MISMATCH on every "
              "rank, no hang: %s", nprocs == 1 ? "(one rank: nothing differs)" : p.errmsg);
    rc = tile_gather(&p, 0, 2, myrank == nprocs - 1 ? TILE_ROOT_ALL : 0, out, NULL);
    check_mpi(MPI_COMM_WORLD, nprocs == 1 ? rc == TILE_OK
              : rc == TILE_ERR_MISMATCH && strstr(p.errmsg, "argument 'root' differs") &&
              same_everywhere(p.errmsg),
              "tile_gather with a root that differs between ranks: TILE_ERR_MISMATCH: %s",
              nprocs == 1 ? "(one rank: nothing differs)" : p.errmsg);
    rc = tile_gather(&p, 0, 2, nprocs, out, NULL);
    rc2 = tile_gather(&p, 20, 4, 0, out, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_RANGE && rc2 == TILE_ERR_RANGE &&
              strstr(p.errmsg, "not inside the space") && same_everywhere(p.errmsg),
              "tile_gather refuses root = the process count and z = 20..23 of 23 planes "
              "(TILE_ERR_RANGE): %s", p.errmsg);
    rc = tile_gather(&p, 0, 2, 0, myrank == 0 ? NULL : out, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_NULL && strstr(p.errmsg, "rank 0: ") ==
              (nprocs > 1 ? p.errmsg : NULL) && same_everywhere(p.errmsg),
              "tile_gather with out NULL on the root: TILE_ERR_NULL on every rank: %s", p.errmsg);
    /* the refusals left the plan able to gather (without the refusal's
     * stale message), run and gather again */
    rc = tile_gather(&p, 0, 2, 0, out, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && p.errmsg[0] == '\0',
              "a gather after refused ones succeeds and clears plan.errmsg ('%s')", p.errmsg);
    adi_run(&p);
    rc = tile_plan_status(&p);
    rc2 = tile_gather(&p, 0, 23, TILE_ROOT_ALL, out, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && rc2 == TILE_OK,
              "after refused gathers the plan runs and gathers again");
    tile_plan_destroy(&p);
    /* a failed run leaves nothing to gather */
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    HYBRID_RUN(&p, it, {
        TILE_AT(double, it, 0, 0, 0) = 1.0;
        if (myrank == 0 && tile_coord(&it, 1) == 1)
            break;
    });
    rc = tile_gather(&p, 0, 1, 0, out, NULL);
    check_mpi(MPI_COMM_WORLD, tile_plan_status(&p) == TILE_ERR_BODY &&
              rc == TILE_ERR_NOT_STORED && strstr(p.errmsg, "last run failed") &&
              same_everywhere(p.errmsg),
              "tile_gather after a failed run: TILE_ERR_NOT_STORED on every rank: %s", p.errmsg);
    tile_plan_destroy(&p);
    free(out);
}

static void exchange_refusals(void)
{
    tile_config c;
    tile_plan p;
    tile_box have, want;
    ctx_t cx;
    double *a = (double *)calloc(7 * 5 * 23, sizeof(double)), *b;
    int rc, i;
    small_config(&c, &cx);
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    b = (double *)calloc(8 * 6 * 24, sizeof(double));
    tile_input_box(&p, TILE_ALL_TILES, NULL, &have, NULL);
    want = have;
    want.len[0]++;      /* one row more than anyone has at the top rank */
    if (want.lo[0] + want.len[0] <= 7)
        want.lo[0] = 7 - want.len[0] + 1;
    rc = tile_exchange(&p, sizeof(double), &have, a, &want, b, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_RANGE && strstr(p.errmsg, "is not covered") &&
              same_everywhere(p.errmsg),
              "tile_exchange with a want box beyond every have box: TILE_ERR_RANGE on every "
              "rank: %s", p.errmsg);
    memset(&have, 0, sizeof have);
    have.ndims = 3;
    have.len[0] = 7, have.len[1] = 5, have.len[2] = 23;     /* everything, on every rank */
    want = have;
    want.len[2] = 1;
    rc = tile_exchange(&p, sizeof(double), &have, a, &want, b, NULL);
    check_mpi(MPI_COMM_WORLD, nprocs == 1 ? rc == TILE_OK
              : rc == TILE_ERR_RANGE && strstr(p.errmsg, "ranks 0 and 1") &&
              same_everywhere(p.errmsg),
              "tile_exchange with have boxes that overlap where data is wanted: "
              "TILE_ERR_RANGE naming two ranks: %s", nprocs == 1 ? "(one rank)" : p.errmsg);
    rc = tile_exchange(&p, myrank == 0 ? 8 : 4, &have, a, &want, b, NULL);
    check_mpi(MPI_COMM_WORLD, nprocs == 1 ? rc == TILE_OK
              : rc == TILE_ERR_MISMATCH && strstr(p.errmsg, "'elem_size' differs") &&
              same_everywhere(p.errmsg),
              "tile_exchange with element sizes that differ between ranks: TILE_ERR_MISMATCH: %s",
              nprocs == 1 ? "(one rank)" : p.errmsg);
    for (i = 0; i < 7 * 5 * 23; i++)
        a[i] = (double)i;
    if (myrank != 0)
        have.len[0] = 0;        /* only rank 0 has data */
    rc = tile_exchange(&p, sizeof(double), &have, a, &want, b, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && b[7 * 5 - 1] == (double)(23 * (7 * 5 - 1)),
              "tile_exchange from rank 0's whole array to every rank's plane z = 0");
    /* dst sharing memory with src (MPI forbids it; MPICH asserted): refused
     * before any movement, on every rank, naming dst and the rank */
    for (i = 0; i < 2; i++) {
        tilehybrid_status st;
        int same;
        tile_input_box(&p, TILE_ALL_TILES, NULL, &have, NULL);
        for (rc = 0; rc < 7 * 5 * 23; rc++)
            a[rc] = (double)rc;
        rc = tile_exchange(&p, sizeof(double), &have, a, &have,
                           i == 0 ? (myrank == nprocs - 1 ? a : b) : a + 1, &st);
        same = rc == TILE_ERR_RANGE && strcmp(st.arg, "dst") == 0 && st.index == -1 &&
               st.rank == (i == 0 ? nprocs - 1 : 0) && same_everywhere(p.errmsg) &&
               strstr(p.errmsg, i == 0 ? "dst overlaps src (the same address)"
                                       : "dst overlaps src (the arrays share bytes)") != NULL;
        for (rc = 0; rc < 7 * 5 * 23 && same; rc++)
            same = a[rc] == (double)rc;
        check_mpi(MPI_COMM_WORLD, same, "tile_exchange with dst %s: TILE_ERR_RANGE naming dst "
                  "and rank %d on every rank, nothing moved: %s", i == 0 ? "== src on the last "
                  "rank" : "= src + 1 (overlapping) on every rank", i == 0 ? nprocs - 1 : 0,
                  p.errmsg);
    }
    /* an empty have box: src is not read, it may be dst */
    memset(&have, 0, sizeof have);
    have.ndims = 3;
    have.len[0] = myrank == 0 ? 7 : 0, have.len[1] = 5, have.len[2] = 23;
    for (i = 0; i < 7 * 5 * 23; i++)
        a[i] = (double)i;
    memset(b, 0, sizeof(double) * 7 * 5);
    rc = tile_exchange(&p, sizeof(double), &have, myrank == 0 ? a : b, &want, b, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && b[7 * 5 - 1] == (double)(23 * (7 * 5 - 1)),
              "tile_exchange with src == dst on the ranks whose have box is empty: moved: %s",
              rc == TILE_OK ? "" : p.errmsg);
    tile_plan_destroy(&p);
    free(a);
    free(b);
}

/* ---------------------------------------------------------------------- */
/* Input per tile (tile_input_set): the same bits as the whole block's      */
/* input array; memory flat in Z                                            */

/* The body of both runs: it reads the input at the point, at +1 along X_1
 * and one plane earlier along Z (in the loop's direction oz). */
#define INPUT_BODY(it, a, sx, sz, oz, X, Z)                                      \
    do {                                                                         \
        double r_ = (a)[0];                                                      \
        int64_t z_ = tile_coord(&(it), 2) + (oz);                                \
        if (tile_coord(&(it), 0) + 1 < (X))                                      \
            r_ += 0.25 * (a)[(sx)];                                              \
        if (z_ >= 0 && z_ < (Z))                                                 \
            r_ += 0.5 * (a)[(oz) * (sz)];                                        \
        TILE_AT(double, it, 0, 0, 0) = ((TILE_AT(double, it, -1, 0, 0) +          \
                                         TILE_AT(double, it, 0, -1, 0)) +         \
                                        TILE_AT(double, it, 0, 0, (oz))) / 3.0 + r_; \
    } while (0)

/* One plan (model m, t threads, Z direction dz) run twice, with the whole
 * block's input array and with the input hook; both gathered: 1 if equal
 * bitwise and the hook was called once per tile, -1 if the plan is refused
 * (too many threads for a block at this process count). */
static int input_case(int m, int t, int dz, char *why, size_t len)
{
    tile_config c;
    tile_plan p;
    ctx_t cx;
    tile_reach r;
    tile_box box;
    double *whole, *g1, *g2, *g3;
    int64_t sx, sz, oz = dz > 0 ? -1 : 1, X = 7, Z = 23, pts = 7 * 5 * 23;
    int64_t h;
    int calls = 0, ok;
    if (model_plan(&p, &c, &cx, m, t, dz) != TILE_OK)
        return -1;                          /* more threads than a block has points */
    memset(&r, 0, sizeof r);
    r.above[0] = 1;
    r.below[2] = dz > 0;
    r.above[2] = dz < 0;
    tile_input_box(&p, TILE_ALL_TILES, &r, &box, NULL);
    whole = (double *)malloc(sizeof(double) * (size_t)tile_box_points(&box));
    g1 = (double *)malloc(sizeof(double) * (size_t)pts);
    g2 = (double *)malloc(sizeof(double) * (size_t)pts);
    g3 = (double *)malloc(sizeof(double) * (size_t)pts);
    fill_input(&box, whole);
    sx = tile_box_stride(&box, 0);
    sz = tile_box_stride(&box, 2);
    HYBRID_RUN(&p, it, {
        const double *a = whole + tile_input_index(&it, &box);
        INPUT_BODY(it, a, sx, sz, oz, X, Z);
    });
    ok = tile_plan_status(&p) == TILE_OK &&
         tile_gather(&p, 0, Z, TILE_ROOT_ALL, g1, NULL) == TILE_OK;
    ok = ok && tile_input_set(&p, input_hook, &calls, sizeof(double), &r, NULL) == TILE_OK;
    HYBRID_RUN(&p, it, {
        const double *a = (const double *)tile_input(&it);
        INPUT_BODY(it, a, tile_input_stride(&it, 0), tile_input_stride(&it, 2), oz, X, Z);
    });
    ok = ok && tile_plan_status(&p) == TILE_OK &&
         tile_gather(&p, 0, Z, TILE_ROOT_ALL, g2, NULL) == TILE_OK;
    /* a height the model would choose after a run: not taken while the
     * input hook's arrays are sized for this one (they would overflow) */
    h = p.height.z;
    p.height.next = 2 * h;
    calls = 0;
    HYBRID_RUN(&p, it, {
        const double *a = (const double *)tile_input(&it);
        INPUT_BODY(it, a, tile_input_stride(&it, 0), tile_input_stride(&it, 2), oz, X, Z);
    });
    ok = ok && tile_plan_status(&p) == TILE_OK && p.height.z == h && p.cfg.tile_height == h &&
         tile_gather(&p, 0, Z, TILE_ROOT_ALL, g3, NULL) == TILE_OK &&
         memcmp(g3, g2, sizeof(double) * (size_t)pts) == 0;
    if (!ok)
        snprintf(why, len, "%s: a run or gather failed, or a new height was taken under the "
                 "input hook: %s", tile_model_name(m), p.errmsg);
    else if (calls != (int)p.ntiles)
        ok = 0, snprintf(why, len, "%s: %d hook calls for %lld tiles", tile_model_name(m), calls,
                         (long long)p.ntiles);
    else if (memcmp(g1, g2, sizeof(double) * (size_t)pts) != 0)
        ok = 0, snprintf(why, len, "%s T=%d dir[Z]=%d: the results differ", tile_model_name(m),
                         t, dz);
    tile_plan_destroy(&p);
    free(whole);
    free(g1);
    free(g2);
    free(g3);
    return ok;
}

/* tile_input_set()'s refusals: a NULL plan, an element size of 0 or above
 * 2^30, a reach outside 0..2^30 (each naming the argument), a call while the
 * plan runs (from its body; tile_output_set and tile_output_to alike): each
 * leaves the hook set before in place.  A NULL hook stops it (esz not
 * looked at): tile_input() is then NULL and the strides 0.  The skewed and
 * the failed plans: skewed_cases(), refused_calls(). */
static void input_set_refusals(void)
{
    tile_config c;
    tile_plan p;
    tile_reach r;
    tilehybrid_status st;
    ctx_t cx;
    int calls = 0, other = 0, rc[4], args, mid[3] = { -1, -1, -1 }, ok, stopped;
    int64_t none = 0;
    small_config(&c, &cx);
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    ok = tile_input_set(&p, input_hook, &calls, sizeof(double), NULL, NULL) == TILE_OK;
    rc[0] = tile_input_set(NULL, input_hook, &other, sizeof(double), NULL, &st);
    args = strcmp(st.arg, "plan") == 0;
    rc[1] = tile_input_set(&p, input_hook, &other, 0, NULL, &st);
    args &= strcmp(st.arg, "esz") == 0 && st.index == 0;
    rc[2] = tile_input_set(&p, input_hook, &other, ((size_t)1 << 30) + 1, NULL, &st);
    args &= strcmp(st.arg, "esz") == 0 && st.index == ((int64_t)1 << 30) + 1;
    memset(&r, 0, sizeof r);
    r.above[1] = -1;
    rc[3] = tile_input_set(&p, input_hook, &other, sizeof(double), &r, &st);
    args &= strcmp(st.arg, "reach") == 0 && st.index == 1;
    r.above[1] = 0;
    r.below[2] = (1 << 30) + 1;
    ok = ok && rc[0] == TILE_ERR_NULL && rc[1] == TILE_ERR_ELEM && rc[2] == TILE_ERR_ELEM &&
         rc[3] == TILE_ERR_RANGE && args &&
         tile_input_set(&p, input_hook, &other, sizeof(double), &r, NULL) == TILE_ERR_RANGE;
    HYBRID_RUN(&p, it, {
        if (mid[0] < 0) {       /* the first point: every set-up call refused */
            mid[0] = tile_input_set(&p, input_hook, &other, sizeof(double), NULL, NULL);
            mid[1] = tile_output_set(&p, NULL, NULL, TILE_LAYOUT_Z_LAST, NULL);
            mid[2] = tile_output_to(&p, NULL, NULL, NULL);
        }
        TILE_AT(double, it, 0, 0, 0) = TILE_AT(double, it, 0, 0, -1) +
                                       *(const double *)tile_input(&it);
    });
    ok = ok && tile_plan_status(&p) == TILE_OK && calls == (int)p.ntiles && other == 0 &&
         mid[0] == TILE_ERR_BODY && mid[1] == TILE_ERR_BODY && mid[2] == TILE_ERR_BODY;
    check_mpi(MPI_COMM_WORLD, ok, "tile_input_set refuses a NULL plan (TILE_ERR_NULL), esz 0 and "
              "2^30 + 1 (TILE_ERR_ELEM naming esz), a reach of -1 and 2^30 + 1 (TILE_ERR_RANGE "
              "naming it), and a call from the running plan's body (TILE_ERR_BODY, as "
              "tile_output_set and tile_output_to: got %d %d %d); the hook set before is the "
              "one called, once per tile (%d calls for %lld tiles)", mid[0], mid[1], mid[2],
              calls, (long long)p.ntiles);
    stopped = tile_input_set(&p, NULL, NULL, 0, NULL, NULL) == TILE_OK;
    calls = 0;
    HYBRID_RUN(&p, it, {
        none += tile_input(&it) != NULL || tile_input_stride(&it, 0) != 0;
        TILE_AT(double, it, 0, 0, 0) = TILE_AT(double, it, 0, 0, -1) + 1.0;
    });
    check_mpi(MPI_COMM_WORLD, stopped && none == 0 && calls == 0 &&
              tile_plan_status(&p) == TILE_OK,
              "tile_input_set with a NULL hook (esz 0 not looked at) stops it: no call, "
              "tile_input() NULL and the strides 0 in the next run");
    tile_plan_destroy(&p);
}

/* output_to_case()'s chained run, sequentially: the 7 x 5 x 23 points in
 * the order of Z direction dz, over g, the first run's gathered result
 * (cx: the boundary's); a new array. */
static double *second_sweep(const double *g, int dz, ctx_t *cx)
{
    int64_t i, X, Y, Z, pts = 7 * 5 * 23, oz = dz > 0 ? -1 : 1;
    double *q = (double *)malloc(sizeof(double) * (size_t)pts);
    for (i = 0; i < pts; i++) {
        int64_t zz = dz > 0 ? i % 23 : 22 - i % 23, k = i - i % 23 + zz;
        X = k / (5 * 23);
        Y = k / 23 % 5;
        Z = zz;
        {
            double l, e, v;
            int64_t cc[3];
            cc[0] = X - 1, cc[1] = Y, cc[2] = Z;
            if (X > 0)
                l = q[k - 5 * 23];
            else
                edge(&l, cc, cx);
            cc[0] = X, cc[2] = Z + oz;
            if (Z + oz >= 0 && Z + oz < 23)
                e = q[k + oz];
            else
                edge(&e, cc, cx);
            v = (l + e) / 2.0 + g[k];
            q[k] = v;
        }
    }
    return q;
}

/* tile_output_to(): each tile copied straight into an array over a box
 * that holds the block (here with one more point around it, left as it
 * was), the same bits as tile_gather; and a chained plan with the same
 * blocks reads that array in its body, no copy in between. */
static int output_to_case(int m, int t, int dz, char *why, size_t len)
{
    tile_config c;
    tile_plan p;
    ctx_t cx;
    tile_reach r;
    tile_box box, blk;
    double *a, *g, *g2;
    int64_t i, x[3], pts = 7 * 5 * 23, npts, bad = 0, oz = dz > 0 ? -1 : 1;
    int ok;
    if (model_plan(&p, &c, &cx, m, t, dz) != TILE_OK)
        return -1;
    memset(&r, 0, sizeof r);
    r.below[0] = r.above[0] = r.below[1] = r.above[1] = r.below[2] = r.above[2] = 1;
    tile_input_box(&p, TILE_ALL_TILES, &r, &box, NULL);
    tile_input_box(&p, TILE_ALL_TILES, NULL, &blk, NULL);
    npts = tile_box_points(&box);
    a = (double *)malloc(sizeof(double) * (size_t)npts);
    g = (double *)malloc(sizeof(double) * (size_t)pts);
    g2 = (double *)malloc(sizeof(double) * (size_t)pts);
    for (i = 0; i < npts; i++)
        a[i] = -7.0;
    ok = tile_output_to(&p, &blk, NULL, NULL) == TILE_ERR_NULL &&
         (blk.len[0] < 2 || (blk.lo[0]++, blk.len[0]--,
                             tile_output_to(&p, &blk, a, NULL) == TILE_ERR_RANGE)) &&
         tile_output_to(&p, &box, a, NULL) == TILE_OK;
    tile_input_box(&p, TILE_ALL_TILES, NULL, &blk, NULL);
    HYBRID_RUN(&p, it, {
        TILE_AT(double, it, 0, 0, 0) = ((TILE_AT(double, it, -1, 0, 0) +
                                         TILE_AT(double, it, 0, -1, 0)) +
                                        TILE_AT(double, it, 0, 0, oz)) / 3.0;
    });
    ok = ok && tile_plan_status(&p) == TILE_OK &&
         tile_gather(&p, 0, 23, TILE_ROOT_ALL, g, NULL) == TILE_OK;
    for (i = 0; ok && i < npts; i++) {
        box_coord(&box, i, x);
        if (tile_box_index(&blk, x) < 0)
            bad += a[i] != -7.0;
        else
            bad += bits(a[i]) != bits(g[(x[0] * 5 + x[1]) * 23 + x[2]]);
    }
    /* the chained run reads the array at the point: the same blocks */
    tile_output_to(&p, NULL, NULL, NULL);
    HYBRID_RUN(&p, it, {
        TILE_AT(double, it, 0, 0, 0) = (TILE_AT(double, it, -1, 0, 0) +
                                        TILE_AT(double, it, 0, 0, oz)) / 2.0 +
                                       a[tile_input_index(&it, &box)];
    });
    ok = ok && tile_plan_status(&p) == TILE_OK &&
         tile_gather(&p, 0, 23, TILE_ROOT_ALL, g2, NULL) == TILE_OK;
    if (ok && bad == 0) {   /* the sequential second sweep over the gathered first */
        double *q = second_sweep(g, dz, &cx);
        bad += memcmp(q, g2, sizeof(double) * (size_t)pts) != 0;
        free(q);
    }
    if (!ok || bad)
        snprintf(why, len, "%s T=%d dir[Z]=%d: %s", tile_model_name(m), t, dz,
                 !ok ? p.errmsg : "values differ");
    tile_plan_destroy(&p);
    free(a);
    free(g);
    free(g2);
    return ok && bad == 0;
}

/* ---------------------------------------------------------------------- */
/* A failing hook; memory flat in Z; a skewed plan; the SIMD loop         */

typedef struct fail_ctx {
    int64_t calls;
    int64_t at;         /* the tile whose call fails on the last rank */
} fail_ctx;

static int fail_hook(void *ctx, const tile_plan *plan, const tile_piece *pc)
{
    fail_ctx *f = (fail_ctx *)ctx;
    (void)plan;
    f->calls++;
    return myrank == nprocs - 1 && pc->tile == f->at ? 7 : 0;
}

/* The input hook's: tiles come in order, so call k is tile k. */
static int fail_input(void *ctx, const tile_plan *plan, const tile_box *box, void *data)
{
    fail_ctx *f = (fail_ctx *)ctx;
    (void)plan;
    fill_input(box, (double *)data);
    f->calls++;
    return myrank == nprocs - 1 && f->calls == f->at + 1 ? 7 : 0;
}

/* Set (f) or stop (NULL) the failing hook: the input hook, or the output
 * hook. */
static int set_fail_hook(tile_plan *p, int input, fail_ctx *f)
{
    if (input)
        return tile_input_set(p, f != NULL ? fail_input : NULL, f, sizeof(double), NULL, NULL);
    return tile_output_set(p, f != NULL ? fail_hook : NULL, f, TILE_LAYOUT_Z_LAST, NULL);
}

/* A hook (the output hook, or the input hook if input) that returns 7 on the
 * last rank at tile 2: every rank's run fails with TILE_ERR_OUTPUT and the
 * same message, naming the hook, the value, the tile and (with more than one
 * rank) the rank; that rank's hook is not called again, the others' go on;
 * nothing is left to gather; the plan runs again without the hook.  No
 * hang: tests/run.sh runs this under a time limit. */
static void hook_failure(int input)
{
    const char *what = input ? "input" : "output";
    tile_config c;
    ctx_t cx;
    int m, all = 1, again = 1;
    char msg[320] = "", want[80], rank[32];
    snprintf(want, sizeof want, "the %s hook returned 7 for tile 2 (z = 6..8)", what);
    snprintf(rank, sizeof rank, "rank %d: ", nprocs - 1);
    small_config(&c, &cx);
    for (m = TILE_MODEL_MPI; m <= TILE_MODEL_MULTIPLE; m++) {
        tile_plan p;
        fail_ctx f;
        int64_t z0, zl;
        c.model = m;
        c.threads = m == TILE_MODEL_MPI ? 1 : 2;
        tile_plan_create(&p, MPI_COMM_WORLD, &c);
        f.calls = 0;
        f.at = 2;
        all &= set_fail_hook(&p, input, &f) == TILE_OK;
        adi_run(&p);
        all &= tile_plan_status(&p) == TILE_ERR_OUTPUT && strstr(p.errmsg, want) != NULL &&
               (nprocs == 1 || strstr(p.errmsg, rank) != NULL) && same_everywhere(p.errmsg) &&
               f.calls == (myrank == nprocs - 1 ? 3 : p.ntiles) &&
               tile_stored_zrange(&p, &z0, &zl) == TILE_ERR_NOT_STORED;
        snprintf(msg, sizeof msg, "%s", p.errmsg);
        /* the failed run does not stop the next: without the hook it runs */
        set_fail_hook(&p, input, NULL);
        adi_run(&p);
        again &= tile_plan_status(&p) == TILE_OK && p.errmsg[0] == '\0' &&
                 tile_stored_zrange(&p, &z0, &zl) == TILE_OK;
        tile_plan_destroy(&p);
    }
    check_mpi(MPI_COMM_WORLD, all, "an %s hook that returns 7 on the last rank stops its "
              "calls there, and the run fails on every rank in every model with the same "
              "message: %s", what, msg);
    check_mpi(MPI_COMM_WORLD, again, "after that failed run, the plan runs again without the "
              "%s hook, in every model (TILE_OK, its result stored)", what);
}

/* Memory of a run, measured as the growth of the resident set's peak over
 * the run: Linux's VmHWM, reset to the current RSS through
 * /proc/self/clear_refs ("5") right before, so that the peaks of earlier
 * tests (the high-water mark of getrusage only rises) do not hide it. */
static long proc_status_kb(const char *key)
{
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    FILE *fp = fopen("/proc/self/status", "r");
    while (fp != NULL && fgets(line, sizeof line, fp) != NULL)
        if (strncmp(line, key, n) == 0 && line[n] == ':')
            v = strtol(line + n + 1, NULL, 10);
    if (fp != NULL)
        fclose(fp);
    return v;
}

/* Reset the peak to the current RSS; the RSS then, or -1 if the kernel
 * cannot reset it. */
static long peak_reset(void)
{
    FILE *fp = fopen("/proc/self/clear_refs", "w");
    int ok = fp != NULL && fputs("5", fp) >= 0;
    if (fp != NULL)
        ok = fclose(fp) == 0 && ok;
    return ok ? proc_status_kb("VmRSS") : -1;
}

static int sum_hook(void *ctx, const tile_plan *plan, const tile_piece *pc)
{
    uint64_t *sum = (uint64_t *)ctx;
    size_t e;
    (void)plan;
    for (e = 0; e < pc->bytes / sizeof(double); e++)
        *sum += bits(((const double *)pc->data)[e]);
    return 0;
}

/* The control: a hook that keeps every tile (O(Z) memory). */
typedef struct keep_all {
    void *tile[1024];
    int n;
} keep_all;

static int keep_hook(void *ctx, const tile_plan *plan, const tile_piece *pc)
{
    keep_all *k = (keep_all *)ctx;
    (void)plan;
    if (k->n == 1024 || (k->tile[k->n] = malloc(pc->bytes)) == NULL)
        return 1;
    memcpy(k->tile[k->n++], pc->data, pc->bytes);
    return 0;
}

/* The plan of the memory runs: 32 x 32 x zlen doubles per rank (tile
 * height 50, the Z window); then the peak reset (peak_start). */
static void growth_plan(tile_plan *p, ctx_t *cx, int64_t zlen)
{
    tile_config c;
    small_config(&c, cx);
    c.extent[0] = 32;
    c.extent[1] = 32 * nprocs;
    c.zlen = zlen;
    c.tile_height = 50;
    c.grid[0] = 1;
    tile_plan_create(p, MPI_COMM_WORLD, &c);
}

/* Reset the peak: the RSS then; *any = 1 if some rank cannot reset it. */
static long peak_start(int *any)
{
    long rss = peak_reset();
    int none = rss < 0;
    MPI_Allreduce(&none, any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return rss;
}

/* The peak's growth since peak_start() returned rss, the largest over the
 * ranks (collective); -1 when it cannot be measured (any). */
static long peak_growth(long rss, int any)
{
    long growth = proc_status_kb("VmHWM") - rss, worst;
    MPI_Allreduce(&growth, &worst, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    return any ? -1 : worst;
}

/* The peak growth in kB of a run of 32 x 32 x zlen doubles per rank
 * (tile height 50, the Z window) with the output hook set right after the
 * reset; the hook sums the bits (control = 0) or keeps every tile
 * (control = 1).  -1 when the peak cannot be measured (on every rank alike). */
static long hook_growth(int64_t zlen, int control, int *ok)
{
    tile_plan p;
    ctx_t cx;
    uint64_t sum = 0;
    static keep_all ka;
    long rss;
    int i, any;
    growth_plan(&p, &cx, zlen);
    ka.n = 0;
    rss = peak_start(&any);
    tile_output_set(&p, control ? keep_hook : sum_hook, control ? (void *)&ka : (void *)&sum,
                    TILE_LAYOUT_Z_LAST, NULL);
    adi_run(&p);
    rss = peak_growth(rss, any);
    *ok = tile_plan_status(&p) == TILE_OK && (control ? ka.n == (int)p.ntiles : sum != 0);
    for (i = 0; i < ka.n; i++)
        free(ka.tile[i]);
    tile_plan_destroy(&p);
    return rss;
}

/* The peak growth in kB (the largest over the ranks; -1 when it cannot be
 * measured) of a run of 32 x 32 x zlen doubles per rank whose body reads an
 * input of doubles: from the input hook (control = 0), or from an array over
 * the whole block filled after the reset (control = 1). */
static long input_growth(int64_t zlen, int control, int *ok)
{
    tile_plan p;
    ctx_t cx;
    tile_box box;
    double *a = NULL;
    long rss;
    int calls = 0, any;
    growth_plan(&p, &cx, zlen);
    rss = peak_start(&any);
    if (control) {
        tile_input_box(&p, TILE_ALL_TILES, NULL, &box, NULL);
        a = (double *)malloc(sizeof(double) * (size_t)tile_box_points(&box));
        *ok = a != NULL;
        if (a != NULL) {
            fill_input(&box, a);
            HYBRID_RUN(&p, it, {
                TILE_AT(double, it, 0, 0, 0) = (TILE_AT(double, it, -1, 0, 0) +
                                                TILE_AT(double, it, 0, 0, -1)) / 2.0 +
                                               a[tile_input_index(&it, &box)];
            });
        }
    } else {
        *ok = tile_input_set(&p, input_hook, &calls, sizeof(double), NULL, NULL) == TILE_OK;
        HYBRID_RUN(&p, it, {
            TILE_AT(double, it, 0, 0, 0) = (TILE_AT(double, it, -1, 0, 0) +
                                            TILE_AT(double, it, 0, 0, -1)) / 2.0 +
                                           *(const double *)tile_input(&it);
        });
        *ok = *ok && calls == (int)p.ntiles;
    }
    rss = peak_growth(rss, any);
    *ok = *ok && tile_plan_status(&p) == TILE_OK;
    free(a);
    tile_plan_destroy(&p);
    return rss;
}

/* Memory flat in Z: growth(zlen, control, &ok), a run at Z = 20000 grows
 * the peak as one at Z = 2500 (+ 2 MB, and under 1/16 of the data), while
 * the control, which holds O(Z), grows it by at least half the data: the
 * measurement sees O(Z) memory.  flat and control name the two checks,
 * run says how the run reads or writes (in the first check's text). */
static void flat_memory(long (*growth)(int64_t, int, int *), const char *run,
                        const char *flat, const char *control)
{
    int ok1 = 0, ok2 = 0, ok3 = 0;
    long small, big, kept, data = 32L * 32 * 20000 * 8 / 1024;
    if (check_quick()) {    /* runs of 20000 planes: make check-full's */
        if (myrank == 0) {
            check_skip("the quick tier (make check-full runs it)", flat);
            check_skip("the quick tier (make check-full runs it)", control);
        }
        return;
    }
    small = growth(2500, 0, &ok1);
    big = growth(20000, 0, &ok2);
    kept = growth(20000, 1, &ok3);
    if (small < 0 || big < 0 || kept < 0) {
        if (myrank == 0) {
            check_skip("/proc/self/clear_refs cannot reset the peak RSS here", flat);
            check_skip("/proc/self/clear_refs cannot reset the peak RSS here", control);
        }
        return;
    }
    check_mpi(MPI_COMM_WORLD, ok1 && ok2 && big <= small + 2048 && big < data / 16,
              "%s: a run of 32 x 32 x 20000 doubles per rank (%ld kB if kept) %s grows the "
              "peak RSS by %ld kB, as one of 2500 planes (%ld kB): memory does not grow with Z",
              flat, data, run, big, small);
    check_mpi(MPI_COMM_WORLD, ok3 && kept >= data / 2, "%s: the same run grows it by %ld kB "
              "(>= %ld kB): the measurement sees memory that grows with Z", control, kept,
              data / 2);
}

/* A plan that skews (seidel-1d in time: i reads i + 1 of the previous
 * sweep): the reductions still equal the sequential loop's in every
 * model; the calls that need box-shaped blocks refuse it. */
static int seidel1_hook(void *ctx, const tile_plan *plan, const tile_piece *pc)
{
    (void)ctx, (void)plan, (void)pc;
    return 0;
}

static int seidel1_input(void *ctx, const tile_plan *plan, const tile_box *box, void *data)
{
    (void)ctx, (void)plan, (void)box, (void)data;
    return 0;
}

/* The skewed plan's space: NI points i, NT sweeps t. */
enum { NI = 13, NT = 9 };

/* The sequential seidel-1d (cx: the boundary's): into x the exact sum of
 * every point, *best their maximum and at its first point (i, then t). */
static void seidel1_sequential(ctx_t *cx, tile_xsum *x, double *best, int64_t *at)
{
    double a[NI];
    int64_t c[2];
    int i, t;
    tile_xsum_init(x);
    for (i = 0; i < NI; i++) {
        c[0] = i, c[1] = -1;
        edge(&a[i], c, cx);
    }
    for (t = 0; t < NT; t++)
        for (i = 0; i < NI; i++) {   /* in place: a[i - 1] is this sweep's */
            double l, r;
            c[0] = -1, c[1] = t;
            if (i > 0)
                l = a[i - 1];
            else
                edge(&l, c, cx);
            c[0] = NI, c[1] = t - 1;
            if (i < NI - 1)
                r = a[i + 1];
            else
                edge(&r, c, cx);
            a[i] = (l + a[i] + r) / 3.0;
            tile_xsum_add(x, a[i]);
            if (at[0] < 0 || a[i] > *best || (a[i] == *best && (i < at[0] ||
                                                                 (i == at[0] && t < at[1])))) {
                *best = a[i];
                at[0] = i, at[1] = t;
            }
        }
}

/* The skewed plan in model m: seidel-1d's stencil, t outermost, then i. */
static void seidel1_config(tile_config *cf, int model, ctx_t *cx)
{
    static const int order[2] = { 1, 0 };  /* t outermost, then i */
    tile_config_init(cf, 1);
    cf->extent[0] = NI;
    cf->zlen = NT;
    cf->tile_height = 2;
    cf->boundary = edge;
    cf->boundary_ctx = cx;
    cf->model = model;
    cf->threads = model == TILE_MODEL_MPI ? 1 : 2;
    tile_config_stencil(cf, "-1,0 0,-1 1,-1", NULL);
    memcpy(cf->loop_order, order, sizeof order);
}

/* The declared stencil's reach: -1,0 0,-1 1,-1.  1 if right, else 0 and
 * why. */
static int seidel1_reach(tile_plan *p, char *why, size_t len)
{
    tile_reach rr;
    memset(&rr, 0, sizeof rr);
    if (tile_reach_stencil(p, &rr) != TILE_OK || rr.below[0] != 1 ||
        rr.above[0] != 1 || rr.below[1] != 1 || rr.above[1] != 0) {
        snprintf(why, len, "tile_reach_stencil: below %d %d above %d %d",
                 rr.below[0], rr.below[1], rr.above[0], rr.above[1]);
        return 0;
    }
    return 1;
}

/* 1 if the calls that need box-shaped blocks refuse the skewed plan p with
 * TILE_ERR_SKEWED, and a NULL hook or box stops (TILE_OK). */
static int seidel1_refused(tile_plan *p)
{
    static double whole[NI * NT];     /* what a gather would write, were it not refused */
    tile_box b;
    int64_t z0, zl;
    memset(&b, 0, sizeof b);
    b.ndims = 2;
    return tile_input_set(p, seidel1_input, NULL, sizeof(double), NULL, NULL) ==
           TILE_ERR_SKEWED &&
           tile_input_set(p, NULL, NULL, sizeof(double), NULL, NULL) == TILE_OK &&
           tile_output_to(p, &b, whole, NULL) == TILE_ERR_SKEWED &&
           tile_output_to(p, NULL, NULL, NULL) == TILE_OK &&
           tile_input_box(p, TILE_ALL_TILES, NULL, &b, NULL) == TILE_ERR_SKEWED &&
           tile_stored_zrange(p, &z0, &zl) == TILE_ERR_SKEWED &&
           tile_output_set(p, seidel1_hook, NULL, TILE_LAYOUT_Z_LAST, NULL) ==
           TILE_ERR_SKEWED &&
           tile_output_set(p, NULL, NULL, TILE_LAYOUT_Z_LAST, NULL) == TILE_OK &&
           tile_gather(p, 0, NT, TILE_ROOT_ALL, whole, NULL) == TILE_ERR_SKEWED &&
           strstr(p->errmsg, "skews its stencil") != NULL;
}

static void skewed_cases(void)
{
    double best = 0;
    int64_t at[2] = { -1, -1 };
    tile_xsum x;
    tile_config cf;
    ctx_t cx;
    int model;
    char first[400] = "";
    cx.n = 1;
    seidel1_sequential(&cx, &x, &best, at);
    for (model = TILE_MODEL_MPI; model <= TILE_MODEL_MULTIPLE; model++) {
        tile_plan p;
        tile_reduction rs, rm;
        char why[400] = "";
        int ok = 1;
        seidel1_config(&cf, model, &cx);
        tile_plan_create(&p, MPI_COMM_WORLD, &cf);
        if (tile_plan_status(&p) != TILE_OK) {
            snprintf(why, sizeof why, "%s: %s", tile_model_name(model), p.errmsg);
            ok = 0;
        } else {
            tile_reduction_init(&p, &rs, TILE_REDUCE_SUM, NULL);
            tile_reduction_init(&p, &rm, TILE_REDUCE_MAXLOC, NULL);
            HYBRID_RUN(&p, it, {
                double v = (TILE_AT(double, it, -1, 0) + TILE_AT(double, it, 0, -1) +
                            TILE_AT(double, it, 1, -1)) / 3.0;
                TILE_AT(double, it, 0, 0) = v;
                tile_reduce(&it, &rs, v);
                tile_reduce(&it, &rm, v);
            });
            if (tile_plan_status(&p) != TILE_OK || !p.deps.skewed ||
                bits(rs.value) != bits(tile_xsum_round(&x)) || rs.count != NI * NT ||
                bits(rm.value) != bits(best) || rm.coord[0] != at[0] || rm.coord[1] != at[1]) {
                snprintf(why, sizeof why, "%s: status %d skewed %d sum %.17g count %lld max "
                         "%.17g at (%lld, %lld)", tile_model_name(model),
                         tile_plan_status(&p), p.deps.skewed, rs.value, (long long)rs.count,
                         rm.value, (long long)rm.coord[0], (long long)rm.coord[1]);
                ok = 0;
            }
            if (!seidel1_reach(&p, why, sizeof why))
                ok = 0;
            if (!seidel1_refused(&p) && why[0] == 0) {
                snprintf(why, sizeof why, "%s: a data call did not refuse the skewed plan: %s",
                         tile_model_name(model), p.errmsg);
                ok = 0;
            }
            tile_reduction_drop(&p, &rs);
            tile_reduction_drop(&p, &rm);
        }
        tile_plan_destroy(&p);
        if (!ok && first[0] == 0)
            memcpy(first, why, sizeof first);
    }
    check_mpi(MPI_COMM_WORLD, first[0] == 0, "a plan that skews (seidel-1d in time, every "
              "model): the exact sum and the MAXLOC of every point equal the sequential "
              "loop's (%.17g; %.17g at i = %lld, t = %lld); tile_input_set, tile_output_to, "
              "tile_input_box, tile_stored_zrange, tile_output_set and tile_gather refuse it "
              "with TILE_ERR_SKEWED (a NULL hook or box stops, TILE_OK)%s%s", tile_xsum_round(&x), best, (long long)at[0],
              (long long)at[1], first[0] ? ": " : "", first);
}

/* The lanes of the hyperplane order's SIMD loop (tile_reduce_u64): in
 * every model and thread count the sum and the count equal the sequential
 * loop's, a MAX fed there (the inline test, the call when a value may
 * win) gives the sequential maximum, and a tile_reduce_u64 on a reduction
 * that is not a SUM_U64 of the plan, made only at points past each tile's
 * first diagonal (where the SIMD loop runs), fails the run with
 * TILE_ERR_REDUCE naming it on every rank. */
/* The four models, for the loops over them. */
static const int model_kinds[4] = { TILE_MODEL_MPI, TILE_MODEL_FINE, TILE_MODEL_FUNNELED,
                                    TILE_MODEL_MULTIPLE };

/* A 21 x 37 x zlen plan of doubles in the hyperplane order, axis-aligned
 * distances 1, tile height z, split along X_2 over the ranks. */
static void hyper_config(tile_config *h, int64_t zlen, int64_t z, int model, int threads)
{
    tile_config_init(h, 2);
    h->extent[0] = 21;
    h->extent[1] = 37;
    h->zlen = zlen;
    h->dep[0] = h->dep[1] = 1;
    h->depz = 1;
    h->elem_size = sizeof(double);
    h->order = TILE_ORDER_HYPERPLANE;
    h->tile_height = z;
    h->model = model;
    h->threads = threads;
    h->grid[0] = 1;
    h->grid[1] = nprocs;
}

static uint64_t lane_value(const int64_t *c)
{
    return (uint64_t)(c[0] * 1000003 + c[1] * 10007 + c[2] * 101) * 0x9e3779b97f4a7c15ull;
}

static void simd_lanes(void)
{
    char first[640] = "";
    int mi;
    for (mi = 0; mi < 4; mi++) {
        tile_config h;
        tile_plan q;
        tile_reduction ru, rm, rs;
        uint64_t want = 0;
        int64_t c[3], cnt = 0;
        double best = -1.0;
        int threads = mi == 0 ? 1 : 1 + mi % 3, ok, k;
        hyper_config(&h, 11, 4, model_kinds[mi], threads);
        for (c[0] = 0; c[0] < 21; c[0]++)
            for (c[1] = 0; c[1] < 37; c[1]++)
                for (c[2] = 0; c[2] < 11; c[2]++) {
                    double v = (double)((c[0] * 7 + c[1] * 3 + c[2]) % 50);
                    want += lane_value(c);
                    best = v > best ? v : best;
                    cnt++;
                }
        if (tile_plan_create(&q, MPI_COMM_WORLD, &h) != TILE_OK) {
            snprintf(first, sizeof first, "%s: %s", tile_model_name(h.model), q.errmsg);
            tile_plan_destroy(&q);
            break;
        }
        tile_reduction_init(&q, &ru, TILE_REDUCE_SUM_U64, NULL);
        tile_reduction_init(&q, &rm, TILE_REDUCE_MAX, NULL);
        HYBRID_RUN(&q, it, {
            int64_t cc[3];
            cc[0] = tile_coord(&it, 0);
            cc[1] = tile_coord(&it, 1);
            cc[2] = tile_coord(&it, 2);
            TILE_AT(double, it, 0, 0, 0) = TILE_AT(double, it, -1, 0, 0) + 1.0;
            tile_reduce_u64(&it, &ru, lane_value(cc));
            tile_reduce(&it, &rm, (double)((cc[0] * 7 + cc[1] * 3 + cc[2]) % 50));
        });
        ok = tile_plan_status(&q) == TILE_OK && q.store.order == TILE_ORDER_HYPERPLANE &&
             ru.u64 == want && ru.count == cnt && rm.value == best && rm.count == cnt;
        if (!ok && first[0] == 0)
            snprintf(first, sizeof first, "%s x %d: order %d, sum %016llx (want %016llx), "
                     "count %lld (want %lld), max %g (want %g): %s", tile_model_name(h.model),
                     threads, q.store.order, (unsigned long long)ru.u64,
                     (unsigned long long)want, (long long)ru.count, (long long)cnt, rm.value,
                     best, q.errmsg[0] ? q.errmsg : "no error");
        for (k = 0; k < 2; k++) {      /* a SUM, and a SUM_U64 of another plan */
            tile_plan o;
            tile_reduction *bad = k == 0 ? &rs : &ru;
            tile_plan_create(&o, MPI_COMM_WORLD, &h);
            tile_reduction_init(k == 0 ? &q : &o, k == 0 ? &rs : &ru, k == 0 ? TILE_REDUCE_SUM
                                : TILE_REDUCE_SUM_U64, NULL);
            HYBRID_RUN(&q, it, {
                TILE_AT(double, it, 0, 0, 0) = 1.0;
                if (tile_coord(&it, 0) + tile_coord(&it, 1) > 3)
                    tile_reduce_u64(&it, bad, 3);
            });
            /* the SIMD loop's lanes, or the scalar loop's slot (the first
             * runs of each plane go through the checked loop) */
            ok = tile_plan_status(&q) == TILE_ERR_REDUCE && same_everywhere(q.errmsg) &&
                 (strstr(q.errmsg, "tile_reduce_u64: the reduction is not a SUM_U64 reduction "
                         "declared on this plan") != NULL ||
                  strstr(q.errmsg, k == 0 ? "tile_reduce_u64 on a 'sum' reduction"
                                          : "tile_reduce_u64: the reduction is not declared "
                                            "on this plan") != NULL);
            if (!ok && first[0] == 0)
                snprintf(first, sizeof first, "%s x %d, the SIMD loop's tile_reduce_u64 on %s: "
                         "%s", tile_model_name(h.model), threads, k == 0 ? "a SUM"
                         : "another plan's SUM_U64", q.errmsg[0] ? q.errmsg : "no error");
            tile_plan_destroy(&o);
        }
        tile_plan_destroy(&q);
    }
    check_mpi(MPI_COMM_WORLD, first[0] == 0, "the SIMD loop's reduction lanes (hyperplane "
              "order, every model): the sum of 8547 values mod 2^64 and their count equal the "
              "sequential loop's, a MAX fed there its maximum; tile_reduce_u64 there on a SUM "
              "or on another plan's reduction fails the run with TILE_ERR_REDUCE%s%s",
              first[0] ? ": " : "", first);
}

/* pair_points()'s values: those of the plan q (model, threads; x +
 * neighbours: a wrong order shows) gathered and compared with the
 * sequential loop's; the first difference into first. */
static void pair_values(tile_plan *q, int model, int threads, char *first, size_t len)
{
    double *a = (double *)calloc((size_t)(21 * 37 * 8), sizeof(double));
    int64_t c[3];
    double v = 0.0;
    for (c[0] = 0; a != NULL && c[0] < 21; c[0]++)
        for (c[1] = 0; c[1] < 37; c[1]++)
            for (c[2] = 0; c[2] < 8; c[2]++) {
                double l = c[0] ? a[((c[0] - 1) * 37 + c[1]) * 8 + c[2]] : 0.0;
                double d = c[1] ? a[(c[0] * 37 + c[1] - 1) * 8 + c[2]] : 0.0;
                double b = c[2] ? a[(c[0] * 37 + c[1]) * 8 + c[2] - 1] : 0.0;
                a[(c[0] * 37 + c[1]) * 8 + c[2]] = ((l + d) + b) / 3.0 + (double)c[0];
            }
    double *g = (double *)calloc((size_t)(21 * 37 * 8), sizeof(double));
    int rc = a != NULL && g != NULL ? tile_gather(q, 0, 8, TILE_ROOT_ALL, g, NULL)
                                    : TILE_ERR_NULL;
    if (rc != TILE_OK)
        snprintf(first, len, "%s x %d: tile_gather: %s",
                 tile_model_name(model), threads, q->errmsg);
    for (c[0] = 0; rc == TILE_OK && c[0] < 21 && first[0] == 0; c[0]++)
        for (c[1] = 0; c[1] < 37 && first[0] == 0; c[1]++)
            for (c[2] = 0; c[2] < 8 && first[0] == 0; c[2]++)
                if (bits(v = g[(c[0] * 37 + c[1]) * 8 + c[2]]) !=
                    bits(a[(c[0] * 37 + c[1]) * 8 + c[2]]))
                    snprintf(first, len, "%s x %d: (%lld,%lld,%lld) = %.17g, "
                             "the sequential loop's %.17g", tile_model_name(model),
                             threads, (long long)c[0], (long long)c[1],
                             (long long)c[2], v, a[(c[0] * 37 + c[1]) * 8 + c[2]]);
    free(a);
    free(g);
}

/* Points of plane B of a pair (the hyperplane order walks planes z and
 * z + 1 of a tile together, B's diagonal d after A's d + 1): a MAXLOC and a
 * MINLOC whose ties span several planes name the first tied point in
 * row-major order, which lies on B (z = 1 of a tile of planes 0..2, z = 4
 * of 3..5), and a break at a point of B names that point, in every model;
 * the values are the sequential loop's. */
static void pair_points(void)
{
    char first[640] = "";
    int mi;
    for (mi = 0; mi < 4; mi++) {
        tile_config h;
        tile_plan q;
        tile_reduction rmax, rmin;
        int threads = mi == 0 ? 1 : 1 + mi % 3, ok;
        hyper_config(&h, 8, 3, model_kinds[mi], threads);  /* tiles of planes 0..2, 3..5, 6..7 */
        h.storage = TILE_STORE_FULL;
        if (tile_plan_create(&q, MPI_COMM_WORLD, &h) != TILE_OK) {
            snprintf(first, sizeof first, "%s: %s", tile_model_name(h.model), q.errmsg);
            tile_plan_destroy(&q);
            break;
        }
        tile_reduction_init(&q, &rmax, TILE_REDUCE_MAXLOC, NULL);
        tile_reduction_init(&q, &rmin, TILE_REDUCE_MINLOC, NULL);
        HYBRID_RUN(&q, it, {
            int64_t z = tile_coord(&it, 2);
            TILE_AT(double, it, 0, 0, 0) = ((TILE_AT(double, it, -1, 0, 0) +
                                             TILE_AT(double, it, 0, -1, 0)) +
                                            TILE_AT(double, it, 0, 0, -1)) / 3.0 +
                                           (double)tile_coord(&it, 0);
            tile_reduce(&it, &rmax, z == 1 || z == 4 ? 1.0 : 0.0);
            tile_reduce(&it, &rmin, z == 4 || z == 7 ? -1.0 : 0.0);
        });
        ok = tile_plan_status(&q) == TILE_OK && rmax.value == 1.0 && rmax.coord[0] == 0 &&
             rmax.coord[1] == 0 && rmax.coord[2] == 1 && rmin.value == -1.0 &&
             rmin.coord[0] == 0 && rmin.coord[1] == 0 && rmin.coord[2] == 4 &&
             rmax.count == 21 * 37 * 8 && rmin.count == 21 * 37 * 8;
        if (!ok && first[0] == 0)
            snprintf(first, sizeof first, "%s x %d: MAXLOC %g at (%lld,%lld,%lld), want "
                     "(0,0,1); MINLOC %g at (%lld,%lld,%lld), want (0,0,4); %lld and %lld "
                     "points, want 6216: %s", tile_model_name(h.model), threads, rmax.value,
                     (long long)rmax.coord[0], (long long)rmax.coord[1],
                     (long long)rmax.coord[2], rmin.value, (long long)rmin.coord[0],
                     (long long)rmin.coord[1], (long long)rmin.coord[2],
                     (long long)rmax.count, (long long)rmin.count,
                     q.errmsg[0] ? q.errmsg : "no error");
        if (first[0] == 0)          /* the values (x + neighbours: a wrong order shows) */
            pair_values(&q, h.model, threads, first, sizeof first);
        HYBRID_RUN(&q, it, {
            TILE_AT(double, it, 0, 0, 0) = 1.0;
            if (tile_coord(&it, 0) == 2 && tile_coord(&it, 1) == 3 && tile_coord(&it, 2) == 4)
                break;
        });
        ok = tile_plan_status(&q) == TILE_ERR_BODY && strstr(q.errmsg, "(2,3,4)") != NULL;
        if (!ok && first[0] == 0)
            snprintf(first, sizeof first, "%s x %d, a break at (2,3,4): %s",
                     tile_model_name(h.model), threads, q.errmsg[0] ? q.errmsg : "no error");
        tile_plan_destroy(&q);
    }
    check_mpi(MPI_COMM_WORLD, first[0] == 0, "points of plane B of a pair (hyperplane order, "
              "every model): MAXLOC and MINLOC ties name the first tied point, on B, each "
              "point once, the values are the sequential loop's, a break on B names its "
              "point%s%s",
              first[0] ? ": " : "", first);
}

int main(int argc, char **argv)
{
    if (!data_init(&argc, &argv))
        return 1;
    input_box_refusals();
    get_codes();
    box_copy_codes();
    failed_plan_calls();
    reduce_refusals();
    simd_lanes();
    pair_points();
    every_model(busy_case, 3, 14, "tile_gather, tile_exchange, tile_reduction_init and "
                "tile_reduction_drop from the running plan's body (the odd ranks), output hook "
                "(rank 0) and input hook (the last rank): TILE_ERR_BODY naming the plan on the "
                "calling rank, no collective, nothing changed; the run ends normally equal to "
                "one without the calls: %d runs (4 models, 1-3 threads)");
    reduction_moves();
    gather_refusals();
    exchange_refusals();
    every_model(input_case, 3, 14, "input per tile (tile_input_set, a reach of +1 along X_1 "
                "and one plane along Z): %d runs (4 models, 1-3 threads, Z up and down) equal "
                "the runs with the whole block's input array bitwise, one hook call per tile");
    input_set_refusals();
    every_model(output_to_case, 2, 10, "tile_output_to: %d runs (4 models, 1-2 threads, Z up "
                "and down) copy each tile straight into an array over a box around the block, "
                "equal to tile_gather bitwise (the rest untouched; NULL dst and a box without "
                "the block refused), and a chained run reading that array in its body equals "
                "the sequential sweep");
    hook_failure(0);
    hook_failure(1);
    flat_memory(hook_growth, "with the output hook", "the output hook's memory is flat in Z",
                "the control, a hook that keeps every tile, keeps O(Z) memory");
    flat_memory(input_growth, "reading its input per tile (tile_input_set)",
                "input per tile keeps memory flat in Z",
                "the control, reading an input array over the whole block, grows with Z");
    skewed_cases();
    return check_mpi_exit();
}
