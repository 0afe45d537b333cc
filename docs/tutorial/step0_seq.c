/* step0_seq.c -- tutorial step 0: the ADI kernel as a plain sequential loop.
 *
 *   for x, y, z in increasing order:
 *     A[x][y][z] = ((A[x-1][y][z] + A[x][y-1][z]) + A[x][y][z-1]) / 3.0
 *
 * A value with a coordinate at -1 is the boundary g(x, y, z).
 *
 *   mpicc -std=c99 -Wall -Wextra -pedantic -Werror -O2 -o step0_seq step0_seq.c
 *   ./step0_seq 16 256 1000          (X Y Z; these are the defaults)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The boundary: the value of a point with a coordinate at -1. */
static double boundary(int64_t x, int64_t y, int64_t z)
{
    return (double)((31 * x + 17 * y + 7 * z + 1000003) % 97) / 97.0;
}

#define A(x, y, z) a[((x) * Y + (y)) * Z + (z)]

/* The loop nest: dependences (1, 1, 1), z innermost. */
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

/* The checksum: the sum, modulo 2^64, of the bit patterns of the values. */
static uint64_t bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* argv[i] as a whole number in 1..1e6, or an error naming the argument. */
static int number(const char *s, const char *name, int64_t *out)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < 1 || v > 1000000) {
        fprintf(stderr, "step0_seq: %s = '%s': expected a whole number in 1..1000000\n",
                name, s);
        return -1;
    }
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const name[3] = { "X", "Y", "Z" };
    int64_t n[3] = { 16, 256, 1000 }, i, points;
    uint64_t sum = 0;
    double *a;
    if (argc > 4) {
        fprintf(stderr, "step0_seq: too many arguments; usage: ./step0_seq [X [Y [Z]]]\n");
        return 2;
    }
    for (i = 1; i < argc; i++)
        if (number(argv[i], name[i - 1], &n[i - 1]) != 0)
            return 2;
    points = n[0] * n[1] * n[2];
    a = points <= 100000000 ? (double *)malloc(sizeof(double) * (size_t)points) : NULL;
    if (a == NULL) {
        fprintf(stderr, "step0_seq: no memory for %lld points\n", (long long)points);
        return 1;
    }
    adi_seq(a, n[0], n[1], n[2]);
    for (i = 0; i < points; i++)
        sum += bits(a[i]);
    printf("step 0, sequential: %lldx%lldx%lld, checksum %016llx\n", (long long)n[0],
           (long long)n[1], (long long)n[2], (unsigned long long)sum);
    free(a);
    return 0;
}
