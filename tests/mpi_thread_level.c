/* tests/mpi_thread_level.c -- a model that needs more thread support than
 * MPI provides is refused with a clear message, on every rank.  MPI is
 * started with MPI_THREAD_FUNNELED only: funneled runs, multiple does not
 * (an MPI that grants MPI_THREAD_MULTIPLE anyway must then run multiple). */
#include <mpi.h>

#include "../hybrid.h"
#include "check.h"

int main(int argc, char **argv)
{
    int provided, rc;
    tile_config c;
    tile_plan p;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    tile_config_init(&c, 1);
    c.extent[0] = 8;
    c.zlen = 4;
    c.threads = 2;
    c.model = TILE_MODEL_MULTIPLE;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (provided >= MPI_THREAD_MULTIPLE)     /* nothing to refuse: it must run */
        check_mpi(MPI_COMM_WORLD, rc == TILE_OK,
                  "MPI gave MPI_THREAD_MULTIPLE when asked for FUNNELED: the multiple model "
                  "is accepted (%s)", rc == TILE_OK ? "ok" : p.errmsg);
    else
        check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_THREAD_LEVEL &&
                      strstr(p.errmsg, "MPI_THREAD_MULTIPLE") != NULL,
                  "multiple model refused without MPI_THREAD_MULTIPLE (%s)", p.errmsg);
    tile_plan_destroy(&p);
    c.model = TILE_MODEL_FUNNELED;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK, "funneled model accepted with MPI_THREAD_FUNNELED");
    tile_plan_destroy(&p);
    check_mpi(MPI_COMM_WORLD, hybrid_init(NULL, NULL, 42, 1, NULL) == TILE_ERR_MODEL,
              "hybrid_init rejects an unknown model");
    return check_mpi_exit();
}
