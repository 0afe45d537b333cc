/* tests/mpi_demo_verify.c -- the demos' --verify (demo_verify, demos/demo.h):
 * 0 mismatches after a run of the body its sequential loop describes, a
 * count of them after a wrong body, and a failure, not a pass, where it
 * compares no point (a destroyed plan: tile_get stores nothing).  Each on
 * every rank.  Run at 1-4 processes by tests/run.sh.
 */
/* demo.h is the demos' own code, its functions plain static: this test
 * uses a few of them */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include "../demos/demo.h"
#include "check.h"

/* The test's kernel: each point is half the one below it in Z, plus 1. */
static void half_plane(const double *prev, double *cur, int64_t X, int64_t Y, int64_t z)
{
    int64_t i;
    (void)z;
    for (i = 0; i < X * Y; i++)
        cur[i] = 0.5 * prev[i] + 1.0;
}

static const demo_kernel half = { "half", { 6, 5, 17 }, { 0, 0 }, 1, half_plane };

/* A plan of the kernel over 6 x 5 x 17, every plane stored (as --verify's). */
static int half_plan(tile_plan *p, demo_opts *o)
{
    tile_config c;
    memset(o, 0, sizeof *o);
    memcpy(o->space, half.space, sizeof o->space);
    tile_config_init(&c, 2);
    c.extent[0] = o->space[0];
    c.extent[1] = o->space[1];
    c.zlen = o->space[2];
    c.tile_height = 4;
    c.dep[0] = c.dep[1] = 0;
    c.boundary = demo_edge;
    c.storage = TILE_STORE_FULL;
    return tile_plan_create(p, MPI_COMM_WORLD, &c);
}

int main(int argc, char **argv)
{
    tile_plan p;
    demo_opts o;
    uint64_t ref = 0;
    int64_t right, wrong, none;
    int rc;
    if (hybrid_init(&argc, &argv, TILE_MODEL_MPI, 1, NULL) != TILE_OK) {
        check(0, "MPI initialised");
        return check_exit();
    }
    rc = half_plan(&p, &o);
    HYBRID_RUN(&p, it, { TILE_AT(double, it, 0, 0, 0) = 0.5 * TILE_AT(double, it, 0, 0, -1) + 1.0; });
    right = demo_verify(&p, &half, &o, &ref);
    HYBRID_RUN(&p, it, { TILE_AT(double, it, 0, 0, 0) = 0.5 * TILE_AT(double, it, 0, 0, -1) + 2.0; });
    wrong = demo_verify(&p, &half, &o, &ref);
    tile_plan_destroy(&p);
    none = demo_verify(&p, &half, &o, &ref);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && right == 0,
              "demo_verify: no mismatch after the body its sequential loop describes (got "
              "%lld)", (long long)right);
    check_mpi(MPI_COMM_WORLD, wrong > 0, "demo_verify: a wrong body's points are counted as "
              "mismatches (got %lld)", (long long)wrong);
    check_mpi(MPI_COMM_WORLD, none == DEMO_VERIFY_NONE, "demo_verify on a destroyed plan (no "
              "point to compare) says so (DEMO_VERIFY_NONE), not 0 mismatches (got %lld)",
              (long long)none);
    return check_mpi_exit();
}
