/* tests/mpi_undeclared_posix.c -- tests/mpi_undeclared.c with the POSIX
 * declarations visible (_POSIX_C_SOURCE), as in a GNU mode or mpicc's
 * default: the fence's handler is then installed with sigaction and opens
 * only the page that faulted (its fault address); under -std=c99 alone
 * (tests/mpi_undeclared.c) it has ISO C's signal() and opens the whole
 * fence (src/tiling/23-fence.h).  The same checks. */
#define _POSIX_C_SOURCE 200809L
#include "mpi_undeclared.c"
