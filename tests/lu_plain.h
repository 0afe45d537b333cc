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
 * the Makefile's WARN holds).  The arithmetic at one point (the class
 * table, the constants in s.cf, the exact solution, the fluxes and the
 * dissipation, the Jacobian's blocks, the block solve) is
 * demos/lu_point.h's, which the tiled program demos/lu.c calls too: the
 * two compute each value with the same operations by construction.
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
#include "../demos/lu_point.h"   /* the arithmetic at one point, shared with demos/lu.c */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The solver's state. */
struct lu {
    struct lu_coef cf;          /* the constants (lu_coef_set()): nx, ny, nz, dt, omega, ... */
    int itmax, inorm;           /* steps; norms every inorm steps and at the last */
    double tolrsd[5];
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
    return ((size_t)k * (size_t)s->cf.ny + (size_t)j) * (size_t)s->cf.nx + (size_t)i;
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
    s->cf.nx = s->cf.ny = s->cf.nz = c->n;
    s->itmax = s->inorm = itmax;
    s->cf.dt = c->dt;
    s->cf.omega = 1.2;
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

/**
 * lu_setcoeff() - the constants (lu_coef_set(): NPB's setcoeff) of the
 * state's grid and time step.
 * @s: the state (lu_init()).
 */
static inline void lu_setcoeff(struct lu *s)
{
    lu_coef_set(&s->cf, s->cf.nx, s->cf.dt);
}

/**
 * lu_setbv() - u on the six faces: the exact solution.
 * @s: the state (lu_setcoeff()).
 */
static inline void lu_setbv(struct lu *s)
{
    const int nx = s->cf.nx, ny = s->cf.ny, nz = s->cf.nz;
    int i, j, k;
    for (j = 0; j < ny; j++)
        for (i = 0; i < nx; i++) {
            lu_exact(&s->cf, i, j, 0, s->u[lu_at(s, i, j, 0)]);
            lu_exact(&s->cf, i, j, nz - 1, s->u[lu_at(s, i, j, nz - 1)]);
        }
    for (k = 0; k < nz; k++)
        for (i = 0; i < nx; i++) {
            lu_exact(&s->cf, i, 0, k, s->u[lu_at(s, i, 0, k)]);
            lu_exact(&s->cf, i, ny - 1, k, s->u[lu_at(s, i, ny - 1, k)]);
        }
    for (k = 0; k < nz; k++)
        for (j = 0; j < ny; j++) {
            lu_exact(&s->cf, 0, j, k, s->u[lu_at(s, 0, j, k)]);
            lu_exact(&s->cf, nx - 1, j, k, s->u[lu_at(s, nx - 1, j, k)]);
        }
}


/**
 * lu_setiv() - u inside: the blend of the boundary values
 * (lu_setiv_point()).
 * @s: the state (lu_setcoeff()).
 */
static inline void lu_setiv(struct lu *s)
{
    int i, j, k;
    for (k = 1; k < s->cf.nz - 1; k++)
        for (j = 1; j < s->cf.ny - 1; j++)
            for (i = 1; i < s->cf.nx - 1; i++)
                lu_setiv_point(&s->cf, i, j, k, s->u[lu_at(s, i, j, k)]);
}

/* One line of grid points along a direction: n points from p0, stride
 * apart in the field arrays; its direction's coefficients (lu_dir_of():
 * d the momentum component along it, 1, 2, 3: x, y, z); rev: the second
 * differences run from the point after to the point before (the forcing
 * term's z lines, as NPB writes them). */
struct lu_line {
    size_t p0, stride;
    int n, rev;
    struct lu_dir dr;
};

/* The line along direction d (1 x, 2 y, 3 z) through the two other
 * indices a, b in the order (j, k), (i, k), (i, j). */
static inline struct lu_line lu_line_at(const struct lu *s, int d, int a, int b)
{
    struct lu_line ln;
    ln.dr = lu_dir_of(&s->cf, d);
    ln.rev = 0;
    if (d == 1) {
        ln.p0 = lu_at(s, 0, a, b);
        ln.stride = 1;
        ln.n = s->cf.nx;
    } else if (d == 2) {
        ln.p0 = lu_at(s, a, 0, b);
        ln.stride = (size_t)s->cf.nx;
        ln.n = s->cf.ny;
    } else {
        ln.p0 = lu_at(s, a, b, 0);
        ln.stride = (size_t)s->cf.nx * (size_t)s->cf.ny;
        ln.n = s->cf.nz;
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
    const int d = ln->dr.d;
    int l;
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
        lu_flux_conv(&s->cf, d, v, vel, q, f[l]);
    }
    for (l = 1; l < ln->n - 1; l++)
        lu_conv_add(ln->dr.t2, f[l + 1], f[l - 1], r[lu_line_pt(ln, l)]);
}

/* The viscous fluxes between the points l-1 and l, for l = 1..n-1, from
 * the velocities and the energy per density (exact: as lu_line_conv). */
static inline void lu_line_visc(struct lu *s, const struct lu_line *ln, double (*w)[5], int exact)
{
    int l;
    for (l = 1; l < ln->n; l++) {
        size_t p = lu_line_pt(ln, l), pm = p - ln->stride;
        double ri = exact ? 1.0 / w[p][0] : s->rho_i[p];
        double rm = exact ? 1.0 / w[pm][0] : s->rho_i[pm];
        lu_flux_visc(&s->cf, ln->dr.d, ln->dr.t3, w[p], ri, w[pm], rm, s->flux[l]);
    }
}

/* Inside the line: r += the viscous flux differences and the diffusion's
 * second differences of w. */
static inline void lu_line_diff(const struct lu *s, const struct lu_line *ln, double (*w)[5],
                                double (*r)[5])
{
    double (*f)[5] = s->flux;
    int l;
    for (l = 1; l < ln->n - 1; l++) {
        size_t p = lu_line_pt(ln, l);
        const double *wa = w[ln->rev ? p + ln->stride : p - ln->stride];
        const double *wb = w[ln->rev ? p - ln->stride : p + ln->stride];
        lu_diff_add(&s->cf, &ln->dr, f[l + 1], f[l], wa, w[p], wb, r[p]);
    }
}

/* Inside the line: r -= dssp times the fourth differences of w (one-sided
 * at the two points next to each end: lu_diss_add()). */
static inline void lu_line_diss(const struct lu *s, const struct lu_line *ln, double (*w)[5],
                                double (*r)[5])
{
    const int n = ln->n;
    int l, o;
    for (l = 1; l < n - 1; l++) {
        const double *wl[5];
        for (o = 0; o < 5; o++)
            wl[o] = l + o - 2 >= 0 && l + o - 2 < n ? w[lu_line_pt(ln, l + o - 2)] : NULL;
        lu_diss_add(&s->cf, l, n, wl, r[lu_line_pt(ln, l)]);
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

/* Every inner line along x, then y, then z: lu_line() from w into out;
 * with e (the forcing term, lu_erhs) the lines along z run from k+1 to
 * k-1, as NPB's erhs does. */
static inline void lu_lines(struct lu *s, double (*w)[5], double (*out)[5], int e)
{
    const int nx = s->cf.nx, ny = s->cf.ny, nz = s->cf.nz;
    int i, j, k;
    for (k = 1; k < nz - 1; k++)
        for (j = 1; j < ny - 1; j++) {
            struct lu_line ln = lu_line_at(s, 1, j, k);
            lu_line(s, &ln, w, out, e);
        }
    for (k = 1; k < nz - 1; k++)
        for (i = 1; i < nx - 1; i++) {
            struct lu_line ln = lu_line_at(s, 2, i, k);
            lu_line(s, &ln, w, out, e);
        }
    for (j = 1; j < ny - 1; j++)
        for (i = 1; i < nx - 1; i++) {
            struct lu_line ln = lu_line_at(s, 3, i, j);
            ln.rev = e;
            lu_line(s, &ln, w, out, e);
        }
}

/**
 * lu_erhs() - the forcing term frct = R(ue), ue the exact solution at every
 * point (held in rsd meanwhile).
 * @s: the state (lu_setcoeff()).
 */
static inline void lu_erhs(struct lu *s)
{
    const int nx = s->cf.nx, ny = s->cf.ny, nz = s->cf.nz;
    int i, j, k, m;
    for (k = 0; k < nz; k++)
        for (j = 0; j < ny; j++)
            for (i = 0; i < nx; i++) {
                size_t p = lu_at(s, i, j, k);
                for (m = 0; m < 5; m++)
                    s->frct[p][m] = 0.0;
                lu_exact(&s->cf, i, j, k, s->rsd[p]);
            }
    lu_lines(s, s->rsd, s->frct, 1);
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
    const int nx = s->cf.nx, ny = s->cf.ny, nz = s->cf.nz;
    int i, j, k, m;
    for (k = 0; k < nz; k++)
        for (j = 0; j < ny; j++)
            for (i = 0; i < nx; i++) {
                size_t p = lu_at(s, i, j, k);
                for (m = 0; m < 5; m++)
                    s->rsd[p][m] = -s->frct[p][m];
                lu_rhoq(s->u[p], &s->rho_i[p], &s->qs[p]);
            }
    lu_lines(s, s->u, s->rsd, 0);
}

/* The blocks at point p (diagonal) and towards q (an x, y or z
 * neighbour), from u and the rho_i and qs lu_rhs() left. */
static inline void lu_jac_diag_at(const struct lu *s, size_t p, int upper, double b[5][5])
{
    lu_jac_diag(&s->cf, s->u[p], s->rho_i[p], upper, b);
}

static inline void lu_jac_at(const struct lu *s, int d, size_t q, int upper, double b[5][5])
{
    if (d == 1)
        lu_jac_x(&s->cf, s->u[q], s->rho_i[q], s->qs[q], upper, b);
    else if (d == 2)
        lu_jac_y(&s->cf, s->u[q], s->rho_i[q], s->qs[q], upper, b);
    else
        lu_jac_z(&s->cf, s->u[q], s->rho_i[q], s->qs[q], upper, b);
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
    for (i = 1; i < s->cf.nx - 1; i++) {
        lu_jac_diag_at(s, lu_at(s, i, j, k), 0, s->bd[i]);
        lu_jac_at(s, 3, lu_at(s, i, j, k - 1), 0, s->bz[i]);
        lu_jac_at(s, 2, lu_at(s, i, j - 1, k), 0, s->by[i]);
        lu_jac_at(s, 1, lu_at(s, i - 1, j, k), 0, s->bx[i]);
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
    for (i = s->cf.nx - 2; i >= 1; i--) {
        lu_jac_diag_at(s, lu_at(s, i, j, k), 1, s->bd[i]);
        lu_jac_at(s, 1, lu_at(s, i + 1, j, k), 1, s->bx[i]);
        lu_jac_at(s, 2, lu_at(s, i, j + 1, k), 1, s->by[i]);
        lu_jac_at(s, 3, lu_at(s, i, j, k + 1), 1, s->bz[i]);
    }
}

/**
 * lu_blts() - the forward sweep along the row (j, k), i upward:
 * rsd(p) <- D^-1 (rsd(p) - omega (L_z rsd(k-1) + L_y rsd(j-1) + L_x rsd(i-1)))
 * (lu_lower()).
 * @s:    the state (lu_jacld() for the same row).
 * @j, @k: the row.
 */
static inline void lu_blts(struct lu *s, int j, int k)
{
    double (*v)[5] = s->rsd;
    int i;
    for (i = 1; i < s->cf.nx - 1; i++) {
        size_t p = lu_at(s, i, j, k);
        lu_lower(s->cf.omega, s->bd[i], s->bz[i], v[lu_at(s, i, j, k - 1)], s->by[i],
                 v[lu_at(s, i, j - 1, k)], s->bx[i], v[p - 1], v[p], v[p]);
    }
}

/**
 * lu_buts() - the backward sweep along the row (j, k), i downward:
 * rsd(p) <- rsd(p) - D^-1 omega (U_z rsd(k+1) + U_y rsd(j+1) + U_x rsd(i+1))
 * (lu_upper()).
 * @s:    the state (lu_jacu() for the same row).
 * @j, @k: the row.
 */
static inline void lu_buts(struct lu *s, int j, int k)
{
    double (*v)[5] = s->rsd;
    int i;
    for (i = s->cf.nx - 2; i >= 1; i--) {
        size_t p = lu_at(s, i, j, k);
        lu_upper(s->cf.omega, s->bd[i], s->bz[i], v[lu_at(s, i, j, k + 1)], s->by[i],
                 v[lu_at(s, i, j + 1, k)], s->bx[i], v[p + 1], v[p], v[p]);
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
    for (k = 1; k < s->cf.nz - 1; k++)
        for (j = 1; j < s->cf.ny - 1; j++)
            for (i = 1; i < s->cf.nx - 1; i++) {
                const double *x = v[lu_at(s, i, j, k)];
                for (m = 0; m < 5; m++)
                    sum[m] = sum[m] + x[m] * x[m];
            }
    for (m = 0; m < 5; m++)
        sum[m] = sqrt(sum[m] / ((double)(s->cf.nx - 2) * (s->cf.ny - 2) * (s->cf.nz - 2)));
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
    for (k = 1; k < s->cf.nz - 1; k++)
        for (j = 1; j < s->cf.ny - 1; j++)
            for (i = 1; i < s->cf.nx - 1; i++) {
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
    lu_scale(s, s->cf.dt, 0);
    for (k = 1; k < s->cf.nz - 1; k++)
        for (j = 1; j < s->cf.ny - 1; j++) {
            lu_jacld(s, j, k);
            lu_blts(s, j, k);
        }
    for (k = s->cf.nz - 2; k >= 1; k--)
        for (j = s->cf.ny - 2; j >= 1; j--) {
            lu_jacu(s, j, k);
            lu_buts(s, j, k);
        }
    lu_scale(s, 1.0 / (s->cf.omega * (2.0 - s->cf.omega)), 1);
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
    for (k = 1; k < s->cf.nz - 1; k++)
        for (j = 1; j < s->cf.ny - 1; j++)
            for (i = 1; i < s->cf.nx - 1; i++) {
                const double *v = s->u[lu_at(s, i, j, k)];
                lu_exact(&s->cf, i, j, k, ue);
                for (m = 0; m < 5; m++) {
                    d = ue[m] - v[m];
                    s->errnm[m] = s->errnm[m] + d * d;
                }
            }
    for (m = 0; m < 5; m++)
        s->errnm[m] = sqrt(s->errnm[m] / ((double)(s->cf.nx - 2) * (s->cf.ny - 2) * (s->cf.nz - 2)));
}

/* The pressure at a point: c2 (rho e - |rho v|^2 / (2 rho)), c2 = gamma - 1. */
static inline double lu_pressure(const struct lu *s, size_t p)
{
    return lu_pressure_of(&s->cf, s->u[p]);
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
    const int i0 = 1, i1 = s->cf.nx - 2, j0 = 1, j1 = s->cf.ny - 3, k0 = 2, k1 = s->cf.nz - 2;
    double f1 = s->cf.dxi * s->cf.deta * lu_face(s, 3, k0, k1, i0, i1, j0, j1);
    double f2 = s->cf.dxi * s->cf.dzeta * lu_face(s, 2, j0, j1, i0, i1, k0, k1);
    double f3 = s->cf.deta * s->cf.dzeta * lu_face(s, 1, i0, i1, j0, j1, k0, k1);
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
