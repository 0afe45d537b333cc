/* step8_maps.c -- tutorial step 8: a time loop whose steps read only the
 * step before (2-D heat diffusion, Jacobi), as two map steps over two
 * fields.
 *
 *   mpicc -std=c99 -Wall -Wextra -pedantic -Werror -O2 -fopenmp -o step8_maps step8_maps.c
 *   mpiexec -n 4 ./step8_maps 256 256 50 1    (X Y steps threads)
 */
#include <errno.h>

#include "../../tiling.h"

/* The starting values, and the border's for ever. */
static double start(int64_t x, int64_t y)
{
    return (double)((31 * x + 17 * y + 1000003) % 97) / 97.0;
}

static void start_field(void *ctx, const int64_t *c, void *elem)
{
    (void)ctx;
    *(double *)elem = start(c[0], c[1]);
}

#define U(a, x, y) a[(x) * Y + (y)]

/* The reference: T steps of the plain loop, from a into b and back; the
 * result is in a (T even) or b. */
static double *heat_seq(double *a, double *b, int64_t X, int64_t Y, int64_t T)
{
    int64_t t, x, y;
    for (x = 0; x < X; x++)
        for (y = 0; y < Y; y++)
            U(a, x, y) = U(b, x, y) = start(x, y);
    for (t = 0; t < T; t++) {
        double *s = t % 2 ? b : a, *d = t % 2 ? a : b;
        for (x = 1; x < X - 1; x++)
            for (y = 1; y < Y - 1; y++)
                U(d, x, y) = U(s, x, y) + 0.2 * ((U(s, x - 1, y) + U(s, x + 1, y))
                                                 + (U(s, x, y - 1) + U(s, x, y + 1))
                                                 - 4.0 * U(s, x, y));
    }
    return T % 2 ? b : a;
}

/* Every rank runs the plain loop and compares, bit for bit, every point of
 * its block of the field that holds the result.  Rank 0 prints the
 * checksum and the verdict; every rank returns 0 if all X*Y points were
 * compared and none differs. */
static int verify(const tile_field *f, int64_t X, int64_t Y, int64_t T)
{
    double *a = (double *)malloc(sizeof(double) * (size_t)(X * Y));
    double *b = (double *)malloc(sizeof(double) * (size_t)(X * Y));
    uint64_t mine[3] = { 0, 0, 0 }, all[3];     /* compared, differing, checksum */
    int64_t x, y;
    if (a != NULL && b != NULL) {
        const double *r = heat_seq(a, b, X, Y, T);
        for (x = f->lo[0]; x < f->lo[0] + f->len[0]; x++)
            for (y = f->lo[1]; y < f->lo[1] + f->len[1]; y++) {
                int64_t c[2] = { x, y };
                const double *v = (const double *)tile_field_at(f, c);
                uint64_t u;
                memcpy(&u, v, sizeof u);
                mine[0]++;
                mine[1] += memcmp(v, &U(r, x, y), sizeof *v) != 0;
                mine[2] += u;
            }
    } else
        fprintf(stderr, "rank %d: no memory for the sequential loop\n", f->rank);
    free(a);
    free(b);
    MPI_Allreduce(mine, all, 3, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (f->rank == 0)
        printf("checksum %016llx\nverify: %s, %llu of %lld points compared bitwise, %llu differ\n",
               (unsigned long long)all[2],
               all[0] == (uint64_t)(X * Y) && all[1] == 0 ? "ok" : "MISMATCH",
               (unsigned long long)all[0], (long long)(X * Y), (unsigned long long)all[1]);
    return all[0] == (uint64_t)(X * Y) && all[1] == 0 ? 0 : 1;
}

/* Sets n[i] from argv[i + 1] (X, Y, steps, threads).  Rank 0 names a bad
 * argument; returns 0, or 2 (every rank alike). */
static int get_args(int argc, char **argv, int rank, int64_t *n)
{
    static const char *const name[4] = { "X", "Y", "steps", "threads" };
    static const int64_t lo[4] = { 3, 3, 0, 1 }, hi[4] = { 10000, 10000, 1000000, 64 };
    int i;
    for (i = 1; i < argc; i++) {
        char *end;
        if (i > 4) {
            if (rank == 0)
                fprintf(stderr, "%s: too many arguments ('%s')\n", argv[0], argv[i]);
            return 2;
        }
        errno = 0;
        n[i - 1] = strtoll(argv[i], &end, 10);
        if (errno != 0 || end == argv[i] || *end != '\0' || n[i - 1] < lo[i - 1] ||
            n[i - 1] > hi[i - 1]) {
            if (rank == 0)
                fprintf(stderr, "%s: %s = '%s': expected a whole number in %lld..%lld\n",
                        argv[0], name[i - 1], argv[i], (long long)lo[i - 1],
                        (long long)hi[i - 1]);
            return 2;
        }
    }
    return 0;
}

/* Stop with the message of a failed call (the same on every rank). */
static int fail(const char *prog, int rank, const char *msg)
{
    if (rank == 0)
        fprintf(stderr, "%s: %s\n", prog, msg);
    return 1;
}

int main(int argc, char **argv)
{
    int64_t n[4] = { 256, 256, 50, 1 };         /* X, Y, steps, threads */
    tile_field a, b;
    tile_field_config fc;
    tile_map ab, ba;
    tile_map_config mc;
    int64_t t;
    int rank, provided, rc;

    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if ((rc = get_args(argc, argv, rank, n)) != 0) {
        MPI_Finalize();
        return rc;
    }

    /* two fields of X x Y doubles, one ghost layer around each block */
    tile_field_config_init(&fc, 2);
    fc.extent[0] = n[0];
    fc.extent[1] = n[1];
    fc.ghost[0] = fc.ghost[1] = 1;
    tile_field_create(&a, MPI_COMM_WORLD, &fc);
    tile_field_create(&b, MPI_COMM_WORLD, &fc);
    tile_field_fill(&a, start_field, NULL, 1);          /* the block and its ghosts */
    tile_field_fill(&b, start_field, NULL, 1);
    /* map ab: b from a at the inner points, reading +-1 along one axis */
    tile_map_config_init(&mc, &a, &b);
    mc.reach[0] = mc.reach[1] = 1;
    mc.star = 1;
    mc.lo[0] = mc.lo[1] = 1;
    mc.hi[0] = n[0] - 1;
    mc.hi[1] = n[1] - 1;
    mc.threads = (int)n[3];
    tile_map_create(&ab, &mc);
    mc.in[0] = &b;                                      /* map ba: a from b */
    mc.out[0] = &a;
    tile_map_create(&ba, &mc);
    /* each call's verdict is the same on every rank; a failed field makes
     * the maps fail too, naming it */
    if (a.code != TILE_OK || b.code != TILE_OK || ab.code != TILE_OK || ba.code != TILE_OK) {
        rc = fail(argv[0], rank, a.code != TILE_OK ? a.errmsg : b.code != TILE_OK ? b.errmsg
                                 : ab.code != TILE_OK ? ab.errmsg : ba.errmsg);
    }

    for (t = rc ? n[2] : 0; t < n[2]; t++)
        TILE_MAP_RUN(t % 2 ? &ba : &ab, double, it, {
            double u = TILE_IN(it, 0, 0, 0);
            TILE_OUT(it, 0) = u + 0.2 * ((TILE_IN(it, 0, -1, 0) + TILE_IN(it, 0, 1, 0))
                                         + (TILE_IN(it, 0, 0, -1) + TILE_IN(it, 0, 0, 1))
                                         - 4.0 * u);
        });

    if (rc != 0)
        ;
    else if (tile_map_agree(&ab) != TILE_OK)            /* the same on every rank */
        rc = fail(argv[0], rank, ab.errmsg);
    else if (tile_map_agree(&ba) != TILE_OK)
        rc = fail(argv[0], rank, ba.errmsg);
    else {
        if (rank == 0)
            printf("step 8, maps: P = %d, grid %dx%d, %lld steps, %d thread(s)\n", a.size,
                   a.pdims[0], a.pdims[1], (long long)n[2], (int)n[3]);
        rc = verify(n[2] % 2 ? &b : &a, n[0], n[1], n[2]);
    }
    tile_map_destroy(&ab);
    tile_map_destroy(&ba);
    tile_field_destroy(&a);
    tile_field_destroy(&b);
    MPI_Finalize();
    return rc;
}
