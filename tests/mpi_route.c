/* tests/mpi_route.c -- routes (tile_route_create, tile_route_run): a
 * tile_exchange() made once and run many times moves exactly what
 * tile_exchange() moves, run after run as the source changes, with no
 * collective per run; its refusals are tile_exchange()'s, on every rank.
 * Random plans and boxes: each rank's block (the plan's, all of Z) to a
 * widened block (a halo), to the whole array on one rank, and to the
 * blocks of a plan over another grid.  Run at 1-4 processes.
 */
#include "../tiling.h"
#include "check.h"

static int nprocs, myrank;

/* Element c of the source at run k: a function of the point and the run. */
static double value(const tile_box *b, int64_t e, int k)
{
    return (double)(e * 7919 + k * 104729 + b->lo[0] * 31) * 0.5;
}

/* Fill src over have with the values of run k (its global index e). */
static void fill(const tile_box *have, double *src, int k)
{
    int64_t n = tile_box_points(have), e, c[TILE_MAX_DIMS + 1], g;
    tile_box all = *have;
    int i;
    for (e = 0; e < n; e++) {
        int64_t rest = e;
        for (i = have->ndims - 1; i >= 0; i--) {
            c[i] = have->lo[i] + rest % have->len[i];
            rest /= have->len[i];
        }
        for (g = 0, i = 0; i < have->ndims; i++)
            g = g * 1000 + c[i];
        src[e] = value(&all, g, k);
    }
}

/* The want box of kind w for plan p's block b: 0 the block widened by 1
 * (clipped), 1 the whole array on rank 0 (empty elsewhere), 2 a block of
 * the grid cut along the last distributed dimension instead. */
static void want_box(const tile_plan *p, const tile_box *b, int w, tile_box *out)
{
    int i, n = p->cfg.n;
    *out = *b;
    for (i = 0; w == 0 && i < n; i++) {
        int64_t lo = b->lo[i] > 0 ? b->lo[i] - 1 : 0, hi = b->lo[i] + b->len[i];
        hi = hi < p->cfg.extent[i] ? hi + 1 : hi;
        out->lo[i] = lo;
        out->len[i] = hi - lo;
    }
    for (i = 0; w == 1 && i < n; i++) {
        out->lo[i] = 0;
        out->len[i] = myrank == 0 ? p->cfg.extent[i] : 0;
    }
    if (w == 2) {
        for (i = 0; i < n; i++) {
            out->lo[i] = 0;
            out->len[i] = p->cfg.extent[i];
        }
        topo_block(p->cfg.extent[n - 1], nprocs, myrank, &out->lo[n - 1], &out->len[n - 1]);
    }
}

/* One random case: 1 equal, 0 not (why), -1 refused for its sizes. */
static int route_case(int n, int w, char *why, size_t len)
{
    tile_config c;
    tile_plan p;
    tile_route r;
    tile_box have, want;
    double *src, *dst, *ref;
    int64_t nh, nw;
    int i, k, ok = 1, rc;
    tile_config_init(&c, n);
    for (i = 0; i < n; i++)
        c.extent[i] = check_rnd_in(nprocs, nprocs + 9);
    c.zlen = check_rnd_in(1, 7);
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (rc != TILE_OK) {
        tile_plan_destroy(&p);
        return rc == TILE_ERR_TOO_MANY || rc == TILE_ERR_GRID ? -1 : 0;
    }
    tile_input_box(&p, TILE_ALL_TILES, NULL, &have, NULL);
    want_box(&p, &have, w, &want);
    nh = tile_box_points(&have), nw = tile_box_points(&want);
    src = (double *)malloc(sizeof(double) * (size_t)(nh + 1));
    dst = (double *)malloc(sizeof(double) * (size_t)(nw + 1));
    ref = (double *)malloc(sizeof(double) * (size_t)(nw + 1));
    rc = tile_route_create(&r, &p, sizeof(double), &have, src, &want, dst, NULL);
    if (rc != TILE_OK)
        ok = 0, snprintf(why, len, "rank %d: tile_route_create: %s", myrank, r.errmsg);
    for (k = 0; ok && k < 3; k++) {     /* the same route, the source changing */
        fill(&have, src, k);
        memset(dst, 0xff, sizeof(double) * (size_t)nw);
        ok = tile_route_run(&r) == TILE_OK &&
             tile_exchange(&p, sizeof(double), &have, src, &want, ref, NULL) == TILE_OK &&
             memcmp(dst, ref, sizeof(double) * (size_t)nw) == 0;
        if (!ok)
            snprintf(why, len, "rank %d: run %d differs from tile_exchange's result (%s)",
                     myrank, k, r.errmsg);
    }
    tile_route_destroy(&r);
    tile_plan_destroy(&p);
    free(src);
    free(dst);
    free(ref);
    return ok;
}

static void test_routes(void)
{
    static const char *const kind[3] = { "a halo", "the whole array on rank 0",
                                         "another grid's blocks" };
    int w, j, all, r, cases, failed;
    char why[400] = "";
    for (w = 0; w < 3; w++) {
        cases = failed = 0;
        for (j = 0; j < check_cases(12, 4); j++) {
            r = route_case((int)check_rnd_in(1, 3), w, why, sizeof why);
            MPI_Allreduce(&r, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            if (all < 0)
                continue;
            cases++;
            failed += all == 0;
        }
        check_mpi(MPI_COMM_WORLD, failed == 0 && cases > 0, "%d routes from each rank's "
                  "block to %s: three runs each, the source changing between them, equal "
                  "to tile_exchange() bitwise%s%s", cases, kind[w],
                  failed ? "; FIRST FAILURE: " : "", failed ? why : "");
    }
}

static void test_refusals(void)
{
    tile_config c;
    tile_plan p;
    tile_route r;
    tile_box have, want;
    double a[64], b[64];
    int rc, rc2;
    tile_config_init(&c, 1);
    c.extent[0] = nprocs;
    c.zlen = 4;
    check_mpi(MPI_COMM_WORLD, tile_plan_create(&p, MPI_COMM_WORLD, &c) == TILE_OK,
              "the refusals' plan is made");
    tile_input_box(&p, TILE_ALL_TILES, NULL, &have, NULL);
    want = have;
    want.len[1] = 5;                    /* a plane nobody has */
    rc = tile_route_create(&r, &p, sizeof(double), &have, a, &want, b, NULL);
    rc2 = tile_route_run(&r);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_RANGE && rc2 == TILE_ERR_RANGE &&
              strstr(r.errmsg, "tile_route_create: the want box is not covered") != NULL,
              "a want box no rank has is refused on every rank, and the route does not "
              "run: %s", r.errmsg);
    tile_route_destroy(&r);
    rc = tile_route_create(&r, &p, sizeof(double), &have, a, &have, a, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_RANGE && strstr(r.errmsg, "dst overlaps src"),
              "dst over src is refused on every rank: %s", r.errmsg);
    tile_route_destroy(&r);
    rc = tile_route_create(&r, &p, sizeof(double), &have, a, &have, b, NULL);
    tile_route_destroy(&r);
    rc2 = tile_route_run(&r);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && rc2 == TILE_ERR_ARG,
              "a destroyed route does not run (%d, %d): %s", rc, rc2, r.errmsg);
    tile_route_destroy(&r);             /* twice: harmless */
    tile_plan_destroy(&p);
    rc = tile_route_create(&r, NULL, sizeof(double), &have, a, &have, b, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_NULL && tile_route_run(&r) == TILE_ERR_NULL,
              "a route without a plan is refused and does not run (%d)", rc);
}

int main(int argc, char **argv)
{
    check_mpi_init(&argc, &argv, &myrank, &nprocs);
    check_rng_seed(check_seed(20261207));
    test_routes();
    test_refusals();
    return check_mpi_exit();
}
