/* tests/mpi_data.c -- data in and out of a plan, in every model, against
 * plain sequential loops, bitwise.
 *
 * Random small configurations (the same on every rank): N = 1, 2, 3,
 * random stencils and loop directions, extents not divisible by the grid
 * or by the tile height, every model with 1-3 threads, both storages.
 * The body also reads an input array through tile_input_box() and
 * tile_input_index() (this rank's part only, with the reach of a random
 * offset); the result is then gathered with tile_gather() to a random root
 * or to every rank and compared with the sequential loop's array; user
 * arrays move between two decompositions with tile_exchange().  Then the
 * refusals: a tile outside the space, a Z range the window dropped, a gather
 * before any run or after a failed one, arguments that differ between
 * ranks (the same message on every rank, no hang), a want box that no rank
 * has or that two ranks have.
 *
 * The output hook (tile_output_set): every tile once, in order, its box,
 * its values equal to the sequential loop's in both layouts; a file written
 * tile by tile with MPI-IO equal to the sequential loop's array byte for
 * byte; a hook that fails (the output or the input hook) stops with the
 * same error on every rank; the memory of a long run with the hook does not
 * grow with Z.  tile_input_set's refusals (arguments, a running plan, a
 * skewed or failed plan).
 *
 * Chained plans: Gauss-Seidel sweeps run the same plan again on its own
 * result (the old values at +1 come from the neighbours through
 * tile_exchange), then a plan running downward in every dimension reads
 * the last result; the end equals the sequential sweeps bitwise.
 * A plan that skews its stencil: its reductions equal the sequential
 * loop's; the calls that need box-shaped blocks refuse it.
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

static int nprocs, myrank;

/* A double's bits, to compare bitwise. */
static uint64_t bits(double v) { return tilehybrid_bits(v); }

/* A value of any point (user coordinates, inside or outside the space). */
static double hashv(const int64_t *c, int n, int64_t salt)
{
    int64_t s = 1000003 + salt;
    static const int64_t w[4] = { 31, 17, 7, 5 };
    int i;
    for (i = 0; i <= n; i++)
        s += w[i] * c[i];
    return (double)(((s % 97) + 97) % 97) / 97.0;
}

typedef struct ctx_t {
    int n;
} ctx_t;

static void edge(void *out, const int64_t *c, void *ctx)
{
    *(double *)out = hashv(c, ((const ctx_t *)ctx)->n, 0);
}

/* The input array's value at c (inside the space). */
static double input_value(const int64_t *c, int n) { return hashv(c, n, 11); }

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

/* The coordinates c of element idx of an array over box b (row-major). */
static void box_coord(const tile_box *b, int64_t idx, int64_t *c)
{
    int i;
    for (i = b->ndims - 1; i >= 0; i--) {
        c[i] = b->lo[i] + idx % b->len[i];
        idx /= b->len[i];
    }
}

/* The input values over box b into a (row-major, Z last). */
static void fill_input(const tile_box *b, double *a)
{
    int64_t idx, c[4];
    for (idx = 0; idx < tile_box_points(b); idx++) {
        box_coord(b, idx, c);
        a[idx] = input_value(c, b->ndims - 1);
    }
}

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
    HYBRID_RUN(&q, it, {
        int64_t at[3];
        at[0] = tile_coord(&it, 0);
        at[1] = tile_coord(&it, 1);
        at[2] = tile_coord(&it, 2);
        TILE_AT(double, it, 0, 0, 0) = ((TILE_AT(double, it, -1, 0, 0) +
                                         TILE_AT(double, it, 0, -1, 0)) +
                                        TILE_AT(double, it, 0, 0, dz > 0 ? -1 : 1)) / 3.0 +
                                       input_value(at, 2);
    });
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

static void reduce_refusals(void)
{
    tile_config c;
    tile_plan p, q;
    tile_reduction r1, r2, many[TILE_MAX_REDUCTIONS + 1];
    ctx_t cx;
    int rc1, rc2, i, ok;
    double first;
    int64_t cnt;
    small_config(&c, &cx);
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    tile_plan_create(&q, MPI_COMM_WORLD, &c);
    rc1 = tile_reduction_init(&p, &r1, 99, NULL);
    for (i = 0, rc2 = TILE_OK; i <= TILE_MAX_REDUCTIONS && rc2 == TILE_OK; i++)
        rc2 = tile_reduction_init(&q, &many[i], TILE_REDUCE_SUM, NULL);
    check_mpi(MPI_COMM_WORLD, rc1 == TILE_ERR_REDUCE && rc2 == TILE_ERR_REDUCE &&
              i == TILE_MAX_REDUCTIONS + 1,
              "tile_reduction_init refuses an unknown operation and a reduction beyond "
              "TILE_MAX_REDUCTIONS (TILE_ERR_REDUCE)");
    for (i = 0; i < TILE_MAX_REDUCTIONS; i++)
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
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
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
    /* the wrong feeding function */
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    tile_reduction_init(&p, &r1, TILE_REDUCE_SUM_U64, NULL);
    feed_run(&p, &r1, 1.0);
    check_mpi(MPI_COMM_WORLD, tile_plan_status(&p) == TILE_ERR_REDUCE &&
              strstr(p.errmsg, "use tile_reduce_u64") && same_everywhere(p.errmsg),
              "tile_reduce on a sum_u64 reduction: TILE_ERR_REDUCE: %s", p.errmsg);
    /* tile_reduce_u64's inline path (outside the SIMD loop): the right
     * reduction is counted, a sum or one of another plan is refused */
    {
        tile_plan q;
        tile_reduction ru, rs;
        ctx_t cq;
        int ok2, which;
        uint64_t got;
        int64_t cnt2;
        model_plan(&q, &c, &cq, TILE_MODEL_MPI, 1, 1);
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
    }
    tile_plan_destroy(&p);
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
        int64_t X, Y, Z;
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
                    edge(&l, cc, &cx);
                cc[0] = X, cc[2] = Z + oz;
                if (Z + oz >= 0 && Z + oz < 23)
                    e = q[k + oz];
                else
                    edge(&e, cc, &cx);
                v = (l + e) / 2.0 + g[k];
                q[k] = v;
            }
        }
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
/* The output hook writes a file with MPI-IO; a failing hook; memory       */

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

static void skewed_cases(void)
{
    enum { NI = 13, NT = 9 };
    static const int order[2] = { 1, 0 };  /* t outermost, then i */
    static double whole[NI * NT];     /* what a gather would write, were it not refused */
    double a[NI], best = 0;
    int64_t c[2], at[2] = { -1, -1 }, z0, zl;
    tile_xsum x;
    tile_config cf;
    ctx_t cx;
    int model, refused, i, t;
    char first[400] = "";
    cx.n = 1;
    tile_xsum_init(&x);
    for (i = 0; i < NI; i++) {
        c[0] = i, c[1] = -1;
        edge(&a[i], c, &cx);
    }
    for (t = 0; t < NT; t++)
        for (i = 0; i < NI; i++) {   /* in place: a[i - 1] is this sweep's */
            double l, r;
            c[0] = -1, c[1] = t;
            if (i > 0)
                l = a[i - 1];
            else
                edge(&l, c, &cx);
            c[0] = NI, c[1] = t - 1;
            if (i < NI - 1)
                r = a[i + 1];
            else
                edge(&r, c, &cx);
            a[i] = (l + a[i] + r) / 3.0;
            tile_xsum_add(&x, a[i]);
            if (at[0] < 0 || a[i] > best || (a[i] == best && (i < at[0] ||
                                                               (i == at[0] && t < at[1])))) {
                best = a[i];
                at[0] = i, at[1] = t;
            }
        }
    for (model = TILE_MODEL_MPI; model <= TILE_MODEL_MULTIPLE; model++) {
        tile_plan p;
        tile_reduction rs, rm;
        tile_box b;
        char why[400] = "";
        int ok = 1;
        tile_config_init(&cf, 1);
        cf.extent[0] = NI;
        cf.zlen = NT;
        cf.tile_height = 2;
        cf.boundary = edge;
        cf.boundary_ctx = &cx;
        cf.model = model;
        cf.threads = model == TILE_MODEL_MPI ? 1 : 2;
        tile_config_stencil(&cf, "-1,0 0,-1 1,-1", NULL);
        memcpy(cf.loop_order, order, sizeof order);
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
            {   /* the declared stencil's reach: -1,0 0,-1 1,-1 */
                tile_reach rr;
                memset(&rr, 0, sizeof rr);
                if (tile_reach_stencil(&p, &rr) != TILE_OK || rr.below[0] != 1 ||
                    rr.above[0] != 1 || rr.below[1] != 1 || rr.above[1] != 0) {
                    snprintf(why, sizeof why, "tile_reach_stencil: below %d %d above %d %d",
                             rr.below[0], rr.below[1], rr.above[0], rr.above[1]);
                    ok = 0;
                }
            }
            memset(&b, 0, sizeof b);
            b.ndims = 2;
            refused = tile_input_set(&p, seidel1_input, NULL, sizeof(double), NULL, NULL) ==
                      TILE_ERR_SKEWED &&
                      tile_input_set(&p, NULL, NULL, sizeof(double), NULL, NULL) == TILE_OK &&
                      tile_output_to(&p, &b, whole, NULL) == TILE_ERR_SKEWED &&
                      tile_output_to(&p, NULL, NULL, NULL) == TILE_OK &&
                      tile_input_box(&p, TILE_ALL_TILES, NULL, &b, NULL) == TILE_ERR_SKEWED &&
                      tile_stored_zrange(&p, &z0, &zl) == TILE_ERR_SKEWED &&
                      tile_output_set(&p, seidel1_hook, NULL, TILE_LAYOUT_Z_LAST, NULL) ==
                      TILE_ERR_SKEWED &&
                      tile_output_set(&p, NULL, NULL, TILE_LAYOUT_Z_LAST, NULL) == TILE_OK &&
                      tile_gather(&p, 0, NT, TILE_ROOT_ALL, whole, NULL) == TILE_ERR_SKEWED &&
                      strstr(p.errmsg, "skews its stencil") != NULL;
            if (!refused && why[0] == 0) {
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
        if (first[0] == 0) {        /* the values (x + neighbours: a wrong order shows) */
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
            int rc = a != NULL && g != NULL ? tile_gather(&q, 0, 8, TILE_ROOT_ALL, g, NULL)
                                            : TILE_ERR_NULL;
            if (rc != TILE_OK)
                snprintf(first, sizeof first, "%s x %d: tile_gather: %s",
                         tile_model_name(h.model), threads, q.errmsg);
            for (c[0] = 0; rc == TILE_OK && c[0] < 21 && first[0] == 0; c[0]++)
                for (c[1] = 0; c[1] < 37 && first[0] == 0; c[1]++)
                    for (c[2] = 0; c[2] < 8 && first[0] == 0; c[2]++)
                        if (bits(v = g[(c[0] * 37 + c[1]) * 8 + c[2]]) !=
                            bits(a[(c[0] * 37 + c[1]) * 8 + c[2]]))
                            snprintf(first, sizeof first, "%s x %d: (%lld,%lld,%lld) = %.17g, "
                                     "the sequential loop's %.17g", tile_model_name(h.model),
                                     threads, (long long)c[0], (long long)c[1],
                                     (long long)c[2], v, a[(c[0] * 37 + c[1]) * 8 + c[2]]);
            free(a);
            free(g);
        }
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
    int provided, n;
    check_rng_seed(check_seed(0x2545f4914f6cdd1dull));  /* the same cases on every rank */
    if (hybrid_init(&argc, &argv, TILE_MODEL_MULTIPLE, 3, &provided) != TILE_OK) {
        check(0, "MPI_THREAD_MULTIPLE available");
        MPI_Finalize();
        return 1;
    }
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    xsum_units();
    for (n = 1; n <= 3; n++)
        random_cases(n);
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
    chain_cases();
    every_model(input_case, 3, 14, "input per tile (tile_input_set, a reach of +1 along X_1 "
                "and one plane along Z): %d runs (4 models, 1-3 threads, Z up and down) equal "
                "the runs with the whole block's input array bitwise, one hook call per tile");
    input_set_refusals();
    every_model(output_to_case, 2, 10, "tile_output_to: %d runs (4 models, 1-2 threads, Z up "
                "and down) copy each tile straight into an array over a box around the block, "
                "equal to tile_gather bitwise (the rest untouched; NULL dst and a box without "
                "the block refused), and a chained run reading that array in its body equals "
                "the sequential sweep");
    mpiio_cases();
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
