/* demos/ssor.c -- an LU-style SSOR solver: forward and backward
 * Gauss-Seidel sweeps of a 3-D 7-point Poisson problem with 5 unknowns per
 * point, iterated to a residual tolerance, as two chained plans.
 *
 * The problem A u = f on an X x Y x Z grid (u = 0 outside): per point a
 * 5 x 5 diagonal block D = 6 I + C (C couples the 5 unknowns; symmetric,
 * positive definite) and -I towards each of the 6 neighbours, so A is
 * symmetric positive definite.  Split A = L + D + U (L: the neighbours at
 * -1, U: at +1).  One SSOR iteration (omega in (0, 2)) in delta form, as
 * NPB LU's blts/buts:
 *
 *   forward,  x, y, z upward:    r = f - A u                   (the residual)
 *                                (D + omega L) v = omega (2 - omega) r
 *   backward, x, y, z downward:  (D + omega U) w = D v
 *                                u' = u + w
 *
 * Each sweep reads only the point and its neighbours on one side, so it is
 * a plan: the forward plan reads u and v at -1, the backward plan w and u'
 * at +1 (cfg.dir = -1 in every dimension).  What crosses the other way
 * rides along: the backward sweep leaves s = f - (D + U) u' at every point,
 * the forward sweep completes r = s - L u.  So the plans pass each other
 * values at the same point only: each plan copies its tiles straight into
 * an array over its block (tile_output_to, one copy; the backward plan's a
 * field's block, tile_output_to_field), and the other plan's
 * body reads that array where it is: a plan keeps each rank's block
 * whatever its direction (given the same grid), so nothing moves between
 * the sweeps and no collective runs but the norm's.  The residual norm |r|
 * is a declared exact sum (tile_reduce):
 * the same bits for every model, grid and thread count, so every run
 * takes the same iterations.  The iteration stops when |r| <= tol |r_0|.
 *
 *   mpiexec -n 2 ./demos/ssor --space 24x24x24 --verify
 *   mpiexec -n 4 ./demos/ssor --model funneled --threads 2 --output u.bin
 *   ./demos/ssor --sequential --output ref.bin       (the plain loops)
 *
 * --verify runs the plain sequential implementation on rank 0 and compares
 * every residual norm and the final u bit for bit; --output writes u as the
 * global array u[x][y][z][5] of doubles (native) with
 * MPI_File_write_at_all, byte for byte the array of --sequential --output.
 * The backward sweep's result (u and s) lives in a field over the blocks
 * (tile_output_to_field), so --checkpoint PATH saves it with the residuals
 * after an iteration (demos/checkpoint.h) and --restart PATH resumes there,
 * ending bitwise as the run that was not stopped.
 */
#include "../hybrid.h"
#include "agree.h"
#include "checkpoint.h"

#include <math.h>

#define NU 5    /* unknowns per point */

/* The forward plan's point: the iterate u and the forward solution v. */
typedef struct fwd_el {
    double u[NU], v[NU];
} fwd_el;

/* The backward plan's point: its solution w, the new iterate u' and
 * s = f - (D + U) u' (the next forward sweep's part of the residual). */
typedef struct bwd_el {
    double w[NU], u[NU], s[NU];
} bwd_el;

typedef struct ssor_opts {
    int64_t space[3], tile_height, max_iter;
    double omega, tol;
    int model, threads, verify, sequential;
    const char *output;
    demo_ckpt_opts ckpt;        /* --checkpoint, --checkpoint-every, --restart */
} ssor_opts;

/* The residuals a checkpoint holds (the program's bytes, at most
 * TILE_CKPT_MAX_USER): --max-iter's limit with --checkpoint or --restart. */
#define SSOR_CKPT_ITERS ((int64_t)(TILE_CKPT_MAX_USER / sizeof(double)))

/* D^-1 and D, the same for every point (computed once, used by both
 * implementations, so the values are the same bits). */
static double ssor_d[NU][NU], ssor_dinv[NU][NU];

static void ssor_matrices(void)
{
    double a[NU][2 * NU];
    int i, j, k;
    for (i = 0; i < NU; i++)
        for (j = 0; j < NU; j++)
            ssor_d[i][j] = (i == j ? 6.0 + 0.5 * (i + 1) : 0.25);
    for (i = 0; i < NU; i++)
        for (j = 0; j < 2 * NU; j++)
            a[i][j] = j < NU ? ssor_d[i][j] : (j - NU == i);
    for (k = 0; k < NU; k++) {      /* Gauss-Jordan (D is diagonally dominant) */
        double p = a[k][k];
        for (j = 0; j < 2 * NU; j++)
            a[k][j] /= p;
        for (i = 0; i < NU; i++)
            if (i != k) {
                double m = a[i][k];
                for (j = 0; j < 2 * NU; j++)
                    a[i][j] -= m * a[k][j];
            }
    }
    for (i = 0; i < NU; i++)
        for (j = 0; j < NU; j++)
            ssor_dinv[i][j] = a[i][NU + j];
}

/* y = m x, m row-major NU x NU, summed in a fixed order. */
static void ssor_matvec(const double *m, const double *x, double *y)
{
    int i, j;
    for (i = 0; i < NU; i++) {
        double t = 0.0;
        for (j = 0; j < NU; j++)
            t += m[i * NU + j] * x[j];
        y[i] = t;
    }
}

/* The right-hand side at (x, y, z). */
static void ssor_f(int64_t x, int64_t y, int64_t z, double *f)
{
    int m;
    for (m = 0; m < NU; m++)
        f[m] = (double)((31 * x + 17 * y + 7 * z + 13 * m + 1000003) % 97) / 97.0 - 0.5;
}

/* The forward point: r = s + (u_x + u_y + u_z) (the neighbours at -1),
 * v = D^-1 (omega (2 - omega) r + omega (v_x + v_y + v_z)).  Both
 * implementations call it with the same operands. */
static void ssor_fwd_point(const double *s, const fwd_el *nx, const fwd_el *ny, const fwd_el *nz,
                           double omega, double *r, double *v)
{
    double t[NU];
    int m;
    for (m = 0; m < NU; m++) {
        r[m] = s[m] + ((nx->u[m] + ny->u[m]) + nz->u[m]);
        t[m] = omega * (2.0 - omega) * r[m] + omega * ((nx->v[m] + ny->v[m]) + nz->v[m]);
    }
    ssor_matvec(&ssor_dinv[0][0], t, v);
}

/* The backward point: w = v + omega D^-1 (w_x + w_y + w_z) (at +1),
 * u' = u + w, s = f - D u' + (u'_x + u'_y + u'_z). */
static void ssor_bwd_point(const fwd_el *in, const bwd_el *nx, const bwd_el *ny,
                           const bwd_el *nz, const double *f, double omega, bwd_el *out)
{
    double q[NU], dq[NU], du[NU];
    int m;
    for (m = 0; m < NU; m++)
        q[m] = (nx->w[m] + ny->w[m]) + nz->w[m];
    ssor_matvec(&ssor_dinv[0][0], q, dq);
    for (m = 0; m < NU; m++) {
        out->w[m] = in->v[m] + omega * dq[m];
        out->u[m] = in->u[m] + out->w[m];
    }
    ssor_matvec(&ssor_d[0][0], out->u, du);
    for (m = 0; m < NU; m++)
        out->s[m] = (f[m] - du[m]) + ((nx->u[m] + ny->u[m]) + nz->u[m]);
}

/* ------------------------------------------------------------------------ */
/* The plain sequential implementation                                      */

typedef struct ssor_seq {
    int64_t X, Y, Z;
    bwd_el *b;          /* the backward result: u and s (w unused after) */
    fwd_el *f;          /* the forward result: u and v */
    double *res;        /* the residual norm of every iteration */
    int64_t iters;      /* forward sweeps done */
} ssor_seq;

#define SSOR_AT(S, A, x, y, z) (&(S)->A[((x) * (S)->Y + (y)) * (S)->Z + (z)])

/* One forward sweep; returns |r|. */
static double ssor_seq_forward(ssor_seq *s, double omega)
{
    static const fwd_el zero_f;
    int64_t x, y, z;
    tile_xsum sum;
    tile_xsum_init(&sum);
    for (x = 0; x < s->X; x++)
        for (y = 0; y < s->Y; y++)
            for (z = 0; z < s->Z; z++) {
                fwd_el *p = SSOR_AT(s, f, x, y, z);
                const bwd_el *in = SSOR_AT(s, b, x, y, z);
                double r[NU];
                int m;
                ssor_fwd_point(in->s, x > 0 ? SSOR_AT(s, f, x - 1, y, z) : &zero_f,
                               y > 0 ? SSOR_AT(s, f, x, y - 1, z) : &zero_f,
                               z > 0 ? SSOR_AT(s, f, x, y, z - 1) : &zero_f, omega, r, p->v);
                memcpy(p->u, in->u, sizeof p->u);
                for (m = 0; m < NU; m++)
                    tile_xsum_add(&sum, r[m] * r[m]);
            }
    return sqrt(tile_xsum_round(&sum));
}

static void ssor_seq_backward(ssor_seq *s, double omega)
{
    static const bwd_el zero_b;
    int64_t x, y, z;
    for (x = s->X - 1; x >= 0; x--)
        for (y = s->Y - 1; y >= 0; y--)
            for (z = s->Z - 1; z >= 0; z--) {
                double f[NU];
                ssor_f(x, y, z, f);
                ssor_bwd_point(SSOR_AT(s, f, x, y, z),
                               x + 1 < s->X ? SSOR_AT(s, b, x + 1, y, z) : &zero_b,
                               y + 1 < s->Y ? SSOR_AT(s, b, x, y + 1, z) : &zero_b,
                               z + 1 < s->Z ? SSOR_AT(s, b, x, y, z + 1) : &zero_b, f, omega,
                               SSOR_AT(s, b, x, y, z));
            }
}

/* u = 0, s = f, then iterate as the tiled solver does.  0, or -1 out of
 * memory. */
static int ssor_seq_solve(ssor_seq *s, const ssor_opts *o)
{
    int64_t n = o->space[0] * o->space[1] * o->space[2], x, y, z, k;
    double r0 = 0.0;
    s->X = o->space[0], s->Y = o->space[1], s->Z = o->space[2];
    s->b = (bwd_el *)calloc((size_t)n, sizeof *s->b);
    s->f = (fwd_el *)calloc((size_t)n, sizeof *s->f);
    s->res = (double *)calloc((size_t)o->max_iter, sizeof *s->res);
    if (s->b == NULL || s->f == NULL || s->res == NULL)
        return -1;
    for (x = 0; x < s->X; x++)
        for (y = 0; y < s->Y; y++)
            for (z = 0; z < s->Z; z++)
                ssor_f(x, y, z, SSOR_AT(s, b, x, y, z)->s);
    for (k = 0;; k++) {
        s->res[k] = ssor_seq_forward(s, o->omega);
        r0 = k == 0 ? s->res[0] : r0;
        s->iters = k + 1;
        if (s->res[k] <= o->tol * r0 || k + 1 == o->max_iter)
            break;
        ssor_seq_backward(s, o->omega);
    }
    return 0;
}

static void ssor_seq_free(ssor_seq *s)
{
    free(s->b);
    free(s->f);
    free(s->res);
}

/* ------------------------------------------------------------------------ */
/* The tiled solver: two plans, chained                                     */

typedef struct ssor_side {
    tile_plan plan;
    tile_box block;     /* this rank's block (all of Z), user coordinates */
    void *out;          /* an array over the block: what the plan left, the other's input */
    size_t out_size;
    tile_field field;   /* the backward side's: out is its block (checkpoints save it) */
    int has_field;
} ssor_side;

/* The backward side's output: a field of its plan's shape (no ghost
 * layers: its block is the array over the block, row-major), the plan
 * writing each tile into it.  TILE_OK or -1, as ssor_side_init(). */
static int ssor_side_field(ssor_side *s)
{
    tile_field_config fc;
    int rc = tile_field_config_plan(&fc, &s->plan);
    if (rc == TILE_OK && (rc = tile_field_create(&s->field, MPI_COMM_WORLD, &fc)) != TILE_OK) {
        if (s->plan.rank == 0)
            fprintf(stderr, "ssor: the backward sweep's field: %s\n", s->field.errmsg);
        return -1;      /* (the same on every rank) */
    }
    s->has_field = rc == TILE_OK;
    if (rc == TILE_OK)
        rc = tile_output_to_field(&s->plan, &s->field, NULL);
    if (rc != TILE_OK && s->plan.rank == 0)
        fprintf(stderr, "ssor: the backward sweep's output into its field: %s\n",
                s->plan.errmsg[0] ? s->plan.errmsg : tile_strerror(rc));
    s->out = s->field.data;
    return rc == TILE_OK ? TILE_OK : -1;
}

/* Create a side's plan (dir = +1 forward, -1 backward, on the process grid
 * `grid`, NULL: chosen) and its output array (the backward side's a
 * field's block, which checkpoints save): TILE_OK, the plan's code (its
 * message in plan.errmsg), or -1 when a rank could not allocate or attach
 * its array (that rank said what and how large); the same on every rank. */
static int ssor_side_init(ssor_side *s, const ssor_opts *o, int dir, size_t out_size,
                          const int *grid)
{
    const char *side = dir > 0 ? "forward" : "backward";
    char what[64];
    tile_config cfg;
    int i, rc, bad, all;
    int64_t pts;
    tile_config_init(&cfg, 2);
    for (i = 0; i < 3; i++)
        cfg.dir[i] = dir;
    cfg.extent[0] = o->space[0];
    cfg.extent[1] = o->space[1];
    cfg.zlen = o->space[2];
    cfg.tile_height = o->tile_height;
    cfg.elem_size = out_size;
    cfg.model = o->model;
    cfg.threads = o->threads;
    cfg.boundary = NULL;            /* u = v = w = 0 outside the grid */
    for (i = 0; grid != NULL && i < 2; i++)
        cfg.grid[i] = grid[i];
    memset(s, 0, sizeof *s);
    rc = tile_plan_create(&s->plan, MPI_COMM_WORLD, &cfg);
    if (rc != TILE_OK)
        return rc;
    tile_input_box(&s->plan, TILE_ALL_TILES, NULL, &s->block, NULL);
    s->out_size = out_size;
    pts = tile_box_points(&s->block);
    if (dir < 0)
        return ssor_side_field(s);
    s->out = calloc((size_t)(pts > 0 ? pts : 1), out_size);
    bad = s->out == NULL;
    if (bad) {          /* (ssor_start refused what cannot fit this machine) */
        snprintf(what, sizeof what, "the %s sweep's output array", side);
        demo_nomem("ssor", s->plan.rank, what, pts, (int64_t)out_size);
    } else if (tile_output_to(&s->plan, &s->block, s->out, NULL) != TILE_OK) {
        fprintf(stderr, "ssor: rank %d: the %s sweep's output: %s\n", s->plan.rank, side,
                s->plan.errmsg);
        bad = 1;
    }
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return all ? -1 : TILE_OK;
}

static void ssor_side_free(ssor_side *s)
{
    tile_plan_destroy(&s->plan);   /* (first: the field counts it as a user) */
    if (s->has_field)
        tile_field_destroy(&s->field);
    else
        free(s->out);
}

/* The forward sweep, reading what the backward one left (bw: the same
 * block): |r| of the current iterate, from the exact sum. */
static void ssor_forward(ssor_side *fw, const ssor_side *bw, tile_reduction *rr, double omega)
{
    const bwd_el *in = (const bwd_el *)bw->out;
    const tile_box *box = &fw->block;
    HYBRID_RUN(&fw->plan, it, {
        const bwd_el *b = &in[tile_input_index(&it, box)];
        fwd_el *p = &TILE_AT(fwd_el, it, 0, 0, 0);
        double r[NU];
        int m;
        ssor_fwd_point(b->s, &TILE_AT(fwd_el, it, -1, 0, 0), &TILE_AT(fwd_el, it, 0, -1, 0),
                       &TILE_AT(fwd_el, it, 0, 0, -1), omega, r, p->v);
        memcpy(p->u, b->u, sizeof p->u);
        for (m = 0; m < NU; m++)
            tile_reduce(&it, rr, r[m] * r[m]);
    });
}

/* The backward sweep, reading what the forward one left (the plan runs
 * downward: +1 is the earlier point). */
static void ssor_backward(ssor_side *bw, const ssor_side *fw, double omega)
{
    const fwd_el *in = (const fwd_el *)fw->out;
    const tile_box *box = &bw->block;
    HYBRID_RUN(&bw->plan, it, {
        double f[NU];
        ssor_f(tile_coord(&it, 0), tile_coord(&it, 1), tile_coord(&it, 2), f);
        ssor_bwd_point(&in[tile_input_index(&it, box)], &TILE_AT(bwd_el, it, 1, 0, 0),
                       &TILE_AT(bwd_el, it, 0, 1, 0), &TILE_AT(bwd_el, it, 0, 0, 1), f, omega,
                       &TILE_AT(bwd_el, it, 0, 0, 0));
    });
}

typedef struct ssor_run {
    ssor_side fw, bw;
    tile_reduction rr;
    double *res;        /* the residual norm of every iteration */
    int64_t iters;
    double seconds;
    demo_ckpt ck;       /* --checkpoint, --restart: bw's field and res */
    int stopped;        /* stopped after a checkpoint on the signal */
} ssor_run;

/* The options that change the numbers or where the iteration stops (the
 * checkpoints' fingerprint; tile height, model and threads do not). */
static uint64_t ssor_fingerprint(const ssor_opts *o)
{
    uint64_t h = demo_ckpt_hash(0xcbf29ce484222325ull, "ssor", 4);
    h = demo_ckpt_hash(h, o->space, sizeof o->space);
    h = demo_ckpt_hash(h, &o->omega, sizeof o->omega);
    h = demo_ckpt_hash(h, &o->tol, sizeof o->tol);
    return demo_ckpt_hash(h, &o->max_iter, sizeof o->max_iter);
}

/* Make the checkpoints (the backward side's field, the residuals) and with
 * --restart read them back: the iterations done (s->iters), or u = 0
 * (s = f) without.  0, or 1 after rank 0 said why (on every rank). */
static int ssor_begin(ssor_run *s, const ssor_opts *o, int rank)
{
    tile_field *f = &s->bw.field;
    bwd_el *b = (bwd_el *)s->bw.out;
    int64_t start = 0, x;
    if (demo_ckpt_begin(&s->ck, "ssor", &o->ckpt, &f, 1, s->res,
                        sizeof *s->res * (size_t)o->max_iter, ssor_fingerprint(o), &start,
                        rank) != 0)
        return 1;
    s->iters = start;
    for (x = 0; start == 0 && x < tile_box_points(&s->fw.block); x++) {    /* u = 0: s = f */
        int64_t c[3];
        c[0] = s->fw.block.lo[0] + x / (s->fw.block.len[1] * s->fw.block.len[2]);
        c[1] = s->fw.block.lo[1] + x / s->fw.block.len[2] % s->fw.block.len[1];
        c[2] = x % s->fw.block.len[2];
        ssor_f(c[0], c[1], c[2], b[x].s);
    }
    return 0;
}

/* Iterate from s->iters: forward (|r|), stop or backward, each reading
 * the other's result; a checkpoint after each backward sweep when due.
 * 0, or the first failure's code (its message printed by rank 0). */
static int ssor_iterate(ssor_run *s, const ssor_opts *o, int rank)
{
    int64_t k;
    int rc = TILE_OK, step;
    const char *why = "";
    double t0 = MPI_Wtime();
    for (k = s->iters; rc == TILE_OK; k++) {
        ssor_forward(&s->fw, &s->bw, &s->rr, o->omega);
        why = s->fw.plan.errmsg;
        if ((rc = tile_plan_status(&s->fw.plan)) != TILE_OK)
            break;
        s->res[k] = sqrt(s->rr.value);
        s->iters = k + 1;
        if (rank == 0)
            printf("iteration %4lld  residual %.16e\n", (long long)k, s->res[k]);
        if (s->res[k] <= o->tol * s->res[0] || k + 1 == o->max_iter)
            break;
        ssor_backward(&s->bw, &s->fw, o->omega);
        why = s->bw.plan.errmsg;
        if ((rc = tile_plan_status(&s->bw.plan)) != TILE_OK)
            break;
        if ((step = demo_ckpt_step(&s->ck, "ssor", k + 1, rank)) != 0) {
            s->stopped = step > 0;      /* (-1: rank 0 said why) */
            rc = step > 0 ? TILE_OK : TILE_ERR_CHECKPOINT;
            why = "";
            break;
        }
    }
    s->seconds = MPI_Wtime() - t0;
    if (rc != TILE_OK && rank == 0 && why[0])
        fprintf(stderr, "ssor: %s\n", why);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Output, verification                                                     */

/* The final u of this rank's block (the last forward sweep's input), as
 * NU doubles per point; NULL if out of memory. */
static double *ssor_block_u(const ssor_run *s)
{
    int64_t n = tile_box_points(&s->fw.block), x;
    const bwd_el *b = (const bwd_el *)s->bw.out;
    double *u = (double *)malloc(sizeof(double) * NU * (size_t)(n > 0 ? n : 1));
    for (x = 0; u != NULL && x < n; x++)
        memcpy(u + NU * x, b[x].u, sizeof b[x].u);
    return u;
}

/* One collective step of ssor_write: every rank learns whether @call failed
 * on any rank; the lowest failing rank says which, with MPI's text for its
 * own error code (a code is meaningful on the rank that got it).  1 if the
 * step failed anywhere (the same on every rank). */
static int ssor_io_failed(int rc, const char *call, const char *path, int rank, int size)
{
    int me = rc != MPI_SUCCESS ? rank : size, first = size;
    char text[MPI_MAX_ERROR_STRING];
    demo_mpi_check("ssor", MPI_COMM_WORLD,
                   MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD),
                   "MPI_Allreduce", "agreeing on the output file's steps");
    if (first == size)
        return 0;
    if (rank == first)
        fprintf(stderr, "ssor: rank %d: %s failed writing %s (%s); the file is incomplete\n",
                rank, call, path, demo_mpi_text(rc, text));
    return 1;
}

/* Write u[x][y][z][NU] (the global array) with one collective write: each
 * rank's block through a subarray view.  The ranks agree after every
 * collective file call (one that failed on one rank only would leave the
 * others waiting in the next); 0, or 1 after the message (the same on
 * every rank). */
static int ssor_write(const char *path, const tile_box *b, const double *u, const ssor_opts *o)
{
    MPI_File fh = MPI_FILE_NULL;
    MPI_Datatype el, ft;
    MPI_Status st;
    int sizes[3], sub[3], start[3], i, rc, failed, rank = 0, size = 1;
    MPI_Offset bytes = (MPI_Offset)(o->space[0] * o->space[1] * o->space[2]) * NU * 8;
    for (i = 0; i < 3; i++) {
        sizes[i] = (int)o->space[i];
        sub[i] = (int)b->len[i];
        start[i] = (int)b->lo[i];
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_contiguous(NU, MPI_DOUBLE, &el);
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, el, &ft);
    MPI_Type_commit(&el);
    MPI_Type_commit(&ft);
    rc = MPI_File_open(MPI_COMM_WORLD, (char *)path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                       MPI_INFO_NULL, &fh);
    failed = ssor_io_failed(rc, "MPI_File_open", path, rank, size);
    if (failed && fh != MPI_FILE_NULL) { /* open here, not on every rank */
        char msg[600];
        snprintf(msg, sizeof msg, "ssor: rank %d: %s is open here but not on every rank "
                 "(MPI_File_close is collective)", rank, path);
        tilehybrid_mpi_abort(msg, NULL, NULL, 1);   /* (a pause: rank 1's line first) */
    }
    if (!failed)        /* an older, longer file is cut */
        failed = ssor_io_failed(MPI_File_set_size(fh, bytes), "MPI_File_set_size", path, rank,
                                size);
    if (!failed)
        failed = ssor_io_failed(MPI_File_set_view(fh, 0, el, ft, "native", MPI_INFO_NULL),
                                "MPI_File_set_view", path, rank, size);
    if (!failed)
        failed = ssor_io_failed(MPI_File_write_at_all(fh, 0, (void *)u,
                                                      (int)tile_box_points(b), el, &st),
                                "MPI_File_write_at_all", path, rank, size);
    rc = fh != MPI_FILE_NULL ? MPI_File_close(&fh) : MPI_SUCCESS;
    if (!failed) /* (after a failed step its failure is the one said) */
        failed = ssor_io_failed(rc, "MPI_File_close", path, rank, size);
    MPI_Type_free(&ft);
    MPI_Type_free(&el);
    return failed;
}

/* --verify: the sequential implementation on rank 0, every residual and
 * every value of u compared bitwise (u gathered with tile_exchange).
 * 0 when equal, 1 otherwise (the same on every rank). */
static int ssor_verify(ssor_run *s, const ssor_opts *o, const double *u, int rank)
{
    ssor_seq q;
    tile_box all;
    int64_t n = o->space[0] * o->space[1] * o->space[2], k, x, bad = 0;
    double *g = NULL;
    int rc, ok = 1;
    memset(&q, 0, sizeof q);
    memset(&all, 0, sizeof all);
    all.ndims = 3;
    all.len[0] = rank == 0 ? o->space[0] : 0;
    all.len[1] = o->space[1];
    all.len[2] = o->space[2];
    if (rank == 0 && ((g = (double *)malloc(sizeof(double) * NU * (size_t)n)) == NULL ||
                      ssor_seq_solve(&q, o) != 0)) {
        fprintf(stderr, "ssor: rank 0: --verify: out of memory for the sequential "
                "implementation and the gathered u (%lld points of %d bytes)\n", (long long)n,
                (int)(sizeof(bwd_el) + sizeof(fwd_el) + sizeof(double) * NU));
        ok = 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    rc = ok ? tile_exchange(&s->fw.plan, sizeof(double) * NU, &s->fw.block, u, &all, g, NULL)
            : TILE_ERR_NOMEM;
    if (rank == 0 && rc == TILE_OK) {
        ok = q.iters == s->iters;
        for (k = 0; ok && k < q.iters; k++)
            ok = memcmp(&q.res[k], &s->res[k], sizeof(double)) == 0;
        for (x = 0; x < n; x++)
            bad += memcmp(q.b[x].u, g + NU * x, sizeof q.b[x].u) != 0;
        printf("verify: %s (%lld iterations and %lld values against the sequential "
               "implementation: %s residuals, %lld points differ)\n",
               ok && bad == 0 ? "ok" : "MISMATCH", (long long)q.iters, (long long)(NU * n),
               ok ? "equal" : "different", (long long)bad);
        ok = ok && bad == 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    ssor_seq_free(&q);
    free(g);
    return rc == TILE_OK && ok ? 0 : 1;
}

/* ------------------------------------------------------------------------ */
/* The command line                                                         */

static void ssor_help(void)
{
    printf("usage: mpiexec -n P ./demos/ssor [options]\n"
           "Solves a 3-D 7-point Poisson problem with 5 unknowns per point by SSOR\n"
           "(forward and backward Gauss-Seidel sweeps, two chained plans) until the\n"
           "residual norm falls by --tol, printing it at every iteration.\n"
           "  --space XxYxZ      the grid, three whole numbers >= 1 (default 24x24x24)\n"
           "  --tile-height z    tile height along Z, >= 1 (default 4)\n"
           "  --model M          mpi, fine, funneled or multiple (default mpi)\n"
           "  --threads T        threads per process, 1..1024 (default 1)\n"
           "  --omega W          the relaxation factor, 0 < W < 2 (default 1.2)\n"
           "  --tol T            stop when |r| <= T |r_0|, 0 <= T < 1 (default 1e-8)\n"
           "  --max-iter K       at most K iterations (forward sweeps, each printing its\n"
           "                     residual), 1..100000 (default 500)\n"
           "  --verify           also run the plain sequential implementation (rank 0)\n"
           "                     and compare every residual and the result bitwise\n"
           "  --output FILE      write u[x][y][z][5] (doubles, native) with MPI-IO\n"
           "  --sequential       run only the plain sequential implementation (rank 0)\n"
           DEMO_CKPT_HELP
           "                     (after an iteration; --max-iter at most 8192)\n"
           "  -h, --help         print this help and exit\n"
           "Options take their value as the next argument or after '='.\n"
           "Exit status: 0 converged, 1 not converged, --verify mismatch or a failed run\n"
           "or output (out of memory included), 2 bad arguments, a configuration the plan\n"
           "refuses or arrays past a rank's memory limit (TILEHYBRID_MEM_LIMIT), 75 stopped\n"
           "after a checkpoint on SIGUSR1 (run again with --restart).\n");
}

/* The value of option a: 0, or 2 with the message in err. */
static int ssor_value(ssor_opts *o, const char *a, const char *v, char *err, size_t len)
{
    int64_t x;
    int m = demo_ckpt_option(&o->ckpt, a, v, err, len);
    if (m >= 0)         /* --checkpoint, --checkpoint-every, --restart */
        return m;
    if (strcmp(a, "--space") == 0) {
        const char *p = v;
        for (m = 0; m < 3; m++) {      /* three numbers by the one rule, 'x' between */
            char num[32];
            size_t l = strcspn(p, "x");
            if ((p[l] == 'x') != (m < 2) || l >= sizeof num)
                break;
            memcpy(num, p, l);
            num[l] = '\0';
            if (tilehybrid_parse_i64(num, 1, 1 << 20, &o->space[m]) != TILEHYBRID_OK)
                break;
            p += l + 1;
        }
        if (m < 3)
            return snprintf(err, len, "--space '%s': want XxYxZ, three whole numbers in "
                            "1..2^20", v), 2;
    } else if (strcmp(a, "--model") == 0) {
        for (m = 0; m < 4 && strcmp(v, tile_model_name(m)) != 0; m++)
            ;
        if (m == 4)
            return snprintf(err, len, "--model '%s': mpi, fine, funneled or multiple", v),
                   2;
        o->model = m;
    } else if (strcmp(a, "--omega") == 0 || strcmp(a, "--tol") == 0) {
        int om = a[2] == 'o';
        double x = 0.0;
        const char *what = om ? "a number in (0, 2)" : "a number in [0, 1)";
        int code = tilehybrid_parse_double(v, -HUGE_VAL, HUGE_VAL, &x);
        if (code != TILEHYBRID_OK)     /* the shared parser's reason */
            return demo_real_error(a, v, code, what, err, len);
        if (om ? !(x >= 1e-300 && x < 2.0) : !(x >= 0.0 && x < 1.0))
            return snprintf(err, len, "%s '%s': want %s%s", a, v, what,
                            om && x > 0.0 && x < 1e-300 ? ", at least 1e-300" : ""), 2;
        *(om ? &o->omega : &o->tol) = x;
    } else if (strcmp(a, "--output") == 0) {
        o->output = v;
    } else {
        int mi = strcmp(a, "--max-iter") == 0, th = strcmp(a, "--threads") == 0;
        int64_t lo = 1, hi = mi ? 100000 : th ? 1024 : ((int64_t)1 << 40);
        if (tilehybrid_parse_i64(v, lo, hi, &x) != TILEHYBRID_OK)
            return snprintf(err, len, "%s '%s': want a whole number in %lld..%lld", a, v,
                            (long long)lo, (long long)hi), 2;
        if (mi)
            o->max_iter = x;
        else if (th)
            o->threads = (int)x;
        else
            o->tile_height = x;
    }
    return 0;
}

/* --sequential and --verify keep the whole space on rank 0 (the plain
 * implementation's two arrays, and for --verify the gathered u): refused
 * before anything is allocated when that passes the rank's memory limit
 * (demo_mem_limit(): the node's memory shared by its node_ranks ranks).
 * 0 or 2 (message in err). */
static int ssor_check_memory(const ssor_opts *o, int node_ranks, char *err, size_t len)
{
    int64_t pts = 0, per = (int64_t)(sizeof(bwd_el) + sizeof(fwd_el));
    const char *opt = o->verify ? "--verify" : "--sequential";
    if (!o->verify && !o->sequential)
        return 0;
    if (o->verify)
        per += (int64_t)sizeof(double) * NU;
    if (!tilehybrid_mul_ok(o->space[0] * o->space[1], o->space[2], &pts))
        pts = INT64_MAX;   /* (each extent <= 2^20: X * Y fits) */
    return demo_check_memory(opt, o->verify ? "the sequential implementation and the gathered "
                             "u" : "the sequential implementation", pts, per, "--space",
                             node_ranks, err, len);
}

/* The tiled solver keeps two arrays over each process's block, all of Z
 * (each side's output, the other's input: bwd_el + fwd_el bytes a point); on
 * `size` processes the largest block holds at least 1/size of the points.
 * Refused before anything is allocated when that passes the rank's memory
 * limit (as demo_check_memory() does for --verify: the node's memory shared
 * by its node_ranks ranks): 0 or 2 (message in err). */
static int ssor_check_tiled(const ssor_opts *o, int size, int node_ranks, char *err, size_t len)
{
    int64_t per = (int64_t)(sizeof(bwd_el) + sizeof(fwd_el)), pts = 0, mine, bytes = 0;
    demo_limit lim;
    char num[24];
    if (o->sequential)
        return 0;
    if (demo_mem_limit(node_ranks, &lim, err, len) != 0)
        return 2;
    if (lim.bytes == 0)
        return 0;
    if (!tilehybrid_mul_ok(o->space[0] * o->space[1], o->space[2], &pts))
        pts = INT64_MAX;   /* (each extent <= 2^20: X * Y fits) */
    mine = pts / size + (pts % size != 0);
    if (tilehybrid_mul_ok(mine, per, &bytes) && bytes <= lim.bytes)
        return 0;
    snprintf(num, sizeof num, "%lld", (long long)bytes);
    return snprintf(err, len, "--space %lldx%lldx%lld: the solver keeps 2 arrays over each "
                    "process's block (all of Z, %lld bytes a point): at least %lld points = "
                    "%s bytes per process on %d process%s, more than its memory limit of %lld "
                    "bytes (%s); lower --space or use more processes on more nodes",
                    (long long)o->space[0], (long long)o->space[1], (long long)o->space[2],
                    (long long)per, (long long)mine, bytes > 0 ? num : "more than 2^63", size,
                    size == 1 ? "" : "es", (long long)lim.bytes, lim.why), 2;
}

/* The options with a value, and opt_parse()'s reader of them (ctx: the
 * options). */
static const char *const ssor_valued[] = { "--space", "--tile-height", "--model", "--threads",
                                           "--omega", "--tol", "--max-iter", "--output",
                                           DEMO_CKPT_OPTIONS };

static int ssor_option(void *ctx, const char *name, const char *v, char *err, size_t len)
{
    return ssor_value((ssor_opts *)ctx, name, v, err, len);
}

/* Parse argv: 0 go on, 1 help, 2 bad arguments (message in err). */
static int ssor_parse(int argc, char **argv, ssor_opts *o, char *err, size_t len)
{
    opt_flag flags[2];
    opt_spec spec;
    int rc;
    memset(o, 0, sizeof *o);
    o->space[0] = o->space[1] = o->space[2] = 24;
    o->tile_height = 4;
    o->omega = 1.2;
    o->tol = 1e-8;
    o->max_iter = 500;
    o->threads = 1;
    flags[0].name = "--verify";
    flags[0].set = &o->verify;
    flags[1].name = "--sequential";
    flags[1].set = &o->sequential;
    spec.valued = ssor_valued;
    spec.nvalued = (int)(sizeof ssor_valued / sizeof ssor_valued[0]);
    spec.flags = flags;
    spec.nflags = 2;
    spec.read = ssor_option;
    if ((rc = opt_parse(&spec, argc, argv, o, err, len)) != 0)
        return rc;
    if ((rc = demo_ckpt_check(&o->ckpt, err, len)) != 0)
        return rc;
    if ((o->ckpt.path != NULL || o->ckpt.restart != NULL) && o->sequential)
        return snprintf(err, len, "--sequential runs the plain loops: it takes no "
                        "--checkpoint or --restart"), 2;
    if ((o->ckpt.path != NULL || o->ckpt.restart != NULL) && o->max_iter > SSOR_CKPT_ITERS)
        return snprintf(err, len, "--max-iter %lld with --checkpoint or --restart: a "
                        "checkpoint holds the residuals of at most %lld iterations",
                        (long long)o->max_iter, (long long)SSOR_CKPT_ITERS), 2;
    if (o->model == TILE_MODEL_MPI && o->threads != 1)
        return snprintf(err, len, "--threads %d needs --model fine, funneled or multiple",
                        o->threads), 2;
    return 0;
}

/* --sequential: the plain implementation alone, on rank 0. */
static int ssor_sequential(const ssor_opts *o)
{
    ssor_seq q;
    int64_t k, n = o->space[0] * o->space[1] * o->space[2], x;
    FILE *fp;
    int bad = 0;
    memset(&q, 0, sizeof q);
    if (ssor_seq_solve(&q, o) != 0) {
        fprintf(stderr, "ssor: rank 0: --sequential: out of memory for the sequential "
                "implementation (%lld points of %d bytes)\n", (long long)n,
                (int)(sizeof(bwd_el) + sizeof(fwd_el)));
        ssor_seq_free(&q);
        return 1;
    }
    for (k = 0; k < q.iters; k++)
        printf("iteration %4lld  residual %.16e\n", (long long)k, q.res[k]);
    if (o->output != NULL) {
        fp = fopen(o->output, "wb");
        for (x = 0; fp != NULL && x < n && !bad; x++)
            bad = fwrite(q.b[x].u, sizeof q.b[x].u, 1, fp) != 1;
        if (fp == NULL || fclose(fp) != 0 || bad) {
            fprintf(stderr, "ssor: writing %s failed: the file is incomplete\n", o->output);
            ssor_seq_free(&q);
            return 1;
        }
    }
    bad = !(q.res[q.iters - 1] <= o->tol * q.res[0]);     /* a NaN too */
    printf("%s after %lld iterations: residual %.3e (%.3e of the first)\n",
           bad ? "not converged" : "converged", (long long)q.iters, q.res[q.iters - 1],
           q.res[q.iters - 1] / (q.res[0] > 0 ? q.res[0] : 1.0));
    ssor_seq_free(&q);
    return bad;
}

/* The tiled solver: create the plans, iterate, write, verify, report.
 * The exit status, the same on every rank. */
static int ssor_tiled(const ssor_opts *o, int rank, int size)
{
    ssor_run s;
    double *u = NULL;
    int rc, status = 0, bad, all;
    memset(&s, 0, sizeof s);
    rc = ssor_side_init(&s.fw, o, +1, sizeof(fwd_el), NULL);
    if (rc == TILE_OK)      /* the same grid: the same block on every rank */
        rc = ssor_side_init(&s.bw, o, -1, sizeof(bwd_el), s.fw.plan.pdims);
    if (rc != TILE_OK) {
        /* a plan refused (2: its message, the same on every rank), or a
         * rank's arrays could not be allocated (1: that rank said so) */
        if (rank == 0 && rc > 0)
            fprintf(stderr, "ssor: %s\n", s.bw.plan.errmsg[0] ? s.bw.plan.errmsg
                                                              : s.fw.plan.errmsg);
        ssor_side_free(&s.fw);
        ssor_side_free(&s.bw);
        return rc > 0 ? 2 : 1;
    }
    bad = memcmp(&s.fw.block, &s.bw.block, sizeof s.fw.block) != 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (all) {          /* (never: a plan keeps its blocks whatever its direction) */
        if (rank == 0)
            fprintf(stderr, "ssor: the backward plan's blocks differ from the forward one's\n");
        ssor_side_free(&s.fw);
        ssor_side_free(&s.bw);
        return 1;
    }
    s.res = (double *)calloc((size_t)o->max_iter, sizeof *s.res);
    bad = s.res == NULL;
    if (bad)
        demo_nomem("ssor", rank, "the residual of every iteration (--max-iter)", o->max_iter,
                   (int64_t)sizeof *s.res);
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (all) {
        free(s.res);
        ssor_side_free(&s.fw);
        ssor_side_free(&s.bw);
        return 1;
    }
    tile_reduction_init(&s.fw.plan, &s.rr, TILE_REDUCE_SUM, NULL);
    if (rank == 0)
        printf("ssor: %lldx%lldx%lld x %d unknowns, omega %g, tol %g, model %s, %d process%s "
               "(grid %dx%d) x %d thread%s, tile height %lld (%s; predicted parallel "
               "efficiency %.1f%%)\n", (long long)o->space[0],
               (long long)o->space[1], (long long)o->space[2], NU, o->omega, o->tol,
               tile_model_name(o->model), size, size > 1 ? "es" : "", s.fw.plan.pdims[0],
               s.fw.plan.pdims[1], o->threads, o->threads > 1 ? "s" : "",
               (long long)s.fw.plan.height.z,
               s.fw.plan.height.origin == TILE_HEIGHT_MODEL ? "chosen by the model" : "given",
               100.0 * s.fw.plan.height.efficiency);
    rc = ssor_begin(&s, o, rank) != 0 ? TILE_ERR_CHECKPOINT : ssor_iterate(&s, o, rank);
    if (s.ck.made)
        demo_ckpt_report(&s.ck, "ssor", rank);
    demo_ckpt_end(&s.ck);
    if (rc == TILE_OK && s.stopped) {
        free(s.res);
        ssor_side_free(&s.fw);
        ssor_side_free(&s.bw);
        return TILE_CKPT_EXIT;
    }
    u = rc == TILE_OK ? ssor_block_u(&s) : NULL;
    bad = rc == TILE_OK && u == NULL;
    if (bad)
        demo_nomem("ssor", rank, "this rank's u (to write and verify)",
                   tile_box_points(&s.fw.block), (int64_t)sizeof(double) * NU);
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (all && rc == TILE_OK)
        rc = TILE_ERR_NOMEM;   /* (the run's status: 1 on every rank) */
    if (rc == TILE_OK && o->output != NULL &&
        ssor_write(o->output, &s.fw.block, u, o) != 0)
        status = 1;
    if (rc == TILE_OK && o->verify && ssor_verify(&s, o, u, rank) != 0)
        status = 1;
    if (rc == TILE_OK && rank == 0) {
        double last = s.res[s.iters - 1], first = s.res[0] > 0 ? s.res[0] : 1.0;
        printf("%s after %lld iterations: residual %.3e (%.3e of the first), %.3f s\n",
               last <= o->tol * s.res[0] ? "converged" : "not converged", (long long)s.iters,
               last, last / first, s.seconds);
    }
    if (rc == TILE_OK && !(s.res[s.iters - 1] <= o->tol * s.res[0]))   /* a NaN too */
        status = 1;
    free(u);
    free(s.res);
    ssor_side_free(&s.fw);
    ssor_side_free(&s.bw);
    return rc != TILE_OK ? 1 : status;
}

/* Parse, start MPI, and agree on the command line across ranks (one
 * collective).  -1: run; else the exit status (MPI finalized, rank 0
 * printed the help or the one message). */
static int ssor_start(int *argc, char ***argv, ssor_opts *o, int *rank)
{
    char err[DEMO_MSGLEN] = "";
    demo_arg v[DEMO_AGREE_MAX];
    int rc = ssor_parse(*argc, *argv, o, err, sizeof err), provided, k = 0, size = 1;
    int nr;
    if (hybrid_init(argc, argv, rc ? TILE_MODEL_MPI : o->model, rc ? 1 : o->threads,
                    &provided) == TILE_ERR_MPI) {
        fprintf(stderr, "ssor: MPI_Init_thread failed\n");
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    nr = demo_node_ranks("ssor");   /* (collective: on every rank) */
    if (rc == 0)        /* (each rank checks its own node; demo_agree tells all) */
        rc = ssor_check_memory(o, nr, err, sizeof err);
    if (rc == 0)
        rc = ssor_check_tiled(o, size, nr, err, sizeof err);
    v[k++] = demo_arg_int("--space (X)", o->space[0]);
    v[k++] = demo_arg_int("--space (Y)", o->space[1]);
    v[k++] = demo_arg_int("--space (Z)", o->space[2]);
    v[k++] = demo_arg_int("--tile-height", o->tile_height);
    v[k++] = demo_arg_model(o->model);
    v[k++] = demo_arg_int("--threads", o->threads);
    v[k++] = demo_arg_real("--omega", o->omega);
    v[k++] = demo_arg_real("--tol", o->tol);
    v[k++] = demo_arg_int("--max-iter", o->max_iter);
    v[k++] = demo_arg_flag("--verify", o->verify);
    v[k++] = demo_arg_flag("--sequential", o->sequential);
    v[k++] = demo_arg_text("--output", o->output);
    v[k++] = demo_arg_text("--checkpoint", o->ckpt.path);
    v[k++] = demo_arg_text("--restart", o->ckpt.restart);
    v[k++] = demo_arg_int("--checkpoint-every (steps)", o->ckpt.every_steps);
    v[k++] = demo_arg_real("--checkpoint-every (seconds)", o->ckpt.every_seconds);
    return demo_agree_end(demo_agree_help("ssor", rc, err, v, k, ssor_help));
}

/* --output FILE must be a file name whose folder exists and that can be
 * opened for writing, checked on rank 0 before the solve (which would
 * otherwise run to the end and then fail to write; a file the check makes
 * is removed again).  0, or 2 on every rank after the message. */
static int ssor_output_ok(const ssor_opts *o, int rank)
{
    int bad = 0;
    if (o->output != NULL && rank == 0) {
        char dir[4096];
        const char *slash = strrchr(o->output, '/');
        size_t len = slash == NULL ? 0 : (size_t)(slash - o->output);
        if (len >= sizeof dir)
            len = sizeof dir - 1;
        memcpy(dir, o->output, len);
        dir[len] = '\0';
        if (slash != NULL && len == 0)
            strcpy(dir, "/");
        else if (slash == NULL)
            strcpy(dir, ".");
        if (o->output[0] == '\0') {
            fprintf(stderr, "ssor: --output '': expected a file name\n");
            bad = 2;
        } else if (access(dir, W_OK) != 0) {
            fprintf(stderr, "ssor: --output %s: cannot write in the folder %s: %s\n",
                    o->output, dir, strerror(errno));
            bad = 2;
        } else {    /* a folder, or a place where no file can be made (/proc) */
            int existed = access(o->output, F_OK) == 0;
            FILE *fp = fopen(o->output, "ab");     /* "a": an existing file is kept */
            if (fp == NULL) {
                fprintf(stderr, "ssor: --output %s: cannot write it: %s\n", o->output,
                        strerror(errno));
                bad = 2;
            } else {
                fclose(fp);
                if (!existed)
                    remove(o->output);
            }
        }
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return bad;
}

int main(int argc, char **argv)
{
    ssor_opts o;
    int rank = 0, size, rc = ssor_start(&argc, &argv, &o, &rank);
    if (rc >= 0)
        return rc;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if ((rc = ssor_output_ok(&o, rank)) != 0) {
        MPI_Finalize();
        return rc;
    }
    ssor_matrices();
    if (o.sequential)
        rc = rank == 0 ? ssor_sequential(&o) : 0;
    else
        rc = ssor_tiled(&o, rank, size);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    fflush(stdout);
    MPI_Finalize();
    return rc;
}
