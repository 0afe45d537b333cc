/* bench/bench_scatterlb.c -- how fast are the distributions of scatterlb.h?
 *
 *   build/bench/bench_scatterlb [--quick]     (--help: the usage, exit 0;
 *                                              bad arguments: exit 2)
 *
 * Median (and min, max) wall time of:
 *   - slb_exact on the paper's seismic instance (Table 1, n = 817,101 rays,
 *     p = 16), bandwidth order -- the paper's Algorithm 2 took 6 minutes on
 *     a Pentium III/933 for it -- in the file's order, and in ascending
 *     bandwidth order (the paper's Figure 4);
 *   - slb_heuristic for p = 1000 processors (linear costs, then with
 *     latencies), n = 10^7;
 *   - the paper's Algorithm 2 (ref_alg2, tests/slb_reference.h) and
 *     slb_exact on the seismic costs with smaller n.
 * Each result is checked (exact = dp bitwise, heuristic within eq. 4). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#define TILEHYBRID_NO_MPI
#include "scatterlb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

#define MAXRUNS 201

typedef struct stat {
    double med, min, max;
    int runs;
} stat;

static stat summarize(double *t, int runs)
{
    stat s;
    bench_sort(t, (size_t)runs);
    s.med = runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
    s.min = t[0];
    s.max = t[runs - 1];
    s.runs = runs;
    return s;
}

static void report(const char *what, stat s, const char *extra)
{
    printf("%-52s %10.3f ms  (min %.3f, max %.3f, %d runs)%s%s\n", what, 1e3 * s.med,
           1e3 * s.min, 1e3 * s.max, s.runs, extra ? "  " : "", extra ? extra : "");
}

#include "../tests/seismic.h"
#include "../tests/slb_reference.h"

typedef int (*solver)(const slb_problem *, int64_t, const int64_t *, int64_t *, double *,
                      slb_info *, tilehybrid_status *);

static stat time_solver(solver f, const slb_problem *pb, int64_t n, const int64_t *order,
                        int runs, slb_info *info, int64_t *counts)
{
    double t[MAXRUNS];
    int r;
    for (r = 0; r < runs; r++) {
        double t0 = bench_now();
        if (f(pb, n, order, counts, NULL, info, NULL) != SLB_OK) {
            fprintf(stderr, "bench_scatterlb: solver failed\n");
            exit(1);
        }
        t[r] = bench_now() - t0;
    }
    return summarize(t, runs);
}

static void usage(FILE *f)
{
    fputs("usage: bench_scatterlb [--quick]\n"
          "Times the distributions of scatterlb.h (exact, heuristic, Algorithm 2)\n"
          "on the seismic instance and on 1000 random processors.\n"
          "  --quick      fewer runs\n"
          "  -h, --help   print this help and exit\n"
          "Exit status: 0 ok, 1 a solver failed or disagrees, 2 bad arguments.\n", f);
}

/* p = 1000: random processors, linear costs then with latencies; 0, or 1
 * when the heuristic is not within its bound of the exact makespan. */
static int bench_p1000(int quick, int hruns, int64_t *counts)
{
    static slb_affine big[1000];
    static int64_t border[1000];
    uint64_t x = 12345;
    slb_problem pb;
    int64_t n;
    slb_info ie, ih;
    stat s;
    char buf[256];
    int i;
    for (i = 0; i < 1000; i++) {
        double u1, u2;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        u1 = (double)(x >> 11) / 9007199254740992.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        u2 = (double)(x >> 11) / 9007199254740992.0;
        big[i].mu = 0.002 + 0.02 * u1;
        big[i].lambda = i == 0 ? 0.0 : 1e-6 + 1e-4 * u2;
        big[i].comp0 = big[i].comm0 = 0;
    }
    pb = slb_problem_affine(1000, big);
    n = 10000000;
    {
        double t[MAXRUNS];
        int r;
        for (r = 0; r < hruns; r++) {
            double t0 = bench_now();
            slb_order_bandwidth(&pb, n, 0, border, NULL);
            t[r] = bench_now() - t0;
        }
        report("bandwidth order, p=1000", summarize(t, hruns), NULL);
    }
    s = time_solver(slb_heuristic, &pb, n, border, hruns, &ih, counts);
    snprintf(buf, sizeof buf, "makespan %.6f s, rational %.6f s, bound %.3g s", ih.makespan,
             ih.rational, ih.bound);
    report("heuristic, p=1000 n=10^7, linear costs", s, buf);
    s = time_solver(slb_exact, &pb, n, border, quick ? 3 : 11, &ie, counts);
    snprintf(buf, sizeof buf, "makespan %.6f s (heuristic - exact = %.3g s)", ie.makespan,
             ih.makespan - ie.makespan);
    report("exact, p=1000 n=10^7, linear costs", s, buf);
    if (ih.makespan < ie.makespan || ih.makespan > ie.makespan + ih.bound)
        return 1;
    for (i = 0; i < 1000; i++) {
        big[i].comm0 = 1e-3;
        big[i].comp0 = 5e-3;
    }
    s = time_solver(slb_heuristic, &pb, n, border, hruns, &ih, counts);
    snprintf(buf, sizeof buf, "makespan %.6f s, %lld search nodes", ih.makespan,
             (long long)ih.work);
    report("heuristic, p=1000 n=10^7, with latencies", s, buf);
    return 0;
}

int main(int argc, char **argv)
{
    int quick = 0, runs, hruns, i;
    slb_affine sa[16];
    slb_problem pb;
    int64_t order[16], given[16], counts[1000], n = 817101;
    slb_info ie, ih, id;
    stat s;
    char buf[256];

    if ((i = bench_flag_args(argc, argv, "bench_scatterlb", "--quick", usage, &quick)) >= 0)
        return i;
    runs = quick ? 5 : 21;
    hruns = quick ? 11 : 101;
    printf("scatterlb %s benchmark (%s)\n", SLB_VERSION, quick ? "quick" : "full");
    seismic(sa);
    pb = slb_problem_affine(16, sa);
    slb_order_bandwidth(&pb, n, 0, order, NULL);
    for (i = 0; i < 15; i++)
        given[i] = i + 1;
    given[15] = 0;

    s = time_solver(slb_exact, &pb, n, order, runs, &ie, counts);
    snprintf(buf, sizeof buf, "makespan %.6f s, %lld search nodes", ie.makespan,
             (long long)ie.work);
    report("exact, seismic n=817101 p=16, bandwidth order", s, buf);
    s = time_solver(slb_heuristic, &pb, n, order, runs, &ih, counts);
    snprintf(buf, sizeof buf, "makespan %.6f s (exact + %.3g)", ih.makespan,
             ih.makespan - ie.makespan);
    report("heuristic, seismic n=817101 p=16, bandwidth order", s, buf);
    s = time_solver(slb_exact, &pb, n, given, runs, &ie, counts);
    snprintf(buf, sizeof buf, "makespan %.6f s, %lld search nodes", ie.makespan,
             (long long)ie.work);
    report("exact, seismic n=817101 p=16, file order", s, buf);
    {
        int64_t asc[16];
        for (i = 0; i < 15; i++)
            asc[i] = order[14 - i];
        asc[15] = 0;
        s = time_solver(slb_exact, &pb, n, asc, runs, &ie, counts);
        snprintf(buf, sizeof buf, "makespan %.6f s, %lld search nodes", ie.makespan,
                 (long long)ie.work);
        report("exact, seismic n=817101 p=16, ascending bandwidth", s, buf);
    }

    /* Algorithm 2 vs exact on smaller n */
    {
        int64_t ns[2] = {20000, 100000};
        int k;
        for (k = 0; k < (quick ? 1 : 2); k++) {
            s = time_solver(ref_alg2, &pb, ns[k], order, quick ? 1 : 3, &id, counts);
            snprintf(buf, sizeof buf, "makespan %.6f s, %lld inner iterations", id.makespan,
                     (long long)id.work);
            {
                char what[80];
                snprintf(what, sizeof what, "dp (Algorithm 2), seismic n=%lld p=16",
                         (long long)ns[k]);
                report(what, s, buf);
                s = time_solver(slb_exact, &pb, ns[k], order, runs, &ie, counts);
                snprintf(what, sizeof what, "exact, seismic n=%lld p=16", (long long)ns[k]);
                snprintf(buf, sizeof buf, "%s Algorithm 2 bitwise",
                         ie.makespan_ticks == id.makespan_ticks ? "equals" : "DIFFERS FROM");
                report(what, s, buf);
                if (ie.makespan_ticks != id.makespan_ticks)
                    return 1;
            }
        }
    }

    return bench_p1000(quick, hruns, counts);
}
