/* tests/data_common.h -- what the two tests of the data calls share
 * (tests/mpi_data.c: random plans against the sequential loop;
 * tests/mpi_data_calls.c: each call on a small plan): the ranks, the
 * values of the space's points and of the input array, the boundary.
 * Included after hybrid.h. */
#ifndef TILEHYBRID_TESTS_DATA_COMMON_H
#define TILEHYBRID_TESTS_DATA_COMMON_H

/* MPI_COMM_WORLD's size and this rank (main sets them). */
static int nprocs, myrank;

/* A double's bits, to compare bitwise. */
static uint64_t bits(double v) { return tilehybrid_bits(v); }

/* A value of any point (user coordinates, inside or outside the space). */
static double hashv(const int64_t *c, int n, int64_t salt)
{
    int64_t s = 1000003 + salt;
    static const int64_t w[4] = { 31, 17, 7, 5 };
    int i;
    for (i = 0; i <= n; i++)
        s += w[i] * c[i];
    return (double)(((s % 97) + 97) % 97) / 97.0;
}

/* The boundary's context (cfg.boundary_ctx): the space's N. */
typedef struct ctx_t {
    int n;
} ctx_t;

/* The boundary (cfg.boundary): the value of a point outside the space. */
static void edge(void *out, const int64_t *c, void *ctx)
{
    *(double *)out = hashv(c, ((const ctx_t *)ctx)->n, 0);
}

/* The input array's value at c (inside the space). */
static double input_value(const int64_t *c, int n) { return hashv(c, n, 11); }

/* The coordinates c of element idx of an array over box b (row-major). */
static void box_coord(const tile_box *b, int64_t idx, int64_t *c)
{
    int i;
    for (i = b->ndims - 1; i >= 0; i--) {
        c[i] = b->lo[i] + idx % b->len[i];
        idx /= b->len[i];
    }
}

/* The input values over box b into a (row-major, Z last). */
static void fill_input(const tile_box *b, double *a)
{
    int64_t idx, c[4];
    for (idx = 0; idx < tile_box_points(b); idx++) {
        box_coord(b, idx, c);
        a[idx] = input_value(c, b->ndims - 1);
    }
}

/* MPI with MPI_THREAD_MULTIPLE (every model), nprocs and myrank: 1, or 0
 * after a failed check and MPI_Finalize. */
static int data_init(int *argc, char ***argv)
{
    int provided;
    if (hybrid_init(argc, argv, TILE_MODEL_MULTIPLE, 3, &provided) != TILE_OK) {
        check(0, "MPI_THREAD_MULTIPLE available");
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    return 1;
}

#endif
