/* tests/check.h -- the tiny test protocol shared by every test program.
 *
 * Each check prints one line, "ok - <name>" or "not ok - <name>", and
 * diagnostics start with "# ".  tests/run.sh counts those lines over every
 * program (and every process count for MPI tests) and ends with
 * "N passed, N failed".  A program that crashes, exits non-zero or prints no
 * check line is counted as a failure by the driver, so no test can pass by
 * not running.
 *
 * In MPI tests use check_mpi(): the condition is combined over all ranks with
 * MPI_Allreduce (logical and) and only rank 0 prints, so a check fails when
 * any rank fails.  Every rank must call it the same number of times.
 */
#ifndef TILEHYBRID_TESTS_CHECK_H
#define TILEHYBRID_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures;
static int check_count;

static inline void check_vprint(int ok, const char *fmt, va_list ap)
{
    printf("%s - ", ok ? "ok" : "not ok");
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
}

/* Record one check named by a printf format.  Returns cond (0 or 1). */
static inline int check(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    check_vprint(cond != 0, fmt, ap);
    va_end(ap);
    check_count++;
    if (!cond)
        check_failures++;
    return cond != 0;
}

/* A diagnostic line (ignored by the counter). */
static inline void check_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    fflush(stdout);
}

/* Exit status for main(): non-zero when any check failed or none ran. */
static inline int check_exit(void)
{
    return (check_failures == 0 && check_count > 0) ? 0 : 1;
}

#ifdef MPI_VERSION
/* Collective check: passes only if cond holds on every rank of comm. */
static inline int check_mpi(MPI_Comm comm, int cond, const char *fmt, ...)
{
    int all = 0, rank = 0;
    int mine = cond != 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm);
    MPI_Comm_rank(comm, &rank);
    check_count++;
    if (!all)
        check_failures++;
    if (rank == 0) {
        va_list ap;
        va_start(ap, fmt);
        check_vprint(all, fmt, ap);
        va_end(ap);
    }
    return all;
}
#endif

#endif
