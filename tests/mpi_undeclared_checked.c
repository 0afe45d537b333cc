/* tests/mpi_undeclared_checked.c -- tests/mpi_undeclared.c where the file
 * sees no sigaction (as under -std=c99 with clang's -fopenmp, or without
 * OpenMP: GCC's -fopenmp defines _REENTRANT, which makes glibc declare
 * it): the fast loops do not run, every run goes through the checked
 * loop (src/tiling/23-fence.h), rank 0 says so once on stderr, and the
 * same checks must pass. */
#undef _REENTRANT
#include <signal.h>
#ifdef SA_SIGINFO
#error "tests/mpi_undeclared_checked.c: sigaction is declared here: the test would not test the fallback"
#endif
#include "mpi_undeclared.c"
