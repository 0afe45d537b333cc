/* tests/check.h -- TAP output for the C test programs.
 *
 * Every check prints one TAP line (the Test Anything Protocol, as read by
 * `prove` and by tests/run.sh):
 *
 *     ok 1 - name
 *     not ok 2 - name
 *     ok 3 - name # SKIP reason
 *     # a diagnostic
 *     1..3
 *
 * The plan line comes last, from check_exit(), so a program that crashes or
 * stops early has no plan (or fewer tests than its plan) and fails.  Run one
 * program with prove (after `make check` built it):
 *
 *     prove -v build/tests/unit_topology
 *     prove -v --exec 'mpiexec -n 2' build/tests/mpi_topology
 *
 * In a name, '#' is written "\#" (as Test::More does) and a newline as a
 * space, so that no name can read as a directive or break a line.
 *
 * In MPI tests use check_mpi(): the condition is combined over all ranks with
 * MPI_Allreduce (logical and) and only rank 0 prints, so a check fails when
 * any rank fails.  Every rank must call it the same number of times.  check()
 * and check_skip() print on the rank that calls them: in an MPI test call them
 * on rank 0 alone.  Only the process that printed test lines prints the plan.
 */
#ifndef TILEHYBRID_TESTS_CHECK_H
#define TILEHYBRID_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures;
static int check_count;
static int check_printed; /* test lines this process printed: their number */

/* Print a name: '#' escaped, newlines as spaces. */
static inline void check_name(const char *fmt, va_list ap)
{
    char buf[2048];
    const char *s;
    vsnprintf(buf, sizeof buf, fmt, ap);
    for (s = buf; *s; s++) {
        if (*s == '#')
            putchar('\\');
        putchar(*s == '\n' || *s == '\r' ? ' ' : *s);
    }
}

/* One test line: "ok N - name" or "not ok N - name", then " # SKIP reason"
 * when skip is not NULL. */
static inline void check_vprint(int ok, const char *skip, const char *fmt, va_list ap)
{
    printf("%sok %d - ", ok ? "" : "not ", ++check_printed);
    check_name(fmt, ap);
    if (skip)
        printf(" # SKIP %s", skip);
    putchar('\n');
    fflush(stdout);
}

/* Record one check named by a printf format.  Returns cond (0 or 1). */
static inline int check(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    check_vprint(cond != 0, NULL, fmt, ap);
    va_end(ap);
    check_count++;
    if (!cond)
        check_failures++;
    return cond != 0;
}

/* Record a check that cannot run here, and why (reason: one line). */
static inline void check_skip(const char *reason, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    check_vprint(1, reason, fmt, ap);
    va_end(ap);
    check_count++;
}

/* A diagnostic: "# " before every line of it (ignored by the counters). */
static inline void check_note(const char *fmt, ...)
{
    char buf[4096];
    const char *s;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fputs("# ", stdout);
    for (s = buf; *s; s++) {
        if (*s == '\n' && !s[1])
            break;
        putchar(*s);
        if (*s == '\n')
            fputs("# ", stdout);
    }
    putchar('\n');
    fflush(stdout);
}

/* The plan line, then the exit status for main(): non-zero when any check
 * failed or none ran. */
static inline int check_exit(void)
{
    if (check_printed > 0) {
        printf("1..%d\n", check_printed);
        fflush(stdout);
    }
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
        check_vprint(all, NULL, fmt, ap);
        va_end(ap);
    }
    return all;
}
#endif

#endif
