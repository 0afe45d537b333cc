#include <stdio.h>
#include "hybrid.h"

static void edge(void *out, const int64_t *c, void *ctx)
{   (void)ctx; *(double *)out = (double)((31*c[0] + 17*c[1] + 7*c[2]
                                          + 1000003) % 97) / 97.0;  }

int main(int argc, char **argv)
{
    tile_config cfg;
    tile_plan plan;
    int model = TILE_MODEL_FUNNELED, threads = 2;
    int64_t t;
    if (argc > 2 && tilehybrid_parse_i64(argv[2], 1, 1024, &t) == TILEHYBRID_OK)
        threads = (int)t;
    if (argc > 1)
        for (model = 0; model < 4; model++)
            if (strcmp(argv[1], tile_model_name(model)) == 0)
                break;
    if (hybrid_init(&argc, &argv, model, threads, NULL) != TILE_OK)
        return 1;                            // (finalize MPI if it started)
    tile_config_init(&cfg, 2);
    cfg.extent[0] = 64;  cfg.extent[1] = 256;  cfg.zlen = 4096;
    cfg.tile_height = 100;
    cfg.boundary = edge;
    cfg.model = model;
    cfg.threads = model == TILE_MODEL_MPI ? 1 : threads;
    if (tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) == TILE_OK)
        HYBRID_RUN(&plan, it, {
            TILE_AT(double, it, 0, 0, 0) =
                ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0))
                 + TILE_AT(double, it, 0, 0, -1)) / 3.0;
        });
    if (tile_plan_status(&plan) != TILE_OK && plan.rank == 0)
        fprintf(stderr, "%s\n", plan.errmsg);
    else if (plan.rank == 0)
        printf("%s: %.3f s\n", tile_model_name(model), plan.run.seconds);
    tile_plan_destroy(&plan);
    MPI_Finalize();
    return 0;
}
