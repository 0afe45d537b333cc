/* tests/unit_tilehybrid.c -- the base header's pure functions: the number
 * parser (the one rule every program and environment variable follows),
 * checked arithmetic, the fits. */
#define TILEHYBRID_NO_MPI
#include "../tilehybrid.h"
#include "check.h"

#include <math.h>
#include <stdio.h>

static int i64(const char *s, int64_t lo, int64_t hi, int64_t want_v, int want_rc)
{
    int64_t v = 12345;
    int rc = tilehybrid_parse_i64(s, lo, hi, &v);
    return rc == want_rc && (rc != 0 || v == want_v) && (rc == 0 || v == 12345);
}

static int dbl(const char *s, double want_v, int want_rc)
{
    double v = 12345.0;
    int rc = tilehybrid_parse_double(s, -HUGE_VAL, HUGE_VAL, &v);
    return rc == want_rc && (rc != 0 || v == want_v) && (rc == 0 || v == 12345.0);
}

/* tilehybrid_parse_i64(): whole numbers, limits, ranges, the syntax rule. */
static void test_parse_i64(void)
{
    int64_t r = 7;
    check(i64("0", 0, 9, 0, 0) && i64("42", 0, 100, 42, 0) && i64("-3", -5, 5, -3, 0),
          "parse_i64: plain whole numbers");
    check(i64("9223372036854775807", INT64_MIN, INT64_MAX, INT64_MAX, 0) &&
              i64("-9223372036854775808", INT64_MIN, INT64_MAX, INT64_MIN, 0),
          "parse_i64: the int64 limits");
    check(i64("9223372036854775808", INT64_MIN, INT64_MAX, 0, TILEHYBRID_ERR_RANGE) &&
              i64("-9223372036854775809", INT64_MIN, INT64_MAX, 0, TILEHYBRID_ERR_RANGE) &&
              i64("99999999999999999999999", INT64_MIN, INT64_MAX, 0, TILEHYBRID_ERR_RANGE),
          "parse_i64: past 64 bits is a range error");
    check(i64("11", 0, 10, 0, TILEHYBRID_ERR_RANGE) && i64("-1", 0, 10, 0, TILEHYBRID_ERR_RANGE),
          "parse_i64: outside [lo, hi] is a range error");
    check(i64("", 0, 9, 0, TILEHYBRID_ERR_SYNTAX) && i64(" 1", 0, 9, 0, TILEHYBRID_ERR_SYNTAX) &&
              i64("1 ", 0, 9, 0, TILEHYBRID_ERR_SYNTAX) && i64("+1", 0, 9, 0, TILEHYBRID_ERR_SYNTAX) &&
              i64("0x1", 0, 9, 0, TILEHYBRID_ERR_SYNTAX) && i64("1e3", 0, 9999, 0, TILEHYBRID_ERR_SYNTAX) &&
              i64("-", 0, 9, 0, TILEHYBRID_ERR_SYNTAX) && i64("99999999999999999999x", 0, 9, 0,
                                                             TILEHYBRID_ERR_SYNTAX),
          "parse_i64: spaces, signs, other bases, exponents and suffixes are syntax errors");
    check(tilehybrid_parse_i64(NULL, 0, 1, &r) == TILEHYBRID_ERR_NULL &&
              tilehybrid_parse_i64("1", 0, 1, NULL) == TILEHYBRID_ERR_NULL,
          "parse_i64: NULL arguments");
}

/* tilehybrid_parse_double(): the same rule for real numbers, subnormals. */
static void test_parse_double(void)
{
    check(dbl("0", 0.0, 0) && dbl("2.5", 2.5, 0) && dbl("-.5", -0.5, 0) && dbl("5.", 5.0, 0) &&
              dbl("288e-9", 288e-9, 0) && dbl("1E+3", 1000.0, 0) && dbl("-0", -0.0, 0),
          "parse_double: plain decimal numbers");
    check(dbl("1e-310", 1e-310, 0) && dbl("4.9e-324", 4.9e-324, 0),
          "parse_double: subnormal numbers are numbers");
    check(dbl("1e-400", 0, TILEHYBRID_ERR_RANGE) && dbl("1e400", 0, TILEHYBRID_ERR_RANGE) &&
              dbl("-1e309", 0, TILEHYBRID_ERR_RANGE),
          "parse_double: below the smallest subnormal or beyond the largest double is a range error");
    check(dbl("0e-400", 0.0, 0) && dbl("0.000e999", 0.0, 0), "parse_double: zero with any exponent is 0");
    check(dbl(" 1", 0, TILEHYBRID_ERR_SYNTAX) && dbl("1 ", 0, TILEHYBRID_ERR_SYNTAX) &&
              dbl("+1", 0, TILEHYBRID_ERR_SYNTAX) && dbl("0x1p3", 0, TILEHYBRID_ERR_SYNTAX) &&
              dbl("inf", 0, TILEHYBRID_ERR_SYNTAX) && dbl("nan", 0, TILEHYBRID_ERR_SYNTAX) &&
              dbl(".", 0, TILEHYBRID_ERR_SYNTAX) && dbl("1e", 0, TILEHYBRID_ERR_SYNTAX) &&
              dbl("1e+", 0, TILEHYBRID_ERR_SYNTAX) && dbl("", 0, TILEHYBRID_ERR_SYNTAX) &&
              dbl("1s", 0, TILEHYBRID_ERR_SYNTAX),
          "parse_double: spaces, '+', hex, inf, nan and units are syntax errors");
    {
        double v = 3;
        check(tilehybrid_parse_double("0.5", 0.0, 1.0, &v) == 0 && v == 0.5 &&
                  tilehybrid_parse_double("1.5", 0.0, 1.0, &v) == TILEHYBRID_ERR_RANGE && v == 0.5,
              "parse_double: outside [lo, hi] is a range error, *out untouched");
    }
}

/* tilehybrid_mul_ok() and tilehybrid_add_ok(). */
static void test_checked_arithmetic(void)
{
    int64_t r = 7;
    check(tilehybrid_mul_ok(3, 4, &r) && r == 12 && tilehybrid_mul_ok(-3, 4, &r) && r == -12 &&
              tilehybrid_mul_ok(INT64_MAX, 1, &r) && r == INT64_MAX &&
              tilehybrid_mul_ok(INT64_MIN, 1, &r) && r == INT64_MIN,
          "mul_ok: exact products");
    r = 7;
    check(!tilehybrid_mul_ok(INT64_MAX, 2, &r) && !tilehybrid_mul_ok(INT64_MIN, -1, &r) &&
              !tilehybrid_mul_ok((int64_t)1 << 32, (int64_t)1 << 31, &r) &&
              !tilehybrid_mul_ok(-((int64_t)1 << 32), (int64_t)1 << 32, &r) && r == 7,
          "mul_ok: overflow in every sign combination, result untouched");
    check(tilehybrid_add_ok(INT64_MAX - 1, 1, &r) && r == INT64_MAX &&
              !tilehybrid_add_ok(INT64_MAX, 1, &r) && !tilehybrid_add_ok(INT64_MIN, -1, &r) &&
              r == INT64_MAX,
          "add_ok: exact sums and overflow");
}

/* tilehybrid_fit_affine(): exact and noisy lines, too few or bad samples. */
static void test_fit(void)
{
    tilehybrid_fit f;
    double x[4] = {0, 1, 2, 3}, y[4] = {1, 3, 5, 7}, yn[4] = {1, 3.5, 5, 7};
    check(tilehybrid_fit_affine(x, y, 4, &f) == 0 && fabs(f.intercept - 1) < 1e-12 &&
              fabs(f.slope - 2) < 1e-12 && f.r2 == 1.0 && f.max_resid < 1e-12 && f.n == 4,
          "fit_affine: an exact line");
    check(tilehybrid_fit_affine(x, yn, 4, &f) == 0 && f.r2 < 1.0 && f.max_resid > 0.1,
          "fit_affine: a noisy line has r2 < 1 and a residual");
    check(tilehybrid_fit_affine(x, y, 1, &f) == TILEHYBRID_ERR_SAMPLES &&
              tilehybrid_fit_affine(y, y, 0, &f) == TILEHYBRID_ERR_SAMPLES,
          "fit_affine: fewer than two samples");
    x[1] = x[2] = x[3] = 0;
    check(tilehybrid_fit_affine(x, y, 4, &f) == TILEHYBRID_ERR_SAMPLES, "fit_affine: all x equal");
    x[1] = NAN;
    check(tilehybrid_fit_affine(x, y, 4, &f) == TILEHYBRID_ERR_SAMPLES, "fit_affine: NaN sample");
}

/* tilehybrid_fit_origin(): the slope through the origin, and bad samples. */
static void test_fit_origin(void)
{
    tilehybrid_fit f;
    double x[3] = {1, 2, 4}, y[3] = {2.5, 5, 10}, yo[3] = {3.5, 6, 11}, z[3] = {0, 0, 0};
    check(tilehybrid_fit_origin(x, y, 3, &f) == TILEHYBRID_OK && f.slope == 2.5 &&
              f.intercept == 0 && f.r2 == 1.0 && f.max_resid == 0 && f.n == 3,
          "fit_origin: an exact line through the origin");
    /* sum(x y) / sum(x x) = (3.5 + 12 + 44) / 21 */
    check(tilehybrid_fit_origin(x, yo, 3, &f) == TILEHYBRID_OK && f.slope == 59.5 / 21 &&
              f.intercept == 0 && f.r2 < 1.0 && f.max_resid > 0.1,
          "fit_origin: an offset line gives sum(x y) / sum(x x), r2 < 1");
    check(tilehybrid_fit_origin(NULL, y, 3, &f) == TILEHYBRID_ERR_NULL &&
              tilehybrid_fit_origin(x, y, 3, NULL) == TILEHYBRID_ERR_NULL &&
              tilehybrid_fit_origin(x, y, 0, &f) == TILEHYBRID_ERR_SAMPLES &&
              tilehybrid_fit_origin(z, y, 3, &f) == TILEHYBRID_ERR_SAMPLES,
          "fit_origin: NULL, no sample, every x 0 refused");
    y[2] = INFINITY;
    check(tilehybrid_fit_origin(x, y, 3, &f) == TILEHYBRID_ERR_SAMPLES,
          "fit_origin: an infinite sample refused");
}

/* tilehybrid_status_set() and tilehybrid_strerror(). */
static void test_status(void)
{
    tilehybrid_status st;
    check(tilehybrid_status_set(&st, 3, "extent", 2) == 3 && st.code == 3 &&
              strcmp(st.arg, "extent") == 0 && st.index == 2 && st.rank == -1 && st.mpi_error == 0 &&
              tilehybrid_status_set(NULL, 4, "x", 0) == 4,
          "status_set fills the status (NULL allowed) and returns the code");
    {
        int c, all = 1;
        for (c = 0; c <= TILEHYBRID_ERR_MPI + 1; c++)
            all &= tilehybrid_strerror(c) != NULL && tilehybrid_strerror(c)[0] != '\0';
        check(all && tilehybrid_strerror(-1) != NULL, "strerror: a message for every code, never NULL");
    }
}

/* tilehybrid_thread_num(), tilehybrid_in_parallel(): the OpenMP queries the
 * step macros use (0 and 0 outside a region and without OpenMP). */
static void test_openmp_queries(void)
{
    int outside = tilehybrid_thread_num() == 0 && tilehybrid_in_parallel() == 0;
#ifdef _OPENMP
    int seen[2] = { 0, 0 }, bad = 0;
#pragma omp parallel num_threads(2)
    {
        int t = tilehybrid_thread_num();
#pragma omp critical
        {
            if (t < 0 || t > 1 || t != omp_get_thread_num() ||
                tilehybrid_in_parallel() != omp_in_parallel() ||
                (omp_get_num_threads() == 2 && !tilehybrid_in_parallel()))
                bad = 1;
            else if (omp_get_num_threads() == 2)
                seen[t] = 1;
            else
                seen[0] = seen[1] = 1; /* the runtime gave one thread: t was 0 */
        }
    }
    check(outside && !bad && seen[0] && seen[1],
          "thread_num/in_parallel: 0 and 0 outside a region, each thread's number and "
          "non-zero inside one");
#else
    check(outside, "thread_num/in_parallel: 0 and 0 without OpenMP");
#endif
}

/* tilehybrid_double_text(): the shortest text that reads back as the double. */
static void test_double_text(void)
{
    static const struct { double x; const char *text; } c[] = {
        { 0.3, "0.3" }, { 0.1 + 0.2, "0.30000000000000004" }, { 0.6, "0.6" },
        { 1e-310, "1e-310" }, { 5e-324, "5e-324" }, { 1e7, "10000000" }, { -2.5, "-2.5" },
        { 1e300, "1e+300" }, { 123456789012345678.0, "1.2345678901234568e+17" },
        { 1.0 / 3.0, "0.3333333333333333" }, { 0.0, "0" }
    };
    char buf[32];
    unsigned i;
    int all = 1;
    for (i = 0; i < sizeof c / sizeof c[0]; i++) {
        tilehybrid_double_text(c[i].x, buf, sizeof buf);
        if (strcmp(buf, c[i].text) != 0 || strtod(buf, NULL) != c[i].x) {
            printf("# %.17g printed as %s, expected %s\n", c[i].x, buf, c[i].text);
            all = 0;
        }
    }
    check(all, "double_text: the shortest of %%.15g..%%.17g that reads back (0.3, "
               "0.30000000000000004, 10000000), from %%.1g for subnormals (1e-310)");
}

int main(void)
{
    test_parse_i64();
    test_parse_double();
    test_checked_arithmetic();
    test_fit();
    test_fit_origin();
    test_status();
    test_openmp_queries();
    test_double_text();
    return check_exit();
}
