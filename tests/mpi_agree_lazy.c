/* tests/mpi_agree_lazy.c -- cfg.agree = TILE_AGREE_WHEN_ASKED: once a plan
 * has settled, its runs send their faces and call no collective (counted
 * here through the MPI profiling interface), their results are the
 * agreed runs' bit for bit, a failure on one rank stays that rank's while
 * the following runs complete everywhere (no rank waits), and
 * tile_plan_agree() gives every rank the failing rank's verdict; a plan
 * with a reduction, or with the default TILE_AGREE_EACH_RUN, agrees at
 * every run.  Every model; run at 1-4 processes.
 */
#include "../hybrid.h"
#include "check.h"

static int nprocs, myrank;
static long collectives;        /* the collectives this rank called */

/* The collectives the engine could call, counted (MPI_Comm_* and the
 * point-to-point calls are not). */
int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    collectives++;
    return PMPI_Allreduce(s, r, n, t, op, c);
}
#if MPI_VERSION >= 3
/* (a plan's agreements: tilehybrid.h's tilehybrid__allreduce) */
int MPI_Iallreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                   MPI_Request *q)
{
    collectives++;
    return PMPI_Iallreduce(s, r, n, t, op, c, q);
}
#endif
int MPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                  MPI_Comm c)
{
    collectives++;
    return PMPI_Allgather(s, sn, st, r, rn, rt, c);
}
int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
    collectives++;
    return PMPI_Bcast(b, n, t, root, c);
}
int MPI_Barrier(MPI_Comm c)
{
    collectives++;
    return PMPI_Barrier(c);
}
int MPI_Alltoallw(const void *s, const int sc[], const int sd[], const MPI_Datatype st[],
                  void *r, const int rc[], const int rd[], const MPI_Datatype rt[], MPI_Comm c)
{
    collectives++;
    return PMPI_Alltoallw(s, sc, sd, st, r, rc, rd, rt, c);
}

/* The plain loop: one Gauss-Seidel-like sweep of an ex x ey x ez space
 * adding r at each point (each run of the plan starts afresh from the
 * boundary's 0.25: the result is the last run's). */
static void plain(int64_t ex, int64_t ey, int64_t ez, int r, double *a)
{
    int64_t x, y, z;
#define PA(X, Y, Z) ((X) < 0 || (Y) < 0 || (Z) < 0 ? 0.25 : a[((X) * ey + (Y)) * ez + (Z)])
    for (z = 0; z < ez; z++)
        for (x = 0; x < ex; x++)
            for (y = 0; y < ey; y++)
                a[(x * ey + y) * ez + z] = 0.5 * ((PA(x - 1, y, z) + PA(x, y - 1, z)) +
                                                  PA(x, y, z - 1)) + (double)r;
#undef PA
}

static void quarter(void *out, const int64_t *c, void *ctx)
{
    (void)c;
    (void)ctx;
    *(double *)out = 0.25;
}

/* A plan of the model over ex x ey x ez (grid chosen), WHEN_ASKED. */
static int make(tile_plan *p, int model, int threads, int64_t ex, int64_t ey, int64_t ez,
                int agree)
{
    tile_config c;
    tile_config_init(&c, 2);
    c.extent[0] = ex, c.extent[1] = ey, c.zlen = ez;
    c.model = model;
    c.threads = threads;
    c.tile_height = 3;
    c.boundary = quarter;
    c.agree = agree;
    return tile_plan_create(p, MPI_COMM_WORLD, &c);
}

/* One run: run r adds r; the last rank breaks out at its first point in
 * run `bad` (a failure on that rank only). */
static void run(tile_plan *p, int r, int bad)
{
    int me_bad = r == bad && myrank == nprocs - 1;
    HYBRID_RUN(p, it, {
        if (me_bad && tile_coord(&it, 2) == 0)
            break;
        TILE_AT(double, it, 0, 0, 0) = 0.5 * ((TILE_AT(double, it, -1, 0, 0) +
                                               TILE_AT(double, it, 0, -1, 0)) +
                                              TILE_AT(double, it, 0, 0, -1)) + (double)r;
    });
}

/* Runs 0..9 of model m: 1 (a check's detail in why) or 0. */
static int lazy_case(int model, int threads, char *why, size_t len)
{
    tile_plan p;
    int64_t ex = 7, ey = 5, ez = 11, n = ex * ey * ez;
    double *got = (double *)malloc(sizeof(double) * (size_t)n);
    double *want = (double *)malloc(sizeof(double) * (size_t)n);
    long before, quiet;
    int r, ok = 1, st_mine, agreed, after;
    if (make(&p, model, threads, ex, ey, ez, TILE_AGREE_WHEN_ASKED) != TILE_OK) {
        snprintf(why, len, "rank %d: %.200s", myrank, p.errmsg);
        free(got);
        free(want);
        tile_plan_destroy(&p);
        return 0;
    }
    run(&p, 0, -1);                     /* agreed: the plan settles */
    before = collectives;
    for (r = 1; r <= 4; r++)
        run(&p, r, -1);
    quiet = collectives - before;
    ok = quiet == 0 && tile_plan_status(&p) == TILE_OK;
    if (!ok)
        snprintf(why, len, "rank %d: runs 1-4 called %ld collectives (status %d)", myrank,
                 quiet, tile_plan_status(&p));
    if (ok && tile_gather(&p, 0, ez, 0, got, NULL) == TILE_OK && myrank == 0) {
        plain(ex, ey, ez, 4, want);
        ok = memcmp(got, want, sizeof(double) * (size_t)n) == 0;
        if (!ok)
            snprintf(why, len, "the 5th run differs from the plain loop");
    }
    before = collectives;
    run(&p, 5, 5);                      /* the last rank fails, alone */
    run(&p, 6, -1);                     /* and every rank still runs */
    quiet = collectives - before;
    st_mine = tile_plan_status(&p);
    (void)tile_gather(&p, 0, ez, 0, got, NULL);  /* refused: its message must not hide */
    agreed = tile_plan_agree(&p);
    if (ok && (quiet != 0 || st_mine != (myrank == nprocs - 1 ? TILE_ERR_BODY : TILE_OK) ||
               agreed != TILE_ERR_BODY || tile_plan_status(&p) != TILE_ERR_BODY ||
               strstr(p.errmsg, "tile_gather") != NULL ||
               (nprocs > 1 && strstr(p.errmsg, "rank ") == NULL))) {
        ok = 0;
        snprintf(why, len, "rank %d: a failure on the last rank: %ld collectives, this rank's "
                 "status %d, tile_plan_agree %d: %.200s", myrank, quiet, st_mine, agreed,
                 p.errmsg);
    }
    run(&p, 7, -1);                     /* agreed again, afresh */
    after = tile_plan_status(&p);
    if (ok && (after != TILE_OK || tile_plan_agree(&p) != TILE_OK)) {
        ok = 0;
        snprintf(why, len, "rank %d: the run after the agreed failure: %d %.200s", myrank, after,
                 p.errmsg);
    }
    free(got);
    free(want);
    tile_plan_destroy(&p);
    return ok;
}

static void test_lazy(void)
{
    int m, ok, all;
    char why[600] = "";
    for (m = TILE_MODEL_MPI; m <= TILE_MODEL_MULTIPLE; m++) {
        ok = lazy_case(m, m == TILE_MODEL_MPI ? 1 : 2, why, sizeof why);
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        check_mpi(MPI_COMM_WORLD, all == 1, "%s model, TILE_AGREE_WHEN_ASKED: runs 1-4 call "
                  "no collective and end bitwise the plain loop; a break on the last rank "
                  "stays its own while the next run completes everywhere, tile_plan_agree "
                  "gives every rank TILE_ERR_BODY, and the next run starts afresh%s%s",
                  tile_model_name(m), all ? "" : ": ", all ? "" : why);
    }
}

/* A failure in the first run (which agrees): no run follows on any rank
 * until tile_plan_agree() gives it; then the next starts afresh. */
static void test_sticky(void)
{
    tile_plan p;
    int rc, a, b, c, d;
    rc = make(&p, TILE_MODEL_MPI, 1, 6, 4, 5, TILE_AGREE_WHEN_ASKED);
    run(&p, 0, 0);                      /* the last rank breaks: agreed */
    a = tile_plan_status(&p);
    run(&p, 1, -1);                     /* runs nowhere */
    b = tile_plan_status(&p);
    c = tile_plan_agree(&p);
    run(&p, 2, -1);                     /* afresh */
    d = tile_plan_status(&p);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && a == TILE_ERR_BODY && b == TILE_ERR_BODY &&
              c == TILE_ERR_BODY && d == TILE_OK, "TILE_AGREE_WHEN_ASKED: a failure the first "
              "run agreed on stops the next runs on every rank until tile_plan_agree gives "
              "it, then the next run starts afresh (%d %d %d %d)", a, b, c, d);
    tile_plan_destroy(&p);
}

/* Runs that must agree: a reduction declared, or the default mode. */
static void test_agreeing(void)
{
    tile_plan p, q;
    tile_reduction red;
    long before, with_red, dflt;
    int rc, refused, after_agree;
    rc = make(&p, TILE_MODEL_MPI, 1, 6, 4, 5, TILE_AGREE_WHEN_ASKED) == TILE_OK &&
         make(&q, TILE_MODEL_MPI, 1, 6, 4, 5, TILE_AGREE_EACH_RUN) == TILE_OK;
    run(&p, 0, -1);
    refused = tile_reduction_init(&p, &red, TILE_REDUCE_SUM, NULL);
    tile_plan_agree(&p);
    after_agree = tile_reduction_init(&p, &red, TILE_REDUCE_SUM, NULL);
    before = collectives;
    HYBRID_RUN(&p, it, {
        TILE_AT(double, it, 0, 0, 0) = 1.0;
        tile_reduce(&it, &red, 1.0);
    });
    with_red = collectives - before;
    run(&q, 0, -1);
    before = collectives;
    run(&q, 1, -1);
    dflt = collectives - before;
    check_mpi(MPI_COMM_WORLD, rc && refused == TILE_ERR_ARG && after_agree == TILE_OK &&
              with_red > 0 && red.value == 6.0 * 4 * 5 && dflt > 0,
              "a settled plan refuses a reduction until tile_plan_agree (%d, then %d); a run "
              "with one agrees (%ld collectives, the sum %g), and so does a run of a plan left "
              "at TILE_AGREE_EACH_RUN (%ld)", refused, after_agree, with_red, red.value, dflt);
    tile_plan_destroy(&p);
    tile_plan_destroy(&q);
    rc = make(&p, TILE_MODEL_MPI, 1, 6, 4, 5, 7);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_RANGE && strstr(p.errmsg, "agree") != NULL,
              "agree = 7 is refused: %s", p.errmsg);
    tile_plan_destroy(&p);
}

int main(int argc, char **argv)
{
    if (!check_hybrid_init(&argc, &argv, 2, &myrank, &nprocs))
        return 1;
    test_lazy();
    test_sticky();
    test_agreeing();
    MPI_Finalize();
    return check_exit();
}
