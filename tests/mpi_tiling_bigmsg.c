/* tests/mpi_tiling_bigmsg.c -- face messages above the MPI count limit.
 *
 * A face message of more than INT_MAX bytes cannot be one MPI_BYTE
 * message; the engine sends it as one element of a derived datatype
 * (blocks of TILE_MSG_MAX bytes and the rest).  Gigabyte messages have no
 * place in a test, so this file lowers the limit to 1000 bytes: every face
 * (X_2 x tile height doubles, and the diagonal stencil's extended faces)
 * then takes that path, in every model and with every kind of face
 * messages (persistent requests, nonblocking, partitioned; the last tile
 * is shorter), and the results must still be the
 * sequential loop's, bit for bit.  MPI_Type_create_struct is wrapped
 * (PMPI) to see that the path was taken.  A message that would need more
 * than INT_MAX blocks is refused before anything is allocated.
 * Run at 1-4 processes by tests/run.sh. */
#include <mpi.h>

#define TILE_MSG_MAX 1000
#include "../hybrid.h"
#include "check.h"

#include <stdlib.h>

#define X0 40
#define X1 37
#define ZL 23

static int nprocs, myrank;
static long structs;    /* MPI_Type_create_struct calls */

int MPI_Type_create_struct(int count, const int lens[], const MPI_Aint disp[],
                           const MPI_Datatype types[], MPI_Datatype *out)
{
#ifdef _OPENMP
#pragma omp atomic
#endif
    structs++;
    return PMPI_Type_create_struct(count, lens, disp, types, out);
}

/* The sequential loop's point: A[x][y][z] from its three axis neighbours
 * and the diagonal (-1,-1,0). */
static double point(const double *a, int64_t x1, int64_t zl, int64_t x, int64_t y, int64_t z)
{
    return (((check_seq_at(a, x1, zl, x - 1, y, z) + check_seq_at(a, x1, zl, x, y - 1, z)) +
             check_seq_at(a, x1, zl, x - 1, y - 1, z)) + check_seq_at(a, x1, zl, x, y, z - 1)) /
           4.0;
}

static void config(tile_config *c, int model, int threads, int grid0)
{
    tile_config_init(c, 2);
    c->extent[0] = X0;
    c->extent[1] = X1;
    c->zlen = ZL;
    c->tile_height = 5;
    c->model = model;
    c->threads = threads;
    c->grid[0] = grid0;
    c->grid[1] = nprocs / grid0;
    c->storage = TILE_STORE_FULL;
    c->boundary = check_edge;
    tile_config_stencil(c, "-1,0,0 0,-1,0 -1,-1,0 0,0,-1", NULL);
}

/* Create p from c and run point()'s stencil in c's model; returns the
 * plan's status (noted on the rank where it is not TILE_OK). */
static int run_stencil(tile_plan *p, const tile_config *c)
{
    int rc = tile_plan_create(p, MPI_COMM_WORLD, c);
    if (rc == TILE_OK)
        HYBRID_RUN(p, it, {
            TILE_AT(double, it, 0, 0, 0) =
                (((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0)) +
                  TILE_AT(double, it, -1, -1, 0)) + TILE_AT(double, it, 0, 0, -1)) / 4.0;
        });
    rc = tile_plan_status(p);
    if (rc != TILE_OK)
        check_note("rank %d: %d: %s", myrank, rc, p->errmsg);
    return rc;
}

static void test_models(const double *a)
{
    static const char *const kind[3] = { "persistent", "nonblocking", "partitioned" };
    int model, g, m;
    for (g = 1; g <= nprocs; g++) {
        if (nprocs % g != 0 || (g != 1 && g != nprocs))
            continue;
        for (model = TILE_MODEL_MPI; model <= TILE_MODEL_MULTIPLE; model++)
            for (m = 0; m < 3; m++) {
                tile_config c;
                tile_plan p;
                long before = structs;
                int rc, threads = model == TILE_MODEL_MPI ? 1 : 2;
#ifndef _OPENMP
                threads = 1;
#endif
                if (m == TILE_MESSAGES_PARTITIONED && model != TILE_MODEL_MULTIPLE)
                    continue;
                config(&c, model, threads, g);
                c.messages = m;
                rc = run_stencil(&p, &c);
                check_mpi(MPI_COMM_WORLD, rc == TILE_OK && check_same_3d(&p, a, X0, X1, ZL),
                          "%s model, %d thread(s), %s messages, grid %dx%d, TILE_MSG_MAX 1000: "
                          "the sequential loop's values, bit for bit", tile_model_name(model),
                          threads, kind[p.run.messaging], g, nprocs / g);
                /* a face of 5 planes: X_2 (or X_1) / P x 5 doubles, more than 1000 bytes
                 * (the multiple model's parts may be smaller: no claim there) */
                if (nprocs > 1 && model != TILE_MODEL_MULTIPLE)
                    check_mpi(MPI_COMM_WORLD, structs > before,
                              "%s model, %s messages, grid %dx%d: the faces above 1000 "
                              "bytes went as a derived datatype (%ld MPI_Type_create_struct "
                              "on rank %d)",
                              tile_model_name(model), kind[m], g, nprocs / g, structs - before,
                              myrank);
                tile_plan_destroy(&p);
            }
    }
}

/* The multiple model's threads send their own parts of a face: with one
 * tile of all of Z (23 planes) a part is above 1000 bytes (37 or 40 x 23
 * doubles over 2 threads), and goes as a derived datatype too. */
static void test_multiple_parts(const double *a)
{
    tile_config c;
    tile_plan p;
    long before = structs;
    int rc, threads = 2;
#ifndef _OPENMP
    threads = 1;        /* one thread: the face is not cut into parts */
#endif
    if (nprocs == 1 || threads == 1)
        return;
    config(&c, TILE_MODEL_MULTIPLE, threads, nprocs);
    c.tile_height = ZL;
    rc = run_stencil(&p, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && check_same_3d(&p, a, X0, X1, ZL) && structs > before,
              "multiple model, 2 threads, one tile of %d planes: its threads' face parts "
              "above 1000 bytes went as a derived datatype (%ld MPI_Type_create_struct on "
              "rank %d), the sequential loop's values", ZL, structs - before, myrank);
    tile_plan_destroy(&p);
}

/* A message of more than INT_MAX blocks of TILE_MSG_MAX bytes cannot be
 * sent: refused with its size, before anything is allocated. */
static void test_too_many_blocks(void)
{
    tile_config c;
    tile_plan p;
    int rc;
    if (nprocs == 1)
        return;
    tile_config_init(&c, 2);
    c.extent[0] = 2 * nprocs;
    c.extent[1] = 300000000000LL;   /* a face of 8 x 300e9 bytes: 2.4e9 blocks */
    c.zlen = 2;
    c.grid[0] = nprocs;
    c.grid[1] = 1;
    c.mem_limit = -1;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_OVERFLOW &&
              strstr(p.errmsg, "a message along dimension 1 would be more than 2147483647000 "
                     "bytes (INT_MAX blocks of TILE_MSG_MAX = 1000 bytes)") != NULL,
              "a message past INT_MAX blocks is refused with its limit, nothing allocated: %s",
              p.errmsg);
    tile_plan_destroy(&p);
}

int main(int argc, char **argv)
{
    int provided = 0;
    double *a;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    a = check_seq_loop(X0, X1, ZL, point);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (myrank == 0)
            check_skip("MPI_THREAD_MULTIPLE is not provided", "every model with big messages");
    } else if (a != NULL) {
        test_models(a);
        test_multiple_parts(a);
    }
    test_too_many_blocks();
    free(a);
    return check_mpi_exit();
}
