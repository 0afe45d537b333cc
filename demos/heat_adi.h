/* demos/heat_adi.h -- PolyBench/C 4.2's adi (alternating direction
 * implicit) time loop, as a program over fields: one map and four plans a
 * time step, no collective per step; and its plain loop, the bitwise
 * reference (demos/heat --kernel adi, tests/cli_heat.sh).
 *
 * The kernel (written from its specification) on n x n doubles u, v, p, q,
 * with a = c = -B1 DT / (2 DX^2), b = 1 + B1 DT / DX^2, d = f = -B2 DT /
 * (2 DY^2), e = 1 + B2 DT / DY^2 (DX = DY = 1/n, DT = 1/T, B1 = 2, B2 = 1);
 * each time step, for the inner points 1..n-2:
 *
 *   column sweep, each column i:  p[i][j], q[i][j] upward along j (the rows),
 *       from p = 0, q = v[0][i] = 1 and u[j][i-1..i+1]; then v[j][i]
 *       downward from v[n-1][i] = 1:  v[j][i] = p[i][j] v[j+1][i] + q[i][j]
 *   row sweep, each row i:  p[i][j], q[i][j] upward along j (the columns),
 *       from p = 0, q = u[i][0] = 1 and v[i-1..i+1][j]; then u[i][j]
 *       downward from u[i][n-1] = 1
 *
 * The layout: the inner points, distributed by columns over the processes
 * (one grid dimension, X = the column less one; Z = the row less one, each
 * column whole on its rank).  The column sweep's recurrence then runs along
 * Z, inside each rank: its two plans send nothing.  The row sweep's runs
 * along X, across the ranks: a pipeline, each tile's face one value a row
 * (p, q forward; u backward).  The only other message is u's ghost columns
 * for the column sweep's stencil: one map, which computes that stencil's
 * part of q (r below) and sends u's edge columns to the neighbours.  Per
 * step a rank sends its map's two columns and its pipelines' faces; with
 * cfg.agree = TILE_AGREE_WHEN_ASKED the settled runs send nothing else.
 * The other distributions cost more: by rows is the same pipeline with the
 * roles swapped (and PolyBench's arrays transposed nowhere: the same cost),
 * a 2-D grid pipelines both sweeps, a transpose between the sweeps is an
 * all-to-all every half step.
 *
 * Fields (tile_field_config_plan(): (X, Z), Z contiguous): u (ghost columns:
 * the map reads X +- 1; past the edge PolyBench's u[j][0] and u[j][n-1]),
 * r (u's shape: the map's output), v (ghost rows: the row sweep reads Z +-
 * 1; past the edge v[0][i] = v[n-1][i] = 1) and pq (p and q of a point).
 * One time step:
 *
 *   map     r = (-d u[j][i-1] + (1 + 2d) u[j][i]) - f u[j][i+1]
 *   plan cf (Z upward)    p, q from (0, -1), r at the point      -> pq
 *   plan cb (Z downward)  v from (0, +1), pq at the point         -> v
 *   plan rf (X upward)    p, q from (-1, 0), v at Z - 1, Z, Z + 1  -> pq
 *   plan rb (X downward)  u from (+1, 0), pq at the point          -> u
 *
 * Every value takes PolyBench's operations in its order (no contraction:
 * -ffp-contract=off): q's numerator is ((-d u1 + (1 + 2d) u2) - f u3) - a
 * q', so r, computed first, then (r - a q') / (a p' + b) are its bits.
 * The downward plans keep the upward ones' blocks (the mirror rule), so
 * each plan reads the others' fields at its own points: nothing moves
 * between the phases.
 */
#ifndef DEMOS_HEAT_ADI_H
#define DEMOS_HEAT_ADI_H

#include "../hybrid.h"

#include <stdio.h>
#include <string.h>

/* PolyBench's constants of a run of n points and T steps. */
typedef struct adi_coef {
    double a, b, c, d, e, f;
    double ca, cd;              /* 1 + 2a and 1 + 2d, as PolyBench writes them */
} adi_coef;

static inline adi_coef adi_coefs(int64_t n, int64_t steps)
{
    adi_coef k;
    double dx = 1.0 / (double)n, dy = 1.0 / (double)n, dt = 1.0 / (double)steps;
    double b1 = 2.0, b2 = 1.0, mul1 = b1 * dt / (dx * dx), mul2 = b2 * dt / (dy * dy);
    k.a = -mul1 / 2.0;
    k.b = 1.0 + mul1;
    k.c = k.a;
    k.d = -mul2 / 2.0;
    k.e = 1.0 + mul2;
    k.f = k.d;
    k.ca = 1.0 + 2.0 * k.a;
    k.cd = 1.0 + 2.0 * k.d;
    return k;
}

/* PolyBench's initial u[i][j]. */
static inline double adi_init_polybench(int64_t i, int64_t j, int64_t n)
{
    return (double)(i + n - j) / (double)n;
}

/* ------------------------------------------------------------------------ */
/* The plain loop                                                           */

/* PolyBench's time loop on u (n x n, row-major, initialised by the caller),
 * with v, p, q its n x n scratch arrays. */
static void adi_plain(int64_t n, int64_t steps, double *u, double *v, double *p, double *q)
{
    const adi_coef k = adi_coefs(n, steps);
    int64_t t, i, j;
#define ADI_X(A, r, s) A[(r) * n + (s)]
    for (t = 1; t <= steps; t++) {
        for (i = 1; i < n - 1; i++) {
            ADI_X(v, 0, i) = 1.0;
            ADI_X(p, i, 0) = 0.0;
            ADI_X(q, i, 0) = ADI_X(v, 0, i);
            for (j = 1; j < n - 1; j++) {
                ADI_X(p, i, j) = -k.c / (k.a * ADI_X(p, i, j - 1) + k.b);
                ADI_X(q, i, j) = (-k.d * ADI_X(u, j, i - 1) + k.cd * ADI_X(u, j, i) -
                                  k.f * ADI_X(u, j, i + 1) - k.a * ADI_X(q, i, j - 1)) /
                                 (k.a * ADI_X(p, i, j - 1) + k.b);
            }
            ADI_X(v, n - 1, i) = 1.0;
            for (j = n - 2; j >= 1; j--)
                ADI_X(v, j, i) = ADI_X(p, i, j) * ADI_X(v, j + 1, i) + ADI_X(q, i, j);
        }
        for (i = 1; i < n - 1; i++) {
            ADI_X(u, i, 0) = 1.0;
            ADI_X(p, i, 0) = 0.0;
            ADI_X(q, i, 0) = ADI_X(u, i, 0);
            for (j = 1; j < n - 1; j++) {
                ADI_X(p, i, j) = -k.f / (k.d * ADI_X(p, i, j - 1) + k.e);
                ADI_X(q, i, j) = (-k.a * ADI_X(v, i - 1, j) + k.ca * ADI_X(v, i, j) -
                                  k.c * ADI_X(v, i + 1, j) - k.d * ADI_X(q, i, j - 1)) /
                                 (k.d * ADI_X(p, i, j - 1) + k.e);
            }
            ADI_X(u, i, n - 1) = 1.0;
            for (j = n - 2; j >= 1; j--)
                ADI_X(u, i, j) = ADI_X(p, i, j) * ADI_X(u, i, j + 1) + ADI_X(q, i, j);
        }
    }
#undef ADI_X
}

/* ------------------------------------------------------------------------ */
/* The program over fields                                                  */

/* p and q of a point: the forward plans' element, the field pq's. */
typedef struct adi_pq {
    double p, q;
} adi_pq;

/* What the program is asked: the size, the steps, how to run the plans,
 * the initial u[i][j] (init(ctx, i, j), every point of the n x n array). */
typedef struct adi_setup {
    int64_t n, steps, tile_height;
    int model, threads;
    double (*init)(void *ctx, int64_t i, int64_t j);
    void *ctx;
} adi_setup;

/* The program's objects. */
typedef struct adi_prog {
    adi_setup s;
    adi_coef k;
    tile_plan cf, cb, rf, rb;   /* column sweep forward, backward; row sweep */
    tile_field u, r, v, pq;
    tile_map m;
    char errmsg[400];           /* what failed (the same on every rank) */
} adi_prog;

/* The recurrences' values before their first point: p = 0, q = 1 (v[0][i]
 * and u[i][0]); after their last: v[n-1][i] = u[i][n-1] = 1. */
static void adi_edge_pq(void *out, const int64_t *c, void *ctx)
{
    adi_pq *e = (adi_pq *)out;
    (void)c, (void)ctx;
    e->p = 0.0;
    e->q = 1.0;
}

static void adi_edge_one(void *out, const int64_t *c, void *ctx)
{
    (void)c, (void)ctx;
    *(double *)out = 1.0;
}

/* A sweep's plan over the inner points: the recurrence along X (along_x)
 * or Z, dir +1 or -1; TILE_OK or the plan's code. */
static int adi_plan(tile_plan *p, const adi_setup *s, int along_x, int dir, size_t esz,
                    tile_boundary_fn edge)
{
    tile_config c;
    tile_config_init(&c, 1);
    c.extent[0] = s->n - 2;
    c.zlen = s->n - 2;
    c.dep[0] = along_x;
    c.depz = !along_x;
    c.dir[along_x ? 0 : 1] = dir;
    c.elem_size = esz;
    c.boundary = edge;
    c.model = s->model;
    c.threads = s->threads;
    c.tile_height = s->tile_height;
    c.agree = TILE_AGREE_WHEN_ASKED;    /* settled runs: their faces only */
    return tile_plan_create(p, MPI_COMM_WORLD, &c);
}

/* Field f of the plans' shape: elements of esz bytes, ghost layers gx
 * along X and gz along Z; TILE_OK or its code. */
static int adi_field(adi_prog *g, tile_field *f, size_t esz, int64_t gx, int64_t gz)
{
    tile_field_config fc;
    int rc = tile_field_config_plan(&fc, &g->cf);
    if (rc != TILE_OK)
        return rc;
    fc.elem_size = esz;
    fc.ghost[0] = gx;
    fc.ghost[1] = gz;
    return tile_field_create(f, MPI_COMM_WORLD, &fc);
}

/* u's initial values at field coordinates c (ghosts: the edges). */
static void adi_fill_u(void *ctx, const int64_t *c, void *elem)
{
    const adi_setup *s = (const adi_setup *)ctx;
    *(double *)elem = s->init(s->ctx, c[1] + 1, c[0] + 1);
}

static void adi_fill_one(void *ctx, const int64_t *c, void *elem)
{
    (void)ctx, (void)c;
    *(double *)elem = 1.0;
}

/* Say what failed (the same on every rank: the calls agree); code. */
static int adi_fail(adi_prog *g, int code, const char *what, const char *msg)
{
    snprintf(g->errmsg, sizeof g->errmsg, "%s: %s", what, msg);
    return code;
}

/* The four plans; TILE_OK or the code (g->errmsg). */
static int adi_plans(adi_prog *g)
{
    if (adi_plan(&g->cf, &g->s, 0, 1, sizeof(adi_pq), adi_edge_pq) != TILE_OK)
        return adi_fail(g, g->cf.status.code, "the column sweep's forward plan", g->cf.errmsg);
    if (adi_plan(&g->cb, &g->s, 0, -1, sizeof(double), adi_edge_one) != TILE_OK)
        return adi_fail(g, g->cb.status.code, "the column sweep's backward plan", g->cb.errmsg);
    if (adi_plan(&g->rf, &g->s, 1, 1, sizeof(adi_pq), adi_edge_pq) != TILE_OK)
        return adi_fail(g, g->rf.status.code, "the row sweep's forward plan", g->rf.errmsg);
    if (adi_plan(&g->rb, &g->s, 1, -1, sizeof(double), adi_edge_one) != TILE_OK)
        return adi_fail(g, g->rb.status.code, "the row sweep's backward plan", g->rb.errmsg);
    return TILE_OK;
}

/* The fields, their values, the map and the plans' outputs; TILE_OK or the
 * code (g->errmsg). */
static int adi_fields(adi_prog *g)
{
    tile_map_config mc;
    int rc;
    if ((rc = adi_field(g, &g->u, sizeof(double), 1, 0)) != TILE_OK)
        return adi_fail(g, rc, "the field u", g->u.errmsg);
    if ((rc = adi_field(g, &g->r, sizeof(double), 1, 0)) != TILE_OK)
        return adi_fail(g, rc, "the field r", g->r.errmsg);
    if ((rc = adi_field(g, &g->v, sizeof(double), 0, 1)) != TILE_OK)
        return adi_fail(g, rc, "the field v", g->v.errmsg);
    if ((rc = adi_field(g, &g->pq, sizeof(adi_pq), 0, 0)) != TILE_OK)
        return adi_fail(g, rc, "the field pq", g->pq.errmsg);
    tile_field_fill(&g->u, adi_fill_u, &g->s, 1);
    tile_field_fill(&g->v, adi_fill_one, NULL, 1);
    tile_map_config_init(&mc, &g->u, &g->r);
    mc.reach[0] = 1;
    mc.star = 1;
    mc.threads = g->s.threads;
    if ((rc = tile_map_create(&g->m, &mc)) != TILE_OK)
        return adi_fail(g, rc, "the column sweep's stencil (a map)", g->m.errmsg);
    if ((rc = tile_output_to_field(&g->cf, &g->pq, NULL)) != TILE_OK ||
        (rc = tile_output_to_field(&g->cb, &g->v, NULL)) != TILE_OK ||
        (rc = tile_output_to_field(&g->rf, &g->pq, NULL)) != TILE_OK ||
        (rc = tile_output_to_field(&g->rb, &g->u, NULL)) != TILE_OK)
        return adi_fail(g, rc, "the plans' output into the fields", tile_strerror(rc));
    return TILE_OK;
}

/* Everything made (collective); TILE_OK or the code, the message in
 * g->errmsg on every rank.  adi_free() after either. */
static int adi_make(adi_prog *g, const adi_setup *s)
{
    int rc;
    memset(g, 0, sizeof *g);        /* not made: adi_free() leaves them be */
    g->m.comm = g->u.comm = g->r.comm = g->v.comm = g->pq.comm = MPI_COMM_NULL;
    g->s = *s;
    g->k = adi_coefs(s->n, s->steps);
    if ((rc = adi_plans(g)) != TILE_OK)
        return rc;
    return adi_fields(g);
}

static void adi_free(adi_prog *g)
{
    tile_map_destroy(&g->m);
    tile_plan_destroy(&g->cf);
    tile_plan_destroy(&g->cb);
    tile_plan_destroy(&g->rf);
    tile_plan_destroy(&g->rb);
    tile_field_destroy(&g->u);
    tile_field_destroy(&g->r);
    tile_field_destroy(&g->v);
    tile_field_destroy(&g->pq);
}

/* The column sweep: r from u (the map: u's ghost columns exchanged), then
 * p, q upward and v downward along Z. */
static void adi_columns(adi_prog *g)
{
    const adi_coef k = g->k;
    const tile_field *R = &g->r, *PQ = &g->pq;
    TILE_MAP_RUN(&g->m, double, it, {
        TILE_OUT(it, 0) = -k.d * TILE_IN(it, 0, -1, 0) + k.cd * TILE_IN(it, 0, 0, 0) -
                          k.f * TILE_IN(it, 0, 1, 0);
    });
    HYBRID_RUN(&g->cf, it, {
        const adi_pq w = TILE_AT(adi_pq, it, 0, -1);
        const double den = k.a * w.p + k.b;
        adi_pq *o = &TILE_AT(adi_pq, it, 0, 0);
        o->p = -k.c / den;
        o->q = (*(const double *)tile_field_here(&it, R) - k.a * w.q) / den;
    });
    HYBRID_RUN(&g->cb, it, {
        const adi_pq *w = (const adi_pq *)tile_field_here(&it, PQ);
        TILE_AT(double, it, 0, 0) = w->p * TILE_AT(double, it, 0, 1) + w->q;
    });
}

/* The row sweep: p, q upward along X (v read at Z - 1, Z, Z + 1: its
 * ghost rows hold v[0][j] and v[n-1][j]), then u downward. */
static void adi_rows(adi_prog *g)
{
    const adi_coef k = g->k;
    const tile_field *V = &g->v, *PQ = &g->pq;
    HYBRID_RUN(&g->rf, it, {
        const adi_pq w = TILE_AT(adi_pq, it, -1, 0);
        const double *x = (const double *)tile_field_here(&it, V);
        const double den = k.d * w.p + k.e;
        adi_pq *o = &TILE_AT(adi_pq, it, 0, 0);
        o->p = -k.f / den;
        o->q = (-k.a * x[-1] + k.ca * x[0] - k.c * x[1] - k.d * w.q) / den;
    });
    HYBRID_RUN(&g->rb, it, {
        const adi_pq *w = (const adi_pq *)tile_field_here(&it, PQ);
        TILE_AT(double, it, 0, 0) = w->p * TILE_AT(double, it, 1, 0) + w->q;
    });
}

/* u[i][0] = u[i][n-1] = 1 in u's ghost columns past the edge, as the row
 * sweep sets them (the map's next run reads them). */
static void adi_edges(tile_field *u)
{
    int64_t z, x[2];
    int s;
    x[0] = -1;
    x[1] = u->extent[0];
    for (s = 0; s < 2; s++)
        for (z = 0; z < u->extent[1]; z++) {
            int64_t c[2];
            double *e;
            c[0] = x[s];
            c[1] = z;
            if ((e = (double *)tile_field_at(u, c)) != NULL)
                *e = 1.0;
        }
}

/* The plans' and the map's verdicts on every rank (collective); TILE_OK or
 * the first failure's code (g->errmsg). */
static int adi_agree(adi_prog *g)
{
    tile_plan *p[4];
    static const char *const name[4] = { "the column sweep's forward plan",
                                         "the column sweep's backward plan",
                                         "the row sweep's forward plan",
                                         "the row sweep's backward plan" };
    int i, rc[5], bad = -1;
    p[0] = &g->cf, p[1] = &g->cb, p[2] = &g->rf, p[3] = &g->rb;
    for (i = 0; i < 4; i++)         /* (every one: each is collective) */
        rc[i] = tile_plan_agree(p[i]);
    rc[4] = tile_map_agree(&g->m);
    for (i = 4; i >= 0; i--)
        bad = rc[i] != TILE_OK ? i : bad;
    if (bad < 0)
        return TILE_OK;
    return adi_fail(g, rc[bad], bad == 4 ? "the column sweep's stencil (a map)" : name[bad],
                    bad == 4 ? g->m.errmsg : p[bad]->errmsg);
}

/* The time steps after step start (0, or a checkpoint's: u's edges are
 * then 1 already), a checkpoint after each when due (ck; *stopped 1 when
 * the signal stopped them after one, -1 when one failed).  The first runs
 * agree (a failure there stops the steps on every rank); the settled ones
 * agree on nothing until adi_agree().  TILE_OK or the code (g->errmsg). */
static int adi_steps(adi_prog *g, int64_t start, demo_ckpt *ck, int *stopped)
{
    int64_t t;
    *stopped = 0;
    if (start > 0)
        adi_edges(&g->u);
    for (t = start + 1; t <= g->s.steps; t++) {
        adi_columns(g);
        adi_rows(g);
        if (t == start + 1) {
            adi_edges(&g->u);
            if (tile_plan_status(&g->cf) != TILE_OK || tile_plan_status(&g->cb) != TILE_OK ||
                tile_plan_status(&g->rf) != TILE_OK || tile_plan_status(&g->rb) != TILE_OK)
                break;
        }
        if ((*stopped = demo_ckpt_step(ck, "heat", t, g->u.rank)) != 0)
            break;
    }
    return adi_agree(g);
}

/* The whole n x n u on rank 0 (all; NULL elsewhere): the inner points
 * gathered, the edges as PolyBench leaves them.  Collective; TILE_OK or
 * the code (g->errmsg). */
static int adi_gather(adi_prog *g, double *all)
{
    const int64_t n = g->s.n, m = n - 2;
    double *in = NULL;
    int64_t i, j;
    int rc, ok = 1;
    if (g->u.rank == 0)
        ok = (in = (double *)malloc(sizeof(double) * (size_t)(m * m))) != NULL;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok)
        return adi_fail(g, TILE_ERR_NOMEM, "rank 0", "out of memory for the gathered u");
    if ((rc = tile_field_gather(&g->u, 0, in)) != TILE_OK) {
        free(in);
        return adi_fail(g, rc, "gathering u", g->u.errmsg);
    }
    for (i = 0; g->u.rank == 0 && i < n; i++)
        for (j = 0; j < n; j++) {
            int inner = i > 0 && i < n - 1 && j > 0 && j < n - 1;
            int edge = i > 0 && i < n - 1 && (j == 0 || j == n - 1) && g->s.steps > 0;
            all[i * n + j] = inner ? in[(j - 1) * m + i - 1]
                             : edge ? 1.0 : g->s.init(g->s.ctx, i, j);
        }
    free(in);
    return TILE_OK;
}

#endif
