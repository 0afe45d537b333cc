/* bench/bench.h -- what the benchmark programs of bench/ share: clocks,
 * sorting the times, a one-flag command line, the demos' boundary values
 * and the checksum hook.
 *
 * Include it after the toolkit header the program uses (the checksum hook
 * is there only when tiling.h is), and define _POSIX_C_SOURCE (199309L or
 * later, for clock_gettime) before any header.  Every name starts with
 * bench_; nothing here is part of the toolkit. */
#ifndef TILEHYBRID_BENCH_H
#define TILEHYBRID_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../demos/edge.h"   /* demo_g(), the boundary callbacks */

/* Wall time in seconds (CLOCK_MONOTONIC). */
static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The calling thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID). */
static inline double bench_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* qsort's comparison of two doubles, ascending. */
static inline int bench_cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sort the n times t ascending (the median is then t[n / 2]). */
static inline void bench_sort(double *t, size_t n)
{
    qsort(t, n, sizeof *t, bench_cmpd);
}

/* The command line of a program whose only option is `flag` (and -h,
 * --help: usage(stdout)).  Returns -1 to run (*set = 1 when flag was
 * given), else the exit status: 0 after --help, 2 after anything else
 * (said on stderr, with prog's name). */
static inline int bench_flag_args(int argc, char **argv, const char *prog, const char *flag,
                                  void (*usage)(FILE *), int *set)
{
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[i], flag) != 0) {
            fprintf(stderr, "%s: unknown %s '%s' (see --help)\n", prog,
                    argv[i][0] == '-' ? "option" : "argument", argv[i]);
            return 2;
        }
        *set = 1;
    }
    return -1;
}

/* A bad argument of program prog: one line on stderr, exit status 2. */
static inline int bench_bad(const char *prog, const char *what, const char *arg,
                            const char *want)
{
    fprintf(stderr, "%s: %s '%s': expected %s (see --help)\n", prog, what, arg, want);
    return 2;
}

#endif

#if defined(TILEHYBRID_TILING_H) && !defined(TILEHYBRID_BENCH_TILING_H)
#define TILEHYBRID_BENCH_TILING_H
/* An output hook (tile_output_set, TILE_LAYOUT_Z_LAST) that adds the bit
 * pattern of every double of each finished tile to *(uint64_t *)ctx: the
 * checksum the demos print. */
static inline int bench_sum_bits(void *ctx, const tile_plan *plan, const tile_piece *pc)
{
    uint64_t *sum = (uint64_t *)ctx, u;
    size_t i, n = pc->bytes / sizeof(double);
    (void)plan;
    for (i = 0; i < n; i++) {
        memcpy(&u, (const double *)pc->data + i, sizeof u);
        *sum += u;
    }
    return 0;
}
#endif
