/* tests/separate_impl.c -- the implementation file of tests/separate_main.c's
 * program: tilehybrid's cold code (plan creation and validation, the height
 * search, the start and end of a run, ...) compiled once, with external
 * linkage (tilehybrid.h, "COMPILING THE COLD CODE ONCE").
 *
 *   mpicc -std=c99 -O2 -fopenmp -I. -c tests/separate_impl.c
 *   mpicc -std=c99 -O2 -fopenmp -I. -c tests/separate_main.c
 *   mpicc -fopenmp -o separate separate_main.o separate_impl.o -lm
 *   mpiexec -n 2 ./separate
 *
 * Both files define TILEHYBRID_SEPARATE themselves (a program would rather
 * pass -DTILEHYBRID_SEPARATE to every file); this one alone defines
 * TILEHYBRID_IMPLEMENTATION.
 */
#ifndef TILEHYBRID_SEPARATE
#define TILEHYBRID_SEPARATE
#endif
#define TILEHYBRID_IMPLEMENTATION
#include "hybrid.h"

/* tile_plan_create as this file sees it: the one definition, which
 * separate_main.c must see too (declared there the same way). */
typedef int (*separate_create_fn)(tile_plan *, MPI_Comm, const tile_config *);
separate_create_fn separate_impl_create(void);

separate_create_fn separate_impl_create(void)
{
    return tile_plan_create;
}
