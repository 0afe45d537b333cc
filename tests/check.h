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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The tests' random numbers: xorshift64 (Marsaglia), the same sequence on
 * every rank and every machine for the same seed.  A test seeds it once at
 * the start of main() with check_rng_seed() (never 0). */
static uint64_t check_rng_state = 0x9e3779b97f4a7c15ull;

static inline void check_rng_seed(uint64_t seed)
{
    check_rng_state = seed;
}

/* The next 64 random bits. */
static inline uint64_t check_rnd(void)
{
    check_rng_state ^= check_rng_state << 13;
    check_rng_state ^= check_rng_state >> 7;
    check_rng_state ^= check_rng_state << 17;
    return check_rng_state;
}

/* A random whole number in [lo, hi] (lo <= hi). */
static inline int64_t check_rnd_in(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(check_rnd() % (uint64_t)(hi - lo + 1));
}

#ifdef MPI_VERSION
/* MPI_Init, then this process's rank and the size of MPI_COMM_WORLD (the
 * start of every MPI test's main). */
static inline void check_mpi_init(int *argc, char ***argv, int *rank, int *size)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
}

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

#ifdef TILEHYBRID_HYBRID_H
/* hybrid_init() for the multiple model with `threads` threads, then this
 * process's rank and the size of MPI_COMM_WORLD.  Returns 1 when ready; 0
 * when MPI_THREAD_MULTIPLE is not available: then a failing check has been
 * printed and MPI finalised, and main() returns 1. */
static inline int check_hybrid_init(int *argc, char ***argv, int threads, int *rank, int *size)
{
    int provided;
    if (hybrid_init(argc, argv, TILE_MODEL_MULTIPLE, threads, &provided) != TILE_OK) {
        check(0, "MPI_THREAD_MULTIPLE available");
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_size(MPI_COMM_WORLD, size);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    return 1;
}
#endif

#ifdef TILEHYBRID_TILING_H
/* A random case's plan on MPI_COMM_WORLD and a TILE_REDUCE_SUM_U64
 * reduction on it.  Returns 1 when both are ready; -1 when the plan was
 * refused for its sizes (TILE_ERR_TOO_MANY, _DEP_TOO_WIDE or _GRID: the
 * documented refusals of an impossible case); 0 on any other failure,
 * described in why.  The plan is destroyed unless 1 is returned. */
static inline int check_plan_create(tile_plan *plan, const tile_config *cfg,
                                    tile_reduction *acc, char *why, size_t whylen)
{
    int rc = tile_plan_create(plan, MPI_COMM_WORLD, cfg);
    if (rc != TILE_OK) {
        tile_plan_destroy(plan);
        if (rc == TILE_ERR_TOO_MANY || rc == TILE_ERR_DEP_TOO_WIDE || rc == TILE_ERR_GRID)
            return -1;
        snprintf(why, whylen, "unexpected error %d: %.200s", rc, plan->errmsg);
        return 0;
    }
    if (tile_reduction_init(plan, acc, TILE_REDUCE_SUM_U64, NULL) != TILE_OK) {
        snprintf(why, whylen, "tile_reduction_init failed");
        tile_plan_destroy(plan);
        return 0;
    }
    return 1;
}

/* Every point of a's 3-D space (x0 x x1 x zl, row-major, Z last) that this
 * rank owns equals the plan's, bit for bit.  Returns 1 or 0. */
static inline int check_same_3d(const tile_plan *p, const double *a, int64_t x0, int64_t x1,
                                int64_t zl)
{
    int64_t c[3];
    double v;
    for (c[2] = 0; c[2] < zl; c[2]++)
        for (c[0] = 0; c[0] < x0; c[0]++)
            for (c[1] = 0; c[1] < x1; c[1]++)
                if (tile_get(p, c, &v) == TILE_OK &&
                    memcmp(&v, &a[(c[0] * x1 + c[1]) * zl + c[2]], sizeof v) != 0)
                    return 0;
    return 1;
}
#endif

#ifdef TILEHYBRID_SCATTERLB_H
/* Rank `rank`'s costs among `size`: an order by bandwidth that is not the
 * rank order (a reordered communicator under SLB_ORDER_BANDWIDTH). */
static inline slb_affine check_slb_cost(int rank, int size)
{
    slb_affine a;
    a.comp0 = 0;
    a.mu = 1.0 + (rank % 3);
    a.comm0 = 0.01;
    a.lambda = 0.001 * (double)(size - rank);
    return a;
}
#endif

#endif
