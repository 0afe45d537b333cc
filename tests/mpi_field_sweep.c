/* tests/mpi_field_sweep.c -- sweeps over fields: a forward and a backward
 * plan keep every rank's block (no message moves a block between them),
 * and an SSOR-like program of many steps, as NPB LU's, lives in fields:
 *
 *   every iteration:  R = U + c (sum of U's six neighbours)      a map
 *                     |R|^2 and sum R, exact             (TILE_SUM in the map)
 *                     R = a R + b (R at x-1, y-1, z-1)  upward     a plan
 *                     R = a' R + b' (R at x+1, y+1, z+1) downward   a plan
 *                     U += w R                          (in the downward body)
 *   every other iteration and at the end: the sums read (tile_map_sums)
 *
 * equal bitwise to the plain loops, at odd sizes, in every model with 1-3
 * threads; then the refusals of tile_output_to_field() and the field's
 * count of its users.  Run at 1-4 processes.
 */
#include "../hybrid.h"
#include "check.h"

static int nprocs, myrank;

/* The initial U: a hash of the point, in [0, 1). */
static double u0(int64_t x, int64_t y, int64_t z)
{
    uint64_t h = (uint64_t)(x * 73856093 + y * 19349663 + z * 83492791) * 0x9e3779b97f4a7c15ull;
    return (double)(h >> 11) / 9007199254740992.0;
}

typedef struct shape {
    int64_t ex, ey, ez;
} shape;

#define AT(s, x, y, z) (((x) * (s)->ey + (y)) * (s)->ez + (z))

/* Iteration t reads the sums after it (every other one, and the last). */
static int reads_after(int t, int iters)
{
    return t % 2 == 1 || t == iters - 1;
}

/* The plain program: U (ex x ey x ez, z last) after `iters` iterations,
 * and the sums read, two per read, in sums. */
static void plain(const shape *s, int iters, double *U, double *sums)
{
    int64_t x, y, z, n = s->ex * s->ey * s->ez;
    double *R = (double *)malloc(sizeof(double) * (size_t)n);
    tile_xsum sq, lin;
    int t, nread = 0;
    tile_xsum_init(&sq);
    tile_xsum_init(&lin);
#define UV(X, Y, Z) ((X) < 0 || (Y) < 0 || (Z) < 0 || (X) >= s->ex || (Y) >= s->ey ||     \
                     (Z) >= s->ez ? 0.0 : U[AT(s, X, Y, Z)])
#define RV(X, Y, Z) ((X) < 0 || (Y) < 0 || (Z) < 0 || (X) >= s->ex || (Y) >= s->ey ||     \
                     (Z) >= s->ez ? 0.0 : R[AT(s, X, Y, Z)])
    for (x = 0; x < s->ex; x++)
        for (y = 0; y < s->ey; y++)
            for (z = 0; z < s->ez; z++)
                U[AT(s, x, y, z)] = u0(x, y, z);
    for (t = 0; t < iters; t++) {
        for (x = 0; x < s->ex; x++)
            for (y = 0; y < s->ey; y++)
                for (z = 0; z < s->ez; z++)
                    R[AT(s, x, y, z)] = UV(x, y, z) + 0.125 * (((UV(x - 1, y, z) + UV(x + 1, y, z)) +
                                                               (UV(x, y - 1, z) + UV(x, y + 1, z))) +
                                                              (UV(x, y, z - 1) + UV(x, y, z + 1)));
        for (x = 0; x < n; x++) {
            tile_xsum_add(&sq, R[x] * R[x]);
            tile_xsum_add(&lin, R[x]);
        }
        if (reads_after(t, iters)) {
            sums[nread++] = tile_xsum_round(&sq);
            sums[nread++] = tile_xsum_round(&lin);
            tile_xsum_init(&sq);
            tile_xsum_init(&lin);
        }
        for (z = 0; z < s->ez; z++)
            for (x = 0; x < s->ex; x++)
                for (y = 0; y < s->ey; y++)
                    R[AT(s, x, y, z)] = 0.5 * R[AT(s, x, y, z)] +
                                        0.25 * ((RV(x - 1, y, z) + RV(x, y - 1, z)) + RV(x, y, z - 1));
        for (z = s->ez - 1; z >= 0; z--)
            for (x = s->ex - 1; x >= 0; x--)
                for (y = s->ey - 1; y >= 0; y--) {
                    R[AT(s, x, y, z)] = 0.75 * R[AT(s, x, y, z)] -
                                        0.125 * ((RV(x + 1, y, z) + RV(x, y + 1, z)) + RV(x, y, z + 1));
                    U[AT(s, x, y, z)] += 0.0625 * R[AT(s, x, y, z)];
                }
    }
#undef UV
#undef RV
    free(R);
}

static void fill_u(void *ctx, const int64_t *c, void *elem)
{
    const shape *s = (const shape *)ctx;
    int out = c[0] < 0 || c[1] < 0 || c[2] < 0 || c[0] >= s->ex || c[1] >= s->ey || c[2] >= s->ez;
    *(double *)elem = out ? 0.0 : u0(c[0], c[1], c[2]);
}

static void fill_zero(void *ctx, const int64_t *c, void *elem)
{
    (void)ctx;
    (void)c;
    *(double *)elem = 0.0;
}

/* Does every rank keep the same block in plans f and b?  (local) */
static int same_blocks(const tile_plan *f, const tile_plan *b)
{
    tile_box x, y;
    int i, ok = tile_input_box(f, TILE_ALL_TILES, NULL, &x, NULL) == TILE_OK &&
                tile_input_box(b, TILE_ALL_TILES, NULL, &y, NULL) == TILE_OK;
    for (i = 0; ok && i < 3; i++)
        ok = x.lo[i] == y.lo[i] && x.len[i] == y.len[i];
    return ok;
}

typedef struct prog {
    tile_plan fw, bw;
    tile_field U, R;
    tile_map rhs;
} prog;

/* The program's objects for configuration c (upward): 1, -1 when the
 * forward plan is refused for its sizes (more processes than points), 0
 * on any other failure (why says it). */
static int prog_make(prog *p, const tile_config *c, const shape *s, char *why, size_t len)
{
    tile_config bc = *c;
    tile_field_config fc;
    tile_map_config mc;
    int i, rc;
    rc = tile_plan_create(&p->fw, MPI_COMM_WORLD, c);
    if (rc == TILE_ERR_TOO_MANY || rc == TILE_ERR_DEP_TOO_WIDE || rc == TILE_ERR_GRID)
        return -1;
    if (rc != TILE_OK) {
        snprintf(why, len, "rank %d: the forward plan: %s", myrank, p->fw.errmsg);
        return 0;
    }
    for (i = 0; i < 3; i++)
        bc.dir[i] = -1;
    for (i = 0; i < 2; i++)        /* the same grid, so the same blocks */
        bc.grid[i] = p->fw.pdims[i];
    rc = tile_plan_create(&p->bw, MPI_COMM_WORLD, &bc);
    if (rc == TILE_OK)
        rc = tile_field_config_plan(&fc, &p->fw);
    if (rc != TILE_OK) {
        snprintf(why, len, "rank %d: the backward plan: %s", myrank, p->bw.errmsg);
        return 0;
    }
    fc.ghost[0] = fc.ghost[1] = fc.ghost[2] = 1;
    if ((rc = tile_field_create(&p->U, MPI_COMM_WORLD, &fc)) != TILE_OK ||
        (rc = tile_field_create(&p->R, MPI_COMM_WORLD, &fc)) != TILE_OK) {
        snprintf(why, len, "rank %d: a field: %s", myrank, p->U.code ? p->U.errmsg : p->R.errmsg);
        return 0;
    }
    tile_field_fill(&p->U, fill_u, (void *)s, 1);
    tile_field_fill(&p->R, fill_zero, NULL, 1);
    tile_map_config_init(&mc, &p->U, &p->R);
    mc.reach[0] = mc.reach[1] = mc.reach[2] = 1;
    mc.star = 1;
    mc.threads = c->threads;
    mc.nsums = 2;
    if ((rc = tile_map_create(&p->rhs, &mc)) != TILE_OK ||
        (rc = tile_output_to_field(&p->fw, &p->R, NULL)) != TILE_OK ||
        (rc = tile_output_to_field(&p->bw, &p->R, NULL)) != TILE_OK) {
        snprintf(why, len, "rank %d: the map or tile_output_to_field: %s", myrank,
                 tile_strerror(rc));
        return 0;
    }
    return 1;
}

static void prog_free(prog *p)
{
    tile_map_destroy(&p->rhs);
    tile_plan_destroy(&p->fw);
    tile_plan_destroy(&p->bw);
    tile_field_destroy(&p->U);
    tile_field_destroy(&p->R);
}

/* One iteration: the map, the two sweeps. */
static void prog_step(prog *p)
{
    tile_field *U = &p->U, *R = &p->R;
    TILE_MAP_RUN(&p->rhs, double, it, {
        double r = TILE_IN(it, 0, 0, 0, 0) +
                   0.125 * (((TILE_IN(it, 0, -1, 0, 0) + TILE_IN(it, 0, 1, 0, 0)) +
                             (TILE_IN(it, 0, 0, -1, 0) + TILE_IN(it, 0, 0, 1, 0))) +
                            (TILE_IN(it, 0, 0, 0, -1) + TILE_IN(it, 0, 0, 0, 1)));
        TILE_OUT(it, 0) = r;
        TILE_SUM(it, 0) += r * r;
        TILE_SUM(it, 1) += r;
    });
    HYBRID_RUN(&p->fw, it, {
        TILE_AT(double, it, 0, 0, 0) =
            0.5 * *(const double *)tile_field_here(&it, R) +
            0.25 * ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0)) +
                    TILE_AT(double, it, 0, 0, -1));
    });
    HYBRID_RUN(&p->bw, it, {
        double v = 0.75 * *(const double *)tile_field_here(&it, R) -
                   0.125 * ((TILE_AT(double, it, 1, 0, 0) + TILE_AT(double, it, 0, 1, 0)) +
                            TILE_AT(double, it, 0, 0, 1));
        TILE_AT(double, it, 0, 0, 0) = v;
        *(double *)tile_field_here(&it, U) += 0.0625 * v;
    });
}

/* One random program: 1 if equal to the plain loops, 0 if not, -1 if the
 * configuration was refused (too many processes for its extents). */
static int sweep_case(const tile_config *c, int iters, char *why, size_t len)
{
    shape s;
    prog p;
    double *got = NULL, *want = NULL, sums[2 * 8 + 2], plain_sums[2 * 8 + 2];
    int64_t n;
    int t, ok, rc, nread = 0;
    s.ex = c->extent[0], s.ey = c->extent[1], s.ez = c->zlen;
    n = s.ex * s.ey * s.ez;
    memset(&p, 0, sizeof p);
    p.U.comm = p.R.comm = p.rhs.comm = MPI_COMM_NULL;
    ok = prog_make(&p, c, &s, why, len);
    if (ok <= 0) {
        prog_free(&p);
        return ok;
    }
    ok = same_blocks(&p.fw, &p.bw);
    if (!ok)
        snprintf(why, len, "rank %d: the backward plan's block is not the forward one's", myrank);
    for (t = 0; t < iters && ok; t++) {
        prog_step(&p);
        if (c->agree == TILE_AGREE_EACH_RUN) {  /* (else this rank's outcome: asked below) */
            ok = tile_plan_status(&p.fw) == TILE_OK && tile_plan_status(&p.bw) == TILE_OK;
            MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        }
        if (!ok)
            snprintf(why, len, "rank %d: %s", myrank, p.fw.errmsg[0] ? p.fw.errmsg : p.bw.errmsg);
        if (ok && reads_after(t, iters)) {
            ok = tile_map_sums(&p.rhs, sums + nread) == TILE_OK;
            nread += 2;
            if (!ok)
                snprintf(why, len, "rank %d: tile_map_sums: %s", myrank, p.rhs.errmsg);
        }
    }
    rc = tile_plan_agree(&p.fw);            /* collective: every rank, whatever ok */
    if (tile_plan_agree(&p.bw) != TILE_OK || rc != TILE_OK) {
        ok = 0;
        snprintf(why, len, "tile_plan_agree: %s", p.fw.errmsg[0] ? p.fw.errmsg : p.bw.errmsg);
    }
    rc = tile_map_agree(&p.rhs);
    got = (double *)malloc(sizeof(double) * (size_t)n);
    ok = ok && rc == TILE_OK && tile_field_gather(&p.U, 0, got) == TILE_OK;
    if (ok && myrank == 0) {
        want = (double *)malloc(sizeof(double) * (size_t)n);
        plain(&s, iters, want, plain_sums);
        ok = memcmp(got, want, sizeof(double) * (size_t)n) == 0;
        if (!ok)
            snprintf(why, len, "U differs from the plain loops");
        else if ((ok = memcmp(sums, plain_sums, sizeof(double) * (size_t)nread) == 0) == 0)
            snprintf(why, len, "the sums differ from the plain loops' (first %.17g vs %.17g)",
                     sums[0], plain_sums[0]);
    }
    free(got);
    free(want);
    prog_free(&p);
    return ok;
}

static void test_programs(void)
{
    int j, cases = 0, failed = 0, all, r, models[4] = {0};
    char why[512] = "", desc[256] = "";
    int full = check_cases(24, 8);
    for (j = 0; j < full; j++) {
        tile_config c;
        int iters = (int)check_rnd_in(1, 5);
        tile_config_init(&c, 2);
        c.extent[0] = 2 * check_rnd_in(1, 6) + 1;
        c.extent[1] = 2 * check_rnd_in(1, 6) + 1;
        c.zlen = 2 * check_rnd_in(0, 8) + 1;
        c.dep[0] = c.dep[1] = 1;
        c.depz = 1;
        c.tile_height = check_rnd_in(1, 5);
        c.model = j % 4;
        c.threads = c.model == TILE_MODEL_MPI ? 1 : (int)check_rnd_in(1, 3);
        c.order = (int)check_rnd_in(TILE_ORDER_PLANES, TILE_ORDER_AUTO);
        c.agree = (int)check_rnd_in(TILE_AGREE_EACH_RUN, TILE_AGREE_WHEN_ASKED);
        r = sweep_case(&c, iters, why, sizeof why);
        MPI_Allreduce(&r, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (all < 0)
            continue;
        cases++;
        models[c.model]++;
        if (all == 0 && !failed++)
            snprintf(desc, sizeof desc, "%lldx%lldx%lld z=%lld model=%s T=%d order=%d iters=%d "
                     "agree=%d", (long long)c.extent[0], (long long)c.extent[1],
                     (long long)c.zlen, (long long)c.tile_height, tile_model_name(c.model),
                     c.threads, c.order, iters, c.agree);
    }
    check_mpi(MPI_COMM_WORLD, failed == 0 && cases >= full / 2 &&
              (check_sampled() || (models[0] && models[1] && models[2] && models[3])),
              "%d programs (models %d/%d/%d/%d): a map and a forward and a backward sweep "
              "over fields, 1-5 iterations, the plans agreeing at each run or when asked, "
              "the blocks the same in both sweeps, U and the map's exact sums (read every "
              "other iteration) equal to the plain loops bitwise%s%s%s%s", cases, models[0], models[1], models[2],
              models[3], failed ? "; FIRST FAILURE: " : "", desc, failed ? ": " : "", why);
}

/* A plan over nprocs x 5 x 3 points with the grid P x 1. */
static int line_plan(tile_plan *p, int skew)
{
    tile_config c;
    tile_config_init(&c, 2);
    c.extent[0] = nprocs, c.extent[1] = 5, c.zlen = 3;
    c.grid[0] = nprocs, c.grid[1] = 1;
    if (skew) {                  /* reads (x + 1, y, z - 1): the plan skews */
        c.nstencil = 1;
        c.stencil[0][0] = 1, c.stencil[0][1] = 0, c.stencil[0][2] = -1;
        c.dep[0] = c.dep[1] = 0, c.depz = 0;
        c.grid[0] = c.grid[1] = 0;
    } else {
        c.dep[0] = c.dep[1] = 1, c.depz = 1;
    }
    return tile_plan_create(p, MPI_COMM_WORLD, &c);
}

/* A field of dims dimensions over nprocs x 5 x 3 with the grid g. */
static int line_field(tile_field *f, int dims, const int *g)
{
    tile_field_config fc;
    int i;
    tile_field_config_init(&fc, dims);
    fc.extent[0] = nprocs, fc.extent[1] = 5, fc.extent[2] = 3;
    for (i = 0; i < dims; i++)
        fc.grid[i] = g[i];
    return tile_field_create(f, MPI_COMM_WORLD, &fc);
}

static void test_refusals(void)
{
    tile_plan p, p2, sk;
    tile_field ok, flat, other;
    tile_field_config fc;
    int fits[3] = { 0, 1, 1 }, across[3] = { 1, 0, 1 }, two[2] = { 0, 0 }, rc, rc2, held;
    fits[0] = nprocs;
    across[1] = nprocs > 5 ? 0 : nprocs;
    check_mpi(MPI_COMM_WORLD, line_plan(&p, 0) == TILE_OK && line_field(&ok, 3, fits) == TILE_OK &&
              line_field(&flat, 2, two) == TILE_OK && line_field(&other, 3, across) == TILE_OK,
              "the refusals' plan and fields are made");
    rc = tile_output_to_field(&p, &flat, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_RANGE, "tile_output_to_field: a field of 2 "
              "dimensions for a plan of N + 1 = 3 is refused on every rank (%d)", rc);
    rc = tile_output_to_field(&p, &other, NULL);
    check_mpi(MPI_COMM_WORLD, nprocs == 1 ? rc == TILE_OK : rc == TILE_ERR_RANGE,
              "tile_output_to_field: a field cut along another dimension than the plan is "
              "refused on every rank (at 1 process it fits) (%d)", rc);
    rc = tile_output_to_field(&p, &ok, NULL);
    rc2 = tile_field_destroy(&ok);
    held = rc2 == TILE_ERR_ARG && strstr(ok.errmsg, "plan") != NULL;
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && held, "a field that a plan writes is not "
              "destroyed (%d, %d): %s", rc, rc2, ok.errmsg);
    rc = tile_output_to(&p, NULL, NULL, NULL);
    rc2 = tile_field_destroy(&ok);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && rc2 == TILE_OK, "once the plan's output "
              "stops, the field is destroyed (%d, %d)", rc, rc2);
    rc = line_field(&ok, 3, fits);
    rc = rc == TILE_OK ? tile_output_to_field(&p, &ok, NULL) : rc;
    tile_plan_destroy(&p);
    rc2 = tile_field_destroy(&ok);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && rc2 == TILE_OK, "the plan's destruction ends "
              "its use of the field (%d, %d)", rc, rc2);
    rc = line_plan(&p2, 0) == TILE_OK ? line_field(&ok, 3, fits) : -1;
    rc2 = rc == TILE_OK ? tile_field_fits(&p2, &other, NULL) : rc;
    rc = rc == TILE_OK ? tile_field_fits(&p2, &ok, NULL) : rc;
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && (nprocs == 1 ? rc2 == TILE_OK :
              rc2 == TILE_ERR_RANGE && strstr(p2.errmsg, "rank 0: along dimension 2") != NULL),
              "tile_field_fits: the plan's own shape fits, a field cut along another "
              "dimension does not, on every rank, the reason on every rank (%d, %d): %s",
              rc, rc2, p2.errmsg);
    tile_field_destroy(&ok);
    tile_plan_destroy(&p2);
    rc = line_plan(&sk, 1);
    rc2 = rc == TILE_OK ? tile_output_to_field(&sk, &other, NULL) : rc;
    rc = rc == TILE_OK ? tile_field_config_plan(&fc, &sk) : rc;
    check_mpi(MPI_COMM_WORLD, sk.deps.skewed && rc == TILE_ERR_SKEWED && rc2 == TILE_ERR_SKEWED,
              "a skewed plan has no field of its shape and writes into none (%d, %d)", rc, rc2);
    tile_plan_destroy(&sk);
    tile_field_destroy(&flat);
    tile_field_destroy(&other);
}

/* A map from a to b over nprocs x 5 with nsums sums (this rank's count). */
static int sum_map(tile_map *m, tile_field *a, tile_field *b, int nsums)
{
    tile_map_config mc;
    tile_map_config_init(&mc, a, b);
    mc.nsums = nsums;
    return tile_map_create(m, &mc);
}

static void test_sum_refusals(void)
{
    tile_field a, b;
    tile_map m;
    int g[2] = { 0, 0 }, rc, rc2, line;
    double v[2] = { -1, -1 };
    check_mpi(MPI_COMM_WORLD, line_field(&a, 2, g) == TILE_OK && line_field(&b, 2, g) == TILE_OK,
              "the sums' fields are made");
    tile_field_fill(&a, fill_zero, NULL, 1);
    rc = sum_map(&m, &a, &b, TILE_MAP_MAX_SUMS + 1);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_RANGE && strstr(m.errmsg, "nsums") != NULL,
              "nsums past TILE_MAP_MAX_SUMS is refused: %s", m.errmsg);
    tile_map_destroy(&m);
    rc = sum_map(&m, &a, &b, myrank == nprocs - 1 ? 1 : 2);
    check_mpi(MPI_COMM_WORLD, nprocs == 1 ? rc == TILE_OK : rc == TILE_ERR_MISMATCH,
              "nsums that differ between ranks are refused on every rank: %s", m.errmsg);
    tile_map_destroy(&m);
    rc = sum_map(&m, &a, &b, 0);
    rc2 = rc == TILE_OK ? tile_map_sums(&m, v) : rc;
    check_mpi(MPI_COMM_WORLD, rc2 == TILE_ERR_RANGE && v[0] == -1,
              "tile_map_sums on a map without sums is refused: %s", m.errmsg);
    tile_map_destroy(&m);
    rc = sum_map(&m, &a, &b, 2);
    line = __LINE__ + 3;
    TILE_MAP_RUN(&m, double, it, {
        TILE_OUT(it, 0) = 1.0;
        TILE_SUM(it, myrank == 0 ? 2 : 1) += 1.0;
    });
    rc2 = tile_map_sums(&m, v);
    {
        char at[32];
        snprintf(at, sizeof at, ":%d", line);
        check_mpi(MPI_COMM_WORLD, rc == TILE_OK && rc2 == TILE_ERR_ACCESS && v[0] == -1 &&
                  strstr(m.errmsg, at) != NULL && strstr(m.errmsg, "TILE_SUM") != NULL &&
                  (nprocs == 1 || strstr(m.errmsg, "rank 0") != NULL),
                  "a TILE_SUM of a sum the map does not keep (on rank 0) fails tile_map_sums "
                  "on every rank, naming the line and the rank: %s", m.errmsg);
    }
    tile_map_destroy(&m);
    tile_field_destroy(&a);
    tile_field_destroy(&b);
}

#ifdef TILE_CHECK_ACCESS
/* A plan reading, at its points, a field cut along another dimension. */
static void test_checked_read(void)
{
    tile_plan p;
    tile_field other;
    int across[3] = { 1, 0, 1 }, rc;
    across[1] = nprocs > 5 ? 0 : nprocs;
    rc = line_plan(&p, 0) == TILE_OK && line_field(&other, 3, across) == TILE_OK;
    tile_field_fill(&other, fill_zero, NULL, 1);
    if (rc)
        HYBRID_RUN(&p, it, {
            TILE_AT(double, it, 0, 0, 0) = *(const double *)tile_field_here(&it, &other) +
                                           TILE_AT(double, it, -1, 0, 0);
        });
    rc = rc ? tile_plan_status(&p) : -1;
    check_mpi(MPI_COMM_WORLD, nprocs == 1 ? rc == TILE_OK : rc == TILE_ERR_ACCESS &&
              strstr(p.errmsg, "tile_field_here: the point") != NULL,
              "TILE_CHECK_ACCESS: tile_field_here of a field cut along another dimension "
              "fails the run on every rank, naming the point (at 1 process it fits) (%d): %s",
              rc, p.errmsg);
    tile_plan_destroy(&p);
    tile_field_destroy(&other);
}
#endif

int main(int argc, char **argv)
{
    if (!check_hybrid_init(&argc, &argv, 3, &myrank, &nprocs))
        return 1;
    check_rng_seed(check_seed(20261207));
    test_programs();
    test_refusals();
    test_sum_refusals();
#ifdef TILE_CHECK_ACCESS
    test_checked_read();
#endif
    MPI_Finalize();
    return check_exit();
}
