/* tests/mpi_field_sweep_checked.c -- tests/mpi_field_sweep.c again with
 * TILE_CHECK_ACCESS: the programs over fields raise no false alarm in any
 * model, and a body that reads a field of another grid with
 * tile_field_here() fails the run with TILE_ERR_ACCESS naming the point
 * (the fast loops read another element: tile_field_fits() is the check
 * there).  Run at 1-4 processes by tests/run.sh.
 */
#define TILE_CHECK_ACCESS
#include "mpi_field_sweep.c"
