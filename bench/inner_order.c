/* bench/inner_order.c -- the in-tile orders: the ADI and DE demo kernels
 * (demos/adi.c, demos/de.c, the same bodies without the checksum) computed
 * by the toolkit with cfg.order forced to each order (or auto: the plan's
 * own choice), under any model, ROUNDS runs of one plan, and the checksum
 * of every value (a last, untimed run of the same plan hands each finished
 * tile to an output hook that sums the bit patterns, as bench/seq_kernels
 * does for the plain loop; the ranks' sums are added).
 *
 *   mpiexec -n P ./build/bench/inner_order adi|de X1 X2 Z planes|z|hyper|auto HEIGHT ROUNDS
 *                                          [mpi|fine|funneled|multiple THREADS] [--json]
 *
 * HEIGHT 0 lets the plan choose the tile height (its model; the first run
 * times the body and the plan may choose again for the next runs).  The
 * model is mpi with 1 thread unless given.  Prints one JSON line (always;
 * --json is accepted for bench/lib.sh's run_json): kernel, space, order
 * asked and run, model, processes, threads, the tile height of the first
 * run and of the last, the median over the rounds of the run's wall time
 * (the slowest rank's, from a barrier before the run to its end: seconds)
 * and of rank 0's CPU time (this thread's: cpu_seconds), G points/s from
 * the wall time, checksum, and per_thread: every rank's compute, comm and
 * idle seconds per thread (tile_stats: the thread's time in the run's
 * steps; the run's start and end, a few collectives, are in none of them)
 * in the round of the median wall time, as the demos print them
 * ({"compute": [[rank 0's threads], [rank 1's], ...], ...}): where a run
 * loses its time.
 * Exit status 0, 1 (the plan or a run failed), 2 (bad arguments; --help
 * prints the usage). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hybrid.h"
#include "bench.h"
#include "tools/options.h"      /* opt_words */

static void run(tile_plan *p, int de)
{
    if (!de) {
        HYBRID_RUN(p, it, {
            TILE_AT(double, it, 0, 0, 0) =
                ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0))
                 + TILE_AT(double, it, 0, 0, -1)) / 3.0;
        });
    } else {
        HYBRID_RUN(p, it, {
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

/* The index of s in names[0..n-1], or n. */
static int lookup(const char *s, const char *const *names, int n)
{
    int i;
    for (i = 0; i < n && strcmp(s, names[i]) != 0; i++)
        ;
    return i;
}

static void usage(FILE *f)
{
    fputs("usage: inner_order adi|de X1 X2 Z planes|z|hyper|auto HEIGHT ROUNDS "
          "[mpi|fine|funneled|multiple THREADS] [--json]\n"
          "Runs the ADI or DE demo kernel (without its checksum) over X1 x X2 x Z with the\n"
          "in-tile order given (auto: the plan's choice), tile height HEIGHT (0: the plan\n"
          "chooses), ROUNDS (1-63) runs of one plan, under the model given (default mpi,\n"
          "1 thread), and prints one JSON line: the median wall time of a run (the\n"
          "slowest rank's), rank 0's CPU time, G points/s, the checksum of every value,\n"
          "and every rank's compute, comm and idle seconds per thread in the median\n"
          "round (per_thread).\n"
          "  -h, --help   print this help and exit\n"
          "Exit status: 0 ok, 1 the plan or a run failed, 2 bad arguments.\n", f);
}

static int bad(const char *what, const char *arg, const char *want)
{
    return bench_bad("inner_order", what, arg, want);
}

/* Report msg (rank 0), free mem and the plan, end MPI: exit status 1. */
static int fail(tile_plan *plan, const char *msg, void *mem)
{
    if (plan->rank == 0)
        fprintf(stderr, "inner_order: %s\n", msg);
    free(mem);
    tile_plan_destroy(plan);
    MPI_Finalize();
    return 1;
}

static const char *const models[4] = { "mpi", "fine", "funneled", "multiple" };

/* The command line: the kernel (de), X1 X2 Z HEIGHT ROUNDS in e[0..4], the
 * order, the model and its threads. */
typedef struct opts {
    int de, order, model;
    int64_t e[5], threads;
} opts;

/* Read the command line into o: -1, or the exit status (0 after --help, 2
 * for bad arguments, with the message printed). */
static int parse(int argc, char **argv, opts *o)
{
    static const char *const dims[3] = { "X1", "X2", "Z" };
    int k, nargs = argc;
    o->model = TILE_MODEL_MPI;
    o->threads = 1;
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (nargs > 1 && strcmp(argv[nargs - 1], "--json") == 0)
        nargs--;
    if (nargs != 8 && nargs != 10) {
        fprintf(stderr, "inner_order: expected 7 or 9 arguments, adi|de X1 X2 Z ORDER HEIGHT "
                        "ROUNDS [MODEL THREADS], got %d (see --help)\n", nargs - 1);
        return 2;
    }
    if (strcmp(argv[1], "adi") != 0 && strcmp(argv[1], "de") != 0)
        return bad("kernel", argv[1], "adi or de");
    for (k = 0; k < 3; k++)
        if (tilehybrid_parse_i64(argv[2 + k], 1, INT64_MAX, &o->e[k]) != TILEHYBRID_OK)
            return bad(dims[k], argv[2 + k], "a whole number >= 1");
    if ((o->order = tile_order_parse(argv[5])) < 0) {
        char w[128];
        return bad("order", argv[5],
                   opt_words(w, sizeof w, tile_order_name, 0, TILE_ORDER_AUTO));
    }
    if (tilehybrid_parse_i64(argv[6], 0, INT64_MAX, &o->e[3]) != TILEHYBRID_OK)
        return bad("HEIGHT", argv[6], "a whole number >= 0 (0: the plan chooses)");
    if (tilehybrid_parse_i64(argv[7], 1, 63, &o->e[4]) != TILEHYBRID_OK)
        return bad("ROUNDS", argv[7], "1 to 63");
    if (nargs == 10 && (o->model = lookup(argv[8], models, 4)) == 4)
        return bad("model", argv[8], "mpi, fine, funneled or multiple");
    if (nargs == 10 && tilehybrid_parse_i64(argv[9], 1, 256, &o->threads) != TILEHYBRID_OK)
        return bad("THREADS", argv[9], "1 to 256");
    o->de = strcmp(argv[1], "de") == 0;
    return -1;
}

/* The plan's configuration: the kernel's widths, the space, the height, the
 * order and the model of o. */
static void configure(tile_config *cfg, const opts *o)
{
    tile_config_init(cfg, 2);
    cfg->extent[0] = o->e[0];
    cfg->extent[1] = o->e[1];
    cfg->zlen = o->e[2];
    cfg->dep[0] = cfg->dep[1] = o->de ? 3 : 1;
    cfg->depz = 1;
    cfg->tile_height = o->e[3];
    cfg->order = o->order;
    cfg->model = o->model;
    cfg->threads = (int)o->threads;
    cfg->boundary_row = demo_edge_row;
}

/* The timed rounds: in round r the slowest rank's wall time t[r] (and
 * tw[r], kept in round order), this rank's CPU time c[r], each thread's
 * compute, comm and idle seconds in tc.  NULL, or what failed. */
static const char *time_rounds(tile_plan *plan, int de, int rounds, double *t, double *c,
                               double *tw, double *tc)
{
    int r, k, nt = plan->cfg.threads;
    for (r = 0; r < rounds; r++) {
        double t0, c0, w;
        if (MPI_Barrier(plan->comm) != MPI_SUCCESS)
            return "MPI_Barrier failed";
        t0 = bench_now();
        c0 = bench_cpu_now();
        run(plan, de);
        c[r] = bench_cpu_now() - c0;
        w = bench_now() - t0;
        for (k = 0; k < nt; k++) {
            tc[3 * (r * nt + k)] = plan->run.stats[k].compute;
            tc[3 * (r * nt + k) + 1] = plan->run.stats[k].comm;
            tc[3 * (r * nt + k) + 2] = plan->run.stats[k].idle;
        }
        if (MPI_Allreduce(&w, &t[r], 1, MPI_DOUBLE, MPI_MAX, plan->comm) != MPI_SUCCESS)
            return "MPI_Allreduce failed (the slowest rank's time)";
        tw[r] = t[r];
    }
    return NULL;
}

/* Rank 0: the JSON line, the per-thread times of every rank (all) at the
 * end. */
static void print_json(const char *kernel, const opts *o, const tile_plan *plan,
                       int64_t z_first, const double *t, const double *c, uint64_t total,
                       const double *all)
{
    int rounds = (int)o->e[4];
    printf("{\"kernel\": \"%s\", \"space\": \"%lldx%lldx%lld\", \"order\": \"%s\", "
           "\"order_run\": \"%s\", \"model\": \"%s\", \"processes\": %d, \"threads\": %d, "
           "\"tile_height_first\": %lld, \"tile_height\": %lld, \"rounds\": %d, "
           "\"seconds\": %.6f, \"cpu_seconds\": %.6f, \"gpoints\": %.4f, "
           "\"checksum\": \"%016llx\"", kernel, (long long)o->e[0], (long long)o->e[1],
           (long long)o->e[2], tile_order_name(o->order), tile_order_name(plan->store.order), models[o->model],
           plan->size, plan->cfg.threads, (long long)z_first, (long long)plan->height.z, rounds,
           t[rounds / 2], c[rounds / 2],
           (double)(o->e[0] * o->e[1] * o->e[2]) / t[rounds / 2] / 1e9,
           (unsigned long long)total);
    demo_json_stats(all, plan->size, plan->cfg.threads);   /* per_thread, as the demos print it */
    printf("}\n");
}

int main(int argc, char **argv)
{
    double t[64], c[64], tw[64];
    double *tc = NULL, *all = NULL;     /* compute, comm, idle per round and thread; all ranks' */
    uint64_t sum = 0, total = 0;
    int med, rounds, nt, rc;
    int64_t z_first;
    const char *failed;
    opts o;
    tile_config cfg;
    tile_plan plan;
    if ((rc = parse(argc, argv, &o)) >= 0)
        return rc;
    if (hybrid_init(&argc, &argv, o.model, (int)o.threads, NULL) != TILE_OK) {
        fprintf(stderr, "inner_order: MPI does not provide the thread level of model %s\n",
                models[o.model]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    rounds = (int)o.e[4];
    configure(&cfg, &o);
    if (tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) != TILE_OK)
        return fail(&plan, plan.errmsg, tc);
    z_first = plan.height.z;
    nt = plan.cfg.threads;
    tc = (double *)malloc(sizeof *tc * 3 * (size_t)(rounds + plan.size) * (size_t)nt);
    if (tc == NULL)
        return fail(&plan, "out of memory (the per-thread times)", tc);
    if ((failed = time_rounds(&plan, o.de, rounds, t, c, tw, tc)) != NULL)
        return fail(&plan, failed, tc);
    if (tile_plan_status(&plan) == TILE_OK &&
        tile_output_set(&plan, bench_sum_bits, &sum, TILE_LAYOUT_Z_LAST, NULL) == TILE_OK)
        run(&plan, o.de);
    if (tile_plan_status(&plan) != TILE_OK)
        return fail(&plan, plan.errmsg, tc);
    if (MPI_Reduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, 0, plan.comm) != MPI_SUCCESS)
        return fail(&plan, "MPI_Reduce failed (the checksum)", tc);
    bench_sort(t, (size_t)rounds);
    bench_sort(c, (size_t)rounds);
    for (med = 0; med < rounds - 1 && tw[med] != t[rounds / 2]; med++)
        ;   /* the round of the median wall time (the same on every rank) */
    all = tc + 3 * (size_t)rounds * (size_t)nt;
    if (MPI_Gather(tc + 3 * (size_t)med * (size_t)nt, 3 * nt, MPI_DOUBLE, all, 3 * nt,
                   MPI_DOUBLE, 0, plan.comm) != MPI_SUCCESS)
        return fail(&plan, "MPI_Gather failed (the per-thread times)", tc);
    if (plan.rank == 0)
        print_json(argv[1], &o, &plan, z_first, t, c, total, all);
    free(tc);
    tile_plan_destroy(&plan);
    MPI_Finalize();
    return 0;
}
