/* bench/bench_topology.c -- how long topo_grid() takes to find the exact
 * communication-optimal grid.
 *
 *   build/bench/bench_topology          the standard sweep (about a minute)
 *   build/bench/bench_topology --full   also every P in 1..2^20 for N = 4
 *   build/bench/bench_topology --help   the usage (exit 0; bad arguments: 2)
 *
 * For each N, iteration-space shape and set of process counts P it times
 * every solve with clock_gettime(CLOCK_MONOTONIC), keeps the fastest of 3
 * runs per P (the machine is shared; a preempted run measures the
 * scheduler), and prints the median and the maximum over P (with the P
 * that took longest).  The latency grid
 * (topo_dims_create) is timed the same way for comparison. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#define TILEHYBRID_NO_MPI

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "topology.h"
#include "bench.h"

/* Highly composite numbers up to 10^6, plus some other hard cases. */
static const int64_t hard[] = {
    5040, 7560, 10080, 15120, 20160, 25200, 27720, 45360, 50400, 55440,
    83160, 110880, 166320, 221760, 277200, 332640, 498960, 554400, 665280,
    720720, 831600, 942480, 982800, 997920, 65536, 262144, 524288, 1048576,
    1000000, 999999, 604800, 907200};
#define NHARD ((int)(sizeof hard / sizeof hard[0]))

typedef struct shape {
    const char *name;
    int n;
    int64_t x[TOPO_MAX_DIMS], d[TOPO_MAX_DIMS];
} shape;

#define REPEAT 3

static double *samples;
static int64_t *sample_p;

/* Time topo_grid (or topo_dims_create when latency) over the P list. */
static void run(const shape *s, const char *setname, const int64_t *ps,
                int count, int latency)
{
    int i, j, k = 0, fails = 0;
    double med, mx = 0;
    int64_t pmax = 0;
    for (i = 0; i < count; i++) {
        int dims[TOPO_MAX_DIMS], rep, rc = TOPO_OK;
        double best = 1e30;
        /* the fastest of REPEAT runs: the machine is shared, and a
         * preempted run says nothing about the search */
        for (rep = 0; rep < REPEAT && rc == TOPO_OK; rep++) {
            double t0, t1;
            for (j = 0; j < s->n; j++)
                dims[j] = 0;
            t0 = bench_now();
            if (latency)
                rc = topo_dims_create(ps[i], s->n, dims, NULL);
            else
                rc = topo_grid(s->n, ps[i], s->x, s->d, TOPO_POLICY_COMM,
                               dims);
            t1 = bench_now();
            if (t1 - t0 < best)
                best = t1 - t0;
        }
        if (rc != TOPO_OK) {
            fails++;
            continue;
        }
        samples[k] = best;
        sample_p[k] = ps[i];
        if (samples[k] > mx) {
            mx = samples[k];
            pmax = ps[i];
        }
        k++;
    }
    if (k == 0) {
        printf("%-2d %-22s %-16s %-9s no feasible P\n", s->n, s->name,
               setname, latency ? "latency" : "comm");
        return;
    }
    bench_sort(samples, (size_t)k);
    med = samples[k / 2];
    printf("%-2d %-22s %-16s %-9s %8d %10.1f %10.1f   P=%lld%s\n", s->n,
           s->name, setname, latency ? "latency" : "comm", k, med * 1e6,
           mx * 1e6, (long long)pmax,
           fails ? " (some P infeasible, skipped)" : "");
    fflush(stdout);
}

/* Random shapes (extents 2^0..2^30 plus noise, smaller for large N so that
 * V fits in 64 bits; widths 0..1000) against the hard P list: the worst
 * cases found by chance. */
static void run_random_shapes(int n, int count, uint64_t *seed)
{
    int c, k = 0, j;
    int maxe = 58 / (n - 1) < 30 ? 58 / (n - 1) : 30; /* V must fit */
    double med, mx = 0;
    int64_t pmax = 0;
    for (c = 0; c < count; c++) {
        shape s;
        int dims[TOPO_MAX_DIMS], rep, rc = TOPO_OK;
        double best = 1e30;
        int64_t p;
        s.name = "random";
        s.n = n;
        for (j = 0; j < n; j++) {
            *seed = *seed * 6364136223846793005u + 1442695040888963407u;
            s.x[j] = ((int64_t)1 << ((*seed >> 33) % (uint64_t)maxe)) +
                     (int64_t)((*seed >> 13) % 1000);
            s.d[j] = (*seed >> 50) % 4 == 0 ? 0
                     : (*seed >> 45) % 2   ? 1 + (int64_t)((*seed >> 20) % 3)
                                           : 1 + (int64_t)((*seed >> 24) % 1000);
        }
        p = hard[(*seed >> 40) % NHARD];
        for (rep = 0; rep < REPEAT && rc == TOPO_OK; rep++) {
            double t0, t1;
            for (j = 0; j < n; j++)
                dims[j] = 0;
            t0 = bench_now();
            rc = topo_grid(n, p, s.x, s.d, TOPO_POLICY_COMM, dims);
            t1 = bench_now();
            if (t1 - t0 < best)
                best = t1 - t0;
        }
        if (rc != TOPO_OK)
            continue;
        samples[k++] = best;
        if (best > mx) {
            mx = best;
            pmax = p;
        }
    }
    if (k == 0)
        return;
    bench_sort(samples, (size_t)k);
    med = samples[k / 2];
    printf("%-2d %-22s %-16s %-9s %8d %10.1f %10.1f   P=%lld\n", n,
           "random X, d", "hard (HCN etc.)", "comm", k, med * 1e6, mx * 1e6,
           (long long)pmax);
    fflush(stdout);
}

static void usage(FILE *f)
{
    fputs("usage: bench_topology [--full]\n"
          "Times topo_grid() over many process counts and shapes (about a minute)\n"
          "and prints the median and the largest solve time per set.\n"
          "  --full       also every P in 1..2^20 for N = 4 (much longer)\n"
          "  -h, --help   print this help and exit\n"
          "Exit status: 0 ok, 1 out of memory, 2 bad arguments.\n", f);
}

/* The fixed shapes of the sweep (shapes zeroed, room for 8); returns their
 * number. */
static int make_shapes(shape *shapes)
{
    int j, ns = 0;
    shapes[ns].name = "cube 2^20";
    shapes[ns].n = 4;
    for (j = 0; j < 4; j++) {
        shapes[ns].x[j] = (int64_t)1 << 20;
        shapes[ns].d[j] = 1;
    }
    ns++;
    shapes[ns].name = "2^22x2^20x2^18x2^16";
    shapes[ns].n = 4;
    for (j = 0; j < 4; j++) {
        shapes[ns].x[j] = (int64_t)1 << (22 - 2 * j);
        shapes[ns].d[j] = j == 3 ? 0 : (j < 2 ? 3 : 1);
    }
    ns++;
    shapes[ns].name = "tight 64^4";
    shapes[ns].n = 4;
    for (j = 0; j < 4; j++) {
        shapes[ns].x[j] = 64;
        shapes[ns].d[j] = 1 + j;
    }
    ns++;
    shapes[ns].name = "2-D 4096x1024";
    shapes[ns].n = 2;
    shapes[ns].x[0] = 4096;
    shapes[ns].x[1] = 1024;
    shapes[ns].d[0] = shapes[ns].d[1] = 1;
    ns++;
    shapes[ns].name = "3-D 1000^3";
    shapes[ns].n = 3;
    for (j = 0; j < 3; j++) {
        shapes[ns].x[j] = 1000;
        shapes[ns].d[j] = 1;
    }
    ns++;
    shapes[ns].name = "8-D 128^8";
    shapes[ns].n = 8;
    for (j = 0; j < 8; j++) {
        shapes[ns].x[j] = 128;
        shapes[ns].d[j] = 1 + (j % 3);
    }
    ns++;
    return ns;
}

int main(int argc, char **argv)
{
    int full = 0;
    int i, j, nlow = 20000, nrand = 3000, nnear = 2001, nall = 1 << 20;
    int64_t *low, *rnd, *near, *all = NULL;
    uint64_t seed = 12345;
    shape shapes[8];
    int ns = 0;

    if ((i = bench_flag_args(argc, argv, "bench_topology", "--full", usage, &full)) >= 0)
        return i;
    samples = (double *)malloc(sizeof(double) * (size_t)nall);
    sample_p = (int64_t *)malloc(sizeof(int64_t) * (size_t)nall);
    low = (int64_t *)malloc(sizeof(int64_t) * (size_t)nlow);
    rnd = (int64_t *)malloc(sizeof(int64_t) * (size_t)nrand);
    near = (int64_t *)malloc(sizeof(int64_t) * (size_t)nnear);
    if (!samples || !sample_p || !low || !rnd || !near)
        return 1;
    for (i = 0; i < nlow; i++)
        low[i] = i + 1;
    for (i = 0; i < nrand; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        rnd[i] = 1 + (int64_t)((seed >> 33) % 1000000);
    }
    for (i = 0; i < nnear; i++)
        near[i] = (1 << 20) - 2000 + i;

    memset(shapes, 0, sizeof shapes);
    ns = make_shapes(shapes);

    printf("topo_grid solve times in microseconds (%s)\n",
           full ? "full sweep" : "standard sweep");
    printf("%-2s %-22s %-16s %-9s %8s %10s %10s   %s\n", "N", "shape",
           "P set", "policy", "solves", "median_us", "max_us", "slowest");
    for (i = 0; i < ns; i++) {
        run(&shapes[i], "1..20000", low, nlow, 0);
        run(&shapes[i], "2^20-2000..2^20", near, nnear, 0);
        run(&shapes[i], "3000 random<=1e6", rnd, nrand, 0);
        run(&shapes[i], "hard (HCN etc.)", hard, NHARD, 0);
    }
    run_random_shapes(3, 2000, &seed);
    run_random_shapes(4, 2000, &seed);
    run_random_shapes(6, 500, &seed);
    run_random_shapes(8, 500, &seed);
    run(&shapes[0], "hard (HCN etc.)", hard, NHARD, 1);
    run(&shapes[5], "hard (HCN etc.)", hard, NHARD, 1);
    {
        /* beyond the stated limits: the largest divisor counts below 2^31 */
        static const int64_t huge[] = {2095133040, 1102701600, 735134400,
                                       2147483647, 1073741824};
        shape s16;
        memset(&s16, 0, sizeof s16);
        s16.name = "16-D 16^16";
        s16.n = 16;
        for (j = 0; j < 16; j++) {
            s16.x[j] = 16;
            s16.d[j] = 1;
        }
        run(&shapes[0], "P near 2^31", huge, 5, 0);
        run(&shapes[5], "P near 2^31", huge, 5, 0);
        run(&s16, "P near 2^31", huge, 5, 0);
    }
    if (full) {
        all = (int64_t *)malloc(sizeof(int64_t) * (size_t)nall);
        if (!all)
            return 1;
        for (i = 0; i < nall; i++)
            all[i] = i + 1;
        for (i = 0; i < 3; i++)
            run(&shapes[i], "all 1..2^20", all, nall, 0);
        free(all);
    }
    free(samples);
    free(sample_p);
    free(low);
    free(rnd);
    free(near);
    return 0;
}
