/* step2_grid.c -- tutorial step 2: step 1 with a choice of process grid
 * (communication-optimal or latency-optimal) and the bytes each process sends.
 *
 *   mpicc -std=c99 -Wall -Wextra -pedantic -Werror -O2 -fopenmp -o step2_grid step2_grid.c
 *   mpiexec -n 4 ./step2_grid 16 256 1000 100 latency    (X Y Z tile-height grid)
 */
#include <errno.h>

#include "../../tiling.h"

static double boundary(int64_t x, int64_t y, int64_t z)
{
    return (double)((31 * x + 17 * y + 7 * z + 1000003) % 97) / 97.0;
}

/* The same boundary for the toolkit: c[0], c[1], c[2] are x, y, z. */
static void edge(void *out, const int64_t *c, void *ctx)
{
    (void)ctx;
    *(double *)out = boundary(c[0], c[1], c[2]);
}

#define A(x, y, z) a[((x) * Y + (y)) * Z + (z)]

/* Step 0's loop, unchanged: the reference. */
static void adi_seq(double *a, int64_t X, int64_t Y, int64_t Z)
{
    int64_t x, y, z;
    for (x = 0; x < X; x++)
        for (y = 0; y < Y; y++)
            for (z = 0; z < Z; z++) {
                double up = x > 0 ? A(x - 1, y, z) : boundary(-1, y, z);
                double left = y > 0 ? A(x, y - 1, z) : boundary(x, -1, z);
                double below = z > 0 ? A(x, y, z - 1) : boundary(x, y, -1);
                A(x, y, z) = ((up + left) + below) / 3.0;
            }
}

/* Every rank runs the sequential loop and compares, bit for bit, every point
 * it owns (tile_get).  Rank 0 prints the checksum and the verdict; every
 * rank returns 0 if all X*Y*Z points were compared and none differs. */
static int verify(const tile_plan *plan, int64_t X, int64_t Y, int64_t Z)
{
    double *a = (double *)malloc(sizeof(double) * (size_t)(X * Y * Z));
    uint64_t mine[3] = { 0, 0, 0 }, all[3];     /* compared, differing, checksum */
    int64_t x, y, z;
    if (a != NULL) {
        adi_seq(a, X, Y, Z);
        for (x = 0; x < X; x++)
            for (y = 0; y < Y; y++)
                for (z = 0; z < Z; z++) {
                    int64_t c[3] = { x, y, z };
                    double v;
                    uint64_t u;
                    if (tile_get(plan, c, &v) != TILE_OK)
                        continue;       /* another rank's point */
                    memcpy(&u, &v, sizeof u);
                    mine[0]++;
                    mine[1] += memcmp(&v, &A(x, y, z), sizeof v) != 0;
                    mine[2] += u;
                }
        free(a);
    } else
        fprintf(stderr, "rank %d: no memory for the sequential loop\n", plan->rank);
    MPI_Allreduce(mine, all, 3, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (plan->rank == 0)
        printf("checksum %016llx\nverify: %s, %llu of %lld points compared bitwise, %llu differ\n",
               (unsigned long long)all[2],
               all[0] == (uint64_t)(X * Y * Z) && all[1] == 0 ? "ok" : "MISMATCH",
               (unsigned long long)all[0], (long long)(X * Y * Z), (unsigned long long)all[1]);
    return all[0] == (uint64_t)(X * Y * Z) && all[1] == 0 ? 0 : 1;
}

/* The command line: every argument is optional and has a default in main. */
static const struct {
    const char *name, *expect;
    const char *word[4];        /* the words allowed; none: a whole number */
} args[] = {
    { "X", "a whole number in 1..1000000", { NULL } },
    { "Y", "a whole number in 1..1000000", { NULL } },
    { "Z", "a whole number in 1..1000000", { NULL } },
    { "tile height", "a whole number in 1..1000000", { NULL } },
    { "grid", "comm or latency", { "comm", "latency", NULL } },
};

/* Sets n[i] from argv[i + 1]: a number, or the index of a word.  Rank 0
 * names a bad argument; returns 0, or 2 (every rank alike). */
static int get_args(int argc, char **argv, int rank, int64_t *n)
{
    int i, k, nargs = (int)(sizeof args / sizeof args[0]);
    for (i = 1; i < argc; i++) {
        char *end;
        if (i > nargs) {
            if (rank == 0)
                fprintf(stderr, "%s: too many arguments ('%s')\n", argv[0], argv[i]);
            return 2;
        }
        if (args[i - 1].word[0] == NULL) {
            errno = 0;
            n[i - 1] = strtoll(argv[i], &end, 10);
            if (errno == 0 && end != argv[i] && *end == '\0' && n[i - 1] >= 1 &&
                n[i - 1] <= 1000000)
                continue;
        } else {
            for (k = 0; k < 4 && args[i - 1].word[k] != NULL; k++)
                if (strcmp(argv[i], args[i - 1].word[k]) == 0)
                    break;
            n[i - 1] = k;
            if (k < 4 && args[i - 1].word[k] != NULL)
                continue;
        }
        if (rank == 0)
            fprintf(stderr, "%s: %s = '%s': expected %s\n", argv[0], args[i - 1].name,
                    argv[i], args[i - 1].expect);
        return 2;
    }
    if (n[0] * n[1] * n[2] > 100000000) {
        if (rank == 0)
            fprintf(stderr, "%s: X*Y*Z above 1e8 points (verify keeps them all)\n", argv[0]);
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int64_t n[5] = { 16, 256, 1000, 100, 0 };   /* X, Y, Z, tile height, grid */
    tile_config cfg;
    tile_plan plan;
    int rank, rc;

    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if ((rc = get_args(argc, argv, rank, n)) != 0) {
        MPI_Finalize();
        return rc;
    }

    tile_config_init(&cfg, 2);                  /* N = 2 cut dimensions, plus Z */
    cfg.extent[0] = n[0];
    cfg.extent[1] = n[1];
    cfg.zlen = n[2];
    cfg.dep[0] = 1;                             /* A[x-1][y][z] */
    cfg.dep[1] = 1;                             /* A[x][y-1][z] */
    cfg.depz = 1;                               /* A[x][y][z-1] */
    cfg.tile_height = n[3];
    cfg.boundary = edge;
    cfg.storage = TILE_STORE_FULL;              /* keep every plane for verify() */
    cfg.grid_policy = n[4] == 0 ? TILE_GRID_COMM : TILE_GRID_LATENCY;
    if (tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) != TILE_OK) {
        if (plan.rank == 0)     /* the same message (naming the rank) on every rank */
            fprintf(stderr, "%s: %s\n", argv[0], plan.errmsg);
        tile_plan_destroy(&plan);
        MPI_Finalize();
        return 2;
    }

    TILE_FOREACH_GROUP(&plan, g)
        TILE_MPI_STEP(g, it, {
            TILE_AT(double, it, 0, 0, 0) =
                ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0))
                 + TILE_AT(double, it, 0, 0, -1)) / 3.0;
        });

    if (tile_plan_status(&plan) != TILE_OK) {   /* the same on every rank */
        if (plan.rank == 0)
            fprintf(stderr, "%s: %s\n", argv[0], plan.errmsg);
        rc = 1;
    } else {
        int64_t bytes_max, bytes_total, messages_max;
        MPI_Reduce(&plan.run.bytes_sent, &bytes_max, 1, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
        MPI_Reduce(&plan.run.bytes_sent, &bytes_total, 1, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(&plan.run.messages, &messages_max, 1, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("step 2, pure MPI: P = %d, grid %dx%d\n"
                   "bytes sent: %lld max per process, %lld in total; "
                   "messages: %lld max per process\n",
                   plan.size, plan.pdims[0], plan.pdims[1], (long long)bytes_max,
                   (long long)bytes_total, (long long)messages_max);
        rc = verify(&plan, n[0], n[1], n[2]);
    }
    tile_plan_destroy(&plan);
    MPI_Finalize();
    return rc;
}
