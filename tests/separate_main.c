/* tests/separate_main.c -- tilehybrid compiled in two files
 * (TILEHYBRID_SEPARATE; tilehybrid.h, "COMPILING THE COLD CODE ONCE"): this
 * file has the run and only the declarations of the cold functions,
 * tests/separate_impl.c (TILEHYBRID_IMPLEMENTATION) their one definition.
 * Build and run (2 processes, MPI_THREAD_MULTIPLE):
 *
 *   mpicc -std=c99 -O2 -fopenmp -I. -c tests/separate_impl.c
 *   mpicc -std=c99 -O2 -fopenmp -I. -c tests/separate_main.c
 *   mpicc -fopenmp -o separate separate_main.o separate_impl.o -lm
 *   mpiexec -n 2 ./separate
 *
 * Checks: both files call the one tile_plan_create; ADI on 16 x 40 x 30 in
 * every model (HYBRID_RUN) and in the plane, Z-inner and hyperplane orders
 * equals the sequential loop bit for bit; a refused configuration and a
 * step macro of the wrong model are refused as in a header-only build.
 */
#ifndef TILEHYBRID_SEPARATE
#define TILEHYBRID_SEPARATE
#endif
#include "hybrid.h"
#include "check.h"

#define X0 16
#define X1 40
#define ZL 30

typedef int (*separate_create_fn)(tile_plan *, MPI_Comm, const tile_config *);
separate_create_fn separate_impl_create(void);

/* Whether s ends with the text t (a message, "rank R: " before it with more
 * than one process). */
static int ends_with(const char *s, const char *t)
{
    size_t n = strlen(s), m = strlen(t);
    return n >= m && strcmp(s + n - m, t) == 0;
}

static void config(tile_config *c, int model, int order)
{
    tile_config_init(c, 2);
    c->extent[0] = X0;
    c->extent[1] = X1;
    c->zlen = ZL;
    c->dep[0] = 1;
    c->dep[1] = 1;
    c->depz = 1;
    c->elem_size = sizeof(double);
    c->tile_height = 4;
    c->model = model;
    c->threads = model == TILE_MODEL_MPI ? 1 : 2;
    c->order = order;
    c->storage = TILE_STORE_FULL;
    c->boundary = check_edge;
}

int main(int argc, char **argv)
{
    static const int orders[3] = { TILE_ORDER_PLANES, TILE_ORDER_Z_INNER, TILE_ORDER_HYPERPLANE };
    static const char *const order_names[3] = { "planes", "z-inner", "hyperplane" };
    int rank, size, model, o, rc;
    tile_config cfg;
    tile_plan plan;
    double *seq;
    if (!check_hybrid_init(&argc, &argv, 2, &rank, &size))
        return 1;
    seq = check_seq_loop(X0, X1, ZL, check_adi_point);

    check_mpi(MPI_COMM_WORLD, separate_impl_create() == tile_plan_create,
              "separate: tile_plan_create is one function, defined in separate_impl.c "
              "(TILEHYBRID_IMPLEMENTATION) and called from this file");

    for (model = TILE_MODEL_MPI; model <= TILE_MODEL_MULTIPLE; model++)
        for (o = 0; o < 3; o++) {
            int same = 0;
            config(&cfg, model, orders[o]);
            rc = tile_plan_create(&plan, MPI_COMM_WORLD, &cfg);
            if (rc == TILE_OK) {
                HYBRID_RUN(&plan, it, {
                    TILE_AT(double, it, 0, 0, 0) =
                        ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0))
                         + TILE_AT(double, it, 0, 0, -1)) / 3.0;
                });
                rc = tile_plan_status(&plan);
                same = rc == TILE_OK && seq != NULL && check_same_3d(&plan, seq, X0, X1, ZL);
            }
            if (rc != TILE_OK && rank == 0)
                check_note("%s, %s: %s", tile_model_name(model), order_names[o], plan.errmsg);
            check_mpi(MPI_COMM_WORLD, same,
                      "separate: ADI %dx%dx%d at %d processes, model %s, %s order (ran %s): "
                      "bitwise the sequential loop's", X0, X1, ZL, size, tile_model_name(model),
                      order_names[o], rc == TILE_OK ? "yes" : "no");
            tile_plan_destroy(&plan);
        }

    /* the cold code's refusals: the pure MPI model with 2 threads */
    config(&cfg, TILE_MODEL_MPI, TILE_ORDER_AUTO);
    cfg.threads = 2;
    rc = tile_plan_create(&plan, MPI_COMM_WORLD, &cfg);
    check_mpi(MPI_COMM_WORLD, rc != TILE_OK && rc == tile_plan_status(&plan) &&
              strcmp(plan.errarg, "threads") == 0 && plan.errmsg[0] != '\0',
              "separate: the pure MPI model with 2 threads is refused, naming 'threads' "
              "(code %d: %s)", rc, plan.errmsg);
    tile_plan_destroy(&plan);

    /* ... and tile_run_start's (a step macro of the wrong model) */
    config(&cfg, TILE_MODEL_FINE, TILE_ORDER_AUTO);
    rc = tile_plan_create(&plan, MPI_COMM_WORLD, &cfg);
    if (rc == TILE_OK) {
        TILE_FOREACH_GROUP(&plan, g)
            TILE_MPI_STEP(g, it, { TILE_AT(double, it, 0, 0, 0) = 0.0; });
        rc = tile_plan_status(&plan);
    }
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_MODEL && ends_with(plan.errmsg, "the step macro "
              "is for model 'mpi' but the plan was created for model 'fine'"),
              "separate: TILE_MPI_STEP on a fine-grain plan: TILE_ERR_MODEL (%d: %s)", rc,
              plan.errmsg);
    tile_plan_destroy(&plan);

    free(seq);
    return check_mpi_exit();
}
