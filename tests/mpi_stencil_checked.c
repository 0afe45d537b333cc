/* tests/mpi_stencil_checked.c -- tests/mpi_stencil.c again with
 * TILE_CHECK_ACCESS: every random stencil's reads are declared and every
 * body writes its point (no false alarm in any model), the offset count is
 * reported the checked way, and the poison of the current point catches a
 * point left unwritten and shows a read before the write as NaN.
 * Run at 1-4 processes by tests/run.sh.
 */
#define TILE_CHECK_ACCESS
#include "mpi_stencil.c"
