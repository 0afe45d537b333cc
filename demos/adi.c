/* demos/adi.c -- ADI integration kernel (3D, dependences (1, 1, 1)).
 *
 *   for x, y, z in increasing order:
 *     A[x][y][z] = ((A[x-1][y][z] + A[x][y-1][z]) + A[x][y][z-1]) / 3.0
 *
 * Any value with a coordinate at -1 is the boundary
 *   g(x, y, z) = (double)((31x + 17y + 7z + 1000003) mod 97) / 97.0
 * (64-bit integers, the coordinate at -1 included as -1).
 *
 *   mpiexec -n 2 ./demos/adi --space 16x256x16384 --model mpi --verify
 *   mpiexec -n 1 ./demos/adi --model funneled --threads 2 --json
 */
#include "demo.h"

/* The plain sequential loop for plane z, from plane z-1. */
static void adi_seq_plane(const double *prev, double *cur, int64_t X, int64_t Y, int64_t z)
{
    int64_t x, y;
    for (x = 0; x < X; x++)
        for (y = 0; y < Y; y++) {
            double up = x > 0 ? cur[(x - 1) * Y + y] : demo_g(-1, y, z);
            double left = y > 0 ? cur[x * Y + y - 1] : demo_g(x, -1, z);
            cur[x * Y + y] = ((up + left) + prev[x * Y + y]) / 3.0;
        }
}

static const demo_kernel adi = { "adi", { 16, 256, 16384 }, { 1, 1 }, 1, adi_seq_plane };

int main(int argc, char **argv)
{
    demo_job d;     /* options, plan, checksum */
    if (demo_begin(&d, &argc, &argv, &adi) == DEMO_GO)
        DEMO_RUN(&d.plan, it, {
            double v = ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0))
                        + TILE_AT(double, it, 0, 0, -1)) / 3.0;
            TILE_AT(double, it, 0, 0, 0) = v;
            tile_reduce_u64(&it, &d.sum, demo_bits(v));
        });
    return demo_end(&d);
}
