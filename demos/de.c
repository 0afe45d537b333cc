/* demos/de.c -- diffusion-equation kernel, XYT form, dependences (3, 3, 1).
 *
 * Each point of time step t relaxes towards a weighted average of the three
 * previous points in x and in y (already at time t) and its own value at
 * time t-1, in this order of evaluation:
 *
 *   sx = ((4.0*A[x-1][y][t] + 2.0*A[x-2][y][t]) + A[x-3][y][t]) / 7.0
 *   sy = ((4.0*A[x][y-1][t] + 2.0*A[x][y-2][t]) + A[x][y-3][t]) / 7.0
 *   A[x][y][t] = 0.5*A[x][y][t-1] + 0.25*(sx + sy)
 *
 * Values with a negative coordinate are the boundary g of the ADI demo,
 * evaluated at that (negative) coordinate.  All weights are positive and sum
 * to one, so every value stays between the smallest and largest boundary
 * value (in [0, 1)) for any number of steps.  See docs/DEMOS.md, "ADI and DE", for why the
 * consistent one-sided (backward) second difference is not used: it blows up.
 *
 *   mpiexec -n 2 ./demos/de --space 16x256x16384 --verify
 */
#include "demo.h"

/* The plain sequential loop for time step z, from step z-1. */
static void de_seq_plane(const double *prev, double *cur, int64_t X, int64_t Y, int64_t z)
{
    int64_t x, y;
#define DE_U(a, b) (((a) < 0 || (b) < 0) ? demo_g((a), (b), z) : cur[(a) * Y + (b)])
    for (x = 0; x < X; x++)
        for (y = 0; y < Y; y++) {
            double sx = ((4.0 * DE_U(x - 1, y) + 2.0 * DE_U(x - 2, y)) + DE_U(x - 3, y)) / 7.0;
            double sy = ((4.0 * DE_U(x, y - 1) + 2.0 * DE_U(x, y - 2)) + DE_U(x, y - 3)) / 7.0;
            cur[x * Y + y] = 0.5 * prev[x * Y + y] + 0.25 * (sx + sy);
        }
#undef DE_U
}

static const demo_kernel de = { "de", { 16, 256, 16384 }, { 3, 3 }, 1, de_seq_plane };

int main(int argc, char **argv)
{
    demo_job d;     /* options, plan, checksum */
    if (demo_begin(&d, &argc, &argv, &de) == DEMO_GO)
        DEMO_RUN(&d.plan, it, {
            double sx = ((4.0 * TILE_AT(double, it, -1, 0, 0) + 2.0 * TILE_AT(double, it, -2, 0, 0))
                         + TILE_AT(double, it, -3, 0, 0)) / 7.0;
            double sy = ((4.0 * TILE_AT(double, it, 0, -1, 0) + 2.0 * TILE_AT(double, it, 0, -2, 0))
                         + TILE_AT(double, it, 0, -3, 0)) / 7.0;
            double v = 0.5 * TILE_AT(double, it, 0, 0, -1) + 0.25 * (sx + sy);
            TILE_AT(double, it, 0, 0, 0) = v;
            tile_reduce_u64(&it, &d.sum, demo_bits(v));
        });
    return demo_end(&d);
}
