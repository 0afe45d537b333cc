/* bench/inner_order.c -- the in-tile orders on one process: the ADI and DE
 * demo kernels (demos/adi.c, demos/de.c, the same bodies without the
 * checksum) computed by the toolkit with cfg.order forced to each order,
 * CPU time of the run (this thread), median of ROUNDS runs, and the
 * checksum of every value (a second, untimed run of the same plan hands
 * each finished tile to an output hook that sums the bit patterns, as
 * bench/seq_kernels does for the plain loop).
 *
 *   mpiexec -n 1 ./build/bench/inner_order adi|de X1 X2 Z planes|z|hyper|auto HEIGHT ROUNDS
 *
 * prints one JSON line: kernel, space, order asked and run, tile height,
 * median seconds, G points/s, checksum.  Exit status 0, 1 (the plan or a
 * run failed), 2 (bad arguments). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tiling.h"
#include "bench.h"

static void run(tile_plan *p, int de)
{
    if (!de) {
        TILE_FOREACH_GROUP(p, gr)
            TILE_MPI_STEP(gr, it, {
                TILE_AT(double, it, 0, 0, 0) =
                    ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0))
                     + TILE_AT(double, it, 0, 0, -1)) / 3.0;
            });
    } else {
        TILE_FOREACH_GROUP(p, gr)
            TILE_MPI_STEP(gr, it, {
                double sx = ((4.0 * TILE_AT(double, it, -1, 0, 0) +
                              2.0 * TILE_AT(double, it, -2, 0, 0)) +
                             TILE_AT(double, it, -3, 0, 0)) / 7.0;
                double sy = ((4.0 * TILE_AT(double, it, 0, -1, 0) +
                              2.0 * TILE_AT(double, it, 0, -2, 0)) +
                             TILE_AT(double, it, 0, -3, 0)) / 7.0;
                TILE_AT(double, it, 0, 0, 0) = 0.5 * TILE_AT(double, it, 0, 0, -1) + 0.25 * (sx + sy);
            });
    }
}

int main(int argc, char **argv)
{
    static const char *const names[4] = { "planes", "z", "hyper", "auto" };
    int64_t e[6];
    double t[64];
    uint64_t sum = 0;
    int de, order, r, rounds, k;
    tile_config cfg;
    tile_plan plan;
    MPI_Init(&argc, &argv);
    if (argc != 8 || (strcmp(argv[1], "adi") != 0 && strcmp(argv[1], "de") != 0)) {
        fprintf(stderr, "usage: inner_order adi|de X1 X2 Z planes|z|hyper|auto HEIGHT ROUNDS\n");
        MPI_Finalize();
        return 2;
    }
    for (order = 0; order < 4 && strcmp(argv[5], names[order]) != 0; order++)
        ;
    for (k = 0; k < 3; k++)
        if (tilehybrid_parse_i64(argv[2 + k], 1, INT64_MAX, &e[k]) != TILEHYBRID_OK)
            order = 4;
    if (order == 4 || tilehybrid_parse_i64(argv[6], 1, INT64_MAX, &e[3]) != TILEHYBRID_OK ||
        tilehybrid_parse_i64(argv[7], 1, 63, &e[4]) != TILEHYBRID_OK) {
        fprintf(stderr, "inner_order: bad arguments (see the usage in bench/inner_order.c)\n");
        MPI_Finalize();
        return 2;
    }
    de = strcmp(argv[1], "de") == 0;
    rounds = (int)e[4];
    tile_config_init(&cfg, 2);
    cfg.extent[0] = e[0];
    cfg.extent[1] = e[1];
    cfg.zlen = e[2];
    cfg.dep[0] = cfg.dep[1] = de ? 3 : 1;
    cfg.depz = 1;
    cfg.tile_height = e[3];
    cfg.order = order;
    cfg.boundary = bench_edge;
    if (tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) != TILE_OK) {
        fprintf(stderr, "inner_order: %s\n", plan.errmsg);
        tile_plan_destroy(&plan);
        MPI_Finalize();
        return 1;
    }
    for (r = 0; r < rounds; r++) {
        double t0 = bench_cpu_now();
        run(&plan, de);
        t[r] = bench_cpu_now() - t0;
    }
    if (tile_plan_status(&plan) == TILE_OK &&
        tile_output_set(&plan, bench_sum_bits, &sum, TILE_LAYOUT_Z_LAST, NULL) == TILE_OK)
        run(&plan, de);
    if (tile_plan_status(&plan) != TILE_OK) {
        fprintf(stderr, "inner_order: %s\n", plan.errmsg);
        tile_plan_destroy(&plan);
        MPI_Finalize();
        return 1;
    }
    bench_sort(t, (size_t)rounds);
    if (plan.rank == 0)
        printf("{\"kernel\": \"%s\", \"space\": \"%lldx%lldx%lld\", \"order\": \"%s\", "
               "\"order_run\": \"%s\", \"tile_height\": %lld, \"rounds\": %d, \"seconds\": %.4f, "
               "\"gpoints\": %.4f, \"checksum\": \"%016llx\"}\n", argv[1], (long long)e[0],
               (long long)e[1], (long long)e[2], names[order], names[plan.store.order],
               (long long)e[3], rounds, t[rounds / 2],
               (double)(e[0] * e[1] * e[2]) / t[rounds / 2] / 1e9, (unsigned long long)sum);
    tile_plan_destroy(&plan);
    MPI_Finalize();
    return 0;
}
