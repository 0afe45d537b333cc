/* bench/seq_kernels.c -- the plain sequential loops the demos are measured
 * against: a full X1 x X2 x Z array, the triple loop in x, y, z order (z
 * innermost, as a user would write it), boundary values computed inline.
 *
 *   ./build/bench/seq_kernels adi|de X1 X2 Z
 * prints one JSON line with the seconds and the checksum (sum of the bit
 * patterns of every point, as the demos print it).  Exit status 0, 1 (out
 * of memory) or 2 (bad arguments). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TILEHYBRID_NO_MPI   /* the number parser only */
#include "tilehybrid.h"
#include "bench.h"

static void usage(FILE *f)
{
    fputs("usage: seq_kernels adi|de X1 X2 Z\n"
          "Runs the plain sequential triple loop of the ADI or DE demo kernel over\n"
          "X1 x X2 x Z (whole numbers >= 1; the array takes 8 X1 X2 Z bytes) and\n"
          "prints one JSON line: kernel, space, seconds, checksum (docs/JSON.md).\n"
          "  -h, --help   print this help and exit\n"
          "Exit status: 0 ok, 1 out of memory, 2 bad arguments.\n", f);
}

static void *(*volatile const seq_memset)(void *, int, size_t) = memset;

int main(int argc, char **argv)
{
    static const char *const names[3] = { "X1", "X2", "Z" };
    int64_t X, Y, Z, x, y, z, i, n, e[3];
    double *A, t0, t1;
    uint64_t sum = 0;
    int de;
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc != 5) {
        fprintf(stderr, "seq_kernels: expected 4 arguments, adi|de X1 X2 Z, got %d "
                        "(see --help)\n", argc - 1);
        return 2;
    }
    if (strcmp(argv[1], "adi") != 0 && strcmp(argv[1], "de") != 0) {
        fprintf(stderr, "seq_kernels: kernel '%s': expected adi or de\n", argv[1]);
        return 2;
    }
    for (i = 0; i < 3; i++)
        if (tilehybrid_parse_i64(argv[2 + i], 1, INT64_MAX, &e[i]) != TILEHYBRID_OK) {
            fprintf(stderr, "seq_kernels: %s '%s': expected a whole number >= 1 (digits "
                            "only)\n", names[i], argv[2 + i]);
            return 2;
        }
    de = strcmp(argv[1], "de") == 0;
    X = e[0];
    Y = e[1];
    Z = e[2];
    if (X > (int64_t)(SIZE_MAX / sizeof(double)) / Y ||
        X * Y > (int64_t)(SIZE_MAX / sizeof(double)) / Z) {
        fprintf(stderr, "seq_kernels: X1 x X2 x Z = %s x %s x %s does not fit in memory\n",
                argv[2], argv[3], argv[4]);
        return 2;
    }
    n = X * Y * Z;
    A = (double *)malloc(sizeof(double) * (size_t)n);
    if (A == NULL) {
        fprintf(stderr, "seq_kernels: out of memory for %lld points\n", (long long)n);
        return 1;
    }
    /* touch the pages before timing, through a volatile pointer: compilers
     * turn malloc + memset(0) into calloc, whose pages are mapped only when
     * first written, inside the timed loop */
    seq_memset(A, 0, sizeof(double) * (size_t)n);
#define AT(a, b, c) A[((a) * Y + (b)) * Z + (c)]
    t0 = bench_now();
    if (!de) {
        for (x = 0; x < X; x++)
            for (y = 0; y < Y; y++)
                for (z = 0; z < Z; z++)
                    AT(x, y, z) = (((x > 0 ? AT(x - 1, y, z) : demo_g(-1, y, z)) +
                                    (y > 0 ? AT(x, y - 1, z) : demo_g(x, -1, z))) +
                                   (z > 0 ? AT(x, y, z - 1) : demo_g(x, y, -1))) / 3.0;
    } else {
#define U(a, b, c) (((a) < 0 || (b) < 0 || (c) < 0) ? demo_g((a), (b), (c)) : AT((a), (b), (c)))
        for (x = 0; x < X; x++)
            for (y = 0; y < Y; y++)
                for (z = 0; z < Z; z++) {
                    double sx = ((4.0 * U(x - 1, y, z) + 2.0 * U(x - 2, y, z)) + U(x - 3, y, z)) / 7.0;
                    double sy = ((4.0 * U(x, y - 1, z) + 2.0 * U(x, y - 2, z)) + U(x, y - 3, z)) / 7.0;
                    AT(x, y, z) = 0.5 * U(x, y, z - 1) + 0.25 * (sx + sy);
                }
    }
    t1 = bench_now();
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
