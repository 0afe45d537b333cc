/* tests/mpi_undeclared_posix.c -- tests/mpi_undeclared.c with the POSIX
 * declarations visible whatever the compiler (_POSIX_C_SOURCE): the fence
 * (src/tiling/23-fence.h) with its sigaction handler, also under clang's
 * -fopenmp (which, unlike GCC's, does not define _REENTRANT: there, under
 * -std=c99 alone, tests/mpi_undeclared.c runs every run through the
 * checked loop, and must pass too).  Run under TSan as well
 * (tests/run.sh --tsan: the handler runs in the thread that faulted).
 * The same checks. */
#define _POSIX_C_SOURCE 200809L
#include "mpi_undeclared.c"
