/*
 * tests/return_body.c -- a `return` out of the body must not hang the job
 * (tests/cli_return.sh drives it; built without OpenMP, where the compiler
 * lets a body return).
 *
 * Usage: return_body MODE [hook]
 *   fn     a function whose HYBRID_RUN body returns on rank 0 only; then
 *          main calls tile_plan_status(), tile_plan_destroy(),
 *          MPI_Finalize().
 *   again  the body returns on every rank; then the plan runs again.
 *   main   the body of a TILE_FOREACH_GROUP / TILE_MPI_STEP loop in main
 *          returns from main on rank 0 only.
 *   hook   (second argument) cfg.on_mpi_failure prints "hook got: MSG"
 *          on stderr and returns.
 * At one process the run must end with TILE_ERR_BODY reported by
 * tile_plan_status() (and the next run refused): the program prints
 * "left: STATUS MESSAGE" and exits 0.  At more, the job must end (a
 * non-zero status) with the message on stderr, before anything after the
 * return hangs.
 */
#include <stdio.h>
#include <string.h>
#include "tiling.h"
#include "hybrid.h"

static void edge(void *out, const int64_t *c, void *ctx)
{
    (void)ctx;
    *(double *)out = (double)((31 * c[0] + 17 * c[1] + 7 * c[2] + 1000003) % 97) / 97.0;
}

static void hook(const char *msg, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "hook got: %s\n", msg);
}

/* The run; the body returns 1 at z == 3 on rank `who` (-1: every rank). */
static int run(tile_plan *plan, int who)
{
    int me = plan->rank;
    HYBRID_RUN(plan, it, {
        if ((who < 0 || me == who) && tile_coord(&it, 2) == 3)
            return 1;
        TILE_AT(double, it, 0, 0, 0) =
            ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0))
             + TILE_AT(double, it, 0, 0, -1)) / 3.0;
    });
    return 0;
}

static int report(tile_plan *plan, const char *when)
{
    int rc = tile_plan_status(plan);
    printf("left (%s): rank %d: status %d (%s): %s\n", when, plan->rank, rc,
           rc == TILE_ERR_BODY ? "TILE_ERR_BODY" : "other", plan->errmsg);
    fflush(stdout);
    return rc == TILE_ERR_BODY && strstr(plan->errmsg, "a return (or goto) left the body") != NULL;
}

int main(int argc, char **argv)
{
    tile_config cfg;
    tile_plan plan;
    const char *mode = argc > 1 ? argv[1] : "fn";
    int ok = 1, left;
    MPI_Init(&argc, &argv);
    tile_config_init(&cfg, 2);
    cfg.extent[0] = 9;
    cfg.extent[1] = 7;
    cfg.zlen = 20;
    cfg.tile_height = 2;
    cfg.dep[0] = 1;
    cfg.dep[1] = 1;
    cfg.depz = 1;
    cfg.elem_size = sizeof(double);
    cfg.boundary = edge;
    if (argc > 2 && strcmp(argv[2], "hook") == 0)
        cfg.on_mpi_failure = hook;
    if (tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) != TILE_OK) {
        fprintf(stderr, "%s\n", plan.errmsg);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (strcmp(mode, "main") == 0) {
        TILE_FOREACH_GROUP(&plan, g)
            TILE_MPI_STEP(g, it, {
                if (plan.rank == 0 && tile_coord(&it, 2) == 3)
                    return 1;
                TILE_AT(double, it, 0, 0, 0) = TILE_AT(double, it, 0, 0, -1) + 1.0;
            });
        ok = 0;         /* rank 0 returned; the others get here at 1 process only */
    } else if (strcmp(mode, "again") == 0) {
        left = run(&plan, -1);
        ok = left == 1;
        left = run(&plan, -1);
        ok = ok && left == 0 && report(&plan, "the next run");
    } else {
        left = run(&plan, 0);
        ok = (left == 1) == (plan.rank == 0) && report(&plan, "after the run");
    }
    tile_plan_destroy(&plan);
    MPI_Finalize();
    printf("%s\n", ok ? "ok" : "not ok");
    return ok ? 0 : 1;
}
