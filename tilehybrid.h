/* tilehybrid.h -- the base of tilehybrid: the version, the one error
 * convention, checked arithmetic, the one number parser and its inverse
 * (tilehybrid_double_text), and the MPI helpers
 * the other headers share (every rank agreeing on values and on an error, a
 * ping-pong, the least-squares fits), and the two OpenMP queries the
 * step macros use (tilehybrid_thread_num, tilehybrid_in_parallel).  Part of tilehybrid (MIT
 * licence), version TILEHYBRID_VERSION.
 *
 * Every other header includes this one; copy it along with them.  You need
 * it directly only for the number parser, the status type, or to agree on
 * values across ranks in your own code:
 *
 *     #include <stdio.h>
 *     #include "tilehybrid.h"
 *
 *     int main(int argc, char **argv)
 *     {
 *         int64_t n = 0;
 *         uint64_t v;
 *         int rank, code;
 *         char msg[256] = "";
 *         tilehybrid_agreement a;
 *         MPI_Init(&argc, &argv);
 *         MPI_Comm_rank(MPI_COMM_WORLD, &rank);
 *         code = tilehybrid_parse_i64(argc > 1 ? argv[1] : "", 1, 1000, &n);
 *         if (code != TILEHYBRID_OK)
 *             snprintf(msg, sizeof msg, "size '%.40s': %s", argc > 1 ? argv[1] : "",
 *                      tilehybrid_strerror(code));
 *         v = (uint64_t)n;
 *         // one collective: did a rank fail (then every rank has its
 *         // message), and does every rank have the same n?
 *         if (tilehybrid_agree(MPI_COMM_WORLD, code, &v, 1, msg, sizeof msg, &a) != MPI_SUCCESS)
 *             a.code = -1;
 *         if (rank == 0 && a.code > 0)
 *             fprintf(stderr, "rank %d: %s\n", a.rank, msg);
 *         else if (rank == 0 && a.code == 0 && a.index >= 0)
 *             fprintf(stderr, "the size differs between ranks (%lld vs %lld)\n",
 *                     (long long)a.lo, (long long)a.hi);
 *         else if (rank == 0 && a.code == 0)
 *             printf("n = %lld on every rank\n", (long long)n);
 *         MPI_Finalize();
 *         return a.code != 0 || a.index >= 0;
 *     }
 *
 * THE ERROR CONVENTION (all six headers)
 *   A function that can fail returns X_OK (0) or a positive X_ERR_* code of
 *   its header (X = TILE, TOPO, BAL, SLB, TILEHYBRID); X_strerror(code) says
 *   in words what was wrong and never returns NULL.  Functions that take a
 *   tilehybrid_status * (NULL allowed) also name the argument at fault, its
 *   index and the rank that found it.  Nothing prints, nothing aborts on bad
 *   input; collective functions return the same code on every rank, also
 *   when an argument is bad on one rank only.
 *
 * AN MPI CALL THAT FAILS ON ONE RANK
 *   cannot be agreed on: the other ranks would wait for it forever.  In
 *   the collectives of tiling.h (plans, runs), topology.h
 *   (topo_cart_create_ex, topo_nest_cart_create) and scatterlb.h (plans,
 *   calibrations) that rank reports the call, its rank and MPI's error
 *   text on stderr ("tilehybrid: rank 1: MPI_Cart_create failed in
 *   topology.h's topo_cart_create_ex() (...); aborting the job"), or hands
 *   that message to your hook (tiling.h: cfg.on_mpi_failure; the others:
 *   tilehybrid_mpi_failure_swap()), then ends the job with MPI_Abort on
 *   MPI_COMM_WORLD (tilehybrid_mpi_failed(), tilehybrid_mpi_abort()).
 *   Where the caller knows better, the function returns the MPI error on
 *   the failing rank only and the caller must end the job (MPI_Abort): this
 *   header's tilehybrid_agree*() and tilehybrid_pingpong*() (the headers
 *   call them and then abort), balance.h's bal_calibrate_comm*() and
 *   bal_policy_setup_ex() (BAL_ERR_MPI: tiling.h aborts on it), and
 *   scatterlb.h's data movers (slb_plan_scatterv, slb_gatherv, ...).
 *   Messages count dimensions and stencil vectors from 1 ("dimension 1",
 *   "d_1", "stencil vector 1"); a C subscript in a message (dep[0]) and
 *   tilehybrid_status.index are 0-based, as in C.
 *
 * OPTIONS (#define before including)
 *   TILEHYBRID_NO_MPI     leave out the MPI helpers and <mpi.h> (the
 *                         other headers honour it too where they can).
 *   TILEHYBRID_MALLOC(size), TILEHYBRID_FREE(ptr)
 *                         replace malloc and free in every header; define
 *                         both or neither (one alone is an #error).
 *   TILEHYBRID_TAG_BASE   first of the MPI tags the headers use on
 *                         communicators you pass them (default 32000; see
 *                         TILEHYBRID_TAG_*); plans use their own duplicate.
 *   TILEHYBRID_SEPARATE, TILEHYBRID_IMPLEMENTATION
 *                         compile the cold code once per program instead of
 *                         once per file (see COMPILING THE COLD CODE ONCE).
 *
 * COMPILING THE COLD CODE ONCE
 *   By default every function is `static inline` and each file that
 *   includes a header compiles what it calls: a file with one HYBRID_RUN
 *   compiles plan creation, validation, the height search and the rest
 *   again.  In a program of several files, or to compile a kernel file
 *   faster, define TILEHYBRID_SEPARATE in every file of the program (best
 *   with -DTILEHYBRID_SEPARATE for all of them) and, in exactly one file,
 *   TILEHYBRID_IMPLEMENTATION too, before its first tilehybrid header; that
 *   file includes every tilehybrid header the program uses and need hold
 *   nothing else: a file of two lines, `#define TILEHYBRID_IMPLEMENTATION`
 *   and `#include "hybrid.h"` (which brings tiling.h, balance.h,
 *   topology.h and this one), compiled once with the program's options
 *   (tests/separate_impl.c and tests/separate_main.c are such a program).
 *   The cold functions of tilehybrid.h, balance.h, topology.h, tiling.h
 *   and hybrid.h (what runs once per plan or per run: creation and
 *   validation, tile_plan_destroy, the grid and height searches, the cache
 *   queries, gather, exchange, the input and output setup, the start and
 *   end of a run, error reporting, hybrid_init) and the warm ones (what a
 *   run does once per step or per tile: the messages, the start of a
 *   tile's walk, its boundary values and mirror planes) are then defined
 *   in that file with external linkage, under their own names, and only
 *   declared in the others; what runs per point (TILE_AT, the cursor, the
 *   loops over a tile's points) stays `static inline` everywhere.  A file
 *   with one HYBRID_RUN then compiles in a quarter of the time
 *   (docs/RESULTS.md, "Compile time").  scatterlb.h stays header-only
 *   (it calls this header's cold functions).  Every file of the program
 *   must see the same options (TILEHYBRID_MALLOC, TILE_MSG_MAX,
 *   TILEHYBRID_TAG_BASE, TILE_SIM_FLOPS, TILE_ULFM, TILE_NO_PARTITIONED,
 *   TILE_CHECK_ACCESS, OpenMP or not, the same MPI); a file whose
 *   TILE_CHECK_ACCESS, OpenMP, ULFM or partitioned messages differ from
 *   the implementation file's and that calls tile_plan_create() or a step
 *   macro (not TILE_COMPUTE alone) does not link ("undefined
 *   reference to tilehybrid__abi_checked_omp_noulfm_part": its own
 *   options).  TILEHYBRID_IMPLEMENTATION without TILEHYBRID_SEPARATE, or
 *   either switch changed between two tilehybrid headers of one file, is
 *   an #error.  Neither defined: header-only, as before.  (Under GCC and
 *   clang the implementation file marks its cold definitions
 *   __attribute__((cold)): compiled for size, and faster to compile; the
 *   warm ones are compiled as the file asks; the other files see plain
 *   declarations.)
 *
 * VERSION
 *   0.2.0  one base header; one error convention; one parser; shared MPI
 *          helpers.
 *   0.1.0  first release (five headers).
 */
#ifndef TILEHYBRID_H
#define TILEHYBRID_H

#define TILEHYBRID_VERSION "0.2.0"
#define TILEHYBRID_VERSION_MAJOR 0
#define TILEHYBRID_VERSION_MINOR 2
#define TILEHYBRID_VERSION_PATCH 0

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#ifndef TILEHYBRID_NO_MPI
#include <mpi.h>
#endif
#if defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__))
#include <sched.h>      /* sched_yield: waits that yield (tilehybrid__yield) */
#include <unistd.h>     /* _POSIX_PRIORITY_SCHEDULING, _POSIX_THREADS */
#endif

#if defined(TILEHYBRID_MALLOC) && !defined(TILEHYBRID_FREE)
#error "tilehybrid: TILEHYBRID_MALLOC is defined but TILEHYBRID_FREE is not: define both or neither"
#elif defined(TILEHYBRID_FREE) && !defined(TILEHYBRID_MALLOC)
#error "tilehybrid: TILEHYBRID_FREE is defined but TILEHYBRID_MALLOC is not: define both or neither"
#elif !defined(TILEHYBRID_MALLOC)
#define TILEHYBRID_MALLOC(size) malloc(size)
#define TILEHYBRID_FREE(ptr) free(ptr)
#endif

#ifndef TILEHYBRID_TAG_BASE
#define TILEHYBRID_TAG_BASE 32000
#endif
/** Tags used on communicators the user passes (MPI guarantees tags up to
 *  32767): the ping-pong of the calibrations, and the scatter calibration. */
#define TILEHYBRID_TAG_PINGPONG (TILEHYBRID_TAG_BASE + 0)
#define TILEHYBRID_TAG_SCATTER (TILEHYBRID_TAG_BASE + 1)

/* The storage class of the cold functions (COMPILING THE COLD CODE ONCE):
 * static inline in a header-only build, external under TILEHYBRID_SEPARATE;
 * TILEHYBRID__DEFINE is 1 where their definitions are compiled (header-only,
 * or the file with TILEHYBRID_IMPLEMENTATION) and 0 where only their
 * declarations are; TILEHYBRID__MODE (0 header-only, 1 declarations, 2 the
 * implementation) lets the other headers check that they see the same
 * switches. */
#if defined(TILEHYBRID_IMPLEMENTATION) && !defined(TILEHYBRID_SEPARATE)
#error "tilehybrid: TILEHYBRID_IMPLEMENTATION needs TILEHYBRID_SEPARATE: define TILEHYBRID_SEPARATE in every file of the program and TILEHYBRID_IMPLEMENTATION in one of them, or neither (header-only)"
#endif
#if defined(TILEHYBRID_IMPLEMENTATION) && (defined(__GNUC__) || defined(__clang__))
#define TILEHYBRID__COLD __attribute__((cold))  /* compiled for size, once */
#define TILEHYBRID__DEFINE 1
#define TILEHYBRID__MODE 2
#elif defined(TILEHYBRID_IMPLEMENTATION)
#define TILEHYBRID__COLD
#define TILEHYBRID__DEFINE 1
#define TILEHYBRID__MODE 2
#elif defined(TILEHYBRID_SEPARATE)
#define TILEHYBRID__COLD
#define TILEHYBRID__DEFINE 0
#define TILEHYBRID__MODE 1
#else
#define TILEHYBRID__COLD static inline
#define TILEHYBRID__DEFINE 1
#define TILEHYBRID__MODE 0
#endif
/* The storage class of the warm functions: what a run calls once per step
 * or per tile, never per point (a step's messages, the start of a tile's
 * walk, its boundary values and mirror planes).  Like the cold ones they
 * are compiled once under TILEHYBRID_SEPARATE, but at the file's own
 * optimisation, not for size. */
#ifdef TILEHYBRID_SEPARATE
#define TILEHYBRID__WARM
#else
#define TILEHYBRID__WARM static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

/** Codes of this header (the parser and the fit). */
enum tilehybrid_error {
    TILEHYBRID_OK = 0,
    TILEHYBRID_ERR_NULL,     /* a required pointer is NULL */
    TILEHYBRID_ERR_SYNTAX,   /* not a plain decimal number */
    TILEHYBRID_ERR_RANGE,    /* a number outside the allowed range */
    TILEHYBRID_ERR_SAMPLES,  /* a fit needs >= 2 finite samples with distinct x */
    TILEHYBRID_ERR_MPI       /* an MPI call failed */
};

#if TILEHYBRID__DEFINE
/** tilehybrid_strerror() - the message for a code of this header (never NULL). */
TILEHYBRID__COLD const char *tilehybrid_strerror(int code)
{
    switch (code) {
    case TILEHYBRID_OK: return "success";
    case TILEHYBRID_ERR_NULL: return "a required pointer argument is NULL";
    case TILEHYBRID_ERR_SYNTAX:
        return "not a plain decimal number (digits and an optional '-'; a real number may "
               "add a decimal point and an exponent such as 2.5e-7; no spaces, '+', hex, inf "
               "or nan)";
    case TILEHYBRID_ERR_RANGE: return "the number is outside the allowed range";
    case TILEHYBRID_ERR_SAMPLES:
        return "a fit needs at least two finite samples with distinct x";
    case TILEHYBRID_ERR_MPI: return "an MPI call failed";
    default: return "unknown tilehybrid error code";
    }
}
#else
TILEHYBRID__COLD const char *tilehybrid_strerror(int code);
#endif

/**
 * struct tilehybrid_status - the detail of an error, beside its code.
 * @code:      the code returned (X_OK on success);
 * @arg:       the argument at fault ("extent", "dep", "costs", ...), or ""
 *             when no single argument is; for an *_ERR_MPI code of
 *             topology.h, balance.h or scatterlb.h, the MPI call that
 *             failed ("MPI_Recv");
 * @index:     its 0-based index (dimension i + 1 is index i; processor,
 *             row), or -1;
 * @rank:      the MPI rank that found the error, or -1 (pure functions);
 * @mpi_error: the MPI error code for an *_ERR_MPI code, else 0.
 */
typedef struct tilehybrid_status {
    int code;
    const char *arg;
    int64_t index;
    int rank;
    int mpi_error;
} tilehybrid_status;

/** tilehybrid_status_set() - fill *st (if not NULL) and return @code. */
static inline int tilehybrid_status_set(tilehybrid_status *st, int code, const char *arg,
                                        int64_t index)
{
    if (st != NULL) {
        st->code = code;
        st->arg = arg != NULL ? arg : "";
        st->index = index;
        st->rank = -1;
        st->mpi_error = 0;
    }
    return code;
}

/* ------------------------------------------------------------------------ */
/* Checked arithmetic: one contract in every header                         */

/** tilehybrid_mul_ok() - *r = a * b if it fits in int64_t: returns 1, else
 *  returns 0 and leaves *r alone.  Any signs. */
static inline int tilehybrid_mul_ok(int64_t a, int64_t b, int64_t *r)
{
#if defined(__GNUC__) || defined(__clang__)
    int64_t t;
    if (__builtin_mul_overflow(a, b, &t))
        return 0;
    *r = t;
    return 1;
#else
    if (a != 0 && b != 0) {
        if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
                  : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b))
            return 0;
    }
    *r = a * b;
    return 1;
#endif
}

/** tilehybrid_add_ok() - *r = a + b if it fits in int64_t (1), else 0. */
static inline int tilehybrid_add_ok(int64_t a, int64_t b, int64_t *r)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return 0;
    *r = a + b;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* The one number parser (headers' environment variables, every program)    */

/**
 * tilehybrid_thread_num() - the calling thread's number in its OpenMP team.
 *
 * The OpenMP query the step macros of tiling.h and hybrid.h need, so that
 * no header names another's private macros.
 * Return: omp_get_thread_num(); 0 without OpenMP.
 */
static inline int tilehybrid_thread_num(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/**
 * tilehybrid_in_parallel() - whether the caller is inside an active
 * OpenMP parallel region.
 * Return: omp_in_parallel() (non-zero inside one); 0 without OpenMP.
 */
static inline int tilehybrid_in_parallel(void)
{
#ifdef _OPENMP
    return omp_in_parallel();
#else
    return 0;
#endif
}

#if TILEHYBRID__DEFINE
TILEHYBRID__COLD int tilehybrid__digit(char c)
{
    return c >= '0' && c <= '9';
}

/**
 * tilehybrid_parse_i64() - parse a whole decimal number.
 * @s:   the text: an optional '-' and one or more digits, nothing else (no
 *       spaces, no '+', no other base, no suffix).
 * @lo, @hi: the allowed range (inclusive).
 * @out: receives the value (untouched on error).
 * Return: TILEHYBRID_OK, TILEHYBRID_ERR_NULL, TILEHYBRID_ERR_SYNTAX, or
 * TILEHYBRID_ERR_RANGE (outside [lo, hi], or beyond 64 bits).
 */
TILEHYBRID__COLD int tilehybrid_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    int neg;
    uint64_t v = 0, lim;
    if (s == NULL || out == NULL)
        return TILEHYBRID_ERR_NULL;
    neg = *s == '-';
    s += neg;
    if (!tilehybrid__digit(*s))
        return TILEHYBRID_ERR_SYNTAX;
    lim = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    for (; tilehybrid__digit(*s); s++) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (lim - d) / 10u) {
            while (tilehybrid__digit(*s))
                s++;
            return *s == '\0' ? TILEHYBRID_ERR_RANGE : TILEHYBRID_ERR_SYNTAX;
        }
        v = v * 10u + d;
    }
    if (*s != '\0')
        return TILEHYBRID_ERR_SYNTAX;
    {
        int64_t x = neg ? (v == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)v) : (int64_t)v;
        if (x < lo || x > hi)
            return TILEHYBRID_ERR_RANGE;
        *out = x;
    }
    return TILEHYBRID_OK;
}

/**
 * tilehybrid_parse_double() - parse a plain decimal real number.
 * @s:   [-]digits[.digits][(e|E)[-|+]digits], or with the digits before
 *       the point left out (.5); nothing else: no spaces, no leading '+',
 *       no hex, inf or nan.
 * @lo, @hi: the allowed range (inclusive; pass -HUGE_VAL/HUGE_VAL for any).
 * @out: receives the value (untouched on error).
 * Subnormal numbers are numbers.  A literal too large for a double, or
 * non-zero but below the smallest subnormal (4.9e-324, e.g. 1e-400), is a
 * range error rather than being turned into infinity or zero.
 * Return: TILEHYBRID_OK, TILEHYBRID_ERR_NULL, TILEHYBRID_ERR_SYNTAX or
 * TILEHYBRID_ERR_RANGE.
 */
TILEHYBRID__COLD int tilehybrid_parse_double(const char *s, double lo, double hi, double *out)
{
    const char *p = s;
    int digits = 0, nonzero = 0, saved;
    char *end;
    double v;
    if (s == NULL || out == NULL)
        return TILEHYBRID_ERR_NULL;
    if (*p == '-')
        p++;
    for (; tilehybrid__digit(*p); p++, digits++)
        nonzero |= *p != '0';
    if (*p == '.')
        for (p++; tilehybrid__digit(*p); p++, digits++)
            nonzero |= *p != '0';
    if (digits == 0)
        return TILEHYBRID_ERR_SYNTAX;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '-' || *p == '+')
            p++;
        if (!tilehybrid__digit(*p))
            return TILEHYBRID_ERR_SYNTAX;
        while (tilehybrid__digit(*p))
            p++;
    }
    if (*p != '\0')
        return TILEHYBRID_ERR_SYNTAX;
    saved = errno;
    errno = 0;
    v = strtod(s, &end);
    if (end != p)
        return TILEHYBRID_ERR_SYNTAX;
    /* ERANGE also flags a subnormal result, which is a fine number: only an
     * infinity, or a zero from non-zero digits, is out of range */
    if ((errno == ERANGE && (v > 1.0 || v < -1.0)) || (v == 0.0 && nonzero)) {
        errno = saved;
        return TILEHYBRID_ERR_RANGE;
    }
    errno = saved;
    if (!(v >= lo && v <= hi))
        return TILEHYBRID_ERR_RANGE;
    *out = v;
    return TILEHYBRID_OK;
}
#else
TILEHYBRID__COLD int tilehybrid__digit(char c);
TILEHYBRID__COLD int tilehybrid_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out);
TILEHYBRID__COLD int tilehybrid_parse_double(const char *s, double lo, double hi, double *out);
#endif

/* ------------------------------------------------------------------------ */
/* Least-squares fits (the calibrations of balance.h and scatterlb.h)      */

/**
 * struct tilehybrid_fit - y ~ intercept + slope * x.
 * @intercept, @slope: the fit;
 * @r2:        1 - SS_res/SS_tot (1: perfect; when all y are equal, 1 if
 *             fitted exactly, else 0);
 * @max_resid: the largest |y - fit(x)|;
 * @n:         the number of samples.
 */
typedef struct tilehybrid_fit {
    double intercept;
    double slope;
    double r2;
    double max_resid;
    int n;
} tilehybrid_fit;

#if TILEHYBRID__DEFINE
TILEHYBRID__COLD int tilehybrid__finite(double x)
{
    return x == x && x - x == 0.0;
}

/** tilehybrid_fit_quality() - set fit->r2, max_resid and n for the line
 *  already in fit (n >= 1 finite samples). */
TILEHYBRID__COLD void tilehybrid_fit_quality(const double *x, const double *y, int n,
                                             tilehybrid_fit *fit)
{
    double ybar = 0, ssr = 0, sst = 0, mr = 0;
    int i;
    for (i = 0; i < n; i++)
        ybar += y[i];
    ybar /= n;
    for (i = 0; i < n; i++) {
        double r = y[i] - (fit->intercept + fit->slope * x[i]);
        double a = r < 0 ? -r : r;
        ssr += r * r;
        sst += (y[i] - ybar) * (y[i] - ybar);
        mr = a > mr ? a : mr;
    }
    fit->r2 = sst > 0 ? 1.0 - ssr / sst : ssr == 0 ? 1.0 : 0.0;
    fit->max_resid = mr;
    fit->n = n;
}

/* The checks of the fits: x, y and fit not NULL, n >= least, every
 * sample finite. */
TILEHYBRID__COLD int tilehybrid__fit_check(const double *x, const double *y, int n, int least,
                                           const tilehybrid_fit *fit)
{
    int i;
    if (x == NULL || y == NULL || fit == NULL)
        return TILEHYBRID_ERR_NULL;
    if (n < least)
        return TILEHYBRID_ERR_SAMPLES;
    for (i = 0; i < n; i++)
        if (!tilehybrid__finite(x[i]) || !tilehybrid__finite(y[i]))
            return TILEHYBRID_ERR_SAMPLES;
    return TILEHYBRID_OK;
}

/**
 * tilehybrid_fit_affine() - ordinary least squares y = a + b x.
 * @x, @y: n finite samples with at least two distinct x.
 * @n:     the number of samples.
 * @fit:   receives the line and its quality.
 * Return: TILEHYBRID_OK, TILEHYBRID_ERR_NULL or TILEHYBRID_ERR_SAMPLES.
 */
TILEHYBRID__COLD int tilehybrid_fit_affine(const double *x, const double *y, int n,
                                           tilehybrid_fit *fit)
{
    double xbar = 0, ybar = 0, sxx = 0, sxy = 0;
    int i, rc = tilehybrid__fit_check(x, y, n, 2, fit);
    if (rc != TILEHYBRID_OK)
        return rc;
    for (i = 0; i < n; i++) {
        xbar += x[i];
        ybar += y[i];
    }
    xbar /= n;
    ybar /= n;
    for (i = 0; i < n; i++) {
        sxx += (x[i] - xbar) * (x[i] - xbar);
        sxy += (x[i] - xbar) * (y[i] - ybar);
    }
    if (!(sxx > 0))
        return TILEHYBRID_ERR_SAMPLES;
    fit->slope = sxy / sxx;
    fit->intercept = ybar - fit->slope * xbar;
    tilehybrid_fit_quality(x, y, n, fit);
    return TILEHYBRID_OK;
}

/**
 * tilehybrid_fit_origin() - least squares through the origin, y = b x.
 * @x, @y: n finite samples, not every x 0.
 * @n:     the number of samples (>= 1).
 * @fit:   receives intercept 0, slope sum(x y) / sum(x x), and the quality
 *         of that line (r2 can be < 0 when the y have a large offset).
 * Return: TILEHYBRID_OK, TILEHYBRID_ERR_NULL or TILEHYBRID_ERR_SAMPLES
 * (also when the slope is not finite: every x 0, or the sums overflow).
 */
TILEHYBRID__COLD int tilehybrid_fit_origin(const double *x, const double *y, int n,
                                           tilehybrid_fit *fit)
{
    double sxx = 0, sxy = 0;
    int i, rc = tilehybrid__fit_check(x, y, n, 1, fit);
    if (rc != TILEHYBRID_OK)
        return rc;
    for (i = 0; i < n; i++) {
        sxy += x[i] * y[i];
        sxx += x[i] * x[i];
    }
    if (!(sxx > 0) || !tilehybrid__finite(sxy / sxx))
        return TILEHYBRID_ERR_SAMPLES;
    fit->intercept = 0;
    fit->slope = sxy / sxx;
    tilehybrid_fit_quality(x, y, n, fit);
    return TILEHYBRID_OK;
}

/**
 * tilehybrid_double_text() - a double as its user wrote it: the shortest of
 * %.15g, %.16g and %.17g that reads back as the same double (0.3, not
 * 0.29999999999999999; 0.30000000000000004 stays; 10000000, not 1e+07);
 * for a subnormal, which holds fewer digits, the shortest %.Ng from N = 1
 * (1e-310, not 9.99999999999997e-311).
 * @x:    the value (inf and nan print as the C library prints them;
 *        JSON writers check for them first).
 * @buf:  the text, NUL-terminated; @size: its size (32 bytes hold any).
 */
TILEHYBRID__COLD void tilehybrid_double_text(double x, char *buf, size_t size)
{
    int prec;
    for (prec = x != 0 && x < DBL_MIN && x > -DBL_MIN ? 1 : 15; prec < 17; prec++) {
        snprintf(buf, size, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            return;
    }
    snprintf(buf, size, "%.17g", x);
}
#else
TILEHYBRID__COLD int tilehybrid__finite(double x);
TILEHYBRID__COLD void tilehybrid_fit_quality(const double *x, const double *y, int n,
                                             tilehybrid_fit *fit);
TILEHYBRID__COLD int tilehybrid__fit_check(const double *x, const double *y, int n, int least,
                                           const tilehybrid_fit *fit);
TILEHYBRID__COLD int tilehybrid_fit_affine(const double *x, const double *y, int n,
                                           tilehybrid_fit *fit);
TILEHYBRID__COLD int tilehybrid_fit_origin(const double *x, const double *y, int n,
                                           tilehybrid_fit *fit);
TILEHYBRID__COLD void tilehybrid_double_text(double x, char *buf, size_t size);
#endif

/** tilehybrid_bits() - the 64-bit pattern of a double, for tilehybrid_agree(). */
static inline uint64_t tilehybrid_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/** tilehybrid_from_bits() - the double of a 64-bit pattern. */
static inline double tilehybrid_from_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

#ifndef TILEHYBRID_NO_MPI
/* ------------------------------------------------------------------------ */
/* MPI: agreement and the ping-pong                                         */

/**
 * struct tilehybrid_agreement - what tilehybrid_agree() found.
 * @code:  0 if no rank reported an error, else the code of the lowest
 *         rank that did; TILEHYBRID_ERR_NULL when an argument of the call
 *         itself was NULL on some rank (then @arg names it);
 * @rank:  that rank, or -1;
 * @index: the first value that is not the same on every rank, or -1 (only
 *         looked at when no rank reported an error);
 * @lo, @hi: two values of that entry on different ranks (the smallest and
 *         the largest as unsigned 64-bit patterns; convert them back the way
 *         you converted them in).
 * @call:  when tilehybrid_agree() returns an MPI error: the MPI call that
 *         failed on this rank ("MPI_Comm_rank", "MPI_Allreduce" or
 *         "MPI_Bcast"), else "".
 * @arg:   when a rank passed a NULL argument: its name ("out", "v", "msg";
 *         "w" in tilehybrid_agree_status()), else "".
 */
typedef struct tilehybrid_agreement {
    int code;
    int rank;
    int index;
    uint64_t lo, hi;
    const char *call;
    const char *arg;
} tilehybrid_agreement;

/* tilehybrid__agree() sends values in chunks on the stack (16 KiB: tiling.h's
 * ~400 values are one collective): no allocation that could fail on one
 * rank only (every rank makes the same calls).  A chunk starts with HEAD
 * keys, only the first chunk's set: [0] the lowest failing rank and its
 * code, [1] the lowest rank with a NULL argument and which one, [2] the
 * lowest rank without a message, [3] the shortest message buffer (so that
 * a NULL or shorter msg on one rank cannot leave the others in MPI_Bcast). */
enum { TILEHYBRID__AGREE_CHUNK = 512, TILEHYBRID__AGREE_HEAD = 4 };

/* Yielding the processor (a wait on a node with more ranks times threads
 * than processors: tiling.h's TILEHYBRID_WAIT).  sched_yield() is POSIX
 * (<sched.h>): glibc, musl and macOS declare it whatever the feature
 * macros (-std=c99 included); elsewhere _POSIX_PRIORITY_SCHEDULING or
 * _POSIX_THREADS (<unistd.h>) say it is declared.  Without it
 * (TILEHYBRID__HAVE_YIELD 0) a yielding wait is plain MPI_Test polling. */
#if (defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__))) && \
    (defined(__linux__) || defined(__APPLE__) ||                                         \
     (defined(_POSIX_PRIORITY_SCHEDULING) && _POSIX_PRIORITY_SCHEDULING > 0) ||          \
     (defined(_POSIX_THREADS) && _POSIX_THREADS > 0))
#define TILEHYBRID__HAVE_YIELD 1
#else
#define TILEHYBRID__HAVE_YIELD 0
#endif

/* Give the processor to another thread or process ready to run. */
static inline void tilehybrid__yield(void)
{
#if TILEHYBRID__HAVE_YIELD
    (void)sched_yield();
#endif
}

#if TILEHYBRID__DEFINE
/* MPI_Allreduce with @wait 0; with MPI 3, @wait 1 or 2: MPI_Iallreduce
 * completed by MPI_Wait (1) or by MPI_Test polls with the processor
 * yielded between them (2).  Every rank of a collective must pass 0 or
 * every rank non-zero (a blocking collective matches no non-blocking
 * one); 1 and 2 mix. */
TILEHYBRID__COLD int tilehybrid__allreduce(const void *sbuf, void *rbuf, int cnt, MPI_Datatype type,
                                           MPI_Op op, MPI_Comm comm, int wait)
{
#if MPI_VERSION >= 3
    MPI_Request q;
    int flag = 0, rc;
    if (wait == 0)
        return MPI_Allreduce(sbuf, rbuf, cnt, type, op, comm);
    rc = MPI_Iallreduce(sbuf, rbuf, cnt, type, op, comm, &q);
    if (rc == MPI_SUCCESS && wait == 1)
        return MPI_Wait(&q, MPI_STATUS_IGNORE);
    while (rc == MPI_SUCCESS && (rc = MPI_Test(&q, &flag, MPI_STATUS_IGNORE)) == MPI_SUCCESS &&
           !flag)
        tilehybrid__yield();
    return rc;
#else
    (void)wait;
    return MPI_Allreduce(sbuf, rbuf, cnt, type, op, comm);
#endif
}

/* One chunk's keys: the HEAD keys (in the chunk at base 0; UINT64_MAX
 * elsewhere), then v[base .. base + m) and their complements, so that one
 * MPI_MIN gives both min and max.  Returns the number of keys. */
TILEHYBRID__COLD int tilehybrid__agree_pack(uint64_t *buf, int rank, int code, int nul,
                                            const uint64_t *v, int base, int m, const char *msg,
                                            size_t msglen)
{
    int i;
    for (i = 0; i < TILEHYBRID__AGREE_HEAD; i++)
        buf[i] = UINT64_MAX;
    if (base == 0) {
        if (code != 0)  /* the rank above, the whole code (any int) below */
            buf[0] = ((uint64_t)(unsigned)rank << 32) | (uint64_t)(uint32_t)code;
        if (nul != 0)
            buf[1] = ((uint64_t)(unsigned)rank << 8) | (uint64_t)nul;
        if (msg == NULL)
            buf[2] = (uint64_t)(unsigned)rank;
        else
            buf[3] = (uint64_t)msglen;
    }
    for (i = 0; i < m; i++) {
        uint64_t x = v != NULL ? v[base + i] : 0;
        buf[TILEHYBRID__AGREE_HEAD + i] = x;
        buf[TILEHYBRID__AGREE_HEAD + m + i] = ~x;
    }
    return 2 * m + TILEHYBRID__AGREE_HEAD;
}

/* The minimum over comm of cnt unsigned keys, reduced as signed, offset by
 * 2^63 (order-preserving): MPICH 4.0's MPI_MIN on MPI_UINT64_T compares as
 * signed.  buf is changed; @wait: tilehybrid__allreduce's.  Returns
 * MPI_Allreduce's code. */
TILEHYBRID__COLD int tilehybrid__agree_min(uint64_t *buf, uint64_t *res, int cnt, MPI_Comm comm,
                                           int wait)
{
    int i, rc;
    for (i = 0; i < cnt; i++)
        buf[i] ^= (uint64_t)1 << 63;
    rc = tilehybrid__allreduce(buf, res, cnt, MPI_INT64_T, MPI_MIN, comm, wait);
    for (i = 0; rc == MPI_SUCCESS && i < cnt; i++)
        res[i] ^= (uint64_t)1 << 63;
    return rc;
}

/* The reduced HEAD keys: a NULL argument (out->arg names it, nothing is
 * sent) or a failing rank (its code; its message broadcast into msg, *rc
 * the code of MPI_Bcast).  Returns 1 when either was found. */
TILEHYBRID__COLD int tilehybrid__agree_fault(uint64_t *res, const char *mname, char *msg,
                                             MPI_Comm comm, tilehybrid_agreement *out, int *rc)
{
    const char *names[4] = { "", "out", "v", "" };
    names[3] = mname;
    /* a rank without a message while another passes one: its NULL */
    if (res[2] != UINT64_MAX && res[3] != UINT64_MAX && ((res[2] << 8) | 3) < res[1])
        res[1] = (res[2] << 8) | 3;
    if (res[1] != UINT64_MAX) {
        out->code = TILEHYBRID_ERR_NULL;
        out->rank = (int)(res[1] >> 8);
        out->arg = names[res[1] & 3];
        return 1;
    }
    if (res[0] == UINT64_MAX)
        return 0;
    out->code = (int)(int32_t)(uint32_t)(res[0] & 0xffffffffu);
    out->rank = (int)(res[0] >> 32);
    if (msg != NULL && res[3] > 0) {    /* every rank has one */
        int len = (int)(res[3] < (uint64_t)INT_MAX ? res[3] : INT_MAX);
        out->call = "MPI_Bcast";
        *rc = MPI_Bcast(msg, len, MPI_CHAR, out->rank, comm);
        msg[len - 1] = '\0';
    }
    return 1;
}

/* The first of the chunk's m values (v[base ..]) whose minimum and maximum
 * differ: out->index, lo and hi; out->index stays -1 when there is none. */
TILEHYBRID__COLD void tilehybrid__agree_differs(const uint64_t *res, int base, int m,
                                                tilehybrid_agreement *out)
{
    const uint64_t *lo = res + TILEHYBRID__AGREE_HEAD, *notmax = lo + m;
    int i;
    for (i = 0; i < m; i++)
        if (lo[i] != ~notmax[i]) {
            out->index = base + i;
            out->lo = lo[i];
            out->hi = ~notmax[i];
            return;
        }
}

/* tilehybrid__agree() - tilehybrid_agree() once this rank's own arguments
 * are checked: @nul is 0, or the one that is NULL here (1 out, 2 v, 3 the
 * message, named @mname); @out is never NULL; @wait: how the reduction
 * completes (tilehybrid__allreduce). */
TILEHYBRID__COLD int tilehybrid__agree(MPI_Comm comm, int code, int nul, const uint64_t *v, int n,
                                       char *msg, size_t msglen, const char *mname,
                                       tilehybrid_agreement *out, int wait)
{
    uint64_t buf[2 * (2 * TILEHYBRID__AGREE_CHUNK + TILEHYBRID__AGREE_HEAD)];
    uint64_t *res = buf + 2 * TILEHYBRID__AGREE_CHUNK + TILEHYBRID__AGREE_HEAD;
    int rank = 0, rc, base = 0, m, cnt;
    out->code = TILEHYBRID_ERR_MPI;
    out->rank = -1;
    out->index = -1;
    out->lo = out->hi = 0;
    out->call = "MPI_Comm_rank";
    out->arg = "";
    rc = MPI_Comm_rank(comm, &rank);
    for (; rc == MPI_SUCCESS; base += m) {
        out->call = "MPI_Allreduce";
        m = n - base < TILEHYBRID__AGREE_CHUNK ? n - base : TILEHYBRID__AGREE_CHUNK;
        cnt = tilehybrid__agree_pack(buf, rank, code, nul, v, base, m, msg, msglen);
        rc = tilehybrid__agree_min(buf, res, cnt, comm, wait);
        if (rc != MPI_SUCCESS || tilehybrid__agree_fault(res, mname, msg, comm, out, &rc))
            break;
        out->code = 0;
        tilehybrid__agree_differs(res, base, m, out);
        if (out->index >= 0 || base + m >= n)   /* the same on every rank */
            break;
    }
    if (rc != MPI_SUCCESS) {
        out->code = TILEHYBRID_ERR_MPI;
        out->rank = -1;
        out->arg = "";
    } else
        out->call = "";
    return rc;
}

/**
 * tilehybrid_agree() - one collective that tells every rank whether any
 * rank failed (and which, with its message) and whether every rank holds
 * the same values.
 * @comm:   the communicator (every rank calls, with the same @n).
 * @code:   this rank's verdict: 0, or an error code (any other int: a
 *          negative one is an error too, and comes back whole).
 * @v:      n values that must be equal on every rank, as 64-bit patterns
 *          (cast integers; copy doubles with memcpy: compared bit for bit,
 *          so -0.0 differs from 0.0); may be NULL when n is 0.
 * @n:      the number of values (>= 0).
 * @msg:    NULL on every rank, or this rank's message on every rank; when a
 *          rank failed, its message (the lowest failing rank's) replaces
 *          msg on every rank.
 * @msglen: the size of msg (the same on every rank; where it is not, the
 *          shortest is sent).
 * @out:    receives the verdict (the same on every rank).
 * A NULL @out, a NULL @v with n > 0, or a NULL @msg on a rank while another
 * passes one is an error of that rank that every rank learns, before any
 * rank's @code: out->code = TILEHYBRID_ERR_NULL, out->rank the lowest rank
 * at fault, out->arg the argument, and msg (where given) says so
 * ("tilehybrid_agree(): argument 'out' is NULL on rank 2"); no rank
 * crashes or waits.
 * Return: MPI_SUCCESS or the MPI error code of the call that failed (then
 * *out says code = TILEHYBRID_ERR_MPI, rank = -1, and out->call names the
 * call).  Such a failure is this rank's alone: the other ranks may wait in
 * the collective forever, so end the job (tilehybrid_mpi_failed()).
 * MPI_ERR_ARG on a rank whose @out is NULL (the collective ran; the other
 * ranks return MPI_SUCCESS with the verdict above).
 */
TILEHYBRID__COLD int tilehybrid_agree(MPI_Comm comm, int code, const uint64_t *v, int n, char *msg,
                                      size_t msglen, tilehybrid_agreement *out)
{
    tilehybrid_agreement own;
    tilehybrid_agreement *a = out != NULL ? out : &own;
    int nul = out == NULL ? 1 : v == NULL && n > 0 ? 2 : 0;
    int rc = tilehybrid__agree(comm, code, nul, v, n, msg, msglen, "msg", a, 0);
    if (rc == MPI_SUCCESS && a->arg[0] != '\0' && msg != NULL && msglen > 0)
        snprintf(msg, msglen, "tilehybrid_agree(): argument '%s' is NULL on rank %d%s", a->arg,
                 a->rank, strcmp(a->arg, "msg") == 0 ? " (another rank passes one)" : "");
    return rc == MPI_SUCCESS && out == NULL ? MPI_ERR_ARG : rc;
}
#else
TILEHYBRID__COLD int tilehybrid__agree_pack(uint64_t *buf, int rank, int code, int nul,
                                            const uint64_t *v, int base, int m, const char *msg,
                                            size_t msglen);
TILEHYBRID__COLD int tilehybrid__allreduce(const void *sbuf, void *rbuf, int cnt, MPI_Datatype type,
                                           MPI_Op op, MPI_Comm comm, int wait);
TILEHYBRID__COLD int tilehybrid__agree_min(uint64_t *buf, uint64_t *res, int cnt, MPI_Comm comm,
                                           int wait);
TILEHYBRID__COLD int tilehybrid__agree_fault(uint64_t *res, const char *mname, char *msg,
                                             MPI_Comm comm, tilehybrid_agreement *out, int *rc);
TILEHYBRID__COLD void tilehybrid__agree_differs(const uint64_t *res, int base, int m,
                                                tilehybrid_agreement *out);
TILEHYBRID__COLD int tilehybrid__agree(MPI_Comm comm, int code, int nul, const uint64_t *v, int n,
                                       char *msg, size_t msglen, const char *mname,
                                       tilehybrid_agreement *out, int wait);
TILEHYBRID__COLD int tilehybrid_agree(MPI_Comm comm, int code, const uint64_t *v, int n, char *msg,
                                      size_t msglen, tilehybrid_agreement *out);
#endif

/**
 * TILEHYBRID_ARG_MAX - bytes for an argument's name as a status carries it
 * across ranks (tilehybrid_verdict.arg, a plan's errarg) and as a mismatch
 * message names it: the longest name, "number of reductions declared
 * (tile_reduction_init)" (tiling.h), has 51 characters.
 */
#define TILEHYBRID_ARG_MAX 64

/**
 * struct tilehybrid_verdict - a failing rank's error as it travels to every
 * rank in tilehybrid_agree_status(): its status and its message.
 * @arg:       the argument at fault (the status's arg, at most
 *             TILEHYBRID_ARG_MAX - 1 characters), or "";
 * @index:     its index (0-based: dimension i + 1 is index i), or -1;
 * @mpi_error: the MPI error code, or 0;
 * @text:      the header's message, or "".
 */
typedef struct tilehybrid_verdict {
    char arg[TILEHYBRID_ARG_MAX];
    int64_t index;
    int mpi_error;
    char text[320];
} tilehybrid_verdict;

#if TILEHYBRID__DEFINE
/**
 * tilehybrid_agree_status() - tilehybrid_agree() that also hands the
 * lowest failing rank's argument, index, MPI error and message to every
 * rank: the one way the headers carry a status across ranks.
 * @comm, @code, @v, @n: as for tilehybrid_agree().
 * @mine: this rank's status (arg, index, mpi_error), read when @code is not
 *        0; NULL: none.
 * @w:    in: this rank's message in w->text ("" for none; the other fields
 *        are filled here); out, when out->code is not 0: the failing rank's
 *        verdict on every rank.  A NULL @w (or @out, or @v with n > 0) on
 *        a rank is TILEHYBRID_ERR_NULL on every rank, as in
 *        tilehybrid_agree(): w->arg names it ("w", "out", "v"), w->text
 *        says so.  Then tilehybrid_verdict_arg() finds its
 *        argument among the caller's names and tilehybrid_verdict_status()
 *        fills a status.
 * @out:  as for tilehybrid_agree().
 * Return: as tilehybrid_agree().
 */
TILEHYBRID__COLD int tilehybrid__agree_status(MPI_Comm comm, int code,
                                              const tilehybrid_status *mine, const uint64_t *v,
                                              int n, tilehybrid_verdict *w,
                                              tilehybrid_agreement *out, int wait);
TILEHYBRID__COLD int tilehybrid_agree_status(MPI_Comm comm, int code, const tilehybrid_status *mine,
                                             const uint64_t *v, int n, tilehybrid_verdict *w,
                                             tilehybrid_agreement *out)
{
    return tilehybrid__agree_status(comm, code, mine, v, n, w, out, 0);
}

/* tilehybrid_agree_status(), its reduction completed as @wait says
 * (tilehybrid__allreduce: tiling.h's plans pass 1, or 2 to yield the
 * processor on an oversubscribed node). */
TILEHYBRID__COLD int tilehybrid__agree_status(MPI_Comm comm, int code,
                                              const tilehybrid_status *mine, const uint64_t *v,
                                              int n, tilehybrid_verdict *w,
                                              tilehybrid_agreement *out, int wait)
{
    size_t i = 0;
    tilehybrid_agreement own;
    tilehybrid_agreement *a = out != NULL ? out : &own;
    int nul = out == NULL ? 1 : v == NULL && n > 0 ? 2 : w == NULL ? 3 : 0, rc;
    if (w != NULL) {
        w->arg[0] = '\0';
        w->index = -1;
        w->mpi_error = 0;
        w->text[sizeof w->text - 1] = '\0';
    }
    if (w != NULL && code != 0 && mine != NULL) {
        for (; mine->arg != NULL && mine->arg[i] != '\0' && i + 1 < sizeof w->arg; i++)
            w->arg[i] = mine->arg[i];
        w->arg[i] = '\0';
        w->index = mine->index;
        w->mpi_error = mine->mpi_error;
    }
    rc = tilehybrid__agree(comm, code, nul, v, n, (char *)w, w != NULL ? sizeof *w : 0, "w", a,
                           wait);
    if (rc == MPI_SUCCESS && a->arg[0] != '\0' && w != NULL) {
        snprintf(w->arg, sizeof w->arg, "%s", a->arg);
        w->index = -1;
        w->mpi_error = 0;
        snprintf(w->text, sizeof w->text,
                 "tilehybrid_agree_status(): argument '%s' is NULL on rank %d", a->arg, a->rank);
    }
    return rc == MPI_SUCCESS && out == NULL ? MPI_ERR_ARG : rc;
}

/**
 * tilehybrid_verdict_arg() - the failing rank's argument as one of the
 * caller's names (a string that outlives the call, for a status).
 * @w:       the verdict of tilehybrid_agree_status().
 * @names:   the names the caller's ranks may report; @count of them.
 * @unknown: what to return when w->arg is none of them.
 * Return: the name equal to w->arg, else @unknown.
 */
TILEHYBRID__COLD const char *tilehybrid_verdict_arg(const tilehybrid_verdict *w,
                                                    const char *const *names, int count,
                                                    const char *unknown)
{
    int i;
    for (i = 0; i < count; i++)
        if (names[i] != NULL && strcmp(names[i], w->arg) == 0)
            return names[i];
    return unknown;
}

/**
 * tilehybrid_verdict_status() - fill a status with what
 * tilehybrid_agree_status() found on the failing rank.
 * @st:  the status to fill (NULL allowed).
 * @a:   the agreement (a->code not 0: a rank failed).
 * @w:   the verdict.
 * @arg: the argument's name, from tilehybrid_verdict_arg() (or the
 *       caller's own storage).
 * Return: a->code.
 */
TILEHYBRID__COLD int tilehybrid_verdict_status(tilehybrid_status *st, const tilehybrid_agreement *a,
                                               const tilehybrid_verdict *w, const char *arg)
{
    tilehybrid_status_set(st, a->code, arg, w->index);
    if (st != NULL) {
        st->rank = a->rank;
        st->mpi_error = w->mpi_error;
    }
    return a->code;
}

/**
 * tilehybrid_pingpong_ex() - tilehybrid_pingpong(), naming the call that
 * failed.
 * @comm, @peer, @leader, @buf, @bytes, @back, @tag, @seconds: as for
 *          tilehybrid_pingpong().
 * @call:   NULL, or receives the MPI call that failed ("MPI_Send" or
 *          "MPI_Recv"; "" on success).
 * Return: MPI_SUCCESS or the failing call's MPI error code.
 */
TILEHYBRID__COLD int tilehybrid_pingpong_ex(MPI_Comm comm, int peer, int leader, void *buf,
                                            int bytes, int back, int tag, double *seconds,
                                            const char **call)
{
    double t0 = MPI_Wtime();
    const char *c = leader ? "MPI_Send" : "MPI_Recv";
    int rc;
    if (leader) {
        rc = MPI_Send(buf, bytes, MPI_BYTE, peer, tag, comm);
        if (rc == MPI_SUCCESS) {
            c = "MPI_Recv";
            rc = MPI_Recv(buf, back, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE);
        }
    } else {
        rc = MPI_Recv(buf, bytes, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS) {
            c = "MPI_Send";
            rc = MPI_Send(buf, back, MPI_BYTE, peer, tag, comm);
        }
    }
    if (seconds != NULL)
        *seconds = MPI_Wtime() - t0;
    if (call != NULL)
        *call = rc == MPI_SUCCESS ? "" : c;
    return rc;
}

/**
 * tilehybrid_pingpong() - one timed exchange between two ranks.
 * @comm:   a communicator holding both (not collective: only the pair).
 * @peer:   the other rank; both call, each naming the other.
 * @leader: 1 on exactly one of the two: it sends first and times.
 * @buf:    a buffer of at least max(@bytes, @back) bytes on both.
 * @bytes:  bytes the leader sends; @back: bytes the peer sends back (the
 *          same for a symmetric round trip, 0 for a one-way transfer
 *          acknowledged by an empty message).
 * @tag:    the tag (TILEHYBRID_TAG_PINGPONG, or any tag no other pending
 *          message between the two uses).
 * @seconds: on the leader, the time of the exchange (MPI_Wtime).
 * Return: MPI_SUCCESS or the failing call's MPI error code (on this rank
 * only: its partner may wait forever; end the job, tilehybrid_mpi_failed())
 * (tilehybrid_pingpong_ex() also names the call).
 */
TILEHYBRID__COLD int tilehybrid_pingpong(MPI_Comm comm, int peer, int leader, void *buf, int bytes,
                                         int back, int tag, double *seconds)
{
    return tilehybrid_pingpong_ex(comm, peer, leader, buf, bytes, back, tag, seconds, NULL);
}
#else
TILEHYBRID__COLD int tilehybrid_agree_status(MPI_Comm comm, int code, const tilehybrid_status *mine,
                                             const uint64_t *v, int n, tilehybrid_verdict *w,
                                             tilehybrid_agreement *out);
TILEHYBRID__COLD int tilehybrid__agree_status(MPI_Comm comm, int code,
                                              const tilehybrid_status *mine, const uint64_t *v,
                                              int n, tilehybrid_verdict *w,
                                              tilehybrid_agreement *out, int wait);
TILEHYBRID__COLD const char *tilehybrid_verdict_arg(const tilehybrid_verdict *w,
                                                    const char *const *names, int count,
                                                    const char *unknown);
TILEHYBRID__COLD int tilehybrid_verdict_status(tilehybrid_status *st, const tilehybrid_agreement *a,
                                               const tilehybrid_verdict *w, const char *arg);
TILEHYBRID__COLD int tilehybrid_pingpong_ex(MPI_Comm comm, int peer, int leader, void *buf,
                                            int bytes, int back, int tag, double *seconds,
                                            const char **call);
TILEHYBRID__COLD int tilehybrid_pingpong(MPI_Comm comm, int peer, int leader, void *buf, int bytes,
                                         int back, int tag, double *seconds);
#endif

/* ------------------------------------------------------------------------ */
/* MPI: a call that fails inside a collective                               */

/**
 * typedef tilehybrid_mpi_failure_fn - your policy for an MPI call that
 * failed on this rank inside a collective function of topology.h,
 * balance.h or scatterlb.h (installed with tilehybrid_mpi_failure_swap();
 * tiling.h's plans take theirs in cfg.on_mpi_failure, same signature).
 * @msg: the message: "tilehybrid: rank R: CALL failed in HEADER's
 *       FUNCTION() (MPI's error text)".
 * @ctx: the context installed with the hook.
 * It replaces the report on stderr.  It may log or checkpoint and return:
 * the job is then aborted.  A hook that does not return must end with
 * MPI_Abort, not exit(): the other ranks wait for this one, and only
 * MPI_Abort ends them.
 */
typedef void (*tilehybrid_mpi_failure_fn)(const char *msg, void *ctx);

#if TILEHYBRID__DEFINE
/* The installed hook (one per translation unit: a header-only library
 * has no global state).  Swaps it with *fn, *ctx. */
TILEHYBRID__COLD void tilehybrid__mpi_hook_swap(tilehybrid_mpi_failure_fn *fn, void **ctx)
{
    static tilehybrid_mpi_failure_fn hook_fn = NULL;
    static void *hook_ctx = NULL;
    tilehybrid_mpi_failure_fn f = hook_fn;
    void *c = hook_ctx;
    hook_fn = *fn;
    hook_ctx = *ctx;
    *fn = f;
    *ctx = c;
}

/**
 * tilehybrid_mpi_failure_swap() - install your policy for an MPI call that
 * fails inside a collective of topology.h, balance.h or scatterlb.h, and
 * get the previous one back.
 * @fn:  in: your hook (NULL: the default, report on stderr); out: the
 *       hook that was installed.
 * @ctx: in: its context; out: the previous context.
 *
 * Call it again with what it handed back to restore the previous policy.
 * The hook lives in the file that includes the headers (one per
 * translation unit): install it in each file that calls their collectives.
 * Not thread-safe: install it before the threads start.
 */
TILEHYBRID__COLD void tilehybrid_mpi_failure_swap(tilehybrid_mpi_failure_fn *fn, void **ctx)
{
    tilehybrid__mpi_hook_swap(fn, ctx);
}

/**
 * tilehybrid_mpi_abort() - end the job after an MPI call that failed on
 * this rank inside a collective: the other ranks would wait for this one
 * forever, and a failure on one rank cannot be agreed on.
 * @msg:       the message (the call, the rank, MPI's error text).
 * @fn:        NULL: print msg on stderr ("...; aborting the job"); else the
 *             user's hook, which gets msg instead, and may return.
 * @ctx:       passed to fn.
 * @errorcode: MPI_Abort's error code (the header's X_ERR_MPI).
 *
 * Then a pause of a quarter of a second (MPICH's launcher tears the job
 * down at once and may drop what this rank has just written to stderr:
 * 2 messages lost in 30 runs without it, none in 60 with it) and
 * MPI_Abort on MPI_COMM_WORLD (MPICH 4.0's abort of another communicator
 * waits forever once the other ranks are in MPI_Finalize).  Returns only if
 * MPI_Abort returns.
 */
TILEHYBRID__COLD void tilehybrid_mpi_abort(const char *msg, tilehybrid_mpi_failure_fn fn, void *ctx,
                                           int errorcode)
{
    double t0;
    if (fn != NULL)
        fn(msg, ctx);
    else
        fprintf(stderr, "%s; aborting the job (the other ranks would wait for this one "
                "forever)\n", msg);
    fflush(stderr);
    t0 = MPI_Wtime();
    while (MPI_Wtime() - t0 < 0.25)
        ;
    MPI_Abort(MPI_COMM_WORLD, errorcode);
}

/* MPI's text of the error rc in err (MPI_MAX_ERROR_STRING bytes; "MPI
 * error code N" where MPI cannot say). */
TILEHYBRID__COLD void tilehybrid__mpi_error_text(int rc, char *err)
{
    int len = 0;
    if (MPI_Error_string(rc, err, &len) != MPI_SUCCESS)
        snprintf(err, MPI_MAX_ERROR_STRING, "MPI error code %d", rc);
}

/* The two texts of a failed MPI call's message: what fmt and ap say it
 * was doing (into what, size bytes) and MPI's text of the error rc (into
 * err: tilehybrid__mpi_error_text()). */
TILEHYBRID__COLD void tilehybrid__mpi_texts(char *what, size_t size, const char *fmt, va_list ap,
                                            int rc, char *err)
{
    vsnprintf(what, size, fmt, ap);
    tilehybrid__mpi_error_text(rc, err);
}
#else
TILEHYBRID__COLD void tilehybrid__mpi_hook_swap(tilehybrid_mpi_failure_fn *fn, void **ctx);
TILEHYBRID__COLD void tilehybrid_mpi_failure_swap(tilehybrid_mpi_failure_fn *fn, void **ctx);
TILEHYBRID__COLD void tilehybrid_mpi_abort(const char *msg, tilehybrid_mpi_failure_fn fn, void *ctx,
                                           int errorcode);
TILEHYBRID__COLD void tilehybrid__mpi_error_text(int rc, char *err);
TILEHYBRID__COLD void tilehybrid__mpi_texts(char *what, size_t size, const char *fmt, va_list ap,
                                            int rc, char *err);
#endif

TILEHYBRID__COLD void tilehybrid_mpi_failed(MPI_Comm comm, int rc, const char *call, int errorcode,
                                            const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#if TILEHYBRID__DEFINE
/**
 * tilehybrid_mpi_failed() - the headers' one path for an MPI call that
 * failed on this rank inside a collective: report it, then
 * tilehybrid_mpi_abort() with the installed hook.
 * @comm:      the communicator (names this rank; MPI_COMM_WORLD's rank
 *             if comm cannot).
 * @rc:        the call's MPI error code.
 * @call:      the call ("MPI_Allreduce").
 * @errorcode: MPI_Abort's error code (the header's X_ERR_MPI).
 * @fmt:       printf format: where ("in scatterlb.h's slb_calibrate()").
 *
 * The message: "tilehybrid: rank R: CALL failed WHERE (MPI's error text)".
 * Returns only if MPI_Abort returns: the caller then returns its
 * X_ERR_MPI.
 */
TILEHYBRID__COLD void tilehybrid_mpi_failed(MPI_Comm comm, int rc, const char *call, int errorcode,
                                            const char *fmt, ...)
{
    char where[200], err[MPI_MAX_ERROR_STRING], msg[480];
    int rank = -1;
    tilehybrid_mpi_failure_fn fn = NULL, fn2;
    void *ctx = NULL, *ctx2;
    va_list ap;
    va_start(ap, fmt);
    tilehybrid__mpi_texts(where, sizeof where, fmt, ap, rc, err);
    va_end(ap);
    if (comm == MPI_COMM_NULL || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
        (void)MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(msg, sizeof msg, "tilehybrid: rank %d: %s failed %s (%.160s)", rank, call, where,
             err);
    tilehybrid__mpi_hook_swap(&fn, &ctx);   /* read the hook ... */
    fn2 = fn;
    ctx2 = ctx;
    tilehybrid__mpi_hook_swap(&fn2, &ctx2); /* ... and put it back */
    tilehybrid_mpi_abort(msg, fn, ctx, errorcode);
}
#else
TILEHYBRID__COLD void tilehybrid_mpi_failed(MPI_Comm comm, int rc, const char *call, int errorcode,
                                            const char *fmt, ...);
#endif
#endif /* TILEHYBRID_NO_MPI */

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_H */
