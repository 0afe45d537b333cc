/* tests/lu_plain.h -- NPB LU, the plain sequential reference.
 *
 * The LU pseudo-application of the NAS Parallel Benchmarks 3.4: the steady
 * state of the 3-D compressible Navier-Stokes equations on the unit cube,
 * five unknowns per grid point (density, the three momenta, the energy),
 * reached by symmetric successive over-relaxation (SSOR) in pseudo-time.
 * Written here from the benchmark's specification and equations; the
 * constants, the exact solution's coefficients, the class parameters and
 * the reference values are NPB's.  It is the bitwise reference a tiled,
 * distributed LU is compared with: every phase is a function of its own,
 * its loops in NPB's order (k outer, then j, then i), and every expression
 * groups its operations as NPB 3.4's serial code does (its OpenMP version
 * built without OpenMP), so the norms are that build's, bit for bit, when
 * neither compiler fuses a multiply and an add (-ffp-contract=off, which
 * the Makefile's WARN holds).
 *
 * The equations.  A polynomial ue(x, y, z) (lu_exact) gives the boundary
 * values (lu_setbv), a trilinear blend of the boundary the initial values
 * (lu_setiv).  R(w) is the discrete steady-state operator: central
 * differences of the convective fluxes, second differences of the viscous
 * ones, fourth-order dissipation, along each direction in turn (lu_line).
 * The forcing term frct = R(ue) (lu_erhs) makes ue the solution of the
 * discrete equations R(u) - frct = 0, whose left side is the residual rsd
 * (lu_rhs).  One SSOR step (lu_ssor_step) uses the 5x5 blocks of the
 * linearised implicit operator at each point, D on the diagonal, L_d and
 * U_d towards the points before and after in direction d:
 *
 *   rsd <- dt rsd
 *   forward, k, j, i upward (lu_jacld, lu_blts):
 *       rsd(p) <- D^-1 (rsd(p) - omega sum_d L_d rsd(p - e_d))
 *   backward, k, j, i downward (lu_jacu, lu_buts):
 *       rsd(p) <- rsd(p) - D^-1 omega sum_d U_d rsd(p + e_d)
 *   u <- u + rsd / (omega (2 - omega)),   then rsd = R(u) - frct again
 *
 * After the steps: the RMS norms of rsd, of u - ue (lu_error) and a
 * surface integral of the pressure (lu_pintgr), compared with the class's
 * reference values (lu_verify).
 *
 * Indices are 0-based: i in 0..nx-1, the boundary at 0 and nx-1 (j, k
 * likewise); NPB's i is ours plus one.  A point's 5-vector is
 * s.u[lu_at(&s, i, j, k)].  No global state: everything is in the struct
 * lu that each function takes.
 *
 *   struct lu_class c;
 *   struct lu s;
 *   if (lu_class_get('A', &c) != 0 || lu_init(&s, &c, c.itmax) != 0)
 *       return 1;                           (unknown class, out of memory)
 *   lu_setup(&s);                           (coefficients, u, frct)
 *   lu_ssor_start(&s);                      (rsd and its norm)
 *   lu_ssor(&s);                            (the timed steps)
 *   lu_error(&s);
 *   lu_pintgr(&s);
 *   ok = lu_verify(&s, &c, &rel);           (1: within 1e-8)
 *   lu_free(&s);
 */
#ifndef TILEHYBRID_TESTS_LU_PLAIN_H
#define TILEHYBRID_TESTS_LU_PLAIN_H

#include <math.h>
#include <stdlib.h>
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

/* The solver's state. */
struct lu {
    int nx, ny, nz;             /* points per direction, boundary included */
    int itmax, inorm;           /* steps; norms every inorm steps and at the last */
    double dt, omega, tolrsd[5];
    /* constants of the equations and the grid (lu_setcoeff) */
    double c1, c2, c3, c4, c5;
    double dxi, deta, dzeta;
    double tx1, tx2, tx3, ty1, ty2, ty3, tz1, tz2, tz3;
    double dx[5], dy[5], dz[5], dssp;
    double ce[5][13];           /* the exact solution's coefficients */
    /* fields, one 5-vector per point (lu_at) */
    double (*u)[5], (*rsd)[5], (*frct)[5];
    double *rho_i, *qs;         /* 1 / density, kinetic energy (lu_rhs) */
    /* work: a line's fluxes, the Jacobian's blocks along one row of i
     * (diagonal; towards i, j, k -+ 1), the surface integral's faces */
    double (*flux)[5];
    double (*bd)[5][5], (*bx)[5][5], (*by)[5][5], (*bz)[5][5];
    double *phi1, *phi2;
    int ld;                     /* the faces' leading dimension */
    /* results */
    double rsdnm[5], delunm[5], errnm[5], frc;
};

/* The point (i, j, k) in the field arrays. */
static inline size_t lu_at(const struct lu *s, int i, int j, int k)
{
    return ((size_t)k * (size_t)s->ny + (size_t)j) * (size_t)s->nx + (size_t)i;
}

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

/**
 * lu_free() - release what lu_init() allocated (any pointer still NULL is
 * skipped, so it also cleans up after a failed lu_init()).
 * @s: the state.
 */
static inline void lu_free(struct lu *s)
{
    free(s->u);
    free(s->rsd);
    free(s->frct);
    free(s->rho_i);
    free(s->qs);
    free(s->flux);
    free(s->bd);
    free(s->bx);
    free(s->by);
    free(s->bz);
    free(s->phi1);
    free(s->phi2);
    memset(s, 0, sizeof *s);
}

/**
 * lu_init() - the state of a class, its arrays allocated (not set).
 * @s:     filled in.
 * @c:     the class (lu_class_get()).
 * @itmax: the steps to take (the class's c->itmax, or another count: the
 *         norms are then taken at the last step, as NPB does when its
 *         input file sets itmax).
 *
 * Return: 0, or -1 when an allocation failed (nothing left allocated).
 */
static inline int lu_init(struct lu *s, const struct lu_class *c, int itmax)
{
    size_t np, n = (size_t)c->n;
    int m;
    memset(s, 0, sizeof *s);
    s->nx = s->ny = s->nz = c->n;
    s->itmax = s->inorm = itmax;
    s->dt = c->dt;
    s->omega = 1.2;
    /* NPB's tolerances are single precision literals */
    for (m = 0; m < 5; m++)
        s->tolrsd[m] = (double)1.0e-8f;
    np = n * n * n;
    s->ld = c->n;
    s->u = (double (*)[5])malloc(np * sizeof *s->u);
    s->rsd = (double (*)[5])malloc(np * sizeof *s->rsd);
    s->frct = (double (*)[5])malloc(np * sizeof *s->frct);
    s->rho_i = (double *)malloc(np * sizeof *s->rho_i);
    s->qs = (double *)malloc(np * sizeof *s->qs);
    s->flux = (double (*)[5])malloc(n * sizeof *s->flux);
    s->bd = (double (*)[5][5])malloc(n * sizeof *s->bd);
    s->bx = (double (*)[5][5])malloc(n * sizeof *s->bx);
    s->by = (double (*)[5][5])malloc(n * sizeof *s->by);
    s->bz = (double (*)[5][5])malloc(n * sizeof *s->bz);
    s->phi1 = (double *)malloc(n * n * sizeof *s->phi1);
    s->phi2 = (double *)malloc(n * n * sizeof *s->phi2);
    if (!s->u || !s->rsd || !s->frct || !s->rho_i || !s->qs || !s->flux || !s->bd ||
        !s->bx || !s->by || !s->bz || !s->phi1 || !s->phi2) {
        lu_free(s);
        return -1;
    }
    return 0;
}

/* The exact solution's coefficients: ue_m = sum over the powers 0-4 of x,
 * y and z (ce[m][0] the constant; 1, 4, 7, 10 the powers of x; 2, 5, 8,
 * 11 of y; 3, 6, 9, 12 of z). */
static inline void lu_set_ce(struct lu *s)
{
    static const double ce[5][13] = {
        {2.0, 0.0, 0.0, 4.0, 5.0, 3.0, 0.5, 0.02, 0.01, 0.03, 0.5, 0.4, 0.3},
        {1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 0.01, 0.03, 0.02, 0.4, 0.3, 0.5},
        {2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.04, 0.03, 0.05, 0.3, 0.5, 0.4},
        {2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.03, 0.05, 0.04, 0.2, 0.1, 0.3},
        {5.0, 4.0, 3.0, 2.0, 0.1, 0.4, 0.3, 0.05, 0.04, 0.03, 0.1, 0.3, 0.2},
    };
    memcpy(s->ce, ce, sizeof ce);
}

/**
 * lu_setcoeff() - the constants: the gas's (c1-c5), the mesh widths and
 * their powers (tx1 = 1/dxi^2, tx2 = 1/(2 dxi), tx3 = 1/dxi, ...), the
 * diffusion and dissipation coefficients, the exact solution's.
 * @s: the state (lu_init()).
 */
static inline void lu_setcoeff(struct lu *s)
{
    int m;
    s->c1 = 1.40;
    s->c2 = 0.40;
    s->c3 = 1.00e-01;
    s->c4 = 1.00;
    s->c5 = 1.40;
    s->dxi = 1.0 / (s->nx - 1);
    s->deta = 1.0 / (s->ny - 1);
    s->dzeta = 1.0 / (s->nz - 1);
    s->tx1 = 1.0 / (s->dxi * s->dxi);
    s->tx2 = 1.0 / (2.0 * s->dxi);
    s->tx3 = 1.0 / s->dxi;
    s->ty1 = 1.0 / (s->deta * s->deta);
    s->ty2 = 1.0 / (2.0 * s->deta);
    s->ty3 = 1.0 / s->deta;
    s->tz1 = 1.0 / (s->dzeta * s->dzeta);
    s->tz2 = 1.0 / (2.0 * s->dzeta);
    s->tz3 = 1.0 / s->dzeta;
    for (m = 0; m < 5; m++) {
        s->dx[m] = 0.75;
        s->dy[m] = 0.75;
        s->dz[m] = 1.00;
    }
    s->dssp = fmax(fmax(s->dx[0], s->dy[0]), s->dz[0]) / 4.0;
    lu_set_ce(s);
}

/**
 * lu_exact() - the exact solution at a grid point.
 * @s:  the state (lu_setcoeff()).
 * @i, @j, @k: the point.
 * @ue: its five components.
 */
static inline void lu_exact(const struct lu *s, int i, int j, int k, double ue[5])
{
    double x = (double)i / (s->nx - 1);
    double y = (double)j / (s->ny - 1);
    double z = (double)k / (s->nz - 1);
    int m;
    for (m = 0; m < 5; m++) {
        const double *c = s->ce[m];
        ue[m] = c[0] + (c[1] + (c[4] + (c[7] + c[10] * x) * x) * x) * x
                     + (c[2] + (c[5] + (c[8] + c[11] * y) * y) * y) * y
                     + (c[3] + (c[6] + (c[9] + c[12] * z) * z) * z) * z;
    }
}

/**
 * lu_setbv() - u on the six faces: the exact solution.
 * @s: the state (lu_setcoeff()).
 */
static inline void lu_setbv(struct lu *s)
{
    const int nx = s->nx, ny = s->ny, nz = s->nz;
    int i, j, k;
    for (j = 0; j < ny; j++)
        for (i = 0; i < nx; i++) {
            lu_exact(s, i, j, 0, s->u[lu_at(s, i, j, 0)]);
            lu_exact(s, i, j, nz - 1, s->u[lu_at(s, i, j, nz - 1)]);
        }
    for (k = 0; k < nz; k++)
        for (i = 0; i < nx; i++) {
            lu_exact(s, i, 0, k, s->u[lu_at(s, i, 0, k)]);
            lu_exact(s, i, ny - 1, k, s->u[lu_at(s, i, ny - 1, k)]);
        }
    for (k = 0; k < nz; k++)
        for (j = 0; j < ny; j++) {
            lu_exact(s, 0, j, k, s->u[lu_at(s, 0, j, k)]);
            lu_exact(s, nx - 1, j, k, s->u[lu_at(s, nx - 1, j, k)]);
        }
}

/**
 * lu_setiv() - u inside: the transfinite (trilinear) blend of the exact
 * solution on the faces, p = px + py + pz - px py - py pz - pz px
 * + px py pz, each p_d the linear interpolation between the two faces
 * across direction d.
 * @s: the state (lu_setcoeff()).
 */
static inline void lu_setiv(struct lu *s)
{
    const int nx = s->nx, ny = s->ny, nz = s->nz;
    double w0[5], w1[5], s0[5], s1[5], b0[5], b1[5];
    int i, j, k, m;
    for (k = 1; k < nz - 1; k++)
        for (j = 1; j < ny - 1; j++) {
            double z = (double)k / (nz - 1);
            double y = (double)j / (ny - 1);
            for (i = 1; i < nx - 1; i++) {
                double x = (double)i / (nx - 1);
                double *up = s->u[lu_at(s, i, j, k)];
                lu_exact(s, 0, j, k, w0);
                lu_exact(s, nx - 1, j, k, w1);
                lu_exact(s, i, 0, k, s0);
                lu_exact(s, i, ny - 1, k, s1);
                lu_exact(s, i, j, 0, b0);
                lu_exact(s, i, j, nz - 1, b1);
                for (m = 0; m < 5; m++) {
                    double px = (1.0 - x) * w0[m] + x * w1[m];
                    double py = (1.0 - y) * s0[m] + y * s1[m];
                    double pz = (1.0 - z) * b0[m] + z * b1[m];
                    up[m] = px + py + pz - px * py - py * pz - pz * px + px * py * pz;
                }
            }
        }
}

/* One line of grid points along a direction: n points from p0, stride
 * apart in the field arrays; d the momentum component along it (1, 2, 3:
 * x, y, z); t1, t2, t3 and dd that direction's coefficients; rev: the
 * second differences run from the point after to the point before (the
 * forcing term's z lines, as NPB writes them). */
struct lu_line {
    size_t p0, stride;
    int n, d, rev;
    double t1, t2, t3;
    const double *dd;
};

/* The line along direction d (1 x, 2 y, 3 z) through the two other
 * indices a, b in the order (j, k), (i, k), (i, j). */
static inline struct lu_line lu_line_at(const struct lu *s, int d, int a, int b)
{
    struct lu_line ln;
    ln.d = d;
    ln.rev = 0;
    if (d == 1) {
        ln.p0 = lu_at(s, 0, a, b);
        ln.stride = 1;
        ln.n = s->nx;
        ln.t1 = s->tx1, ln.t2 = s->tx2, ln.t3 = s->tx3, ln.dd = s->dx;
    } else if (d == 2) {
        ln.p0 = lu_at(s, a, 0, b);
        ln.stride = (size_t)s->nx;
        ln.n = s->ny;
        ln.t1 = s->ty1, ln.t2 = s->ty2, ln.t3 = s->ty3, ln.dd = s->dy;
    } else {
        ln.p0 = lu_at(s, a, b, 0);
        ln.stride = (size_t)s->nx * (size_t)s->ny;
        ln.n = s->nz;
        ln.t1 = s->tz1, ln.t2 = s->tz2, ln.t3 = s->tz3, ln.dd = s->dz;
    }
    return ln;
}

/* The l-th point of a line. */
static inline size_t lu_line_pt(const struct lu_line *ln, int l)
{
    return ln->p0 + (size_t)l * ln->stride;
}

/* The convective fluxes of w at every point of the line, and
 * r -= t2 (F(l+1) - F(l-1)) inside it.  exact: w is the exact solution
 * (the forcing term), whose velocity and kinetic energy NPB divides by the
 * density; else w is u, and rho_i and qs (lu_rhs) hold them. */
static inline void lu_line_conv(struct lu *s, const struct lu_line *ln, double (*w)[5],
                                double (*r)[5], int exact)
{
    double (*f)[5] = s->flux;
    const int d = ln->d;
    int l, m;
    for (l = 0; l < ln->n; l++) {
        const double *v = w[lu_line_pt(ln, l)];
        double vel, q;
        if (exact) {
            vel = v[d] / v[0];
            q = 0.5 * (v[1] * v[1] + v[2] * v[2] + v[3] * v[3]) / v[0];
        } else {
            vel = v[d] * s->rho_i[lu_line_pt(ln, l)];
            q = s->qs[lu_line_pt(ln, l)];
        }
        for (m = 1; m < 4; m++)
            f[l][m] = v[m] * vel;
        f[l][0] = v[d];
        f[l][d] = v[d] * vel + s->c2 * (v[4] - q);
        f[l][4] = (s->c1 * v[4] - s->c2 * q) * vel;
    }
    for (l = 1; l < ln->n - 1; l++) {
        double *rp = r[lu_line_pt(ln, l)];
        for (m = 0; m < 5; m++)
            rp[m] = rp[m] - ln->t2 * (f[l + 1][m] - f[l - 1][m]);
    }
}

/* The viscous fluxes between the points l-1 and l, for l = 1..n-1, from
 * the velocities and the energy per density (exact: as lu_line_conv). */
static inline void lu_line_visc(struct lu *s, const struct lu_line *ln, double (*w)[5], int exact)
{
    double (*f)[5] = s->flux;
    const int d = ln->d;
    const double t3 = ln->t3, r43 = 4.0 / 3.0, c15 = s->c1 * s->c5;
    int l, m;
    for (l = 1; l < ln->n; l++) {
        size_t p = lu_line_pt(ln, l), pm = p - ln->stride;
        double ri = exact ? 1.0 / w[p][0] : s->rho_i[p];
        double rm = exact ? 1.0 / w[pm][0] : s->rho_i[pm];
        double a[5], b[5];
        for (m = 1; m < 5; m++) {
            a[m] = ri * w[p][m];
            b[m] = rm * w[pm][m];
        }
        for (m = 1; m < 4; m++)
            f[l][m] = t3 * (a[m] - b[m]);
        f[l][d] = r43 * t3 * (a[d] - b[d]);
        f[l][4] = 0.5 * (1.0 - c15) * t3
                      * ((a[1] * a[1] + a[2] * a[2] + a[3] * a[3])
                         - (b[1] * b[1] + b[2] * b[2] + b[3] * b[3]))
                  + (1.0 / 6.0) * t3 * (a[d] * a[d] - b[d] * b[d])
                  + c15 * t3 * (a[4] - b[4]);
    }
}

/* Inside the line: r += the viscous flux differences and the diffusion's
 * second differences of w. */
static inline void lu_line_diff(const struct lu *s, const struct lu_line *ln, double (*w)[5],
                                double (*r)[5])
{
    double (*f)[5] = s->flux;
    const double t1 = ln->t1, k3 = ln->t3 * s->c3 * s->c4;
    int l, m;
    for (l = 1; l < ln->n - 1; l++) {
        size_t p = lu_line_pt(ln, l);
        const double *wa = w[ln->rev ? p + ln->stride : p - ln->stride];
        const double *wb = w[ln->rev ? p - ln->stride : p + ln->stride];
        double *rp = r[p];
        rp[0] = rp[0] + ln->dd[0] * t1 * (wa[0] - 2.0 * w[p][0] + wb[0]);
        for (m = 1; m < 5; m++)
            rp[m] = rp[m] + k3 * (f[l + 1][m] - f[l][m])
                          + ln->dd[m] * t1 * (wa[m] - 2.0 * w[p][m] + wb[m]);
    }
}

/* Inside the line: r -= dssp times the fourth differences of w (one-sided
 * at the two points next to each end). */
static inline void lu_line_diss(const struct lu *s, const struct lu_line *ln, double (*w)[5],
                                double (*r)[5])
{
    const double e = s->dssp;
    const int n = ln->n;
    int l, m;
    for (m = 0; m < 5; m++) {
        double w1 = w[lu_line_pt(ln, 1)][m], w2 = w[lu_line_pt(ln, 2)][m];
        double w3 = w[lu_line_pt(ln, 3)][m], w4 = w[lu_line_pt(ln, 4)][m];
        double *r1 = &r[lu_line_pt(ln, 1)][m], *r2 = &r[lu_line_pt(ln, 2)][m];
        *r1 = *r1 - e * (5.0 * w1 - 4.0 * w2 + w3);
        *r2 = *r2 - e * (-4.0 * w1 + 6.0 * w2 - 4.0 * w3 + w4);
    }
    for (l = 3; l < n - 3; l++) {
        size_t p = lu_line_pt(ln, l), st = ln->stride;
        for (m = 0; m < 5; m++)
            r[p][m] = r[p][m] - e * (w[p - 2 * st][m] - 4.0 * w[p - st][m] + 6.0 * w[p][m]
                                     - 4.0 * w[p + st][m] + w[p + 2 * st][m]);
    }
    for (m = 0; m < 5; m++) {
        double w5 = w[lu_line_pt(ln, n - 5)][m], w4 = w[lu_line_pt(ln, n - 4)][m];
        double w3 = w[lu_line_pt(ln, n - 3)][m], w2 = w[lu_line_pt(ln, n - 2)][m];
        double *r3 = &r[lu_line_pt(ln, n - 3)][m], *r2 = &r[lu_line_pt(ln, n - 2)][m];
        *r3 = *r3 - e * (w5 - 4.0 * w4 + 6.0 * w3 - 4.0 * w2);
        *r2 = *r2 - e * (w4 - 4.0 * w3 + 5.0 * w2);
    }
}

/**
 * lu_line() - the operator R of w along one line, added into r: the
 * convective flux differences, the viscous ones and the diffusion, the
 * dissipation, in that order at every point.
 * @s:     the state (its flux array is the line's work space).
 * @ln:    the line (lu_line_at()).
 * @w:     the field R acts on.
 * @r:     the field it is added into.
 * @exact: 1 for the forcing term (w the exact solution), 0 for the
 *         residual (w is u; rho_i and qs set).
 */
static inline void lu_line(struct lu *s, const struct lu_line *ln, double (*w)[5], double (*r)[5],
                           int exact)
{
    lu_line_conv(s, ln, w, r, exact);
    lu_line_visc(s, ln, w, exact);
    lu_line_diff(s, ln, w, r);
    lu_line_diss(s, ln, w, r);
}

/**
 * lu_erhs() - the forcing term frct = R(ue), ue the exact solution at every
 * point (held in rsd meanwhile).
 * @s: the state (lu_setcoeff()).
 */
static inline void lu_erhs(struct lu *s)
{
    const int nx = s->nx, ny = s->ny, nz = s->nz;
    int i, j, k, m;
    for (k = 0; k < nz; k++)
        for (j = 0; j < ny; j++)
            for (i = 0; i < nx; i++) {
                size_t p = lu_at(s, i, j, k);
                for (m = 0; m < 5; m++)
                    s->frct[p][m] = 0.0;
                lu_exact(s, i, j, k, s->rsd[p]);
            }
    for (k = 1; k < nz - 1; k++)
        for (j = 1; j < ny - 1; j++) {
            struct lu_line ln = lu_line_at(s, 1, j, k);
            lu_line(s, &ln, s->rsd, s->frct, 1);
        }
    for (k = 1; k < nz - 1; k++)
        for (i = 1; i < nx - 1; i++) {
            struct lu_line ln = lu_line_at(s, 2, i, k);
            lu_line(s, &ln, s->rsd, s->frct, 1);
        }
    for (j = 1; j < ny - 1; j++)
        for (i = 1; i < nx - 1; i++) {
            struct lu_line ln = lu_line_at(s, 3, i, j);
            ln.rev = 1;
            lu_line(s, &ln, s->rsd, s->frct, 1);
        }
}

/**
 * lu_setup() - everything before the steps: the constants, u on the
 * boundary and inside, the forcing term.
 * @s: the state (lu_init()).
 */
static inline void lu_setup(struct lu *s)
{
    lu_setcoeff(s);
    lu_setbv(s);
    lu_setiv(s);
    lu_erhs(s);
}

/**
 * lu_rhs() - the residual rsd = R(u) - frct at the inner points (-frct on
 * the boundary), and rho_i = 1 / density, qs = the kinetic energy at every
 * point.
 * @s: the state.
 */
static inline void lu_rhs(struct lu *s)
{
    const int nx = s->nx, ny = s->ny, nz = s->nz;
    int i, j, k, m;
    for (k = 0; k < nz; k++)
        for (j = 0; j < ny; j++)
            for (i = 0; i < nx; i++) {
                size_t p = lu_at(s, i, j, k);
                const double *v = s->u[p];
                double t = 1.0 / v[0];
                for (m = 0; m < 5; m++)
                    s->rsd[p][m] = -s->frct[p][m];
                s->rho_i[p] = t;
                s->qs[p] = 0.5 * (v[1] * v[1] + v[2] * v[2] + v[3] * v[3]) * t;
            }
    for (k = 1; k < nz - 1; k++)
        for (j = 1; j < ny - 1; j++) {
            struct lu_line ln = lu_line_at(s, 1, j, k);
            lu_line(s, &ln, s->u, s->rsd, 0);
        }
    for (k = 1; k < nz - 1; k++)
        for (i = 1; i < nx - 1; i++) {
            struct lu_line ln = lu_line_at(s, 2, i, k);
            lu_line(s, &ln, s->u, s->rsd, 0);
        }
    for (j = 1; j < ny - 1; j++)
        for (i = 1; i < nx - 1; i++) {
            struct lu_line ln = lu_line_at(s, 3, i, j);
            lu_line(s, &ln, s->u, s->rsd, 0);
        }
}

/* The diagonal block of the Jacobian at point p: upper = 0 as the forward
 * sweep's (NPB's jacld), 1 as the backward sweep's (jacu); the two are the
 * same matrix with some products grouped differently. */
static inline void lu_jac_diag(const struct lu *s, size_t p, int upper, double b[5][5])
{
    const double *v = s->u[p];
    const double dt2 = s->dt * 2.0, r43 = 4.0 / 3.0, c34 = s->c3 * s->c4;
    const double c1345 = s->c1 * s->c3 * s->c4 * s->c5;
    const double tx1 = s->tx1, ty1 = s->ty1, tz1 = s->tz1;
    const double kx = r43 * c34 - c1345, k0 = c34 - c1345;
    const double ax = tx1 * kx + ty1 * k0 + tz1 * k0;
    const double ay = tx1 * k0 + ty1 * kx + tz1 * k0;
    const double az = tx1 * k0 + ty1 * k0 + tz1 * kx;
    const double t1 = s->rho_i[p], t2 = t1 * t1, t3 = t1 * t2;
    const double sx = tx1 * r43 + ty1 + tz1, sy = tx1 + ty1 * r43 + tz1;
    const double sz = tx1 + ty1 + tz1 * r43;
    memset(b, 0, 25 * sizeof b[0][0]);
    b[0][0] = 1.0 + dt2 * (tx1 * s->dx[0] + ty1 * s->dy[0] + tz1 * s->dz[0]);
    b[1][1] = 1.0 + dt2 * c34 * t1 * sx + dt2 * (tx1 * s->dx[1] + ty1 * s->dy[1] + tz1 * s->dz[1]);
    b[2][2] = 1.0 + dt2 * c34 * t1 * sy + dt2 * (tx1 * s->dx[2] + ty1 * s->dy[2] + tz1 * s->dz[2]);
    b[3][3] = 1.0 + dt2 * c34 * t1 * sz + dt2 * (tx1 * s->dx[3] + ty1 * s->dy[3] + tz1 * s->dz[3]);
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
                  + dt2 * (tx1 * s->dx[4] + ty1 * s->dy[4] + tz1 * s->dz[4]);
}

/* The constants the off-diagonal blocks share: g2 = -+dt t2 (the
 * convective part's sign: - towards the point before, + after), g1 =
 * dt t1. */
struct lu_jk {
    double g1, g2, r43, c34, c1345, kx, k0;
};

static inline struct lu_jk lu_jk_of(const struct lu *s, double t1, double t2, int upper)
{
    struct lu_jk j;
    j.g1 = s->dt * t1;
    j.g2 = upper ? s->dt * t2 : -(s->dt * t2);
    j.r43 = 4.0 / 3.0;
    j.c34 = s->c3 * s->c4;
    j.c1345 = s->c1 * s->c3 * s->c4 * s->c5;
    j.kx = j.r43 * j.c34 - j.c1345;
    j.k0 = j.c34 - j.c1345;
    return j;
}

/* The block towards the x neighbour q (i - 1 forward, i + 1 backward). */
static inline void lu_jac_x(const struct lu *s, size_t q, int upper, double b[5][5])
{
    const struct lu_jk c = lu_jk_of(s, s->tx1, s->tx2, upper);
    const double *v = s->u[q], qs = s->qs[q], c2 = s->c2, c1 = s->c1;
    const double t1 = s->rho_i[q], t2 = t1 * t1, t3 = t1 * t2, e = v[1] * t1;
    const double *dd = s->dx;
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

/* The block towards the y neighbour q (j - 1 forward, j + 1 backward). */
static inline void lu_jac_y(const struct lu *s, size_t q, int upper, double b[5][5])
{
    const struct lu_jk c = lu_jk_of(s, s->ty1, s->ty2, upper);
    const double *v = s->u[q], qs = s->qs[q], c2 = s->c2, c1 = s->c1;
    const double t1 = s->rho_i[q], t2 = t1 * t1, t3 = t1 * t2, e = v[2] * t1;
    const double *dd = s->dy;
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

/* The block towards the z neighbour q (k - 1 forward, k + 1 backward). */
static inline void lu_jac_z(const struct lu *s, size_t q, int upper, double b[5][5])
{
    const struct lu_jk c = lu_jk_of(s, s->tz1, s->tz2, upper);
    const double *v = s->u[q], qs = s->qs[q], c2 = s->c2, c1 = s->c1;
    const double t1 = s->rho_i[q], t2 = t1 * t1, t3 = t1 * t2, e = v[3] * t1;
    const double *dd = s->dz;
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

/**
 * lu_jacld() - the forward sweep's blocks along the row (j, k): at each
 * inner i the diagonal block and those towards i-1, j-1 and k-1.
 * @s:    the state (lu_rhs() set rho_i and qs).
 * @j, @k: the row (inner).
 */
static inline void lu_jacld(struct lu *s, int j, int k)
{
    int i;
    for (i = 1; i < s->nx - 1; i++) {
        lu_jac_diag(s, lu_at(s, i, j, k), 0, s->bd[i]);
        lu_jac_z(s, lu_at(s, i, j, k - 1), 0, s->bz[i]);
        lu_jac_y(s, lu_at(s, i, j - 1, k), 0, s->by[i]);
        lu_jac_x(s, lu_at(s, i - 1, j, k), 0, s->bx[i]);
    }
}

/**
 * lu_jacu() - the backward sweep's blocks along the row (j, k): at each
 * inner i (downward) the diagonal block and those towards i+1, j+1, k+1.
 * @s:    the state.
 * @j, @k: the row (inner).
 */
static inline void lu_jacu(struct lu *s, int j, int k)
{
    int i;
    for (i = s->nx - 2; i >= 1; i--) {
        lu_jac_diag(s, lu_at(s, i, j, k), 1, s->bd[i]);
        lu_jac_x(s, lu_at(s, i + 1, j, k), 1, s->bx[i]);
        lu_jac_y(s, lu_at(s, i, j + 1, k), 1, s->by[i]);
        lu_jac_z(s, lu_at(s, i, j, k + 1), 1, s->bz[i]);
    }
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

/* omega times the product of the blocks bz with the point pz, then of by
 * and bx with py and px, their terms interleaved as NPB adds them. */
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
 * lu_blts() - the forward sweep along the row (j, k), i upward:
 * rsd(p) <- D^-1 (rsd(p) - omega (L_z rsd(k-1) + L_y rsd(j-1) + L_x rsd(i-1))).
 * @s:    the state (lu_jacld() for the same row).
 * @j, @k: the row.
 */
static inline void lu_blts(struct lu *s, int j, int k)
{
    double (*v)[5] = s->rsd;
    int i, m;
    for (i = 1; i < s->nx - 1; i++) {
        size_t p = lu_at(s, i, j, k);
        double tz[5], tyx[5], tv[5], t[5][5];
        lu_couple(s->omega, s->bz[i], v[lu_at(s, i, j, k - 1)], s->by[i],
                  v[lu_at(s, i, j - 1, k)], s->bx[i], v[p - 1], tz, tyx);
        for (m = 0; m < 5; m++)
            tv[m] = v[p][m] - tz[m] - tyx[m];
        memcpy(t, s->bd[i], sizeof t);
        lu_block_solve(t, tv, v[p]);
    }
}

/**
 * lu_buts() - the backward sweep along the row (j, k), i downward:
 * rsd(p) <- rsd(p) - D^-1 omega (U_z rsd(k+1) + U_y rsd(j+1) + U_x rsd(i+1)).
 * @s:    the state (lu_jacu() for the same row).
 * @j, @k: the row.
 */
static inline void lu_buts(struct lu *s, int j, int k)
{
    double (*v)[5] = s->rsd;
    int i, m;
    for (i = s->nx - 2; i >= 1; i--) {
        size_t p = lu_at(s, i, j, k);
        double tz[5], tyx[5], tv[5], x[5], t[5][5];
        lu_couple(s->omega, s->bz[i], v[lu_at(s, i, j, k + 1)], s->by[i],
                  v[lu_at(s, i, j + 1, k)], s->bx[i], v[p + 1], tz, tyx);
        for (m = 0; m < 5; m++)
            tv[m] = tz[m] + tyx[m];
        memcpy(t, s->bd[i], sizeof t);
        lu_block_solve(t, tv, x);
        for (m = 0; m < 5; m++)
            v[p][m] = v[p][m] - x[m];
    }
}

/**
 * lu_l2norm() - the RMS norm of each component of v over the inner points.
 * @s:   the state.
 * @v:   the field (rsd).
 * @sum: the five norms.
 */
static inline void lu_l2norm(const struct lu *s, double (*v)[5], double sum[5])
{
    int i, j, k, m;
    for (m = 0; m < 5; m++)
        sum[m] = 0.0;
    for (k = 1; k < s->nz - 1; k++)
        for (j = 1; j < s->ny - 1; j++)
            for (i = 1; i < s->nx - 1; i++) {
                const double *x = v[lu_at(s, i, j, k)];
                for (m = 0; m < 5; m++)
                    sum[m] = sum[m] + x[m] * x[m];
            }
    for (m = 0; m < 5; m++)
        sum[m] = sqrt(sum[m] / ((double)(s->nx - 2) * (s->ny - 2) * (s->nz - 2)));
}

/**
 * lu_ssor_start() - the residual of the initial u and its norm (rsdnm),
 * what the steps start from (NPB computes it before its timer starts).
 * @s: the state (lu_setup()).
 */
static inline void lu_ssor_start(struct lu *s)
{
    lu_rhs(s);
    lu_l2norm(s, s->rsd, s->rsdnm);
}

/* rsd <- a rsd (a = dt) or u <- u + a rsd (a = 1 / (omega (2 - omega)))
 * at the inner points. */
static inline void lu_scale(struct lu *s, double a, int to_u)
{
    int i, j, k, m;
    for (k = 1; k < s->nz - 1; k++)
        for (j = 1; j < s->ny - 1; j++)
            for (i = 1; i < s->nx - 1; i++) {
                size_t p = lu_at(s, i, j, k);
                for (m = 0; m < 5; m++) {
                    if (to_u)
                        s->u[p][m] = s->u[p][m] + a * s->rsd[p][m];
                    else
                        s->rsd[p][m] = a * s->rsd[p][m];
                }
            }
}

/**
 * lu_ssor_step() - one SSOR step (the top of this file): rsd scaled by dt,
 * the forward sweep over the planes k upward and rows j upward, the
 * backward sweep downward, u updated, the new residual; the norms of the
 * correction (delunm) and of the residual (rsdnm) every inorm steps and at
 * the last.
 * @s:     the state (lu_ssor_start() before the first step).
 * @istep: the step, from 1.
 */
static inline void lu_ssor_step(struct lu *s, int istep)
{
    int j, k;
    lu_scale(s, s->dt, 0);
    for (k = 1; k < s->nz - 1; k++)
        for (j = 1; j < s->ny - 1; j++) {
            lu_jacld(s, j, k);
            lu_blts(s, j, k);
        }
    for (k = s->nz - 2; k >= 1; k--)
        for (j = s->ny - 2; j >= 1; j--) {
            lu_jacu(s, j, k);
            lu_buts(s, j, k);
        }
    lu_scale(s, 1.0 / (s->omega * (2.0 - s->omega)), 1);
    if (istep % s->inorm == 0)
        lu_l2norm(s, s->rsd, s->delunm);
    lu_rhs(s);
    if (istep % s->inorm == 0 || istep == s->itmax)
        lu_l2norm(s, s->rsd, s->rsdnm);
}

/**
 * lu_ssor() - the steps, itmax of them or until every residual norm is
 * below its tolerance.
 * @s: the state (lu_ssor_start()).
 *
 * Return: the steps taken.
 */
static inline int lu_ssor(struct lu *s)
{
    int istep, m, below;
    for (istep = 1; istep <= s->itmax; istep++) {
        lu_ssor_step(s, istep);
        for (below = 1, m = 0; m < 5; m++)
            below = below && s->rsdnm[m] < s->tolrsd[m];
        if (below)
            return istep;
    }
    return s->itmax;
}

/**
 * lu_error() - the RMS norm of u - ue over the inner points (errnm).
 * @s: the state.
 */
static inline void lu_error(struct lu *s)
{
    double ue[5], d;
    int i, j, k, m;
    for (m = 0; m < 5; m++)
        s->errnm[m] = 0.0;
    for (k = 1; k < s->nz - 1; k++)
        for (j = 1; j < s->ny - 1; j++)
            for (i = 1; i < s->nx - 1; i++) {
                const double *v = s->u[lu_at(s, i, j, k)];
                lu_exact(s, i, j, k, ue);
                for (m = 0; m < 5; m++) {
                    d = ue[m] - v[m];
                    s->errnm[m] = s->errnm[m] + d * d;
                }
            }
    for (m = 0; m < 5; m++)
        s->errnm[m] = sqrt(s->errnm[m] / ((double)(s->nx - 2) * (s->ny - 2) * (s->nz - 2)));
}

/* The pressure at a point: c2 (rho e - |rho v|^2 / (2 rho)), c2 = gamma - 1. */
static inline double lu_pressure(const struct lu *s, size_t p)
{
    const double *v = s->u[p];
    return s->c2 * (v[4] - 0.5 * (v[1] * v[1] + v[2] * v[2] + v[3] * v[3]) / v[0]);
}

/* The point at (a, b) on the plane c across direction d (1 x: (c, a, b);
 * 2 y: (a, c, b); 3 z: (a, b, c)). */
static inline size_t lu_face_pt(const struct lu *s, int d, int a, int b, int c)
{
    return d == 1 ? lu_at(s, c, a, b) : d == 2 ? lu_at(s, a, c, b) : lu_at(s, a, b, c);
}

/* The integral's part over the two planes lo and hi across direction d,
 * (a, b) in [a0, a1] x [b0, b1]: the sum over the cells of the pressures
 * at their 4 corners on both planes. */
static inline double lu_face(struct lu *s, int d, int lo, int hi, int a0, int a1, int b0, int b1)
{
    double *f1 = s->phi1, *f2 = s->phi2, sum = 0.0;
    const int ld = s->ld;
    int a, b;
    for (b = b0; b <= b1; b++)
        for (a = a0; a <= a1; a++) {
            f1[b * ld + a] = lu_pressure(s, lu_face_pt(s, d, a, b, lo));
            f2[b * ld + a] = lu_pressure(s, lu_face_pt(s, d, a, b, hi));
        }
    for (b = b0; b < b1; b++)
        for (a = a0; a < a1; a++) {
            int p = b * ld + a;
            sum = sum + (f1[p] + f1[p + 1] + f1[p + ld] + f1[p + ld + 1]
                         + f2[p] + f2[p + 1] + f2[p + ld] + f2[p + ld + 1]);
        }
    return sum;
}

/**
 * lu_pintgr() - NPB's surface integral of the pressure (frc) over three
 * pairs of planes: z = 2 and nz-2 over i in [1, nx-2], j in [1, ny-3];
 * y = 1 and ny-3 over i in [1, nx-2], k in [2, nz-2]; x = 1 and nx-2 over
 * j in [1, ny-3], k in [2, nz-2] (NPB's bounds, as they are).
 * @s: the state.
 */
static inline void lu_pintgr(struct lu *s)
{
    const int i0 = 1, i1 = s->nx - 2, j0 = 1, j1 = s->ny - 3, k0 = 2, k1 = s->nz - 2;
    double f1 = s->dxi * s->deta * lu_face(s, 3, k0, k1, i0, i1, j0, j1);
    double f2 = s->dxi * s->dzeta * lu_face(s, 2, j0, j1, i0, i1, k0, k1);
    double f3 = s->deta * s->dzeta * lu_face(s, 1, i0, i1, j0, j1, k0, k1);
    s->frc = 0.25 * (f1 + f2 + f3);
}

/* The relative errors of a run's norms and integral against the class's
 * reference values. */
struct lu_rel {
    double xcr[5], xce[5], xci;
};

/**
 * lu_verify() - compare rsdnm, errnm and frc with the class's reference
 * values: each relative error must be at most 1e-8 (NPB's epsilon).
 * @s:   the state after lu_ssor(), lu_error() and lu_pintgr().
 * @c:   the class.
 * @rel: the relative errors.
 *
 * Return: 1 when all eleven are within epsilon (NaN never is), else 0.
 */
static inline int lu_verify(const struct lu *s, const struct lu_class *c, struct lu_rel *rel)
{
    const double eps = 1.0e-8;
    int m, ok = 1;
    for (m = 0; m < 5; m++) {
        rel->xcr[m] = fabs((s->rsdnm[m] - c->xcr[m]) / c->xcr[m]);
        rel->xce[m] = fabs((s->errnm[m] - c->xce[m]) / c->xce[m]);
        ok = ok && rel->xcr[m] <= eps && rel->xce[m] <= eps;
    }
    rel->xci = fabs((s->frc - c->xci) / c->xci);
    return ok && rel->xci <= eps;
}

#endif
