/* tests/install-project/stencil.c -- a user program built against an
 * installed tilehybrid (see CMakeLists.txt beside it, and tests/cli_install.sh).
 *
 *   A[x][y][z] = ((A[x-1][y][z] + A[x-2][y][z]) * 0.25 + A[x][y-1][z] * 0.25)
 *                + (A[x][y][z-1] + A[x][y][z-2]) * 0.125
 *
 * on 13 x 21 x 29 points, with boundary values g(x, y, z) wherever a
 * coordinate is negative.  It runs every model the build allows (with
 * OpenMP: mpi, fine, funneled and multiple at 2 threads; without: mpi) and
 * compares each point bitwise with a plain sequential loop.  Rank 0 prints
 * "openmp: yes|no", one line per model and "verify: ok" or
 * "verify: MISMATCH"; the exit status is 0 only for "verify: ok".
 */
#include <hybrid.h>

#define X 13
#define Y 21
#define Z 29

static double g(int64_t x, int64_t y, int64_t z)
{
    return (double)((13 * x + 7 * y + 3 * z + 1000003) % 31) / 31.0;
}

static void edge(void *out, const int64_t *c, void *ctx)
{
    (void)ctx;
    *(double *)out = g(c[0], c[1], c[2]);
}

/* The sequential reference: a[(x * Y + y) * Z + z]. */
static double at(const double *a, int64_t x, int64_t y, int64_t z)
{
    return (x < 0 || y < 0 || z < 0) ? g(x, y, z) : a[(x * Y + y) * Z + z];
}

static void sequential(double *a)
{
    int64_t x, y, z;
    for (x = 0; x < X; x++)
        for (y = 0; y < Y; y++)
            for (z = 0; z < Z; z++)
                a[(x * Y + y) * Z + z] =
                    ((at(a, x - 1, y, z) + at(a, x - 2, y, z)) * 0.25 + at(a, x, y - 1, z) * 0.25)
                    + (at(a, x, y, z - 1) + at(a, x, y, z - 2)) * 0.125;
}

/* Run one model; count this rank's points and its mismatches. */
static int run(int model, int threads, const double *ref, int64_t *points, int64_t *bad)
{
    tile_config cfg;
    tile_plan plan;
    int64_t c[3];
    tile_config_init(&cfg, 2);
    cfg.extent[0] = X;
    cfg.extent[1] = Y;
    cfg.zlen = Z;
    cfg.dep[0] = 2;
    cfg.dep[1] = 1;
    cfg.depz = 2;
    cfg.tile_height = 4;
    cfg.model = model;
    cfg.threads = threads;
    cfg.boundary = edge;
    cfg.storage = TILE_STORE_FULL;
    if (tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) != TILE_OK) {
        if (plan.rank == 0)     /* the same message on every rank */
            fprintf(stderr, "stencil: %s: %s\n", tile_model_name(model), plan.errmsg);
        tile_plan_destroy(&plan);
        return 1;
    }
    HYBRID_RUN(&plan, it, {
        TILE_AT(double, it, 0, 0, 0) =
            ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, -2, 0, 0)) * 0.25
             + TILE_AT(double, it, 0, -1, 0) * 0.25)
            + (TILE_AT(double, it, 0, 0, -1) + TILE_AT(double, it, 0, 0, -2)) * 0.125;
    });
    if (tile_plan_status(&plan) != TILE_OK) {
        fprintf(stderr, "stencil: %s: run failed: %s\n", tile_model_name(model), plan.errmsg);
        tile_plan_destroy(&plan);
        return 1;
    }
    *points = *bad = 0;
    for (c[0] = 0; c[0] < X; c[0]++)
        for (c[1] = 0; c[1] < Y; c[1]++)
            for (c[2] = 0; c[2] < Z; c[2]++) {
                double got, want = ref[(c[0] * Y + c[1]) * Z + c[2]];
                if (tile_get(&plan, c, &got) == TILE_OK) {
                    (*points)++;
                    if (memcmp(&got, &want, sizeof got) != 0)
                        (*bad)++;
                }
            }
    tile_plan_destroy(&plan);
    return 0;
}

int main(int argc, char **argv)
{
#ifdef _OPENMP
    static const int models[] = { TILE_MODEL_MPI, TILE_MODEL_FINE, TILE_MODEL_FUNNELED,
                                  TILE_MODEL_MULTIPLE };
    const int nmodels = 4, threads = 2;
#else
    static const int models[] = { TILE_MODEL_MPI };
    const int nmodels = 1, threads = 1;
#endif
    static double ref[X * Y * Z];
    int rank, size, m, rc, ok = 1;

    rc = hybrid_init(&argc, &argv, models[nmodels - 1], threads, NULL);
    if (rc != TILE_OK) {
        fprintf(stderr, "stencil: hybrid_init: %s\n", tile_strerror(rc));
        if (rc != TILE_ERR_MPI)   /* MPI started, with too little thread support */
            MPI_Finalize();
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        printf("openmp: %s\n", threads > 1 ? "yes" : "no");
    sequential(ref);
    for (m = 0; m < nmodels; m++) {
        int64_t mine[2] = { 0, 0 }, all[2] = { 0, 0 };
        int T = models[m] == TILE_MODEL_MPI ? 1 : threads, failed, anyfailed;
        failed = run(models[m], T, ref, &mine[0], &mine[1]);
        MPI_Allreduce(&failed, &anyfailed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        if (anyfailed || all[0] != (int64_t)X * Y * Z || all[1] != 0)
            ok = 0;
        if (rank == 0)
            printf("model %s, %d processes x %d threads: %s, %lld points compared, "
                   "%lld mismatches\n", tile_model_name(models[m]), size, T,
                   anyfailed ? "failed" : "ran", (long long)all[0], (long long)all[1]);
    }
    if (rank == 0)
        printf("verify: %s\n", ok ? "ok" : "MISMATCH");
    MPI_Finalize();
    return ok ? 0 : 1;
}
