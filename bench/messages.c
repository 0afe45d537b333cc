/* bench/messages.c -- what the face messages cost: the ADI demo kernel
 * (demos/adi.c's body without the checksum) under one model with two kinds
 * of face messages (cfg.messages: persistent requests, nonblocking
 * MPI_Isend/MPI_Irecv per tile, MPI-4 partitioned), one plan each, runs
 * alternating A B A B ... so that a drift of the machine hits both alike.
 * Each run's time is its wall time (plan.run.seconds), the slowest rank's;
 * the medians are printed with their ratio.  Then one more run of each plan
 * hands every finished tile to an output hook that sums the bit patterns
 * (summed over the ranks): both checksums must be equal, or the program
 * exits 1.
 *
 *   mpiexec -n P ./build/bench/messages MODEL THREADS X1 X2 Z HEIGHT ROUNDS KIND_A KIND_B
 *
 * MODEL: mpi, fine, funneled, multiple; KIND: persistent, nonblocking,
 * partitioned (the multiple model with MPI-4; elsewhere the plan falls back
 * to persistent, and "kind_run" says so).  Prints one JSON line.  Exit
 * status 0, 1 (a plan or a run failed, or the checksums differ), 2 (bad
 * arguments). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hybrid.h"
#include "bench.h"

static const char *const kinds[3] = { "persistent", "nonblocking", "partitioned" };

/* One run; its wall time on the slowest rank, or -1 if it failed. */
static double run(tile_plan *p)
{
    double t = -1, most = 0;
    HYBRID_RUN(p, it, {
        TILE_AT(double, it, 0, 0, 0) =
            ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0))
             + TILE_AT(double, it, 0, 0, -1)) / 3.0;
    });
    if (tile_plan_status(p) == TILE_OK)
        t = p->run.seconds;
    MPI_Allreduce(&t, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t < 0 ? -1 : most;
}

/* The checksum of one more run (every rank's points), 0 on failure. */
static uint64_t checksum(tile_plan *p)
{
    uint64_t mine = 0, all = 0;
    if (tile_output_set(p, bench_sum_bits, &mine, TILE_LAYOUT_Z_LAST, NULL) == TILE_OK)
        run(p);
    MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return tile_plan_status(p) == TILE_OK ? all : 0;
}

/* The kind named s, or -1. */
static int kind_of(const char *s)
{
    int k;
    for (k = 0; k < 3 && strcmp(s, kinds[k]) != 0; k++)
        ;
    return k < 3 ? k : -1;
}

static int parse(int argc, char **argv, int *model, int64_t *e, int *kind)
{
    int k;
    if (argc != 10)
        return 0;
    for (*model = 0; tile_model_name(*model) != NULL; ++*model)
        if (strcmp(argv[1], tile_model_name(*model)) == 0)
            break;
    for (k = 0; k < 6; k++)
        if (tilehybrid_parse_i64(argv[2 + k], 1, k == 5 ? 99 : INT64_MAX, &e[k]) != TILEHYBRID_OK)
            return 0;
    kind[0] = kind_of(argv[8]);
    kind[1] = kind_of(argv[9]);
    return tile_model_name(*model) != NULL && kind[0] >= 0 && kind[1] >= 0;
}

int main(int argc, char **argv)
{
    int64_t e[6];
    double t[2][99], med[2];
    uint64_t sum[2];
    int model = 0, kind[2], ok, r, j, rank = 0;
    tile_config cfg;
    tile_plan plan[2];
    ok = parse(argc, argv, &model, e, kind);
    if (hybrid_init(&argc, &argv, ok ? model : TILE_MODEL_MULTIPLE, ok ? (int)e[0] : 2, NULL)
        != TILE_OK || !ok) {
        fprintf(stderr, "usage: messages MODEL THREADS X1 X2 Z HEIGHT ROUNDS KIND_A KIND_B "
                "(bench/messages.c)\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    tile_config_init(&cfg, 2);
    cfg.extent[0] = e[1];
    cfg.extent[1] = e[2];
    cfg.zlen = e[3];
    cfg.tile_height = e[4];
    cfg.model = model;
    cfg.threads = (int)e[0];
    cfg.boundary_row = demo_edge_row;
    for (j = 0; j < 2; j++) {
        cfg.messages = kind[j];
        if (tile_plan_create(&plan[j], MPI_COMM_WORLD, &cfg) != TILE_OK) {
            if (rank == 0)
                fprintf(stderr, "messages: %s\n", plan[j].errmsg);
            MPI_Finalize();
            return 1;
        }
    }
    ok = 1;
    for (r = 0; r < (int)e[5] && ok; r++)
        for (j = 0; j < 2; j++)
            ok = ok && (t[j][r] = run(&plan[j])) >= 0;
    for (j = 0; j < 2 && ok; j++) {
        sum[j] = checksum(&plan[j]);
        bench_sort(t[j], (size_t)e[5]);
        med[j] = t[j][e[5] / 2];
    }
    ok = ok && sum[0] == sum[1] && sum[0] != 0;
    if (rank == 0 && ok)
        printf("{\"model\": \"%s\", \"threads\": %lld, \"procs\": %d, \"space\": "
               "\"%lldx%lldx%lld\", \"tile_height\": %lld, \"rounds\": %lld, \"kind_a\": \"%s\", "
               "\"kind_b\": \"%s\", \"kind_a_run\": \"%s\", \"kind_b_run\": \"%s\", "
               "\"seconds_a\": %.4f, \"seconds_b\": %.4f, \"a_over_b\": %.4f, "
               "\"checksum\": \"%016llx\"}\n", argv[1], (long long)e[0], plan[0].size,
               (long long)e[1], (long long)e[2], (long long)e[3], (long long)e[4],
               (long long)e[5], kinds[kind[0]], kinds[kind[1]],
               kinds[plan[0].run.messaging], kinds[plan[1].run.messaging], med[0], med[1],
               med[0] / med[1], (unsigned long long)sum[0]);
    else if (rank == 0)
        fprintf(stderr, "messages: a run failed (%s / %s) or the checksums differ\n",
                plan[0].errmsg, plan[1].errmsg);
    tile_plan_destroy(&plan[0]);
    tile_plan_destroy(&plan[1]);
    MPI_Finalize();
    return ok ? 0 : 1;
}
