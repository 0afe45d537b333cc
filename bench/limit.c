/* bench/limit.c -- the machine's limit for the ADI and DE expressions: the
 * demos' point update (demos/adi.c, demos/de.c) evaluated over independent
 * points, no recurrence, in a counted loop under `#pragma omp simd`, over
 * arrays that stay in the L1 cache (so the divisions, not the memory,
 * bound the rate).  Built like every bench program, it runs at the
 * vector width the flags give (SSE2 at plain -O2 on x86-64, the CPU's own
 * with -march=native): bench/speed.sh plots the toolkit against it.
 *
 *   ./build/bench/limit adi|de POINTS ROUNDS [--json]
 *
 *   ADI:  out = ((a + b) + c) / 3.0
 *   DE:   out = 0.5 * d + 0.25 * (((4.0 * a + 2.0 * b) + c) / 7.0
 *                               + ((4.0 * e + 2.0 * f) + g) / 7.0)
 *
 * POINTS (rounded up to whole passes over the arrays) per round; prints one
 * JSON line: kernel, points, rounds, the median wall time of a round
 * (seconds), G points/s, the vector extension the build may use (isa),
 * and the checksum of one pass (the bit patterns of its results added:
 * the same at any flags without floating-point contraction).  The vector
 * loop's results are first compared bitwise with a scalar loop that reads
 * its inputs through volatile pointers (exit 1 if one differs).  Exit
 * status 0, 1, 2 (bad arguments; --help prints the usage). */
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

#if defined(_OPENMP) || defined(TILE_SIMD)
#define LIMIT_SIMD _Pragma("omp simd")
#else
#define LIMIT_SIMD
#endif
/* a compiler barrier between passes: the pass is not hoisted out of the
 * loop over passes (without GNU C, a call through a volatile pointer) */
#if defined(__GNUC__)
#define LIMIT_BARRIER() __asm__ __volatile__("" ::: "memory")
#else
static void limit_nothing(void) { }
static void (*volatile limit_opaque)(void) = limit_nothing;
#define LIMIT_BARRIER() limit_opaque()
#endif

/* 512 points per array: 7 inputs and the output take 32 KiB */
#define LIMIT_N 512
static double in[7][LIMIT_N], out[LIMIT_N];

static void adi_passes(int64_t passes)
{
    const double *a = in[0], *b = in[1], *c = in[2];
    int64_t p;
    int i;
    for (p = 0; p < passes; p++) {
        LIMIT_SIMD
        for (i = 0; i < LIMIT_N; i++)
            out[i] = ((a[i] + b[i]) + c[i]) / 3.0;
        LIMIT_BARRIER();
    }
}

static void de_passes(int64_t passes)
{
    const double *a = in[0], *b = in[1], *c = in[2], *d = in[3], *e = in[4], *f = in[5],
                 *g = in[6];
    int64_t p;
    int i;
    for (p = 0; p < passes; p++) {
        LIMIT_SIMD
        for (i = 0; i < LIMIT_N; i++)
            out[i] = 0.5 * d[i] + 0.25 * (((4.0 * a[i] + 2.0 * b[i]) + c[i]) / 7.0 +
                                          ((4.0 * e[i] + 2.0 * f[i]) + g[i]) / 7.0);
        LIMIT_BARRIER();
    }
}

/* the same expressions, one point at a time, inputs through volatile
 * pointers (not vectorised) */
static double scalar_point(int de, int i)
{
    const volatile double *a = in[0], *b = in[1], *c = in[2], *d = in[3], *e = in[4],
                          *f = in[5], *g = in[6];
    if (!de)
        return ((a[i] + b[i]) + c[i]) / 3.0;
    return 0.5 * d[i] + 0.25 * (((4.0 * a[i] + 2.0 * b[i]) + c[i]) / 7.0 +
                                ((4.0 * e[i] + 2.0 * f[i]) + g[i]) / 7.0);
}

static const char *isa(void)
{
#if defined(__AVX512F__)
    return "avx512f";
#elif defined(__AVX2__)
    return "avx2";
#elif defined(__AVX__)
    return "avx";
#elif defined(__SSE2__) || defined(__x86_64__)
    return "sse2";
#elif defined(__ARM_NEON)
    return "neon";
#else
    return "unknown";
#endif
}

static void usage(FILE *f)
{
    fputs("usage: limit adi|de POINTS ROUNDS [--json]\n"
          "Evaluates the ADI or DE demo kernel's expression over POINTS independent points\n"
          "(no recurrence; arrays in the L1 cache; the loop under omp simd), ROUNDS times\n"
          "(1-63), and prints one JSON line: the median wall time of a round, G points/s,\n"
          "the vector extension of the build and the checksum of one pass.\n"
          "  -h, --help   print this help and exit\n"
          "Exit status: 0 ok, 1 the vector loop's results differ from the scalar loop's,\n"
          "2 bad arguments.\n", f);
}

int main(int argc, char **argv)
{
    int64_t v[2], passes;
    double t[64];
    uint64_t sum = 0, u;
    int de, k, i, rounds, nargs = argc;
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (nargs > 1 && strcmp(argv[nargs - 1], "--json") == 0)
        nargs--;
    if (nargs != 4) {
        fprintf(stderr, "limit: expected 3 arguments, adi|de POINTS ROUNDS, got %d "
                        "(see --help)\n", nargs - 1);
        return 2;
    }
    if (strcmp(argv[1], "adi") != 0 && strcmp(argv[1], "de") != 0)
        return bench_bad("limit", "kernel", argv[1], "adi or de");
    if (tilehybrid_parse_i64(argv[2], 1, INT64_MAX / 2, &v[0]) != TILEHYBRID_OK)
        return bench_bad("limit", "POINTS", argv[2], "a whole number >= 1");
    if (tilehybrid_parse_i64(argv[3], 1, 63, &v[1]) != TILEHYBRID_OK)
        return bench_bad("limit", "ROUNDS", argv[3], "1 to 63");
    de = strcmp(argv[1], "de") == 0;
    rounds = (int)v[1];
    passes = (v[0] + LIMIT_N - 1) / LIMIT_N;
    for (k = 0; k < 7; k++)         /* the demos' boundary values, in [0, 1) */
        for (i = 0; i < LIMIT_N; i++)
            in[k][i] = demo_g(i, k, i / 7);
    if (!de)
        adi_passes(1);
    else
        de_passes(1);
    for (i = 0; i < LIMIT_N; i++) {
        double s = scalar_point(de, i);
        if (memcmp(&s, &out[i], sizeof s) != 0) {
            fprintf(stderr, "limit: %s point %d: the vector loop gives %.17g, the scalar "
                            "loop %.17g (floating-point contraction? -ffp-contract=off)\n",
                    argv[1], i, out[i], s);
            return 1;
        }
        memcpy(&u, &out[i], sizeof u);
        sum += u;
    }
    for (k = 0; k < rounds; k++) {
        double t0 = bench_now();
        if (!de)
            adi_passes(passes);
        else
            de_passes(passes);
        t[k] = bench_now() - t0;
    }
    bench_sort(t, (size_t)rounds);
    printf("{\"kernel\": \"%s\", \"points\": %lld, \"rounds\": %d, \"seconds\": %.6f, "
           "\"gpoints\": %.4f, \"isa\": \"%s\", \"checksum\": \"%016llx\"}\n", argv[1],
           (long long)(passes * LIMIT_N), rounds, t[rounds / 2],
           (double)(passes * LIMIT_N) / t[rounds / 2] / 1e9, isa(), (unsigned long long)sum);
    return 0;
}
