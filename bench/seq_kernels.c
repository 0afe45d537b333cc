/* bench/seq_kernels.c -- the plain sequential loops the demos are measured
 * against: a full X1 x X2 x Z array, the triple loop in x, y, z order (z
 * innermost, as a user would write it), boundary values computed inline.
 *
 *   ./build/bench/seq_kernels adi|de X1 X2 Z
 * prints one JSON line with the seconds and the checksum (sum of the bit
 * patterns of every point, as the demos print it). */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double g(int64_t x, int64_t y, int64_t z)
{
    return (double)((31 * x + 17 * y + 7 * z + 1000003) % 97) / 97.0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int64_t X, Y, Z, x, y, z, i, n;
    double *A, t0, t1;
    uint64_t sum = 0;
    int de;
    if (argc != 5 || (strcmp(argv[1], "adi") != 0 && strcmp(argv[1], "de") != 0)) {
        fprintf(stderr, "usage: seq_kernels adi|de X1 X2 Z\n");
        return 2;
    }
    de = strcmp(argv[1], "de") == 0;
    X = atoll(argv[2]);
    Y = atoll(argv[3]);
    Z = atoll(argv[4]);
    n = X * Y * Z;
    A = (double *)malloc(sizeof(double) * (size_t)n);
    if (A == NULL || X < 1 || Y < 1 || Z < 1) {
        fprintf(stderr, "seq_kernels: bad size or out of memory\n");
        return 1;
    }
    memset(A, 0, sizeof(double) * (size_t)n);   /* touch the pages before timing */
#define AT(a, b, c) A[((a) * Y + (b)) * Z + (c)]
    t0 = now();
    if (!de) {
        for (x = 0; x < X; x++)
            for (y = 0; y < Y; y++)
                for (z = 0; z < Z; z++)
                    AT(x, y, z) = (((x > 0 ? AT(x - 1, y, z) : g(-1, y, z)) +
                                    (y > 0 ? AT(x, y - 1, z) : g(x, -1, z))) +
                                   (z > 0 ? AT(x, y, z - 1) : g(x, y, -1))) / 3.0;
    } else {
#define U(a, b, c) (((a) < 0 || (b) < 0 || (c) < 0) ? g((a), (b), (c)) : AT((a), (b), (c)))
        for (x = 0; x < X; x++)
            for (y = 0; y < Y; y++)
                for (z = 0; z < Z; z++) {
                    double sx = ((4.0 * U(x - 1, y, z) + 2.0 * U(x - 2, y, z)) + U(x - 3, y, z)) / 7.0;
                    double sy = ((4.0 * U(x, y - 1, z) + 2.0 * U(x, y - 2, z)) + U(x, y - 3, z)) / 7.0;
                    AT(x, y, z) = 0.5 * U(x, y, z - 1) + 0.25 * (sx + sy);
                }
    }
    t1 = now();
    for (i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, &A[i], sizeof u);
        sum += u;
    }
    printf("{\"kernel\": \"%s\", \"space\": [%lld, %lld, %lld], \"seconds\": %.6f, "
           "\"checksum\": \"%016llx\"}\n", argv[1], (long long)X, (long long)Y, (long long)Z,
           t1 - t0, (unsigned long long)sum);
    free(A);
    return 0;
}
