/* tests/mpi_stencil.c -- declared stencils (diagonal reads) and downward
 * loops, in every model, against a plain sequential loop, bitwise.
 *
 * Many random small configurations (the same on every rank): N = 1, 2, 3,
 * 1-5 random offset vectors with components -2..0 along the loop's
 * direction (diagonals in every plane, Z included), every dimension
 * randomly upward or downward (the vectors then point the other way in the
 * user's coordinates), extents not divisible by the grid or by the tile
 * height, tile heights larger than Z, every model with 1-3 threads.  With
 * full storage every point this rank owns is compared with the sequential
 * value; with the Z window the sum of the bit patterns of every computed
 * point is.  Then the refusals: a read of a later point, the point itself,
 * a stencil beside dep[], a direction that is not +-1, malformed stencil
 * text, and a TILE_AT whose type is not the element size (always checked).
 * The row-at-once boundary (cfg.boundary_row): random and fixed cases
 * (skewed, downward, every order forced, every model) run once with the
 * per-point boundary and once with the row one, both bitwise equal to the
 * sequential loop and both filling the same points (each rank logs every
 * point either callback fills; the two logs, sorted, are equal); both set
 * is TILE_ERR_ARG, a hook kind that differs between ranks
 * TILE_ERR_MISMATCH.  Run at 1-4 processes by tests/run.sh.
 */
#include <mpi.h>

#include "../hybrid.h"
#include "check.h"

#include <limits.h>
#include <string.h>

#ifdef TILE_CHECK_ACCESS
#define CHECKED "with TILE_CHECK_ACCESS"
#else
#define CHECKED "without TILE_CHECK_ACCESS"
#endif

static int nprocs, myrank;
static int next_order;          /* the in-tile order of the next random configuration */
static int last_order = -1;     /* the order one_case's last plan ran (plan.store.order) */

/* Deterministic generator, identical on every rank. */

/* The point update, the same expression in the same order for the toolkit
 * (READ through TILE_AT) and for the sequential loop. */
#define UPDATE(READ, CX)                                                          \
    double v = 0.1 + 0.001 * (double)((CX) % 13);                                 \
    int k_;                                                                       \
    for (k_ = 0; k_ < cfg->nstencil; k_++)                                        \
        v = 0.5 * v + 0.3 * READ(cfg->stencil[k_]);

/* The plain sequential loop in the user's own order: every dimension runs
 * in its direction, Z outermost, X_N innermost.  Points outside the space
 * read as check_edge_value. */
static void seq_run(check_seq *s, const tile_config *cfg)
{
    int n = cfg->n, i, order[4];
    int64_t c[4], step[4], total = check_seq_init(s, cfg), idx;
    /* the declared loop order, or Z outermost, then X_1 ... X_N */
    order[0] = n;
    for (i = 0; i < n; i++)
        order[i + 1] = i;
    if (cfg->loop_order[0] >= 0)
        for (i = 0; i <= n; i++)
            order[i] = cfg->loop_order[i];
    for (idx = 0; idx < total; idx++) {
        int64_t r = idx;
        for (i = n; i >= 0; i--) {
            int d = order[i];
            step[d] = r % s->ext[d];
            r /= s->ext[d];
            c[d] = cfg->dir[d] > 0 ? step[d] : s->ext[d] - 1 - step[d];
        }
        {
#define SEQ_READ(o) check_seq_read(s, c, (o), check_edge_value)
            UPDATE(SEQ_READ, c[0] + c[n])
            s->a[check_seq_index(s, c)] = v;
#undef SEQ_READ
        }
    }
}


#define R1(o) TILE_AT(double, it, (o)[0], (o)[1])
#define R2(o) TILE_AT(double, it, (o)[0], (o)[1], (o)[2])
#define R3(o) TILE_AT(double, it, (o)[0], (o)[1], (o)[2], (o)[3])
CHECK_DEFINE_RUNS(UPDATE, R1, R2, R3)

/* A random stencil: vectors with components -2..0 along the directions,
 * not all 0, written in the user's coordinates. */
static void random_config(tile_config *cfg, int n)
{
    int i, k, skew, lo[4];
    tile_config_init(cfg, n);
    for (i = 0; i < n; i++)
        cfg->extent[i] = check_rnd_in(2, n == 1 ? 30 : n == 2 ? 12 : 7);
    cfg->zlen = check_rnd_in(1, n == 1 ? 40 : n == 2 ? 16 : 7);
    for (i = 0; i <= n; i++)
        cfg->dir[i] = check_rnd_in(0, 2) == 0 ? -1 : 1;
    for (i = 0; i < n; i++)
        cfg->dep[i] = 0;
    cfg->depz = 0;
    cfg->nstencil = (int)check_rnd_in(1, 5);
    skew = check_rnd_in(0, 2) == 0;   /* a third: vectors later along some dimension */
    if (skew && check_rnd_in(0, 1)) {  /* half of those: a random loop order */
        for (i = 0; i <= n; i++)
            cfg->loop_order[i] = i;
        for (i = n; i > 0; i--) {
            int j = (int)check_rnd_in(0, i), t = cfg->loop_order[i];
            cfg->loop_order[i] = cfg->loop_order[j];
            cfg->loop_order[j] = t;
        }
    }
    for (i = 0; i <= n; i++)
        lo[i] = skew && cfg->loop_order[0] >= 0 ? cfg->loop_order[i] : i == 0 ? n : i - 1;
    for (k = 0; k < cfg->nstencil; k++) {
        int first;
        do {   /* u: the distance along the loop's direction, earlier < 0 */
            first = 0;
            for (i = 0; i <= n; i++) {
                int d = lo[i];
                int u = (int)check_rnd_in(0, 3) == 0 ? 0
                        : skew ? (int)check_rnd_in(d < n ? -2 : -1, d < n ? 2 : 1)
                               : -(int)check_rnd_in(0, d < n ? 2 : 1);
                cfg->stencil[k][d] = u * cfg->dir[d];
                if (first == 0)
                    first = u;
            }
        } while (first >= 0);
    }
    cfg->tile_height = check_rnd_in(1, cfg->zlen + 3);
    cfg->model = (int)check_rnd_in(TILE_MODEL_MPI, TILE_MODEL_MULTIPLE);
    cfg->threads = cfg->model == TILE_MODEL_MPI ? 1 : (int)check_rnd_in(1, 3);
    cfg->balance.bal = (double)check_rnd_in(0, 100) / 100.0;
    check_rnd_finish(cfg, nprocs, &next_order);
}

/* 1: ran and matched; 0: failed; -1: rightly refused (sizes). */
static int deps_cases, deps_differ;   /* tile_config_deps() against the plans' */

/* tile_config_deps(cfg) derives what the plan derived (plan.deps). */
static int same_deps(const tile_config *cfg, const tile_deps *want)
{
    tile_deps d;
    char msg[320];
    if (tile_config_deps(cfg, &d, msg, sizeof msg) != TILE_OK)
        return 0;
    return d.skewed == want->skewed && d.dz == want->dz &&
           memcmp(d.d, want->d, sizeof d.d) == 0 && memcmp(d.ext, want->ext, sizeof d.ext) == 0 &&
           memcmp(d.size, want->size, sizeof d.size) == 0 &&
           memcmp(d.m, want->m, sizeof d.m) == 0 && memcmp(d.c, want->c, sizeof d.c) == 0 &&
           memcmp(d.off, want->off, sizeof d.off) == 0;
}

static int one_case(int n, tile_config *cfg, char *why, size_t whylen)
{
    tile_plan plan;
    tile_reduction acc;
    check_seq s;
    int rc, ok, all;
    uint64_t sum = 0;
    rc = check_case_plan(&plan, cfg, &acc, why, whylen);
    if (rc != 1)
        return rc;
    last_order = plan.store.order;
    deps_cases++;
    deps_differ += !same_deps(cfg, &plan.deps);
    run_n(n, &plan, cfg, &acc);
    ok = tile_plan_status(&plan) == TILE_OK;
    if (!ok)
        snprintf(why, whylen, "run failed: %.200s", plan.errmsg);
    seq_run(&s, cfg);
    sum = myrank == 0 ? acc.u64 : 0;   /* the total on every rank: count it once */
    ok = check_seq_compare(&plan, &s, sum, ok, why, whylen);
    free(s.a);
    tile_plan_destroy(&plan);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
}

static void describe(const tile_config *c, char *buf, size_t len)
{
    int i, k, o = check_describe_space(c, buf, len);
    o += snprintf(buf + o, len - (size_t)o, " stencil");
    for (k = 0; k < c->nstencil; k++)
        for (i = 0; i <= c->n; i++)
            o += snprintf(buf + o, len - (size_t)o, "%s%d", i ? "," : " ", c->stencil[k][i]);
    snprintf(buf + o, len - (size_t)o, " z=%lld model=%s T=%d storage=%d order=%d grid0=%d",
             (long long)c->tile_height, tile_model_name(c->model), c->threads, c->storage,
             c->order, c->grid[0]);
}

/* Random configurations for N = n. */
static void random_cases(int n)
{
    int cases = 0, rejected = 0, failed = 0, diagonal = 0, downward = 0, skewed = 0, k;
    int const ncases = check_cases(60, 16);
    char why[512] = "", desc[512] = "";
    deps_cases = deps_differ = 0;
    for (k = 0; k < ncases; k++) {
        tile_config cfg;
        int r, i, j;
        r = check_random_case(n, &cfg, random_config, one_case, why, sizeof why, &cases,
                              &rejected);
        if (r < 0)
            continue;
        for (j = 0; j < cfg.nstencil; j++) {
            int nz = 0, later = 0;
            for (i = 0; i <= n; i++) {
                nz += cfg.stencil[j][i] != 0;
                later |= cfg.stencil[j][i] * cfg.dir[i] > 0;
            }
            diagonal += nz > 1;
            skewed += later;
        }
        for (i = 0; i <= n; i++)
            downward += cfg.dir[i] < 0;
        if (!r && !failed++)
            describe(&cfg, desc, sizeof desc);
    }
    /* the kinds of stencil every full run draws (a quick tier's sample may
     * miss one) */
    check_mpi(MPI_COMM_WORLD, failed == 0 && cases >= check_cases(20, 1) &&
                  (check_sampled() || (diagonal > 0 && downward > 0 && skewed > 0)),
              "N=%d: %d random stencils (%d diagonal vectors, %d later along some "
              "dimension: skewed, %d downward dimensions) bitwise equal to the sequential "
              "loop, %d refused for their sizes%s%s%s%s", n, cases, diagonal, skewed, downward,
              rejected, failed ? "; FIRST FAILURE: " : "", desc,
              failed ? ": " : "", failed ? why : "");
    check_mpi(MPI_COMM_WORLD, deps_cases >= check_cases(20, 1) && deps_differ == 0,
              "N=%d: tile_config_deps() derives the plan's widths, extensions, skewed "
              "extents, maps and offsets (%d of %d differ)", n, deps_differ, deps_cases);
}

/* A plan that must be refused with code and a message containing want. */
static void expect_refused(tile_config *c, int code, const char *want, const char *what)
{
    tile_plan p;
    tile_deps d;
    char msg[320];
    int rc = tile_plan_create(&p, MPI_COMM_WORLD, c);
    int rd = tile_config_deps(c, &d, msg, sizeof msg);   /* the same refusal, without MPI */
    check_mpi(MPI_COMM_WORLD, rc == code && strstr(p.errmsg, want) != NULL && rd == code &&
              strstr(msg, want) != NULL, "%s is refused (%s): %s; tile_config_deps: %s", what,
              tile_strerror(code), p.errmsg, msg);
    tile_plan_destroy(&p);
}

static void refusals(void)
{
    tile_config c;
    tilehybrid_status st;
    int rc;
    check_config(&c, 2, 6, 6, 5);
    {
        tile_deps d;
        char msg[64];
        check_mpi(MPI_COMM_WORLD, tile_config_deps(NULL, &d, msg, sizeof msg) == TILE_ERR_NULL &&
                  strstr(msg, "cfg is NULL") != NULL && tile_config_deps(&c, NULL, NULL, 0) ==
                  TILE_ERR_NULL, "tile_config_deps refuses a NULL cfg or deps (%s)", msg);
    }
    /* the text form */
    rc = tile_config_stencil(&c, " -1,-1,0  0,-1,0\t0,0,-1 ", &st);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && c.nstencil == 3 && c.stencil[0][0] == -1 && c.stencil[0][1] == -1 &&
          c.stencil[2][2] == -1 && c.dep[0] == 0 && c.dep[1] == 0 && c.depz == 0,
          "tile_config_stencil reads \"-1,-1,0 0,-1,0 0,0,-1\" and clears dep[], depz");
    {
        static const char *const bad[5] = { "-1,-1", "-1,-1,0,0", "-1,x,0", "", "-1,-1,0,"};
        int i, all = 1, n3 = c.nstencil;
        for (i = 0; i < 5; i++) {
            rc = tile_config_stencil(&c, bad[i], &st);
            all &= rc == TILE_ERR_STENCIL && c.nstencil == n3;
        }
        check_mpi(MPI_COMM_WORLD, all, "tile_config_stencil refuses 3 numbers short, one too many, a non-number, "
              "nothing, a trailing comma (TILE_ERR_STENCIL, cfg unchanged)");
    }
    tile_config_stencil(&c, "1,0,0", NULL);
    expect_refused(&c, TILE_ERR_STENCIL, "stencil vector 1 (1,0,0) reads a later point along "
                   "dimension 1", "a read of a later point (a read ahead)");
    tile_config_stencil(&c, "0,0,0 0,0,-1", NULL);
    expect_refused(&c, TILE_ERR_STENCIL, "is the point itself", "the point itself as a read");
    tile_config_stencil(&c, "0,0,-1", NULL);
    c.dep[1] = 1;
    expect_refused(&c, TILE_ERR_DEP, "dep[1] = 1 with a stencil", "a stencil beside dep[]");
    c.dep[1] = 0;
    c.dir[2] = 0;
    expect_refused(&c, TILE_ERR_STENCIL, "dir[2] = 0", "a loop direction of 0");
    c.dir[2] = 1;
    tile_config_stencil(&c, "0,0,-1", NULL);
    c.loop_order[0] = 0;
    c.loop_order[1] = 0;
    c.loop_order[2] = 1;
    expect_refused(&c, TILE_ERR_STENCIL, "loop_order[1] = 0", "a loop order that names a "
                   "dimension twice");
    c.loop_order[1] = 1;
    c.loop_order[2] = 2;
    tile_config_stencil(&c, "-1,1,0", NULL);   /* fine in this order (x outermost) */
    {
        tile_plan p;
        int rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
        check_mpi(MPI_COMM_WORLD, rc == TILE_OK && p.deps.skewed, "(-1,1,0) with x outermost "
                  "is earlier in the loop: the plan skews (%s)", p.errmsg);
        tile_plan_destroy(&p);
    }
    c.loop_order[0] = 1;
    c.loop_order[1] = 0;
    expect_refused(&c, TILE_ERR_STENCIL, "reads a later point along dimension 2", "(-1,1,0) "
                   "with y outermost: a read ahead");
    c.loop_order[0] = c.loop_order[1] = c.loop_order[2] = -1;
    tile_config_stencil(&c, "0,0,-64", NULL);
    expect_refused(&c, TILE_ERR_DEP, "too large along Z", "a distance beyond TILE_MAX_DEPZ");
    /* INT_MIN on a downward dimension: -INT_MIN would overflow */
    c.dir[0] = -1;
    tile_config_stencil(&c, "0,0,-1", NULL);
    c.stencil[0][0] = INT_MIN;
    expect_refused(&c, TILE_ERR_DEP, "is too large (at most", "INT_MIN on a downward dimension "
                   "(no signed overflow: UBSan runs this too)");
    c.dir[0] = 1;
}

/* A TILE_AT with other than N + 1 offsets: checked without
 * TILE_CHECK_ACCESS too (this file does not define it). */
static void wrong_offset_count(void)
{
    tile_config c;
    tile_plan p;
    int rc;
    check_config(&c, 1, 5, 0, 4);
    c.dep[0] = 1;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (rc == TILE_OK) {
        TILE_FOREACH_GROUP(&p, g)
            TILE_MPI_STEP(g, it, {
                double a = TILE_AT(double, it, -1, 0, 0);   /* 3 offsets on N + 1 = 2 */
                TILE_AT(double, it, 0, 0) = a;
            });
    }
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && tile_plan_status(&p) == TILE_ERR_ACCESS &&
              strstr(p.errmsg, "3 offsets") != NULL &&
              strstr(p.errmsg, "the plan has N + 1 = 2 dimensions") != NULL &&
              strstr(p.errmsg, "mpi_stencil.c:") != NULL,
              "TILE_AT with 3 offsets in a 2-dimensional plan (%s): TILE_ERR_ACCESS with the "
              "source line: %s", CHECKED, p.errmsg);
    tile_plan_destroy(&p);
}

#ifdef TILE_CHECK_ACCESS
/* One pure MPI run of A(x, z) = A(x - 1, z) + A(x, z - 1) + 1 on 5 x 6
 * (full storage), with @what happening at the point (2, 3):
 * 0 nothing, 1 the body writes nothing, 2 it continues before the write,
 * 3 it reads its own point before writing it. */
static int odd_body(tile_plan *p, int what)
{
    tile_config c;
    int rc;
    check_config(&c, 1, 5, 0, 6);
    c.dep[0] = 1;
    c.depz = 1;
    c.storage = TILE_STORE_FULL;
    rc = tile_plan_create(p, MPI_COMM_WORLD, &c);
    if (rc != TILE_OK)
        return rc;
    TILE_FOREACH_GROUP(p, g)
        TILE_MPI_STEP(g, it, {
            int here = tile_coord(&it, 0) == 2 && tile_coord(&it, 1) == 3;
            double v = TILE_AT(double, it, -1, 0) + TILE_AT(double, it, 0, -1) + 1.0;
            if (here && what == 1)
                continue;
            if (here && what == 2)
                v = TILE_AT(double, it, 0, 0);   /* copies the poison back */
            if (here && what == 3)
                v += TILE_AT(double, it, 0, 0);
            if (here && what == 4) {
                TILE_AT(double, it, 0, 0) += v;
                continue;
            }
            TILE_AT(double, it, 0, 0) = v;
            if (here && what == 5)   /* a write, a read back, a second write */
                TILE_AT(double, it, 0, 0) = TILE_AT(double, it, 0, 0) * 0.5 + v * 0.5;
        });
    return tile_plan_status(p);
}

/* Does any rank hold a NaN at point c? */
static int nan_at(const tile_plan *p, int64_t x, int64_t z)
{
    int64_t c[2];
    double v = 0.0;
    int mine, any;
    c[0] = x;
    c[1] = z;
    mine = tile_get(p, c, &v) == TILE_OK && v != v;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return any;
}

/* TILE_CHECK_ACCESS poisons each point before the body: a point left
 * unwritten is an error, a read before the write shows as NaN. */
static void checked_points(void)
{
    tile_plan p;
    int rc;
    rc = odd_body(&p, 0);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK, "TILE_CHECK_ACCESS: a body that writes every point "
              "runs clean (%s)", p.errmsg);
    tile_plan_destroy(&p);
    rc = odd_body(&p, 1);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_BODY && strstr(p.errmsg, "did not write its point "
              "(2,3)") != NULL, "TILE_CHECK_ACCESS: a continue before the write at (2,3): "
              "TILE_ERR_BODY naming the point: %s", p.errmsg);
    tile_plan_destroy(&p);
    rc = odd_body(&p, 2);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_ACCESS && strstr(p.errmsg, "point (2,3): the "
              "point itself (offset 0), used at") != NULL && strstr(p.errmsg, "a read of the "
              "point before its write") != NULL, "TILE_CHECK_ACCESS: a body that copies its "
              "point's old value back at (2,3): a read before the write, TILE_ERR_ACCESS "
              "naming the point and both lines: %s", p.errmsg);
    tile_plan_destroy(&p);
    rc = odd_body(&p, 3);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_ACCESS && strstr(p.errmsg, "point (2,3)") != NULL &&
              strstr(p.errmsg, "a read of the point before its write") != NULL,
              "TILE_CHECK_ACCESS: `v += TILE_AT(0, 0)` before the write at (2,3): a read "
              "before the write, TILE_ERR_ACCESS naming the point: %s", p.errmsg);
    tile_plan_destroy(&p);
    rc = odd_body(&p, 4);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_ACCESS && strstr(p.errmsg, "point (2,3) from the "
              "point's own value before writing it") != NULL, "TILE_CHECK_ACCESS: `TILE_AT(0, 0) "
              "+= v`, one use of the point, reads the poison: the point holds its NaN, quieted, "
              "TILE_ERR_ACCESS naming (2,3) (it was a NaN in the results, status 0): %s",
              p.errmsg);
    tile_plan_destroy(&p);
    rc = odd_body(&p, 5);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && !nan_at(&p, 2, 3), "TILE_CHECK_ACCESS: a "
              "write, then a read of the point and a second write: no false alarm (%s)", p.errmsg);
    tile_plan_destroy(&p);
}
#endif

/* An error found on one rank, or a value that differs between ranks: the
 * same code, argument, index, rank and message on every rank. */
static void same_status_everywhere(void)
{
    tile_config c;
    tile_plan p;
    uint64_t mine[4], lo[4], hi[4];
    int rc;
    if (nprocs < 2) {
        check_skip("one rank: nothing to compare across ranks", "status on every rank");
        check_skip("one rank: nothing to compare across ranks", "mismatch status");
        return;
    }
    tile_config_init(&c, 2);
    c.extent[0] = c.extent[1] = 8;
    c.zlen = 5;
    c.dep[0] = c.dep[1] = 1;
    c.depz = 1;
    c.boundary = check_edge_n;
    if (myrank == nprocs - 1)
        c.dep[1] = -3;                          /* only the last rank's is bad */
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    mine[0] = (uint64_t)rc;
    mine[1] = (uint64_t)p.status.index;
    mine[2] = (uint64_t)(int64_t)p.status.rank;
    mine[3] = (uint64_t)strlen(p.errmsg) * 31 + (p.status.arg && !strcmp(p.status.arg, "dep"));
    MPI_Allreduce(mine, lo, 4, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(mine, hi, 4, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_DEP && p.status.index == 1 &&
              p.status.rank == nprocs - 1 && p.status.arg && !strcmp(p.status.arg, "dep") &&
              !memcmp(lo, hi, sizeof lo),
              "dep[1] bad on the last rank only: every rank has code, arg 'dep', index 1, "
              "rank %d and the message: %s", nprocs - 1, p.errmsg);
    tile_plan_destroy(&p);
    c.dep[1] = 1;
    c.extent[1] = myrank == 0 ? 8 : 9;          /* differs: no one rank is at fault */
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_MISMATCH && p.status.index == 1 &&
              p.status.rank == -1 && p.status.arg && !strcmp(p.status.arg, "extent") &&
              strstr(p.errmsg, "'extent[1]' differs between ranks (8 vs 9)") != NULL,
              "extent[1] 8 on rank 0, 9 elsewhere: TILE_ERR_MISMATCH, arg 'extent', index 1 "
              "(the argument's), rank -1: %s", p.errmsg);
    tile_plan_destroy(&p);
}

/* A NULL plan or cfg on the last rank only: every rank fails, none waits. */
static void null_on_one_rank(void)
{
    tile_config c;
    tile_plan p;
    int rc, last = myrank == nprocs - 1;
    tile_config_init(&c, 1);
    c.extent[0] = 8;
    c.zlen = 4;
    rc = tile_plan_create(last ? NULL : &p, MPI_COMM_WORLD, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_NULL && (last || (strstr(p.errmsg, "plan is NULL") &&
              p.status.rank == nprocs - 1)), "a NULL plan on rank %d only: TILE_ERR_NULL on "
              "every rank, no hang (%s)", nprocs - 1, last ? "" : p.errmsg);
    if (!last)
        tile_plan_destroy(&p);
    rc = tile_plan_create(&p, MPI_COMM_WORLD, last ? NULL : &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_NULL && strstr(p.errmsg, "cfg is NULL") &&
              p.status.rank == nprocs - 1 && !strcmp(p.status.arg, "cfg"), "a NULL cfg on rank "
              "%d only: TILE_ERR_NULL, arg 'cfg', on every rank, no hang (%s)", nprocs - 1,
              p.errmsg);
    tile_plan_destroy(&p);
}

/* The pure MPI body that returns out of the run (one process: nothing
 * waits for it): tile_plan_status() says TILE_ERR_BODY at once (GCC, Clang
 * and C++ see the return), and the plan's next run is refused with it
 * (more processes: the job ends, tests/cli_return.sh).  Where
 * the step macros put the body in an `omp simd` loop (OpenMP, and neither
 * TILE_CHECK_ACCESS nor TILE_NO_SIMD), the compiler refuses the return:
 * then only tests/mpi_stencil_checked.c runs this. */
#if defined(_OPENMP) && !defined(TILE_CHECK_ACCESS) && !defined(TILE_NO_SIMD)
static void return_in_body(void)
{
    if (myrank == 0)
        check_skip("the body is in an omp simd loop here, where the compiler refuses a return "
                   "(tests/mpi_stencil_checked.c runs this)", "return in the body");
}
#else
static int run_and_return(tile_plan *p)
{
    TILE_FOREACH_GROUP(p, g)
        TILE_MPI_STEP(g, it, {
            if (tile_coord(&it, 1) == 2)
                return 1;
            TILE_AT(double, it, 0, 0) = 1.0 + TILE_AT(double, it, -1, 0);
        });
    return 0;
}

static void return_in_body(void)
{
    tile_config c;
    tile_plan p;
    int rc, left, at_once;
    if (nprocs > 1) {
        if (myrank == 0)
            check_skip("a return ends the job at more than 1 process (tests/cli_return.sh)",
                   "return in the body");
        return;
    }
    check_config(&c, 1, 5, 0, 6);
    c.dep[0] = 1;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    left = rc == TILE_OK && run_and_return(&p);
    at_once = tile_plan_status(&p) == TILE_ERR_BODY &&
              strstr(p.errmsg, "a return (or goto) left the body of the previous run") != NULL;
    check_mpi(MPI_COMM_WORLD, left && at_once, "a return out of the body: tile_plan_status() "
              "says TILE_ERR_BODY after the run: %s", p.errmsg);
    if (left)
        left = run_and_return(&p) == 0;     /* refused: the body does not run */
    check_mpi(MPI_COMM_WORLD, left && tile_plan_status(&p) == TILE_ERR_BODY &&
              strstr(p.errmsg, "a return (or goto) left the body of the previous run") != NULL,
              "a return out of the body: the plan's next run is refused with TILE_ERR_BODY: %s",
              p.errmsg);
    tile_plan_destroy(&p);
}
#endif

/* A downward loop reads A(x + 1): (1,0,0) with dir[0] = -1 runs. */
static void downward_read(void)
{
    tile_config c;
    int ok;
    char why[512] = "";
    check_config(&c, 2, 7, 5, 9);
    c.tile_height = 2;
    c.dir[0] = -1;
    tile_config_stencil(&c, "1,0,0 1,-1,0 0,0,-1", NULL);
    c.storage = TILE_STORE_FULL;
    ok = one_case(2, &c, why, sizeof why);
    check_mpi(MPI_COMM_WORLD, ok == 1, "dir[0] = -1: the body reads A(x+1, y) and A(x+1, y-1) "
              "(earlier points of a downward loop), bitwise equal%s%s", ok ? "" : ": ", why);
}

/* ------------------------------------------------------------------------ */
/* The row-at-once boundary (cfg.boundary_row)                              */

/* Every boundary point a plan fills on this rank, one entry per fill (the
 * callback's thread-safety: under OpenMP the entries are appended in a
 * critical section), and what the row callback was given that the
 * contract forbids: a count below 1, a point inside the space. */
typedef struct edge_log {
    int n;
    int64_t ext[4];
    int64_t (*c)[4];
    size_t len, cap;
    int nomem, bad_count, inside;
} edge_log;
static edge_log elog;

static void log_start(const tile_config *cfg)
{
    int i;
    memset(&elog, 0, sizeof elog);
    elog.n = cfg->n;
    for (i = 0; i < cfg->n; i++)
        elog.ext[i] = cfg->extent[i];
    elog.ext[cfg->n] = cfg->zlen;
}

static void log_point(const int64_t *c)
{
    int i, in = 1;
    for (i = 0; i <= elog.n; i++)
        in &= c[i] >= 0 && c[i] < elog.ext[i];
#ifdef _OPENMP
#pragma omp critical(mpi_stencil_log)
#endif
    {
        elog.inside += in;
        if (elog.len == elog.cap && !elog.nomem) {
            size_t cap = elog.cap ? 2 * elog.cap : 1024;
            int64_t (*m)[4] = (int64_t (*)[4])realloc(elog.c, cap * sizeof *m);
            if (m == NULL)
                elog.nomem = 1;
            else {
                elog.c = m;
                elog.cap = cap;
            }
        }
        if (elog.len < elog.cap) {
            memset(elog.c[elog.len], 0, sizeof elog.c[0]);
            memcpy(elog.c[elog.len], c, sizeof(int64_t) * (size_t)(elog.n + 1));
            elog.len++;
        }
    }
}

/* check_edge_n, logged. */
static void rec_edge(void *out, const int64_t *c, void *ctx)
{
    check_edge_n(out, c, ctx);
    log_point(c);
}

/* The same values a row per call: point e at c + e * s, logged. */
static void rec_edge_row(void *out, ptrdiff_t stride, int64_t count, const int64_t *c,
                         const int64_t *s, void *ctx)
{
    int n = *(const int *)ctx, i;
    int64_t e, d[4];
    if (count < 1) {
#ifdef _OPENMP
#pragma omp atomic
#endif
        elog.bad_count++;
    }
    for (e = 0; e < count; e++) {
        for (i = 0; i <= n; i++)
            d[i] = c[i] + e * s[i];
        *(double *)((unsigned char *)out + e * stride) = check_edge_value(d, n);
        log_point(d);
    }
}

static int cmp_point(const void *a, const void *b)
{
    const int64_t *x = (const int64_t *)a, *y = (const int64_t *)b;
    int i;
    for (i = 0; i < 4; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* One configuration twice: with the per-point boundary, then with the row
 * one.  1: both bitwise equal to the sequential loop and both filled the
 * same points on every rank; -1: refused for its sizes; 0: failed (why).
 * Collective.  *points: the fills this rank logged (per-point run);
 * *order: the order the plans ran. */
static int row_case(int n, tile_config *cfg, char *why, size_t whylen, int64_t *points,
                    int *order)
{
    edge_log a;
    int r, ok, all;
    cfg->boundary = rec_edge;
    cfg->boundary_row = NULL;
    log_start(cfg);
    r = one_case(n, cfg, why, whylen);
    a = elog;
    *order = last_order;
    if (r != 1) {
        free(a.c);
        return r;
    }
    cfg->boundary = NULL;
    cfg->boundary_row = rec_edge_row;
    log_start(cfg);
    r = one_case(n, cfg, why, whylen);
    if (r != 1) {
        char t[640];
        snprintf(t, sizeof t, "boundary_row: %.400s", why[0] ? why : "refused for its sizes "
                 "where boundary ran");
        snprintf(why, whylen, "%.400s", t);
    }
    ok = r == 1;
    *order = *order == last_order ? *order : -1;
    if (a.len > 0)
        qsort(a.c, a.len, sizeof a.c[0], cmp_point);
    if (elog.len > 0)
        qsort(elog.c, elog.len, sizeof elog.c[0], cmp_point);
    if (ok && (a.nomem || elog.nomem)) {
        ok = 0;
        snprintf(why, whylen, "rank %d: no memory for the log", myrank);
    } else if (ok && (elog.bad_count || elog.inside || a.inside)) {
        ok = 0;
        snprintf(why, whylen, "rank %d: boundary_row called with count < 1 (%d times) or for "
                 "points inside the space (%d; per point %d)", myrank, elog.bad_count,
                 elog.inside, a.inside);
    } else if (ok && (a.len != elog.len ||
                      (a.len > 0 && memcmp(a.c, elog.c, a.len * sizeof a.c[0]) != 0))) {
        size_t k = 0;
        while (k < a.len && k < elog.len && cmp_point(a.c[k], elog.c[k]) == 0)
            k++;
        ok = 0;
        snprintf(why, whylen, "rank %d: boundary filled %lu points, boundary_row %lu; first "
                 "difference at sorted entry %lu: (%lld,%lld,%lld,%lld) vs (%lld,%lld,%lld,%lld)",
                 myrank, (unsigned long)a.len, (unsigned long)elog.len, (unsigned long)k,
                 k < a.len ? (long long)a.c[k][0] : -999, k < a.len ? (long long)a.c[k][1] : -999,
                 k < a.len ? (long long)a.c[k][2] : -999, k < a.len ? (long long)a.c[k][3] : -999,
                 k < elog.len ? (long long)elog.c[k][0] : -999,
                 k < elog.len ? (long long)elog.c[k][1] : -999,
                 k < elog.len ? (long long)elog.c[k][2] : -999,
                 k < elog.len ? (long long)elog.c[k][3] : -999);
    }
    *points = (int64_t)a.len;
    free(a.c);
    free(elog.c);
    memset(&elog, 0, sizeof elog);
    cfg->boundary = check_edge_n;
    cfg->boundary_row = NULL;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all && ok)
        snprintf(why, whylen, "failed on another rank");
    return all;
}

/* Random configurations for N = n, each with both boundary callbacks. */
static void row_random_cases(int n)
{
    int cases = 0, rejected = 0, failed = 0, downward = 0, skewed = 0, k, i, j, order;
    int64_t points = 0, pts, all_points = 0;
    char why[512] = "", desc[512] = "";
    for (k = 0; k < check_cases(20, 6); k++) {
        tile_config cfg;
        int r;
        random_config(&cfg, n);
        why[0] = '\0';
        r = row_case(n, &cfg, why, sizeof why, &pts, &order);
        if (r < 0) {
            rejected++;
            continue;
        }
        cases++;
        points += pts;
        for (j = 0; j < cfg.nstencil; j++)
            for (i = 0; i <= n; i++)
                skewed += cfg.stencil[j][i] * cfg.dir[i] > 0;
        for (i = 0; i <= n; i++)
            downward += cfg.dir[i] < 0;
        if (!r && !failed++)
            describe(&cfg, desc, sizeof desc);
    }
    MPI_Allreduce(&points, &all_points, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    check_mpi(MPI_COMM_WORLD, failed == 0 && cases >= check_cases(10, 1) && all_points > 0 &&
              (check_sampled() || (skewed > 0 && downward > 0)), "N=%d: %d random stencils (%d later-along-a-dimension reads, %d "
              "downward dimensions) with cfg.boundary_row: bitwise equal to the sequential loop "
              "and to cfg.boundary, the same %lld boundary fills, %d refused for their "
              "sizes%s%s%s%s", n, cases, skewed, downward, (long long)all_points, rejected,
              failed ? "; FIRST FAILURE: " : "", desc, failed ? ": " : "", failed ? why : "");
}

/* Fixed cases: the ADI stencil and Gauss-Seidel in time's (skewed), each
 * forward and as a backward sweep (every dir -1), in every order forced
 * and every model, per point and per row. */
static void row_fixed_cases(void)
{
    static const char *const name[4] = { "ADI forward", "ADI backward", "Gauss-Seidel "
                                         "(skewed) forward", "Gauss-Seidel (skewed) backward" };
    static const char *const text[2] = {
        "-1,0,0 0,-1,0 0,0,-1",
        "-1,-1,0 -1,0,0 -1,1,0 0,-1,0 0,0,-1 0,1,-1 1,-1,-1 1,0,-1 1,1,-1" };
    static const int threads[4] = { 1, 2, 3, 2 };
    int st, o, m, i, k;
    for (st = 0; st < 4; st++) {
        int cases = 0, failed = 0, skewed = 0, wrong_order = 0, order;
        int64_t points = 0, pts, all_points = 0;
        char why[512] = "", desc[512] = "";
        for (o = TILE_ORDER_PLANES; o <= TILE_ORDER_HYPERPLANE; o++)
            for (m = TILE_MODEL_MPI; m <= TILE_MODEL_MULTIPLE; m++) {
                tile_config cfg;
                tile_plan probe;
                int r;
                check_config(&cfg, 2, 9, 11, 13);
                tile_config_stencil(&cfg, text[st / 2], NULL);
                if (st % 2)
                    for (i = 0; i <= 2; i++) {
                        cfg.dir[i] = -1;
                        for (k = 0; k < cfg.nstencil; k++)
                            cfg.stencil[k][i] = -cfg.stencil[k][i];
                    }
                cfg.tile_height = 4;
                cfg.order = o;
                cfg.model = m;
                cfg.threads = threads[m];
                cfg.storage = (o + m) % 2 ? TILE_STORE_FULL : TILE_STORE_WINDOW;
                if (tile_plan_create(&probe, MPI_COMM_WORLD, &cfg) == TILE_OK)
                    skewed += probe.deps.skewed;
                tile_plan_destroy(&probe);
                why[0] = '\0';
                r = row_case(2, &cfg, why, sizeof why, &pts, &order);
                cases++;
                points += pts;
                wrong_order += r == 1 && order != o;
                if (r != 1 && !failed++)
                    describe(&cfg, desc, sizeof desc);
            }
        MPI_Allreduce(&points, &all_points, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        check_mpi(MPI_COMM_WORLD, failed == 0 && wrong_order == 0 && all_points > 0 &&
                  (skewed == 12) == (st >= 2), "%s, 9x11x13, tile height 4, orders planes, Z "
                  "inner, hyperplane forced (%d ran another) x 4 models: %d cases with "
                  "cfg.boundary_row bitwise equal to the sequential loop and to cfg.boundary, "
                  "the same %lld boundary fills (%d plans skewed)%s%s%s%s", name[st],
                  wrong_order, cases, (long long)all_points, skewed,
                  failed ? "; FIRST FAILURE: " : "", desc, failed ? ": " : "", failed ? why : "");
    }
}

/* Both hooks set: TILE_ERR_ARG naming both; the kind differing between
 * ranks: TILE_ERR_MISMATCH (or TILE_ERR_ARG where a rank set both). */
static void row_refusals(void)
{
    tile_config c;
    tile_plan p;
    int rc;
    check_config(&c, 2, 6, 6, 5);
    c.boundary_row = rec_edge_row;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_ARG && strstr(p.errmsg, "boundary and "
              "boundary_row are both set") != NULL && p.status.arg != NULL &&
              strcmp(p.status.arg, "boundary_row") == 0, "cfg.boundary and cfg.boundary_row "
              "both set: TILE_ERR_ARG (%s), arg 'boundary_row', a message naming both: %s",
              tile_strerror(rc), p.errmsg);
    tile_plan_destroy(&p);
    if (nprocs < 2) {
        check_skip("one rank: nothing to compare across ranks", "boundary kind on every rank");
        check_skip("one rank: nothing to compare across ranks", "both set on one rank");
        return;
    }
    if (myrank == 0)
        c.boundary = NULL;                  /* rank 0: the row hook, the others: per point */
    else
        c.boundary_row = NULL;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_MISMATCH && p.status.rank == -1 &&
              strstr(p.errmsg, "'boundary (set or NULL)' differs between ranks") != NULL,
              "cfg.boundary_row on rank 0, cfg.boundary on the others: TILE_ERR_MISMATCH on "
              "every rank: %s", p.errmsg);
    tile_plan_destroy(&p);
    c.boundary = check_edge_n;
    c.boundary_row = myrank == nprocs - 1 ? rec_edge_row : NULL;   /* both on the last */
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_ARG && p.status.rank == nprocs - 1 &&
              strstr(p.errmsg, "boundary and boundary_row are both set") != NULL,
              "both hooks set on rank %d only: TILE_ERR_ARG on every rank: %s", nprocs - 1,
              p.errmsg);
    tile_plan_destroy(&p);
}

/* A type that is not the element size: always caught, never a heap
 * overflow; the message names the line. */
static void wrong_type_size(void)
{
    tile_config c;
    tile_plan p;
    int rc;
    struct big { double a, b, c; };
    check_config(&c, 2, 4, 4, 6);
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (rc == TILE_OK) {
        TILE_FOREACH_GROUP(&p, g)
            TILE_MPI_STEP(g, it, {
                struct big b = TILE_AT(struct big, it, -1, 0, 0);
                TILE_AT(struct big, it, 0, 0, 0) = b;
            });
    }
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && tile_plan_status(&p) == TILE_ERR_ACCESS &&
              strstr(p.errmsg, "the type has 24 bytes but cfg.elem_size is 8") != NULL &&
              strstr(p.errmsg, "mpi_stencil.c:") != NULL,
              "TILE_AT with a 24-byte type on 8-byte elements: TILE_ERR_ACCESS with the source "
              "line, no overflow: %s", p.errmsg);
    tile_plan_destroy(&p);
}

int main(int argc, char **argv)
{
    int n;
    check_rng_seed(check_seed(0x9e3779b97f4a7c15ull));
    if (!check_hybrid_init(&argc, &argv, 3, &myrank, &nprocs))
        return 1;
    for (n = 1; n <= 3; n++)
        random_cases(n);
    check_every_order("stencils");
    for (n = 1; n <= 3; n++)
        row_random_cases(n);
    row_fixed_cases();
    row_refusals();
    downward_read();
    refusals();
    wrong_type_size();
    wrong_offset_count();
    same_status_everywhere();
    return_in_body();
    null_on_one_rank();
#ifdef TILE_CHECK_ACCESS
    checked_points();
#endif
    return check_mpi_exit();
}
