/* demos/lu.c -- NPB LU (NAS Parallel Benchmarks 3.4) as a program over
 * tiling.h's fields, map steps and plans: any process count, every model,
 * verified against NPB's reference values and bitwise equal to the plain
 * sequential reference tests/lu_plain.h.
 *
 *   mpiexec -n 4 ./demos/lu --class S --verify
 *   mpiexec -n 2 ./demos/lu --class A --model funneled --threads 2
 *
 * The problem (tests/lu_plain.h's top comment): the steady state of the
 * 3-D compressible Navier-Stokes equations on the unit cube, 5 unknowns a
 * point, reached by SSOR in pseudo-time.  Its n^3 grid's inner points are
 * the plans' space, with user coordinates (x1, x2, Z) = (j, i, k) less one
 * (lu_plain's 0-based indices 1 .. n-2): the plans' loop order, Z
 * outermost, then x1, then x2, is NPB's k, j, i.  Three fields of that
 * shape (tile_field_config_plan()), elements of 5 doubles, two ghost
 * layers (the fourth-order dissipation reads u at +-2): u, rsd and frct.
 * The ghost layers past the array's edge hold NPB's boundary planes
 * (tile_field_fill(..., 1)): the exact solution in u.  One step:
 *
 *   forward plan (k, j, i upward), in place in rsd:
 *       rsd(p) <- D^-1 (dt rsd(p) - omega (L_z rsd(k-1) + L_y rsd(j-1)
 *                                          + L_x rsd(i-1)))
 *       (jacld's blocks from u at p and its neighbours at -1, read in u's
 *       block and ghosts; dt rsd at the point itself: tile_field_here())
 *   backward plan (dir -1 in every dimension, the forward plan's grid):
 *       rsd(p) <- rsd(p) - D^-1 omega (U_z rsd(k+1) + U_y rsd(j+1)
 *                                      + U_x rsd(i+1))
 *   u <- u + rsd / (omega (2 - omega))        a loop over the block
 *   rsd <- R(u) - frct                        a map of reach 2 (star)
 *
 * Each plan writes its tiles into rsd (tile_output_to_field()); between
 * the sweeps nothing moves but the pipelines' faces, and the map sends its
 * ghost layers.  Every value is computed by demos/lu_point.h's functions,
 * the ones lu_plain calls, with the same operands: rhs recomputes the
 * fluxes at i-1 and i+1 (and j, k) from u at each point instead of once per
 * line, in lu_plain's order (x, then y, then z; convection, diffusion,
 * dissipation), its one-sided dissipation chosen by the global index
 * (tile_map_coord()); NPB's rsd <- dt rsd is the forward body's first
 * product at the point.  u's update stays a loop over the block after the
 * backward sweep, as in NPB: the backward sweep's blocks at p read u at
 * p+1, which must still be the old u, so it cannot join the backward body.
 * The one thing computed otherwise is the residual norm's order of
 * summation: the map keeps it as an
 * exact sum (TILE_SUM, fed and read at the last step only: no collective
 * per step), which may differ from lu_plain's running sum in the last
 * bits (far within NPB's 1e-8, and equal to the exact sum of lu_plain's
 * own residual: --verify checks that).  The error norms and the surface
 * integral are lu_plain's functions on u gathered to rank 0 (their bits
 * too).  NPB's norm of the last correction (delunm), which it never
 * prints, is not computed.
 *
 * --verify runs lu_plain on rank 0 and compares the gathered u and rsd
 * with its arrays bit for bit; --json prints one JSON object instead of
 * the text (its keys: docs/JSON.md).  Exit status: 0 verified (or NOT
 * PERFORMED: --iterations other than the class's), 1 a verification that
 * failed, a --verify mismatch or a failed run, 2 bad arguments or a
 * configuration the plans refuse (too many processes for the class).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L     /* sigaction: tiling.h's fast loops under any compiler */
#endif

#include "../hybrid.h"
#include "agree.h"
#include "checkpoint.h"
#include "lu_point.h"
#include "../tests/lu_plain.h"      /* --verify: the plain reference */

#include <math.h>

/* A point's unknowns (the fields' and the plans' element). */
typedef struct lu_el {
    double v[5];
} lu_el;

static const char *const lu_classes[4] = { "S", "W", "A", "B" };

typedef struct lu_opts {
    struct lu_class cls;
    int cls_index, iters, model, threads, grid[2], verify, json;
    int64_t tile_height;
    demo_ckpt_opts ckpt;
} lu_opts;

/* The program's objects and results. */
typedef struct lu_prog {
    struct lu_coef cf;
    tile_plan fw, bw;
    tile_field u, rsd, frct;
    tile_map rhs;
    int64_t sj, si, sk;         /* u's strides along j, i, k (elements) */
    int steps, stopped;
    double secs, rsdnm[5], errnm[5], frc;
    demo_ckpt ck;               /* --checkpoint, --restart: u and saved */
    struct {
        double rsdnm0[5];       /* the first residual's norms (the loop's test) */
        double secs;            /* the time of the steps so far */
    } saved;
} lu_prog;

/* ------------------------------------------------------------------------ */
/* Values at one point                                                      */

/* R's part along direction d (1 x, 2 y, 3 z) at the point l of a line of n
 * points, added into r: w the 5-vectors at l-2 .. l+2; exact: w is the
 * exact solution (the forcing term: NPB divides by the density, and its z
 * lines take the second difference downward, rev), else u (NPB multiplies
 * by rho_i).  lu_plain's lu_line(), at one point. */
static void lu_r_dir(const struct lu_coef *cf, int d, int l, int n, const double *const w[5],
                     int exact, int rev, double r[5])
{
    const struct lu_dir dr = lu_dir_of(cf, d);
    double fa[5], fb[5], ga[5], gb[5], ri[5], qs[5], vel, q;
    int o;
    for (o = 1; o <= 3; o++) {
        if (exact)
            ri[o] = 1.0 / w[o][0];
        else
            lu_rhoq(w[o], &ri[o], &qs[o]);
    }
    for (o = 3; o >= 1; o -= 2) {       /* the fluxes at l+1 (fa), l-1 (fb) */
        const double *v = w[o];
        if (exact) {
            vel = v[d] / v[0];
            q = 0.5 * (v[1] * v[1] + v[2] * v[2] + v[3] * v[3]) / v[0];
        } else {
            vel = v[d] * ri[o];
            q = qs[o];
        }
        lu_flux_conv(cf, d, v, vel, q, o == 3 ? fa : fb);
    }
    lu_conv_add(dr.t2, fa, fb, r);
    lu_flux_visc(cf, d, dr.t3, w[3], ri[3], w[2], ri[2], ga);
    lu_flux_visc(cf, d, dr.t3, w[2], ri[2], w[1], ri[1], gb);
    lu_diff_add(cf, &dr, ga, gb, rev ? w[3] : w[1], w[2], rev ? w[1] : w[3], r);
    lu_diss_add(cf, l, n, w, r);
}

/* The forcing term frct = R(ue) at the inner point (i, j, k) (NPB's
 * erhs, at one point: ue at the 2 points on each side along each
 * direction). */
static void lu_frct_point(const struct lu_coef *cf, int i, int j, int k, double r[5])
{
    double e[3][5][5];
    const double *w[3][5];
    int o, m;
    for (o = 0; o < 5; o++) {
        lu_exact(cf, i + o - 2, j, k, e[0][o]);
        lu_exact(cf, i, j + o - 2, k, e[1][o]);
        lu_exact(cf, i, j, k + o - 2, e[2][o]);
        w[0][o] = e[0][o], w[1][o] = e[1][o], w[2][o] = e[2][o];
    }
    for (m = 0; m < 5; m++)
        r[m] = 0.0;
    lu_r_dir(cf, 1, i, cf->nx, w[0], 1, 0, r);
    lu_r_dir(cf, 2, j, cf->ny, w[1], 1, 0, r);
    lu_r_dir(cf, 3, k, cf->nz, w[2], 1, 1, r);
}

/* The fields' initial values at field coordinates c = (j, i, k) - 1: in
 * u, the exact solution on NPB's boundary planes (the ghost layer past
 * the edge), the blend inside (setiv), 0 past the boundary; frct inside. */
static void lu_fill_u(void *ctx, const int64_t *c, void *elem)
{
    const struct lu_coef *cf = (const struct lu_coef *)ctx;
    int j = (int)c[0] + 1, i = (int)c[1] + 1, k = (int)c[2] + 1, n = cf->nx;
    double *v = ((lu_el *)elem)->v;
    if (i < 0 || j < 0 || k < 0 || i >= n || j >= n || k >= n)
        memset(v, 0, 5 * sizeof *v);
    else if (i == 0 || j == 0 || k == 0 || i == n - 1 || j == n - 1 || k == n - 1)
        lu_exact(cf, i, j, k, v);
    else
        lu_setiv_point(cf, i, j, k, v);
}

static void lu_fill_frct(void *ctx, const int64_t *c, void *elem)
{
    const struct lu_coef *cf = (const struct lu_coef *)ctx;
    int j = (int)c[0] + 1, i = (int)c[1] + 1, k = (int)c[2] + 1, n = cf->nx;
    double *v = ((lu_el *)elem)->v;
    memset(v, 0, 5 * sizeof *v);
    if (i >= 1 && j >= 1 && k >= 1 && i <= n - 2 && j <= n - 2 && k <= n - 2)
        lu_frct_point(cf, i, j, k, v);
}

static void lu_fill_zero(void *ctx, const int64_t *c, void *elem)
{
    (void)ctx;
    (void)c;
    memset(elem, 0, sizeof(lu_el));
}

/* The plans' values outside the space: rsd on NPB's boundary planes,
 * -frct there = -0.0 (lu_plain's, sign included). */
static void lu_boundary(void *out, const int64_t *coord, void *ctx)
{
    int m;
    (void)coord;
    (void)ctx;
    for (m = 0; m < 5; m++)
        ((lu_el *)out)->v[m] = -0.0;
}

/* ------------------------------------------------------------------------ */
/* One SSOR step                                                            */

/* The forward sweep (jacld + blts), rsd <- dt rsd folded in at the point. */
static void lu_forward(lu_prog *p)
{
    const struct lu_coef *cf = &p->cf;
    const tile_field *U = &p->u, *R = &p->rsd;
    const int64_t sj = p->sj, si = p->si, sk = p->sk;
    HYBRID_RUN(&p->fw, it, {
        const lu_el *up = (const lu_el *)tile_field_here(&it, U);
        const lu_el *rp = (const lu_el *)tile_field_here(&it, R);
        double bd[5][5], bx[5][5], by[5][5], bz[5][5], v[5], t, q;
        int m;
        lu_rhoq(up->v, &t, &q);
        lu_jac_diag(cf, up->v, t, 0, bd);
        lu_rhoq(up[-sk].v, &t, &q);
        lu_jac_z(cf, up[-sk].v, t, q, 0, bz);
        lu_rhoq(up[-sj].v, &t, &q);
        lu_jac_y(cf, up[-sj].v, t, q, 0, by);
        lu_rhoq(up[-si].v, &t, &q);
        lu_jac_x(cf, up[-si].v, t, q, 0, bx);
        for (m = 0; m < 5; m++)
            v[m] = cf->dt * rp->v[m];
        lu_lower(cf->omega, bd, bz, TILE_AT(lu_el, it, 0, 0, -1).v, by,
                 TILE_AT(lu_el, it, -1, 0, 0).v, bx, TILE_AT(lu_el, it, 0, -1, 0).v, v,
                 TILE_AT(lu_el, it, 0, 0, 0).v);
    });
}

/* The backward sweep (jacu + buts). */
static void lu_backward(lu_prog *p)
{
    const struct lu_coef *cf = &p->cf;
    const tile_field *U = &p->u, *R = &p->rsd;
    const int64_t sj = p->sj, si = p->si, sk = p->sk;
    HYBRID_RUN(&p->bw, it, {
        const lu_el *up = (const lu_el *)tile_field_here(&it, U);
        const lu_el *rp = (const lu_el *)tile_field_here(&it, R);
        double bd[5][5], bx[5][5], by[5][5], bz[5][5], t, q;
        lu_rhoq(up->v, &t, &q);
        lu_jac_diag(cf, up->v, t, 1, bd);
        lu_rhoq(up[si].v, &t, &q);
        lu_jac_x(cf, up[si].v, t, q, 1, bx);
        lu_rhoq(up[sj].v, &t, &q);
        lu_jac_y(cf, up[sj].v, t, q, 1, by);
        lu_rhoq(up[sk].v, &t, &q);
        lu_jac_z(cf, up[sk].v, t, q, 1, bz);
        lu_upper(cf->omega, bd, bz, TILE_AT(lu_el, it, 0, 0, 1).v, by,
                 TILE_AT(lu_el, it, 1, 0, 0).v, bx, TILE_AT(lu_el, it, 0, 1, 0).v, rp->v,
                 TILE_AT(lu_el, it, 0, 0, 0).v);
    });
}

/* u <- u + rsd / (omega (2 - omega)) over this rank's block (u and rsd
 * have the same layout: the same configuration). */
static void lu_update(lu_prog *p, int threads)
{
    const double a = 1.0 / (p->cf.omega * (2.0 - p->cf.omega));
    lu_el *u = (lu_el *)p->u.data;
    const lu_el *r = (const lu_el *)p->rsd.data;
    const int64_t *g = p->u.ghost, *len = p->u.len, *st = p->u.stride;
    int64_t j;
    (void)threads;
#if defined(_OPENMP)
#pragma omp parallel for num_threads(threads) if (threads > 1)
#endif
    for (j = 0; j < len[0]; j++) {
        int64_t i, k;
        int m;
        for (i = 0; i < len[1]; i++) {
            int64_t e = (j + g[0]) * st[0] + (i + g[1]) * st[1] + g[2] * st[2];
            for (k = 0; k < len[2]; k++, e += st[2])
                for (m = 0; m < 5; m++)
                    u[e].v[m] = u[e].v[m] + a * r[e].v[m];
        }
    }
}

/* rsd <- R(u) - frct (NPB's rhs, at each point); with norm, each point's
 * squares into the map's 5 exact sums. */
static void lu_rhs_map(lu_prog *p, int norm)
{
    const struct lu_coef *cf = &p->cf;
    const lu_el *frct = (const lu_el *)p->frct.data;
    lu_el *const rsd0 = (lu_el *)p->rsd.data;
    TILE_MAP_RUN(&p->rhs, lu_el, it, {
        lu_el *out = &TILE_OUT(it, 0);
        const lu_el *f = frct + (out - rsd0);   /* the same element of frct */
        const double *wx[5], *wy[5], *wz[5];
        double r[5];
        int m;
        wx[0] = TILE_IN(it, 0, 0, -2, 0).v, wx[1] = TILE_IN(it, 0, 0, -1, 0).v;
        wx[2] = TILE_IN(it, 0, 0, 0, 0).v;
        wx[3] = TILE_IN(it, 0, 0, 1, 0).v, wx[4] = TILE_IN(it, 0, 0, 2, 0).v;
        wy[0] = TILE_IN(it, 0, -2, 0, 0).v, wy[1] = TILE_IN(it, 0, -1, 0, 0).v;
        wy[2] = wx[2];
        wy[3] = TILE_IN(it, 0, 1, 0, 0).v, wy[4] = TILE_IN(it, 0, 2, 0, 0).v;
        wz[0] = TILE_IN(it, 0, 0, 0, -2).v, wz[1] = TILE_IN(it, 0, 0, 0, -1).v;
        wz[2] = wx[2];
        wz[3] = TILE_IN(it, 0, 0, 0, 1).v, wz[4] = TILE_IN(it, 0, 0, 0, 2).v;
        for (m = 0; m < 5; m++)
            r[m] = -f->v[m];
        lu_r_dir(cf, 1, (int)tile_map_coord(&it, 1) + 1, cf->nx, wx, 0, 0, r);
        lu_r_dir(cf, 2, (int)tile_map_coord(&it, 0) + 1, cf->ny, wy, 0, 0, r);
        lu_r_dir(cf, 3, (int)tile_map_coord(&it, 2) + 1, cf->nz, wz, 0, 0, r);
        memcpy(out->v, r, sizeof r);
        if (norm)
            for (m = 0; m < 5; m++)
                TILE_SUM(it, m) += r[m] * r[m];
    });
}

/* ------------------------------------------------------------------------ */
/* The program's objects                                                    */

/* A call of this program's own on MPI_COMM_WORLD: on a failure, "lu:
 * rank R: CALL failed WHAT (MPI's text)" and the job ends (the other
 * ranks would wait for this one). */
static void lu_mpi(int rc, const char *call, const char *what)
{
    demo_mpi_check("lu", MPI_COMM_WORLD, rc, call, what);
}

/* Say why on rank 0 (msg), and return code. */
static int lu_fail(int rank, int code, const char *what, const char *msg)
{
    if (rank == 0)
        fprintf(stderr, "lu: %s%s%s\n", what, what[0] ? ": " : "", msg);
    return code;
}

/* The two plans: 0, or the exit status after rank 0 said why (2: the
 * plans refuse the configuration, the same on every rank). */
static int lu_plans(lu_prog *p, const lu_opts *o, int rank)
{
    tile_config c;
    int i, rc, n = o->cls.n - 2;
    tile_config_init(&c, 2);
    c.extent[0] = n;                /* j */
    c.extent[1] = n;                /* i */
    c.zlen = n;                     /* k */
    c.dep[0] = c.dep[1] = 1;
    c.depz = 1;
    c.elem_size = sizeof(lu_el);
    c.boundary = lu_boundary;
    c.model = o->model;
    c.threads = o->threads;
    c.tile_height = o->tile_height;
    c.grid[0] = o->grid[0];
    c.grid[1] = o->grid[1];
    rc = tile_plan_create(&p->fw, MPI_COMM_WORLD, &c);
    if (rc != TILE_OK)
        return lu_fail(rank, 2, "the forward sweep's plan", p->fw.errmsg);
    for (i = 0; i < 3; i++)
        c.dir[i] = -1;
    for (i = 0; i < 2; i++)         /* the same grid: the same block on every rank */
        c.grid[i] = p->fw.pdims[i];
    rc = tile_plan_create(&p->bw, MPI_COMM_WORLD, &c);
    if (rc != TILE_OK)
        return lu_fail(rank, 2, "the backward sweep's plan", p->bw.errmsg);
    return 0;
}

/* The fields, their values, the map and the plans' output: 0, or the exit
 * status after rank 0 said why. */
static int lu_fields(lu_prog *p, const lu_opts *o, int rank)
{
    tile_field_config fc;
    tile_map_config mc;
    int i, rc;
    if ((rc = tile_field_config_plan(&fc, &p->fw)) != TILE_OK)
        return lu_fail(rank, 1, "the fields' configuration", tile_strerror(rc));
    for (i = 0; i < 3; i++)
        fc.ghost[i] = 2;            /* the dissipation reads u at +-2 */
    if (tile_field_create(&p->u, MPI_COMM_WORLD, &fc) != TILE_OK)
        return lu_fail(rank, 1, "the field u", p->u.errmsg);
    if (tile_field_create(&p->rsd, MPI_COMM_WORLD, &fc) != TILE_OK)
        return lu_fail(rank, 1, "the field rsd", p->rsd.errmsg);
    if (tile_field_create(&p->frct, MPI_COMM_WORLD, &fc) != TILE_OK)
        return lu_fail(rank, 1, "the field frct", p->frct.errmsg);
    tile_field_fill(&p->u, lu_fill_u, &p->cf, 1);
    tile_field_fill(&p->frct, lu_fill_frct, &p->cf, 1);
    tile_field_fill(&p->rsd, lu_fill_zero, NULL, 1);
    p->sj = p->u.stride[0];
    p->si = p->u.stride[1];
    p->sk = p->u.stride[2];
    tile_map_config_init(&mc, &p->u, &p->rsd);
    for (i = 0; i < 3; i++)
        mc.reach[i] = 2;
    mc.star = 1;
    mc.threads = o->threads;
    mc.nsums = 5;
    if (tile_map_create(&p->rhs, &mc) != TILE_OK)
        return lu_fail(rank, 2, "the residual's map", p->rhs.errmsg);
    if ((rc = tile_output_to_field(&p->fw, &p->rsd, NULL)) != TILE_OK ||
        (rc = tile_output_to_field(&p->bw, &p->rsd, NULL)) != TILE_OK)
        return lu_fail(rank, 1, "the sweeps' output into rsd", tile_strerror(rc));
    return 0;
}

static void lu_prog_free(lu_prog *p)
{
    demo_ckpt_end(&p->ck);
    tile_map_destroy(&p->rhs);
    tile_plan_destroy(&p->fw);
    tile_plan_destroy(&p->bw);
    tile_field_destroy(&p->u);
    tile_field_destroy(&p->rsd);
    tile_field_destroy(&p->frct);
}

/* The steps' verdict before a checkpoint: the map's (the sweeps' agree at
 * each run). */
static int lu_ckpt_agree(void *ctx, const char **msg)
{
    lu_prog *p = (lu_prog *)ctx;
    *msg = p->rhs.errmsg;
    return tile_map_agree(&p->rhs) != TILE_OK;
}

/* --checkpoint and --restart: u and p->saved, for this class and number
 * of steps; resumed after the step read back (p->steps).  0, or 1 after
 * rank 0 said why (on every rank). */
static int lu_resume(lu_prog *p, const lu_opts *o, int rank)
{
    tile_field *f[1];
    int64_t start = 0;
    uint64_t fingerprint = 0x4c55000000000000ull ^ (uint64_t)o->cls_index << 40 ^
                           (uint64_t)o->iters;
    f[0] = &p->u;
    if (demo_ckpt_begin(&p->ck, "lu", &o->ckpt, f, 1, &p->saved, sizeof p->saved,
                        fingerprint, &start, rank) != 0)
        return 1;
    p->ck.agree = lu_ckpt_agree;
    p->ck.actx = p;
    p->steps = (int)start;
    if (start > 0 && rank == 0 && !o->json)
        printf(" Resumed after step %lld of %d\n", (long long)start, o->iters);
    return 0;
}

/* The residual's norms from the map's exact sums (collective): 0, or 1
 * after rank 0 said why (a failed map, on every rank). */
static int lu_norms(lu_prog *p, int rank)
{
    const struct lu_coef *cf = &p->cf;
    double s[5];
    int m;
    if (tile_map_sums(&p->rhs, s) != TILE_OK)
        return lu_fail(rank, 1, "the residual's map", p->rhs.errmsg);
    for (m = 0; m < 5; m++)
        p->rsdnm[m] = sqrt(s[m] / ((double)(cf->nx - 2) * (cf->ny - 2) * (cf->nz - 2)));
    return 0;
}

/* The status of a sweep's run, the same on every rank: 0 or 1 (said). */
static int lu_sweep_ok(tile_plan *plan, const char *which, int rank)
{
    if (tile_plan_status(plan) == TILE_OK)
        return 0;
    return lu_fail(rank, 1, which, plan->errmsg);
}

/* The steps (NPB's ssor after its first residual): itmax of them, or
 * fewer when every residual norm known is below NPB's tolerance (as
 * lu_ssor(): the norms are taken at the last step only, so that test sees
 * the first residual's until then).  0, or 1 after rank 0 said why. */
static int lu_steps(lu_prog *p, const lu_opts *o, int rank)
{
    const double tol = (double)1.0e-8f, before = p->saved.secs;
    double t0;
    int istep, m, below, rc = 0, stop = 0;
    lu_rhs_map(p, 1);
    if ((rc = lu_norms(p, rank)) != 0)
        return rc;
    if (p->steps > 0 && p->steps < o->iters)    /* resumed: the loop's test sees */
        memcpy(p->rsdnm, p->saved.rsdnm0, sizeof p->rsdnm);     /* the first norms */
    else
        memcpy(p->saved.rsdnm0, p->rsdnm, sizeof p->rsdnm);
    lu_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier", "lining up the ranks for the timer");
    t0 = MPI_Wtime();
    for (istep = p->steps + 1; istep <= o->iters && rc == 0; istep++) {
        int last = istep == o->iters;
        lu_forward(p);
        if ((rc = lu_sweep_ok(&p->fw, "the forward sweep", rank)) != 0)
            break;
        lu_backward(p);
        if ((rc = lu_sweep_ok(&p->bw, "the backward sweep", rank)) != 0)
            break;
        lu_update(p, o->threads);
        lu_rhs_map(p, last);
        p->steps = istep;
        if (last && (rc = lu_norms(p, rank)) != 0)
            break;
        for (below = 1, m = 0; m < 5; m++)
            below = below && p->rsdnm[m] < tol;
        if (below)
            break;
        p->saved.secs = before + (MPI_Wtime() - t0);
        if ((stop = demo_ckpt_step(&p->ck, "lu", istep, rank)) != 0)
            break;
    }
    p->stopped = stop > 0;
    rc = stop < 0 ? 1 : rc;
    p->secs = before + demo_slowest(t0);
    return rc == 0 && tile_map_agree(&p->rhs) != TILE_OK
               ? lu_fail(rank, 1, "the residual's map", p->rhs.errmsg) : rc;
}

/* ------------------------------------------------------------------------ */
/* The results: gathered to rank 0                                          */

/* A field gathered to rank 0 (the inner points, (j, i, k) row-major) into
 * lu_plain's layout g[lu_at(k, j, i)] of the whole grid (boundary 0).
 * Collective; 0, or 1 (on every rank) after rank 0 said why. */
static int lu_gather(tile_field *f, const struct lu *s, double (*g)[5], int rank)
{
    int n = s->cf.nx - 2, i, j, k, bad = rank == 0 && g == NULL, rc;
    lu_el *all = NULL;
    if (rank == 0 && !bad)
        bad = (all = (lu_el *)malloc(sizeof(lu_el) * (size_t)n * n * n)) == NULL;
    lu_mpi(MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD),
           "MPI_Allreduce", "agreeing on rank 0's gather buffer");
    if (bad) {
        free(all);
        return lu_fail(rank, 1, "rank 0", "out of memory for a gathered field");
    }
    if ((rc = tile_field_gather(f, 0, all)) != TILE_OK) {
        free(all);
        return lu_fail(rank, 1, "gathering a field", f->errmsg[0] ? f->errmsg : tile_strerror(rc));
    }
    for (j = 0; rank == 0 && j < n; j++)
        for (i = 0; i < n; i++)
            for (k = 0; k < n; k++)
                memcpy(g[lu_at(s, i + 1, j + 1, k + 1)], all[((size_t)j * n + i) * n + k].v,
                       sizeof(lu_el));
    free(all);
    return 0;
}

/* A struct lu on rank 0 with only u (zeroed) and the faces' arrays, for
 * lu_error() and lu_pintgr(); 0 or -1 out of memory. */
static int lu_state(struct lu *s, const lu_prog *p)
{
    size_t n = (size_t)p->cf.nx;
    memset(s, 0, sizeof *s);
    s->cf = p->cf;
    s->ld = p->cf.nx;
    s->u = (double (*)[5])calloc(n * n * n, sizeof *s->u);
    s->phi1 = (double *)malloc(n * n * sizeof *s->phi1);
    s->phi2 = (double *)malloc(n * n * sizeof *s->phi2);
    return s->u && s->phi1 && s->phi2 ? 0 : -1;
}

/* The error norms and the surface integral: u gathered to rank 0 and
 * lu_plain's functions (lu_error(), lu_pintgr()) on it.  0 or 1 (said). */
static int lu_results(lu_prog *p, struct lu *s, int rank)
{
    int rc;
    if (rank == 0 && lu_state(s, p) != 0) {
        lu_free(s);
        s->u = NULL;
    }
    rc = lu_gather(&p->u, s, rank == 0 ? s->u : NULL, rank);
    if (rc == 0 && rank == 0) {
        lu_error(s);
        lu_pintgr(s);
        memcpy(p->errnm, s->errnm, sizeof p->errnm);
        p->frc = s->frc;
        memcpy(s->rsdnm, p->rsdnm, sizeof p->rsdnm);
    }
    return rc;
}

/* A number of the JSON object: null where it is not finite (JSON has no
 * NaN or infinity). */
static void lu_json_num(const char *sep, double v)
{
    if (isfinite(v))
        printf("%s%.17g", sep, v);
    else
        printf("%snull", sep);
}

/* The JSON object (--json; keys: docs/JSON.md).  verified: NPB's verdict
 * (1, 0, -1 not performed); vstate: --verify's (1 ok, 0 mismatch, -1 not
 * asked). */
static void lu_report_json(const lu_prog *p, const lu_opts *o, const struct lu *s, int size,
                           int verified, int vstate)
{
    int m;
    printf("{\"demo\": \"lu\", \"class\": \"%c\", \"n\": %d, \"iterations\": %d, "
           "\"model\": \"%s\", \"processes\": %d, \"threads\": %d, \"grid\": [%d, %d], "
           "\"tile_height\": %lld, \"seconds\": %.6f, \"mops\": %.2f, \"verification\": "
           "\"%s\", \"rsdnm\": [", o->cls.name, o->cls.n, p->steps, tile_model_name(o->model),
           size, o->threads, p->fw.pdims[0], p->fw.pdims[1], (long long)p->fw.height.z, p->secs,
           lu_mops(o->cls.n, p->steps, p->secs),
           verified < 0 ? "NOT PERFORMED" : verified ? "SUCCESSFUL" : "UNSUCCESSFUL");
    for (m = 0; m < 5; m++)
        lu_json_num(m ? ", " : "", s->rsdnm[m]);
    printf("], \"errnm\": [");
    for (m = 0; m < 5; m++)
        lu_json_num(m ? ", " : "", s->errnm[m]);
    printf("]");
    lu_json_num(", \"frc\": ", s->frc);
    if (vstate >= 0)
        printf(", \"verify\": \"%s\"", vstate ? "ok" : "MISMATCH");
    printf("}\n");
}

/* NPB's result block and the values (rank 0), or with --json the JSON
 * object; the verdict: 1 verified, 0 failed, -1 not performed (other
 * steps than the class's).  vstate: as lu_report_json()'s. */
static int lu_report(const lu_prog *p, const lu_opts *o, const struct lu *s, int size,
                     int vstate)
{
    const struct lu_class *c = &o->cls;
    struct lu_rel rel;
    int m, ok = lu_verify(s, c, &rel), checked = o->iters == c->itmax;
    if (o->json) {
        lu_report_json(p, o, s, size, !checked ? -1 : ok, vstate);
        return !checked ? -1 : ok;
    }
    printf("\n LU Benchmark Completed.\n");
    printf(" Class           = %24c\n", c->name);
    printf(" Size            =  %9s%4dx%4dx%4d\n", "", c->n, c->n, c->n);
    printf(" Iterations      = %24d\n", p->steps);
    printf(" Time in seconds = %24.2f\n", p->secs);
    printf(" Total processes = %24d\n", size);
    printf(" Mop/s total     = %24.2f\n", lu_mops(c->n, p->steps, p->secs));
    printf(" Operation type  =           floating point\n");
    printf(" Verification    = %12s%s\n", "",
           !checked ? "NOT PERFORMED" : ok ? "  SUCCESSFUL" : "UNSUCCESSFUL");
    if (checked)
        printf("\n Comparison with class %c's reference values (epsilon 1.0e-08):\n", c->name);
    else
        printf("\n No reference values for %d steps of class %c: nothing compared\n", o->iters,
               c->name);
    printf("%13s  %24s", "", "value");
    printf(checked ? "  %24s  %14s\n" : "\n", "reference", "relative error");
    printf(" RMS-norms of residual (exact sums)\n");
    for (m = 0; m < 5; m++)
        lu_row(m + 1, s->rsdnm[m], checked ? &c->xcr[m] : NULL, rel.xcr[m]);
    printf(" RMS-norms of solution error\n");
    for (m = 0; m < 5; m++)
        lu_row(m + 1, s->errnm[m], checked ? &c->xce[m] : NULL, rel.xce[m]);
    printf(" Surface integral\n");
    lu_row(0, s->frc, checked ? &c->xci : NULL, rel.xci);
    return !checked ? -1 : ok;
}

/* ------------------------------------------------------------------------ */
/* --verify: lu_plain on rank 0                                             */

/* Count the inner points where a and b differ in any bit. */
static int64_t lu_differ(const struct lu *s, double (*a)[5], double (*b)[5])
{
    int64_t bad = 0;
    int i, j, k, n = s->cf.nx;
    for (k = 1; k < n - 1; k++)
        for (j = 1; j < n - 1; j++)
            for (i = 1; i < n - 1; i++)
                bad += memcmp(a[lu_at(s, i, j, k)], b[lu_at(s, i, j, k)], sizeof(lu_el)) != 0;
    return bad;
}

/* The RMS norms of v over the inner points from exact sums (tile_xsum),
 * as the map sums them. */
static void lu_exact_norms(const struct lu *s, double (*v)[5], double nm[5])
{
    tile_xsum x[5];
    int i, j, k, m, n = s->cf.nx;
    for (m = 0; m < 5; m++)
        tile_xsum_init(&x[m]);
    for (k = 1; k < n - 1; k++)
        for (j = 1; j < n - 1; j++)
            for (i = 1; i < n - 1; i++)
                for (m = 0; m < 5; m++)
                    tile_xsum_add(&x[m], v[lu_at(s, i, j, k)][m] * v[lu_at(s, i, j, k)][m]);
    for (m = 0; m < 5; m++)
        nm[m] = sqrt(tile_xsum_round(&x[m]) / ((double)(n - 2) * (n - 2) * (n - 2)));
}

/* Rank 0: compare with lu_plain's run q (u in s->u, rsd in r): 1 equal;
 * the verdict on stdout unless quiet. */
static int lu_compare(const lu_prog *p, const struct lu *s, double (*r)[5], struct lu *q,
                      int quiet)
{
    int64_t du = lu_differ(s, s->u, q->u), dr = lu_differ(s, r, q->rsd);
    double nm[5], worst = 0.0;
    int m, norms = 1, ends = memcmp(p->errnm, q->errnm, sizeof p->errnm) == 0 &&
                             memcmp(&p->frc, &q->frc, sizeof p->frc) == 0;
    lu_exact_norms(q, q->rsd, nm);
    norms = memcmp(nm, p->rsdnm, sizeof nm) == 0;
    for (m = 0; m < 5; m++)
        worst = fmax(worst, fabs(p->rsdnm[m] - q->rsdnm[m]) / fabs(q->rsdnm[m]));
    if (!quiet)
        printf("\n verify: %s: %lld and %lld of the %d^3 inner points of u and rsd differ from "
           "lu_plain's; the residual norms are %s the exact sums of lu_plain's residual "
           "(its running sums: %.1e relative); the error norms and the surface integral "
           "%s\n", du == 0 && dr == 0 && norms && ends && p->steps == q->itmax ? "ok" : "MISMATCH",
           (long long)du, (long long)dr, s->cf.nx - 2, norms ? "bitwise" : "NOT",
           worst, ends ? "bitwise" : "DIFFER");
    return du == 0 && dr == 0 && norms && ends;
}

/* --verify: rsd gathered, lu_plain run on rank 0, compared (the verdict
 * on stdout unless --json).  0 equal, 1 not, 2 not compared (out of
 * memory, said), the same on every rank. */
static int lu_verify_run(lu_prog *p, const lu_opts *o, const struct lu *s, int rank)
{
    double (*r)[5] = NULL;
    struct lu q;
    size_t n = (size_t)o->cls.n;
    int ok = 1, steps;
    memset(&q, 0, sizeof q);
    if (rank == 0 && ((r = (double (*)[5])calloc(n * n * n, sizeof *r)) == NULL ||
                      lu_init(&q, &o->cls, o->iters) != 0))
        ok = 0;
    lu_mpi(MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast",
           "telling whether lu_plain's arrays fit on rank 0");
    if (!ok) {
        free(r);
        return lu_fail(rank, 2, "--verify", "rank 0: out of memory for lu_plain's arrays");
    }
    if (lu_gather(&p->rsd, s, r, rank) != 0) {
        free(r);
        lu_free(&q);
        return 2;
    }
    if (rank == 0) {
        lu_setup(&q);
        lu_ssor_start(&q);
        steps = lu_ssor(&q);
        q.itmax = steps;
        lu_error(&q);
        lu_pintgr(&q);
        ok = lu_compare(p, s, r, &q, o->json);
    }
    lu_mpi(MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast", "telling --verify's verdict");
    free(r);
    lu_free(&q);
    return ok ? 0 : 1;
}

/* ------------------------------------------------------------------------ */
/* The command line                                                         */

static void lu_help(void)
{
    printf("usage: mpiexec -n P ./demos/lu [options]\n"
           "NPB 3.4's LU (SSOR on the 3-D Navier-Stokes equations) over fields, a map and\n"
           "two pipelined plans; NPB's result block, verified against its reference values.\n"
           "  --class C          S (12^3), W (33^3), A (64^3) or B (102^3) (default S)\n"
           "  --iterations K     K steps instead of the class's, 1..100000 (nothing is\n"
           "                     verified against NPB then)\n"
           "  --model M          mpi, fine, funneled or multiple (default mpi)\n"
           "  --threads T        threads per process, 1..1024 (default 1)\n"
           "  --grid PxQ         the process grid along j and i (default: chosen)\n"
           "  --tile-height z    tile height along k, >= 1 (default: the plan chooses)\n"
           "  --verify           also run the plain sequential reference (tests/lu_plain.h)\n"
           "                     on rank 0 and compare u and rsd bit for bit\n"
           "  --json             print one JSON object instead (keys: docs/JSON.md)\n"
           DEMO_CKPT_HELP
           "  -h, --help         print this help and exit\n"
           "Options take their value as the next argument or after '='.\n"
           "Exit status: 0 verified (or not performed: --iterations), 1 verification\n"
           "failed, --verify mismatch or a failed run, 2 bad arguments or a configuration\n"
           "the plans refuse, 75 stopped on SIGUSR1 after a checkpoint.\n");
}

/* "PxQ", two whole numbers in 1..4096 by the one rule of every program
 * (tilehybrid_parse_i64()): 0, or -1. */
static int lu_parse_grid(const char *v, int64_t x[2])
{
    char num[16];
    const char *sep = strchr(v, 'x');
    size_t l = sep == NULL ? 0 : (size_t)(sep - v);
    if (sep == NULL || l >= sizeof num)
        return -1;
    memcpy(num, v, l);
    num[l] = '\0';
    return tilehybrid_parse_i64(num, 1, 4096, &x[0]) == TILEHYBRID_OK &&
           tilehybrid_parse_i64(sep + 1, 1, 4096, &x[1]) == TILEHYBRID_OK ? 0 : -1;
}

static int lu_option(void *ctx, const char *name, const char *v, char *err, size_t len)
{
    lu_opts *o = (lu_opts *)ctx;
    int64_t x[2];
    int rc = demo_model_threads(name, v, &o->model, &o->threads, err, len);
    if (rc < 0)
        rc = demo_ckpt_option(&o->ckpt, name, v, err, len);
    if (rc >= 0)
        return rc;
    if (strcmp(name, "--class") == 0) {
        int c;
        for (c = 0; c < 4; c++)
            if (strcmp(v, lu_classes[c]) == 0) {
                o->cls_index = c;
                return 0;
            }
        return demo_msg(err, len, "--class '%s': expected S, W, A or B", v);
    }
    if (strcmp(name, "--iterations") == 0) {
        if (tilehybrid_parse_i64(v, 1, 100000, &x[0]) != TILEHYBRID_OK)
            return demo_msg(err, len, "--iterations '%s': expected a whole number in 1..100000",
                            v);
        o->iters = (int)x[0];
        return 0;
    }
    if (strcmp(name, "--tile-height") == 0) {
        if (tilehybrid_parse_i64(v, 1, 1000000, &o->tile_height) != TILEHYBRID_OK)
            return demo_msg(err, len, "--tile-height '%s': expected a whole number in "
                            "1..1000000", v);
        return 0;
    }
    if (lu_parse_grid(v, x) != 0)     /* --grid */
        return demo_msg(err, len, "--grid '%s': expected PxQ, two whole numbers in 1..4096", v);
    o->grid[0] = (int)x[0];
    o->grid[1] = (int)x[1];
    return 0;
}

/* The command line: 0 read, 1 --help, 2 bad (the message in err). */
static int lu_parse(int argc, char **argv, lu_opts *o, char *err, size_t len)
{
    static const char *const valued[9] = { "--class", "--iterations", "--model", "--threads",
                                           "--grid", "--tile-height", DEMO_CKPT_OPTIONS };
    opt_flag flags[2];
    opt_spec spec;
    int rc;
    memset(o, 0, sizeof *o);
    o->iters = -1;
    o->threads = 1;
    flags[0].name = "--verify";
    flags[0].set = &o->verify;
    flags[1].name = "--json";
    flags[1].set = &o->json;
    spec.valued = valued;
    spec.nvalued = 9;
    spec.flags = flags;
    spec.nflags = 2;
    spec.read = lu_option;
    rc = opt_parse(&spec, argc, argv, o, err, len);
    lu_class_get(lu_classes[o->cls_index][0], &o->cls);
    if (o->iters < 0)
        o->iters = o->cls.itmax;
    if (rc == 0)
        rc = demo_check_threads(o->model, o->threads, err, len);
    if (rc == 0)
        rc = demo_ckpt_check(&o->ckpt, err, len);
    return rc;
}

/* Parse, start MPI, agree on the command line (one collective), check
 * --verify's memory on rank 0.  -1: run; else the exit status (MPI
 * finalized, rank 0 printed the help or the one message). */
static int lu_start(int *argc, char ***argv, lu_opts *o, int *rank)
{
    char err[DEMO_MSGLEN] = "";
    demo_arg v[DEMO_AGREE_MAX];
    int rc = lu_parse(*argc, *argv, o, err, sizeof err), provided, k = 0, nr;
    int64_t n = o->cls.n;
    if (hybrid_init(argc, argv, rc ? TILE_MODEL_MPI : o->model, rc ? 1 : o->threads,
                    &provided) == TILE_ERR_MPI) {
        fprintf(stderr, "lu: MPI_Init_thread failed\n");
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    nr = demo_node_ranks("lu");     /* (collective: on every rank) */
    if (rc == 0 && o->verify)       /* lu_plain's arrays, u and rsd gathered, per point */
        rc = demo_check_memory("--verify", "lu_plain's arrays and the gathered u and rsd",
                               n * n * n, 256, "--class", nr, err, sizeof err);
    v[k++] = demo_arg_word("--class", o->cls_index, lu_classes);
    v[k++] = demo_arg_int("--iterations", o->iters);
    v[k++] = demo_arg_model(o->model);
    v[k++] = demo_arg_int("--threads", o->threads);
    v[k++] = demo_arg_int("--grid (P)", o->grid[0]);
    v[k++] = demo_arg_int("--grid (Q)", o->grid[1]);
    v[k++] = demo_arg_int("--tile-height", o->tile_height);
    v[k++] = demo_arg_flag("--verify", o->verify);
    v[k++] = demo_arg_flag("--json", o->json);
    v[k++] = demo_arg_flag("--checkpoint", o->ckpt.path != NULL);
    v[k++] = demo_arg_flag("--restart", o->ckpt.restart != NULL);
    v[k++] = demo_arg_int("--checkpoint-every (steps)", o->ckpt.every_steps);
    v[k++] = demo_arg_real("--checkpoint-every (seconds)", o->ckpt.every_seconds);
    return demo_agree_end(demo_agree_help("lu", rc, err, v, k, lu_help));
}

/* The run: the objects, the steps, the results, the report.  The exit
 * status, the same on every rank. */
static int lu_run(const lu_opts *o, int rank, int size)
{
    lu_prog p;
    struct lu s;
    int rc, verdict = 0, vstate = -1;
    memset(&p, 0, sizeof p);
    memset(&s, 0, sizeof s);
    p.u.comm = p.rsd.comm = p.frct.comm = p.rhs.comm = MPI_COMM_NULL;
    lu_coef_set(&p.cf, o->cls.n, o->cls.dt);
    rc = lu_plans(&p, o, rank);
    if (rc == 0)
        rc = lu_fields(&p, o, rank);
    if (rc == 0)
        rc = lu_resume(&p, o, rank);
    if (rc == 0 && rank == 0 && !o->json)
        printf("\n NAS Parallel Benchmarks 3.4 - LU, tilehybrid's demos/lu\n"
               " Size: %4dx%4dx%4d\n Iterations: %5d\n Processes: %d (grid %dx%d along j, i) "
               "x %d thread%s, model %s, tile height %lld\n", o->cls.n, o->cls.n, o->cls.n,
               o->iters, size, p.fw.pdims[0], p.fw.pdims[1], o->threads,
               o->threads > 1 ? "s" : "", tile_model_name(o->model),
               (long long)p.fw.height.z);
    if (rc == 0)
        rc = lu_steps(&p, o, rank);
    if (rc == 0 && p.stopped) {
        lu_prog_free(&p);
        return TILE_CKPT_EXIT;
    }
    if (rc == 0)
        rc = lu_results(&p, &s, rank);
    if (rc == 0 && o->verify && o->json) {     /* (its verdict goes into the object) */
        int vr = lu_verify_run(&p, o, &s, rank);
        rc = vr == 2 ? 1 : 0;
        vstate = vr == 0;
    }
    if (rc == 0 && rank == 0)
        verdict = lu_report(&p, o, &s, size, vstate);
    if (rc == 0 && o->verify && !o->json && lu_verify_run(&p, o, &s, rank) != 0)
        rc = 1;
    if (vstate == 0)
        rc = 1;
    lu_mpi(MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast",
           "telling NPB's verdict");
    lu_free(&s);
    lu_prog_free(&p);
    return rc != 0 ? rc : verdict == 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
    lu_opts o;
    int rank = 0, size = 1, rc = lu_start(&argc, &argv, &o, &rank);
    if (rc >= 0)
        return rc;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rc = lu_run(&o, rank, size);
    fflush(stdout);
    MPI_Finalize();
    return rc;
}
