/* demos/lu_point.h -- NPB LU's arithmetic at one grid point, shared by the
 * plain sequential reference (tests/lu_plain.h) and the tiled program
 * (demos/lu.c), so that both compute every value with the same sequence of
 * floating-point operations: bitwise equality by construction, not by
 * copying expressions twice.  (A helper for the demos and the tests, not
 * an installed header.)
 *
 * The LU pseudo-application of the NAS Parallel Benchmarks 3.4, written
 * from its specification; the constants, the exact solution's
 * coefficients, the class parameters and the reference values are NPB's.
 * tests/lu_plain.h's top comment gives the equations.  Here:
 *
 *   struct lu_class, lu_class_get()   a class's grid, steps, time step and
 *                                     reference values
 *   struct lu_coef, lu_coef_set()     the constants of the equations and
 *                                     the grid (NPB's setcoeff)
 *   lu_exact(), lu_setiv_point()      the exact solution, the initial blend
 *   lu_rhoq(), lu_flux_conv(),        R's pieces along one direction at one
 *   lu_flux_visc(), lu_conv_add(),    point: the convective and viscous
 *   lu_diff_add(), lu_diss_add()      fluxes, their differences, the
 *                                     fourth-order dissipation
 *   lu_jac_diag(), lu_jac_x/y/z()     the 5x5 blocks of the implicit operator
 *   lu_block_solve(), lu_lower(),     one point of the forward and the
 *   lu_upper()                        backward sweep
 *   lu_pressure_of(), lu_mops()       the surface integral's pressure, NPB's
 *                                     operation count
 *
 * Indices are 0-based (NPB's i is ours plus one); a point's unknowns are a
 * 5-vector of doubles.  Everything is a static inline function of its
 * arguments: no global state.  Compile with -ffp-contract=off (no fused
 * multiply-add), as the Makefile does, for NPB's bits.
 */
#ifndef TILEHYBRID_DEMOS_LU_POINT_H
#define TILEHYBRID_DEMOS_LU_POINT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A class: the grid's points per direction, the steps, the time step, and
 * the reference norms of the residual (xcr) and of the error (xce) and the
 * surface integral (xci) after those steps (NPB 3.4's verify routine). */
struct lu_class {
    char name;
    int n, itmax;
    double dt;
    double xcr[5], xce[5], xci;
};

/**
 * lu_class_get() - the parameters and reference values of a class.
 * @name: 'S' (12^3), 'W' (33^3), 'A' (64^3) or 'B' (102^3).
 * @c:    filled in.
 *
 * Return: 0, or -1 (and @c untouched) for any other name.
 */
static inline int lu_class_get(char name, struct lu_class *c)
{
    static const struct lu_class tab[4] = {
        {'S', 12, 50, 0.5,
         {1.6196343210976702e-02, 2.1976745164821318e-03, 1.5179927653399185e-03,
          1.5029584435994323e-03, 3.4264073155896461e-02},
         {6.4223319957960924e-04, 8.4144342047347926e-05, 5.8588269616485186e-05,
          5.8474222595157350e-05, 1.3103347914111294e-03},
         7.8418928865937083e+00},
        {'W', 33, 300, 1.5e-3,
         {0.1236511638192e+02, 0.1317228477799e+01, 0.2550120713095e+01,
          0.2326187750252e+01, 0.2826799444189e+02},
         {0.4867877144216e+00, 0.5064652880982e-01, 0.9281818101960e-01,
          0.8570126542733e-01, 0.1084277417792e+01},
         0.1161399311023e+02},
        {'A', 64, 250, 2.0,
         {7.7902107606689367e+02, 6.3402765259692870e+01, 1.9499249727292479e+02,
          1.7845301160418537e+02, 1.8384760349464247e+03},
         {2.9964085685471943e+01, 2.8194576365003349e+00, 7.3473412698774742e+00,
          6.7139225687777051e+00, 7.0715315688392578e+01},
         2.6030925604886277e+01},
        {'B', 102, 250, 2.0,
         {3.5532672969982736e+03, 2.6214750795310692e+02, 8.8333721850952190e+02,
          7.7812774739425265e+02, 7.3087969592545314e+03},
         {1.1401176380212709e+02, 8.1098963655421574e+00, 2.8480597317698308e+01,
          2.5905394567832939e+01, 2.6054907504857413e+02},
         4.7887162703308227e+01},
    };
    int t;
    for (t = 0; t < 4; t++)
        if (tab[t].name == name) {
            *c = tab[t];
            return 0;
        }
    return -1;
}

/* The constants of the equations and the grid (lu_coef_set()). */
struct lu_coef {
    int nx, ny, nz;             /* points per direction, boundary included */
    double dt, omega;
    double c1, c2, c3, c4, c5;
    double dxi, deta, dzeta;
    double tx1, tx2, tx3, ty1, ty2, ty3, tz1, tz2, tz3;
    double dx[5], dy[5], dz[5], dssp;
    double ce[5][13];           /* the exact solution's coefficients */
};

/* The exact solution's coefficients: ue_m = sum over the powers 0-4 of x,
 * y and z (ce[m][0] the constant; 1, 4, 7, 10 the powers of x; 2, 5, 8,
 * 11 of y; 3, 6, 9, 12 of z). */
static inline void lu_set_ce(struct lu_coef *k)
{
    static const double ce[5][13] = {
        {2.0, 0.0, 0.0, 4.0, 5.0, 3.0, 0.5, 0.02, 0.01, 0.03, 0.5, 0.4, 0.3},
        {1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 0.01, 0.03, 0.02, 0.4, 0.3, 0.5},
        {2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.04, 0.03, 0.05, 0.3, 0.5, 0.4},
        {2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.03, 0.05, 0.04, 0.2, 0.1, 0.3},
        {5.0, 4.0, 3.0, 2.0, 0.1, 0.4, 0.3, 0.05, 0.04, 0.03, 0.1, 0.3, 0.2},
    };
    memcpy(k->ce, ce, sizeof ce);
}

/**
 * lu_coef_set() - the constants (NPB's setcoeff): the gas's (c1-c5), the
 * mesh widths and their powers (tx1 = 1/dxi^2, tx2 = 1/(2 dxi), tx3 =
 * 1/dxi, ...), the diffusion and dissipation coefficients, the exact
 * solution's.
 * @k:  filled in.
 * @n:  points per direction (the class's c->n).
 * @dt: the time step (the class's c->dt).
 */
static inline void lu_coef_set(struct lu_coef *k, int n, double dt)
{
    int m;
    memset(k, 0, sizeof *k);
    k->nx = k->ny = k->nz = n;
    k->dt = dt;
    k->omega = 1.2;
    k->c1 = 1.40;
    k->c2 = 0.40;
    k->c3 = 1.00e-01;
    k->c4 = 1.00;
    k->c5 = 1.40;
    k->dxi = 1.0 / (k->nx - 1);
    k->deta = 1.0 / (k->ny - 1);
    k->dzeta = 1.0 / (k->nz - 1);
    k->tx1 = 1.0 / (k->dxi * k->dxi);
    k->tx2 = 1.0 / (2.0 * k->dxi);
    k->tx3 = 1.0 / k->dxi;
    k->ty1 = 1.0 / (k->deta * k->deta);
    k->ty2 = 1.0 / (2.0 * k->deta);
    k->ty3 = 1.0 / k->deta;
    k->tz1 = 1.0 / (k->dzeta * k->dzeta);
    k->tz2 = 1.0 / (2.0 * k->dzeta);
    k->tz3 = 1.0 / k->dzeta;
    for (m = 0; m < 5; m++) {
        k->dx[m] = 0.75;
        k->dy[m] = 0.75;
        k->dz[m] = 1.00;
    }
    k->dssp = fmax(fmax(k->dx[0], k->dy[0]), k->dz[0]) / 4.0;
    lu_set_ce(k);
}

/**
 * lu_exact() - the exact solution at a grid point.
 * @k:  the constants.
 * @i, @j, @kk: the point.
 * @ue: its five components.
 */
static inline void lu_exact(const struct lu_coef *k, int i, int j, int kk, double ue[5])
{
    double x = (double)i / (k->nx - 1);
    double y = (double)j / (k->ny - 1);
    double z = (double)kk / (k->nz - 1);
    int m;
    for (m = 0; m < 5; m++) {
        const double *c = k->ce[m];
        ue[m] = c[0] + (c[1] + (c[4] + (c[7] + c[10] * x) * x) * x) * x
                     + (c[2] + (c[5] + (c[8] + c[11] * y) * y) * y) * y
                     + (c[3] + (c[6] + (c[9] + c[12] * z) * z) * z) * z;
    }
}

/**
 * lu_setiv_point() - u at an inner point before the steps: the
 * transfinite (trilinear) blend of the exact solution on the faces, p = px
 * + py + pz - px py - py pz - pz px + px py pz, each p_d the linear
 * interpolation between the two faces across direction d (NPB's setiv).
 * @k:  the constants.
 * @i, @j, @kk: the point (inner).
 * @up: its five components.
 */
static inline void lu_setiv_point(const struct lu_coef *k, int i, int j, int kk, double up[5])
{
    double w0[5], w1[5], s0[5], s1[5], b0[5], b1[5];
    double z = (double)kk / (k->nz - 1), y = (double)j / (k->ny - 1);
    double x = (double)i / (k->nx - 1);
    int m;
    lu_exact(k, 0, j, kk, w0);
    lu_exact(k, k->nx - 1, j, kk, w1);
    lu_exact(k, i, 0, kk, s0);
    lu_exact(k, i, k->ny - 1, kk, s1);
    lu_exact(k, i, j, 0, b0);
    lu_exact(k, i, j, k->nz - 1, b1);
    for (m = 0; m < 5; m++) {
        double px = (1.0 - x) * w0[m] + x * w1[m];
        double py = (1.0 - y) * s0[m] + y * s1[m];
        double pz = (1.0 - z) * b0[m] + z * b1[m];
        up[m] = px + py + pz - px * py - py * pz - pz * px + px * py * pz;
    }
}

/* ------------------------------------------------------------------------ */
/* The residual's operator R along one direction, at one point              */

/* The coefficients of direction d (1 x, 2 y, 3 z) for R. */
struct lu_dir {
    int d;
    double t1, t2, t3;
    const double *dd;
};

static inline struct lu_dir lu_dir_of(const struct lu_coef *k, int d)
{
    struct lu_dir r;
    r.d = d;
    if (d == 1)
        r.t1 = k->tx1, r.t2 = k->tx2, r.t3 = k->tx3, r.dd = k->dx;
    else if (d == 2)
        r.t1 = k->ty1, r.t2 = k->ty2, r.t3 = k->ty3, r.dd = k->dy;
    else
        r.t1 = k->tz1, r.t2 = k->tz2, r.t3 = k->tz3, r.dd = k->dz;
    return r;
}

/* 1 / density and the kinetic energy per volume at a point of u (NPB's
 * rho_i and qs, set by rhs). */
static inline void lu_rhoq(const double v[5], double *rho_i, double *qs)
{
    double t = 1.0 / v[0];
    *rho_i = t;
    *qs = 0.5 * (v[1] * v[1] + v[2] * v[2] + v[3] * v[3]) * t;
}

/* The convective flux F_d of the 5-vector v with velocity vel along d and
 * kinetic energy q (the forcing term divides by the density where the
 * residual multiplies by rho_i: the caller computes vel and q). */
static inline void lu_flux_conv(const struct lu_coef *k, int d, const double v[5], double vel,
                                double q, double f[5])
{
    int m;
    for (m = 1; m < 4; m++)
        f[m] = v[m] * vel;
    f[0] = v[d];
    f[d] = v[d] * vel + k->c2 * (v[4] - q);
    f[4] = (k->c1 * v[4] - k->c2 * q) * vel;
}

/* The viscous flux between the point before (wm, 1 / density rm) and the
 * point (w, ri) along direction d (components 1-4; 0 unused). */
static inline void lu_flux_visc(const struct lu_coef *k, int d, double t3, const double w[5],
                                double ri, const double wm[5], double rm, double f[5])
{
    const double r43 = 4.0 / 3.0, c15 = k->c1 * k->c5;
    double a[5], b[5];
    int m;
    for (m = 1; m < 5; m++) {
        a[m] = ri * w[m];
        b[m] = rm * wm[m];
    }
    for (m = 1; m < 4; m++)
        f[m] = t3 * (a[m] - b[m]);
    f[d] = r43 * t3 * (a[d] - b[d]);
    f[4] = 0.5 * (1.0 - c15) * t3
               * ((a[1] * a[1] + a[2] * a[2] + a[3] * a[3])
                  - (b[1] * b[1] + b[2] * b[2] + b[3] * b[3]))
           + (1.0 / 6.0) * t3 * (a[d] * a[d] - b[d] * b[d])
           + c15 * t3 * (a[4] - b[4]);
}

/* r -= t2 (F(after) - F(before)). */
static inline void lu_conv_add(double t2, const double fa[5], const double fb[5], double r[5])
{
    int m;
    for (m = 0; m < 5; m++)
        r[m] = r[m] - t2 * (fa[m] - fb[m]);
}

/* r += the viscous flux difference (ga: after the point, gb: before it)
 * and the diffusion's second difference of w, wa the first and wb the
 * last of its three terms (NPB takes them upward, except in the forcing
 * term's z lines). */
static inline void lu_diff_add(const struct lu_coef *k, const struct lu_dir *dr,
                               const double ga[5], const double gb[5], const double wa[5],
                               const double w[5], const double wb[5], double r[5])
{
    const double t1 = dr->t1, k3 = dr->t3 * k->c3 * k->c4;
    int m;
    r[0] = r[0] + dr->dd[0] * t1 * (wa[0] - 2.0 * w[0] + wb[0]);
    for (m = 1; m < 5; m++)
        r[m] = r[m] + k3 * (ga[m] - gb[m]) + dr->dd[m] * t1 * (wa[m] - 2.0 * w[m] + wb[m]);
}

/**
 * lu_diss_add() - r -= dssp times the fourth difference of w at the
 * point l of a line of n points (n >= 7), one-sided at the two points next
 * to each end (NPB's rhs and erhs).
 * @k:  the constants (dssp).
 * @l:  the point along the line, 1 .. n - 2.
 * @n:  the line's points.
 * @w:  the 5-vectors at l - 2 .. l + 2 (w[2] the point); those outside
 *      0 .. n - 1 are not read (they may be NULL).
 * @r:  the point's residual.
 */
static inline void lu_diss_add(const struct lu_coef *k, int l, int n, const double *const w[5],
                               double r[5])
{
    const double e = k->dssp;
    int m;
    for (m = 0; m < 5; m++) {
        double x;
        if (l == 1)
            x = 5.0 * w[2][m] - 4.0 * w[3][m] + w[4][m];
        else if (l == 2)
            x = -4.0 * w[1][m] + 6.0 * w[2][m] - 4.0 * w[3][m] + w[4][m];
        else if (l == n - 3)
            x = w[0][m] - 4.0 * w[1][m] + 6.0 * w[2][m] - 4.0 * w[3][m];
        else if (l == n - 2)
            x = w[0][m] - 4.0 * w[1][m] + 5.0 * w[2][m];
        else
            x = w[0][m] - 4.0 * w[1][m] + 6.0 * w[2][m] - 4.0 * w[3][m] + w[4][m];
        r[m] = r[m] - e * x;
    }
}

/* ------------------------------------------------------------------------ */
/* The implicit operator's 5x5 blocks                                       */

/**
 * lu_jac_diag() - the diagonal block of the Jacobian at a point: upper =
 * 0 as the forward sweep's (NPB's jacld), 1 as the backward sweep's
 * (jacu); the two are the same matrix with some products grouped
 * differently.
 * @k:  the constants.
 * @v:  u at the point.
 * @t1: 1 / its density (lu_rhoq()).
 * @upper: 0 forward, 1 backward.
 * @b:  the block.
 */
static inline void lu_jac_diag(const struct lu_coef *k, const double v[5], double t1, int upper,
                               double b[5][5])
{
    const double dt2 = k->dt * 2.0, r43 = 4.0 / 3.0, c34 = k->c3 * k->c4;
    const double c1345 = k->c1 * k->c3 * k->c4 * k->c5;
    const double tx1 = k->tx1, ty1 = k->ty1, tz1 = k->tz1;
    const double kx = r43 * c34 - c1345, k0 = c34 - c1345;
    const double ax = tx1 * kx + ty1 * k0 + tz1 * k0;
    const double ay = tx1 * k0 + ty1 * kx + tz1 * k0;
    const double az = tx1 * k0 + ty1 * k0 + tz1 * kx;
    const double t2 = t1 * t1, t3 = t1 * t2;
    const double sx = tx1 * r43 + ty1 + tz1, sy = tx1 + ty1 * r43 + tz1;
    const double sz = tx1 + ty1 + tz1 * r43;
    memset(b, 0, 25 * sizeof b[0][0]);
    b[0][0] = 1.0 + dt2 * (tx1 * k->dx[0] + ty1 * k->dy[0] + tz1 * k->dz[0]);
    b[1][1] = 1.0 + dt2 * c34 * t1 * sx + dt2 * (tx1 * k->dx[1] + ty1 * k->dy[1] + tz1 * k->dz[1]);
    b[2][2] = 1.0 + dt2 * c34 * t1 * sy + dt2 * (tx1 * k->dx[2] + ty1 * k->dy[2] + tz1 * k->dz[2]);
    b[3][3] = 1.0 + dt2 * c34 * t1 * sz + dt2 * (tx1 * k->dx[3] + ty1 * k->dy[3] + tz1 * k->dz[3]);
    if (upper) {
        b[1][0] = dt2 * (-tx1 * r43 - ty1 - tz1) * (c34 * t2 * v[1]);
        b[2][0] = dt2 * (-tx1 - ty1 * r43 - tz1) * (c34 * t2 * v[2]);
        b[3][0] = dt2 * (-tx1 - ty1 - tz1 * r43) * (c34 * t2 * v[3]);
        b[4][1] = dt2 * ax * t2 * v[1];
        b[4][2] = dt2 * ay * t2 * v[2];
        b[4][3] = dt2 * az * t2 * v[3];
    } else {
        b[1][0] = -dt2 * sx * c34 * t2 * v[1];
        b[2][0] = -dt2 * sy * c34 * t2 * v[2];
        b[3][0] = -dt2 * sz * c34 * t2 * v[3];
        b[4][1] = dt2 * t2 * v[1] * ax;
        b[4][2] = dt2 * t2 * v[2] * ay;
        b[4][3] = dt2 * t2 * v[3] * az;
    }
    b[4][0] = -dt2 * ((ax * (v[1] * v[1]) + ay * (v[2] * v[2]) + az * (v[3] * v[3])) * t3
                      + (tx1 + ty1 + tz1) * c1345 * t2 * v[4]);
    b[4][4] = 1.0 + dt2 * (tx1 + ty1 + tz1) * c1345 * t1
                  + dt2 * (tx1 * k->dx[4] + ty1 * k->dy[4] + tz1 * k->dz[4]);
}

/* The constants the off-diagonal blocks share: g2 = -+dt t2 (the
 * convective part's sign: - towards the point before, + after), g1 =
 * dt t1. */
struct lu_jk {
    double g1, g2, r43, c34, c1345, kx, k0;
};

static inline struct lu_jk lu_jk_of(const struct lu_coef *k, double t1, double t2, int upper)
{
    struct lu_jk j;
    j.g1 = k->dt * t1;
    j.g2 = upper ? k->dt * t2 : -(k->dt * t2);
    j.r43 = 4.0 / 3.0;
    j.c34 = k->c3 * k->c4;
    j.c1345 = k->c1 * k->c3 * k->c4 * k->c5;
    j.kx = j.r43 * j.c34 - j.c1345;
    j.k0 = j.c34 - j.c1345;
    return j;
}

/**
 * lu_jac_x() - the block towards the x neighbour (i - 1 forward, i + 1
 * backward).
 * @k:  the constants.
 * @v, @t1, @qs: u at the neighbour, 1 / its density, its kinetic energy
 *      (lu_rhoq()).
 * @upper: 0 forward, 1 backward.
 * @b:  the block.
 */
static inline void lu_jac_x(const struct lu_coef *k, const double v[5], double t1, double qs,
                            int upper, double b[5][5])
{
    const struct lu_jk c = lu_jk_of(k, k->tx1, k->tx2, upper);
    const double c2 = k->c2, c1 = k->c1;
    const double t2 = t1 * t1, t3 = t1 * t2, e = v[1] * t1;
    const double *dd = k->dx;
    memset(b, 0, 25 * sizeof b[0][0]);
    b[0][0] = -c.g1 * dd[0];
    b[0][1] = c.g2;
    b[1][0] = c.g2 * (-(e * e) + c2 * qs * t1) - c.g1 * (-c.r43 * c.c34 * t2 * v[1]);
    b[1][1] = c.g2 * ((2.0 - c2) * (v[1] * t1)) - c.g1 * (c.r43 * c.c34 * t1) - c.g1 * dd[1];
    b[1][2] = c.g2 * (-c2 * (v[2] * t1));
    b[1][3] = c.g2 * (-c2 * (v[3] * t1));
    b[1][4] = c.g2 * c2;
    b[2][0] = c.g2 * (-(v[1] * v[2]) * t2) - c.g1 * (-c.c34 * t2 * v[2]);
    b[2][1] = c.g2 * (v[2] * t1);
    b[2][2] = c.g2 * (v[1] * t1) - c.g1 * (c.c34 * t1) - c.g1 * dd[2];
    b[3][0] = c.g2 * (-(v[1] * v[3]) * t2) - c.g1 * (-c.c34 * t2 * v[3]);
    b[3][1] = c.g2 * (v[3] * t1);
    b[3][3] = c.g2 * (v[1] * t1) - c.g1 * (c.c34 * t1) - c.g1 * dd[3];
    /* NPB groups (5,1)'s last factors differently in the two sweeps */
    b[4][0] = (upper ? c.g2 * ((c2 * 2.0 * qs - c1 * v[4]) * (v[1] * t2))
                     : c.g2 * ((c2 * 2.0 * qs - c1 * v[4]) * v[1] * t2))
              - c.g1 * (-c.kx * t3 * (v[1] * v[1]) - c.k0 * t3 * (v[2] * v[2])
                        - c.k0 * t3 * (v[3] * v[3]) - c.c1345 * t2 * v[4]);
    b[4][1] = c.g2 * (c1 * (v[4] * t1) - c2 * (v[1] * v[1] * t2 + qs * t1))
              - c.g1 * c.kx * t2 * v[1];
    b[4][2] = c.g2 * (-c2 * (v[2] * v[1]) * t2) - c.g1 * c.k0 * t2 * v[2];
    b[4][3] = c.g2 * (-c2 * (v[3] * v[1]) * t2) - c.g1 * c.k0 * t2 * v[3];
    b[4][4] = c.g2 * (c1 * (v[1] * t1)) - c.g1 * c.c1345 * t1 - c.g1 * dd[4];
}

/* The block towards the y neighbour (j - 1 forward, j + 1 backward); the
 * arguments as lu_jac_x()'s. */
static inline void lu_jac_y(const struct lu_coef *k, const double v[5], double t1, double qs,
                            int upper, double b[5][5])
{
    const struct lu_jk c = lu_jk_of(k, k->ty1, k->ty2, upper);
    const double c2 = k->c2, c1 = k->c1;
    const double t2 = t1 * t1, t3 = t1 * t2, e = v[2] * t1;
    const double *dd = k->dy;
    memset(b, 0, 25 * sizeof b[0][0]);
    b[0][0] = -c.g1 * dd[0];
    b[0][2] = c.g2;
    b[1][0] = c.g2 * (-(v[1] * v[2]) * t2) - c.g1 * (-c.c34 * t2 * v[1]);
    b[1][1] = c.g2 * (v[2] * t1) - c.g1 * (c.c34 * t1) - c.g1 * dd[1];
    b[1][2] = c.g2 * (v[1] * t1);
    b[2][0] = c.g2 * (-(e * e) + c2 * (qs * t1)) - c.g1 * (-c.r43 * c.c34 * t2 * v[2]);
    b[2][1] = c.g2 * (-c2 * (v[1] * t1));
    b[2][2] = c.g2 * ((2.0 - c2) * (v[2] * t1)) - c.g1 * (c.r43 * c.c34 * t1) - c.g1 * dd[2];
    b[2][3] = c.g2 * (-c2 * (v[3] * t1));
    b[2][4] = c.g2 * c2;
    b[3][0] = c.g2 * (-(v[2] * v[3]) * t2) - c.g1 * (-c.c34 * t2 * v[3]);
    b[3][2] = c.g2 * (v[3] * t1);
    b[3][3] = c.g2 * (v[2] * t1) - c.g1 * (c.c34 * t1) - c.g1 * dd[3];
    b[4][0] = c.g2 * ((c2 * 2.0 * qs - c1 * v[4]) * (v[2] * t2))
              - c.g1 * (-c.k0 * t3 * (v[1] * v[1]) - c.kx * t3 * (v[2] * v[2])
                        - c.k0 * t3 * (v[3] * v[3]) - c.c1345 * t2 * v[4]);
    b[4][1] = c.g2 * (-c2 * (v[1] * v[2]) * t2) - c.g1 * c.k0 * t2 * v[1];
    b[4][2] = c.g2 * (c1 * (v[4] * t1) - c2 * (qs * t1 + v[2] * v[2] * t2))
              - c.g1 * c.kx * t2 * v[2];
    b[4][3] = c.g2 * (-c2 * (v[2] * v[3]) * t2) - c.g1 * c.k0 * t2 * v[3];
    b[4][4] = c.g2 * (c1 * (v[2] * t1)) - c.g1 * c.c1345 * t1 - c.g1 * dd[4];
}

/* The block towards the z neighbour (k - 1 forward, k + 1 backward); the
 * arguments as lu_jac_x()'s. */
static inline void lu_jac_z(const struct lu_coef *k, const double v[5], double t1, double qs,
                            int upper, double b[5][5])
{
    const struct lu_jk c = lu_jk_of(k, k->tz1, k->tz2, upper);
    const double c2 = k->c2, c1 = k->c1;
    const double t2 = t1 * t1, t3 = t1 * t2, e = v[3] * t1;
    const double *dd = k->dz;
    memset(b, 0, 25 * sizeof b[0][0]);
    b[0][0] = -c.g1 * dd[0];
    b[0][3] = c.g2;
    b[1][0] = c.g2 * (-(v[1] * v[3]) * t2) - c.g1 * (-c.c34 * t2 * v[1]);
    b[1][1] = c.g2 * (v[3] * t1) - c.g1 * c.c34 * t1 - c.g1 * dd[1];
    b[1][3] = c.g2 * (v[1] * t1);
    b[2][0] = c.g2 * (-(v[2] * v[3]) * t2) - c.g1 * (-c.c34 * t2 * v[2]);
    b[2][2] = c.g2 * (v[3] * t1) - c.g1 * (c.c34 * t1) - c.g1 * dd[2];
    b[2][3] = c.g2 * (v[2] * t1);
    /* NPB groups (4,1) and (5,1) differently in the two sweeps */
    b[3][0] = (upper ? c.g2 * (-(e * e) + c2 * (qs * t1)) : c.g2 * (-(e * e) + c2 * qs * t1))
              - c.g1 * (-c.r43 * c.c34 * t2 * v[3]);
    b[3][1] = c.g2 * (-c2 * (v[1] * t1));
    b[3][2] = c.g2 * (-c2 * (v[2] * t1));
    b[3][3] = c.g2 * (2.0 - c2) * (v[3] * t1) - c.g1 * (c.r43 * c.c34 * t1) - c.g1 * dd[3];
    b[3][4] = c.g2 * c2;
    b[4][0] = (upper ? c.g2 * ((c2 * 2.0 * qs - c1 * v[4]) * (v[3] * t2))
                     : c.g2 * ((c2 * 2.0 * qs - c1 * v[4]) * v[3] * t2))
              - c.g1 * (-c.k0 * t3 * (v[1] * v[1]) - c.k0 * t3 * (v[2] * v[2])
                        - c.kx * t3 * (v[3] * v[3]) - c.c1345 * t2 * v[4]);
    b[4][1] = c.g2 * (-c2 * (v[1] * v[3]) * t2) - c.g1 * c.k0 * t2 * v[1];
    b[4][2] = c.g2 * (-c2 * (v[2] * v[3]) * t2) - c.g1 * c.k0 * t2 * v[2];
    b[4][3] = c.g2 * (c1 * (v[4] * t1) - c2 * (qs * t1 + v[3] * v[3] * t2))
              - c.g1 * c.kx * t2 * v[3];
    b[4][4] = c.g2 * (c1 * (v[3] * t1)) - c.g1 * c.c1345 * t1 - c.g1 * dd[4];
}

/* Eliminate column c of a 5x5 block below its diagonal (no pivoting),
 * the right-hand side along. */
static inline void lu_elim(double t[5][5], double rhs[5], int c)
{
    const double inv = 1.0 / t[c][c];
    int r, q;
    for (r = c + 1; r < 5; r++) {
        double f = inv * t[r][c];
        for (q = c + 1; q < 5; q++)
            t[r][q] = t[r][q] - f * t[c][q];
        rhs[r] = rhs[r] - rhs[c] * f;
    }
}

/* Row r of the back substitution: x[r] from the x after it. */
static inline void lu_back(double t[5][5], const double rhs[5], double x[5], int r)
{
    double a = rhs[r];
    int q;
    for (q = r + 1; q < 5; q++)
        a = a - t[r][q] * x[q];
    x[r] = a / t[r][r];
}

/* Solve t x = rhs for a 5x5 block by Gaussian elimination without
 * pivoting (t and rhs are overwritten; the calls one by one let the
 * compiler unroll the loops). */
static inline void lu_block_solve(double t[5][5], double rhs[5], double x[5])
{
    lu_elim(t, rhs, 0);
    lu_elim(t, rhs, 1);
    lu_elim(t, rhs, 2);
    lu_elim(t, rhs, 3);
    lu_back(t, rhs, x, 4);
    lu_back(t, rhs, x, 3);
    lu_back(t, rhs, x, 2);
    lu_back(t, rhs, x, 1);
    lu_back(t, rhs, x, 0);
}

/* omega times the product of the blocks bz with the point vz, then of by
 * and bx with vy and vx, their terms interleaved as NPB adds them. */
static inline void lu_couple(double om, double bz[5][5], const double *vz, double by[5][5],
                             const double *vy, double bx[5][5], const double *vx, double tz[5],
                             double tyx[5])
{
    int m, n;
    for (m = 0; m < 5; m++) {
        double a = bz[m][0] * vz[0], b = by[m][0] * vy[0] + bx[m][0] * vx[0];
        for (n = 1; n < 5; n++) {
            a = a + bz[m][n] * vz[n];
            b = b + by[m][n] * vy[n];
            b = b + bx[m][n] * vx[n];
        }
        tz[m] = om * a;
        tyx[m] = om * b;
    }
}

/**
 * lu_lower() - one point of the forward sweep (NPB's blts):
 * x = D^-1 (v - omega (L_z vz + L_y vy + L_x vx)).
 * @om:  omega.
 * @bd:  the diagonal block (overwritten).
 * @bz, @by, @bx: the blocks towards k-1, j-1, i-1.
 * @vz, @vy, @vx: the sweep's new values there.
 * @v:   the point's right-hand side (dt rsd).
 * @x:   the point's new value (may be @v).
 */
static inline void lu_lower(double om, double bd[5][5], double bz[5][5], const double *vz,
                            double by[5][5], const double *vy, double bx[5][5], const double *vx,
                            const double *v, double *x)
{
    double tz[5], tyx[5], tv[5];
    int m;
    lu_couple(om, bz, vz, by, vy, bx, vx, tz, tyx);
    for (m = 0; m < 5; m++)
        tv[m] = v[m] - tz[m] - tyx[m];
    lu_block_solve(bd, tv, x);
}

/**
 * lu_upper() - one point of the backward sweep (NPB's buts):
 * x = v - D^-1 omega (U_z vz + U_y vy + U_x vx).
 * @om:  omega.
 * @bd:  the diagonal block (overwritten).
 * @bz, @by, @bx: the blocks towards k+1, j+1, i+1.
 * @vz, @vy, @vx: the sweep's new values there.
 * @v:   the point's value after the forward sweep.
 * @x:   the point's new value (may be @v).
 */
static inline void lu_upper(double om, double bd[5][5], double bz[5][5], const double *vz,
                            double by[5][5], const double *vy, double bx[5][5], const double *vx,
                            const double *v, double *x)
{
    double tz[5], tyx[5], tv[5], d[5];
    int m;
    lu_couple(om, bz, vz, by, vy, bx, vx, tz, tyx);
    for (m = 0; m < 5; m++)
        tv[m] = tz[m] + tyx[m];
    lu_block_solve(bd, tv, d);
    for (m = 0; m < 5; m++)
        x[m] = v[m] - d[m];
}

/* The pressure at a point: c2 (rho e - |rho v|^2 / (2 rho)), c2 = gamma - 1. */
static inline double lu_pressure_of(const struct lu_coef *k, const double v[5])
{
    return k->c2 * (v[4] - 0.5 * (v[1] * v[1] + v[2] * v[2] + v[3] * v[3]) / v[0]);
}

/* NPB's count of LU's operations, in millions per second, for iters
 * steps of the n^3 grid in secs seconds (its constants are single
 * precision literals in the Fortran). */
static inline double lu_mops(int n, int iters, double secs)
{
    double s = (double)(3 * n), q = s / 3.0;
    double ops = (double)1984.77f * n * n * n - (double)10923.3f * (q * q)
                 + (double)27770.9f * s / 3.0 - 144010.0;
    return secs > 0.0 ? 1.0e-6 * iters * ops / secs : 0.0;
}

/* One line of NPB's verification block: the value, and with a reference
 * the reference and the relative error ("FAILURE:" above epsilon 1e-8). */
static inline void lu_row(int m, double v, const double *ref, double rel)
{
    const char *tag = ref && !(rel <= 1.0e-8) ? "FAILURE:" : "";
    if (m > 0)
        printf(" %-8s %2d", tag, m);
    else
        printf(" %-8s   ", tag);
    if (ref)
        printf("  %24.16e  %24.16e  %14.2e\n", v, *ref, rel);
    else
        printf("  %24.16e\n", v);
}

#endif
