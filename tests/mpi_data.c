/* tests/mpi_data.c -- data in and out of a plan, in every model, against
 * plain sequential loops, bitwise: random plans.
 *
 * Random small configurations (the same on every rank): N = 1, 2, 3,
 * random stencils and loop directions, extents not divisible by the grid
 * or by the tile height, every model with 1-3 threads, both storages.
 * The body also reads an input array through tile_input_box() and
 * tile_input_index() (this rank's part only, with the reach of a random
 * offset) and feeds reductions; the result is then gathered with
 * tile_gather() to a random root or to every rank and compared with the
 * sequential loop's array; user arrays move between two decompositions
 * with tile_exchange(); the output hook (tile_output_set) hands out every
 * tile once, in order, with its box, its values equal to the sequential
 * loop's in both layouts.  A file written tile by tile from the hook with
 * MPI-IO equals the sequential loop's array byte for byte.
 *
 * Chained plans: Gauss-Seidel sweeps run the same plan again on its own
 * result (the old values at +1 come from the neighbours through
 * tile_exchange), then a plan running downward in every dimension reads
 * the last result; the end equals the sequential sweeps bitwise.
 * The exact sum (tile_xsum) against known answers and Python's fsum.
 *
 * Each data call on a small plan, its refusals, failing hooks, memory flat
 * in Z and a plan that skews its stencil: tests/mpi_data_calls.c (the two
 * share tests/data_common.h).
 * Run at 1-4 processes by tests/run.sh.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L     /* getpid */
#endif
#include <mpi.h>

#include "../hybrid.h"
#include "check.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "data_common.h"

/* The test's kernel: the stencil's reads, and the input array at the point
 * and at offset io (0 where that is outside the space). */
typedef struct kernel {
    tile_config cfg;
    int io[4];          /* the input read's offset (user coordinates) */
    int ran;            /* the order the plan ran (plan.store.order) */
} kernel;

static int inside(const kernel *k, const int64_t *c)
{
    int i;
    for (i = 0; i <= k->cfg.n; i++)
        if (c[i] < 0 || c[i] >= (i < k->cfg.n ? k->cfg.extent[i] : k->cfg.zlen))
            return 0;
    return 1;
}

/* ---------------------------------------------------------------------- */
/* The sequential loop: every dimension in its direction, Z outermost.     */

typedef check_seq seq;

/* What the loop reads outside the space: the boundary's value. */
static double edge_value(const int64_t *c, int n) { return hashv(c, n, 0); }

/* The point update, the same expression in the same order in both. */
#define UPDATE(READ, INPUT)                                                       \
    double v = 0.25 * (INPUT);                                                    \
    int k_;                                                                       \
    for (k_ = 0; k_ < cfg->nstencil; k_++)                                        \
        v = 0.5 * v + 0.3 * READ(cfg->stencil[k_]);

static double seq_input(const kernel *k, const int64_t *c)
{
    int64_t d[4];
    int i;
    for (i = 0; i <= k->cfg.n; i++)
        d[i] = c[i] + k->io[i];
    return input_value(c, k->cfg.n) + (inside(k, d) ? 0.5 * input_value(d, k->cfg.n) : 0.0);
}

static void seq_run(seq *s, const kernel *k)
{
    const tile_config *cfg = &k->cfg;
    int n = cfg->n, i;
    int64_t c[4], idx;
    s->n = n;
    s->total = 1;
    for (i = 0; i <= n; i++) {
        s->ext[i] = i < n ? cfg->extent[i] : cfg->zlen;
        s->total *= s->ext[i];
    }
    s->a = (double *)malloc(sizeof(double) * (size_t)s->total);
    for (idx = 0; idx < s->total; idx++) {
        /* Z outermost, then X_1 .. X_N, each in its direction */
        int64_t r = idx;
        for (i = n - 1; i >= 0; i--) {
            c[i] = r % s->ext[i];
            r /= s->ext[i];
        }
        c[n] = r;
        for (i = 0; i <= n; i++)
            if (cfg->dir[i] < 0)
                c[i] = s->ext[i] - 1 - c[i];
        {
#define SEQ_READ(o) check_seq_read(s, c, (o), edge_value)
            UPDATE(SEQ_READ, seq_input(k, c))
#undef SEQ_READ
            s->a[check_seq_index(s, c)] = v;
        }
    }
}

/* ---------------------------------------------------------------------- */
/* The tiled run: the input array over tile_input_box with the reach of io */

typedef struct input {
    tile_box box;
    double *a;
    int64_t off;        /* io's offset in the array */
} input;

static int make_input(const tile_plan *plan, const kernel *k, input *in)
{
    tile_reach r;
    int i, rc;
    memset(&r, 0, sizeof r);
    for (i = 0; i <= k->cfg.n; i++) {
        r.below[i] = k->io[i] < 0 ? -k->io[i] : 0;
        r.above[i] = k->io[i] > 0 ? k->io[i] : 0;
    }
    rc = tile_input_box(plan, TILE_ALL_TILES, &r, &in->box, NULL);
    if (rc != TILE_OK)
        return rc;
    in->a = (double *)malloc(sizeof(double) * (size_t)(tile_box_points(&in->box) + 1));
    in->off = 0;
    for (i = 0; i <= k->cfg.n; i++)
        in->off += k->io[i] * tile_box_stride(&in->box, i);
    fill_input(&in->box, in->a);
    return TILE_OK;
}

/* The input term in the body: the point, and io when it is inside. */
static double tiled_input(const tile_cursor *it, const kernel *k, const input *in)
{
    int64_t idx = tile_input_index(it, &in->box), d[4];
    int i;
    for (i = 0; i <= k->cfg.n; i++)
        d[i] = tile_coord(it, i) + k->io[i];
    return in->a[idx] + (inside(k, d) ? 0.5 * in->a[idx + in->off] : 0.0);
}

/* The reductions the body feeds (NULL: none): a sum of values spread over
 * 2^-20 .. 2^20 (a plain sum would depend on the order), min and max, and
 * with location a value with many ties (and -0.0 beside +0.0), a checksum
 * of bit patterns. */
typedef struct reds {
    tile_reduction sum, min, max, maxloc, minloc, u64;
} reds;
static reds *red_on;

static double spread(double v, const int64_t *c, int n)
{
    return ldexp(v, (int)((c[0] * 13 + c[n] * 7) % 41) - 20);
}

static double tie_value(const int64_t *c, int n)
{
    int64_t t = (c[0] * 7 + c[n] * 3) % 5;
    return t == 0 && c[n] % 2 ? -0.0 : (double)t;
}

static void feed(const tile_cursor *it, reds *r, double v, int n)
{
    int64_t c[4];
    int i;
    for (i = 0; i <= n; i++)
        c[i] = tile_coord(it, i);
    tile_reduce(it, &r->sum, spread(v, c, n));
    tile_reduce(it, &r->min, v);
    tile_reduce(it, &r->max, v);
    tile_reduce(it, &r->maxloc, tie_value(c, n));
    tile_reduce(it, &r->minloc, tie_value(c, n));
    tile_reduce_u64(it, &r->u64, bits(v));
}

#define DEFINE_RUN(NDIM, READ)                                                   \
    static void run##NDIM(tile_plan *plan, const kernel *kk, const input *in)    \
    {                                                                            \
        const tile_config *cfg = &kk->cfg;                                       \
        reds *const rr = red_on;                                                 \
        HYBRID_RUN(plan, it, {                                                   \
            UPDATE(READ, tiled_input(&it, kk, in))                               \
            TILE_AT(double, it, ZERO##NDIM) = v;                                 \
            if (rr != NULL)                                                      \
                feed(&it, rr, v, NDIM);                                          \
        });                                                                      \
    }
#define ZERO1 0, 0
#define ZERO2 0, 0, 0
#define ZERO3 0, 0, 0, 0
#define R1(o) TILE_AT(double, it, (o)[0], (o)[1])
#define R2(o) TILE_AT(double, it, (o)[0], (o)[1], (o)[2])
#define R3(o) TILE_AT(double, it, (o)[0], (o)[1], (o)[2], (o)[3])
DEFINE_RUN(1, R1)
DEFINE_RUN(2, R2)
DEFINE_RUN(3, R3)

static void run_plan(tile_plan *plan, const kernel *k, const input *in)
{
    if (k->cfg.n == 1)
        run1(plan, k, in);
    else if (k->cfg.n == 2)
        run2(plan, k, in);
    else
        run3(plan, k, in);
}

/* A component of a random vector: 0 (a third), else 0 or -1. */
static int vector_component(int k, int i, int n)
{
    (void)k;
    (void)i;
    (void)n;
    return check_rnd_in(0, 2) == 0 ? 0 : -(int)check_rnd_in(0, 1);
}

static void random_kernel(kernel *k, int n)
{
    tile_config *cfg = &k->cfg;
    int i;
    tile_config_init(cfg, n);
    for (i = 0; i < n; i++)
        cfg->extent[i] = check_rnd_in(2, n == 1 ? 30 : n == 2 ? 11 : 6);
    cfg->zlen = check_rnd_in(1, n == 1 ? 40 : n == 2 ? 17 : 8);
    for (i = 0; i <= n; i++) {
        cfg->dir[i] = check_rnd_in(0, 2) == 0 ? -1 : 1;
        k->io[i] = (int)check_rnd_in(-2, 2);
    }
    for (i = 0; i < n; i++)
        cfg->dep[i] = 0;
    cfg->depz = 0;
    cfg->nstencil = (int)check_rnd_in(1, 4);
    check_rnd_vectors(cfg, vector_component);
    cfg->tile_height = check_rnd_in(1, cfg->zlen + 2);
    cfg->model = (int)check_rnd_in(TILE_MODEL_MPI, TILE_MODEL_MULTIPLE);
    cfg->threads = cfg->model == TILE_MODEL_MPI ? 1 : (int)check_rnd_in(1, 3);
    cfg->balance.bal = (double)check_rnd_in(30, 100) / 100.0;
    cfg->storage = (int)check_rnd_in(0, 1);
    cfg->order = (int)check_rnd_in(TILE_ORDER_PLANES, TILE_ORDER_AUTO);
    cfg->boundary = edge;
}

static void describe(const kernel *k, char *buf, size_t len)
{
    const tile_config *c = &k->cfg;
    int o = check_describe_space(c, buf, len);
    snprintf(buf + o, len - (size_t)o, " z=%lld model=%s T=%d storage=%d order=%d",
             (long long)c->tile_height, tile_model_name(c->model), c->threads, c->storage,
             c->order);
}

/* ---------------------------------------------------------------------- */
/* Checks                                                                  */

/* Every point of the space is in exactly one rank's block box. */
static int blocks_cover(const tile_plan *plan, const seq *s)
{
    tile_box b;
    int64_t idx, c[4];
    int *mine = (int *)calloc((size_t)s->total, sizeof(int)), *all, ok = 1, i;
    all = (int *)calloc((size_t)s->total, sizeof(int));
    if (tile_input_box(plan, TILE_ALL_TILES, NULL, &b, NULL) != TILE_OK)
        ok = 0;
    for (idx = 0; idx < s->total && ok; idx++) {
        int64_t q = idx;
        for (i = s->n; i >= 0; i--) {
            c[i] = q % s->ext[i];
            q /= s->ext[i];
        }
        mine[idx] = tile_box_index(&b, c) >= 0;
    }
    MPI_Allreduce(mine, all, (int)s->total, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (idx = 0; idx < s->total; idx++)
        ok &= all[idx] == 1;
    free(mine);
    free(all);
    return ok;
}

/* Compare an array over box b with the sequential values; 1 if equal. */
static int equal_box(const seq *s, const tile_box *b, const double *a)
{
    int64_t idx, c[4];
    for (idx = 0; idx < tile_box_points(b); idx++) {
        box_coord(b, idx, c);
        if (bits(a[idx]) != bits(s->a[check_seq_index(s, c)]))
            return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------------- */
/* Reductions against the sequential loop                                  */

static uint64_t order_key(double v)
{
    uint64_t b = bits(v);
    return (b >> 63) ? ~b : b | ((uint64_t)1 << 63);
}

static int declare(tile_plan *plan, reds *r)
{
    return tile_reduction_init(plan, &r->sum, TILE_REDUCE_SUM, NULL) == TILE_OK &&
           tile_reduction_init(plan, &r->min, TILE_REDUCE_MIN, NULL) == TILE_OK &&
           tile_reduction_init(plan, &r->max, TILE_REDUCE_MAX, NULL) == TILE_OK &&
           tile_reduction_init(plan, &r->maxloc, TILE_REDUCE_MAXLOC, NULL) == TILE_OK &&
           tile_reduction_init(plan, &r->minloc, TILE_REDUCE_MINLOC, NULL) == TILE_OK &&
           tile_reduction_init(plan, &r->u64, TILE_REDUCE_SUM_U64, NULL) == TILE_OK;
}

/* The same reductions over the sequential array, in row-major order: the
 * first strictly better value wins. */
static int reds_equal(const seq *s, const reds *r, char *why, size_t whylen)
{
    tile_xsum x;
    uint64_t mn = ~(uint64_t)0, mx = 0, u = 0, kmax = 0, kmin = ~(uint64_t)0, k;
    int64_t idx, c[4], atmax[4] = {0}, atmin[4] = {0};
    int i, n = s->n, ok = 1;
    tile_xsum_init(&x);
    for (idx = 0; idx < s->total; idx++) {
        int64_t q = idx;
        double v = s->a[idx];
        for (i = n; i >= 0; i--) {
            c[i] = q % s->ext[i];
            q /= s->ext[i];
        }
        tile_xsum_add(&x, spread(v, c, n));
        mn = order_key(v) < mn ? order_key(v) : mn;
        mx = order_key(v) > mx ? order_key(v) : mx;
        u += bits(v);
        k = order_key(tie_value(c, n));
        if (idx == 0 || k > kmax)
            kmax = k, memcpy(atmax, c, sizeof c);
        if (idx == 0 || k < kmin)
            kmin = k, memcpy(atmin, c, sizeof c);
    }
    ok = bits(r->sum.value) == bits(tile_xsum_round(&x)) && order_key(r->min.value) == mn &&
         order_key(r->max.value) == mx && r->u64.u64 == u &&
         order_key(r->maxloc.value) == kmax && order_key(r->minloc.value) == kmin &&
         r->sum.count == s->total && r->minloc.count == s->total;
    for (i = 0; i <= n; i++)
        ok &= r->maxloc.coord[i] == atmax[i] && r->minloc.coord[i] == atmin[i];
    if (!ok)
        snprintf(why, whylen, "reductions: sum %.17g (sequential %.17g), min %g, max %g, "
                 "maxloc %g at (%lld,%lld,...) (sequential (%lld,%lld,...)), minloc %g at "
                 "(%lld,%lld,...) (sequential (%lld,%lld,...)), count %lld of %lld",
                 r->sum.value, tile_xsum_round(&x), r->min.value, r->max.value,
                 r->maxloc.value, (long long)r->maxloc.coord[0], (long long)r->maxloc.coord[1],
                 (long long)atmax[0], (long long)atmax[1], r->minloc.value,
                 (long long)r->minloc.coord[0], (long long)r->minloc.coord[1],
                 (long long)atmin[0], (long long)atmin[1], (long long)r->sum.count,
                 (long long)s->total);
    return ok;
}

/* Gather a random stored Z range to a random root (or every rank) and
 * compare; with the window, ask for a dropped plane too.  1 if right. */
static int gather_case(tile_plan *plan, const seq *s, char *why, size_t whylen)
{
    int64_t s0, sl, a, len, z0, cnt;
    int root, rc, i, recv, ok = 1;
    tile_box b;
    double *out = NULL;
    if (tile_stored_zrange(plan, &s0, &sl) != TILE_OK || sl < 1)
        return snprintf(why, whylen, "tile_stored_zrange: nothing stored after a run"), 0;
    if (plan->cfg.storage == TILE_STORE_FULL && (s0 != 0 || sl != plan->cfg.zlen))
        return snprintf(why, whylen, "full storage keeps z = %lld + %lld", (long long)s0,
                        (long long)sl), 0;
    root = (int)check_rnd_in(-1, nprocs - 1);
    a = check_rnd_in(s0, s0 + sl - 1);
    len = check_rnd_in(1, s0 + sl - a);
    recv = root < 0 || root == myrank;
    memset(&b, 0, sizeof b);
    b.ndims = s->n + 1;
    for (i = 0; i < s->n; i++)
        b.len[i] = s->ext[i];
    b.lo[s->n] = a;
    b.len[s->n] = len;
    cnt = tile_box_points(&b);
    if (recv) {
        out = (double *)malloc(sizeof(double) * (size_t)cnt);
        memset(out, 0xab, sizeof(double) * (size_t)cnt);
    }
    rc = tile_gather(plan, a, len, root, out, NULL);
    if (rc != TILE_OK)
        ok = 0, snprintf(why, whylen, "tile_gather(%lld, %lld, root %d): %s", (long long)a,
                         (long long)len, root, plan->errmsg);
    else if (recv && !equal_box(s, &b, out))
        ok = 0, snprintf(why, whylen, "rank %d: tile_gather(%lld, %lld, root %d) differs from "
                         "the sequential loop", myrank, (long long)a, (long long)len, root);
    free(out);
    if (rc == TILE_OK && sl < plan->cfg.zlen) {   /* rc, not ok: the same on every rank */
        /* one plane the window dropped: refused on every rank, alike */
        z0 = s0 > 0 ? s0 - 1 : s0 + sl;
        out = (double *)malloc(sizeof(double) * (size_t)(cnt / len));
        rc = tile_gather(plan, z0, 1, TILE_ROOT_ALL, out, NULL);
        if (rc != TILE_ERR_NOT_STORED || strstr(plan->errmsg, "are not stored") == NULL)
            ok = 0, snprintf(why, whylen, "a dropped plane z = %lld: code %d, %s", (long long)z0,
                             rc, plan->errmsg);
        free(out);
    }
    return ok;
}

/* Move the sequential result from this plan's blocks to a random box of
 * each rank, and to the blocks of the plan in the other directions. */
static int exchange_case(tile_plan *plan, const kernel *k, const seq *s, char *why, size_t whylen)
{
    tile_box have, want;
    tile_plan other;
    tile_config oc = k->cfg;
    double *src, *dst;
    int64_t idx, c[4];
    int i, ok = 1, rc;
    uint64_t r1 = check_rnd(), r2 = check_rnd();
    tile_input_box(plan, TILE_ALL_TILES, NULL, &have, NULL);
    src = (double *)malloc(sizeof(double) * (size_t)tile_box_points(&have));
    for (idx = 0; idx < tile_box_points(&have); idx++) {
        int64_t q = idx;
        for (i = have.ndims - 1; i >= 0; i--) {
            c[i] = have.lo[i] + q % have.len[i];
            q /= have.len[i];
        }
        src[idx] = s->a[check_seq_index(s, c)];
    }
    want = have;
    for (i = 0; i <= s->n; i++) {
        want.lo[i] = (int64_t)((r1 >> (8 * i)) % 251 + (uint64_t)myrank * 3) % s->ext[i];
        want.len[i] = 1 + (int64_t)((r2 >> (8 * i)) % 251 + (uint64_t)myrank) %
                              (s->ext[i] - want.lo[i]);
    }
    dst = (double *)malloc(sizeof(double) * (size_t)tile_box_points(&want));
    rc = tile_exchange(plan, sizeof(double), &have, src, &want, dst, NULL);
    if (rc != TILE_OK || !equal_box(s, &want, dst))
        ok = 0, snprintf(why, whylen, "tile_exchange to a random box: %d %s", rc, plan->errmsg);
    free(dst);
    ok = ok && rc == TILE_OK;
    for (i = 0; i <= s->n; i++) {
        oc.dir[i] = -oc.dir[i];
        oc.stencil[0][i] = -oc.stencil[0][i];
    }
    oc.nstencil = 1;
    memset(&other, 0, sizeof other);
    if (rc == TILE_OK && tile_plan_create(&other, MPI_COMM_WORLD, &oc) == TILE_OK) {
        tile_input_box(&other, TILE_ALL_TILES, NULL, &want, NULL);
        dst = (double *)malloc(sizeof(double) * (size_t)tile_box_points(&want));
        rc = tile_exchange(plan, sizeof(double), &have, src, &want, dst, NULL);
        if (rc != TILE_OK || !equal_box(s, &want, dst))
            ok = 0, snprintf(why, whylen, "tile_exchange to the blocks of the reversed plan: "
                             "%d %s", rc, plan->errmsg);
        free(dst);
    }
    tile_plan_destroy(&other);
    free(src);
    return ok;
}

/* ---------------------------------------------------------------------- */
/* The output hook                                                         */

typedef struct collect {
    tile_box block;     /* this rank's block over all of Z */
    double *a;          /* an array over it */
    int64_t next;       /* the tile expected next */
    int bad;            /* 1 order, 2 box, 3 size */
} collect;

/* Copy a Z-first piece into the block array, point by point. */
static void copy_z_first(const tile_piece *pc, collect *c)
{
    const tile_box *b = &pc->box;
    int64_t e, co[4];
    int i, d = b->ndims;
    for (e = 0; e < tile_box_points(b); e++) {
        int64_t q = e;
        for (i = d - 2; i >= 0; i--) {
            co[i] = b->lo[i] + q % b->len[i];
            q /= b->len[i];
        }
        co[d - 1] = b->lo[d - 1] + q;
        c->a[tile_box_index(&c->block, co)] = ((const double *)pc->data)[e];
    }
}

static int collect_hook(void *ctx, const tile_plan *plan, const tile_piece *pc)
{
    collect *c = (collect *)ctx;
    tile_box want;
    int i;
    if (pc->tile != c->next++)
        c->bad = 1;
    memset(&want, 0, sizeof want);
    if (tile_input_box(plan, pc->tile, NULL, &want, NULL) != TILE_OK)
        c->bad = 5;
    for (i = 0; i < want.ndims; i++)
        if (want.ndims != pc->box.ndims || want.lo[i] != pc->box.lo[i] ||
            want.len[i] != pc->box.len[i])
            c->bad = 2;
    if (pc->elem_size != sizeof(double) ||
        pc->bytes != sizeof(double) * (size_t)tile_box_points(&pc->box))
        c->bad = 3;
    if (c->bad == 0 && pc->layout == TILE_LAYOUT_Z_LAST)
        c->bad = tile_box_copy(&pc->box, pc->data, &c->block, c->a, sizeof(double), NULL) ==
                 TILE_OK ? 0 : 4;
    else if (c->bad == 0)
        copy_z_first(pc, c);
    return 0;
}

/* Run the plan again with the hook in a random layout: every tile once,
 * in order, with its box, values equal to the sequential loop's. */
static int hook_case(tile_plan *plan, const kernel *k, const input *in, const seq *s,
                     char *why, size_t whylen)
{
    collect c;
    int layout = (int)check_rnd_in(0, 1), ok;
    memset(&c, 0, sizeof c);
    tile_input_box(plan, TILE_ALL_TILES, NULL, &c.block, NULL);
    c.a = (double *)malloc(sizeof(double) * (size_t)tile_box_points(&c.block));
    memset(c.a, 0xab, sizeof(double) * (size_t)tile_box_points(&c.block));
    if (tile_output_set(plan, collect_hook, &c, layout, NULL) != TILE_OK)
        return snprintf(why, whylen, "tile_output_set failed"), free(c.a), 0;
    run_plan(plan, k, in);
    ok = tile_plan_status(plan) == TILE_OK && c.bad == 0 && c.next == plan->ntiles &&
         equal_box(s, &c.block, c.a);
    if (!ok)
        snprintf(why, whylen, "rank %d: output hook (layout %d): status %d, problem %d, %lld of "
                 "%lld tiles, values %s", myrank, layout, tile_plan_status(plan), c.bad,
                 (long long)c.next, (long long)plan->ntiles,
                 equal_box(s, &c.block, c.a) ? "equal" : "DIFFER");
    tile_output_set(plan, NULL, NULL, 0, NULL);
    free(c.a);
    return ok;
}

/* One random configuration: 1 ran and matched; 0 failed; -1 refused for
 * its sizes. */
static int one_case(kernel *k, char *why, size_t whylen)
{
    tile_plan plan;
    input in;
    seq s;
    reds r;
    int rc, ok, all;
    static ctx_t cx;
    cx.n = k->cfg.n;
    k->cfg.boundary_ctx = &cx;
    rc = check_plan_case(&plan, &k->cfg, why, whylen);
    if (rc != 1)
        return rc;
    k->ran = plan.store.order;
    ok = make_input(&plan, k, &in) == TILE_OK && declare(&plan, &r);
    red_on = &r;
    if (ok)
        run_plan(&plan, k, &in);
    red_on = NULL;
    ok = ok && tile_plan_status(&plan) == TILE_OK;
    if (!ok)
        snprintf(why, whylen, "run failed: %.200s", plan.errmsg);
    seq_run(&s, k);
    ok = ok && blocks_cover(&plan, &s) && reds_equal(&s, &r, why, whylen);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    /* every rank takes the same branches: each verdict is agreed first */
    ok = all && gather_case(&plan, &s, why, whylen);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    ok = all && exchange_case(&plan, k, &s, why, whylen);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    ok = all && hook_case(&plan, k, &in, &s, why, whylen);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    free(in.a);
    free(s.a);
    tile_plan_destroy(&plan);
    return all;
}

static void random_cases(int n)
{
    int cases = 0, refused = 0, failed = 0, models[4] = {0}, orders[3] = {0}, window = 0, j;
    char why[512] = "", desc[256] = "";
    for (j = 0; j < check_cases(16, 8); j++) {
        kernel k;
        int r;
        random_kernel(&k, n);
        k.cfg.model = j % 4;                /* every model, evenly */
        if (k.cfg.model == TILE_MODEL_MPI)
            k.cfg.threads = 1;
        r = one_case(&k, why, sizeof why);
        if (r < 0) {
            refused++;
            continue;
        }
        cases++;
        models[k.cfg.model]++;
        orders[k.ran >= 0 && k.ran < 3 ? k.ran : 0]++;
        window += k.cfg.storage == TILE_STORE_WINDOW;
        if (!r && !failed++)
            describe(&k, desc, sizeof desc);
    }
    /* the orders the plans ran: planes, Z innermost, and (N >= 2) the
     * hyperplane order with its diagonal-major planes */
    check_mpi(MPI_COMM_WORLD, failed == 0 && cases >= check_cases(8, 1) &&
              (check_sampled() || (models[0] && models[1] && models[2] && models[3] &&
                                 window > 0 && orders[0] && orders[1] && (n < 2 || orders[2]))),
              "N=%d: %d random plans (models %d/%d/%d/%d, orders planes/z/hyper %d/%d/%d, "
              "%d windowed) read their input box, reduce, gather, exchange and hand out every "
              "tile bitwise equal to the sequential loop, %d refused for their sizes%s%s%s%s",
              n, cases, models[0], models[1], models[2], models[3], orders[0], orders[1],
              orders[2], window, refused, failed ? "; FIRST FAILURE: " : "", desc,
              failed ? ": " : "", failed ? why : "");
}

/* ---------------------------------------------------------------------- */
/* Chained plans                                                           */

/* A plan's result, collected tile by tile into an array over its block. */
static int to_block(void *ctx, const tile_plan *plan, const tile_piece *pc)
{
    collect *c = (collect *)ctx;
    int64_t n = 0;
    (void)plan;
    return tile_box_copy(&pc->box, pc->data, &c->block, c->a, sizeof(double), &n) == TILE_OK &&
           n == tile_box_points(&pc->box) ? 0 : 1;
}

/* The sequential sweeps: forward Gauss-Seidel (new values below, old ones
 * above; outside the space the boundary, resp. 0), then one backward
 * sweep that adds the last result at the point. */
#define GS_NEW(S, X, Y, Z) ((X) < 0 || (Y) < 0 || (Z) < 0 ? edge3(X, Y, Z)                 \
                            : (S)[((X) * ey + (Y)) * ez + (Z)])
#define GS_OLD(S, X, Y, Z) ((X) >= ex || (Y) >= ey || (Z) >= ez ? 0.0                        \
                            : (S)[((X) * ey + (Y)) * ez + (Z)])
static double edge3(int64_t x, int64_t y, int64_t z)
{
    int64_t c[3];
    c[0] = x, c[1] = y, c[2] = z;
    return hashv(c, 2, 0);
}

static double *seq_chain(int64_t ex, int64_t ey, int64_t ez, int sweeps)
{
    int64_t x, y, z, n = ex * ey * ez, c[3];
    double *u = (double *)malloc(sizeof(double) * (size_t)n);
    double *w = (double *)malloc(sizeof(double) * (size_t)n);
    int k;
    for (x = 0; x < ex; x++)
        for (y = 0; y < ey; y++)
            for (z = 0; z < ez; z++)
                c[0] = x, c[1] = y, c[2] = z, u[(x * ey + y) * ez + z] = input_value(c, 2);
    for (k = 0; k < sweeps; k++) {
        for (z = 0; z < ez; z++)
            for (x = 0; x < ex; x++)
                for (y = 0; y < ey; y++)
                    w[(x * ey + y) * ez + z] =
                        0.2 * (((((GS_NEW(w, x - 1, y, z) + GS_NEW(w, x, y - 1, z)) +
                                  GS_NEW(w, x, y, z - 1)) + GS_OLD(u, x + 1, y, z)) +
                                GS_OLD(u, x, y + 1, z)) + GS_OLD(u, x, y, z + 1));
        memcpy(u, w, sizeof(double) * (size_t)n);
    }
    for (z = ez - 1; z >= 0; z--)       /* backward: reads +1 of its own, 0 outside */
        for (x = ex - 1; x >= 0; x--)
            for (y = ey - 1; y >= 0; y--)
                w[(x * ey + y) * ez + z] =
                    0.25 * ((GS_OLD(w, x + 1, y, z) + GS_OLD(w, x, y + 1, z)) +
                            GS_OLD(w, x, y, z + 1)) + u[(x * ey + y) * ez + z];
    free(u);
    return w;
}

/* One chain: `sweeps` runs of the forward plan, each on the last result
 * (its +1 halo exchanged), then the backward plan on it; 1 if equal. */
static int chain_case(const tile_config *fc, int sweeps, char *why, size_t whylen)
{
    tile_plan f, b;
    tile_config bc = *fc;
    tile_reach up;
    tile_box inbox, all;
    collect blk;
    double *in, *res, *seqv = NULL;
    int64_t sx, sy, sz, ex = fc->extent[0], ey = fc->extent[1], ez = fc->zlen;
    int i, k, ok = 1;
    for (i = 0; i < 3; i++)
        bc.dir[i] = -1;
    bc.boundary = NULL;                    /* 0 outside */
    memset(&b, 0, sizeof b);
    if (tile_plan_create(&f, MPI_COMM_WORLD, fc) != TILE_OK ||
        tile_plan_create(&b, MPI_COMM_WORLD, &bc) != TILE_OK) {
        tile_plan_destroy(&f);
        tile_plan_destroy(&b);
        return -1;
    }
    memset(&up, 0, sizeof up);
    up.above[0] = up.above[1] = up.above[2] = 1;
    tile_input_box(&f, TILE_ALL_TILES, &up, &inbox, NULL);
    in = (double *)malloc(sizeof(double) * (size_t)tile_box_points(&inbox));
    fill_input(&inbox, in);
    sx = tile_box_stride(&inbox, 0), sy = tile_box_stride(&inbox, 1), sz = 1;
    memset(&blk, 0, sizeof blk);
    tile_input_box(&f, TILE_ALL_TILES, NULL, &blk.block, NULL);
    blk.a = (double *)malloc(sizeof(double) * (size_t)tile_box_points(&blk.block));
    tile_output_set(&f, to_block, &blk, TILE_LAYOUT_Z_LAST, NULL);
    for (k = 0; k < sweeps && ok; k++) {
        HYBRID_RUN(&f, it, {
            const double *o = in + tile_input_index(&it, &inbox);
            int64_t x = tile_coord(&it, 0), y = tile_coord(&it, 1), z = tile_coord(&it, 2);
            TILE_AT(double, it, 0, 0, 0) =
                0.2 * (((((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0)) +
                          TILE_AT(double, it, 0, 0, -1)) + (x + 1 < ex ? o[sx] : 0.0)) +
                        (y + 1 < ey ? o[sy] : 0.0)) + (z + 1 < ez ? o[sz] : 0.0));
        });
        ok = tile_plan_status(&f) == TILE_OK &&     /* the result is the next run's input */
             tile_exchange(&f, sizeof(double), &blk.block, blk.a, &inbox, in, NULL) == TILE_OK;
    }
    /* the backward plan reads the forward result at the point */
    tile_input_box(&b, TILE_ALL_TILES, NULL, &inbox, NULL);
    free(in);
    in = (double *)malloc(sizeof(double) * (size_t)tile_box_points(&inbox));
    ok = ok && tile_exchange(&f, sizeof(double), &blk.block, blk.a, &inbox, in, NULL) == TILE_OK;
    free(blk.a);
    blk.block = inbox;
    blk.a = (double *)malloc(sizeof(double) * (size_t)tile_box_points(&inbox));
    tile_output_set(&b, to_block, &blk, TILE_LAYOUT_Z_LAST, NULL);
    if (ok)
        HYBRID_RUN(&b, it, {
            TILE_AT(double, it, 0, 0, 0) =
                0.25 * ((TILE_AT(double, it, 1, 0, 0) + TILE_AT(double, it, 0, 1, 0)) +
                        TILE_AT(double, it, 0, 0, 1)) + in[tile_input_index(&it, &inbox)];
        });
    ok = ok && tile_plan_status(&b) == TILE_OK;
    /* everything to rank 0, compared with the sequential sweeps */
    memset(&all, 0, sizeof all);
    all.ndims = 3;
    all.len[0] = myrank == 0 ? ex : 0, all.len[1] = ey, all.len[2] = ez;
    res = (double *)malloc(sizeof(double) * (size_t)(ex * ey * ez));
    ok = ok && tile_exchange(&b, sizeof(double), &blk.block, blk.a, &all, res, NULL) == TILE_OK;
    if (ok && myrank == 0) {
        seqv = seq_chain(ex, ey, ez, sweeps);
        ok = memcmp(seqv, res, sizeof(double) * (size_t)(ex * ey * ez)) == 0;
        if (!ok)
            snprintf(why, whylen, "the chained result differs from the sequential sweeps");
    } else if (!ok)
        snprintf(why, whylen, "rank %d: %s", myrank, f.errmsg[0] ? f.errmsg : b.errmsg);
    free(seqv);
    free(res);
    free(in);
    free(blk.a);
    tile_plan_destroy(&f);
    tile_plan_destroy(&b);
    return ok;
}

static void chain_cases(void)
{
    int j, cases = 0, failed = 0, all, r, models[4] = {0};
    char why[512] = "", desc[256] = "";
    static ctx_t cx = { 2 };
    for (j = 0; j < 8; j++) {
        kernel k;
        tile_config *c = &k.cfg;
        tile_config_init(c, 2);
        c->extent[0] = check_rnd_in(2, 9);
        c->extent[1] = check_rnd_in(2, 9);
        c->zlen = check_rnd_in(1, 12);
        c->tile_height = check_rnd_in(1, 5);
        c->model = (int)(j % 4);
        c->threads = c->model == TILE_MODEL_MPI ? 1 : (int)check_rnd_in(1, 3);
        c->order = (int)check_rnd_in(TILE_ORDER_PLANES, TILE_ORDER_AUTO);
        c->boundary = edge;
        c->boundary_ctx = &cx;
        r = chain_case(c, (int)check_rnd_in(1, 3), why, sizeof why);
        MPI_Allreduce(&r, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (all < 0)
            continue;
        cases++;
        models[c->model]++;
        if (all == 0 && !failed++)
            describe(&k, desc, sizeof desc);
    }
    check_mpi(MPI_COMM_WORLD, failed == 0 && cases >= 4,
              "%d chains (models %d/%d/%d/%d): 1-3 Gauss-Seidel sweeps of one plan, each on "
              "the last result (its +1 halo through tile_exchange), then a plan running "
              "downward reading it, equal to the sequential sweeps bitwise%s%s%s%s", cases,
              models[0], models[1], models[2], models[3], failed ? "; FIRST FAILURE: " : "",
              desc, failed ? ": " : "", why);
}

/* ---------------------------------------------------------------------- */
/* The exact sum against known answers and an independent algorithm       */

static double xsum_of(const double *v, int n)
{
    tile_xsum x;
    int i;
    tile_xsum_init(&x);
    for (i = 0; i < n; i++)
        tile_xsum_add(&x, v[i]);
    return tile_xsum_round(&x);
}

/* Python's math.fsum (Shewchuk's partials, then a correctly rounded sum of
 * them): an independent reference for finite sums that do not overflow. */
static double fsum_ref(const double *v, int n)
{
    double p[1100], hi = 0, lo = 0, x, y, t;
    int np = 0, i, j, k;
    for (k = 0; k < n; k++) {
        x = v[k];
        for (i = 0, j = 0; j < np; j++) {
            y = p[j];
            if (fabs(x) < fabs(y))
                t = x, x = y, y = t;
            hi = x + y;
            lo = y - (hi - x);
            if (lo != 0.0)
                p[i++] = lo;
            x = hi;
        }
        np = i;
        p[np++] = x;
    }
    if (np == 0)
        return 0.0;
    hi = p[--np];
    lo = 0.0;
    while (np > 0) {
        x = hi;
        y = p[--np];
        hi = x + y;
        lo = y - (hi - x);
        if (lo != 0.0)
            break;
    }
    if (np > 0 && ((lo < 0 && p[np - 1] < 0) || (lo > 0 && p[np - 1] > 0))) {
        y = lo * 2;
        x = hi + y;
        if (y == x - hi)
            hi = x;
    }
    return hi;
}

static void xsum_units(void)
{
    static double tenth[10], big[3] = { 1e308, 1e308, -1e308 }, mx[3];
    double tie[2] = { 1.0, 0x1p-53 }, tie3[2] = { 1.0, 3 * 0x1p-53 };
    double above[3] = { 1.0, 0x1p-53, 0x1p-105 }, sub[3] = { 0x1p-1074, 0x1p-1074, 0x1p-1074 };
    double neg[2] = { -1.0, 0x1p-60 }, zero[2] = { 1.5, -1.5 }, nz[2] = { -0.0, -0.0 };
    double inf1[2] = { HUGE_VAL, 1.0 }, infs[2] = { HUGE_VAL, -HUGE_VAL };
    double v[1000], w[1000];
    tile_xsum a, b;
    int i, j, ok, rnd_ok = 1, perm_ok = 1, n1;
    for (i = 0; i < 10; i++)
        tenth[i] = 0.1;
    mx[0] = mx[1] = 1.7976931348623157e308;
    mx[2] = -mx[0];
    ok = xsum_of(tenth, 10) == 1.0 && xsum_of(big, 3) == 1e308 && xsum_of(tie, 2) == 1.0 &&
         xsum_of(tie3, 2) == 1.0 + 0x1p-51 && xsum_of(above, 3) == 1.0 + 0x1p-52 &&
         xsum_of(sub, 3) == 3 * 0x1p-1074 && xsum_of(neg, 2) == -1.0 &&
         bits(xsum_of(zero, 2)) == 0 && bits(xsum_of(nz, 2)) == 0 &&
         xsum_of(inf1, 2) == HUGE_VAL && bits(xsum_of(infs, 2)) == 0x7ff8000000000000ull &&
         xsum_of(mx, 3) == mx[0] && xsum_of(mx, 2) == HUGE_VAL;
    mx[1] = 0x1p-1074;        /* DBL_MAX + the smallest subnormal: DBL_MAX */
    ok &= xsum_of(mx, 2) == mx[0];
    /* 3 million ones: the carries between the limbs */
    tile_xsum_init(&a);
    for (i = 0; i < 3000000; i++)
        tile_xsum_add(&a, i % 2 ? 1.0 : 0x1p-1074);
    ok &= tile_xsum_round(&a) == 1500000.0 + 0.0 && a.pending < 3000000;
    check_mpi(MPI_COMM_WORLD, ok, "tile_xsum: 10 x 0.1 = 1.0, 1e308 + 1e308 - 1e308 = 1e308, "
              "ties to even, subnormals, signs, +0.0 for zero, inf and NaN, DBL_MAX edges, 3 "
              "million additions");
    /* random sets over 2^-60 .. 2^60 against fsum, in any order and split */
    for (j = 0; j < 200; j++) {
        int n = (int)check_rnd_in(1, 1000);
        for (i = 0; i < n; i++)
            v[i] = ldexp((double)(int64_t)(check_rnd() >> 11) * (check_rnd() % 2 ? 1 : -1),
                         (int)check_rnd_in(-113, 7));
        rnd_ok &= bits(xsum_of(v, n)) == bits(fsum_ref(v, n));
        for (i = 0; i < n; i++)
            w[i] = v[(i * 7919) % n];
        n1 = (int)check_rnd_in(0, n);
        tile_xsum_init(&a);
        tile_xsum_init(&b);
        for (i = 0; i < n; i++)
            tile_xsum_add(i < n1 ? &a : &b, w[i]);
        tile_xsum_merge(&b, &a);
        perm_ok &= (n % 7919 == 0) || bits(tile_xsum_round(&b)) == bits(xsum_of(v, n));
    }
    check_mpi(MPI_COMM_WORLD, rnd_ok && perm_ok, "tile_xsum on 200 random sets of up to 1000 "
              "values over 2^-60..2^60 equals fsum (Shewchuk, correctly rounded) bitwise%s, and "
              "the same in another order split into two merged sums%s",
              rnd_ok ? "" : " (MISMATCH)", perm_ok ? "" : " (MISMATCH)");
}

/* ---------------------------------------------------------------------- */
/* The output hook writes a file with MPI-IO                               */

/* docs/REFERENCE.md's hook for any N: each row of the piece (Z last) is h
 * points of one (x_1, ..., x_N), contiguous in the global array's file too:
 * one independent write per row, at its byte offset (the default view). */
static int file_hook(void *ctx, const tile_plan *plan, const tile_piece *pc)
{
    MPI_File fh = *(MPI_File *)ctx;
    const tile_box *b = &pc->box;
    int n = plan->cfg.n, i;
    int64_t rows = tile_box_points(b) / b->len[n], r, h = b->len[n];
    MPI_Status st;
    for (r = 0; r < rows; r++) {
        int64_t off = 0, rest = r, c[TILE_MAX_DIMS];
        for (i = n - 1; i >= 0; i--) {
            c[i] = b->lo[i] + rest % b->len[i];
            rest /= b->len[i];
        }
        for (i = 0; i < n; i++)
            off = off * plan->cfg.extent[i] + c[i];
        off = off * plan->cfg.zlen + b->lo[n];
        if (MPI_File_write_at(fh, (MPI_Offset)(off * 8), (void *)((const double *)pc->data +
                                                                 r * h), (int)h, MPI_DOUBLE,
                              &st) != MPI_SUCCESS)
            return 1;
    }
    return 0;
}

/* Random plans write their result tile by tile; rank 0 reads the file back
 * and compares it with the sequential loop's array, byte for byte. */
static void mpiio_cases(void)
{
    char path[256];
    long pid = (long)getpid();
    int j, cases = 0, failed = 0;
    char why[512] = "";
    MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "%s/tilehybrid-mpi_data-%ld.bin",
             getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp", pid);
    for (j = 0; j < 8; j++) {
        kernel k;
        tile_plan plan;
        input in;
        seq s;
        MPI_File fh = MPI_FILE_NULL;
        static ctx_t cx;
        int ok = 1, all;
        random_kernel(&k, (int)check_rnd_in(1, 3));
        cx.n = k.cfg.n;
        k.cfg.boundary_ctx = &cx;
        k.cfg.storage = TILE_STORE_WINDOW;
        if (tile_plan_create(&plan, MPI_COMM_WORLD, &k.cfg) != TILE_OK) {
            tile_plan_destroy(&plan);
            continue;
        }
        cases++;
        make_input(&plan, &k, &in);
        MPI_File_delete(path, MPI_INFO_NULL);
        ok = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                           MPI_INFO_NULL, &fh) == MPI_SUCCESS &&
             tile_output_set(&plan, file_hook, &fh, TILE_LAYOUT_Z_LAST, NULL) == TILE_OK;
        run_plan(&plan, &k, &in);
        ok = ok && tile_plan_status(&plan) == TILE_OK;
        ok = MPI_File_close(&fh) == MPI_SUCCESS && ok;
        seq_run(&s, &k);
        if (myrank == 0) {
            double *back = (double *)malloc(sizeof(double) * (size_t)s.total + 1);
            FILE *fp = fopen(path, "rb");
            ok = ok && fp != NULL && fread(back, sizeof(double), (size_t)s.total, fp) ==
                 (size_t)s.total && fgetc(fp) == EOF &&
                 memcmp(back, s.a, sizeof(double) * (size_t)s.total) == 0;
            if (fp != NULL)
                fclose(fp);
            free(back);
        }
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        if (!all && !failed++)
            describe(&k, why, sizeof why);
        free(in.a);
        free(s.a);
        tile_plan_destroy(&plan);
    }
    if (myrank == 0)
        remove(path);
    check_mpi(MPI_COMM_WORLD, failed == 0 && cases >= 4,
              "%d random plans write their result tile by tile from the output hook (the "
              "docs/REFERENCE.md's: one MPI_File_write_at per row of a tile); the file equals the sequential loop's array byte "
              "for byte%s%s", cases, failed ? "; FIRST FAILURE: " : "", why);
}

int main(int argc, char **argv)
{
    int n;
    check_rng_seed(check_seed(0x2545f4914f6cdd1dull));  /* the same cases on every rank */
    if (!data_init(&argc, &argv))
        return 1;
    xsum_units();
    for (n = 1; n <= 3; n++)
        random_cases(n);
    chain_cases();
    mpiio_cases();
    return check_mpi_exit();
}
